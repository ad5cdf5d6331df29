"""The roll engine (workbench.engine.evaluate) against brute force over every face.

Every statistic kind, mixed die types, explosions (capped, into other dice), counts, the total
as an expression, modifier, floor and ceiling, derived statistics, percentile dice; then
random small rolls from a fixed seed. Agreement is to 1e-12 on every joint outcome (chains
cut below 1e-18 in the brute force, below 1e-14 in the engine).
"""
from __future__ import annotations

import random

import pytest

from workbench.engine.evaluate import evaluate_roll
from workbench.errors import WorkbenchError
from workbench.rules.roll import (Beats, Derived, Die, Keep, LargestSet, Pairs, Percentile, Pick,
                                  RollSpec, Sets, Sum)

from _roll_brute import brute_joint

TOLERANCE = 1e-12


def joint_of(spec):
    joint = evaluate_roll(spec)
    return {tuple(int(v) for v in row): float(p) for row, p in zip(joint.values, joint.probabilities)}


def assert_same(spec, total=None, derived=None):
    mine = joint_of(spec)
    brute = brute_joint(spec, total, derived, dict(spec.values))
    keys = set(mine) | set(brute)
    worst = max(abs(mine.get(k, 0.0) - brute.get(k, 0.0)) for k in keys)
    assert worst <= TOLERANCE, (worst, sorted(keys)[:5])
    assert abs(sum(mine.values()) - 1.0) < 1e-12 + evaluate_roll(spec).lost_mass * 2


d4, d6, d8, d10, d12 = (Die.numbered(f"d{n}", n) for n in (4, 6, 8, 10, 12))
ones_d6 = Die.numbered("d6", 6, counts={"ones": [1, 0, 0, 0, 0, 0], "hits": [0, 0, 0, 0, 1, 1]})
exploding_d6 = Die.numbered("x6", 6, explodes=[False] * 5 + [True])
exploding_d4 = Die.numbered("x4", 4, explodes=[False] * 3 + [True], limit=2)


@pytest.mark.parametrize("order, take, skip", [("highest", 2, 0), ("lowest", 2, 0), ("middle", 1, 0),
                                               ("highest", 1, 1), ("lowest", 3, 1), ("middle", 2, 0)])
def test_keep_across_mixed_dice(order, take, skip):
    spec = RollSpec(((d4, 1), (d6, 2), (d8, 1)), stats=(Keep("kept", take=take, order=order, skip=skip),))
    assert_same(spec)


def test_keep_of_exploding_dice_of_two_types_and_the_total_as_kept():
    spec = RollSpec(((exploding_d6, 2), (exploding_d4, 1)), stats=(Keep("kept", take=2),), total="kept")
    assert_same(spec, total=lambda s: s["kept"])


@pytest.mark.parametrize("order, position", [("highest", 0), ("highest", 2), ("lowest", 0),
                                             ("lowest", 1), ("middle", 0), ("highest", 5)])
def test_pick_one_die_by_rank(order, position):
    spec = RollSpec(((d6, 2), (d8, 1)), stats=(Pick("picked", order=order, position=position),))
    assert_same(spec)


@pytest.mark.parametrize("stat", [Pick("mid", order="middle"), Keep("mid", take=1, order="middle"),
                                  Keep("mid", take=2, order="middle"), Keep("mid", take=3, order="middle")])
@pytest.mark.parametrize("groups", [((d4, 1), (d6, 2), (d8, 1)), ((d6, 3), (d8, 2)), ((d6, 2),)])
def test_middle_dice_of_even_and_odd_pools(stat, groups):
    """Even pools have two middles (the higher is picked); keeping 2 of 5 or 1 of 4 drops one
    more die from the bottom than from the top."""
    assert_same(RollSpec(groups, stats=(stat,)))


def test_counts_and_a_keep_over_some_types_only():
    spec = RollSpec(((ones_d6, 3), (d8, 2)), stats=(Keep("best_d8", take=1, dice=["d8"]),
                                                    Sum("d6_hits", score="hits", dice="d6")))
    assert_same(spec)


def test_keep_summing_a_count_breaks_ties_by_counts():
    faces = Die("f", (1, 1, 2, 2), counts={"gold": [0, 1, 0, 1]})
    spec = RollSpec(((faces, 3),), stats=(Keep("kept_gold", take=2, score="gold"),))
    assert_same(spec)


