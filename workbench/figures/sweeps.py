"""Pictures of a sweep (:func:`workbench.sweep.sweep`): heatmap, line family, band map.

Each picture has a data-shaping function returning a plain DataFrame (what is drawn, for
tables and tests) and a figure function drawing it in the workbench look
(:func:`~workbench.figures.style.new_figure`); export with
:func:`~workbench.figures.output.write_figure` (``.png`` / ``.svg`` / ``.html``).

* :func:`heatmap_frame` / :func:`heatmap_figure` — one figure over two parameters;
* :func:`line_family_frame` / :func:`line_family_figure` — a figure against one parameter, one
  line per value of another (with standard-error bars for simulated figures);
* :func:`band_frame` / :func:`band_map_figure` — "where is it within the band": for each cell
  of two parameters, the share of a third parameter's values (e.g. pools 3-6) at which the
  figure lies within ``[low, high]``; cells where every one does are marked.
"""
from __future__ import annotations

from typing import Any, Sequence

import pandas as pd

from ..errors import WorkbenchError
from .style import LINE_COLOURS, OUTCOME_SCALE, line_colour, new_figure

PROBABILITY_COLUMNS = ("p_pass", "p_actor", "pass_with", "pass_without", "pass_with_burning",
                       "pass_without_burning", "empty_share")
#: Chances of passing: higher is better, so they take the worst-to-best outcome colours.
#: Every other figure (a share of empty pools, a mean) is shaded on a neutral scale that
#: says "more", not "better".
PASS_COLUMNS = ("p_pass", "p_actor", "pass_with", "pass_without", "pass_with_burning",
                "pass_without_burning")
#: Sweep columns as a designer reads them on an axis, a legend or a colour bar.
READABLE = {
    "p_pass": "P(pass)", "p_actor": "P(actor wins)", "pass_with": "P(pass) with Drama Dice",
    "pass_without": "P(pass) without Drama Dice", "empty_share": "checks finding the pool empty",
    "pass_with_burning": "P(pass) with burning", "pass_without_burning": "P(pass) without burning",
    "mean_pulled": "Drama Dice pulled per check", "pool_max": "pool maximum",
    "dice": "dice in the pool", "refill_rate": "refill rate", "mean": "mean",
}


def readable(column: str) -> str:
    """A column's name for axes and legends: ``refill_rate`` -> ``refill rate``.

    Example:
        >>> readable("pass_with"), readable("refill_rate"), readable("tier: Success")
        ('P(pass) with Drama Dice', 'refill rate', 'tier: Success')
    """
    column = str(column)
    return READABLE.get(column, column.replace("_", " "))


def _whole_ticks(values: Sequence[Any]) -> dict:
    """Whole-number parameters (players, dice) get ticks at their values only, not 2.5."""
    values = sorted(set(values))
    if values and len(values) <= 30 and all(float(v).is_integer() for v in values):
        return {"tickmode": "array", "tickvals": values}
    return {}


def _need_columns(frame: pd.DataFrame, columns: Sequence[str]) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise WorkbenchError(f"sweep figure got {type(frame).__name__}; allowed: the DataFrame "
                             "workbench.sweep.sweep returns")
    for column in columns:
        if column not in frame.columns:
            raise WorkbenchError(f"sweep figure: column {column!r} is not in the sweep; allowed: "
                                 + ", ".join(map(str, frame.columns)))


def _one_value_each(frame: pd.DataFrame, keys: Sequence[str], value: str) -> None:
    """Each cell must be one point: other swept parameters have to be held fixed first."""
    if frame.duplicated(subset=list(keys)).any():
        parameters = [c for c in frame.columns if c not in keys and c != value
                      and c in frame.attrs.get("parameters", frame.columns)
                      and frame[c].nunique(dropna=False) > 1]
        raise WorkbenchError(
            f"sweep figure: several points share each {' x '.join(keys)} cell; hold the other "
            f"parameters fixed first (e.g. frame[frame['{parameters[0] if parameters else 'name'}']"
            " == value])")


