"""The second round of gallery games against an independent brute force, and by hand.

Pathfinder 2e, Shadow of the Demon Lord, Mothership 1e, Modiphius 2d20, Hero System (skill
roll and normal damage), Marvel Multiverse d616, ALIEN, Wrath & Glory, Daggerheart, Pendragon
and Sword World 2.x were written from the documentation alone (README.md, data/README.md,
docs/). Each file is checked with the workbench (the exact engine, as a designer runs it)
against ``tests/_gallery_more_brute.py``, which rolls every face of every die without the
workbench and scores the roll by the published rule in plain Python: the distribution of the
total, the tiers, P(pass) and the statistics a designer reads. Each game also has at least one
figure worked by hand, and every one of them goes through pmf, simulate, table, ladder and
sweep on the command line.
"""
from __future__ import annotations

import json
import re
from fractions import Fraction as F
from pathlib import Path

import pytest

import workbench as wb
from workbench.cli import main

try:
    from tests import _gallery_brute as gb
    from tests import _gallery_more_brute as mb
except ImportError:  # tests/ is not a package: pytest puts tests/ itself on sys.path
    import _gallery_brute as gb
    import _gallery_more_brute as mb

TOLERANCE = 1e-12
GALLERY = Path(wb.__file__).parent / "data" / "gallery"

# (system, parameters, [(index in the brute force's outcome, what the workbench reads)])
# "stat:NAME" compares a statistic's distribution, anything else is a condition whose
# probability is compared with P(the brute force's value is true).
CASES: list[tuple[str, dict, list]] = []
for modifier, dc in ((10, 20), (0, 15), (-3, 10), (25, 20), (7, 40), (14, 5)):
    CASES.append(("pathfinder-2e", dict(modifier=modifier, dc=dc), []))
for modifier, boons, banes, target in ((0, 0, 0, 10), (0, 1, 0, 10), (2, 3, 1, 10), (-1, 0, 2, 10),
                                       (1, 2, 2, 14), (3, 4, 0, 18)):
    CASES.append(("demon-lord", dict(modifier=modifier, boons=boons, banes=banes, target=target), []))
for skill, advantage in ((40, 0), (40, 1), (40, -1), (0, 0), (1, 1), (99, -1), (55, 1), (12, 0)):
    CASES.append(("mothership-1e", dict(skill=skill, advantage=advantage), []))
for dice, tn, focus, rng, difficulty in ((2, 10, 1, 1, 1), (3, 12, 4, 2, 2), (5, 9, 9, 5, 4), (1, 16, 20, 3, 0),
                                         (4, 7, 3, 1, 3)):
    CASES.append(("modiphius-2d20", dict(dice=dice, tn=tn, focus=focus, complication_range=rng,
                                         difficulty=difficulty), [(3, "stat:complications")]))
for skill, modifier in ((11, 0), (8, 0), (14, -3), (3, -5), (20, 0), (25, 0), (11, 4)):
    CASES.append(("hero-skill", dict(skill=skill, modifier=modifier), []))
for dice, half, stun in ((1, False, None), (4, False, 14), (0, True, None), (6, True, 20), (3, True, 9)):
    params = dict(dice=dice, half=half) | ({} if stun is None else dict(stun=stun))
    CASES.append(("hero-damage", params, [(3, "stat:body")]))
for ability, target in ((2, 12), (0, 18), (5, 10), (-3, 25), (8, 20)):
    CASES.append(("marvel-d616", dict(ability=ability, target=target), [(3, "fantastic == 1")]))
for dice, stress, target in ((4, 0, 1), (0, 1, 1), (2, 2, 1), (3, 3, 2), (1, 4, 1)):
    CASES.append(("alien-rpg", dict(dice=dice, stress=stress, target=target), [(3, "panic == 1")]))
for dice, dn in ((1, 1), (2, 2), (5, 3), (6, 0), (4, 6), (7, 4)):
    CASES.append(("wrath-and-glory", dict(dice=dice, dn=dn),
                  [(3, "stat:shifts"), (4, "complication == 1"), (5, "critical == 1")]))
for trait, advantage, difficulty in ((1, 0, 12), (3, 1, 15), (-2, -1, 10), (5, 0, 22), (0, 1, 30)):
    CASES.append(("daggerheart", dict(trait=trait, advantage=advantage, difficulty=difficulty), []))
for skill, modifier in ((10, 0), (20, 0), (1, 0), (14, -3), (18, 5), (6, -10)):
    CASES.append(("pendragon", dict(skill=skill, modifier=modifier), []))
for bonus, target in ((4, 10), (0, 13), (11, 12), (-3, 5), (7, 20)):
    CASES.append(("sword-world-2", dict(bonus=bonus, target=target), []))


