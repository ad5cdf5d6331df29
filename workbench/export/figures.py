"""Figures for docs and reports: plotly figures, written as self-contained HTML, PNG and SVG.

Every figure here is a pure function of its inputs returning a ``plotly.graph_objects.Figure``
(tests call them without a browser). Static images go through kaleido and the system's
Chromium; :func:`write_images` writes a whole batch with one browser start (``plotly.io.
write_images``), because each single ``write_image`` call starts its own browser (~2-3 s).

This module imports plotly at import time; the package root never imports it.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Iterable, Sequence

import plotly.graph_objects as go

from ..analysis import comparison_entry, success_curve
from ..api import check
from ..errors import WorkbenchError
from ..ladders import DEFAULT_TABLE_POOLS, ladder_table
from ..rules.registry import get_system
from ..rules.system import System

#: Outcome colours from worst (deep red) to best (deep green), so a stacked column reads at
#: a glance; six steps match Erzählspiel's six outcomes and the Unnamed System's six tiers.
OUTCOME_COLOURS = ("#8e1b1b", "#d9534f", "#f0ad4e", "#c7d66d", "#5cb85c", "#1e7b34")
DEFAULT_SIZE = (800, 500)


def _shade(index: int, count: int) -> str:
    """Spread ``count`` outcomes over the six colours, worst and best at the ends."""
    if count <= 1:
        return OUTCOME_COLOURS[-1]
    return OUTCOME_COLOURS[round(index * (len(OUTCOME_COLOURS) - 1) / (count - 1))]


def _percent_axis(fig: go.Figure, title: str) -> None:
    fig.update_yaxes(title_text=title, tickformat=".0%", range=[0, 1])


def narrative_odds_figure(system: "str | System" = "erzahlspiel", **params: Any) -> go.Figure:
    """The narrative-dice odds chart: one stacked column per die colour, outcome shares stacked.

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
    fig = go.Figure()
    for i, label in enumerate(labels):
        shares = [result.pmf[label] for result in results]
        fig.add_trace(go.Bar(name=label, x=names, y=shares, marker_color=_shade(i, len(labels)),
                             text=[f"{s:.0%}" if s > 0 else "" for s in shares],
                             textposition="inside", hovertemplate="%{x}: %{y:.1%}"))
    passing = [result.p_pass for result in results]
    fig.update_layout(barmode="stack", title=f"{sys_.name}: outcome odds by die",
                      xaxis_title="die", legend_title_text="outcome",
                      legend_traceorder="reversed")
    # The pass share goes under each column's name: it is the number the seed quotes.
    fig.update_xaxes(tickvals=names, ticktext=[f"{name}<br>any YES {p:.0%}"
                                               for name, p in zip(names, passing)])
    _percent_axis(fig, "share of rolls")
    return fig


def ladder_figure(system: "str | System", pool_sizes: Iterable[int] = DEFAULT_TABLE_POOLS,
                  rungs=None, **params: Any) -> go.Figure:
    """P(pass) for each ladder rung: lines against pool size, or bars for single-die systems.

    Example:
        >>> fig = ladder_figure("uwr", [1, 2, 3])
        >>> [trace.name for trace in fig.data]
        ['Easy', 'Normal', 'Difficult', 'Extreme']
    """
    sys_ = get_system(system)
    table = ladder_table(sys_, pool_sizes, rungs, **params)
    fig = go.Figure()
    if not sys_.pool_parameter:
        fig.add_trace(go.Bar(name="P(pass)", x=list(table.index), y=table["P(pass)"].tolist(),
                             marker_color=[_shade(i, len(table)) for i in range(len(table))],
                             hovertemplate="%{x}: %{y:.1%}"))
        fig.update_layout(xaxis_title="difficulty")
    else:
        for rung, row in table.iterrows():
            fig.add_trace(go.Scatter(name=str(rung), x=list(table.columns), y=row.tolist(),
                                     mode="lines+markers", hovertemplate="%{x}: %{y:.1%}"))
        fig.update_layout(xaxis_title=f"dice in the pool ({sys_.pool_parameter})",
                          legend_title_text="difficulty")
    fig.update_layout(title=f"{sys_.name}: P(pass) by difficulty")
    _percent_axis(fig, "P(pass)")
    return fig


def curves_figure(entries: Sequence[Any], pool_sizes: Iterable[int] = DEFAULT_TABLE_POOLS,
                  title: str = "Success curves side by side") -> go.Figure:
    """Success curves of several systems (or variants) on one figure, one line per rung.

    ``entries`` as for :func:`workbench.analysis.side_by_side`: ids, ``(system, params)`` or
    ``(label, system, params)``.

    Example:
        >>> fig = curves_figure(["uwr", ("arrata", {"quality": "A"})], [1, 2])
        >>> len(fig.data)
        10
    """
    from plotly.colors import qualitative

    sizes = list(pool_sizes)
    fig = go.Figure()
    # One colour per system and one dash per rung, so twenty lines still read by system.
    palette, dashes = qualitative.Plotly, ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
    for number, entry in enumerate(entries):
        label, sys_, params = comparison_entry(entry)
        frame = success_curve(sys_, sizes, label=label, **params)
        for step, ((name, rung), part) in enumerate(frame.groupby(["label", "rung"], sort=False)):
            fig.add_trace(go.Scatter(name=f"{name}: {rung}", x=part["pool"].tolist(),
                                     y=part["p_pass"].tolist(), mode="lines+markers",
                                     line={"color": palette[number % len(palette)],
                                           "dash": dashes[step % len(dashes)]},
                                     legendgroup=str(name), hovertemplate="%{x}: %{y:.1%}"))
    fig.update_layout(title=title, xaxis_title="dice in the pool")
    _percent_axis(fig, "P(pass)")
    return fig


