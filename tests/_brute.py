"""Independent brute force for the five systems, written straight from RULES.md.

Nothing here imports ``workbench``: each system is a plain Python procedure that asks a
:class:`Tape` for faces one at a time, exactly as a player at the table would roll them, and
:func:`enumerate_rolls` runs the procedure once for every possible sequence of faces. A roll
that would need more than ``max_faces`` faces (an explosion chain longer than we follow) is
not run; its probability is returned as *unexplored* mass, so callers can bound the error.

UWR-style pools without explosions are also enumerated with a numpy face matrix
(:func:`success_pool_matrix`), because rerolls multiply the face sequences and the plain
depth-first search would be slow there.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np


class _NeedFace(Exception):
    """Raised by a tape that has run out of predetermined faces."""

    def __init__(self, sides: int):
        super().__init__(sides)
        self.sides = sides


class Tape:
    """Hands out a predetermined sequence of faces; asks for a branch when it runs out."""

    __slots__ = ("faces", "position")

    def __init__(self, faces):
        self.faces = faces
        self.position = 0

    def roll(self, sides: int) -> int:
        if self.position == len(self.faces):
            raise _NeedFace(sides)
        face = self.faces[self.position]
        self.position += 1
        return face


def enumerate_rolls(procedure, max_faces: int = 12):
    """Every outcome of ``procedure(tape)`` with its probability, over every face sequence.

    Returns ``(probabilities, unexplored)``: a dict outcome -> probability and the total
    probability of the face sequences longer than ``max_faces`` (not run).
    """
    results: dict = defaultdict(float)
    unexplored = 0.0
    stack = [((), 1.0)]
    while stack:
        faces, weight = stack.pop()
        try:
            outcome = procedure(Tape(faces))
        except _NeedFace as need:
            if len(faces) >= max_faces:
                unexplored += weight
                continue
            share = weight / need.sides
            stack.extend((faces + (face,), share) for face in range(1, need.sides + 1))
            continue
        results[outcome] += weight
    return dict(results), unexplored


# ---------------------------------------------------------------------------------------
# UWR / HKRPG, FoNS and their what-ifs (RULES.md section 1 and 2)

def success_face(favor: int, threshold: int = 5, sides: int = 6) -> int:
    """The lowest succeeding face: 5 at favor 0, one lower per favor, never outside 1..sides."""
    return min(max(threshold - favor, 1), sides)


def moved_faces(values, points: int) -> tuple:
    """A die's value table after ``shift_faces`` points, as data/README.md words it: each
    point moves the table one face down (face f takes the value of face f + 1; the top face
    keeps its own), each negative point one face up (face f takes the value of face f - 1; the
    bottom face keeps its own), and upward moves stop once only the top face still scores.
    Moved one face at a time, as a player would slide a die's success line."""
    table = list(values)
    for _ in range(abs(points)):
        if points > 0:
            table = table[1:] + table[-1:]
        else:
            scoring = [i for i, v in enumerate(table) if v > 0]
            if scoring == [len(table) - 1]:
                break
            table = table[:1] + table[:-1]
    return tuple(table)


def dice_rolled(dice: int, penalty: int) -> int:
    """The die penalty removes dice, but a pool that had dice keeps at least one."""
    if dice == 0:
        return 0
    return max(dice - penalty, 1)


def all_faces(sides: int, width: int) -> np.ndarray:
    """Every tuple of ``width`` faces of a ``sides``-sided die, one row each (faces 1..sides)."""
    return np.indices((sides,) * width, dtype=np.int8).reshape(width, -1).T + 1