@pytest.mark.parametrize("first, second", [(1, 2), (2, 2), (3, 2), (2, 3)])
def test_beats_dice_against_dice(first, second):
    action = Die.numbered("action", 6)
    challenge = Die.numbered("challenge", 10)
    spec = RollSpec(((action, first), (challenge, second)), stats=(Beats("beaten", "action", "challenge"),))
    assert_same(spec)


@pytest.mark.parametrize("ties", ["against", "dice"])
@pytest.mark.parametrize("attack, defend", [(3, 2), (2, 2), (1, 2), (2, 3)])
def test_sorted_pairs_as_in_risk(attack, defend, ties):
    red = Die.numbered("red", 6)
    white = Die.numbered("white", 6)
    spec = RollSpec(((red, attack), (white, defend)), stats=(Pairs("won", "red", "white", ties=ties),))
    assert_same(spec)


def test_pairs_of_different_dice_with_explosions():
    spec = RollSpec(((exploding_d4, 2), (d6, 2)), stats=(Pairs("won", "x4", "d6"),))
    assert_same(spec)


@pytest.mark.parametrize("report", ["size", "value"])
def test_largest_set_of_mixed_dice(report):
    spec = RollSpec(((d6, 3), (d4, 2)), stats=(LargestSet("set", report=report),))
    assert_same(spec)


@pytest.mark.parametrize("size", [1, 2, 3])
def test_sets_of_matching_faces(size):
    spec = RollSpec(((d6, 4),), stats=(Sets("sets", size=size),))
    assert_same(spec)


