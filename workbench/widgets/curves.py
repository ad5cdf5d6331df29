"""The explorer's curve views as plotly JSON: P(pass) as the pool grows, and each entry minus
the baseline. Entries whose pool axes differ (dice, a skill, a stat, a die size) get panels of
their own (:mod:`.axes`); one colour per entry, one dash and marker per rung, the legend
grouped by entry under its name (each line named by its rung alone).
"""
from __future__ import annotations

from ..figures.pieces import SYMBOLS, method_note
from ..figures.frames import Z_95
from ..figures.style import DASHES, line_colour, pp_axis
from .axes import Axis, entry_axis, point_texts
from .data import Curve, entry_curves
from .layout import (MARGIN, TITLE_LINE_PX, figure_json, message_figure, panel_axes, panel_title, percent_y,
                     room_for_titles, ticks_for, title, wrap)
from .settings import ExplorerSettings


#: Characters on one line of a subtitle (a long list of entries left out wraps).
SUBTITLE_LINE = 90


def _options(settings: ExplorerSettings) -> tuple:
    return settings.method, settings.trials, settings.seed


def entry_axes(settings: ExplorerSettings) -> list[Axis]:
    """Each entry's axis (see :func:`.axes.entry_axis`)."""
    return [entry_axis(e.system_object, settings.pool_sizes, e.chosen_rungs())
            for e in settings.entries]


def panels(axes: list[Axis]) -> dict[tuple, list[int]]:
    """Entry indices by panel (entries sharing an axis share a panel), in entry order."""
    out: dict[tuple, list[int]] = {}
    for index, axis in enumerate(axes):
        out.setdefault(axis.key, []).append(index)
    return out


def _style(entry_index: int, rung_index: int) -> dict:
    colour = line_colour(entry_index)
    return {"line": {"color": colour, "dash": DASHES[rung_index % len(DASHES)], "width": 2},
            "marker": {"symbol": SYMBOLS[rung_index % len(SYMBOLS)], "color": colour, "size": 6}}


def _errors(se, scale: float = 1.0):
    if se is None:
        return None
    return [Z_95 * scale * v for v in se]


def legend_words(label: str, rungs: tuple[str, ...]) -> tuple[str, dict[str, str]]:
    """An entry's legend group title and each rung's item name, no word said twice: a label
    that already ends with the one rung drawn (``UWR · Normal``) loses it in the title; a
    label that is the rung itself names its item ``P(pass)``.

    Example:
        >>> legend_words("UWR · Normal", ("Normal",))
        ('UWR', {'Normal': 'Normal'})
        >>> legend_words("uwr favor=1", ("Easy", "Normal"))
        ('uwr favor=1', {'Easy': 'Easy', 'Normal': 'Normal'})
        >>> legend_words("Normal", ("Normal",))
        ('Normal', {'Normal': 'P(pass)'})
    """
    parts = label.split(" · ")
    names = {rung: rung for rung in rungs}
    if len(rungs) == 1 and len(parts) > 1 and parts[-1] == rungs[0]:
        return " · ".join(parts[:-1]), names
    return label, {rung: ("P(pass)" if rung in parts else rung) for rung in rungs}


def _trace(curve: Curve, label: str, entry_index: int, rung_index: int, axis: Axis,
           place: dict, y: list[float], se: list[float] | None, value_format: str,
           title: str | None = None, name: str | None = None) -> dict:
    """One rung's line (a bar per rung where nothing grows)."""
    title, name = title or label, name or curve.rung
    x = list(curve.x)
    points = point_texts(axis, curve.x)
    errors = _errors(se, 100.0 if value_format == "pp" else 1.0)
    shown = "%{y:+.2f} pp" if value_format == "pp" else "%{y:.2%}"
    if errors is not None:
        shown += " ± %{customdata[1]:.2f} pp (95%)" if value_format == "pp" else \
            " ± %{customdata[1]:.2%} (95%)"
    trace = {"x": x, "y": y, "name": name, "legendgroup": label,
             "legendgrouptitle": {"text": title}, "xaxis": place["xaxis"], "yaxis": place["yaxis"],
             "customdata": [[p, e] for p, e in zip(points, errors or [0.0] * len(points))],
             "hovertemplate": f"<b>{title}</b> · {name}<br>%{{customdata[0]}}: {shown}"
                              "<extra></extra>"}
    if errors is not None:
        trace["error_y"] = {"type": "data", "array": errors, "visible": True}
    if axis.kind == "rungs":
        trace.update(type="bar", marker={"color": line_colour(entry_index)})
    else:
        trace.update(type="scatter", mode="lines+markers", **_style(entry_index, rung_index))
    return trace


def curve_json(settings: ExplorerSettings) -> dict:
    """The success-curve view: P(pass) against each entry's pool axis, one panel per axis."""
    labels = settings.labels()
    axes = entry_axes(settings)
    groups = panels(axes)
    columns = 1 if len(groups) <= 2 else 2
    places, layout, height = panel_axes(len(groups), columns, shared_y_title="P(pass)")
    data, notes = [], []
    for place, (key, members) in zip(places, groups.items()):
        axis = axes[members[0]]
        xs: list = []
        for index in members:
            entry = settings.entries[index]
            curves = entry_curves(entry, axes[index], *_options(settings))
            group, names = legend_words(labels[index], tuple(c.rung for c in curves))
            for rung_index, curve in enumerate(curves):
                data.append(_trace(curve, labels[index], index, rung_index, axes[index], place,
                                   list(curve.y), None if curve.se is None else list(curve.se),
                                   "percent", group, names[curve.rung]))
                xs += [v for v in curve.x if v not in xs]
        layout[place["ykey"]].update(percent_y())
        layout[place["xkey"]].update({"title": {"text": _axis_title(axis, settings, members)},
                                      **_x_axis(axis, xs)})
        if len(groups) > 1:
            notes.append(panel_title(place, " · ".join(labels[i] for i in members), columns))
    layout["annotations"] = notes
    layout["margin"] = room_for_titles(notes[:columns])
    layout["barmode"] = "group"
    dice_only = set(groups) == {("dice",)}
    heading = ("P(pass) against dice in the pool" if dice_only else
               "P(pass) as the pool grows" + (", one panel per kind of pool" if len(groups) > 1 else ""))
    if len(settings.entries) == 1:
        only = settings.entries[0].system_object
        edited = " (edited)" if only.collection == "edited" else ""
        heading = f"{only.name}{edited}: {heading}"
    return figure_json(data, layout, height=height, heading=title(heading, _note(settings)),
                       legend={"traceorder": "grouped", "title": {"text": "entry · rung"}})


