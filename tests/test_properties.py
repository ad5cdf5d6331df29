"""Property tests (hypothesis): probabilities add up, and P(pass) moves the right way.

Kept fast: few examples, small pools, no deadline (the first call of a pool fills a cache).
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import workbench

FAST = settings(max_examples=40, deadline=None)
EPS = 1e-12

dice = st.integers(0, 12)
favor = st.integers(-3, 4)
rerolls = st.integers(0, 3)
targets = st.integers(0, 6)
quality = st.sampled_from("BAS")
levels = st.integers(0, 3)


def total_ok(result):
    total = float(result.pmf.probabilities.sum())
    assert abs(total - 1.0) <= result.lost_mass + 1e-12, (total, result.lost_mass)
    assert (result.pmf.probabilities >= 0).all()
    if result.tiers is not None:
        assert abs(float(result.tiers.probabilities.sum()) - 1.0) <= result.lost_mass + 1e-12
    if result.p_pass is not None:
        assert -EPS <= result.p_pass <= 1 + EPS


@FAST
@given(system=st.sampled_from(["uwr", "fons", "fons-exploding", "d10-pool"]), dice=dice,
       favor=favor, rerolls=rerolls, half=st.booleans(), penalty=st.integers(0, 3))
def test_success_pool_sums_to_one(system, dice, favor, rerolls, half, penalty):
    total_ok(workbench.check(system, dice=dice, favor=favor, rerolls=rerolls, half=half,
                             penalty=penalty, target=1))


@FAST
@given(d6=st.integers(0, 6), d8=st.integers(0, 4), bonus=st.integers(0, 2), penalty=st.integers(0, 2),
       free=st.integers(0, 2), drama=st.integers(0, 2), stunt=st.booleans(),
       bounce_on=st.integers(5, 9), fail_on=st.integers(0, 2))
def test_unnamed_sums_to_one(d6, d8, bonus, penalty, free, drama, stunt, bounce_on, fail_on):
    total_ok(workbench.check("unnamed", d6=d6, d8=d8, bonus=bonus, penalty=penalty,
                             free_successes=free, drama=drama, stunt=stunt, bounce_on=bounce_on,
                             fail_on=fail_on))


@FAST
@given(quality=quality, dice=dice, advantage=levels, disadvantage=levels, ob=targets,
       mode=st.sampled_from(["dice", "obstacle"]), negative=st.booleans(),
       combine=st.sampled_from(["independent", "net"]))
def test_arrata_sums_to_one(quality, dice, advantage, disadvantage, ob, mode, negative, combine):
    total_ok(workbench.check("arrata", quality=quality, dice=dice, advantage=advantage,
                             disadvantage=disadvantage, ob=ob, disadvantage_mode=mode,
                             allow_negative=negative, combine=combine))


@FAST
@given(advantage=st.integers(-6, 6), ladder=st.sampled_from(["steps", "spectrum"]),
       kind=st.sampled_from(["narrative", "d6"]))
def test_erzahlspiel_sums_to_one(advantage, ladder, kind):
    total_ok(workbench.check("erzahlspiel", advantage=advantage, ladder=ladder, dice=kind))


# ---------------------------------------------------------------------------------------
# Monotonicity of P(pass)

def uwr_pass(**params):
    return workbench.check("uwr", **params).p_pass


@FAST
@given(dice=dice, favor=favor, rerolls=rerolls, target=targets, half=st.booleans())
def test_uwr_pass_rises_with_dice_favor_rerolls_and_falls_with_target(dice, favor, rerolls, target, half):
    base = uwr_pass(dice=dice, favor=favor, rerolls=rerolls, target=target, half=half)
    assert uwr_pass(dice=dice + 1, favor=favor, rerolls=rerolls, target=target, half=half) >= base - EPS
    assert uwr_pass(dice=dice, favor=favor + 1, rerolls=rerolls, target=target, half=half) >= base - EPS
    assert uwr_pass(dice=dice, favor=favor, rerolls=rerolls + 1, target=target, half=half) >= base - EPS
    assert uwr_pass(dice=dice, favor=favor, rerolls=rerolls, target=target + 1, half=half) <= base + EPS


@FAST
@given(dice=dice, favor=favor, penalty=st.integers(0, 4), target=targets)
def test_uwr_pass_falls_with_die_penalty(dice, favor, penalty, target):
    base = uwr_pass(dice=dice, favor=favor, penalty=penalty, target=target)
    assert uwr_pass(dice=dice, favor=favor, penalty=penalty + 1, target=target) <= base + EPS


@FAST
@given(d6=st.integers(0, 6), d8=st.integers(0, 3), target=st.integers(0, 4),
       bounce_on=st.integers(6, 9), fail_on=st.integers(0, 2))
def test_unnamed_pass_monotone(d6, d8, target, bounce_on, fail_on):
    def p(**change):
        params = dict(d6=d6, d8=d8, target=target, bounce_on=bounce_on, fail_on=fail_on)
        params.update(change)
        return workbench.check("unnamed", **params).p_pass
    base = p()
    assert p(target=target + 1) <= base + EPS
    assert p(free_successes=1) >= base - EPS
    assert p(penalty=1) <= base + EPS
    if fail_on == 0:  # without cancelling faces every extra die (or bounce) only adds
        assert p(bounce_on=max(bounce_on - 1, 5)) >= base - EPS
        assert p(d6=d6 + 1) >= base - EPS
        assert p(d8=d8 + 1) >= base - EPS


def test_unnamed_extra_die_can_lower_pass_because_ones_cancel():
    """Not a bug: with 1s cancelling, a d8 alone passes target 0 unless it shows a 1
    (7/8), but adding a d6 lets that d6's 1 cancel the d8's success."""
    alone = workbench.check("unnamed", d8=1, target=0).p_pass
    assert alone == 7 / 8 or abs(alone - 7 / 8) < 1e-12
    assert workbench.check("unnamed", d6=1, d8=1, target=0).p_pass < alone


@FAST
@given(quality=quality, dice=dice, advantage=levels, disadvantage=levels, ob=targets,
       mode=st.sampled_from(["dice", "obstacle"]))
def test_arrata_pass_monotone(quality, dice, advantage, disadvantage, ob, mode):
    def p(**change):
        params = dict(quality=quality, dice=dice, advantage=advantage, disadvantage=disadvantage,
                      ob=ob, disadvantage_mode=mode)
        params.update(change)
        return workbench.check("arrata", **params).p_pass
    base = p()
    assert p(ob=ob + 1) <= base + EPS
    better = {"B": "A", "A": "S", "S": "S"}[quality]
    assert p(quality=better) >= base - EPS  # each face scores at least as much
    if disadvantage == 0 or mode == "obstacle":  # more dice lower Ob-passing only via 1s
        assert p(disadvantage=disadvantage + 1) <= base + EPS
    if disadvantage == 0:  # with no cancelling 1s, more dice and open rolls only add
        assert p(dice=dice + 1) >= base - EPS
        assert p(advantage=advantage + 1) >= base - EPS


def test_arrata_advantage_can_hurt_under_disadvantage():
    """Not a bug, a property of the rules worth showing designers: B1 with Disadvantage 1
    against Ob 1 passes on 4+ (1/2). Advantage 1 lets a 6 add a die that may show a 1 and
    cancel: 2/6 + 1/6 * 5/6 = 17/36."""
    closed = workbench.check("arrata", stat="B1", disadvantage=1, ob=1).p_pass
    opened = workbench.check("arrata", stat="B1", disadvantage=1, advantage=1, ob=1).p_pass
    assert abs(closed - 1 / 2) < 1e-12
    assert abs(opened - 17 / 36) < 1e-12


@FAST
@given(advantage=st.integers(-5, 5), ladder=st.sampled_from(["steps", "spectrum"]),
       kind=st.sampled_from(["narrative", "d6"]))
def test_erzahlspiel_pass_rises_with_advantage(advantage, ladder, kind):
    def p(level):
        return workbench.check("erzahlspiel", advantage=level, ladder=ladder, dice=kind).p_pass
    assert p(advantage + 1) >= p(advantage) - EPS
