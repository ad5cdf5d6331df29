"""Totals against a target, d100 roll-unders and battles of the gallery brute force.

Each function returns a ``Dist`` of named-tuple outcomes; see ``tests/_gallery_brute.py``.
"""
from __future__ import annotations

from collections import namedtuple
from fractions import Fraction

try:
    from tests._gallery_dice import (Dist, combine_dice, every_roll, exploding_die, relabel,
                                     sum_faces)
except ImportError:  # tests/ is not a package: pytest puts tests/ itself on sys.path
    from _gallery_dice import (Dist, combine_dice, every_roll, exploding_die, relabel,
                               sum_faces)

__all__ = [  # the mechanics, then their outcome types
    "savage_worlds", "call_of_cthulhu", "warhammer4e", "gurps", "dragon_age", "ironsworn",
    "pbta", "traveller", "dnd5e", "cypher", "mork_borg", "fate", "cyberpunk_red",
    "star_wars_d6", "feng_shui2", "risk",
    "SavageRoll", "CthulhuRoll", "WarhammerRoll", "GurpsRoll", "DragonAgeRoll",
    "IronswornRoll", "TwoDiceRoll", "D20Roll", "SpecialD20Roll", "FateRoll", "CyberpunkRoll",
    "WildDieRoll", "FengShuiRoll", "RiskRoll",
]

# ---------------------------------------------------------------------------------------
# Totals against a target

SavageRoll = namedtuple("SavageRoll", "total raises outcome")


def savage_worlds(trait_die: int, modifier: int = 0, wild_card: bool = True,
                  target: int = 4, wild_die: int = 6) -> Dist:
    """Savage Worlds (SWADE) trait roll: a trait die d4-d12, plus a d6 Wild Die for Wild Cards.

    Each die aces: on its highest face it is rolled again and added, as long as it keeps
    doing so. The better of the two dice plus ``modifier`` is the total: a success at
    ``target`` (4) or more, with a raise for every full 4 above it. Outcome: 'critical
    failure' (a Wild Card's trait and Wild Die both show a natural 1, whatever the modifier),
    'failure', 'success', 'raise' (one or more raises; ``raises`` counts them). Left out:
    bennies, Joker bonuses, multi-action penalties, d12+N traits, opposed rolls, and the
    extra d6 the GM may roll for an Extra's critical failure.
    """
    trait = exploding_die(trait_die, lambda f: f == trait_die, sum_faces)
    if wild_card:
        wild = exploding_die(wild_die, lambda f: f == wild_die, sum_faces)
    else:
        wild = Dist({None: Fraction(1)})   # an Extra rolls no Wild Die

    def outcome(pair):
        trait_total, wild_total = pair
        # A chain only totals 1 when its first face is 1 (an ace adds at least the top face).
        if trait_total == 1 and wild_total == 1:
            return SavageRoll(1 + modifier, 0, "critical failure")
        total = max(trait_total, wild_total or 0) + modifier
        raises = (total - target) // 4 if total >= target else 0
        label = "failure" if total < target else "raise" if raises else "success"
        return SavageRoll(total, raises, label)

    return relabel(combine_dice([trait, wild], lambda so_far, r: so_far + (r,), start=()), outcome)


CthulhuRoll = namedtuple("CthulhuRoll", "roll level passed")


