"""Exact results against an independent brute force over every face (``tests/_brute.py``).

The brute force never touches ``workbench.engine.exact`` nor ``PoolSpec``/``score_faces``: it rolls
the dice as RULES.md describes, so it checks both the arithmetic and the translation of each
mechanic into a pool. Non-exploding pools must agree to 1e-9. For exploding pools the brute
force follows chains to a fixed number of faces: every outcome's truncated probability is a
lower bound of the exact one, and the total gap may not exceed the unexplored mass.
"""
from __future__ import annotations

import itertools

import pytest
from _deps import need

import workbench

try:
    from tests import _brute as brute
except ImportError:  # tests/ is not a package: pytest puts tests/ itself on sys.path
    import _brute as brute

TOL = 1e-9


def numeric_pmf(result) -> dict[int, float]:
    return {int(o): p for o, p in result.pmf.items() if p > 0}


def assert_same(exact: dict, truth: dict, unexplored: float = 0.0, what: str = ""):
    """``exact`` matches the brute force: to TOL, or within the unexplored chain mass."""
    keys = set(exact) | set(truth)
    if unexplored == 0.0:
        worst = max((abs(exact.get(k, 0.0) - truth.get(k, 0.0)), k) for k in keys)
        assert worst[0] <= TOL, f"{what}: outcome {worst[1]!r} differs by {worst[0]:.3g}"
        return
    for k in keys:  # truncated chains only ever remove probability from an outcome
        assert exact.get(k, 0.0) >= truth.get(k, 0.0) - TOL, f"{what}: outcome {k!r} too small"
    gap = sum(abs(exact.get(k, 0.0) - truth.get(k, 0.0)) for k in keys)
    assert gap <= unexplored + TOL, f"{what}: total gap {gap:.3g} > unexplored {unexplored:.3g}"


def tail(pmf: dict, at_least: int) -> float:
    return sum(p for k, p in pmf.items() if k >= at_least)


# ---------------------------------------------------------------------------------------
# UWR and FoNS: favor, rerolls, half die, die penalty

SUCCESS_GRID = [(d, f, r) for d in range(5) for f in range(-2, 4) for r in range(4)]


@pytest.mark.parametrize("system", ["uwr", "fons"])
@pytest.mark.parametrize("dice,favor,rerolls", SUCCESS_GRID)
def test_success_pool_matches_brute_force(system, dice, favor, rerolls):
    truth = brute.success_pool_matrix(dice, favor=favor, rerolls=rerolls)
    result = workbench.check(system, dice=dice, favor=favor, rerolls=rerolls)
    assert_same(numeric_pmf(result), truth, what=f"{system} {dice}d favor {favor} rerolls {rerolls}")
    assert result.lost_mass == 0.0
    assert result.p_pass is None
    for target in range(dice + 2):
        passed = workbench.check(system, dice=dice, favor=favor, rerolls=rerolls, target=target).p_pass
        assert passed == pytest.approx(tail(truth, target), abs=TOL)


@pytest.mark.parametrize("dice,half,penalty,favor,rerolls", [
    (d, h, p, f, r) for d in range(5) for h in (False, True) for p in range(3)
    for f in (-1, 0, 2) for r in (0, 2)])
def test_half_die_and_penalty_match_brute_force(dice, half, penalty, favor, rerolls):
    truth = brute.success_pool_matrix(dice, favor=favor, rerolls=rerolls, half=half, penalty=penalty)
    for system in ("uwr", "fons"):
        result = workbench.check(system, dice=dice, favor=favor, rerolls=rerolls, half=half,
                                 penalty=penalty)
        assert_same(numeric_pmf(result), truth, what=f"{system} half={half} penalty={penalty}")


@pytest.mark.parametrize("dice,favor,rerolls", [
    (d, f, r) for d in range(4) for f in (-3, 0, 2, 9) for r in range(3) if d + r <= 4])
def test_d10_pool_variant_matches_brute_force(dice, favor, rerolls):
    truth = brute.success_pool_matrix(dice, favor=favor, rerolls=rerolls, sides=10, threshold=8)
    result = workbench.check("d10-pool", dice=dice, favor=favor, rerolls=rerolls)
    assert_same(numeric_pmf(result), truth, what=f"d10 {dice}d favor {favor} rerolls {rerolls}")


