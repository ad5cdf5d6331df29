"""The pool data files' newest verbs against a brute force over every face (seeded random
files): ``reroll = [faces]`` with ``if_roll`` (a push), ``keep_highest``/``keep_lowest`` beside
counts and statistics (ties ranked by counts), ``again_if`` (doubles roll over), and a
simulation of each against the exact answer."""
from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict
from functools import lru_cache

import pytest

import workbench as wb
from conftest import pool_toml


def exact(pmf) -> dict:
    return {int(k): p for k, p in pmf.to_dict().items()}


def assert_same(got: dict, want: dict, tolerance: float = 1e-9):
    for outcome in set(got) | set(want):
        assert abs(got.get(outcome, 0) - want.get(outcome, 0)) <= tolerance, outcome


def push_case(rng):
    """A pool of d4s or d6s counting successes and banes, pushed on some faces when a
    condition holds on the first roll: (file keywords, brute-force pmf)."""
    sides, n = rng.choice([4, 6]), rng.randint(1, 4)
    faces = sorted(rng.sample(range(1, sides + 1), rng.randint(1, sides - 1)))
    condition = rng.choice(["succ == 0", "banes >= 1", "succ + banes < 2", "total <= 1", None])
    top, by_count = rng.choice([sides, sides - 1]), rng.random() < 0.5
    if_roll = "" if condition is None else f', if_roll = "{condition}"'
    keys = dict(die=f'sides = {sides}\ncounts = {{ succ = "face >= {top}", banes = "face == 1" }}',
                dice=n, top='total = "succ"' if by_count else "", more=f"""
[params.push]
choices = ["never", "yes"]
default = "yes"
on.yes.effect = {{ reroll = {faces}{if_roll} }}
""")

    def read(roll):
        succ, banes = sum(f >= top for f in roll), sum(f == 1 for f in roll)
        return {"succ": succ, "banes": banes, "total": succ if by_count else sum(roll)}
    want = defaultdict(float)
    for first in itertools.product(range(1, sides + 1), repeat=n):
        p, seen = 1 / sides ** n, read(first)
        if condition is not None and not eval(condition, {}, seen):
            want[seen["total"]] += p
            continue
        again = [i for i, f in enumerate(first) if f in faces]
        for new in itertools.product(range(1, sides + 1), repeat=len(again)):
            roll = list(first)
            for i, v in zip(again, new):
                roll[i] = v
            want[read(roll)["total"]] += p / sides ** len(again)
    return keys, dict(want)


def keep_case(rng):
    """Dice whose faces share values (ties ranked by a count, more first), an extra die kept
    best or worst per point, a statistic over the kept dice."""
    size = rng.choice([3, 4, 5])
    values = [rng.randint(0, 2) for _ in range(size)]
    crit = rng.randint(1, size)
    n, points = rng.randint(0, 3), rng.randint(-2, 2)
    word = rng.choice(["keep_highest", "keep_lowest"])
    total = rng.choice(["crit", "crit * 10 + hi", None, "lo"])
    keys = dict(die=f'faces = {values}\ncounts = {{ crit = "face == {crit}" }}', dice=n,
                top=f'total = "{total}"' if total else "", more=f"""
[params.adv]
default = {points}
min = -3
max = 3
effect = {{ {word} = "d6" }}

[stats.hi]
pick = "highest"

[stats.lo]
keep = "lowest"
count = 2
score = "crit"
""")

    def rank(face):
        return values[face - 1], int(face == crit)
    want = defaultdict(float)
    for roll in itertools.product(range(1, size + 1), repeat=n + abs(points)):
        best = (word == "keep_highest") == (points > 0)
        kept = sorted(roll, key=rank, reverse=best)[:n] if points else list(roll)
        ranked = sorted(kept, key=rank)
        hi = values[ranked[-1] - 1] if ranked else 0
        lo = sum(f == crit for f in ranked[:2])
        crits = sum(f == crit for f in kept)
        want[{"crit": crits, "crit * 10 + hi": crits * 10 + hi, None: sum(values[f - 1] for f in kept),
              "lo": lo}[total]] += 1 / size ** (n + abs(points))
    return keys, dict(want)


def again_case(rng):
    """2dX rolled again and added while a condition holds on the newest roll (a cap or not)."""
    sides, limit = rng.choice([3, 4, 6]), rng.choice([0, 0, 1, 2])
    condition = rng.choice(["high == low", f"high + low >= {sides + 2}", f"high == {sides}"])
    text = f"""
id = "again"
name = "again"
mechanic = "pool"
total = "high + low"
again_if = "{condition}"
{f"again_limit = {limit}" if limit else ""}

[dice.d]
sides = {sides}
count = 2

[stats.high]
pick = "highest"

[stats.low]
pick = "lowest"
"""

    @lru_cache(maxsize=None)
    def rolls(left):   # left: rolls that may still be made again (-1: no cap); depth ~ 1e-15
        out = defaultdict(float)
        for a, b in itertools.product(range(1, sides + 1), repeat=2):
            high, low = max(a, b), min(a, b)
            if eval(condition, {}, {"high": high, "low": low}) and left != 0:
                for k, q in rolls(left - 1).items():
                    out[high + low + k] += q / sides ** 2
            else:
                out[high + low] += 1 / sides ** 2
        return dict(out)
    return text, rolls(limit if limit else 120)


@pytest.mark.parametrize("seed", range(3))
def test_pushes_keeps_and_rolls_again_equal_the_brute_force(pool_file, seed):
    rng = random.Random(seed)
    for i in range(5):
        keys, want = push_case(rng)
        assert_same(exact(wb.check(pool_file(file=f"push{i}.toml", **keys)).pmf), want)
        keys, want = keep_case(rng)
        assert_same(exact(wb.check(pool_file(file=f"keep{i}.toml", **keys)).pmf), want)
    for i in range(2):
        text, want = again_case(rng)
        result = wb.check(pool_file(text, file=f"again{i}.toml"))
        assert_same(exact(result.pmf), want, 1e-9 + result.lost_mass)


@pytest.mark.parametrize("case", [push_case, keep_case])
def test_a_simulation_agrees_with_the_exact_answer(pool_file, case):
    """Seeded: 40,000 rolls, every outcome within 5 standard errors (and none unreachable)."""
    keys, _ = case(random.Random(17))
    path = pool_file(**keys)
    trials = 20_000
    want, got = exact(wb.check(path).pmf), exact(wb.simulate(path, trials=trials, seed=2024).pmf)
    assert {k for k, p in got.items() if p > 0} <= {k for k, p in want.items() if p > 0}
    for outcome, p in want.items():
        assert abs(got.get(outcome, 0) - p) <= 5 * math.sqrt(p * (1 - p) / trials) + 1e-9, outcome
