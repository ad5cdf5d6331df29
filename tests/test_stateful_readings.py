"""The Erzählspiel readings as rule options, each against the independent brute force.

Taken Out "past a filled Severe" (default) or "as soon as every slot is filled"; conditions
giving no Disadvantage, one step per filled slot, or one step once any slot is filled; the
regular-dice variant and advantage levels for conditions and clocks. The brute force
(tests/_brute.py) plays every face sequence of the first few exchanges from the rules.
"""
import pytest

from workbench import WorkbenchError
from workbench.stateful import clock, taken_out

from _brute import enumerate_rolls, erzahlspiel_clock, erzahlspiel_fight, erzahlspiel_level

LEVEL = {"black": -2, "red": -1, "yellow": 0, "green": 1, "blue": 2}
SLOTS = {1: "Mild", 2: "Moderate", 3: "Severe"}


def brute_steps(procedure, steps):
    probabilities, unexplored = enumerate_rolls(procedure, max_faces=40)
    assert unexplored == 0.0
    return [probabilities.get(n, 0.0) for n in range(1, steps + 1)]


FIGHTS = [
    # (keyword arguments of taken_out, brute force arguments, exchanges compared)
    (dict(actor="yellow", taken_out_when="all_filled"), dict(actor=0, out_when="all_filled"), 6),
    (dict(actor="green", taken_out_when="past_severe"), dict(actor=1), 6),
    (dict(actor="red", death_spiral="any_slot", start=["Mild"]),
     dict(actor=-1, spiral="any_slot", start={1}), 6),
    (dict(actor="red", death_spiral=True, start=["Mild"]),
     dict(actor=-1, spiral="per_slot", start={1}), 6),
    (dict(mode="resist", reactor="green", death_spiral="any_slot", taken_out_when="all_filled"),
     dict(mode="resist", reactor=1, spiral="any_slot", out_when="all_filled"), 6),
    (dict(mode="contest", actor="blue", reactor="yellow", death_spiral="per_slot",
          start=["Moderate"]),
     dict(mode="contest", actor=2, reactor=0, spiral="per_slot", start={2}), 3),
    # the regular-dice variant (1d6, 2d6 or 3d6 kept high or low) and advantage levels
    (dict(actor=1, dice="d6", start=["Mild", "Moderate"]),
     dict(actor=1, dice="d6", start={1, 2}), 3),
    (dict(mode="resist", reactor=-1, dice="d6", death_spiral="any_slot",
          taken_out_when="all_filled", start=["Severe"]),
     dict(mode="resist", reactor=-1, dice="d6", spiral="any_slot", out_when="all_filled",
          start={3}), 2),
    (dict(actor={"advantage": 3}, ladder="spectrum", start=["Mild"]),
     dict(actor=erzahlspiel_level(advantage=3, ladder="spectrum"), start={1}), 5),
    (dict(mode="resist", reactor=-5, taken_out_when="all_filled"),
     dict(mode="resist", reactor=-2, out_when="all_filled"), 5),
]


@pytest.mark.parametrize("kwargs, brute, steps", FIGHTS)
def test_taken_out_readings_match_brute_force(kwargs, brute, steps):
    result = taken_out(**kwargs)
    expected = brute_steps(erzahlspiel_fight(**brute, exchanges=steps), steps)
    assert [result.probability(n) for n in range(1, steps + 1)] == pytest.approx(expected, abs=1e-10)
    assert result.frame["probability"].sum() + result.tail == pytest.approx(1.0)


def test_the_readings_differ_where_they_should():
    past, full = taken_out("yellow"), taken_out("yellow", taken_out_when="all_filled")
    assert full.mean < past.mean          # out one condition earlier in some fights
    # Two Severes are out under both readings (the second has nowhere to go); Mild,
    # Moderate, Severe in three exchanges is out only when every filled slot counts.
    assert past.probability(2) == full.probability(2) == pytest.approx(1 / 36)
    def fills_all(tiers):
        filled = set()
        for tier in tiers:
            while tier in filled:
                tier += 1
            if tier > 3:
                return False
            filled.add(tier)
        return len(filled) == 3
    filling = sum(fills_all((a, b, c)) for a in (1, 2, 3) for b in (1, 2, 3) for c in (1, 2, 3))
    assert filling == 16   # e.g. Mild, Mild (-> Moderate), Mild (-> Severe)
    assert full.probability(3) - past.probability(3) == pytest.approx(filling * (1 / 6) ** 3)
    none = taken_out(mode="resist", reactor="green").mean
    one = taken_out(mode="resist", reactor="green", death_spiral="any_slot").mean
    each = taken_out(mode="resist", reactor="green", death_spiral="per_slot").mean
    assert each < one < none
    assert taken_out(mode="resist", reactor="green", death_spiral=False).mean == none
    assert taken_out(mode="resist", reactor="green", death_spiral=True).mean == each


def test_a_full_start_is_already_out_under_the_all_filled_reading():
    with pytest.raises(WorkbenchError, match="start"):
        taken_out(start=["Mild", "Moderate", "Severe"], taken_out_when="all_filled")


@pytest.mark.parametrize("segments, die, level, dice, rolls", [
    (4, "yellow", 0, "narrative", 5),
    (4, 1, 1, "d6", 3),
    (6, -1, -1, "d6", 3),
    (3, {"advantage": -2}, -2, "narrative", 6),
    (2, 2, 2, "d6", 2),
])
def test_clocks_with_regular_dice_and_advantage_levels_match_brute_force(segments, die, level,
                                                                         dice, rolls):
    result = clock(segments, die, dice=dice)
    expected = brute_steps(erzahlspiel_clock(segments, level, dice, rolls), rolls)
    assert [result.probability(n) for n in range(1, rolls + 1)] == pytest.approx(expected, abs=1e-10)


def test_results_name_the_dice_rolled():
    assert clock(4, 1, dice="d6").params["die"] == "2d6 keep highest"
    assert taken_out(-2, dice="d6").params["actor"] == "3d6 keep lowest"
    assert taken_out("green").params["actor"] == "green"


@pytest.mark.parametrize("call, name", [
    (lambda: taken_out(death_spiral="yes"), "death_spiral"),
    (lambda: taken_out(death_spiral=1), "death_spiral"),
    (lambda: taken_out(taken_out_when="never"), "taken_out_when"),
    (lambda: taken_out(dice="d8"), "dice"),
    (lambda: taken_out(colour="red"), "colour"),
    (lambda: clock(4, 1.5), "die"),
    (lambda: clock(4, {"stat": "B4"}), "die"),
])
def test_bad_readings_are_errors(call, name):
    with pytest.raises(WorkbenchError, match=name):
        call()


def test_simulation_follows_the_new_readings():
    for kwargs in (dict(actor="yellow", taken_out_when="all_filled", death_spiral="any_slot"),
                   dict(mode="resist", reactor=1, dice="d6", death_spiral="per_slot")):
        exact = taken_out(**kwargs)
        simulated = taken_out(**kwargs, method="simulate", trials=100_000, seed=4)
        stderr = simulated.mean_stderr
        assert abs(simulated.mean - exact.mean) < 5 * stderr
    exact, simulated = clock(6, -1, dice="d6"), clock(6, -1, dice="d6", method="simulate",
                                                      trials=100_000, seed=4)
    assert abs(simulated.mean - exact.mean) < 5 * simulated.mean_stderr
