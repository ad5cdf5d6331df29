"""Benchmark: 1e6 simulated sessions of 20 checks each with Drama Dice, all threads.

Target: under 2 s (after compilation). Baseline measured in the same run: the same
campaign on one thread, so the figure and the threading speed-up come from one machine
state. Run: ``python -m benchmarks.bench_stateful`` (``--trials N`` to change the size).
"""
from __future__ import annotations

import argparse
import time

TARGET_SECONDS = 2.0

# A session of 20 checks: mixed pools and targets, as a GM might call them.
SESSION = [{"d6": 2 + (i % 3), "d8": i % 2, "target": 1 + (i % 4 == 3)} for i in range(20)]


def run(trials: int, seed: int = 7):
    from workbench.stateful import drama_campaign

    return drama_campaign(SESSION, players=4, tier=1, policy="when_likely_to_fail",
                          threshold=0.6, refill_rate=0.1, trials=trials, seed=seed,
                          progress=False)


def timed(trials: int) -> tuple[float, object]:
    start = time.perf_counter()
    result = run(trials)
    return time.perf_counter() - start, result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1_000_000, help="sessions simulated")
    args = parser.parse_args(argv)

    import numba

    run(10_000)  # compile (or load the cache) outside the timings
    threads = numba.get_num_threads()
    seconds, result = timed(args.trials)
    checks = args.trials * len(SESSION)
    numba.set_num_threads(1)
    try:
        one_seconds, one_result = timed(args.trials)
    finally:
        numba.set_num_threads(threads)
    same = result.checks.equals(one_result.checks)
    row = result.summary.iloc[0]
    print(f"drama campaigns: {args.trials:,} sessions x {len(SESSION)} checks = {checks:,} checks")
    print(f"  {threads} threads: {seconds:.3f} s ({checks / seconds:,.0f} checks/s)")
    print(f"  1 thread (baseline): {one_seconds:.3f} s; speed-up x{one_seconds / seconds:.2f}")
    print(f"  identical results for 1 and {threads} threads: {same}")
    print(f"  pass rate without {row['pass_without']:.4f}, with Drama Dice {row['pass_with']:.4f}, "
          f"empty pool {row['empty_share']:.3f}")
    verdict = "PASS" if seconds < TARGET_SECONDS and same else "MISS"
    print(f"{verdict}: {seconds:.3f} s against the {TARGET_SECONDS:.1f} s target"
          + ("" if same else " (results differ between thread counts)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
