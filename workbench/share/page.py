"""The shared page itself: one HTML file with its numbers, plotly.js and a few lines of script.

Nothing is fetched: the numbers are a JSON block in the page, plotly.js (the basic bundle,
:mod:`workbench.figures.bundle`) is inlined, and the controls are plain form elements
(``<input type=range>`` for a run of whole numbers, ``<select>`` otherwise) carrying
``data-knob="NAME"``. Moving one redraws every chart from the embedded numbers.
"""
from __future__ import annotations

import html
import json
from typing import Any

from .._version import __version__
from ..figures.style import DIE_COLOURS, LINE_COLOURS, outcome_colours
from .grid import MILLION, ShareGrid

_STYLE = """
body { font-family: Helvetica, Arial, sans-serif; color: #222; margin: 0; background: #fafafa; }
main { max-width: 1180px; margin: 0 auto; padding: 16px 28px 48px; background: white; }
h1 { font-size: 26px; margin: 8px 0 4px; }
p.about { color: #555; margin: 4px 0 10px; line-height: 1.4; }
form.wb-controls { position: sticky; top: 0; z-index: 5; background: #f4f7fa; display: flex;
  flex-wrap: wrap; gap: 10px 26px; padding: 10px 14px; border: 1px solid #dde4ec; border-radius: 6px; }
form.wb-controls label { display: flex; align-items: center; gap: 8px; font-size: 14px; }
form.wb-controls .who { color: #777; font-size: 12px; }
form.wb-controls output { min-width: 2.5em; font-weight: bold; }
section.wb-system { border-top: 1px solid #e5e5e5; margin-top: 22px; padding-top: 6px; }
section.wb-system h2 { font-size: 20px; margin: 8px 0 2px; }
p.fixed { color: #666; font-size: 13px; margin: 2px 0 6px; }
p.readout { font-size: 14px; margin: 4px 0; }
.wb-charts { display: flex; flex-wrap: wrap; gap: 12px; }
.wb-charts > div { flex: 1 1 440px; min-width: 320px; height: 360px; }
footer { color: #777; font-size: 12px; margin-top: 36px; }
"""

