"""Every TOML example in data/README.md loads and computes, and says what the text says."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import workbench as wb

README = Path(__file__).resolve().parents[1] / "data" / "README.md"
EXAMPLES = re.findall(r"```toml\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_there_is_an_example_per_feature():
    text = "\n".join(EXAMPLES)
    for key in ("explode_limit", "explode_into", "shift_faces", "reroll_misses", "keep_at_least", "past",
                "cancel = [", "add_to_target", "remove_floor", "obstacle", "on.A.faces", "[[cancel_out]]",
                "[[tiers]]", "all_negative", "[outcome]", "[versus]", "ties = \"actor\"", "base = ",
                "[defaults]", "[shorthand.stat]", "when = {", "[[ladder]]",
                # beyond a sum: every key of the roll engine
                "sides = ", "counts = {", "count = 1", "total = ", "ceiling = ", "pass_if = ",
                "condition = ", "keep = ", "drop = ", "pick = ", "position", "beats = ", "pairs = ", "ties = \"lose\"",
                "largest_set = ", "sets = ", "sum = ", "expression = ", "score = ", "percentile = true",
                "tens_dice = ", "points = ", "tier_order = "):
        assert key in text, key


@pytest.mark.parametrize("number", range(len(EXAMPLES)))
def test_example_loads_and_checks(tmp_path, number):
    path = tmp_path / f"example{number}.toml"
    path.write_text(EXAMPLES[number], encoding="utf-8")
    system = wb.load_system(path)
    result = wb.check(system)
    assert sum(p for _, p in result.pmf.items()) == pytest.approx(1.0, abs=1e-9)
    if system.pool_parameter and system.ladder:
        assert len(wb.difficulty_table(system, [1, 3])) == len(system.ladder)


def load(name: str, folder: Path) -> wb.System:
    text = next(e for e in EXAMPLES if f'id = "{name}"' in e)
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return wb.load_system(path)


def test_examples_do_what_the_text_says(tmp_path):
    double = load("d10-double", tmp_path)
    assert double.pool(dice=1).groups[0][0].values == (-1, 0, 0, 0, 0, 0, 1, 1, 1, 2)
    tour = load("every-effect", tmp_path)
    assert wb.check(tour, dice=1, favor=1).pmf[1] == pytest.approx(0.5)
    assert wb.check(tour, dice=3, wound=5).params["wound"] == 5 and tour.pool(dice=3, wound=5).dice == 1
    assert tour.pool(dice=3, luck=2).dice == 4
    assert min(wb.check(tour, curse=True).pmf.outcomes) == 0
    assert min(wb.check(tour, curse=True, reckless=True).pmf.outcomes) == -3
    assert wb.check(tour, ob=2, hard_mode="on").extra["effective_ob"] == 3
    quality = load("quality-dice", tmp_path)
    assert wb.check(quality, stat="A4").params == {"quality": "A", "dice": 4}
    cancels = load("bonus-penalty", tmp_path)
    assert cancels.pool(bonus=1, penalty=1).dice == 2
    assert cancels.pool(bonus=1, penalty=1, cancelling="no").dice == 3
    botch = load("botch-tiers", tmp_path)
    res = wb.check(botch, dice=2)
    assert res.tiers["Botch"] == pytest.approx(1 / 36)
    fate = load("fate-die", tmp_path)
    assert wb.check(fate).pmf["Yes"] == pytest.approx(2 / 6) and wb.check(fate).p_pass == pytest.approx(4 / 6)
    duel = load("duel-dice", tmp_path)
    assert wb.versus(duel, {"dice": 2}, {"dice": 0}).p_actor == 1.0
    assert wb.versus(duel, {"parry": "sets_target"}, {}).ties_to == "actor"
    variant = load("uwr-sixes-explode-wide", tmp_path)
    assert variant.base == "uwr" and variant.description == ""
    assert variant.params["favor"].default == 1


def test_the_statistics_examples_do_what_the_text_says(tmp_path):
    glitch = load("glitching-pool", tmp_path)
    res = wb.check(glitch, dice=2)
    assert res.tiers["Critical glitch"] == pytest.approx(1 / 36)          # both dice show 1
    assert res.probability("ones > dice / 2") == pytest.approx(1 / 36)
    assert set(res.stats) == {"total", "hits", "ones"}
    mixed = load("mixed-keep", tmp_path)
    one = wb.check(mixed, d6=0, d8=1, d10=0)
    assert one.stats["kept"][0] == pytest.approx(1 / 8) and one.stats["botch"][1] == pytest.approx(1 / 8)
    three = wb.check(mixed, d6=3, d8=0, d10=0)
    assert three.stats["middle_die"][6] == pytest.approx(16 / 216)             # two or three sixes
    assert three.stats["second_die"][6] == pytest.approx(16 / 216)
    assert three.stats["without_lowest"][12] == pytest.approx(16 / 216)        # 6 + 6 kept
    assert wb.check(mixed, d6=4, d8=0, d10=0).stats["without_lowest"][18] == pytest.approx(21 / 1296)
    action = load("action-vs-challenge", tmp_path)
    capped = wb.check(action, stat=5)
    assert max(capped.pmf.outcomes) == 10 and capped.pmf[10] == pytest.approx(2 / 6)   # the ceiling
    assert wb.check(action, stat=0).tiers["Strong hit"] == pytest.approx(
        sum((a - 1) ** 2 for a in range(1, 7)) / 600)                           # both d10s below
    battle = load("battle-and-sets", tmp_path)
    duel = wb.check(battle, attackers=1, defenders=1)
    assert duel.pmf[1] == pytest.approx(15 / 36) and duel.stats["beaten"][1] == pytest.approx(15 / 36)
    assert wb.check(battle, attackers=2, defenders=1).stats["width"][2] == pytest.approx(1 / 6)
    percentile = load("percentile-skill", tmp_path)
    assert wb.check(percentile, skill=50).p_pass == pytest.approx(0.5)
    assert wb.check(percentile, skill=50, bonus=1, penalty=1).p_pass == pytest.approx(0.5)
    assert wb.check(percentile, skill=50, bonus=1).p_pass > 0.7
    highest = load("highest-die", tmp_path)
    assert wb.check(highest, dice=0).p_pass == pytest.approx(0.25)            # the lower of two
    assert wb.check(highest, dice=2).tiers["Critical"] == pytest.approx(1 / 36)
    assert wb.check(highest, dice=2).tiers.outcomes == (
        "Bad outcome", "Partial success", "Full success", "Critical")              # tier_order
