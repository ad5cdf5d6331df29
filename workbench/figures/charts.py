"""Every figure the workbench draws, from the frames of :mod:`workbench.figures.frames`.

All are pure functions returning a ``plotly.graph_objects.Figure`` in the workbench look
(:func:`workbench.figures.style.new_figure`): the explorer, the notebooks, the report and the
static exports call these and nothing else. Here: curves, differences, stacked outcomes,
narrative odds, tiers and ladders; one check's bars are drawn in :mod:`.check_chart`, from the
pieces every chart shares (:mod:`.pieces`).
"""
from __future__ import annotations

import textwrap
from typing import Any, Iterable, Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from ..analysis import (counts_dice, default_pool_sizes, pool_kind, pool_size_list, shown_probability,
                        success_curve)
from ..api import check
from ..errors import WorkbenchError
from ..numbers import marked
from ..ladders import pools_text
from ..rules.registry import get_system
from ..rules.system import System
from . import frames as _frames
from .check_chart import FLAG_COLOURS, check_figure  # noqa: F401  (re-exported: one module of charts)
from .pieces import (
    DEFAULT_POOLS,
    _line,
    _outcome_name,
    _percent_hover,
    _pool_ticks,
    _rung_style,
    method_note,
    pool_axis_title,
    pool_hover,
    resolved_seed,
)
from .style import DEFAULT_HEIGHT, die_colour, line_colour, new_figure, outcome_colours, to_pp


# -- curves ------------------------------------------------------------------------------
def curve_figure(entries: Any, pools: Iterable[int] = DEFAULT_POOLS,
                 rungs: Sequence[str] | None = None, method: str = "exact", *,
                 trials: int = 100_000, seed: int | None = None, title: str | None = None,
                 frame: pd.DataFrame | None = None, height: int = DEFAULT_HEIGHT,
                 by_system: bool = False) -> go.Figure:
    """P(pass) against pool size: one line per rung of each system (or variant).

    Args:
        entries: one system id, or several entries as for
            :func:`workbench.analysis.side_by_side` (ids, ``(system, params)``,
            ``(label, system, params)``).
        pools: pool sizes along the x axis.
        rungs: ladder rungs to draw (``None``: every rung of each system's ladder).
        method: ``"exact"`` or ``"simulate"`` (simulated points carry 95% error bars).
        frame: an already gathered :func:`~workbench.figures.frames.curve_frame`.
        by_system: one colour per system and one dash per rung even for a single system.

    Example:
        >>> fig = curve_figure(["uwr", ("arrata", {"quality": "A"})], [1, 2])
        >>> len(fig.data), fig.data[0].name
        (10, 'uwr · Easy')
    """
    seed = resolved_seed(method, seed)
    entries = [entries] if isinstance(entries, (str, System, Mapping)) else list(entries)
    lines = _frames.read_entries(entries, rungs)
    if frame is None:
        frame = _frames.curve_frame(lines, pools, None, method, trials, seed)
    labels = [line.label for line in lines]
    traces = []
    rung_index: dict[str, int] = {}
    for (label, rung), part in frame.groupby(["label", "rung"], sort=False):
        rung_index.setdefault(label, 0)
        style = _rung_style(lines, label, rung, labels.index(label), rung_index[label], by_system)
        rung_index[label] += 1
        name = f"{label} · {rung}"
        if not lines[labels.index(label)].system_object.pool_parameter:
            # One die: the same odds at every pool, drawn as a dotted level line, named so.
            name += " (one die, any pool)"
            style["line"] = {**style["line"], "dash": "dot"}
        hover = (f"<b>{label}</b> · {rung}<br>{pool_hover(lines[labels.index(label)].system_object)}: "
                 f"{_percent_hover(method)}<extra></extra>")
        trace = _line(part["pool"], part["p_pass"], part["stderr"], name, hover, **style)
        trace["legendgroup"] = label
        traces.append(trace)
    systems = [line.system for line in lines]
    x_title = pool_axis_title(systems)
    if not any(line.system_object.pool_parameter for line in lines):
        # Nothing rolls a pool: level lines, and the axes say the pool changes nothing.
        x_title = "pool size (one die: the same odds at every pool)"
        if title is None:
            title = ("P(pass) of each rung, one die" if len(lines) > 1
                     else f"{lines[0].system_object.name}: P(pass) of each rung, one die")
    if title is None:
        title = (f"P(pass) against {x_title}" if len(lines) > 1
                 else f"{lines[0].system_object.name}: P(pass) against {x_title}")
    return new_figure(title, x_title, "P(pass)", traces=traces,
                      subtitle=method_note(method, trials, seed), y="percent", height=height,
                      xaxis=_pool_ticks(sorted(set(frame["pool"]))),
                      legend_title="rung" if len(lines) == 1 else "system · rung")


