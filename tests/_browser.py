"""What the real-browser tests share: Debian's chromium, the CI rule, and a local server
(Voila or JupyterLab) started in its own session and stopped by its PID.

Under ``CI=true`` a browser test must run: a missing chromium or Playwright fails it loudly.
Elsewhere it skips. Debian's chromium is used (never ``playwright install``).
"""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Callable, Iterator, Sequence

import pytest
from _deps import in_ci

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"]
IN_CI = in_ci()


def require_browser() -> None:
    """Skip without chromium or Playwright locally; fail under ``CI=true``."""
    problems = []
    if not (os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        problems.append(f"no chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:
        problems.append(f"Playwright's Python package is missing: {exc}")
    if problems:
        message = "; ".join(problems)
        if IN_CI:
            pytest.fail(f"CI=true but the browser test cannot run: {message}")
        pytest.skip(message)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def answers_http(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


@contextlib.contextmanager
def server(name: str, command: Sequence[str], cwd: Path, log: Path, ready: Callable[[], bool],
           *, env: dict | None = None, timeout: float = 120.0, stop_timeout: float = 20.0) -> Iterator[None]:
    """Run ``command`` in its own session until the block ends; ``ready()`` says it serves.

    The server is stopped by signalling its process group (found by its PID), so the kernels
    it started stop too; nothing else is touched.
    """
    with open(log, "wb") as out:
        process = subprocess.Popen(list(command), cwd=cwd, env=env, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + timeout
        while not ready():
            if process.poll() is not None:
                raise RuntimeError(f"{name} exited with {process.returncode}:\n{log.read_text()[-3000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not answer in {timeout:.0f} s:\n{log.read_text()[-3000:]}")
            time.sleep(0.3)
        yield
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=stop_timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)


def launch_chromium(playwright):
    """Debian's chromium, headless, through Playwright."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


#: Where a plotly figure's parts overlap, measured in the page: the legend box over a plot
#: area or an axis title, an axis title over tick labels, tick labels over each other.
#: ``root`` is an element holding one ``.js-plotly-plot``.
OVERLAPS = """root => {
  const plot = root.classList.contains('js-plotly-plot') ? root : root.querySelector('.js-plotly-plot');
  if (!plot) return {missing: true};
  const box = e => { const r = e.getBoundingClientRect(); return {l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height}; };
  const shown = r => r.w > 0 && r.h > 0;
  const hit = (a, b) => a.l < b.r - 1 && b.l < a.r - 1 && a.t < b.b - 1 && b.t < a.b - 1;
  const legends = Array.from(plot.querySelectorAll('g.legend > rect.bg')).map(box).filter(shown);
  const areas = Array.from(plot.querySelectorAll('.draglayer .nsewdrag')).map(box).filter(shown);
  const titles = Array.from(plot.querySelectorAll('.g-xtitle text, .g-x2title text, .g-ytitle text'))
      .map(box).filter(shown);
  const ticks = Array.from(plot.querySelectorAll('.xaxislayer-above .xtick text')).map(box).filter(shown);
  const problems = [];
  for (const legend of legends) {
    if (areas.some(a => hit(legend, a))) problems.push('legend over the plot area');
    if (titles.some(t => hit(legend, t))) problems.push('legend over an axis title');
    if (ticks.some(t => hit(legend, t))) problems.push('legend over tick labels');
  }
  ticks.forEach((a, i) => ticks.forEach((b, j) => {
    if (i < j && hit(a, b)) problems.push('tick labels over each other');
  }));
  if (titles.some(t => ticks.some(k => hit(t, k)))) problems.push('axis title over tick labels');
  // every text inside the figure's own box: a title or label past its edge is cut off
  const frame = box(plot.querySelector('.main-svg'));
  const texts = Array.from(plot.querySelectorAll(
      '.gtitle, .g-xtitle text, .g-x2title text, .g-ytitle text, .legendtext, .xtick text, .ytick text'))
  for (const text of texts) {
    const r = box(text);
    if (!shown(r)) continue;
    if (r.l < frame.l - 1 || r.r > frame.r + 1 || r.t < frame.t - 1 || r.b > frame.b + 1)
      problems.push('text cut off at the edge: ' + text.textContent.slice(0, 40));
    if (text.textContent.includes('…')) problems.push('text shortened: ' + text.textContent);
  }
  const size = box(plot);
  return {problems: Array.from(new Set(problems)), width: size.w, height: size.h,
          legends: legends.length, areas: areas.length};
}"""



#: Every overlap in a figure of panels, measured in the page: tick labels over each other (per
#: axis direction), legends over plot areas, axis titles, tick labels, panel titles or each
#: other, panel titles (annotations) over tick labels, axis titles, the figure's title or each
#: other, axis titles over tick labels or each other; any text past the figure's edge (cut
#: off); plot areas too small to read. ``root`` holds one ``.js-plotly-plot``; ``minimum`` is
#: the least width and height of a plot area in pixels.
PANEL_OVERLAPS = """([root, minimum]) => {
  const plot = root.classList.contains('js-plotly-plot') ? root : root.querySelector('.js-plotly-plot');
  if (!plot) return {missing: true};
  const box = e => { const r = e.getBoundingClientRect(); return {l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height, text: (e.textContent || '').slice(0, 30)}; };
  const shown = r => r.w > 0 && r.h > 0;
  const hit = (a, b) => a.l < b.r - 1 && b.l < a.r - 1 && a.t < b.b - 1 && b.t < a.b - 1;
  const all = sel => Array.from(plot.querySelectorAll(sel)).map(box).filter(shown);
  const xticks = all('.xaxislayer-above text');
  const yticks = all('.yaxislayer-above text');
  const ticks = xticks.concat(yticks);
  const titles = all('g[class^="g-x"][class$="title"] text, g[class^="g-y"][class$="title"] text');
  const legends = Array.from(plot.querySelectorAll('g[class^="legend"]'))
      .filter(g => /^legend\\d*$/.test(g.getAttribute('class')))
      .map(g => g.querySelector(':scope > rect.bg')).filter(Boolean).map(box).filter(shown);
  const notes = all('.annotation-text');
  const heading = all('.gtitle');
  const areas = all('.draglayer .nsewdrag');
  const drawn = (plot.data || []).length > 0;
  const problems = [];
  const pairs = (list, what) => list.forEach((a, i) => list.forEach((b, j) => {
    if (i < j && hit(a, b)) problems.push(what + ': ' + a.text + ' / ' + b.text);
  }));
  const across = (one, other, what) => one.forEach(a => other.forEach(b => {
    if (hit(a, b)) problems.push(what + ': ' + a.text + ' / ' + b.text);
  }));
  pairs(xticks, 'x tick labels over each other');
  pairs(yticks, 'y tick labels over each other');
  pairs(legends, 'legends over each other');
  pairs(notes, 'panel titles over each other');
  pairs(titles, 'axis titles over each other');
  if (drawn) across(legends, areas, 'legend over a plot area');
  across(legends, titles, 'legend over an axis title');
  across(legends, ticks, 'legend over tick labels');
  across(legends, notes, 'legend over a panel title');
  across(notes, ticks, 'panel title over tick labels');
  across(notes, titles, 'panel title over an axis title');
  across(notes, heading, 'panel title over the figure title');
  if (drawn) across(notes, areas, 'panel title over a plot area');
  across(titles, ticks, 'axis title over tick labels');
  across(heading, legends, 'figure title over a legend');
  const frame = box(plot.querySelector('.main-svg'));
  const texts = Array.from(plot.querySelectorAll(
      '.gtitle, g[class$="title"] text, .legendtext, .legendtitletext, .annotation-text, .xaxislayer-above text, .yaxislayer-above text'));
  for (const text of texts) {
    const r = box(text);
    if (!shown(r)) continue;
    if (r.l < frame.l - 1 || r.r > frame.r + 1 || r.t < frame.t - 1 || r.b > frame.b + 1)
      problems.push('text cut off at the edge: ' + r.text);
    if (text.textContent.includes('…')) problems.push('text shortened: ' + text.textContent);
  }
  if (drawn) for (const area of areas)
    if (area.w < minimum || area.h < minimum * 0.6) problems.push('plot area too small: ' + Math.round(area.w) + 'x' + Math.round(area.h));
  const size = box(plot);
  return {problems: Array.from(new Set(problems)), width: size.w, height: size.h,
          legends: legends.length, areas: areas.length, notes: notes.length, drawn: drawn};
}"""
