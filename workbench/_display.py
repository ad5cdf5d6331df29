"""How results are shown to people in notebooks and tables (presentation layer).

Results are plain data (:mod:`workbench.results`); this module gives every result type its
three views, ``to_frame()``, ``_repr_html_()`` and ``repr``, by registering them with
:func:`workbench.results.rich.register_views` when the package is imported.

**The number rule** (:mod:`workbench.numbers`). Results keep full floating-point precision in Python. At presentation:

- JSON (``workbench ... --format json``, every ``to_dict()``) rounds each number to
  :data:`JSON_DIGITS` (15) significant digits and 15 decimal places: all that a double
  carries reliably, so exact results lose nothing but float noise (``0.8906249999999996`` is
  written ``0.890625``). Probabilities below 5e-16 become 0; the exact engine itself is only
  exact to 1e-12 (explosion chains).
- Tables show probabilities at a fixed precision (percentages with one decimal in ladder
  and difficulty tables, two in distributions). A probability that is not 0 but rounds to 0
  there is written ``< 0.1%`` (``> 99.9%`` near 1); a distribution's outcomes at either end
  whose probabilities together round to 0 become one ``≥ k`` / ``≤ k`` row (see
  :func:`cut_tails`). CSV keeps every outcome and plain numbers, for spreadsheets.

Example:
    >>> round_sig(0.8906249999999996), round_sig(0.09374999999999993), round_sig(1 / 3)
    (0.890625, 0.09375, 0.333333333333333)
"""
from __future__ import annotations

import functools
import html as html_lib
import math
import re
from typing import Any

import numpy as np

from .errors import WorkbenchError
from .export.tables import NumberFormat, format_numbers
from .numbers import JSON_DIGITS, fixed, json_ready, round_sig  # noqa: F401  (the number rule, shown here)
from .results.distribution import possible_only
from .results.rich import register_views
from .rules.registry import get_system

def _as_number(outcome: Any) -> int | None:
    if isinstance(outcome, (bool, np.bool_)):
        return None
    if isinstance(outcome, (int, np.integer)):
        return int(outcome)
    try:
        return int(str(outcome))
    except ValueError:
        return None


def cut_tails(outcomes, probabilities, resolution: float) -> list[tuple[str, float, bool]]:
    """The rows a table shows for a distribution: ``(label, probability, is_tail)``.

    Numeric outcomes at either end whose probabilities *together* stay below ``resolution``
    (half the smallest step the table shows, see
    :attr:`workbench.export.tables.NumberFormat.resolution`) become one row ``≤ k`` or
    ``≥ k`` holding their total, which the table then writes as ``< 0.01%``; a tail of
    outcomes that never happen is dropped. Labelled outcomes (narrative dice, tiers) are all
    kept. The cut never changes which outcomes a reader can see as possible: the merged tail
    says it is there. Of outcomes most of them impossible (totals far apart), only the
    possible ones are shown (:func:`~workbench.results.distribution.possible_only`).

    Example:
        >>> cut_tails([0, 1, 2, 3, 4], [1e-9, 0.5, 0.3, 0.2 - 2e-9, 1e-9], 5e-5)
        [('≤ 0', 1e-09, True), ('1', 0.5, False), ('2', 0.3, False), ('3', 0.199999998, False), ('≥ 4', 1e-09, True)]
    """
    probabilities = np.asarray(list(probabilities) if not isinstance(probabilities, np.ndarray)
                               else probabilities, dtype=float)
    possible = np.flatnonzero(probabilities)
    if possible_only(len(possible), len(probabilities)):
        # Totals far apart (a count times 1000): the impossible ones between them are not
        # shown, or the table would be thousands of rows of 0%.
        outcomes = list(outcomes)
        outcomes, probabilities = [outcomes[i] for i in possible], probabilities[possible]
    items = [(o, float(p)) for o, p in zip(outcomes, probabilities)]
    numbers = [_as_number(o) for o, _ in items]
    if resolution <= 0 or len(items) < 2 or any(n is None for n in numbers):
        return [(str(o), p, False) for o, p in items]
    low, low_mass = 0, 0.0
    while low < len(items) - 1 and low_mass + items[low][1] < resolution:
        low_mass += items[low][1]
        low += 1
    high, high_mass = len(items), 0.0
    while high - 1 > low and high_mass + items[high - 1][1] < resolution:
        high_mass += items[high - 1][1]
        high -= 1
    rows = [(str(o), p, False) for o, p in items[low:high]]
    if low and low_mass > 0:
        rows.insert(0, (f"≤ {numbers[low - 1]}", low_mass, True))
    if high < len(items) and high_mass > 0:
        rows.append((f"≥ {numbers[high]}", high_mass, True))
    return rows


