"""Edit the rules live: a text box holding a copy of a system's data file, or a formula.

The box takes a data file's TOML or a one-line formula (``4d6kh3``, ``(@dice=5)d10cs>=8``):
a formula's entry opens with its formula, and a TOML copy replaced by one line of formula
becomes that formula. Every change is read into a system (:func:`workbench.rules.text.system_from_text`) a moment
after typing stops; the explorer then draws the edited copy. A file that does not load leaves
the last good rules drawn and shows the error above the box with its line, numbered and
marked. The file on disk is never changed.
"""
from __future__ import annotations

import asyncio
import html
from typing import Callable

import ipywidgets as widgets

from ..errors import FormulaError, WorkbenchError
from ..rules.system import System
from ..rules.text import TextError, source_text, system_from_text

#: Seconds after the last keystroke before the text is read (typing is not slowed down).
PAUSE = 0.35
#: Lines shown either side of an error's line.
CONTEXT = 2


def read_rules(text: str, origin: str) -> System:
    """The system ``text`` describes: a data file's TOML, or a one-line formula such as
    ``4d6kh3`` (see :func:`workbench.rules.text.system_from_text`)."""
    return system_from_text(text, origin)


def error_html(text: str, error: WorkbenchError) -> str:
    """An error as HTML above the box: the message, then the lines around the one it is on,
    numbered, that line marked.

    Example:
        >>> print(error_html("a = 1\\nb = [\\n", TextError("not valid TOML", 2)))  # doctest: +ELLIPSIS
        <div class='wb-editor-error'>⚠ line 2: not valid TOML<pre>...<b>   2 ▶ b = [</b>...</pre></div>
    """
    line = getattr(error, "line", None)
    body = f"⚠ {html.escape(str(error))}"
    if isinstance(error, FormulaError):   # the formula, and a caret under its column
        body += f"<pre>{html.escape(error.shown)}\n<b>{html.escape(error.caret)}</b></pre>"
    elif line is not None:
        lines = text.splitlines()
        shown = []
        for number in range(max(1, line - CONTEXT), min(len(lines), line + CONTEXT) + 1):
            row = f"{number:4d} {'▶' if number == line else ' '} {lines[number - 1]}"
            shown.append(f"<b>{html.escape(row)}</b>" if number == line else html.escape(row))
        body += "<pre>" + "\n".join(shown) + "</pre>"
    return f"<div class='wb-editor-error'>{body}</div>"


class RulesEditor:
    """A text box with a copy of ``system``'s data file; ``on_system`` is called with each
    edited copy that loads (the status line above the box says which, or shows the error).

    Example:
        >>> seen = []
        >>> editor = RulesEditor("uwr", seen.append)
        >>> editor.text.value = editor.text.value.replace("faces = [0, 0, 0, 0, 1, 1]",
        ...                                               "faces = [0, 0, 0, 1, 1, 1]")
        >>> seen[-1].id, "loaded" in editor.status.value
        ('uwr', True)
        >>> editor.text.value = editor.text.value.replace("[params.favor]", "[params.favor")
        >>> "line" in editor.status.value and len(seen)
        1
    """

    def __init__(self, system: "str | System", on_system: Callable[[System], None]):
        self.on_system = on_system
        self.origin = f"{getattr(system, 'id', system)} (edited copy)"
        self.system: System | None = None
        self._pending = None
        text = source_text(system)
        tall = "260px" if "\n" in text.strip() else "60px"   # a formula is one line
        self.text = widgets.Textarea(value=text, continuous_update=True,
                                     layout=widgets.Layout(width="100%", height=tall),
                                     tooltip="a copy of the system's data file (or a one-line "
                                             "formula such as 4d6kh3): edit it and the curves "
                                             "follow; the file itself is not changed")
        self.text.add_class("wb-editor-text")
        self.status = widgets.HTML()
        self.status.add_class("wb-editor-status")
        self.text.observe(self._typed, names="value")
        # the status first: an error is seen without scrolling past the whole file
        self.box = widgets.VBox([self.status, self.text], layout=widgets.Layout(width="100%"))
        self.box.add_class("wb-editor")

    def _typed(self, change: dict) -> None:
        """Read the text once typing pauses (at once outside a running event loop)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.apply()
            return
        if self._pending is not None:
            self._pending.cancel()
        self._pending = loop.call_later(PAUSE, self.apply)

    def apply(self) -> System | None:
        """Read the text now: the edited system, or ``None`` (the error shown above the box)."""
        self._pending = None
        text = self.text.value
        try:
            system = read_rules(text, self.origin)
        except WorkbenchError as exc:
            self.status.value = error_html(text, exc)
            return None
        try:
            self.on_system(system)
        except WorkbenchError as exc:   # loads, but cannot be drawn (a knob value it refuses)
            self.status.value = error_html(text, exc)
            return None
        self.system = system
        what = ("the formula" if system.collection == "formula" else
                f"{html.escape(system.name)} ({html.escape(system.id)}) as the edited copy")
        self.status.value = (f"<span style='color:#2a7a2a'>✓ loaded: {len(system.params)} "
                             f"parameters, {len(system.ladder)} rungs — drawn: {what}</span>")
        return system
