"""The explorer's live chart: a figure's plotly JSON drawn by plotly.js, at the page's width.

:class:`Chart` holds a figure as plotly JSON (``{"data": [...], "layout": {...}}``). Setting
:attr:`Chart.figure` sends that dictionary to the browser, where plotly.js draws it with
``Plotly.react`` (only what changed is redrawn); nothing is validated in Python, so an update
costs what sending its numbers costs. The chart fills the width its container gives it and
follows it when the page is resized. plotly.js is the basic bundle the workbench's pages carry
(:mod:`workbench.figures.bundle`: lines, markers and bars), so the chart draws offline too.
"""
from __future__ import annotations

import json
from functools import lru_cache

import anywidget
import traitlets

from ..figures.bundle import BASIC_BUNDLE
from .layout import template

_RENDER = r"""
function draw(model, div) {
  const text = model.get("spec");
  const fig = text ? JSON.parse(text) : {};
  const layout = fig.layout || {};
  const template = model.get("template");
  if (template && !layout.template) layout.template = JSON.parse(template);
  globalThis.Plotly.react(div, fig.data || [], layout,
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
  model.on("change:spec", redraw);
  let pending = null;
  const observer = new ResizeObserver(() => {
    if (pending) cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => {
      if (div.offsetWidth > 0 && div._fullLayout) globalThis.Plotly.Plots.resize(div);
    });
  });
  observer.observe(el);
  return () => { observer.disconnect(); model.off("change:spec", redraw); globalThis.Plotly.purge(div); };
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

    The figure goes to the browser as one JSON text (``spec``): the widget layer then sends
    a string instead of walking every number of the figure. A figure's ``layout.template``
    equal to the workbench template is sent once, as ``template``, not with every update.

    Example:
        >>> chart = Chart()
        >>> chart.figure = {"data": [{"type": "bar", "y": [1, 2]}], "layout": {"height": 300}}
        >>> chart.figure["data"][0]["y"], chart.spec[:20]
        ([1, 2], '{"data":[{"type":"ba')
    """

    _esm = traitlets.Unicode(chart_module()).tag(sync=True)
    spec = traitlets.Unicode("").tag(sync=True)
    template = traitlets.Unicode("").tag(sync=True)
    figure = traitlets.Dict()

    @traitlets.observe("figure")
    def _figure_to_spec(self, change) -> None:
        figure = change["new"]
        layout = dict(figure.get("layout") or {})
        shared = layout.get("template")
        if shared is not None and shared == template():
            del layout["template"]
            if not self.template:
                self.template = json.dumps(shared, separators=(",", ":"))
        self.spec = json.dumps({"data": figure.get("data", []), "layout": layout},
                               separators=(",", ":"))