# --------------------------------------------------------------------------- results in notebooks
#
# Every result type gets the same three views from here: ``to_frame()`` (a tidy DataFrame),
# ``_repr_html_()`` (key figures and a compact table) and ``__repr__`` (the same in text).
# The result classes only forward to :func:`to_frame`, :func:`html` and :func:`text`; which
# figures and which table a type shows is decided below, by type name, so the result modules
# need not import pandas or know about notebooks.

TABLE_ROWS = 15  # rows an HTML table shows before saying how many more to_frame() has
TEXT_OUTCOMES = 12  # outcomes the text repr lists
_PROBABILITY_NAME = re.compile(r"^(p_|pass|probability$|cumulative$|stderr$|without$|with$|"
                               r"any YES$|P\(|\d+ dic?e$)|share$|^(wanted|achieved)( P\(.*\))?$")


def _percent_resolution() -> float:
    return NumberFormat("percent", 2).resolution


def _percent(value: float | None, digits: int = 2) -> str:
    return "" if value is None else NumberFormat("percent", digits).text(value)


def _number(value: float | None) -> str:
    if value is None:
        return ""
    value = float(value)
    if math.isinf(value):
        return "never (∞)" if value > 0 else "-∞"
    return f"{round_sig(value, 6):g}"


def _plus_minus(stderr: float | None, probability: bool = True) -> str:
    if stderr is None:
        return ""
    return f" ± {stderr * 100:.2f} pp" if probability else f" ± {_number(stderr)}"


#: Probabilities below this are float noise or the exact engine's own cut (1e-12): a lost
#: mass or a tail this small is not shown as a key figure.
NOISE = 1e-12
_READABLE = {"pass_without": "P(pass) without Drama Dice", "pass_with": "P(pass) with Drama Dice",
             "pass_without_burning": "P(pass) without burning",
             "pass_with_burning": "P(pass) with burning",
             "pass_with_stderr_bound": "stderr bound", "mean_pulled": "mean dice pulled",
             "empty_share": "checks with an empty pool", "pool_max": "pool maximum",
             "burns_per_scene": "burns per scene", "mean_pool": "mean pool before",
             "p_empty": "P(pool empty)", "short_rest_before": "short rest before"}


def readable(name) -> str:
    """A column name as a designer reads it: ``p_pass_with`` -> ``P(pass) with``."""
    name = str(name)
    if name in _READABLE:
        return _READABLE[name]
    if name.startswith("p_pass_"):
        return "P(pass) " + name[7:].replace("_", " ")
    if name.startswith("p_"):
        return f"P({name[2:].replace('_', ' ')})"
    return name.replace("_", " ")


#: Column names a designer reads (the report's and the notebooks' tables share them).
READABLE_NAMES = {
    "pass_without": "P(pass) without Drama Dice", "pass_with": "P(pass) with Drama Dice",
    "pass_without_burning": "P(pass) without burning", "pass_with_burning": "P(pass) with burning",
    "pass_with_stderr_bound": "± (standard error, at most)", "mean_pulled": "dice pulled per check",
    "empty_share": "checks finding the pool empty", "pool_max": "pool maximum",
    "checks": "checks per campaign", "trials": "campaigns simulated", "seed": "seed",
    "without": "without Drama Dice", "with": "with Drama Dice", "wanted": "wanted",
    "achieved": "achieved", "error": "off by", "reachable": "within tolerance",
    "rung": "rung", "setting": "setting", "note": "note", "die": "die",
    "refill_rate": "refill rate", "players": "players", "tier": "tier",
    "burns_per_scene": "burns per scene", "mean_pool": "mean pool before",
    "p_empty": "P(pool empty)", "short_rest_before": "short rest before",
    "all_within": "within the band at every pool", "share": "share of pools in the band",
    "least": "least P(pass)", "greatest": "greatest P(pass)", "count": "pools",
    "outside": "outside the band", "p_pass": "P(pass)",
}


