"""Mechanics defined in Python (a notebook cell): registered, then used like any system."""
from __future__ import annotations

import math

import pytest

import workbench as wb
from workbench.rules import DieType, PoolSpec
from workbench.rules.mechanics.base import Mechanic
from workbench.rules.params import Param

D6 = DieType("d6", (0, 0, 0, 1, 1, 1))


def favoured_pool(p):
    """A d6 per die, 4+ succeeds; with luck, one free success per two dice."""
    return PoolSpec(((D6, p["dice"]),), modifier=p["dice"] // 2 if p["luck"] else 0)


@pytest.fixture
def registered():
    system = wb.register_mechanic(
        "notebook-luck", favoured_pool, name="Lucky d6s", target="target", ties="reactor",
        pool_parameter="dice",
        params={"dice": {"default": 1, "min": 0, "max": 40, "help": "d6s"},
                "luck": {"default": False, "rule_option": True},
                "target": {"optional": True, "min": 0, "max": 60}},
        ladder=[{"name": "Normal", "set": {"target": 2}}, {"name": "Hard", "set": {"target": 4}}])
    yield system
    wb.unregister_mechanic("notebook-luck")


def test_check_simulate_versus_and_score(registered):
    res = wb.check("notebook-luck", dice=4, luck=True, target=4)
    # 4 dice at 1/2 plus 2 free: pass iff >= 2 dice succeed.
    assert res.p_pass == pytest.approx(sum(math.comb(4, k) for k in range(2, 5)) / 16)
    sim = wb.simulate("notebook-luck", trials=200_000, seed=5, dice=4, luck=True, target=4)
    assert abs(sim.p_pass - res.p_pass) < 6 * sim.p_pass_stderr
    vs = wb.versus("notebook-luck", {"dice": 3}, {"dice": 3})
    assert vs.ties_to == "reactor" and 0 < vs.p_actor < 0.5
    assert wb.score("notebook-luck", [4, 1, 6], dice=3, luck=True).net == 3


def test_listings_curves_ladders_and_tables_see_it(registered):
    assert "notebook-luck" in [s.id for s in wb.systems()]
    assert any(f.id == "notebook-luck" and f.origin == "python" for f in wb.loaded_files())
    curve = wb.success_curve("notebook-luck", range(1, 6), luck=True)
    assert len(curve) == 10 and set(curve["rung"]) == {"Normal", "Hard"}
    solved = wb.solve_ladder("notebook-luck", {"Normal": 0.7}, pool=4)
    assert solved.rungs[0].rung.set["target"] >= 1
    table = wb.difficulty_table("notebook-luck", [2, 4])
    assert table.shape[0] >= 2


def test_a_mechanic_class(registered):
    class Coin(Mechanic):
        """Heads succeed; the target is fixed at half the coins, rounded up."""

        def params(self):
            return (Param("coins", "int", 2, 0, 20),)

        def pool(self, p):
            return PoolSpec(((DieType("coin", (0, 1)), p["coins"]),))

        def target(self, p):
            return -(-p["coins"] // 2)

    wb.register_mechanic("coins", Coin, replace=True)
    try:
        assert wb.check("coins", coins=2).p_pass == pytest.approx(0.75)
        with pytest.raises(wb.WorkbenchError, match="opposed"):
            wb.versus("coins", {}, {})
    finally:
        wb.unregister_mechanic("coins")


def test_bad_registrations_are_clear_errors(registered):
    with pytest.raises(wb.WorkbenchError, match="already"):
        wb.register_mechanic("UWR", favoured_pool, params={"dice": {"default": 1}})
    with pytest.raises(wb.WorkbenchError, match="needs params"):
        wb.register_mechanic("x1", favoured_pool)
    with pytest.raises(wb.WorkbenchError, match="unknown keys"):
        wb.register_mechanic("x2", favoured_pool, params={"dice": {"defualt": 1}})
    wb.register_mechanic("x3", lambda p: 3, params={"dice": {"default": 1}})
    try:
        with pytest.raises(wb.WorkbenchError, match="PoolSpec"):
            wb.check("x3")
    finally:
        wb.unregister_mechanic("x3")
    assert "x1" not in [s.id for s in wb.systems()]


def test_the_explorer_draws_a_registered_mechanic(registered):
    from workbench.widgets import EntrySettings, ExplorerSettings, figure
    fig = figure(ExplorerSettings((EntrySettings("notebook-luck", {"luck": True}),), pool_sizes=(1, 2, 3)))
    ys = [list(trace.y) for trace in fig.data]
    normal = [wb.check("notebook-luck", dice=n, luck=True, target=2).p_pass for n in (1, 2, 3)]
    assert any(y == pytest.approx(normal) for y in ys)


@pytest.mark.parametrize("kwargs, match", [
    ({"params": [1, 2]}, "params got list"),
    ({"params": {"dice": {"default": 1}}, "ladder": 3}, "'ladder' got 3; allowed: a list"),
    ({"params": {"dice": {"default": 1}}, "ladder": [{"nam": "E"}]}, "'ladder' got .*name, set, add"),
    ({"params": {"dice": {"default": 1}}, "ladder": [{"name": "E", "set": 2}]}, "set and add are dicts"),
    ({"params": {"dice": {"default": 1}}, "aliases": "abc"}, "'aliases' got 'abc'; allowed: a list of ids"),
    ({"params": {"dice": {"default": 1}}, "replace": "yes"}, "'replace' got 'yes'; allowed: True or False"),
])
def test_misused_registrations_name_the_argument(kwargs, match):
    with pytest.raises(wb.WorkbenchError, match=match):
        wb.register_mechanic("misused", favoured_pool, **kwargs)
    assert "misused" not in [s.id for s in wb.systems()]


def test_a_pool_function_cannot_ask_for_an_unbounded_pool():
    # A function returning 10 million dice used to run for minutes; now it stops before work.
    wb.register_mechanic("huge-pool", lambda p: PoolSpec(((D6, 10**7),)), params={"dice": {"default": 1}})
    try:
        with pytest.raises(wb.WorkbenchError, match="at most 1000 dice .*10000000 dice"):
            wb.check("huge-pool")
        with pytest.raises(wb.WorkbenchError, match="at most 1000 dice"):
            wb.simulate("huge-pool", trials=10, seed=1)
    finally:
        wb.unregister_mechanic("huge-pool")


def test_a_mechanic_class_must_declare_params_and_pool_and_return_a_poolspec():
    class Empty(Mechanic):
        pass

    class NumberPool(Mechanic):
        def params(self):
            return (Param("dice", "int", 1, 0, 10),)

        def pool(self, p):
            return 3

    class TextParams(Mechanic):
        def params(self):
            return "dice"

        def pool(self, p):
            return PoolSpec(())

    # These used to fail later with NotImplementedError, AttributeError or TypeError.
    with pytest.raises(wb.WorkbenchError, match="Empty must define params\\(\\) and pool\\(p\\)"):
        wb.register_mechanic("empty-class", Empty)
    with pytest.raises(wb.WorkbenchError, match="TextParams.params\\(\\) returned 'dice'"):
        wb.register_mechanic("text-params", TextParams)
    wb.register_mechanic("number-pool", NumberPool)
    try:
        with pytest.raises(wb.WorkbenchError, match="number-pool: the pool function returned int"):
            wb.check("number-pool", dice=2)
        with pytest.raises(wb.WorkbenchError, match="returned int"):
            wb.simulate("number-pool", dice=2, trials=10, seed=1)
    finally:
        wb.unregister_mechanic("number-pool")
