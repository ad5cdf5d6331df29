"""Stateful play, exact parts and input checks (no simulation): hand-checked small cases."""
import math

import numpy as np
import pytest

from workbench import WorkbenchError, check, versus
from workbench.stateful import clock, clock_table, pool_maximum, rounds_until_hits, taken_out
from workbench.stateful import burn_scene, drama_campaign
from workbench.stateful._markov import absorption_steps


def test_absorbing_chain_geometric():
    chain = absorption_steps(np.array([[0.75]]), np.array([1.0]), 10_000)
    assert chain.mean == pytest.approx(4.0)
    assert chain.probabilities[:2] == pytest.approx([0.25, 0.1875])
    assert chain.tail < 1e-12


def test_absorbing_chain_that_never_ends_has_infinite_mean():
    chain = absorption_steps(np.array([[1.0]]), np.array([1.0]), 50)
    assert math.isinf(chain.mean) and chain.tail == pytest.approx(1.0)


def test_taken_out_yellow_by_hand():
    # Yellow applying: Severe, Moderate, Mild 1/6 each, none 1/2. Two Severes in a row is
    # the only way out in two exchanges; one exchange can never take an empty character out.
    result = taken_out("yellow")
    assert result.probability(1) == 0.0
    assert result.probability(2) == pytest.approx(1 / 36)
    assert result.frame["probability"].sum() + result.tail == pytest.approx(1.0)
    assert result.mean == pytest.approx((result.frame["exchanges"] * result.frame["probability"]).sum(), rel=1e-9)


def test_taken_out_with_every_slot_filled_is_geometric():
    # Any condition takes a full character out: yellow applies one with probability 1/2.
    result = taken_out("yellow", start=["Mild", "Moderate", "Severe"])
    assert result.mean == pytest.approx(2.0)
    assert result.probability(1) == pytest.approx(0.5)


def test_resisting_blue_die_only_mild_conditions():
    # Blue resisting: NO! BUT... (Mild) 1/6, otherwise none. Mild, then Mild -> Moderate,
    # then -> Severe, then out: 4 conditions, each a geometric wait of mean 6.
    assert taken_out(mode="resist", reactor="blue").mean == pytest.approx(24.0)


def test_death_spiral_shortens_fights():
    plain = taken_out(mode="resist", reactor="green").mean
    spiral = taken_out(mode="resist", reactor="green", death_spiral=True).mean
    assert spiral < plain
    # With the spiral every step uses a worse die, never a better one.
    assert taken_out("yellow", death_spiral=True).mean < taken_out("yellow").mean


def test_contest_is_slower_than_either_roll_alone():
    both = taken_out("yellow", "yellow", mode="contest").mean
    assert both > taken_out("yellow").mean
    assert both > taken_out(mode="resist", reactor="yellow").mean


def test_six_dice_variant_has_a_purple_die():
    fast = taken_out("purple", system="erzahlspiel-six-dice").mean
    assert fast < taken_out("blue", system="erzahlspiel-six-dice").mean


def test_clock_by_hand():
    yellow = clock(4, "yellow")
    # Within two rolls: 3 then any mark, 2 then 2+, 1 then 3 -> 1/12 + 1/18 + 1/36.
    assert yellow.within(2) == pytest.approx(1 / 6)
    assert clock(4, "black").mean == pytest.approx(24.0)   # one mark on a 6 only
    assert clock(1, "blue").mean == pytest.approx(6 / 5)   # any YES fills a 1-segment clock
    table = clock_table()
    assert list(table.columns) == [4, 6, 8, 10]
    assert (table.diff(axis=1).iloc[:, 1:] > 0).all().all()       # bigger clocks take longer
    assert (table.diff(axis=0).iloc[1:] < 0).all().all()          # better dice take fewer rolls