def readable_table(frame, *, percent=None, pp=(), stderr=(), digits=(), names=None,
                   index: bool = True):
    """A table as the report and the notebooks show it: probabilities as percentages
    (``< 0.1%`` for a chance that only rounds to 0), differences of probabilities in
    percentage points (``+1.2 pp``), standard errors in points (``0.35 pp``), whole counts
    with thousands separators (``20,000``), ``yes``/``no``, columns named in words.

    Args:
        frame: a pandas DataFrame (or Series).
        percent: the probability columns; ``None`` finds them by name (``p_pass``,
            ``pass_with``, ``share``, ...); ``True``: every number is a probability.
        pp, stderr, digits: columns of differences, of standard errors, and of numbers shown
            with two decimals.
        names: column names to use instead of :data:`READABLE_NAMES`.
        index: keep the frame's index (its name made readable too).

    Returns:
        A DataFrame of text, ready to display or export.

    Example:
        >>> import pandas as pd
        >>> frame = pd.DataFrame({"pass_with": [0.4944], "mean_pulled": [1.3333],
        ...                       "checks": [10.0], "error": [-0.0125]})
        >>> readable_table(frame, pp=["error"]).iloc[0].tolist()
        ['49.4%', '1.33', '10', '-1.2\\xa0pp']
        >>> list(readable_table(frame, pp=["error"]).columns)
        ['P(pass) with Drama Dice', 'dice pulled per check', 'checks per campaign', 'off by']
    """
    import pandas as pd  # lazy: slow import

    out = frame.to_frame() if isinstance(frame, pd.Series) else frame.copy()
    if not index:
        out = out.reset_index(drop=True)
    table = NumberFormat("percent", 1)
    words = {**READABLE_NAMES, **(names or {})}

    def kind(column) -> str:
        key = column[-1] if isinstance(column, tuple) else column
        name = str(key).rpartition(": ")[2]  # a sweep's "Normal: p_pass" is a p_pass
        if column in pp or key in pp:
            return "pp"
        if column in stderr or key in stderr:
            return "stderr"
        if column in digits or key in digits:
            return "digits"
        if percent is True or (percent is not None and (column in percent or key in percent)):
            return "percent"
        if percent is None and isinstance(key, str) and name.endswith("stderr"):
            return "stderr"  # the spread of a probability: points, not percent
        if percent is None and isinstance(key, str) and _PROBABILITY_NAME.search(name):
            return "percent"
        return ""

    for column in out.columns:
        values, how = out[column], kind(column)
        if how == "percent":
            out[column] = [table.text(v) if _is_number(v) else _text(v) for v in values]
        elif how == "pp":  # a no-break space keeps the unit with its number
            out[column] = [f"{100 * float(v):+.1f}\u00a0pp" if _is_number(v) else _text(v) for v in values]
        elif how == "stderr":
            out[column] = [f"{100 * float(v):.2f}\u00a0pp" if _is_number(v) else _text(v) for v in values]
        elif how == "digits":
            out[column] = [f"{float(v):,.2f}" if _is_number(v) else _text(v) for v in values]
        else:
            out[column] = [_plain(column, v) for v in values]
    out.columns = _renamed(out.columns, words)
    if not index:  # no row numbers on the page: an index of blanks shows as nothing
        out.index = pd.Index([""] * len(out))
    else:
        out.index = out.index.set_names([None if n is None else words.get(str(n), readable(n))
                                         for n in out.index.names])
    return _whole_text_frame()(out)


@functools.cache
def _whole_text_frame():
    """A DataFrame that shows every cell whole: pandas cuts text at 50 characters
    (``display.max_colwidth``), which would end a ladder's notes in "...". Made on first use
    (pandas loads lazily)."""
    import pandas as pd  # lazy: slow import

    class ReadableFrame(pd.DataFrame):
        @property
        def _constructor(self):
            return ReadableFrame

        def _repr_html_(self):
            with pd.option_context("display.max_colwidth", None):
                return super()._repr_html_()

        def __repr__(self) -> str:
            with pd.option_context("display.max_colwidth", None):
                return super().__repr__()

    ReadableFrame.__qualname__ = "ReadableFrame"
    return ReadableFrame


