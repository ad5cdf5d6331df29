"""The balance report in a real Chromium: the five-system page opens offline, every figure
is drawn by the bundled plotly.js at full size, and no legend covers a plot, an axis title or
tick labels. Screenshots of the page land in ``test-artifacts/``.

Under ``CI=true`` this test must run: a missing chromium or Playwright fails it loudly.
"""
from __future__ import annotations

import pytest

from _browser import ARTIFACTS, OVERLAPS, launch_chromium, require_browser
from workbench.report import build_report

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_five_system_report_draws_every_figure_without_overlap(tmp_path):
    require_browser()
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    # With wanted odds too, so the solved ladders' figures are drawn as well: at a glance,
    # curves, ladders, solved ladders and tiers (each system's own ladder is shown as written
    # without them, and solved only when asked).
    out = build_report(tmp_path / "report.html", wanted="Easy=0.9,Normal=0.7,Difficult=0.45,Extreme=0.2")
    assert out.stat().st_size <= 2_000_000
    expected = out.read_text(encoding="utf-8").count('<div class="figure">')
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(out.as_uri(), timeout=120_000)
            page.wait_for_function(f"() => document.querySelectorAll('.js-plotly-plot .main-svg')"
                                   f".length >= {expected}", timeout=120_000)
            page.wait_for_timeout(1000)
            assert not errors, errors
            figures = page.locator(".figure")
            assert figures.count() == expected >= 5
            for index in range(expected):
                figure = figures.nth(index)
                figure.scroll_into_view_if_needed()
                found = page.evaluate(OVERLAPS, figure.element_handle())
                title = page.evaluate("e => e.querySelector('.gtitle')?.textContent || ''",
                                      figure.element_handle())
                assert not found.get("missing"), (index, title)
                assert found["width"] >= 600 and found["height"] >= 300, (title, found)
                assert not found["problems"], (title, found["problems"])
                figure.screenshot(path=str(ARTIFACTS / f"report-figure-{index + 1}.png"))
            page.screenshot(path=str(ARTIFACTS / "report.png"), full_page=True)
        finally:
            browser.close()
