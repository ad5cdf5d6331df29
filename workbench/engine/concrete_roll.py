"""One concrete roll of a :class:`~workbench.rules.roll.RollSpec`, statistic by statistic.

What :func:`workbench.score` does for a system with counts or statistics: the faces a player
rolled are read die by die (an exploding face takes the next face of the list as its chain's
next die), each die comes to a value and counts, and every statistic is read as the rules
say: the dice sorted, kept, picked, compared and matched.

Example:
    >>> from workbench.rules.roll import Die, Keep, RollSpec
    >>> d6 = Die.numbered("d6", 6, counts={"ones": [1, 0, 0, 0, 0, 0]})
    >>> spec = RollSpec(((d6, 3),), stats=(Keep("best", take=2),), total="best")
    >>> joint = score_roll(spec, [1, 6, 4])
    >>> dict(zip(joint.names, joint.values[0].tolist()))
    {'total': 10, 'ones': 1, 'best': 10}
"""
from __future__ import annotations

from collections import Counter
from typing import Mapping, Sequence

import numpy as np

from ..errors import WorkbenchError
from ..rules.roll import AllNegative, Beats, Derived, Keep, LargestSet, Pairs, Percentile, Pick, RollSpec, Sets, Sum
from ..rules.scored import ScoredRoll
from ..rules.expressions import evaluate, parse
from .joint import JointDistribution
from .scored import read_score, shown_roll


def score_roll(spec: RollSpec, faces: "Sequence[int] | Mapping[str, Sequence[int]]") -> JointDistribution:
    """The statistics of concrete faces, as a joint distribution with one row (probability 1).

    ``faces``: a list for a roll of one die type, or a mapping die name -> list. Each list
    starts with the initial dice's faces; each exploding face is followed by the face of the
    die it adds. A percentile die's list gives its results (1 to 100) as read.
    """
    groups = [(die, n) for die, n in spec.groups if n > 0]
    faces = _faces_by_die(groups, faces)
    dice, first_negative = _read_dice(spec, groups, faces)
    columns = _statistic_columns(spec, dice, first_negative)
    row = [int(columns[name]) for name in spec.statistic_names]
    return JointDistribution(spec.statistic_names, np.array([row]), np.ones(1))


def _faces_by_die(groups: list, faces) -> Mapping:
    """``faces`` as a mapping die name -> faces (a list is the faces of a roll of one die
    type); a name the roll has no dice of is refused."""
    if not isinstance(faces, Mapping):
        if len(groups) > 1:
            raise WorkbenchError("faces: this roll mixes " + ", ".join(d.name for d, _ in groups)
                                 + "; give a mapping name -> faces")
        faces = {groups[0][0].name: faces} if groups else {}
    known = {die.name for die, _ in groups}
    for name, given in faces.items():
        if name not in known and len(given):
            raise WorkbenchError(f"faces: the roll has no {name} dice (it has: {', '.join(sorted(known)) or 'none'})")
    return faces


def _read_dice(spec: RollSpec, groups: list, faces: Mapping) -> tuple[list, list]:
    """The dice that stay in the roll, ``(die name, value, {count: score})`` each, after
    rerolls and kept dice; and per die whether its first face was negative."""
    counts = spec.count_names
    dice = []   # (die name, value, {count: score})
    first_negative = []   # per die: its first face was negative
    left = spec.rerolls
    for die, n in groups:
        queue = [_face_number(f) for f in faces.get(die.name, [])]
        used = 0
        mine = []
        for _ in range(n):
            start = used
            value, scored, used = _one_die(die, queue, used, counts)
            negative = not isinstance(die, Percentile) and die.values[queue[start] - 1] < 0
            mine.append([die.name, value, scored, negative])
        for entry in mine:   # rerolls: the first misses, type by type; the new roll counts
            if left and entry[1] == 0:
                value, scored, used = _one_die(die, queue, used, counts)
                entry[1:] = [value, scored, False]
                left -= 1
        if used != len(queue):
            raise WorkbenchError(f"faces: {len(queue) - used} {die.name} face(s) left over; the roll has "
                                 f"{n} {die.name} plus one face per explosion and per reroll")
        if spec.kept is not None and die.name == spec.kept.dice:
            mine = sorted(mine, key=lambda d: (d[1], tuple(d[2].values())),
                          reverse=spec.kept.order == "highest")[:spec.kept.take]
        dice += [tuple(entry[:3]) for entry in mine]
        first_negative += [entry[3] for entry in mine]
    return dice, first_negative


def _statistic_columns(spec: RollSpec, dice: list, first_negative: list) -> dict:
    """Every statistic of the roll read from its dice: the counts, the statistics, the
    derived statistics the total reads, the total (modifier, floor, ceiling), the rest."""
    columns = dict(spec.values)
    for name in spec.count_names:
        columns[name] = sum(c[name] for _, _, c in dice)
    for stat in spec.stats:
        if isinstance(stat, AllNegative):
            columns[stat.name] = int(bool(first_negative) and all(first_negative))
        elif not isinstance(stat, Derived):
            columns[stat.name] = _statistic(stat, dice, spec)
    early = spec.derived_before_total
    for stat in spec.stats:   # the derived statistics the total may read come first
        if isinstance(stat, Derived) and stat.name in early:
            columns[stat.name] = _evaluated(stat.expression, columns)
    total = sum(v for _, v, _ in dice) if spec.total is None else _evaluated(spec.total, columns)
    total += spec.modifier
    if spec.floor is not None:
        total = max(total, spec.floor)
    if spec.ceiling is not None:
        total = min(total, spec.ceiling)
    columns["total"] = total
    for stat in spec.stats:
        if isinstance(stat, Derived) and stat.name not in early:
            columns[stat.name] = _evaluated(stat.expression, columns)
    return columns


