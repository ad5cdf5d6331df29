"""Outcome shares stacked per level of one knob: the odds chart rulebooks draw by hand.

One column per level of a knob (Erzählspiel's advantage with regular dice: 3d6 keep lowest
up to 3d6 keep highest; a die colour; Arrata's Quality; the pool size), each column the
check's outcomes (or tiers, where the system has them) stacked worst (bottom, red) to best
(top, blue), labelled with their shares. Built on :func:`workbench.figures.frames.outcome_frame`
and drawn by :func:`workbench.figures.charts.stacked_outcomes_figure`.
"""
from __future__ import annotations

import re
from typing import Any, Sequence

import plotly.graph_objects as go

from ..analysis import counts_dice, default_pool_sizes
from ..errors import ParameterError, WorkbenchError
from ..numbers import marked
from ..rules.pool import PoolSpec
from ..rules.roll import Percentile, RollSpec
from ..rules.registry import get_system
from ..rules.system import System
from .charts import stacked_outcomes_figure
from .pieces import resolved_seed
from .frames import outcome_frame
from .style import DEFAULT_HEIGHT

#: Levels drawn for a whole-number knob when none are given: its default and two either side
#: (a pool size: 1 to 6 dice).
SPREAD = 2
#: Die names written straight after their count (``3d6``, ``4dF``); others get a space
#: (``2 difficulty``, ``1 wild``).
DICE_NOTATION = re.compile(r"d(\d+|F|%)")
#: Columns drawn at most for a pool parameter that is not a number of dice (a skill of 1-99).
KNOB_COLUMNS = 10


def default_knob(system: "str | System") -> str:
    """The knob a chart of outcomes is drawn along by default: the pool size, else the first
    choice parameter that is not a rule option (Erzählspiel: the die colour).

    Example:
        >>> default_knob("arrata"), default_knob("erzahlspiel")
        ('dice', 'die')
    """
    sys_ = get_system(system)
    if sys_.pool_parameter:
        return sys_.pool_parameter
    for param in sys_.params.values():
        if param.kind == "choice" and not param.rule_option:
            return param.name
    return next(iter(sys_.params))


def knob_levels(system: "str | System", knob: str) -> list[Any]:
    """The levels drawn when none are given: every choice, false and true, or a whole
    number's default and :data:`SPREAD` either side (1 to 6 for the pool size; for a pool
    parameter that is not a number of dice, at most :data:`KNOB_COLUMNS` round values across
    its range).

    Example:
        >>> knob_levels("erzahlspiel", "advantage"), knob_levels("arrata", "quality")
        ([-2, -1, 0, 1, 2], ['B', 'A', 'S'])
        >>> knob_levels("uwr", "dice"), knob_levels("call-of-cthulhu-7e", "skill")
        ([1, 2, 3, 4, 5, 6], [10, 20, 30, 40, 50, 60, 70, 80, 90])
    """
    sys_ = get_system(system)
    param = _param(sys_, knob)
    if param.kind == "choice":
        return list(param.choices)
    if knob == sys_.pool_parameter and not counts_dice(sys_):
        return default_pool_sizes(sys_, most=KNOB_COLUMNS)
    if param.kind == "bool":
        return [False, True]
    if knob == sys_.pool_parameter:
        low, high = 1, 6
    else:
        centre = param.default if isinstance(param.default, int) else 0
        low, high = centre - SPREAD, centre + SPREAD
    if param.minimum is not None:
        low = max(low, param.minimum)
    if param.maximum is not None:
        high = min(high, param.maximum)
    return list(range(low, high + 1))


def _param(sys_: System, knob: str):
    if knob not in sys_.params:
        raise ParameterError(sys_.id, "knob", knob, "a parameter of this system: "
                             + ", ".join(sys_.params))
    return sys_.params[knob]


def pool_text(spec: "PoolSpec | RollSpec") -> str:
    """What a pool rolls, as designers write it: ``3d6 keep lowest``, ``2d6 + 1d8``.

    Example:
        >>> import workbench as wb
        >>> pool_text(wb.system("erzahlspiel").pool(dice="d6", advantage=2))
        '3d6 keep highest'
        >>> pool_text(wb.system("unnamed").pool(d6=2, d8=1))
        '2d6 + 1d8'
        >>> pool_text(wb.system("call-of-cthulhu-7e").pool(skill=40, bonus=1))
        '1d100 with 1 bonus die'
    """
    dice = " + ".join(f"{count}{die.name}" if DICE_NOTATION.fullmatch(die.name)
                      else f"{count} {die.name}" for die, count in spec.groups if count) or "no dice"
    if isinstance(spec, RollSpec):
        order, kept = (spec.kept.order, spec.kept.take) if spec.kept is not None else ("sum", None)
    else:
        order, kept = spec.keep, spec.kept
    if order != "sum":
        kept = 1 if kept is None else kept
        dice += f" keep {order}" if kept == 1 else f" keep {kept} {order}"
    if spec.rerolls:
        dice += f", {spec.rerolls} reroll" + ("s" if spec.rerolls > 1 else "")
    return dice + (_roll_text(spec) if isinstance(spec, RollSpec) else "")


