"""The explorer: pick systems and variants, turn their knobs, see curves and outcomes.

A thin layer: callbacks read the controls into :class:`ExplorerSettings`, call the pure
:func:`~workbench.widgets.figures.figure` and copy its traces into a plotly ``FigureWidget``
inside ``batch_update()``. No dice logic lives here.
"""
from __future__ import annotations

import html
import time
from typing import Any, Iterable

import ipywidgets as widgets
import plotly.graph_objects as go

from .. import validation
from ..api import systems
from ..errors import WorkbenchError
from .controls import EntryControls
from .figures import figure, settled_pools
from ..analysis import pool_size_list
from .settings import VIEWS, EntrySettings, ExplorerSettings, _checked, explorer_seed

TRIAL_CHOICES = (10_000, 100_000, 1_000_000)


def show_figure(target: go.FigureWidget, source: go.Figure, shown: dict | None = None) -> dict:
    """Copy ``source`` into the live ``target`` in one batched update.

    ``shown`` is what the previous call returned: what the widget shows now. Traces and
    layout equal to it are left alone (validating them again is most of an update's cost);
    when the traces line up (same number and kinds) only the changed ones are restyled,
    otherwise all are replaced.

    Returns:
        What the widget shows now, to pass back as ``shown`` next time.

    Example:
        >>> import plotly.graph_objects as go
        >>> live = go.FigureWidget()
        >>> shown = show_figure(live, go.Figure(go.Bar(y=[1, 2])))
        >>> shown = show_figure(live, go.Figure(go.Bar(y=[3, 4])), shown)
        >>> list(live.data[0].y)
        [3, 4]
    """
    shown = shown or {}
    now = shown_state(source)
    traces, layout = now["traces"], now["layout"]
    old_traces = shown.get("traces")
    same_shape = (old_traces is not None and len(target.data) == len(traces) and all(
        old.type == new["type"] for old, new in zip(target.data, traces)))
    with target.batch_update():
        if same_shape:
            for widget_trace, new, old in zip(target.data, traces, old_traces):
                if new != old:
                    widget_trace.update(_changes(old, new), overwrite=True)
        else:
            target.data = ()
            target.add_traces(list(source.data))
        if shown.get("layout") is None:
            target.update_layout(layout, overwrite=True)
        elif layout != shown["layout"]:
            target.update_layout(_changes(shown["layout"], layout), overwrite=True)
    return now


def _changes(old: dict, new: dict) -> dict:
    """Top-level properties that differ; ``None`` removes one that is gone."""
    changed = {key: value for key, value in new.items() if old.get(key) != value}
    changed.update({key: None for key in old if key not in new})
    return changed


def shown_state(fig: go.Figure) -> dict:
    """The record :func:`show_figure` keeps of a figure: trace and layout properties."""
    layout = fig.layout.to_plotly_json()
    layout.pop("template", None)  # the widget keeps its own; copying one costs ~25 ms
    return {"traces": [trace.to_plotly_json() for trace in fig.data], "layout": layout}


_CSS = """<style>
.wb-explorer .wb-busy .js-plotly-plot { opacity: 0.45; transition: opacity 0.2s; }
.wb-explorer .wb-status { min-height: 1.6em; }
.wb-explorer .wb-busy-note { color: #8a5a00; font-weight: bold; }
.wb-explorer .wb-entries > * { flex-shrink: 0; }
</style>"""


