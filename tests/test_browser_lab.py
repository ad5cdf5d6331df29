"""Every notebook in notebooks/ run in JupyterLab in a real Chromium: all cells run, no error
output, every widget rendered, no browser console error, every plotly figure at full size.

The headless notebook tests (test_notebooks.py) cannot see what a designer sees: a figure
drawn 7 px tall, a widget that fails to load, a JavaScript error. This test drives JupyterLab
the way a person does (menu Run > Run All Cells) on a temporary copy of the folder, and keeps
a screenshot of every notebook in ``test-artifacts/``.

Under ``CI=true`` it must run: no chromium or Playwright fails it loudly. Elsewhere it skips
when chromium is missing. Debian's chromium is used (never ``playwright install``).
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import sys
import time
from pathlib import Path

import pytest

from _browser import (ARTIFACTS, OVERLAPS, answers_http, free_port, launch_chromium, require_browser,
                      server)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("*.ipynb"))
MIN_WIDTH, MIN_HEIGHT = 300, 250
RUN_TIMEOUT = 240.0  # seconds one notebook may take to run all its cells under load

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# User settings for a quiet, fully rendered lab: no news or update pop-up, and every cell
# rendered (windowed notebooks leave far-away cells, and their figures, undrawn).
USER_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings":
        {"windowingMode": "none", "kernelShutdown": True},
    "@jupyterlab/apputils-extension/announcements.jupyterlab-settings": {},
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab serving a temporary copy of notebooks/; stopped by its PID afterwards."""
    require_browser()
    home = tmp_path_factory.mktemp("lab")
    work = home / "work"
    shutil.copytree(NOTEBOOKS_DIR, work / "notebooks")
    settings = home / "settings"
    for name, values in USER_SETTINGS.items():
        path = settings / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")
    env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(settings),
           "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime"), "PYTHONWARNINGS": "ignore"}
    token = secrets.token_hex(16)
    port = free_port()
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
               "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
               f"--ServerApp.root_dir={work}", "--LabApp.news_url=", "--ServerApp.open_browser=False"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    log = home / "lab.log"
    with server("jupyter lab", command, work, log, lambda: answers_http(f"http://127.0.0.1:{port}/api"),
                env=env):
        yield {"url": f"http://127.0.0.1:{port}", "token": token, "work": work, "log": log}


@pytest.fixture(scope="module")
def browser(lab):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        try:
            yield chromium
        finally:
            chromium.close()


_PROMPTS = """() => Array.from(document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt'))
    .map(e => e.textContent.trim())"""

_REPORT = """() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  const outputs = Array.from(panel.querySelectorAll('.jp-OutputArea-output'));
  const errors = outputs.filter(o => (o.getAttribute('data-mime-type') || '').includes('error')
                                     || o.querySelector('[data-mime-type*="error"]'))
                        .map(o => o.innerText.slice(0, 800));
  const stderr = outputs.filter(o => o.getAttribute('data-mime-type') === 'application/vnd.jupyter.stderr')
                        .map(o => o.innerText.slice(0, 800));
  const widgetProblems = outputs
      .filter(o => /Error displaying widget|Loading widget|Failed to load model|model not found/i
                   .test(o.innerText))
      .map(o => o.innerText.slice(0, 300));
  const views = Array.from(panel.querySelectorAll(
      '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.widget-view+json"]'));
  const emptyWidgets = views.filter(v => v.getBoundingClientRect().height < 20).length;
  const plots = Array.from(panel.querySelectorAll('.js-plotly-plot')).map(p => {
      const r = p.getBoundingClientRect();
      return [Math.round(r.width), Math.round(r.height)];
  });
  // a figure drawn wider than the notebook is cut off at the right edge
  const edge = panel.querySelector('.jp-WindowedPanel-outer').getBoundingClientRect().right;
  const clipped = Array.from(panel.querySelectorAll('.js-plotly-plot .main-svg:first-of-type'))
      .map(svg => svg.getBoundingClientRect())
      .filter(r => r.right > edge + 1).map(r => [Math.round(r.right), Math.round(edge)]);
  return {errors, stderr, widgetProblems, widgets: views.length, emptyWidgets, plots, clipped,
          outputs: outputs.length};
}"""


def _wait_for_idle_kernel(lab, notebook: str, timeout: float = 120.0) -> None:
    """Wait until the notebook's kernel has started and is idle (asked of the server's REST
    API: the page's own indicator reads "idle" before any kernel exists)."""
    import urllib.request
    deadline = time.monotonic() + timeout
    states = []
    while time.monotonic() < deadline:
        request = urllib.request.Request(f"{lab['url']}/api/sessions",
                                         headers={"Authorization": f"token {lab['token']}"})
        with urllib.request.urlopen(request, timeout=5) as answer:
            sessions = json.loads(answer.read())
        states = [s["kernel"]["execution_state"] for s in sessions
                  if s.get("path", "").endswith(notebook) and s.get("kernel")]
        if states and all(state == "idle" for state in states):
            return
        time.sleep(0.3)
    raise AssertionError(f"{notebook}: no idle kernel in {timeout:.0f} s (states {states})")


