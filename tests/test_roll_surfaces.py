"""Systems with statistics on every surface: load errors, simulation, opposed checks, ladders over
conditions, sweeps, the command line and rulebook blocks (the numbers themselves are checked
against brute force in test_gallery.py and test_roll_bruteforce.py)."""
from __future__ import annotations

import json
import subprocess
import sys
from math import comb

import numpy as np
import pytest

import workbench as wb
from workbench.errors import DataFileError, WorkbenchError
from workbench.rules.roll import Die, RollSpec

from conftest import COUNTED_D6, pool_toml


MODE = '''
[params.mode]
choices = ["a", "b"]
default = "a"
'''


def load(tmp_path, top: str = "", tail: str = ""):
    path = tmp_path / "t.toml"
    path.write_text(pool_toml("t", "T", top=top, die=COUNTED_D6, dice=3, most=20, more=MODE) + tail,
                    encoding="utf-8")
    return wb.load_system(path)


@pytest.mark.parametrize("top, tail, entry, words", [
    ('total = "hitz"', "", "total", "unknown name 'hitz' (did you mean 'hits'?)"),
    ('pass_if = "hits >= 1 and mode == 1"', "", "pass_if",
     "'mode' is a choice among words (a, b): compare it with one of them, e.g. mode == \"a\""),
    ('pass_if = "hits"', "", "pass_if", "is a number, not a condition"),
    ("", '[[tiers]]\nname = "x"\ncondition = "ones = 2"\n', "tiers[0].condition", "use == to compare"),
    ("", '[stats.k]\nkeep = "highest"\ncount = "dicee"\n', "stats.k.count", "did you mean 'dice'"),
    ("", '[stats.k]\npick = "highest"\ndice = "d8"\n', "stats.k.dice", "unknown die type 'd8'"),
    ("", '[stats.k]\nkeep = "highest"\nposition = 2\n', "stats.k", "position does not go with keep"),
    ("", '[stats.k]\nbeats = "d6"\n', "stats.k", "name the first with dice"),
    ("", '[stats.k]\nbeats = "d6"\ndice = "d6"\n', "stats.k.dice", "different die types"),
    ("", '[stats.k]\nexpression = "later + 1"\n[stats.later]\nexpression = "hits"\n', "stats.k.expression",
     "unknown name 'later'"),
    ("", '[stats.hits]\nsum = "value"\n', "stats.hits", "already a count"),
    ("", '[stats.k]\nsum = "value / 2"\n', "stats.k.sum", "use // to round down"),
    ("", '[dice.d100]\npercentile = true\nexplode = [6]\n', "dice.d100", "neither explodes nor counts"),
    ("", '[dice.d4]\nsides = 4\ncounts = { two = [1, 0] }\n', "dice.d4", "one score per face"),
    ("", '[params.x]\ndefault = 0\neffect = { add_dice = "d6", points = "y" }\n', "params.x.effect[0].points",
     "unknown name 'y'"),
])
def test_mistakes_in_statistics_are_load_errors_naming_file_and_entry(tmp_path, top, tail, entry, words):
    with pytest.raises(DataFileError) as caught:
        load(tmp_path, top, tail)
    assert f"entry '{entry}'" in str(caught.value) and words in str(caught.value), str(caught.value)
    assert "t.toml" in str(caught.value)


def test_simulation_draws_from_the_exact_table(tmp_path):
    for system, params in (("shadowrun-5e", {"dice": 6}), ("l5r-4e", {"roll": 5, "keep": 2, "tn": 15}),
                           ("cortex-prime", {}), ("call-of-cthulhu-7e", {"bonus": 1})):
        exact = wb.check(system, **params)
        simulated = wb.simulate(system, trials=200_000, seed=11, **params)
        assert abs(simulated.p_pass - exact.p_pass) < 5 * simulated.p_pass_stderr + 1e-9, system
        assert simulated.stats is not None and simulated.trials == 200_000
        again = wb.simulate(system, trials=200_000, seed=11, **params)
        assert again.pmf == simulated.pmf                                  # a seed repeats


def test_opposed_hits_against_hits():
    result = wb.versus("shadowrun-5e", {"dice": 4}, {"dice": 3})
    hits = [[comb(n, k) * (1 / 3) ** k * (2 / 3) ** (n - k) for k in range(n + 1)] for n in (4, 3)]
    wins = sum(a * b for i, a in enumerate(hits[0]) for j, b in enumerate(hits[1]) if i > j)
    assert result.p_actor == pytest.approx(wins) and result.ties_to == "reactor"


