"""A real browser drives the explorer: Voila serves notebooks/00_explorer.ipynb to Debian's
chromium (Playwright's Python package; never ``playwright install``). Moving a slider must
change the plotted values to the engine's new numbers; no label may be cut off; the chart
must stay in view as systems are added. (Every notebook in JupyterLab: test_browser_lab.py.)

Under ``CI=true`` this test must run: a missing chromium or Playwright fails it loudly.
Elsewhere it skips when chromium is missing. A screenshot lands in ``test-artifacts/``.
"""
from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import pytest

import workbench
from _browser import (ARTIFACTS, OVERLAPS, free_port, launch_chromium, port_open, require_browser,
                      server)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "00_explorer.ipynb"
@pytest.fixture
def voila_url(tmp_path):
    """Voila serving a temporary copy of the explorer notebook; stopped by PID afterwards."""
    require_browser()
    shutil.copy(NOTEBOOK, tmp_path / NOTEBOOK.name)
    port = free_port()
    command = [sys.executable, "-m", "voila", NOTEBOOK.name, "--no-browser", f"--port={port}",
               "--Voila.ip=127.0.0.1"]
    with server("voila", command, tmp_path, tmp_path / "voila.log", lambda: port_open(port),
                timeout=90, stop_timeout=15):
        yield f"http://127.0.0.1:{port}/"


_PLOTTED = """() => {
  const plot = document.querySelector('.wb-explorer .js-plotly-plot');
  if (!plot || !plot.data) return null;
  return {title: plot.layout.title.text || plot.layout.title,
          traces: plot.data.map(t => ({name: t.name, group: t.legendgroup || '',
                                       x: Array.from(t.x), y: Array.from(t.y)}))};
}"""


# Labels and buttons whose text does not fit (the browser cuts it with an ellipsis).
_TRUNCATED = """() => Array.from(document.querySelectorAll(
    '.wb-explorer .widget-label, .wb-explorer .widget-toggle-button, .wb-explorer .lm-AccordionPanel-title'))
    .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
    .map(e => e.textContent.trim())"""
# Every text the explorer's status line shows from now on (a busy note can be brief).
_RECORD_STATUS = """() => {
  window.__wbStatus = [];
  const status = document.querySelector('.wb-explorer .wb-status');
  new MutationObserver(() => window.__wbStatus.push(status.textContent))
      .observe(status, {childList: true, subtree: true, characterData: true});
}"""
_SLIDER_DISABLED = """() => {
  const knob = document.querySelector('.wb-knob-dice');
  return !!knob && (knob.querySelector('[disabled]') !== null
                    || knob.querySelector('.noUi-target[disabled]') !== null);
}"""


def _expected_curves(favor: int, pools):
    uwr = workbench.system("uwr")
    return {f"{rung.name}": [workbench.check("uwr", **uwr.with_rung(rung, dice=n, favor=favor)).p_pass
                             for n in pools] for rung in uwr.ladder}


def _matches(plotted, favor: int) -> bool:
    if not plotted or not plotted["traces"]:
        return False
    pools = plotted["traces"][0]["x"]
    expected = _expected_curves(favor, pools)
    for trace in plotted["traces"]:
        rung = trace["name"].split(" · ")[-1]
        if rung not in expected or len(trace["y"]) != len(expected[rung]):
            return False
        if any(abs(got - want) > 1e-9 for got, want in zip(trace["y"], expected[rung])):
            return False
    return len(plotted["traces"]) == len(expected)


def _wait_until(page, predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = page.evaluate(_PLOTTED)
        if predicate(last):
            return last
        page.wait_for_timeout(200)
    raise AssertionError(f"timed out waiting for {what}; the page plots {last}")


def test_moving_a_slider_redraws_with_the_engines_numbers(voila_url):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1300})
            console: list[str] = []
            page.on("console", lambda m: console.append(m.text) if m.type in ("error", "warning") else None)
            page.on("pageerror", lambda error: console.append(f"page error: {error}"))
            page.goto(voila_url, timeout=120_000)
            page.wait_for_selector(".wb-explorer .js-plotly-plot", timeout=120_000)
            start = _wait_until(page, lambda p: _matches(p, favor=0), 60, "the favor 0 curves")
            assert "exact" in start["title"]

            handle = page.locator(".wb-knob-favor .noUi-handle")
            assert handle.count() == 1
            moved = None
            for attempt in range(4):  # a key pressed before the kernel's link is up is lost
                handle.focus()
                if attempt:
                    page.keyboard.press("ArrowLeft")  # back to 0, so the next press is news
                page.keyboard.press("ArrowRight")  # favor 0 -> 1
                try:
                    moved = _wait_until(page, lambda p: _matches(p, favor=1), 30, "the favor 1 curves")
                    break
                except AssertionError as exc:
                    if attempt == 3:
                        readout = page.locator(".wb-knob-favor .widget-readout").inner_text()
                        status = page.locator(".wb-explorer .wb-status").inner_text()
                        plots = page.evaluate("() => document.querySelectorAll('.js-plotly-plot').length")
                        raise AssertionError(f"favor readout {readout!r}, status {status!r}, "
                                             f"{plots} plots, console {console[-5:]}: "
                                             f"{str(exc)[:200]}") from None
            readout = page.locator(".wb-knob-favor .widget-readout").inner_text().strip()
            assert float(readout) == pytest.approx(1)
            assert moved["traces"] != start["traces"]
            assert moved["traces"][0]["group"] == "uwr favor=1"   # the legend group names it

            # starting values: a typical pool of 4, shown but disabled where it is the x axis
            dice = page.locator(".wb-knob-dice .widget-readout").inner_text().strip()
            assert dice == "4"
            assert page.evaluate(_SLIDER_DISABLED), "the dice knob should be disabled on curves"
            shown = page.locator(".wb-knob-target option:checked").inner_text()
            assert shown.replace("\xa0", " ") == "(not set)"
            cut = page.evaluate(_TRUNCATED)
            assert not cut, f"labels cut off: {cut}"

            page.screenshot(path=str(ARTIFACTS / "explorer.png"), full_page=True)
            # the widget alone, as docs/explorer.png shows it
            page.locator(".wb-explorer").screenshot(path=str(ARTIFACTS / "explorer-widget.png"))
            # two more systems: their panels open one at a time and the chart stays in view
            for system in ("arrata", "unnamed"):
                picker = page.locator(".wb-explorer select").first
                names = picker.locator("option").all_inner_texts()
                wanted = workbench.system(system).name.replace(" ", "\xa0")
                picker.select_option(index=[n.replace(" ", "\xa0") for n in names].index(wanted))
                page.locator(".wb-explorer .wb-add-system").click(timeout=20_000)
                page.wait_for_function(
                    "n => document.querySelector('.wb-explorer .js-plotly-plot').data"
                    ".some(t => (t.legendgroup || '').startsWith(n))", arg=system, timeout=60_000)
            box = page.locator(".wb-explorer .js-plotly-plot").bounding_box()
            assert box["y"] < 700 and box["height"] >= 400, box  # beside the controls, in view
            cut = page.evaluate(_TRUNCATED)
            assert not cut, f"labels cut off: {cut}"
            page.screenshot(path=str(ARTIFACTS / "explorer-three-systems.png"))

            # switching to simulated shows a first estimate while the simulation runs
            page.evaluate(_RECORD_STATUS)
            page.locator(".wb-method button", has_text="simulated").click()
            page.wait_for_function(
                "() => (document.querySelector('.wb-explorer .js-plotly-plot').layout.title.text"
                " || '').includes('simulated')", timeout=120_000)
            page.wait_for_function("() => window.__wbStatus.some(t => t.includes('simulated: '))",
                                   timeout=120_000)
            seen = page.evaluate("() => window.__wbStatus")
            # a first estimate at once, then the trials asked for
            assert any("first estimate" in text and "simulating" in text for text in seen), seen
        finally:
            browser.close()


