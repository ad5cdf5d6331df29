"""The gallery of published mechanics (workbench/data/gallery) against independent brute force.

Each gallery file is checked with the workbench (exact engine, as a designer runs it) against
``tests/_gallery_brute.py``, which rolls every face of every die without the workbench: the
joint distribution of the statistics both read, the tiers against the brute force's outcome
labels, and P(pass). Agreement is to 1e-12 plus the probability either side leaves
unexplored in explosion chains (below 1e-13).
"""
from __future__ import annotations

from collections import defaultdict

import pytest

import workbench as wb

try:
    from tests import _gallery_brute as gb
    from tests import _gallery_more_brute as mb
except ImportError:  # tests/ is not a package: pytest puts tests/ itself on sys.path
    import _gallery_brute as gb
    import _gallery_more_brute as mb

TOLERANCE = 1e-12


def _norm(value):
    return int(value) if isinstance(value, (bool, int)) else value


def ours(result, names) -> dict:
    """Our joint distribution of ``names`` (the total alone for a sum-only system)."""
    if result.joint is None:
        assert names == ["total"]
        return {(int(o),): p for o, p in result.pmf.items() if p > 0}
    columns = [result.joint.names.index(n) for n in names]
    out: dict = defaultdict(float)
    for row, p in zip(result.joint.values.tolist(), result.joint.probabilities.tolist()):
        out[tuple(row[c] for c in columns)] += p
    return dict(out)


def brute(dist, fields) -> dict:
    out: dict = defaultdict(float)
    for outcome, p in dist.items():
        out[tuple(_norm(getattr(outcome, f)) for f in fields)] += float(p)
    return dict(out)


def assert_close(mine: dict, theirs: dict, slack: float, what: str):
    keys = set(mine) | set(theirs)
    worst = max(abs(mine.get(k, 0.0) - theirs.get(k, 0.0)) for k in keys)
    assert worst <= TOLERANCE + slack, f"{what}: differs by {worst:.3g}"


# (gallery id, our parameters, brute function, its arguments, [(our statistic, brute field)],
#  tiers: {our tier name: brute label} read from brute field `label`, pass: brute predicate)
CASES = []


def case(system, params, mechanic, arguments, pairs, label=None, tiers=None, passed=None):
    CASES.append((system, params, mechanic, arguments, pairs, label, tiers, passed))


for pool in (0, 1, 4):
    for difficulty in (2, 6, 8):
        case("owod", dict(dice=pool, difficulty=difficulty), "owod", dict(pool=pool, difficulty=difficulty),
             [("successes", "successes"), ("ones", "ones"), ("total", "net")], "outcome",
             {"Botch": "botch", "Failure": "failure", "Success": "success"},
             lambda o: o.outcome == "success")
for pool, again in ((0, 10), (3, 10), (4, 8), (2, 9), (2, None)):
    case("cofd", dict(dice=pool, again=f"{again}-again" if again else "no-again"), "cofd",
         dict(pool=pool, again=again), [("total", "successes")], "outcome",
         {"Dramatic failure": "dramatic failure", "Failure": "failure", "Success": "success",
          "Exceptional success": "exceptional success"}, lambda o: o.successes >= 1)
for pool, difficulty, tens in ((4, 1, True), (3, 3, False), (0, 1, True), (5, 2, True)):
    case("exalted", dict(dice=pool, difficulty=difficulty, double_tens=tens), "exalted",
         dict(pool=pool, difficulty=difficulty, double_tens=tens), [("total", "successes")], "outcome",
         {"Botch": "botch", "Success": "success", "Failure": "failure"}, lambda o: o.outcome == "success")
for pool, hunger, difficulty in ((4, 2, 2), (3, 5, 1), (5, 0, 3), (2, 2, 4)):
    case("vampire5", dict(dice=pool, hunger=hunger, difficulty=difficulty), "vampire5",
         dict(pool=pool, hunger=hunger, difficulty=difficulty), [("total", "successes")], "outcome",
         {"Messy critical": "messy critical", "Critical win": "critical win", "Win": "win",
          "Bestial failure": "bestial failure", "Failure": "failure"},
         lambda o: o.outcome in ("messy critical", "critical win", "win"))
for pool in (1, 3, 5):
    case("one-roll-engine", dict(dice=pool), "one_roll_engine", dict(pool=pool),
         [("width", "width"), ("height", "height"), ("sets", "sets")], passed=lambda o: o.width >= 2)
for rolled, kept, target in ((1, 1, 15), (4, 2, 20), (5, 3, 25), (3, 5, 10)):
    case("l5r-4e", dict(roll=rolled, keep=kept, tn=target), "l5r", dict(rolled=rolled, kept=kept, target=target),
         [("total", "total")], passed=lambda o: o.success)
for pool in (1, 2, 5, 6):
    case("shadowrun-5e", dict(dice=pool, threshold=2), "shadowrun", dict(pool=pool),
         [("hits", "hits"), ("ones", "ones")], "glitch",
         {"Critical glitch": "critical glitch", "Glitch": "glitch", "No glitch": "none"},
         lambda o: o.hits >= 2)
