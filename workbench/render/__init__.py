"""Tables and figures computed while a rulebook is built: one place for both routes.

The Sphinx directives (:mod:`workbench.sphinx`) and the Markdown route (``workbench render``)
read the same options, gather the same tables and draw the same figures through this module,
so a table in an RST page and one in a Markdown page show the same numbers as
``workbench table``.

A block is written as a kind (``table``, ``ladder``, ``figure``), a system (id, alias, variant
or path to a ``.toml`` file) and ``NAME=VALUE`` options. Options this module knows are listed
in :data:`OPTIONS`; any other name is one of the system's parameters (``dice=4``,
``quality=B``). A bad option raises :class:`BlockOptionError` naming the option, the value
given and what is allowed.

Example:
    >>> block = parse_block("table", "uwr", {"pools": "1-2", "format": "fraction"})
    >>> header, rows = table_cells(block)
    >>> header
    ['Difficulty', 'Example', 'Setting', '1 die', '2 dice']
    >>> rows[1][-2:]
    ['1/3', '5/9']
"""
from __future__ import annotations

from importlib import import_module

from ._pools import MAX_POOL, POOLS_ALLOWED, PoolSizesError, parse_pools

#: Where each public name is defined: loaded on first use (``workbench table`` needs only the
#: pool sizes; blocks, figures and the block parser load when a page is rendered).
_DEFINED_IN = {
    **dict.fromkeys(("BLOCK_KINDS", "DEFAULT_POOLS", "FIGURE_KINDS", "FIGURE_OUTPUTS", "LADDER_SHOWS",
                     "MAX_SCALE", "MAX_SIDE", "MIN_PANEL_HEIGHT", "MIN_SCALE", "MIN_SIDE", "OPTIONS",
                     "TABLE_STYLES", "Block", "BlockOptionError"), "_block"),
    **dict.fromkeys(("build_figure", "figure_file_name", "figure_height", "iframe_height",
                     "write_figure_file"), "_figures"),
    **dict.fromkeys(("parse_block", "want_error"), "_parse"),
    **dict.fromkeys(("parameters_frame", "table_cells", "table_frame", "table_rows"), "_tables"),
}


def __getattr__(name: str):
    if name not in _DEFINED_IN:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{_DEFINED_IN[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


# Named where they are used: tracebacks and docs say workbench.render.PoolSizesError, not the
# private module that defines it (Block and BlockOptionError: in their module).
PoolSizesError.__module__ = __name__

__all__ = ["BLOCK_KINDS", "DEFAULT_POOLS", "FIGURE_KINDS", "FIGURE_OUTPUTS", "LADDER_SHOWS", "MAX_POOL",
           "MAX_SCALE", "MAX_SIDE", "MIN_PANEL_HEIGHT", "MIN_SCALE", "MIN_SIDE", "OPTIONS",
           "POOLS_ALLOWED", "TABLE_STYLES", "Block", "BlockOptionError", "PoolSizesError",
           "build_figure", "figure_file_name", "figure_height", "iframe_height", "parameters_frame",
           "parse_block", "parse_pools", "table_cells", "table_frame", "table_rows", "want_error",
           "write_figure_file"]