def success_pool_matrix(dice, favor=0, rerolls=0, half=False, penalty=0, sides=6, threshold=5):
    """P(successes) for a non-exploding UWR-style pool, from a matrix of all face tuples.

    Each row is one equally likely tuple: the initial dice, then one spare die per available
    reroll. The first ``min(failed dice, rerolls)`` spares are the rerolls actually made; the
    other spares are simply ignored (each of their faces appears equally often).
    """
    face = success_face(favor, threshold, sides)
    rolled = dice_rolled(dice, penalty)
    spare = rerolls + int(half)
    width = rolled + spare
    if width == 0:
        return {0: 1.0}
    grid = all_faces(sides, width)
    hits = grid >= face
    first = hits[:, :rolled].sum(axis=1)
    used = np.minimum(rolled - first, spare)
    reroll_hits = (hits[:, rolled:] & (np.arange(spare) < used[:, None])).sum(axis=1)
    total = first + reroll_hits
    counts = np.bincount(total, minlength=rolled + 1)
    return {k: c / len(grid) for k, c in enumerate(counts) if c}


def success_pool_roll(dice, favor=0, rerolls=0, half=False, penalty=0, sides=6, threshold=5,
                      explode_on=None):
    """A procedure for :func:`enumerate_rolls`: one UWR/FoNS check (optionally exploding)."""
    face = success_face(favor, threshold, sides)
    rolled = dice_rolled(dice, penalty)

    def one_die(tape):
        count = 0
        while True:
            f = tape.roll(sides)
            count += f >= face
            if explode_on is None or f < explode_on:
                return count

    def procedure(tape):
        per_die = [one_die(tape) for _ in range(rolled)]
        spare = rerolls + int(half)
        for i, got in enumerate(per_die):
            if spare and got == 0:
                per_die[i] = one_die(tape)  # the failed die is rolled once more
                spare -= 1
        return sum(per_die)

    return procedure


# ---------------------------------------------------------------------------------------
# The Unnamed System (RULES.md section 3)

def unnamed_roll(d6=0, d8=0, bonus=0, penalty=0, free_successes=0, drama=0, stunt=False,
                 bounce_on=7, fail_on=1, origin_bounce="every_die"):
    """A procedure returning ``(net, every initial die failed)`` for one Unnamed check.

    ``origin_bounce="d6_only"``: a ``bounce_on`` below 7 (positive Origin) lets d6s bounce
    from it, while d8s keep bouncing on 7+.
    """
    cancelled = min(bonus, penalty)
    d6_count = d6 + (bonus - cancelled) + drama + int(stunt)
    penalty_failures = penalty - cancelled
    pool = [6] * d6_count + [8] * d8

    def procedure(tape):
        successes = failures = 0
        initial_failed = []
        for sides in pool:
            bounce = max(bounce_on, 7) if origin_bounce == "d6_only" and sides == 8 else bounce_on
            face = tape.roll(sides)
            initial_failed.append(face <= fail_on)
            while True:
                if face >= 5:
                    successes += 1
                elif face <= fail_on:
                    failures += 1
                if face < bounce:
                    break
                face = tape.roll(sides)  # bounced: the same die type again
        disaster = bool(pool) and all(initial_failed)
        return successes + free_successes - failures - penalty_failures, disaster

    return procedure


UNNAMED_TIERS = ("Disaster", "Failure", "Marginal Failure", "Success with a Twist", "Success",
                 "Triumph")


def unnamed_tier(net: int, disaster: bool, reading: str = "always") -> str:
    """The tier; ``reading="unless_net_passes"``: every initial die failed but the net is 1 or
    more (free successes) reads by the net instead of as a Disaster."""
    if disaster and (reading == "always" or net <= 0):
        return "Disaster"
    if net <= -1:
        return "Failure"
    return UNNAMED_TIERS[min(net, 3) + 2]


# ---------------------------------------------------------------------------------------
# Arrata (RULES.md section 4)

ARRATA_QUALITY = {"B": 4, "A": 3, "S": 2}


def arrata_levels(advantage, disadvantage, combine="independent"):
    if combine == "net":
        return max(advantage - disadvantage, 0), max(disadvantage - advantage, 0)
    return advantage, disadvantage


def arrata_extra_ob(advantage=0, disadvantage=0, disadvantage_mode="dice", combine="independent"):
    _, dis = arrata_levels(advantage, disadvantage, combine)
    return max(dis - 1, 0) if disadvantage_mode == "obstacle" else 0


