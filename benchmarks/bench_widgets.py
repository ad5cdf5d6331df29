"""Benchmark: the explorer's server-side update after a slider move (exact results).

Target: the update after one slider move (read the controls, compute, build the figure,
copy it into the FigureWidget inside ``batch_update``) takes at most 100 ms at the 90th
percentile. Baseline measured in the same run: the engine alone (the figure's data frame
for the same settings, every entry recomputed), so the ratio shows what the widget layer
adds or saves (it memoises each entry's curve, so entries whose knobs did not move are not
recomputed). "Cold" moves go to a value never seen: the exact engine's cache and the memo
are emptied and re-primed with only what the explorer already shows; "warm" moves revisit
values. Browser rendering and the kernel's
message serialisation are not included. Run: ``python -m benchmarks.bench_widgets``.
"""
from __future__ import annotations

import argparse
import statistics
import time

TARGET_MS = 100.0

# (name, entries, view, knob moved on the first entry, values it steps through)
SCENARIOS = [
    ("UWR alone, 4 rungs x 20 pools", ["uwr"], "curve", "favor", [1, 2, 3, 2, 1, 0, -1, 0]),
    ("5 systems overlaid, curves", ["unnamed", "uwr", "fons", "arrata", "erzahlspiel"], "curve",
     "d8", [1, 2, 3, 2, 1, 0]),
    ("Unnamed bounce on 6, curves", ["unnamed"], "curve", "bounce_on", [6, 7, 8, 9, 8, 7]),
    ("Erzaehlspiel odds chart, one check", ["erzahlspiel"], "outcomes", "dice",
     ["d6", "narrative"]),
    ("FoNS vs exploding variant, difference", ["fons", "fons-exploding"], "difference", "favor",
     [1, 2, 1, 0]),
]


def _clear_engine_cache() -> None:
    from workbench.engine.exact import exact_raw
    exact_raw.cache_clear()
    _clear_curve_memo()


def _clear_curve_memo() -> None:
    from workbench.figures.frames import _line_curve_cached
    _line_curve_cached.cache_clear()


def measure(entries, view, knob, values, moves: int, cold: bool):
    from workbench.widgets import Explorer, curve_frame, difference_frame, outcome_frame

    explorer = Explorer(entries, view=view)
    frame_of = {"curve": curve_frame, "outcomes": outcome_frame, "difference": difference_frame}[view]
    widget = explorer.entries[0].knobs[knob]
    update_ms, engine_ms = [], []
    for step in range(moves):
        value = values[step % len(values)]
        if widget.value == value:
            value = values[(step + 1) % len(values)]
        if cold:
            # A value never seen: empty caches, then re-prime only what the explorer
            # already shows (as in a live session, the entries that did not move).
            _clear_engine_cache()
            frame_of(explorer.settings())
        started = time.perf_counter()
        widget.value = value  # the observer redraws synchronously
        update_ms.append(1000 * (time.perf_counter() - started))
        if "⚠" in explorer.status.value:
            raise RuntimeError(explorer.status.value)
        settings = explorer.settings()
        _clear_curve_memo()  # the baseline recomputes every entry: no widget-layer memo
        if cold:
            _clear_engine_cache()
        started = time.perf_counter()
        frame_of(settings)
        engine_ms.append(1000 * (time.perf_counter() - started))
    return update_ms, engine_ms


def _p90(values):
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20, help="slider moves per scenario")
    args = parser.parse_args(argv)

    from workbench.widgets import Explorer
    Explorer(["uwr"])  # import plotly and ipywidgets outside the timings

    print(f"Explorer update after a slider move, exact, {args.moves} moves per scenario "
          f"(target: 90th percentile <= {TARGET_MS:.0f} ms)")
    print(f"{'scenario':42s} {'cache':5s} {'median':>8s} {'p90':>8s} {'max':>8s} "
          f"{'engine':>8s} {'ratio':>6s}  verdict")
    worst = 0.0
    for name, entries, view, knob, values in SCENARIOS:
        for cold in (False, True):
            update, engine = measure(entries, view, knob, values, args.moves, cold)
            p90 = _p90(update)
            worst = max(worst, p90)
            ratio = statistics.median(update) / max(statistics.median(engine), 1e-9)
            print(f"{name:42s} {'cold' if cold else 'warm':5s} {statistics.median(update):7.1f}ms "
                  f"{p90:7.1f}ms {max(update):7.1f}ms {statistics.median(engine):7.1f}ms "
                  f"{ratio:5.1f}x  {'PASS' if p90 <= TARGET_MS else 'MISS'}")
    print(f"worst 90th percentile: {worst:.1f} ms -> {'PASS' if worst <= TARGET_MS else 'MISS'}")
    print("engine = the same settings' data frame alone (baseline); ratio = update / engine")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
