"""Ladder tables and the ladder solver, checked against closed-form binomial odds."""
from __future__ import annotations

import itertools
from math import comb

import pytest

import workbench
from workbench.errors import WorkbenchError
from workbench.ladders import (difficulty_knobs, difficulty_table, ladder_table, parse_wanted,
                               pool_label, solve_ladder)


def at_least(k: int, n: int, p: float) -> float:
    """P(Binomial(n, p) >= k)."""
    return sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def test_uwr_ladder_table_matches_binomial_odds():
    table = ladder_table("uwr", range(0, 7))
    assert list(table.index) == ["Easy", "Normal", "Difficult", "Extreme"]
    assert list(table.columns) == list(range(0, 7))
    for n in range(0, 7):
        assert table.loc["Easy", n] == pytest.approx(at_least(1, n, 1 / 2), abs=1e-12)
        assert table.loc["Normal", n] == pytest.approx(at_least(1, n, 1 / 3), abs=1e-12)
        assert table.loc["Difficult", n] == pytest.approx(at_least(2, n, 1 / 3), abs=1e-12)
        assert table.loc["Extreme", n] == pytest.approx(at_least(3, n, 1 / 3), abs=1e-12)


def test_arrata_ladder_table_uses_quality():
    table = ladder_table("arrata", [3, 5], quality="A")  # A succeeds on 3+: p = 2/3
    for ob in range(1, 7):
        for n in (3, 5):
            assert table.loc[f"Ob {ob}", n] == pytest.approx(at_least(ob, n, 2 / 3), abs=1e-12)


def test_single_die_system_has_one_column():
    table = ladder_table("erzahlspiel", range(1, 5))
    assert list(table.columns) == ["P(pass)"]
    assert table["P(pass)"].tolist() == pytest.approx([1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6])


def test_difficulty_table_columns_and_pool_labels():
    table = difficulty_table("arrata", [1, 2], quality="S")
    assert list(table.columns) == ["Difficulty", "Setting", "S1", "S2"]
    assert table.loc[0, "S2"] == pytest.approx(at_least(1, 2, 5 / 6))
    narrative = difficulty_table("erzahlspiel")
    assert narrative["any YES"].tolist() == pytest.approx([k / 6 for k in range(1, 6)])
    shares = narrative.drop(columns=["Difficulty", "Setting", "any YES"])
    assert shares.sum(axis=1).tolist() == pytest.approx([1.0] * 5)
    assert pool_label("unnamed", 4) == "4d6" and pool_label("uwr", 2) == "2 dice"


def test_difficulty_knobs_come_from_the_ladder():
    assert difficulty_knobs("arrata") == {"ob": None}
    assert difficulty_knobs("unnamed") == {"target": None}
    assert set(difficulty_knobs("uwr")) == {"target", "favor"}


def test_solver_finds_an_exactly_reachable_probability():
    exact = workbench.check("uwr", dice=4, target=2).p_pass
    solution = solve_ladder("uwr", {"Hard": exact}, pool=4)
    (rung,) = solution.rungs
    assert rung.rung.set == {"target": 2} and dict(rung.rung.add) == {}
    assert rung.achieved == pytest.approx(exact, abs=1e-15)
    assert rung.reachable and rung.note == ""


def test_solver_choice_is_the_closest_of_every_setting():
    wanted = {"Easy": 0.9, "Normal": 0.7, "Hard": 0.45, "Extreme": 0.2}
    solution = solve_ladder("uwr", wanted, pool=4, rerolls=1)
    everything = [workbench.check("uwr", dice=4, rerolls=1, target=t, favor=f).p_pass
                  for t, f in itertools.product(range(1, 10), range(-2, 3))]
    for rung in solution.rungs:
        best = min(abs(p - rung.wanted) for p in everything)
        assert abs(rung.error) == pytest.approx(best, abs=1e-12)
        settings = {**rung.rung.set, "favor": rung.rung.add.get("favor", 0)}
        again = workbench.check("uwr", dice=4, rerolls=1, **settings).p_pass
        assert again == pytest.approx(rung.achieved, abs=1e-15)
    assert [r.name for r in solution.rungs] == list(wanted)


def test_solver_says_when_a_probability_cannot_be_reached():
    solution = solve_ladder("uwr", {"Sure": 0.999, "Coin": 0.5}, pool=1)
    assert solution.unreachable == ["Sure"]
    sure = solution.rungs[0]
    assert not sure.reachable
    assert "cannot reach 99.9% at 1 die" in sure.note and "66.7%" in sure.note
    table = solution.table()
    assert not table.loc[0, "reachable"] and table.loc[1, "reachable"]


def test_solver_for_dice_colours_and_obstacles():
    narrative = solve_ladder("erzahlspiel", "Easy=0.8,Normal=50%,Hard=0.3")
    assert [r.rung.set["die"] for r in narrative.rungs] == ["blue", "yellow", "red"]
    assert narrative.pool is None
    arrata = solve_ladder("arrata", {"Tough": 0.5}, pool=5)
    assert arrata.rungs[0].rung.set == {"ob": 3}
    assert arrata.rungs[0].achieved == pytest.approx(0.5)


def test_across_pools_uses_the_solved_settings():
    solution = solve_ladder("uwr", {"Normal": 0.8, "Hard": 0.4}, pool=4, knobs={"target": None})
    across = solution.across_pools([1, 2, 4])
    assert list(across.index) == ["Normal", "Hard"]
    assert across.loc["Normal", 4] == pytest.approx(at_least(1, 4, 1 / 3))
    assert across.loc["Hard", 2] == pytest.approx(at_least(2, 2, 1 / 3))


@pytest.mark.parametrize("text, message", [
    ("Easy", "not RUNG=PROBABILITY"), ("Easy=lots", "not a probability"),
    ("Easy=0.5,Easy=0.6", "given twice"), (" , ", "names no rung")])
def test_parse_wanted_rejects_bad_text(text, message):
    with pytest.raises(WorkbenchError, match=message):
        parse_wanted(text)


def test_solver_rejects_bad_input():
    with pytest.raises(WorkbenchError, match="allowed: a number from 0 to 1"):
        solve_ladder("uwr", {"Easy": 1.5})
    with pytest.raises(WorkbenchError, match="not also dice=3"):
        solve_ladder("uwr", {"Easy": 0.5}, pool=4, dice=3)
    with pytest.raises(WorkbenchError, match="favor"):
        solve_ladder("uwr", {"Easy": 0.5}, favor="lots")
    with pytest.raises(WorkbenchError, match="unknown system"):
        solve_ladder("nope", {"Easy": 0.5})