def tier_figure(system: "str | System", pool_sizes: Iterable[int] = range(1, 9),
                **params: Any) -> go.Figure:
    """Tier shares (Disaster ... Triumph) stacked, one column per pool size.

    Example:
        >>> fig = tier_figure("unnamed", [1, 2])
        >>> fig.data[0].name, fig.data[-1].name
        ('Disaster', 'Triumph')
    """
    sys_ = get_system(system)
    if not sys_.pool_parameter:
        raise WorkbenchError(f"{sys_.id}: has no pool size to chart tiers against")
    sizes = list(pool_sizes)
    results = [check(sys_, **{**params, sys_.pool_parameter: n}) for n in sizes]
    if results[0].tiers is None:
        raise WorkbenchError(f"{sys_.id}: has no tiers; allowed: a system with degrees of "
                             "success, such as unnamed")
    tiers = results[0].tiers.outcomes
    fig = go.Figure()
    for i, tier in enumerate(tiers):
        fig.add_trace(go.Bar(name=str(tier), x=sizes, y=[r.tiers[tier] for r in results],
                             marker_color=_shade(i, len(tiers)), hovertemplate="%{x}: %{y:.1%}"))
    fig.update_layout(barmode="stack", title=f"{sys_.name}: tiers by pool size",
                      xaxis_title=f"dice in the pool ({sys_.pool_parameter})",
                      legend_title_text="tier", legend_traceorder="reversed")
    _percent_axis(fig, "share of rolls")
    return fig


# --------------------------------------------------------------------------- writing


def figure_data(fig: go.Figure, digits: int = 10) -> dict:
    """The stable part of a figure for golden comparisons: traces and titles, numbers rounded.

    Plotly's template and version metadata are left out: they change with plotly releases
    while the chart a reader sees does not.

    Example:
        >>> figure_data(ladder_figure("uwr", [1]))["data"][0]["y"]
        [0.5]
    """
    def clean(value):
        if isinstance(value, float):
            return round(value, digits)
        if isinstance(value, dict):
            return {k: clean(v) for k, v in sorted(value.items())}
        if isinstance(value, (list, tuple)):
            return [clean(v) for v in value]
        return value.tolist() if hasattr(value, "tolist") else value
    plain = json.loads(fig.to_json())
    layout = plain.get("layout", {})
    keep = {"title": layout.get("title", {}).get("text"), "barmode": layout.get("barmode"),
            "xaxis": (layout.get("xaxis", {}).get("title") or {}).get("text"),
            "yaxis": (layout.get("yaxis", {}).get("title") or {}).get("text")}
    return {"data": clean(plain["data"]), "layout": keep}


def write_html(fig: go.Figure, path: "str | Path") -> Path:
    """A self-contained HTML file (plotly.js inlined: opens offline, ~5 MB)."""
    path = Path(path)
    fig.write_html(path, include_plotlyjs=True, full_html=True)
    return path


def chromium_path() -> str | None:
    """The browser kaleido will use: ``BROWSER_PATH``, else ``chromium`` on the PATH."""
    given = os.environ.get("BROWSER_PATH")
    if given and Path(given).exists():
        return given
    return shutil.which("chromium") or shutil.which("chromium-browser")


def write_images(figures: Sequence[go.Figure], paths: Sequence["str | Path"],
                 size: tuple[int, int] = DEFAULT_SIZE) -> list[Path]:
    """PNG / SVG files (format from each path's suffix), all with one browser start.

    Raises:
        WorkbenchError: a suffix other than ``.png`` / ``.svg``, or no Chromium to draw with.
    """
    paths = [Path(p) for p in paths]
    if len(paths) != len(figures):
        raise WorkbenchError(f"write_images got {len(figures)} figures and {len(paths)} paths")
    bad = [str(p) for p in paths if p.suffix.lower() not in (".png", ".svg")]
    if bad:
        raise WorkbenchError(f"image path {bad[0]!r}: allowed suffixes: .png, .svg")
    if chromium_path() is None:
        raise WorkbenchError("static images need Chromium (apt-get install chromium); "
                             "none found on the PATH or in BROWSER_PATH")
    if not paths:
        return []
    import plotly.io as pio
    width, height = size
    pio.write_images(list(figures), paths, width=width, height=height, scale=1)
    return paths
