"""Where a page's workbench blocks are, kept between runs: ``workbench render`` and ``render
--check`` of a page whose text has not changed find its blocks without loading the CommonMark
parser (about a fifth of a short command's time; docs/speed.rst).

One file, ``pages.json``, in the workbench's cache folder (beside the system cache,
:func:`workbench.rules._system_cache.cache_folder`) holds, for each page's text (its SHA-256),
the blocks found in it: kind, words, option lines, first and last line, and the lines of its
region. The file is used only when it was written by this very code reading with this very
parser (the modules of :mod:`workbench.markdown` and markdown-it's, each by size and time);
an entry is used only when it fits the page (every line it names is in the page). Only pages
whose blocks were found without an error are kept, the newest :data:`KEPT` of them.

The file is written whole through :mod:`workbench.files`, readable and writable by the user
alone; one that is missing, corrupt, another user's, writable by others or that cannot be
written is ignored silently (the page is then read with the parser, as without the file).
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from pathlib import Path

from ..rules._system_cache import NotOwnStore, read_store, write_store

FORMAT = 1
"""Changes whenever the file's layout does."""
NAME = "pages.json"
KEPT = 256
"""The most pages the file remembers (the newest)."""
STATS = {"found": 0, "written": 0, "ignored": 0}
"""What this process did with the file (tests read it)."""


def _code_stamp() -> str:
    """This package's modules and markdown-it's (size and time of each): blocks found by
    other code are found again."""
    stamp: list = [FORMAT]
    spec = importlib.util.find_spec("markdown_it")   # found, not loaded
    folders = [Path(__file__).parent, *([Path(spec.origin).parent] if spec and spec.origin else [])]
    for folder in folders:
        with os.scandir(folder) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.name.endswith(".py"):
                    info = entry.stat()
                    stamp.append((entry.name, info.st_size, info.st_mtime_ns))
    return hashlib.sha256(repr(stamp).encode()).hexdigest()


def _page_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _read() -> tuple[str, dict]:
    """(the code's stamp, the pages kept for it); no pages when the file is missing,
    unreadable, foreign or written by other code."""
    code = _code_stamp()
    try:
        stored = json.loads(read_store(NAME))
    except OSError:
        return code, {}
    except (ValueError, NotOwnStore):   # not JSON, or not the user's: not read
        STATS["ignored"] += 1
        return code, {}
    if (not isinstance(stored, dict) or stored.get("format") != FORMAT
            or stored.get("code") != code or not isinstance(stored.get("pages"), dict)):
        return code, {}
    return code, stored["pages"]


def _fits(blocks, lines: int) -> bool:
    """Whether kept blocks are well formed and name only lines of a page of ``lines`` lines."""
    def line(value) -> bool:
        return type(value) is int and 0 <= value < lines

    def block_fits(block) -> bool:
        if not (isinstance(block, list) and len(block) == 6):
            return False
        kind, words, options, first, last, region = block
        return (isinstance(kind, str) and isinstance(words, str) and isinstance(options, list)
                and all(isinstance(o, list) and len(o) == 2 and line(o[0]) and isinstance(o[1], str)
                        for o in options)
                and line(first) and line(last) and first <= last
                and (region is None or (isinstance(region, list) and len(region) == 2
                                        and line(region[0]) and line(region[1])
                                        and last < region[0] < region[1])))
    return isinstance(blocks, list) and all(block_fits(block) for block in blocks)


def known(text: str, lines: int) -> list[tuple] | None:
    """The blocks kept for this page's text, as ``(kind, words, options, first, last,
    region)`` tuples, or ``None`` when the page must be read with the parser."""
    _, pages = _read()
    blocks = pages.get(_page_key(text))
    if blocks is None:
        return None
    if not _fits(blocks, lines):
        STATS["ignored"] += 1
        return None
    STATS["found"] += 1
    return [(kind, words, [tuple(option) for option in options], first, last,
             None if region is None else tuple(region))
            for kind, words, options, first, last, region in blocks]


def remember(text: str, blocks: list[tuple]) -> None:
    """Keep the blocks found in this page's text (each ``(kind, words, options, first, last,
    region)``), with the newest :data:`KEPT` pages; any problem leaves the file as it was."""
    try:
        code, pages = _read()
        key = _page_key(text)
        pages.pop(key, None)   # re-added last: the newest
        pages[key] = [list(block) for block in blocks]
        pages = dict(list(pages.items())[-KEPT:])
        data = json.dumps({"format": FORMAT, "code": code, "pages": pages},
                          separators=(",", ":")).encode()
        if not write_store(NAME, data):
            return
    except Exception:   # noqa: BLE001 (a file that cannot be written is only slower)
        STATS["ignored"] += 1
        return
    STATS["written"] += 1
