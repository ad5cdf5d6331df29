"""The explorer's views of one check, as plotly JSON: its outcomes (or tiers) stacked per rung,
and the roll's distribution, at least and at most each outcome.

Every entry gets a panel of its own, with its own colour scale from worst (red) to best (blue)
and, in the one-check view, its own legend beside its panel, best at the top as its stack.
"""
from __future__ import annotations

import textwrap

from ..figures.pieces import method_note
from ..figures.frames import Z_95
from ..figures.style import line_colour, outcome_colours
from .data import TAIL, Check, Spread, entry_checks, entry_spread
from .layout import (FRAME_HEIGHT, MARGIN, figure_json, panel_axes, panel_title, percent_y,
                     room_for_titles, stretch_rows, title, wrap)
from .settings import AS_SET, ExplorerSettings

#: Height of one legend entry and of a legend's title (pixels at the explorer's font).
LEGEND_ENTRY_PX = 19
LEGEND_TITLE_PX = 34
#: Characters on one line of a column label and of a legend entry or title.
COLUMN_LINE = 12
LEGEND_LINE = 26
#: Height of one entry's row of panels in the one-check view (taller when its legend is).
ONE_CHECK_ROW = 250
#: Height of one entry's row in the distribution views (with the gap for its two-line title).
ENTRY_ROW = 300
ENTRY_GAP = 115


def outcome_name(outcome, kind: str, numeric_name: str) -> str:
    """How an outcome reads in a legend: ``net 2`` (a count), ``total 7``, or its own label.

    Example:
        >>> outcome_name(2, "outcome", "net"), outcome_name("Success", "tier", "net")
        ('net 2', 'Success')
    """
    if isinstance(outcome, int) and kind == "outcome":
        return f"{numeric_name} {outcome}"
    return str(outcome)


def _numeric_name(settings: ExplorerSettings, index: int) -> str:
    """Counts of the seeds' systems are net successes; a system with statistics reads a total."""
    sys_ = settings.entries[index].system_object
    return "total" if getattr(sys_.mechanic, "statistics", None) is not None else "net"


def _ordered(checks: tuple[Check, ...]) -> list:
    """Every outcome of an entry's checks, worst first."""
    seen: list = []
    for check in checks:
        seen += [o for o in check.outcomes if o not in seen]
    if all(isinstance(o, int) for o in seen):
        return sorted(seen)
    return seen


def buckets(order: list, checks: tuple[Check, ...]) -> list[tuple[str | None, list]]:
    """The outcomes an entry's stacks show: each on its own, except that numbers at the ends
    whose chances add up to under :data:`~workbench.widgets.data.TAIL` in every check join
    their neighbour (``≥ 7``), so a long exploding tail neither fills the legend nor pushes
    the colours that matter to one end of the scale. Returns ``(mark, outcomes)`` pairs:
    ``mark`` is ``"≤"``, ``"≥"`` or ``None``.

    Example:
        >>> check = Check(("as set",), "outcome", (0, 1, 2, 3), (0.5, 0.4995, 0.0004, 0.0001))
        >>> buckets([0, 1, 2, 3], (check,))
        [(None, [0]), ('≥', [1, 2, 3])]
    """
    if not all(isinstance(o, int) for o in order) or len(order) < 3:
        return [(None, [o]) for o in order]
    weight = [max(dict(zip(c.outcomes, c.probabilities)).get(o, 0.0) for c in checks) for o in order]
    low, high, cut = 0, len(order), 0.0
    while high - low > 2:
        end = min(weight[low], weight[high - 1])
        if cut + end >= TAIL:
            break
        cut += end
        low, high = (low + 1, high) if weight[low] <= weight[high - 1] else (low, high - 1)
    out = [(None, [o]) for o in order[low:high]]
    if low:
        out[0] = ("≤", order[:low + 1])
    if high < len(order):
        out[-1] = ("≥", order[high - 1:])
    return out


