"""Which way the engine computes a roll: the one place that decides.

Every roll reaches the engine as one description (a :class:`~workbench.rules.roll.RollSpec`,
or a :class:`~workbench.rules.pool.PoolSpec` written in Python). A roll that is only the sum
of its dice's values — no counts, no statistics but "every die negative", no total
expression, no ceiling, no percentile dice, kept dice only of a pool of one type — is
computed as a sum: closed forms, convolutions of explosion chains, rerolls by binomial
weights (:mod:`.exact`), and simulated by the dice-summing kernels. Every other roll is
evaluated outcome by outcome (:mod:`.evaluate`) and simulated die by die. Both routes give
the same answer where both apply (tests/test_one_model.py holds them to it).

Example:
    >>> from workbench.rules.dice import Die
    >>> from workbench.rules.roll import KeptDice, RollSpec
    >>> d20 = Die.numbered("d20", 20)
    >>> sum_form(RollSpec(((d20, 2),), kept=KeptDice("d20", 1, "lowest"))).keep
    'lowest'
    >>> sum_form(RollSpec(((Die.numbered("d6", 6, counts={"ones": [1, 0, 0, 0, 0, 0]}), 2),))) is None
    True
"""
from __future__ import annotations

from functools import lru_cache

from ..errors import WorkbenchError
from ..rules.dice import Die
from ..rules.pool import PoolSpec
from ..rules.roll import AllNegative, RollSpec


def sum_form(spec) -> PoolSpec | None:
    """The roll as a sum of dice (:class:`PoolSpec`), or ``None`` when it reads more than the
    sum (then the engine evaluates it outcome by outcome)."""
    if isinstance(spec, PoolSpec):
        return spec
    if isinstance(spec, RollSpec):
        return _of_roll(spec)
    return None


@lru_cache(maxsize=8192)
def _of_roll(spec: RollSpec) -> PoolSpec | None:
    if spec.total is not None or spec.ceiling is not None or spec.count_names or spec.reroll_faces \
            or spec.again:
        return None
    if not all(isinstance(die, Die) for die, _ in spec.groups):
        return None
    negative = False
    for stat in spec.stats:
        if not isinstance(stat, AllNegative):
            return None
        negative = True
    keep, kept = "sum", None
    if spec.kept is not None:
        rolled = [(die, n) for die, n in spec.groups if n]
        if negative or any(die.name != spec.kept.dice for die, _ in rolled) or any(
                any(die.explodes) for die, _ in rolled):
            return None
        keep, kept = spec.kept.order, spec.kept.take
    try:
        return PoolSpec(spec.groups, rerolls=spec.rerolls, modifier=spec.modifier, floor=spec.floor,
                        keep=keep, kept=kept)
    except WorkbenchError:   # a sum the fast paths do not take (they say so): evaluate it
        return None
