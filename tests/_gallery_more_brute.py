"""Independent brute force for the second round of gallery games (tests/test_gallery_more.py).

Every function rolls every face of every die with itertools.product, scores the roll by the
published rule written out in plain Python (not by the workbench's vocabulary), and returns
exact Fractions: ``{outcome: probability}`` where an outcome is a dict-like tuple
``(total, tier, passed, extras...)``. Nothing here imports the workbench.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

D6 = range(1, 7)
D12 = range(1, 13)
D20 = range(1, 21)


def enumerate_rolls(dice, score):
    """``score(roll)`` -> a hashable outcome, for every roll of ``dice`` (lists of faces)."""
    counts = Counter(score(roll) for roll in product(*dice))
    n = sum(counts.values())
    return {outcome: Fraction(k, n) for outcome, k in counts.items()}


def marginal(dist, index):
    out: Counter = Counter()
    for outcome, p in dist.items():
        out[outcome[index]] += p
    return dict(out)


def p_pass(dist):
    return sum((p for o, p in dist.items() if o[2]), Fraction(0))


# Pathfinder 2e: d20 + modifier against a DC, four degrees, natural 20 / 1 move one step.
PF2_DEGREES = ["Critical failure", "Failure", "Success", "Critical success"]


def pathfinder_2e(modifier, dc):
    def score(roll):
        (nat,) = roll
        total = nat + modifier
        if total >= dc + 10:
            degree = 3
        elif total >= dc:
            degree = 2
        elif total <= dc - 10:
            degree = 0
        else:
            degree = 1
        if nat == 20:
            degree = min(3, degree + 1)
        elif nat == 1:
            degree = max(0, degree - 1)
        return (total, PF2_DEGREES[degree], degree >= 2)

    return enumerate_rolls([D20], score)


# Shadow of the Demon Lord: d20 + modifier + highest boon d6 - highest bane d6 (cancelled first).
def demon_lord(modifier=0, boons=0, banes=0, target=10):
    net = boons - banes
    n_boons, n_banes = max(net, 0), max(-net, 0)

    def score(roll):
        nat, rest = roll[0], roll[1:]
        boon = max(rest[:n_boons], default=0)
        bane = max(rest[n_boons:], default=0)
        total = nat + modifier + boon - bane
        return (total, None, total >= target)

    return enumerate_rolls([D20] + [D6] * (n_boons + n_banes), score)


# Mothership 1e: d100 read 0-99 under the skill; doubles are criticals; [+]/[-] roll two.
MOTHERSHIP_DEGREES = ["Critical failure", "Failure", "Success", "Critical success"]


def mothership(skill, advantage=0):
    def degree(x):
        double = x // 10 == x % 10
        if x < skill:
            return 3 if double else 2
        return 0 if double else 1

    def score(roll):
        degrees = [degree(x) for x in roll]
        d = max(degrees) if advantage > 0 else min(degrees)
        # The roll kept is one of degree d: the lower of two with advantage, else the higher.
        of_degree = [x for x, g in zip(roll, degrees) if g == d]
        shown = min(of_degree) if advantage > 0 else max(of_degree)
        return (shown, MOTHERSHIP_DEGREES[d], d >= 2)

    return enumerate_rolls([range(100)] * (2 if advantage else 1), score)


# Modiphius 2d20: each d20 <= TN one success, <= focus two; complication on 21 - range or more.
def modiphius(dice=2, tn=10, focus=1, complication_range=1, difficulty=1):
    def score(roll):
        successes = sum((x <= tn) + (x <= tn and x <= focus) for x in roll)
        complications = sum(x > 20 - complication_range for x in roll)
        passed = successes >= difficulty
        if passed:
            tier = "Success with complication" if complications else "Success"
        else:
            tier = "Failure with complication" if complications else "Failure"
        return (successes, tier, passed, complications)

    return enumerate_rolls([D20] * dice, score)


# Hero System: 3d6 at or under the skill; 3 always succeeds, 18 always fails.
def hero_skill(skill, modifier=0):
    def score(roll):
        total = sum(roll)
        passed = total == 3 or (total != 18 and total <= skill + modifier)
        return (total, "Success" if passed else "Failure", passed)

    return enumerate_rolls([D6] * 3, score)


# Hero System normal damage: STUN is the sum; BODY 0 on a 1, 2 on a 6, else 1.
# A half die: STUN is half the die rounded up, BODY 1 on 4-6.
def hero_damage(dice, half=False, stun=None):
    def score(roll):
        whole, extra = roll[:dice], roll[dice:]
        total = sum(whole) + sum((x + 1) // 2 for x in extra)
        body = sum(0 if x == 1 else 2 if x == 6 else 1 for x in whole) + sum(
            x >= 4 for x in extra
        )
        return (total, None, stun is not None and total >= stun, body)

    return enumerate_rolls([D6] * (dice + (1 if half else 0)), score)


# Marvel Multiverse: d6, Marvel die, d6; the Marvel die's 1 counts 6 and is Fantastic.
def marvel(ability=2, target=12):
    def score(roll):
        a, m, b = roll
        fantastic = m == 1
        total = a + b + (6 if fantastic else m) + ability
        ultimate = a == 6 and b == 6 and fantastic
        passed = ultimate or total >= target
        if ultimate:
            tier = "Ultimate Fantastic"
        elif passed and fantastic:
            tier = "Fantastic success"
        elif passed:
            tier = "Success"
        else:
            tier = "Failure"
        return (total, tier, passed, fantastic)

    return enumerate_rolls([D6] * 3, score)


# ALIEN: base d6s and stress d6s, 6s succeed; any 1 on a stress die means panic.
def alien(dice=4, stress=0, target=1):
    def score(roll):
        base, stressed = roll[:dice], roll[dice:]
        successes = sum(x == 6 for x in roll)
        panic = any(x == 1 for x in stressed)
        passed = successes >= target
        if successes >= 1:
            tier = "Success, panic" if panic else "Success"
        else:
            tier = "Failure, panic" if panic else "Failure"
        return (successes, tier, passed, panic)

    return enumerate_rolls([D6] * (dice + stress), score)


# Wrath & Glory: d6 pool (one of them the Wrath die); 4-5 one icon, 6 two; shift spare 6s.
def wrath_and_glory(dice=5, dn=3):
    def score(roll):
        wrath = roll[0]
        icons = sum(0 if x <= 3 else 1 if x <= 5 else 2 for x in roll)
        sixes = sum(x == 6 for x in roll)
        shifts = 0
        while shifts < sixes and icons - 2 * (shifts + 1) >= dn:
            shifts += 1
        passed = icons >= dn
        return (icons, "Success" if passed else "Failure", passed, shifts, wrath == 1, wrath == 6)

    return enumerate_rolls([D6] * dice, score)


# Daggerheart: Hope d12 + Fear d12 + trait (+/- a d6); matching dice are a critical success.
def daggerheart(trait=1, advantage=0, difficulty=12):
    def score(roll):
        hope, fear = roll[0], roll[1]
        extra = 0
        if advantage > 0:
            extra = roll[2]
        elif advantage < 0:
            extra = -roll[2]
        total = hope + fear + extra + trait
        critical = hope == fear
        passed = critical or total >= difficulty
        if critical:
            tier = "Critical success"
        elif passed:
            tier = "Success with Hope" if hope > fear else "Success with Fear"
        else:
            tier = "Failure with Hope" if hope > fear else "Failure with Fear"
        return (total, tier, passed)

    return enumerate_rolls([D12, D12] + ([D6] if advantage else []), score)


# Pendragon: d20 under the skill (+ modifier, kept within 0-20); equal is a critical, 20 a fumble.
def pendragon(skill, modifier=0):
    effective = max(0, min(20, skill + modifier))

    def score(roll):
        (x,) = roll
        if x == effective:
            tier = "Critical"
        elif x == 20:
            tier = "Fumble"
        elif x < effective:
            tier = "Success"
        else:
            tier = "Failure"
        return (x, tier, tier in ("Critical", "Success"))

    return enumerate_rolls([D20], score)


# Sword World 2.x: 2d6 + bonus against a target; 6-6 always succeeds, 1-1 always fails.
def sword_world(bonus=4, target=10):
    def score(roll):
        total = sum(roll) + bonus
        if roll == (6, 6):
            tier, passed = "Automatic success", True
        elif roll == (1, 1):
            tier, passed = "Automatic failure", False
        else:
            passed = total >= target
            tier = "Success" if passed else "Failure"
        return (total, tier, passed)

    return enumerate_rolls([D6] * 2, score)


# system id -> the brute force of its core roll (tests/test_gallery_more.py checks the ids
# against the gallery, together with tests/_gallery_brute.py's games).
GAMES = {
    "pathfinder-2e": pathfinder_2e,
    "demon-lord": demon_lord,
    "mothership-1e": mothership,
    "modiphius-2d20": modiphius,
    "hero-skill": hero_skill,
    "hero-damage": hero_damage,
    "marvel-d616": marvel,
    "alien-rpg": alien,
    "wrath-and-glory": wrath_and_glory,
    "daggerheart": daggerheart,
    "pendragon": pendragon,
    "sword-world-2": sword_world,
}
