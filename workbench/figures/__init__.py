"""One figure layer: every figure of the workbench (explorer, notebooks, report, static
exports) is built here, from one template and one palette (:mod:`workbench.figures.style`).

Not imported by ``import workbench``: importing this package loads plotly and pandas.

* :func:`curve_figure` — P(pass) against pool size, one line per rung of each system;
* :func:`check_figure` — one check's outcome (and tier) bars, coloured worst to best;
* :func:`difference_figure` — P(pass) against a base system, in percentage points;
* :func:`ladder_figure` — a ladder (a system's own or a solved one) as curves over pools;
* :func:`curve_panels`, :func:`check_panels` — small multiples, one panel per system;
* :func:`narrative_odds_figure`, :func:`tier_figure`, :func:`stacked_outcomes_figure`;
* :func:`knob_figure` — outcome shares stacked per level of a knob (a rulebook's odds chart);
* :func:`write_figure` — ``.png`` / ``.svg`` / ``.html`` by suffix; :func:`write_figures` many
  at once, with one browser; :func:`drawing_session` — every image inside it with one browser;
* :func:`new_figure` — the workbench look for figures of your own.

Example:
    >>> from workbench.figures import curve_figure
    >>> fig = curve_figure("uwr", pools=[1, 2], rungs=["Normal"])
    >>> [round(p, 4) for p in fig.data[0].y], fig.layout.template.layout.paper_bgcolor
    ([0.3333, 0.5556], 'white')
"""
from . import style
from .charts import (curve_figure, difference_figure, ladder_figure, narrative_odds_figure,
                     stacked_outcomes_figure, tier_figure)
from .check_chart import check_figure
from .knobs import knob_figure
from .panels import check_panels, curve_panels
from .pieces import method_note, pool_axis_title
from .frames import AS_SET, Line, curve_frame, difference_frame, outcome_frame, read_entries
from .output import (chromium_path, drawing_session, figure_data, figure_html, figure_size,
                     write_figure, write_figures, write_html, write_images)
from .style import (DIE_COLOURS, LINE_COLOURS, OUTCOME_SCALE, TEMPLATE, TEMPLATE_NAME, die_colour,
                    line_colour, new_figure, outcome_colours)

__all__ = ["style", "knob_figure", "check_figure", "check_panels", "curve_figure", "curve_panels", "difference_figure",
           "ladder_figure", "method_note", "narrative_odds_figure", "pool_axis_title",
           "stacked_outcomes_figure", "tier_figure", "AS_SET", "Line", "curve_frame",
           "difference_frame", "outcome_frame", "read_entries", "chromium_path", "figure_data",
           "figure_html", "figure_size", "drawing_session", "write_figure", "write_figures", "write_html",
           "write_images", "DIE_COLOURS", "LINE_COLOURS", "OUTCOME_SCALE", "TEMPLATE",
           "TEMPLATE_NAME", "die_colour", "line_colour", "new_figure", "outcome_colours"]
