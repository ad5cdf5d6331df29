"""Dice pools of the gallery brute force: success counting, keep-the-best and mixed pools.

Each function returns a ``Dist`` of named-tuple outcomes; see ``tests/_gallery_brute.py``.
"""
from __future__ import annotations

from collections import Counter, defaultdict, namedtuple
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

try:
    from tests._gallery_dice import (Dist, combine_dice, every_roll, exploding_die, relabel,
                                     sum_faces)
except ImportError:  # tests/ is not a package: pytest puts tests/ itself on sys.path
    from _gallery_dice import (Dist, combine_dice, every_roll, exploding_die, relabel,
                               sum_faces)

__all__ = [  # the mechanics, then their outcome types and face tables
    "owod", "cofd", "exalted", "vampire5", "one_roll_engine", "l5r", "shadowrun", "year_zero",
    "burning_wheel", "blades", "cortex", "genesys",
    "OWoDRoll", "CofDRoll", "ExaltedRoll", "VampireRoll", "OneRollRoll", "L5RRoll",
    "ShadowrunRoll", "YearZeroRoll", "BurningWheelRoll", "BladesRoll", "CortexRoll",
    "GenesysRoll", "SHADE_TARGETS", "GENESYS_FACES",
]

# ---------------------------------------------------------------------------------------
# Success-counting d10 pools

OWoDRoll = namedtuple("OWoDRoll", "successes ones net outcome")


def owod(pool: int, difficulty: int = 6) -> Dist:
    """Old World of Darkness (Vampire: the Masquerade revised, V20 and their siblings).

    Each d10 at or above ``difficulty`` is a success, each 1 takes one away (``net`` may be
    negative). Outcome: 'success' (net >= 1), 'botch' (no die reached the difficulty and at
    least one 1 was rolled: the revised reading), otherwise 'failure' -- so 1s that cancel
    every success give a plain failure. The older "more 1s than successes" botch can be read
    from ``successes`` and ``ones``. Left out: specialties (10s counting twice), Willpower's
    automatic success, extended and resisted rolls.
    """
    if not 2 <= difficulty <= 10:
        raise ValueError("difficulty runs from 2 to 10")

    def read(faces):
        successes = sum(face >= difficulty for face in faces)
        ones = faces.count(1)
        net = successes - ones
        if net > 0:
            outcome = "success"
        elif successes == 0 and ones:
            outcome = "botch"
        else:
            outcome = "failure"
        return OWoDRoll(successes, ones, net, outcome)

    return every_roll([10] * pool, read)


CofDRoll = namedtuple("CofDRoll", "successes outcome")


def cofd(pool: int, again: int | None = 10) -> Dist:
    """Chronicles of Darkness / new World of Darkness.

    Each d10 showing 8+ is a success; a die showing ``again`` or more (10, 9 or 8; None for no
    rerolls) is rolled again and the new die counts too, as often as it keeps doing so.
    Outcome: 'exceptional success' (5+), 'success', 'failure'. A pool of 0 rolls one chance
    die: only a 10 succeeds, and a 1 is a 'dramatic failure'. Reading: a 10 on the chance die
    is rolled again like any 10, and each further 10 is one more success (the chance die's
    target of 10 holds for its rerolls; 9- and 8-again do not apply to it). Left out: rote
    actions, and the target number of successes an action may need beyond the first.
    """
    if again not in (8, 9, 10, None):
        raise ValueError("again is 8, 9, 10 or None")

    def outcome(successes):
        label = "exceptional success" if successes >= 5 else "success" if successes else "failure"
        return CofDRoll(successes, label)

    if pool <= 0:
        reroll = exploding_die(10, lambda f: f == 10, lambda s, f: s + (f == 10))
        dist = Dist({CofDRoll(0, "dramatic failure"): Fraction(1, 10),
                     CofDRoll(0, "failure"): Fraction(8, 10)}, unexplored=reroll.unexplored / 10)
        for more, p in reroll.items():
            key = outcome(1 + more)
            dist[key] = dist.get(key, 0) + p / 10
        return dist
    die = exploding_die(10, lambda f: again is not None and f >= again, lambda s, f: s + (f >= 8))
    return relabel(combine_dice([die] * pool, sum_faces), outcome)


