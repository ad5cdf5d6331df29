"""Small multiples: one panel per system (or check) on shared axes, instead of one
overloaded chart. Built like every other figure: template and palette from
:mod:`workbench.figures.style`.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

import plotly.graph_objects as go

from ..analysis import evaluate, pools_for
from ..errors import WorkbenchError
from ..numbers import marked
from . import frames as _frames
from .pieces import (
    DEFAULT_POOLS,
    _outcome_name,
    _percent_hover,
    _pool_ticks,
    method_note,
    pool_axis_title,
    pool_hover,
    resolved_seed,
)
from .style import (
    PANEL_HEIGHT,
    TEMPLATE_NAME,
    die_colour,
    line_colour,
    outcome_colours,
    panel_rows,
    panels_height,
    percent_axis,
)


MAX_PANELS = 60
"""Most panels one figure draws (beyond, each panel is too small to read)."""


def _panel_lines(entries, **options):
    lines = _frames.read_entries(entries, **options)
    if len(lines) > MAX_PANELS:
        raise WorkbenchError(f"a figure of {len(lines)} panels; allowed: at most {MAX_PANELS} "
                             "(draw them in several figures)")
    return lines


def row_spacing(rows: int, wanted: float) -> float:
    """The gap between rows of panels as a share of the figure: ``wanted`` for two rows,
    shrinking as rows are added so the panels always fit (plotly refuses a gap of more than
    ``1 / (rows - 1)``).

    Example:
        >>> row_spacing(1, 0.12), row_spacing(2, 0.12), round(row_spacing(9, 0.12), 4)
        (0.1, 0.12, 0.0267)
    """
    if rows <= 1:
        return 0.1
    return min(wanted, 2 * wanted / rows, 0.9 / (rows - 1))


def curve_panels(entries: Sequence[Any], pools: Iterable[int] = DEFAULT_POOLS, *,
                 columns: int = 2, panel_height: int | None = None,
                 title: str | None = None) -> go.Figure:
    """Small multiples: each system's ladder as curves in its own panel, shared axes. Each
    panel's x axis is its system's pool knob as the system names it (dice in the pool, a
    skill); the default title says what the panels run along.

    A system without a pool size (a single die) has nothing to draw curves along: its panel
    shows P(pass) of each rung as bars (the die's odds, the same whatever the other panels'
    pools).

    Example:
        >>> fig = curve_panels(["uwr", "arrata"], [1, 2])
        >>> len(fig.data), fig.layout.annotations[1].text, fig.layout.title.text
        (10, 'Arrata', 'P(pass) against dice in the pool, one panel per system')
        >>> [t.type for t in curve_panels(["uwr", "erzahlspiel"], [1, 2]).data][-1]
        'bar'
    """
    from plotly.subplots import make_subplots  # lazy: plotly

    lines = _panel_lines(entries)
    sizes = [int(n) for n in pools]
    rows = panel_rows(len(lines), columns)
    names = [line.system_object.name if line.label == line.system_object.id else line.label
             for line in lines]
    fig = make_subplots(rows=rows, cols=columns, subplot_titles=names, shared_yaxes=True,
                        horizontal_spacing=0.06, vertical_spacing=row_spacing(rows, 0.12))
    axes = []
    for index, line in enumerate(lines):
        row, col = divmod(index, columns)
        if not line.system_object.pool_parameter:   # one die: its rungs' odds as bars, no pool axis
            axes.append((None, "difficulty (one die: no pool to vary)"))
            fig.add_trace(_one_die_bars(line, names[index], sizes), row=row + 1, col=col + 1)
            continue
        # each system along the pools it can roll: Risk's 1-3 dice, a skill's round values
        own = pools_for(line.system_object, sizes)
        axes.append((own, pool_axis_title([line.system_object])))
        for trace in _ladder_curves(line, names[index], own):
            fig.add_trace(trace, row=row + 1, col=col + 1)
    fig.update_yaxes(**percent_axis(), title_text="")
    for row in range(1, rows + 1):
        fig.update_yaxes(title_text="P(pass)", row=row, col=1)
    for index, (own, named) in enumerate(axes):
        row, col = divmod(index, columns)
        fig.update_xaxes(title_text=named, row=row + 1, col=col + 1,
                         **(_pool_ticks(own) if own is not None else {"type": "category"}))
    if title is None:
        along = pool_axis_title([line.system_object for line in lines])
        title = (f"P(pass) against {along}, one panel per system" if " / " not in along
                 else "P(pass) against each system's pool, one panel per system")
    fig.update_layout(template=TEMPLATE_NAME, title={"text": title}, autosize=True,
                      height=panels_height(len(lines), columns, panel_height),
                      legend={"groupclick": "toggleitem", "tracegroupgap": 12},
                      hovermode="closest")
    return fig


def _one_die_bars(line: _frames.Line, name: str, sizes: list[int]) -> go.Bar:
    """A single die's panel: P(pass) of each rung as bars (the same at any pool)."""
    frame = _frames.line_curve(line, (sizes[0] if sizes else 1,), "exact", 100_000, 0)
    first = frame.drop_duplicates("rung")
    rungs = [str(r) for r in first["rung"]]
    return go.Bar(
        x=rungs, y=[float(v) for v in first["p_pass"]], name=name,
        legendgroup=line.label, showlegend=False,
        marker={"color": [die_colour(r, line_colour(i)) for i, r in enumerate(rungs)]},
        text=[marked(float(v), 0) for v in first["p_pass"]], textposition="outside",
        cliponaxis=False,
        hovertemplate=f"<b>{line.label}</b> · %{{x}}: %{{y:.1%}}<extra></extra>")


