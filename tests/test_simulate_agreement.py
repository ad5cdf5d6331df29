"""The bulk simulator agrees with the exact engine, for every system and rule option.

Each case simulates 2e6 checks with a fixed seed and compares with ``workbench.check``:
a chi-square test over all outcomes (rare outcomes pooled so every cell expects >= 5), the
same over tiers (which holds the Unnamed Disaster row), and a z-test of P(pass).

Thresholds: a chi-square p-value below 1e-9 or |z| > 6.5 fails. Over the ~50 cases and up
to three tests each (~150 tests), a correct simulator fails a run with probability below
150 * 1e-9 < 1e-6, while a wrong face weight of 0.5% in a common outcome is caught.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from _stats import chisquare_pvalue

import workbench
from workbench import simulate

EDGE = str(Path(__file__).resolve().parents[1] / "data" / "examples" / "d10-edge.toml")
TRIALS = 2_000_000
SEED = 20240611
P_MIN = 1e-9
Z_MAX = 6.5

CASES = [
    # UWR / FoNS: favor, rerolls, half die, die penalty.
    ("uwr", dict(dice=4)),
    ("uwr", dict(dice=5, favor=1, target=2)),
    ("uwr", dict(dice=3, favor=2, target=2)),
    ("uwr", dict(dice=6, favor=-1, target=1)),
    ("uwr", dict(dice=4, favor=-3, rerolls=2, target=1)),
    ("uwr", dict(dice=5, rerolls=2, target=3)),
    ("uwr", dict(dice=3, half=True, rerolls=1, target=2)),
    ("uwr", dict(dice=6, penalty=2, target=2)),
    ("uwr", dict(dice=2, penalty=5, rerolls=1, target=1)),
    ("uwr", dict(dice=3, favor=4, target=3)),
    ("fons", dict(dice=4, favor=1, rerolls=1, half=True, target=2)),
    ("fons", dict(dice=7, penalty=3, favor=-1, target=1)),
    ("fons-exploding", dict(dice=4, target=2)),
    ("fons-exploding", dict(dice=5, rerolls=2, favor=1, target=4)),
    ("fons-exploding", dict(dice=3, half=True, favor=-2, target=1)),
    ("d10-pool", dict(dice=5, rerolls=1, target=2)),
    # The Unnamed System: d8, bonus/penalty, free successes, drama, stunt, Origin options.
    ("unnamed", dict(d6=4)),
    ("unnamed", dict(d6=1)),
    ("unnamed", dict(d6=2, d8=2)),
    ("unnamed", dict(d8=3, target=2)),
    ("unnamed", dict(d6=3, bonus=2, penalty=1)),
    ("unnamed", dict(d6=3, bonus=1, penalty=2)),
    ("unnamed", dict(d6=2, penalty=2)),
    ("unnamed", dict(d6=3, free_successes=1, target=2)),
    ("unnamed", dict(d6=2, drama=2, stunt=True, target=3)),
    ("unnamed", dict(d6=4, d8=1, bounce_on=6)),
    ("unnamed", dict(d6=2, d8=2, fail_on=2)),
    ("unnamed", dict(d6=1, d8=1, bounce_on=6, fail_on=2, penalty=1, free_successes=2)),
    # Arrata: qualities, advantage and disadvantage levels, and every rule option.
    ("arrata", dict(stat="B5", ob=2)),
    ("arrata", dict(stat="A4", ob=3)),
    ("arrata", dict(stat="S7", ob=5)),
    ("arrata", dict(stat="B5", advantage=1, ob=3)),
    ("arrata", dict(stat="A4", advantage=3, ob=4)),
    ("arrata", dict(stat="B6", disadvantage=1, ob=2)),
    ("arrata", dict(stat="A6", disadvantage=3, ob=2)),
    ("arrata", dict(stat="B6", advantage=1, disadvantage=1, ob=2)),
    ("arrata", dict(stat="S5", advantage=3, disadvantage=3, ob=3)),
    ("arrata", dict(stat="B5", disadvantage=3, disadvantage_mode="obstacle", ob=1)),
    ("arrata", dict(stat="B4", disadvantage=1, allow_negative=True, ob=1)),
    ("arrata", dict(stat="S4", advantage=1, disadvantage=2, allow_negative=True, ob=3)),
    ("arrata", dict(stat="A5", advantage=3, disadvantage=1, combine="net", ob=3)),
    ("arrata", dict(stat="A5", advantage=1, disadvantage=3, combine="net", ob=1)),
    ("arrata-cancelling", dict(stat="B5", advantage=2, disadvantage=1, ob=2)),
    # Erzählspiel: every colour, the spectrum ladder, the d6 variant kept high/low.
    *[("erzahlspiel", dict(die=colour)) for colour in ("black", "red", "yellow", "green", "blue")],
    ("erzahlspiel", dict(advantage=3, ladder="spectrum")),
    ("erzahlspiel", dict(advantage=-5, ladder="spectrum")),
    *[("erzahlspiel", dict(dice="d6", advantage=level)) for level in (-2, -1, 0, 1, 2)],
    ("erzahlspiel-six-dice", dict(advantage=3)),
    # Designed pools (data files): a capped explosion of a double-success face, a cancelling
    # face, Edge rerolls of misses; the Unnamed readings added as rule options.
    (EDGE, dict(dice=5, target=2)),
    (EDGE, dict(dice=4, edge=2, target=3)),
    ("unnamed", dict(d6=3, d8=2, bounce_on=6, origin_bounce="d6_only", target=2)),
    ("unnamed", dict(d6=2, fail_on=2, free_successes=2, disaster="unless_net_passes")),
]


def chi_square_p(observed_probs: dict, exact_probs: dict, trials: int) -> float:
    """p-value of simulated frequencies against exact probabilities.

    Cells expecting fewer than 5 counts are pooled into one; an outcome the exact engine
    calls impossible (or cut off below 1e-15) lands in that pool too.
    """
    outcomes = list(dict.fromkeys([*exact_probs, *observed_probs]))
    observed = np.array([observed_probs.get(o, 0.0) for o in outcomes]) * trials
    expected = np.array([exact_probs.get(o, 0.0) for o in outcomes]) * trials
    observed = np.rint(observed)
    common = expected >= 5
    obs = list(observed[common])
    exp = list(expected[common])
    rare_obs, rare_exp = observed[~common].sum(), expected[~common].sum()
    if rare_obs or rare_exp:
        # A pooled cell expecting almost nothing but seeing counts is the failure we want
        # to catch; keep it (with a floor so the statistic stays finite).
        obs.append(rare_obs)
        exp.append(max(rare_exp, 1e-3))
    if len(obs) < 2:
        return 1.0
    exp = np.array(exp) * (sum(obs) / sum(exp))
    return float(chisquare_pvalue(obs, exp))


@pytest.mark.parametrize("system, params", CASES,
                         ids=[f"{Path(s).stem}-" + ",".join(f"{k}={v}" for k, v in p.items()) for s, p in CASES])
def test_simulation_matches_exact(system, params):
    simulated = simulate(system, trials=TRIALS, seed=SEED, **params)
    exact = workbench.check(system, **params)
    assert simulated.method == "simulate" and simulated.trials == TRIALS and simulated.seed == SEED
    assert simulated.params == exact.params

    p_value = chi_square_p(dict(simulated.pmf.items()), dict(exact.pmf.items()), TRIALS)
    assert p_value > P_MIN, f"outcomes disagree (chi-square p = {p_value:.3g})"

    if exact.tiers is not None:
        p_value = chi_square_p(dict(simulated.tiers.items()), dict(exact.tiers.items()), TRIALS)
        assert p_value > P_MIN, f"tiers disagree (chi-square p = {p_value:.3g})"

    if exact.p_pass is not None:
        if exact.p_pass in (0.0, 1.0):
            assert simulated.p_pass == exact.p_pass
        else:
            spread = math.sqrt(exact.p_pass * (1 - exact.p_pass) / TRIALS)
            z = (simulated.p_pass - exact.p_pass) / spread
            assert abs(z) < Z_MAX, f"P(pass) {simulated.p_pass} vs exact {exact.p_pass} (z = {z:.2f})"


def test_disaster_row_of_a_one_die_pool():
    """One d6 under negative Origin (fail on 1-2): Disaster exactly when it shows 1 or 2."""
    result = simulate("unnamed", trials=TRIALS, seed=SEED, d6=1, fail_on=2)
    disaster = result.tiers["Disaster"]
    assert abs(disaster - 1 / 3) < Z_MAX * math.sqrt(2 / 9 / TRIALS)
    # A Disaster is never a pass, and "Failure" (net <= -1 without Disaster) cannot happen
    # with one die: its only failing faces make the Disaster.
    assert result.tiers["Failure"] == 0.0
    assert abs(result.p_pass - 1 / 3) < Z_MAX * math.sqrt(2 / 9 / TRIALS)


def test_penalty_failures_do_not_make_a_disaster():
    """No dice at all: never a Disaster, whatever the penalty (RULES.md: the pool had >= 1 die)."""
    result = simulate("unnamed", trials=10_000, seed=SEED, d6=0, penalty=2)
    assert result.tiers["Disaster"] == 0.0
    assert result.pmf[-2] == 1.0
