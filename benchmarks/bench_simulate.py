"""Speed of the bulk simulator against a numpy baseline measured in the same run.

Run from the repository root: ``python -m benchmarks.bench_simulate`` (``--rolls``: the
second section only). Prints dice/s for
10d6 success counting and for Arrata B30 open-ended with disadvantage (advantage 1,
disadvantage 1), on one thread and on all threads, the ratios, the start-up time of a fresh
process whose kernels load from numba's cache, and one PASS/MISS line per target.

The machine is shared, so every figure is the best of ``BENCH_REPEATS`` (default 5) repeats
of ``BENCH_DICE`` (default 4e8) dice, with all measurements taking turns in each round; the
load average is printed at the start and the end.
The baseline: ``Generator.integers`` over a (trials, dice) array on one thread, with int8
faces (numpy's fastest; its default int64 faces are printed too). Target: ``simulate`` on all
cores at least 12x that baseline, for each pool.

A second section times rolls with statistics from the gallery, every die rolled
(``workbench.engine.roll_simulation``; sums over dice alone as one sum,
``workbench.engine.summed_roll``): Shadowrun 5e's 12 dice read for hits and ones, Cortex
Prime's 8 dice (two each of d6, d8, d10, d12) keeping the two highest, L5R 4e's 10k5 with
10s exploding. Each against the same roll written in plain numpy (int8 faces from
``Generator.integers``, vectorised over a million checks at a time, one thread), measured in
the same rounds: ``BENCH_ROLL_DICE`` (default 4e7) dice a repeat; dice/s count every die
rolled, explosions included (on average). No target: the figures and ratios are reported.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np

import workbench
from workbench.engine.simulation import simulate_raw

ROOT = Path(__file__).resolve().parents[1]
DICE_PER_REPEAT = float(os.environ.get("BENCH_DICE", 4e8))
"""Dice rolled per timed repeat of the simulator (about 0.3-1 s each on this machine)."""
REPEATS = int(os.environ.get("BENCH_REPEATS", 5))
NUMPY_CHUNK = 1_000_000
ROLL_DICE = float(os.environ.get("BENCH_ROLL_DICE", 4e7))
"""Dice rolled per timed repeat of each roll with statistics (and of its numpy baseline)."""


def timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def numpy_work(trials: int, dice: int, dtype):
    """Vectorised d6 success counting: Generator.integers over a (trials, dice) array."""
    rng = np.random.default_rng(1)

    def work():
        for start in range(0, trials, NUMPY_CHUNK):
            rows = min(NUMPY_CHUNK, trials - start)
            faces = rng.integers(1, 7, size=(rows, dice), dtype=dtype)
            np.bincount((faces >= 5).sum(axis=1), minlength=dice + 1)
    return work


def _numpy_shadowrun(rng, checks):
    """12 d6: hits (5-6) and ones, counted together."""
    faces = rng.integers(1, 7, size=(checks, 12), dtype=np.int8)
    hits, ones = (faces >= 5).sum(axis=1), (faces == 1).sum(axis=1)
    return np.bincount(hits * 13 + ones, minlength=169)


def _numpy_cortex(rng, checks):
    """Two each of d6, d8, d10, d12: the two highest added (a 1 adds 0), and the 1s."""
    faces = np.concatenate([rng.integers(1, sides + 1, size=(checks, 2), dtype=np.int8)
                            for sides in (6, 8, 10, 12)], axis=1)
    hitches = (faces == 1).sum(axis=1)
    best = np.sort(faces, axis=1)[:, -2:].astype(np.int64)
    kept = np.where(best == 1, 0, best).sum(axis=1)
    return np.unique(kept * 16 + hitches, return_counts=True)


def _numpy_l5r(rng, checks):
    """10 d10, each 10 rolled again and added: the five highest chains added."""
    chains = np.zeros((checks, 10), np.int64)
    rolling = np.ones((checks, 10), bool)
    while rolling.any():
        faces = rng.integers(1, 11, size=int(rolling.sum()), dtype=np.int8)
        chains[rolling] += faces
        rolling[rolling] = faces == 10
    return np.unique(np.sort(chains, axis=1)[:, -5:].sum(axis=1), return_counts=True)


def rolls_with_statistics() -> dict:
    """label -> (roll description, its numpy baseline, dice rolled per check on average)."""
    from workbench.engine.roll_simulation import rolled_per_roll

    def roll(system, **params):
        found = workbench.system(system)
        return found.mechanic.pool(found.resolve(**params))
    rolls = {"Shadowrun 5e, 12 dice: hits and ones": (roll("shadowrun-5e", dice=12), _numpy_shadowrun),
             "Cortex Prime, 8 dice: two highest": (
                 roll("cortex-prime", d4=0, d6=2, d8=2, d10=2, d12=2), _numpy_cortex),
             "L5R 4e, 10k5, 10s explode": (roll("l5r-4e", roll=10, keep=5), _numpy_l5r)}
    return {label: (spec, baseline, rolled_per_roll(spec)) for label, (spec, baseline) in rolls.items()}


def numpy_roll_work(baseline, trials: int):
    rng = np.random.default_rng(1)

    def work():
        for start in range(0, trials, NUMPY_CHUNK):
            baseline(rng, min(NUMPY_CHUNK, trials - start))
    return work


def with_threads(threads: int, work):
    def run():
        before = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            work()
        finally:
            numba.set_num_threads(before)
    return run


def best_rates(works: dict, dice: dict) -> dict:
    """Dice per second of each work, best of ``REPEATS`` rounds. The works take turns
    within each round, so a burst of load from other processes hits them alike."""
    best = {name: 0.0 for name in works}
    for _ in range(REPEATS):
        for name, work in works.items():
            best[name] = max(best[name], dice[name] / timed(work))
    return best


def cold_start() -> tuple[float, float]:
    """A fresh process: (import + first 10d6 simulate inside it, whole process wall time)."""
    code = ("import time; t = time.perf_counter()\n"
            "from workbench import simulate\n"
            "simulate('uwr', trials=10_000, seed=1, dice=10)\n"
            "print(time.perf_counter() - t)")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    return float(done.stdout.strip()), time.perf_counter() - start


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def main() -> None:
    threads = numba.config.NUMBA_NUM_THREADS
    if "--rolls" in sys.argv[1:]:   # the rolls with statistics only
        roll_rows(threads)
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
        return
    pools = {"10d6 success counting": (workbench.system("uwr").pool(dice=10), 10.0),
             # Open-ended: each die rolls 1 / (1 - 1/6) = 1.2 dice on average.
             "Arrata B30, adv 1, dis 1": (workbench.system("arrata").pool(
                 stat="B30", advantage=1, disadvantage=1), 30 / (1 - 1 / 6))}
    numpy_trials = int(DICE_PER_REPEAT / 2 / 10)
    works = {"numpy int8": numpy_work(numpy_trials, 10, np.int8),
             "numpy int64": numpy_work(numpy_trials, 10, np.int64)}
    dice = {"numpy int8": numpy_trials * 10, "numpy int64": numpy_trials * 10}
    for label, (spec, per_check) in pools.items():
        trials = int(DICE_PER_REPEAT / per_check)
        simulate_raw(spec, 1000, seed=1)  # compile or load from cache outside the timing
        for count in (1, threads):
            name = f"{label} / {count}"
            works[name] = with_threads(count, lambda spec=spec, trials=trials: simulate_raw(spec, trials, seed=1, progress=False))
            dice[name] = trials * per_check
    print(f"dice per repeat: {DICE_PER_REPEAT:.1e} (numpy: half); best of {REPEATS}; numba threads: "
          f"{threads}; load average now: {os.getloadavg()[0]:.2f}")
    rates = best_rates(works, dice)
    baseline, fastest = rates["numpy int64"], rates["numpy int8"]
    print(f"numpy baseline, 10d6 success counting (default int64 faces): {baseline / 1e6:8.1f} M dice/s "
          f"(int8 faces: {fastest / 1e6:.1f} M dice/s)")
    rows = []
    for label in pools:
        one, every = rates[f"{label} / 1"], rates[f"{label} / {threads}"]
        rows.append((label, one, every))
        print(f"{label:28s} 1 thread: {one / 1e6:8.1f} M dice/s ({one / fastest:5.2f}x numpy int8); "
              f"{threads} threads: {every / 1e6:8.1f} M dice/s ({every / fastest:5.2f}x numpy int8, "
              f"{every / one:4.2f}x one thread)")
    roll_rows(threads)
    starts = [cold_start() for _ in range(3)]
    inside, wall = min(starts)
    print(f"fresh process, import + first simulate (best of 3): {inside:.3f} s "
          f"(whole process {wall:.3f} s; load average {os.getloadavg()[0]:.2f})")
    for label, one, every in rows:
        print(f"{verdict(every >= 12 * fastest)}  {label}: {threads} threads >= 12x numpy int8 on "
              f"one thread ({every / fastest:.2f}x; one thread {one / fastest:.2f}x, "
              f"{one / baseline:.2f}x numpy int64)")
        print(f"{verdict(every >= 1.7 * one)}  {label}: all threads >= 1.7x one thread "
              f"({every / one:.2f}x)")
    print(f"{verdict(inside < 1.0)}  second process starts simulating in < 1 s ({inside:.3f} s)")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


def roll_rows(threads: int) -> None:
    """The rolls with statistics against their numpy baselines (see the module docstring)."""
    works, dice = {}, {}
    for label, (spec, baseline, per_check) in rolls_with_statistics().items():
        trials = int(ROLL_DICE / per_check)
        simulate_raw(spec, 1000, seed=1)  # compile or load from cache outside the timing
        works[f"{label} / numpy"] = numpy_roll_work(baseline, trials)
        dice[f"{label} / numpy"] = trials * per_check
        for count in (1, threads):
            name = f"{label} / {count}"
            works[name] = with_threads(count, lambda spec=spec, trials=trials: simulate_raw(
                spec, trials, seed=1, progress=False))
            dice[name] = trials * per_check
    print(f"rolls with statistics: {ROLL_DICE:.1e} dice per repeat, best of {REPEATS}; load average "
          f"now: {os.getloadavg()[0]:.2f}")
    rates = best_rates(works, dice)
    for label in rolls_with_statistics():
        base, one, every = (rates[f"{label} / {n}"] for n in ("numpy", 1, threads))
        print(f"{label:38s} numpy (1 thread): {base / 1e6:7.1f} M dice/s; simulate 1 thread: "
              f"{one / 1e6:7.1f} M dice/s ({one / base:5.2f}x numpy); {threads} threads: "
              f"{every / 1e6:7.1f} M dice/s ({every / base:5.2f}x numpy)")


if __name__ == "__main__":
    main()