def test_a_ladder_over_a_condition_is_the_ladder_over_its_pass():
    wanted = "Easy=0.9,Average=0.7,Hard=0.4"
    plain = wb.solve_ladder("shadowrun-5e", wanted, pool=8)
    by_condition = wb.solve_ladder("shadowrun-5e", wanted, pool=8, condition="hits >= threshold")
    assert [r.rung for r in plain.rungs] == [r.rung for r in by_condition.rungs]
    glitch = wb.ladder_table("shadowrun-5e", [1, 2, 3], condition="ones * 2 > dice")
    assert glitch.loc["Easy", 1] == pytest.approx(1 / 6) and glitch.loc["Easy", 2] == pytest.approx(1 / 36)
    with pytest.raises(WorkbenchError, match="unknown name"):
        wb.ladder_table("shadowrun-5e", [1], condition="glitches > 0")


def test_a_sweep_of_a_gallery_system_reads_what_check_reads():
    from workbench.sweep import sweep
    grid = sweep("check", {"skill": [20, 60], "bonus": [0, 2]}, system="call-of-cthulhu-7e", progress=False)
    for _, row in grid.iterrows():
        result = wb.check("call-of-cthulhu-7e", skill=int(row["skill"]), bonus=int(row["bonus"]))
        assert row["p_pass"] == pytest.approx(result.p_pass)
        assert row["tier: Hard success"] == pytest.approx(result.tiers["Hard success"])


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "workbench", *args], capture_output=True, text=True, timeout=300)


def test_the_command_line_shows_statistics(assert_one_line):
    done = _cli("pmf", "shadowrun-5e", "dice=2", "--stat", "ones", "--format", "json")
    data = json.loads(done.stdout)
    assert data["stat"] == "ones" and data["pmf"] == {"0": pytest.approx(25 / 36), "1": pytest.approx(10 / 36),
                                                      "2": pytest.approx(1 / 36)}
    assert set(data["stats"]) == {"total", "hits", "ones"} and data["joint"]["names"] == ["total", "hits", "ones"]
    wrong = _cli("pmf", "shadowrun-5e", "--stat", "glitch")
    assert_one_line(wrong.returncode, wrong.stdout, wrong.stderr, contains=("total, hits, ones",))
    listing = json.loads(_cli("systems", "--format", "json").stdout)
    gallery = [e for e in listing if e["collection"] == "gallery"]
    assert len(gallery) >= 20 and listing[0]["collection"] == "systems"
    text = _cli("systems").stdout
    assert text.index("Published games") > text.index("uwr")


def test_rulebook_blocks_take_conditions_and_statistics():
    from workbench.render import BlockOptionError, build_figure, parse_block, table_frame
    block = parse_block("table", "shadowrun-5e", {"pools": "1-2", "condition": "ones * 2 > dice"})
    assert table_frame(block).iloc[0, 2] == pytest.approx(1 / 6)
    figure = build_figure(parse_block("figure", "shadowrun-5e", {"kind": "check", "statistic": "ones"}))
    assert 0.999 < sum(figure.data[0].y) <= 1 + 1e-12   # negligible ends are not drawn
    with pytest.raises(BlockOptionError, match="statistic"):
        parse_block("figure", "shadowrun-5e", {"kind": "check", "statistic": "glitch"})
    # "stat" stays a setting: Ironsworn's parameter, Arrata's shorthand
    assert dict(parse_block("figure", "ironsworn", {"kind": "check", "stat": "3"}).params)["stat"] == "3"


def test_concrete_faces_read_every_statistic():
    roll = wb.score("ironsworn", {"action": [5], "challenge": [4, 9]}, stat=2)
    assert roll.stats == {"total": 7, "action_die": 5, "challenge_high": 9, "challenge_low": 4,
                          "beaten": 1, "match": 0}
    assert roll.tier == "Weak hit" and roll.passed
    savage = wb.score("savage-worlds", {"d8": [8, 3], "wild": [2]}, trait="d8")   # an ace: 8 + 3
    assert savage.net == 11 and savage.stats["raises"] == 1