def arrata_roll(quality="B", dice=0, advantage=0, disadvantage=0, disadvantage_mode="dice",
                allow_negative=False, combine="independent"):
    """A procedure returning the net successes of one Arrata roll."""
    adv, dis = arrata_levels(advantage, disadvantage, combine)
    count = dice + max(adv - 1, 0)
    if disadvantage_mode == "dice":
        count = max(count - max(dis - 1, 0), 0)
    need = ARRATA_QUALITY[quality]

    def procedure(tape):
        net = 0
        to_roll = count
        while to_roll:
            to_roll -= 1
            face = tape.roll(6)
            if face >= need:
                net += 1
            if dis >= 1 and face == 1:
                net -= 1
            if adv >= 1 and face == 6:
                to_roll += 1  # open-ended: a 6 adds one more die
        return net if allow_negative else max(net, 0)

    return procedure


# ---------------------------------------------------------------------------------------
# Erzählspiel (RULES.md section 5), the face table copied from RULES.md, face 1 first

ERZ_OUTCOMES = ("NO! AND...", "NO!", "NO! BUT...", "YES! BUT...", "YES!", "YES! AND...")
_NA, _N, _NB, _YB, _Y, _YA = ERZ_OUTCOMES
ERZ_DICE = {
    "black": (_NA, _NA, _N, _N, _NB, _YB),
    "red": (_NA, _N, _N, _NB, _YB, _Y),
    "yellow": (_NA, _N, _NB, _YB, _Y, _YA),
    "green": (_N, _NB, _YB, _Y, _Y, _YA),
    "blue": (_NB, _YB, _Y, _Y, _YA, _YA),
}
ERZ_ORDER = ("black", "red", "yellow", "green", "blue")
ERZ_D6 = {6: _YA, 5: _Y, 4: _YB, 3: _NB, 2: _N, 1: _NA}


def erzahlspiel_level(die=None, advantage=0, ladder="steps"):
    """Steps from yellow: -2 black .. +2 blue."""
    if die is not None:
        return ERZ_ORDER.index(die) - 2
    if ladder == "spectrum":
        size = abs(advantage)
        steps = 0 if size <= 1 else (1 if size <= 3 else 2)
        return steps if advantage > 0 else -steps
    return max(-2, min(advantage, 2))


def erzahlspiel_roll(die=None, advantage=0, ladder="steps", dice="narrative"):
    level = erzahlspiel_level(die, advantage, ladder)

    def procedure(tape):
        if dice == "narrative":
            return ERZ_DICE[ERZ_ORDER[level + 2]][tape.roll(6) - 1]
        faces = [tape.roll(6) for _ in range(1 + abs(level))]
        kept = max(faces) if level > 0 else min(faces)
        return ERZ_D6[kept]

    return procedure


def is_yes(label: str) -> bool:
    return label.startswith("YES")


def margin(actor: dict, reactor: dict) -> dict:
    """Distribution of actor - reactor for independent outcome distributions."""
    out: dict = defaultdict(float)
    for a, pa in actor.items():
        for r, pr in reactor.items():
            out[a - r] += pa * pr
    return dict(out)


# Erzählspiel conditions and clocks (RULES.md section 5, and the workbench's documented model
# for the readings: Disadvantage from filled slots, Taken Out as soon as every slot is full)

ERZ_APPLYING = {_YA: 3, _Y: 2, _YB: 1}      # any NO applies nothing
ERZ_RESISTING = {_NB: 1, _N: 2, _NA: 3}     # any YES receives nothing
ERZ_CLOCK_MARKS = {_YA: 3, _Y: 2, _YB: 1}


def erzahlspiel_label(tape, level: int, dice: str = "narrative") -> str:
    """One roll at ``level`` steps from yellow (clamped to the five dice)."""
    level = max(-2, min(level, 2))
    if dice == "narrative":
        return ERZ_DICE[ERZ_ORDER[level + 2]][tape.roll(6) - 1]
    faces = [tape.roll(6) for _ in range(1 + abs(level))]
    return ERZ_D6[max(faces) if level > 0 else min(faces)]


