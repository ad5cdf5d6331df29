"""Benchmark: the explorer's server-side update after a slider move, and its simulated view.

An update is: read the controls, compute (memoised per entry), build the figure as plotly JSON
and hand it to the chart widget (serialised to the text the browser receives). Browser
drawing and the kernel's messaging are not included. Three kinds of move per scenario:

* ``warm``: values already seen (a slider moved back and forth): the widget layer's cost.
* ``step``: each move one step on to a value never drawn before, at a designer's pace: the
  explorer has had the time to compute the values either side of the last move in the
  background (it waits for that work before the next move, as a hand on a slider does).
* ``cold``: a value never seen, every cache emptied and re-primed with only what the explorer
  already shows: the engine's cost for the moved entry (baseline: the same settings' numbers
  alone, every entry recomputed, in the same run; ``ratio`` = update / baseline).

Target: the 90th percentile of ``warm`` and ``step`` updates at most 10 ms in every scenario.
The simulated view: the first estimate within 0.5 s of switching to ``simulated`` (the
simulator's kernels loaded while the explorer opened, as in a session), then the full trials.
Run: ``python -m benchmarks.bench_widgets``; report the load (``uptime``) with the figures.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

TARGET_MS = 10.0
FIRST_ESTIMATE_S = 0.5

def _entry(system, params, rungs):
    from workbench.widgets import EntrySettings
    return EntrySettings(system, params, rungs)


# (name, entries, view, knob moved on the first entry, values the warm moves step through)
SCENARIOS = [
    ("UWR alone, 4 rungs", ["uwr"], "curve", "favor", [1, 2, 3, 2, 1, 0, -1, 0]),
    ("5 systems overlaid, curves", ["unnamed", "uwr", "fons", "arrata", "erzahlspiel"], "curve",
     "d8", [1, 2, 3, 2, 1, 0]),
    ("Unnamed bounce on 6, curves", ["unnamed"], "curve", "bounce_on", [6, 7, 8, 9, 8, 7]),
    ("Erzaehlspiel regular dice, one check", [_entry("erzahlspiel", {"dice": "d6"}, ())],
     "outcomes", "advantage", [1, 2, 1, 0, -1, 0]),
    ("FoNS vs exploding variant, difference", ["fons", "fons-exploding"], "difference", "favor",
     [1, 2, 1, 0]),
    ("gallery: 6 systems, 4 kinds of pool, curves", ["call-of-cthulhu-7e", "shadowrun-5e",
     "genesys", "savage-worlds", "cortex-prime", "l5r-4e"], "curve", "bonus", [1, 2, 1, 0]),
    ("gallery: Blades + Year Zero, one check", ["blades", "year-zero"], "outcomes", "dice",
     [3, 4, 5, 4, 3, 2]),
    ("gallery: D&D 5e + Fate, distribution", ["dnd5e", "fate"], "distribution", "modifier",
     [3, 4, 5, 6, 5, 4]),
    ("gallery: Shadowrun 5e, at least", ["shadowrun-5e"], "at_least", "dice", [5, 6, 7, 6, 5, 4]),
    ("one-liners: 1d20+@mod>=15 + 4d6kh3 + uwr, curves", ["1d20+@mod>=15", "4d6kh3", "uwr"],
     "curve", "mod", [1, 2, 3, 2, 1, 0]),
    ("one-liner: (@dice=5)d10cs>=8x, distribution", ["(@dice=5)d10cs>=8x"], "distribution",
     "dice", [5, 6, 7, 6, 5, 4]),
    ("one-liner: {4d6, 3d8}kh + 1d20+@mod>=15, one check", ["1d20+@mod>=15", "{4d6, 3d8}kh"],
     "outcomes", "mod", [1, 2, 3, 2, 1, 0]),
]


def _clear_caches() -> None:
    from workbench.engine.exact import exact_raw
    from workbench.figures.frames import _line_curve_cached
    from workbench.widgets.data import clear_memo
    exact_raw.cache_clear()
    _line_curve_cached.cache_clear()
    clear_memo()


def _numbers(settings):
    """The view's numbers alone (the baseline), through the same data layer."""
    from workbench.widgets.figures import figure_json
    return figure_json(settings)


def _p90(values):
    return (statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1
            else values[0])


def _explorer(entries, view):
    from workbench.widgets import Explorer
    return Explorer(entries, view=view)


def _moved(explorer, widget, value) -> float:
    started = time.perf_counter()
    widget.value = value  # the observer redraws synchronously
    took = 1000 * (time.perf_counter() - started)
    if "⚠" in explorer.status.value:
        raise RuntimeError(explorer.status.value)
    return took


