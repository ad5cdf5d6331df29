"""Readings the seeds allow, offered as rule options, each against the brute force.

Unnamed: Positive Origin's bouncing 6 on every die (default) or on d6s only; a Disaster
always (default) or read by net when free successes lift it to 1+. Arrata: the margin
(net - Ob) of a direct check; in versus, the reactor's extra Obstacle counts and the actor's
rule options reach the reactor's pool. FoNS: an uncontested opposed check always passes.
"""
from __future__ import annotations

import itertools

import pytest
import _brute as brute

import workbench as wb


def unnamed_truth(reading="always", max_faces=9, **params):
    outcomes, unexplored = brute.enumerate_rolls(brute.unnamed_roll(**params), max_faces=max_faces)
    tiers, nets = {}, {}
    for (net, failed), p in outcomes.items():
        tier = brute.unnamed_tier(net, failed, reading)
        tiers[tier] = tiers.get(tier, 0.0) + p
        nets[(net, tier)] = nets.get((net, tier), 0.0) + p
    return tiers, nets, unexplored


@pytest.mark.parametrize("d6, d8", [(1, 1), (0, 1), (2, 0)])
@pytest.mark.parametrize("origin", ["every_die", "d6_only"])
def test_unnamed_positive_origin_readings(d6, d8, origin):
    tiers, _, unexplored = unnamed_truth(d6=d6, d8=d8, bounce_on=6, origin_bounce=origin, max_faces=11)
    result = wb.check("unnamed", d6=d6, d8=d8, bounce_on=6, origin_bounce=origin)
    for tier, p in result.tiers.items():
        assert abs(p - tiers.get(tier, 0.0)) <= 1e-12 + unexplored, tier
    assert unexplored < 5e-4


def test_d6_only_reading_changes_only_d8s():
    only_d6 = dict(d6=3, bounce_on=6)
    assert wb.check("unnamed", **only_d6).pmf == wb.check("unnamed", origin_bounce="d6_only", **only_d6).pmf
    with_d8 = dict(d6=1, d8=2, bounce_on=6)
    assert wb.check("unnamed", **with_d8).mean > wb.check("unnamed", origin_bounce="d6_only", **with_d8).mean


@pytest.mark.parametrize("reading", ["always", "unless_net_passes"])
@pytest.mark.parametrize("free, target, fail_on", [(2, 1, 1), (3, 2, 2), (1, 1, 2), (0, 0, 1), (2, 0, 2)])
def test_unnamed_disaster_readings_and_p_pass_is_the_passing_outcomes(reading, free, target, fail_on):
    tiers, nets, unexplored = unnamed_truth(reading, d6=2, free_successes=free, fail_on=fail_on)
    result = wb.check("unnamed", d6=2, free_successes=free, fail_on=fail_on, target=target,
                      disaster=reading)
    for tier, p in result.tiers.items():
        assert abs(p - tiers.get(tier, 0.0)) <= 1e-12 + unexplored, tier
    passing = sum(p for (net, tier), p in nets.items() if net >= target and tier != "Disaster")
    assert abs(result.p_pass - passing) <= 1e-12 + unexplored
    # P(pass) is the sum over passing outcomes: the tiers at or above the target's tier.
    if target >= 1:
        names = ["Success with a Twist", "Success", "Triumph"][target - 1:]
        assert result.p_pass == pytest.approx(sum(result.tiers[n] for n in names), abs=1e-12)


def test_disaster_lifted_by_free_successes():
    # One d6 failing (1/6) with 2 free successes: net 1. Always a Disaster by default;
    # a Success with a Twist (and a pass) under the other reading.
    default = wb.check("unnamed", d6=1, free_successes=2)
    lifted = wb.check("unnamed", d6=1, free_successes=2, disaster="unless_net_passes")
    assert default.tiers["Disaster"] == pytest.approx(1 / 6)
    assert lifted.tiers["Disaster"] == 0.0
    assert lifted.p_pass - default.p_pass == pytest.approx(1 / 6)


@pytest.mark.parametrize("dice, ob", [(2, 1), (3, 2), (4, 0)])
def test_arrata_margin_of_a_direct_check(dice, ob):
    outcomes, unexplored = brute.enumerate_rolls(brute.arrata_roll(dice=dice, advantage=1), max_faces=10)
    result = wb.check("arrata", dice=dice, advantage=1, ob=ob)
    margin = result.extra["margin"]
    for net, p in outcomes.items():
        assert abs(margin[net - ob] - p) <= 1e-12 + unexplored
    assert margin.at_least(0) == pytest.approx(result.p_pass, abs=1e-12)


def brute_versus(actor, reactor):
    a, _ = brute.enumerate_rolls(brute.arrata_roll(**actor), max_faces=8)
    r, _ = brute.enumerate_rolls(brute.arrata_roll(**reactor), max_faces=8)
    shift = brute.arrata_extra_ob(**{k: v for k, v in actor.items() if k in ("advantage", "disadvantage",
                                                                             "disadvantage_mode")})
    shift -= brute.arrata_extra_ob(**{k: v for k, v in reactor.items() if k in ("advantage", "disadvantage",
                                                                                "disadvantage_mode")})
    return sum(pa * pr for (na, pa), (nr, pr) in itertools.product(a.items(), r.items()) if na - nr - shift >= 0)


@pytest.mark.parametrize("mode", ["dice", "obstacle"])
@pytest.mark.parametrize("a_dis, r_dis", [(0, 3), (2, 2), (3, 0), (0, 2)])
def test_arrata_versus_reactor_levels_and_shared_rule_options(mode, a_dis, r_dis):
    actor = dict(dice=3, disadvantage=a_dis, disadvantage_mode=mode)
    reactor = dict(dice=3, disadvantage=r_dis, disadvantage_mode=mode)  # the actor's options
    result = wb.versus("arrata", actor, {"dice": 3, "disadvantage": r_dis})
    assert result.reactor["disadvantage_mode"] == mode
    assert result.p_actor == pytest.approx(brute_versus(actor, reactor), abs=1e-9)


def test_arrata_versus_rejects_a_different_reactor_rule_option():
    with pytest.raises(wb.WorkbenchError, match="rule option"):
        wb.versus("arrata", {"dice": 2}, {"dice": 2, "disadvantage_mode": "obstacle"})


def test_fons_uncontested_is_a_guaranteed_success_uwr_counts_successes():
    assert wb.versus("fons", {"dice": 3}, {}).p_actor == 1.0
    assert wb.versus("fons", {"dice": 0}, {"dice": 0}).p_actor == 1.0
    uwr = wb.versus("uwr", {"dice": 3}, {})
    assert uwr.p_actor == pytest.approx(1 - (4 / 6) ** 3)  # passes with its full successes
    assert wb.versus("fons", {"dice": 3}, {"dice": 1}).p_actor < 1.0


def test_stat_notation_conflicts_are_errors():
    with pytest.raises(wb.ParameterError, match="quality"):
        wb.check("arrata", stat="B5", quality="A")
    with pytest.raises(wb.ParameterError, match="dice"):
        wb.check("arrata", stat="B5", dice=4)
    assert wb.check("arrata", stat="B5", quality="b", dice=5).params["quality"] == "B"
    assert wb.check("arrata", quality="S4").params["dice"] == 4
