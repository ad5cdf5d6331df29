"""Speed of the exact engine and of one check, against icepool and dyce in the same run.

Run from the repository root: ``python -m benchmarks.bench_exact``. Every figure is the best
of several timed repetitions (the machine is shared); the load average is printed with them.

The comparison: the exact distribution of 10, 30 and 100 d6 counting successes (5+) and of
10, 30 and 100 open-ended d6 (4+ succeeds, a 6 succeeds and rolls again: Arrata's open roll),
computed by

- **ours**: the engine on the pool a system describes, with *every* cache cleared before each
  repetition (computed distributions, explosion chains, the table of log-factorials);
- **icepool** and **dyce**: a fresh die object each repetition, summed ``n`` times (their
  idiom for a pool; open-ended dice through icepool's ``Again`` and dyce's ``expand``, followed
  as deep as it takes to leave out at most 1e-12, where ours leaves out far less), and the
  probabilities read (icepool's exact fractions; dyce's as floats, its quickest).

Target: ours at least 10x faster than each of them on every row. Beside it, the full public
``workbench.check`` three ways: with every cache cleared (a fresh session), with the computed
distributions cleared but the setting remembered (a slightly changed check), and repeated.
Then the other cases of the speed table and the five-system side-by-side table.
"""
from __future__ import annotations

import math
import os
from operator import truediv
import time
import warnings
from fractions import Fraction
from pathlib import Path

import workbench
from workbench import analysis
from workbench.engine import closed, exact
from workbench.engine import work as work_estimate
from workbench.engine import exact_distribution
from workbench.engine.exact import exact_raw
from workbench.results import reading_totals

EDGE = str(Path(__file__).resolve().parents[1] / "data" / "examples" / "d10-edge.toml")
RATIO_TARGET = 10.0
CHECK_TARGET = 1e-3
TABLE_TARGET = 50e-3
FIVE = ["uwr", "fons", "unnamed", "arrata", "erzahlspiel"]
BUDGET = 0.4
"""Seconds of repetitions per figure (at least 5 repetitions; the best one counts)."""

ROWS = [(f"{n}d6 success count", "uwr", {"dice": n}, n, False) for n in (10, 30, 100)] + \
       [(f"{n} open-ended d6", "arrata", {"dice": n, "advantage": 1}, n, True) for n in (10, 30, 100)]

CASES = [
    ("Arrata B30 open-ended, disadvantage 1", "arrata",
     {"quality": "B", "dice": 30, "advantage": 1, "disadvantage": 1}),
    ("Unnamed 5d6 + 3d8", "unnamed", {"d6": 5, "d8": 3}),
    ("designed: 30 d10, capped 10s, Edge 2", EDGE, {"dice": 30, "edge": 2}),
    ("designed: 30 d10, capped 10s", EDGE, {"dice": 30}),
]


def forget_numbers() -> None:
    """Forget every computed distribution and estimate: exact results, explosion chains and
    their work estimates, log-factorials, tier cells."""
    exact_raw.cache_clear()
    exact._die_chain.cache_clear()
    exact._chain.cache_clear()
    work_estimate.chain_shape.cache_clear()
    closed.forget()
    reading_totals._CELLS.clear()


def forget_everything() -> None:
    """:func:`forget_numbers`, and every remembered setting, checked value and compiled pool."""
    forget_numbers()
    for system in workbench.systems():
        system._parsed.clear()
        system._settings.clear()
        for cache in ("_pools", "_compiled", "_tier_rules", "_distinct", "_dice_made"):
            getattr(system.mechanic, cache, {}).clear()


def best_of(work, before=None, budget: float = BUDGET, least: int = 5) -> float:
    """Shortest wall time of one call of ``work`` (``before`` runs untimed first each time),
    over repetitions filling about ``budget`` seconds."""
    best, spent, runs = math.inf, 0.0, 0
    while runs < least or spent < budget:
        if before is not None:
            before()
        start = time.perf_counter()
        work()
        took = time.perf_counter() - start
        best, spent, runs = min(best, took), spent + took + 1e-6, runs + 1
        if runs >= 200_000:
            break
    return best


def depth_for(n: int) -> int:
    """Explosions theirs follow so that at most 1e-12 of ``n`` open-ended dice is cut off."""
    return math.ceil(math.log(n * 1e12) / math.log(6))


def icepool_work(n: int, open_ended: bool):
    import icepool

    def work():   # a fresh die each time, so icepool's caches start cold
        if open_ended:
            die = icepool.Die([0, 0, 0, 1, 1, 1 + icepool.Again], again_depth=depth_for(n))
        else:
            die = icepool.Die({0: 4, 1: 2})
        return (n @ die).probabilities()
    return work