def _switch(page, view: str, title_part: str) -> None:
    for attempt in range(4):  # clicking a view again changes nothing: safe to retry
        page.locator(".wb-view button", has_text=view).click()
        try:
            page.wait_for_function(
                "t => (document.querySelector('.wb-explorer .js-plotly-plot').layout.title.text"
                " || '').includes(t)", arg=title_part, timeout=30_000)
            break
        except Exception:
            if attempt == 3:
                raise
    page.wait_for_timeout(600)  # the relayout lands, the legend takes its place


def _add(page, system: str) -> None:
    picker = page.locator(".wb-explorer select").first
    names = picker.locator("option").all_inner_texts()
    wanted = workbench.system(system).name.replace(" ", "\xa0")
    picker.select_option(index=[n.replace(" ", "\xa0") for n in names].index(wanted))
    page.locator(".wb-explorer .wb-add-system").click(timeout=20_000)
    page.wait_for_function(   # a legend group (curves) or a panel title (one check) names it
        "n => { const p = document.querySelector('.wb-explorer .js-plotly-plot');"
        " return p.data.some(t => (t.legendgroup || '').startsWith(n))"
        " || (p.layout.annotations || []).some(a => (a.text || '').startsWith(n)); }",
        arg=system, timeout=120_000)
    page.wait_for_timeout(600)


#: Each view and what its title says, switched through in an order that visits every pair.
_VIEWS = {"success curve": "P(pass) against dice", "one check": "One check",
          "difference": "P(pass) minus"}
_SEQUENCE = ["one check", "difference", "success curve", "difference", "one check",
             "success curve", "one check"]


def test_the_legend_never_covers_the_plot_whatever_the_views_switched(voila_url):
    """Switch views in every order, with two systems and with three: after each switch the
    legend stays off the plot area, the axis titles and the tick labels, and one check's
    labels stay apart; a screenshot of each state lands in test-artifacts/."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1300})
            page.goto(voila_url, timeout=120_000)
            page.wait_for_selector(".wb-explorer .js-plotly-plot", timeout=120_000)
            _wait_until(page, lambda p: _matches(p, favor=0), 60, "the favor 0 curves")
            # A first round trip to the kernel (a view and back; safe to repeat) before adding.
            _switch(page, "one check", _VIEWS["one check"])
            _switch(page, "success curve", _VIEWS["success curve"])
            seen = []
            for step, systems in enumerate((["arrata"], ["unnamed"])):  # two systems, then three
                for system in systems:
                    _add(page, system)
                for index, view in enumerate(_SEQUENCE):
                    _switch(page, view, _VIEWS[view])
                    found = page.evaluate(OVERLAPS, page.locator(".wb-explorer .wb-chart").element_handle())
                    name = f"explorer-{step + 1}-{index + 1}-{view.replace(' ', '-')}.png"
                    page.locator(".wb-explorer").screenshot(path=str(ARTIFACTS / name))
                    seen.append((name, found))
                    assert found["legends"] >= 1 and found["areas"] >= 1, (name, found)
                    assert not found["problems"], (name, found["problems"])
                    assert found["height"] >= 400 and found["width"] >= 400, (name, found)
            # one check with three systems: only distinct columns (UWR's rungs that roll the
            # same dice share one), none of them repeated
            columns = page.evaluate("() => document.querySelector('.wb-explorer .js-plotly-plot')"
                                    ".data[0].x")
            assert len(columns) == len(set(columns)), columns
            assert any("Normal – Extreme" in c for c in columns), columns
        finally:
            browser.close()