def _is_probability(value: str) -> bool:
    return value in PROBABILITY_COLUMNS or value.startswith(("tier: ", "outcome: ")) or \
        value.endswith(": p_pass") or (": P(" in value and value.endswith(")"))   # a condition's


def heatmap_frame(frame: pd.DataFrame, x: str, y: str, value: str = "p_pass") -> pd.DataFrame:
    """``value`` with one row per ``y`` and one column per ``x`` (both in sorted order).

    Example:
        >>> from workbench.sweep import sweep
        >>> grid = sweep("check", {"dice": [2, 4], "target": [1, 2]}, system="uwr")
        >>> heatmap_frame(grid, "dice", "target").round(3).values.tolist()
        [[0.556, 0.802], [0.111, 0.407]]
    """
    _need_columns(frame, [x, y, value])
    _one_value_each(frame, [x, y], value)
    return frame.pivot(index=y, columns=x, values=value).sort_index().sort_index(axis=1)


def _heat_trace(table: pd.DataFrame, value: str, **extra: Any) -> dict:
    percent = _is_probability(value)
    if value in PASS_COLUMNS or value.endswith(": p_pass"):
        scale = [[i / (len(OUTCOME_SCALE) - 1), colour] for i, colour in enumerate(OUTCOME_SCALE)]
    else:
        scale = [[0.0, "#ffffff"], [1.0, LINE_COLOURS[0]]]
    name = readable(value)
    trace = {"type": "heatmap", "x": [str(c) for c in table.columns],
             "y": [str(i) for i in table.index], "z": table.to_numpy().tolist(),
             "colorscale": scale, "colorbar": {"title": {"text": name, "side": "right"}},
             "hovertemplate": f"{readable(table.columns.name)} %{{x}}<br>"
                              f"{readable(table.index.name)} %{{y}}<br>"
                              f"{name} %{{z:{'.1%' if percent else '.3f'}}}<extra></extra>"}
    if percent:
        trace.update(zmin=0.0, zmax=1.0,
                     colorbar={"title": {"text": name, "side": "right"}, "tickformat": ".0%"})
    trace.update(extra)
    return trace


def heatmap_figure(frame: pd.DataFrame, x: str, y: str, value: str = "p_pass", *,
                   title: str | None = None, subtitle: str | None = None, text: bool = True):
    """A heatmap of ``value`` over two swept parameters (probabilities on a 0-100 % scale).

    Example:
        >>> from workbench.sweep import sweep
        >>> grid = sweep("check", {"dice": [2, 4], "target": [1, 2]}, system="uwr")
        >>> fig = heatmap_figure(grid, "dice", "target")
        >>> fig.data[0].type, fig.data[0].x, fig.layout.template.layout.paper_bgcolor
        ('heatmap', ('2', '4'), 'white')
    """
    table = heatmap_frame(frame, x, y, value)
    extra = {}
    if text:
        fmt = "{:.0%}" if _is_probability(value) else "{:.2f}"
        extra = {"text": [[fmt.format(v) if pd.notna(v) else "" for v in row]
                          for row in table.to_numpy()], "texttemplate": "%{text}"}
    return new_figure(title or f"{readable(value)} by {readable(x)} and {readable(y)}",
                      readable(x), readable(y), subtitle=subtitle,
                      traces=[_heat_trace(table, value, **extra)],
                      xaxis={"type": "category"}, yaxis={"type": "category"})


def line_family_frame(frame: pd.DataFrame, x: str, line: str, value: str = "p_pass") -> pd.DataFrame:
    """Columns ``line``, ``x``, ``value`` and, when the sweep has it, ``stderr``; sorted.

    Example:
        >>> from workbench.sweep import sweep
        >>> grid = sweep("check", {"target": [1, 2], "dice": [1, 2]}, system="uwr")
        >>> line_family_frame(grid, "dice", "target").round(3).values.tolist()
        [[1.0, 1.0, 0.333], [1.0, 2.0, 0.556], [2.0, 1.0, 0.0], [2.0, 2.0, 0.111]]
    """
    _need_columns(frame, [x, line, value])
    _one_value_each(frame, [x, line], value)
    columns = [line, x, value]
    out = frame[columns].copy()
    stderr = f"{value}_stderr"
    if stderr in frame.columns:
        out["stderr"] = frame[stderr].to_numpy()
    return out.sort_values([line, x]).reset_index(drop=True)