def _note(settings: ExplorerSettings, extra: str = "") -> str:
    return method_note(*_options(settings)) + extra


def _axis_title(axis: Axis, settings: ExplorerSettings, members: list[int]) -> str:
    """What the axis grows (the panel's title names its entries)."""
    return axis.title


#: Characters on one line of a category's tick label (a rung named ``total >= 12`` wraps).
TICK_LINE = 9


def _x_axis(axis: Axis, xs: list) -> dict:
    if axis.categorical:   # labels lie flat, wrapped: neighbours in a narrow panel never meet
        values = [str(v) for v in axis.values]
        return {"type": "category", "categoryorder": "array", "categoryarray": values,
                "tickmode": "array", "tickvals": values,
                "ticktext": [wrap(v, TICK_LINE) for v in values], "tickangle": 0,
                "automargin": True}
    return ticks_for(sorted(xs))


def _pairs(mine: tuple[str, ...], theirs: tuple[str, ...]) -> dict[str, str]:
    """Rungs pair by name when the baseline has every rung, else in ladder order."""
    if all(r in theirs for r in mine):
        return {r: r for r in mine}
    return dict(zip(mine, theirs))


def difference_json(settings: ExplorerSettings) -> dict:
    """Each entry's P(pass) minus the baseline's, rung by rung, in percentage points; only
    entries on the baseline's pool axis (a skill is not compared with a number of dice)."""
    labels = settings.labels()
    base = settings.baseline
    heading = f"P(pass) minus {labels[base]}"
    if len(settings.entries) < 2:
        return message_figure(heading, "The difference view compares entries with a baseline.<br>"
                              "Add a second system or variant (<i>add system</i> above):<br>"
                              "each is then drawn minus the first, in percentage points.")
    axes = entry_axes(settings)
    compared = [i for i, axis in enumerate(axes) if i != base and axis.key == axes[base].key]
    skipped = [labels[i] for i, axis in enumerate(axes) if i != base and axis.key != axes[base].key]
    left_out = (f"; not compared (another kind of pool): {', '.join(skipped)}" if skipped else "")
    if not compared:
        return message_figure(heading, f"Nothing to compare with {labels[base]}: the other entries "
                              "grow another kind of pool<br>(a skill is not compared with a number "
                              "of dice). Add a system or variant<br>with the same pool, or choose "
                              "another baseline.", subtitle=_note(settings))
    base_curves = {c.rung: c for c in entry_curves(settings.entries[base], axes[base],
                                                    *_options(settings))}
    places, layout, height = panel_axes(1, 1, shared_y_title="difference in P(pass) (pp)")
    place = places[0]
    data, xs = [], []
    for index in compared:
        curves = entry_curves(settings.entries[index], axes[index], *_options(settings))
        pairs = _pairs(tuple(c.rung for c in curves), tuple(base_curves))
        drawn = [c for c in curves if c.rung in pairs]
        group, _ = legend_words(labels[index], tuple(c.rung for c in drawn))
        for rung_index, curve in enumerate(drawn):
            other = base_curves[pairs[curve.rung]]
            theirs = dict(zip(other.x, other.y))
            their_se = dict(zip(other.x, other.se)) if other.se is not None else None
            keep = [i for i, x in enumerate(curve.x) if x in theirs]
            x = [curve.x[i] for i in keep]
            y = [100.0 * (curve.y[i] - theirs[curve.x[i]]) for i in keep]
            se = None
            if curve.se is not None and their_se is not None:
                se = [(curve.se[i] ** 2 + their_se[curve.x[i]] ** 2) ** 0.5 for i in keep]
            named = curve.rung if pairs[curve.rung] == curve.rung else \
                f"{curve.rung} vs {pairs[curve.rung]}"
            shown = Curve(named, tuple(x), tuple(y))
            data.append(_trace(shown, labels[index], index, rung_index, axes[index], place, y,
                               se, "pp", group, None if named != group else "P(pass)"))
            xs += [v for v in x if v not in xs]
    layout[place["ykey"]].update(pp_axis())
    layout[place["xkey"]].update({"title": {"text": _axis_title(axes[base], settings, [base, *compared])},
                                  **_x_axis(axes[base], sorted(xs) if not axes[base].categorical else xs)})
    layout["barmode"] = "group"
    subtitle = wrap(_note(settings, "; percentage points" + left_out), SUBTITLE_LINE)
    layout["margin"] = {**MARGIN, "t": MARGIN["t"] + TITLE_LINE_PX * subtitle.count("<br>")}
    return figure_json(data, layout, height=height,
                       heading=title(heading, wrap(_note(settings, "; percentage points" + left_out),
                                                   SUBTITLE_LINE)),
                       legend={"traceorder": "grouped", "title": {"text": "entry · rung"}})
