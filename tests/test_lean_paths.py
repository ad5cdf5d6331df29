"""The quick paths give the answers of the long ones, and never old numbers.

- The exact engine's closed forms (``workbench.engine.closed``) against its convolutions, on
  random dice: counting dice, cancelling faces, open-ended chains, rerolled misses.
- ``System.resolve_points`` (the sweep's shared resolutions) against ``System.resolve`` and
  the mechanic's pool, errors included.
- Remembered settings are keyed by what they depend on: a value's type, the system object (a
  changed data file is a new system).
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import workbench
from workbench.engine import exact
from workbench.rules.pool import DieType

from conftest import pool_toml


TOL = 1e-12


def convolved(die: DieType, n: int, rerolls: int):
    """``n`` dice by the engine's general path: the die's chain, raised to the n-th power."""
    chain, first_fails, cut = exact._die_chain(die, n)
    if rerolls:
        full, _ = exact._with_rerolls(chain, n, rerolls)
    else:
        full = chain.power(n)
    return full, first_fails.power(n)


def as_dict(sub) -> dict[int, float]:
    return {sub.offset + i: float(p) for i, p in enumerate(sub.probs) if p}


def assert_close(got, want, what):
    got, want = as_dict(got), as_dict(want)
    worst = max((abs(got.get(k, 0.0) - want.get(k, 0.0)) for k in set(got) | set(want)), default=0.0)
    assert worst <= TOL, f"{what}: differs by {worst:.3g}"


@st.composite
def dice(draw, explode: bool):
    sides = draw(st.integers(2, 12))
    if explode:
        top = draw(st.integers(1, sides - 1))          # faces that explode, all of one value
        step = draw(st.integers(1, 2))
        stops = draw(st.lists(st.sampled_from([-1, 0, 1]), min_size=sides - top, max_size=sides - top))
        values = tuple(stops) + (step,) * top
        flags = (False,) * (sides - top) + (True,) * top
        return DieType("x", values, flags)
    kinds = draw(st.sampled_from([(0, 1), (0, 2), (-1, 0, 1), (-1, 1), (0,)]))
    values = tuple(draw(st.lists(st.sampled_from(kinds), min_size=sides, max_size=sides)))
    return DieType("x", values)


@settings(max_examples=120, deadline=None)
@given(die=dice(explode=False), n=st.integers(1, 60))
def test_closed_forms_of_dice_that_never_explode_match_the_convolutions(die, n):
    found = exact._closed_group(die, n)
    if found is None:   # no closed form: the engine takes the convolutions itself
        return
    full, fails, lost = found
    want_full, want_fails = convolved(die, n, 0)
    assert lost == 0.0
    assert_close(full, want_full, f"{die.values} x{n}")
    assert_close(fails, want_fails, f"{die.values} x{n}, every die failing")


@settings(max_examples=80, deadline=None)
@given(die=dice(explode=True), n=st.integers(1, 40))
def test_closed_forms_of_open_ended_dice_match_the_convolutions(die, n):
    found = exact._closed_group(die, n)
    assert found is not None, die
    full, fails, lost = found
    want_full, want_fails = convolved(die, n, 0)
    assert 0.0 <= lost <= 1e-15
    assert_close(full, want_full, f"{die.values} {die.explodes} x{n}")
    assert_close(fails, want_fails, f"{die.values} x{n}, every die failing")


@settings(max_examples=80, deadline=None)
@given(sides=st.integers(2, 12), hits=st.integers(0, 12), n=st.integers(1, 50),
       rerolls=st.integers(1, 60))
def test_rerolled_misses_match_the_convolutions(sides, hits, n, rerolls):
    hits = min(hits, sides)
    die = DieType("x", (0,) * (sides - hits) + (1,) * hits)
    found = exact._closed_group(die, n, rerolls)
    if hits == 0:
        assert found is None   # nothing ever scores: the general path
        return
    full, fails, lost = found
    want_full, _ = convolved(die, n, rerolls)
    assert lost <= 1e-15
    assert_close(full, want_full, f"{hits}/{sides} x{n}, {rerolls} rerolls")


def test_the_big_pools_of_the_benchmarks_match_the_convolutions():
    for system, params in [("uwr", {"dice": 100}), ("uwr", {"dice": 1000}),
                           ("uwr", {"dice": 300, "rerolls": 100}),
                           ("arrata", {"dice": 100, "advantage": 1}),
                           ("arrata", {"dice": 300, "advantage": 1, "disadvantage": 1})]:
        spec = workbench.system(system).pool(**params)
        (die, n), = spec.groups
        full, _, _ = exact._closed_group(die, n, spec.rerolls)
        want, _ = convolved(die, n, spec.rerolls)
        assert_close(full, want, f"{system} {params}")


# -- shared resolutions --------------------------------------------------------------------

GRIDS = [
    ("uwr", {"dice": [0, 3, 7], "favor": [-1, 2], "target": [None, 0, 2, 5], "penalty": [0, 2]}),
    ("arrata", {"stat": ["B3", "S5"], "ob": [1, 4], "disadvantage": [0, 2],
                "disadvantage_mode": ["dice", "obstacle"]}),
    ("unnamed", {"d6": [1, 4], "target": [1, 3], "bonus": [0, 1], "penalty": [0, 1]}),
    ("erzahlspiel", {"advantage": [-2, 0, 1], "ladder": ["steps", "spectrum"]}),
]


@pytest.mark.parametrize("system, grid", GRIDS, ids=[g[0] for g in GRIDS])
def test_resolve_points_gives_what_resolve_gives(system, grid):
    sys_ = workbench.system(system)
    points = [dict(zip(grid, combo)) for combo in itertools.product(*grid.values())]
    for given, (resolved, pool) in zip(points, sys_.resolve_points(points), strict=True):
        want = sys_.resolve(**given)
        assert resolved == want and pool == sys_.mechanic.pool(want), given


def test_resolve_points_refuses_what_resolve_refuses():
    uwr = workbench.system("uwr")
    good = [{"dice": 3, "target": 1}, {"dice": 3, "target": 2}]
    for bad in ({"dice": 3, "target": -1}, {"dice": 3, "target": "2.5"}, {"dice": 3, "target": True},
                {"dice": 3, "trget": 2}):
        with pytest.raises(workbench.WorkbenchError) as want:
            uwr.resolve(**bad)
        with pytest.raises(workbench.WorkbenchError) as got:
            list(uwr.resolve_points(good + [bad]))
        assert str(got.value) == str(want.value)


def test_reading_parameters_never_change_the_pool():
    for system in workbench.systems():
        reading = system.mechanic.reading_parameters
        for name in reading:
            param = system.params[name]
            values = [param.default] + ([param.minimum or 0, (param.minimum or 0) + 3]
                                        if param.kind == "int" else [])
            pools = {system.pool(**{name: v}) for v in values if v is not None}
            assert len(pools) <= 1, (system.id, name)


# -- remembered settings --------------------------------------------------------------------

def test_a_remembered_setting_tells_types_apart():
    assert workbench.check("uwr", dice=1, target=1).p_pass == pytest.approx(1 / 3)
    with pytest.raises(workbench.WorkbenchError, match="dice"):
        workbench.check("uwr", dice=True, target=1)
    with pytest.raises(workbench.WorkbenchError, match="dice"):
        workbench.check("uwr", dice=1.0, target=1)
    assert workbench.check("uwr", dice="1", target=1).p_pass == pytest.approx(1 / 3)


def test_a_changed_data_file_never_gets_old_numbers(tmp_path):
    path = tmp_path / "pool.toml"
    text = pool_toml("lean-test", "Lean test", pool_parameter=False, target=10)
    path.write_text(text)
    before = workbench.check(str(path), dice=2).p_pass
    assert before == pytest.approx(1 - (4 / 6) ** 2)
    path.write_text(text.replace("[0, 0, 0, 0, 1, 1]", "[0, 0, 0, 1, 1, 1]   # 4+ now"))
    after = workbench.check(str(path), dice=2).p_pass
    assert after == pytest.approx(1 - (3 / 6) ** 2)


def test_repeated_checks_are_new_objects_with_their_own_parameters():
    first = workbench.check("uwr", dice=4, target=2)
    second = workbench.check("uwr", dice=4, target=2)
    assert first is not second and first.params is not second.params
    first.params["dice"] = 99   # a caller changing its copy changes nothing remembered
    assert workbench.check("uwr", dice=4, target=2).params["dice"] == 4
    assert np.array_equal(first.pmf.probabilities, second.pmf.probabilities)


# -- a sweep's points, checked once ---------------------------------------------------------

def test_a_sweep_reuses_the_points_it_checked_only_for_the_same_system_object():
    from workbench.rules.registry import DATA_DIR
    from workbench.sweep._exact import exact_check_rows

    items = [(i, {"dice": d, "target": t}, None)
             for i, (d, t) in enumerate(itertools.product([1, 3, 5], [1, 2]))]
    uwr = workbench.system("uwr")
    plain = exact_check_rows(items, {"system": "uwr"})
    known = {i: (uwr, uwr.resolve(**p)) for i, p, _ in items}
    assert exact_check_rows(items, {"system": "uwr"}, known) == plain
    # Entries of another object (the same file read again: a changed file would be one) are
    # not used, even when they say something else.
    again = workbench.load_system(DATA_DIR / "systems" / "uwr.toml")
    assert again is not uwr
    stale = {i: (again, {**uwr.resolve(**p), "dice": 9}) for i, p, _ in items}
    assert exact_check_rows(items, {"system": "uwr"}, stale) == plain
    assert [row["p_pass"] for _, row in plain][:2] == [
        workbench.check("uwr", dice=1, target=t).p_pass for t in (1, 2)]


def test_a_sweep_names_its_first_bad_point_whichever_system_it_belongs_to():
    from workbench.sweep import sweep

    # (opposed, fons) passes, (opposed, uwr) is the first bad point, (bogus, fons) the next.
    with pytest.raises(workbench.WorkbenchError, match=r"point 2 of 4 \(attack_resolution='opposed', "
                       r"system='uwr'\)"):
        sweep("check", {"attack_resolution": ["opposed", "bogus"], "system": ["fons", "uwr"]})
