"""The exact joint distribution of a :class:`~workbench.rules.roll.RollSpec`'s statistics.

First, a closed form where the pool allows it: dice of one type that do not explode and
score no counts, with one die picked by rank (the highest of 3d6, the middle of 3d20) read by
the total and derived statistics, is an order statistic (:mod:`workbench.engine.order`, the
same distribution as the walk's); the one or two highest of a mixed pool scored by value
(Cortex) are counted in closed form (:mod:`workbench.engine.highest`). Every other roll is
walked:

Every statistic becomes one or two small whole-number *registers* (a running sum, the dice
seen so far, a die's value...), and the dice are evaluated outcome by outcome, as in icepool
(Liu, "Icepool: Efficient Computation of Dice Pool Probabilities", AIIDE 2022):

1. Dice that a statistic reads by rank (kept, picked, compared, matched) are *walked*: their
   outcomes in rank order, drawing at each outcome how many of each group's unresolved dice
   show it (:func:`workbench.engine._kernels.walk.walk`, after
   :func:`~workbench.engine._kernels.walk_groups.walk_groups` made its tables in the same call). Groups that play the same part and
   whose dice differ only by truncation (a d6 is a d10 that stopped at 6) walk as one group,
   joining it at their highest face; a group no statistic needs any more (every kept die
   found) is dropped from the state.
2. The other dice only add to sums, so they are added one at a time
   (:func:`workbench.engine._kernels.walk.convolve`).
3. The registers are read as statistics; the total and derived statistics are evaluated
   from them and equal rows merged (:mod:`workbench.engine.columns`, which the closed form
   ends with too).

Example:
    >>> from workbench.rules.roll import Die, Keep, RollSpec
    >>> d6 = Die.numbered("d6", 6)
    >>> joint = evaluate_roll(RollSpec(((d6, 2),), stats=(Keep("best", take=1),), total="best"))
    >>> [round(float(p) * 36) for p in joint.pmf]
    [1, 3, 5, 7, 9, 11]
"""
from __future__ import annotations

import math
import sys
from dataclasses import replace
from functools import lru_cache

import numpy as np

from ..errors import WorkbenchError
from ..limits import EXACT_WORK, short_number
from ..rules.dice import Die
from ..rules.roll import AllNegative, RollSpec
from . import mixtures
from ._rows import merge_rows
from .columns import finished_totals, joint_from_columns
from .dice import die_outcomes
from .exact import TOLERANCE
from ..rules.expressions import evaluate
from .joint import JointDistribution
from .highest import highest_of_mixed
from .order import order_statistic_roll
from .registers import (ADD, RANKED, Plan, ops_table, plan_statistics, positions_in_walk_order,
                        ranges, strides)
from .tiny import counted_outright

MAX_STATES = 5_000_000
"""Most distinct combinations of statistics one exact roll may come to."""

@lru_cache(maxsize=1024)
def evaluate_roll(spec: RollSpec, shown: "tuple[str, ...] | None" = None) -> JointDistribution:
    """The exact :class:`JointDistribution` of every statistic of ``spec`` (``shown``: of these
    only, the total among them, when the roll is plain: no rerolls, keeps or rolling again;
    the others are computed only as far as these read them).

    Rerolled misses and kept dice are mixtures of plain rolls (:mod:`.mixtures`): the roll is
    split by how many dice missed (or by the lowest kept die), each part is a roll of dice
    given what they showed, and the parts' joints are added with their chances.
    """
    if not isinstance(spec, RollSpec):
        raise WorkbenchError(f"evaluate_roll needs a RollSpec, got {type(spec).__name__}")
    if spec.again is not None:
        return _rolled_again(spec)
    plain = not spec.rerolls and spec.kept is None and spec.reroll_faces is None
    if plain and len(spec.statistics_facts.base) == 1:   # (the closed forms read one statistic off the dice)
        closed = order_statistic_roll(spec, shown) or highest_of_mixed(spec, shown)
        if closed is not None:
            return closed
    counts = count_columns(spec)
    hidden = counts is not spec.count_names   # (the engine's own counts besides the roll's)
    groups, survive, in_pool = [], 1.0, spec.dice
    for index, (die, n) in enumerate(spec.groups):
        if n <= 0:
            continue
        table = None if counts else getattr(die, "faces_table", None)   # (a plain die's faces, made with it)
        attributes, probabilities, lost = (*table, 0.0) if table is not None else \
            die_outcomes(hidden_counts(die, counts, spec) if hidden else die, counts, in_pool)
        if lost:   # each die's chain (and each reroll's) loses what was cut off it; chances
            survive *= (1.0 - lost) ** (n + min(n, spec.rerolls))   # given the chain ended
            probabilities = probabilities / probabilities.sum()     # within the links followed
        groups.append((index, die, n, attributes, probabilities))
    if spec.score_expressions:
        groups = _with_scores(spec, counts, groups)
    if plain:
        tiny = counted_outright(spec, counts, groups, shown) if survive == 1.0 else None
        return tiny if tiny is not None else _evaluate_groups(spec, counts, groups, 1.0 - survive, shown)
    negative = counts.index(FIRST_NEGATIVE) + 1 if FIRST_NEGATIVE in counts else None
    if spec.reroll_faces is not None:
        return _reroll_faces(spec, counts, groups, negative, 1.0 - survive)
    if spec.kept is not None:
        parts, skipped = mixtures.kept_parts(spec, groups), 0.0
    else:
        parts, skipped = mixtures.reroll_parts(spec, groups, negative)
    joints = [(weight, _evaluate_groups(spec, counts, part, 0.0)) for weight, part in parts]
    return mixtures.mixed(spec, joints, 1.0 - survive * (1.0 - skipped))


