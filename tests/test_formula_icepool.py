"""One-line formulas against an independent reference, icepool (the dev extra: required, never
skipped), on more than 50 expressions, each written again in icepool's own terms."""
from __future__ import annotations

import icepool
import pytest

import workbench as wb

d4, d6, d8, d10, d12, d20 = (icepool.d(n) for n in (4, 6, 8, 10, 12, 20))
dF = icepool.Die([-1, 0, 1])
DEEP = 30   # explosion depth in icepool: what is left beyond is far below the tolerance


def chain_count(die, explode_on, score, depth=DEEP):
    """One exploding die's count: what each result scores, summed over its chain (every
    explosion a result of its own)."""
    if depth == 0:
        return die.map(score)
    rest = chain_count(die, explode_on, score, depth - 1)
    return die.map(lambda v: score(v) + (rest if explode_on(v) else 0))


def cs(die, test):
    return die.map(lambda v: int(test(v)))


REFERENCE = {
    "3d6": lambda: 3 @ d6,
    "1d20": lambda: d20,
    "d20+5": lambda: d20 + 5,
    "2d6-1d4+3": lambda: 2 @ d6 - d4 + 3,
    "1d8-2": lambda: d8 - 2,
    "2d4+2d6+1d8": lambda: 2 @ d4 + 2 @ d6 + d8,
    "4dF": lambda: 4 @ dF,
    "4dF+2": lambda: 4 @ dF + 2,
    "d%": lambda: icepool.d(100),
    "1d12-1d12": lambda: d12 - d12,
    "4d6kh3": lambda: d6.pool(4).highest(3).sum(),
    "4d6dl1": lambda: d6.pool(4).highest(3).sum(),
    "2d20kh": lambda: d20.pool(2).highest(1).sum(),
    "2d20kl": lambda: d20.pool(2).lowest(1).sum(),
    "2d20kh+7": lambda: d20.pool(2).highest(1).sum() + 7,
    "3d20km": lambda: d20.pool(3).middle(1).sum(),
    "5d10km3": lambda: d10.pool(5).middle(3).sum(),
    "6d6kh3": lambda: d6.pool(6).highest(3).sum(),
    "6d6kl2": lambda: d6.pool(6).lowest(2).sum(),
    "5d8dh2": lambda: d8.pool(5).lowest(3).sum(),
    "10d6kh1": lambda: d6.pool(10).highest(1).sum(),
    "3d6kh2+1d4": lambda: d6.pool(3).highest(2).sum() + d4,
    "4dFkl2": lambda: dF.pool(4).lowest(2).sum(),
    "1d6x": lambda: d6.explode(depth=DEEP),
    "3d6x": lambda: 3 @ d6.explode(depth=DEEP),
    "2d10x>=9": lambda: 2 @ d10.explode([9, 10], depth=DEEP),
    "1d8x": lambda: d8.explode(depth=DEEP),
    "2d6xo": lambda: 2 @ d6.explode(depth=1),
    "1d4x=1": lambda: d4.explode([1], depth=DEEP),
    "1d6x+1d8x": lambda: d6.explode(depth=DEEP) + d8.explode(depth=DEEP),
    "2d6r1": lambda: 2 @ d6.reroll([1], depth=1),
    "1d20r<=2": lambda: d20.reroll([1, 2], depth=1),
    "3d6rr1": lambda: 3 @ d6.reroll([1], depth="inf"),
    "2d10rr<3": lambda: 2 @ d10.reroll([1, 2], depth="inf"),
    "4d6r1kh3": lambda: d6.reroll([1], depth=1).pool(4).highest(3).sum(),
    "2d8r1x": lambda: 2 @ d8.reroll([1], depth=1).map(lambda v: v + (d8.explode(depth=DEEP) if v == 8 else 0)),
    "3d6min2": lambda: 3 @ d6.clip(2, None),
    "3d6max5": lambda: 3 @ d6.clip(None, 5),
    "2d10min3max8": lambda: 2 @ d10.clip(3, 8),
    "1d6xmax5": lambda: chain_count(d6, lambda v: v == 6, lambda v: min(v, 5)),
    "6d6cs>=5": lambda: 6 @ cs(d6, lambda v: v >= 5),
    "8d10cs>=8": lambda: 8 @ cs(d10, lambda v: v >= 8),
    "10d10cs>=7": lambda: 10 @ cs(d10, lambda v: v >= 7),
    "5d6cs<3": lambda: 5 @ cs(d6, lambda v: v < 3),
    "4d12cs=12": lambda: 4 @ cs(d12, lambda v: v == 12),
    "8d10cs>=8x": lambda: 8 @ chain_count(d10, lambda v: v == 10, lambda v: int(v >= 8)),
    "6d6xcs>=5": lambda: 6 @ chain_count(d6, lambda v: v == 6, lambda v: int(v >= 5)),
    "6d10cs>=8df=1": lambda: 6 @ d10.map(lambda v: -1 if v == 1 else int(v >= 8)),
    "5d6df=1": lambda: 5 @ d6.map(lambda v: -1 if v == 1 else v),
    "7d10cs>=7dbl=10": lambda: 7 @ d10.map(lambda v: 2 if v == 10 else int(v >= 7)),
    "5d6kh3cs>=4": lambda:
        icepool.map(lambda *vs: sum(v >= 4 for v in sorted(vs)[-3:]), *[d6] * 5),
    "{1d8x, 1d6x}kh": lambda: icepool.highest(d8.explode(depth=DEEP), d6.explode(depth=DEEP)),
    "{1d20, 1d20}kl+3": lambda: icepool.lowest(d20, d20) + 3,
    "{2d6, 1d12}kh": lambda: icepool.highest(2 @ d6, d12),
    "{1d10+2, 2d6}kl": lambda: icepool.lowest(d10 + 2, 2 @ d6),
    "{1d6, 1d8, 1d10}kh2": lambda: icepool.Pool([d6, d8, d10]).highest(2).sum(),
    "{1d20, 10}kh": lambda: icepool.highest(d20, icepool.Die([10])),
    "{1d10, 1d10, 1d10}cs>=6": lambda: 3 @ cs(d10, lambda v: v >= 6),
    "{3d6, 3d6}": lambda: 6 @ d6,
    "1d20+{1d4, 1d6}kh": lambda: d20 + icepool.highest(d4, d6),
}


@pytest.mark.parametrize("formula", list(REFERENCE))
def test_formula_equals_icepool(formula):
    die = REFERENCE[formula]()
    total = die.denominator()
    want = {int(o): die.quantity(o) / total for o in die.outcomes()}
    result = wb.check(formula)
    got = {int(o): p for o, p in result.pmf.to_dict().items()}
    tolerance = 1e-9 + result.lost_mass
    for outcome in set(got) | set(want):
        assert abs(got.get(outcome, 0.0) - want.get(outcome, 0.0)) <= tolerance, (formula, outcome)


def test_fifty_or_more_expressions():
    assert len(REFERENCE) >= 50
