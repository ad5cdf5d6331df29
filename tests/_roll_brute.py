"""Brute force for rolls with several statistics: every face of every die, one by one.

Independent of the engine: explosion chains are followed face by face (recursion), every
combination of the dice's chains is enumerated, and each statistic is computed from the
sorted list of dice as a player would (Python's ``sorted``, ``collections.Counter``). Derived
statistics and the total come as Python functions written beside their expression text, so
the expression language is checked too.

Nothing here imports the workbench (tests/test_architecture.py holds every reference module
to that): a roll's description is read by its fields, each statistic by its kind's name, and
the rules come from data/README.md's words, not from the engine's code. The middle dice, for
one: dice are dropped from the two ends in turn, the lowest first, until ``take`` are left
(so of two middles the higher stays, as the README says of ``pick = "middle"``).
"""
from __future__ import annotations

import itertools
from collections import Counter, defaultdict


def kind(thing) -> str:
    """What a piece of the roll's description is, by its class name (``"Keep"``, ...)."""
    return type(thing).__name__

CUTOFF = 1e-18
"""Chains less likely than this are left out (their mass is far below the tests' tolerance)."""


def die_chains(die, count_names):
    """[(value, counts dict, probability)] of one die with its explosions, face by face."""
    if kind(die) == "Percentile":
        return percentile_results(die.extra)
    memo: dict = {}
    merged = _chain(die, tuple(count_names), 1.0, 0, die.limit, memo)
    return [(value, dict(zip(count_names, counts)), p) for (value, counts), p in merged.items()]


def _chain(kind, count_names, reached, extra, limit, memo):
    """{(value, counts): probability} of the chain from one die of ``kind`` on (``extra`` dice
    already added, at most ``limit`` in all; 0: no cap); ``reached``: the probability that a
    chain is still rolling at this link (every chain rolls the same kinds of dice in the same
    order, so it depends on the link only, and the chain from here is worked out once)."""
    key = (id(kind), extra)
    if key in memo:
        return memo[key]
    out: dict = {}
    for face in range(kind.sides):
        p = 1.0 / kind.sides
        counts = dict.fromkeys(count_names, 0)
        for name, scores in kind.counts:
            counts[name] += scores[face]
        value, mine = kind.values[face], tuple(counts[n] for n in count_names)
        if kind.explodes[face] and not (limit and extra >= limit):
            rolling_on = reached * sum(kind.explodes) / kind.sides
            if rolling_on > CUTOFF:
                for (v, c), q in _chain(kind.next, count_names, rolling_on, extra + 1, limit, memo).items():
                    key_out = (value + v, tuple(a + b for a, b in zip(mine, c)))
                    out[key_out] = out.get(key_out, 0.0) + p * q
        else:
            out[(value, mine)] = out.get((value, mine), 0.0) + p
    memo[key] = out
    return out


def percentile_results(extra):
    """d100 with bonus (extra > 0) or penalty (extra < 0) tens dice, by enumeration."""
    results = defaultdict(float)
    for units in range(10):
        for tens in itertools.product(range(10), repeat=1 + abs(extra)):
            reads = [100 if t == 0 and units == 0 else 10 * t + units for t in tens]
            kept = min(reads) if extra > 0 else max(reads)
            results[kept] += 0.1 * 0.1 ** len(tens)
    return [(v, {}, p) for v, p in results.items()]


def brute_joint(spec, total=None, derived=None, values=None):
    """{tuple of statistics in ``spec.statistic_names`` order: probability}.

    ``total``: a Python function of the statistics dict for ``spec.total`` (``None``: the sum
    of every die's value); ``derived``: {name: function of the statistics dict}.
    """
    counts = spec.count_names
    dice = []
    for die, n in spec.groups:
        chains = die_chains(die, counts)
        dice += [(die.name, chains)] * n
    joint = defaultdict(float)
    for combo in itertools.product(*[chains for _, chains in dice]):
        p = 1.0
        rolled = []
        for (name, _), (value, c, q) in zip(dice, combo):
            p *= q
            rolled.append((name, value, c))
        stats = dict(values or {})
        for name in counts:
            stats[name] = sum(c[name] for _, _, c in rolled)
        for stat in spec.stats:
            if kind(stat) != "Derived":
                stats[stat.name] = _statistic(stat, rolled)
        raw_total = total(stats) if total else sum(v for _, v, _ in rolled)
        raw_total += spec.modifier
        if spec.floor is not None:
            raw_total = max(raw_total, spec.floor)
        if spec.ceiling is not None:
            raw_total = min(raw_total, spec.ceiling)
        stats["total"] = raw_total
        for stat in spec.stats:
            if kind(stat) == "Derived":
                stats[stat.name] = int(derived[stat.name](stats))
        joint[tuple(int(stats[name]) for name in spec.statistic_names)] += p
    return dict(joint)


def _chosen(rolled, names):
    return [r for r in rolled if not names or r[0] in names]


def _rank(rolled):
    """Dice highest first: by value, then by counts (more first), the count the roll names
    first deciding first (``r[2]`` holds the counts in the spec's order)."""
    return sorted(rolled, key=lambda r: (r[1], tuple(r[2].values())), reverse=True)


def _middle(ranked, take):
    """The ``take`` middle dice of ``ranked`` (highest first): drop the lowest, then the
    highest, then the lowest... until ``take`` are left."""
    left = list(ranked)
    from_bottom = True
    while len(left) > take:
        left.pop(-1 if from_bottom else 0)
        from_bottom = not from_bottom
    return left


def _statistic(stat, rolled):
    chosen = _chosen(rolled, stat.dice)
    what = kind(stat)
    if what == "Sum":
        return sum(v if stat.score == "value" else c[stat.score] for _, v, c in chosen)
    if what == "Keep":
        ranked = _rank(chosen)
        if stat.order == "highest":
            picked = ranked[stat.skip:stat.skip + stat.take]
        elif stat.order == "lowest":
            picked = list(reversed(ranked))[stat.skip:stat.skip + stat.take]
        else:
            picked = _middle(ranked, stat.take)
        return sum(v if stat.score == "value" else c[stat.score] for _, v, c in picked)
    if what == "Pick":
        ranked = _rank(chosen)
        if not ranked:
            return 0
        if stat.order == "middle":
            return _middle(ranked, 1)[0][1]
        if stat.order == "lowest":
            ranked = list(reversed(ranked))
        return ranked[stat.position][1] if stat.position < len(ranked) else 0
    if what == "Beats":
        mine = [v for _, v, _ in chosen]
        theirs = [v for _, v, _ in _chosen(rolled, stat.against)]
        return sum(1 for a in mine for b in theirs if a > b)
    if what == "Pairs":
        mine = sorted((v for _, v, _ in chosen), reverse=True)
        theirs = sorted((v for _, v, _ in _chosen(rolled, stat.against)), reverse=True)
        return sum(1 for a, b in zip(mine, theirs) if a > b or (a == b and stat.ties == "dice"))
    if what == "LargestSet":
        sizes = Counter(v for _, v, _ in chosen)
        if not sizes:
            return 0
        widest = max(sizes.values())
        return widest if stat.report == "size" else max(v for v, n in sizes.items() if n == widest)
    if what == "Sets":
        return sum(1 for n in Counter(v for _, v, _ in chosen).values() if n >= stat.size)
    raise AssertionError(stat)