for base, skill, gear in ((2, 2, 1), (3, 0, 2), (1, 1, 0)):
    case("year-zero", dict(base=base, skill=skill, gear=gear), "year_zero", dict(base=base, skill=skill, gear=gear),
         [("successes", "successes"), ("base_banes", "base_banes"), ("gear_banes", "gear_banes")],
         passed=lambda o: o.successes >= 1)
for exponent, ob, shade, open_ended in ((4, 2, "black", False), (5, 3, "grey", False),
                                        (4, 3, "white", True), (3, 2, "black", True)):
    case("burning-wheel", dict(exponent=exponent, ob=ob, shade=shade, open_ended=open_ended), "burning_wheel",
         dict(exponent=exponent, obstacle=ob, shade=shade, open_ended=open_ended), [("total", "successes")],
         passed=lambda o: o.passed)
for dice in (0, 1, 2, 4):
    case("blades", dict(dice=dice), "blades", dict(dice=dice), [("total", "result")], "outcome",
         {"Critical": "critical", "Full success": "full success", "Partial success": "partial success",
          "Bad outcome": "bad outcome"}, lambda o: o.result >= 4)
for sizes in ((4,), (6, 6, 8, 10), (4, 12, 12), (8, 8, 8)):
    counts = {f"d{n}": sizes.count(n) for n in (4, 6, 8, 10, 12)}
    case("cortex-prime", dict(counts, difficulty=7), "cortex", dict(dice=sizes),
         [("total", "total"), ("hitches", "hitches")], "botch", {"Botch": True},
         lambda o: not o.botch and o.total > 7)   # the total must beat the difficulty
for dice in (dict(ability=2, proficiency=1, difficulty=2), dict(ability=1, boost=1, challenge=1, setback=1),
             dict(ability=0, difficulty=1), dict(proficiency=2, challenge=2)):
    params = dict(dict.fromkeys(("ability", "proficiency", "boost", "difficulty", "challenge", "setback"), 0), **dice)
    case("genesys", params, "genesys", dice,
         [("successes", "successes"), ("advantage", "advantage"), ("triumphs", "triumphs"),
          ("despairs", "despairs")], passed=lambda o: o.passed)
for trait, modifier, wild, target in ((4, 0, True, 4), (12, -2, True, 4), (8, 0, False, 4), (6, 3, True, 6)):
    case("savage-worlds", dict(trait=f"d{trait}", modifier=modifier, wild_card=wild, target=target),
         "savage_worlds", dict(trait_die=trait, modifier=modifier, wild_card=wild, target=target),
         [("total", "total"), ("raises", "raises")], "outcome",
         {"Critical failure": "critical failure", "Failure": "failure", "Success": "success", "Raise": "raise"},
         lambda o: o.outcome in ("success", "raise"))
for skill, bonus, penalty, difficulty in ((45, 0, 0, 1), (60, 2, 0, 1), (30, 0, 2, 1), (50, 1, 2, 1),
                                          (99, 0, 1, 1), (5, 1, 0, 1), (60, 0, 0, 2), (99, 1, 0, 2),
                                          (4, 0, 0, 5), (80, 0, 2, 5)):
    case("call-of-cthulhu-7e", dict(skill=skill, bonus=bonus, penalty=penalty, difficulty=difficulty),
         "call_of_cthulhu", dict(skill=skill, bonus=bonus, penalty=penalty, difficulty=difficulty),
         [("total", "roll")], "level",
         {"Critical": "critical", "Fumble": "fumble", "Extreme success": "extreme",
          "Hard success": "hard", "Regular success": "regular", "Failure": "failure"},
         lambda o: o.passed)
for skill in (3, 45, 104):
    case("warhammer-4e", dict(skill=skill), "warhammer4e", dict(skill=skill),
         [("total", "roll"), ("success", "success"), ("levels", "levels")], passed=lambda o: o.success)
for skill in (-6, 3, 12, 15, 17):
    case("gurps", dict(skill=skill), "gurps", dict(skill=skill), [("total", "roll"), ("margin", "margin")],
         "outcome", {"Critical success": "critical success", "Critical failure": "critical failure",
                     "Success": "success", "Failure": "failure"},
         lambda o: o.outcome in ("critical success", "success"))
for ability, target in ((2, 11), (0, 15), (5, 9)):
    case("dragon-age", dict(ability=ability, target=target), "dragon_age", dict(ability=ability, target=target),
         [("total", "total"), ("stunt_points", "stunt_points")], passed=lambda o: o.success)
for stat, adds in ((0, 0), (4, 3), (2, 1)):
    case("ironsworn", dict(stat=stat, adds=adds), "ironsworn", dict(stat=stat, adds=adds),
         [("total", "action"), ("match", "match")], "outcome",
         {"Strong hit": "strong hit", "Weak hit": "weak hit", "Miss": "miss"},
         lambda o: o.outcome != "miss")
