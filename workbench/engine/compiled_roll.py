"""A roll as the simulator's kernels read it: plain arrays of its dice and of how each
statistic is read from them (:mod:`workbench.engine._kernels.rolls`).

:func:`compile_roll` gives a :class:`CompiledRoll`: one row a die type (with the types only
explosions roll), one slot a die, the dice a ``kept`` keeps, and one operation a statistic
over a selection of the slots. :mod:`workbench.engine.roll_simulation` rolls it.

Example:
    >>> from workbench.rules.roll import Die, RollSpec
    >>> compiled = compile_roll(RollSpec(((Die.numbered("d6", 6), 2), (Die.numbered("d8", 8), 1))))
    >>> compiled.names, compiled.dice[0].tolist(), compiled.general
    (('total',), [0, 0, 1], False)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..errors import WorkbenchError
from ..rules.expressions import parse
from ..rules.roll import AllNegative, Beats, Derived, Die, Keep, LargestSet, Pairs, Percentile, Pick, RollSpec, Sets, Sum
from ..rules.expressions import evaluate

SUM, KEEP, PICK, BEATS, PAIRS, WIDTH, HEIGHT, SETS, ALL_NEGATIVE, ZERO = range(10)
"""Operation codes of :mod:`workbench.engine._kernels.rolls` (the same numbers)."""


@dataclass(frozen=True)
class CompiledRoll:
    """A roll as the kernels read it (see :mod:`workbench.engine._kernels.rolls`)."""

    dice: tuple          # the arguments roll_check reads, from slot_row to rank_columns
    out_dice: int        # dice that stay in the roll (after kept)
    scores: tuple        # expressions over one die's chain, computed between the kernels
    reading: tuple       # sel_slots, sel_len, sel_sort, ops
    names: tuple         # the statistic each operation gives
    count_names: tuple
    general: bool        # percentile dice, rerolls or dice set aside: the general kernel


@lru_cache(maxsize=256)
def compile_roll(spec: RollSpec) -> CompiledRoll:
    """The arrays the kernels read for ``spec``.

    Example:
        >>> from workbench.rules.roll import Die, Keep, RollSpec
        >>> d6 = Die.numbered("d6", 6, counts={"ones": [1, 0, 0, 0, 0, 0]})
        >>> compiled = compile_roll(RollSpec(((d6, 3),), stats=(Keep("best", take=2),)))
        >>> compiled.names, compiled.reading[3][:, :6].tolist()
        (('total', 'ones', 'best'), [[0, 0, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0], [1, 0, 0, 0, 0, 2]])
    """
    groups = [(die, n) for die, n in spec.groups if n > 0]
    counts = spec.count_names
    rows = _die_rows(groups)
    chains = any(not isinstance(d, Percentile) and any(d.explodes) for d in rows)
    expressions = spec.score_expressions
    per_face = expressions if not chains else ()
    scores = () if not chains else expressions
    faces = [_faces(die, counts, per_face) for die in rows]
    # How dice rank: when no die explodes, by one column numbering every face's (value,
    # counts) in order (``rank_count`` ranks); else by value, then the counts in turn.
    rank_from, rank_to, rank_count = 0, 1 + len(counts), 0
    if not chains and faces:
        faces, rank_count = _ranked_faces(faces, len(counts))
        rank_from, rank_to = faces[0].shape[1] - 1, faces[0].shape[1]
    width = faces[0].shape[1] if faces else 1 + len(counts)
    kind, sides, face_att, explodes, into, limit, extra = _die_tables(rows, faces, width)
    slot_row = np.array([r for r, (_, n) in enumerate(groups) for _ in range(n)], np.int64)
    (kept_start, kept_count, kept_take, kept_lowest), stay = _kept_dice(spec, groups)
    first_slot = np.cumsum([0] + stay)
    slots_of = {die.name: list(range(first_slot[g], first_slot[g] + stay[g]))
                for g, (die, _) in enumerate(groups)}
    dice = (slot_row, kind, sides, face_att, explodes, into, limit, extra, int(spec.rerolls),
            kept_start, kept_count, kept_take, kept_lowest, rank_from, rank_to, rank_count)
    reading, names = _reading(spec, slots_of, sum(stay), counts, per_face, scores)
    general = bool(kind.any() or spec.rerolls or kept_count)
    return CompiledRoll(dice, sum(stay), scores, reading, names, counts, general)


def _die_rows(groups: list) -> list:
    """One row a die type: the roll's, then the types only explosions roll."""
    rows: list = [die for die, _ in groups]
    for die in list(rows):
        kind = die
        while isinstance(kind, Die) and any(kind.explodes):
            kind = kind.next
            if kind in rows:
                break
            rows.append(kind)
    return rows