def _close(ours: dict, brute: dict, what):
    for key in set(ours) | set(brute):
        assert abs(ours.get(key, 0.0) - float(brute.get(key, 0))) <= TOLERANCE, (what, key, ours.get(key),
                                                                                brute.get(key))


@pytest.mark.parametrize("system, params, extras", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_more_gallery_files_against_brute_force(system, params, extras):
    result = wb.check(system, **params)
    dist = mb.GAMES[system](**params)
    _close({int(k): v for k, v in result.pmf.items() if v > 0}, mb.marginal(dist, 0), "total")
    if next(iter(dist))[1] is not None:
        _close(dict(result.tiers.items()), mb.marginal(dist, 1), "tiers")
    if system == "hero-damage" and "stun" not in params:
        assert result.p_pass is None  # no STUN threshold: nothing to pass
    else:
        assert abs(result.p_pass - float(mb.p_pass(dist))) <= TOLERANCE
    for index, read in extras:
        want = mb.marginal(dist, index)
        if read.startswith("stat:"):
            _close({int(k): v for k, v in result.stats[read[5:]].items() if v > 0},
                   {int(k): p for k, p in want.items()}, read)
        else:
            assert abs(result.probability(read) - float(want.get(True, 0))) <= TOLERANCE, read


def test_the_gallery_is_every_brute_forced_game_of_both_rounds():
    gallery = {s.id for s in wb.systems() if s.collection == "gallery"}
    assert set(mb.GAMES) <= gallery
    assert not set(mb.GAMES) & set(gb.MECHANICS)
    assert {c[0] for c in CASES} == set(mb.GAMES)


# Figures worked by hand, one game at a time.

def test_pathfinder_by_hand():
    # +10 against DC 20: a natural 20 (30) is the only critical success, 10-19 succeed, 2-9 fail
    # and a natural 1 (11, a failure) drops to a critical failure.
    tiers = wb.check("pathfinder-2e", modifier=10, dc=20).tiers
    assert tiers["Critical success"] == pytest.approx(1 / 20) and tiers["Success"] == pytest.approx(10 / 20)
    assert tiers["Failure"] == pytest.approx(8 / 20) and tiers["Critical failure"] == pytest.approx(1 / 20)
    # +0 against DC 15: 1-5 are DC - 10 or less (critical failures), 6-14 failures, 15-19
    # successes, and a natural 20 (a success by total) becomes a critical success.
    tiers = wb.check("pathfinder-2e", modifier=0, dc=15).tiers
    assert [tiers[t] for t in ("Critical success", "Success", "Failure", "Critical failure")] == pytest.approx(
        [1 / 20, 5 / 20, 9 / 20, 5 / 20])


def test_demon_lord_by_hand():
    # One boon against 10: with the boon die at b the d20 needs 10 - b or more, (11 + b) / 20;
    # averaged over b = 1..6 that is 14.5 / 20. Two boons and a bane are the same one boon.
    assert wb.check("demon-lord", boons=1).p_pass == pytest.approx(29 / 40)
    assert wb.check("demon-lord", boons=2, banes=1).p_pass == pytest.approx(29 / 40)
    assert wb.check("demon-lord").p_pass == pytest.approx(11 / 20)


def test_mothership_by_hand():
    # Stat 40: 00, 11, 22, 33 are critical successes, the other 36 rolls under 40 successes,
    # 44 ... 99 (six doubles) critical failures, the remaining 54 failures.
    tiers = wb.check("mothership-1e", skill=40).tiers
    assert [tiers[t] for t in ("Critical success", "Success", "Failure", "Critical failure")] == pytest.approx(
        [0.04, 0.36, 0.54, 0.06])
    assert wb.check("mothership-1e", skill=40, advantage=1).p_pass == pytest.approx(1 - 0.6 ** 2)
    assert wb.check("mothership-1e", skill=40, advantage=-1).p_pass == pytest.approx(0.4 ** 2)


def test_modiphius_by_hand():
    # Two d20s under 10: at least one success 1 - (1/2)^2; a complication 1 - (19/20)^2.
    result = wb.check("modiphius-2d20", dice=2, tn=10, difficulty=1)
    assert result.p_pass == pytest.approx(3 / 4)
    assert result.probability("complications >= 1") == pytest.approx(39 / 400)
    # Without a focus only a 1 scores two: four successes need two 1s.
    assert result.pmf[4] == pytest.approx(1 / 400)


def test_hero_by_hand():
    # 3d6 <= 11 in 135 of 216 rolls; at skill 20 only the 18 fails.
    assert wb.check("hero-skill", skill=11).p_pass == pytest.approx(135 / 216)
    assert wb.check("hero-skill", skill=20).p_pass == pytest.approx(215 / 216)
    assert wb.check("hero-skill", skill=3, modifier=-5).p_pass == pytest.approx(1 / 216)
    # One die: BODY 0, 1, 1, 1, 1, 2 (mean 1); two dice show 4 BODY only on 6-6.
    assert wb.check("hero-damage", dice=1).stats["body"].mean == pytest.approx(1)
    assert wb.check("hero-damage", dice=2).stats["body"][4] == pytest.approx(1 / 36)
    # A half die alone: STUN 1, 2 or 3, BODY 1 on 4-6.
    half = wb.check("hero-damage", dice=0, half=True)
    assert half.pmf.to_dict() == pytest.approx({"1": 1 / 3, "2": 1 / 3, "3": 1 / 3})
    assert half.stats["body"][1] == pytest.approx(1 / 2)


def test_marvel_by_hand():
    # The Marvel symbol in 1 roll of 6; with it (6 points) and ability 2 the two d6 need 4+
    # against 12, in 33 of 36 rolls, one of which (6-M-6) is Ultimate Fantastic.
    tiers = wb.check("marvel-d616", ability=2, target=12).tiers
    assert tiers["Ultimate Fantastic"] == pytest.approx(1 / 216)
    assert tiers["Fantastic success"] == pytest.approx(32 / 216)
    # 6-M-6 succeeds even when the target is out of reach.
    assert wb.check("marvel-d616", ability=-3, target=40).p_pass == pytest.approx(1 / 216)


def test_alien_by_hand():
    assert wb.check("alien-rpg", dice=4).p_pass == pytest.approx(1 - (5 / 6) ** 4)
    result = wb.check("alien-rpg", dice=2, stress=2)
    assert result.probability("panic == 1") == pytest.approx(11 / 36)
    # A true/false statistic stands alone in .probability, as in --condition and the file.
    assert result.probability("panic") == result.probability("panic == 1")
    assert result.probability("not panic") == pytest.approx(25 / 36)
    assert wb.simulate("alien-rpg", dice=2, stress=2, trials=20_000, seed=1).probability("panic") == \
        pytest.approx(11 / 36, abs=0.02)
    with pytest.raises(wb.WorkbenchError, match="is a number, not a condition"):
        result.probability("panic_faces")   # a count still needs comparing
    assert result.tiers["Success, panic"] + result.tiers["Failure, panic"] == pytest.approx(11 / 36)


def test_wrath_and_glory_by_hand():
    # The Wrath die alone: no icon 1/2, one 1/3, two 1/6; a complication on its 1.
    alone = wb.check("wrath-and-glory", dice=1, dn=1)
    assert alone.pmf.to_dict() == pytest.approx({"0": 1 / 2, "1": 1 / 3, "2": 1 / 6})
    assert alone.probability("complication == 1") == pytest.approx(1 / 6)
    # Two dice against DN 2: fail with 0 icons (1/4) or 1 icon (2 * 1/2 * 1/3).
    assert wb.check("wrath-and-glory", dice=2, dn=2).p_pass == pytest.approx(5 / 12)
    # DN 0, two dice: 6-6 shifts both, one 6 shifts it.
    assert wb.check("wrath-and-glory", dice=2, dn=0).stats["shifts"].to_dict() == pytest.approx(
        {"0": 25 / 36, "1": 10 / 36, "2": 1 / 36})


def test_daggerheart_by_hand():
    # Matching d12s in 12 of 144 rolls; Hope above Fear in 66 of the rest.
    result = wb.check("daggerheart", trait=1, difficulty=40)
    assert result.p_pass == pytest.approx(1 / 12)
    assert result.tiers["Critical success"] == pytest.approx(1 / 12)
    assert result.tiers["Failure with Hope"] == pytest.approx(66 / 144)


def test_pendragon_by_hand():
    tiers = wb.check("pendragon", skill=10).tiers
    assert [tiers[t] for t in ("Critical", "Success", "Failure", "Fumble")] == pytest.approx(
        [1 / 20, 9 / 20, 9 / 20, 1 / 20])
    at_twenty = wb.check("pendragon", skill=20)
    assert at_twenty.p_pass == pytest.approx(1) and at_twenty.tiers["Critical"] == pytest.approx(1 / 20)


def test_sword_world_by_hand():
    # +4 against 10: 2d6 of 6 or more, 26 of 36; at +11 only the 1-1 fails.
    assert wb.check("sword-world-2", bonus=4, target=10).p_pass == pytest.approx(26 / 36)
    assert wb.check("sword-world-2", bonus=11, target=12).p_pass == pytest.approx(35 / 36)
    assert wb.check("sword-world-2", bonus=-3, target=20).p_pass == pytest.approx(1 / 36)


def test_brute_force_sanity():
    # The brute force itself on figures known without it.
    assert mb.p_pass(mb.hero_skill(10)) == F(1, 2)
    assert mb.marginal(mb.pathfinder_2e(0, 15), 1)["Critical failure"] == F(5, 20)
    assert sum(mb.mothership(40, 1).values()) == 1


# Every command a designer reaches for, on every new game: no traceback, sensible output.

def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("system", sorted(mb.GAMES))
def test_every_command_works_on_the_new_games(capsys, system):
    sys_ = wb.system(system)
    code, out, err = _run(capsys, "pmf", system, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert sum(data["pmf"].values()) == pytest.approx(1)
    code, out, err = _run(capsys, "pmf", system, "--simulate", "--trials", "20000", "--seed", "1", "--format", "json")
    assert code == 0, err
    simulated = json.loads(out)
    exact = wb.check(system)
    if exact.p_pass is not None:
        assert abs(simulated["p_pass"] - exact.p_pass) < 0.02
    code, out, err = _run(capsys, "table", system, "--format", "csv")
    assert code == 0 and len(out.strip().splitlines()) == len(sys_.ladder) + 1, err
    code, out, err = _run(capsys, "ladder", system, "--want", "Easy=0.8,Hard=0.3", "--format", "json")
    assert code == 0, err
    assert [r["name"] for r in json.loads(out)["rungs"]] == ["Easy", "Hard"]
    code, out, err = _run(capsys, "sweep", "check", "--grid", f"{sys_.pool_parameter}={_two_values(sys_)}",
                          f"system={system}")
    assert code == 0, err
    header, *rows = out.strip().splitlines()
    assert len(rows) == 2 and header.startswith(sys_.pool_parameter + ",") and "mean" in header


def _two_values(sys_) -> str:
    param = sys_.params[sys_.pool_parameter]
    low = max(param.minimum, 1)
    return f"{low},{low + 1}"


def test_the_ladder_solver_tries_negative_modifiers():
    """Whole-number knobs that may go below 1 (modifiers) are tried over their whole range
    (they were once tried from 1 upwards only, so these rungs were called unreachable)."""
    # Pendragon skill 10 at -5 passes 25% of the time; Warhammer 4e skill 40 at -20 passes 20%.
    assert wb.check("pendragon", skill=10, modifier=-5).p_pass == pytest.approx(0.25)
    assert wb.check("warhammer-4e", skill=40, modifier=-20).p_pass == pytest.approx(0.2)
    pendragon = wb.solve_ladder("pendragon", {"Hard": 0.25}, pool=10)
    assert pendragon.unreachable == [] and pendragon.rungs[0].rung.set == {"modifier": -5}
    warhammer = wb.solve_ladder("warhammer-4e", {"Easy": 0.6, "Average": 0.4, "Hard": 0.2}, pool=40)
    assert [r.rung.set["modifier"] for r in warhammer.rungs] == [20, 0, -20]
    # Mothership's advantage (-1, 0, 1): all three are tried, each rung gets its own.
    mothership = wb.solve_ladder("mothership-1e", {"Advantage": 0.9, "Plain": 0.4, "Disadvantage": 0.1}, pool=40)
    assert sorted(r.rung.set["advantage"] for r in mothership.rungs) == [-1, 0, 1]


def test_a_ladder_that_adds_big_steps_tries_steps_of_that_size(tmp_path):
    """Rungs that add -10 / -20 to a modifier are solved in steps of 10 (up to twice the
    largest), not the -2 to +2 that suits favor +1."""
    from workbench.ladders.search import difficulty_knobs
    assert difficulty_knobs("uwr")["favor"] == (-2, -1, 0, 1, 2)   # favor +1: as before
    source = (GALLERY / "warhammer-4e.toml").read_text()
    adding = source.replace('id = "warhammer-4e"', 'id = "warhammer-adds"')
    adding = re.sub(r"set = \{ modifier = (-?\d+) \}", r"add = { modifier = \1 }", adding)
    assert "add = { modifier = -20 }" in adding
    path = tmp_path / "warhammer-adds.toml"
    path.write_text(adding)
    steps = difficulty_knobs(str(path))["modifier"]
    assert steps == tuple(range(-80, 81, 10)), steps
    solution = wb.solve_ladder(str(path), {"Hard": 0.2}, pool=40)
    assert solution.unreachable == [] and solution.rungs[0].rung.add == {"modifier": -20}
