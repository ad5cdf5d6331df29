"""Designed pools: every effect of the data vocabulary against the independent brute force.

``tests/data/vocabulary.toml`` uses every effect; ``data/examples/d10-edge.toml`` is the
issue's example (a 1 cancels, 7-9 succeed, a 10 is two successes and explodes at most once,
Edge rerolls misses). Each exact answer is compared with :func:`_brute.designed_roll`, which
rolls the dice as a player would, written from data/README.md and not from the engine (the
faces a favor moves included: :func:`_brute.moved_faces`, not the engine's ``shifted``).
"""
from __future__ import annotations

from pathlib import Path

import pytest
import _brute as brute

import workbench as wb
from workbench.rules.mechanics.pool import shifted

HERE = Path(__file__).parent
VOCAB = str(HERE / "data" / "vocabulary.toml")
EDGE = str(HERE.parent / "data" / "examples" / "d10-edge.toml")
D10 = [-1, 0, 0, 0, 0, 0, 1, 1, 1, 2]


def brute_pmf(dice, counts, max_faces=10, **kw):
    outcomes, unexplored = brute.enumerate_rolls(brute.designed_roll(dice, counts, **kw), max_faces)
    totals: dict = {}
    for (total, _negative), p in outcomes.items():
        totals[total] = totals.get(total, 0.0) + p
    return totals, unexplored


def assert_pmf(result, truth, unexplored=0.0):
    got = dict(result.pmf.items())
    for total in set(got) | set(truth):
        assert abs(got.get(total, 0.0) - truth.get(total, 0.0)) <= 1e-12 + unexplored, total
    assert result.lost_mass <= 1e-12


@pytest.mark.parametrize("dice", range(0, 4))
@pytest.mark.parametrize("edge", range(0, 3))
def test_done_when_example_matches_brute_force(dice, edge):
    d10 = {"d10": {"faces": D10, "explode": {10}, "limit": 1}}
    truth, unexplored = brute_pmf(d10, {"d10": dice}, max_faces=12, rerolls=edge)
    assert unexplored == 0.0  # capped explosions: the whole tree is finite
    result = wb.check(EDGE, dice=dice, edge=edge, target=2)
    assert_pmf(result, truth)
    assert result.p_pass == pytest.approx(sum(p for t, p in truth.items() if t >= 2), abs=1e-12)


def test_done_when_example_scores_concrete_faces():
    # 10 explodes once into a 10 (capped: the second 10 does not explode), a 1 cancels.
    roll = wb.score(EDGE, [10, 1, 7, 10], dice=3)
    assert (roll.net, roll.successes, roll.failures) == (4, 5, 1)
    # Edge rerolls the 4 (a miss), not the 1 (a cancel): 4 -> 8.
    assert wb.score(EDGE, [4, 1, 7, 8], dice=3, edge=2).net == 1


@pytest.mark.parametrize("d8, d6", [(1, 0), (2, 0), (1, 1), (0, 2)])
def test_explosions_into_another_die_and_capped(d8, d6):
    dice = {"d8": {"faces": [-1, 0, 0, 0, 1, 1, 1, 2], "explode": {8}, "into": "d6"},
            "d6": {"faces": [0, 0, 0, 0, 1, 1], "explode": {6}, "limit": 2}}
    truth, unexplored = brute_pmf(dice, {"d6": d6, "d8": d8}, max_faces=9, floor=-1)
    result = wb.check(VOCAB, d6=d6, d8=d8)
    assert_pmf(result, truth, unexplored)
    assert unexplored < 1e-5


@pytest.mark.parametrize("favor", [-5, -2, -1, 0, 1, 3])
@pytest.mark.parametrize("bite, wild", [(False, False), (True, False), (False, True), (True, True)])
def test_shifted_faces_cancels_and_switched_explosions(favor, bite, wild):
    d6 = list(brute.moved_faces((0, 0, 0, 0, 1, 1), favor))
    if bite:
        d6[0] = d6[1] = -1
    dice = {"d6": {"faces": d6, "explode": {5, 6} if wild else {6}, "limit": 2},
            "d10": {"faces": list(brute.moved_faces(tuple(D10), favor))}}
    truth, unexplored = brute_pmf(dice, {"d6": 2, "d10": 1}, max_faces=9, modifier=-2,
                                  floor=None)
    result = wb.check(VOCAB, d6=2, d10=1, favor=favor, bite=bite, wild=wild, bonus=-2, negative=True)
    assert_pmf(result, truth, unexplored)


def test_shift_clamps_as_uwr_favor_does():
    assert shifted((0, 0, 0, 0, 1, 1), -9) == (0, 0, 0, 0, 0, 1)  # "never above 6"
    assert shifted((0, 0, 0, 0, 1, 1), 9) == (1,) * 6
    assert shifted(tuple(D10), -1) == (-1, -1, 0, 0, 0, 0, 0, 1, 1, 1)
    assert brute.moved_faces((0, 0, 0, 0, 1, 1), -9) == (0, 0, 0, 0, 0, 1)
    assert brute.moved_faces((0, 0, 0, 0, 1, 1), 9) == (1,) * 6
    assert brute.moved_faces(tuple(D10), -1) == (-1, -1, 0, 0, 0, 0, 0, 1, 1, 1)
    assert brute.moved_faces(tuple(D10), -5) == (-1, -1, -1, -1, 0, 0, 0, 0, 0, 1)
    for faces in ((0, 0, 0, 0, 1, 1), tuple(D10), (0, 1, 0), (0, 0, 0), (1, 1, 2)):
        for favor in range(-12, 13):
            assert shifted(faces, favor) == brute.moved_faces(faces, favor), (faces, favor)


