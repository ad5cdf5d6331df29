"""The one look every workbench figure shares: template, palette, sizes and axis formats.

* :data:`TEMPLATE` — a white plotly template, registered as ``"workbench"``.
* :data:`LINE_COLOURS` — one colour per system (or line) in a figure, in order.
* :data:`DIE_COLOURS` — each narrative die drawn in its own colour (black, red, yellow, green,
  blue; purple for the six-dice variant).
* :func:`outcome_colours` — outcomes and tiers coloured from worst (red) to best (blue),
  the same scale in the explorer, notebooks, report and static exports.
* :func:`new_figure` — a figure with all of the above applied; build your own figures with it.

Differences between two P(pass) values are shown in percentage points (``pp``), never ``%``.
"""
from __future__ import annotations

import textwrap
from typing import Any, Iterable, Sequence

import plotly.graph_objects as go
import plotly.io as pio
from plotly.colors import sample_colorscale

from ..errors import WorkbenchError

TEMPLATE_NAME = "workbench"
#: Height in pixels of every figure unless asked otherwise. Set explicitly (never left to
#: ``autosize`` alone): a plotly div sized ``height:100%`` inside a notebook output with no
#: height of its own collapses to a few pixels.
DEFAULT_HEIGHT = 480
#: Width of static exports (PNG/SVG) when the figure sets none; on a page figures fill the width.
DEFAULT_WIDTH = 800
#: Height of one panel in a grid of small multiples.
PANEL_HEIGHT = 300
#: What a grid of curve panels takes besides its rows of panels: title, legend gap, axes.
PANELS_MARGIN = 140


def panel_rows(panels: int, columns: int = 2) -> int:
    """Rows of a grid of ``panels`` small multiples, ``columns`` a row.

    Example:
        >>> panel_rows(5), panel_rows(1)
        (3, 1)
    """
    return -(-panels // columns)


def panels_height(panels: int, columns: int = 2, panel_height: int | None = None) -> int:
    """The height of a grid of curve panels (:func:`workbench.figures.panels.curve_panels`).

    Example:
        >>> panels_height(5)
        1040
    """
    return (panel_height or PANEL_HEIGHT) * panel_rows(panels, columns) + PANELS_MARGIN

#: One colour per system or line, in the order they appear (colour-blind-safe qualitative set).
LINE_COLOURS = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00",
                "#7f7f7f", "#bcbd22", "#332288", "#882255")
#: Line styles for the rungs of one system when colour already tells the systems apart.
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
#: Each narrative die in its own colour (yellow darkened enough to read on white).
DIE_COLOURS = {"black": "#222222", "red": "#d62728", "yellow": "#e6b800", "green": "#2ca02c",
               "blue": "#1f77b4", "purple": "#7b3fa0", "white": "#bbbbbb"}
#: Worst to best: deep red through pale yellow to deep blue (a colour-blind-safe diverging
#: scale). Every outcome or tier bar samples it by its rank, worst first.
OUTCOME_SCALE = ("#a50026", "#f46d43", "#fdd384", "#c7e6a8", "#74add1", "#313695")
GRID = "#e5e5e5"
AXIS_LINE = "#888888"
ZERO_LINE = "#555555"


def _template() -> go.layout.Template:
    axis = {"showgrid": True, "gridcolor": GRID, "zeroline": False, "linecolor": AXIS_LINE,
            "showline": True, "ticks": "outside", "tickcolor": AXIS_LINE,
            "title": {"standoff": 8}, "automargin": True}
    return go.layout.Template(layout={
        "font": {"family": "Helvetica, Arial, sans-serif", "size": 13, "color": "#222"},
        "paper_bgcolor": "white", "plot_bgcolor": "white", "colorway": list(LINE_COLOURS),
        "xaxis": axis, "yaxis": axis, "hovermode": "closest",
        "title": {"x": 0.02, "xanchor": "left", "font": {"size": 16}},
        "legend": {"bgcolor": "rgba(255,255,255,0.85)", "title": {"text": ""}},
        "margin": {"t": 80, "r": 20, "b": 60, "l": 70}})


#: The registered white template (``pio.templates["workbench"]``).
TEMPLATE = _template()
pio.templates[TEMPLATE_NAME] = TEMPLATE


def line_colour(index: int) -> str:
    """The colour of the ``index``-th system or line in a figure (cycling past ten).

    Example:
        >>> line_colour(0) == LINE_COLOURS[0], line_colour(10) == LINE_COLOURS[0]
        (True, True)
    """
    return LINE_COLOURS[index % len(LINE_COLOURS)]


def die_colour(name: str, default: str | None = None) -> str | None:
    """A narrative die's colour by its name (``"green"``), else ``default``.

    Example:
        >>> die_colour("blue"), die_colour("Normal")
        ('#1f77b4', None)
    """
    return DIE_COLOURS.get(str(name).strip().lower(), default)


