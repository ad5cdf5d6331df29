"""What a block is: its options, what each allows, and the parsed :class:`Block`."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import WorkbenchError
from ..export.tables import NUMBER_STYLES, NumberFormat
from ..rules.content import content_key
from ..rules.registry import get_system
from ._pools import MAX_POOL, POOLS_ALLOWED

if TYPE_CHECKING:
    from ..rules.system import System


BLOCK_KINDS = ("table", "ladder", "figure", "parameters")
_NUMBERS = ("table", "ladder", "figure")
TABLE_STYLES = ("grid", "list-table")
FIGURE_KINDS = ("curve", "check", "difference", "ladder", "outcomes")
FIGURE_OUTPUTS = ("png", "svg", "html")
LADDER_SHOWS = ("solution", "pools")
#: Bounds of a figure's drawn size: sides in pixels, and the scale of PNG / SVG pixels.
MIN_SIDE, MAX_SIDE = 200, 5000
MIN_SCALE, MAX_SCALE = 0.5, 10.0
#: The least height of a curve's compare panels when they fit in one row.
MIN_PANEL_HEIGHT = 150

#: Every block option, the kinds it belongs to and what it allows (the text of error messages).
OPTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "pools": (_NUMBERS, f"pool {POOLS_ALLOWED}"),
    "rungs": (_NUMBERS, "comma-separated rung names of the system's ladder"),
    "format": (("table", "ladder"), ", ".join(NUMBER_STYLES)),
    "digits": (("table", "ladder"), "a whole number from 0 to 15"),
    "style": (("table", "ladder", "parameters"), ", ".join(TABLE_STYLES)),
    "want": (("ladder", "figure"), "rung=probability pairs such as Easy=0.9,Normal=0.7"),
    "pool": (("ladder", "figure"), f"a whole number from 0 to {MAX_POOL}"),
    "show": (("ladder",), ", ".join(LADDER_SHOWS)),
    "kind": (("figure",), ", ".join(FIGURE_KINDS)),
    "base": (("figure",), "a system id, alias, variant or .toml path to compare against"),
    "compare": (("figure",), "comma-separated systems drawn beside this one, one panel each (kind=curve)"),
    "knob": (("figure",), "a parameter of the system: kind=outcomes draws one column per level "
                          "of it (default: the pool size, or the die colour)"),
    "levels": (("figure",), "comma-separated values of the knob, one column each, such as "
                            "-2,-1,0,1,2 or B,A,S"),
    "width": (("figure",), f"the image's width in pixels, {MIN_SIDE} to {MAX_SIDE}"),
    "height": (("figure",), f"the image's height in pixels, {MIN_SIDE} to {MAX_SIDE}"),
    "scale": (("figure",), f"a number from {MIN_SCALE:g} to {MAX_SCALE:g}: image pixels per "
                           "figure pixel (3 prints a 800 px wide figure 2400 px wide: 8 inches "
                           "at 300 dpi)"),
    "output": (("figure",), ", ".join(FIGURE_OUTPUTS)),
    "alt": (("figure",), "a short text describing the figure"),
    "condition": (("table", "ladder", "figure"), "a condition over the system's statistics and "
                  "parameters, such as hits >= 3 (P(condition) instead of P(pass))"),
    "statistic": (("figure",), "one of the system's statistics (kind=check draws its distribution)"),
    "caption": (BLOCK_KINDS, "text shown with the table or under the figure"),
}
DEFAULT_POOLS = "1-10"  # as `workbench table`


class BlockOptionError(WorkbenchError):
    """A bad block option: ``option`` got ``value`` (``problem``: what is wrong with it, where
    the value alone does not say); ``allowed`` says what would do."""

    def __init__(self, option: str, value: Any, allowed: str, problem: str = ""):
        self.option, self.value, self.allowed, self.problem = option, value, allowed, problem
        said = f": {problem}" if problem else ""
        super().__init__(f"option {option!r} got {value!r}{said}; allowed: {allowed}")


@dataclass(frozen=True)
class Block:
    """One parsed block: what to compute and how to write it."""

    kind: str
    system: "System"
    params: tuple[tuple[str, str], ...] = ()
    pools: tuple[int, ...] = ()
    rungs: tuple[str, ...] | None = None
    numbers: NumberFormat = NumberFormat("percent", 1)
    style: str = "grid"
    want: str | None = None
    pool: int = 4
    show: str = "solution"
    figure: str = "curve"
    base: "System | None" = None
    compare: tuple = ()
    output: str = "png"
    knob: str | None = None
    levels: tuple | None = None
    width: int | None = None
    height: int | None = None
    scale: float = 1.0
    alt: str = ""
    caption: str = ""
    condition: str | None = None
    stat: str | None = None
    options: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @property
    def param_dict(self) -> dict[str, str]:
        return dict(self.params)

    def data_files(self) -> list[Path]:
        """The data files whose contents decide this block's numbers (system, base, bases)."""
        files: list[Path] = []
        for sys_ in (self.system, self.base, *self.compare):
            while sys_ is not None:
                if sys_.source is not None and Path(sys_.source) not in files:
                    files.append(Path(sys_.source))
                sys_ = get_system(sys_.base) if sys_.base else None
        return files

    def cache_key(self) -> str:
        """A hash of the options, the package version, every data file's contents and the
        code of every mechanic written in Python (:func:`workbench.rules.content.content_key`):
        a cached result stays valid exactly as long as this key is unchanged."""
        from .._version import __version__  # lazy: importlib.metadata (figures and caches only)
        digest = hashlib.sha256()
        digest.update(json.dumps([self.kind, self.system.id, sorted(self.options), __version__]).encode())
        for path in self.data_files():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        for sys_ in (self.system, self.base, *self.compare):
            if sys_ is not None and sys_.source is None:
                digest.update(content_key(sys_).encode())
        return digest.hexdigest()[:20]


# Named where they are used: tracebacks and docs say workbench.render.Block, not this module.
for _public in (Block, BlockOptionError):
    _public.__module__ = "workbench.render"
del _public
