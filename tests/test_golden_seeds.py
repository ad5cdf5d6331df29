"""Golden tests: every worked example and table of the seeds (RULES.md lists them).

Each test cites its seed file (in ``/work/shared/seeds``) in its docstring. Concrete rolls go
through :func:`workbench.score` (faces: the initial pool first, then each extra die in the
order rolled); distributions through :func:`workbench.check` and :func:`workbench.versus`.
"""
from __future__ import annotations

import pytest

import workbench
from workbench import ParameterError, WorkbenchError


def ladder_data(system_id: str) -> list[tuple[str, dict, dict]]:
    return [(r.name, dict(r.set), dict(r.add)) for r in workbench.system(system_id).ladder]


# ---------------------------------------------------------------------------------------
# UWR / HKRPG

def test_uwr_difficulty_table():
    """Seed 000_a212a1d3b86c99f2.txt, table of example difficulties for direct checks:
    Easy 1 success +1 favor; Normal 1 success; Difficult 2 successes; Extreme 3 successes."""
    assert ladder_data("uwr") == [
        ("Easy", {"target": 1}, {"favor": 1}),
        ("Normal", {"target": 1}, {}),
        ("Difficult", {"target": 2}, {}),
        ("Extreme", {"target": 3}, {}),
    ]
    assert [r.example for r in workbench.system("uwr").ladder] == [
        "Climb using a rope", "Climb a rough surface", "Climb a wet or flat surface",
        "Climb a wet overhang"]
    assert workbench.system("hkrpg") is workbench.system("uwr")


def test_uwr_ladder_rungs_as_check_settings():
    """Seed 000_a212a1d3b86c99f2.txt: Easy is a 1-success check at +1 favor (4-6 succeed)."""
    uwr = workbench.system("uwr")
    assert uwr.with_rung("Easy", dice=3, favor=-1) == {"dice": 3, "favor": 0, "target": 1}
    easy = workbench.check("uwr", **uwr.with_rung("Easy", dice=2))
    assert easy.p_pass == pytest.approx(1 - (3 / 6) ** 2)
    extreme = workbench.check("uwr", **uwr.with_rung("Extreme", dice=3))
    assert extreme.p_pass == pytest.approx((2 / 6) ** 3)


def test_uwr_favor_success_ranges():
    """Seed 000_a212a1d3b86c99f2.txt: 5-6 succeed; "+1 favor ... a success range of 4-6"."""
    assert workbench.score("uwr", [4], dice=1).successes == 0
    assert workbench.score("uwr", [4], dice=1, favor=1).successes == 1
    assert workbench.score("uwr", [5], dice=1, favor=-5).successes == 0
    assert workbench.score("uwr", [6], dice=1, favor=-5).successes == 1


@pytest.mark.parametrize("grace,rank", [(1, 0), (2, 1), (3, 1), (2, 2), (4, 3)])
@pytest.mark.parametrize("rung", ["Easy", "Normal", "Difficult", "Extreme"])
def test_uwr_branch_walking_rerolls_help(grace, rank, rung):
    """Seed 000_a212a1d3b86c99f2.txt, branch-walking example: a Grace check plus rank dice;
    "Balance" might give +1 reroll, "Tightroping" +2 rerolls. More rerolls, better odds."""
    uwr = workbench.system("uwr")
    dice = grace + rank
    plain, balance, tightroping = (
        workbench.check("uwr", **uwr.with_rung(rung, dice=dice, rerolls=r)).p_pass for r in (0, 1, 2))
    if dice < uwr.with_rung(rung)["target"]:  # too few dice: rerolls cannot make up for it
        assert plain == balance == tightroping == 0.0
    elif dice == 1:  # a die is rerolled at most once: the second reroll has nothing to do
        assert plain < balance == tightroping
    else:
        assert plain < balance < tightroping
    if rung == "Normal":  # one success needed: each reroll gives a failed die one more try
        assert balance == pytest.approx(1 - (4 / 6) ** dice * (4 / 6) ** min(dice, 1))


def test_uwr_attack_vs_dodge():
    """Seed 000_a212a1d3b86c99f2.txt: "If their dodge roll removes all of the attack's
    successes, the attack is nullified"; a tie goes to the check made as a reaction."""
    # favor +4 makes every face a success: two sure successes against two sure successes.
    tie = workbench.versus("uwr", {"dice": 2, "favor": 4}, {"dice": 2, "favor": 4})
    assert tie.ties_to == "reactor"
    assert tie.p_actor == 0.0
    assert tie.margin[0] == pytest.approx(1.0)
    one_left = workbench.versus("uwr", {"dice": 3, "favor": 4}, {"dice": 2, "favor": 4})
    assert one_left.p_actor == pytest.approx(1.0) and one_left.margin[1] == pytest.approx(1.0)
    fair = workbench.versus("uwr", {"dice": 3}, {"dice": 3})
    assert fair.p_actor == pytest.approx(fair.margin.at_least(1))
    assert fair.p_actor < 0.5 < fair.p_actor + fair.margin[0]


