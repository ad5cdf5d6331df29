"""The explorer's figures and controls: plotted numbers equal the engine's, no notebook needed."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from _deps import need

import workbench
from workbench.errors import WorkbenchError
from workbench.widgets import (AS_SET, EntrySettings, Explorer, ExplorerSettings, SettingsError,
                               curve_frame, difference_frame, figure, outcome_frame)
from workbench.analysis import counts_dice
from workbench.widgets.controls import (NOT_SET, EntryControls, knob_widget,
                                        slider_bounds)
from workbench.widgets.settings import _format

POOLS = (1, 2, 3, 5, 8)


def _traces(fig):
    return {trace.name: trace for trace in fig.data}


def _lines(fig):
    """Traces by ``legend group · name`` (entry · rung)."""
    return {f"{trace.legendgroup} · {trace.name}": trace for trace in fig.data}


def _titles(fig) -> str:
    """A figure's title with its second line (the method note)."""
    return fig.layout.title.text


# -- curves ------------------------------------------------------------------------------
@pytest.mark.parametrize("system, knobs", [
    ("uwr", {"favor": 1, "rerolls": 1}),
    ("fons", {"half": True}),
    ("unnamed", {"d8": 2, "bounce_on": 6}),
    ("arrata", {"quality": "A", "advantage": 1, "disadvantage_mode": "obstacle"}),
    ("fons-exploding", {}),
])
def test_curve_traces_equal_engine_checks(system, knobs):
    settings = ExplorerSettings((EntrySettings(system, knobs),), pool_sizes=POOLS)
    fig = figure(settings)
    sys_ = workbench.system(system)
    assert len(fig.data) == len(sys_.ladder)
    for trace, rung in zip(fig.data, sys_.ladder):
        assert rung.name in trace.name
        assert list(trace.x) == list(POOLS)
        expected = [workbench.check(system, **sys_.with_rung(rung, **knobs, **{sys_.pool_parameter: n})).p_pass
                    for n in POOLS]
        np.testing.assert_allclose(trace.y, expected, rtol=0, atol=1e-12)
        assert trace.error_y.array is None  # exact: no error bars


def test_curve_of_system_without_pool_is_flat_and_exact():
    fig = figure(ExplorerSettings((EntrySettings("erzahlspiel", rungs=("green",)),), pool_sizes=POOLS))
    (trace,) = fig.data
    # nothing to grow (its rungs are its die colours): one bar per rung, no dice axis
    assert trace.type == "bar" and list(trace.x) == ["green"]
    assert list(trace.y) == [workbench.check("erzahlspiel", die="green").p_pass]
    assert fig.layout.xaxis.title.text == "difficulty rung"


def test_as_set_rung_uses_knobs_unchanged():
    entry = EntrySettings("uwr", {"favor": -1, "target": 2}, rungs=())
    frame = curve_frame(ExplorerSettings((entry,), pool_sizes=(4,)))
    assert list(frame["rung"]) == [AS_SET]
    assert frame["p_pass"].item() == pytest.approx(workbench.check("uwr", dice=4, favor=-1, target=2).p_pass)


def test_several_entries_overlay_with_unique_labels():
    entries = (EntrySettings("uwr"), EntrySettings("uwr"), EntrySettings("uwr", {"favor": 1}))
    settings = ExplorerSettings(entries, pool_sizes=(2,))
    assert settings.labels() == ["uwr", "uwr #2", "uwr favor=1"]
    data = figure(settings).data
    # the legend groups each entry under its label; a line is named by its rung alone
    assert [t.legendgroup for t in data][::4] == ["uwr", "uwr #2", "uwr favor=1"]
    assert {t.legendgrouptitle.text for t in data} == {"uwr", "uwr #2", "uwr favor=1"}
    keys = [(t.legendgroup, t.name) for t in data]
    assert len(keys) == 12 and len(set(keys)) == 12


