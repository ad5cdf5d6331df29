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

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ._version import __version__
from .errors import ParameterError, WorkbenchError
from .limits import check_image_size
from .export.tables import NUMBER_STYLES, NumberFormat, format_numbers
from .analysis import pool_bounds, pools_for, probability_header, shown_probability, typical_pool
from .ladders import column_knob, difficulty_table, ladder_table, pool_label, solve_ladder
from .rules.content import content_key
from .rules.registry import get_system
from .rules.system import System
from . import validation
from .validation import suggest

if TYPE_CHECKING:  # pandas loads on first use
    import pandas as pd


BLOCK_KINDS = ("table", "ladder", "figure", "parameters")
_NUMBERS = ("table", "ladder", "figure")
TABLE_STYLES = ("grid", "list-table")
FIGURE_KINDS = ("curve", "check", "difference", "ladder", "outcomes")
FIGURE_OUTPUTS = ("png", "svg", "html")
LADDER_SHOWS = ("solution", "pools")
MAX_POOL = 100
#: Bounds of a figure's drawn size: sides in pixels, and the scale of PNG / SVG pixels.
MIN_SIDE, MAX_SIDE = 200, 5000
MIN_SCALE, MAX_SCALE = 0.5, 10.0
#: The least height of a curve's compare panels when they fit in one row.
MIN_PANEL_HEIGHT = 150

#: Every block option, the kinds it belongs to and what it allows (the text of error messages).
OPTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "pools": (_NUMBERS, f"pool sizes from 0 to {MAX_POOL} such as 1-10 or 2,4,6"),
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
    """A bad block option: ``option`` got ``value``; ``allowed`` says what would do."""

    def __init__(self, option: str, value: Any, allowed: str):
        self.option, self.value, self.allowed = option, value, allowed
        super().__init__(f"option {option!r} got {value!r}; allowed: {allowed}")


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
        digest = hashlib.sha256()
        digest.update(json.dumps([self.kind, self.system.id, sorted(self.options), __version__]).encode())
        for path in self.data_files():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        for sys_ in (self.system, self.base, *self.compare):
            if sys_ is not None and sys_.source is None:
                digest.update(content_key(sys_).encode())
        return digest.hexdigest()[:20]


_RANGE = re.compile(r"^\s*([0-9]{1,6})\s*-\s*([0-9]{1,6})\s*$", re.ASCII)   # ASCII digits only
_SIZE = re.compile(r"^\s*[0-9]{1,6}\s*$", re.ASCII)


def parse_pools(text: str, option: str = "pools") -> tuple[int, ...]:
    """``"1-10"``, ``"2,4,6"`` or ``"3"`` -> pool sizes.

    Example:
        >>> parse_pools("1-3,6")
        (1, 2, 3, 6)
    """
    sizes: list[int] = []
    for part in str(text).split(","):
        match = _RANGE.match(part)
        if match and int(match.group(1)) <= int(match.group(2)):
            sizes.extend(range(int(match.group(1)), int(match.group(2)) + 1))
        elif _SIZE.match(part):   # ("３".isdigit() is true, and int("３") is 3)
            sizes.append(int(part))
        else:
            raise BlockOptionError(option, text, OPTIONS["pools"][1])
    if not sizes or max(sizes) > MAX_POOL or len(set(sizes)) != len(sizes):
        raise BlockOptionError(option, text, OPTIONS["pools"][1] + ", each once")
    return tuple(sizes)


def _whole(option: str, text: str, low: int, high: int) -> int:
    value = validation.number_text(str(text))   # ASCII digits, as everywhere (not "５００")
    if not isinstance(value, int) or not low <= value <= high:
        raise BlockOptionError(option, text, f"a whole number from {low} to {high}")
    return value


def _choice(option: str, text: str, allowed: tuple[str, ...]) -> str:
    value = str(text).strip().lower()
    if value not in allowed:
        raise BlockOptionError(option, text, ", ".join(allowed))
    return value


def _system(text: str, resolve_path: Callable[[str], str] | None) -> "System":
    text = str(text).strip()
    if text.endswith(".toml") and resolve_path is not None:
        text = resolve_path(text)
    return get_system(text)