def _same_pool_kind(lines, base_index: int) -> None:
    """A difference subtracts P(pass) pool size by pool size: UWR at 4 dice minus Call of
    Cthulhu at skill 4 says nothing, so every entry's pool sizes must count what the base's do."""
    base = lines[base_index].system_object
    for line in lines:
        mine, theirs = pool_kind(line.system_object), pool_kind(base)
        if mine != theirs:
            raise WorkbenchError(f"a difference of {line.system_object.id} against "
                                 f"{base.id}: {line.system_object.id}'s pool sizes count {mine}, "
                                 f"{base.id}'s count {theirs}; allowed: systems whose pool sizes "
                                 "count the same thing (a difference at each pool size would set "
                                 "one against the other)")


def difference_figure(system: Any, base: Any = None, pools: Iterable[int] = DEFAULT_POOLS,
                      rungs: Sequence[str] | None = None, method: str = "exact", *,
                      trials: int = 100_000, seed: int | None = None,
                      frame: pd.DataFrame | None = None, title: str | None = None,
                      height: int = DEFAULT_HEIGHT, by_system: bool = False) -> go.Figure:
    """P(pass) of ``system`` minus ``base``'s, rung by rung, in percentage points.

    ``system`` may also be a list of entries, with ``base`` the index of the one to
    subtract (default 0); ``base`` as an entry puts it first.

    Example:
        >>> fig = difference_figure("fons-exploding", "fons", [1, 2])
        >>> fig.data[2].name, fig.layout.yaxis.ticksuffix, [round(v, 2) for v in fig.data[2].y]
        ('fons-exploding · Difficult', ' pp', [5.56, 7.41])
    """
    seed = resolved_seed(method, seed)
    if base is None or isinstance(base, int) and not isinstance(base, bool):
        entries = [system] if isinstance(system, (str, System, Mapping)) else list(system)
        base_index = base or 0
    else:
        entries, base_index = [base, system], 0
    lines = _frames.read_entries(entries, rungs)
    if len(lines) < 2:
        raise WorkbenchError("a difference needs two or more entries: a variant and its baseline")
    _same_pool_kind(lines, base_index)
    if frame is None:
        frame = _frames.difference_frame(lines, base_index, pools, None, method, trials, seed)
    base_label = lines[base_index].label
    groups = frame.groupby(["label", "rung", "baseline_rung"], sort=False) if len(frame) else []
    labels = [line.label for line in lines]
    traces = []
    rung_index: dict[str, int] = {}
    for (label, rung, base_rung), part in groups:
        rung_index.setdefault(label, 0)
        paired = rung if rung == base_rung else f"{rung} vs {base_rung}"
        hover = (f"<b>{label}</b> − {base_label} · {paired}<br>"
                 f"{pool_hover(lines[labels.index(label)].system_object)}: "
                 f"{_percent_hover(method, pp=True)}<extra></extra>")
        # An entry keeps its colour (its place among the entries), a rung its dash.
        style = _rung_style(lines if len(lines) > 2 else lines[:1], label, rung,
                            labels.index(label), rung_index[label], by_system)
        rung_index[label] += 1
        trace = _line(part["pool"], to_pp(part["difference"]), to_pp(part["stderr"]),
                      f"{label} · {paired}", hover, **style)
        traces.append(trace)
    if title is None:
        title = f"P(pass) minus {base_label}"
    return new_figure(title, pool_axis_title([line.system for line in lines]),
                      "difference in P(pass) (pp)", traces=traces,
                      subtitle=f"{method_note(method, trials, seed)}; percentage points",
                      y="pp", height=height, legend_title="entry · rung",
                      xaxis=_pool_ticks(sorted(set(frame["pool"])) if len(frame) else []))