def dyce_work(n: int, open_ended: bool):
    from dyce import H
    from dyce.evaluation import expand

    def open_die(result):
        if result.outcome == 6:
            return 1 + expand(open_die, result.h)
        return 1 if result.outcome >= 4 else 0

    def work():   # fresh histograms each time; probabilities read as floats, as ours are
        if open_ended:
            one = expand(open_die, H(6), min_path_probability=Fraction(1, 6 ** depth_for(n)))
        else:
            one = H({0: 4, 1: 2})
        return dict((n @ one).probability_items(truediv))
    return work


def check_work(system_id: str, params: dict):
    return lambda: workbench.check(system_id, **params)


def ratio(theirs: float | None, ours: float) -> str:
    return f"{theirs / ours:9.1f}x" if theirs else f"{'-':>10}"


def comparison() -> int:
    """The icepool / dyce rows; returns how many missed the target."""
    print(f"{'pool':22} {'ours':>9} {'icepool':>10} {'dyce':>10} {'icepool/ours':>13} "
          f"{'dyce/ours':>10}  check: cold / setting kept / repeated (dyce/cold)")
    misses = 0
    for label, system_id, params, n, open_ended in ROWS:
        spec = workbench.system(system_id).pool(**params)
        work = check_work(system_id, params)
        work()   # imports and numpy's first calls
        ours = best_of(lambda: exact_distribution(spec), forget_numbers)
        budget = 1.0 if n < 100 else 3.0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")   # dyce warns that it truncates chains
            theirs = {"icepool": best_of(icepool_work(n, open_ended), budget=budget, least=3),
                      "dyce": best_of(dyce_work(n, open_ended), budget=budget, least=3)}
        cold = best_of(work, forget_everything)
        kept = best_of(work, forget_numbers)
        warm = best_of(work)
        worst = min(theirs.values()) / ours
        misses += worst < RATIO_TARGET
        print(f"{label:22} {ours * 1e6:6.1f} us {theirs['icepool'] * 1e3:7.3f} ms "
              f"{theirs['dyce'] * 1e3:7.3f} ms {ratio(theirs['icepool'], ours):>13} "
              f"{ratio(theirs['dyce'], ours):>10}  {cold * 1e6:6.1f} / {kept * 1e6:5.1f} / "
              f"{warm * 1e6:4.1f} us ({theirs['dyce'] / cold:.1f}x)  "
              f"{'PASS' if worst >= RATIO_TARGET else 'MISS'} (>= {RATIO_TARGET:g}x both)")
    return misses


def other_cases() -> int:
    misses = 0
    print(f"\n{'case':40} {'exact':>11} {'check cold':>11} {'check kept':>11}  target")
    for label, system_id, params in CASES:
        spec = workbench.system(system_id).pool(**params)
        work = check_work(system_id, params)
        work()
        raw = best_of(lambda: exact_distribution(spec), forget_numbers)
        cold = best_of(work, forget_everything)
        kept = best_of(work, forget_numbers)
        ok = cold <= CHECK_TARGET
        misses += not ok
        print(f"{label[:40]:40} {raw * 1e3:8.3f} ms {cold * 1e3:8.3f} ms {kept * 1e3:8.3f} ms  "
              f"{'PASS' if ok else 'MISS'} (cold check <= {CHECK_TARGET * 1e3:g} ms)")
    analysis.side_by_side(FIVE)  # imports and pandas
    table = best_of(lambda: analysis.side_by_side(FIVE), forget_everything, budget=1.0, least=5)
    ok = table <= TABLE_TARGET
    misses += not ok
    print(f"{'side_by_side(five systems, pools 1-20)':40} {table * 1e3:8.3f} ms (every cache "
          f"cleared)  {'PASS' if ok else 'MISS'} (<= {TABLE_TARGET * 1e3:g} ms)")
    return misses


def main() -> int:
    import dyce
    import icepool

    print(f"exact engine against icepool {icepool.__version__} and dyce "
          f"{getattr(dyce, '__version__', '?')}; best of repetitions filling ~{BUDGET:g} s each "
          f"(theirs: 1-3 s); load average {os.getloadavg()[0]:.2f}")
    misses = comparison()
    misses += other_cases()
    print(f"load average at the end: {os.getloadavg()[0]:.2f}; "
          + ("ALL PASS" if not misses else f"{misses} MISSED"))
    return 1 if misses else 0


if __name__ == "__main__":
    raise SystemExit(main())
