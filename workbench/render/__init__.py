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

from ._block import (BLOCK_KINDS, DEFAULT_POOLS, FIGURE_KINDS, FIGURE_OUTPUTS, LADDER_SHOWS, MAX_SCALE,
                     MAX_SIDE, MIN_PANEL_HEIGHT, MIN_SCALE, MIN_SIDE, OPTIONS, TABLE_STYLES, Block,
                     BlockOptionError)
from ._figures import build_figure, figure_file_name, figure_height, iframe_height, write_figure_file
from ._parse import parse_block, want_error
from ._pools import MAX_POOL, POOLS_ALLOWED, PoolSizesError, parse_pools
from ._tables import parameters_frame, table_cells, table_frame, table_rows

# Named where they are used: tracebacks and docs say workbench.render.Block, not the private
# module that defines it.
for _public in (Block, BlockOptionError, PoolSizesError):
    _public.__module__ = __name__
del _public

__all__ = ["BLOCK_KINDS", "DEFAULT_POOLS", "FIGURE_KINDS", "FIGURE_OUTPUTS", "LADDER_SHOWS", "MAX_POOL",
           "MAX_SCALE", "MAX_SIDE", "MIN_PANEL_HEIGHT", "MIN_SCALE", "MIN_SIDE", "OPTIONS",
           "POOLS_ALLOWED", "TABLE_STYLES", "Block", "BlockOptionError", "PoolSizesError",
           "build_figure", "figure_file_name", "figure_height", "iframe_height", "parameters_frame",
           "parse_block", "parse_pools", "table_cells", "table_frame", "table_rows", "want_error",
           "write_figure_file"]