def call_of_cthulhu(skill: int, bonus: int = 0, penalty: int = 0, difficulty: int = 1) -> Dist:
    """Call of Cthulhu 7th edition percentile roll, under the skill.

    A units die 0-9 and a tens die 00-90 read 01-100 (tens 00 with units 0 is 100). Each bonus
    die is one more tens die and the lowest resulting roll is kept; each penalty die keeps the
    highest. Bonus and penalty dice cancel one for one; at most two remain. Levels reached:
    'critical' (01), 'extreme' (<= skill/5), 'hard' (<= skill/2), 'regular' (<= skill),
    'failure', and 'fumble': 100, or 96-100 when the value needed at the difficulty (the skill,
    half of it at difficulty 2, a fifth at 5; rounded down) is under 50. ``passed``: 01 always,
    else a roll at or under the value needed (a fumble never). Left out: pushing rolls, luck
    spending, opposed rolls and combat's comparison of levels.
    """
    extra = bonus - penalty
    if abs(extra) > 2:
        raise ValueError("at most two bonus or penalty dice remain after cancelling")
    needed = {1: skill, 2: skill // 2, 5: skill // 5}[difficulty]

    def level(roll):
        if roll == 1:
            return "critical"
        if roll == 100 or (needed < 50 and roll >= 96):
            return "fumble"
        if roll <= skill // 5:
            return "extreme"
        if roll <= skill // 2:
            return "hard"
        return "regular" if roll <= skill else "failure"

    def read(faces):
        units, *tens = faces
        rolls = [100 if t == 0 and units == 0 else 10 * t + units for t in tens]
        roll = min(rolls) if extra > 0 else max(rolls)
        reached = level(roll)
        return CthulhuRoll(roll, reached, reached == "critical" or (reached != "fumble" and roll <= needed))

    return every_roll([range(10)] * (2 + abs(extra)), read)


WarhammerRoll = namedtuple("WarhammerRoll", "roll success levels")


def warhammer4e(skill: int) -> Dist:
    """Warhammer Fantasy Roleplay 4th edition test: d100 (00 reads 100) under the skill.

    Success levels are the skill's tens digit minus the roll's (100 has tens digit 10).
    01-05 always succeed and 96-100 always fail; reading: when that overrides the skill, a
    success that would have negative levels gets +0 and a failure that would have positive
    levels gets -0 (``levels`` 0, told apart by ``success``). Left out: criticals and fumbles
    on doubles, talents adding levels, opposed tests and Fortune rerolls.
    """
    def read(faces):
        roll = faces[0]
        success = roll <= 5 or (roll <= skill and roll < 96)
        levels = skill // 10 - roll // 10
        levels = max(levels, 0) if success else min(levels, 0)
        return WarhammerRoll(roll, success, levels)

    return every_roll([100], read)


GurpsRoll = namedtuple("GurpsRoll", "roll margin outcome")


def gurps(skill: int) -> Dist:
    """GURPS 4th edition success roll: 3d6 at or under the effective skill.

    3 and 4 always succeed and 17 and 18 always fail. Outcome: 'critical success' (3-4, 5 at
    skill 15+, 6 at 16+), 'critical failure' (18; 17 at skill 15 or less; any roll 10 or more
    above the skill), 'success', 'failure'; a critical success wins over the 10-above rule at
    very low skill. ``margin`` = skill - roll. Left out: defaults, quick contests, the
    no-roll-needed rule, damage and rolls against attributes with other criticals.
    """
    def read(faces):
        roll = sum(faces)
        if roll <= 4 or (roll == 5 and skill >= 15) or (roll == 6 and skill >= 16):
            label = "critical success"
        elif roll == 18 or (roll == 17 and skill <= 15) or roll >= skill + 10:
            label = "critical failure"
        elif roll <= skill and roll <= 16:
            label = "success"
        else:
            label = "failure"
        return GurpsRoll(roll, skill - roll, label)

    return every_roll([6] * 3, read)


DragonAgeRoll = namedtuple("DragonAgeRoll", "total success stunt_points")


def dragon_age(ability: int, target: int) -> Dist:
    """AGE system (Dragon Age, Fantasy AGE): 3d6 + ability against a target number.

    The third die is the Dragon Die. Success at total >= target. ``stunt_points`` is the
    Dragon Die's face when any two of the three dice match and the test succeeds, else 0.
    Left out: opposed tests, focus bonuses (add them to ``ability``), stunt costs.
    """
    def read(faces):
        total = sum(faces) + ability
        success = total >= target
        doubles = len(set(faces)) < 3
        return DragonAgeRoll(total, success, faces[2] if doubles and success else 0)

    return every_roll([6] * 3, read)


IronswornRoll = namedtuple("IronswornRoll", "action outcome match")


def ironsworn(stat: int, adds: int = 0) -> Dist:
    """Ironsworn action roll: d6 + stat + adds (capped at 10) against two challenge d10s.

    The action score beats a challenge die when strictly greater (a tie does not beat).
    Outcome: 'strong hit' (beats both), 'weak hit' (one), 'miss' (none); ``match`` when the
    two challenge dice show the same face. Left out: burning momentum, progress rolls,
    negative momentum cancelling the action die.
    """
    def read(faces):
        action, first, second = faces
        score = min(action + stat + adds, 10)
        beaten = (score > first) + (score > second)
        return IronswornRoll(score, ("miss", "weak hit", "strong hit")[beaten], first == second)

    return every_roll([6, 10, 10], read)


TwoDiceRoll = namedtuple("TwoDiceRoll", "total outcome")


def pbta(stat: int) -> Dist:
    """Powered by the Apocalypse move: 2d6 + stat. 'strong hit' 10+, 'weak hit' 7-9, 'miss' 6-.

    Left out: advantage dice (3d6 keep 2) from some hacks, forward/ongoing bonuses (add to
    ``stat``), the 12+ advanced results.
    """
    def read(faces):
        total = sum(faces) + stat
        label = "strong hit" if total >= 10 else "weak hit" if total >= 7 else "miss"
        return TwoDiceRoll(total, label)

    return every_roll([6, 6], read)


def traveller(dm: int, target: int = 8) -> Dist:
    """Traveller (Mongoose 2nd edition) check: 2d6 + DM; 'success' at 8+, else 'failure'.

    The effect of the check is total - 8. Left out: boons and banes (3d6 keep 2), timing,
    and exceptional results from effect 6+.
    """
    return every_roll([6, 6], lambda faces: TwoDiceRoll(
        sum(faces) + dm, "success" if sum(faces) + dm >= target else "failure"))


D20Roll = namedtuple("D20Roll", "natural total success critical")


def dnd5e(modifier: int, dc: int, advantage: bool = False, disadvantage: bool = False,
          attack: bool = True) -> Dist:
    """D&D 5th edition d20 test: d20 + modifier against a DC (or AC), success at total >= DC.

    Advantage rolls 2d20 and keeps the higher, disadvantage the lower; having both rolls one
    d20. For an attack (``attack=True``) a natural 20 always hits and is a critical, and a
    natural 1 always misses; ability checks and saving throws have neither. Left out:
    Halfling Luck, Bless-style extra dice, Elven Accuracy, expanded crit ranges, death saves.
    """
    dice = 2 if advantage != disadvantage else 1

    def read(faces):
        natural = max(faces) if advantage and not disadvantage else min(faces)
        total = natural + modifier
        if attack:
            return D20Roll(natural, total, natural == 20 or (natural != 1 and total >= dc),
                           natural == 20)
        return D20Roll(natural, total, total >= dc, False)

    return every_roll([20] * dice, read)


SpecialD20Roll = namedtuple("SpecialD20Roll", "natural success special")


def cypher(level: int) -> Dist:
    """Cypher System task: d20 against 3 x the task's level (after easing), success at >=.

    Level 0 always succeeds. ``special``: 'intrusion' (natural 1: a GM intrusion, the task
    still succeeds or fails by the number), 'minor effect' (19), 'major effect' (20), or
    None. Left out: effort, skills and assets (they lower ``level``), combat's 17-18 damage.
    """
    def read(faces):
        natural = faces[0]
        special = {1: "intrusion", 19: "minor effect", 20: "major effect"}.get(natural)
        return SpecialD20Roll(natural, level <= 0 or natural >= 3 * level, special)

    return every_roll([20], read)


def mork_borg(ability: int, dr: int = 12) -> Dist:
    """MÖRK BORG test: d20 + ability against a Difficulty Rating, success at total >= DR.

    A natural 20 is a 'crit' (always succeeds), a natural 1 a 'fumble' (always fails).
    Left out: what crits and fumbles do in combat, Omens.
    """
    def read(faces):
        natural = faces[0]
        special = {20: "crit", 1: "fumble"}.get(natural)
        success = natural == 20 or (natural != 1 and natural + ability >= dr)
        return SpecialD20Roll(natural, success, special)

    return every_roll([20], read)


FateRoll = namedtuple("FateRoll", "shifts outcome")


def fate(skill: int, difficulty: int = 0) -> Dist:
    """Fate Core: 4 Fate dice (-1, 0, +1 each) + skill against a difficulty.

    ``shifts`` = total - difficulty. Outcome: 'fail' (< 0), 'tie' (0), 'success' (1-2),
    'success with style' (3+). Left out: invoking aspects, boosts, opposed rolls.
    """
    def read(faces):
        shifts = sum(faces) + skill - difficulty
        label = ("fail" if shifts < 0 else "tie" if shifts == 0
                 else "success" if shifts < 3 else "success with style")
        return FateRoll(shifts, label)

    return every_roll([(-1, 0, 1)] * 4, read)


CyberpunkRoll = namedtuple("CyberpunkRoll", "natural total success")


def cyberpunk_red(stat_plus_skill: int, dv: int) -> Dist:
    """Cyberpunk RED skill check: STAT + Skill + d10 against a Difficulty Value.

    A natural 10 adds a second d10 (critical success), a natural 1 subtracts one (critical
    failure); the second die never explodes again. Reading: the check succeeds when the
    total beats the DV (total > DV; a tie fails). ``natural`` is the first d10. Left out:
    Luck points, complementary skills, opposed checks and critical injuries.
    """
    def read(faces):
        natural, second = faces
        die = natural + (second if natural == 10 else -second if natural == 1 else 0)
        total = die + stat_plus_skill
        return CyberpunkRoll(natural, total, total > dv)

    # The second d10 is always enumerated and only read after a 1 or a 10.
    return every_roll([10, 10], read)


WildDieRoll = namedtuple("WildDieRoll", "total complication success")


def star_wars_d6(dice: int, difficulty: int, pips: int = 0) -> Dist:
    """Star Wars (West End Games D6, 2nd edition revised): ``dice``D + ``pips`` against a
    difficulty, success at total >= difficulty.

    One die is the Wild Die: on a 6 it is rolled again and added, as long as it keeps
    showing 6. A 1 on its first roll is a complication; reading: the Wild Die and the
    highest of the other dice are removed from the total (a 1 after a 6 is simply added).
    Left out: the Gamemaster's other choices for a complication, Force and Character Points.
    """
    others = every_roll([6] * (dice - 1), lambda faces: (sum(faces), max(faces, default=0)))
    wild = exploding_die(6, lambda f: f == 6, sum_faces)

    def outcome(pair):
        (others_total, highest), wild_total = pair
        complication = wild_total == 1   # only a first roll of 1 leaves the chain at 1
        total = others_total - highest + pips if complication else others_total + wild_total + pips
        return WildDieRoll(total, complication, total >= difficulty)

    return relabel(combine_dice([others, wild], lambda so_far, r: so_far + (r,), start=()), outcome)


FengShuiRoll = namedtuple("FengShuiRoll", "swerve success boxcars")


def feng_shui2(action_value: int, difficulty: int) -> Dist:
    """Feng Shui 2 action check: Action Value + positive d6 - negative d6 against a difficulty.

    Each die that shows 6 is rolled again and added to itself, as long as it keeps showing 6.
    ``swerve`` = positive total - negative total; success when action value + swerve >=
    difficulty. ``boxcars``: both dice showed 6 on their first roll (a failure then is
    way-awful). Left out: Fortune dice, the effects of boxcars, Wounds and impairment.
    """
    die = exploding_die(6, lambda f: f == 6, sum_faces)

    def outcome(pair):
        positive, negative = pair
        swerve = positive - negative
        # A chain only totals 7 or more when its first face was 6.
        boxcars = positive > 6 and negative > 6
        return FengShuiRoll(swerve, action_value + swerve >= difficulty, boxcars)

    return relabel(combine_dice([die, die], lambda so_far, r: so_far + (r,), start=()), outcome)


RiskRoll = namedtuple("RiskRoll", "attacker_losses defender_losses")


def risk(attackers: int = 3, defenders: int = 2) -> Dist:
    """Risk battle: up to 3 attacking and 2 defending d6.

    Each side's dice are sorted high to low and paired, highest with highest; in each pair
    the lower die loses one army, and the defender wins ties. Left out: choosing to roll fewer
    dice, continuing the battle over several rolls.
    """
    if not (1 <= attackers <= 3 and 1 <= defenders <= 2):
        raise ValueError("attackers 1-3, defenders 1-2")

    def read(faces):
        attack = sorted(faces[:attackers], reverse=True)
        defence = sorted(faces[attackers:], reverse=True)
        attacker_losses = sum(a <= d for a, d in zip(attack, defence))
        return RiskRoll(attacker_losses, min(attackers, defenders) - attacker_losses)

    return every_roll([6] * (attackers + defenders), read)
