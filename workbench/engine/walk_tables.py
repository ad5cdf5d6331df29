"""The outcome tables the walk reads (:func:`workbench.engine._kernels.walk.walk`).

The walk goes through every outcome of the ranked dice in rank order; for each group of dice
it needs the chance that a die still unresolved shows the current outcome (given it shows
that one or a later one), when the group's dice join (a d6 walked with d10s from the top joins
at 6) and how many are still to join. Groups that play the same part in every statistic
and whose chances agree once both have joined walk as one group (the mixed right-truncated
dice of icepool's paper: d4 ... d12 together).

A roll's dice have a few dozen outcomes, so the tables are made in plain Python (numpy's
fixed cost per call would outweigh the work) and turned into arrays once.

Example:
    >>> import numpy as np
    >>> d4 = (np.array([[1], [2], [3], [4]]), np.full(4, 0.25))
    >>> d2 = (np.array([[1], [2]]), np.full(2, 0.5))
    >>> tables = outcome_tables([d4, d2], [2, 1], [(True,), (True,)], descending=True)
    >>> tables.rows[:, 0].tolist(), tables.join.tolist(), tables.classes
    ([4, 3, 2, 1], [[2, 0, 1, 0]], [[0, 1]])
"""
from __future__ import annotations

from itertools import accumulate
from typing import NamedTuple

import numpy as np

SAME_CHANCE = 1e-13
"""Relative difference up to which two groups' chances count as equal (they walk as one)."""


class OutcomeTables(NamedTuple):
    """Arrays over the walk's outcomes ``o`` and merged groups ``m`` (see the kernel)."""

    rows: np.ndarray        # int64[o, attributes], in walk order
    fresh_next: np.ndarray  # bool[o]: the next outcome shows another value (or there is none)
    q: np.ndarray           # float[m, o]: P(an unresolved die shows o)
    join: np.ndarray        # int64[m, o]: dice that join at o
    pend: np.ndarray        # int64[m, o]: dice that join after o
    r_max: np.ndarray       # int64[m]: the group's dice
    classes: list           # the walked groups (indices into ``walked``) of each merged group


def outcome_tables(tables: list, counts: list[int], roles: list[tuple], descending: bool) -> OutcomeTables:
    """Tables for walked groups: ``tables[i]`` is group ``i``'s ``(attributes, probabilities)``
    (distinct rows, sorted, each with a chance above 0, as :func:`~workbench.engine.dice.die_outcomes`
    gives them), ``counts[i]`` its dice, ``roles[i]`` the part it plays in each statistic
    (groups walk as one only when their roles are equal)."""
    width = tables[0][0].shape[1]
    # An outcome's key: its value alone when there are no counts, else its whole row.
    listed = [(attributes[:, 0].tolist() if width == 1 else list(map(tuple, attributes.tolist())),
               probabilities.tolist()) for attributes, probabilities in tables]
    outcomes = sorted({key for keys, _ in listed for key in keys}, reverse=descending)
    n_out = len(outcomes)
    place = {key: o for o, key in enumerate(outcomes)}
    chances, tops = [], []
    for keys, probabilities in listed:
        shown = [0.0] * n_out
        for key, p in zip(keys, probabilities):
            shown[place[key]] = p
        # P(this outcome or a later one), added from the last outcome on
        tails = list(accumulate(reversed(shown)))[::-1]
        chances.append([p / tail if tail > 0.0 else 0.0 for p, tail in zip(shown, tails)])
        tops.append(min(map(place.__getitem__, keys)))   # (die outcomes all have chances > 0)
    classes: list[list[int]] = []
    for g in range(len(tables)):
        for members in classes:
            h = members[0]
            both = max(tops[g], tops[h])
            if roles[g] == roles[h] and all(abs(x - y) <= SAME_CHANCE * abs(y)
                                            for x, y in zip(chances[g][both:], chances[h][both:])):
                members.append(g)
                break
        else:
            classes.append([g])
    q = [[0.0] * n_out for _ in classes]
    join = [[0] * n_out for _ in classes]
    pend = [[0] * n_out for _ in classes]
    r_max = [0] * len(classes)
    for m, members in enumerate(classes):
        for g in sorted(members, key=lambda g: -tops[g]):   # the earliest-joining member last
            top = tops[g]
            q[m][top:] = chances[g][top:]
            join[m][top] += counts[g]
            for o in range(top):
                pend[m][o] += counts[g]
            r_max[m] += counts[g]
    values = outcomes if width == 1 else [key[0] for key in outcomes]
    fresh_next = [values[o] != values[o + 1] for o in range(n_out - 1)] + [True]
    return OutcomeTables(np.array(outcomes, np.int64).reshape(n_out, width), np.array(fresh_next, np.bool_),
                         np.array(q, float).reshape(len(classes), n_out),
                         np.array(join, np.int64).reshape(len(classes), n_out),
                         np.array(pend, np.int64).reshape(len(classes), n_out),
                         np.array(r_max, np.int64), classes)
