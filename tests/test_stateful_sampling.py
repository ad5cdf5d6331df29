"""Stateful simulators drawing checks from exact tables against the dice-rolling kernels.

The table sampler and the dice roller use their random numbers differently, so they agree
in distribution, not draw for draw: two-sample chi-square tests on the counts of each
(fixed seeds, so the outcome of every test is fixed; p-values below 1e-4 would fail).
"""
import os
import subprocess
import sys
from pathlib import Path

import mpmath
import numpy as np
import pytest

from workbench.stateful import burn_scene, clock, drama_campaign, rounds_until_hits, taken_out
from workbench.engine import sampling as _sampling
from workbench.engine.sampling import (GUIDE_BITS, OutcomeTables, events_distribution,
                                          rolling_dice)

ROOT = Path(__file__).resolve().parents[1]
TRIALS = 60_000
P_MIN = 1e-4


def two_sample_pvalue(first, second) -> float:
    """Chi-square test that two count vectors come from one distribution (2 x K table);
    columns with fewer than 10 counts in all are pooled into one."""
    table = np.array([first, second], dtype=float)
    small = table.sum(axis=0) < 10
    if small.any():
        table = np.column_stack([table[:, ~small], table[:, small].sum(axis=1)])
    table = table[:, table.sum(axis=0) > 0]
    expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0) / table.sum()
    statistic = float(((table - expected) ** 2 / expected).sum())
    dof = table.shape[1] - 1
    return float(mpmath.gammainc(dof / 2.0, statistic / 2.0, mpmath.inf, regularized=True))


def combined_pvalue(pairs) -> float:
    """Sum of independent 2 x 2 chi-squares (one per pair of pass/fail counts)."""
    statistic, dof = 0.0, 0
    for a, b in pairs:
        table = np.array([a, b], dtype=float)
        expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0) / table.sum()
        if (expected > 0).all():
            statistic += float(((table - expected) ** 2 / expected).sum())
            dof += 1
    return float(mpmath.gammainc(dof / 2.0, statistic / 2.0, mpmath.inf, regularized=True))


def both(run):
    """The same call with table sampling (default) and rolling every die."""
    sampled = run()
    with rolling_dice():
        rolled = run()
    return sampled, rolled


def step_counts(result) -> np.ndarray:
    return np.rint(result.frame["probability"].to_numpy() * result.trials)


def test_guided_inversion_matches_plain_inversion_for_every_guide_cell():
    probs = np.array([0.1, 0.0, 0.35, 1e-9, 0.05, 0.5 - 1e-9])
    from workbench.engine._kernels.sampled import draw

    tables = OutcomeTables([(probs, {"value": np.arange(6)})])
    cdf = np.cumsum(probs)
    cells = 1 << GUIDE_BITS
    # The first and last uniform of every guide cell, and one inside each outcome's range.
    uniforms = np.concatenate([np.arange(cells) / cells, (np.arange(cells) + 1) / cells - 2.0**-53,
                               cdf[:-1] - 2.0**-53, cdf[:-1]])
    uniforms = uniforms[(uniforms >= 0) & (uniforms < 1)]
    for u in uniforms:
        whole = int(u * 2.0**53)      # the 53-bit uniform whole / 2**53 that a word carries
        word, u = np.uint64(whole) << np.uint64(11), whole / 2.0**53
        expected = int(np.searchsorted(tables.cdf[0], u, side="right"))
        assert draw(word, tables.cdf, tables.guide, 0) == expected
    assert tables.cdf[0, -1] == np.inf and (tables.guide[0] != 1).all()   # P = 0 never drawn


def test_refill_event_table_sums_to_one_and_caps_the_tail():
    poisson = events_distribution(1, 0.7, 3)
    assert poisson.sum() == pytest.approx(1.0)
    assert poisson[0] == pytest.approx(np.exp(-0.7))
    assert events_distribution(0, 0.25, 5).tolist() == [0.75, 0.25, 0, 0, 0, 0]


# A campaign without refills: the pool level before each check is fixed, so the checks are
# independent and their pass counts give independent 2 x 2 tests.
SESSION = [{"d6": 2, "target": 2}, {"d6": 3, "d8": 1}, {"d6": 1, "penalty": 1},
           {"d6": 4, "d8": 2, "target": 3}, {"d8": 2, "bonus": 1}] * 2


@pytest.mark.parametrize("policy", ["always", "when_likely_to_fail", [1, 0, 2, 1, 2] * 2])
def test_drama_tables_agree_with_rolled_dice(policy):
    sampled, rolled = both(lambda: drama_campaign(SESSION, players=3, tier=1, policy=policy,
                                                  threshold=0.7, trials=TRIALS, seed=21))
    assert sampled.checks["mean_pool"].equals(rolled.checks["mean_pool"])
    passes = [(np.rint(s * TRIALS), np.rint(r * TRIALS))
              for s, r in zip(sampled.checks["p_pass_with"], rolled.checks["p_pass_with"])]
    assert combined_pvalue([([a, TRIALS - a], [b, TRIALS - b]) for a, b in passes]) > P_MIN
    total = TRIALS * len(SESSION)
    tiers = two_sample_pvalue(np.rint(sampled.tiers["with"] * total),
                              np.rint(rolled.tiers["with"] * total))
    assert tiers > P_MIN