def _ladder_curves(line: _frames.Line, name: str, pools: list[int]) -> list[go.Scatter]:
    """A pooled system's panel: one curve a rung of its ladder over ``pools``."""
    sys_ = line.system_object
    frame = _frames.line_curve(line, tuple(pools), "exact", 100_000, 0)
    return [go.Scatter(
        x=[int(v) for v in part["pool"]], y=[float(v) for v in part["p_pass"]],
        name=rung, mode="lines+markers", legendgroup=line.label,
        legendgrouptitle_text=name,
        line={"color": die_colour(rung, line_colour(step))}, marker={"size": 5},
        hovertemplate=f"<b>{line.label}</b> · {rung}<br>{pool_hover(sys_)}: %{{y:.1%}}<extra></extra>")
        for step, (rung, part) in enumerate(frame.groupby("rung", sort=False))]


def check_panels(entries: Sequence[Any], *, columns: int = 2, method: str = "exact",
                 trials: int = 100_000, seed: int | None = None,
                 title: str = "One check, system by system") -> go.Figure:
    """Small multiples of single checks: one panel per entry (its tiers where the system has
    them, else its outcomes), bars coloured worst (red) to best (blue), no shared legend.

    ``entries`` as for :func:`curve_figure`; each entry's knobs are used as set.

    Example:
        >>> fig = check_panels([("4 dice", "uwr", {"dice": 4}), ("yellow", "erzahlspiel", {"die": "yellow"})])
        >>> [a.text for a in fig.layout.annotations], len(fig.data[1].x)
        (['4 dice', 'yellow'], 6)
    """
    seed = resolved_seed(method, seed)
    from plotly.subplots import make_subplots  # lazy: plotly

    lines = _panel_lines(entries, rungs=())
    rows = panel_rows(len(lines), columns)
    fig = make_subplots(rows=rows, cols=columns, subplot_titles=[line.label for line in lines],
                        horizontal_spacing=0.08, vertical_spacing=row_spacing(rows, 0.18))
    for index, line in enumerate(lines):
        result = evaluate(line.system_object, dict(line.params), method, trials, seed)
        dist = result.tiers if result.tiers is not None else result.pmf
        x = [str(o) if not isinstance(o, int) else _outcome_name(o) for o in dist.outcomes]
        y = [float(p) for p in dist.probabilities]
        row, col = divmod(index, columns)
        fig.add_trace(go.Bar(
            x=x, y=y, name=line.label, showlegend=False,
            marker={"color": outcome_colours(len(x))},
            text=[marked(v, 0) if v >= 0.005 else "" for v in y], textposition="outside",
            cliponaxis=False,
            hovertemplate=f"<b>{line.label}</b><br>%{{x}}: {_percent_hover(method)}<extra></extra>"),
            row=row + 1, col=col + 1)
    fig.update_yaxes(tickformat=".0%", range=[0, 1.1], title_text="")
    for row in range(1, rows + 1):
        fig.update_yaxes(title_text="probability", row=row, col=1)
    fig.update_xaxes(tickangle=-30)
    fig.update_layout(template=TEMPLATE_NAME, autosize=True, bargap=0.2,
                      title={"text": f"{title}<br><span style='font-size:12px;color:#555'>"
                                     f"{method_note(method, trials, seed)}; worst red, best blue</span>"},
                      height=(PANEL_HEIGHT + 40) * rows + 120)
    return fig