# ---------------------------------------------------------------------------------------
# FoNS

def test_fons_ladder_names():
    """Seed 002_55bfc186d903ed0f.txt: Trivial 1 success +1 favor; Average 1; Difficult 2;
    Extreme 3 (the same dice core as UWR, its own names)."""
    assert ladder_data("fons") == [
        ("Trivial", {"target": 1}, {"favor": 1}),
        ("Average", {"target": 1}, {}),
        ("Difficult", {"target": 2}, {}),
        ("Extreme", {"target": 3}, {}),
    ]
    assert workbench.system("fons").ladder[3].example == "Climb a sharp surface"


def test_fons_branch_walking_and_ties():
    """Seed 002_55bfc186d903ed0f.txt: the same Balance/Tightroping example; "If all
    successes are negated from the original check, it fails" (ties to the reactor)."""
    fons = workbench.system("fons")
    odds = [workbench.check("fons", **fons.with_rung("Difficult", dice=3, rerolls=r)).p_pass
            for r in (0, 1, 2)]
    assert odds[0] < odds[1] < odds[2]
    assert workbench.versus("fons", {"dice": 2, "favor": 4}, {"dice": 2, "favor": 4}).p_actor == 0.0


# ---------------------------------------------------------------------------------------
# The Unnamed System

def test_unnamed_safe_cracking_example():
    """Seed 001_9ef7d89e32ac5cb3.txt: "throws 4d6 and gets 1, 4, 5, 6 - two successes and
    one Failure": net 1 -> Success with a Twist (RULES.md: the table governs the prose)."""
    roll = workbench.score("unnamed", [1, 4, 5, 6], d6=4)
    assert (roll.successes, roll.failures, roll.net) == (2, 1, 1)
    assert roll.tier == "Success with a Twist"
    assert roll.passed is True


def test_unnamed_bounce_and_disaster():
    """Seed 001_9ef7d89e32ac5cb3.txt: "Any roll of 7 or higher Bounces - you count the
    success and then roll the die again"; every die failing is a Disaster."""
    roll = workbench.score("unnamed", {"d6": [5], "d8": [8, 7, 2]}, d6=1, d8=1)
    assert (roll.successes, roll.net, roll.tier) == (3, 3, "Triumph")
    assert workbench.score("unnamed", [1, 1], d6=2).tier == "Disaster"
    assert workbench.score("unnamed", [1, 1], d6=2, free_successes=3).tier == "Disaster"
    assert workbench.score("unnamed", [1, 2], d6=2).tier == "Failure"


# ---------------------------------------------------------------------------------------
# Arrata

@pytest.mark.parametrize("stat,faces,net", [
    ("B5", [3, 4, 2, 6, 5], 3),
    ("A4", [1, 3, 3, 6], 3),
    ("S7", [2, 1, 3, 4, 2, 5, 1], 5),
])
def test_arrata_rolling_stats(stat, faces, net):
    """Seed 003_780bd31aa44b74e1.txt, "Rolling Stats - Successes": B5 -> 3, A4 -> 3, S7 -> 5."""
    roll = workbench.score("arrata", faces, stat=stat)
    assert roll.net == roll.successes == net


def test_arrata_obstacle_examples():
    """Seed 003_780bd31aa44b74e1.txt, "Rolling Stats - Obstacle": the S7 Perception roll's
    5 successes beat Ob 4; the uncontested arrow (Ob 0) hits."""
    assert workbench.score("arrata", [2, 1, 3, 4, 2, 5, 1], stat="S7", ob=4).passed is True
    assert workbench.score("arrata", [3, 4, 2, 6, 5], stat="B5", ob=0).passed is True
    assert workbench.score("arrata", [2, 1, 3, 4, 2, 5, 1], stat="S7", ob=6).passed is False


def test_arrata_three_vs_three_the_actor_hits():
    """Seed 003_780bd31aa44b74e1.txt: "he got 3 successes and I was setting the Obstacle for
    him ... he hit me regardless": the defender's successes are the Ob; ties to the actor."""
    shot = workbench.score("arrata", [3, 4, 2, 6, 5], stat="B5", ob=3)  # George's 3 vs my 3
    assert shot.net == 3 and shot.passed is True
    duel = workbench.versus("arrata", {"stat": "B5"}, {"stat": "A4"})
    assert duel.ties_to == "actor"
    assert duel.p_actor == pytest.approx(duel.margin.at_least(0))
    assert duel.p_actor > duel.margin.at_least(1)


def test_arrata_disadvantage_example():
    """Seed 003_780bd31aa44b74e1.txt: A6 with 2 levels of Disadvantage "I'm really rolling an
    A5": 1, 2, 4, 5, 6 -> 3 successes, the 1 takes one away -> 2."""
    roll = workbench.score("arrata", [1, 2, 4, 5, 6], stat="A6", disadvantage=2)
    assert (roll.successes, roll.failures, roll.net) == (3, 1, 2)
    with pytest.raises(WorkbenchError):  # six faces for what is really a five-die roll
        workbench.score("arrata", [1, 2, 4, 5, 6, 3], stat="A6", disadvantage=2)