def _rolled_again(spec: RollSpec) -> JointDistribution:
    """A roll made again and added while its condition holds on the newest roll: one roll's
    joint (without the modifier, floor and ceiling, which apply to the sum once), chained."""
    one = replace(spec, again=None, modifier=0, floor=None, ceiling=None)
    joint = evaluate_roll(one)
    named = {**dict(spec.values), **joint.columns()}
    again = np.broadcast_to(np.asarray(evaluate(spec.again.condition, named), bool), joint.probabilities.shape)
    values, probabilities, lost = mixtures.rolled_again(joint.values, joint.probabilities, again,
                                                        spec.again.limit, TOLERANCE * 1e-2)
    values = values.copy()
    values[:, 0] = finished_totals(spec, values[:, 0])
    values, probabilities = merge_rows(values, probabilities)
    lost_mass = 1.0 - (1.0 - joint.lost_mass) * (1.0 - lost)
    return JointDistribution(joint.names, values, probabilities * (1.0 - lost), lost_mass=lost_mass)


FIRST_NEGATIVE = "\x00first_negative"
"""The engine's own count (no name a file can write): dice whose first face was negative."""

REROLLABLE = "\x00rerollable"
"""The engine's own count: dice showing a face that :class:`RerollFaces` rerolls."""


def count_columns(spec: RollSpec) -> tuple[str, ...]:
    """The counts a die's outcomes carry: the roll's, :data:`FIRST_NEGATIVE` when an
    :class:`~workbench.rules.roll.AllNegative` statistic reads it, :data:`REROLLABLE` when
    dice are rerolled by face."""
    counts = spec.count_names
    if spec.statistics_facts.all_negative:
        counts = (*counts, FIRST_NEGATIVE)
    if spec.reroll_faces is not None:
        counts = (*counts, REROLLABLE)
    return counts


def hidden_counts(die, counts: tuple[str, ...], spec: RollSpec):
    """``die`` scoring the engine's own counts: :data:`FIRST_NEGATIVE` on its first face only
    (the dice its explosions roll do not: an exploding die's chain goes on into the die as it
    was), :data:`REROLLABLE` on the faces rerolled."""
    if not isinstance(die, Die):
        return die
    if FIRST_NEGATIVE in counts:
        die = _first_negative(die)
    if REROLLABLE in counts:
        die = _rerollable(die, spec.reroll_faces.of(die.name))
    return die


@lru_cache(maxsize=256)
def _first_negative(die: Die) -> Die:
    flags = tuple(int(v < 0) for v in die.values)
    into = die if die.into is None and any(die.explodes) else die.into
    return Die(die.name, die.values, die.explodes, die.limit, into, (*die.counts, (FIRST_NEGATIVE, flags)))


@lru_cache(maxsize=256)
def _rerollable(die: Die, faces: tuple[int, ...]) -> Die:
    flags = tuple(int(face in faces) for face in range(1, die.sides + 1))
    return Die(die.name, die.values, die.explodes, die.limit, die.into, (*die.counts, (REROLLABLE, flags)))


def _reroll_faces(spec: RollSpec, counts, groups, negative, lost) -> JointDistribution:
    """Dice showing given faces rolled once more: always (each die's outcomes change), or
    when a condition over the first roll holds (a mixture over what the kept dice showed)."""
    column = counts.index(REROLLABLE) + 1
    if spec.reroll_faces.condition is None:
        changed = [(index, die, n, *mixtures.rerolled_once(attributes, probabilities, column, negative))
                   for index, die, n, attributes, probabilities in groups]
        return _evaluate_groups(spec, counts, changed, lost)
    parts, skipped = mixtures.push_parts(groups, column, negative)
    condition = spec.reroll_faces.condition
    joints = []
    for weight, first, pushed in parts:
        before = _evaluate_groups(spec, counts, first, 0.0)
        if pushed is None:
            joints.append((weight, before))
            continue
        named = {**dict(spec.values), **before.columns()}
        holds = np.broadcast_to(np.asarray(evaluate(condition, named), bool), before.probabilities.shape)
        joints.append((weight, before.rows(~holds)))
        chance = float(before.probabilities[holds].sum())
        if chance > 0.0:
            joints.append((weight * chance, _evaluate_groups(spec, counts, pushed, 0.0)))
    return mixtures.mixed(spec, joints, 1.0 - (1.0 - lost) * (1.0 - skipped))