def test_tables_of_knobs_that_are_not_dice_and_of_systems_without_one():
    """A skill of 1-99 is shown as round skill values, headed "skill 40" (not "40 dice"); a
    system without a pool size shows the share of each tier, not one column per total."""
    from workbench.ladders import default_pool_sizes, difficulty_table
    table = difficulty_table("call-of-cthulhu-7e")
    assert default_pool_sizes("call-of-cthulhu-7e") == list(range(10, 100, 10))
    regular = table.set_index("Difficulty").loc["Regular"]
    assert regular["skill 40"] == pytest.approx(0.40)   # d100 at or under the skill
    assert default_pool_sizes("uwr") == list(range(1, 11))
    assert default_pool_sizes("risk") == [1, 2, 3]
    savage = difficulty_table("savage-worlds").set_index("Difficulty")
    assert list(savage.columns) == ["Setting", "Critical failure", "Failure", "Success", "Raise",
                                    "P(pass)"]
    # d6 trait and d6 Wild Die, both exploding, need 4: fails only if both show 1-3
    assert savage.loc["Standard", "P(pass)"] == pytest.approx(1 - (3 / 6) ** 2)
    assert savage.loc["Standard", "Critical failure"] == pytest.approx(1 / 36)
    assert savage.iloc[:, 1:5].sum(axis=1).tolist() == pytest.approx([1, 1, 1])
    done = _cli("table", "savage-worlds", "--condition", "raises >= 1", "--format", "csv")
    assert done.returncode == 0 and done.stdout.splitlines()[0].endswith("P(raises >= 1)")


def _counts_dice(system) -> bool:
    from workbench.analysis import counts_dice
    return counts_dice(system.id)


def test_the_explorer_draws_every_gallery_system_within_its_pool_bounds():
    """Pool parameters with bounds (Risk attacks with 1-3 dice, a PbtA stat ends at +4): the
    curve stops where the rules do instead of refusing the whole chart."""
    from workbench.figures.frames import curve_frame
    from workbench.widgets import EntrySettings, Explorer, ExplorerSettings, figure
    from workbench.widgets.figures import settled_pools
    frame = curve_frame(["risk", "uwr"], range(1, 9))
    risk = frame[frame["system"] == "risk"]
    assert sorted(set(risk["pool"])) == [1, 2, 3]
    assert risk[risk["pool"] == 2]["p_pass"].iloc[0] == pytest.approx(wb.check("risk", attackers=2).p_pass)
    assert settled_pools(ExplorerSettings((EntrySettings("pbta"),)))[-1] >= 4
    for system in wb.systems():
        if system.collection != "gallery":
            continue
        for view in ("curve", "outcomes", "difference"):
            drawn = figure(ExplorerSettings((EntrySettings(system.id), EntrySettings("uwr")), view=view))
            if view == "difference" and not drawn.data:
                # Pools of another kind (a skill, a stat) are not compared with dice: said so.
                (note,) = [a.text for a in drawn.layout.annotations]
                assert note.startswith(f"Nothing to compare with {system.id}: the other entries grow "
                                       "another kind of pool"), note
                assert wb.system(system.id).pool_parameter is None or not _counts_dice(system)
            else:
                assert drawn.data, (system.id, view)
        Explorer([system.id])


def test_a_report_of_published_games_reads_each_at_its_own_pools():
    """Risk rolls at most 3 dice, Call of Cthulhu's pool knob is a skill: the report reads
    each within its rules (no refusal), at its typical pool, with the numbers check gives."""
    from workbench.analysis import counts_dice, pools_for, typical_pool
    from workbench.report import report_sections
    assert pools_for("risk", range(1, 11)) == [1, 2, 3] and typical_pool("risk") == 3
    assert not counts_dice("dnd5e") and typical_pool("dnd5e") == wb.system("dnd5e").params["modifier"].default
    sections = report_sections(["uwr", "risk", "call-of-cthulhu-7e"], pool_sizes=range(1, 11))
    glance = sections[0].items[0].frame.set_index("pool")
    cthulhu = glance.loc["skill 50"].iloc[-1]
    regular = wb.check("call-of-cthulhu-7e", skill=50, difficulty=1).p_pass
    assert cthulhu.startswith(f"Regular {regular:.1%}")
    ladders = next(s for s in sections if s.title == "Difficulty ladders")
    table = next(item.frame for item in ladders.items if getattr(item, "caption", "").startswith("Call of"))
    assert [c for c in table.columns if c.startswith("skill")] == [f"skill {n}" for n in range(10, 100, 10)]


