"""A shared page in a real Chromium, opened from a ``file://`` address with every other request
blocked (and none attempted): moving each control shows ``workbench.check``'s numbers, in the
charts and in the line of text above them. Screenshots land in ``test-artifacts/``.

Under ``CI=true`` this test must run: a missing chromium or Playwright fails it loudly.
"""
from __future__ import annotations

import re

import pytest

import workbench
from _browser import ARTIFACTS, launch_chromium, require_browser
from workbench.share import share_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SYSTEMS = ["uwr", "call-of-cthulhu-7e", "erzahlspiel", "arrata"]
KNOBS = {"favor": [-1, 0, 1], "bonus": [0, 1, 2], "quality": ["B", "A", "S"]}

_SHOWN = """() => Array.from(document.querySelectorAll('section.wb-system')).map((s, i) => {
  const pass = document.getElementById('wb-pass-' + i), check = document.getElementById('wb-check-' + i);
  return {readout: document.getElementById('wb-readout-' + i).textContent,
          pass: pass.data.map(t => ({name: t.name, x: Array.from(t.x), y: Array.from(t.y)})),
          check: {x: Array.from(check.data[0].x), y: Array.from(check.data[0].y)},
          checkTitle: check.layout.title.text};
})"""


def _set(page, name: str, index: int) -> None:
    """Move the control of ``name`` to its ``index``-th value, as a hand would (an input event)."""
    page.evaluate("""([name, index]) => {
        const c = document.querySelector('[data-knob="' + name + '"]');
        const values = JSON.parse(c.dataset.values);
        c.value = c.tagName === 'SELECT' ? String(index) : String(values[index]);
        c.dispatchEvent(new Event('input', {bubbles: true}));
    }""", [name, index])


def _expected(system: str, knobs: dict, pool: int | None) -> dict:
    sys_ = workbench.system(system)
    own = {k: v for k, v in knobs.items() if k in sys_.params}
    rungs = [r.name for r in sys_.ladder]
    curves = {}
    for rung in rungs:
        if sys_.pool_parameter:
            sizes = (list(range(1, 7)) if system != "call-of-cthulhu-7e" else list(range(10, 100, 10)))
            curves[rung] = (sizes, [workbench.check(sys_, **sys_.with_rung(rung, **own, **{sys_.pool_parameter: n})).p_pass
                                    for n in sizes])
        else:
            curves[rung] = workbench.check(sys_, **sys_.with_rung(rung, **own)).p_pass
    at = dict(own, **({sys_.pool_parameter: pool} if sys_.pool_parameter else {}))
    result = workbench.check(sys_, **at)
    dist = result.tiers if result.tiers is not None else result.pmf
    return {"curves": curves, "check": {str(o): p for o, p in dist.items()}}


def _compare(shown: dict, system: str, knobs: dict, pool: int | None) -> None:
    want = _expected(system, knobs, pool)
    sys_ = workbench.system(system)
    if sys_.pool_parameter:
        for trace in shown["pass"]:
            sizes, values = want["curves"][trace["name"]]
            assert trace["x"] == sizes
            assert trace["y"] == pytest.approx(values, abs=6e-7), (system, trace["name"], knobs)
        readout = {rung: (mark, number) for rung, mark, number in
                   re.findall(r"(\w[\w ]*?) ([<>] )?(\d+\.\d)%", shown["readout"].split(": ", 1)[1])}
        for rung, (sizes, values) in want["curves"].items():
            value = values[sizes.index(pool)]
            mark, number = readout[rung]
            if mark == "> ":   # not certain, but 99.95% or more: never written 100.0%
                assert number == "99.9" and 0.9995 <= value < 1, (rung, readout)
            elif mark == "< ":
                assert number == "0.1" and 0 < value < 0.0005, (rung, readout)
            else:
                assert float(number) == pytest.approx(100 * value, abs=0.051), (rung, readout)
    else:
        (bars,) = shown["pass"]
        for rung, y in zip(bars["x"], bars["y"]):
            assert y == pytest.approx(want["curves"][rung], abs=6e-7)
    got = dict(zip(shown["check"]["x"], shown["check"]["y"]))
    for outcome, p in want["check"].items():
        assert got.get(outcome, 0.0) == pytest.approx(p, abs=6e-7), (system, outcome, knobs, pool)


def test_the_page_works_offline_and_shows_checks_numbers(tmp_path):
    require_browser()
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    page_file = share_page(SYSTEMS, KNOBS, pools=range(1, 7), out=tmp_path / "odds.html")
    assert page_file.stat().st_size <= 2_000_000
    attempted: list[str] = []
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 3200})

            def guard(route):
                if route.request.url.startswith("file://"):
                    route.continue_()
                else:
                    attempted.append(route.request.url)
                    route.abort()

            context.route("**/*", guard)
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(page_file.as_uri(), timeout=120_000)
            page.wait_for_function("() => document.body.dataset.ready === 'yes'", timeout=60_000)
            controls = page.evaluate("""() => Array.from(document.querySelectorAll('[data-knob]'))
                .map(c => ({name: c.dataset.knob, tag: c.tagName, type: c.type || '',
                            values: JSON.parse(c.dataset.values)}))""")
            names = [c["name"] for c in controls]
            assert names == ["favor", "bonus", "quality", "dice", "skill"], names
            assert {c["name"]: c["tag"] for c in controls}["favor"] == "INPUT"
            assert {c["name"]: c["type"] for c in controls}["favor"] == "range"
            assert {c["name"]: c["tag"] for c in controls}["quality"] == "SELECT"
            state = {"favor": 0, "bonus": 0, "quality": "B", "dice": 4, "skill": 50}
            page.screenshot(path=str(ARTIFACTS / "share-page.png"), full_page=True)
            moves = 0
            for control in controls:   # every control, through each of its values
                for index, value in enumerate(control["values"]):
                    _set(page, control["name"], index)
                    state[control["name"]] = value
                    page.wait_for_timeout(150)
                    shown = page.evaluate(_SHOWN)
                    for system, part in zip(SYSTEMS, shown):
                        sys_ = workbench.system(system)
                        knobs = {k: state[k] for k in KNOBS if k in sys_.params}
                        pool = state.get(sys_.pool_parameter) if sys_.pool_parameter else None
                        _compare(part, system, knobs, pool)
                    moves += 1
            assert moves == sum(len(c["values"]) for c in controls)
            page.screenshot(path=str(ARTIFACTS / "share-page-moved.png"), full_page=True)
            assert not errors, errors
        finally:
            browser.close()
    assert attempted == [], attempted   # nothing but the file itself was asked for