def parse_block(kind: str, system: str, options: Mapping[str, Any], *,
                resolve_path: Callable[[str], str] | None = None) -> Block:
    """A block from its kind, system and ``NAME=VALUE`` options (values as text).

    Args:
        kind: ``table``, ``ladder`` or ``figure``.
        system: id, alias, variant id or ``.toml`` path (``resolve_path`` turns a path
            relative to the document into one the workbench can open).
        options: block options (:data:`OPTIONS`) and the system's parameters.

    Raises:
        BlockOptionError: an unknown option or a value it does not allow.

    Example:
        >>> parse_block("table", "uwr", {"style": "tabular"})
        Traceback (most recent call last):
        ...
        workbench.render.BlockOptionError: option 'style' got 'tabular'; allowed: grid, list-table
    """
    kind = _choice("kind of block", kind, BLOCK_KINDS)
    sys_ = _system(system, resolve_path)
    given = {str(k).strip(): ("" if v is None else str(v)) for k, v in options.items()}
    params, settings = {}, {}
    for name, value in given.items():
        if name in OPTIONS and kind in OPTIONS[name][0]:
            settings[name] = value
        elif name not in OPTIONS:
            params[name] = value
        else:
            _not_an_option(kind, sys_, name, value)
    try:
        # Shorthand such as stat=B5 sets a choice and a count at once (quality=B, dice=5).
        params = {name: str(value) for name, value in sys_.mechanic.preprocess(params).items()}
    except ParameterError as exc:
        raise BlockOptionError(exc.parameter, exc.value, exc.allowed) from None
    for name, value in params.items():
        if name not in sys_.params:
            _not_an_option(kind, sys_, name, value)
    try:
        sys_.resolve(**params)  # a bad parameter value fails here, naming the parameter
    except ParameterError as exc:
        raise BlockOptionError(exc.parameter, exc.value, exc.allowed) from None
    if kind == "parameters" and params:   # the table lists defaults: a value would be ignored
        name, value = next(iter(params.items()))
        raise BlockOptionError(name, value, "no parameter values in workbench-parameters (it "
                               "lists every parameter with its default); options: style, caption")
    _pool_as_typical(sys_, params, settings)
    out: dict[str, Any] = {"kind": kind, "system": sys_, "params": tuple(sorted(params.items())),
                           "options": tuple(sorted(given.items()))}
    if "pools" in settings and kind in ("table", "ladder") and sys_.pool_parameter \
            and not column_knob(sys_):
        raise BlockOptionError("pools", settings["pools"], f"no pools for {sys_.id}: its ladder "
                               f"sets {sys_.pool_parameter} itself, so the table has no column "
                               f"per {sys_.pool_parameter} (leave pools out)")
    if "pools" in settings or not sys_.pool_parameter:
        out["pools"] = parse_pools(settings.get("pools", DEFAULT_POOLS))
        _pools_within(sys_, out["pools"], settings)
    else:   # the pools its rules allow: Risk's 1-3 dice, a skill's 10, 20, ... 90
        out["pools"] = tuple(pools_for(sys_, parse_pools(DEFAULT_POOLS)))
    if "rungs" in settings:
        out["rungs"] = _rungs(sys_, settings["rungs"], "want" in settings)
    style = _choice("format", settings.get("format", "percent"), NUMBER_STYLES)
    default_digits = {"percent": 1, "digits": 3, "fraction": 0}[style]
    digits = _whole("digits", settings["digits"], 0, 15) if "digits" in settings else default_digits
    if style == "fraction" and "digits" in settings:   # a fraction is exact: no decimals to set
        raise BlockOptionError("digits", settings["digits"], "only with format=percent or "
                               "format=digits (format=fraction writes exact fractions)")
    out["numbers"] = NumberFormat(style, digits)
    out["style"] = _choice("style", settings.get("style", "grid"), TABLE_STYLES)
    out["caption"] = settings.get("caption", "").strip()
    if "condition" in settings:
        try:
            sys_.condition(settings["condition"])
        except ParameterError as exc:
            raise BlockOptionError("condition", settings["condition"], exc.allowed) from None
        out["condition"] = settings["condition"]
    if "statistic" in settings:   # not "stat": that is a parameter (Ironsworn) or shorthand (B5)
        if settings["statistic"] not in sys_.statistic_names:
            raise BlockOptionError("statistic", settings["statistic"],
                                   "one of " + ", ".join(sys_.statistic_names))
        out["stat"] = settings["statistic"]
    if kind in ("ladder", "figure"):
        out["want"] = settings.get("want")
        if out["want"] is not None and not out["want"].strip():
            raise BlockOptionError("want", out["want"], OPTIONS["want"][1])
        # Unless given: 4 dice within the system's bounds, or a skill's default (Call of
        # Cthulhu: skill 50), as the ladder command and the explorer choose.
        out["pool"] = (_whole("pool", settings["pool"], 0, MAX_POOL) if "pool" in settings
                       else typical_pool(sys_))
    if kind == "ladder":
        out["show"] = _choice("show", settings.get("show", "solution"), LADDER_SHOWS)
        _ladder_options_used(settings, out["show"])
    if kind == "figure":
        out["figure"] = _choice("kind", settings.get("kind", "curve"), FIGURE_KINDS)
        if "base" in settings:
            out["base"] = _system(settings["base"], resolve_path)
        elif out["figure"] == "difference":
            raise BlockOptionError("base", "", "a system to compare against, needed by kind=difference")
        if "compare" in settings:
            names = [name.strip() for name in settings["compare"].split(",") if name.strip()]
            if not names or out["figure"] != "curve":
                raise BlockOptionError("compare", settings["compare"], OPTIONS["compare"][1])
            out["compare"] = tuple(_system(name, resolve_path) for name in names)
        # An option the kind does not use would be silently ignored: say which kind uses it.
        users = {"base": ("difference",), "want": ("ladder",), "pool": ("ladder",),
                 "rungs": ("curve", "difference", "ladder"), "pools": ("curve", "difference", "ladder"),
                 "knob": ("outcomes",), "levels": ("outcomes",),
                 "condition": ("ladder",), "statistic": ("check",)}
        for option, kinds in users.items():
            if option in settings and out["figure"] not in kinds:
                raise BlockOptionError(option, settings[option], f"only with kind={' / kind='.join(kinds)} "
                                       f"(this figure is kind={out['figure']})")
        if "rungs" in settings and "want" in settings:   # the solved ladder draws the wanted rungs
            raise BlockOptionError("rungs", settings["rungs"], "no rungs together with want (the "
                                   "wanted odds name the rungs: want=Easy=0.9,Normal=0.7)")
        if "pool" in settings and "want" not in settings:
            raise BlockOptionError("pool", settings["pool"], "only together with want (the pool the "
                                   "wanted odds are for)")
        if out["figure"] == "outcomes":
            out["knob"], out["levels"] = _knob(sys_, settings, params)
        for side in ("width", "height"):
            if side in settings:
                out[side] = _whole(side, settings[side], MIN_SIDE, MAX_SIDE)
        if "scale" in settings:
            out["scale"] = _scale(settings["scale"])
        out["output"] = _choice("output", settings.get("output", "png"), FIGURE_OUTPUTS)
        if "scale" in settings and out["output"] == "svg":   # an SVG keeps its size in its units
            raise BlockOptionError("scale", settings["scale"], "only with output=png (or html, "
                                   "whose PNG for other builders it scales); an SVG scales "
                                   "without loss: set its width and height")
        _check_size(out, settings)
        out["alt"] = settings.get("alt") or _default_alt(sys_, out)
    return Block(**out)


