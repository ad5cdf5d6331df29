"""Rolls that are mixtures of plain rolls: rerolled misses and kept dice, exactly.

A roll whose misses are rolled again, or whose dice are only partly kept, is not a roll of
independent dice, but it is one once we know a little about what the dice showed:

- **Rerolls** (``RollSpec.rerolls``): given that ``m`` of a type's ``n`` dice missed (their
  value, with their explosion chain, is 0: a binomial chance), the roll is ``n - m`` dice
  *given that they did not miss*, ``m - r`` dice given that they missed, and ``r`` fresh
  dice, ``r`` being the rerolls left for that type (the first misses get them, type by type).
- **Kept dice** (``RollSpec.kept``, the ``take`` highest of ``n``): given that the lowest kept
  die shows outcome ``t`` and ``a`` dice show something better, the kept dice are ``a`` dice
  *given that they beat t* and ``take - a`` dice showing ``t``. Exactly one ``(t, a)`` holds
  for every roll, with chance ``sum over e >= take - a`` of ``n! / (a! e! (n-a-e)!) *
  above^a * at^e * below^(n-a-e)``. (Outcomes are whole rows: a value and its counts, so
  dice that tie in rank are identical.)

Each part is an ordinary roll of groups of dice (``(index, die, count, attributes,
probabilities)``, several groups per die type), evaluated by :mod:`.evaluate`; the parts'
joint distributions are added with their chances (:func:`mixed`).

Example:
    >>> import numpy as np
    >>> from workbench.rules.dice import Die
    >>> from workbench.rules.roll import KeptDice, RollSpec
    >>> d6 = Die.numbered("d6", 6)
    >>> spec = RollSpec(((d6, 2),), kept=KeptDice("d6", 1, "lowest"))
    >>> group = (0, d6, 2, np.arange(1, 7).reshape(6, 1), np.full(6, 1 / 6))
    >>> [round(weight * 36) for weight, part in kept_parts(spec, [group])]
    [11, 9, 7, 5, 3, 1]
"""
from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np

from ..errors import WorkbenchError
from ..rules.roll import RollSpec
from ._rows import merge_rows
from .joint import JointDistribution

SKIP_WEIGHT = 1e-17
"""Parts less likely than this are not evaluated; their chance is reported as lost."""

MAX_PARTS = 20_000
"""Most parts one roll is split into (each is a roll of its own)."""


def kept_parts(spec: RollSpec, groups: list) -> list[tuple[float, list]]:
    """``(chance, groups)`` for each (lowest kept outcome, dice above it) of ``spec.kept``."""
    kept = spec.kept
    slot = next((i for i, group in enumerate(groups) if group[1].name == kept.dice), None)
    if slot is None or kept.take >= groups[slot][2]:
        return [(1.0, groups)]
    index, die, n, attributes, probabilities = groups[slot]
    others = groups[:slot] + groups[slot + 1:]
    take = kept.take
    if take == 0:
        return [(1.0, others)]
    rows = len(attributes)
    if rows * take > MAX_PARTS:
        raise WorkbenchError(f"keeping {take} of {n} dice of {die.name!r} with {rows} different "
                             f"outcomes splits the roll into {rows * take:,} parts, more than "
                             f"{MAX_PARTS:,}; keep fewer dice")
    # Outcomes best first: rows are sorted by rank, lowest first.
    order = np.arange(rows)[::-1] if kept.order == "highest" else np.arange(rows)
    chances = probabilities[order]
    better = np.concatenate(([0.0], np.cumsum(chances)[:-1]))
    parts = []
    for position, row in enumerate(order):
        at, above = float(chances[position]), float(better[position])
        below = max(1.0 - above - at, 0.0)
        if at <= 0.0:
            continue
        for a in range(take):
            weight = _kept_chance(n, take, a, above, at, below)
            if weight <= 0.0:
                continue
            part = list(others)
            if a:
                upper = np.sort(order[:position])   # rows stay sorted by rank, lowest first
                part.append((index, die, a, attributes[upper], probabilities[upper] / above))
            part.append((index, die, take - a, attributes[row:row + 1], np.ones(1)))
            parts.append((weight, part))
    return parts


def _kept_chance(n: int, take: int, a: int, above: float, at: float, below: float) -> float:
    """P(exactly ``a`` dice above the outcome, at least ``take - a`` at it): the lowest kept
    die shows it."""
    if a and above <= 0.0:
        return 0.0
    total = 0.0
    log_above = a * math.log(above) if a else 0.0
    for e in range(take - a, n - a + 1):
        rest = n - a - e
        if rest and below <= 0.0:
            continue
        log = (math.lgamma(n + 1) - math.lgamma(a + 1) - math.lgamma(e + 1) - math.lgamma(rest + 1)
               + log_above + e * math.log(at) + (rest * math.log(below) if rest else 0.0))
        total += math.exp(log)
    return total