@pytest.mark.parametrize("refill, rate", [("probability", 0.3), ("poisson", 0.8), ("probability", 0.02)])
def test_drama_refills_agree_with_rolled_dice(refill, rate):
    sampled, rolled = both(lambda: drama_campaign(SESSION, players=2, tier=0, start=0,
                                                  policy="always", refill=refill,
                                                  refill_rate=rate, trials=TRIALS, seed=5))
    for check in (2, 6, 9):   # pool levels before a few checks
        a = np.rint(sampled.pool_levels.iloc[check].to_numpy() * TRIALS)
        b = np.rint(rolled.pool_levels.iloc[check].to_numpy() * TRIALS)
        assert two_sample_pvalue(a, b) > P_MIN


def test_burn_tables_agree_with_rolled_dice():
    scene = [{"traits": ["Nimble"], "aspects": ["Thief"], "d6": 1, "target": 2}] * 3 + [
        "rest", {"traits": ["Nimble", "Quick"], "d6": 2}]
    sampled, rolled = both(lambda: burn_scene(scene, traits={"Nimble": 2, "Quick": 1},
                                              aspects={"Thief": 2}, policy="always",
                                              trials=TRIALS, seed=9))
    assert sampled.stacks.equals(rolled.stacks)
    pairs = [([np.rint(s * TRIALS), TRIALS - np.rint(s * TRIALS)],
              [np.rint(r * TRIALS), TRIALS - np.rint(r * TRIALS)])
             for s, r in zip(sampled.checks["p_pass_with_burning"], rolled.checks["p_pass_with_burning"])]
    assert combined_pvalue(pairs) > P_MIN


@pytest.mark.parametrize("run", [
    lambda: taken_out("red", death_spiral=True, method="simulate", trials=TRIALS, seed=3),
    lambda: taken_out(mode="contest", actor="green", reactor="yellow", method="simulate",
                      trials=TRIALS, seed=3),
    lambda: clock(8, "yellow", method="simulate", trials=TRIALS, seed=3),
    lambda: rounds_until_hits("arrata", {"stat": "B4", "advantage": 1}, {"stat": "A3"}, 3,
                              method="simulate", trials=TRIALS, seed=3),
    lambda: rounds_until_hits("uwr", {"dice": 4}, {"dice": 3}, 2, method="simulate",
                              trials=TRIALS, seed=3),
], ids=["taken_out", "contest", "clock", "arrata_exchanges", "uwr_exchanges"])
def test_step_simulators_agree_with_rolled_dice(run):
    sampled, rolled = both(run)
    a, b = step_counts(sampled), step_counts(rolled)
    width = max(len(a), len(b))
    a, b = np.pad(a, (0, width - len(a))), np.pad(b, (0, width - len(b)))
    assert two_sample_pvalue(a, b) > P_MIN


def test_too_many_pools_fall_back_to_rolling(monkeypatch):
    run = lambda: clock(6, "green", method="simulate", trials=5_000, seed=2)  # noqa: E731
    with rolling_dice():
        rolled = run()
    monkeypatch.setattr(_sampling, "TABLE_POOLS_MAX", 0)
    assert run().frame.equals(rolled.frame)


def test_sampled_kernels_run_as_plain_python_and_match_the_compiled_ones():
    code = ("from workbench.stateful import drama_campaign, burn_scene, taken_out\n"
            "d = drama_campaign([{'d6': 2}, {'d6': 1, 'd8': 1, 'target': 2}] * 2, policy='always',"
            " refill='poisson', refill_rate=0.5, trials=300, seed=4)\n"
            "b = burn_scene([{'traits': ['A'], 'd6': 1}] * 2, traits={'A': 2}, policy='always',"
            " trials=300, seed=4)\n"
            "t = taken_out('red', method='simulate', trials=300, seed=4)\n"
            "print(d.checks.to_json(), d.pool_levels.to_json(), b.checks.to_json(),"
            " t.frame.to_json())")

    def run(**env):
        return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                              text=True, env={**os.environ, **env}, timeout=300)

    plain, compiled = run(NUMBA_DISABLE_JIT="1"), run()
    assert plain.returncode == 0, plain.stderr
    assert compiled.returncode == 0, compiled.stderr
    assert plain.stdout == compiled.stdout


def test_sampled_results_do_not_depend_on_thread_count():
    import numba

    def runs():
        drama = drama_campaign(SESSION, policy="always", refill="poisson", refill_rate=0.05,
                               trials=3 * 4096 + 5, seed=8)
        return (burn_scene([{"traits": ["A"], "d6": 1}] * 3, traits={"A": 2}, policy="always",
                           trials=3 * 4096 + 5, seed=8).checks,
                taken_out("yellow", mode="contest", reactor="red", method="simulate",
                          trials=3 * 4096 + 5, seed=8).frame,
                drama.pool_levels, drama.checks)

    threads = numba.get_num_threads()
    results = []
    for count in sorted({1, threads, 2} & set(range(1, numba.config.NUMBA_NUM_THREADS + 1))):
        numba.set_num_threads(count)
        try:
            results.append(runs())
        finally:
            numba.set_num_threads(threads)
    for other in results[1:]:
        assert all(a.equals(b) for a, b in zip(results[0], other))


def test_openmp_threads_wait_passively_unless_the_user_chose():
    """Spinning OpenMP threads took the core the next short call's preparation needed
    (benchmarks/bench_stateful.py); a policy the user set is kept."""
    code = ("import os, workbench.engine.sampling, workbench.engine._kernels.sampled\n"
            "print(os.environ['OMP_WAIT_POLICY'])")

    def policy(**env):
        clean = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                              text=True, env={**clean, **env}, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert policy() == "passive"
    assert policy(OMP_WAIT_POLICY="active") == "active"