def _evaluate_groups(spec: RollSpec, counts: tuple[str, ...], groups: list, lost: float,
                     shown: "tuple[str, ...] | None" = None) -> JointDistribution:
    """The joint distribution of ``spec``'s statistics (``shown``: of these only) over these
    groups of dice: ``(index, die, n, attributes, probabilities)``; several groups may be dice
    of one type (given different things about what they showed), and statistics read them all."""
    plan = Plan(spec, groups, counts)
    plan_statistics(plan)
    walked = sorted({g for r in plan.registers if r.kind in RANKED for g in r.first | r.second})
    descending = "top" in plan.anchors or "bottom" not in plan.anchors
    positions_in_walk_order(plan, descending)
    ranges(plan)
    low_list = [r.low for r in plan.registers]
    size_list = [r.high - r.low + 1 for r in plan.registers]
    _refuse_beyond(math.prod(map(float, size_list)))
    start = -sum(low * stride for low, stride in zip(low_list, strides(size_list)))   # every register at 0
    lows, sizes = np.array(low_list, np.int64), np.array(size_list, np.int64)
    state = (np.array([start], np.int64), np.ones(1))
    if walked:
        state = _walk(plan, walked, descending, lows, sizes, state)
    for slot in range(len(groups)):
        if slot not in walked:
            state = _convolve(plan, slot, sizes, state)
    return _joint(plan, state, lows, sizes, lost, shown)


def _refuse_beyond(states: float) -> None:
    """Codes of states must fit a 64-bit integer (the states actually reached are far fewer)."""
    if states >= 2.0 ** 62:
        raise WorkbenchError(f"this roll's statistics and ranked dice span {states:.3g} combinations, more "
                             "than an exact result can number; use fewer dice or statistics")


HASH_STEP = 10
"""A step of the walk or of adding dice (one combination of statistics meeting one outcome,
kept in a hash table) counted as this many steps of exact computing against
:data:`~workbench.limits.EXACT_WORK`."""


