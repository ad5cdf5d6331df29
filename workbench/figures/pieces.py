"""The small pieces the workbench's charts share: the seed and the note saying how numbers
were made, hover texts, error bars, one line of a curve, pool axes and each rung's style.

Example:
    >>> method_note("exact"), pool_hover("uwr"), _pool_ticks([1, 2, 3])
    ('exact', '%{x} dice', {'dtick': 1})
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Sequence

from .. import validation
from ..analysis import DICE_NAMES, counts_dice
from ..rules.registry import get_system
from . import frames as _frames
from .style import DASHES, die_colour, line_colour

DEFAULT_POOLS = range(1, 11)


def resolved_seed(method: str, seed: int | None) -> int | None:
    """The seed a figure simulates with: ``None`` (the default, as everywhere in the
    workbench) draws one fresh seed now, so the subtitle can name it and the figure can be
    drawn again the same.

    Example:
        >>> resolved_seed("simulate", 7), resolved_seed("exact", None), resolved_seed("simulate", None) >= 0
        (7, None, True)
    """
    return validation.seed("figure", seed) if method == "simulate" else seed


def method_note(method: str, trials: int = 100_000, seed: int | None = None) -> str:
    """How the numbers were made, for a figure's subtitle.

    Example:
        >>> method_note("simulate", 10_000, 3)
        'simulated: 10,000 trials, seed 3; bars ±1.96 s.e. (95%)'
    """
    if method == "exact":
        return "exact"
    return f"simulated: {trials:,} trials, seed {seed}; bars ±{_frames.Z_95} s.e. (95%)"


def _percent_hover(method: str, signed: bool = False, pp: bool = False) -> str:
    if pp:
        return ("%{y:+.2f} pp ± %{customdata:.2f} pp (95%)" if method == "simulate"
                else "%{y:+.2f} pp")
    fmt = "+.3%" if signed else ".3%"
    return f"%{{y:{fmt}}} ± %{{customdata:.3%}} (95%)" if method == "simulate" else "%{y:.4%}"


def _error_bars(values: list[float]) -> dict | None:
    if all(math.isnan(v) for v in values):
        return None
    return {"type": "data", "array": [_frames.Z_95 * v for v in values], "visible": True}


def _line(x, y, stderr, name: str, hover: str, line: dict, marker: dict | None = None) -> dict:
    stderr = [float(v) for v in stderr]
    error_y = _error_bars(stderr)
    trace = {"type": "scatter", "x": [int(v) for v in x], "y": [float(v) for v in y],
             "name": name, "mode": "lines+markers", "customdata": error_y["array"] if error_y else None,
             "error_y": error_y, "hovertemplate": hover, "line": line}
    if marker:
        trace["marker"] = marker
    return trace


def _pool_ticks(sizes: Sequence[int]) -> dict:
    """A tick at every pool size when there are few of them (pools are whole numbers; a
    skill's 10, 20, ... 90 gets those ticks, not 81 of them)."""
    if len(sizes) > 12:
        return {}
    steps = {b - a for a, b in zip(sorted(sizes), sorted(sizes)[1:])}
    return {"dtick": 1} if steps <= {1} else {"tickmode": "array", "tickvals": sorted(sizes)}


def pool_axis_title(systems: Iterable[Any]) -> str:
    """The x axis of curves: each system's pool knob as the system names it. Knobs that are a
    number of dice read ``dice in the pool`` (with their names when they are not plain
    ``dice``: ``dice in the pool (d6)``); any other knob by its own name (a skill is never
    called dice).

    Example:
        >>> pool_axis_title(["uwr"]), pool_axis_title(["uwr", "unnamed"])
        ('dice in the pool', 'dice in the pool (dice / d6)')
        >>> pool_axis_title(["call-of-cthulhu-7e"]), pool_axis_title(["uwr", "call-of-cthulhu-7e"])
        ('skill', 'dice in the pool / skill')
    """
    chosen = [get_system(s) for s in systems]
    dice = list(dict.fromkeys(s.pool_parameter for s in chosen if s.pool_parameter and counts_dice(s)))
    other = list(dict.fromkeys(s.pool_parameter for s in chosen if s.pool_parameter and not counts_dice(s)))
    parts = []
    if dice:
        parts.append("dice in the pool" if dice == ["dice"] else f"dice in the pool ({' / '.join(dice)})")
    parts += other
    return " / ".join(parts) if parts else "one die (no pool to vary)"


def pool_hover(system: Any) -> str:
    """A pool size in a hover label, as the system names its knob: ``%{x} dice``, ``skill %{x}``.

    Example:
        >>> pool_hover("uwr"), pool_hover("call-of-cthulhu-7e"), pool_hover("risk")
        ('%{x} dice', 'skill %{x}', 'attackers %{x}')
    """
    sys_ = get_system(system)
    if sys_.pool_parameter is None:   # one die: the level is the same at every pool
        return "any pool"
    if sys_.pool_parameter in DICE_NAMES:
        return "%{x} dice"
    return f"{sys_.pool_parameter} %{{x}}"


#: Marker shapes for the rungs of one system, with the dashes: ten lines stay tellable apart.
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "star", "triangle-down", "cross")


def _rung_style(lines: list[_frames.Line], label: str, rung: str, index_of_line: int,
                index_of_rung: int, by_system: bool = False) -> dict:
    """One colour per system; rungs of one system told apart by dash and marker. A figure of
    a single system colours its rungs instead (die colours for narrative dice), unless
    ``by_system`` (the explorer: the same colours and dashes in every view)."""
    if len(lines) == 1 and not by_system:
        return {"line": {"color": die_colour(rung, line_colour(index_of_rung))}}
    colour = line_colour(index_of_line)
    return {"line": {"color": colour, "dash": DASHES[index_of_rung % len(DASHES)]},
            "marker": {"symbol": SYMBOLS[index_of_rung % len(SYMBOLS)], "color": colour}}


def _outcome_name(outcome: Any) -> str:
    return f"net {outcome}" if isinstance(outcome, int) else str(outcome)