def test_hover_shows_percentages():
    fig = figure(ExplorerSettings((EntrySettings("uwr", rungs=("Normal",)),), pool_sizes=(2,)))
    assert "%{y:.2%}" in fig.data[0].hovertemplate and "Normal" in fig.data[0].hovertemplate
    assert fig.layout.yaxis.tickformat == ".0%"


# -- one check: outcomes and tiers -------------------------------------------------------
def test_erzahlspiel_odds_chart_five_stacked_columns():
    fig = figure(ExplorerSettings((EntrySettings("erzahlspiel"),), view="outcomes"))
    labels = workbench.system("erzahlspiel").outcome_labels
    assert fig.layout.barmode == "stack"
    assert [t.name for t in fig.data] == list(labels)
    colours = ["black", "red", "yellow", "green", "blue"]
    for trace in fig.data:
        assert list(trace.x) == colours
        expected = [workbench.check("erzahlspiel", die=c).pmf[trace.name] for c in colours]
        np.testing.assert_allclose(trace.y, expected, atol=1e-12)
    yes = np.sum([t.y for t in fig.data if t.name.startswith("YES")], axis=0)
    np.testing.assert_allclose(yes, [1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6])
    np.testing.assert_allclose(np.sum([t.y for t in fig.data], axis=0), 1.0)


def test_unnamed_check_stacks_its_tiers():
    entry = EntrySettings("unnamed", {"d6": 4, "d8": 1, "penalty": 1}, rungs=())
    fig = figure(ExplorerSettings((entry,), view="outcomes"))
    tiers = workbench.check("unnamed", d6=4, d8=1, penalty=1).tiers
    assert [t.name for t in fig.data] == list(tiers.outcomes)
    for trace in fig.data:
        assert list(trace.x) == ["unnamed d6=4 d8=1 penalty=1"]
        assert trace.y[0] == pytest.approx(tiers[trace.name], abs=1e-12)


def test_numeric_outcomes_of_several_systems_get_a_panel_and_a_scale_each():
    entries = (EntrySettings("uwr", {"dice": 3}, rungs=()), EntrySettings("arrata", {"dice": 2}, rungs=()))
    frame = outcome_frame(ExplorerSettings(entries, view="outcomes"))
    fig = figure(ExplorerSettings(entries, view="outcomes"))
    uwr = [t for t in fig.data if t.xaxis == "x"]
    arrata = [t for t in fig.data if t.xaxis == "x2"]
    assert len(uwr) + len(arrata) == len(fig.data) and uwr and arrata
    names = [t.name for t in uwr]
    assert names == sorted(names, key=lambda n: int(n.split()[1]))  # worst at the bottom
    for outcome, p in workbench.check("uwr", dice=3).pmf.items():
        assert {t.name: t for t in uwr}[f"net {outcome}"].y[0] == pytest.approx(p)
    for part in (uwr, arrata):   # each entry's own scale: its worst red, its best blue
        assert part[0].marker.color == "rgb(165, 0, 38)" and part[-1].marker.color == "rgb(49, 54, 149)"
        assert len({t.legend for t in part}) == 1   # its own legend
    assert uwr[0].legend != arrata[0].legend
    for name in (uwr[0].legend, arrata[0].legend):   # the legend lists best first, as it says
        legend = fig.layout[name]
        assert legend.traceorder == "reversed" and "best at the top" in legend.title.text
    assert set(frame["kind"]) == {"outcome"}


