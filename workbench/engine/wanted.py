"""Compute what is asked: a roll cut down to the statistics a reading needs.

A check's P(pass), tiers and outcome distribution often read the total alone (or the total
and one condition), while the file describes more statistics (Cortex's hitches beside the two
dice kept). Every statistic is computed jointly, so each one more multiplies the work; here a
:class:`~workbench.rules.roll.RollSpec` is cut down to the statistics and counts that the
wanted names read, directly or through the total, a derived statistic or a condition the
roll itself reads (a reroll's, rolling again). What stays is computed exactly as in the full
roll: a count that may decide how dice rank for a statistic kept (a ``Keep`` adding a count,
dice kept by rank) keeps every count.

Example:
    >>> from workbench.rules.dice import Die
    >>> from workbench.rules.roll import Keep, RollSpec
    >>> d6 = Die.numbered("d6", 6, counts={"ones": [1, 0, 0, 0, 0, 0]})
    >>> spec = RollSpec(((d6, 3),), stats=(Keep("best", take=2),), total="best")
    >>> cut_down(spec, frozenset({"total"})).statistic_names
    ('total', 'best')
"""
from __future__ import annotations

from functools import lru_cache

from ..rules.dice import Die
from ..rules.roll import Keep, RollSpec


def cut_down(spec: RollSpec, wanted: frozenset) -> RollSpec:
    """``spec`` with only the statistics and counts ``wanted`` (names) need; ``spec`` itself
    when nothing can be left out, or when what is left out is derived statistics of a plain
    roll (the engine's joint of the wanted statistics does not work them out) and more than
    the total is wanted (a total alone may be a sum once the rest is gone)."""
    return _cut_down(spec, frozenset(wanted))


@lru_cache(maxsize=4096)
def _cut_down(spec: RollSpec, wanted: frozenset) -> RollSpec:
    facts = spec.statistics_facts
    needed = {"total", *wanted}
    if spec.total is not None:
        needed.update(spec.total.names)
    for condition in (spec.reroll_faces.condition if spec.reroll_faces else None,
                      spec.again.condition if spec.again else None):
        if condition is not None:
            needed.update(condition.names)
    reads = facts.reads   # (each derived statistic's names, through the derived ones it reads)
    for name in [name for name in needed if name in reads]:
        needed |= reads[name]
    stats = spec.stats if needed >= facts.names else tuple(stat for stat in spec.stats if stat.name in needed)
    count_names = spec.count_names
    counts = {name for name in count_names if name in needed} if count_names else set()
    ranked_by_counts = spec.kept is not None
    for stat in facts.scored:
        if stat.name in needed:
            score = stat.score
            counts |= {score} if score in count_names else set(spec.parsed_score(score).names) & set(count_names)
            ranked_by_counts = ranked_by_counts or isinstance(stat, Keep)
    if ranked_by_counts and counts:
        counts = set(count_names)   # ties in rank go by every count, in order
    if len(stats) == len(spec.stats) and len(counts) == len(count_names):
        return spec
    if len(counts) == len(count_names) and _derived_only(spec, needed) and not set(wanted) <= {"total"}:
        return spec   # the joint leaves those out itself (the engine's ``shown``): no new roll to make
    keep = tuple(name for name in count_names if name in counts)
    groups = tuple((_die_counting(die, keep), n) if isinstance(die, Die) else (die, n)
                   for die, n in spec.groups)
    return spec.narrowed(groups, stats)


def _derived_only(spec: RollSpec, needed: set) -> bool:
    """Whether what ``needed`` leaves out of a plain roll (no rerolls, keeps or rolling
    again, whose routes compute every statistic) is derived statistics only, and what stays
    reads the dice by more than their sum (else the roll cut down may be a sum)."""
    if spec.rerolls or spec.kept is not None or spec.reroll_faces is not None or spec.again is not None:
        return False
    facts = spec.statistics_facts
    if needed.isdisjoint(facts.from_dice):
        return False
    return needed >= facts.base_names


@lru_cache(maxsize=1024)
def _die_counting(die: Die, counts: tuple[str, ...]) -> Die:
    """``die`` (and the dice its explosions roll) scoring only ``counts``."""
    if not counts:
        return die.uncounted
    into = _die_counting(die.into, counts) if die.into is not None else None
    kept = tuple((name, scores) for name, scores in die.counts if name in counts)
    if kept == die.counts and into is die.into:
        return die
    return die.counting_only(kept, into)
