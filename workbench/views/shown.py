"""What a result shows, by type: its tidy frame, its key figures, its compact tables and the
lines of its text view (presentation floor).

Each is a :func:`functools.singledispatch` function: a result type registers how it shows
(:mod:`.results` for the results floor's types, :mod:`.analyses` for stateful play and solved
ladders), so no view asks a result which type it is by name. The formatting every view shares
(percentages, numbers, settings) is here too.

Example:
    >>> percent(0.5), number(2 / 3), settings({"dice": 4, "half": True})
    ('50.00%', '0.666667', 'dice=4, half=true')
"""
from __future__ import annotations

import math
from functools import singledispatch
from typing import Any

import numpy as np

from ..errors import WorkbenchError
from ..export.tables import NumberFormat, cut_tails
from ..numbers import round_sig
from ..rules.registry import get_system
from .readable import PROBABILITY_NAME, readable

TABLE_ROWS = 15  # rows an HTML table shows before saying how many more to_frame() has
TEXT_OUTCOMES = 12  # outcomes the text repr lists
#: Probabilities below this are float noise or the exact engine's own cut (1e-12): a lost
#: mass or a tail this small is not shown as a key figure.
NOISE = 1e-12


def _unshown(obj):
    raise TypeError(f"no display for {type(obj).__name__}")


@singledispatch
def frame(obj):
    """The tidy DataFrame of a result (pandas is imported on first use)."""
    raise TypeError(f"no frame for {type(obj).__name__}")


@singledispatch
def facts(obj) -> tuple[str, list[tuple[str, str]]]:
    """(subtitle, key figures) of a result."""
    _unshown(obj)


@singledispatch
def tables(obj) -> list[tuple[str, Any, int]]:
    """(caption, frame of text, rows left out) for the compact tables of a result: by
    default the first :data:`TABLE_ROWS` rows of its frame, under :func:`caption`."""
    import pandas as pd  # lazy: slow import
    full = frame(obj)
    head = full.head(TABLE_ROWS)
    text = pd.DataFrame({readable(c): [cell(c, v) for v in head[c]] for c in head.columns})
    return [(caption(obj), text, len(full) - len(head))]


@singledispatch
def caption(obj) -> str:
    """What the rows of a result's frame are, above its compact table."""
    return ""


@singledispatch
def text_lines(obj) -> list[str]:
    """The lines of a result's text view below its key figures: a result whose table is its
    frame points there."""
    return ["  (to_frame() for the table)"]


def is_shown(obj) -> bool:
    """Whether the type of ``obj`` has registered how it shows."""
    return facts.dispatch(type(obj)) is not facts.dispatch(object)


# ----------------------------------------------------------------------- what every view shares

def percent_resolution() -> float:
    return NumberFormat("percent", 2).resolution


def percent(value: float | None, digits: int = 2) -> str:
    return "" if value is None else NumberFormat("percent", digits).text(value)


def number(value: float | None) -> str:
    if value is None:
        return ""
    value = float(value)
    if math.isinf(value):
        return "never (∞)" if value > 0 else "-∞"
    return f"{round_sig(value, 6):g}"


def plus_minus(stderr: float | None, probability: bool = True) -> str:
    if stderr is None:
        return ""
    return f" ± {stderr * 100:.2f} pp" if probability else f" ± {number(stderr)}"


def settings(params, system: str | None = None) -> str:
    """The settings that differ from the system's defaults (all of them if it is unknown)."""
    params = dict(params)
    try:
        declared = get_system(system).params if system else {}
    except WorkbenchError:  # a system loaded from a file no longer there: show everything
        declared = {}
    differ = {k: v for k, v in params.items() if k not in declared or declared[k].default != v}
    return ", ".join(f"{k}={shown_value(v)}" for k, v in differ.items()) or "defaults"


def shown_value(value) -> str:
    """A setting or a fact as text: ``true``/``false``, ``–`` for none."""
    if isinstance(value, bool):
        return str(value).lower()
    return "–" if value is None else str(value)


def cell(name, value) -> str:
    """One cell of a compact table or one key figure, written by what its column holds."""
    if isinstance(value, (bool, np.bool_)) or value is None:
        return shown_value(value if value is None else bool(value))
    if isinstance(value, (int, np.integer)):
        if str(name) == "seed":  # as typed back in, digit for digit (as results' seeds show)
            return str(int(value))
        return f"{int(value):,}" if abs(int(value)) >= 10_000 else str(int(value))
    if isinstance(value, (float, np.floating)):
        if PROBABILITY_NAME.search(str(name)) or isinstance(name, (int, np.integer)):
            return percent(value)
        if float(value).is_integer() and abs(value) >= 10_000:
            return f"{int(value):,}"
        return number(value)
    return str(value)


def distribution_frame(dist, value_name: str = "outcome"):
    """A distribution's tidy frame: each outcome, its probability, P(at least it), and the
    standard error of a simulated one."""
    import pandas as pd  # lazy: slow import
    out = pd.DataFrame({value_name: list(dist.outcomes), "probability": dist.probabilities,
                        "at_least": [dist.at_least(o) for o in dist.outcomes]})
    if dist.trials is not None:
        out["stderr"] = dist.stderr
    return out


def distribution_tables(dists) -> list[tuple[str, Any, int]]:
    """Compact tables of ``(caption, distribution)`` pairs (``None``: left out): tails that
    round to 0% cut into one row, standard errors beside a simulated one's rows."""
    import pandas as pd  # lazy: slow import
    out = []
    for heading, dist in dists:
        if dist is None:
            continue
        rows = cut_tails(dist.outcomes, dist.probabilities, percent_resolution())
        table = pd.DataFrame({heading: [r[0] for r in rows],
                              "probability": [percent(r[1]) for r in rows]})
        if dist.trials is not None:
            errors = dict(zip(map(str, dist.outcomes), dist.stderr))
            table["stderr"] = ["" if tail else percent(errors[label]) for label, _, tail in rows]
        out.append(("", table, 0))
    return out


def listing(dist) -> list[str]:
    """A distribution's outcomes with their probabilities, on one line of a text view."""
    rows = cut_tails(dist.outcomes, dist.probabilities, percent_resolution())
    listed = [f"{label}: {percent(p)}" for label, p, _ in rows[:TEXT_OUTCOMES]]
    more = f", … {len(rows) - TEXT_OUTCOMES} more" if len(rows) > TEXT_OUTCOMES else ""
    return ["  " + ", ".join(listed) + more]