def outcome_colours(count: int) -> list[str]:
    """``count`` colours from worst to best on :data:`OUTCOME_SCALE` (ends always included).

    Example:
        >>> outcome_colours(2)
        ['rgb(165, 0, 38)', 'rgb(49, 54, 149)']
        >>> len(outcome_colours(6)), outcome_colours(1)
        (6, ['rgb(49, 54, 149)'])
    """
    if count <= 0:
        return []
    if count == 1:
        return sample_colorscale(list(OUTCOME_SCALE), [1.0])
    return sample_colorscale(list(OUTCOME_SCALE), [i / (count - 1) for i in range(count)])


#: Longest line of a legend entry: a longer tier or rung name is broken over lines.
LEGEND_LINE = 32


def wrap_legend(fig: go.Figure, most: int = LEGEND_LINE) -> go.Figure:
    """Break legend names longer than ``most`` characters over lines, so a tier named in a
    sentence does not take the width of the plot (hover texts carry their own names).

    Example:
        >>> fig = wrap_legend(go.Figure(go.Bar(name="Strong hit with a very long name that goes on")))
        >>> fig.data[0].name
        'Strong hit with a very long name<br>that goes on'
    """
    for trace in fig.data:
        name = trace.name
        if isinstance(name, str) and len(name) > most and "<br>" not in name:
            trace.name = "<br>".join(textwrap.wrap(name, most))
    return fig


def percent_axis(**extra: Any) -> dict:
    """A y axis for probabilities: 0-100 % with whole-percent ticks."""
    return {"tickformat": ".0%", "range": [-0.02, 1.02], **extra}


def pp_axis(**extra: Any) -> dict:
    """A y axis for differences of probabilities, in percentage points (values ×100)."""
    return {"ticksuffix": " pp", "tickformat": "+.2~f", "zeroline": True,
            "zerolinecolor": ZERO_LINE, "zerolinewidth": 1, **extra}


def to_pp(values: Iterable[float]) -> list[float]:
    """Differences of probabilities as percentage points.

    Example:
        >>> to_pp([0.125, -0.5])
        [12.5, -50.0]
    """
    return [100.0 * float(v) for v in values]


def new_figure(title: str, x_title: str, y_title: str, *, traces: Sequence[Any] = (),
               subtitle: str | None = None, height: int = DEFAULT_HEIGHT,
               width: int | None = None, y: str | None = None, legend_title: str = "",
               **layout: Any) -> go.Figure:
    """A figure in the workbench look: template, palette, explicit height, titled axes.

    Args:
        title, x_title, y_title: the figure's and the axes' titles.
        traces: plotly traces (objects or plain dicts; dicts are validated once, which is
            what keeps the explorer's redraws fast).
        subtitle: a second, smaller title line (the method, the settings held fixed).
        height, width: pixels; ``width=None`` fills the page (static exports use
            :data:`DEFAULT_WIDTH`).
        y: ``"percent"`` for probabilities, ``"pp"`` for differences of probabilities.
        legend_title: the legend's heading.
        **layout: any other plotly layout properties (``barmode``, ``xaxis``, ``yaxis``...;
            axis dicts are merged with the ones made here).

    Example:
        >>> fig = new_figure("P(pass)", "dice", "P(pass)", y="percent",
        ...                  traces=[{"type": "scatter", "x": [1, 2], "y": [0.3, 0.6]}])
        >>> fig.layout.template.layout.plot_bgcolor, fig.layout.height, fig.layout.yaxis.tickformat
        ('white', 480, '.0%')
    """
    yaxis = {"percent": percent_axis(), "pp": pp_axis()}.get(y, {}) if y else {}
    if y not in (None, "percent", "pp"):
        raise WorkbenchError(f"new_figure y got {y!r}; allowed: None, 'percent', 'pp'")
    # The subtitle is a second line of the title (not plotly's ``title.subtitle``, which
    # some plotly.js builds - the explorer's widget among them - place above the title).
    text = title if not subtitle else (
        f"{title}<br><span style='font-size:12px;color:#555'>{subtitle}</span>")
    title_dict: dict[str, Any] = {"text": text}
    base = {"template": TEMPLATE_NAME, "title": title_dict, "height": int(height),
            "autosize": True,
            "xaxis": {"title": {"text": x_title}, **layout.pop("xaxis", {})},
            "yaxis": {"title": {"text": y_title}, **yaxis, **layout.pop("yaxis", {})},
            "legend": {"title": {"text": legend_title}, **layout.pop("legend", {})}}
    if width is not None:
        base["width"] = int(width)
    base.update(layout)
    return go.Figure(data=list(traces), layout=base)
