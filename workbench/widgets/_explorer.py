"""The explorer: pick systems and variants, turn their knobs, edit their rules, see the odds.

A thin layer: callbacks read the controls into :class:`ExplorerSettings`, call the pure
:func:`~workbench.widgets.figures.figure_json` and hand its result to the live
:class:`~workbench.widgets.chart.Chart`. No dice logic lives here.
"""
from __future__ import annotations

import html
import time
from typing import Any, Iterable

import ipywidgets as widgets
import plotly.graph_objects as go

from .. import validation
from ..analysis import pool_size_list
from ..api import systems
from ..errors import WorkbenchError
from .chart import Chart
from ..rules.notation import formula_system
from .controls import EntryControls
from .editor import error_html
from .figures import figure_json, settled_pools
from .panels import ExportPanel, SharePanel
from .progressive import Prefetcher, Refiner, first_estimate, warm_simulator
from .settings import VIEWS, EntrySettings, ExplorerSettings, _checked, explorer_seed

TRIAL_CHOICES = (10_000, 100_000, 1_000_000)
VIEW_BUTTONS = [("success curve", "curve"), ("one check", "outcomes"), ("difference", "difference"),
                ("distribution", "distribution"), ("at least", "at_least"), ("at most", "at_most")]
VIEW_TIPS = ["P(pass) as the pool grows, one line per rung; one panel per kind of pool",
             "one check's outcomes or tiers, stacked worst to best, each entry on its own scale",
             "each entry's P(pass) minus the baseline's, in percentage points",
             "the roll at the knobs as set: each outcome's chance, with mean, SD and quantiles",
             "the chance of each outcome or better", "the chance of each outcome or worse"]

_CSS = """<style>
.wb-explorer .wb-busy .wb-plot { opacity: 0.45; transition: opacity 0.2s; }
.wb-explorer .wb-status { min-height: 1.6em; }
.wb-explorer .wb-busy-note { color: #8a5a00; font-weight: bold; }
.wb-explorer .wb-entries > * { flex-shrink: 0; }
.wb-explorer .wb-chart { min-width: 0; }
.wb-explorer .wb-chart-view { width: 100%; }
.wb-explorer .wb-editor-text textarea { font-family: monospace; font-size: 12px; }
.wb-explorer .wb-editor-error { color: #a00; font-size: 12px; }
.wb-explorer .wb-editor-error pre { background: #fff4f4; border-left: 3px solid #c00;
  padding: 4px 6px; margin: 4px 0; font-size: 11px; white-space: pre-wrap; }
</style>"""