def _pools_within(sys_: "System", pools: tuple[int, ...], settings: Mapping[str, str]) -> None:
    """Pool sizes the system cannot roll are named as the pools given (not as the one size
    the check refused: "parameter 'roll' got 11" for pools=1-100)."""
    if "pools" not in settings or not sys_.pool_parameter:
        return
    low, high = pool_bounds(sys_)
    outside = [n for n in pools if not low <= n <= high]
    if outside:
        raise BlockOptionError("pools", settings["pools"], f"pool sizes {sys_.id} can roll: its "
                               f"{sys_.pool_parameter} from {low} to {high} (not {outside[0]})")


def _ladder_options_used(settings: Mapping[str, str], show: str) -> None:
    """A ladder option its other options leave unused is an error, never silently ignored:
    ``show`` and ``pool`` need ``want``; with ``want`` the wanted odds name the rungs, and
    ``pools`` are the columns of ``show=pools`` only."""
    if "want" not in settings:
        for option in ("show", "pool"):
            if option in settings:
                raise BlockOptionError(option, settings[option], "only together with want (the "
                                       "solved ladder; without want the block shows the ladder's "
                                       "P(pass) per pool)")
        return
    if "rungs" in settings:
        raise BlockOptionError("rungs", settings["rungs"], "no rungs together with want (the "
                               "wanted odds name the rungs: want=Easy=0.9,Normal=0.7)")
    if "pools" in settings and show != "pools":
        raise BlockOptionError("pools", settings["pools"], "with want, only together with "
                               "show=pools (the solved ladder across these pools)")