def _most_states(per_state: float) -> int:
    """The most combinations a step may hold so that the whole roll, at ``per_state`` steps
    for each combination held, stays within the exact-work budget (and within MAX_STATES):
    the kernels stop as soon as a step holds more, so a roll past the budget is refused
    after at most about that much work, not after minutes."""
    budget = EXACT_WORK.current() / HASH_STEP
    return int(max(1, min(MAX_STATES, budget // max(per_state, 1.0))))


def _check(status: int, most: int = MAX_STATES) -> None:
    """A kernel's status: 0 fine, 1 a register out of range (a bug), 2 too many states."""
    if status == 1:
        raise RuntimeError("a register left its range: this is a bug in the workbench's planner")
    if status == 2 and most < MAX_STATES:
        raise WorkbenchError(
            f"this roll would need more than {short_number(EXACT_WORK.current())} steps of exact computing "
            f"(over {most:,} combinations of its statistics at once), more than the limit; use fewer "
            f"dice or statistics, or raise the limit with the environment variable {EXACT_WORK.env} "
            f"(e.g. {EXACT_WORK.env}={short_number(EXACT_WORK.current() * 10)})")
    if status == 2:
        raise WorkbenchError(f"this roll needs more than {MAX_STATES:,} combinations of its statistics "
                             "at once, more than an exact result keeps; use fewer dice or statistics")


def _with_scores(spec: RollSpec, counts: tuple[str, ...], groups: list) -> list:
    """``groups`` with one more column of outcomes per score written as an expression,
    evaluated for each outcome: over every group's outcomes at once (one evaluation, not one
    per die type), or group by group where that is refused (to name the first group's)."""
    if len(groups) > 1:
        try:
            scored = _scored(spec, counts, np.concatenate([group[3] for group in groups]))
        except WorkbenchError:
            pass
        else:
            parts, start = [], 0
            for group in groups:
                parts.append((*group[:3], scored[start:start + len(group[3])], group[4]))
                start += len(group[3])
            return parts
    return [(*group[:3], _scored(spec, counts, group[3]), group[4]) for group in groups]


def _scored(spec: RollSpec, counts: tuple[str, ...], attributes: np.ndarray) -> np.ndarray:
    """``attributes`` with one more column per score written as an expression."""
    names = {"value": attributes[:, 0], **{c: attributes[:, 1 + j] for j, c in enumerate(counts)}}
    extra = []
    for text in spec.score_expressions:
        value = evaluate(spec.parsed_score(text), names)
        if value.shape != (len(attributes),):
            value = np.broadcast_to(value, len(attributes))
        extra.append(value.astype(np.int64, copy=False))
    return np.column_stack([attributes, *extra])


def _walk(plan, walked, descending, lows, sizes, start):
    """Step 1: the ranked dice, outcome by outcome (merging groups that can walk as one)."""
    from ._kernels import walk_groups as kernels  # lazy: numba loads on the first ranked roll, not on import

    registers = plan.registers
    groups = [plan.groups[g] for g in walked]
    attributes = np.concatenate([group[3] for group in groups]) if len(groups) > 1 else groups[0][3]
    chances = np.concatenate([group[4] for group in groups]) if len(groups) > 1 else groups[0][4]
    roles = [[(g in r.first, g in r.second) for r in registers] for g in walked]
    # Each combination held meets every outcome, splitting over how many dice of each group
    # show it (groups that walk as one split less: this is an upper bound).
    most = _most_states(len(attributes) * math.prod(float(group[2] + 1) for group in groups))
    codes, probabilities, status, span = kernels.walk_groups(
        attributes, chances, np.array([len(group[3]) for group in groups], np.int64),
        np.array([group[2] for group in groups], np.int64),
        np.array(roles, np.bool_).reshape(len(walked), len(registers), 2), ops_table(plan), lows, sizes,
        bool(descending), *start, most)
    if status == 3:
        _refuse_beyond(span)
    _check(status, most)
    return codes, probabilities


def _convolve(plan, slot, sizes, state):
    """Step 2: one group of dice that only adds to sums."""
    from ._kernels import walk as kernels  # numba loads on the first such roll, not on import

    index, die, n, attributes, probabilities = plan.groups[slot]
    place = strides(sizes.tolist())
    deltas = np.zeros(len(attributes), np.int64)
    for j, register in enumerate(plan.registers):
        if register.kind == ADD and slot in register.first:
            deltas += attributes[:, register.args[0]] * place[j]
    if not deltas.any():
        return state
    unique, merged = _merged_deltas(deltas, probabilities)
    most = _most_states(float(n) * len(unique))
    codes, probabilities, status = kernels.convolve(*state, unique, merged, n, most)
    _check(status, most)
    return codes, probabilities


def _merged_deltas(deltas: np.ndarray, probabilities: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each distinct move of a state (ascending) and its chance: outcomes that move it alike
    added up (``numpy.unique``), or, when every move differs and they come in order (a die's
    values, its outcomes sorted), the moves as they are."""
    if len(deltas) == 1 or (deltas[1:] > deltas[:-1]).all():
        return deltas, np.asarray(probabilities, dtype=float)
    unique, inverse = np.unique(deltas, return_inverse=True)
    return unique, np.bincount(inverse.reshape(-1), weights=probabilities, minlength=len(unique))


def _joint(plan, state, lows, sizes, lost, shown=None) -> JointDistribution:
    """Step 3: registers read as statistics (:func:`~workbench.engine.columns.joint_from_columns`
    reads the total and derived statistics from them)."""
    codes, probabilities = state
    if not probabilities.all():
        # States of probability 0 (underflow) are not read: a total could divide by 0 there.
        reached = probabilities > 0.0
        codes, probabilities = codes[reached], probabilities[reached]
    needed = sorted({source for source in plan.source.values() if source is not None})
    registers = {}
    if needed and "numba" in sys.modules:   # the kernels ran: one more call reads every register
        from ._kernels import rows as kernels  # lazy: numba (loaded already here)

        registers = dict(zip(needed, kernels.registers_of(codes, sizes, lows, np.array(needed, np.int64))))
    elif needed:
        size_list = sizes.tolist()
        for j, (stride, size, low) in enumerate(zip(strides(size_list), size_list, lows.tolist())):
            if j in needed:
                registers[j] = (codes // stride) % size + low if size > 1 else np.full(len(codes), low, np.int64)
    zeros = np.zeros(len(codes), np.int64) if None in plan.source.values() else None
    columns = {name: zeros if source is None else registers[source] for name, source in plan.source.items()}
    columns.pop(REROLLABLE, None)
    negative = columns.pop(FIRST_NEGATIVE, None)
    if negative is not None:   # every die of the roll showed a negative first face
        dice = sum(group[2] for group in plan.groups)
        flags = (negative == dice).astype(np.int64) if dice else np.zeros(len(codes), np.int64)
        columns.update({stat.name: flags for stat in plan.spec.stats if isinstance(stat, AllNegative)})
    return joint_from_columns(plan.spec, columns, probabilities, lost, shown=shown)
