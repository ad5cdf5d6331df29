"""Success curves and side-by-side frames (pandas) over the exact engine or the simulator.

A *curve* is P(pass) against the number of dice in the pool, one line per difficulty rung.
Each system names its pool parameter in its data file (``dice`` for UWR/FoNS/Arrata, ``d6``
for the Unnamed System); a system without one (Erzählspiel) gives the same value at every size.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

import numpy as np

from . import validation
from .api import check, exact_reading, simulate
from .engine.work import exact_steps
from .errors import ParameterError
from .limits import EXACT_WORK, MAX_DICE
from .results import stderr_of
from .rules.registry import get_system
from .rules.system import Rung, System

if TYPE_CHECKING:  # pandas loads on first use, keeping `import workbench` quick
    import pandas as pd  # lazy: pandas

#: The most dice a curve shows when no pool sizes are given (within the system's bounds).
CURVE_DICE = 20


def pool_size_list(pool_sizes: Any, name: str = "pool_sizes") -> list[int]:
    """Pool sizes as a list of whole numbers from 0 to the largest pool, each checked and each
    once: a size given twice is an error naming it (a table never shows a pool twice).

    Example:
        >>> pool_size_list(range(1, 4))
        [1, 2, 3]
        >>> pool_size_list([3, 3])
        Traceback (most recent call last):
        ...
        workbench.errors.ParameterError: pool_sizes got [3, 3]; allowed: each pool size once (3 is given twice)
    """
    if isinstance(pool_sizes, (str, bytes, Mapping)) or not isinstance(pool_sizes, Iterable):
        raise ParameterError(None, name, pool_sizes, "a list of pool sizes such as [1, 2, 3]")
    sizes = [validation.whole_number(None, name, n, 0, MAX_DICE) for n in pool_sizes]
    if not sizes or len(sizes) > MAX_DICE + 1:
        raise ParameterError(None, name, pool_sizes, f"one to {MAX_DICE + 1} pool sizes from 0 "
                             f"to {MAX_DICE}, such as [1, 2, 3]")
    validation.once(None, name, pool_sizes if isinstance(pool_sizes, (list, tuple, range))
                    else sizes, sizes, "pool size")
    return sizes


def pool_label(system: "str | System", size: int, quality: str | None = None) -> str:
    """How designers write a pool of ``size`` dice in this system: ``3 dice``, ``3d6``, ``B3``.

    Example:
        >>> pool_label("uwr", 1), pool_label("unnamed", 3), pool_label("arrata", 5, "A")
        ('1 die', '3d6', 'A5')
    """
    sys_ = get_system(system)
    if "quality" in sys_.params:  # Arrata's stat notation: Quality letter + Quantity
        return f"{quality or sys_.params['quality'].default}{size}"
    if sys_.pool_parameter in ("d6", "d8"):
        return f"{size}{sys_.pool_parameter}"
    if sys_.pool_parameter not in DICE_NAMES:   # a skill, a modifier, rolled d10s: by name
        return f"{sys_.pool_parameter} {size}"
    return f"{size} die" if size == 1 else f"{size} dice"


def shown_probability(condition: str | None) -> str:
    """What a table's or figure's probabilities are: ``P(pass)``, or P(the condition) when one
    was asked for (a table of P(ones >= 1) headed "P(pass)" said something else than it showed).

    Example:
        >>> shown_probability(None), shown_probability("ones >= 1")
        ('P(pass)', 'P(ones >= 1)')
    """
    return "P(pass)" if condition is None else f"P({condition})"


def probability_header(label: str, condition: str | None) -> str:
    """A column of probabilities at one pool: ``4 dice`` for P(pass) (as designers write
    pools), ``P(ones >= 1) at 4 dice`` for a condition.

    Example:
        >>> probability_header("4 dice", None), probability_header("B3", "beaten == 2")
        ('4 dice', 'P(beaten == 2) at B3')
    """
    return label if condition is None else f"{shown_probability(condition)} at {label}"


#: Pool parameters headed as dice in tables ("3 dice"); any other is headed by its name.
DICE_NAMES = ("dice", "d6", "d8", None)
#: Steps for the default columns of a knob with a wide range (a skill of 1-99: 10, 20, ...).
_ROUND_STEPS = (1, 2, 5, 10, 20, 25, 50, 100)


def counts_dice(system: "str | System") -> bool:
    """Whether the system's pool parameter is a number of dice (UWR's dice, Legend of the Five
    Rings' rolled d10s), not a skill or a modifier read against the roll (Call of Cthulhu's
    skill, D&D's modifier). A system without one rolls one die: it counts.

    Example:
        >>> counts_dice("uwr"), counts_dice("l5r-4e"), counts_dice("call-of-cthulhu-7e")
        (True, True, False)
    """
    sys_ = get_system(system)
    return sys_.pool_parameter is None or sys_.mechanic.adds_dice(sys_.pool_parameter)


def pool_kind(system: "str | System") -> str:
    """What a system's pool sizes count: ``dice`` (a system without a pool parameter rolls its
    own dice), or the parameter they set (Call of Cthulhu's ``skill``, D&D's ``modifier``).
    Curves of two systems may be subtracted pool size by pool size only when these agree.

    Example:
        >>> pool_kind("uwr"), pool_kind("call-of-cthulhu-7e")
        ('dice', 'skill')
    """
    sys_ = get_system(system)
    return "dice" if counts_dice(sys_) else str(sys_.pool_parameter)


def pool_bounds(system: "str | System") -> tuple[int, int]:
    """The pool sizes the system's pool parameter allows: its bounds, never below 0 (a
    system without a pool parameter: 0 to the largest pool).

    Example:
        >>> pool_bounds("uwr")[0], pool_bounds("pbta")
        (0, (0, 4))
    """
    sys_ = get_system(system)
    param = sys_.params.get(sys_.pool_parameter) if sys_.pool_parameter else None
    low = max(0, param.minimum) if param is not None and param.minimum is not None else 0
    high = param.maximum if param is not None and param.maximum is not None else MAX_DICE
    return low, min(high, MAX_DICE)


TYPICAL_DICE = 4
"""A typical character's pool in a dice-pool system (a pool of 0 passes nothing)."""