def _renamed(columns, words):
    import pandas as pd  # lazy: slow import
    if isinstance(columns, pd.MultiIndex):
        return pd.MultiIndex.from_tuples([tuple(words.get(str(p), str(p)) for p in c)
                                          for c in columns])
    def word(name) -> str:
        name = str(name)
        if name in words:
            return words[name]
        head, sep, tail = name.rpartition(": ")  # a sweep's "Normal: p_pass"
        if sep and "_" in tail:
            return f"{head}: {words.get(tail, readable(tail))}"
        return readable(name) if "_" in name else name
    return [word(c) for c in columns]


def _is_number(value) -> bool:
    return (isinstance(value, (int, float, np.integer, np.floating))
            and not isinstance(value, (bool, np.bool_)) and not (value != value))


def _text(value) -> str:
    return "" if value is None or (isinstance(value, float) and value != value) else str(value)


def _plain(column, value) -> str:
    """A number that is not a probability: whole values as counts (``10``, ``20,000``;
    seeds as they are), others to three significant digits (``1.33``, ``11.6``)."""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if not _is_number(value):
        return _text(value)
    key = column[-1] if isinstance(column, tuple) else column
    if float(value).is_integer():
        return str(int(value)) if str(key) == "seed" else f"{int(value):,}"
    return f"{float(value):,.0f}" if abs(value) >= 100 else f"{float(value):.3g}"


def _params(params, system: str | None = None) -> str:
    """The settings that differ from the system's defaults (all of them if it is unknown)."""
    params = dict(params)
    try:
        declared = get_system(system).params if system else {}
    except WorkbenchError:  # a system loaded from a file no longer there: show everything
        declared = {}
    shown = {k: v for k, v in params.items() if k not in declared or declared[k].default != v}
    return ", ".join(f"{k}={_value(v)}" for k, v in shown.items()) or "defaults"


