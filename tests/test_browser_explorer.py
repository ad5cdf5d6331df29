"""The explorer in a real Chromium (Voila), with one to six systems of mixed kinds: dice pools,
a d100 skill, a 2d6 + stat roll, a trait die, narrative dice, an exploding variant, one-line
formulas.

For every view the figure must keep its labels apart (tick labels, legends, panel and axis
titles, measured as boxes in the page), cut no text at its edge, give each plot area room,
take the width the page gives, and plot the engine's numbers. A screenshot of each state lands
in ``test-artifacts/``. Then the rules editor, the export and share rows and the simulated
view's two steps, each through the page.

Under ``CI=true`` these tests must run: a missing chromium or Playwright fails them loudly.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

import workbench
from _browser import (ARTIFACTS, PANEL_OVERLAPS, free_port, launch_chromium, port_open,
                      require_browser, server)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "00_explorer.ipynb"

#: One to six systems; each kind of pool: dice, a d100 skill, a stat, a die size, none.
SCENARIOS = {
    "1": ["uwr"],
    "2": ["uwr", "call-of-cthulhu-7e"],
    "3": ["uwr", "pbta", "erzahlspiel"],
    "4": ["uwr", "call-of-cthulhu-7e", "savage-worlds", "fons-exploding"],
    "5": ["arrata", "(@dice=5)d10cs>=8x", "pbta", "erzahlspiel", "4d6kh3"],   # one-liners too
    "6": ["uwr", "call-of-cthulhu-7e", "pbta", "savage-worlds", "erzahlspiel", "fons-exploding"],
}
#: What each system's curve grows.
KINDS = {"uwr": "dice", "fons-exploding": "dice", "arrata": "dice", "unnamed": "dice",
         "genesys": "dice", "call-of-cthulhu-7e": "skill", "pbta": "stat",
         "savage-worlds": "trait", "erzahlspiel": "rung", "(@dice=5)d10cs>=8x": "dice",
         "4d6kh3": "rung"}
VIEWS = {"success curve": "P(pass)", "one check": "One check", "difference": "P(pass) minus",
         "distribution": "Distribution of one roll", "at least": "At least", "at most": "At most"}
#: The least width and height (x 0.6) of a plot area, in pixels.
SMALLEST_AREA = 160
VIEWPORT = {"width": 1280, "height": 4200}   # tall: every panel in view for its screenshot


def _notebook(folder: Path, name: str, code: str) -> None:
    book = json.loads(NOTEBOOK.read_text())
    book["cells"] = [cell for cell in book["cells"] if cell["cell_type"] == "markdown"][:1] + [
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
         "source": code.splitlines(keepends=True)}]
    (folder / f"{name}.ipynb").write_text(json.dumps(book))


@pytest.fixture(scope="module")
def voila(tmp_path_factory):
    """Voila serving a folder of explorer notebooks (one per scenario); stopped by PID."""
    require_browser()
    folder = tmp_path_factory.mktemp("explorers")
    for name, systems in SCENARIOS.items():
        _notebook(folder, f"explorer{name}", "from workbench.widgets import explorer\n"
                                             f"explorer(*{systems!r})")
    port = free_port()
    command = [sys.executable, "-m", "voila", str(folder), "--no-browser", f"--port={port}",
               "--Voila.ip=127.0.0.1"]
    with server("voila", command, folder, folder / "voila.log", lambda: port_open(port),
                timeout=90, stop_timeout=15):
        try:
            yield f"http://127.0.0.1:{port}/voila/render/", folder
        finally:
            log = folder / "voila.log"
            if log.exists():   # kept beside the screenshots: a failure's kernel side
                ARTIFACTS.mkdir(exist_ok=True)
                (ARTIFACTS / "explorer-voila.log").write_text(log.read_text(errors="replace"))


@pytest.fixture(scope="module")
def browser():
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        try:
            yield chromium
        finally:
            chromium.close()


def _open(browser, url: str, viewport=VIEWPORT):
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.goto(url, timeout=300_000)
    # the first page of a session starts a kernel and loads every library: minutes on a busy machine
    page.wait_for_selector(".wb-explorer .js-plotly-plot .main-svg", timeout=300_000)
    page.wait_for_function("() => (document.querySelector('.wb-explorer .wb-status') || {})"
                           ".textContent.includes('updated')", timeout=120_000)
    return page, errors


_FIGURE = """() => { const p = document.querySelector('.wb-explorer .js-plotly-plot');
  return {title: (p.layout.title && p.layout.title.text) || '',
          traces: p.data.map(t => ({name: t.name, group: t.legendgroup || '', x: Array.from(t.x || []),
                                    y: Array.from(t.y || []), xaxis: t.xaxis || 'x'})),
          notes: ((p.layout.annotations) || []).map(a => a.text),
          axes: Object.keys(p.layout).filter(k => /^xaxis\\d*$/.test(k))
                  .map(k => [k, (p.layout[k].title || {}).text || ''])}; }"""


def _switch(page, view: str) -> dict:
    """Click a view and wait until the chart shows it (a click lost to a busy kernel is
    clicked again: choosing the shown view changes nothing)."""
    for attempt in range(4):
        page.locator(".wb-view button", has_text=view).first.click()
        try:
            page.wait_for_function(
                "t => (document.querySelector('.wb-explorer .js-plotly-plot').layout.title.text"
                " || '').startsWith(t) || (document.querySelector('.wb-explorer .js-plotly-plot')"
                ".layout.title.text || '').includes(': ' + t)", arg=VIEWS[view], timeout=60_000)
            break
        except Exception:
            if attempt == 3:
                raise
    page.wait_for_timeout(700)   # the relayout lands
    return page.evaluate(_FIGURE)


def _expected_curve(system: str, rung: str, x) -> float | None:
    sys_ = workbench.system(system)
    params = {sys_.pool_parameter: 4} if sys_.pool_parameter else {}
    if sys_.pool_parameter and x is not None and not isinstance(x, str):
        params[sys_.pool_parameter] = x
    elif isinstance(x, str) and rung not in ("each rung", "P(pass)"):
        choice = next(n for n, p in sys_.params.items() if p.kind == "choice" and x in map(str, p.choices))
        params[choice] = x
    if system == "arrata":
        params.setdefault("dice", 4)
    if rung in ("each rung", "P(pass)"):   # a bar per rung (or the knobs as set)
        rung = x
    if not sys_.ladder or rung == "as set":   # no ladder: the knobs as set
        return workbench.check(sys_, **params).p_pass
    return workbench.check(sys_, **sys_.with_rung(rung, **params)).p_pass


def _check_curves(figure: dict, systems: list[str]) -> int:
    """Every plotted point of the curve view against ``workbench.check``; the points checked."""
    checked = 0
    for trace in figure["traces"]:
        system = next(s for s in systems if trace["group"].split(" ")[0] == s)
        for x, y in zip(trace["x"], trace["y"]):
            want = _expected_curve(system, trace["name"], x)
            assert y == pytest.approx(want, abs=1e-9), (system, trace["name"], x)
            checked += 1
    return checked


# Labels and buttons of the controls whose text does not fit (the browser cuts it with "…").
_TRUNCATED = """() => Array.from(document.querySelectorAll(
    '.wb-explorer .widget-label, .wb-explorer .widget-toggle-button, .wb-explorer .widget-button,'
    + ' .wb-explorer .lm-AccordionPanel-title, .wb-explorer .widget-html-content'))
    .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
    .map(e => e.textContent.trim())"""


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_every_view_keeps_its_labels_apart_and_plots_the_engines_numbers(voila, browser, scenario):
    url, _ = voila
    systems = SCENARIOS[scenario]
    ARTIFACTS.mkdir(exist_ok=True)
    page, errors = _open(browser, f"{url}explorer{scenario}.ipynb")
    try:
        cut = page.evaluate(_TRUNCATED)   # the newest entry's panel is open: its controls too
        assert not cut, f"control labels cut off: {cut}"
        chart = page.locator(".wb-explorer .wb-chart")
        for view in VIEWS:
            figure = _switch(page, view)
            found = page.evaluate(PANEL_OVERLAPS, [chart.element_handle(), SMALLEST_AREA])
            name = f"explorer-{scenario}-systems-{view.replace(' ', '-')}.png"
            chart.screenshot(path=str(ARTIFACTS / name))
            assert not found.get("missing"), name
            assert not found["problems"], (name, found["problems"])
            # the plot takes the width the page gives (1280 px less the 430 px controls)
            assert found["width"] >= 760, (name, found["width"])
            assert found["height"] >= 400, (name, found)
            if view == "difference" and len(systems) == 1:
                assert not found["drawn"] and "Add a second system" in " ".join(figure["notes"])
                continue
            if view == "difference" and not any(KINDS[s] == KINDS[systems[0]] for s in systems[1:]):
                # nothing on the baseline's kind of pool: said, not drawn
                assert not found["drawn"] and "Nothing to compare" in " ".join(figure["notes"])
                continue
            assert found["drawn"] and found["areas"] >= 1, (name, found)
            if view == "success curve":
                assert _check_curves(figure, systems) >= 10
                # one panel per kind of pool: dice, skill, stat, die size, rungs never share
                by_axis: dict[str, set] = {}
                for trace in figure["traces"]:
                    by_axis.setdefault(trace["xaxis"], set()).add(KINDS[trace["group"].split(" ")[0]])
                assert all(len(k) == 1 for k in by_axis.values()), by_axis   # one kind a panel
                assert len(by_axis) >= len({KINDS[s] for s in systems})
                # every dice pool on one axis (the rungs of different ladders: a panel each)
                assert sum(k == {"dice"} for k in by_axis.values()) == int("dice" in map(KINDS.get, systems))
            if view in ("success curve", "difference"):   # no word twice in a legend entry
                for trace in figure["traces"]:
                    words = f"{trace['group']} · {trace['name']}".split(" · ")
                    assert len(words) == len(set(words)), words
        assert not errors, errors
    finally:
        page.close()


def test_the_chart_follows_the_width_of_the_page(voila, browser):
    url, _ = voila
    page, _ = _open(browser, f"{url}explorer2.ipynb", {"width": 1280, "height": 1200})
    try:
        plot = page.locator(".wb-explorer .js-plotly-plot")
        narrow = plot.bounding_box()["width"]
        page.set_viewport_size({"width": 1800, "height": 1200})
        page.wait_for_function(f"() => document.querySelector('.wb-explorer .js-plotly-plot .main-svg')"
                               f".getBoundingClientRect().width > {narrow + 300}", timeout=30_000)
        wide = plot.bounding_box()["width"]
        svg = page.evaluate("() => document.querySelector('.wb-explorer .js-plotly-plot .main-svg')"
                            ".getBoundingClientRect().width")
        assert narrow >= 760 and wide >= narrow + 400 and svg == pytest.approx(wide, abs=2)
        page.screenshot(path=str(ARTIFACTS / "explorer-wide.png"))
    finally:
        page.close()


def test_editing_the_rules_redraws_and_shows_an_error_with_its_line(voila, browser):
    from workbench.rules.text import source_text, system_from_text

    url, _ = voila
    page, errors = _open(browser, f"{url}explorer1.ipynb", {"width": 1280, "height": 1600})
    try:
        page.locator(".wb-edit-rules").click()
        box = page.locator(".wb-editor-text textarea")
        box.wait_for(timeout=30_000)
        original = source_text("uwr")
        assert box.input_value() == original
        edited = original.replace("faces = [0, 0, 0, 0, 1, 1]", "faces = [0, 0, 0, 1, 1, 1]")
        system = system_from_text(edited)
        want = [workbench.check(system, **system.with_rung("Normal", dice=n)).p_pass for n in (1, 2, 3)]
        box.fill(edited)
        page.wait_for_function(
            "w => { const t = document.querySelector('.wb-explorer .js-plotly-plot').data"
            ".find(t => t.name === 'Normal'); return t && Math.abs(t.y[0] - w[0]) < 1e-9"
            " && Math.abs(t.y[2] - w[2]) < 1e-9; }", arg=want, timeout=60_000)
        figure = page.evaluate(_FIGURE)
        assert any("(edited)" in t["group"] for t in figure["traces"])
        # The status line is set once the figure is drawn: its message may come a moment later.
        page.wait_for_function("() => (document.querySelector('.wb-editor-status') || {})"
                               ".innerText?.includes('loaded')", timeout=30_000)
        broken = edited.replace("[params.favor]", "[params.favor")
        line = broken.splitlines().index("[params.favor") + 1
        box.fill(broken)
        page.wait_for_selector(".wb-editor-error", timeout=60_000)
        shown = page.locator(".wb-editor-error").inner_text()
        assert f"line {line}" in shown and "[params.favor" in shown, shown
        after = page.evaluate(_FIGURE)
        assert after["traces"] == figure["traces"]   # the last good rules stay drawn
        page.locator(".wb-explorer").screenshot(path=str(ARTIFACTS / "explorer-editor-error.png"))
        assert not errors, errors
    finally:
        page.close()


def test_export_and_share_rows_write_their_files(voila, browser):
    url, folder = voila
    page, errors = _open(browser, f"{url}explorer2.ipynb", {"width": 1280, "height": 2600})
    try:
        for label, suffix in (("CSV", ".csv"), ("Markdown table", ".md")):
            page.locator(".wb-explorer select").filter(has_text="Markdown table").select_option(label=label)
            page.locator(".wb-export").click()
            page.wait_for_function(f"s => (document.querySelector('.wb-export-result') || {{}})"
                                   f".textContent.includes('explorer-curve' + s)", arg=suffix,
                                   timeout=60_000)
            written = folder / f"explorer-curve{suffix}"
            text = written.read_text()
            uwr = workbench.system("uwr")
            normal = workbench.check(uwr, **uwr.with_rung("Normal", dice=1)).p_pass   # at 1 die
            assert "uwr · Normal" in text and "call-of-cthulhu-7e · Regular" in text
            if suffix == ".csv":
                assert f",1,uwr · Normal,{normal:.6f}" in text
            else:
                assert re.search(r"\| 1 +\| [^|]+\| " + re.escape(f"{100 * normal:.1f}%"), text)
            link = page.locator(".wb-export-result a[download]")
            assert link.get_attribute("download") == written.name
        page.locator(".wb-explorer input[placeholder^='favor=']").fill("favor=0-1")
        page.locator(".wb-share").click()
        page.wait_for_function("() => (document.querySelector('.wb-share-result') || {})"
                               ".textContent.includes('odds.html')", timeout=180_000)
        shared = (folder / "odds.html").read_text()
        assert "holds 2 settings" in shared and 'data-knob="favor"' in shared
        page.locator(".wb-explorer").screenshot(path=str(ARTIFACTS / "explorer-export-share.png"))
        assert not errors, errors
    finally:
        page.close()


def test_the_simulated_view_shows_a_first_estimate_then_refines(voila, browser):
    url, _ = voila
    page, errors = _open(browser, f"{url}explorer3.ipynb", {"width": 1280, "height": 1600})
    try:
        page.evaluate("""() => { window.__wbStatus = [];
            const status = document.querySelector('.wb-explorer .wb-status');
            new MutationObserver(() => window.__wbStatus.push(status.textContent))
                .observe(status, {childList: true, subtree: true, characterData: true}); }""")
        page.locator(".wb-method button", has_text="simulated").click()
        page.wait_for_function("() => window.__wbStatus.some(t => t.includes('simulated: 100,000'))",
                               timeout=180_000)
        seen = page.evaluate("() => window.__wbStatus")
        first = next(i for i, t in enumerate(seen) if "first estimate" in t)
        done = next(i for i, t in enumerate(seen) if "simulated: 100,000" in t)
        assert first < done, seen
        title = page.evaluate("() => document.querySelector('.wb-explorer .js-plotly-plot').layout.title.text")
        assert "100,000 trials" in title
        page.locator(".wb-explorer .wb-chart").screenshot(path=str(ARTIFACTS / "explorer-simulated.png"))
        assert not errors, errors
    finally:
        page.close()


def test_a_formula_is_added_and_a_bad_one_is_shown_with_a_caret(voila, browser):
    url, _ = voila
    page, errors = _open(browser, f"{url}explorer1.ipynb", {"width": 1280, "height": 1600})
    try:
        box = page.locator(".wb-formula input")
        box.fill("4d6kq3")
        page.locator(".wb-add-formula").click()
        page.wait_for_selector(".wb-explorer .wb-status .wb-editor-error", timeout=60_000)
        said = page.locator(".wb-explorer .wb-status").inner_text()
        assert "column 5" in said and "4d6kq3\n    ^" in said, said
        box.fill("(@dice=5)d10cs>=8x")
        page.locator(".wb-add-formula").click()
        page.wait_for_function("() => document.querySelector('.wb-explorer .js-plotly-plot').data"
                               ".some(t => t.legendgroup === '(@dice=5)d10cs>=8x')", timeout=60_000)
        figure = page.evaluate(_FIGURE)
        system = workbench.system("(@dice=5)d10cs>=8x")
        for trace in (t for t in figure["traces"] if t["group"] == "(@dice=5)d10cs>=8x"):
            for n, y in zip(trace["x"], trace["y"]):
                want = workbench.check(system, **system.with_rung(trace["name"], dice=n)).p_pass
                assert y == pytest.approx(want, abs=1e-9)
        # its rules box holds the formula: another formula there redraws it
        page.locator(".wb-entries .wb-edit-rules").last.click()
        rules = page.locator(".wb-editor-text textarea").last
        assert rules.input_value() == "(@dice=5)d10cs>=8x"
        rules.fill("(@dice=5)d10cs>=9x")
        page.wait_for_function("() => document.querySelector('.wb-explorer .js-plotly-plot').data"
                               ".some(t => t.legendgroup === '(@dice=5)d10cs>=9x')", timeout=60_000)
        page.wait_for_timeout(700)
        chart = page.locator(".wb-explorer .wb-chart")
        found = page.evaluate(PANEL_OVERLAPS, [chart.element_handle(), SMALLEST_AREA])
        assert not found["problems"], found["problems"]
        page.locator(".wb-explorer").screenshot(path=str(ARTIFACTS / "explorer-formula.png"))
        assert not errors, errors
    finally:
        page.close()