def _face_number(face) -> int:
    if isinstance(face, bool) or not hasattr(face, "__index__"):
        raise WorkbenchError(f"faces: a face is a whole number, got {face!r}")
    return int(face.__index__())


def _one_die(die, queue, used, count_names):
    """(value, counts, faces used) of one die and its explosion chain."""
    if isinstance(die, Percentile):
        result = _take(die.name, queue, used, 100)
        return result, dict.fromkeys(count_names, 0), used + 1
    value, scored, kind, extra = 0, dict.fromkeys(count_names, 0), die, 0
    while True:
        face = _take(die.name, queue, used, kind.sides)
        used += 1
        value += kind.values[face - 1]
        for name, scores in kind.counts:
            scored[name] += scores[face - 1]
        if not kind.explodes[face - 1] or (die.limit and extra >= die.limit):
            return value, scored, used
        kind, extra = kind.next, extra + 1


def _take(name, queue, used, sides) -> int:
    if used >= len(queue):
        raise WorkbenchError(f"faces: {name} needs more faces than the {len(queue)} given "
                             "(each exploding face needs one more)")
    face = queue[used]
    if not 1 <= face <= sides:
        raise WorkbenchError(f"faces: a {name} shows 1 to {sides}, got {face}")
    return face


def _score(spec: RollSpec, score: str, value: int, scored: dict) -> int:
    if score == "value":
        return value
    if score in scored:
        return scored[score]
    return _evaluated(parse(score), {"value": value, **scored})


def _ranked(dice):
    return sorted(dice, key=lambda d: (d[1], tuple(d[2].values())), reverse=True)


def _statistic(stat, dice, spec):
    chosen = [d for d in dice if not stat.dice or d[0] in stat.dice]
    if isinstance(stat, Sum):
        return sum(_score(spec, stat.score, v, c) for _, v, c in chosen)
    if isinstance(stat, Keep):
        ranked, n = _ranked(chosen), len(chosen)
        if stat.order == "middle":
            low = max((n - stat.take) // 2, 0)
            picked = ranked[low:low + stat.take]
        else:
            ranked = ranked if stat.order == "highest" else ranked[::-1]
            picked = ranked[stat.skip:stat.skip + stat.take]
        return sum(_score(spec, stat.score, v, c) for _, v, c in picked)
    if isinstance(stat, Pick):
        ranked = _ranked(chosen)
        if stat.order == "middle":
            index = (len(ranked) - 1) // 2
        else:
            ranked, index = (ranked if stat.order == "highest" else ranked[::-1]), stat.position
        return ranked[index][1] if index < len(ranked) else 0
    others = [v for name, v, _ in dice if name in getattr(stat, "against", ())]
    mine = [v for _, v, _ in chosen]
    if isinstance(stat, Beats):
        return sum(1 for a in mine for b in others if a > b)
    if isinstance(stat, Pairs):
        pairs = zip(sorted(mine, reverse=True), sorted(others, reverse=True))
        return sum(1 for a, b in pairs if a > b or (a == b and stat.ties == "dice"))
    sizes = Counter(mine)
    if isinstance(stat, LargestSet):
        if not sizes:
            return 0
        widest = max(sizes.values())
        return widest if stat.report == "size" else max(v for v, k in sizes.items() if k == widest)
    if isinstance(stat, Sets):
        return sum(1 for k in sizes.values() if k >= stat.size)
    raise WorkbenchError(f"unknown statistic {stat!r}")


def _evaluated(expression, columns) -> int:
    return int(np.asarray(evaluate(expression, columns)).reshape(-1)[0])


def score_scored(spec: ScoredRoll, faces) -> JointDistribution:
    """A roll scored by a Python function, for concrete values: one per die (an exploding
    die's chain as its sum), as a list for one die type or a mapping name -> list."""
    groups = [(die, n) for die, n in spec.groups if n > 0]
    if not isinstance(faces, Mapping):
        if len(groups) > 1:
            raise WorkbenchError("faces: this roll mixes " + ", ".join(d.name for d, _ in groups)
                                 + "; give a mapping name -> values")
        faces = {groups[0][0].name: faces} if groups else {}
    per_group = []
    for die, n in groups:
        given = [_face_number(f) for f in faces.get(die.name, [])]
        if len(given) != n:
            raise WorkbenchError(f"faces: {die.name} needs {n} values (one per die), got {len(given)}")
        per_group.append(tuple(sorted(given, reverse=True)))
    row, names = read_score(spec.score(shown_roll(spec, groups, per_group)), None)  # as the enumeration reads it
    return JointDistribution(names, np.array([row]), np.ones(1))