ExaltedRoll = namedtuple("ExaltedRoll", "successes outcome")


def exalted(pool: int, difficulty: int = 1, double_tens: bool = True) -> Dist:
    """Exalted (2nd and 3rd edition): d10 pool, each 7+ is a success and a 10 counts twice.

    Outcome: 'success' (successes >= ``difficulty``), 'botch' (no successes and at least one
    1), otherwise 'failure'. Left out: Charms that double 9s or reroll, Essence, stunts and
    automatic successes from Willpower.
    """
    def read(faces):
        successes = sum(f >= 7 for f in faces) + (faces.count(10) if double_tens else 0)
        if successes >= difficulty and successes > 0:
            label = "success"
        elif successes == 0 and 1 in faces:
            label = "botch"
        else:
            label = "failure"
        return ExaltedRoll(successes, label)

    return every_roll([10] * pool, read)


VampireRoll = namedtuple("VampireRoll", "successes outcome")


def vampire5(pool: int, hunger: int, difficulty: int) -> Dist:
    """Vampire: the Masquerade 5th edition: d10 pool of which ``hunger`` dice are Hunger dice.

    Each 6+ is a success; each pair of 10s (on any dice) adds two more, so a pair counts 4. A
    win needs successes >= ``difficulty``. Outcome: 'messy critical' (a win with a pair of 10s
    where at least one Hunger die shows 10 -- reading: any Hunger 10 counts, even when an odd
    10 is left over), 'critical win' (a win with a pair of 10s), 'win', 'bestial failure'
    (not a win and a Hunger die shows 1), 'failure'. Hunger above the pool makes every die a
    Hunger die. Left out: Willpower rerolls, Rouse checks, compulsions, margins.
    """
    hunger = min(hunger, pool)
    regular = pool - hunger

    def read(faces):
        tens = faces.count(10)
        successes = sum(f >= 6 for f in faces) + 2 * (tens // 2)
        hunger_faces = faces[regular:]
        if successes >= difficulty:
            if tens >= 2:
                label = "messy critical" if 10 in hunger_faces else "critical win"
            else:
                label = "win"
        else:
            label = "bestial failure" if 1 in hunger_faces else "failure"
        return VampireRoll(successes, label)

    return every_roll([10] * pool, read)


OneRollRoll = namedtuple("OneRollRoll", "width height sets")


def one_roll_engine(pool: int) -> Dist:
    """One-Roll Engine (Reign, Godlike, Wild Talents): d10 pool read as sets of matching faces.

    ``width`` is the size of the largest set of equal faces (1 when nothing matches), ``height``
    its face (the highest face among the widest sets), ``sets`` how many faces show on two or
    more dice. The roll succeeds when ``width >= 2``. Left out: expert and master dice,
    difficulty (a minimum height), gobble dice and choosing a narrower, taller set.
    """
    def read(faces):
        counts = Counter(faces)
        width = max(counts.values())
        height = max(face for face, n in counts.items() if n == width)
        return OneRollRoll(width, height, sum(n >= 2 for n in counts.values()))

    return every_roll([10] * pool, read)


L5RRoll = namedtuple("L5RRoll", "total success")


def l5r(rolled: int, kept: int, target: int) -> Dist:
    """Legend of the Five Rings 4th edition: roll ``rolled`` d10, keep the ``kept`` highest.

    Every 10 is rolled again and added to that die (10-again, for as long as 10s come up); the
    kept dice are added and compared with the target number: success when total >= TN.
    Left out: the Ten Dice Rule (pools over 10 dice), raises, Void points, emphases (rerolling
    1s) and skills without the 10-again.
    """
    rounds = 1
    while (kept_total := _kept_10_again(rolled, kept, rounds)).unexplored >= Fraction(1, 10**13):
        rounds += 1
    return relabel(kept_total, lambda total: L5RRoll(total, total >= target))


@lru_cache(maxsize=None)
def _fresh_d10s(dice: int) -> Dist:
    """The total of ``dice`` 10-again d10s, all added up."""
    one = exploding_die(10, lambda f: f == 10, sum_faces)
    return combine_dice([one] * dice, sum_faces)


@lru_cache(maxsize=None)
def _first_faces(rolled: int, kept: int) -> Dist:
    """(number of 10s, sum of the highest other faces that are kept) over every first roll."""
    def read(faces):
        tens = faces.count(10)
        others = sorted((f for f in faces if f != 10), reverse=True)
        return tens, sum(others[:max(kept - tens, 0)])

    return every_roll([10] * rolled, read)


@lru_cache(maxsize=None)
def _kept_10_again(rolled: int, kept: int, rounds: int) -> Dist:
    """Sum of the ``kept`` highest of ``rolled`` 10-again d10s.

    Rolled this way to keep the enumeration small: a die whose first face is 10 ends at 11 or
    more, above every die that did not explode, so the first faces decide which dice are kept
    unless more than ``kept`` dice show 10. Then the kept dice are ``kept`` of those, each worth
    10 plus a fresh 10-again die, and the fresh dice's highest are kept: the same question one
    round down, followed for ``rounds`` rounds (what lies beyond is ``unexplored``).
    """
    if rounds == 0:
        return Dist({}, unexplored=Fraction(1))
    totals: defaultdict = defaultdict(Fraction)
    unexplored = Fraction(0)
    for (tens, rest), p in _first_faces(rolled, kept).items():
        if tens > kept:
            base, more = 10 * kept, _kept_10_again(tens, kept, rounds - 1)
        else:
            base, more = 10 * tens + rest, _fresh_d10s(tens)
        for total, q in more.items():
            totals[base + total] += p * q
        unexplored += p * more.unexplored
    return Dist(totals, unexplored=unexplored)


# ---------------------------------------------------------------------------------------
# Success-counting d6 pools

ShadowrunRoll = namedtuple("ShadowrunRoll", "hits ones glitch")


def shadowrun(pool: int) -> Dist:
    """Shadowrun 5th edition: d6 pool, each 5 or 6 is a hit.

    ``glitch``: 'glitch' when more than half the dice show 1, 'critical glitch' when that
    happens with no hits, otherwise 'none'. Left out: limits, Edge (Rule of Six, Second
    Chance, Push the Limit), thresholds and buying hits.
    """
    def read(faces):
        hits = sum(f >= 5 for f in faces)
        ones = faces.count(1)
        glitch = "none"
        if ones * 2 > pool:
            glitch = "glitch" if hits else "critical glitch"
        return ShadowrunRoll(hits, ones, glitch)

    return every_roll([6] * pool, read)


YearZeroRoll = namedtuple("YearZeroRoll", "successes base_banes gear_banes")


def year_zero(base: int, skill: int = 0, gear: int = 0) -> Dist:
    """Year Zero Engine (Mutant: Year Zero, Forbidden Lands, Alien's stress dice aside).

    Base (attribute), skill and gear d6s are rolled together; every 6 is a success. 1s are
    banes that matter only on base dice (harm to the attribute) and gear dice (gear damage),
    counted separately. Left out: pushing the roll, artifact dice (d8-d12), negative skill
    dice and Alien's stress dice.
    """
    def read(faces):
        base_faces, gear_faces = faces[:base], faces[base + skill:]
        return YearZeroRoll(faces.count(6), base_faces.count(1), gear_faces.count(1))

    return every_roll([6] * (base + skill + gear), read)


BurningWheelRoll = namedtuple("BurningWheelRoll", "successes passed")

SHADE_TARGETS = {"black": 4, "grey": 3, "white": 2}


def burning_wheel(exponent: int, obstacle: int, shade: str = "black",
                  open_ended: bool = False) -> Dist:
    """Burning Wheel: roll ``exponent`` d6 against an Obstacle.

    A die is a success at 4+ (black shade), 3+ (grey) or 2+ (white); the test passes with
    successes >= ``obstacle``. Open-ended dice roll each 6 again, and the new die may succeed
    and explode in turn. Left out: help, FoRK and advantage dice (they only change the pool),
    Artha, Beginner's Luck (doubled Ob) and the routine/difficult/challenging tally.
    """
    target = SHADE_TARGETS[shade]

    def outcome(successes):
        return BurningWheelRoll(successes, successes >= obstacle)

    if not open_ended:
        return every_roll([6] * exponent, lambda faces: outcome(sum(f >= target for f in faces)))
    die = exploding_die(6, lambda f: f == 6, lambda s, f: s + (f >= target))
    return relabel(combine_dice([die] * exponent, sum_faces), outcome)


# ---------------------------------------------------------------------------------------
# Keep-the-best and mixed pools

BladesRoll = namedtuple("BladesRoll", "result outcome")


def blades(dice: int) -> Dist:
    """Blades in the Dark action roll: d6s, the highest counts.

    Outcome: 'critical' (two or more 6s), 'full success' (6), 'partial success' (4-5), 'bad
    outcome' (1-3). With 0 dice, roll 2d6 and keep the lowest; no critical then. Left out:
    position and effect, pushing yourself, devil's bargains, resistance and fortune rolls.
    """
    def read(faces):
        result = min(faces) if dice == 0 else max(faces)
        if dice > 0 and faces.count(6) >= 2:
            label = "critical"
        elif result == 6:
            label = "full success"
        elif result >= 4:
            label = "partial success"
        else:
            label = "bad outcome"
        return BladesRoll(result, label)

    return every_roll([6] * (dice if dice > 0 else 2), read)


CortexRoll = namedtuple("CortexRoll", "total effect hitches botch")


def cortex(dice: tuple[int, ...]) -> Dist:
    """Cortex Prime: a pool of mixed dice, given by their sizes, e.g. (6, 6, 8, 10).

    Each 1 is a hitch and cannot be kept. Two non-hitch dice are kept for the total (one if
    only one is left); ``effect`` is the size of the largest die among the non-hitch dice not
    kept, or 4 when none is left. The player keeps the pair with the highest total and, among
    pairs with that total, the one leaving the largest effect die. ``botch``: every die is a
    hitch (total 0). Left out: spending plot points to keep more dice, the step-ups of a
    heroic success, and trading total for effect.
    """
    def read(faces):
        usable = [(face, size) for face, size in zip(faces, dice) if face != 1]
        hitches = len(faces) - len(usable)
        if not usable:
            return CortexRoll(0, 4, hitches, True)
        best = max(
            (sum(usable[i][0] for i in pair),
             max((size for j, (_, size) in enumerate(usable) if j not in pair), default=4))
            for pair in combinations(range(len(usable)), min(2, len(usable))))
        return CortexRoll(best[0], best[1], hitches, False)

    return every_roll(dice, read)


# Genesys / Star Wars (FFG) symbols: s success, a advantage, T triumph (also a success),
# f failure, t threat, D despair (also a failure). One string per face.
GENESYS_FACES = {
    "boost": ("", "", "s", "sa", "aa", "a"),
    "setback": ("", "", "f", "f", "t", "t"),
    "ability": ("", "s", "s", "ss", "a", "a", "sa", "aa"),
    "difficulty": ("", "f", "ff", "t", "t", "t", "tt", "ft"),
    "proficiency": ("", "s", "s", "ss", "ss", "a", "sa", "sa", "sa", "aa", "aa", "T"),
    "challenge": ("", "f", "f", "ff", "ff", "t", "t", "ft", "ft", "tt", "tt", "D"),
}

GenesysRoll = namedtuple("GenesysRoll", "successes advantage triumphs despairs passed")


def genesys(ability=0, proficiency=0, difficulty=0, challenge=0, boost=0, setback=0) -> Dist:
    """Genesys and FFG's Star Wars narrative dice, from the published face tables above.

    ``successes`` = successes + triumphs - failures - despairs (net, may be negative),
    ``advantage`` = advantages - threats (net), ``triumphs`` and ``despairs`` as rolled (they
    never cancel each other); ``passed`` when net successes >= 1. Left out: Force dice,
    upgrading dice, and spending advantage, threat, triumph and despair.
    """
    dice = ([GENESYS_FACES["ability"]] * ability + [GENESYS_FACES["proficiency"]] * proficiency
            + [GENESYS_FACES["boost"]] * boost + [GENESYS_FACES["difficulty"]] * difficulty
            + [GENESYS_FACES["challenge"]] * challenge + [GENESYS_FACES["setback"]] * setback)

    def read(faces):
        symbols = Counter("".join(faces))
        net = symbols["s"] + symbols["T"] - symbols["f"] - symbols["D"]
        return GenesysRoll(net, symbols["a"] - symbols["t"], symbols["T"], symbols["D"], net >= 1)

    return every_roll(dice, read)