def test_rounds_until_hits_is_negative_binomial():
    result = rounds_until_hits("uwr", {"dice": 4}, {"dice": 3}, hits=2)
    p = versus("uwr", {"dice": 4}, {"dice": 3}).p_actor
    assert result.params["p_hit"] == pytest.approx(p)
    assert result.mean == pytest.approx(2 / p)
    assert result.probability(1) == 0.0
    assert result.probability(2) == pytest.approx(p * p)
    assert result.probability(3) == pytest.approx(2 * p * p * (1 - p))
    assert result.frame["probability"].sum() == pytest.approx(1.0, abs=1e-11)


def test_fons_attack_resolution_option_changes_the_odds():
    opposed = rounds_until_hits("fons", {"dice": 3}, {"dice": 3})
    target = rounds_until_hits("fons", {"dice": 3, "attack_resolution": "defender_sets_target"},
                               {"dice": 3})
    assert target.params["ties_to"] == "actor" and opposed.params["ties_to"] == "reactor"
    assert target.mean < opposed.mean


def test_pool_maximum_rules():
    assert pool_maximum(4, 1) == 10
    assert pool_maximum(4, 2, "source_page") == 6
    assert pool_maximum(9, 1, "source_page") == 10


@pytest.mark.parametrize("call, names", [
    (lambda: taken_out("purple"), "actor"),
    (lambda: taken_out(mode="sideways"), "mode"),
    (lambda: taken_out("red", "blue"), "reactor"),
    (lambda: taken_out(start=["Grievous"]), "start"),
    (lambda: taken_out(method="guess"), "method"),
    (lambda: clock(0), "segments"),
    (lambda: clock(4, "mauve"), "die"),
    (lambda: rounds_until_hits("uwr", {"dice": 2}, {"dice": 2}, hits=0), "hits"),
    (lambda: drama_campaign([{"d6": 2}], refill_rate=-1), "refill_rate"),
    (lambda: drama_campaign([{"d6": 2}], refill_rate=1.5), "refill_rate"),
    (lambda: drama_campaign([{"d6": 2}], refill="sometimes"), "refill"),
    (lambda: drama_campaign([{"d6": 2}], policy="sometimes"), "policy"),
    (lambda: drama_campaign([{"d6": 2}], policy=[3]), "policy"),
    (lambda: drama_campaign([{"d6": 2}, {"d6": 1}], policy=[1, 1, 1]), "policy"),
    (lambda: drama_campaign([{"d6": 2}], threshold=1.5), "threshold"),
    (lambda: drama_campaign([{"d6": 2, "drama": 1}]), "drama"),
    (lambda: drama_campaign([{"d6": 2}], start=99), "start"),
    (lambda: drama_campaign([{"d6": 2}], players=0), "players"),
    (lambda: drama_campaign([{"d6": 2}], system="uwr"), "system"),
    (lambda: drama_campaign([{"dice": 2}]), "dice"),
    (lambda: drama_campaign([{"d6": 2}], trials=0), "trials"),
    (lambda: burn_scene([{"traits": ["Strong"]}], traits={"Nimble": 2}), "traits"),
    (lambda: burn_scene([{"d6": 1}], policy="maybe"), "policy"),
    (lambda: burn_scene([42]), "scene"),
    (lambda: burn_scene(["rest"]), "scene"),
])
def test_bad_input_names_the_parameter(call, names):
    with pytest.raises(WorkbenchError, match=names):
        call()


def test_narrative_tables_come_from_the_system():
    # The clock's one-roll odds equal the exact check's outcome probabilities.
    odds = check("erzahlspiel", die="green").pmf
    expected = odds["YES! AND..."] + odds["YES!"] + odds["YES! BUT..."]  # any mark fills 1 segment
    assert clock(1, "green").probability(1) == pytest.approx(expected)


@pytest.mark.parametrize("spiral", [False, True])
def test_applying_and_resisting_tables_mirror_each_other(spiral):
    # Green's applying tiers are red's resisting tiers (and blue's are black's), and the
    # death spiral moves them in mirror directions, so the fights last equally long.
    for attacker, defender in (("green", "red"), ("blue", "black"), ("yellow", "yellow")):
        apply = taken_out(attacker, death_spiral=spiral)
        resist = taken_out(mode="resist", reactor=defender, death_spiral=spiral)
        assert apply.mean == pytest.approx(resist.mean)
