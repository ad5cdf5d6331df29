"""Shared pieces of the subcommands: NAME=VALUE parameters, output formats and ``--out``."""
from __future__ import annotations

import inspect
import os
import shlex
import sys
from pathlib import Path

from .. import files, validation
from ..errors import WorkbenchError
from ..rules.registry import get_system

FORMATS = ("json", "md", "rst", "csv")
#: The one rule for output formats: ``--format`` when given, else the format the ``--out``
#: file's suffix names, else Markdown (readable in a terminal, pastes into any page).
DEFAULT_FORMAT = "md"
SUFFIX_FORMATS = {".md": "md", ".markdown": "md", ".rst": "rst", ".csv": "csv", ".json": "json",
                  ".html": "html", ".htm": "html", ".txt": "text"}
FORMAT_RULE = ("default: the format --out's suffix names (.md, .rst, .csv, .json, .html, .txt), "
               "else md")


def one_line(message: str) -> str:
    """A message as one line: line breaks and other control characters typed into an
    argument are shown escaped, as Python writes them.

    Example:
        >>> one_line("wrote a\\nb.md")
        'wrote a\\\\nb.md'
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(message))


def output_format(given: str | None, out: str | None, allowed: tuple[str, ...]) -> str:
    """The format a command writes in: ``--format``, else ``--out``'s suffix, else Markdown.
    A suffix naming a format the command does not write is refused rather than filled with
    Markdown (``pmf --out odds.html`` would open in a browser as raw text).

    Example:
        >>> output_format(None, "odds.rst", ("rst-grid", "md")), output_format(None, None, ("json", "md"))
        ('rst-grid', 'md')
        >>> output_format("csv", "odds.rst", ("csv", "md")), output_format(None, "odds.v2", ("md",))
        ('csv', 'md')
        >>> output_format(None, "odds.html", ("json", "md", "rst", "csv"))
        Traceback (most recent call last):
        ...
        workbench.errors.WorkbenchError: --out 'odds.html': its suffix .html names html, which this command does not write; allowed: --format json, md, rst or csv, or a file name ending .md, .markdown, .rst, .csv or .json
    """
    if given is not None:
        return given
    if out and "." in str(out):
        suffix = "." + str(out).rsplit(".", 1)[-1].lower()
        named = SUFFIX_FORMATS.get(suffix)
        if named is not None:
            for fmt in allowed:  # .rst names the first RST table style the command has
                if fmt == named or fmt.startswith(named + "-"):
                    return fmt
            suffixes = [s for s, f in SUFFIX_FORMATS.items()
                        if any(fmt == f or fmt.startswith(f + "-") for fmt in allowed)]
            raise WorkbenchError(f"--out {str(out)!r}: its suffix {suffix} names {named}, which this "
                                 f"command does not write; allowed: --format {_either(allowed)}, "
                                 f"or a file name ending {_either(suffixes)}")
    return DEFAULT_FORMAT


def _either(words) -> str:
    """``a, b or c``."""
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def parse_assignments(items: list[str], what: str = "parameter") -> dict[str, str]:
    """``["dice=4", "favor=-1"]`` -> ``{"dice": "4", "favor": "-1"}`` (values stay text;
    each system's parameters check and convert them)."""
    params: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise WorkbenchError(f"{what} {item!r} is not NAME=VALUE (e.g. dice=4, half=true, quality=B)")
        if name.strip() in params:
            raise WorkbenchError(f"{what} {name.strip()!r} is given twice "
                                 f"({params[name.strip()]!r} and {value.strip()!r}); allowed: once")
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


def not_keywords(system: str, params: dict[str, str], command: str, options: dict[str, str],
                 function) -> None:
    """Refuse a NAME=VALUE that is not a parameter of the system but an option of the command
    (``options``: its name and how it is given, ``seed=3`` is ``--seed 3``) or a keyword of
    the Python ``function`` the command calls (``system=fate``), in one line, rather than a
    Python traceback about a keyword given twice.

    Example:
        >>> from workbench import check
        >>> not_keywords("uwr", {"dice": "4"}, "pmf", {"seed": "--seed {value}"}, check)
        >>> not_keywords("uwr", {"seed": "3"}, "pmf", {"seed": "--seed {value}"}, check)
        Traceback (most recent call last):
        ...
        workbench.errors.WorkbenchError: NAME=VALUE seed=3 is an option of pmf, not a parameter of uwr; allowed: --seed 3
        >>> not_keywords("uwr", {"system": "fate"}, "pmf", {}, check)
        Traceback (most recent call last):
        ...
        workbench.errors.ParameterError: uwr: parameter 'system' got 'fate'; allowed: a parameter of this system: dice, favor, rerolls, half, penalty, target
    """
    keywords = [p.name for p in inspect.signature(function).parameters.values()
                if p.kind is not inspect.Parameter.VAR_KEYWORD]
    for name, value in params.items():
        if name in options:
            raise WorkbenchError(f"NAME=VALUE {name}={value} is an option of {command}, not a "
                                 f"parameter of {system}; allowed: " + options[name].format(value=value))
        if name in keywords:
            sys_ = get_system(system)
            sys_.resolve(**{name: value})   # its own words for a name it does not have
            raise WorkbenchError(f"{sys_.id}: parameter {name!r} cannot be set from the command "
                                 f"line (it is also a keyword of workbench.{function.__name__})")


def write_text(text: str, out: str | None) -> None:
    """``text`` and a line end to stdout, or to the ``--out`` file (saying so on stderr)."""
    if out is None:
        sys.stdout.write(text + "\n")
        return
    files.write_text(out, text + "\n", "--out")   # whole or not at all
    print(one_line(f"wrote {out}"), file=sys.stderr)  # as figure, sweep and report do


def checked_out_path(out: str, example: str = "odds.rst", suffixes=()) -> Path:
    """``--out``'s file, checked before any work (:func:`workbench.files.check_target`): a
    file name, in a folder that exists and may be written to; not a folder, a device or a
    read-only file."""
    files.check_target(out, "--out", suffixes=suffixes, example=example)
    return Path(out)


def not_a_data_file(out: str, system: str) -> None:
    """``--out`` must not be the data file the table is computed from (``table mine.toml
    --out mine.toml`` would replace the designer's system with its own table)."""
    sys_ = get_system(system)
    while sys_ is not None:
        if sys_.source is not None and os.path.realpath(out) == os.path.realpath(sys_.source):
            raise WorkbenchError(f"--out {out!r} is the data file of system {sys_.id!r} that the "
                                 "table is computed from; allowed: another file name, such as "
                                 f"{sys_.id}-odds.rst")
        sys_ = get_system(sys_.base) if sys_.base else None
