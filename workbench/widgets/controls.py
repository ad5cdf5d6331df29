"""Controls generated from a system's declared parameters (no per-system widget code).

Every :class:`~workbench.rules.params.Param` becomes a widget by its kind: ``int`` a slider
(or a drop-down when the parameter may be left out), ``bool`` a check box, ``choice`` a
drop-down. Rule options are grouped under their own heading, so every reading of the rules
is one click away. Each control shows its parameter's help as a tooltip, and a parameter left
unset shows "(not set)". Controls only hold values: :meth:`EntryControls.settings` reads them
into an :class:`~workbench.widgets.settings.EntrySettings`.
"""
from __future__ import annotations

import html
from typing import Any, Callable

import ipywidgets as widgets

from ..analysis import counts_dice, typical_pool
from ..errors import WorkbenchError
from ..rules.params import Param
from ..rules.registry import get_system
from ..rules.system import System
from .axes import grown_choice
from .editor import RulesEditor
from .settings import AS_SET, EntrySettings

SLIDER_SPAN_POSITIVE = 30
"""Largest value a slider offers for a count (pools past 30 dice are off any table)."""
SLIDER_SPAN_SIGNED = 6
"""Slider bounds for signed levels such as favor and advantage."""
NOT_SET = "(not set)"
"""What an optional parameter left unset shows (and holds: a ``None`` value would show blank)."""
_LAYOUT = widgets.Layout(width="360px")
# Wide enough for the longest parameter name (``disadvantage_mode``): labels are never cut.
_STYLE = {"description_width": "140px"}


def slider_bounds(param: Param, value: int | None = None) -> tuple[int, int]:
    """The range a slider offers: the declared bounds, narrowed to what a table would use.

    Example:
        >>> slider_bounds(Param("favor", "int", 0, -1000, 1000))
        (-6, 6)
        >>> slider_bounds(Param("penalty", "int", 0, 0, 2))
        (0, 2)
    """
    signed = param.minimum is None or param.minimum < 0
    low = -SLIDER_SPAN_SIGNED if signed else param.minimum
    if param.minimum is not None:
        low = max(low, param.minimum)
    high = SLIDER_SPAN_SIGNED if signed else SLIDER_SPAN_POSITIVE
    if param.maximum is not None:
        high = min(high, param.maximum)
    if value is not None:  # a value given in code may lie past the usual range
        low, high = min(low, value), max(high, value)
    return low, high


def knob_widget(param: Param, value: Any = None, required: bool = False) -> widgets.ValueWidget:
    """A widget for one parameter, starting at ``value`` (the default when ``None``).
    ``required``: a whole number the rules need although it has no default (a formula's
    ``@mod``): a slider, starting at ``value``.

    The widget carries the CSS class ``wb-knob-<name>`` so a browser test can find it.

    Example:
        >>> knob_widget(Param("stunt", "bool", False)).value
        False
    """
    if required and param.kind == "int":
        param = Param(param.name, "int", value if value is not None else 0, param.minimum,
                      param.maximum, help=param.help)
    value = param.default if value is None else value
    common = {"description": param.name, "tooltip": f"{param.name}: {param.help}",
              "style": _STYLE, "layout": _LAYOUT}
    if param.kind == "bool":
        widget = widgets.Checkbox(value=bool(value), indent=True, **common)
    elif param.kind == "choice":
        options = [(str(c), c) for c in param.choices]
        if param.optional:
            options.insert(0, (NOT_SET, NOT_SET))
        widget = widgets.Dropdown(options=options, value=NOT_SET if value is None else value,
                                  **common)
    elif param.optional:
        low, high = slider_bounds(param, value)
        options = [(NOT_SET, NOT_SET)] + [(str(n), n) for n in range(low, high + 1)]
        widget = widgets.Dropdown(options=options, value=NOT_SET if value is None else value,
                                  **common)
    else:
        low, high = slider_bounds(param, value)
        widget = widgets.IntSlider(value=value, min=low, max=high, step=1,
                                   continuous_update=False, **common)
    widget.add_class(f"wb-knob-{param.name}")
    return widget


