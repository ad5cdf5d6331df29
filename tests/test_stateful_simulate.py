"""Stateful simulators (numba) against exact answers, hand-checked cases and seeds."""
import math

import numpy as np
import pytest

from workbench import check
from workbench.errors import ParameterError
from workbench.stateful import (burn_scene, clock, drama_campaign, pool_maximum,
                                rounds_until_hits, taken_out)

TRIALS = 100_000


def agree(exact, simulated, sigmas=5.0):
    """Simulated step distribution and mean within a few standard errors of the exact one."""
    assert simulated.tail == 0.0
    assert abs(simulated.mean - exact.mean) < sigmas * simulated.mean_stderr
    merged = exact.frame.merge(simulated.frame, on=exact.quantity, how="outer",
                               suffixes=("_exact", "_sim")).fillna(0.0)
    gap = (merged["probability_exact"] - merged["probability_sim"]).abs()
    spread = np.sqrt(merged["probability_exact"] * (1 - merged["probability_exact"]) / simulated.trials)
    assert (gap <= sigmas * spread + 1e-9).all()


@pytest.mark.parametrize("kwargs", [
    {"actor": "yellow"},
    {"actor": "red", "death_spiral": True},
    {"mode": "resist", "reactor": "green", "death_spiral": True},
    {"mode": "contest", "actor": "green", "reactor": "yellow", "start": ["Moderate"]},
])
def test_taken_out_simulation_matches_the_chain(kwargs):
    exact = taken_out(**kwargs)
    simulated = taken_out(**kwargs, method="simulate", trials=TRIALS, seed=11)
    agree(exact, simulated)


@pytest.mark.parametrize("segments, die", [(4, "yellow"), (8, "red"), (10, "blue")])
def test_clock_simulation_matches_the_chain(segments, die):
    agree(clock(segments, die), clock(segments, die, method="simulate", trials=TRIALS, seed=5))


@pytest.mark.parametrize("system, actor, reactor, hits", [
    ("uwr", {"dice": 4}, {"dice": 3}, 2),
    ("fons", {"dice": 3, "attack_resolution": "defender_sets_target"}, {"dice": 3}, 1),
    ("arrata", {"stat": "B4", "advantage": 1}, {"stat": "A3"}, 3),
    ("arrata", {"stat": "A4", "disadvantage": 2, "disadvantage_mode": "obstacle"}, {"stat": "B2"}, 1),
])
def test_exchanges_simulation_matches_negative_binomial(system, actor, reactor, hits):
    exact = rounds_until_hits(system, actor, reactor, hits)
    simulated = rounds_until_hits(system, actor, reactor, hits, method="simulate",
                                  trials=TRIALS, seed=2)
    agree(exact, simulated)


def test_seeded_runs_repeat_and_seeds_differ():
    first = taken_out("yellow", method="simulate", trials=20_000, seed=9)
    again = taken_out("yellow", method="simulate", trials=20_000, seed=9)
    other = taken_out("yellow", method="simulate", trials=20_000, seed=10)
    assert first.frame.equals(again.frame)
    assert not first.frame.equals(other.frame)
    fresh = taken_out("yellow", method="simulate", trials=1_000, seed=None)
    assert isinstance(fresh.seed, int)


def test_results_do_not_depend_on_thread_count():
    import numba

    session = [{"d6": 3, "target": 2}, {"d6": 1, "d8": 1}] * 3
    threads = numba.get_num_threads()
    runs = []
    for count in sorted({1, threads}):
        numba.set_num_threads(count)
        try:
            runs.append(drama_campaign(session, policy="always", refill_rate=0.3,
                                       trials=3 * 4096 + 17, seed=4))
        finally:
            numba.set_num_threads(threads)
    assert all(r.checks.equals(runs[0].checks) for r in runs)
    assert all(r.pool_levels.equals(runs[0].pool_levels) for r in runs)