class Explorer:
    """The explorer widget. Display it in a notebook cell, or read :meth:`settings`.

    The controls sit in a column beside the chart (below it on a narrow page); each
    system's knobs fold away in their own panel, so the chart stays in view as systems are
    added. In the curve views the x axis is the pool, so each pool knob is disabled there.

    Args:
        entries: starting systems: ids, or :class:`EntrySettings` for knobs and rungs (one
            id or entry alone is one system).
        view, method, trials: as in :class:`ExplorerSettings`, read the same way (``"Exact"``,
            ``"2e5"``); a bad one is a :class:`~workbench.widgets.settings.SettingsError`.
        pool_sizes: the x axis of the curves; ``None`` (the default): from one die to where
            every curve has settled (:func:`~workbench.widgets.figures.settled_pools`),
            following the systems added until the designer moves the range.
        seed: the simulator's seed; ``None`` (the default) draws one fresh seed now, shows
            it in the seed box and keeps it until the designer types another, so simulated
            curves do not change when a knob is turned back and forth.

    Example:
        >>> explorer = Explorer(["uwr", EntrySettings("arrata", {"quality": "A"})])
        >>> [e.system for e in explorer.settings().entries]
        ['uwr', 'arrata']
        >>> explorer.entries[0].knobs["favor"].value = 1
        >>> explorer.settings().entries[0].knobs["favor"]
        1
    """

    def __init__(self, entries: Iterable[str | EntrySettings] = ("uwr",), view: str = "curve",
                 method: str = "exact", pool_sizes: Iterable[int] | None = None,
                 trials: int = 100_000, seed: int | None = None):
        # Every argument read as ExplorerSettings reads it (a SettingsError naming it), before
        # any control is built: the controls themselves know only their exact options.
        view = _checked("view", validation.choice, None, "view", view, VIEWS)
        method = _checked("method", validation.method, None, method)
        trials = _checked("trials", validation.trials, None, trials)
        if isinstance(entries, (str, EntrySettings)):   # one system, not its letters
            entries = (entries,)
        # No pool sizes given: the range follows the curves drawn (until the designer moves it).
        self._auto_pools = pool_sizes is None
        sizes = (list(_checked("pool_sizes", lambda: pool_size_list(pool_sizes, "pool_sizes")))
                 if pool_sizes is not None else [1, 20])
        self.entries: list[EntryControls] = []
        self.last_update_seconds: float | None = None
        self._shown: dict | None = None  # what the FigureWidget shows (see show_figure)
        self._quiet = True  # no redraws while the controls are being built
        wide = widgets.Layout(width="390px")
        style = {"description_width": "110px"}
        self.system_picker = widgets.Dropdown(
            options=[(s.name, s.id) for s in systems()],
            description="add system", style=style, layout=widgets.Layout(width="330px"),
            tooltip="a system or what-if variant to draw next to the others")
        self.add_button = widgets.Button(description="add", icon="plus",
                                         tooltip="draw this system next to the others",
                                         layout=widgets.Layout(width="72px"))
        self.add_button.on_click(lambda _: self.add(self.system_picker.value))
        self.view = widgets.ToggleButtons(
            options=[("success curve", "curve"), ("one check", "outcomes"),
                     ("difference", "difference")], value=view,
            tooltips=["P(pass) against dice in the pool, one line per rung",
                      "one check's outcomes or tiers, stacked worst to best",
                      "each entry's P(pass) minus the baseline's, in percentage points"],
            style={"button_width": "134px"})
        self.method = widgets.ToggleButtons(
            options=[("exact", "exact"), ("simulated", "simulate")], value=method,
            tooltips=["exact odds from the dice", "run the simulator: 95% error bars"],
            style={"button_width": "134px"})
        self.view.add_class("wb-view")
        self.method.add_class("wb-method")
        self.trials = widgets.Dropdown(
            options=[(f"{n:,}", n) for n in sorted({*TRIAL_CHOICES, int(trials)})],
            value=int(trials), description="trials", style=style, layout=wide,
            tooltip="simulated checks per point (more: smaller error bars, slower)")
        seed = explorer_seed() if seed is None else validation.seed("explorer", seed)
        self.seed = widgets.IntText(value=seed, description="seed", style=style, layout=wide,
                                    tooltip="the simulator's seed, drawn fresh when the explorer "
                                            "opened: same seed, same numbers")
        self.pools = widgets.IntRangeSlider(value=(max(1, min(sizes)), max(1, *sizes)), min=1,
                                            max=max(40, max(sizes)), description="dice in pool",
                                            continuous_update=False, style=style, layout=wide,
                                            tooltip="the pool sizes along the x axis")
        self.baseline = widgets.Dropdown(options=[], description="baseline", style=style,
                                         layout=wide, tooltip="the entry the others are "
                                                              "compared with (difference view)")
        self.status = widgets.HTML()
        self.status.add_class("wb-status")
        # Only the systems' panels scroll: the picker and the views stay in reach.
        self.entry_panels = widgets.Accordion(layout=widgets.Layout(max_height="480px",
                                                                    overflow="auto"))
        self.entry_panels.add_class("wb-entries")
        for widget in (self.view, self.method, self.trials, self.seed, self.pools, self.baseline):
            widget.observe(self._changed, names="value")
        for entry in entries:
            if isinstance(entry, EntrySettings):
                self.add(entry.system, dict(entry.params), entry.rungs, entry.label, redraw=False)
            else:
                self.add(entry, redraw=False)
        self._follow_curves()
        self._show_relevant_controls()
        # The first figure goes into the widget's constructor: that is the state a page
        # (Voila, a reopened notebook) renders from. Later updates are messages to live views.
        first = figure(self.settings())
        self.figure = go.FigureWidget(first)
        self._shown = shown_state(first)
        controls = widgets.VBox(
            [widgets.HBox([self.system_picker, self.add_button]), self.view, self.method,
             self.pools, self.trials, self.seed, self.baseline, self.entry_panels],
            layout=widgets.Layout(flex="0 0 430px", padding="0 8px 0 0"))
        controls.add_class("wb-controls")
        self.chart = widgets.VBox([self.status, self.figure],
                                  layout=widgets.Layout(flex="0 0 auto"))
        self.chart.add_class("wb-chart")
        self.widget = widgets.HBox([widgets.HTML(_CSS), controls, self.chart],
                                   layout=widgets.Layout(flex_flow="row wrap",
                                                         align_items="flex-start", width="100%"))
        self.widget.add_class("wb-explorer")
        self._quiet = False
        self.status.value = "<span style='color:#666'>ready</span>"

    # -- entries ---------------------------------------------------------------------------
    def add(self, system: str, params: dict[str, Any] | None = None,
            rungs: tuple[str, ...] | None = None, label: str | None = None,
            redraw: bool = True) -> EntryControls:
        """Add a system or variant with its own knobs (its panel opens, the others fold)."""
        controls = EntryControls(system, params, rungs, label)
        controls.observe(self._changed)
        controls.remove_button.on_click(lambda _: self.remove(controls))
        self.entries.append(controls)
        self._entries_changed(redraw)
        return controls

    def remove(self, controls: EntryControls) -> None:
        """Remove an entry (the last one stays: there is always something to draw)."""
        if len(self.entries) > 1:
            self.entries.remove(controls)
            self._entries_changed(True)

    def _entries_changed(self, redraw: bool) -> None:
        quiet, self._quiet = self._quiet, True
        self.entry_panels.children = [e.box for e in self.entries]
        self.entry_panels.titles = tuple(f"{i + 1}. {e.title}" for i, e in enumerate(self.entries))
        self.entry_panels.selected_index = len(self.entries) - 1
        old = self.baseline.value or 0
        self.baseline.options = [(f"{i + 1}: {e.title}", i) for i, e in enumerate(self.entries)]
        self.baseline.value = min(old, len(self.entries) - 1)
        self._show_relevant_controls()
        if redraw:
            self._follow_curves()
        self._quiet = quiet
        if redraw:
            self.refresh()

    def _follow_curves(self) -> None:
        """Until the designer moves the pool range, it ends where every curve has settled."""
        if not self._auto_pools:
            return
        try:  # the curves of the entries as they are, whatever view is showing
            sizes = settled_pools(ExplorerSettings(tuple(e.settings() for e in self.entries)))
        except WorkbenchError:  # a combination the figure will report: keep the range
            return
        quiet, self._quiet = self._quiet, True
        self.pools.value = (1, sizes[-1])
        self._quiet = quiet

    def _show_relevant_controls(self) -> None:
        """Enable only what the current view and method use."""
        curve_like = self.view.value != "outcomes"
        for entry in self.entries:
            entry.show_pool(not curve_like)
        self.pools.disabled = not curve_like
        self.baseline.disabled = self.view.value != "difference"
        simulated = self.method.value == "simulate"
        self.trials.disabled = self.seed.disabled = not simulated

    # -- settings and drawing --------------------------------------------------------------
    def settings(self) -> ExplorerSettings:
        """The controls' values as frozen settings (what :func:`figure` draws)."""
        low, high = self.pools.value
        return ExplorerSettings(
            entries=tuple(e.settings() for e in self.entries), view=self.view.value,
            method=self.method.value, pool_sizes=tuple(range(int(low), int(high) + 1)),
            trials=int(self.trials.value), seed=int(self.seed.value),
            baseline=int(self.baseline.value or 0))

    def _changed(self, change: dict) -> None:
        if self._quiet:
            return
        if change.get("owner") in (self.view, self.method):
            self._show_relevant_controls()
        if change.get("owner") is self.pools:
            self._auto_pools = False  # the designer chose a range: keep it
        if any(change.get("owner") is e.label for e in self.entries):
            self.entry_panels.titles = tuple(f"{i + 1}. {e.title}"
                                             for i, e in enumerate(self.entries))
        self.refresh()

    def _busy(self, busy: bool) -> None:
        # Widget state goes to the browser as it changes, so this shows while the kernel
        # is still computing (a simulation can take seconds).
        if busy:
            what = ("simulating " + f"{int(self.trials.value):,} trials per point…"
                    if self.method.value == "simulate" else "computing…")
            self.status.value = f"<span class='wb-busy-note'>⏳ {what}</span>"
            self.chart.add_class("wb-busy")
        else:
            self.chart.remove_class("wb-busy")

    def refresh(self) -> None:
        """Redraw from the current controls; bad combinations show a message instead."""
        started = time.perf_counter()
        self._busy(True)
        try:
            self._shown = show_figure(self.figure, figure(self.settings()), self._shown)
        except WorkbenchError as exc:
            self.status.value = f"<span style='color:#b00'>⚠ {html.escape(str(exc))}</span>"
            return
        finally:
            self._busy(False)
        self.last_update_seconds = time.perf_counter() - started
        self.status.value = (f"<span style='color:#666'>updated in "
                             f"{1000 * self.last_update_seconds:.0f} ms</span>")

    def _ipython_display_(self) -> None:
        from IPython.display import display  # lazy: IPython, only in a notebook
        display(self.widget)


def explorer(*entries: str | EntrySettings, **options: Any) -> Explorer:
    """Make the explorer (display the result in a notebook cell).

    Example:
        >>> ex = explorer("uwr", "fons", view="curve")
        >>> len(ex.settings().entries)
        2
    """
    return Explorer(entries or ("uwr",), **options)
