"""Results kept between builds, in the build's doctree folder.

A result is stored under :meth:`workbench.render.Block.cache_key`, which hashes the block's
options, the workbench version and the contents of every data file the block reads: an
edited system file gives new keys, so stale numbers are never read back.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from .. import files
from ..render import Block, table_cells

#: How many tables were computed and how many read back, for this process (tests read it).
STATS: Counter = Counter()


def cache_folder(env) -> Path:
    """Where results are kept: beside the doctrees, which outlive ``sphinx-build -E``."""
    return Path(env.doctreedir) / "workbench"


def cached_table(env, block: Block) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a table block, computed once per cache key."""
    path = cache_folder(env) / "tables" / f"{block.cache_key()}.json"
    if path.exists():
        STATS["tables read"] += 1
        stored = json.loads(path.read_text(encoding="utf-8"))
        return stored["header"], stored["rows"]
    header, rows = table_cells(block)
    STATS["tables computed"] += 1
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written whole, then renamed: parallel readers see the whole file or none.
    files.write_text(path, json.dumps({"header": header, "rows": rows}, ensure_ascii=False),
                     "workbench cache file")
    return header, rows