class Explorer:
    """The explorer widget. Display it in a notebook cell, or read :meth:`settings`.

    The controls sit in a column beside the chart (below it on a narrow page), and the chart
    takes the rest of the page's width; each system's knobs fold away in their own panel. In
    the curve views the x axis is each system's pool, so each pool knob is disabled there.

    Args:
        entries: starting systems: ids, or :class:`EntrySettings` for knobs and rungs (one
            id or entry alone is one system).
        view, method, trials: as in :class:`ExplorerSettings`, read the same way (``"Exact"``,
            ``"2e5"``); a bad one is a :class:`~workbench.widgets.settings.SettingsError`.
        pool_sizes: the dice along the curves' x axis; ``None`` (the default): from one die
            to where every curve has settled (:func:`~workbench.widgets.figures.settled_pools`),
            following the systems added until the designer moves the range.
        seed: the simulator's seed; ``None`` (the default) draws one fresh seed now, shows
            it in the seed box and keeps it until the designer types another.

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
        entries, view, method, trials, sizes = _read_arguments(entries, view, method, pool_sizes,
                                                               trials)
        self._auto_pools = pool_sizes is None
        self.entries: list[EntryControls] = []
        self.last_update_seconds: float | None = None
        self.history: list[str] = []   # what the status line said, newest last
        self._drawn: ExplorerSettings | None = None   # the settings the chart shows
        self.prefetcher = Prefetcher()
        self._quiet = True  # no redraws while the controls are being built
        self._make_adders()
        self._make_view_controls(view, method, trials, seed, sizes)
        self.status = widgets.HTML()
        self.status.add_class("wb-status")
        self.status.observe(lambda change: self.history.append(change["new"]), names="value")
        self.entry_panels = widgets.Accordion(layout=widgets.Layout(max_height="520px",
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
        self.refiner = Refiner(figure_json, self._refined, self._refine_failed)
        self.plot = Chart(layout=widgets.Layout(width="100%"))
        self.plot.add_class("wb-plot-widget")
        self.exports = ExportPanel(self.settings)
        self.share = SharePanel(self)
        self._lay_out_page()
        self._quiet = False
        self.refresh()   # the first figure: what a page (Voila, a reopened notebook) shows
        for index in range(len(self.entries)):
            self._ready_steps(index)
        # the simulator's kernels load in the background: the first simulated view is quick
        warm = warm_simulator([e.system_object for e in self.entries])
        self.warm_threads = [warm] if warm is not None else []

    def _make_adders(self) -> None:
        """The rows that add an entry: a system picked from the list, or a typed formula."""
        style = {"description_width": "110px"}
        self.system_picker = widgets.Dropdown(
            options=[(s.name, s.id) for s in systems()],
            description="add system", style=style, layout=widgets.Layout(width="330px"),
            tooltip="a system or what-if variant to draw next to the others")
        self.add_button = widgets.Button(description="add", icon="plus",
                                         tooltip="draw this system next to the others",
                                         layout=widgets.Layout(width="72px"))
        self.add_button.add_class("wb-add-system")
        self.add_button.on_click(lambda _: self.add(self.system_picker.value))
        self.formula = widgets.Text(value="", placeholder="4d6kh3, (@dice=5)d10cs>=8x",
                                    description="or a formula", style=style,
                                    layout=widgets.Layout(width="330px"),
                                    tooltip="a one-line dice formula to draw next to the others "
                                            "(Foundry's notation; @NAME makes a knob)")
        self.formula.add_class("wb-formula")
        self.formula_button = widgets.Button(description="add", icon="plus",
                                             tooltip="draw this formula next to the others",
                                             layout=widgets.Layout(width="72px"))
        self.formula_button.add_class("wb-add-formula")
        self.formula_button.on_click(lambda _: self.add_formula(self.formula.value))

    def _make_view_controls(self, view: str, method: str, trials: int, seed: int | None,
                            sizes: list[int]) -> None:
        """The controls every entry shares: view, method, trials, seed, pool range, baseline."""
        wide = widgets.Layout(width="390px")
        style = {"description_width": "110px"}
        self.view = widgets.ToggleButtons(options=VIEW_BUTTONS, value=view, tooltips=VIEW_TIPS,
                                          style={"button_width": "126px"},
                                          layout=widgets.Layout(width="410px"))
        self.method = widgets.ToggleButtons(
            options=[("exact", "exact"), ("simulated", "simulate")], value=method,
            tooltips=["exact odds from the dice",
                      "run the simulator: a first estimate at once, then every trial; 95% error bars"],
            style={"button_width": "126px"})
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
                                            tooltip="the pool sizes along the x axis of dice "
                                                    "pools (a skill or a stat has its own axis)")
        self.baseline = widgets.Dropdown(options=[], description="baseline", style=style,
                                         layout=wide, tooltip="the entry the others are "
                                                              "compared with (difference view)")

    def _lay_out_page(self) -> None:
        """The controls in a column beside the chart (below it on a narrow page)."""
        controls = widgets.VBox(
            [widgets.HBox([self.system_picker, self.add_button]),
             widgets.HBox([self.formula, self.formula_button]), self.view, self.method,
             self.pools, self.trials, self.seed, self.baseline, self.entry_panels,
             self.exports.box, self.share.box],
            layout=widgets.Layout(flex="0 0 430px", padding="0 8px 0 0"))
        controls.add_class("wb-controls")
        self.chart = widgets.VBox([self.status, self.plot],
                                  layout=widgets.Layout(flex="1 1 480px", min_width="0"))
        self.chart.add_class("wb-chart")
        self.widget = widgets.HBox([widgets.HTML(_CSS), controls, self.chart],
                                   layout=widgets.Layout(flex_flow="row wrap",
                                                         align_items="flex-start", width="100%"))
        self.widget.add_class("wb-explorer")

    # -- entries ---------------------------------------------------------------------------
    def add(self, system: Any, params: dict[str, Any] | None = None,
            rungs: tuple[str, ...] | None = None, label: str | None = None,
            redraw: bool = True) -> EntryControls:
        """Add a system or variant with its own knobs (its panel opens, the others fold)."""
        controls = EntryControls(system, params, rungs, label)
        controls.observe(self._changed)
        controls.remove_button.on_click(lambda _: self.remove(controls))
        self.entries.append(controls)
        self._entries_changed(redraw)
        return controls

    def add_formula(self, text: str) -> EntryControls | None:
        """Add a one-line formula (``4d6kh3``); one that cannot be read is shown, with a caret
        under its column, in the status line."""
        text = (text or "").strip()
        if not text:
            self._say("⚠ type a formula first, such as 4d6kh3 or (@dice=5)d10cs>=8x", "#b00")
            return None
        try:
            system = formula_system(text)
            return self.add(system.id)
        except WorkbenchError as exc:
            self.status.value = error_html(text, exc)
            return None

    def remove(self, controls: EntryControls) -> None:
        """Remove an entry (the last one stays: there is always something to draw)."""
        if len(self.entries) > 1:
            self.entries.remove(controls)
            self._entries_changed(True)

    def _titles(self) -> tuple[str, ...]:
        return tuple(f"{i + 1}. {e.title}" for i, e in enumerate(self.entries))

    def _entries_changed(self, redraw: bool) -> None:
        quiet, self._quiet = self._quiet, True
        self.entry_panels.children = [e.box for e in self.entries]
        self.entry_panels.titles = self._titles()
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
            self._ready_steps(len(self.entries) - 1)

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
        curve_like = self.view.value in ("curve", "difference")
        for entry in self.entries:
            entry.show_pool(not curve_like)
        self.pools.disabled = not curve_like
        self.baseline.disabled = self.view.value != "difference"
        simulated = self.method.value == "simulate"
        self.trials.disabled = self.seed.disabled = not simulated

    # -- settings and drawing --------------------------------------------------------------
    def settings(self) -> ExplorerSettings:
        """The controls' values as frozen settings (what :func:`figure_json` draws)."""
        low, high = self.pools.value
        return ExplorerSettings(
            entries=tuple(e.settings() for e in self.entries), view=self.view.value,
            method=self.method.value, pool_sizes=tuple(range(int(low), int(high) + 1)),
            trials=int(self.trials.value), seed=int(self.seed.value),
            baseline=int(self.baseline.value or 0))

    @property
    def figure(self) -> go.Figure:
        """What the chart shows, as a plotly ``Figure`` (made on demand, for inspection)."""
        return go.Figure(self.plot.figure)

    def _changed(self, change: dict) -> None:
        if self._quiet:
            return
        owner = change.get("owner")
        if owner in (self.view, self.method):
            self._show_relevant_controls()
        if owner is self.pools:
            self._auto_pools = False  # the designer chose a range: keep it
        if isinstance(owner, EntryControls) or any(owner is e.label for e in self.entries):
            self.entry_panels.titles = self._titles()
            self.baseline.options = [(f"{i + 1}: {e.title}", i) for i, e in enumerate(self.entries)]
            if isinstance(owner, EntryControls):
                owner.show_pool(self.view.value not in ("curve", "difference"))
        self.refresh()
        moved = [(index, name) for index, entry in enumerate(self.entries)
                 for name, knob in entry.knobs.items() if owner is knob]
        if moved and self._drawn is not None:   # a slider moved: ready its next step
            self.prefetcher.start(self._drawn, *moved[0])

    def _ready_steps(self, index: int) -> None:
        """Every slider of entry ``index`` a step either way, computed in the background."""
        if self._drawn is None or index >= len(self._drawn.entries):
            return
        sys_ = self.entries[index].system_object
        axis = (sys_.pool_parameter if self.view.value in ("curve", "difference") else None)
        self.prefetcher.start(self._drawn, index, list(self.entries[index].knobs), skip=axis)

    def _say(self, text: str, colour: str = "#666") -> None:
        self.status.value = f"<span style='color:{colour}'>{text}</span>"

    def _busy(self, busy: bool) -> None:
        if busy:
            self.status.value = "<span class='wb-busy-note'>⏳ computing…</span>"
            self.chart.add_class("wb-busy")
        else:
            self.chart.remove_class("wb-busy")

    def refresh(self) -> None:
        """Redraw from the current controls; bad combinations show a message instead. A
        simulation is drawn first from a few trials, then refined in the background."""
        started = time.perf_counter()
        self.refiner.cancel()
        self._drawn = None
        try:
            settings = self.settings()
            quick = first_estimate(settings)
            self._busy(True)
            self._show(figure_json(quick or settings))
        except WorkbenchError as exc:
            self._busy(False)
            self._say(f"⚠ {html.escape(str(exc))}", "#b00")
            return
        self._busy(False)
        self._drawn = settings
        self.last_update_seconds = time.perf_counter() - started
        took = f"{1000 * self.last_update_seconds:.0f} ms"
        if quick is None:
            self._say(f"updated in {took}")
            return
        fewer = ("" if quick.pool_sizes == settings.pool_sizes else
                 f" at {len(quick.pool_sizes)} of {len(settings.pool_sizes)} pool sizes")
        self._say(f"first estimate from {quick.trials:,} trials per point{fewer} ({took}); "
                  f"simulating {settings.trials:,} trials per point…", "#8a5a00")
        self.refiner.start(settings)

    def _show(self, figure: dict) -> None:
        if figure != self.plot.figure:
            self.plot.figure = figure

    def _refined(self, settings: ExplorerSettings, figure: dict) -> None:
        self._show(figure)
        self._say(f"simulated: {settings.trials:,} trials per point")

    def _refine_failed(self, settings: ExplorerSettings, error: WorkbenchError) -> None:
        self._say(f"⚠ {html.escape(str(error))}", "#b00")

    def _ipython_display_(self) -> None:
        from IPython.display import display  # lazy: IPython, only in a notebook
        display(self.widget)


