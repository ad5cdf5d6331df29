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
from ..rules.roll import AllNegative, Keep, RollSpec, Sum


def sum_form(spec) -> PoolSpec | None:
    """The roll as a sum of dice (:class:`PoolSpec`), or ``None`` when it reads more than the
    sum (then the engine evaluates it outcome by outcome)."""
    if isinstance(spec, PoolSpec):
        return spec
    if isinstance(spec, RollSpec):   # (a total written as an expression is never a sum: said at once)
        return _of_roll(spec) if spec.total is None else None
    return None


@lru_cache(maxsize=8192)
def _of_roll(spec: RollSpec) -> PoolSpec | None:
    if spec.ceiling is not None or spec.count_names or spec.reroll_faces or spec.again:
        return None
    if not all(isinstance(die, Die) for die, _ in spec.groups):
        return None
    if spec.total is not None:
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


def total_form(spec) -> PoolSpec | None:
    """The roll's total as a sum of dice (:class:`PoolSpec`) when its total expression is the
    sum of every die's value plus numbers and parameters (``3d6+1``, ``4dF+@skill``), or the
    highest or lowest few of one type's dice plus numbers (``4d6kh3``, ``2d20kl1+5``), for a
    reading that needs the total alone (the statistics the expression reads are then not
    computed); else ``None``.

    Example:
        >>> from workbench.rules.dice import Die
        >>> from workbench.rules.roll import Keep, RollSpec, Sum
        >>> roll = RollSpec(((Die.numbered("d6", 6), 3),), stats=(Sum("d6", dice=("d6",)),),
        ...                 total="d6 + bonus + 1", values={"bonus": 2})
        >>> sum_form(roll) is None, total_form(roll).modifier
        (True, 3)
        >>> best = RollSpec(((Die.numbered("d6", 6), 4),), stats=(Keep("d6", take=3),), total="d6")
        >>> total_form(best).keep, total_form(best).kept
        ('highest', 3)
    """
    if not isinstance(spec, RollSpec) or spec.total is None or spec.ceiling is not None \
            or spec.reroll_faces or spec.again or spec.rerolls or spec.kept is not None \
            or not all(isinstance(die, Die) for die, _ in spec.groups):
        return None   # rerolls of misses: what a miss is depends on the roll's counts (walked)
    split = _numbers_and_names(spec)
    if split is None:
        return None
    added, names = split
    if spec.count_names:
        groups, keep, kept = _scoring_one_count(spec, names), "sum", None
    else:
        groups, (keep, kept) = spec.groups, _summed_or_kept(spec, names) or (None, None)
    if groups is None or keep is None:
        return None
    try:
        return PoolSpec(tuple(groups), modifier=spec.modifier + added, floor=spec.floor, keep=keep,
                        kept=kept)
    except WorkbenchError:   # a sum the fast paths do not take (they say so): evaluate it
        return None


def _numbers_and_names(spec: RollSpec) -> tuple[int, list[str]] | None:
    """The whole numbers and parameters a total expression adds up, and the other names it
    adds (each with a plus sign); ``None`` when it is more than names and numbers added and
    taken away, takes a name away, or a parameter is not whole."""
    if spec.total.kind != "whole":
        return None
    terms = _signed_terms(spec.total.tree, 1)
    if terms is None:
        return None
    values = dict(spec.values)
    added, names = 0, []
    for sign, kind, value in terms:
        if kind == "number" or value in values:
            number = value if kind == "number" else values[value]
            if type(number) is not int:
                return None
            added += sign * number
        elif sign < 0:
            return None
        else:
            names.append(value)
    return added, names


def _scoring_one_count(spec: RollSpec, names: list[str]) -> list | None:
    """A total that is one count of every die (``hits``: ``8d10cs>=8x``) as dice whose values
    are that count, each exploding as before (the closed forms of success pools answer it);
    else ``None``."""
    if spec.stats or len(names) != 1 or names[0] not in spec.count_names:
        return None
    groups = []
    for die, n in spec.groups:
        scored = dict(die.counts).get(names[0])
        if scored is None or die.into is not None:
            return None
        groups.append((Die(die.name, tuple(scored), die.explodes, limit=die.limit), n))
    return groups


def _summed_or_kept(spec: RollSpec, names: list[str]) -> tuple[str, int | None] | None:
    """``(keep, kept)`` when the names are statistics summing ``value`` over dice types that
    together are every die, each once (``"sum"``), or one statistic keeping the highest or
    lowest ``kept`` values of a roll of one type of die that does not explode; else ``None``."""
    stats = {stat.name: stat for stat in spec.stats}
    covered: list[str] = []
    keep, kept = "sum", None
    for name in names:
        stat = stats.pop(name, None)
        if type(stat) not in (Sum, Keep) or stat.score != "value" or (
                stat.parsed is not None and stat.parsed.tree != ("name", "value")):
            return None
        if type(stat) is Keep:
            if stat.order not in ("highest", "lowest") or stat.skip or len(spec.groups) != 1 \
                    or any(spec.groups[0][0].explodes) or covered:
                return None
            keep, kept = stat.order, stat.take
        elif keep != "sum":
            return None
        covered += stat.dice or [die.name for die, _ in spec.groups]
    rolled = [die.name for die, _ in spec.groups]
    if stats or sorted(covered) != sorted(rolled) or len(set(rolled)) != len(rolled):
        return None   # a statistic the total does not read, or dice summed twice or not at all
    return keep, kept


def _signed_terms(tree: tuple, sign: int) -> list[tuple[int, str, object]] | None:
    """A tree of ``+``, ``-`` and negation over names and numbers as ``(sign, kind, value)``
    terms; ``None`` for any other tree."""
    if tree[0] in ("number", "name"):
        return [(sign, tree[0], tree[1])]
    if tree[0] == "negate":
        return _signed_terms(tree[1], -sign)
    if tree[0] == "binary" and tree[1] in ("+", "-"):
        left, right = _signed_terms(tree[2], sign), _signed_terms(tree[3], sign if tree[1] == "+" else -sign)
        return None if left is None or right is None else left + right
    return None