def _value(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return "–" if value is None else str(value)


def _distribution_frame(dist, value_name: str = "outcome"):
    import pandas as pd  # lazy: slow import
    frame = pd.DataFrame({value_name: list(dist.outcomes), "probability": dist.probabilities,
                          "at_least": [dist.at_least(o) for o in dist.outcomes]})
    if dist.trials is not None:
        frame["stderr"] = dist.stderr
    return frame


def to_frame(obj):
    """The tidy DataFrame of a result (pandas is imported here, on first use)."""
    import pandas as pd  # lazy: slow import
    kind = type(obj).__name__
    if kind == "Distribution":
        return _distribution_frame(obj)
    if kind == "CheckResult":
        return _distribution_frame(obj.pmf)
    if kind == "VersusResult":
        return _distribution_frame(obj.margin, "margin")
    if kind == "Roll":
        row = {name: getattr(obj, name) for name in (
            "system", "successes", "failures", "net", "outcome", "tier", "passed")}
        row.update(obj.stats or {})
        return pd.DataFrame([row])
    if kind == "Joint":
        frame = pd.DataFrame(obj.values, columns=list(obj.names))
        frame["probability"] = obj.probabilities
        return frame
    if kind == "StepsResult":
        return obj.frame.copy()
    if kind == "DramaResult":
        return obj.checks.reset_index()
    if kind == "BurnResult":
        return obj.checks.join(obj.stacks).reset_index()
    if kind == "LadderSolution":
        return obj.table()
    raise TypeError(f"no frame for {kind}")


def _facts(obj) -> tuple[str, list[tuple[str, str]]]:
    """(subtitle, key figures) of a result."""
    kind = type(obj).__name__
    if kind == "Distribution":
        facts = [("outcomes", str(len(obj)))]
        if obj.mean is not None:
            facts.append(("mean", _number(obj.mean)))
        if obj.trials is not None:
            facts.append(("trials", f"{obj.trials:,}"))
        return "", facts
    if kind == "CheckResult":
        simulated = obj.method == "simulate"
        facts = []
        if obj.p_pass is not None:
            facts.append(("P(pass)", _percent(obj.p_pass) + _plus_minus(obj.p_pass_stderr)))
        if obj.mean is not None:
            facts.append(("mean", _number(obj.mean) + _plus_minus(obj.mean_stderr, False)))
        if obj.lost_mass > NOISE:
            facts.append(("lost mass", f"{obj.lost_mass:.1e}"))
        if obj.stats:
            facts.append(("means", " · ".join(f"{name} {_number(dist.mean)}" for name, dist
                                              in obj.stats.items() if name != "total")))
        if simulated:
            facts += [("trials", f"{obj.trials:,}"), ("seed", str(obj.seed))]
        return f"{obj.system} · {obj.method} · {_params(obj.params, obj.system)}", facts
    if kind == "VersusResult":
        facts = [("P(actor passes)", _percent(obj.p_actor)),
                 ("mean margin", _number(obj.margin.mean)), ("ties go to", obj.ties_to)]
        if obj.lost_mass > NOISE:
            facts.append(("lost mass", f"{obj.lost_mass:.1e}"))
        return (f"{obj.system} · actor {_params(obj.actor, obj.system)} · reactor "
                f"{_params(obj.reactor, obj.system)}", facts)
    if kind == "Roll":
        facts = [(name, _value(getattr(obj, name))) for name in
                 ("successes", "failures", "net", "outcome", "tier", "passed")
                 if getattr(obj, name) is not None]
        facts += [(name, str(value)) for name, value in (obj.stats or {}).items() if name != "total"]
        return obj.system, facts
    if kind == "Joint":
        facts = [("statistics", ", ".join(obj.names)), ("combinations", f"{len(obj):,}")]
        if obj.trials is not None:
            facts.append(("trials", f"{obj.trials:,}"))
        return "", facts
    if kind == "StepsResult":
        cut = obj.tail > NOISE
        facts = [(f"mean {obj.quantity}" + (" of the runs ending within the table" if cut else ""),
                  _number(obj.mean) + _plus_minus(obj.mean_stderr, False))]
        if cut:
            facts.append(("beyond the table", _percent(obj.tail)))
        if obj.method == "simulate":
            facts += [("trials", f"{obj.trials:,}"), ("seed", str(obj.seed))]
        settings = {k: v for k, v in obj.params.items() if not isinstance(v, (list, tuple, dict))}
        return f"{obj.method} · {_params(settings)}", facts
    if kind in ("DramaResult", "BurnResult"):
        # Cell by cell from each column: a row of mixed columns is one float Series, which
        # would round a 64-bit seed (3455801360657544005 shown as ...544,192).
        facts = [(readable(name), _cell(name, obj.summary[name].iloc[0])) for name in obj.summary.columns]
        return "simulated", facts
    if kind == "LadderSolution":
        where = [f"pool {obj.pool}"] if obj.pool is not None else []
        if len(obj.pools) > 1:
            where.append(f"order kept over {min(obj.pools)}-{max(obj.pools)}"
                         if list(obj.pools) == list(range(min(obj.pools), max(obj.pools) + 1))
                         else f"order kept over {', '.join(map(str, obj.pools))}")
        facts = [("ordered", "yes" if obj.ordered else "no"),
                 ("unreachable", ", ".join(obj.unreachable) or "none")]
        facts += [("conflict", obj.describe(c)) for c in obj.conflicts]
        facts += [("outside the range", obj.describe(c)) for c in obj.outside]
        return " · ".join([obj.system, *where]), facts
    raise TypeError(f"no display for {kind}")


def _cell(name, value) -> str:
    if isinstance(value, (bool, np.bool_)) or value is None:
        return _value(value if value is None else bool(value))
    if isinstance(value, (int, np.integer)):
        if str(name) == "seed":  # as typed back in, digit for digit (as results' seeds show)
            return str(int(value))
        return f"{int(value):,}" if abs(int(value)) >= 10_000 else str(int(value))
    if isinstance(value, (float, np.floating)):
        if _PROBABILITY_NAME.search(str(name)) or isinstance(name, (int, np.integer)):
            return _percent(value)
        if float(value).is_integer() and abs(value) >= 10_000:
            return f"{int(value):,}"
        return _number(value)
    return str(value)


def _shown_tables(obj) -> list[tuple[str, Any, int]]:
    """(caption, frame of text, rows left out) for the compact tables of a result."""
    import pandas as pd  # lazy: slow import
    kind = type(obj).__name__
    if kind in ("Distribution", "CheckResult", "VersusResult"):
        if kind == "Distribution":
            dists = [("outcome", obj)]
        elif kind == "CheckResult":
            dists = [("outcome", obj.pmf), ("tier", obj.tiers)]
            dists += [(name, dist) for name, dist in (obj.stats or {}).items()
                      if name != "total" and len(dist) <= TABLE_ROWS]
        else:
            dists = [("margin", obj.margin)]
        out = []
        for caption, dist in dists:
            if dist is None:
                continue
            rows = cut_tails(dist.outcomes, dist.probabilities, _percent_resolution())
            frame = pd.DataFrame({caption: [r[0] for r in rows],
                                  "probability": [_percent(r[1]) for r in rows]})
            if dist.trials is not None:
                errors = dict(zip(map(str, dist.outcomes), dist.stderr))
                frame["stderr"] = ["" if tail else _percent(errors[label]) for label, _, tail in rows]
            out.append(("", frame, 0))
        return out
    if kind == "Roll":
        return []
    if kind == "LadderSolution":
        frame = obj.pools_table()
        frame["reachable"] = frame["reachable"].map({True: "yes", False: "no"})
        return [("rungs", format_numbers(frame, NumberFormat("percent", 1)), 0)]
    full = to_frame(obj)
    shown = full.head(TABLE_ROWS)
    text = pd.DataFrame({readable(c): [_cell(c, v) for v in shown[c]] for c in shown.columns})
    caption = {"StepsResult": obj.quantity if kind == "StepsResult" else "",
               "DramaResult": "per check", "BurnResult": "per check", "Joint": "combinations"}[kind]
    return [(caption, text, len(full) - len(shown))]


def html(obj) -> str:
    """The notebook view of a result: its name, key figures, and compact tables."""
    subtitle, facts = _facts(obj)
    parts = [f'<div class="workbench-result"><strong>{type(obj).__name__}</strong>']
    if subtitle:
        parts.append(f" <span style=\"color:#555\">{html_lib.escape(subtitle)}</span>")
    if facts:
        parts.append('<table class="workbench-facts"><tr>'
                     + "".join(f"<th>{html_lib.escape(k)}</th>" for k, _ in facts) + "</tr><tr>"
                     + "".join(f"<td>{html_lib.escape(v)}</td>" for _, v in facts) + "</tr></table>")
    tables = _shown_tables(obj)
    if tables:
        parts.append('<div style="display:flex;gap:2em;align-items:flex-start">')
        for caption, frame, more in tables:
            body = frame.to_html(index=False, border=0, escape=True, classes="workbench-table")
            note = (f"<div style=\"color:#555\">… {more} more rows in to_frame()</div>"
                    if more else "")
            parts.append(f"<div><em>{html_lib.escape(caption)}</em>{body}{note}</div>")
        parts.append("</div>")
    parts.append("</div>")
    return "".join(parts)


def text(obj) -> str:
    """The plain-text view of a result (its ``repr``): name, key figures, and for
    distributions the outcomes with their probabilities."""
    subtitle, facts = _facts(obj)
    head = type(obj).__name__ + (f" {subtitle}" if subtitle else "")
    lines = [head]
    if facts:
        lines.append("  " + "; ".join(f"{k} {v}" for k, v in facts))
    kind = type(obj).__name__
    dist = (obj if kind == "Distribution" else obj.pmf if kind == "CheckResult"
            else obj.margin if kind == "VersusResult" else None)
    if dist is not None:
        rows = cut_tails(dist.outcomes, dist.probabilities, _percent_resolution())
        listed = [f"{label}: {_percent(p)}" for label, p, _ in rows[:TEXT_OUTCOMES]]
        more = f", … {len(rows) - TEXT_OUTCOMES} more" if len(rows) > TEXT_OUTCOMES else ""
        lines.append("  " + ", ".join(listed) + more)
    elif kind not in ("Roll", "LadderSolution", "Joint"):
        lines.append("  (to_frame() for the table)")
    return "\n".join(lines)


register_views(to_frame=to_frame, html=html, text=text)