def line_family_figure(frame: pd.DataFrame, x: str, line: str, value: str = "p_pass", *,
                       title: str | None = None, subtitle: str | None = None):
    """``value`` against ``x``, one line per value of ``line`` (error bars where simulated).

    Example:
        >>> from workbench.sweep import sweep
        >>> grid = sweep("check", {"target": [1, 2], "dice": [1, 2, 3]}, system="uwr")
        >>> fig = line_family_figure(grid, "dice", "target")
        >>> [t.name for t in fig.data], list(fig.data[0].x)
        (['target 1', 'target 2'], [1, 2, 3])
    """
    table = line_family_frame(frame, x, line, value)
    percent = _is_probability(value)
    traces = []
    for index, (key, part) in enumerate(table.groupby(line, sort=True)):
        trace = {"type": "scatter", "mode": "lines+markers", "name": f"{readable(line)} {key}",
                 "x": part[x].tolist(), "y": part[value].tolist(),
                 "line": {"color": line_colour(index)},
                 "hovertemplate": f"{readable(line)} {key}<br>{readable(x)} %{{x}}<br>{readable(value)} "
                                  f"%{{y:{'.1%' if percent else '.3f'}}}<extra></extra>"}
        if "stderr" in part:
            trace["error_y"] = {"type": "data", "array": part["stderr"].tolist(), "visible": True}
        traces.append(trace)
    yaxis = {}
    if percent:  # scaled to the lines: on a 0-100% axis lines a few points apart lie as one
        values = table[value].dropna()
        errors = table["stderr"].fillna(0) if "stderr" in table else 0
        low, high = float((table[value] - errors).min()), float((table[value] + errors).max())
        pad = max(0.15 * (high - low), 0.005)
        if len(values):
            yaxis = {"range": [max(low - pad, -0.02), min(high + pad, 1.02)], "tickformat": ".1%"
                     if high - low < 0.1 else ".0%"}
    return new_figure(title or f"{readable(value)} against {readable(x)}, one line per "
                      f"{readable(line)}", readable(x), readable(value),
                      subtitle=subtitle, traces=traces, y="percent" if percent else None,
                      legend_title=readable(line), xaxis=_whole_ticks(table[x].tolist()),
                      yaxis=yaxis)


#: How far outside the band (as a probability: 30 points) a cell is drawn white.
FAR = 0.3


def band_frame(frame: pd.DataFrame, x: str, y: str, over: str, value: str = "p_pass",
               low: float = 0.6, high: float = 0.75) -> pd.DataFrame:
    """For each ``x`` x ``y`` cell: the share of ``over`` values (e.g. pools) at which
    ``low <= value <= high``, the least and greatest value, and whether all are in the band.

    Returns columns ``x``, ``y``, ``share``, ``least``, ``greatest``, ``outside`` (how far
    the values stray from the band: below ``low`` plus above ``high``, 0 when all are in it),
    ``all_within``, ``count``.

    Example:
        >>> from workbench.sweep import sweep
        >>> grid = sweep("check", {"favor": [0, 1], "target": [1, 2], "dice": [3, 4]},
        ...              system="uwr")
        >>> band = band_frame(grid, "favor", "target", over="dice", low=0.6, high=0.95)
        >>> band[["favor", "target", "share", "all_within"]].values.tolist()
        [[0, 1, 1.0, True], [0, 2, 0.0, False], [1, 1, 1.0, True], [1, 2, 0.5, False]]
    """
    _need_columns(frame, [x, y, over, value])
    _one_value_each(frame, [x, y, over], value)
    if not (isinstance(low, (int, float)) and isinstance(high, (int, float)) and low <= high):
        raise WorkbenchError(f"band got low={low!r}, high={high!r}; allowed: numbers with "
                             "low <= high")
    within = frame[value].between(low, high)
    grouped = frame.assign(_within=within).groupby([x, y], sort=True)
    out = grouped.agg(share=("_within", "mean"), least=(value, "min"),
                      greatest=(value, "max"), count=(over, "nunique")).reset_index()
    out["all_within"] = out["share"] == 1.0
    out["outside"] = (low - out["least"]).clip(lower=0) + (out["greatest"] - high).clip(lower=0)
    return out[[x, y, "share", "least", "greatest", "outside", "all_within", "count"]]


