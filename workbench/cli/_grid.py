"""Reading ``workbench sweep``'s ``--grid`` and values the way a shell user means them.

``--grid`` is one argument holding NAME=VALUES words separated by spaces. Quotes work as in
the shell: ``label="a b"`` and ``label='a,b'`` are one value each (quotes group spaces and
commas and are removed). A JSON value stays whole, brackets, quotes, spaces and all
(``actor={"dice": 2}``, ``quality=["A", "B"]``). Then VALUES is:

- a range of whole numbers, ends included: ``2-6``, ``-2..2``;
- a JSON list: the values, as a list in a Python grid (``quality=["A","B"]``; a sweep over
  sessions: ``session=[[{"d6": 2}], [{"d6": 3}]]``);
- else a comma list: ``0,0.1,0.2``, ``uwr,fons``, ``{"dice": 2},{"dice": 3}``, each read as a
  value on the command line (:func:`read_value`).
"""
from __future__ import annotations

import json
import re
from typing import Any

from ..errors import WorkbenchError, shown
from ..validation import number_text

_RANGE = re.compile(r"^(-?[0-9]+)(?:-|\.\.)(-?[0-9]+)$", re.ASCII)   # ASCII digits, not "３-4"
MAX_RANGE = 100_000
"""The most values one range in ``--grid`` may give."""

_QUOTE = ("", True)
"""Where a quote stood: no character, but the item was quoted (``""`` is a value, empty)."""


def read_value(text: str, name: str) -> Any:
    """One command-line value as a Python value: JSON for ``[``/``{``, whole numbers,
    numbers, ``true``/``false``, else the text itself.

    Example:
        >>> [read_value(t, "x") for t in ("4", "-1", "0.25", "true", "green", '[{"d6": 2}]')]
        [4, -1, 0.25, True, 'green', [{'d6': 2}]]
    """
    text = text.strip()
    if text[:1] and text[:1] in "[{":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise WorkbenchError(f"{name} got {shown(text)}; allowed: JSON ({exc.msg})") from None
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    number = number_text(text)   # ASCII digits only: "５" stays text (int() read it as 5)
    return text if number is None else number


def _mark(text: str) -> list[tuple[str, bool]]:
    """Each character of ``text`` with whether it is protected (in quotes or in JSON): only
    unprotected spaces, ``=`` and commas separate. Quotes outside JSON are dropped (each leaves
    :data:`_QUOTE`); JSON keeps every character (its own strings, brackets inside them).

    Example:
        >>> "".join(c if kept else "_" for c, kept in _mark('a="x y" b=[1, "]"]'))
        '__x y___[1, "]"]'
    """
    out: list[tuple[str, bool]] = []
    quote = None          # the quote we are in, outside JSON
    depth = 0             # JSON brackets open
    in_string = False     # in a JSON string
    escaped = False
    for char in text:
        if depth:
            out.append((char, True))
            if escaped:
                escaped = False
            elif in_string:
                escaped = char == "\\"
                in_string = char != '"'
            elif char == '"':
                in_string = True
            elif char in "[{":
                depth += 1
            elif char in "]}":
                depth -= 1
        elif quote is not None:
            if escaped:
                out.append((char, True))
                escaped = False
            elif char == quote:
                quote = None
                out.append(_QUOTE)
            elif char == "\\" and quote == '"':
                escaped = True
            else:
                out.append((char, True))
        elif char in "'\"":
            quote = char
            out.append(_QUOTE)
        elif char in "[{" and (not out or (out[-1][0] and out[-1][0] in "=," and not out[-1][1])):
            depth = 1   # a JSON value: at the start of a value or a comma item
            out.append((char, True))
        else:
            out.append((char, False))
    if quote is not None:
        raise WorkbenchError(f"--grid got {shown(text)}; allowed: quotes in pairs (no closing {quote})")
    if depth:
        raise WorkbenchError(f"--grid got {shown(text)}; allowed: JSON with its brackets closed "
                             f"({depth} open)")
    return out


