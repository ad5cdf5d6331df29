"""What each system's curve is drawn along, and which systems may share a panel.

A curve's x axis is what the designer grows: the number of dice for a dice pool, the skill of
a d100 system, the stat of a 2d6 + stat roll, the die size of a trait die. Systems whose axes
differ never share one: the explorer gives each axis its own panel, titled with what it is.

* ``dice``: the pool parameter counts dice (UWR's dice, the Unnamed System's d6, Cortex's d8):
  every such system shares one axis, "dice in the pool", over the explorer's pool range.
* ``knob``: the pool parameter is read against the roll (a skill, a stat, a modifier): its
  own axis over round values of its range; systems share it only when the parameter and its
  range are the same (a variant and its base).
* ``choice``: no pool parameter, but a choice the rungs leave alone (Savage Worlds' trait
  die: d4 to d12): drawn along its choices.
* ``rungs``: nothing to grow (Erzählspiel's rungs are its die colours): one point per rung.

Example:
    >>> [entry_axis("uwr", (1, 2)).kind, entry_axis("call-of-cthulhu-7e", (1, 2)).title]
    ['dice', 'skill']
    >>> entry_axis("savage-worlds", (1, 2)).values
    ('d4', 'd6', 'd8', 'd10', 'd12')
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

from ..analysis import counts_dice, default_pool_sizes, pool_bounds
from ..rules.registry import get_system
from ..rules.system import System

#: Most points along an axis that is not a number of dice (a skill of 1-99: every 5).
KNOB_POINTS = 20
DICE_TITLE = "dice in the pool"


@dataclass(frozen=True)
class Axis:
    """One curve axis: its kind, the parameter it sets, the values along it and its title."""

    kind: str
    parameter: str | None
    values: tuple
    title: str

    @property
    def key(self) -> tuple:
        """Entries with equal keys share a panel: every dice pool shares one (a pool bounded
        at 3 dice stops there), any other axis only with the same parameter and values."""
        return ("dice",) if self.kind == "dice" else (self.kind, self.parameter, self.values)

    @property
    def categorical(self) -> bool:
        return self.kind in ("choice", "rungs")


def entry_axis(system: "str | System", pool_sizes: Sequence[int],
               rungs: Sequence[str] = ()) -> Axis:
    """The axis ``system``'s curves are drawn along (``pool_sizes``: the explorer's dice range;
    ``rungs``: the rungs drawn, for a system with nothing to grow)."""
    sys_ = get_system(system)
    pool = sys_.pool_parameter
    if pool and counts_dice(sys_):
        low, high = pool_bounds(sys_)
        inside = tuple(n for n in pool_sizes if low <= n <= high)
        return Axis("dice", pool, inside or tuple(pool_sizes), DICE_TITLE)
    if pool:
        return Axis("knob", pool, tuple(default_pool_sizes(sys_, most=KNOB_POINTS)), pool)
    choice = grown_choice(sys_)
    if choice is not None:
        param = sys_.params[choice]
        return Axis("choice", choice, tuple(param.choices), choice)
    names = tuple(rungs) or tuple(r.name for r in sys_.ladder)
    return Axis("rungs", None, names, "difficulty rung")


def grown_choice(sys_: System) -> str | None:
    """A system without a pool size: the first choice it is drawn along (a die size), if no
    ladder rung sets it and it is not a rule option.

    Example:
        >>> grown_choice(get_system("savage-worlds")), grown_choice(get_system("erzahlspiel"))
        ('trait', None)
    """
    set_by_rungs = {name for rung in sys_.ladder for name in (*rung.set, *rung.add)}
    for name, param in sys_.params.items():
        if param.kind == "choice" and not param.rule_option and name not in set_by_rungs:
            return name
    return None


@lru_cache(maxsize=256)
def point_texts(axis: Axis, values: tuple) -> tuple[str, ...]:
    """:func:`axis_value_text` of each of ``values`` (remembered: asked on every redraw)."""
    return tuple(axis_value_text(axis, v) for v in values)


def axis_value_text(axis: Axis, value: Any) -> str:
    """How one point of an axis reads in a hover or a table (``4 dice``, ``skill 50``, ``d8``).

    Example:
        >>> axis_value_text(Axis("dice", "dice", (1,), DICE_TITLE), 1)
        '1 die'
        >>> axis_value_text(Axis("knob", "skill", (50,), "skill"), 50)
        'skill 50'
    """
    if axis.kind == "dice":
        return f"{value} die" if value == 1 else f"{value} dice"
    if axis.kind == "knob":
        return f"{axis.parameter} {value}"
    return str(value)
