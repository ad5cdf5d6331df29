"""The verbs a data file says a published roll with, each against every face (brute force
written here, without the engine): keeps beside counts and statistics, rerolled misses and
all-negative tiers beside counts, a push, doubles that roll over, a choice of which die is
read, difficulty steps that set the best dice aside."""
from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

import workbench as wb
from workbench import DataFileError, WorkbenchError

from conftest import pool_toml


def load(tmp_path, text: str, name: str = "system.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def faces(n: int, sides: int = 6):
    return itertools.product(range(1, sides + 1), repeat=n)


def close(found: float, expected) -> None:
    assert found == pytest.approx(float(expected), abs=1e-12)


KEEP_LOWEST = """
id = "worse-of-two"
name = "d6, or the worse of two"
mechanic = "pool"
total = "die"

[dice.d6]
sides = 6
count = 1
counts = { sixes = "face == 6" }

[params.worse]
default = false
effect = { keep_lowest = "d6" }

[stats.die]
pick = "highest"
"""


def test_keep_lowest_beside_statistics_reads_only_the_kept_die(tmp_path):
    """Roll two, keep the lower, written the natural way: every statistic reads the kept die
    (the highest of one kept die is that die; a kept die shows at most one six)."""
    path = load(tmp_path, KEEP_LOWEST)
    result = wb.check(path, worse=True)
    expected = Counter()
    for a, b in faces(2):
        expected[min(a, b)] += Fraction(1, 36)
    for value, chance in expected.items():
        close(result.pmf[value], chance)
    close(result.pmf.mean, Fraction(91, 36))                      # 2.53, not the higher's 4.47
    assert result.stats["sixes"].to_dict() == pytest.approx({"0": 35 / 36, "1": 1 / 36})
    assert result.stats["die"].mean == pytest.approx(91 / 36)
    assert wb.check(path, worse=False).pmf.mean == pytest.approx(3.5)


def test_keep_with_statistics_matches_the_sum_route(tmp_path):
    """The same keep with and without counts gives the same totals (one meaning)."""
    plain = load(tmp_path, KEEP_LOWEST.replace('total = "die"\n', "").replace(
        'counts = { sixes = "face == 6" }\n', "").replace("[stats.die]\npick = \"highest\"\n", ""), "plain.toml")
    counted = load(tmp_path, KEEP_LOWEST)
    for worse in (False, True):
        a, b = wb.check(plain, worse=worse).pmf.to_dict(), wb.check(counted, worse=worse).pmf.to_dict()
        assert a.keys() == b.keys()
        for key in a:
            assert a[key] == pytest.approx(b[key], abs=1e-15)


REROLLS_WITH_COUNTS = pool_toml("edge-with-glitches", "d6 hits, 1s counted, Edge rerolls misses",
                                die="faces = [0, 0, 0, 0, 1, 1]\ncounts = { ones = [1, 0, 0, 0, 0, 0] }",
                                dice=3) + """
[params.edge]
default = 0
min = 0
max = 3
effect = "reroll_misses"

[[tiers]]
name = "Botch"
all_negative = true
passes = false

[[tiers]]
name = "Miss"
max = 0

[[tiers]]
name = "Hit"
min = 1
"""


def test_rerolled_misses_and_all_negative_tiers_beside_counts(tmp_path):
    """Misses (value 0) are rerolled and the new roll's 1s count; a tier of rolls whose
    every die showed a negative face works beside counts (a 1 here is worth 0: no botch)."""
    path = load(tmp_path, REROLLS_WITH_COUNTS)
    for dice, edge in ((2, 1), (3, 2), (3, 0)):
        result = wb.check(path, dice=dice, edge=edge)
        totals, ones = Counter(), Counter()
        for first in faces(dice):
            missed = [i for i, f in enumerate(first) if f <= 4][:edge]
            for again in faces(len(missed)):
                rolled = list(first)
                for i, f in zip(missed, again):
                    rolled[i] = f
                chance = Fraction(1, 6 ** (dice + len(missed)))
                totals[sum(f >= 5 for f in rolled)] += chance
                ones[sum(f == 1 for f in rolled)] += chance
        for value, chance in totals.items():
            close(result.pmf[value], chance)
        for value, chance in ones.items():
            close(result.stats["ones"][value], chance)
        close(result.tiers["Botch"], 0)


def test_all_negative_tiers_read_the_first_faces_beside_counts(tmp_path):
    text = REROLLS_WITH_COUNTS.replace("faces = [0, 0, 0, 0, 1, 1]", "faces = [-1, 0, 0, 0, 1, 1]")
    path = load(tmp_path, text)
    result = wb.check(path, dice=3, edge=1)
    botch = Fraction(0)
    for first in faces(3):
        if all(f == 1 for f in first):   # every die negative: nothing missed, nothing rerolled
            botch += Fraction(1, 216)
    close(result.tiers["Botch"], botch)
    close(result.probability("all_negative == 1"), botch)


def test_reroll_misses_and_keep_at_once_are_refused_naming_the_parameter(tmp_path):
    """Both in one file is fine (a file may use them at different settings); both at once
    has no single meaning and is refused, naming the parameter and the file's entry."""
    text = REROLLS_WITH_COUNTS + """
[params.advantage]
default = false
effect = { keep_highest = "d6" }
"""
    path = load(tmp_path, text)
    assert wb.check(path, edge=1).p_pass is None and wb.check(path, advantage=True).tiers
    with pytest.raises(WorkbenchError, match=r"parameter 'edge'.*rerolls of misses do not combine with "
                                             r"keeping.*params\.edge\.effect\[0\]"):
        wb.check(path, edge=1, advantage=True)


PUSH = pool_toml("push-when-failed", "d6 pool: sixes succeed; a push rerolls 2-5 when no six came up",
                 top='total = "sixes"', die='sides = 6\ncounts = { sixes = "face == 6", banes = "face == 1" }',
                 dice=4, least=1, most=12) + """
[params.push]
choices = ["never", "when_failed", "always"]
default = "when_failed"
on.when_failed.effect = { reroll = [2, 3, 4, 5], if_roll = "sixes == 0" }
on.always.effect = { reroll = [2, 3, 4, 5] }
"""


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("push", ["never", "when_failed", "always"])
def test_a_push_against_every_face(tmp_path, dice, push):
    result = wb.check(load(tmp_path, PUSH), dice=dice, push=push)
    expected = Counter()
    for first in faces(dice):
        pushes = push == "always" or (push == "when_failed" and 6 not in first)
        rerolled = [i for i, f in enumerate(first) if 2 <= f <= 5] if pushes else []
        for again in faces(len(rerolled)):
            final = list(first)
            for i, f in zip(rerolled, again):
                final[i] = f
            expected[(final.count(6), final.count(1))] += Fraction(1, 6 ** (dice + len(rerolled)))
    joint = result.joint
    found = {tuple(int(v) for v in row[[joint.names.index("sixes"), joint.names.index("banes")]]): p
             for row, p in zip(joint.values, joint.probabilities)}
    assert set(found) == set(expected)
    for key, chance in expected.items():
        close(found[key], chance)


def test_a_push_condition_must_be_a_condition_over_the_roll(tmp_path):
    text = PUSH.replace('if_roll = "sixes == 0"', 'if_roll = "sixs == 0"')
    with pytest.raises(DataFileError, match=r"if_roll.*unknown name 'sixs'.*did you mean 'sixes'"):
        wb.load_system(load(tmp_path, text))
    text = PUSH.replace('if_roll = "sixes == 0"', 'if_roll = "sixes"')
    with pytest.raises(DataFileError, match=r"if_roll.*is a number, not a condition"):
        wb.load_system(load(tmp_path, text))


DOUBLES = """
id = "doubles-roll-over"
name = "2d6: doubles add and roll over"
mechanic = "pool"
pool_parameter = "bonus"
total = "high + low"
again_if = "high == low"
again_limit = LIMIT

[dice.d6]
sides = 6
count = 2

[params.bonus]
default = 0
min = -5
max = 5
effect = { add_to_total = 1 }

[stats.high]
pick = "highest"

[stats.low]
pick = "lowest"
"""


def _doubles(limit: int) -> Counter:
    """Totals of 2d6 rolled again on doubles, at most ``limit`` times more, every face."""
    out = Counter()

    def roll(so_far: int, chance: Fraction, left: int):
        for a, b in faces(2):
            here = chance / 36
            if a == b and left:
                roll(so_far + a + b, here, left - 1)
            else:
                out[so_far + a + b] += here
    roll(0, Fraction(1), limit)
    return out


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_doubles_add_and_roll_over(tmp_path, limit):
    result = wb.check(load(tmp_path, DOUBLES.replace("LIMIT", str(limit))), bonus=2)
    expected = _doubles(limit)
    for total, chance in expected.items():
        close(result.pmf[total + 2], chance)
    assert result.lost_mass == 0.0


def test_doubles_without_a_cap_lose_only_the_negligible_tail(tmp_path):
    result = wb.check(load(tmp_path, DOUBLES.replace("again_limit = LIMIT\n", "")))
    assert result.lost_mass < 1e-12
    assert result.pmf.mean == pytest.approx(7 / (1 - 1 / 6), abs=1e-9)
    capped = _doubles(6)
    for total in range(2, 30):
        assert result.pmf[total] == pytest.approx(float(capped.get(total, 0)), abs=1e-4)


def test_again_limit_without_again_if_is_refused(tmp_path):
    text = DOUBLES.replace('again_if = "high == low"\n', "").replace("LIMIT", "2")
    with pytest.raises(DataFileError, match="again_limit caps the rolls made again, but no again_if"):
        wb.load_system(load(tmp_path, text))


READ = """
id = "read-a-die"
name = "Three d10s: read the lowest, middle or highest"
mechanic = "pool"
pool_parameter = "skill"
total = "low if read == \\"lowest\\" else (mid if read == \\"middle\\" else high)"
pass_if = "total + skill >= 10"

[dice.d10]
sides = 10
count = 3

[params.skill]
default = 3
min = 0
max = 9

[params.read]
choices = ["lowest", "middle", "highest"]
default = "middle"

[params.steps]
default = 0
min = 0
max = 2

[stats.low]
pick = "lowest"

[stats.mid]
pick = "middle"

[stats.high]
pick = "highest"
position = "steps + 1"
"""


@pytest.mark.parametrize("read, at", [("lowest", 0), ("middle", 1), ("highest", 2)])
def test_a_choice_of_which_die_is_read(tmp_path, read, at):
    result = wb.check(load(tmp_path, READ), read=read, skill=4)
    passes = sum(Fraction(1, 1000) for roll in faces(3, 10) if sorted(roll)[at] + 4 >= 10)
    close(result.p_pass, passes)
    close(result.probability(f'read == "{read}" and total + skill >= 10'), passes)


@pytest.mark.parametrize("steps", [0, 1, 2])
def test_difficulty_steps_set_the_best_dice_aside(tmp_path, steps):
    result = wb.check(load(tmp_path, READ), read="highest", skill=2, steps=steps)
    passes = sum(Fraction(1, 1000) for roll in faces(3, 10) if sorted(roll, reverse=True)[steps] + 2 >= 10)
    close(result.p_pass, passes)


@pytest.mark.parametrize("text, message", [
    ('total = "low if read == \\"lowst\\" else high"', r"'read' has no choice 'lowst' \(did you mean 'lowest'\?\)"),
    ('total = "low if read else high"', r"'read' is a choice among words \(lowest, middle, highest\): compare it"),
    ('total = "low if read < \\"middle\\" else high"', r"'read' is a choice among words"),
    ('total = "low if skill == \\"x\\" else high"', r"a text \('x'\) is only compared with a parameter whose choices are words"),
])
def test_word_choices_read_only_against_their_words(tmp_path, text, message):
    path = load(tmp_path, READ.replace(READ.splitlines()[5], text))
    with pytest.raises(DataFileError, match=message):
        wb.load_system(path)


def test_a_text_never_reads_use_when(tmp_path):
    """The old advice named a key ('when') that statistics and totals do not have."""
    path = load(tmp_path, READ.replace(READ.splitlines()[5], 'total = "low if read == 1 else high"'))
    with pytest.raises(DataFileError) as caught:
        wb.load_system(path)
    assert "when" not in str(caught.value)
    assert 'read == "lowest"' in str(caught.value)


def test_one_roll_cannot_hold_two_reroll_conditions(tmp_path):
    text = PUSH + """
[params.grit]
default = false
effect = { reroll = [1], if_roll = "banes >= 2" }
"""
    path = load(tmp_path, text)
    with pytest.raises(WorkbenchError, match=r"under another condition"):
        wb.check(path, push="when_failed", grit=True)
    assert wb.check(path, push="never", grit=True).p_pass is None


@pytest.mark.parametrize("with_counts", [False, True])
def test_keeping_the_best_and_the_worst_at_once_is_refused_on_both_routes(tmp_path, with_counts):
    """The sum route refused adv=1 dis=1 while the statistics route netted them to zero: one
    meaning now, whatever else the file reads."""
    text = KEEP_LOWEST.replace('total = "die"\n', "") + """
[params.better]
default = false
effect = { keep_highest = "d6" }
"""
    if not with_counts:
        text = text.replace('counts = { sixes = "face == 6" }\n', "").replace("[stats.die]\npick = \"highest\"\n", "")
    path = load(tmp_path, text)
    with pytest.raises(WorkbenchError, match="keeping the best and the worst at once has no single meaning"):
        wb.check(path, worse=True, better=True)