def erzahlspiel_fight(mode="apply", actor=0, reactor=0, spiral="none", out_when="past_severe",
                      dice="narrative", start=(), exchanges=4):
    """A fight of at most ``exchanges`` exchanges; returns the exchange the victim is Taken
    Out in, or 0 if still standing. ``actor``/``reactor`` are levels from yellow; the
    victim's Disadvantage (``spiral``: none, per_slot, any_slot) lowers the reactor's die, or
    raises the actor's in mode "apply" (the victim does not roll there)."""
    def procedure(tape):
        filled = set(start)
        for exchange in range(1, exchanges + 1):
            count = len(filled)
            steps = {"none": 0, "per_slot": count, "any_slot": min(count, 1)}[spiral]
            tier = 3
            if mode != "resist":
                lift = steps if mode == "apply" else 0
                tier = ERZ_APPLYING.get(erzahlspiel_label(tape, actor + lift, dice), 0)
            if mode != "apply" and tier > 0:
                tier = min(tier, ERZ_RESISTING.get(erzahlspiel_label(tape, reactor - steps, dice), 0))
            if tier == 0:
                continue
            while tier in filled:
                tier += 1
            if tier > 3:
                return exchange
            filled.add(tier)
            if out_when == "all_filled" and len(filled) == 3:
                return exchange
        return 0

    return procedure


def erzahlspiel_clock(segments, level=0, dice="narrative", rolls=4):
    """Rolls of one die until ``segments`` are marked; the roll that fills it, or 0."""
    def procedure(tape):
        marked = 0
        for roll in range(1, rolls + 1):
            marked += ERZ_CLOCK_MARKS.get(erzahlspiel_label(tape, level, dice), 0)
            if marked >= segments:
                return roll
        return 0

    return procedure


# ---------------------------------------------------------------------------------------
# Designed pools (data/README.md): die types with a value per face, explosions that may be
# capped or roll another die type, rerolls of dice that scored 0, dice kept best or worst.

def designed_roll(dice: dict, counts: dict, rerolls: int = 0, modifier: int = 0, floor=None,
                  keep: str | None = None, kept: int = 1):
    """A procedure for :func:`enumerate_rolls`: ``dice`` maps a die name to
    ``{"faces": [value of face 1, ...], "explode": {faces}, "limit": n, "into": name}``;
    ``counts`` maps die names to dice rolled. Returns ``(total, every initial die negative)``.

    At the table: roll every die of the pool in order. A face listed in ``explode`` rolls one
    more die (of type ``into``, else the same type) and adds its value, which may explode in
    turn, until ``limit`` extra dice came from this initial die (0: no limit). After the
    whole pool, up to ``rerolls`` dice whose own faces added up to 0 are rolled again, first
    to last, and the new chain replaces the old. With ``keep`` "highest"/"lowest" only the
    ``kept`` best/worst initial faces count. Then the modifier, then the floor.
    """
    def procedure(tape):
        def chain(name):
            die = dice[name]
            face = tape.roll(len(die["faces"]))
            got, first = die["faces"][face - 1], die["faces"][face - 1]
            kind, extra = name, 0
            while face in dice[kind].get("explode", ()) and (not die.get("limit") or extra < die["limit"]):
                kind = dice[kind].get("into") or kind
                face = tape.roll(len(dice[kind]["faces"]))
                got += dice[kind]["faces"][face - 1]
                extra += 1
            return got, first

        rolled = []
        for name, count in counts.items():
            for _ in range(count):
                rolled.append((name, *chain(name)))
        negative = bool(rolled) and all(first < 0 for _, _, first in rolled)
        if keep:
            firsts = sorted((first for _, _, first in rolled), reverse=keep == "highest")
            total = sum(firsts[:kept])
        else:
            sums = [s for _, s, _ in rolled]
            left = rerolls
            for i, (name, s, _) in enumerate(rolled):
                if left and s == 0:
                    sums[i] = chain(name)[0]
                    left -= 1
            total = sum(sums)
        total += modifier
        if floor is not None:
            total = max(total, floor)
        return total, negative
    return procedure