def band_map_figure(frame: pd.DataFrame, x: str, y: str, over: str, value: str = "p_pass",
                    low: float = 0.6, high: float = 0.75, *, title: str | None = None,
                    subtitle: str | None = None):
    """Where ``value`` lies within ``[low, high]`` for every ``over`` value: each cell shaded
    by how far its values stray from the band (darkest: all within, marked ``✓``; white:
    :data:`FAR` or more outside), and labelled with the least and greatest value over ``over``.

    Example:
        >>> from workbench.sweep import sweep
        >>> grid = sweep("check", {"favor": [0, 1], "target": [1, 2], "dice": [3, 4]},
        ...              system="uwr")
        >>> fig = band_map_figure(grid, "favor", "target", over="dice")
        >>> fig.data[0].type, fig.data[0].zmin, fig.data[0].text[0]
        ('heatmap', 0.0, ['70–80%', '88–94%'])
    """
    band = band_frame(frame, x, y, over, value, low, high)
    many = "pools" if over == "dice" else f"{readable(over)} values"
    outside = band.pivot(index=y, columns=x, values="outside").sort_index().sort_index(axis=1)
    least = band.pivot(index=y, columns=x, values="least").reindex_like(outside)
    greatest = band.pivot(index=y, columns=x, values="greatest").reindex_like(outside)
    within = band.pivot(index=y, columns=x, values="all_within").reindex_like(outside)
    percent = _is_probability(value)
    fmt = "{:.0%}" if percent else "{:.2f}"

    def span(a, b, ok) -> str:
        if pd.isna(a):
            return ""
        if percent:
            text = f"{a:.0%}" if round(100 * a) == round(100 * b) else f"{100 * a:.0f}–{b:.0%}"
        else:
            text = f"{fmt.format(a)}–{fmt.format(b)}"
        return f"✓ {text}" if ok else text
    text = [[span(a, b, ok) for a, b, ok in zip(ra, rb, rw)]
            for ra, rb, rw in zip(least.to_numpy(), greatest.to_numpy(), within.to_numpy())]
    scale = 100 if percent else 1
    trace = {"type": "heatmap", "x": [str(c) for c in outside.columns],
             "y": [str(i) for i in outside.index],
             "z": (scale * outside).to_numpy().tolist(), "zmin": 0.0, "zmax": scale * FAR,
             "text": text, "texttemplate": "%{text}",
             "colorscale": [[0.0, LINE_COLOURS[2]], [0.25, "#9fd8c4"], [1.0, "#ffffff"]],
             "colorbar": {"title": {"text": "outside the band" + (" (pp)" if percent else ""),
                                    "side": "right"}},
             "hovertemplate": f"{readable(x)} %{{x}}<br>{readable(y)} %{{y}}<br>{readable(value)} "
                              f"%{{text}} over the {many}<br>%{{z:.1f}}"
                              f"{' pp' if percent else ''} outside the band<extra></extra>"}
    band_text = f"{fmt.format(low)}-{fmt.format(high)}"
    values = sorted(frame[over].unique().tolist())
    marked = int(band["all_within"].sum())
    every = (f"every pool of {values[0]} to {values[-1]} dice" if over == "dice" else
             f"every {readable(over)} from {values[0]} to {values[-1]}") if values else ""
    default_subtitle = (f"✓: {readable(value)} within {band_text} at {every} ({marked or 'no'} such "
                        f"cell{'' if marked == 1 else 's'}); each cell: least–greatest over the "
                        f"{many}, darker the closer to the band" if values else None)
    return new_figure(title or f"Where {readable(value)} is within {band_text}", readable(x), readable(y),
                      subtitle=subtitle or default_subtitle, traces=[trace],
                      xaxis={"type": "category"}, yaxis={"type": "category"})