def _not_an_option(kind: str, sys_: "System", name: str, value: str) -> None:
    mine = [o for o, (kinds, _) in OPTIONS.items() if kind in kinds]
    raise BlockOptionError(name, value, f"options of workbench-{kind}: {', '.join(mine)}; "
                           f"parameters of {sys_.id}: {', '.join(sys_.params)}"
                           + suggest(name, [*mine, *sys_.params]))


def _pool_as_typical(sys_: "System", params: dict[str, str], settings: dict[str, str]) -> None:
    """With ``want``, a pool size among the settings (``stat=A5``, ``dice=5``) is the pool the
    odds are wanted at: it becomes ``pool`` (and must agree with a ``pool`` given)."""
    name = sys_.pool_parameter
    if "want" not in settings or name is None or name not in params:
        return
    count = params.pop(name)
    if "pool" in settings and settings["pool"].strip() != count:
        raise BlockOptionError("pool", settings["pool"], f"{count}, as the settings say "
                               f"({name}={count}), or leave pool out")
    settings["pool"] = count


def want_error(want: str, error: WorkbenchError) -> BlockOptionError:
    """A bad ``want``, said once: ``option 'want' got 'Easy=2'; allowed: a number from 0 to 1``
    (not the solver's own message nested inside the option's).

    Example:
        >>> str(want_error("Easy", WorkbenchError("--want entry 'Easy' is not RUNG=PROBABILITY")))
        "option 'want' got 'Easy'; allowed: RUNG=PROBABILITY entries such as Easy=0.9,Normal=70%"
    """
    text = str(error)
    if "RUNG=PROBABILITY" in text:
        return BlockOptionError("want", want, "RUNG=PROBABILITY entries such as Easy=0.9,Normal=70%")
    _, sep, allowed = text.partition("; allowed: ")
    return BlockOptionError("want", want, allowed if sep else text.removeprefix("--want "))


def _knob(sys_: "System", settings: Mapping[str, str], params: Mapping[str, str]):
    """``knob`` and ``levels`` of an outcomes figure, each level read as the knob reads it."""
    from .figures.knobs import default_knob  # lazy: plotly

    knob = settings.get("knob", "").strip() or default_knob(sys_)
    if knob not in sys_.params:
        raise BlockOptionError("knob", settings.get("knob"), "a parameter of " + sys_.id + ": "
                               + ", ".join(sys_.params))
    if knob in params:
        raise BlockOptionError(knob, params[knob], f"no value: {knob} is the knob the columns "
                               "step through (give its levels instead)")
    if "levels" not in settings:
        return knob, None
    levels = []
    for text in (part.strip() for part in settings["levels"].split(",")):
        try:
            levels.append(sys_.params[knob].parse(sys_.id, text))
        except ParameterError as exc:
            raise BlockOptionError("levels", settings["levels"], f"values of {knob}: {exc.allowed}") from None
    if not levels or len(set(levels)) != len(levels):
        raise BlockOptionError("levels", settings["levels"], OPTIONS["levels"][1] + ", each once")
    return knob, tuple(levels)


