"""Brute force for rolls with statistics, rerolls of misses, kept dice, all-negative rolls,
rerolls by face (pushes) and rolls made again: every face of every die, one combination at a
time. Imports nothing of the workbench.

Each initial die is enumerated as its whole explosion chain (value and counts summed, the
first face's sign kept; a die that does not explode face by face), chains less likely than
:data:`CUTOFF` left out. For each combination of chains: the first misses (value 0, in the
order of the groups, at most ``rerolls``) are enumerated again as fresh chains; the dice
showing a face rerolled by face too (when the push's condition holds on the first roll's
statistics); a die rolled again has no first roll (the all-negative statistic reads 0 for
it). Then only the highest (lowest) dice of the kept type stay; every statistic is read from
the dice that stay with ``sorted`` and ``Counter``, the total, the derived statistics and the
conditions by Python's ``eval`` of their text (the tests write expressions that mean the same
in Python). A roll made again: the one roll's rows (modifier, floor and ceiling left for
later) added up while the condition holds on the newest, then the modifier, floor and
ceiling on the summed total.
"""
from __future__ import annotations

import itertools
from collections import Counter, defaultdict



def _kind(thing) -> str:
    """What a die or statistic is, by its class's name: the reference imports nothing of the
    workbench (it would share the bugs it is there to catch)."""
    return type(thing).__name__

CUTOFF = 1e-13
"""Chains less likely than this are left out."""


def chains(die, count_names):
    """[(value, counts tuple, first face negative, first face, probability)] of one die and
    its chain (``first face`` is ``None`` for dice that explode or percentile dice)."""
    if _kind(die) == "Percentile":
        found = defaultdict(float)
        tens_dice = 1 + abs(die.extra)
        for units in range(10):
            for tens in itertools.product(range(10), repeat=tens_dice):
                reads = [100 if t == 0 and units == 0 else 10 * t + units for t in tens]
                found[min(reads) if die.extra > 0 else max(reads)] += 0.1 ** (1 + tens_dice)
        zeros = (0,) * len(count_names)
        return [(value, zeros, False, None, p) for value, p in found.items()]
    mine = dict(die.counts)
    if not any(die.explodes):
        return [(die.values[f], tuple(mine[name][f] if name in mine else 0 for name in count_names),
                 die.values[f] < 0, f + 1, 1.0 / die.sides) for f in range(die.sides)]
    out = defaultdict(float)

    def follow(kind, value, counts, negative, p, extra):
        for face in range(kind.sides):
            own = dict(kind.counts)
            v = value + kind.values[face]
            c = tuple(a + (own[name][face] if name in own else 0) for a, name in zip(counts, count_names))
            first = kind.values[face] < 0 if negative is None else negative
            q = p / kind.sides
            if kind.explodes[face] and not (die.limit and extra >= die.limit):
                if q > CUTOFF:
                    follow(kind.next, v, c, first, q, extra + 1)
            else:
                out[(v, c, first)] += q

    follow(die, 0, (0,) * len(count_names), None, 1.0, 0)
    return [(v, c, n, None, p) for (v, c, n), p in out.items()]


FUNCTIONS = {"min": min, "max": max, "abs": abs}


def _eval(text, names):
    return int(eval(text, dict(FUNCTIONS), dict(names)))


def brute_joint(spec) -> dict:
    """{row of ``spec.statistic_names``: probability}."""
    if spec.again is not None:
        return _rolled_again(spec)
    counts = spec.count_names
    dice = []   # (die name, chains) per initial die, in the order of the groups
    for die, n in spec.groups:
        outcomes = chains(die, counts)
        dice += [(die.name, outcomes)] * n
    joint: dict = defaultdict(float)
    for combo in itertools.product(*[outcomes for _, outcomes in dice]):
        p = 1.0
        for chain in combo:
            p *= chain[4]
        missed = [i for i, chain in enumerate(combo) if chain[0] == 0][:spec.rerolls]
        for again in itertools.product(*[dice[i][1] for i in missed]):
            q = p
            rolled = list(combo)
            for i, chain in zip(missed, again):
                rolled[i] = (*chain[:2], False, *chain[3:])   # rolled again: no first roll
                q *= chain[4]
            named = [(name, chain) for (name, _), chain in zip(dice, rolled)]
            for row, r in _pushed(spec, dice, named):
                joint[row] += q * r
    return dict(joint)


def _pushed(spec, dice, rolled):
    """[(row, probability)] of a roll after its reroll by face (if any)."""
    first = _read(spec, rolled)
    push = spec.reroll_faces
    if push is None:
        return [(first, 1.0)]
    if push.condition is not None:
        named = dict(zip(spec.statistic_names, first))
        if not _eval(push.condition.text, {**dict(spec.values), **named}):
            return [(first, 1.0)]
    again = [i for i, (name, chain) in enumerate(rolled) if chain[3] in push.of(name)]
    if not again:
        return [(first, 1.0)]
    out = []
    for fresh in itertools.product(*[dice[i][1] for i in again]):
        now = list(rolled)
        r = 1.0
        for i, chain in zip(again, fresh):
            now[i] = (now[i][0], (*chain[:2], False, *chain[3:]))
            r *= chain[4]
        out.append((_read(spec, now), r))
    return out