def _ranked_faces(faces: list, count_columns: int) -> tuple[list, int]:
    """Each row of faces with one more column, its rank among every face's (value, counts)
    of every die type (sorted: in order); and how many ranks there are."""
    ranked = np.concatenate([f[:, :1 + count_columns] for f in faces])
    distinct, rank = np.unique(ranked, axis=0, return_inverse=True)   # sorted rows: in order
    ends = np.cumsum([len(f) for f in faces])[:-1]
    faces = [np.column_stack([f, r]) for f, r in zip(faces, np.split(rank.reshape(-1), ends))]
    return faces, len(distinct)


def _die_tables(rows: list, faces: list, width: int) -> tuple:
    """The kernels' arrays, one row a die type: kind (1: percentile), sides, each face's
    columns, which faces explode, the row an explosion rolls, the explosion limit, and a
    percentile die's extra tens dice."""
    widest = max([len(f) for f in faces] or [1])
    count_rows = max(len(rows), 1)
    kind = np.zeros(count_rows, np.int64)
    sides = np.ones(count_rows, np.int64)
    face_att = np.zeros((count_rows, widest, width), np.int64)
    explodes = np.zeros((count_rows, widest), np.bool_)
    into = np.arange(count_rows, dtype=np.int64)
    limit = np.zeros(count_rows, np.int64)
    extra = np.zeros(count_rows, np.int64)
    for r, die in enumerate(rows):
        face_att[r, :len(faces[r])] = faces[r]
        if isinstance(die, Percentile):
            kind[r], sides[r], extra[r] = 1, 100, die.extra
            continue
        sides[r], limit[r] = die.sides, die.limit
        explodes[r, :die.sides] = die.explodes
        into[r] = rows.index(die.next)
    return kind, sides, face_att, explodes, into, limit, extra


def _kept_dice(spec: RollSpec, groups: list) -> tuple[tuple[int, int, int, int], list[int]]:
    """Which dice ``kept`` keeps: ``(first slot, dice of the type, dice kept, 1 when the
    lowest)``, all 0 when nothing is set aside; and the dice of each group that stay."""
    starts = np.cumsum([0] + [n for _, n in groups])
    stay = [n for _, n in groups]
    kept = spec.kept
    if kept is not None:
        found = [g for g, (die, _) in enumerate(groups) if die.name == kept.dice]
        if found:
            g = found[0]
            stay[g] = int(kept.take)
            return (int(starts[g]), groups[g][1], int(kept.take), int(kept.order == "lowest")), stay
    return (0, 0, 0, 0), stay


def _faces(die, counts, per_face) -> np.ndarray:
    """One row per face (a percentile die: per result 1 to 100): value, counts, scores."""
    if isinstance(die, Percentile):
        values = np.arange(1, 101, dtype=np.int64)
        own: dict = {}
    else:
        values = np.array(die.values, np.int64)
        own = {name: np.array(scores, np.int64) for name, scores in die.counts}
    columns = {"value": values, **{name: own.get(name, np.zeros(len(values), np.int64)) for name in counts}}
    scored = [np.broadcast_to(evaluate(parse(text), columns), values.shape).astype(np.int64)
              for text in per_face]
    return np.column_stack([values, *(columns[name] for name in counts), *scored])


class _Reading:
    """The selections of dice and the operations that read the statistics from them."""

    def __init__(self, slots_of: dict, attributes: tuple) -> None:
        self.slots_of, self.attributes = slots_of, attributes
        self.selections: dict = {}
        self.ops: list = []
        self.names: list = []

    def chosen(self, dice) -> tuple:
        """The slots of these die types (every die for none named)."""
        return tuple(s for name, slots in self.slots_of.items() if not dice or name in dice for s in slots)

    def selection(self, dice, ranks=0) -> int:
        """The selection of these die types; its first ``ranks`` ranks are read."""
        q = self.selections.setdefault(self.chosen(dice), [len(self.selections), 0])
        q[1] = max(q[1], ranks)
        return q[0]

    def op(self, name, code, q=0, second=0, attribute=0, a=0, b=0) -> None:
        self.ops.append((code, q, second, attribute, a, b))
        self.names.append(name)

    def arrays(self, every: int) -> tuple:
        """``(sel_slots, sel_len, sel_sort, ops)`` as the kernels read them."""
        room = max(every, 1)
        sel_slots = np.zeros((max(len(self.selections), 1), room), np.int64)
        sel_len = np.zeros(max(len(self.selections), 1), np.int64)
        sel_sort = np.zeros(max(len(self.selections), 1), np.int64)
        for chosen, (q, ranks) in self.selections.items():
            sel_slots[q, :len(chosen)] = chosen
            sel_len[q], sel_sort[q] = len(chosen), min(ranks, len(chosen))
        table = np.array(self.ops, np.int64).reshape(len(self.ops), 6)
        return sel_slots, sel_len, sel_sort, table