# -- difference --------------------------------------------------------------------------
def test_difference_is_variant_minus_baseline():
    entries = (EntrySettings("fons", {"favor": 1}), EntrySettings("fons-exploding", {"favor": 1}))
    settings = ExplorerSettings(entries, view="difference", pool_sizes=POOLS)
    fig = figure(settings)
    fons = workbench.system("fons")
    assert len(fig.data) == len(fons.ladder)
    for trace, rung in zip(fig.data, fons.ladder):
        for n, y in zip(trace.x, trace.y):
            params = fons.with_rung(rung, favor=1, dice=n)
            expected = workbench.check("fons-exploding", **params).p_pass - workbench.check("fons", **params).p_pass
            assert y == pytest.approx(100 * expected, abs=1e-10)  # percentage points
    assert fig.layout.yaxis.ticksuffix == " pp"
    assert "(pp)" in fig.layout.yaxis.title.text


def test_difference_pairs_differently_named_ladders_in_order():
    entries = (EntrySettings("uwr"), EntrySettings("fons"))
    frame = difference_frame(ExplorerSettings(entries, view="difference", pool_sizes=(3,)))
    assert list(zip(frame["rung"], frame["baseline_rung"])) == [
        ("Trivial", "Easy"), ("Average", "Normal"), ("Difficult", "Difficult"), ("Extreme", "Extreme")]
    np.testing.assert_allclose(frame["difference"], 0.0, atol=1e-12)  # same dice core


def test_difference_baseline_can_be_any_entry():
    entries = (EntrySettings("uwr", {"favor": 1}, rungs=("Normal",)), EntrySettings("uwr", rungs=("Normal",)))
    frame = difference_frame(ExplorerSettings(entries, view="difference", pool_sizes=(1,), baseline=1))
    assert frame["difference"].item() == pytest.approx(0.5 - 1 / 3)


# -- simulated results -------------------------------------------------------------------
def test_simulated_curve_has_error_bars_and_agrees_with_exact():
    need("numba")
    entry = EntrySettings("unnamed", {"d8": 1}, rungs=("Success",))
    exact = curve_frame(ExplorerSettings((entry,), pool_sizes=(2, 4)))
    settings = ExplorerSettings((entry,), method="simulate", trials=40_000, seed=7, pool_sizes=(2, 4))
    fig = figure(settings)
    (trace,) = fig.data
    errors = np.asarray(trace.error_y.array)
    assert np.all(errors > 0)
    # 95% bars are 1.96 s.e.; five standard errors would be a real disagreement.
    assert np.all(np.abs(np.asarray(trace.y) - exact["p_pass"]) < errors / 1.96 * 5)
    assert "simulated" in _titles(fig)
    again = figure(settings)
    assert list(again.data[0].y) == list(trace.y)  # same seed, same numbers


def test_simulated_outcomes_have_error_bars():
    need("numba")
    fig = figure(ExplorerSettings((EntrySettings("erzahlspiel", rungs=("red",)),), view="outcomes",
                                  method="simulate", trials=20_000, seed=1))
    exact = workbench.check("erzahlspiel", die="red").pmf
    for trace in fig.data:
        (error,) = trace.error_y.array
        assert abs(trace.y[0] - exact[trace.name]) <= 5 * max(error / 1.96, 1e-9)


# -- settings ----------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, setting", [
    ({"view": "pie"}, "view"),
    ({"method": "guess"}, "method"),
    ({"pool_sizes": ()}, "pool_sizes"),
    ({"trials": 0}, "trials"),
    ({"baseline": 3}, "baseline"),
])
def test_bad_settings_name_the_setting(kwargs, setting):
    with pytest.raises(SettingsError) as caught:
        ExplorerSettings((EntrySettings("uwr"),), **kwargs)
    assert caught.value.setting == setting
    assert isinstance(caught.value, WorkbenchError)


def test_unknown_rung_is_a_workbench_error():
    with pytest.raises(WorkbenchError, match="Easy, Normal"):
        figure(ExplorerSettings((EntrySettings("uwr", rungs=("Impossible",)),)))


def test_settings_are_frozen_and_hashable():
    entry = EntrySettings("uwr", {"favor": 1})
    settings = ExplorerSettings((entry,), seed=5)
    with pytest.raises(AttributeError):
        settings.view = "outcomes"
    assert hash(settings) == hash(ExplorerSettings((EntrySettings("uwr", {"favor": 1}),), seed=5))