def _shut_down_kernels(lab) -> None:
    """End the notebook's kernel once checked: eight idle kernels would slow the later runs."""
    import urllib.request
    headers = {"Authorization": f"token {lab['token']}"}
    with urllib.request.urlopen(urllib.request.Request(f"{lab['url']}/api/sessions",
                                                       headers=headers), timeout=5) as answer:
        sessions = json.loads(answer.read())
    for session in sessions:
        request = urllib.request.Request(f"{lab['url']}/api/sessions/{session['id']}",
                                         headers=headers, method="DELETE")
        urllib.request.urlopen(request, timeout=10).close()


def _ran_all(prompts: list[str]) -> bool:
    return bool(prompts) and all(p.startswith("[") and p[1:-2].strip().isdigit() for p in prompts)


def _run_all(page) -> None:
    """Run > Run All Cells from the menu, as a person would."""
    page.locator(".lm-MenuBar-item", has_text="Run").first.click()
    page.locator('.lm-Menu-item[data-command="runmenu:run-all"]').click()


def _screenshots(page, stem: str) -> list[Path]:
    """The notebook from top to bottom, one screenshot per screenful (at most eight)."""
    scroller = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer"
    height = page.evaluate(f"() => document.querySelector('{scroller}').scrollHeight")
    view = page.evaluate(f"() => document.querySelector('{scroller}').clientHeight")
    shots = []
    for index, top in enumerate(range(0, max(height, 1), max(view - 40, 200))):
        if index == 8:
            break
        page.evaluate(f"() => document.querySelector('{scroller}').scrollTo(0, {top})")
        page.wait_for_timeout(250)
        path = ARTIFACTS / f"lab-{stem}-{index + 1}.png"
        page.screenshot(path=str(path))
        shots.append(path)
    return shots


@pytest.mark.parametrize("notebook", [p.name for p in NOTEBOOKS])
def test_notebook_runs_cleanly_in_jupyterlab(lab, browser, notebook):
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text)
            if message.type == "error" else None)
    page.on("pageerror", lambda error: console.append(f"page error: {error}"))
    try:
        page.goto(f"{lab['url']}/lab/tree/notebooks/{notebook}?reset&token={lab['token']}",
                  timeout=120_000)
        page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell", timeout=120_000)
        _wait_for_idle_kernel(lab, notebook)
        _run_all(page)
        started = time.monotonic()
        stalled_since = None
        retried = False
        prompts: list[str] = []
        while time.monotonic() - started < RUN_TIMEOUT:
            prompts = page.evaluate(_PROMPTS)
            if _ran_all(prompts):
                break
            if any(p == "[*]:" for p in prompts):
                stalled_since = None
            else:  # nothing running or queued, yet not every cell has run
                stalled_since = stalled_since or time.monotonic()
                if time.monotonic() - stalled_since > 10:
                    if retried:
                        break  # an error stopped the run: reported below
                    _run_all(page)  # under load the first Run All can be dropped: again
                    retried, stalled_since = True, None
            page.wait_for_timeout(500)
        page.wait_for_timeout(1500)  # let the last outputs and figures lay themselves out
        report = page.evaluate(_REPORT)
        overlaps = []
        for plot in page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .js-plotly-plot").all():
            found = page.evaluate(OVERLAPS, plot.element_handle())
            if found.get("problems"):
                title = plot.locator(".gtitle").first.text_content() if plot.locator(".gtitle").count() else ""
                overlaps.append((title[:60], found["problems"]))
        _screenshots(page, Path(notebook).stem)
    finally:
        page.close()
        _shut_down_kernels(lab)
    assert not report["errors"], f"{notebook}: error output: {report['errors']}"
    assert _ran_all(prompts), f"{notebook}: not every cell ran in {RUN_TIMEOUT:.0f} s: {prompts}"
    assert not report["stderr"], f"{notebook}: output on stderr: {report['stderr']}"
    assert not report["widgetProblems"], f"{notebook}: widgets failed: {report['widgetProblems']}"
    assert report["emptyWidgets"] == 0, f"{notebook}: {report['emptyWidgets']} widget(s) drawn empty"
    small = [size for size in report["plots"] if size[0] < MIN_WIDTH or size[1] < MIN_HEIGHT]
    assert not small, f"{notebook}: plotly figures smaller than {MIN_WIDTH}x{MIN_HEIGHT}: {small}"
    assert not report["clipped"], f"{notebook}: figures cut off at the right: {report['clipped']}"
    assert not overlaps, f"{notebook}: figures whose parts overlap or are cut off: {overlaps}"
    assert not console, f"{notebook}: browser console errors: {console}"
    source = json.loads((NOTEBOOKS_DIR / notebook).read_text(encoding="utf-8"))
    drawn = sum(1 for cell in source["cells"] if cell["cell_type"] == "code" and any(
        word in "".join(cell["source"]) for word in ("figure(", "figure_", "explorer(",
                                                      "show_sections(", "panels(")))
    assert len(report["plots"]) >= drawn, (
        f"{notebook}: {drawn} cells draw figures but only {len(report['plots'])} plots rendered")
