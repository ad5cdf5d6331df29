"""The explorer's figure frame, as plain plotly JSON: template, panels, titles, legends.

Figures are built as dictionaries (plotly's JSON) rather than ``go.Figure`` objects: a
dictionary costs nothing to build, and the explorer's chart hands it to plotly.js as it is,
so an update takes milliseconds instead of the tens that validating a figure costs.
:func:`workbench.widgets.figure` wraps the same dictionary in a ``go.Figure`` for notebooks,
tests and exports. The look is the one every workbench figure shares
(:mod:`workbench.figures.style`).
"""
from __future__ import annotations

import textwrap
from functools import lru_cache
from typing import Any, Sequence

from ..figures.style import TEMPLATE, percent_axis

#: Height of one row of panels, and what the title, subtitle and bottom axis take besides.
ROW_HEIGHT = 300
FRAME_HEIGHT = 150
#: Height of the single plot when there is one panel.
SINGLE_HEIGHT = 520
#: Gap between columns and rows of panels (share of the plotting area).
COLUMN_GAP = 0.1
ROW_GAP_PX = 90
#: Characters on one line of a panel title (titles wrap; a 2-column panel is narrow).
TITLE_LINE = {1: 80, 2: 38}
#: The legend beside the plot, top right, outside the plotting area; plotly widens the right
#: margin to hold it and the plot takes the rest of the width the page gives.
LEGEND = {"orientation": "v", "x": 1.02, "xanchor": "left", "xref": "paper", "y": 1,
          "yanchor": "top", "yref": "paper", "bgcolor": "rgba(255,255,255,0)",
          "font": {"size": 11}, "tracegroupgap": 8, "groupclick": "toggleitem"}
MARGIN = {"t": 90, "r": 10, "b": 60, "l": 70, "autoexpand": True}


@lru_cache(maxsize=1)
def template() -> dict:
    """The workbench template as JSON (sent with every figure: the chart has no registry)."""
    return TEMPLATE.to_plotly_json()


def title(text: str, subtitle: str | None = None) -> dict:
    """A figure title with a second, smaller line."""
    if subtitle:
        text = f"{text}<br><span style='font-size:12px;color:#555'>{subtitle}</span>"
    # pinned to the top of the figure: a taller top margin (panel titles) leaves it in place
    return {"text": text, "x": 0.02, "xanchor": "left", "yref": "container", "y": 1,
            "yanchor": "top", "pad": {"t": 14}}


def wrap(text: str, width: int) -> str:
    """``text`` broken into lines of at most ``width`` characters (``<br>`` between them).

    Example:
        >>> wrap("uwr favor=1 · arrata · the unnamed system", 20)
        'uwr favor=1 · arrata<br>· the unnamed system'
    """
    return "<br>".join(textwrap.wrap(text, width, break_long_words=False)) or text