def _read_arguments(entries, view, method, pool_sizes, trials) -> tuple:
    """Every argument read as :class:`ExplorerSettings` reads it (a SettingsError naming it),
    before any control is built: the controls themselves know only their exact options.
    Returns ``(entries, view, method, trials, pool sizes)``; one id or entry alone is one
    entry, and without ``pool_sizes`` the range starts at 1 to 20 dice."""
    if isinstance(view, str) and "_".join(view.split()).lower() in VIEWS:
        view = "_".join(view.split()).lower()
    view = _checked("view", validation.choice, None, "view", view, VIEWS)
    method = _checked("method", validation.method, None, method)
    trials = _checked("trials", validation.trials, None, trials)
    if isinstance(entries, (str, EntrySettings)):   # one system, not its letters
        entries = (entries,)
    sizes = (list(_checked("pool_sizes", lambda: pool_size_list(pool_sizes, "pool_sizes")))
             if pool_sizes is not None else [1, 20])
    return entries, view, method, trials, sizes


def explorer(*entries: str | EntrySettings, **options: Any) -> Explorer:
    """Make the explorer (display the result in a notebook cell).

    Example:
        >>> ex = explorer("uwr", "fons", view="curve")
        >>> len(ex.settings().entries)
        2
    """
    return Explorer(entries or ("uwr",), **options)