def _check_size(out: Mapping[str, Any], settings: Mapping[str, str]) -> None:
    """A size that leaves each compared system's panel a few pixels tall, or a PNG larger
    than the browser can draw, is refused before anything is computed."""
    if out.get("compare") and out.get("height") is not None:
        from .figures.style import PANELS_MARGIN, panel_rows, panels_height  # lazy: plotly
        panels = 1 + len(out["compare"])
        rows = panel_rows(panels)   # two panels a row (figures.curve_panels)
        # Rows of panels closer than their default height overlap: a panel's title runs into
        # the axis title of the panel above; one row may be lower.
        least = PANELS_MARGIN + MIN_PANEL_HEIGHT if rows == 1 else panels_height(panels)
        if out["height"] < least:
            raise BlockOptionError("height", settings["height"], f"at least {least} px for {panels} "
                                   f"panels in {rows} row{'s' if rows > 1 else ''} (compare draws one "
                                   f"panel per system, two a row), up to {MAX_SIDE}")
    if out["output"] == "png" and "scale" in settings:
        from .figures.style import DEFAULT_HEIGHT, DEFAULT_WIDTH  # lazy: plotly
        try:
            check_image_size(out.get("width") or DEFAULT_WIDTH, out.get("height") or DEFAULT_HEIGHT,
                             out["scale"])
        except WorkbenchError as exc:
            raise BlockOptionError("scale", settings["scale"], str(exc).partition("allowed: ")[2]
                                   + f" ({str(exc).partition(': ')[2].partition('; ')[0]})") from None


def _scale(text: str) -> float:
    value = validation.number_text(str(text))   # ASCII digits, as everywhere (not "２")
    if value is None or not MIN_SCALE <= value <= MAX_SCALE:
        raise BlockOptionError("scale", text, OPTIONS["scale"][1])
    return value


def _rungs(sys_: "System", text: str, free: bool) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    known = {r.name.lower(): r.name for r in sys_.ladder}
    if not names or (not free and any(n.lower() not in known for n in names)):
        raise BlockOptionError("rungs", text, "comma-separated rungs of " + sys_.id + ": "
                               + ", ".join(r.name for r in sys_.ladder))
    return tuple(known.get(n.lower(), n) for n in names)


def _default_alt(sys_: "System", out: Mapping[str, Any]) -> str:
    what = {"curve": "P(pass) against pool size for each difficulty",
            "check": "the outcome distribution of one check",
            "difference": "the change in P(pass) against " + (out["base"].name if out.get("base") else ""),
            "ladder": f"{shown_probability(out.get('condition'))} for each difficulty rung against "
                      "pool size",
            "outcomes": "the share of each outcome, one column per level of "
                        + str(out.get("knob") or "the pool size")}[out["figure"]]
    return f"{sys_.name}: {what}"


# ------------------------------------------------------------------------------ tables


def table_frame(block: Block) -> "pd.DataFrame":
    """The numbers of a ``table`` or ``ladder`` block, as floats (before formatting).

    ``table``: the system's difficulty table, as ``workbench table`` prints it.
    ``parameters``: the system's parameters and rule options, defaults and allowed values.
    ``ladder``: the ladder's P(pass) per rung and pool size; with ``want``, the solved ladder
    (``show=solution``: wanted against achieved; ``show=pools``: across pool sizes).
    """
    params = block.param_dict
    if block.kind == "parameters":
        return parameters_frame(block.system)
    if block.kind == "table":
        frame = difficulty_table(block.system, list(block.pools), condition=block.condition, **params)
        if block.rungs is not None:
            frame = frame[frame["Difficulty"].isin(block.rungs)].reset_index(drop=True)
        return frame
    if block.kind != "ladder":
        raise WorkbenchError(f"a {block.kind} block has no table")
    if block.want is None:
        frame = ladder_table(block.system, list(block.pools), block.rungs and list(block.rungs),
                             condition=block.condition, **params)
        return _pool_headed(block, frame)
    try:
        solution = solve_ladder(block.system, block.want, block.pool, condition=block.condition, **params)
    except WorkbenchError as exc:
        raise want_error(block.want, exc) from None
    if block.show == "pools":
        return _pool_headed(block, solution.across_pools(list(block.pools)))
    table = solution.table()[["rung", "setting", "wanted", "achieved", "reachable"]]
    table["reachable"] = table["reachable"].map({True: "yes", False: "no"})
    if block.condition is not None:   # the odds of the condition, said in the header
        shown = shown_probability(block.condition)
        table = table.rename(columns={"wanted": f"wanted {shown}", "achieved": f"achieved {shown}"})
    return table


