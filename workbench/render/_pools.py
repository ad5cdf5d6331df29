"""Pool sizes written as text (``1-10``, ``2,4,6``, ``3``): one grammar and one way of saying
what is wrong, for every place a user writes them (``--pools`` and ``--across`` on the
command line, ``pools=`` in a Markdown block, ``:pools:`` in a Sphinx directive).

Grammar: sizes and ranges separated by commas; a size is 1 to 6 ASCII digits (``04`` is 4), a
range ``LOW-HIGH`` (or ``LOW..HIGH``, as ``sweep --grid`` writes ranges) runs upwards; spaces around any part are ignored. Every size is at most
:data:`MAX_POOL` and is given once.
"""
from __future__ import annotations

import re

from ..errors import WorkbenchError
from ..limits import MAX_TABLE_POOL

MAX_POOL = MAX_TABLE_POOL
"""The largest pool size a table, ladder or figure steps through."""
POOLS_ALLOWED = f"sizes from 0 to {MAX_POOL} such as 1-10 or 2,4,6"
"""What pool sizes may be, as errors say it."""

_RANGE = re.compile(r"^\s*([0-9]{1,6})\s*(?:-|\.\.)\s*([0-9]{1,6})\s*$", re.ASCII)   # ASCII digits only
_SIZE = re.compile(r"^\s*[0-9]{1,6}\s*$", re.ASCII)   # ("３".isdigit() is true, and int("３") is 3)


class PoolSizesError(WorkbenchError):
    """Text that is no list of pool sizes: the ``value`` given, the ``problem`` found (empty
    where the text does not read as sizes at all) and what is ``allowed``; the message names
    the option as the caller calls it (``--pools``)."""

    def __init__(self, option: str, value: str, problem: str, allowed: str):
        self.option, self.value, self.problem, self.allowed = option, value, problem, allowed
        said = f": {problem}" if problem else ""
        super().__init__(f"{option} got {value!r}{said}; allowed: {allowed}")


def parse_pools(text: str, option: str = "--pools") -> list[int]:
    """``"1-10"``, ``"2,4,6"`` or ``"3"`` -> pool sizes (each 0..100, each once: ``04`` is
    ``4``, so ``4,04`` is one pool given twice, an error as everywhere a pool repeats).

    Raises:
        PoolSizesError: naming ``option``, the text, what is wrong and what is allowed.

    Example:
        >>> parse_pools("1-3,6"), parse_pools("04"), parse_pools("2..4")
        ([1, 2, 3, 6], [4], [2, 3, 4])
        >>> parse_pools("3-5,04")
        Traceback (most recent call last):
        ...
        workbench.render.PoolSizesError: --pools got '3-5,04': pool size 4 is given twice; allowed: sizes from 0 to 100 such as 1-10 or 2,4,6, each once
    """
    text = str(text)
    sizes: list[int] = []
    for part in text.split(","):
        match = _RANGE.match(part)
        if match:
            low, high = int(match.group(1)), int(match.group(2))
            if low > high:
                raise PoolSizesError(option, text, f"range {part.strip()} runs backwards", POOLS_ALLOWED)
            sizes.extend(range(low, high + 1))
        elif _SIZE.match(part):
            sizes.append(int(part))
        else:
            raise PoolSizesError(option, text, "", POOLS_ALLOWED)
    if any(n > MAX_POOL for n in sizes):
        raise PoolSizesError(option, text, "", POOLS_ALLOWED)
    twice = next((n for i, n in enumerate(sizes) if n in sizes[:i]), None)
    if twice is not None:   # 4,04 or 3-5,4: one pool, said twice
        raise PoolSizesError(option, text, f"pool size {twice} is given twice", POOLS_ALLOWED + ", each once")
    return sizes
