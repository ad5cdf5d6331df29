"""The balance report: one self-contained HTML page comparing systems, built in Python.

:func:`report_sections` gathers the report's sections (:mod:`.sections`); :func:`build_report`
writes them as one page (:mod:`.page`: plotly.js inlined once, so it opens offline) and
``notebooks/balance_report.ipynb`` shows the same sections with :func:`show_sections`. No
notebook is executed and no kernel started, so the command prints no kernel warnings, stops
cleanly on Ctrl-C and works from an installed wheel.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Sequence

from .. import files, validation
from ..errors import ParameterError
from .page import render_page
from .sections import (DEFAULT_SYSTEMS, DEFAULT_WANTED, Section, Table, _check_choice,  # noqa: F401
                       check_wanted, report_sections, report_title, show_sections)


def build_report(out: "str | Path", systems: Sequence[str] = DEFAULT_SYSTEMS,
                 variants: Sequence[str] = (), pool_sizes: Iterable[int] = range(1, 11), *,
                 progress: bool = False, wanted: str | None = None) -> Path:
    """Write the balance report for these systems as one self-contained HTML page.

    Args:
        out: the ``.html`` file to write (its folder must exist).
        systems: system ids or aliases to compare.
        variants: what-if variant ids shown next to their base systems.
        pool_sizes: pool sizes for curves and ladder tables.
        progress: a progress bar on stderr, one step per section.
        wanted: the odds the "solved ladders" section asks, such as ``"Easy=0.9,Normal=0.7"``,
            of each system whose ladder has these rungs; ``None`` (the default) solves each
            system's own rungs for odds from 90% (easiest) to 20% (hardest).

    Returns:
        The path written.

    Example:
        >>> build_report("/tmp/report.html", ["nope"])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        workbench.errors.WorkbenchError: unknown system 'nope'; known: uwr, fons, unnamed, arrata, erzahlspiel, ...
    """
    if not isinstance(out, (str, Path)) or not str(out):
        raise ParameterError(None, "out", out, "a file name ending in .html")
    progress = validation.boolean(None, "progress", progress)
    files.check_target(out, "out", suffixes=(".html", ".htm"), example="balance.html")
    out = Path(out)
    picked, picked_variants, sizes = _check_choice(systems, variants, pool_sizes)
    sections = report_sections(picked, picked_variants, sizes, wanted=wanted)
    page = render_page(report_title(picked, picked_variants), sections, [s.id for s in picked],
                       [s.id for s in picked_variants], sizes, progress=progress)
    files.write_text(out, page, "out")   # whole or not at all: an old report stays on failure
    return out
