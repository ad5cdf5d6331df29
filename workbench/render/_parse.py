"""Reading a block: its kind, system and ``NAME=VALUE`` options checked into a :class:`Block`.

Every option is checked before anything is computed, in the order a reader meets them: the
kind and system, which names are options and which are the system's parameters, the
parameters' values, the pool sizes, the number format, the condition or statistic, the wanted
odds, and a figure's own options. The first problem is the error, naming the option.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

from .. import validation
from ..analysis import pool_bounds, pool_kind, pools_for, shown_probability, typical_pool
from ..errors import ParameterError, WorkbenchError
from ..export.tables import NUMBER_STYLES, NumberFormat
from ..limits import check_image_size
from ..odds_tables import column_knob, not_set_by_every_rung, overridden_setting
from ..rules.registry import get_system
from ..validation import suggest
from ._block import (BLOCK_KINDS, DEFAULT_POOLS, FIGURE_KINDS, FIGURE_OUTPUTS, LADDER_SHOWS, MAX_SCALE,
                     MAX_SIDE, MIN_PANEL_HEIGHT, MIN_SCALE, MIN_SIDE, OPTIONS, TABLE_STYLES, Block,
                     BlockOptionError)
from ._names import split_systems
from ._pools import MAX_POOL, PoolSizesError, parse_pools

if TYPE_CHECKING:
    from ..rules.system import System


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
    params, settings = _options_and_parameters(kind, sys_, given)
    written = dict(params)   # as given: stat=B5, not quality=B dice=5
    params = _parameter_values(kind, sys_, params)
    _pool_as_typical(sys_, params, settings)
    _not_overridden(kind, sys_, written, settings)
    out: dict[str, Any] = {"kind": kind, "system": sys_, "params": tuple(sorted(params.items())),
                           "options": tuple(sorted(given.items())),
                           "pools": _block_pools(kind, sys_, settings)}
    if "rungs" in settings:
        out["rungs"] = _rungs(sys_, settings["rungs"], "want" in settings)
    out["numbers"] = _number_format(settings)
    out["style"] = _choice("style", settings.get("style", "grid"), TABLE_STYLES)
    out["caption"] = settings.get("caption", "").strip()
    if "condition" in settings:
        out["condition"] = _condition(sys_, settings["condition"])
    if "statistic" in settings:   # not "stat": that is a parameter (Ironsworn) or shorthand (B5)
        out["stat"] = _statistic(sys_, settings["statistic"])
    if kind in ("ladder", "figure"):
        out["want"], out["pool"] = _wanted(sys_, settings)
    if kind == "ladder":
        out["show"] = _choice("show", settings.get("show", "solution"), LADDER_SHOWS)
        _ladder_options_used(settings, out["show"])
    if kind == "figure":
        _figure_options(sys_, settings, params, resolve_path, out)
    return Block(**out)


def _options_and_parameters(kind: str, sys_: "System", given: Mapping[str, str]):
    """``(parameters, settings)``: the given names that are the system's parameters, and those
    that are options of this kind of block (an option of another kind is an error)."""
    params, settings = {}, {}
    for name, value in given.items():
        if name in OPTIONS and kind in OPTIONS[name][0]:
            settings[name] = value
        elif name not in OPTIONS:
            params[name] = value
        else:
            _not_an_option(kind, sys_, name, value)
    return params, settings


def _parameter_values(kind: str, sys_: "System", params: dict[str, str]) -> dict[str, str]:
    """The parameters as the system reads them (shorthand such as ``stat=B5`` sets a choice
    and a count at once: ``quality=B``, ``dice=5``), each a parameter of the system with a
    value it allows."""
    try:
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
    return params


def _block_pools(kind: str, sys_: "System", settings: Mapping[str, str]) -> tuple[int, ...]:
    """The pool sizes the block steps through: ``pools`` as given (sizes the system can roll),
    or the default ``1-10`` as the system's rules allow it (Risk's 1-3 dice, a skill's 10, 20,
    ... 90)."""
    if "pools" in settings and kind in ("table", "ladder") and sys_.pool_parameter \
            and not column_knob(sys_):
        raise BlockOptionError("pools", settings["pools"], f"no pools for {sys_.id}: its ladder "
                               f"sets {sys_.pool_parameter} itself, so the table has no column "
                               f"per {sys_.pool_parameter} (leave pools out)")
    if "pools" in settings and not sys_.pool_parameter and not {"compare", "base"} & set(settings):
        raise BlockOptionError("pools", settings["pools"], f"no pools for {sys_.id}: it has no "
                               "pool size to step through (leave pools out)")
    if "pools" in settings or not sys_.pool_parameter:
        pools = _pool_sizes(settings.get("pools", DEFAULT_POOLS))
        _pools_within(sys_, pools, settings)
        return pools
    return tuple(pools_for(sys_, _pool_sizes(DEFAULT_POOLS)))


def _pool_sizes(text: str) -> tuple[int, ...]:
    """``pools=`` read by the one grammar of pool sizes (:func:`parse_pools`)."""
    try:
        return tuple(parse_pools(text, "pools"))
    except PoolSizesError as exc:
        raise BlockOptionError("pools", exc.value, exc.allowed, exc.problem) from None


def _number_format(settings: Mapping[str, str]) -> NumberFormat:
    """``format`` and ``digits``: how probabilities are written."""
    style = _choice("format", settings.get("format", "percent"), NUMBER_STYLES)
    default_digits = {"percent": 1, "digits": 3, "fraction": 0}[style]
    digits = _whole_option("digits", settings["digits"], 0, 15) if "digits" in settings else default_digits
    if style == "fraction" and "digits" in settings:   # a fraction is exact: no decimals to set
        raise BlockOptionError("digits", settings["digits"], "only with format=percent or "
                               "format=digits (format=fraction writes exact fractions)")
    return NumberFormat(style, digits)


def _condition(sys_: "System", text: str) -> str:
    """``condition``, checked against the system's statistics and parameters."""
    try:
        sys_.condition(text)
    except ParameterError as exc:
        raise BlockOptionError("condition", text, exc.allowed) from None
    return text


