"""The walk's outcome tables, made in the same compiled call as the walk itself.

:func:`walk_groups` takes each walked group's outcomes as :func:`~workbench.engine.dice.die_outcomes`
gives them (rows of attributes, sorted, each with a chance above 0), puts every group's
outcomes in one rank order, and for each group works out the chance that a die still
unresolved shows the current outcome (given it shows that one or a later one), where the
group's dice join the walk (a d6 walked from the top with d10s joins at 6) and how many are
still to join. Groups that play the same part in every register and whose chances agree once
both have joined walk as one (the mixed right-truncated dice of icepool's paper: d4 ... d12
together). Then it runs :func:`workbench.engine._kernels.walk.walk` on those tables.

A roll's tables are small, so making them here rather than with numpy or plain Python saves
the fixed cost of dozens of calls on a cold roll.
"""
from __future__ import annotations

import numpy as np

from ._jit import kernel
from .walk import COUNTER, KEEP, PICK, walk

SAME_CHANCE = 1e-13
"""Relative difference up to which two groups' chances count as equal (they walk as one)."""

TOO_MANY = 2.0 ** 62
"""Combinations of registers and unresolved dice past which a state's code would not fit."""


@kernel
def _rank_order(attrs):
    """Indices of ``attrs``'s rows sorted lexicographically (first column most significant)."""
    order = np.arange(attrs.shape[0])
    column = np.empty(attrs.shape[0], np.int64)
    for c in range(attrs.shape[1] - 1, -1, -1):   # stable sorts, least significant first
        for i in range(order.shape[0]):
            column[i] = attrs[order[i], c]
        order = order[np.argsort(column, kind="mergesort")]
    return order


@kernel
def _same_row(attrs, i, j):
    for c in range(attrs.shape[1]):
        if attrs[i, c] != attrs[j, c]:
            return False
    return True


@kernel
def walk_groups(attrs, chances, group_rows, counts, roles, ops, reg_lo, reg_size, descending,
                start_codes, start_probabilities, most_states):
    """``(codes, probabilities, status, span)`` of the walk over groups of dice: group ``g``
    has ``counts[g]`` dice whose outcomes are the next ``group_rows[g]`` rows of ``attrs``
    (chances in ``chances``); ``roles[g, j]`` says whether register ``j`` reads the group as
    its first or second set of dice. Status as :func:`~workbench.engine._kernels.walk.walk`'s,
    or 3 when the registers and unresolved dice span ``span`` >= 2**62 combinations (nothing
    walked)."""
    n_rows, width = attrs.shape
    n_groups, n_regs = roles.shape[0], roles.shape[1]
    order = _rank_order(attrs)
    outcome_of = np.empty(n_rows, np.int64)   # each row's outcome, ascending
    firsts = np.empty(n_rows, np.int64)       # a row of each outcome
    n_out = 0
    for i in range(n_rows):
        if i == 0 or not _same_row(attrs, order[i], order[i - 1]):
            firsts[n_out] = order[i]
            n_out += 1
        outcome_of[order[i]] = n_out - 1
    rows = np.empty((n_out, width), np.int64)
    for o in range(n_out):
        walked = n_out - 1 - o if descending else o
        rows[walked] = attrs[firsts[o]]
    shown = np.zeros((n_groups, n_out))
    at = 0
    for g in range(n_groups):
        for i in range(at, at + group_rows[g]):
            o = outcome_of[i]
            shown[g, n_out - 1 - o if descending else o] = chances[i]
        at += group_rows[g]
    given = np.zeros((n_groups, n_out))   # P(this outcome | this one or a later one)
    tops = np.zeros(n_groups, np.int64)   # each group's first outcome in walk order
    for g in range(n_groups):
        tail = 0.0
        for o in range(n_out - 1, -1, -1):
            tail += shown[g, o]
            if tail > 0.0:
                given[g, o] = shown[g, o] / tail
        for o in range(n_out):
            if shown[g, o] > 0.0:
                tops[g] = o
                break
    leader_of = np.empty(n_groups, np.int64)   # the class of each group, by its first member
    leaders = np.empty(n_groups, np.int64)
    n_classes = 0
    for g in range(n_groups):
        leader_of[g] = -1
        for m in range(n_classes):
            h = leaders[m]
            same = True
            for j in range(n_regs):
                if roles[g, j, 0] != roles[h, j, 0] or roles[g, j, 1] != roles[h, j, 1]:
                    same = False
            # Agreeing with the class's first member is not enough: a member that joins late
            # (a one-faced die) agrees with every group on its few outcomes. Every member.
            for k in range(g):
                if not same:
                    break
                if leader_of[k] != m:
                    continue
                for o in range(max(tops[g], tops[k]), n_out):
                    if abs(given[g, o] - given[k, o]) > SAME_CHANCE * abs(given[k, o]):
                        same = False
            if same:
                leader_of[g] = m
                break
        if leader_of[g] < 0:
            leaders[n_classes] = g
            leader_of[g] = n_classes
            n_classes += 1
    q = np.zeros((n_classes, n_out))
    join = np.zeros((n_classes, n_out), np.int64)
    pend = np.zeros((n_classes, n_out), np.int64)
    r_max = np.zeros(n_classes, np.int64)
    by_top = np.argsort(-tops, kind="mergesort")   # the earliest-joining member last
    for g in by_top:
        m, top = leader_of[g], tops[g]
        q[m, top:] = given[g, top:]
        join[m, top] += counts[g]
        pend[m, :top] += counts[g]
        r_max[m] += counts[g]
    span = 1.0
    for j in range(n_regs):
        span *= reg_size[j]
    for m in range(n_classes):
        span *= r_max[m] + 1.0
    if span >= TOO_MANY:
        return np.zeros(0, np.int64), np.zeros(0), 3, span
    sel_a = np.zeros((n_regs, n_classes), np.bool_)
    sel_b = np.zeros((n_regs, n_classes), np.bool_)
    gate = np.zeros((n_classes, n_regs), np.bool_)
    droppable = np.ones(n_classes, np.bool_)
    for m in range(n_classes):
        for j in range(n_regs):
            sel_a[j, m] = roles[leaders[m], j, 0]
            sel_b[j, m] = roles[leaders[m], j, 1]
            if sel_a[j, m] or sel_b[j, m]:
                kind = ops[j, 0]
                if kind != COUNTER and kind != KEEP and kind != PICK:
                    droppable[m] = False
                elif kind == COUNTER:
                    gate[m, j] = True
    fresh_next = np.ones(n_out, np.bool_)
    for o in range(n_out - 1):
        fresh_next[o] = rows[o, 0] != rows[o + 1, 0]
    codes, probabilities, status = walk(rows, fresh_next, q, join, pend, r_max, reg_lo, reg_size, ops,
                                        sel_a, sel_b, gate, droppable, descending, start_codes,
                                        start_probabilities, most_states)
    return codes, probabilities, status, span
