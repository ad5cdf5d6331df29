"""Controls generated from a system's declared parameters (no per-system widget code).

Every :class:`~workbench.rules.params.Param` becomes a widget by its kind: ``int`` a slider
(or a drop-down when the parameter may be left out), ``bool`` a check box, ``choice`` a
drop-down. Rule options are grouped under their own heading, so every reading of the rules
in RULES.md is one click away. Controls only hold values: :meth:`EntryControls.settings`
reads them into an :class:`~workbench.widgets.settings.EntrySettings`.
"""
from __future__ import annotations

from typing import Any, Callable

import ipywidgets as widgets

from ..rules.params import Param
from ..rules.registry import get_system
from .settings import AS_SET, EntrySettings

SLIDER_SPAN_POSITIVE = 30
"""Largest value a slider offers for a count (pools past 30 dice are off any table)."""
SLIDER_SPAN_SIGNED = 6
"""Slider bounds for signed levels such as favor and advantage."""
_LAYOUT = widgets.Layout(width="320px")
_STYLE = {"description_width": "110px"}


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


def knob_widget(param: Param, value: Any = None) -> widgets.ValueWidget:
    """A widget for one parameter, starting at ``value`` (the default when ``None``).

    The widget carries the CSS class ``wb-knob-<name>`` so a browser test can find it.

    Example:
        >>> knob_widget(Param("stunt", "bool", False)).value
        False
    """
    value = param.default if value is None else value
    common = {"description": param.name, "tooltip": param.help, "style": _STYLE,
              "layout": _LAYOUT}
    if param.kind == "bool":
        widget = widgets.Checkbox(value=bool(value), indent=True, **common)
    elif param.kind == "choice":
        options = [(str(c), c) for c in param.choices]
        if param.optional:
            options.insert(0, ("(not set)", None))
        widget = widgets.Dropdown(options=options, value=value, **common)
    elif param.optional:
        low, high = slider_bounds(param, value)
        options = [("(not set)", None)] + [(str(n), n) for n in range(low, high + 1)]
        widget = widgets.Dropdown(options=options, value=value, **common)
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
    return value


class EntryControls:
    """The controls of one system or variant in the explorer: knobs, rungs, label, remove.

    Example:
        >>> controls = EntryControls("uwr", {"favor": 1}, rungs=("Normal",))
        >>> controls.knobs["favor"].value = 2
        >>> controls.settings().knobs["favor"], controls.settings().rungs
        (2, ('Normal',))
    """

    def __init__(self, system: str, params: dict[str, Any] | None = None,
                 rungs: tuple[str, ...] | None = None, label: str | None = None):
        sys_ = get_system(system)
        self.system = system
        params = dict(params or {})
        resolved = sys_.resolve(**params)  # checks the given values and fills defaults
        self.knobs = {name: knob_widget(param, resolved[name]) for name, param in sys_.params.items()}
        ladder = [r.name for r in sys_.ladder]
        chosen = (tuple(ladder) or (AS_SET,)) if rungs is None else (tuple(rungs) or (AS_SET,))
        self.rungs = widgets.SelectMultiple(
            options=[*ladder, AS_SET], value=chosen, rows=min(len(ladder) + 1, 7),
            description="rungs", tooltip="difficulty rungs to draw (ctrl-click for several); "
                                         "'as set' uses the knobs as they are",
            style=_STYLE, layout=_LAYOUT)
        self.label = widgets.Text(value=label or "", placeholder="label (automatic)",
                                  layout=widgets.Layout(width="220px"))
        self.remove_button = widgets.Button(description="remove", icon="trash",
                                            layout=widgets.Layout(width="100px"))
        roll = [w for name, w in self.knobs.items() if not sys_.params[name].rule_option]
        options = [w for name, w in self.knobs.items() if sys_.params[name].rule_option]
        parts = [widgets.HBox([widgets.HTML(f"<b>{sys_.name}</b> <code>{sys_.id}</code>"),
                               self.label, self.remove_button]),
                 widgets.HBox([widgets.VBox(roll), widgets.VBox(
                     ([widgets.HTML("<i>rule options</i>")] + options if options else [])
                     + [self.rungs])])]
        self.box = widgets.VBox(parts, layout=widgets.Layout(border="1px solid #ddd",
                                                             padding="4px", margin="2px 0"))
        self.box.add_class("wb-entry")
        self.box.add_class(f"wb-entry-{sys_.id}")

    def value_widgets(self) -> list[widgets.Widget]:
        return [*self.knobs.values(), self.rungs, self.label]

    def observe(self, callback: Callable[[dict], None]) -> None:
        """Call ``callback`` whenever any knob, the rungs or the label change."""
        for widget in self.value_widgets():
            widget.observe(callback, names="value")

    def settings(self) -> EntrySettings:
        """The controls' current values as plain settings."""
        chosen = tuple(self.rungs.value)
        return EntrySettings(self.system,
                             tuple((name, knob_value(w)) for name, w in self.knobs.items()),
                             rungs=() if chosen == (AS_SET,) or not chosen else chosen,
                             label=self.label.value.strip() or None)
