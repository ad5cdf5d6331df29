"""The explorer's live chart: a figure's plotly JSON drawn by plotly.js, at the page's width.

:class:`Chart` holds a figure as plotly JSON (``{"data": [...], "layout": {...}}``). Setting
:attr:`Chart.figure` sends that dictionary to the browser, where plotly.js draws it with
``Plotly.react`` (only what changed is redrawn); nothing is validated in Python, so an update
costs what sending its numbers costs. The chart fills the width its container gives it and
follows it when the page is resized. plotly.js is the basic bundle the workbench's pages carry
(:mod:`workbench.figures.bundle`: lines, markers and bars), so the chart draws offline too.
"""
from __future__ import annotations

from functools import lru_cache

import anywidget
import traitlets

from ..figures.bundle import BASIC_BUNDLE

_RENDER = r"""
function draw(model, div) {
  const fig = model.get("figure") || {};
  const Plotly = globalThis.Plotly;
  Plotly.react(div, fig.data || [], fig.layout || {},
               {displaylogo: false, responsive: true, displayModeBar: "hover"});
}
function render({ model, el }) {
  el.classList.add("wb-chart-view");
  const div = document.createElement("div");
  div.className = "wb-plot";
  div.style.width = "100%";
  el.appendChild(div);
  const redraw = () => draw(model, div);
  redraw();
  model.on("change:figure", redraw);
  let pending = null;
  const observer = new ResizeObserver(() => {
    if (pending) cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => {
      if (div.offsetWidth > 0 && div._fullLayout) globalThis.Plotly.Plots.resize(div);
    });
  });
  observer.observe(el);
  return () => { observer.disconnect(); model.off("change:figure", redraw); globalThis.Plotly.purge(div); };
}
export default { render };
"""


@lru_cache(maxsize=1)
def chart_module() -> str:
    """The chart's JavaScript module: the plotly.js bundle (it sets ``window.Plotly``), then
    the renderer."""
    return BASIC_BUNDLE.read_text(encoding="utf-8") + "\n" + _RENDER


class Chart(anywidget.AnyWidget):
    """A plotly figure, given as JSON, drawn live at the width of the page.

    Example:
        >>> chart = Chart()
        >>> chart.figure = {"data": [{"type": "bar", "y": [1, 2]}], "layout": {"height": 300}}
        >>> chart.figure["data"][0]["y"]
        [1, 2]
    """

    _esm = traitlets.Unicode(chart_module()).tag(sync=True)
    figure = traitlets.Dict().tag(sync=True)
