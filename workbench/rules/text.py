"""A system from the text of a data file (an edited copy), and where in that text an error is.

The explorer's rules editor holds a copy of a system's TOML; every change is read here into a
:class:`~workbench.rules.system.System` that is never registered (the file on disk and the
catalogue stay as they were). A file with ``base = "..."`` is a variant of a loaded system, as
in a data folder; one line that is not TOML but a formula (``4d6kh3``) is that formula's
system. An error names the line it is on where it can be found: TOML's own errors
give it, a bad entry (``dice.d6.faces``) is looked up in the text.

Example:
    >>> text = source_text("uwr").replace('target = 1', 'target = 2', 1)
    >>> system_from_text(text).id
    'uwr'
    >>> system_from_text('id = "x"\\nname = "X" ]\\nmechanic = "pool"').id
    Traceback (most recent call last):
    ...
    workbench.rules.text.TextError: line 2: not valid TOML: Expected newline or end of document after a statement (at line 2, column 12)
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

from ..errors import DataFileError, WorkbenchError
from . import registry
from .notation import formula_system, looks_like_formula
from .registry import MAX_FILE_BYTES, build_system, get_system
from .system import System
from .variants import variant_data

EDITED = "edited"
"""The ``collection`` of a system read from edited text."""


class TextError(WorkbenchError):
    """Text that does not load as a system: the message, and the line (1-based) it is on
    when known (``line`` is ``None`` otherwise)."""

    def __init__(self, problem: str, line: int | None = None, entry: str | None = None):
        self.problem, self.line, self.entry = problem, line, entry
        where = f"line {line}: " if line is not None else ""
        super().__init__(where + problem)


def source_text(system: "str | System") -> str:
    """The text of the data file ``system`` was loaded from (a variant: its own file; a
    one-line formula: the formula).

    Example:
        >>> source_text("fons-exploding").splitlines()[0].startswith("#")
        True
        >>> source_text("4d6kh3")
        '4d6kh3'
    """
    sys_ = get_system(system)
    if sys_.collection == "formula":   # a one-line formula is its own text
        return sys_.id
    if sys_.source is None:
        raise WorkbenchError(f"{sys_.id}: has no data file to copy (it is defined in Python); "
                             "allowed: a system from a data file, such as uwr")
    return Path(sys_.source).read_text(encoding="utf-8-sig")


_TOML_LINE = re.compile(r"\(at line (\d+), column \d+\)")


def system_from_text(text: str, origin: str = "edited copy") -> System:
    """The system a data file's ``text`` describes, not registered (``origin`` names it in
    errors), or the system of a one-line formula (``4d6kh3``: one line that is not TOML).
    Raises :class:`TextError` with the line of the problem where it can be found, or the
    formula's :class:`~workbench.errors.FormulaError` (its column and a caret).

    Example:
        >>> system_from_text("  (@dice=5)d10cs>=8 ").pool_parameter
        'dice'
    """
    if not isinstance(text, str):
        raise TextError(f"got {type(text).__name__}; allowed: the text of a data file")
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        raise TextError(f"is larger than {MAX_FILE_BYTES // 1024} KiB; a system file is a few KiB of TOML")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        if is_formula(text):
            return formula_system(text.strip())
        found = _TOML_LINE.search(str(exc))
        line = int(found.group(1)) if found else None
        if line is None and "end of document" in str(exc):
            line = max(len(text.splitlines()), 1)
        raise TextError(f"not valid TOML: {exc}", line) from None
    path = Path(origin)
    try:
        if "base" in data:
            merged, base = variant_data(path, data, registry._catalogue().raw(), registry._REGISTERED)
            system = build_system(merged, path, base=base)
        else:
            system = build_system(data, path)
    except DataFileError as exc:
        raise TextError(f"entry '{exc.entry}': {exc.problem}", entry_line(text, exc.entry),
                        exc.entry) from None
    except WorkbenchError as exc:
        raise TextError(str(exc)) from None
    system.source = None   # nothing on disk to read again: this text is the system
    system.collection = EDITED
    return system


def is_formula(text: str) -> bool:
    """Whether ``text`` is meant as a one-line formula rather than a data file: one line, not
    TOML, shaped like a formula.

    Example:
        >>> is_formula("4d6kh3"), is_formula('id = "x"'), is_formula("uwr")
        (True, False, False)
    """
    stripped = text.strip()
    if not stripped or "\n" in stripped or not looks_like_formula(stripped):
        return False
    try:
        tomllib.loads(stripped)
    except tomllib.TOMLDecodeError:
        return True
    return False


def entry_line(text: str, entry: str) -> int | None:
    """The line of ``text`` (1-based) holding the entry named ``dice.d6.faces`` (or its
    table, or the nearest part of it that can be found); ``None`` when none is.

    Example:
        >>> entry_line('id = "x"\\n[dice.d6]\\nfaces = [1, 2]\\n', "dice.d6.faces")
        3
        >>> entry_line('id = "x"\\n[params.favor]\\nmin = 0\\n', "params.favor")
        2
    """
    parts = [p for p in re.split(r"[.\[\]]", entry or "") if p and not p.isdigit()]
    lines = text.splitlines()
    best, start = None, 0
    for depth, part in enumerate(parts):
        key = re.escape(part)
        header = re.compile(rf"^\s*\[+[^\]]*(?<![\w-]){key}(?![\w-])[^\]]*\]+")
        assignment = re.compile(rf"^\s*[\"']?{key}[\"']?\s*=")
        inline = re.compile(rf"[{{,]\s*[\"']?{key}[\"']?\s*=")
        for number in range(start, len(lines)):
            line = lines[number]
            if header.search(line) or assignment.search(line) or (depth and inline.search(line)):
                best, start = number + 1, number
                break
        else:
            break
    return best