for stat in (-1, 0, 3):
    case("pbta", dict(stat=stat), "pbta", dict(stat=stat), [("total", "total")], "outcome",
         {"Miss": "miss", "Weak hit": "weak hit", "Strong hit": "strong hit"}, lambda o: o.outcome != "miss")
for dm, target in ((1, 8), (-2, 6), (3, 12)):
    case("traveller", dict(dm=dm, target=target), "traveller", dict(dm=dm, target=target), [("total", "total")],
         passed=lambda o: o.outcome == "success")
for modifier, dc, advantage, disadvantage, attack in ((5, 15, False, False, True), (2, 12, True, False, True),
                                                      (0, 10, False, True, False), (3, 14, True, True, True),
                                                      (9, 25, True, False, False)):
    case("dnd5e", dict(modifier=modifier, dc=dc, advantage=advantage, disadvantage=disadvantage, attack=attack),
         "dnd5e", dict(modifier=modifier, dc=dc, advantage=advantage, disadvantage=disadvantage, attack=attack),
         [("natural", "natural"), ("total", "total"), ("critical", "critical")], passed=lambda o: o.success)
for level in (0, 4, 7):
    case("cypher", dict(level=level), "cypher", dict(level=level), [("total", "natural")], "special",
         {"GM intrusion": "intrusion", "Minor effect": "minor effect", "Major effect": "major effect",
          "Ordinary": None}, lambda o: o.success)
for ability, dr in ((-3, 12), (2, 14), (6, 20)):
    case("mork-borg", dict(ability=ability, dr=dr), "mork_borg", dict(ability=ability, dr=dr),
         [("natural", "natural")], "special", {"Crit": "crit", "Fumble": "fumble", "Ordinary": None},
         lambda o: o.success)
for skill, difficulty in ((2, 3), (0, 0), (5, 1)):
    case("fate", dict(skill=skill, difficulty=difficulty), "fate", dict(skill=skill, difficulty=difficulty),
         [("shifts", "shifts")], "outcome",
         {"Fail": "fail", "Tie": "tie", "Succeed": "success", "Succeed with style": "success with style"},
         lambda o: o.shifts >= 0)
for value, dv in ((8, 15), (14, 13), (4, 21)):
    case("cyberpunk-red", dict(stat_plus_skill=value, dv=dv), "cyberpunk_red", dict(stat_plus_skill=value, dv=dv),
         [("natural", "natural"), ("total", "total")], passed=lambda o: o.success)
for dice, difficulty, pips in ((1, 5, 0), (4, 15, 2), (2, 8, 1)):
    case("star-wars-d6", dict(dice=dice, difficulty=difficulty, pips=pips), "star_wars_d6",
         dict(dice=dice, difficulty=difficulty, pips=pips),
         [("total", "total"), ("complication", "complication")], passed=lambda o: o.success)
for value, difficulty in ((13, 14), (8, 8)):
    case("feng-shui-2", dict(action_value=value, difficulty=difficulty), "feng_shui2",
         dict(action_value=value, difficulty=difficulty), [("swerve", "swerve"), ("boxcars", "boxcars")],
         passed=lambda o: o.success)
for attackers in (1, 2, 3):
    for defenders in (1, 2):
        case("risk", dict(attackers=attackers, defenders=defenders), "risk",
             dict(attackers=attackers, defenders=defenders),
             [("attacker_losses", "attacker_losses"), ("defender_losses", "defender_losses")],
             passed=lambda o: o.defender_losses > o.attacker_losses)


def test_the_gallery_holds_every_brute_forced_game():
    gallery = {s.id for s in wb.systems() if s.collection == "gallery"}
    assert len(gallery) >= 20
    # The second round of games is brute-forced in test_gallery_more.py.
    assert {c[0] for c in CASES} | set(mb.GAMES) == gallery
    assert {c[2] for c in CASES} == set(gb.MECHANICS)


@pytest.mark.parametrize("system, params, mechanic, arguments, pairs, label, tiers, passed", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_gallery_file_against_brute_force(system, params, mechanic, arguments, pairs, label, tiers, passed):
    result = wb.check(system, **params)
    dist = gb.MECHANICS[mechanic](**arguments)
    slack = float(dist.unexplored) + result.lost_mass
    assert_close(ours(result, [p[0] for p in pairs]), brute(dist, [p[1] for p in pairs]), slack, "statistics")
    if tiers is not None:
        labels = brute(dist, [label])
        for name, brute_label in tiers.items():
            want = labels.get((_norm(brute_label),), 0.0)
            assert abs(result.tiers[name] - want) <= TOLERANCE + slack, (name, result.tiers[name], want)
    if passed is not None:
        want = sum(float(p) for outcome, p in dist.items() if passed(outcome))
        assert abs(result.p_pass - want) <= TOLERANCE + slack, (result.p_pass, want)


def test_every_gallery_file_says_what_it_models_and_leaves_out():
    for s in wb.systems():
        if s.collection == "gallery":
            head = s.source.read_text().split("\nid =")[0]
            assert "Models:" in head and "Leaves out:" in head, s.id