def _roll_text(spec: RollSpec) -> str:
    """What a published roll adds to its dice: bonus or penalty dice, `` +3``. (How its
    statistics read the dice is the system's description, not repeated per column.)"""
    text = ""
    extra = sum(die.extra for die, count in spec.groups if count and isinstance(die, Percentile))
    if extra:
        text += f" with {abs(extra)} {'bonus' if extra > 0 else 'penalty'} " + \
            ("die" if abs(extra) == 1 else "dice")
    if spec.modifier:
        text += f" {_level_text(spec.modifier) if spec.modifier < 0 else '+' + str(spec.modifier)}"
    return text


def _level_text(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int) and value < 0:
        return f"−{-value}"  # a real minus sign, as a rulebook prints it
    return str(value)


def knob_figure(system: "str | System", knob: str | None = None,
                levels: Sequence[Any] | None = None, method: str = "exact", *,
                trials: int = 100_000, seed: int | None = None, title: str | None = None,
                height: int = DEFAULT_HEIGHT, **params: Any) -> go.Figure:
    """Outcome shares stacked per level of ``knob``: one column a level, worst at the bottom.

    Args:
        system: system id, alias, variant or :class:`System`.
        knob: the parameter that changes from column to column (default
            :func:`default_knob`: the pool size, or the die colour).
        levels: its values, one column each (default :func:`knob_levels`).
        method: ``"exact"`` or ``"simulate"``.
        **params: every other setting, the same in every column (``dice="d6"``).

    Each column is headed by its level and, where the levels roll different dice, by what
    is rolled (``3d6 keep lowest``).

    Example:
        >>> fig = knob_figure("erzahlspiel", "advantage", dice="d6")
        >>> [t.split("<br>")[0] for t in fig.layout.xaxis.ticktext]
        ['3d6 keep lowest', '2d6 keep lowest', '1d6', '2d6 keep highest', '3d6 keep highest']
        >>> fig.data[-1].name, round(fig.data[-1].y[-1], 4)   # YES! AND... on 3d6 keep highest
        ('YES! AND...', 0.4213)
    """
    sys_ = get_system(system)
    knob = default_knob(sys_) if knob is None else knob
    _param(sys_, knob)
    if knob in params:
        raise ParameterError(sys_.id, knob, params[knob], f"no value: {knob} is the knob the "
                             "columns step through (give its levels instead)")
    chosen = knob_levels(sys_, knob) if levels is None else list(levels)
    if not chosen:
        raise WorkbenchError(f"levels of {knob!r} got nothing; allowed: one or more values")
    seed = resolved_seed(method, seed)
    settings = [{**params, knob: level} for level in chosen]
    for given in settings:  # a bad level or setting fails before anything is computed
        sys_.resolve(**given)
    columns, varied = _column_names(sys_, knob, chosen, settings)
    entries = [{"system": sys_, "params": given, "label": column}
               for given, column in zip(settings, columns)]
    frame = outcome_frame(entries, rungs=(), method=method, trials=trials, seed=seed)
    fixed = ", ".join(f"{k}={v}" for k, v in params.items())
    what = "tiers" if set(frame["kind"]) == {"tier"} else "outcomes"
    fig = stacked_outcomes_figure(frame, method, trials=trials, seed=seed, height=height,
                                  title=title or f"{sys_.name}: {what} by {knob}"
                                  + (f" ({fixed})" if fixed else ""),
                                  x_title=knob if not varied else f"{knob}: what is rolled")
    _write_shares(fig)
    return fig


def _column_names(sys_: System, knob: str, levels: list, settings: list[dict]) -> tuple[list[str], bool]:
    """Each column's heading: its level (or the dice, for a pool size); headed by what is
    rolled too when that differs from level to level and says more than the level itself (a
    die colour's pool is just that die). Also whether what is rolled heads the columns."""
    pools = [pool_text(sys_.pool(**given)) for given in settings]
    varied = (len(set(pools)) > 1 and knob != sys_.pool_parameter
              and not any(str(level).lower() in pool.lower() for level, pool in zip(levels, pools)))
    columns = []
    for level, pool in zip(levels, pools):
        named = f"{knob} {_level_text(level)}"
        if knob == sys_.pool_parameter and counts_dice(sys_):
            named = pool
        columns.append(f"{pool}<br>{named}" if varied else named)
    return columns, varied


def _write_shares(fig: go.Figure) -> None:
    """Each share written on its piece of the column, as in print (none on a sliver)."""
    for trace in fig.data:
        trace.text = [marked(v, 0) if v >= 0.04 else "" for v in trace.y]
        trace.textposition = "inside"
        trace.insidetextanchor = "middle"
        trace.textfont = {"size": 11}