def _cut(marked: list[tuple[str, bool]], separators: str) -> list[list[tuple[str, bool]]]:
    pieces: list[list[tuple[str, bool]]] = [[]]
    for char, kept in marked:
        if char and not kept and char in separators:
            pieces.append([])
        else:
            pieces[-1].append((char, kept))
    return pieces


def _text(piece: list[tuple[str, bool]]) -> str:
    return "".join(char for char, _ in piece)


def grid_words(text: str) -> dict[str, list[tuple[str, bool]]]:
    """``--grid``'s NAME=VALUES words: each name and its value, not yet read (see
    :func:`grid_values`); :func:`shown_value` gives a value as typed, quotes removed."""
    words = [word for word in _cut(_mark(text), " \t\r\n") if word]
    if not words:
        raise WorkbenchError("--grid got ''; allowed: NAME=VALUES words such as "
                             '"players=2-6 tier=0-3"')
    found: dict[str, list[tuple[str, bool]]] = {}
    for word in words:
        name = _cut(word, "=")[0]   # the first unprotected = ends the name
        name_text = _text(name).strip()
        if len(name) == len(word) or not name_text:
            raise WorkbenchError(f"--grid entry {shown(_text(word))} is not NAME=VALUES (e.g. "
                                 "dice=1-4, quality=A,B)")
        if name_text in found:
            raise WorkbenchError(f"--grid entry {name_text!r} is given twice; allowed: each "
                                 "name once, its values together (dice=1,3,5)")
        found[name_text] = word[len(name) + 1:]   # the value, its own = signs kept
    return found


def shown_value(value: list[tuple[str, bool]]) -> str:
    """A value of :func:`grid_words` as text (quotes removed).

    Example:
        >>> shown_value(grid_words('label="a b",c')["label"])
        'a b,c'
    """
    return _text(value)


def parse_grid(text: str) -> dict[str, list]:
    """``--grid``: each swept setting's values, in order.

    Example:
        >>> parse_grid('players=2-4 label="a b",c quality=["A", "B"] actor={"dice": 2}')
        {'players': [2, 3, 4], 'label': ['a b', 'c'], 'quality': ['A', 'B'], 'actor': [{'dice': 2}]}
    """
    return {name: grid_values(value, name) for name, value in grid_words(text).items()}


def grid_values(value: list[tuple[str, bool]] | str, name: str) -> list:
    """The values of one ``--grid`` entry (the text after ``NAME=``).

    Example:
        >>> grid_values("2-4", "players"), grid_values("-2..0", "favor"), grid_values("0,0.5", "r")
        ([2, 3, 4], [-2, -1, 0], [0, 0.5])
        >>> grid_values('["A","B"]', "quality"), grid_values('"a b",\\'c,d\\'', "label")
        (['A', 'B'], ['a b', 'c,d'])
    """
    marked = _mark(value) if isinstance(value, str) else value
    where = f"--grid {name}"
    shown_text = shown(_text(marked))
    items = _cut(marked, ",")
    if len(items) == 1:   # quotes only group: "2-6" is the range 2-6, as the shell reads it
        single = _text(items[0]).strip()
        match = _RANGE.match(single)
        if match:
            return _range(int(match.group(1)), int(match.group(2)), shown_text, where)
        if single.startswith("["):
            values = read_value(single, where)
            if not values:
                raise WorkbenchError(f"{where} got {shown_text}; allowed: a JSON list of at "
                                     "least one value")
            return values
    values = []
    for item in items:
        text = _text(item)
        if not text.strip() and _QUOTE not in item:   # "1,,2", "dice=": a value left out
            raise WorkbenchError(f"{where} got {shown_text}; allowed: a range such as 2-6, a "
                                 'JSON list such as ["A", "B"] or values separated by commas')
        values.append(read_value(text, where))
    return values


def _range(low: int, high: int, shown_text: str, where: str) -> list[int]:
    if low > high:
        raise WorkbenchError(f"{where} got {shown_text}; allowed: a range LOW-HIGH with "
                             "LOW <= HIGH, or a comma list")
    if high - low >= MAX_RANGE:
        raise WorkbenchError(f"{where} got {shown_text}; allowed: ranges of at most "
                             f"{MAX_RANGE:,} values")
    return list(range(low, high + 1))