# -- one check ---------------------------------------------------------------------------
def stacked_outcomes_figure(frame: pd.DataFrame, method: str = "exact", *,
                            trials: int = 100_000, seed: int | None = None,
                            title: str | None = None, x_title: str = "check",
                            height: int = DEFAULT_HEIGHT) -> go.Figure:
    """One stacked column per check of an :func:`~workbench.figures.frames.outcome_frame`:
    tiers or outcomes from worst (bottom, red) to best (top, blue).

    Example:
        >>> fig = stacked_outcomes_figure(_frames.outcome_frame(["erzahlspiel"]))
        >>> fig.data[0].name, fig.data[-1].name, fig.layout.barmode
        ('NO! AND...', 'YES! AND...', 'stack')
    """
    columns = list(dict.fromkeys(frame["column"]))
    numeric = sorted({o for o in frame["outcome"] if isinstance(o, int)})
    named = list(dict.fromkeys(o for o in frame["outcome"] if not isinstance(o, int)))
    order = [*numeric, *named]
    # Named outcomes sit by their mean rank (share) on the worst-to-best scale.
    ranks = {o: numeric.index(o) / max(len(numeric) - 1, 1) for o in numeric}
    for outcome in named:
        part = frame[frame["outcome"].map(lambda o, w=outcome: type(o) is type(w) and o == w)]
        ranks[outcome] = float(part["share"].mean())
    scale = outcome_colours(101)
    simulated = method == "simulate"
    traces = []
    for outcome in order:
        part = frame[frame["outcome"].map(lambda o, w=outcome: type(o) is type(w) and o == w)]
        by_column = part.set_index("column")
        y = [float(by_column.at[c, "probability"]) if c in by_column.index else 0.0 for c in columns]
        se = [float(by_column.at[c, "stderr"]) if c in by_column.index else 0.0 for c in columns]
        errors = [_frames.Z_95 * v for v in se]
        traces.append({
            "type": "bar", "x": columns, "y": y, "name": _outcome_name(outcome),
            "customdata": errors if simulated else None,
            "marker": {"color": scale[round(100 * ranks[outcome])],
                       "line": {"color": "white", "width": 0.5}},
            "error_y": {"type": "data", "array": errors, "visible": True} if simulated else None,
            "hovertemplate": f"%{{x}}<br><b>{_outcome_name(outcome)}</b>: "
                             f"{_percent_hover(method)}<extra></extra>"})
    kinds = set(frame["kind"])
    what = "tiers" if kinds == {"tier"} else ("outcomes" if kinds == {"outcome"} else "tiers / outcomes")
    # Labels lie flat, one part a line (entry, then its rungs), so neighbours never overlap.
    ticks = {"tickvals": columns, "ticktext": [_column_label(c) for c in columns],
             "tickangle": 0, "automargin": True}
    return new_figure(title or f"One check: {what}", x_title, "probability", traces=traces,
                      subtitle=method_note(method, trials, seed), height=height,
                      barmode="stack", bargap=0.25, y="percent",
                      yaxis={"range": [0, 1.0001]}, xaxis=ticks,
                      **_stack_legend(len(traces), height))


#: Height of one legend entry (pixels at the workbench's font) and what a figure's title,
#: subtitle and axis take from its height: a side legend with more entries than fit is cut
#: off in a static image (a browser scrolls it; a PNG pasted into a rulebook cannot).
LEGEND_ENTRY_PX = 20
FIGURE_FRAME_PX = 170


