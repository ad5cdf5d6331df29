"""Rolls whose statistics are all sums over dice, simulated as one sum: the pool kernels' speed.

A roll of dice that do not explode, without percentile dice, rerolls or dice set aside, whose
every statistic adds something up over dice (its counts, the sum of the values, a
:class:`~workbench.rules.roll.Sum`, a keep of every die; Shadowrun's hits and ones, a
pool's successes and botches) is one sum in disguise: each face is given one whole number
that holds what it adds to each statistic in a digit of its own (mixed radix, each digit wide
enough for every die of the roll), and the dice's sum holds every statistic at once. That
sum is a :class:`~workbench.rules.pool.PoolSpec`'s total, which the pool kernels roll several
dice a draw (:mod:`workbench.engine.simulation`); its digits, read back, are the statistics.
Every die is still rolled, none is drawn from an exact table.

Example:
    >>> from workbench.rules.roll import Die, RollSpec
    >>> d6 = Die.numbered("d6", 6, counts={"hits": [0, 0, 0, 0, 1, 1], "ones": [1, 0, 0, 0, 0, 0]})
    >>> summed = summed_roll(RollSpec(((d6, 2),), total="hits"))
    >>> summed.pool.groups[0][0].values   # hits + 3 * ones (two dice: each digit 0 to 2)
    (3, 0, 0, 0, 1, 1)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..limits import MAX_FACE_VALUE, MAX_TOTALS
from ..rules.pool import PoolSpec
from ..rules.roll import Die, RollSpec
from .joint import JointDistribution
from .raw import RawDistribution
from .compiled_roll import SUM, ZERO, compile_roll
from .roll_simulation import finish


@dataclass(frozen=True)
class SummedRoll:
    """A roll as one pool whose total holds its statistics, and how to read them back."""

    spec: RollSpec
    pool: PoolSpec
    names: tuple          # the statistic each digit gives (as compile_roll names them)
    strides: np.ndarray   # each digit's place value (0: a statistic that is always 0)
    widths: np.ndarray    # each digit's range
    lows: np.ndarray      # added back: dice read by the statistic x its least score

    def joint(self, raw: RawDistribution) -> JointDistribution:
        """The simulated pool's totals read as the roll's statistics."""
        trials = int(raw.trials)
        hits = np.rint(raw.table.sum(axis=0) * trials).astype(np.int64)
        seen = hits > 0
        codes = raw.totals[seen]
        safe = np.maximum(self.strides, 1)
        rows = (codes[:, None] // safe) % self.widths + self.lows
        return finish(self.spec, self.names, rows.astype(np.int64), hits[seen], trials)


@lru_cache(maxsize=256)
def summed_roll(spec: RollSpec) -> "SummedRoll | None":
    """``spec`` as one pool (see the module docstring), or ``None`` when it is not a roll of
    sums alone or its digits would not fit one die's face value."""
    if spec.rerolls or spec.kept is not None or spec.reroll_faces is not None or spec.again is not None \
            or not spec.dice:
        return None
    groups = [(die, n) for die, n in spec.groups if n > 0]
    if not all(isinstance(die, Die) and not any(die.explodes) for die, _ in groups):
        return None
    compiled = compile_roll(spec)
    sel_slots, sel_len, _, ops = compiled.reading
    if not np.isin(ops[:, 0], (SUM, ZERO)).all():
        return None
    face_att = compiled.dice[3]
    first = np.cumsum([0] + [n for _, n in groups])
    faces = []     # per group: its faces' scores, one column per statistic (0 where not read)
    reads = []     # per group: which statistics read its dice
    for g, (die, n) in enumerate(groups):
        member = np.array([code == SUM and first[g] in sel_slots[q, :sel_len[q]]
                           for code, q in zip(ops[:, 0], ops[:, 1])], bool)
        scores = face_att[g, :die.sides][:, ops[:, 3]]
        faces.append(np.where(member, scores, 0))
        reads.append(member)
    lows = np.zeros(len(ops), np.int64)
    widths = np.ones(len(ops), np.int64)
    dice_read = np.zeros(len(ops), np.int64)
    for (die, n), scores, member in zip(groups, faces, reads):
        dice_read += n * member
    for j in range(len(ops)):
        read = [scores[:, j] for scores, member in zip(faces, reads) if member[j]]
        if read:
            least, most = min(int(s.min()) for s in read), max(int(s.max()) for s in read)
            lows[j], widths[j] = least, dice_read[j] * (most - least) + 1
    strides = np.concatenate([[1], np.cumprod(widths)[:-1]]).astype(np.int64)
    if float(np.prod(widths.astype(float))) > MAX_FACE_VALUE:
        return None
    strides = np.where(widths > 1, strides, 0)
    pool_groups = []
    spread = 1
    for (die, n), scores, member in zip(groups, faces, reads):
        codes = ((scores - np.where(member, lows, 0)) * strides).sum(axis=1)
        pool_groups.append((Die(die.name, tuple(int(c) for c in codes)), n))
        spread += n * int(codes.max() - codes.min())
    if spread > MAX_TOTALS:
        return None
    return SummedRoll(spec, PoolSpec(tuple(pool_groups)), compiled.names, strides, widths,
                      dice_read * lows)