def _statistic(sys_: "System", name: str) -> str:
    if name not in sys_.statistic_names:
        raise BlockOptionError("statistic", name, "one of " + ", ".join(sys_.statistic_names))
    return name


def _wanted(sys_: "System", settings: Mapping[str, str]) -> tuple[str | None, int]:
    """``(want, pool)`` of a ladder or figure: the wanted odds, and the pool they are for."""
    want = settings.get("want")
    if want is not None and not want.strip():
        raise BlockOptionError("want", want, OPTIONS["want"][1])
    # Unless given: 4 dice within the system's bounds, or a skill's default (Call of
    # Cthulhu: skill 50), as the ladder command and the explorer choose.
    pool = _whole_option("pool", settings["pool"], 0, MAX_POOL) if "pool" in settings else typical_pool(sys_)
    return want, pool


def _figure_options(sys_: "System", settings: Mapping[str, str], params: Mapping[str, str],
                    resolve_path: Callable[[str], str] | None, out: dict[str, Any]) -> None:
    """A figure's own options into ``out``: its kind, the systems it compares, the options its
    kind uses, the knob and levels of an outcomes figure, its size and output."""
    out["figure"] = _choice("kind", settings.get("kind", "curve"), FIGURE_KINDS)
    if "base" in settings:
        out["base"] = _system(settings["base"], resolve_path)
        if out["base"] is sys_ and not params:   # the same system, same settings: nothing to show
            raise BlockOptionError("base", settings["base"], "another system, or settings for the "
                                   "figure's own (favor=1 against its defaults)",
                                   f"it names {sys_.id!r}, the figure's own system")
        if out["figure"] == "difference":
            _same_pool_kind(sys_, out["base"], settings["base"])
    elif out["figure"] == "difference":
        raise BlockOptionError("base", "", "a system to compare against, needed by kind=difference")
    if "compare" in settings:
        names = [name for name in split_systems(settings["compare"]) if name]
        if not names or out["figure"] != "curve":
            raise BlockOptionError("compare", settings["compare"], OPTIONS["compare"][1])
        out["compare"] = tuple(_system(name, resolve_path) for name in names)
        _each_once(None if params else sys_, names, out["compare"], settings["compare"])
    _figure_options_used(settings, out["figure"])
    if out["figure"] == "outcomes":
        out["knob"], out["levels"] = _knob(sys_, settings, params)
    _figure_size(settings, out)
    out["alt"] = settings.get("alt") or _default_alt(sys_, out)


#: The figure options only some kinds of figure use, and those kinds.
_FIGURE_OPTION_USERS = {"base": ("difference",), "want": ("ladder",), "pool": ("ladder",),
                        "rungs": ("curve", "difference", "ladder"),
                        "pools": ("curve", "difference", "ladder"),
                        "knob": ("outcomes",), "levels": ("outcomes",),
                        "condition": ("ladder",), "statistic": ("check",)}


def _each_once(sys_: "System | None", names: list[str], systems: tuple, given: str) -> None:
    """Compared systems are each named once, and other than the figure's own ``sys_`` (``None``
    when the block gives settings: its own system at other settings is a comparison). One
    system by its id, an alias or its path is one system: the same curves twice are refused."""
    seen = [] if sys_ is None else [(sys_, sys_.id)]
    for name, other in zip(names, systems):
        earlier = next((shown for known, shown in seen if known is other), None)
        if earlier is not None:
            also = f": as {earlier!r} and {name!r}" if earlier != name else ""
            raise BlockOptionError("compare", given, "each system once, other than the figure's "
                                   "own at the same settings", f"{other.id!r} is given twice{also}")
        seen.append((other, name))