def knob_value(widget: widgets.ValueWidget) -> Any:
    """A widget's value as the engine wants it (whole numbers for sliders).

    Example:
        >>> knob_value(widgets.IntSlider(value=3))
        3
    """
    value = widget.value
    if isinstance(widget, widgets.IntSlider):
        return int(round(value))
    return None if value == NOT_SET else value


class EntryControls:
    """The controls of one system or variant in the explorer: knobs, rungs, label, remove,
    and a box to edit a copy of its rules.

    A new entry starts at a typical character's pool
    (:func:`~workbench.analysis.typical_pool`: 4 dice, or a skill's default) unless
    ``params`` name the pool. ``system`` may be a :class:`~workbench.rules.system.System`
    (an edited copy).

    Example:
        >>> controls = EntryControls("uwr", {"favor": 1}, rungs=("Normal",))
        >>> controls.knobs["favor"].value = 2
        >>> controls.settings().knobs["favor"], controls.settings().knobs["dice"]
        (2, 4)
        >>> controls.settings().rungs
        ('Normal',)
    """

    def __init__(self, system: "str | System", params: dict[str, Any] | None = None,
                 rungs: tuple[str, ...] | None = None, label: str | None = None):
        sys_ = get_system(system)
        self.system = system
        self.system_object = sys_
        self.edited = False
        self.editor = None   # made when "edit rules" is first pressed
        self._callbacks: list[Callable[[dict], None]] = []
        params = dict(params or {})
        pool = sys_.pool_parameter
        if pool and pool not in params and not _pool_set_otherwise(sys_, params):
            params[pool] = typical_pool(sys_)   # 4 dice in bounds, or a skill's default
        for name in _required(sys_):   # a formula's @mod without a default: start at 0
            if params.get(name) is None:
                low = sys_.params[name].minimum
                params[name] = 0 if low is None or low <= 0 else low
        resolved = sys_.resolve(**params)  # checks the given values and fills defaults
        self.label = widgets.Text(value=label or "", placeholder="legend label (automatic)",
                                  description="label", style=_STYLE, layout=_LAYOUT,
                                  tooltip="the name this entry gets in the legend")
        self.remove_button = widgets.Button(description="remove", icon="trash",
                                            tooltip=f"remove {sys_.name} from the chart",
                                            layout=widgets.Layout(width="100px", min_width="100px",
                                                                  flex="0 0 auto"))
        self.edit_button = widgets.ToggleButton(
            description="edit rules", icon="pencil", layout=widgets.Layout(width="120px"),
            tooltip="edit a copy of this system's data file and watch the curves follow",
            disabled=sys_.source is None and sys_.collection != "formula")
        self.edit_button.add_class("wb-edit-rules")
        self.edit_button.observe(self._toggle_editor, names="value")
        self.pool_note = widgets.HTML(layout=widgets.Layout(margin="0 0 0 12px"))
        self.box = widgets.VBox(layout=widgets.Layout(padding="4px"))
        self.box.add_class("wb-entry")
        self.box.add_class(f"wb-entry-{sys_.id}")
        self._build(sys_, resolved, rungs)

    def _build(self, sys_: System, values: dict[str, Any], rungs: tuple[str, ...] | None) -> None:
        """Make the knobs and rungs of ``sys_`` (starting at ``values``) and lay the box out."""
        self.system_object = sys_
        required = _required(sys_)
        self.knobs = {name: knob_widget(param, values.get(name), name in required)
                      for name, param in sys_.params.items()}
        ladder = [r.name for r in sys_.ladder]
        chosen = (tuple(ladder) or (AS_SET,)) if rungs is None else (tuple(rungs) or (AS_SET,))
        self.rungs = widgets.SelectMultiple(
            options=[*ladder, AS_SET], value=chosen, rows=min(len(ladder) + 1, 7),
            description="rungs", tooltip="difficulty rungs to draw (ctrl-click for several); "
                                         "'as set' uses the knobs as they are",
            style=_STYLE, layout=_LAYOUT)
        for callback in self._callbacks:
            for widget in [*self.knobs.values(), self.rungs]:
                widget.observe(callback, names="value")
        roll = [w for name, w in self.knobs.items() if not sys_.params[name].rule_option]
        options = [w for name, w in self.knobs.items() if sys_.params[name].rule_option]
        edited = " <i>(edited copy)</i>" if self.edited else ""
        name = "formula" if sys_.collection == "formula" else sys_.name
        # a long name wraps beside the remove button (it never squeezes the button's word)
        title = widgets.HTML(f"<b>{html.escape(name)}</b> <code>{html.escape(sys_.id)}</code>{edited}",
                             layout=widgets.Layout(flex="1 1 auto", min_width="0"))
        parts = [widgets.HBox([title, self.remove_button],
                              layout=widgets.Layout(justify_content="space-between",
                                                    align_items="flex-start")),
                 *roll, self.pool_note]
        if options:
            parts += [widgets.HTML("<i>rule options</i>"), *options]
        parts += [self.rungs, self.label, self.edit_button]
        if self.editor is not None and self.edit_button.value:
            parts.append(self.editor.box)
        self.box.children = parts

    def _toggle_editor(self, change: dict) -> None:
        if change["new"] and self.editor is None:
            self.editor = RulesEditor(self.system_object, self.use_system)
        self._build(self.system_object, self._values(), self._chosen_rungs())

    def use_system(self, system: System) -> None:
        """Draw ``system`` (an edited copy) in place of this entry's: knobs keep their values
        where the copy still has them and allows them; the chosen rungs stay where they exist."""
        keep = {}
        for name, value in self._values().items():
            if name in system.params:
                try:
                    system.resolve(**{name: value})
                    keep[name] = value
                except WorkbenchError:
                    pass
        resolved = system.resolve(**keep)
        ladder = [r.name for r in system.ladder]
        rungs = tuple(r for r in self._chosen_rungs() if r in ladder or r == AS_SET) or None
        # a formula is its own name (the registry finds it again by its text)
        self.edited = system.collection != "formula"
        self.system = system.id if not self.edited else system
        self._build(system, resolved, rungs)
        for callback in self._callbacks:
            callback({"owner": self, "name": "system", "new": system})

    def _values(self) -> dict[str, Any]:
        return {name: knob_value(w) for name, w in self.knobs.items()}

    def _chosen_rungs(self) -> tuple[str, ...]:
        return tuple(self.rungs.value)

    @property
    def title(self) -> str:
        """A short title for the entry's collapsible panel."""
        name = self.system_object.name + (" (edited)" if self.edited else "")
        return self.label.value.strip() or name

    def show_pool(self, enabled: bool) -> None:
        """Enable the pool knob, or disable it with a note (the curve views' x axis is the pool)."""
        pool = self.system_object.pool_parameter or grown_choice(self.system_object)
        if not pool:
            return
        self.knobs[pool].disabled = not enabled
        self.pool_note.value = ("" if enabled else
                                f"<small style='color:#666'>{pool}: the x axis in this view"
                                + (" (set the range with <i>dice in pool</i>)</small>"
                                   if self.system_object.pool_parameter
                                   and counts_dice(self.system_object) else "</small>"))

    def value_widgets(self) -> list[widgets.Widget]:
        return [*self.knobs.values(), self.rungs, self.label]

    def observe(self, callback: Callable[[dict], None]) -> None:
        """Call ``callback`` whenever any knob, the rungs or the label change, or the rules
        are edited."""
        self._callbacks.append(callback)
        for widget in self.value_widgets():
            widget.observe(callback, names="value")

    def settings(self) -> EntrySettings:
        """The controls' current values as plain settings."""
        chosen = tuple(self.rungs.value)
        sys_ = self.system_object
        return EntrySettings(self.system,
                             tuple((name, knob_value(w)) for name, w in self.knobs.items()),
                             rungs=() if chosen == (AS_SET,) or not chosen else chosen,
                             label=self.label.value.strip() or None,
                             name=f"{sys_.id} (edited)" if self.edited else None)


def _required(sys_: System) -> tuple[str, ...]:
    """Parameters the rules need a value for although they have no default (a formula's
    ``@mod``)."""
    return tuple(getattr(sys_.mechanic, "required", ()) or ())


def _pool_set_otherwise(sys_, params: dict[str, Any]) -> bool:
    """Whether ``params`` already fix the pool another way (Arrata's ``stat="B5"``)."""
    pool = sys_.pool_parameter
    try:
        return sys_.resolve(**params)[pool] != sys_.params[pool].default
    except WorkbenchError:  # a bad value: let the resolve below name it
        return False
