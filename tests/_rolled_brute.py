"""Brute force for rolls with statistics, rerolls of misses, kept dice and all-negative rolls:
every face of every die, one combination at a time. Independent of ``workbench.engine``.

Each initial die is enumerated as its whole explosion chain (value and counts summed, the
first face's sign kept), chains less likely than :data:`CUTOFF` left out. For each
combination of chains: the first misses (value 0, in the order of the groups, at most
``rerolls``) are enumerated again as fresh chains; then only the highest (lowest) dice of the
kept type stay; then every statistic is read from the dice with ``sorted`` and ``Counter``,
the total and the derived statistics by Python's ``eval`` of their text (the tests write
expressions that mean the same in Python).
"""
from __future__ import annotations

import itertools
from collections import Counter, defaultdict

from workbench.rules.roll import (AllNegative, Beats, Derived, Keep, LargestSet, Pairs, Percentile,
                                  Pick, Sets, Sum)

CUTOFF = 1e-13
"""Chains less likely than this are left out."""


def chains(die, count_names):
    """[(value, counts tuple, first face negative, probability)] of one die and its chain."""
    if isinstance(die, Percentile):
        found = defaultdict(float)
        tens_dice = 1 + abs(die.extra)
        for units in range(10):
            for tens in itertools.product(range(10), repeat=tens_dice):
                reads = [100 if t == 0 and units == 0 else 10 * t + units for t in tens]
                found[min(reads) if die.extra > 0 else max(reads)] += 0.1 ** (1 + tens_dice)
        zeros = (0,) * len(count_names)
        return [(value, zeros, False, p) for value, p in found.items()]
    out = defaultdict(float)

    def follow(kind, value, counts, negative, p, extra):
        for face in range(kind.sides):
            mine = dict(kind.counts)
            v = value + kind.values[face]
            c = tuple(a + (mine[name][face] if name in mine else 0) for a, name in zip(counts, count_names))
            first = kind.values[face] < 0 if negative is None else negative
            q = p / kind.sides
            if kind.explodes[face] and not (die.limit and extra >= die.limit):
                if q > CUTOFF:
                    follow(kind.next, v, c, first, q, extra + 1)
            else:
                out[(v, c, first)] += q

    follow(die, 0, (0,) * len(count_names), None, 1.0, 0)
    return [(v, c, n, p) for (v, c, n), p in out.items()]


def brute_joint(spec) -> dict:
    """{row of ``spec.statistic_names``: probability}."""
    counts = spec.count_names
    dice = []   # (die name, chains) per initial die, in the order of the groups
    for die, n in spec.groups:
        outcomes = chains(die, counts)
        dice += [(die.name, outcomes)] * n
    joint: dict = defaultdict(float)
    for combo in itertools.product(*[outcomes for _, outcomes in dice]):
        p = 1.0
        for chain in combo:
            p *= chain[3]
        missed = [i for i, chain in enumerate(combo) if chain[0] == 0][:spec.rerolls]
        for again in itertools.product(*[dice[i][1] for i in missed]):
            q = p
            rolled = list(combo)
            for i, chain in zip(missed, again):
                rolled[i] = chain
                q *= chain[3]
            row = _read(spec, [(name, chain) for (name, _), chain in zip(dice, rolled)],
                        negative=bool(dice) and all(chain[2] for chain in combo))
            joint[row] += q
    return dict(joint)


def _ranked(dice):
    """Highest first: by value, then by the counts in order."""
    return sorted(dice, key=lambda d: (d[1], d[2]), reverse=True)


def _read(spec, rolled, negative):
    dice = [(name, chain[0], chain[1]) for name, chain in rolled]   # (type, value, counts)
    if spec.kept is not None:
        mine = _ranked([d for d in dice if d[0] == spec.kept.dice])
        stay = mine[:spec.kept.take] if spec.kept.order == "highest" else mine[len(mine) - spec.kept.take:]
        dice = [d for d in dice if d[0] != spec.kept.dice] + stay
    counts = spec.count_names
    names = dict(spec.values)
    for j, name in enumerate(counts):
        names[name] = sum(d[2][j] for d in dice)
    for stat in spec.stats:
        if isinstance(stat, AllNegative):
            names[stat.name] = int(negative)
        elif not isinstance(stat, Derived):
            names[stat.name] = _statistic(stat, dice, counts)
    early = spec.derived_before_total
    for stat in spec.stats:
        if isinstance(stat, Derived) and stat.name in early:
            names[stat.name] = int(eval(stat.expression.text, {"min": min, "max": max, "abs": abs}, dict(names)))
    total = sum(d[1] for d in dice) if spec.total is None else int(
        eval(spec.total.text, {"min": min, "max": max, "abs": abs}, dict(names)))
    total += spec.modifier
    if spec.floor is not None:
        total = max(total, spec.floor)
    if spec.ceiling is not None:
        total = min(total, spec.ceiling)
    names["total"] = total
    for stat in spec.stats:
        if isinstance(stat, Derived) and stat.name not in early:
            names[stat.name] = int(eval(stat.expression.text, {"min": min, "max": max, "abs": abs}, dict(names)))
    return tuple(int(names[name]) for name in spec.statistic_names)


def _score(score, value, counts, count_names):
    if score == "value":
        return value
    names = {"value": value, **dict(zip(count_names, counts))}
    if score in names:
        return names[score]
    return int(eval(score, {"min": min, "max": max, "abs": abs}, names))


def _statistic(stat, dice, count_names):
    chosen = [d for d in dice if not stat.dice or d[0] in stat.dice]
    if isinstance(stat, Sum):
        return sum(_score(stat.score, v, c, count_names) for _, v, c in chosen)
    if isinstance(stat, Keep):
        ranked = _ranked(chosen)
        if stat.order == "middle":
            low = max((len(ranked) - stat.take) // 2, 0)
            picked = ranked[low:low + stat.take]
        elif stat.order == "highest":
            picked = ranked[stat.skip:stat.skip + stat.take]
        else:
            picked = ranked[::-1][stat.skip:stat.skip + stat.take]
        return sum(_score(stat.score, v, c, count_names) for _, v, c in picked)
    if isinstance(stat, Pick):
        ranked = _ranked(chosen)
        if stat.order == "middle":
            index = (len(ranked) - 1) // 2
        elif stat.order == "highest":
            index = stat.position
        else:
            ranked, index = ranked[::-1], stat.position
        return ranked[index][1] if 0 <= index < len(ranked) else 0
    mine = [v for _, v, _ in chosen]
    theirs = [v for name, v, _ in dice if name in getattr(stat, "against", ())]
    if isinstance(stat, Beats):
        return sum(1 for a in mine for b in theirs if a > b)
    if isinstance(stat, Pairs):
        pairs = zip(sorted(mine, reverse=True), sorted(theirs, reverse=True))
        return sum(1 for a, b in pairs if a > b or (a == b and stat.ties == "dice"))
    sizes = Counter(mine)
    if isinstance(stat, LargestSet):
        if not sizes:
            return 0
        widest = max(sizes.values())
        return widest if stat.report == "size" else max(v for v, k in sizes.items() if k == widest)
    if isinstance(stat, Sets):
        return sum(1 for k in sizes.values() if k >= stat.size)
    raise AssertionError(stat)