def test_drama_never_matches_the_exact_checks():
    session = [{"d6": 2}, {"d6": 3, "d8": 1, "target": 2}, {"d6": 1, "penalty": 1}]
    result = drama_campaign(session, policy="never", trials=TRIALS, seed=3)
    checks = result.checks
    assert (abs(checks["p_pass_with"] - checks["p_pass_without"]) < 5 * checks["stderr"] + 1e-9).all()
    assert (checks["mean_pulled"] == 0).all()
    tiers = result.tiers
    assert (abs(tiers["with"] - tiers["without"]) < 0.006).all()


def test_drama_first_check_with_a_full_pool_pulls_two_dice():
    result = drama_campaign([{"d6": 2, "target": 2}, {"d6": 2}], policy="always",
                            trials=TRIALS, seed=8)
    first = result.checks.iloc[0]
    exact = check("unnamed", d6=2, drama=2, target=2).p_pass
    assert abs(first["p_pass_with"] - exact) < 5 * first["stderr"]
    assert first["mean_pulled"] == 2.0


def test_drama_pool_levels_by_hand():
    # Full pool of 2*2 + 2*1 = 6, "always" pulls 2: 6, 4, 2, 0, 0; the next session adds 1.
    result = drama_campaign([{"d6": 1}] * 5, sessions=2, players=2, tier=1, policy="always",
                            trials=1_000, seed=1)
    mean = result.checks["mean_pool"].tolist()
    assert mean == [6, 4, 2, 0, 0, 1, 0, 0, 0, 0]
    assert result.summary.iloc[0]["empty_share"] == pytest.approx(0.6)
    assert result.pool_levels.shape == (10, pool_maximum(2, 1) + 1)


def test_drama_threshold_policy_spends_only_on_hard_checks():
    session = [{"d6": 6}, {"d6": 1, "target": 2}]   # P(pass) about 0.91, then 0
    result = drama_campaign(session, policy="when_likely_to_fail", threshold=0.5,
                            dice_per_spend=1, trials=5_000, seed=2)
    assert result.params["wanted"] == [0, 1]
    assert result.checks["mean_pulled"].tolist() == [0.0, 1.0]


@pytest.mark.parametrize("refill, rate", [("poisson", 0.7), ("probability", 0.4)])
def test_drama_refill_events(refill, rate):
    # Start empty; the session's +1 is pulled at once, then refills alone set the level.
    result = drama_campaign([{"d6": 1}] * 2, players=1, tier=0, start=0, policy="always",
                            refill=refill, refill_rate=rate, trials=TRIALS, seed=6)
    levels = result.pool_levels.iloc[1]
    if refill == "poisson":
        expected = [math.exp(-rate), rate * math.exp(-rate)]
        expected.append(1 - sum(expected))   # pool max 2: more events cannot be kept
    else:
        expected = [1 - rate, rate, 0.0]
    assert np.allclose(levels.to_numpy(), expected, atol=0.006)


def test_drama_list_of_sessions_and_generators():
    sessions = [({"d6": k} for k in (1, 2)), [], [{"d6": 3}]]
    result = drama_campaign(sessions, policy="always", players=1, tier=0, start=0,
                            trials=2_000, seed=1)
    # +1 before session 1; session 2 is empty and passes its die on to session 3.
    assert result.checks["mean_pool"].tolist() == [1, 0, 2]
    assert list(result.checks.index) == [(1, 1), (1, 2), (3, 1)]


def test_burn_never_matches_exact_and_always_drops_stacks():
    scene = [{"traits": ["Nimble"], "aspects": ["Thief"], "d6": 1}] * 3 + ["rest",
             {"traits": ["Nimble"], "d6": 1}]
    never = burn_scene(scene, traits={"Nimble": 2}, aspects={"Thief": 1}, policy="never",
                       trials=TRIALS, seed=1)
    checks = never.checks
    assert (abs(checks["p_pass_with_burning"] - checks["p_pass_without_burning"]) < 5 * checks["stderr"]).all()
    always = burn_scene(scene, traits={"Nimble": 2}, aspects={"Thief": 1}, policy="always",
                        trials=20_000, seed=1)
    # Check 1 burns the Aspect (+1 success beats 2 d8s): (2, 0); checks 2 and 3 burn the
    # Trait: (1, 0), (0, 0); the rest restores the Trait, furthest below its stack: (1, 0).
    assert always.stacks.to_numpy().tolist() == [[2, 1], [2, 0], [1, 0], [1, 0]]
    assert always.checks["p_burn_aspect"].tolist() == [1, 0, 0, 0]
    assert always.checks["p_burn_trait"].tolist() == [0, 1, 1, 1]
    assert always.summary.iloc[0]["pass_with_burning"] > never.summary.iloc[0]["pass_with_burning"]