def test_arrata_advantage_example_counts_four_then_five():
    """Seed 003_780bd31aa44b74e1.txt: B5 with 3 levels of Advantage is an open-ended B7
    rolling 2, 6, 4, 5, 1, 3, 4, then the 6's extra die shows 4. The seed says 5 then 6
    successes; by its own rules (B: 4+) the seven dice give 4 and the extra die makes 5
    (RULES.md section 4 pins 4 -> 5)."""
    seven = [2, 6, 4, 5, 1, 3, 4]
    assert sum(f >= 4 for f in seven) == 4
    with pytest.raises(WorkbenchError):  # the 6 is open-ended: it needs its extra die
        workbench.score("arrata", seven, stat="B5", advantage=3)
    before = workbench.score("arrata", seven + [3], stat="B5", advantage=3)  # extra die a miss
    assert before.net == 4
    after = workbench.score("arrata", seven + [4], stat="B5", advantage=3)
    assert after.net == after.successes == 5
    assert after.net != 6


# ---------------------------------------------------------------------------------------
# Erzählspiel

@pytest.mark.parametrize("colour,sixths,printed", [
    ("black", 1, 16), ("red", 2, 33), ("yellow", 3, 50), ("green", 4, 66), ("blue", 5, 84)])
def test_erzahlspiel_any_yes_per_colour(colour, sixths, printed):
    """Seed 004_0c5906b678ebc6af.txt and the source's probability table: P(any YES) is
    1/6 .. 5/6 (printed 16%, 33%, 50%, 66%, 84%)."""
    p = workbench.check("erzahlspiel", die=colour).p_pass
    assert p == pytest.approx(sixths / 6)
    assert abs(100 * p - printed) < 1


def test_erzahlspiel_yellow_to_red_example():
    """Seed 004_0c5906b678ebc6af.txt: "changing the die from yellow to red changes the chance
    of getting any YES from 50% to 33%"."""
    assert round(100 * workbench.check("erzahlspiel").p_pass) == 50
    assert round(100 * workbench.check("erzahlspiel", advantage=-1).p_pass) == 33


@pytest.mark.parametrize("face,label", [
    (6, "YES! AND..."), (5, "YES!"), (4, "YES! BUT..."), (3, "NO! BUT..."), (2, "NO!"),
    (1, "NO! AND...")])
def test_erzahlspiel_d6_variant_mapping(face, label):
    """Seed 004_0c5906b678ebc6af.txt, the regular-dice variant: 6 -> YES! AND... down to
    1 -> NO! AND...; a single d6 when there is no advantage."""
    roll = workbench.score("erzahlspiel", [face], dice="d6")
    assert roll.outcome == label
    assert roll.passed is (face >= 4)


@pytest.mark.parametrize("advantage,faces,label", [
    (1, [2, 5], "YES!"), (2, [1, 3, 6], "YES! AND..."),
    (-1, [2, 5], "NO!"), (-2, [4, 6, 3], "NO! BUT...")])
def test_erzahlspiel_d6_variant_keeps_highest_or_lowest(advantage, faces, label):
    """Seed 004_0c5906b678ebc6af.txt: Advantage rolls 2d6 keep highest, Overwhelming 3d6;
    Disadvantage 2d6 keep lowest, Overwhelming 3d6 keep lowest."""
    assert workbench.score("erzahlspiel", faces, dice="d6", advantage=advantage).outcome == label
    with pytest.raises(WorkbenchError):
        workbench.score("erzahlspiel", faces[:1], dice="d6", advantage=advantage)


def test_erzahlspiel_die_by_advantage():
    """Seed 004_0c5906b678ebc6af.txt: yellow by default, green with Advantage, blue with
    Overwhelming Advantage, red with Disadvantage, black with Overwhelming Disadvantage."""
    for advantage, colour in [(0, "yellow"), (1, "green"), (2, "blue"), (5, "blue"),
                              (-1, "red"), (-2, "black"), (-4, "black")]:
        by_level = workbench.check("erzahlspiel", advantage=advantage)
        by_colour = workbench.check("erzahlspiel", die=colour)
        assert list(by_level.pmf.probabilities) == list(by_colour.pmf.probabilities)
        assert by_level.extra["rolled"] == colour
    with pytest.raises(ParameterError):
        workbench.check("erzahlspiel", die="green", advantage=1)


def test_fons_uncontested_opposed_check_is_a_guaranteed_success():
    """Seed 002_55bfc186d903ed0f.txt, "Opposed Checks": "by default, any incoming opposed
    check that is not contested is a guaranteed success"."""
    assert workbench.versus("fons", {"dice": 3}, {}).p_actor == 1.0
    assert workbench.versus("fons", {"dice": 1, "favor": -1}, {"dice": 0}).p_actor == 1.0
    # Contested, the reactor's successes still negate the actor's ("If all successes are
    # negated from the original check, it fails").
    assert workbench.versus("fons", {"dice": 1}, {"dice": 1}).p_actor == pytest.approx(1 / 3 * 2 / 3)
