"""The figure of a ``figure`` block: drawn, sized and written to a file named by its key."""
from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import WorkbenchError
from ._block import Block
from ._parse import want_error


def build_figure(block: Block):
    """The plotly figure of a ``figure`` block, drawn by :mod:`workbench.figures`.

    Example:
        >>> from workbench.render import parse_block
        >>> fig = build_figure(parse_block("figure", "uwr", {"kind": "ladder", "pools": "1-2"}))
        >>> [trace.name for trace in fig.data]
        ['Easy', 'Normal', 'Difficult', 'Extreme']
    """
    from .. import figures  # lazy: plotly
    from ..figures.style import wrap_legend  # lazy: plotly

    params, pools = block.param_dict, list(block.pools)
    rungs = list(block.rungs) if block.rungs else None
    # The settings the block gives, beside the system's name in legends and panel titles
    # (a curve of the Unnamed System with d8=2 is not the Unnamed System's curve); the pool
    # size is the x axis, not a setting.
    given = [f"{name}={value}" for name, value in params.items()
             if name != block.system.pool_parameter]
    entry = (" ".join([block.system.id, *given]), block.system, params)
    fig = wrap_legend(_draw(block, figures, params, pools, rungs, entry))
    if block.width is not None:
        fig.layout.width = block.width
    if block.height is not None:
        fig.layout.height = block.height
    return fig


def _draw(block: Block, figures, params, pools, rungs, entry):
    if block.figure == "outcomes":
        from ..figures.knobs import knob_figure  # lazy: plotly
        return knob_figure(block.system, block.knob, block.levels, **params)
    if block.figure == "curve" and block.compare:  # one panel per system: rungs differ by system
        return figures.curve_panels([entry, *block.compare], pools=pools)
    if block.figure == "curve" and not block.system.pool_parameter:
        # One die: no pool to draw curves along; its rungs' odds as bars.
        return figures.ladder_figure(block.system, rungs=rungs, **params)
    if block.figure == "curve":
        return figures.curve_figure([entry], pools=pools, rungs=rungs)
    if block.figure == "check":
        return figures.check_figure(block.system, stat=block.stat, **params)
    if block.figure == "difference":
        return figures.difference_figure(entry, block.base, pools=pools, rungs=rungs)
    if block.want is not None:
        from ..ladders import solve_ladder  # lazy: ladders (the solver)
        try:
            solution = solve_ladder(block.system, block.want, block.pool, condition=block.condition,
                                    **params)
        except WorkbenchError as exc:
            raise want_error(block.want, exc) from None
        return figures.ladder_figure(solution, pools=pools)
    return figures.ladder_figure(block.system, pools=pools, rungs=rungs, condition=block.condition,
                                 **params)


def figure_height(block: Block) -> int:
    """The height in pixels the block's figure is drawn at, without drawing it: an iframe
    showing the interactive figure must be as tall, or the figure shrinks to fit the frame
    (a compare of five systems, 1040 px of panels, squeezed into 520).

    Example:
        >>> from workbench.render import parse_block
        >>> figure_height(parse_block("figure", "uwr", {"compare": "arrata,fons,unnamed,fate"}))
        1040
    """
    from ..figures.style import DEFAULT_HEIGHT, panels_height  # lazy: plotly
    if block.height is not None:
        return block.height
    if block.compare:   # figures.curve_panels: two panels a row
        return panels_height(1 + len(block.compare))
    return DEFAULT_HEIGHT


def iframe_height(block: Block) -> int:
    """The height of the iframe an interactive figure is shown in: the figure's own and 40 px
    for the page's margins (520 for the default 480 px figure)."""
    return figure_height(block) + 40


def figure_file_name(block: Block) -> str:
    """A file name that changes whenever the figure would: ``<system>-<kind>-<key>.<ext>``
    (a one-line formula's characters that no file system takes, such as ``>``, as ``-``)."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", block.system.id).strip("-.") or "formula"
    return f"{name}-{block.figure}-{block.cache_key()[:12]}.{block.output}"


def write_figure_file(block: Block, folder: "str | os.PathLike") -> Path:
    """Draw the block's figure into ``folder`` (kept when the same key was drawn before)."""
    path = Path(folder) / figure_file_name(block)
    if not path.exists():
        from ..figures import write_figure  # lazy: plotly
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WorkbenchError(f"figure folder {str(path.parent)!r} cannot be made "
                                 f"({exc.strerror}); allowed: a folder you may write to") from None
        # Written whole under a temporary name, then renamed: no half-written file under the
        # name, even with parallel Sphinx readers drawing it too.
        write_figure(build_figure(block), path, scale=block.scale)
    return path