def _stack_legend(entries: int, height: int) -> dict:
    """The legend of a stacked chart: beside the plot, worst at the bottom, while its entries
    fit the height; else in rows under the plot, worst first (Genesys' 20-odd net results).

    Example:
        >>> _stack_legend(4, 480)["legend"]["traceorder"], _stack_legend(21, 480)["legend"]["orientation"]
        ('reversed', 'h')
    """
    if entries * LEGEND_ENTRY_PX <= height - FIGURE_FRAME_PX:
        return {"legend": {"traceorder": "reversed"}, "legend_title": "worst at the bottom"}
    return {"legend": {"traceorder": "normal", "orientation": "h", "x": 0, "xanchor": "left",
                       "yref": "container", "y": 0, "yanchor": "bottom"},
            "legend_title": "worst first"}


#: Characters on one line of a stacked column's label (labels wrap, never rotate).
LABEL_WIDTH = 11


def _column_label(column: str) -> str:
    """A stacked column's tick text: the entry, then its rungs, wrapped into short lines (a
    die colour keeps its swatch).

    Example:
        >>> _column_label("uwr dice=4 · Normal – Extreme")
        'uwr dice=4<br>Normal –<br>Extreme'
    """
    if "<br>" in column:  # already laid out by its maker
        return column
    swatch = _die_label(column)[: -len(column)] if die_colour(column.split(" · ")[-1]) else ""
    lines = [line for part in column.split(" · ")
             for line in textwrap.wrap(part, LABEL_WIDTH, break_long_words=False)]
    return swatch + "<br>".join(lines)


def _die_label(column: str) -> str:
    """A column named after a die colour gets that colour as a swatch next to its name."""
    colour = die_colour(column.split(" · ")[-1])
    if colour is None:
        return column
    return f"<span style='color:{colour}'>■</span> {column}"


def narrative_odds_figure(system: "str | System" = "erzahlspiel", *,
                          height: int = DEFAULT_HEIGHT, **params: Any) -> go.Figure:
    """The narrative-dice odds chart: one stacked column per die colour, worst at the bottom,
    and the chance of any YES under each die.

    Example:
        >>> fig = narrative_odds_figure()
        >>> [trace.name for trace in fig.data][:2], list(fig.data[0].x)
        (['NO! AND...', 'NO!'], ['black', 'red', 'yellow', 'green', 'blue'])
    """
    sys_ = get_system(system)
    labels = sys_.outcome_labels
    if not labels:
        raise WorkbenchError(f"{sys_.id}: has no narrative outcomes; allowed: a system with "
                             "labelled outcomes, such as erzahlspiel")
    rungs = [r for r in sys_.ladder if "die" in r.set] or list(sys_.ladder)
    results = [check(sys_, **sys_.with_rung(rung, **params)) for rung in rungs]
    names = [rung.name for rung in rungs]
    colours = outcome_colours(len(labels))
    traces = []
    for i, label in enumerate(labels):
        shares = [float(result.pmf[label]) for result in results]
        traces.append({"type": "bar", "name": label, "x": names, "y": shares,
                       "marker": {"color": colours[i], "line": {"color": "white", "width": 0.5}},
                       "text": [marked(s, 0) if s > 0 else "" for s in shares],
                       "textposition": "inside", "insidetextanchor": "middle",
                       "hovertemplate": "%{x}: %{y:.1%}<extra>" + label + "</extra>"})
    ticktext = [f"{_die_label(name)}<br>any YES {marked(r.p_pass, 0)}" for name, r in zip(names, results)]
    return new_figure(f"{sys_.name}: outcome odds by die", "die", "share of rolls", traces=traces,
                      y="percent", yaxis={"range": [0, 1.0001]}, barmode="stack", bargap=0.25,
                      xaxis={"tickvals": names, "ticktext": ticktext},
                      legend={"traceorder": "reversed"}, legend_title="outcome", height=height)


#: Columns of a tier chart when no pool sizes are given (1-8 dice).
TIER_COLUMNS = 8