def test_the_ladder_command_solves_a_skill_system_at_its_default_skill():
    done = _cli("ladder", "call-of-cthulhu-7e", "--want", "Regular=0.5,Hard=0.25", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["pool"] == 50 and data["pools"] == [50]
    achieved = {r["name"]: r["achieved"] for r in data["rungs"]}
    assert achieved == {"Regular": pytest.approx(0.5), "Hard": pytest.approx(0.25)}   # d100 <= 50, <= 25


def test_a_rung_no_pool_reaches_says_so_in_the_systems_own_words():
    skill = wb.solve_ladder("call-of-cthulhu-7e", {"Regular": 0.99}, pool=50)
    note = skill.rungs[0].note
    assert "no pool from skill 20 to skill 80 comes within" in note and "dice" not in note


TWO_D10 = '''id = "better-of-two"
name = "Better of two d10 rolled under a skill"
mechanic = "pool"
pool_parameter = "skill"
total = "kept"
pass_if = "total <= skill"

[dice.first]
sides = 10
count = 1

[dice.second]
sides = 10
count = 1

[stats.first_die]
pick = "highest"
dice = "first"

[stats.second_die]
pick = "highest"
dice = "second"

[stats.kept]
expression = "min(first_die, second_die) if advantage else max(first_die, second_die)"

[stats.margin]
expression = "skill - total"

[params.skill]
default = 5
min = 0
max = 10

[params.advantage]
default = true

[[ladder]]
name = "Plain"
set = {}
'''


@pytest.mark.parametrize("advantage", [True, False])
def test_the_total_may_read_an_expression_that_does_not_read_it(tmp_path, advantage):
    """``total = "kept"`` where kept is an expression over two dice: the total is worked out
    after it; a later expression still reads the total. Checked against every face pair."""
    path = tmp_path / "better.toml"
    path.write_text(TWO_D10)
    result = wb.check(str(path), skill=6, advantage=advantage)
    kept = [min(a, b) if advantage else max(a, b) for a in range(1, 11) for b in range(1, 11)]
    for total in range(1, 11):
        assert result.pmf[total] == pytest.approx(kept.count(total) / 100, abs=1e-12)
    assert result.p_pass == pytest.approx(sum(k <= 6 for k in kept) / 100, abs=1e-12)
    assert result.probability("margin >= 3") == pytest.approx(sum(6 - k >= 3 for k in kept) / 100, abs=1e-12)
    # One concrete roll reads the same way (score), and so does a simulation.
    scored = wb.score(str(path), {"first": [9], "second": [4]}, skill=6, advantage=advantage)
    assert scored.stats["total"] == (4 if advantage else 9) and scored.passed == advantage
    simulated = wb.simulate(str(path), skill=6, advantage=advantage, trials=40_000, seed=3)
    assert simulated.p_pass == pytest.approx(result.p_pass, abs=0.015)


def test_a_total_reading_an_expression_that_reads_the_total_is_a_load_error(tmp_path):
    path = tmp_path / "circle.toml"
    path.write_text(TWO_D10.replace('total = "kept"', 'total = "margin"'))
    with pytest.raises(DataFileError, match=r"total.*reads 'margin', which reads the total \(a circle\)"):
        wb.load_system(path)
    from workbench.rules.roll import Derived, Die, Pick, RollSpec
    d6 = Die.numbered("d6", 6)
    with pytest.raises(WorkbenchError, match="a circle"):
        RollSpec(((d6, 2),), stats=(Pick("high"), Derived("shown", "total + 1")), total="shown")
    ok = RollSpec(((d6, 2),), stats=(Pick("high"), Derived("double", "2 * high")), total="double")
    assert ok.derived_before_total == ("double",)


@pytest.mark.parametrize("given", [dict(modifier=np.array([1, 2])), dict(floor=np.array([1])),
                                   dict(ceiling=np.array([3, 4])), dict(rerolls=np.array([0])),
                                   dict(rerolls=True), dict(modifier=0.0)])
def test_a_rolls_numbers_that_are_not_whole_numbers_are_refused_naming_them(given):
    """A roll's modifier, floor, ceiling and rerolls given as arrays, true/false or floats are
    refused with the name and what is allowed (never a numpy error about truth values)."""
    (name, value), = given.items()
    with pytest.raises(WorkbenchError, match=f"roll: {name} got .*allowed: a whole number"):
        RollSpec(((Die.numbered("d6", 6), 2),), **given)