def warm(entries, view, knob, values, moves):
    explorer = _explorer(entries, view)
    widget = explorer.entries[0].knobs[knob]
    for value in values:   # every value seen once
        widget.value = value
        _settle(explorer)
    out = []
    for step in range(moves):
        value = values[step % len(values)]
        if widget.value == value:
            value = values[(step + 1) % len(values)]
        out.append(_moved(explorer, widget, value))
        _settle(explorer)
    return out


def _settle(explorer) -> None:
    pending = explorer.prefetcher.pending
    if pending is not None:
        pending.result()


def _walk(widget, moves):
    """Values a step apart from the slider's current value, up to its end, then down."""
    low, high = getattr(widget, "min", None), getattr(widget, "max", None)
    start = widget.value
    if low is None:
        options = [v for _, v in widget.options if isinstance(v, int)]
        low, high = min(options), max(options)
    up = list(range(start + 1, high + 1))
    down = list(range(start - 1, low - 1, -1))
    return (up + down)[:moves] if len(up) >= len(down) else (down + up)[:moves]


def step(entries, view, knob, moves):
    _clear_caches()
    explorer = _explorer(entries, view)
    _settle(explorer)   # the designer reads the chart before moving a slider
    widget = explorer.entries[0].knobs[knob]
    out, last = [], widget.value
    for value in _walk(widget, moves):
        if abs(value - last) != 1:   # turning back: start again from a value shown
            widget.value = value - 1 if value > last else value + 1
            _settle(explorer)
        out.append(_moved(explorer, widget, value))
        last = value
        _settle(explorer)
    return out


def cold(entries, view, knob, moves):
    explorer = _explorer(entries, view)
    widget = explorer.entries[0].knobs[knob]
    updates, engine = [], []
    for value in _walk(widget, moves):
        _clear_caches()
        _numbers(explorer.settings())   # re-prime what the explorer shows
        updates.append(_moved(explorer, widget, value))
        _settle(explorer)
        settings = explorer.settings()
        _clear_caches()
        started = time.perf_counter()
        _numbers(settings)
        engine.append(1000 * (time.perf_counter() - started))
        _settle(explorer)
    return updates, engine


def simulated(entries, trials: int):
    """Seconds to the first estimate and to the full trials after switching to simulated."""
    explorer = _explorer(entries, "curve")
    explorer.trials.value = trials
    for thread in explorer.warm_threads:
        thread.join()
    shown = []
    explorer.plot.observe(lambda change: shown.append(time.perf_counter()), names="spec")
    started = time.perf_counter()
    explorer.method.value = "simulate"   # estimate, then (no event loop here) the full run
    if len(shown) < 2:
        raise RuntimeError(f"expected an estimate and a refinement, saw {len(shown)} draws")
    return shown[0] - started, shown[-1] - started


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20, help="slider moves per scenario and kind")
    args = parser.parse_args(argv)

    _explorer(["uwr"], "curve")  # import plotly and ipywidgets outside the timings
    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"Explorer update after a slider move, exact, {args.moves} moves per scenario and kind "
          f"(target: 90th percentile of warm and step <= {TARGET_MS:.0f} ms)")
    print(f"{'scenario':46s} {'kind':5s} {'median':>8s} {'p90':>8s} {'max':>8s} "
          f"{'engine':>8s} {'ratio':>6s}  verdict")
    worst = 0.0
    for name, entries, view, knob, values in SCENARIOS:
        for kind in ("warm", "step", "cold"):
            engine = None
            if kind == "warm":
                update = warm(entries, view, knob, values, args.moves)
            elif kind == "step":
                update = step(entries, view, knob, args.moves)
            else:
                update, engine = cold(entries, view, knob, args.moves)
            p90 = _p90(update)
            judged = kind != "cold"
            if judged:
                worst = max(worst, p90)
            extra = (f"{statistics.median(engine):7.1f}ms "
                     f"{statistics.median(update) / max(statistics.median(engine), 1e-9):5.1f}x"
                     if engine else f"{'':8s} {'':6s}")
            verdict = ("PASS" if p90 <= TARGET_MS else "MISS") if judged else "(engine)"
            print(f"{name:46s} {kind:5s} {statistics.median(update):7.1f}ms {p90:7.1f}ms "
                  f"{max(update):7.1f}ms {extra}  {verdict}")
    print(f"worst 90th percentile of warm and step moves: {worst:.1f} ms -> "
          f"{'PASS' if worst <= TARGET_MS else 'MISS'}")
    print("engine = the same settings' numbers alone, every cache emptied; ratio = update / engine")
    for entries in (["uwr"], ["uwr", "arrata", "unnamed"]):
        first, full = simulated(entries, 100_000)
        print(f"simulated view, {' + '.join(entries)}: first estimate {first:.2f} s "
              f"({'PASS' if first <= FIRST_ESTIMATE_S else 'MISS'} <= {FIRST_ESTIMATE_S} s), "
              f"100,000 trials per point {full:.2f} s")
    print(f"load average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