def grid(panels: int, columns: int | None = None) -> tuple[int, int]:
    """Columns and rows of a grid of ``panels``: one column for up to two panels, else two.

    Example:
        >>> grid(1), grid(2), grid(5)
        ((1, 1), (1, 2), (2, 3))
    """
    columns = columns or (1 if panels <= 2 else 2)
    return columns, -(-panels // columns)


def figure_height(rows: int) -> int:
    """Pixels for ``rows`` rows of panels (one panel: :data:`SINGLE_HEIGHT`)."""
    if rows <= 1:
        return SINGLE_HEIGHT
    return ROW_HEIGHT * rows + FRAME_HEIGHT


def panel_axes(panels: int, columns: int | None = None, *, x_domain: Sequence[float] = (0, 1),
               shared_y_title: str | None = None) -> tuple[list[dict], dict, int]:
    """The axes of a grid of panels: for each panel its axis names and domains, the layout
    entries for those axes, and the figure height.

    Returns:
        ``(places, layout, height)``: ``places[i]`` holds ``xaxis``/``yaxis`` (trace
        references such as ``"x2"``), the axis layout keys and the panel's domains.
    """
    columns, rows = grid(panels, columns)
    height = figure_height(rows)
    plot_px = max(height - MARGIN["t"] - MARGIN["b"], 1)
    gap = min(ROW_GAP_PX / plot_px, 0.9 / max(rows - 1, 1)) if rows > 1 else 0.0
    row_h = (1 - gap * (rows - 1)) / rows
    lo, hi = x_domain
    col_w = ((hi - lo) - COLUMN_GAP * (columns - 1)) / columns
    places, layout = [], {}
    for index in range(panels):
        row, col = divmod(index, columns)
        n = "" if index == 0 else str(index + 1)
        x0 = lo + col * (col_w + COLUMN_GAP)
        y1 = 1 - row * (row_h + gap)
        place = {"xaxis": f"x{n}", "yaxis": f"y{n}", "xkey": f"xaxis{n}", "ykey": f"yaxis{n}",
                 "x": [round(x0, 4), round(x0 + col_w, 4)],
                 "y": [round(max(y1 - row_h, 0), 4), round(y1, 4)], "row": row, "col": col}
        layout[place["xkey"]] = {"domain": place["x"], "anchor": place["yaxis"]}
        layout[place["ykey"]] = {"domain": place["y"], "anchor": place["xaxis"]}
        if shared_y_title is not None:
            layout[place["ykey"]]["title"] = {"text": shared_y_title if col == 0 else ""}
        places.append(place)
    return places, layout, height


def stretch_rows(places: list[dict], layout: dict, height: int, gap_px: int = ROW_GAP_PX) -> None:
    """Lay a one-column grid's rows out again for ``height`` pixels with ``gap_px`` between
    rows (room for the axis titles above and the panel titles below)."""
    rows = len(places)
    plot_px = max(height - MARGIN["t"] - MARGIN["b"], 1)
    gap = min(gap_px / plot_px, 0.9 / max(rows - 1, 1)) if rows > 1 else 0.0
    row_h = (1 - gap * (rows - 1)) / rows
    for row, place in enumerate(places):
        y1 = 1 - row * (row_h + gap)
        place["y"] = [round(max(y1 - row_h, 0), 4), round(y1, 4)]
        layout[place["ykey"]]["domain"] = place["y"]


def panel_title(place: dict, text: str, columns: int) -> dict:
    """A panel's title: an annotation above its top left corner, wrapped to its width."""
    return {"text": wrap(text, TITLE_LINE.get(columns, 38)), "xref": "paper", "yref": "paper",
            "x": place["x"][0], "y": place["y"][1], "xanchor": "left", "yanchor": "bottom",
            "yshift": 6, "showarrow": False, "align": "left", "font": {"size": 13}}


#: Height of one line of a panel title.
TITLE_LINE_PX = 18


def room_for_titles(top_titles: list[dict]) -> dict:
    """The margins with room above the top row of panels for their titles' lines."""
    lines = max((note["text"].count("<br>") + 1 for note in top_titles), default=0)
    return {**MARGIN, "t": MARGIN["t"] + TITLE_LINE_PX * lines}


def figure_json(data: list[dict], layout: dict, *, height: int, legend: dict | None = None,
                heading: dict | None = None) -> dict:
    """A whole figure: the template, margins and legend every view shares, then ``layout``."""
    full = {"template": template(), "height": int(height), "autosize": True,
            "margin": dict(MARGIN), "hovermode": "closest",
            "legend": {**LEGEND, **(legend or {})}}
    if heading is not None:
        full["title"] = heading
    full.update(layout)
    return {"data": data, "layout": full}


def message_figure(heading: str, message: str, *, subtitle: str | None = None) -> dict:
    """A figure that says what is needed instead of drawing (no axes, one centred note).

    Example:
        >>> fig = message_figure("P(pass) minus the baseline", "Add a second system.")
        >>> fig["data"], fig["layout"]["annotations"][0]["text"]
        ([], 'Add a second system.')
    """
    hidden = {"visible": False}
    note = {"text": message, "xref": "paper", "yref": "paper", "x": 0.5, "y": 0.6,
            "showarrow": False, "align": "center", "font": {"size": 15, "color": "#333"}}
    return figure_json([], {"xaxis": hidden, "yaxis": hidden, "annotations": [note]},
                       height=SINGLE_HEIGHT, heading=title(heading, subtitle))


def percent_y(top: float | None = None, **extra: Any) -> dict:
    """A probability axis (0-100%, or 0 to ``top``), its ticks with as many decimals as
    tell them apart (a d100's 1% steps read 0.5%, 1.0%, not 1%, 1%)."""
    axis = percent_axis(**extra)
    if top is not None:
        axis["range"] = [0, top]
        axis["tickformat"] = ".0%" if top > 0.1 else (".1%" if top > 0.01 else ".2%")
    return axis


def ticks_for(values: Sequence) -> dict:
    """Ticks of a pool axis: every value while there are few of them (whole numbers)."""
    values = list(values)
    if not values or not all(isinstance(v, int) for v in values) or len(values) > 12:
        return {}
    steps = {b - a for a, b in zip(values, values[1:])}
    return {"dtick": 1} if steps <= {1} else {"tickmode": "array", "tickvals": values}