@pytest.mark.parametrize("dice,favor,rerolls,half", [
    (0, 0, 0, False), (1, 0, 0, False), (2, 0, 0, False), (3, 0, 0, False), (1, -2, 1, False),
    (2, 1, 1, False), (2, 3, 0, True), (1, 0, 2, False), (3, -1, 0, True), (2, 2, 1, True)])
def test_fons_exploding_variant_matches_brute_force(dice, favor, rerolls, half):
    procedure = brute.success_pool_roll(dice, favor, rerolls, half, explode_on=6)
    truth, unexplored = brute.enumerate_rolls(procedure, max_faces=dice + rerolls + half + 4)
    result = workbench.check("fons-exploding", dice=dice, favor=favor, rerolls=rerolls, half=half)
    assert result.lost_mass <= 1e-12
    assert_same(numeric_pmf(result), truth, unexplored, what="fons-exploding")


# ---------------------------------------------------------------------------------------
# The Unnamed System: d6/d8 mixes, bonus vs penalty, free successes, drama, stunt, origins

def unnamed_truth(**params):
    bounces = params.get("d8", 0) or params.get("bounce_on", 7) <= 6
    return brute.enumerate_rolls(brute.unnamed_roll(**params), max_faces=20 if not bounces else 7)


UNNAMED_CASES = [
    dict(),
    dict(d6=1), dict(d6=2), dict(d6=3), dict(d6=4),
    dict(d8=1), dict(d8=2), dict(d6=1, d8=1), dict(d6=2, d8=1),
    dict(d6=2, bonus=1), dict(d6=2, penalty=1), dict(d6=2, bonus=1, penalty=1),
    dict(d6=1, bonus=2, penalty=1), dict(d6=1, bonus=1, penalty=2), dict(d6=0, penalty=2),
    dict(d6=2, free_successes=1), dict(d6=1, free_successes=2, penalty=1),
    dict(d6=1, drama=1), dict(d6=1, drama=2), dict(d6=1, stunt=True), dict(stunt=True, drama=1),
    dict(d6=2, bounce_on=6), dict(d6=1, d8=1, bounce_on=6), dict(d8=2, bounce_on=8),
    dict(d8=1, bounce_on=9), dict(d6=3, fail_on=2), dict(d6=1, d8=1, fail_on=2),
    dict(d6=2, bounce_on=6, fail_on=2), dict(d6=2, fail_on=0), dict(d6=3, bounce_on=5),
    dict(d6=2, d8=1, bonus=1, penalty=2, free_successes=1, stunt=True, fail_on=2),
]


@pytest.mark.parametrize("params", UNNAMED_CASES, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "empty")
def test_unnamed_matches_brute_force(params):
    truth, unexplored = unnamed_truth(**params)
    result = workbench.check("unnamed", **params)
    assert result.lost_mass <= 1e-12
    nets: dict[int, float] = {}
    tiers: dict[str, float] = {}
    for (net, disaster), p in truth.items():
        nets[net] = nets.get(net, 0.0) + p
        tier = brute.unnamed_tier(net, disaster)
        tiers[tier] = tiers.get(tier, 0.0) + p
    assert_same(numeric_pmf(result), nets, unexplored, what=f"unnamed {params} pmf")
    assert list(result.tiers.outcomes) == list(brute.UNNAMED_TIERS)
    assert_same(dict(result.tiers.items()), tiers, unexplored, what=f"unnamed {params} tiers")
    for target in range(4):
        want = sum(p for (net, disaster), p in truth.items() if net >= target and not disaster)
        got = workbench.check("unnamed", target=target, **params).p_pass
        assert want - TOL <= got <= want + unexplored + TOL, (target, got, want)
    if not params:
        assert result.p_pass == pytest.approx(tail(nets, 1))


def test_unnamed_bonus_and_penalty_cancel_one_for_one():
    """``bonus`` and ``penalty`` cancel before the roll: 1 bonus + 1 penalty is no change."""
    plain = workbench.check("unnamed", d6=3)
    both = workbench.check("unnamed", d6=3, bonus=1, penalty=1)
    assert_same(numeric_pmf(both), numeric_pmf(plain), what="bonus vs penalty")


# ---------------------------------------------------------------------------------------
# Arrata: Quality, advantage, disadvantage (both modes), allow_negative, combine

ARRATA_CASES = [
    dict(quality=q, dice=d, advantage=a, disadvantage=s)
    for q in "BAS" for d in (0, 1, 2) for a in range(4) for s in range(4)
    if d + max(a - 1, 0) <= 3
]