def reroll_parts(spec: RollSpec, groups: list, negative: int | None) -> tuple[list, float]:
    """``(parts, skipped)``: ``(chance, groups)`` for each number of misses per die type, and
    the chance of the parts too unlikely to evaluate. ``negative`` is the column of the
    engine's first-face-negative count (a rerolled die's new roll is not a first roll)."""
    states = [(1.0, spec.rerolls, [])]
    skipped = 0.0
    for index, die, n, attributes, probabilities in groups:
        missed = attributes[:, 0] == 0
        q = float(probabilities[missed].sum())
        misses = (attributes[missed], probabilities[missed] / q) if q > 0.0 else None
        hits = (attributes[~missed], probabilities[~missed] / (1.0 - q)) if q < 1.0 else None
        fresh = _fresh(attributes, probabilities, negative)
        weights = _binomial(n, q)
        new = []
        for weight, left, part in states:
            for m in range(n + 1):
                chance = weight * weights[m]
                if chance < SKIP_WEIGHT:
                    skipped += chance
                    continue
                used = min(m, left)
                groups_now = list(part)
                for count, table in ((n - m, hits), (m - used, misses), (used, fresh)):
                    if count:
                        groups_now.append((index, die, count, *table))
                new.append((chance, left - used, groups_now))
        if len(new) > MAX_PARTS:
            raise WorkbenchError(f"rerolls shared by these dice split the roll into more than "
                                 f"{MAX_PARTS:,} parts; use fewer dice or one die type")
        states = new
    return [(weight, part) for weight, _, part in states], skipped


def _binomial(n: int, q: float) -> list[float]:
    if q <= 0.0:
        return [1.0] + [0.0] * n
    if q >= 1.0:
        return [0.0] * n + [1.0]
    return [math.exp(math.lgamma(n + 1) - math.lgamma(m + 1) - math.lgamma(n - m + 1)
                     + m * math.log(q) + (n - m) * math.log1p(-q)) for m in range(n + 1)]


def _fresh(attributes: np.ndarray, probabilities: np.ndarray, negative: int | None):
    """A die rolled again: every outcome, its first-face count (if any) cleared."""
    if negative is None or not attributes[:, negative].any():
        return attributes, probabilities
    cleared = attributes.copy()
    cleared[:, negative] = 0
    return merge_rows(cleared, probabilities)


def mixed(spec: RollSpec, joints: list, lost: float) -> JointDistribution:
    """The parts' joint distributions added with their chances, scaled by ``1 - lost``."""
    names = spec.statistic_names
    found = [(weight, joint) for weight, joint in joints if len(joint.probabilities)]
    if not found:
        return JointDistribution(names, np.zeros((0, len(names)), np.int64), np.zeros(0), lost_mass=lost)
    values = np.concatenate([joint.values for _, joint in found])
    probabilities = np.concatenate([weight * joint.probabilities for weight, joint in found])
    values, probabilities = merge_rows(values, probabilities)
    probabilities = probabilities * (1.0 - lost)
    keep = probabilities > 0.0
    return JointDistribution(names, values[keep], probabilities[keep], lost_mass=float(lost))


def rerolled_once(attributes: np.ndarray, probabilities: np.ndarray, column: int,
                  negative: int | None) -> tuple[np.ndarray, np.ndarray]:
    """One die whose rerollable outcomes (``column`` is 1) are rolled once more: its
    outcomes stay where it kept them, and the chance it rerolled is spread over a new roll."""
    again = attributes[:, column] == 1
    chance = float(probabilities[again].sum())
    cleared = attributes.copy()
    cleared[:, column] = 0
    fresh, fresh_p = _fresh(cleared, probabilities, negative)
    rows = np.concatenate([cleared[~again], fresh])
    return merge_rows(rows, np.concatenate([probabilities[~again], chance * fresh_p]))