def typical_pool(system: "str | System") -> int:
    """The pool a single check or a solved ladder is read at: :data:`TYPICAL_DICE` dice
    (within the pool parameter's bounds), or the default value of a knob that is not a number
    of dice (a skill of 50, an ability of +2).

    Example:
        >>> typical_pool("uwr"), typical_pool("risk"), typical_pool("call-of-cthulhu-7e")
        (4, 3, 50)
    """
    sys_ = get_system(system)
    low, high = pool_bounds(sys_)
    param = sys_.params.get(sys_.pool_parameter) if sys_.pool_parameter else None
    wanted = TYPICAL_DICE if counts_dice(sys_) or param is None else param.default
    try:
        wanted = int(wanted)
    except (TypeError, ValueError):
        wanted = TYPICAL_DICE
    return min(max(wanted, low), high)


def pools_for(system: "str | System", pool_sizes: Iterable[int]) -> list[int]:
    """The pool sizes of ``pool_sizes`` this system can roll (its pool parameter's bounds);
    for a knob that is not a number of dice, or when none fits, :func:`default_pool_sizes`.

    Example:
        >>> pools_for("risk", range(1, 11)), pools_for("uwr", [2, 4])
        ([1, 2, 3], [2, 4])
    """
    sys_ = get_system(system)
    if not counts_dice(sys_):
        return default_pool_sizes(sys_)
    low, high = pool_bounds(sys_)
    return [n for n in pool_sizes if low <= n <= high] or default_pool_sizes(sys_)


