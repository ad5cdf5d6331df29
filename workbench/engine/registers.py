"""The plan of an exact roll: the small whole-number *registers* its statistics are read from.

:func:`plan_statistics` gives each statistic of a :class:`~workbench.rules.roll.RollSpec` one
or two registers (a running sum, the dice seen so far, a die's value...);
:func:`positions_in_walk_order` and :func:`ranges` prepare them for the walk of
:mod:`workbench.engine.evaluate` (:func:`ops_table`: as the kernels of
:mod:`workbench.engine._kernels.walk` read them).

Example:
    >>> from workbench.rules.roll import Die, Keep, RollSpec
    >>> from workbench.engine.dice import die_outcomes
    >>> d6 = Die.numbered("d6", 6)
    >>> spec = RollSpec(((d6, 3),), stats=(Keep("best", take=2),))
    >>> attributes, probabilities, _ = die_outcomes(d6, (), 3)
    >>> plan = Plan(spec, [(0, d6, 3, attributes, probabilities)])
    >>> plan_statistics(plan)
    >>> [KINDS[register.kind] for register in plan.registers], plan.source
    (['ADD', 'COUNTER', 'KEEP'], {'total': 0, 'best': 2})
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import accumulate

import numpy as np

from ..errors import WorkbenchError
from ..rules.roll import AllNegative, Beats, Derived, Keep, LargestSet, Pairs, Pick, Sets, Sum
from ..rules.roll import RollSpec
from ._rows import SMALL, merge_rows

ADD, COUNTER, KEEP, PICK, BEATS, PAIRS, WIDTH, HEIGHT, SETS, RUN = range(10)
KINDS = ("ADD", "COUNTER", "KEEP", "PICK", "BEATS", "PAIRS", "WIDTH", "HEIGHT", "SETS", "RUN")
"""Register kinds by code (the kernels' numbers)."""
RANKED = (COUNTER, KEEP, PICK, BEATS, PAIRS, WIDTH, HEIGHT, SETS, RUN)


@dataclass
class Register:
    kind: int
    args: list
    first: frozenset
    second: frozenset = frozenset()
    low: int = 0
    high: int = 0


@dataclass
class Plan:
    """Registers and where each statistic comes from, for one roll."""

    spec: RollSpec
    groups: list                      # (group index, die, count, attributes, probabilities)
    counts: tuple = ()                # the count columns of the dice's outcomes
    registers: list = field(default_factory=list)
    source: dict = field(default_factory=dict)   # statistic -> register index, or None for 0
    counters: dict = field(default_factory=dict)
    runs: dict = field(default_factory=dict)
    anchors: set = field(default_factory=set)
    shared: bool | None = None   # some faces equal in value differ in counts (worked out once)
    selections: dict = field(default_factory=dict)   # die types -> the groups of them
    bounds: tuple | None = None   # see extremes

    @property
    def shared_values(self) -> bool:
        if self.shared is None:
            every = [g[3] for g in self.groups]
            if not every or every[0].shape[1] == 1:
                self.shared = False
            elif sum(len(rows) for rows in every) <= SMALL:   # a few outcomes: in plain Python
                rows = [tuple(row) for rows in every for row in rows.tolist()]
                self.shared = len({row[0] for row in rows}) < len(set(rows))
            else:
                rows = np.concatenate(every)
                self.shared = len(np.unique(rows[:, 0])) < len(merge_rows(rows, np.ones(len(rows)))[0])
        return self.shared

    @property
    def extremes(self) -> tuple[list, list]:
        """Per group, each column's least and greatest value among its outcomes (worked out
        once, for every group in one pass)."""
        if self.bounds is None:
            every = [group[3] for group in self.groups]
            if sum(len(rows) for rows in every) <= SMALL:   # a few outcomes: in plain Python
                columns = [list(zip(*rows.tolist())) for rows in every]
                self.bounds = ([[min(c) for c in group] for group in columns],
                               [[max(c) for c in group] for group in columns])
            else:
                stacked = np.concatenate(every) if len(every) > 1 else every[0]
                starts = list(accumulate([len(rows) for rows in every[:-1]], initial=0))
                self.bounds = (np.minimum.reduceat(stacked, starts, axis=0).tolist(),
                               np.maximum.reduceat(stacked, starts, axis=0).tolist())
        return self.bounds

    def add(self, register: Register) -> int:
        self.registers.append(register)
        return len(self.registers) - 1


def _selection(plan: Plan, names: tuple[str, ...]) -> frozenset:
    """Indices (into ``plan.groups``) of the rolled groups of these die types (all: empty)."""
    found = plan.selections.get(names)
    if found is None:
        found = plan.selections[names] = frozenset(
            slot for slot, (index, die, *_) in enumerate(plan.groups) if not names or die.name in names)
    return found


def _dice(plan: Plan, selection: frozenset) -> int:
    return sum(plan.groups[g][2] for g in selection)


def _attribute(plan: Plan, score: str) -> int:
    """The column of a die's outcomes that a score reads (value, a count, an expression)."""
    names = ("value", *plan.counts, *plan.spec.score_expressions)
    return names.index(score)


def _counter(plan: Plan, selection: frozenset, cap: int) -> int:
    """The register counting dice of ``selection`` seen so far (shared, capped at the most
    any statistic needs)."""
    if selection not in plan.counters:
        plan.counters[selection] = plan.add(Register(COUNTER, [0], selection))
    register = plan.registers[plan.counters[selection]]
    register.args[0] = max(register.args[0], cap)
    return plan.counters[selection]


def _run(plan: Plan, selection: frozenset) -> int:
    """The register of dice of ``selection`` already seen at the current value (-1: every
    value is one outcome, so none is needed)."""
    if not plan.shared_values:
        return -1
    if selection not in plan.runs:
        plan.runs[selection] = plan.add(Register(RUN, [], selection))
    return plan.runs[selection]


def plan_statistics(plan: Plan) -> None:
    """Each statistic's register (or ``None``: always 0), and the registers they need."""
    spec = plan.spec
    everything = _selection(plan, ())
    for j, name in enumerate(plan.counts):
        plan.source[name] = plan.add(Register(ADD, [1 + j], everything))
    if spec.total is None:
        plan.source["total"] = plan.add(Register(ADD, [0], everything))
    for stat in spec.stats:
        if isinstance(stat, (Derived, AllNegative)):
            continue
        selection = _selection(plan, stat.dice)
        n = _dice(plan, selection)
        if isinstance(stat, Sum):
            plan.source[stat.name] = plan.add(Register(ADD, [_attribute(plan, stat.score)], selection))
        elif isinstance(stat, Keep):
            plan.source[stat.name] = _kept_register(plan, stat, selection, n)
        elif isinstance(stat, Pick):
            plan.source[stat.name] = _picked_register(plan, stat, selection, n)
        elif isinstance(stat, (Beats, Pairs)):
            plan.source[stat.name] = _compared_register(plan, stat, selection, n)
        elif isinstance(stat, LargestSet):
            plan.source[stat.name] = _largest_set_register(plan, stat, selection, n)
        elif isinstance(stat, Sets):
            plan.source[stat.name] = plan.add(Register(SETS, [stat.size, _run(plan, selection)],
                                                       selection)) if n else None


def _kept_register(plan: Plan, stat: Keep, selection: frozenset, n: int) -> int | None:
    """The sum of the kept dice: ranks ``low .. high - 1`` counted from an anchor."""
    if stat.order == "middle":
        low = max((n - stat.take) // 2, 0)
        anchor, low, high = "top", low, min(low + stat.take, n)
    else:
        anchor = "top" if stat.order == "highest" else "bottom"
        low, high = min(stat.skip, n), min(stat.skip + stat.take, n)
    attribute = _attribute(plan, stat.score)
    if high <= low:
        return None
    if low == 0 and high == n:
        return plan.add(Register(ADD, [attribute], selection))
    plan.anchors.add(anchor)
    counter = _counter(plan, selection, 0)
    return plan.add(Register(KEEP, [counter, anchor, low, high, attribute], selection))


def _picked_register(plan: Plan, stat: Pick, selection: frozenset, n: int) -> int | None:
    """The value of the die at one rank, counted from an anchor."""
    anchor, position = ("top", (n - 1) // 2) if stat.order == "middle" else (
        "top" if stat.order == "highest" else "bottom", stat.position)
    if position >= n:
        return None
    if n == 1:
        return plan.add(Register(ADD, [0], selection))
    plan.anchors.add(anchor)
    counter = _counter(plan, selection, 0)
    return plan.add(Register(PICK, [counter, anchor, position, 0], selection))


def _compared_register(plan: Plan, stat: "Beats | Pairs", selection: frozenset, n: int) -> int | None:
    """Dice of one kind that beat (or pair off against) dice of another."""
    second = _selection(plan, stat.against)
    if selection & second or (set(stat.dice) & set(stat.against)):
        raise WorkbenchError(f"statistic {stat.name!r}: dice and against must be different "
                             "die types (a die is not compared with itself)")
    m = _dice(plan, second)
    if not n or not m:
        return None
    runs = [_run(plan, selection), _run(plan, second)]
    if isinstance(stat, Pairs):
        plan.anchors.add("top")
    kind, ties = (BEATS, 0) if isinstance(stat, Beats) else (PAIRS, int(stat.ties == "dice"))
    return plan.add(Register(kind, [n, m, ties, *runs], selection, second))


def _largest_set_register(plan: Plan, stat: LargestSet, selection: frozenset, n: int) -> int | None:
    """The size of the largest set of equal dice, or its value."""
    if not n:
        return None
    run = _run(plan, selection)
    width = plan.add(Register(WIDTH, [run], selection))
    return width if stat.report == "size" else plan.add(Register(HEIGHT, [width, 0, run], selection))


def positions_in_walk_order(plan: Plan, descending: bool) -> None:
    """Positions counted from the top or the bottom, as the walk meets them."""
    caps = {}
    for register in plan.registers:
        if register.kind not in (KEEP, PICK):
            continue
        n = _dice(plan, register.first)
        counter, anchor = register.args[0], register.args[1]
        flip = (anchor == "top") != descending
        if register.kind == KEEP:
            low, high = register.args[2], register.args[3]
            if flip:
                low, high = n - high, n - low
            register.args = [counter, low, high, register.args[4]]
            caps[counter] = max(caps.get(counter, 0), high)
        else:
            position = register.args[2]
            if flip:
                position = n - 1 - position
            register.args = [counter, position, register.args[3]]
            caps[counter] = max(caps.get(counter, 0), position + 1)
    for counter, cap in caps.items():
        plan.registers[counter].args = [cap]


def ranges(plan: Plan) -> None:
    """Each register's least and greatest value (0 always inside: registers start at 0)."""
    lows, highs = plan.extremes if plan.groups else ([], [])

    def extremes(selection, attribute):
        if not selection:
            return 0, 0
        return min(0, min(lows[g][attribute] for g in selection)), max(0, max(highs[g][attribute] for g in selection))

    for register in plan.registers:
        kind, n = register.kind, _dice(plan, register.first)
        if kind == ADD:
            low = high = 0
            for g in register.first:
                low += plan.groups[g][2] * min(0, lows[g][register.args[0]])
                high += plan.groups[g][2] * max(0, highs[g][register.args[0]])
        elif kind == COUNTER:
            low, high = 0, register.args[0]
        elif kind == KEEP:
            least, most = extremes(register.first, register.args[3])
            kept = register.args[2] - register.args[1]
            low, high = kept * least, kept * most
        elif kind == PICK:
            low, high = extremes(register.first, register.args[2])
        elif kind == HEIGHT:
            low, high = extremes(register.first, 0)
        elif kind == BEATS:
            low, high = 0, register.args[0] * register.args[1]
        elif kind == PAIRS:
            low, high = 0, min(register.args[0], register.args[1])
        elif kind in (WIDTH, RUN):
            low, high = 0, n
        else:  # SETS
            low, high = 0, n // register.args[0]
        register.low, register.high = low, high


def strides(sizes: list[int]) -> list[int]:
    """Each register's place value in a state's code (a few registers: plain integers, exact)."""
    strides, stride = [], 1
    for size in sizes:
        strides.append(stride)
        stride *= size
    return strides


def ops_table(plan: Plan) -> np.ndarray:
    rows = [[register.kind, *register.args] + [0] * (6 - len(register.args)) for register in plan.registers]
    return np.array(rows, np.int64).reshape(len(rows), 7)