@pytest.mark.parametrize("d10, best, worst", [(1, 1, 0), (2, 1, 0), (2, 2, 0), (3, 2, 0), (2, 0, 1),
                                             (1, 0, 3), (3, 0, 0), (2, 2, 1)])
def test_keep_best_and_worst_of_extra_dice(d10, best, worst):
    extra = best - worst
    keep = None if extra == 0 else ("highest" if extra > 0 else "lowest")
    truth, _ = brute_pmf({"d10": {"faces": D10}}, {"d10": d10 + abs(extra)}, keep=keep, kept=d10,
                         floor=-1)
    assert_pmf(wb.check(VOCAB, d10=d10, best=best, worst=worst), truth)


@pytest.mark.parametrize("edge", [1, 3])
def test_rerolls_of_misses_with_cancelling_faces(edge):
    truth, _ = brute_pmf({"d10": {"faces": D10}}, {"d10": 3}, rerolls=edge, floor=None)
    assert_pmf(wb.check(VOCAB, d10=3, edge=edge, negative=True), truth)


def test_choice_replaces_faces_and_adds_effects():
    gold = {"d6": {"faces": [0, 0, 1, 1, 1, 2], "explode": {6}, "limit": 2}}
    truth, unexplored = brute_pmf(gold, {"d6": 2}, max_faces=8, modifier=1, floor=-1)
    assert_pmf(wb.check(VOCAB, d6=2, colour="gold"), truth, unexplored)


def test_tiers_p_pass_and_versus_of_a_designed_system():
    res = wb.check(VOCAB, d6=3, target=2)
    assert res.p_pass == pytest.approx(res.pmf.at_least(2), abs=1e-15)
    vs = wb.versus(VOCAB, {"d6": 2}, {"d6": 2})
    assert vs.ties_to == "actor" and vs.p_actor == pytest.approx(vs.margin.at_least(0))


def test_keep_beside_other_dice_keeps_only_its_own_type():
    """Keeping the best d10 of two beside a d6 (exploding on 6, at most twice): the d6 stays
    in the roll whatever the d10s show (it was refused before: one pool, one kept type)."""
    d10 = (-1, 0, 0, 0, 0, 0, 1, 1, 1, 2)

    def d6_chain(extra=0):   # (value, chance) of one d6 and what its 6s add
        out = {}
        for face in range(1, 7):
            value = 1 if face >= 5 else 0
            if face == 6 and extra < 2:
                for more, chance in d6_chain(extra + 1).items():
                    out[value + more] = out.get(value + more, 0) + chance / 6
            else:
                out[value] = out.get(value, 0) + 1 / 6
        return out

    expected: dict = {}
    for a in d10:
        for b in d10:
            for value, chance in d6_chain().items():
                total = max(max(a, b) + value, -1)           # the file's floor is -1
                expected[total] = expected.get(total, 0) + chance / 100
    found = wb.check(VOCAB, d10=1, d6=1, best=1).pmf
    assert {int(o) for o in found.outcomes if found[int(o)] > 0} == set(expected)
    for total, chance in expected.items():
        assert found[total] == pytest.approx(chance, abs=1e-12)


def test_simulation_agrees_with_exact_for_designed_pools():
    from test_simulate_agreement import chi_square_p

    for params in (dict(d8=2, d6=1), dict(d10=3, best=2), dict(d10=4, edge=2, negative=True),
                   dict(d6=3, wild=True, bite=True, favor=-1)):
        sim = wb.simulate(VOCAB, trials=400_000, seed=11, **params)
        exact = wb.check(VOCAB, **params)
        assert chi_square_p(dict(sim.pmf.items()), dict(exact.pmf.items()), 400_000) > 1e-9, params


def test_plain_data_pools_take_the_fast_kernel():
    from workbench.engine import simulation
    for system, params in (("uwr", dict(dice=10)), ("arrata", dict(dice=8, advantage=1, disadvantage=1)),
                           ("fons-exploding", dict(dice=5)), (VOCAB, dict(d10=6))):
        kernel = simulation._kernel(wb.system(system).pool(**params))[0]
        assert kernel.__name__ in ("chunk_histogram_blocks", "sum_histogram_blocks"), system
    kernel = simulation._kernel(wb.system(EDGE).pool(dice=5))[0]
    assert kernel.__name__ == "histogram_blocks_general"  # capped explosions


@pytest.mark.parametrize("d6, d10, edge", [(1, 1, 1), (2, 1, 1), (1, 2, 2), (2, 1, 3)])
def test_rerolls_shared_by_several_die_types(d6, d10, edge):
    """Rerolls go to the first misses of the pool, d6s (declared first) before d10s."""
    dice = {"d6": {"faces": [0, 0, 0, 0, 1, 1], "explode": {6}, "limit": 2}, "d10": {"faces": D10}}
    truth, unexplored = brute_pmf(dice, {"d6": d6, "d10": d10}, max_faces=12, rerolls=edge, floor=None)
    assert unexplored == 0.0
    assert_pmf(wb.check(VOCAB, d6=d6, d10=d10, edge=edge, negative=True), truth)


def test_rerolls_across_types_score_and_simulate():
    # d6s first: the d6 miss (3) takes the one reroll (-> 5), the d10 miss (4) keeps its 0.
    assert wb.score(VOCAB, {"d6": [3, 5], "d10": [4]}, d6=1, d10=1, edge=1).net == 1
    from test_simulate_agreement import chi_square_p
    params = dict(d6=2, d10=2, edge=2, negative=True)
    sim = wb.simulate(VOCAB, trials=300_000, seed=4, **params)
    assert chi_square_p(dict(sim.pmf.items()), dict(wb.check(VOCAB, **params).pmf.items()), 300_000) > 1e-9