def tier_figure(system: "str | System", pools: Iterable[int] | None = None, *,
                height: int = DEFAULT_HEIGHT, **params: Any) -> go.Figure:
    """Tier shares (worst at the bottom) stacked, one column per pool size (by default 1-8
    dice within the system's bounds, or round values of a knob that is not a number of dice).

    Example:
        >>> fig = tier_figure("unnamed", [1, 2])
        >>> fig.data[0].name, fig.data[-1].name
        ('Disaster', 'Triumph')
    """
    sys_ = get_system(system)
    if not sys_.pool_parameter:
        raise WorkbenchError(f"{sys_.id}: has no pool size to chart tiers against")
    sizes = (default_pool_sizes(sys_, most=TIER_COLUMNS, dice=TIER_COLUMNS) if pools is None
             else pool_size_list(pools, "pools"))
    results = [check(sys_, **{**params, sys_.pool_parameter: n}) for n in sizes]
    if results[0].tiers is None:
        raise WorkbenchError(f"{sys_.id}: has no tiers; allowed: a system with degrees of "
                             "success, such as unnamed")
    tiers = results[0].tiers.outcomes
    colours = outcome_colours(len(tiers))
    traces = [{"type": "bar", "name": str(tier), "x": sizes,
               "y": [float(r.tiers[tier]) for r in results],
               "marker": {"color": colours[i], "line": {"color": "white", "width": 0.5}},
               "hovertemplate": pool_hover(sys_) + ": %{y:.1%}<extra>" + str(tier) + "</extra>"}
              for i, tier in enumerate(tiers)]
    knob = "pool size" if counts_dice(sys_) else sys_.pool_parameter
    return new_figure(f"{sys_.name}: tiers by {knob}", pool_axis_title([sys_]),
                      "share of rolls", traces=traces, y="percent", yaxis={"range": [0, 1.0001]},
                      xaxis=_pool_ticks(sizes),
                      barmode="stack", bargap=0.2, legend={"traceorder": "reversed"},
                      legend_title="tier", height=height)


# -- ladders -----------------------------------------------------------------------------
def ladder_figure(system_or_solution: Any, pools: Iterable[int] | None = None,
                  rungs: Sequence[str] | None = None, *, height: int = DEFAULT_HEIGHT,
                  title: str | None = None, condition: str | None = None, **params: Any) -> go.Figure:
    """A ladder's rungs as P(pass) curves over pool sizes (bars for single-die systems).

    ``system_or_solution`` is a system (its own ladder, from its data file) or a solved
    ladder (:func:`workbench.ladders.solve_ladder`; anything with ``system``, ``ladder`` and
    ``params``): the solved settings are drawn, with each wanted probability marked at the
    pool it was solved for. ``condition`` draws P(condition) (over the system's statistics and
    parameters) instead of P(pass); a solved ladder brings its own. Without ``pools``: the
    system's :func:`~workbench.analysis.default_pool_sizes` (1-10 dice, within its bounds).

    Example:
        >>> [trace.name for trace in ladder_figure("uwr", [1, 2, 3]).data]
        ['Easy', 'Normal', 'Difficult', 'Extreme']
    """
    solution = None
    if hasattr(system_or_solution, "ladder") and hasattr(system_or_solution, "rungs") \
            and not isinstance(system_or_solution, (str, System)):
        solution = system_or_solution
        sys_ = get_system(solution.system)
        chosen = list(solution.ladder)
        params = {**dict(solution.params), **params}
        condition = condition or getattr(solution, "condition", None)
    else:
        sys_ = get_system(system_or_solution)
        chosen = rungs
    sizes = default_pool_sizes(sys_) if pools is None else pool_size_list(pools, "pools")
    frame = success_curve(sys_, sizes, chosen, condition=condition, **params)
    names = list(dict.fromkeys(frame["rung"]))
    if solution is not None:
        settings = {r.name: r.rung.describe() for r in solution.rungs}
        shown = {name: f"{name} ({settings.get(name, '')})" for name in names}
    else:
        shown = {name: name for name in names}
    if not sys_.pool_parameter:
        traces = [_ladder_bars(frame, shown, condition)]
        x_title = "difficulty"
    else:
        traces = _ladder_curves(frame, names, shown, sys_)
        x_title = pool_axis_title([sys_])
    xaxis = _pool_ticks(sizes) if sys_.pool_parameter else {}
    kind = "solved ladder" if solution is not None else "difficulty ladder"
    subtitle = None
    shapes = []
    if solution is not None:
        traces += _wanted_marks(solution, sys_, shown)
        subtitle, shapes = _solution_notes(solution, sys_, params.get("quality"))
    shown_as = shown_probability(condition)   # P(ones >= 1) is not drawn under "P(pass)"
    return new_figure(title or f"{sys_.name}: {kind}, {shown_as} by difficulty", x_title, shown_as,
                      traces=traces, subtitle=subtitle, y="percent", height=height,
                      legend_title="rung", shapes=shapes, xaxis=xaxis)