def _rolled_again(spec) -> dict:
    """The one roll's rows added while the condition holds on the newest (see the docstring)."""
    from dataclasses import replace

    one = brute_joint(replace(spec, again=None, modifier=0, floor=None, ceiling=None))
    names = spec.statistic_names
    go = {row: _eval(spec.again.condition.text, {**dict(spec.values), **dict(zip(names, row))})
          for row in one}
    done: dict = defaultdict(float)
    rolling = {(row, row): p for row, p in one.items()}   # (sums so far, newest roll): chance
    rolls = 1
    while rolling:
        further: dict = defaultdict(float)
        for (sums, newest), p in rolling.items():
            if (spec.again.limit and rolls == spec.again.limit + 1) or not go[newest]:
                done[sums] += p
                continue
            for row, q in one.items():
                if p * q > CUTOFF:
                    further[(tuple(a + b for a, b in zip(sums, row)), row)] += p * q
        rolling = further
        rolls += 1
    out: dict = defaultdict(float)
    for row, p in done.items():
        total = row[0] + spec.modifier
        if spec.floor is not None:
            total = max(total, spec.floor)
        if spec.ceiling is not None:
            total = min(total, spec.ceiling)
        out[(total, *row[1:])] += p
    return dict(out)


def _ranked(dice):
    """Highest first: by value, then by the counts in order."""
    return sorted(dice, key=lambda d: (d[1], d[2]), reverse=True)


def _read(spec, rolled):
    """The row of statistics of dice ``(type, chain)`` (before any reroll by face)."""
    dice = [(name, chain[0], chain[1], chain[2]) for name, chain in rolled]   # type, value, counts, negative
    if spec.kept is not None:
        mine = _ranked([d for d in dice if d[0] == spec.kept.dice])
        stay = mine[:spec.kept.take] if spec.kept.order == "highest" else mine[len(mine) - spec.kept.take:]
        dice = [d for d in dice if d[0] != spec.kept.dice] + stay
    negative = bool(dice) and all(d[3] for d in dice)   # the dice that stay
    dice = [d[:3] for d in dice]
    counts = spec.count_names
    names = dict(spec.values)
    for j, name in enumerate(counts):
        names[name] = sum(d[2][j] for d in dice)
    for stat in spec.stats:
        if _kind(stat) == "AllNegative":
            names[stat.name] = int(negative)
        elif not _kind(stat) == "Derived":
            names[stat.name] = _statistic(stat, dice, counts)
    early = spec.derived_before_total
    for stat in spec.stats:
        if _kind(stat) == "Derived" and stat.name in early:
            names[stat.name] = _eval(stat.expression.text, names)
    total = sum(d[1] for d in dice) if spec.total is None else _eval(spec.total.text, names)
    total += spec.modifier
    if spec.floor is not None:
        total = max(total, spec.floor)
    if spec.ceiling is not None:
        total = min(total, spec.ceiling)
    names["total"] = total
    for stat in spec.stats:
        if _kind(stat) == "Derived" and stat.name not in early:
            names[stat.name] = _eval(stat.expression.text, names)
    return tuple(int(names[name]) for name in spec.statistic_names)


def _score(score, value, counts, count_names):
    if score == "value":
        return value
    names = {"value": value, **dict(zip(count_names, counts))}
    if score in names:
        return names[score]
    return _eval(score, names)


def _statistic(stat, dice, count_names):
    chosen = [d for d in dice if not stat.dice or d[0] in stat.dice]
    if _kind(stat) == "Sum":
        return sum(_score(stat.score, v, c, count_names) for _, v, c in chosen)
    if _kind(stat) == "Keep":
        ranked = _ranked(chosen)
        if stat.order == "middle":
            low = max((len(ranked) - stat.take) // 2, 0)
            picked = ranked[low:low + stat.take]
        elif stat.order == "highest":
            picked = ranked[stat.skip:stat.skip + stat.take]
        else:
            picked = ranked[::-1][stat.skip:stat.skip + stat.take]
        return sum(_score(stat.score, v, c, count_names) for _, v, c in picked)
    if _kind(stat) == "Pick":
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
    if _kind(stat) == "Beats":
        return sum(1 for a in mine for b in theirs if a > b)
    if _kind(stat) == "Pairs":
        pairs = zip(sorted(mine, reverse=True), sorted(theirs, reverse=True))
        return sum(1 for a, b in pairs if a > b or (a == b and stat.ties == "dice"))
    sizes = Counter(mine)
    if _kind(stat) == "LargestSet":
        if not sizes:
            return 0
        widest = max(sizes.values())
        return widest if stat.report == "size" else max(v for v, k in sizes.items() if k == widest)
    if _kind(stat) == "Sets":
        return sum(1 for k in sizes.values() if k >= stat.size)
    raise AssertionError(stat)