_SCRIPT = r"""
(function () {
  const DATA = JSON.parse(document.getElementById("wb-data").textContent);
  const M = DATA.scale;
  const pct = v => (v === null ? "no target"   // never 0.0% or 100.0% for what is neither
                    : v > 0 && v < M / 2000 ? "< 0.1%" : v < M && v >= M - M / 2000 ? "> 99.9%"
                    : (100 * v / M).toFixed(1) + "%");
  function chosen(name) {
    const control = document.querySelector('[data-knob="' + name + '"]');
    const values = JSON.parse(control.dataset.values);
    const index = control.tagName === "SELECT" ? +control.value : values.indexOf(+control.value);
    const out = document.querySelector('output[for="' + control.id + '"]');
    if (out) out.textContent = String(values[index]);
    return {index: index, value: values[index]};
  }
  function setting(system) {
    let index = 0;
    for (const name of system.knobs) {
      const knob = DATA.knobs.find(k => k.name === name);
      index = index * knob.values.length + chosen(name).index;
    }
    return index;
  }
  function poolIndex(system) {
    if (!system.pool) return 0;
    const wanted = chosen(system.pool).value;
    const at = system.pools.indexOf(wanted);
    if (at >= 0) return at;
    let best = 0;
    system.pools.forEach((n, i) => { if (Math.abs(n - wanted) < Math.abs(system.pools[best] - wanted)) best = i; });
    return best;
  }
  const layoutBase = {margin: {t: 46, r: 10, b: 56, l: 60}, paper_bgcolor: "white", plot_bgcolor: "white",
    font: {family: "Helvetica, Arial, sans-serif", size: 12, color: "#222"},
    legend: {font: {size: 11}}, hovermode: "closest"};
  const axis = {showgrid: true, gridcolor: "#e5e5e5", zeroline: false, showline: true,
    linecolor: "#888", ticks: "outside", tickcolor: "#888", automargin: true};
  function draw() {
    DATA.systems.forEach((system, s) => {
      const at = setting(system);
      const p = poolIndex(system);
      const passes = system.passes[at];
      const passDiv = document.getElementById("wb-pass-" + s);
      const poolName = system.pool ? system.poolText[p] : "";
      let traces;
      const why = system.refused[String(at)] || "";
      if (system.pool) {
        traces = system.rungs.map((rung, r) => passes[r] === null ? null : ({type: "scatter", mode: "lines+markers", name: rung,
          x: system.pools, y: passes[r].map(v => v === null ? null : v / M),
          line: {color: system.rungColours[r]}, marker: {color: system.rungColours[r], size: 6},
          hovertemplate: "<b>" + rung + "</b><br>%{x}: %{y:.2%}<extra></extra>"})).filter(Boolean);
      } else {
        traces = [{type: "bar", name: "P(pass)", x: system.rungs, y: passes.map(r => r === null || r[0] === null ? null : r[0] / M),
          marker: {color: system.rungColours}, text: passes.map(r => r === null ? "refused" : pct(r[0])), textposition: "outside",
          cliponaxis: false, hovertemplate: "%{x}: %{y:.2%}<extra></extra>"}];
      }
      Plotly.react(passDiv, traces, Object.assign({}, layoutBase, {
        title: {text: "P(pass)" + (system.pool ? " by " + system.poolTitle : " per rung"), x: 0.02},
        xaxis: Object.assign({}, axis, {title: {text: system.pool ? system.poolTitle : "rung"},
                 dtick: system.pool && system.pools.length <= 12 ? (system.pools[1] - system.pools[0] || 1) : null}),
        yaxis: Object.assign({}, axis, {tickformat: ".0%", range: [-0.02, 1.05], title: {text: "P(pass)"}}),
        legend: {title: {text: "rung"}}}), {displaylogo: false, responsive: true});
      const full = system.checks[at][p] || system.outcomes.map(() => 0);
      // tiers: every tier; outcomes: from the first to the last possible at this setting,
      // coloured worst (red) to best (blue) over what is shown
      let lo = 0, hi = full.length - 1;
      if (system.kind !== "tiers") {
        while (lo < hi && full[lo] === 0) lo++;
        while (hi > lo && full[hi] === 0) hi--;
      }
      const check = full.slice(lo, hi + 1);
      const names = system.outcomes.slice(lo, hi + 1);
      const colours = check.map((v, i) => DATA.scaleColours[check.length > 1 ? Math.round(100 * i / (check.length - 1)) : 100]);
      const checkDiv = document.getElementById("wb-check-" + s);
      Plotly.react(checkDiv, [{type: "bar", x: names, y: check.map(v => v / M),
        marker: {color: colours}, text: check.map(v => v >= M / 200 ? pct(v) : ""),
        textposition: "outside", cliponaxis: false, showlegend: false,
        hovertemplate: "%{x}: %{y:.3%}<extra></extra>"}], Object.assign({}, layoutBase, {
        title: {text: system.checks[at][p] ? "One check" + (poolName ? " at " + poolName : "") + ": " + system.kind
                                           : "One check: not allowed at this setting", x: 0.02},
        xaxis: Object.assign({}, axis, {type: "category", title: {text: system.outcomeTitle}}),
        yaxis: Object.assign({}, axis, {tickformat: ".0%", rangemode: "tozero", title: {text: "probability"}})}),
        {displaylogo: false, responsive: true});
      const readout = document.getElementById("wb-readout-" + s);
      readout.textContent = "P(pass)" + (poolName ? " at " + poolName : "") + ": " +
        system.rungs.map((rung, r) => rung + " " + (passes[r] === null ? "refused"
                                                    : pct(passes[r][system.pool ? p : 0]))).join(" · ")
        + (why ? " — the rules refuse part of this setting: " + why : "");
    });
  }
  document.querySelectorAll("[data-knob]").forEach(c => c.addEventListener("input", draw));
  draw();
  document.body.dataset.ready = "yes";
})();
"""


def _consecutive(values: list) -> bool:
    return (len(values) > 1 and all(isinstance(v, int) and not isinstance(v, bool) for v in values)
            and values == list(range(values[0], values[0] + len(values))))


def _control(name: str, values: list, default: Any, who: str, ident: str) -> str:
    data = html.escape(json.dumps(values))
    start = values.index(default) if default in values else 0
    if _consecutive(values):
        field = (f'<input type="range" id="{ident}" data-knob="{html.escape(name)}" '
                 f'data-values="{data}" min="{values[0]}" max="{values[-1]}" step="1" '
                 f'value="{values[start]}"><output for="{ident}">{values[start]}</output>')
    else:
        options = "".join(f'<option value="{i}"{" selected" if i == start else ""}>'
                          f"{html.escape(str(v))}</option>" for i, v in enumerate(values))
        field = (f'<select id="{ident}" data-knob="{html.escape(name)}" data-values="{data}">'
                 f"{options}</select>")
    return (f'<label>{html.escape(name)} <span class="who">({html.escape(who)})</span>'
            f"{field}</label>")


def _pool_text(part, size) -> str:
    if part.pool is None:
        return ""
    if part.pool_title == "dice in the pool":
        return f"{size} die" if size == 1 else f"{size} dice"
    return f"{part.pool} {size}"


def _json_value(value: Any) -> Any:
    return value if isinstance(value, (int, float, str, bool)) or value is None else str(value)


