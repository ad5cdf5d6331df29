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

from ..errors import WorkbenchError
from ..api import systems
from .controls import EntryControls
from .figures import figure
from .settings import EntrySettings, ExplorerSettings

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


class Explorer:
    """The explorer widget. Display it in a notebook cell, or read :meth:`settings`.

    Args:
        entries: starting systems: ids, or :class:`EntrySettings` for knobs and rungs.
        view, method, pool_sizes, trials, seed: as in :class:`ExplorerSettings`.

    Example:
        >>> explorer = Explorer(["uwr", EntrySettings("arrata", {"quality": "A"})])
        >>> [e.system for e in explorer.settings().entries]
        ['uwr', 'arrata']
        >>> explorer.entries[0].knobs["favor"].value = 1
        >>> explorer.settings().entries[0].knobs["favor"]
        1
    """

    def __init__(self, entries: Iterable[str | EntrySettings] = ("uwr",), view: str = "curve",
                 method: str = "exact", pool_sizes: Iterable[int] = range(1, 21),
                 trials: int = 100_000, seed: int | None = 0):
        sizes = list(pool_sizes)
        self.entries: list[EntryControls] = []
        self.last_update_seconds: float | None = None
        self._shown: dict | None = None  # what the FigureWidget shows (see show_figure)
        self._quiet = True  # no redraws while the controls are being built
        self.system_picker = widgets.Dropdown(
            options=[(f"{s.name} ({s.id})", s.id) for s in systems()],
            description="system", layout=widgets.Layout(width="360px"))
        self.add_button = widgets.Button(description="add", icon="plus")
        self.add_button.on_click(lambda _: self.add(self.system_picker.value))
        self.view = widgets.ToggleButtons(
            options=[("success curve", "curve"), ("one check", "outcomes"),
                     ("variant − baseline", "difference")], value=view)
        self.method = widgets.ToggleButtons(
            options=[("exact", "exact"), ("simulated", "simulate")], value=method)
        self.view.add_class("wb-view")
        self.method.add_class("wb-method")
        self.trials = widgets.Dropdown(
            options=[(f"{n:,}", n) for n in sorted({*TRIAL_CHOICES, int(trials)})],
            value=int(trials), description="trials")
        self.seed = widgets.IntText(value=0 if seed is None else seed, description="seed",
                                    layout=widgets.Layout(width="180px"))
        self.pools = widgets.IntRangeSlider(value=(min(sizes), max(sizes)), min=0,
                                            max=max(40, max(sizes)), description="dice in pool",
                                            continuous_update=False)
        self.baseline = widgets.Dropdown(options=[], description="baseline")
        self.status = widgets.HTML()
        self.status.add_class("wb-status")
        self.entry_box = widgets.VBox()
        for widget in (self.view, self.method, self.trials, self.seed, self.pools, self.baseline):
            widget.observe(self._changed, names="value")
        for entry in entries:
            if isinstance(entry, EntrySettings):
                self.add(entry.system, entry.knobs, entry.rungs, entry.label, redraw=False)
            else:
                self.add(entry, redraw=False)
        # The first figure goes into the widget's constructor: that is the state a page
        # (Voila, a reopened notebook) renders from. Later updates are messages to live views.
        first = figure(self.settings())
        self.figure = go.FigureWidget(first)
        self._shown = shown_state(first)
        self.widget = widgets.VBox([
            widgets.HBox([self.system_picker, self.add_button]),
            widgets.HBox([self.view, self.method]),
            widgets.HBox([self.pools, self.trials, self.seed, self.baseline]),
            self.entry_box, self.status, self.figure])
        self.widget.add_class("wb-explorer")
        self._quiet = False
        self.status.value = "<span style='color:#666'>ready</span>"

    # -- entries ---------------------------------------------------------------------------
    def add(self, system: str, params: dict[str, Any] | None = None,
            rungs: tuple[str, ...] | None = None, label: str | None = None,
            redraw: bool = True) -> EntryControls:
        """Add a system or variant with its own knobs."""
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
        self.entry_box.children = [e.box for e in self.entries]
        quiet, self._quiet = self._quiet, True
        old = self.baseline.value or 0
        self.baseline.options = [(f"{i + 1}: {e.system}", i) for i, e in enumerate(self.entries)]
        self.baseline.value = min(old, len(self.entries) - 1)
        self._quiet = quiet
        if redraw:
            self.refresh()

    # -- settings and drawing --------------------------------------------------------------
    def settings(self) -> ExplorerSettings:
        """The controls' values as frozen settings (what :func:`figure` draws)."""
        low, high = self.pools.value
        return ExplorerSettings(
            entries=tuple(e.settings() for e in self.entries), view=self.view.value,
            method=self.method.value, pool_sizes=tuple(range(int(low), int(high) + 1)),
            trials=int(self.trials.value), seed=int(self.seed.value),
            baseline=int(self.baseline.value or 0))

    def _changed(self, _change: dict) -> None:
        if not self._quiet:
            self.refresh()

    def refresh(self) -> None:
        """Redraw from the current controls; bad combinations show a message instead."""
        started = time.perf_counter()
        try:
            self._shown = show_figure(self.figure, figure(self.settings()), self._shown)
        except WorkbenchError as exc:
            self.status.value = f"<span style='color:#b00'>⚠ {html.escape(str(exc))}</span>"
            return
        self.last_update_seconds = time.perf_counter() - started
        self.status.value = (f"<span style='color:#666'>updated in "
                             f"{1000 * self.last_update_seconds:.0f} ms</span>")

    def _ipython_display_(self) -> None:
        from IPython.display import display
        display(self.widget)


def explorer(*entries: str | EntrySettings, **options: Any) -> Explorer:
    """Make the explorer (display the result in a notebook cell).

    Example:
        >>> ex = explorer("uwr", "fons", view="curve")
        >>> len(ex.settings().entries)
        2
    """
    return Explorer(entries or ("uwr",), **options)