def arrata_truth(params):
    procedure = brute.arrata_roll(**params)
    return brute.enumerate_rolls(procedure, max_faces=8)


@pytest.mark.parametrize("mode", ["dice", "obstacle"])
@pytest.mark.parametrize("params", ARRATA_CASES, ids=lambda p: "{quality}{dice}+a{advantage}-d{disadvantage}".format(**p))
def test_arrata_matches_brute_force(params, mode):
    full = dict(params, disadvantage_mode=mode)
    truth, unexplored = arrata_truth(full)
    result = workbench.check("arrata", **full)
    assert result.lost_mass <= 1e-12
    assert_same(numeric_pmf(result), truth, unexplored, what=f"arrata {full}")
    extra = brute.arrata_extra_ob(params["advantage"], params["disadvantage"], mode)
    for ob in range(4):
        got = workbench.check("arrata", ob=ob, **full).p_pass
        want = tail(truth, ob + extra)
        assert want - TOL <= got <= want + unexplored + TOL, (ob, got, want)


@pytest.mark.parametrize("combine", ["independent", "net"])
@pytest.mark.parametrize("params", [
    dict(quality="B", dice=2, disadvantage=1), dict(quality="S", dice=3, disadvantage=1),
    dict(quality="A", dice=2, advantage=1, disadvantage=1), dict(quality="B", dice=2, advantage=2, disadvantage=1),
    dict(quality="B", dice=1, advantage=1, disadvantage=3), dict(quality="A", dice=3, advantage=3, disadvantage=2),
    dict(quality="S", dice=2, advantage=2, disadvantage=2, disadvantage_mode="obstacle")])
@pytest.mark.parametrize("allow_negative", [False, True])
def test_arrata_rule_options_match_brute_force(params, combine, allow_negative):
    full = dict(params, combine=combine, allow_negative=allow_negative)
    truth, unexplored = arrata_truth(full)
    result = workbench.check("arrata", **full)
    assert_same(numeric_pmf(result), truth, unexplored, what=f"arrata {full}")
    if not allow_negative:
        assert min(numeric_pmf(result)) >= 0


def test_arrata_cancelling_variant_is_combine_net():
    """The shipped what-if only changes the default of ``combine``."""
    for adv, dis in itertools.product(range(3), range(3)):
        truth, unexplored = arrata_truth(dict(quality="B", dice=2, advantage=adv, disadvantage=dis,
                                              combine="net"))
        result = workbench.check("arrata-cancelling", quality="B", dice=2, advantage=adv, disadvantage=dis)
        assert_same(numeric_pmf(result), truth, unexplored, what=f"cancelling {adv}/{dis}")


# ---------------------------------------------------------------------------------------
# Erzählspiel: colours, advantage, ladders, the d6 variant

def erz_truth(**params):
    truth, unexplored = brute.enumerate_rolls(brute.erzahlspiel_roll(**params), max_faces=3)
    assert unexplored == 0.0
    return truth


@pytest.mark.parametrize("dice", ["narrative", "d6"])
@pytest.mark.parametrize("die", brute.ERZ_ORDER)
def test_erzahlspiel_colours_match_brute_force(die, dice):
    truth = erz_truth(die=die, dice=dice)
    result = workbench.check("erzahlspiel", die=die, dice=dice)
    assert list(result.pmf.outcomes) == list(brute.ERZ_OUTCOMES)
    assert_same({o: p for o, p in result.pmf.items() if p}, truth, what=f"{die} {dice}")
    assert result.p_pass == pytest.approx(sum(p for o, p in truth.items() if brute.is_yes(o)), abs=TOL)
    assert result.mean is None


@pytest.mark.parametrize("dice", ["narrative", "d6"])
@pytest.mark.parametrize("ladder", ["steps", "spectrum"])
@pytest.mark.parametrize("advantage", range(-5, 6))
def test_erzahlspiel_advantage_matches_brute_force(advantage, ladder, dice):
    truth = erz_truth(advantage=advantage, ladder=ladder, dice=dice)
    result = workbench.check("erzahlspiel", advantage=advantage, ladder=ladder, dice=dice)
    assert_same({o: p for o, p in result.pmf.items() if p}, truth, what=f"adv {advantage} {ladder} {dice}")