def test_display_values_are_formatted():
    assert _format(1.9999999999999998) == "2"
    assert _format(0.25) == "0.25"
    assert EntrySettings("uwr", {"favor": 1.9999999999999998}).display_label() == "uwr favor=2"


# -- controls ----------------------------------------------------------------------------
@pytest.mark.parametrize("system", [s.id for s in workbench.systems()])
def test_every_declared_parameter_gets_a_control(system):
    sys_ = workbench.system(system)
    controls = EntryControls(system)
    assert set(controls.knobs) == set(sys_.params)
    settings = controls.settings()
    pool = sys_.params.get(sys_.pool_parameter)
    # a typical pool within the parameter's bounds: 4 dice, or a skill's (modifier's) default
    wanted = 4 if pool is None or counts_dice(sys_) else pool.default
    typical = {} if pool is None else {
        pool.name: min(max(wanted, pool.minimum or 0, 0),
                       pool.maximum if pool.maximum is not None else wanted)}
    assert sys_.resolve(**settings.knobs) == sys_.resolve(**typical)  # defaults round-trip
    for name, param in sys_.params.items():
        widget = controls.knobs[name]
        assert f"wb-knob-{name}" in widget._dom_classes
        assert param.help in widget.tooltip  # the parameter's help on hover
        if param.kind == "choice":
            assert [v for _, v in widget.options if v != NOT_SET] == list(param.choices)
        if param.optional and param.default is None:
            # a None value would show a blank drop-down: unset shows "(not set)"
            assert widget.value == NOT_SET and widget.label == "(not set)"
            assert settings.knobs[name] is None
    rule_options = [n for n, p in sys_.params.items() if p.rule_option]
    text = repr(controls.box)
    if rule_options:
        assert "rule options" in text


def test_rule_options_of_rules_md_are_offered():
    offered = {s.id: {n for n, p in s.params.items() if p.rule_option} for s in workbench.systems()}
    assert {"bounce_on", "fail_on", "drama_pool"} <= offered["unnamed"]
    assert {"disadvantage_mode", "allow_negative", "combine"} <= offered["arrata"]
    assert {"ladder", "dice"} <= offered["erzahlspiel"]
    assert "attack_resolution" in offered["fons"]


def test_slider_bounds_cover_defaults_and_given_values():
    param = workbench.system("uwr").params["favor"]
    assert slider_bounds(param) == (-6, 6)
    assert slider_bounds(param, 9) == (-6, 9)
    widget = knob_widget(workbench.system("unnamed").params["penalty"])
    assert (widget.min, widget.max) == (0, 2)


def test_controls_read_into_settings():
    controls = EntryControls("arrata", {"quality": "S", "dice": 4}, rungs=("Ob 2",), label="mine")
    controls.knobs["advantage"].value = 2
    controls.knobs["combine"].value = "net"
    settings = controls.settings()
    assert settings.knobs["quality"] == "S" and settings.knobs["advantage"] == 2
    assert settings.knobs["combine"] == "net" and settings.rungs == ("Ob 2",)
    assert settings.display_label() == "mine"
    controls.rungs.value = (AS_SET,)
    assert controls.settings().rungs == ()