def test_burn_first_check_matches_exact_burned_pool():
    result = burn_scene([{"traits": ["Strong"], "target": 2}], traits={"Strong": 3},
                        policy="always", trials=TRIALS, seed=4)
    exact = check("unnamed", d8=3, target=2).p_pass   # the Trait's 3 d6 become 3 d8
    row = result.checks.iloc[0]
    assert abs(row["p_pass_with_burning"] - exact) < 5 * row["stderr"]


def test_progress_bar_and_chunking_do_not_change_results(capsys, monkeypatch):
    from workbench.stateful import _common

    trials = 5 * _common.BLOCK_TRIALS + 5
    quiet = clock(4, "green", method="simulate", trials=trials, seed=12, progress=False)
    monkeypatch.setattr(_common, "CHUNK_BLOCKS", 2)   # three kernel calls instead of one
    shown = clock(4, "green", method="simulate", trials=trials, seed=12, progress=True)
    assert quiet.frame.equals(shown.frame)
    assert "clock" in capsys.readouterr().err


def test_campaign_computes_each_different_check_once_with_a_bar(monkeypatch, capsys):
    """A campaign's exact odds (which the policy reads) are computed once per different
    check, with a bar when asked; the campaign is the one the checks give."""
    import workbench.stateful.drama as drama

    calls = []
    real = drama.check
    monkeypatch.setattr(drama, "check", lambda system, **params: (calls.append(params), real(system, **params))[1])
    checks = [{"d6": 2}, {"d6": 3, "target": 2}, {"d6": 2}] * 4
    result = drama.drama_campaign(checks, trials=2000, seed=3, progress=True)
    assert len(calls) == 2
    assert "exact odds of each check" in capsys.readouterr().err
    monkeypatch.setattr(drama, "check", real)
    again = drama.drama_campaign(checks, trials=2000, seed=3, progress=False)
    assert result.checks.equals(again.checks)
    assert list(result.checks["p_pass_without"]) == pytest.approx(
        [real("unnamed", **c).p_pass for c in checks])


def test_campaign_start_names_what_it_allows():
    most = pool_maximum(3, 1, "seed")
    with pytest.raises(ParameterError, match=rf"start.*'empty'.*\"full\" or a number of dice from 0 to {most}"):
        drama_campaign([{"d6": 2}], players=3, tier=1, start="empty")


@pytest.mark.parametrize("make", [
    lambda **k: clock(4, "black", max_rolls=20, **k),
    lambda **k: taken_out("green", max_exchanges=4, **k),
    lambda **k: rounds_until_hits("uwr", {"dice": 2}, {"dice": 6}, hits=3, max_rounds=6, **k),
], ids=["clock", "taken_out", "rounds_until_hits"])
def test_cut_runs_give_the_same_mean_exact_and_simulated(make):
    """Cut at max_*, both methods give the mean of the runs that ended within the table (the
    exact one was the uncut expectation: 24.0 against a simulated 14.68 for the clock)."""
    exact = make()
    simulated = make(method="simulate", trials=TRIALS, seed=4, progress=False)
    assert exact.tail > 0.05 and abs(simulated.tail - exact.tail) < 5 * math.sqrt(exact.tail / TRIALS)
    assert abs(simulated.mean - exact.mean) < 5 * simulated.mean_stderr
    rows = exact.frame
    assert exact.mean == pytest.approx((rows.iloc[:, 0] * rows["probability"]).sum() / rows["probability"].sum())


def test_a_bad_check_in_a_campaign_is_named_by_session_and_check():
    with pytest.raises(ParameterError, match=r"session 2 check 2: d6' got -1; allowed: a whole number"):
        drama_campaign([[{"d6": 2}], [{"d6": 3}, {"d6": -1}]], trials=10, seed=1)
