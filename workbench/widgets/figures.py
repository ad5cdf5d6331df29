"""Pure figure functions: :class:`ExplorerSettings` in, a plotly figure out (no widgets).

Each view is made in two steps: gather the numbers into a pandas frame (``curve_frame``,
``outcome_frame``, ``difference_frame``), then draw that frame. Tests compare the frames and
the traces with :func:`workbench.check`; the explorer calls :func:`figure` on every change.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative, sample_colorscale

from ..analysis import evaluate, success_curve
from ..rules.system import Rung, System
from .settings import AS_SET, EntrySettings, ExplorerSettings

Z_95 = 1.96
"""Error bars of simulated results span this many standard errors (a 95% interval)."""
_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
_PALETTE = qualitative.Plotly + qualitative.D3


def _rung_params(system: System, rung: str, knobs: dict[str, Any]) -> dict[str, Any]:
    return dict(knobs) if rung == AS_SET else system.with_rung(rung, **knobs)


# -- gathering ---------------------------------------------------------------------------
def curve_frame(settings: ExplorerSettings) -> pd.DataFrame:
    """P(pass) per entry, rung and pool size: columns label, system, pool, rung, p_pass, stderr.

    ``stderr`` is NaN for exact results. A system without a pool parameter gives the same
    value at every pool size.

    Example:
        >>> from workbench.widgets.settings import EntrySettings
        >>> s = ExplorerSettings((EntrySettings("uwr", rungs=("Normal",)),), pool_sizes=(1, 2))
        >>> [round(p, 4) for p in curve_frame(s)["p_pass"]]
        [0.3333, 0.5556]
    """
    frames = [_entry_curve(entry, label, settings.pool_sizes, settings.method, settings.trials,
                           settings.seed)
              for entry, label in zip(settings.entries, settings.labels())]
    return pd.concat(frames, ignore_index=True)


@lru_cache(maxsize=256)
def _entry_curve(entry: EntrySettings, label: str, pool_sizes: tuple[int, ...], method: str,
                 trials: int, seed: int | None) -> pd.DataFrame:
    # Memoised per entry: moving one entry's knob leaves the other overlaid curves as they
    # were, so only the moved entry is recomputed. Settings are frozen, hence hashable keys;
    # a data file edited on disk is re-read only by a new session (as the registry does).
    sys_ = entry.system_object
    knobs = {k: v for k, v in entry.params if k != sys_.pool_parameter}
    rungs = [Rung(AS_SET) if name == AS_SET else name for name in entry.chosen_rungs()]
    frame = success_curve(sys_, pool_sizes, rungs, label=label, method=method, trials=trials,
                          seed=seed, **knobs)
    if "stderr" not in frame:
        frame["stderr"] = math.nan
    frame["p_pass"] = pd.to_numeric(frame["p_pass"], errors="coerce")
    frame["stderr"] = pd.to_numeric(frame["stderr"], errors="coerce")
    return frame


def difference_frame(settings: ExplorerSettings) -> pd.DataFrame:
    """Each entry's P(pass) minus the baseline entry's, per pool size and paired rung.

    Rungs pair by name when the baseline has every rung of the entry; otherwise (UWR's Easy
    against FoNS's Trivial) they pair in ladder order. Columns: label, baseline, rung,
    baseline_rung, pool, p_pass, baseline_p_pass, difference, stderr.

    Example:
        >>> from workbench.widgets.settings import EntrySettings
        >>> s = ExplorerSettings((EntrySettings("uwr"), EntrySettings("uwr", {"favor": 1})),
        ...                      view="difference", pool_sizes=(1,))
        >>> frame = difference_frame(s)
        >>> round(frame.loc[frame.rung == "Normal", "difference"].item(), 4)
        0.1667
    """
    curves = curve_frame(settings)
    labels = settings.labels()
    base_label = labels[settings.baseline]
    base = curves[curves["label"] == base_label]
    base_rungs = list(dict.fromkeys(base["rung"]))
    columns = ["label", "baseline", "rung", "baseline_rung", "pool", "p_pass",
               "baseline_p_pass", "difference", "stderr"]
    theirs = base[["rung", "pool", "p_pass", "stderr"]].rename(columns={
        "rung": "baseline_rung", "p_pass": "baseline_p_pass", "stderr": "baseline_stderr"})
    parts = []
    for label in labels:
        if label == base_label:
            continue
        mine = curves[curves["label"] == label]
        my_rungs = list(dict.fromkeys(mine["rung"]))
        if all(r in base_rungs for r in my_rungs):
            pairs = {r: r for r in my_rungs}
        else:
            pairs = dict(zip(my_rungs, base_rungs))
        mine = mine[mine["rung"].isin(list(pairs))].assign(
            baseline_rung=lambda f: f["rung"].map(pairs), baseline=base_label)
        parts.append(mine.merge(theirs, on=["baseline_rung", "pool"], how="inner"))
    if not parts:
        return pd.DataFrame(columns=columns)
    out = pd.concat(parts, ignore_index=True)
    out["difference"] = out["p_pass"] - out["baseline_p_pass"]
    out["stderr"] = (out["stderr"] ** 2 + out["baseline_stderr"] ** 2) ** 0.5
    return out[columns]


def outcome_frame(settings: ExplorerSettings) -> pd.DataFrame:
    """One check per entry and rung: its tier distribution where the system has tiers, else
    its outcome distribution. Columns: column, label, rung, outcome, position, share,
    probability, stderr, kind (``"tier"`` or ``"outcome"``).

    ``column`` names the stacked column; ``share`` places the outcome on a worst-to-best
    colour scale (0 worst, 1 best).

    Example:
        >>> from workbench.widgets.settings import EntrySettings
        >>> s = ExplorerSettings((EntrySettings("erzahlspiel"),), view="outcomes")
        >>> frame = outcome_frame(s)
        >>> list(dict.fromkeys(frame["column"]))
        ['black', 'red', 'yellow', 'green', 'blue']
    """
    rows = []
    labels = settings.labels()
    several = len(settings.entries) > 1
    for entry, label in zip(settings.entries, labels):
        sys_ = entry.system_object
        rungs = entry.chosen_rungs()
        for rung in rungs:
            params = _rung_params(sys_, rung, entry.knobs)
            result = evaluate(sys_, params, settings.method, settings.trials, settings.seed)
            dist, kind = ((result.tiers, "tier") if result.tiers is not None
                          else (result.pmf, "outcome"))
            if rung == AS_SET:
                column = label
            else:
                column = f"{label} · {rung}" if several else rung
            errors = dist.stderr if dist.stderr is not None else [math.nan] * len(dist)
            last = max(len(dist) - 1, 1)
            for position, ((outcome, p), se) in enumerate(zip(dist.items(), errors)):
                rows.append({"column": column, "label": label, "rung": rung,
                             "outcome": outcome, "position": position, "share": position / last,
                             "probability": p, "stderr": float(se), "kind": kind})
    return pd.DataFrame(rows)


# -- drawing -----------------------------------------------------------------------------
def _percent_with_error(method: str) -> str:
    return "%{y:.3%} ± %{customdata:.3%} (95%)" if method == "simulate" else "%{y:.4%}"


def _error_bars(values: list[float]) -> dict | None:
    if all(math.isnan(v) for v in values):
        return None
    return {"type": "data", "array": [Z_95 * v for v in values], "visible": True}


def _method_note(settings: ExplorerSettings) -> str:
    if settings.method == "exact":
        return "exact"
    return f"simulated: {settings.trials:,} trials, seed {settings.seed}; bars ±{Z_95} s.e."


def _pool_axis_title(settings: ExplorerSettings) -> str:
    names = list(dict.fromkeys(e.system_object.pool_parameter for e in settings.entries
                               if e.system_object.pool_parameter))
    return "dice in the pool" + (f" ({' / '.join(names)})" if names else "")


def _build(traces: list[dict], title: str, x_title: str, y_title: str, **layout: Any) -> go.Figure:
    # Traces and layout are plain dicts validated once by one constructor: adding traces one
    # by one, or applying a named template (~25 ms), would eat the explorer's 100 ms budget.
    axis = {"showgrid": True, "gridcolor": "#e6e6e6", "zeroline": False, "linecolor": "#888"}
    base = {"template": "none", "title": {"text": title}, "height": 520,
            "plot_bgcolor": "white", "paper_bgcolor": "white", "hovermode": "closest",
            "xaxis": {**axis, "title": {"text": x_title}},
            "yaxis": {**axis, "title": {"text": y_title}, **layout.pop("yaxis", {})},
            "legend": {"title": {"text": ""}, **layout.pop("legend", {})},
            "margin": {"t": 70, "r": 20}, **layout}
    return go.Figure(data=traces, layout=base)


def _line(x, y, stderr, name: str, hover: str, **style: Any) -> dict:
    stderr = [float(v) for v in stderr]
    error_y = _error_bars(stderr)
    return {"type": "scatter", "x": [int(v) for v in x], "y": [float(v) for v in y],
            "name": name, "mode": "lines+markers",
            "customdata": error_y["array"] if error_y else None,
            "error_y": error_y, "hovertemplate": hover, "line": style}


def curve_figure(settings: ExplorerSettings, frame: pd.DataFrame | None = None) -> go.Figure:
    """Success curves: one line per entry and rung, P(pass) against dice in the pool."""
    frame = curve_frame(settings) if frame is None else frame
    labels = list(dict.fromkeys(frame["label"]))
    traces = []
    for index, ((label, rung), part) in enumerate(frame.groupby(["label", "rung"], sort=False)):
        hover = (f"<b>{label}</b> · {rung}<br>%{{x}} dice: "
                 f"{_percent_with_error(settings.method)}<extra></extra>")
        traces.append(_line(part["pool"], part["p_pass"], part["stderr"], f"{label} · {rung}",
                            hover, color=_PALETTE[index % len(_PALETTE)],
                            dash=_DASHES[labels.index(label) % len(_DASHES)]))
    return _build(traces, f"P(pass) against dice in the pool — {_method_note(settings)}",
                  _pool_axis_title(settings), "P(pass)",
                  yaxis={"tickformat": ".0%", "range": [-0.02, 1.02]})


def difference_figure(settings: ExplorerSettings, frame: pd.DataFrame | None = None) -> go.Figure:
    """Each entry's success curve minus the baseline's, in percentage points."""
    frame = difference_frame(settings) if frame is None else frame
    base_label = settings.labels()[settings.baseline]
    groups = frame.groupby(["label", "rung", "baseline_rung"], sort=False) if len(frame) else []
    traces = []
    for index, ((label, rung, base_rung), part) in enumerate(groups):
        paired = rung if rung == base_rung else f"{rung} vs {base_rung}"
        hover = (f"<b>{label}</b> − {base_label} · {paired}<br>%{{x}} dice: "
                 f"{_percent_with_error(settings.method).replace('%{y:', '%{y:+')}<extra></extra>")
        traces.append(_line(part["pool"], part["difference"], part["stderr"],
                            f"{label} · {paired}", hover, color=_PALETTE[index % len(_PALETTE)]))
    zero = {"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": 0, "y1": 0,
            "line": {"color": "grey", "width": 1}}
    return _build(traces, f"P(pass) minus baseline {base_label} — {_method_note(settings)}",
                  _pool_axis_title(settings), "difference in P(pass)",
                  yaxis={"tickformat": "+.0%"}, shapes=[zero])


def _outcome_name(outcome: Any) -> str:
    return f"net {outcome}" if isinstance(outcome, (int,)) else str(outcome)


def outcomes_figure(settings: ExplorerSettings, frame: pd.DataFrame | None = None) -> go.Figure:
    """One stacked column per entry and rung: tiers (or outcomes) from worst (bottom) up."""
    frame = outcome_frame(settings) if frame is None else frame
    columns = list(dict.fromkeys(frame["column"]))
    numeric = sorted({o for o in frame["outcome"] if isinstance(o, int)})
    named = list(dict.fromkeys(o for o in frame["outcome"] if not isinstance(o, int)))
    simulated = settings.method == "simulate"
    traces = []
    for outcome in [*numeric, *named]:
        part = frame[frame["outcome"].map(lambda o, want=outcome: type(o) is type(want) and o == want)]
        by_column = part.set_index("column")
        share = (numeric.index(outcome) / max(len(numeric) - 1, 1) if isinstance(outcome, int)
                 else float(part["share"].mean()))
        y = [float(by_column.at[c, "probability"]) if c in by_column.index else 0.0 for c in columns]
        se = [float(by_column.at[c, "stderr"]) if c in by_column.index else 0.0 for c in columns]
        traces.append({
            "type": "bar", "x": columns, "y": y, "name": _outcome_name(outcome),
            "customdata": [Z_95 * v for v in se] if simulated else None,
            "marker": {"color": sample_colorscale("RdYlBu", [share])[0]},
            "error_y": {"type": "data", "array": [Z_95 * v for v in se], "visible": True} if simulated else None,
            "hovertemplate": f"%{{x}}<br><b>{_outcome_name(outcome)}</b>: "
                             f"{_percent_with_error(settings.method)}<extra></extra>"})
    kinds = set(frame["kind"])
    what = "tiers" if kinds == {"tier"} else ("outcomes" if kinds == {"outcome"} else "tiers / outcomes")
    return _build(traces, f"One check: {what} — {_method_note(settings)}", "check", "probability",
                  barmode="stack", legend={"traceorder": "reversed"},
                  yaxis={"tickformat": ".0%", "range": [0, 1.0001]})


def figure(settings: ExplorerSettings) -> go.Figure:
    """The explorer's figure for these settings (the view picks curve, outcomes or difference).

    Example:
        >>> from workbench.widgets.settings import EntrySettings
        >>> fig = figure(ExplorerSettings((EntrySettings("erzahlspiel"),), view="outcomes"))
        >>> len(fig.data), list(fig.data[0].x)
        (6, ['black', 'red', 'yellow', 'green', 'blue'])
    """
    draw = {"curve": curve_figure, "outcomes": outcomes_figure,
            "difference": difference_figure}[settings.view]
    return draw(settings)