def _outcome_title(part) -> str:
    """What one check's bars are: tiers, net successes (the seeds' counts), a total, outcomes."""
    if part.kind == "tier":
        return "tier"
    if not all(isinstance(o, int) for o in part.outcomes):
        return "outcome"
    return "total" if getattr(part.system.mechanic, "statistics", None) is not None else "net successes"


def page_data(grid: ShareGrid) -> dict:
    """The JSON block of the page."""
    systems = []
    for part in grid.systems:
        systems.append({
            "id": part.system.id, "label": part.label, "knobs": part.knobs, "pool": part.pool,
            "pools": [n for n in part.pools if n is not None] or [None],
            "poolText": [_pool_text(part, n) for n in part.pools], "poolTitle": part.pool_title,
            "rungs": part.rungs, "kind": "tiers" if part.kind == "tier" else "outcomes",
            "outcomes": [str(o) for o in part.outcomes],
            "rungColours": [DIE_COLOURS.get(r.lower(), LINE_COLOURS[i % len(LINE_COLOURS)])
                            for i, r in enumerate(part.rungs)],
            "outcomeTitle": _outcome_title(part),
            "passes": part.passes, "checks": part.checks,
            "refused": {str(k): v for k, v in part.refused.items()}})
    return {"scale": MILLION, "version": __version__, "scaleColours": outcome_colours(101),
            "knobs": [{"name": k.name, "values": [_json_value(v) for v in k.values],
                       "systems": list(k.systems)} for k in grid.knobs],
            "systems": systems}


def render_share_page(grid: ShareGrid, title: str, plotly_js: str) -> str:
    """The whole page as text."""
    data = page_data(grid)
    controls = []
    for index, knob in enumerate(grid.knobs):
        default = _default(grid, knob)
        controls.append(_control(knob.name, [_json_value(v) for v in knob.values],
                                 _json_value(default), "sets " + ", ".join(knob.systems),
                                 f"wb-knob-{index}"))
    pools: dict[str, list] = {}
    for part in grid.systems:
        if part.pool:
            pools.setdefault(part.pool, [])
            pools[part.pool] += [n for n in part.pools if n not in pools[part.pool]]
    for index, (name, values) in enumerate(pools.items()):
        values = sorted(values)
        users = [p.system.id for p in grid.systems if p.pool == name]
        wanted = 4 if 4 in values else values[len(values) // 2]
        controls.append(_control(name, values, wanted, "one check and readout at this " + name
                                 + ": " + ", ".join(users), f"wb-pool-{index}"))
    sections = []
    for s, part in enumerate(grid.systems):
        fixed = ", ".join(f"{k}={v}" for k, v in part.fixed.items())
        sections.append(
            f'<section class="wb-system" id="system-{s}"><h2>{html.escape(part.label)}</h2>'
            f'<p class="fixed">{html.escape(part.system.id)}'
            + (f" · held fixed: {html.escape(fixed)}" if fixed else "")
            + (f" · knobs: {html.escape(', '.join(part.knobs))}" if part.knobs else "")
            + f'</p><p class="readout" id="wb-readout-{s}"></p><div class="wb-charts">'
            f'<div id="wb-pass-{s}" class="wb-chart"></div>'
            f'<div id="wb-check-{s}" class="wb-chart"></div></div></section>')
    knob_words = " × ".join(f"{k.name} ({len(k.values)})" for k in grid.knobs) or "no knobs"
    about = (f"This page holds {grid.settings:,} setting{'s' if grid.settings != 1 else ''} "
             f"({knob_words}) of {len(grid.systems)} system{'s' if len(grid.systems) != 1 else ''}: "
             f"{grid.checks:,} exact checks computed ahead by dice-workbench {__version__}. Move a "
             "control to see P(pass) at every pool size and rung, and one check at the pool you "
             "choose. Probabilities to six decimal places; the page needs no network.")
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title><style>{_STYLE}</style>
<script type="text/javascript">{plotly_js}</script></head>
<body><main><h1>{html.escape(title)}</h1><p class="about">{html.escape(about)}</p>
<form class="wb-controls" onsubmit="return false">{''.join(controls)}</form>
{''.join(sections)}
<footer>Made with dice-workbench {__version__} (workbench share). Charts drawn by plotly.js (MIT licence).</footer>
</main>
<script type="application/json" id="wb-data">{payload}</script>
<script type="text/javascript">{_SCRIPT}</script>
</body></html>
"""


def _default(grid: ShareGrid, knob) -> Any:
    """A knob starts at the default of the first system it sets (when among its values)."""
    sys_ = next(p.system for p in grid.systems if p.system.id in knob.systems)
    default = sys_.params[knob.name].default
    return default if default in knob.values else knob.values[0]
