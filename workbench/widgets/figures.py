"""The explorer's pure figure function: :class:`ExplorerSettings` in, a figure out.

:func:`figure_json` builds the figure as plotly JSON (a dictionary) from the numbers of
:mod:`.data`: the explorer's chart draws that dictionary as it is, in milliseconds. The views
are drawn in :mod:`.curves` (success curves, differences) and :mod:`.checks` (one check, the
distribution, at least, at most), in the workbench look (:mod:`workbench.figures.style`).
:func:`figure` gives the same figure as a ``go.Figure`` for notebooks, tests and exports.

The frames (:func:`curve_frame`, :func:`difference_frame`, :func:`outcome_frame`) are the
numbers as pandas tables, as :mod:`workbench.figures` gathers them.
"""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from .. import figures as _figures
from .axes import entry_axis
from .checks import distribution_json, outcomes_json
from .curves import curve_json, difference_json
from .data import entry_curves
from .settings import EntrySettings, ExplorerSettings, SettingsError

VIEW_BUILDERS = {"curve": curve_json, "outcomes": outcomes_json, "difference": difference_json,
                 "distribution": distribution_json, "at_least": distribution_json,
                 "at_most": distribution_json}


def _options(settings: ExplorerSettings) -> dict:
    return {"method": settings.method, "trials": settings.trials, "seed": settings.seed}


def _lines(settings: ExplorerSettings) -> list[_figures.Line]:
    """The entries with the explorer's legend labels (see :meth:`ExplorerSettings.labels`)."""
    return [_figures.Line(label, entry.system, entry.params, entry.rungs)
            for entry, label in zip(settings.entries, settings.labels())]


def curve_frame(settings: ExplorerSettings) -> pd.DataFrame:
    """P(pass) per entry, rung and pool size: columns label, system, pool, rung, p_pass, stderr.

    Example:
        >>> s = ExplorerSettings((EntrySettings("uwr", rungs=("Normal",)),), pool_sizes=(1, 2))
        >>> [round(p, 4) for p in curve_frame(s)["p_pass"]]
        [0.3333, 0.5556]
    """
    return _figures.curve_frame(_lines(settings), settings.pool_sizes, **_options(settings))


def difference_frame(settings: ExplorerSettings) -> pd.DataFrame:
    """Each entry's P(pass) minus the baseline entry's (see
    :func:`workbench.figures.difference_frame`; differences as fractions).

    Example:
        >>> s = ExplorerSettings((EntrySettings("uwr"), EntrySettings("uwr", {"favor": 1})),
        ...                      view="difference", pool_sizes=(1,))
        >>> frame = difference_frame(s)
        >>> round(frame.loc[frame.rung == "Normal", "difference"].item(), 4)
        0.1667
    """
    return _figures.difference_frame(_lines(settings), settings.baseline, settings.pool_sizes,
                                     **_options(settings))


def outcome_frame(settings: ExplorerSettings) -> pd.DataFrame:
    """One check per entry and rung: its tiers, else its outcomes (see
    :func:`workbench.figures.outcome_frame`).

    Example:
        >>> s = ExplorerSettings((EntrySettings("erzahlspiel"),), view="outcomes")
        >>> list(dict.fromkeys(outcome_frame(s)["column"]))
        ['black', 'red', 'yellow', 'green', 'blue']
    """
    return _figures.outcome_frame(_lines(settings), **_options(settings))


#: The default pool range runs until every dice-pool curve has settled: within this of where
#: it ends up (its value at :data:`SETTLE_CAP` dice), and never shorter than :data:`SETTLE_MIN`.
SETTLE_TOLERANCE = 0.05
SETTLE_CAP = 40
SETTLE_MIN = 6


def settled_pools(settings: ExplorerSettings) -> tuple[int, ...]:
    """Pools 1 to the first size at which every curve along a number of dice (its entries,
    knobs and rungs) is within :data:`SETTLE_TOLERANCE` of its value at :data:`SETTLE_CAP`
    dice: the default x axis, so no half of the chart lies flat at 100%. Entries along a skill,
    a stat or a die size have axes of their own and do not count.

    Example:
        >>> settled_pools(ExplorerSettings((EntrySettings("uwr", {"dice": 4}),)))[-1]
        17
        >>> settled_pools(ExplorerSettings((EntrySettings("erzahlspiel"),)))[-1]
        6
    """
    sizes = tuple(range(1, SETTLE_CAP + 1))
    curves = []
    for entry in settings.entries:
        axis = entry_axis(entry.system_object, sizes, entry.chosen_rungs())
        if axis.kind == "dice":
            curves += [dict(zip(c.x, c.y)) for c in entry_curves(entry, axis, "exact", 1, None)]
    curves = [c for c in curves if c]
    for size in range(SETTLE_MIN, SETTLE_CAP + 1):
        if all(abs(_held(curve, size) - _held(curve, SETTLE_CAP)) <= SETTLE_TOLERANCE
               for curve in curves):
            return tuple(range(1, size + 1))
    return sizes


def _held(curve: dict, size: int) -> float:
    """A curve's value at ``size``; a pool bounded below it (Risk: 3 dice) holds its last."""
    if size in curve:
        return curve[size]
    below = [n for n in curve if n <= size]
    return curve[max(below)] if below else curve[min(curve)]


def figure_json(settings: ExplorerSettings) -> dict:
    """The explorer's figure for these settings as plotly JSON (``{"data": ..., "layout": ...}``).

    Example:
        >>> fig = figure_json(ExplorerSettings((EntrySettings("uwr", rungs=("Normal",)),),
        ...                                    pool_sizes=(1, 2)))
        >>> fig["data"][0]["name"], [round(p, 4) for p in fig["data"][0]["y"]]
        ('Normal', [0.3333, 0.5556])
    """
    if not isinstance(settings, ExplorerSettings):
        raise SettingsError("settings", settings, "ExplorerSettings, such as "
                            "ExplorerSettings((EntrySettings('uwr'),))")
    return VIEW_BUILDERS[settings.view](settings)


def figure(settings: ExplorerSettings) -> go.Figure:
    """The explorer's figure for these settings as a plotly ``Figure`` (the view picks success
    curve, one check, difference, distribution, at least or at most).

    Example:
        >>> fig = figure(ExplorerSettings((EntrySettings("erzahlspiel"),), view="outcomes"))
        >>> len(fig.data), list(fig.data[0].x)
        (6, ['black', 'red', 'yellow', 'green', 'blue'])
    """
    return go.Figure(figure_json(settings))
