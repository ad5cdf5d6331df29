"""Enumeration helpers for the gallery brute force (see ``tests/_gallery_brute.py``).

Finite dice are enumerated with ``itertools.product`` over every face of every die
(:func:`every_roll`). An exploding die is followed one face at a time, merging chains that read
the same so far (:func:`exploding_die`); independent dice are put together one die at a time
(:func:`combine_dice`). Every probability is an exact ``Fraction``.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from itertools import product
from math import lcm, prod

CHAIN_TOLERANCE = Fraction(1, 10**14)
"""An exploding die is followed until less than this probability is still exploding."""



class Dist(dict):
    """Outcome -> probability; ``unexplored`` is the probability of rolls not enumerated."""

    def __init__(self, probabilities=(), unexplored=Fraction(0)):
        super().__init__(probabilities)
        self.unexplored = unexplored


def every_roll(dice, read) -> Dist:
    """``read(faces)`` for every roll of ``dice``, all equally likely.

    Each die is an int N (faces 1..N) or a sequence of faces (repeats allowed, as on a die
    with two blank sides). ``faces`` is the tuple of one face per die, in the order given.
    """
    sides = [range(1, die + 1) if isinstance(die, int) else tuple(die) for die in dice]
    counts = Counter(read(faces) for faces in product(*sides))
    rolls = prod(len(faces) for faces in sides)
    return Dist({outcome: Fraction(n, rolls) for outcome, n in counts.items()})


def exploding_die(sides, explodes, add, start=0, tolerance=CHAIN_TOLERANCE) -> Dist:
    """One die of ``sides`` faces, rolled again for as long as ``explodes(face)``.

    The die's reading is built face by face, ``reading = add(reading, face)`` from ``start``;
    chains that read the same so far are merged. Returns reading -> probability, with the
    probability of the chains still exploding when we stop as ``unexplored``.
    """
    # Integer counts of face sequences; after k faces each sequence weighs 1 / sides**k.
    finished: defaultdict = defaultdict(int)
    live = {start: 1}
    faces_rolled = 0
    while live and Fraction(sum(live.values()), sides**faces_rolled) >= tolerance:
        faces_rolled += 1
        for reading in finished:        # bring what already stopped to the new denominator
            finished[reading] *= sides
        rolling_on: defaultdict = defaultdict(int)
        for reading, count in live.items():
            for face in range(1, sides + 1):
                target = rolling_on if explodes(face) else finished
                target[add(reading, face)] += count
        live = rolling_on
    denominator = sides**faces_rolled
    return Dist({reading: Fraction(count, denominator) for reading, count in finished.items()},
                unexplored=Fraction(sum(live.values()), denominator))


def combine_dice(dice, add, start=0) -> Dist:
    """Put independent dice (each a :class:`Dist` of readings) together one die at a time.

    ``add(reading so far, this die's reading)`` gives the new reading. Weights are kept as
    integers over a common denominator (exact, and much faster than adding fractions).
    """
    readings = {start: 1}
    denominator = 1
    all_followed = Fraction(1)
    for die in dice:
        scale = lcm(*(p.denominator for p in die.values()))
        weights = [(reading, p.numerator * (scale // p.denominator)) for reading, p in die.items()]
        combined: defaultdict = defaultdict(int)
        for so_far, count in readings.items():
            for reading, weight in weights:
                combined[add(so_far, reading)] += count * weight
        readings = combined
        denominator *= scale
        all_followed *= 1 - die.unexplored
    return Dist({reading: Fraction(count, denominator) for reading, count in readings.items()},
                unexplored=1 - all_followed)


def relabel(dist: Dist, outcome) -> Dist:
    """Turn each reading into ``outcome(reading)``, adding up readings that land together."""
    out: defaultdict = defaultdict(Fraction)
    for reading, p in dist.items():
        out[outcome(reading)] += p
    return Dist(out, unexplored=dist.unexplored)


def marginal(dist, *fields) -> dict:
    """Probability of each value of one field, or of each tuple of values of several."""
    out: defaultdict = defaultdict(Fraction)
    for outcome, p in dist.items():
        values = tuple(getattr(outcome, field) for field in fields)
        out[values[0] if len(fields) == 1 else values] += p
    return dict(out)


def chance(dist, predicate) -> Fraction:
    """Probability of the outcomes for which ``predicate(outcome)`` is true."""
    return sum((p for outcome, p in dist.items() if predicate(outcome)), Fraction(0))


def sum_faces(reading, face):
    return reading + face
