"""Rolls read check by check in steps, for rolls that decide on their own statistics: a reroll
by face that waits on a condition over the first roll (a push), and a roll made again while a
condition holds on the newest roll (:mod:`workbench.engine.roll_rounds`).

Between the steps the conditions are evaluated in numpy, so each kernel here does one step
for a list of checks (indices into the arrays, in order) and leaves the generator of their
block where it stopped: ``state`` is one block's generator (six words, see
:mod:`.rng`), read and written back, so the block's next step draws on from there. The
blocks are independent: the caller runs them on several threads (the kernels release the
GIL) and the results do not depend on how many.

- :func:`dice_rows`: one roll of each check listed (:func:`.rolls.roll_check`, every rule but
  the reroll by face) into ``att[i]``, its first faces into ``faces[i]`` and its all-negative
  flag into ``negative[i]``;
- :func:`push_rows`: each die of the checks listed whose first face is rerolled by face
  (``rerollable[row, face]``) rolled once more (a die rolled again had no first roll: the
  check's all-negative flag clears);
- :func:`read_rows`: the statistics of each check listed into ``rows[i]``
  (:func:`.rolls.read_statistics`).
"""
from __future__ import annotations

import numpy as np

from ._jit import thread_kernel
from .rolls import _load, _one_die, read_statistics, roll_check


@thread_kernel
def dice_rows(state, checks, slot_row, kind, sides, face_att, explodes, into, limit, extra, rerolls,
              kept_start, kept_count, kept_take, kept_lowest, rank_from, rank_to, rank_count, att,
              faces, negative):
    """One roll of each check of ``checks`` (see the module docstring)."""
    room = max(slot_row.shape[0], 1)
    init = np.zeros((room, att.shape[2]), np.int64)   # room for the scores read after
    marks = np.zeros((3, room), np.int64)
    spare = np.zeros(room + rank_count, np.int64)
    for i in checks:
        out = att[i]
        if kept_count == 0:
            init = out
        negative[i] = roll_check(state, init, out, slot_row, kind, sides, face_att, explodes, into,
                                 limit, extra, rerolls, kept_start, kept_count, kept_take,
                                 kept_lowest, rank_from, rank_to, rank_count, marks, spare, True)
        for s in range(slot_row.shape[0]):
            faces[i, s] = marks[2, s]


@thread_kernel
def push_rows(state, checks, slot_row, sides, face_att, explodes, into, limit, rerollable, att, faces,
              negative):
    """The dice of each check of ``checks`` showing a face rerolled, rolled once more."""
    s0, s1, s2, s3, buffer, left = _load(state)
    width = face_att.shape[2]
    for i in checks:
        dice = att[i]
        for s in range(slot_row.shape[0]):
            row = slot_row[s]
            if rerollable[row, faces[i, s]]:
                first, face, s0, s1, s2, s3, buffer, left = _one_die(
                    dice, s, row, sides, face_att, explodes, into, limit, width, s0, s1, s2, s3, buffer, left)
                faces[i, s] = face
                negative[i] = False
    state[0], state[1], state[2], state[3], state[4] = s0, s1, s2, s3, buffer
    state[5] = np.uint64(left)


@thread_kernel
def read_rows(checks, att, negative, rank_from, rank_to, rank_count, sel_slots, sel_len, sel_sort, ops,
              rows):
    """The statistics of each check of ``checks`` (one row each)."""
    room = max(att.shape[1], 1)
    spare = np.zeros(room + rank_count, np.int64)
    order = np.zeros((sel_len.shape[0], room), np.int64)
    for i in checks:
        read_statistics(att[i], negative[i], sel_slots, sel_len, sel_sort, order, spare, rank_from,
                        rank_to, rank_count, ops, rows[i])
