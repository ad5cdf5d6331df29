"""Attack round on the shared page: what is neither impossible nor certain is never shown as
0.0% or 100.0% (the page rounded to millionths, then to one decimal)."""
import pytest

import workbench
from workbench.share.grid import MILLION, _millionths


def test_the_page_never_carries_a_possible_failure_as_certain():
    p = workbench.check("uwr", dice=10, favor=3, target=1).p_pass   # 2+: 1 - (1/6)**10
    assert 1 - p < 5e-7 and _millionths(p) == MILLION - 1
    assert _millionths(1 - p) == 1 and _millionths(0.0) == 0 and _millionths(1.0) == MILLION
    assert _millionths(1 - 1e-15) == MILLION   # float noise of a certain result stays certain


@pytest.mark.browser
@pytest.mark.slow
def test_the_readout_marks_near_certain_odds(tmp_path):
    """UWR at 10 dice, Easy with favor +2: 1 - (1/6)**10 read "100.0%" above the charts, beside
    "> 99.9%" in every table; the Difficult rung at 1 die (impossible) stays "0.0%"."""
    from _browser import launch_chromium, require_browser
    from workbench.share import share_page

    require_browser()
    from playwright.sync_api import sync_playwright

    page_file = share_page(["uwr"], {"favor": [1, 2]}, pools=[1, 10], out=tmp_path / "p.html")
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = browser.new_page()
            page.goto(page_file.as_uri(), timeout=120_000)
            page.wait_for_function("() => document.body.dataset.ready === 'yes'", timeout=60_000)
            readouts = []
            for favor_index, pool_index in ((1, 1), (1, 0)):   # favor 2; 10 dice, then 1 die
                page.evaluate("""(indices) => {
                    ["favor", "dice"].forEach((name, i) => {
                        const c = document.querySelector('[data-knob="' + name + '"]');
                        const values = JSON.parse(c.dataset.values);
                        c.value = c.tagName === 'SELECT' ? String(indices[i]) : String(values[indices[i]]);
                        c.dispatchEvent(new Event('input', {bubbles: true}));
                    })}""", [favor_index, pool_index])
                readouts.append(page.evaluate("() => document.getElementById('wb-readout-0').textContent"))
        finally:
            browser.close()
    at_ten, at_one = readouts
    assert "Easy > 99.9%" in at_ten and "100.0%" not in at_ten, at_ten
    assert "Difficult 0.0%" in at_one, at_one
