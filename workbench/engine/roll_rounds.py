"""Simulating rolls that decide on their own statistics, every die rolled: a reroll by face
(:class:`~workbench.rules.roll.RerollFaces`, a push when it waits on a condition over the
first roll) and a roll made again while a condition holds on the newest roll
(:class:`~workbench.rules.roll.RollAgain`, doubles that add and roll over).

The checks of a group of blocks are rolled in steps (:mod:`workbench.engine._kernels.roll_rows`):
one roll of every check still rolling, its statistics, the conditions evaluated in numpy over
those rows (:func:`~workbench.engine.roll_simulation.full_rows`), then the dice pushed, or the
checks that roll again rolled again. Each block keeps its own generator from step to step
(stream ``k`` of the seed for block ``k``), so a seed gives the same counts for any number of
threads.

Rules, as the exact engine reads them (:mod:`workbench.engine.evaluate`): a push's condition
reads the first roll (its total with the modifier, floor and ceiling, its counts and
statistics); the dice pushed are those showing a rerolled face, rolled once more, the new
result counting (a die rolled again had no first roll: the all-negative statistic is 0). A
roll made again: each roll's statistics, total and derived statistics are read as one roll
without the modifier, floor and ceiling; the condition reads the newest roll; the check's
statistics are their sums over the rolls, and the modifier, floor and ceiling apply to the
summed total once; ``limit`` rolls again at most (0: no cap).

Example:
    >>> from workbench.rules.roll import Die, Pick, RollAgain, RollSpec
    >>> d6 = Die.numbered("d6", 6)
    >>> spec = RollSpec(((d6, 1),), stats=(Pick("face"),), again=RollAgain("face == 6", limit=1))
    >>> joint = simulate_rounds(spec, 60_000, seed=3)
    >>> int(joint.column("total").max()), bool(abs(joint.probabilities[-1] - 1 / 36) < 0.005)   # 6, 6
    (12, True)
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..errors import WorkbenchError
from ..limits import ROLLED_DICE
from ..rules.expressions import evaluate, parse
from ..rules.roll import Die, RollSpec
from .columns import finished_totals
from .joint import JointDistribution
from .compiled_roll import compile_roll
from .roll_simulation import CALL_CELLS, _check_rows, _merged, each, full_rows, rolled_per_roll, thread_pool

MAX_ROUNDS = 10_000
"""Most rolls one check is rolled again before the run stops (as the exact engine stops)."""


def simulate_rounds(spec: RollSpec, trials: int, seed: int, block_size: int = 1 << 16,
                    chunk_blocks: int = 32, bar=None) -> JointDistribution:
    """``trials`` checks of ``spec`` (a roll with a reroll by face or rolled again), every die
    rolled, in blocks of ``block_size`` from their own streams of ``seed``; ``bar`` moves
    after each group of blocks. Arguments are not checked here."""
    import numba  # lazy: numba

    from ._kernels import roll_rows, rng  # lazy: numba

    one = replace(spec, again=None, modifier=0, floor=None, ceiling=None) if spec.again else spec
    compiled = compile_roll(one)
    plan = _Plan(one, compiled)
    width = compiled.dice[3].shape[2] + len(compiled.scores)
    per_check = max(compiled.out_dice, 1) * (width + 2) + len(compiled.names) + 2 * len(spec.statistic_names)
    per_call = max(1, min(chunk_blocks, CALL_CELLS // (block_size * per_check)))
    blocks = -(-trials // block_size)
    workers = thread_pool(min(numba.get_num_threads(), per_call, blocks))
    found: list = []
    for first in range(0, blocks, per_call):
        count = min(per_call, blocks - first)
        states = np.stack([rng.seed_state(np.uint64(seed), np.uint64(block))
                           for block in range(first, first + count)])
        size = min(count * block_size, trials - first * block_size)
        rows = _checks(roll_rows, plan, spec, states, size, block_size, workers, first == 0, trials)
        values, hits = np.unique(rows, axis=0, return_counts=True)
        found.append((values, hits.astype(np.int64)))
        if len(found) > 1 and sum(len(v) for v, _ in found) > max(1 << 16, 4 * len(found[0][0])):
            found = [_merged(found)]
            _check_rows(len(found[0][0]))
        if bar is not None:
            bar.update(size)
    values, hits = _merged(found)
    _check_rows(len(values))
    return JointDistribution(spec.statistic_names, values, hits / trials, trials=trials)


class _Plan:
    """One roll of ``spec`` (without rolling again) as the step kernels read it."""

    def __init__(self, spec: RollSpec, compiled):
        self.spec, self.compiled = spec, compiled
        slot_row, kind, sides, face_att, explodes, into, limit = compiled.dice[:7]
        self.rerollable = np.zeros(explodes.shape, np.bool_)
        push = spec.reroll_faces
        if push is not None:
            rows = [die for die, n in spec.groups if n > 0]
            for r, die in enumerate(rows):
                for face in push.of(die.name) if isinstance(die, Die) else ():
                    self.rerollable[r, face - 1] = True
        self.condition = push.condition if push is not None else None
        self.pushes = push is not None


def _checks(kernels, plan: _Plan, spec: RollSpec, states, size: int, block_size: int, workers,
            first_group: bool, trials: int) -> np.ndarray:
    """Every statistic of ``size`` checks (the blocks of ``states``, one after the other)."""
    compiled = plan.compiled
    names = spec.statistic_names
    checks = np.arange(size)
    if spec.again is None:
        base = _one_roll(kernels, plan, states, checks, size, block_size, workers)
        return full_rows(spec, compiled.names, base)
    sums = np.zeros((size, len(names)), np.int64)
    rolling, rolls = checks, 1
    while len(rolling):
        base = _one_roll(kernels, plan, states, rolling, size, block_size, workers)
        one = full_rows(plan.spec, compiled.names, base[rolling])
        sums[rolling] += one
        if spec.again.limit and rolls == spec.again.limit + 1:   # the last roll allowed
            break
        named = {**dict(spec.values), **{name: one[:, j] for j, name in enumerate(names)}}
        again = np.broadcast_to(np.asarray(evaluate(spec.again.condition, named), bool), (len(rolling),))
        if first_group and rolls == 1 and not spec.again.limit:
            _check_again_work(spec, float(again.mean()), trials)
        rolling = rolling[again]
        rolls += 1
        if rolls > MAX_ROUNDS:
            raise WorkbenchError(f"simulate: a check was rolled again {MAX_ROUNDS:,} times; this roll "
                                 "is rolled again so often that it does not end; set a limit to the "
                                 "rolls again")
    sums[:, 0] = finished_totals(spec, sums[:, 0])
    return sums


def _check_again_work(spec: RollSpec, again: float, trials: int) -> None:
    """Refuse a run past the dice budget once the share of checks rolled again is known
    (after the first roll of the first blocks)."""
    rolls = float("inf") if again >= 1.0 else 1.0 / (1.0 - again)
    ROLLED_DICE.check(float(trials) * rolled_per_roll(spec) * rolls, "simulate")


def _one_roll(kernels, plan: _Plan, states, checks: np.ndarray, size: int, block_size: int,
              workers) -> np.ndarray:
    """One roll of the checks ``checks`` (indices into the group of blocks, ascending), with
    their push if any: rows of what the kernels read (``compiled.names``)."""
    compiled = plan.compiled
    face_width = compiled.dice[3].shape[2]
    width = face_width + len(compiled.scores)
    room = max(compiled.out_dice, 1)
    att = np.zeros((size, room, width), np.int64)
    faces = np.zeros((size, max(len(compiled.dice[0]), 1)), np.int64)
    negative = np.zeros(size, np.bool_)
    rows = np.zeros((size, len(compiled.names)), np.int64)
    parts = _by_block(checks, len(states), block_size)
    each(workers, parts, lambda b, mine: kernels.dice_rows(
        states[b], mine, *compiled.dice, att, faces, negative))
    _score(compiled, att, checks)
    each(workers, parts, lambda b, mine: kernels.read_rows(
        mine, att, negative, *compiled.dice[-3:], *compiled.reading, rows))
    if not plan.pushes:
        return rows
    pushed = checks
    if plan.condition is not None:
        first = full_rows(plan.spec, compiled.names, rows[checks])
        named = {**dict(plan.spec.values),
                 **{name: first[:, j] for j, name in enumerate(plan.spec.statistic_names)}}
        holds = np.broadcast_to(np.asarray(evaluate(plan.condition, named), bool), (len(checks),))
        pushed = checks[holds]
    parts = _by_block(pushed, len(states), block_size)
    slot_row, kind, sides, face_att, explodes, into, limit = compiled.dice[:7]
    each(workers, parts, lambda b, mine: kernels.push_rows(
        states[b], mine, slot_row, sides, face_att, explodes, into, limit, plan.rerollable, att, faces,
        negative))
    _score(compiled, att, pushed)
    each(workers, parts, lambda b, mine: kernels.read_rows(
        mine, att, negative, *compiled.dice[-3:], *compiled.reading, rows))
    return rows


def _by_block(checks: np.ndarray, blocks: int, block_size: int) -> list:
    """``(block, its checks)`` for each block with checks among ``checks`` (ascending)."""
    cuts = np.searchsorted(checks, np.arange(blocks + 1) * block_size)
    return [(b, checks[cuts[b]:cuts[b + 1]]) for b in range(blocks) if cuts[b + 1] > cuts[b]]


def _score(compiled, att: np.ndarray, checks: np.ndarray) -> None:
    """The score expressions read from whole chains, for the dice of ``checks``."""
    if not compiled.scores or not len(checks):
        return
    face_width = compiled.dice[3].shape[2]
    dice = att[checks]
    names = {"value": dice[:, :, 0], **{name: dice[:, :, 1 + j] for j, name in enumerate(compiled.count_names)}}
    for e, text in enumerate(compiled.scores):
        att[checks, :, face_width + e] = np.broadcast_to(evaluate(parse(text), names), dice.shape[:2])