def parameters_frame(system: "str | System") -> "pd.DataFrame":
    """A system's parameters, then its rule options: name, default, allowed values, meaning.

    Example:
        >>> parameters_frame("fons").iloc[-1].tolist()[:3]
        ['attack_resolution', 'rule option', 'opposed']
    """
    import pandas as pd  # lazy: pandas
    sys_ = get_system(system)

    def shown(value: Any) -> str:
        if value is None:
            return "(none)"
        return str(value).lower() if isinstance(value, bool) else str(value)
    rows = [{"Name": p.name, "Kind": "rule option" if p.rule_option else "parameter",
             "Default": shown(p.default), "Allowed": p.allowed(), "Meaning": p.help}
            for p in sorted(sys_.params.values(), key=lambda p: p.rule_option)]
    return pd.DataFrame(rows, columns=["Name", "Kind", "Default", "Allowed", "Meaning"])


def _pool_headed(block: Block, frame: "pd.DataFrame") -> "pd.DataFrame":
    """Columns headed as designers write pools (``1 die``, ``B3``, ``3d6``), rungs a column."""
    frame = frame.copy()
    if column_knob(block.system) and len(frame.columns) == len(block.pools):
        quality = block.param_dict.get("quality")
        frame.columns = [probability_header(pool_label(block.system, n, quality), block.condition)
                         for n in block.pools]
    frame.index.name = "Difficulty"
    return frame.reset_index()


def table_cells(block: Block) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a table block as the text a reader sees (numbers formatted)."""
    text = format_numbers(table_frame(block), block.numbers)
    return [str(c) for c in text.columns], [[str(v) for v in row] for row in text.values.tolist()]


# ----------------------------------------------------------------------------- figures


def build_figure(block: Block):
    """The plotly figure of a ``figure`` block, drawn by :mod:`workbench.figures`.

    Example:
        >>> fig = build_figure(parse_block("figure", "uwr", {"kind": "ladder", "pools": "1-2"}))
        >>> [trace.name for trace in fig.data]
        ['Easy', 'Normal', 'Difficult', 'Extreme']
    """
    from . import figures  # lazy: plotly
    from .figures.style import wrap_legend  # lazy: plotly

    params, pools = block.param_dict, list(block.pools)
    rungs = list(block.rungs) if block.rungs else None
    entry = (block.system.id, block.system, params)
    fig = wrap_legend(_draw(block, figures, params, pools, rungs, entry))
    if block.width is not None:
        fig.layout.width = block.width
    if block.height is not None:
        fig.layout.height = block.height
    return fig


def _draw(block: Block, figures, params, pools, rungs, entry):
    if block.figure == "outcomes":
        from .figures.knobs import knob_figure  # lazy: plotly
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
        >>> figure_height(parse_block("figure", "uwr", {"compare": "arrata,fons,unnamed,fate"}))
        1040
    """
    from .figures.style import DEFAULT_HEIGHT, panels_height  # lazy: plotly
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
        from .figures import write_figure  # lazy: plotly
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WorkbenchError(f"figure folder {str(path.parent)!r} cannot be made "
                                 f"({exc.strerror}); allowed: a folder you may write to") from None
        # Written whole under a temporary name, then renamed: no half-written file under the
        # name, even with parallel Sphinx readers drawing it too.
        write_figure(build_figure(block), path, scale=block.scale)
    return path