def outcomes_json(settings: ExplorerSettings) -> dict:
    """The one-check view: per entry a panel of stacked columns (one per rung, rungs whose
    checks come out the same share one), outcomes worst (bottom) to best, its own colours and
    its own legend."""
    labels = settings.labels()
    method, trials, seed = settings.method, settings.trials, settings.seed
    every = [entry_checks(entry, method, trials, seed) for entry in settings.entries]
    orders = [buckets(_ordered(checks), checks) for checks in every]
    tallest = max(len(order) for order in orders)
    legend_px = tallest * LEGEND_ENTRY_PX + LEGEND_TITLE_PX
    count = len(settings.entries)
    places, layout, height = panel_axes(count, 1, shared_y_title="probability")
    if count > 1:   # every panel (and the gap under it) as tall as the longest legend
        row_px = max(legend_px + 30, ONE_CHECK_ROW)
        height = row_px * count + FRAME_HEIGHT
        stretch_rows(places, layout, height, ENTRY_GAP)
    else:
        height = max(height, legend_px + MARGIN["t"] + MARGIN["b"] + 40)
    data, notes = [], []
    for index, (checks, order, place) in enumerate(zip(every, orders, places)):
        name = _numeric_name(settings, index)
        columns = [labels[index] if check.rungs == (AS_SET,) else check.name for check in checks]
        ticks = ["<br>".join(textwrap.wrap(c, COLUMN_LINE, break_long_words=False)) or c
                 for c in columns]
        legend = "legend" if index == 0 else f"legend{index + 1}"
        kinds = {check.kind for check in checks}
        data += _stacked_bars(checks, order, columns, name, labels[index], legend, place, method)
        what = "tiers" if kinds == {"tier"} else "outcomes"
        layout[legend] = {**_legend_place(place), "traceorder": "reversed",
                          "title": {"text": wrap(labels[index], LEGEND_LINE)
                                    + f"<br>{what}, best at the top"}}
        layout[place["ykey"]].update(percent_y(range=[0, 1.0001]))
        layout[place["xkey"]].update({"type": "category", "tickvals": columns, "ticktext": ticks,
                                      "tickangle": 0, "automargin": True})
        if count > 1:
            notes.append(panel_title(place, labels[index], 1))
    layout.update(barmode="stack", bargap=0.35, annotations=notes)
    layout["margin"] = room_for_titles(notes[:1])
    heading = "One check" + (f": {labels[0]}" if count == 1 else ", entry by entry")
    return figure_json(data, layout, height=height, legend=layout.pop("legend"),
                       heading=title(heading, method_note(method, trials, seed)
                                     + "; each entry coloured on its own scale, worst red, best blue"))


def _stacked_bars(checks: tuple[Check, ...], order: list, columns: list[str], name: str,
                  label: str, legend: str, place: dict, method: str) -> list[dict]:
    """One entry's stacks: a bar trace a bucket of outcomes (:func:`buckets`), worst first,
    each on the entry's own colour scale, with 95% error bars when simulated."""
    colours = outcome_colours(len(order))
    traces = []
    for rank, (mark, members) in enumerate(order):
        y, errors = [], []
        for check in checks:
            found = [check.outcomes.index(o) for o in members if o in check.outcomes]
            y.append(sum(check.probabilities[i] for i in found))
            errors.append(Z_95 * sum(check.se[i] ** 2 for i in found) ** 0.5
                          if check.se is not None else 0.0)
        end = members[-1] if mark == "≤" else members[0]
        shown = outcome_name(end, checks[0].kind, name)
        if mark:
            shown = f"{name} {mark} {end}"
        trace = {"type": "bar", "x": columns, "y": y,
                 "name": wrap(shown, LEGEND_LINE), "legend": legend,
                 "xaxis": place["xaxis"], "yaxis": place["yaxis"],
                 "marker": {"color": colours[rank], "line": {"color": "white", "width": 0.5}},
                 "hovertemplate": f"<b>{label}</b> · %{{x}}<br>{shown}: %{{y:.2%}}"
                                  + (" ± %{customdata:.2%} (95%)" if method == "simulate" else "")
                                  + "<extra></extra>"}
        if method == "simulate":
            trace["customdata"] = errors
            trace["error_y"] = {"type": "data", "array": errors, "visible": True}
        traces.append(trace)
    return traces


def _legend_place(place: dict) -> dict:
    return {"x": 1.02, "xanchor": "left", "xref": "paper", "y": place["y"][1], "yanchor": "top",
            "yref": "paper", "orientation": "v", "bgcolor": "rgba(255,255,255,0)",
            "font": {"size": 11}}