def push_parts(groups: list, column: int, negative: int | None) -> tuple[list, float]:
    """``(parts, skipped)`` for a reroll by face that waits on a condition: each part is
    ``(chance, first, pushed)``: the roll given which outcome every die that keeps its face
    showed and how many dice show a rerollable face, then the same with those rolled again
    (``pushed`` is ``None`` when no die could be rerolled). The condition is read on each
    part's first roll; the dice kept are the same dice in both."""
    options = [_group_options(group, column, negative) for group in groups]
    total = math.prod(len(found) for found in options)
    if total > MAX_PARTS:
        raise WorkbenchError(f"a reroll that waits on a condition splits this roll into {total:,} "
                             f"parts (one per way the dice that stay can fall), more than {MAX_PARTS:,}; "
                             "use fewer dice or fewer faces that stay")
    parts, skipped = [], 0.0
    for combination in itertools.product(*options):
        weight = math.prod(option[0] for option in combination)
        if weight < SKIP_WEIGHT:
            skipped += weight
            continue
        first = [entry for option in combination for entry in option[1]]
        rerolled = any(option[3] for option in combination)
        pushed = [entry for option in combination for entry in option[2]] if rerolled else None
        parts.append((weight, first, pushed))
    return parts, skipped


def _group_options(group, column: int, negative: int | None) -> list:
    """Per way a group's dice can fall: ``(chance, first groups, pushed groups, dice
    rerolled)``, the dice that stay given outcome by outcome."""
    index, die, n, attributes, probabilities = group
    again = attributes[:, column] == 1
    stay = np.nonzero(~again)[0]
    chance_again = float(probabilities[again].sum())
    conditional = (attributes[again], probabilities[again] / chance_again) if chance_again > 0 else None
    fresh = _fresh(attributes, probabilities, negative)
    fresh = (fresh[0], fresh[1])
    out = []
    for rerolled in range(n + 1):
        if rerolled and conditional is None:
            break
        staying = n - rerolled
        for picked in itertools.combinations_with_replacement(range(len(stay)), staying):
            shown = Counter(picked)
            log = (math.lgamma(n + 1) - math.lgamma(rerolled + 1)
                   + (rerolled * math.log(chance_again) if rerolled else 0.0))
            for slot, many in shown.items():
                log += many * math.log(float(probabilities[stay[slot]])) - math.lgamma(many + 1)
            fixed = [(index, die, many, attributes[stay[slot]:stay[slot] + 1], np.ones(1))
                     for slot, many in sorted(shown.items())]
            first = fixed + ([(index, die, rerolled, *conditional)] if rerolled else [])
            pushed = fixed + ([(index, die, rerolled, *fresh)] if rerolled else [])
            out.append((math.exp(log), first, pushed, rerolled))
    return out


MAX_AGAIN_ROWS = 2_000_000
"""Most rows one step of rolling again may hold (distinct sums of the statistics so far)."""


def rolled_again(values: np.ndarray, probabilities: np.ndarray, again: np.ndarray, limit: int,
                 tolerance: float) -> tuple[np.ndarray, np.ndarray, float]:
    """``(values, probabilities, lost)`` of a roll made again and added while ``again`` holds
    on the newest roll (rows of one roll's statistics): each further roll's rows are added to
    the rows so far, at most ``limit`` further rolls (0: until less than ``tolerance`` of the
    probability is still rolling; that is returned as lost)."""
    stop_v, stop_p = values[~again], probabilities[~again]
    go_v, go_p = values[again], probabilities[again]
    found_v, found_p = [stop_v], [stop_p]
    prefix_v, prefix_p = go_v, go_p
    lost, rolls = 0.0, 1
    while len(prefix_p):
        if limit and rolls == limit + 1:   # the last roll allowed: it is not rolled again
            break
        if limit and rolls == limit:
            v, p = _added(prefix_v, prefix_p, values, probabilities)
            found_v.append(v)
            found_p.append(p)
            break
        v, p = _added(prefix_v, prefix_p, stop_v, stop_p)
        found_v.append(v)
        found_p.append(p)
        prefix_v, prefix_p = merge_rows(*_added(prefix_v, prefix_p, go_v, go_p))
        rolls += 1
        rolling = float(prefix_p.sum())
        if not limit and rolling <= tolerance:
            lost = rolling
            break
        if rolls > 10_000:
            raise WorkbenchError("this roll is rolled again so often that following it exactly "
                                 "does not end; set a limit to the rolls again")
    values, probabilities = merge_rows(np.concatenate(found_v), np.concatenate(found_p))
    return values, probabilities, lost


def _added(a_values, a_probabilities, b_values, b_probabilities):
    """Every row of ``a`` plus every row of ``b``, with the products of their chances."""
    rows = len(a_values) * len(b_values)
    if rows > MAX_AGAIN_ROWS:
        raise WorkbenchError(f"rolling this roll again holds {rows:,} combinations of its statistics "
                             f"at once, more than {MAX_AGAIN_ROWS:,}; use fewer dice or statistics, "
                             "or a limit to the rolls again")
    width = a_values.shape[1]
    values = (a_values[:, None, :] + b_values[None, :, :]).reshape(-1, width)
    return values, np.outer(a_probabilities, b_probabilities).reshape(-1)
