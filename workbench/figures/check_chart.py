"""One check's chart: its outcomes (or one statistic) as bars coloured worst to best, its tiers
alongside where the system has degrees of success.

Example:
    >>> fig = check_figure("uwr", dice=2)
    >>> fig.layout.title.text.startswith("UWR"), fig.data[0].x
    (True, ('net 0', 'net 1', 'net 2'))
"""
from __future__ import annotations

import math
from typing import Any

import plotly.graph_objects as go

from ..analysis import evaluate
from ..errors import ParameterError
from ..numbers import marked
from ..rules.registry import get_system
from ..rules.system import System
from .pieces import _error_bars, _outcome_name, _percent_hover, method_note, resolved_seed
from .style import DEFAULT_HEIGHT, new_figure, outcome_colours, percent_axis


def check_figure(system: "str | System", method: str = "exact", *, trials: int = 100_000,
                 seed: int | None = None, height: int = DEFAULT_HEIGHT, stat: str | None = None,
                 **params: Any) -> go.Figure:
    """One check's distribution as bars coloured worst to best; its tiers alongside when the
    system has degrees of success. ``stat`` draws one of the system's statistics instead of
    the total (``workbench.system(...).statistic_names`` lists them).

    Example:
        >>> fig = check_figure("unnamed", d6=3)
        >>> [trace.name for trace in fig.data]
        ['outcome', 'tier']
        >>> round(sum(check_figure("uwr", dice=2).data[0].y), 10)
        1.0
    """
    seed = resolved_seed(method, seed)
    sys_ = get_system(system)
    result = evaluate(sys_, dict(params), method, trials, seed)
    if stat is not None and stat not in sys_.statistic_names:
        raise ParameterError(sys_.id, "stat", stat, "one of " + ", ".join(sys_.statistic_names))
    parts = [("outcome", result.stats[stat] if stat is not None and result.stats else result.pmf)]
    if result.tiers is not None:
        parts.append(("tier", result.tiers))
    # A true/false statistic (a condition such as a critical or a botch) has two outcomes, no
    # and yes, and no direction: which one is good is the system's to say, so neither is drawn
    # in the worst-to-best colours, and no numeric axis runs from -0.5 to 1.5.
    flag = stat is not None and stat in _flags(sys_)
    traces = []
    trimmed = ""
    for index, (kind, dist) in enumerate(parts):
        trace, cut = _check_bars(sys_, result, kind, dist, index, stat, flag, method)
        traces.append(trace)
        trimmed = trimmed or cut
    # Each axis ends a little above its own tallest bar (with room for its label): a spread
    # of 1% totals is not flattened against the 0-50% of the tiers beside it.
    tops = [min(1.05, max(trace["y"], default=1.0) * 1.15 + 0.02) for trace in traces]
    named = stat or ("total" if result.stats else None)
    layout = _check_axes(len(traces[0]["x"]), tops, named, trimmed)
    given = ", ".join(f"{k}={v}" for k, v in params.items()) or "defaults"
    x_title = "outcome" if sys_.outcome_labels else (named or "successes") + trimmed
    if flag:
        layout.setdefault("xaxis", {})["type"] = "category"
        x_title = f"{stat} (a true/false statistic)"
    return new_figure(f"{sys_.name}: one check ({given})", x_title, "probability", traces=traces,
                      subtitle=(f"P(pass) {marked(result.p_pass, 1)} · " if result.p_pass is not None
                                else "no target set · ") + method_note(method, trials, seed),
                      y="percent", yaxis={"range": [0, tops[0]], "tickformat": SHORT_PERCENT},
                      height=height, **layout)