# -- the explorer (no browser) -----------------------------------------------------------
def test_explorer_starts_at_a_typical_pool_and_disables_the_pool_knob_on_curves():
    explorer = Explorer(["uwr", "unnamed", EntrySettings("arrata", {"stat": "A6"})])
    uwr, unnamed, arrata = explorer.entries
    assert uwr.knobs["dice"].value == 4 and unnamed.knobs["d6"].value == 4
    assert arrata.knobs["dice"].value == 6  # the stat named the pool
    assert uwr.knobs["dice"].disabled and "x axis" in uwr.pool_note.value
    assert not explorer.pools.disabled and explorer.baseline.disabled
    first = explorer.figure.data[0]
    assert (first.legendgroup, first.name) == ("uwr", "Easy")  # no "dice=4": it is the x axis
    explorer.view.value = "outcomes"
    assert not uwr.knobs["dice"].disabled and explorer.pools.disabled
    normal = workbench.check("uwr", dice=4, target=1).pmf
    # Normal, Difficult and Extreme roll the same four dice: one column for the three
    worst = explorer.figure.data[0]   # UWR's own panel: net 0, its worst outcome
    assert worst.name == "net 0" and explorer.figure.layout.annotations[0].text == "uwr dice=4"
    column = list(worst.x).index("Normal – Extreme")
    assert worst.y[column] == pytest.approx(normal[0])
    explorer.view.value = "difference"
    assert not explorer.baseline.disabled and explorer.trials.disabled
    explorer.method.value = "simulate"
    assert not explorer.trials.disabled


def test_explorer_keeps_the_chart_beside_folding_controls():
    explorer = Explorer(["uwr"])
    explorer.add("fons")
    explorer.add("arrata")
    panels = explorer.entry_panels
    assert panels.selected_index == 2  # the newest open, the others folded
    assert list(panels.titles) == ["1. UWR (= HKRPG)", "2. FoNS", "3. Arrata"]
    controls, chart = explorer.widget.children[1:]
    assert explorer.plot in chart.children and panels in controls.children
    assert panels.layout.max_height  # the panels scroll instead of pushing the chart down


def test_explorer_shows_a_busy_state_while_computing():
    explorer = Explorer(["uwr"], pool_sizes=range(1, 3))
    seen = []
    explorer.status.observe(lambda change: seen.append(change["new"]), names="value")
    explorer.entries[0].knobs["favor"].value = 1
    assert any("computing" in text for text in seen)
    assert "updated in" in explorer.status.value and "wb-busy" not in explorer.chart._dom_classes


def test_explorer_redraws_with_engine_numbers_after_a_knob_moves():
    explorer = Explorer(["uwr"], pool_sizes=range(1, 6))
    explorer.entries[0].knobs["favor"].value = 2
    normal = _lines(explorer.figure)["uwr favor=2 · Normal"]
    expected = [workbench.check("uwr", dice=n, favor=2, target=1).p_pass for n in range(1, 6)]
    np.testing.assert_allclose(normal.y, expected, atol=1e-12)
    assert "updated in" in explorer.status.value


def test_explorer_pool_range_ends_where_every_curve_has_settled():
    explorer = Explorer(["uwr"])
    assert explorer.pools.value == (1, 17)  # UWR's Extreme is within 5 pp of certain at 17 dice
    at_end = workbench.check("uwr", dice=17, target=3).p_pass
    assert at_end >= 0.95 and workbench.check("uwr", dice=16, target=3).p_pass < 0.95
    explorer.add("erzahlspiel")  # a single die settles at once: the range stays
    assert explorer.pools.value == (1, 17)
    explorer.pools.value = (1, 8)  # the designer's choice is kept from now on
    explorer.add("unnamed")
    assert explorer.pools.value == (1, 8)
    assert Explorer(["uwr"], pool_sizes=range(2, 5)).pools.value == (2, 4)