def _ladder_bars(frame: pd.DataFrame, shown: dict, condition: str | None) -> dict:
    """A single die's ladder: one bar a rung (the odds are the same at every pool)."""
    first = frame.drop_duplicates("rung")
    return {"type": "bar", "name": shown_probability(condition),
            "x": [shown[n] for n in first["rung"]],
            "y": [float(v) for v in first["p_pass"]],
            "marker": {"color": [die_colour(n, line_colour(i))
                                 for i, n in enumerate(first["rung"])]},
            "text": [marked(float(v), 0) for v in first["p_pass"]],
            "textposition": "outside", "cliponaxis": False,
            "hovertemplate": "%{x}: %{y:.1%}<extra></extra>"}


def _ladder_curves(frame: pd.DataFrame, names: list, shown: dict, sys_) -> list[dict]:
    """A pooled ladder: one curve a rung over the pool sizes."""
    traces = []
    for i, name in enumerate(names):
        part = frame[frame["rung"] == name]
        colour = die_colour(name, line_colour(i))
        traces.append({"type": "scatter", "mode": "lines+markers", "name": shown[name],
                       "x": [int(v) for v in part["pool"]],
                       "y": [float(v) for v in part["p_pass"]], "line": {"color": colour},
                       "legendgroup": name,
                       "hovertemplate": f"<b>{shown[name]}</b><br>{pool_hover(sys_)}: %{{y:.1%}}"
                                        "<extra></extra>"})
    return traces


def _wanted_marks(solution: Any, sys_, shown: dict) -> list[dict]:
    """A solved ladder's wanted odds, one × a rung at the pool it was solved for."""
    traces = []
    for i, rung in enumerate(solution.rungs):
        at = solution.pool if sys_.pool_parameter else shown[rung.name]
        if at is None:
            continue
        traces.append({"type": "scatter", "mode": "markers", "x": [at], "y": [rung.wanted],
                       "name": f"wanted {rung.name}", "legendgroup": rung.name,
                       "showlegend": False,
                       "marker": {"symbol": "x-thin-open", "size": 12, "line": {"width": 2},
                                  "color": die_colour(rung.name, line_colour(i))},
                       "hovertemplate": f"{rung.name} wanted {rung.wanted:.0%}<extra></extra>"})
    return traces


def _solution_notes(solution: Any, sys_, quality: Any) -> tuple[str, list[dict]]:
    """A solved ladder's subtitle (what × marks, the pools where the order is kept, a
    warning when rungs cross) and the shading of those pools."""
    shapes = []
    subtitle = "× = the odds wanted" + (f" {pools_text(sys_, [solution.pool], quality)}"
                                        if sys_.pool_parameter and solution.pool is not None else "")
    band = [int(n) for n in getattr(solution, "pools", ()) or ()]
    if len(set(band)) > 1 and sys_.pool_parameter:
        # The pools the solver keeps the rungs in order over ("typical characters").
        shapes.append({"type": "rect", "xref": "x", "yref": "paper", "layer": "below",
                       "x0": min(band) - 0.4, "x1": max(band) + 0.4, "y0": 0, "y1": 1,
                       "fillcolor": "#eef2f7", "line": {"width": 0}})
        span = pools_text(sys_, list(range(min(band), max(band) + 1)), quality)
        subtitle += f"; shaded: {span.removeprefix('at ')}, where the order is kept"
    if getattr(solution, "ordered", True) is False:
        subtitle += " · NOT ORDERED: rungs cross (see the solution's conflicts)"
    return subtitle, shapes