def default_pool_sizes(system: "str | System", most: int = 12, dice: int = 10) -> list[int]:
    """The pool sizes a table shows when none are given: 1 to ``dice`` dice for a dice pool
    (within the parameter's bounds); for another knob (a skill of 1-99, a modifier) at most
    ``most`` round values across its range (pool sizes are never negative).

    Example:
        >>> default_pool_sizes("uwr")
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
        >>> default_pool_sizes("call-of-cthulhu-7e")
        [10, 20, 30, 40, 50, 60, 70, 80, 90]
        >>> default_pool_sizes("fate")
        [0, 1, 2, 3, 4, 5, 6, 7, 8]
    """
    sys_ = get_system(system)
    low, high = pool_bounds(sys_)
    if counts_dice(sys_):
        return list(range(max(1, low), min(high, dice) + 1)) or [max(1, low)]
    step = next((s for s in _ROUND_STEPS if (high - low) // s + 1 <= most), _ROUND_STEPS[-1])
    first = -(-low // step) * step
    return list(range(first, high + 1, step)) or [low]


def _rungs(sys_: System, rungs: "Sequence[str | Rung] | None") -> list[Rung]:
    if rungs is None:
        return list(sys_.ladder) or [Rung("pass")]
    if isinstance(rungs, (str, Rung)):
        rungs = [rungs]
    if not isinstance(rungs, Iterable):
        raise ParameterError(sys_.id, "rungs", rungs, "rung names such as ['Normal']")
    rungs = list(rungs)
    named = {r.name.lower(): r for r in sys_.ladder}
    out = []
    for rung in rungs:
        if isinstance(rung, Rung):
            out.append(rung)
        elif isinstance(rung, str) and rung.lower() in named:
            out.append(named[rung.lower()])
        else:
            raise ParameterError(sys_.id, "rung", rung,
                                 "one of " + ", ".join(r.name for r in sys_.ladder))
    if not out:
        raise ParameterError(sys_.id, "rungs", rungs, "one or more rung names")
    validation.once(sys_.id, "rungs", rungs, [r.name for r in out], "rung",
                    [r if isinstance(r, str) else r.name for r in rungs])
    return out


def evaluate(system: "str | System", params: dict, method: str = "exact", trials: int = 200_000,
             seed: int | None = None):
    """One check, exact or simulated (the simulator and numba load only when asked for).

    Example:
        >>> round(evaluate("uwr", {"dice": 2, "target": 1}).p_pass, 4)
        0.5556
    """
    if validation.method("evaluate", method) == "exact":
        return check(system, **params)
    return simulate(system, trials=trials, seed=seed, **params)


def _planned_pools(sys_: System, rungs: list[Rung], sizes: list[int], params: dict) -> dict:
    """Each point of an exact curve, ``(rung index, pool size) -> (resolved, pool)``, after
    refusing a curve whose distinct pools together need more exact work than one call may do
    (each pool alone is within the limit, but a curve of pools 1 to 1000 is a thousand of
    them): nothing is computed before the whole curve is known to be within the limits."""
    planned = {}
    for index, rung in enumerate(rungs):
        for size in (sizes if sys_.pool_parameter else sizes[:1]):
            given = dict(params)
            if sys_.pool_parameter:
                given[sys_.pool_parameter] = size
            resolved = sys_.resolve(**sys_.with_rung(rung, **given))
            planned[index, size if sys_.pool_parameter else None] = resolved, sys_.mechanic.pool(resolved)
    specs = dict.fromkeys(spec for _, spec in planned.values())
    if len(specs) > 1:
        total = sum(exact_steps(spec) for spec in specs)
        EXACT_WORK.check(total, f"{sys_.id}: a curve over {len(specs)} different pools",
                         fewer="fewer or smaller pool sizes, or simulate instead (method='simulate')")
    return planned


def success_curve(system: "str | System", pool_sizes: Iterable[int] | None = None,
                  rungs: "Sequence[str | Rung] | None" = None, *, label: str | None = None,
                  method: str = "exact", trials: int = 200_000, seed: int | None = None,
                  condition: str | None = None, **params: Any) -> pd.DataFrame:
    """P(pass) for each pool size and ladder rung, as a long DataFrame.

    Columns: ``label``, ``system``, ``pool``, ``rung``, ``p_pass``, ``mean`` and, for simulated
    curves, ``stderr``. Without ``pool_sizes``: 1 to :data:`CURVE_DICE` dice, or round values
    of a knob that is not a number of dice, within the system's bounds. ``params`` are the character's other settings (favor, quality, ...).
    With ``condition`` (a condition over the system's statistics and parameters, such as
    ``"ones * 2 > dice"`` or ``"beaten == 2"``) the ``p_pass`` column holds P(condition).
    The same rows without pandas: :func:`curve_rows`.

    Example:
        >>> frame = success_curve("uwr", [1, 2], rungs=["Normal"])
        >>> [round(p, 4) for p in frame["p_pass"]]
        [0.3333, 0.5556]
    """
    import pandas as pd  # lazy: pandas
    return pd.DataFrame(curve_rows(system, pool_sizes, rungs, label=label, method=method,
                                   trials=trials, seed=seed, condition=condition, **params))


def curve_rows(system: "str | System", pool_sizes: Iterable[int] | None = None,
               rungs: "Sequence[str | Rung] | None" = None, *, label: str | None = None,
               method: str = "exact", trials: int = 200_000, seed: int | None = None,
               condition: str | None = None, **params: Any) -> list[dict[str, Any]]:
    """The rows of :func:`success_curve`, one dict per pool size and rung (no pandas).

    Example:
        >>> [(row["pool"], round(row["p_pass"], 4)) for row in curve_rows("uwr", [1, 2], ["Normal"])]
        [(1, 0.3333), (2, 0.5556)]
    """
    sys_ = get_system(system)
    # Shorthand such as stat="A5" sets the Quality; its count is a pool size like any other,
    # and the curve's own pool sizes take its place (as they take the place of dice=5).
    params = sys_.mechanic.preprocess(dict(params))
    chosen = _rungs(sys_, rungs)
    sizes = pool_size_list(default_pool_sizes(sys_, most=CURVE_DICE, dice=CURVE_DICE)
                           if pool_sizes is None else pool_sizes)
    method = validation.method("success_curve", method)
    parsed = None if condition is None else sys_.condition(condition)
    if method == "simulate":  # one seed for every point: a fresh one is drawn once, here
        trials = validation.trials("success_curve", trials)
        seed = validation.seed("success_curve", seed)
    planned = _planned_pools(sys_, chosen, sizes, params) if method == "exact" else {}
    rows = []
    memo: dict = {}
    for index, rung in enumerate(chosen):
        cache: dict = {}
        for size in sizes:
            given = dict(params)
            if sys_.pool_parameter:
                given[sys_.pool_parameter] = size
            key = size if sys_.pool_parameter else None
            if key not in cache:
                if method == "exact":
                    cache[key] = exact_reading(sys_, *planned[index, key], memo, parsed)
                elif parsed is not None:
                    result = evaluate(sys_, sys_.with_rung(rung, **given), method, trials, seed)
                    chance = result.probability(condition)
                    cache[key] = chance, result.mean, stderr_of(chance, result.trials)
                else:
                    result = evaluate(sys_, sys_.with_rung(rung, **given), method, trials, seed)
                    cache[key] = result.p_pass, result.mean, result.p_pass_stderr
            row = {"label": label or sys_.id, "system": sys_.id, "pool": size, "rung": rung.name,
                   "p_pass": cache[key][0], "mean": cache[key][1]}
            if method == "simulate":
                row["stderr"] = cache[key][2]
            rows.append(row)
    return rows


def comparison_entry(entry: Any) -> tuple[str | None, "str | System", dict]:
    """Read one entry of a comparison as ``(label, system, params)``.

    An entry is a system (id or :class:`System`), a ``(system, params)`` pair, or a
    ``(label, system, params)`` triple for variants compared with their baseline.

    Example:
        >>> comparison_entry(("arrata", {"quality": "A"}))
        (None, 'arrata', {'quality': 'A'})
    """
    if isinstance(entry, (str, System)):
        return None, entry, {}
    if isinstance(entry, (tuple, list)) and len(entry) in (2, 3) and isinstance(entry[-1], Mapping):
        if len(entry) == 2:
            return None, entry[0], dict(entry[1])
        if entry[0] is None or isinstance(entry[0], str):
            return entry[0], entry[1], dict(entry[2])
    raise ParameterError(None, "entry", entry, "a system id, (system, params) or "
                         "(label, system, params) with params a dict")


def comparison_labels(read: list[tuple[str | None, Any, dict]]) -> list[str]:
    """A column label for each ``(label, system, params)``: the label given, else the system's
    id with the settings that set it apart from the other entries of the same system (a
    table never puts two settings under one heading). Given labels must differ.

    Example:
        >>> comparison_labels([(None, "uwr", {"favor": 0}), (None, "uwr", {"favor": 1}),
        ...                    (None, "fons", {})])
        ['uwr favor=0', 'uwr favor=1', 'fons']
    """
    systems = [get_system(sys_) for _, sys_, _ in read]
    labels: list[str] = []
    for i, ((given, _, params), sys_) in enumerate(zip(read, systems)):
        if given is not None:
            labels.append(given)
            continue
        same = [j for j, other in enumerate(systems) if other.id == sys_.id and read[j][0] is None]
        settings = [{**{n: p.default for n, p in sys_.params.items()},
                     **sys_.resolve(**read[j][2])} for j in same]
        differ = [name for name in sys_.params if name != sys_.pool_parameter   # on the rows
                  and len({repr(s[name]) for s in settings}) > 1]
        resolved = settings[same.index(i)]
        labels.append(" ".join([sys_.id, *(f"{name}={resolved[name]}" for name in differ)]))
    seen: dict[str, int] = {}
    for i, label in enumerate(labels):
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            if read[i][0] is not None:
                raise ParameterError(None, "entries", read[i][0], "a different label for each "
                                     f"entry (two entries are labelled {read[i][0]!r})")
            labels[i] = f"{label} #{seen[label]}"   # the very same settings again
    return labels


def side_by_side(entries: Iterable[Any], pool_sizes: Iterable[int] | None = None,
                 **options: Any) -> pd.DataFrame:
    """A wide table: one row per pool size, one column per (label, rung).

    Without ``pool_sizes`` each entry is read at its own system's default sizes (as
    :func:`success_curve`); a size one system cannot roll is left empty (NaN) in its columns.

    ``entries`` are system ids, or ``(system, params)`` pairs, or ``(label, system, params)``
    triples for variants compared with their baseline.

    Example:
        >>> table = side_by_side(["uwr", ("arrata", {"quality": "A"})], [3, 4])
        >>> table.shape
        (2, 10)
    """
    import pandas as pd  # lazy: pandas
    if isinstance(entries, (str, System)):
        entries = [entries]
    if not isinstance(entries, Iterable) or isinstance(entries, Mapping):
        raise ParameterError(None, "entries", entries, "a list of systems or (system, params) pairs")
    entries = list(entries)
    if not entries:
        raise ParameterError(None, "entries", entries, "one or more systems, such as ['uwr']")
    frames = []
    read = [comparison_entry(entry) for entry in entries]
    for label, (_, sys_, params) in zip(comparison_labels(read), read):
        frames.append(success_curve(sys_, pool_sizes, label=label, **options, **params))
    long = pd.concat(frames, ignore_index=True)
    order = list(dict.fromkeys(zip(long["label"], long["rung"])))
    columns = pd.MultiIndex.from_tuples(order, names=["label", "rung"])
    if len(long) == len(order) * long["pool"].nunique() and not long.duplicated(["pool", "label", "rung"]).any():
        # One value per cell (the usual case): lay the columns out directly, which is far
        # cheaper than pivot_table's group-by; repeated cells still go through pivot_table.
        pools = list(dict.fromkeys(long["pool"]))  # first-seen order, as pivot_table(sort=False)
        cells: dict = {}
        for label, rung, pool, p_pass in zip(long["label"], long["rung"], long["pool"], long["p_pass"]):
            cells.setdefault((label, rung), {})[pool] = np.nan if p_pass is None else float(p_pass)
        values = np.array([[cells[column].get(pool, np.nan) for column in order] for pool in pools])
        return pd.DataFrame(values.reshape(len(pools), len(order)), columns=columns,
                            index=pd.Index(pools, name="pool"))
    wide = long.pivot_table(index="pool", columns=["label", "rung"], values="p_pass", sort=False)
    return wide.reindex(columns=columns)