def test_every_view_shares_one_legend_place_and_one_style_per_system():
    explorer = Explorer(["uwr", "arrata"])
    legends, margins = [], []
    for view in ("curve", "outcomes", "difference", "distribution", "curve"):
        explorer.view.value = view
        layout = explorer.figure.layout
        legends.append({k: layout.legend[k] for k in ("x", "y", "xanchor", "yanchor", "orientation")})
        margins.append(layout.margin.l)
    # beside the plot, top right, outside the plotting area (each panel's legend at its top)
    assert all(legend == legends[0] for legend in legends) and legends[0]["x"] > 1
    assert all(margin == margins[0] for margin in margins)
    explorer.view.value = "curve"
    styles = {f"{t.legendgroup} · {t.name}": (t.line.color, t.line.dash) for t in explorer.figure.data}
    assert len({c for c, _ in styles.values()}) == 2  # one colour per system
    uwr_dashes = [d for name, (_, d) in styles.items() if name.startswith("uwr")]
    assert len(set(uwr_dashes)) == len(uwr_dashes) == 4  # one dash per rung
    explorer.view.value = "difference"
    arrata = [t for t in explorer.figure.data if t.legendgroup == "arrata"]
    assert {t.line.color for t in arrata} == {styles["arrata · Ob 1"][0]}  # its colour kept


def test_explorer_views_methods_and_entries():
    explorer = Explorer(["erzahlspiel"])
    explorer.view.value = "outcomes"
    assert [list(t.x) for t in explorer.figure.data][0] == ["black", "red", "yellow", "green", "blue"]
    explorer.add("erzahlspiel-six-dice")
    assert len(explorer.settings().entries) == 2
    explorer.view.value = "difference"
    assert "minus" in explorer.figure.layout.title.text
    explorer.remove(explorer.entries[1])
    assert len(explorer.entries) == 1
    explorer.remove(explorer.entries[0])  # the last entry stays
    assert len(explorer.entries) == 1


def test_explorer_shows_bad_combinations_instead_of_raising():
    explorer = Explorer(["erzahlspiel"])
    before = [list(t.y) for t in explorer.figure.data]
    explorer.entries[0].knobs["advantage"].value = 1  # the rungs set a die colour: conflict
    assert "advantage" in explorer.status.value and "⚠" in explorer.status.value
    assert [list(t.y) for t in explorer.figure.data] == before


def test_explorer_simulated_toggle():
    need("numba")
    explorer = Explorer(["uwr"], pool_sizes=range(1, 4), trials=10_000)
    explorer.method.value = "simulate"
    assert "simulated" in _titles(explorer.figure)
    assert explorer.figure.data[0].error_y.array is not None


def test_default_seed_is_fresh_but_kept_as_everywhere_else():
    # Issue 10: one default for seed (None, a fresh seed). The settings draw it once and keep
    # it, so the same settings always simulate the same curve.
    need("numba")
    settings = ExplorerSettings((EntrySettings("uwr", rungs=("Normal",)),), method="simulate",
                                trials=2_000, pool_sizes=(2, 3))
    assert isinstance(settings.seed, int) and 0 <= settings.seed < 2**53
    assert list(figure(settings).data[0].y) == list(figure(settings).data[0].y)
    seeds = {ExplorerSettings((EntrySettings("uwr"),)).seed for _ in range(5)}
    assert len(seeds) > 1  # fresh, not a fixed 0
    assert ExplorerSettings((EntrySettings("uwr"),), seed=0).seed == 0


def test_explorer_shows_its_fresh_seed_and_keeps_it_while_knobs_move():
    need("numba")
    explorer = Explorer(["uwr"], pool_sizes=range(1, 4), trials=2_000)
    shown = explorer.seed.value
    assert 0 <= shown < 2**53 and explorer.settings().seed == shown
    explorer.method.value = "simulate"
    first = list(explorer.figure.data[0].y)
    explorer.entries[0].knobs["favor"].value = 1
    explorer.entries[0].knobs["favor"].value = 0
    assert explorer.seed.value == shown and list(explorer.figure.data[0].y) == first  # no flicker
    assert Explorer(["uwr"], seed=11).seed.value == 11
    with pytest.raises(WorkbenchError, match="seed"):
        Explorer(["uwr"], seed=-1)


def test_root_package_does_not_import_widgets():
    code = ("import sys, workbench; bad = [m for m in ('plotly', 'ipywidgets', 'numba', "
            "'workbench.widgets') if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