def _reading(spec, slots_of, every, counts, per_face, scores):
    """The selections and operations that give each statistic (not the derived ones)."""
    reading = _Reading(slots_of, ("value", *counts, *per_face, *scores))
    if spec.total is None:
        reading.op("total", SUM, reading.selection(()))
    for j, name in enumerate(counts):
        reading.op(name, SUM, reading.selection(()), attribute=1 + j)
    for stat in spec.stats:
        if not isinstance(stat, Derived):
            _read_statistic(reading, stat, every)
    if not reading.ops:   # nothing read from the dice: one constant column
        reading.op(None, ZERO)
    return reading.arrays(every), tuple(reading.names)


def _read_statistic(reading: _Reading, stat, every: int) -> None:
    """The operation that reads one statistic from the dice."""
    n = len(reading.chosen(getattr(stat, "dice", ())))
    if isinstance(stat, AllNegative):
        reading.op(stat.name, ALL_NEGATIVE)
    elif isinstance(stat, Sum):
        reading.op(stat.name, SUM, reading.selection(stat.dice),
                   attribute=reading.attributes.index(stat.score))
    elif isinstance(stat, Keep):
        _read_kept(reading, stat, n)
    elif isinstance(stat, Pick):
        rank = _picked_rank(stat, n)
        if not 0 <= rank < n:   # fewer dice than the rank
            reading.op(stat.name, ZERO)
        else:
            reading.op(stat.name, PICK, reading.selection(stat.dice, rank + 1), a=rank)
    elif isinstance(stat, (Beats, Pairs)):
        mine = {name for name in reading.slots_of if not stat.dice or name in stat.dice}
        theirs = {name for name in reading.slots_of if not stat.against or name in stat.against}
        if mine & theirs or set(stat.dice) & set(stat.against):
            raise WorkbenchError(f"statistic {stat.name!r}: dice and against must be different "
                                 "die types (a die is not compared with itself)")
        code, ties = (BEATS, 0) if isinstance(stat, Beats) else (PAIRS, int(stat.ties == "dice"))
        reading.op(stat.name, code, reading.selection(stat.dice, every),
                   reading.selection(stat.against, every), a=ties)
    elif isinstance(stat, LargestSet):
        reading.op(stat.name, WIDTH if stat.report == "size" else HEIGHT,
                   reading.selection(stat.dice, every))
    elif isinstance(stat, Sets):
        reading.op(stat.name, SETS, reading.selection(stat.dice, every), a=stat.size)
    else:
        raise WorkbenchError(f"unknown statistic {stat!r}")


def _read_kept(reading: _Reading, stat: Keep, n: int) -> None:
    """A sum over the dice of ranks ``low .. high - 1`` (from the top) of ``n`` dice."""
    if stat.order == "middle":
        low = max((n - stat.take) // 2, 0)
        low, high = low, min(low + stat.take, n)
    elif stat.order == "highest":
        low, high = min(stat.skip, n), min(stat.skip + stat.take, n)
    else:   # the lowest: ranks counted from the bottom
        low, high = max(n - stat.skip - stat.take, 0), max(n - stat.skip, 0)
    attribute = reading.attributes.index(stat.score)
    if high <= low:
        reading.op(stat.name, ZERO)
    elif low == 0 and high == n:
        reading.op(stat.name, SUM, reading.selection(stat.dice), attribute=attribute)
    else:
        reading.op(stat.name, KEEP, reading.selection(stat.dice, high), attribute=attribute, a=low, b=high)


def _picked_rank(stat: Pick, n: int) -> int:
    """The rank (from the top, 0 first) of the die ``stat`` picks among ``n`` dice."""
    if stat.order == "middle":
        return (n - 1) // 2
    return stat.position if stat.order == "highest" else n - 1 - stat.position