def _figure_options_used(settings: Mapping[str, str], figure: str) -> None:
    """An option the figure's kind does not use would be silently ignored: say which kind
    uses it (and which options go together)."""
    for option, kinds in _FIGURE_OPTION_USERS.items():
        if option in settings and figure not in kinds:
            raise BlockOptionError(option, settings[option], f"only with kind={' / kind='.join(kinds)} "
                                   f"(this figure is kind={figure})")
    if "rungs" in settings and "want" in settings:   # the solved ladder draws the wanted rungs
        raise BlockOptionError("rungs", settings["rungs"], "no rungs together with want (the "
                               "wanted odds name the rungs: want=Easy=0.9,Normal=0.7)")
    if "pool" in settings and "want" not in settings:
        raise BlockOptionError("pool", settings["pool"], "only together with want (the pool the "
                               "wanted odds are for)")


def _figure_size(settings: Mapping[str, str], out: dict[str, Any]) -> None:
    """``width``, ``height``, ``scale`` and ``output`` into ``out``, checked together."""
    for side in ("width", "height"):
        if side in settings:
            out[side] = _whole_option(side, settings[side], MIN_SIDE, MAX_SIDE)
    if "scale" in settings:
        out["scale"] = _scale(settings["scale"])
    out["output"] = _choice("output", settings.get("output", "png"), FIGURE_OUTPUTS)
    if "scale" in settings and out["output"] == "svg":   # an SVG keeps its size in its units
        raise BlockOptionError("scale", settings["scale"], "only with output=png (or html, "
                               "whose PNG for other builders it scales); an SVG scales "
                               "without loss: set its width and height")
    _check_size(out, settings)


def _whole_option(option: str, text: str, low: int, high: int) -> int:
    value = validation.number_text(str(text))   # ASCII digits, as everywhere (not "５００")
    if not isinstance(value, int) or not low <= value <= high:
        raise BlockOptionError(option, text, f"a whole number from {low} to {high}")
    return value


def _choice(option: str, text: str, allowed: tuple[str, ...]) -> str:
    value = str(text).strip().lower()
    if value not in allowed:
        raise BlockOptionError(option, text, ", ".join(allowed))
    return value


def _same_pool_kind(sys_: "System", base: "System", given: str) -> None:
    """A difference subtracts P(pass) pool size by pool size: UWR at 4 dice minus Call of
    Cthulhu at skill 4 would say nothing, so the two pools must count the same thing."""
    mine, theirs = pool_kind(sys_), pool_kind(base)
    if mine != theirs:
        raise BlockOptionError("base", given, f"a system whose pool sizes count {mine}, as "
                               f"{sys_.id}'s do ({base.id}'s count "
                               f"{theirs if theirs == 'dice' else 'its ' + theirs}: a difference "
                               "at each pool size would set one against the other)")


def _system(text: str, resolve_path: Callable[[str], str] | None) -> "System":
    text = str(text).strip()
    if text.endswith(".toml") and resolve_path is not None:
        text = resolve_path(text)
    return get_system(text)


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


def _not_overridden(kind: str, sys_: "System", params: dict[str, str],
                    settings: Mapping[str, str]) -> None:
    """A setting the block's pool sizes step through (``dice=5`` in a table or curve of 1 to
    10 dice) would change nothing: refused, naming the setting and ``pools``."""
    figure = str(settings.get("kind", "curve")).strip().lower()
    if "want" in settings or kind == "parameters" or (
            kind == "figure" and figure not in ("curve", "difference", "ladder")):
        return
    try:   # a setting every rung sets itself (uwr's target) changes no line or cell either
        not_set_by_every_rung(sys_, params)
    except ParameterError as exc:
        raise BlockOptionError(exc.parameter, exc.value, exc.allowed) from None
    overridden = overridden_setting(sys_, params)
    if overridden is None:
        return
    name, _, given = overridden.said.partition("=")
    pools = f"pools={settings['pools']}" if "pools" in settings else "the default pools"
    instead = f", with {overridden.rest} instead of {overridden.said}" if overridden.rest else ""
    raise BlockOptionError(name, given, f"no {overridden.knob} here: the "
                           f"{'pool axis steps' if kind == 'figure' else 'columns step'} through "
                           f"{overridden.knob} ({pools}); pools={overridden.value} shows that "
                           f"pool alone{instead}")


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
    from ..figures.knobs import default_knob  # lazy: plotly

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
        from ..figures.style import PANELS_MARGIN, panel_rows, panels_height  # lazy: plotly
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
        from ..figures.style import DEFAULT_HEIGHT, DEFAULT_WIDTH  # lazy: plotly
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