def _check_bars(sys_, result, kind: str, dist, index: int, stat: str | None, flag: bool,
                method: str) -> tuple[dict, str]:
    """The bars of one part of a check's chart (``kind``: its outcomes or its tiers, the
    ``index``-th axes), and what the axis title adds when negligible ends are not drawn."""
    axis = "" if index == 0 else str(index + 1)
    net = kind == "outcome" and not sys_.outcome_labels and not result.stats   # the seeds' nets
    if kind == "outcome" and flag:
        x = ["no" if int(o) == 0 else "yes" for o in dist.outcomes]
    else:
        x = [_outcome_name(o) if net else str(o) for o in dist.outcomes]
    y = [float(p) for p in dist.probabilities]
    se = (list(dist.stderr) if dist.stderr is not None else [math.nan] * len(x))
    trimmed = ""
    if kind == "outcome" and not sys_.outcome_labels and not flag:
        keep = _drawn_span(y)
        if len(keep) < len(y):
            trimmed = f" (ends under {TAIL:.1%} together not drawn)"
        x, y, se = ([v[i] for i in keep] for v in (x, y, se))
    error_y = _error_bars([float(v) for v in se])
    if kind == "outcome" and flag:
        colours = [FLAG_COLOURS[label] for label in x]
    elif kind == "outcome" and not _higher_is_better(sys_, stat):
        colours = [NEUTRAL_BAR] * len(x)   # no direction known: one colour, not worst-to-best
    else:
        colours = outcome_colours(len(x))
    trace = {"type": "bar", "x": x, "y": y, "name": kind, "xaxis": f"x{axis}",
             "yaxis": f"y{axis}", "showlegend": False, "error_y": error_y,
             "customdata": error_y["array"] if error_y else None,
             "marker": {"color": colours},
             "text": [marked(v, 0) if v >= 0.005 else "" for v in y],
             "textposition": "outside", "cliponaxis": False,
             "hovertemplate": f"%{{x}}: {_percent_hover(method)}<extra></extra>"}
    return trace, trimmed


def _check_axes(bars: int, tops: list[float], named: str | None, trimmed: str) -> dict:
    """The layout of a check's axes: the outcomes' ticks thinned when there are many bars,
    and with tiers (``tops`` of two axes) the two charts side by side."""
    # Every bar keeps its label while they fit (about 10 beside the tiers, 20 alone); past
    # that every second (third...) bar is labelled, so labels never run into each other.
    most = 10 if len(tops) == 2 else 20
    step = {"tickmode": "linear", "tick0": 0, "dtick": math.ceil(bars / most)} if bars > most else {}
    if len(tops) != 2:
        return {"xaxis": step} if step else {}
    return {"xaxis": {"domain": [0, 0.55], "title": {"text": (named or "net successes") + trimmed},
                      **step},
            "xaxis2": {"domain": [0.63, 1], "anchor": "y2", "title": {"text": "tier"},
                       "tickangle": -30},
            "yaxis2": {"anchor": "x2", **percent_axis(range=[0, tops[1]], tickformat=SHORT_PERCENT)}}


#: The two bars of a true/false statistic: neither is "worst" or "best".
FLAG_COLOURS = {"no": "#9e9e9e", "yes": "#0072b2"}


#: Ticks of a short probability axis: 0.5%, 1%, 1.5% (never two ticks both reading 1%).
SHORT_PERCENT = ".1~%"
#: Bars of outcomes with no known better end (a statistic, a total read by ``pass_if``).
NEUTRAL_BAR = "#5b8db8"


def _higher_is_better(sys_, stat: str | None) -> bool:
    """Whether a higher value of what is drawn is a better roll, as the system says it: the
    total of a system that passes at a target (total >= target) or by label. A roll-under
    total (Call of Cthulhu's ``pass_if = "total <= skill"``) or a statistic (more ones may be
    worse) has no such direction, so its bars are not coloured worst to best."""
    if stat not in (None, "total"):
        return False
    if sys_.outcome_labels:
        return True
    return getattr(sys_.mechanic, "pass_condition", None) is None


def _flags(sys_) -> tuple[str, ...]:
    """The system's true/false statistics (conditions such as ``critical``)."""
    statistics = getattr(sys_.mechanic, "statistics", None)
    return tuple(statistics.flags) if statistics is not None else ()


TAIL = 0.001
"""Outcomes at either end of a check whose probabilities add up to less than this are left
out of its bar chart (a long exploding tail otherwise squeezes the bars that matter into a
corner; tables and ``pmf`` keep every outcome)."""


def _drawn_span(probabilities: list[float]) -> list[int]:
    """Indices of the bars drawn: everything but the negligible ends.

    Example:
        >>> _drawn_span([0.0002, 0.5, 0.4997, 0.0001, 0.0001])
        [1, 2]
    """
    low, high, cut = 0, len(probabilities), 0.0
    while high - low > 1:
        from_low = probabilities[low] <= probabilities[high - 1]  # drop the smaller end first
        end = probabilities[low] if from_low else probabilities[high - 1]
        if cut + end >= TAIL:
            break
        cut += end
        low, high = (low + 1, high) if from_low else (low, high - 1)
    return list(range(low, high))
