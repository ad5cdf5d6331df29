"""A page to hand over: the odds of some systems over a grid of their knobs, in one HTML file.

:func:`share_page` computes every setting of the chosen knobs ahead (exact, with
:func:`workbench.check`'s engine) and writes one self-contained page: the numbers as JSON,
plotly.js inlined, plain form controls. It opens from a file in any browser, with no Python, no
server and no network: a co-author or a playtester moves the controls and sees P(pass) by pool
and rung, and one check at the pool chosen. ``workbench share`` is the same on the command line.

Not imported by ``import workbench`` (it loads pandas and plotly's bundle on use).

Example:
    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "odds.html"
    >>> page = share_page(["uwr"], {"favor": [-1, 0, 1]}, pools=range(1, 7), out=out)
    >>> page.name, "holds 3 settings" in page.read_text()
    ('odds.html', True)
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from .. import files
from .grid import GridTooLarge, ShareGrid, check_size, compute, plan, share_grid
from .page import render_share_page

#: The largest page written: it opens quickly and goes by e-mail.
MAX_PAGE_BYTES = 2_000_000

__all__ = ["share_page", "share_html", "share_grid", "plan", "check_size", "compute",
           "ShareGrid", "GridTooLarge"]


def share_html(systems: Iterable[Any], knobs: Mapping[str, Sequence[Any]] | None = None, *,
               pools: Iterable[int] | None = None, params: Mapping[str, Any] | None = None,
               title: str | None = None) -> str:
    """The page as text (see :func:`share_page`)."""
    from ..figures.bundle import _basic  # lazy: plotly's bundle, read once

    grid = share_grid(systems, knobs, None if pools is None else list(pools), params)
    title = title or "Odds of " + ", ".join(p.label for p in grid.systems)
    text = render_share_page(grid, title, _basic())
    size = len(text.encode("utf-8"))
    if size > MAX_PAGE_BYTES:   # the estimate made up front fell short: nothing is written
        raise GridTooLarge(f"the page came to {size / 1e6:.2f} MB over {grid.settings:,} settings; "
                           f"allowed: at most {MAX_PAGE_BYTES / 1e6:.0f} MB (fewer knob values, "
                           "fewer pools or fewer systems)")
    return text


def share_page(systems: Iterable[Any], knobs: Mapping[str, Sequence[Any]] | None = None, *,
               out: "str | Path", pools: Iterable[int] | None = None,
               params: Mapping[str, Any] | None = None, title: str | None = None,
               option: str = "out") -> Path:
    """Write the page to ``out`` (whole or not at all) and return its path.

    Args:
        systems: ids, :class:`~workbench.rules.system.System` objects (an edited copy) or
            ``(system, params)`` pairs.
        knobs: each knob's values, such as ``{"favor": [-1, 0, 1]}``; a knob sets every
            system that has the parameter.
        pools: pool sizes for systems whose pool is a number of dice (default 1-10); a skill
            or a stat is drawn over round values of its range.
        params: settings held fixed, for every system that has them.
        title: the page's heading (default: "Odds of" and the systems' names).
        option: how ``out`` is named in errors (``--out`` on the command line).

    Raises:
        GridTooLarge: the numbers would not fit one page (said before any is computed).
    """
    files.check_target(out, option, suffixes=(".html", ".htm"), example="odds.html")
    text = share_html(systems, knobs, pools=pools, params=params, title=title)
    return files.write_text(out, text, option)
