"""Mechanics in Python beyond a PoolSpec: a designer's function over the dice rolled
(ScoredRoll, evaluated exactly over every distinct roll), odds given outright (Outcomes), and
RollSpec returned by a pool function; registered, they work like data systems."""
from __future__ import annotations

import itertools
from collections import Counter, defaultdict

import pytest

import workbench as wb
from workbench.engine.scored import evaluate_scored
from workbench.errors import WorkbenchError
from workbench.rules.roll import Die, Keep, RollSpec
from workbench.rules.scored import Outcomes, ScoredRoll

d6 = Die.numbered("d6", 6)
d8 = Die.numbered("d8", 8)


def ordered_brute(sides: list[int], score) -> dict:
    """Every ordered roll, one by one: {tuple of what score returns: probability}."""
    out: dict = defaultdict(float)
    rolls = list(itertools.product(*(range(1, s + 1) for s in sides)))
    for roll in rolls:
        out[score(roll)] += 1 / len(rolls)
    return dict(out)


def joint_of(joint, names):
    columns = [joint.names.index(n) for n in names]
    out: dict = defaultdict(float)
    for row, p in zip(joint.values.tolist(), joint.probabilities.tolist()):
        out[tuple(row[c] for c in columns)] += p
    return dict(out)


def close(a: dict, b: dict) -> bool:
    return max(abs(a.get(k, 0) - b.get(k, 0)) for k in set(a) | set(b)) < 1e-12


def test_a_function_over_sorted_values_against_every_ordered_roll():
    def neon(faces):  # the highest die, 6s beyond the first are crits, doubles noted
        return {"total": faces[0], "crits": max(faces.count(6) - 1, 0), "doubles": len(set(faces)) < len(faces)}
    joint = evaluate_scored(ScoredRoll(((d6, 4),), neon))
    brute = ordered_brute([6] * 4, lambda r: (max(r), max(r.count(6) - 1, 0), int(len(set(r)) < 4)))
    assert close(joint_of(joint, ["total", "crits", "doubles"]), brute)


def test_counts_per_face_and_several_die_types():
    seen = []

    def score(counts):
        seen.append(counts)
        return sum(value * n for value, n in counts["d6"].items()) - max(counts["d8"])
    joint = evaluate_scored(ScoredRoll(((d6, 2), (d8, 2)), score, reads="counts"))
    brute = ordered_brute([6, 6, 8, 8], lambda r: (r[0] + r[1] - max(r[2], r[3]),))
    assert close(joint_of(joint, ["total"]), brute)
    assert all(set(c) == {"d6", "d8"} and sum(c["d6"].values()) == 2 for c in seen)
    assert len(seen) == 21 * 36  # one call per distinct roll: 21 multisets of 2d6, 36 of 2d8


def test_exploding_dice_are_read_as_their_chains():
    exploding = Die.numbered("x6", 6, explodes=[False] * 5 + [True])
    joint = evaluate_scored(ScoredRoll(((exploding, 1),), lambda faces: faces[0] >= 7))
    assert joint.marginal("total")[1][1] == pytest.approx(1 / 6, abs=1e-13)


def test_registered_functions_get_conditions_tiers_simulation_and_ladders():
    wb.register_mechanic(
        "py-highest", lambda p: ScoredRoll(((d6, p["dice"]),), lambda f: {"total": f[0], "sixes": f.count(6)}),
        params={"dice": {"default": 2, "min": 1, "max": 6}, "need": {"default": 5, "min": 1, "max": 6}},
        pass_if="total >= need", tiers=[("Critical", "sixes >= 2"), ("Hit", "total >= need"),
                                         ("Miss", "total < need", False)],
        pool_parameter="dice", ladder=[{"name": "Easy", "set": {"need": 4}}, {"name": "Hard", "set": {"need": 6}}],
        replace=True)
    try:
        result = wb.check("py-highest", dice=2)
        assert result.p_pass == pytest.approx(20 / 36)
        assert result.tiers.to_dict() == pytest.approx({"Critical": 1 / 36, "Hit": 19 / 36, "Miss": 16 / 36})
        assert result.probability("sixes >= 1") == pytest.approx(11 / 36)
        simulated = wb.simulate("py-highest", trials=200_000, seed=5, dice=2)
        assert abs(simulated.p_pass - 20 / 36) < 5 * simulated.p_pass_stderr
        table = wb.ladder_table("py-highest", [1, 2])
        assert table.loc["Hard", 2] == pytest.approx(11 / 36)
        assert wb.score("py-highest", [6, 3], dice=2).tier == "Hit"
        assert wb.score("py-highest", [6, 6], dice=2).tier == "Critical"
    finally:
        wb.unregister_mechanic("py-highest")


def test_odds_given_outright_and_a_roll_spec_from_a_function():
    wb.register_mechanic("py-given", lambda p: Outcomes(("total", "crit"), {(0, 0): 0.5, (1, 0): 0.4, (2, 1): 0.1}),
                         params={"x": {"default": 0}}, pass_if="total >= 1", replace=True)
    wb.register_mechanic("py-spec", lambda p: RollSpec(((d6, p["dice"]),), stats=(Keep("best", take=1),), total="best"),
                         params={"dice": {"default": 2, "min": 1, "max": 10}}, replace=True)
    try:
        given = wb.check("py-given")
        assert given.p_pass == pytest.approx(0.5) and given.stats["crit"][1] == pytest.approx(0.1)
        with pytest.raises(WorkbenchError, match="no faces"):
            wb.score("py-given", [1])
        assert wb.check("py-spec", dice=2).pmf[6] == pytest.approx(11 / 36)
    finally:
        wb.unregister_mechanic("py-given")
        wb.unregister_mechanic("py-spec")


@pytest.mark.parametrize("score, message", [
    (lambda f: 1.5, "whole number"),
    (lambda f: {"hits": 1}, "total"),
    (lambda f: {"total": 1} if f[0] > 3 else {"total": 1, "x": 2}, "same statistics"),
])
def test_a_scoring_function_that_answers_badly_is_a_clear_error(score, message):
    with pytest.raises(WorkbenchError, match=message):
        evaluate_scored(ScoredRoll(((d6, 2),), score))


def test_too_many_rolls_to_enumerate_are_refused_before_any_call():
    calls = Counter()

    def count(faces):
        calls["n"] += 1
        return 0
    with pytest.raises(WorkbenchError, match="distinct rolls"):
        evaluate_scored(ScoredRoll(((Die.numbered("d100", 100), 8),), count))
    assert calls["n"] == 0


def test_bad_descriptions_are_refused():
    with pytest.raises(WorkbenchError, match="add up to"):
        Outcomes(("total",), {(1,): 0.5})
    with pytest.raises(WorkbenchError, match="reads"):
        ScoredRoll(((d6, 1),), max, reads="sideways")
    wb.register_mechanic("py-bad", lambda p: 3, params={"x": {"default": 0}}, replace=True)
    try:
        with pytest.raises(WorkbenchError, match="ScoredRoll or Outcomes"):
            wb.check("py-bad")
    finally:
        wb.unregister_mechanic("py-bad")