# ---------------------------------------------------------------------------------------
# Opposed checks: margins and ties

@pytest.mark.parametrize("system", ["uwr", "fons"])
@pytest.mark.parametrize("actor,reactor", [
    (dict(dice=3), dict(dice=3)), (dict(dice=4, favor=1), dict(dice=2)),
    (dict(dice=2, rerolls=1), dict(dice=3, favor=-1)), (dict(dice=0), dict(dice=2)),
    (dict(dice=2), dict(dice=0))])
def test_success_pool_versus_ties_to_reactor(system, actor, reactor):
    a, r = brute.success_pool_matrix(**actor), brute.success_pool_matrix(**reactor)
    margins = brute.margin(a, r)
    result = workbench.versus(system, actor, reactor)
    assert result.ties_to == "reactor"
    assert_same({int(k): p for k, p in result.margin.items() if p}, margins, what="margin")
    uncontested = system == "fons" and reactor["dice"] == 0  # FoNS: a guaranteed success
    assert result.p_actor == pytest.approx(1.0 if uncontested else tail(margins, 1), abs=TOL)


@pytest.mark.parametrize("resolution,at_least", [("opposed", 1), ("defender_sets_target", 0)])
def test_fons_attack_resolution_both_ways(resolution, at_least):
    attack, dodge = dict(dice=3, favor=1), dict(dice=3)
    margins = brute.margin(brute.success_pool_matrix(**attack), brute.success_pool_matrix(**dodge))
    result = workbench.versus("fons", dict(attack, attack_resolution=resolution), dodge)
    assert result.p_actor == pytest.approx(tail(margins, at_least), abs=TOL)
    assert result.ties_to == ("reactor" if resolution == "opposed" else "actor")


@pytest.mark.parametrize("actor,reactor", [
    (dict(quality="B", dice=3), dict(quality="B", dice=3)),
    (dict(quality="A", dice=2, disadvantage=1), dict(quality="S", dice=2)),
    (dict(quality="B", dice=2, advantage=1), dict(quality="B", dice=2)),
    (dict(quality="B", dice=3, disadvantage=3, disadvantage_mode="obstacle"), dict(quality="A", dice=1))])
def test_arrata_versus_ties_to_actor(actor, reactor):
    a, ua = arrata_truth(actor)
    r, ur = arrata_truth(reactor)
    extra = brute.arrata_extra_ob(actor.get("advantage", 0), actor.get("disadvantage", 0),
                                  actor.get("disadvantage_mode", "dice"))
    margins = brute.margin(a, {k + extra: p for k, p in r.items()})
    result = workbench.versus("arrata", actor, reactor)
    assert result.ties_to == "actor"
    assert_same({int(k): p for k, p in result.margin.items() if p}, margins, ua + ur, what="arrata margin")
    want = tail(margins, 0)
    assert want - TOL <= result.p_actor <= want + ua + ur + TOL


# ---------------------------------------------------------------------------------------
# icepool (dev dependency) as a second, outside opinion

@pytest.fixture
def icepool():
    """icepool, in the dev extra: skipped without it locally, a failure under CI."""
    return need("icepool")


@pytest.mark.parametrize("dice,face", [(10, 5), (30, 5), (25, 3)])
def test_success_counts_agree_with_icepool(icepool, dice, face):
    one = icepool.Die({0: face - 1, 1: 7 - face})
    theirs = dice @ one
    total = theirs.denominator()
    expected = {int(k): q / total for k, q in theirs.items()}
    ours = workbench.check("uwr", dice=dice, favor=5 - face)
    assert_same(numeric_pmf(ours), expected, what="icepool")


def test_open_ended_agrees_with_icepool(icepool):
    """Arrata A4 open-ended. icepool explodes a die whose 6 is tagged 101 (one success plus a
    marker of 100), so a total t = misses/successes + 101 * sixes has t mod 100 successes."""
    one = icepool.Die([0, 0, 1, 1, 1, 101]).explode([101], depth=14)
    successes = (4 @ one).map(lambda t: t % 100)
    total = successes.denominator()
    expected = {int(k): q / total for k, q in successes.items()}
    ours = workbench.check("arrata", quality="A", dice=4, advantage=1)
    # icepool cuts each chain after 14 explosions: at most 4 * 6**-15 of its mass is misplaced.
    assert_same(numeric_pmf(ours), expected, 4 * 6.0 ** -14, what="icepool open-ended")
