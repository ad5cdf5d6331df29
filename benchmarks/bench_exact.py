"""Speed of the exact engine, with icepool measured in the same run as the outside baseline.

Run from the repository root: ``python -m benchmarks.bench_exact``. Prints, for each case,
the warm time of ``exact_raw`` alone and of the full ``workbench.check`` (the result cache is
cleared before every repetition, so nothing is answered from memory), the time of the full
side-by-side table (five systems, pools 1-20, every ladder rung) with every cache cleared,
icepool's time for the same d6 success counts and the ratio, and one PASS/MISS line per
target (1 ms per check, 50 ms for the table).
"""
from __future__ import annotations

import time
from pathlib import Path

import workbench
from workbench import analysis, exact
from workbench.engine.exact import exact_raw

EDGE = str(Path(__file__).resolve().parents[1] / "data" / "examples" / "d10-edge.toml")
CHECK_TARGET = 1e-3
TABLE_TARGET = 50e-3
REPEATS = 30
FIVE = ["uwr", "fons", "unnamed", "arrata", "erzahlspiel"]

CASES = [
    ("10d6 success count", "uwr", {"dice": 10}),
    ("30d6 success count", "uwr", {"dice": 30}),
    ("100d6 success count", "uwr", {"dice": 100}),
    ("Arrata B30 open-ended, disadvantage 1", "arrata",
     {"quality": "B", "dice": 30, "advantage": 1, "disadvantage": 1}),
    ("Unnamed 5d6 + 3d8", "unnamed", {"d6": 5, "d8": 3}),
    ("designed: 30 d10, capped 10s, Edge 2", EDGE, {"dice": 30, "edge": 2}),
    ("designed: 30 d10, capped 10s", EDGE, {"dice": 30}),
]
"""Every system is a data file now; the designed cases use data/examples/d10-edge.toml."""


def clear_caches() -> None:
    """Forget every computed distribution (the per-die chains and compiled pools too)."""
    exact_raw.cache_clear()
    exact._die_chain.cache_clear()
    exact._chain.cache_clear()
    for system in workbench.systems():
        for cache in ("_pools", "_compiled"):
            getattr(system.mechanic, cache, {}).clear()


def best_of(runs: int, work, before=None) -> float:
    """Shortest wall time of ``runs`` calls of ``work`` (``before`` runs untimed first)."""
    best = float("inf")
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def verdict(seconds: float, target: float) -> str:
    return "PASS" if seconds <= target else "MISS"


def time_case(system_id: str, params: dict) -> tuple[float, float]:
    spec = workbench.system(system_id).pool(**params)
    workbench.check(system_id, **params)  # warm: imports, numpy paths, per-die chains
    raw = best_of(REPEATS, lambda: exact_raw(spec), exact_raw.cache_clear)
    full = best_of(REPEATS, lambda: workbench.check(system_id, **params), exact_raw.cache_clear)
    return raw, full


def time_icepool(dice: int) -> float | None:
    try:
        import icepool
    except ImportError:
        return None

    def work():
        one = icepool.Die({0: 4, 1: 2})  # a fresh die each time, so icepool's caches start cold
        result = dice @ one
        result.probabilities()
    work()
    return best_of(REPEATS, work)


def time_hand_built(dice: int) -> tuple[float, float]:
    """The 30d6 pool as the retired Python mechanic built it (a PoolSpec by hand), against
    compiling it from the data file: (exact_raw of the hand-built spec, data file -> spec)."""
    from workbench.rules.pool import DieType, PoolSpec
    spec = PoolSpec(((DieType.threshold("d6", 6, 5), dice),))
    uwr = workbench.system("uwr")
    assert uwr.pool(dice=dice) == spec  # the data file describes the same pool
    raw = best_of(REPEATS, lambda: exact_raw(spec), exact_raw.cache_clear)
    def forget():
        uwr.mechanic._pools.clear()
        uwr.mechanic._compiled.clear()
    compile_ = best_of(REPEATS, lambda: uwr.pool(dice=dice), forget)
    return raw, compile_


def fast_path_line() -> str:
    """Which simulator kernel plain data-defined pools take."""
    from workbench.engine import simulation
    names = []
    for system_id, params in (("uwr", {"dice": 10}), ("arrata", {"dice": 10, "advantage": 1}),
                              (EDGE, {"dice": 10})):
        kernel = simulation._kernel(workbench.system(system_id).pool(**params))[0]
        names.append(f"{Path(system_id).stem}: {kernel.__name__}")
    return "simulator kernels: " + "; ".join(names)


def time_table() -> float:
    analysis.side_by_side(FIVE)  # warm imports and pandas
    return best_of(7, lambda: analysis.side_by_side(FIVE), clear_caches)


def main() -> int:
    print(f"exact engine, best of {REPEATS} warm runs, result cache cleared before each")
    print(f"{'case':40} {'exact_raw':>11} {'check':>11} {'icepool':>11} {'icepool/ours':>13}  target")
    misses = 0
    for label, system_id, params in CASES:
        raw, full = time_case(system_id, params)
        theirs = time_icepool(params["dice"]) if label.endswith("success count") else None
        label = label[:40]
        ratio = f"{theirs / raw:12.1f}x" if theirs else f"{'-':>13}"
        theirs_text = f"{theirs * 1e3:8.3f} ms" if theirs else f"{'-':>11}"
        mark = verdict(full, CHECK_TARGET)
        misses += mark == "MISS"
        print(f"{label:40} {raw * 1e3:8.3f} ms {full * 1e3:8.3f} ms {theirs_text} {ratio}  "
              f"{mark} (check <= {CHECK_TARGET * 1e3:g} ms)")
    raw, compile_ = time_hand_built(30)
    print(f"{'30d6 hand-built PoolSpec (baseline)':40} {raw * 1e3:8.3f} ms  "
          f"(data file -> PoolSpec: {compile_ * 1e3:.3f} ms)")
    print(fast_path_line())
    table = time_table()
    mark = verdict(table, TABLE_TARGET)
    misses += mark == "MISS"
    print(f"{'side_by_side(five systems, pools 1-20)':40} {table * 1e3:8.3f} ms (all caches cleared)  "
          f"{mark} (<= {TABLE_TARGET * 1e3:g} ms)")
    return 1 if misses else 0


if __name__ == "__main__":
    raise SystemExit(main())