def test_every_statistic_at_once_with_modifier_floor_and_ceiling():
    spec = RollSpec(((ones_d6, 2), (d4, 2)),
                    stats=(Keep("kept", take=2), Pick("low", order="lowest"), LargestSet("width"),
                           Sets("pairs"), Derived("botch", "hits == 0 and ones >= 1"),
                           Derived("margin", "total - skill // 2")),
                    total="kept + hits", modifier=-3, floor=0, ceiling=6, values={"skill": 7})
    assert_same(spec, total=lambda s: s["kept"] + s["hits"],
                derived={"botch": lambda s: s["hits"] == 0 and s["ones"] >= 1,
                         "margin": lambda s: s["total"] - s["skill"] // 2})


def test_explosions_into_another_die_with_counts():
    d8 = Die("d8", (0, 0, 0, 0, 1, 1, 1, 1), counts={"crits": [0] * 7 + [1]},
             explodes=[False] * 7 + [True], into=ones_d6)
    spec = RollSpec(((d8, 2), (ones_d6, 1)), stats=(Pick("top"),))
    assert_same(spec)


def test_a_die_that_explodes_into_itself_at_most_twice():
    spec = RollSpec(((exploding_d4, 3),), stats=(LargestSet("width"), Keep("kept", take=2)))
    assert_same(spec)


@pytest.mark.parametrize("extra", [0, 1, 2, -1, -2])
def test_percentile_dice_with_bonus_and_penalty_dice(extra):
    spec = RollSpec(((Percentile("d100", extra=extra), 1),),
                    stats=(Derived("hard", "total <= skill // 2"),), values={"skill": 45})
    assert_same(spec, derived={"hard": lambda s: s["total"] <= s["skill"] // 2})


def test_percentile_dice_read_00_with_0_as_100():
    joint = evaluate_roll(RollSpec(((Percentile(), 1),)))
    outcomes, probabilities = joint.marginal("total")
    assert outcomes.tolist() == list(range(1, 101))
    assert max(abs(probabilities - 0.01)) < 1e-15


def test_daggerheart_hope_and_fear():
    hope, fear = Die.numbered("hope", 12), Die.numbered("fear", 12)
    spec = RollSpec(((hope, 1), (fear, 1)), stats=(Pick("h", dice="hope"), Pick("f", dice="fear"),
                                                   Derived("with_hope", "h > f"), Derived("critical", "h == f")))
    assert_same(spec, derived={"with_hope": lambda s: s["h"] > s["f"], "critical": lambda s: s["h"] == s["f"]})


def test_a_pool_without_dice_and_statistics_of_nothing():
    spec = RollSpec(((d6, 0), (d8, 1)), stats=(Keep("k", take=2, dice="d6"), Pick("p", dice="d6"),
                                                Beats("b", "d6", "d8"), LargestSet("w", dice="d6")))
    assert joint_of(spec) == pytest.approx({(t, 0, 0, 0, 0): 0.125 for t in range(1, 9)})


def test_a_register_that_could_not_fit_is_refused_clearly():
    many = Die.numbered("d100", 100)
    spec = RollSpec(((many, 40), (d6, 40)), stats=(Keep("k", take=20), Pick("p", dice="d6", order="middle"),
                                                   LargestSet("w"), Beats("b", "d100", "d6")))
    with pytest.raises(WorkbenchError, match="more than an exact result"):
        evaluate_roll(spec)


def _random_die(rng, name, dice_names):
    sides = rng.randint(2, 5)
    values = tuple(rng.randint(-1, 4) for _ in range(sides))
    counts = {}
    if rng.random() < 0.6:
        counts["c1"] = [rng.randint(0, 2) for _ in range(sides)]
    explodes = [rng.random() < 0.25 for _ in range(sides)]
    if all(explodes):
        explodes[0] = False
    # Capped chains keep the brute force small (every pair of chains is enumerated); endless
    # chains have tests of their own above.
    limit = rng.choice([1, 2]) if any(explodes) else 0
    return Die(name, values, counts=counts, explodes=explodes, limit=limit)


def _random_stat(rng, index, names):
    kind = rng.choice(["keep", "pick", "beats", "pairs", "set", "sets", "sum"])
    chosen = tuple(rng.sample(names, rng.randint(1, len(names))))
    name = f"s{index}"
    if kind == "keep":
        return Keep(name, take=rng.randint(1, 3), skip=rng.randint(0, 1),
                    order=rng.choice(["highest", "lowest", "middle"]), dice=chosen)
    if kind == "pick":
        return Pick(name, order=rng.choice(["highest", "lowest", "middle"]),
                    position=rng.randint(0, 2), dice=chosen)
    if kind in ("beats", "pairs") and len(names) >= 2:
        first, second = rng.sample(names, 2)
        return (Beats if kind == "beats" else Pairs)(name, first, second)
    if kind == "set":
        return LargestSet(name, report=rng.choice(["size", "value"]), dice=chosen)
    if kind == "sets":
        return Sets(name, size=rng.randint(1, 3), dice=chosen)
    return Sum(name, score=rng.choice(["value", "c1"]), dice=chosen)


@pytest.mark.parametrize("seed", range(40))
def test_random_small_rolls(seed):
    rng = random.Random(seed)
    names = ["a", "b", "c"][:rng.randint(1, 3)]
    dice = [_random_die(rng, n, names) for n in names]
    if not any(d.counts for d in dice):
        dice[0] = Die(dice[0].name, dice[0].values, counts={"c1": [1] * dice[0].sides})
    groups = tuple((d, rng.randint(1, 3 if len(names) == 1 else 2)) for d in dice)
    stats = tuple(_random_stat(rng, i, names) for i in range(rng.randint(1, 3)))
    spec = RollSpec(groups, stats=stats, modifier=rng.randint(-1, 1),
                    floor=rng.choice([None, 0]), ceiling=rng.choice([None, 5]))
    assert_same(spec)


def test_scores_written_as_expressions_over_one_die():
    spec = RollSpec(((exploding_d6, 2), (ones_d6, 1)),
                    stats=(Sum("snake", score="value == 1"), Sum("big", score="value >= 6", dice="x6"),
                           Keep("best_hits", take=1, score="hits * 2 + (value > 3)")))
    mine = joint_of(spec)
    brute = {}
    import itertools
    from _roll_brute import die_chains
    for combo in itertools.product(die_chains(exploding_d6, ("ones", "hits")), die_chains(exploding_d6, ("ones", "hits")),
                                   die_chains(ones_d6, ("ones", "hits"))):
        p = combo[0][2] * combo[1][2] * combo[2][2]
        values = [c[0] for c in combo]
        ranked = sorted(combo, key=lambda c: (c[0], tuple(sorted(c[1].items()))), reverse=True)
        best = ranked[0][1]["hits"] * 2 + (ranked[0][0] > 3)
        key = (sum(values), combo[2][1]["ones"], combo[2][1]["hits"], sum(v == 1 for v in values),
               sum(v >= 6 for v in values[:2]), best)
        brute[key] = brute.get(key, 0.0) + p
    assert max(abs(mine.get(k, 0) - brute.get(k, 0)) for k in set(mine) | set(brute)) < 1e-12
