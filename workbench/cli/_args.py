"""Shared pieces of the subcommands: NAME=VALUE parameters and output formats."""
from __future__ import annotations

import shlex

from .. import validation
from ..errors import WorkbenchError

FORMATS = ("json", "md", "rst", "csv")
#: The one rule for output formats: ``--format`` when given, else the format the ``--out``
#: file's suffix names, else Markdown (readable in a terminal, pastes into any page).
DEFAULT_FORMAT = "md"
SUFFIX_FORMATS = {".md": "md", ".markdown": "md", ".rst": "rst", ".csv": "csv", ".json": "json",
                  ".html": "html", ".htm": "html", ".txt": "text"}
FORMAT_RULE = ("default: the format --out's suffix names (.md, .rst, .csv, .json, .html, .txt), "
               "else md")


def output_format(given: str | None, out: str | None, allowed: tuple[str, ...]) -> str:
    """The format a command writes in: ``--format``, else ``--out``'s suffix, else Markdown.

    Example:
        >>> output_format(None, "odds.rst", ("rst-grid", "md")), output_format(None, None, ("json", "md"))
        ('rst-grid', 'md')
        >>> output_format("csv", "odds.rst", ("csv", "md"))
        'csv'
    """
    if given is not None:
        return given
    if out:
        named = SUFFIX_FORMATS.get("." + str(out).rsplit(".", 1)[-1].lower()) if "." in str(out) else None
        for fmt in allowed:  # .rst names the first RST table style the command has
            if named is not None and (fmt == named or fmt.startswith(named + "-")):
                return fmt
    return DEFAULT_FORMAT


def parse_assignments(items: list[str], what: str = "parameter") -> dict[str, str]:
    """``["dice=4", "favor=-1"]`` -> ``{"dice": "4", "favor": "-1"}`` (values stay text;
    each system's parameters check and convert them)."""
    params: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise WorkbenchError(f"{what} {item!r} is not NAME=VALUE (e.g. dice=4, half=true, quality=B)")
        if name.strip() in params:
            raise WorkbenchError(f"{what} {name.strip()!r} is given twice")
        params[name.strip()] = value.strip()
    return params


def parse_quoted(text: str, what: str) -> dict[str, str]:
    """``"dice=4 favor=1"`` -> parameters, as for ``--actor`` / ``--reactor``."""
    try:
        words = shlex.split(text)
    except ValueError as exc:  # only shlex's own errors (unbalanced quotes) get this prefix
        raise WorkbenchError(f"{what} {text!r}: {exc}") from None
    return parse_assignments(words, what)


def whole_number(text: str, option: str, low: int, high: int) -> int:
    """An option's whole-number value within bounds, or the one-line error naming them
    (the one rule of :func:`workbench.validation.whole_number`, text as typed)."""
    return validation.whole_number(None, option, text, low, high, text=True)