VIEW_TITLES = {"distribution": "Distribution of one roll",
               "at_least": "At least: the chance of each outcome or better",
               "at_most": "At most: the chance of each outcome or worse"}


def summary(spread: Spread) -> str:
    """A distribution's summary line: mean, SD, median and the middle 50% and 90%.

    Example:
        >>> from workbench.widgets.data import _spread
        >>> import workbench as wb
        >>> summary(_spread(wb.system("uwr"), (("dice", 2),), "exact", 1, None))
        'mean 0.67 · SD 0.67 · median 1 · 50%: 0–1 · 90%: 0–2'
    """
    q = dict(spread.quantiles)
    to = "–" if spread.numeric else " to "   # named outcomes: "NO! to YES!"
    middle = f"median {q[0.5]} · 50%: {q[0.25]}{to}{q[0.75]} · 90%: {q[0.05]}{to}{q[0.95]}"
    if spread.numeric and spread.mean is not None:
        return f"mean {spread.mean:.2f} · SD {spread.sd:.2f} · {middle}"
    return f"named outcomes (no mean) · {middle}"


def distribution_json(settings: ExplorerSettings) -> dict:
    """The distribution, at-least and at-most views: one panel per entry (its roll at the knobs
    as set), with its mean, SD and quantiles under the panel's title."""
    view = settings.view
    labels = settings.labels()
    method, trials, seed = settings.method, settings.trials, settings.seed
    count = len(settings.entries)
    columns = 1
    places, layout, height = panel_axes(count, columns, shared_y_title="probability")
    if count > 1:   # rows as low as a distribution reads well: six entries stay in reach
        height = ENTRY_ROW * count + FRAME_HEIGHT
        stretch_rows(places, layout, height, ENTRY_GAP)
    data, notes = [], []
    trimmed = False
    for index, (entry, place) in enumerate(zip(settings.entries, places)):
        spread = entry_spread(entry, method, trials, seed)
        shown = spread.drawn()
        trimmed = trimmed or len(shown) < len(spread.outcomes)
        values = {"distribution": spread.probabilities, "at_least": spread.at_least(),
                  "at_most": spread.at_most()}[view]
        name = _numeric_name(settings, index)
        x = [spread.outcomes[i] if spread.numeric else str(spread.outcomes[i]) for i in shown]
        y = [values[i] for i in shown]
        what = {"distribution": "", "at_least": "at least ", "at_most": "at most "}[view]
        hover = (f"<b>{labels[index]}</b><br>{what}{name + ' ' if spread.numeric else ''}%{{x}}: "
                 "%{y:.2%}")
        trace = {"x": x, "y": y, "name": labels[index], "showlegend": False,
                 "xaxis": place["xaxis"], "yaxis": place["yaxis"],
                 "hovertemplate": hover + "<extra></extra>"}
        colour = line_colour(index)
        if view == "distribution":
            trace.update(type="bar", marker={"color": colour})
            if spread.se is not None:
                trace["error_y"] = {"type": "data", "array": [Z_95 * spread.se[i] for i in shown],
                                    "visible": True}
        else:
            trace.update(type="scatter", mode="lines+markers", line={"color": colour},
                         marker={"color": colour, "size": 6})
        data.append(trace)
        axis_title = ("net successes" if name == "net" else "total") if spread.numeric else "outcome"
        xaxis = {"title": {"text": axis_title}, "automargin": True}
        if not spread.numeric:
            xaxis.update(type="category")   # plotly turns crowded labels rather than overlap
        elif len(x) <= 20:
            xaxis.update(dtick=1)
        layout[place["xkey"]].update(xaxis)
        top = 1.02 if view != "distribution" else min(1.02, max(y) * 1.15 + 0.002)
        layout[place["ykey"]].update(percent_y(top))
        notes.append(panel_title(place, f"{labels[index]}<br>{summary(spread)}", columns))
    layout.update(annotations=notes, bargap=0.15, showlegend=False)
    layout["margin"] = room_for_titles(notes[:columns])
    note = method_note(method, trials, seed) + "; the roll at the knobs as set (rungs not applied)"
    if trimmed:
        note += "; ends under 0.1% together not drawn"
    heading = VIEW_TITLES[view]
    return figure_json(data, layout, height=height, heading=title(heading, note))
