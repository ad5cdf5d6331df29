"""Tables, curves, figures and solved ladders asked for without pool sizes read every system at
sizes it can roll: Fate's skill runs -2 to 8, Traveller's DM -6 to 6, D&D's modifier to 17,
where a fixed 1-10 or 1-20 failed with "parameter 'skill' got 9". Each default table's cells
are the checks they name.
"""
from __future__ import annotations

import math

import pytest

import workbench as wb
from workbench.analysis import default_pool_sizes, pool_bounds
from workbench.figures import charts
from workbench.ladders import column_knob
from workbench.rules.registry import get_system

SYSTEMS = sorted(s.id for s in wb.systems())
NARROW = ["fate", "genesys", "traveller", "dnd5e", "cortex-prime", "l5r-4e", "mork-borg",
          "hero-skill", "blades"]


def _cell(system, rung, size) -> float:
    sys_ = get_system(system)
    return wb.check(sys_, **sys_.with_rung(rung, **{sys_.pool_parameter: size})).p_pass


def test_the_narrow_systems_are_in_the_library():
    assert set(NARROW) <= set(SYSTEMS)


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_default_ladder_table_holds_the_checks_it_names(system):
    sys_ = get_system(system)
    table = wb.ladder_table(system)
    if not column_knob(sys_):   # no pool, or a ladder that sets it (Cypher's task level)
        assert list(table.columns) == ["P(pass)"]
        return
    low, high = pool_bounds(sys_)
    sizes = list(table.columns)
    assert sizes == default_pool_sizes(sys_) and all(low <= n <= high for n in sizes)
    rungs = list(sys_.ladder) or [wb.Rung("pass")]
    rung, size = rungs[-1], sizes[len(sizes) // 2]
    assert math.isclose(table.loc[rung.name, size], _cell(sys_, rung, size), abs_tol=1e-12)


@pytest.mark.parametrize("system", NARROW)
def test_default_curves_comparisons_and_figures_stay_within_bounds(system):
    sys_ = get_system(system)
    low, high = pool_bounds(sys_)
    curve = wb.success_curve(system)
    assert low <= curve["pool"].min() and curve["pool"].max() <= high
    wide = wb.side_by_side([system, "uwr"])
    mine = [column for column in wide.columns if column[0] == system]
    rung = (list(sys_.ladder) or [wb.Rung("pass")])[0]
    for size in wide.index:
        value = wide.loc[size, (system, rung.name)]
        if low <= size <= high and size in set(curve["pool"]):
            assert math.isclose(value, _cell(sys_, rung, size), abs_tol=1e-12), size
        else:
            assert math.isnan(value), size  # a size this system cannot roll stays empty
    assert mine
    figure = charts.ladder_figure(system)
    xs = {x for trace in figure.data for x in trace.x}
    assert xs == set(default_pool_sizes(sys_))


@pytest.mark.parametrize("system", [s for s in NARROW if len(get_system(s).ladder) >= 2])
def test_a_solved_ladder_reports_crossings_at_sizes_the_system_allows(system):
    sys_ = get_system(system)
    first, second = [r.name for r in sys_.ladder][:2]
    low, high = pool_bounds(sys_)
    pool = min(max(4, low), high)
    solution = wb.solve_ladder(system, {first: 0.8, second: 0.4}, pool=pool)
    across = solution.across_pools()
    assert list(across.columns) == default_pool_sizes(sys_)
    assert all(low <= size <= high for size in solution.curves()["pool"])
    assert all(low <= size <= high for c in solution.outside for size in c.pools)


def test_pool_sizes_given_outside_the_bounds_are_still_an_error():
    with pytest.raises(wb.ParameterError, match="skill"):
        wb.ladder_table("fate", [9])
    with pytest.raises(wb.ParameterError, match="report_pools"):
        wb.solve_ladder("uwr", {"Easy": 0.8}, report_pools="1-10")


@pytest.mark.parametrize("system", ["hero-skill", "ironsworn", "mork-borg", "pbta", "unnamed"])
def test_a_default_tier_chart_stays_within_bounds_with_the_engines_shares(system):
    sys_ = get_system(system)
    low, high = pool_bounds(sys_)
    figure = charts.tier_figure(system)
    sizes = list(figure.data[0].x)
    assert sizes and all(low <= n <= high for n in sizes)
    middle = sizes[len(sizes) // 2]
    tiers = wb.check(system, **{sys_.pool_parameter: middle}).tiers
    for trace in figure.data:
        assert trace.y[sizes.index(middle)] == pytest.approx(tiers[trace.name], abs=1e-12)
