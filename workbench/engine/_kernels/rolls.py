"""Rolling a roll with statistics die by die: every face, explosion and reroll, every
statistic read from the dice (the simulator of :class:`~workbench.rules.roll.RollSpec`).

:func:`workbench.engine.compiled_roll.compile_roll` turns a roll into the plain arrays
read here (its docstring lists them); the kernels never check their input.

One check:

1. :func:`roll_check` rolls every initial die (slot ``s`` is a die of row ``slot_row[s]``)
   into ``att[s]``, the attributes of its whole explosion chain summed: value, then the
   counts, then scores read per face. An exploding face rolls one more die of row
   ``into[row]``, at most ``limit[row]`` extra dice per initial die (0: no cap). The
   percentile dice are rolled after the others: each draws its units die, then
   ``1 + |extra|`` tens dice, and reads the lowest (``extra > 0``) or highest result (00
   with 0 is 100). Then up to ``rerolls`` dice whose value is 0 are rolled once more, the
   first such dice first; then only the ``kept_take`` highest (or lowest) dice of the kept
   group stay (``out``).
2. :func:`read_statistics` computes one number per operation of ``ops`` from ``out``: sums,
   dice kept or picked by rank (value, then the counts, more first), dice against dice,
   matching values, the all-negative flag.
3. :func:`tally` counts the row of numbers in the block's hash table.

Blocks: block ``k`` rolls its trials from stream ``k`` of the seed
(:func:`~workbench.engine._kernels.rng.seed_state`), so results do not depend on the number
of threads; the block kernels release the GIL and the caller runs blocks on several threads.
A block whose table fills past half stops and reports it (``status[b] = 1``); the caller
reruns the same blocks with a larger table (the same dice).
"""
from __future__ import annotations

import numpy as np

from ._jit import inline_kernel, kernel, thread_kernel
from .rng import draw_face, seed_state

SUM, KEEP, PICK, BEATS, PAIRS, WIDTH, HEIGHT, SETS, ALL_NEGATIVE, ZERO = range(10)
"""Operation codes (``ops[k, 0]``): see :func:`read_statistics`."""

PERCENTILE = 1
"""``kind[row]`` of a percentile die (0: a die with faces)."""

COUNTING_RANKS = 64
"""Dice numbered by at most this many ranks are ranked by a counting sort."""

_HASH_MULTIPLIER = np.int64(-7046029254386353131)   # 0x9E3779B97F4A7C15 as a signed word


@inline_kernel
def _load(state):
    return state[0], state[1], state[2], state[3], state[4], np.int64(state[5])


@kernel
def _percentile(more, s0, s1, s2, s3, buffer, left):
    """A d100 read from a units die and ``1 + |more|`` tens dice, the lowest result kept
    (``more > 0``) or the highest; 00 with 0 reads 100. Returns (result, the generator's
    locals). Not inlined: the per-die loop of the other dice stays small and fast."""
    units, s0, s1, s2, s3, buffer, left = draw_face(s0, s1, s2, s3, buffer, left, 10)
    read = -1
    for _ in range(1 + abs(more)):
        tens, s0, s1, s2, s3, buffer, left = draw_face(s0, s1, s2, s3, buffer, left, 10)
        result = 100 if tens == 0 and units == 0 else 10 * tens + units
        if read < 0 or (more > 0 and result < read) or (more < 0 and result > read):
            read = result
    return read, s0, s1, s2, s3, buffer, left


@inline_kernel
def _one_die(att, s, row, sides, face_att, explodes, into, limit, width, s0, s1, s2, s3, buffer, left):
    """Roll one die of ``row`` (not a percentile die) with its chain into ``att[s, :width]``.
    Returns (whether its first face is negative, that face's index, the generator's locals).

    One return and no call: a branch for percentile dice in here made every die about seven
    times slower (numba 0.68, measured), so they are rolled in a loop of their own."""
    face, s0, s1, s2, s3, buffer, left = draw_face(s0, s1, s2, s3, buffer, left, sides[row])
    first_face = face
    for a in range(width):
        att[s, a] = face_att[row, face, a]
    negative = face_att[row, face, 0] < 0
    current = row
    added = 0
    cap = limit[row]
    while explodes[current, face] and (cap == 0 or added < cap):
        current = into[current]
        face, s0, s1, s2, s3, buffer, left = draw_face(s0, s1, s2, s3, buffer, left, sides[current])
        for a in range(width):
            att[s, a] += face_att[current, face, a]
        added += 1
    return negative, first_face, s0, s1, s2, s3, buffer, left


@inline_kernel
def _higher(att, i, j, rank_from, rank_to):
    """Whether die ``i`` ranks above die ``j``: by columns ``rank_from`` to ``rank_to - 1``
    in order (the value, then the counts; or one column that ranks them all)."""
    for a in range(rank_from, rank_to):
        if att[i, a] != att[j, a]:
            return att[i, a] > att[j, a]
    return False


@inline_kernel
def rank_dice(att, index, q, n, top, rank_from, rank_to, rank_count, spare):
    """Sort ``index[q, :n]`` (rows of ``att``) highest first, at least its first ``top``
    places; ``spare`` has room for ``n + rank_count``. (Rows of 2-D arrays, not views:
    inlined into the block loops, nothing is allocated or reference-counted.)

    Dice ranked by one column numbering ``rank_count`` ranks (at most
    :data:`COUNTING_RANKS`): a counting sort, no comparisons (what ranks above what is
    mostly a coin flip, so every comparison costs a mispredicted branch). Other dice ranked
    by one column: up to 16 inserted among the ``top`` best so far, the column's values held
    beside the indices. Otherwise every die is sorted: insertion sort for a few, a stable
    merge sort for more."""
    if 0 < rank_count <= COUNTING_RANKS:
        for r in range(rank_count):
            spare[n + r] = 0
        for i in range(n):
            spare[n + att[index[q, i], rank_from]] += 1
        above = 0
        for r in range(rank_count - 1, -1, -1):   # dice ranked above rank r: its first place
            here = spare[n + r]
            spare[n + r] = above
            above += here
        for i in range(n):
            die = index[q, i]
            at = n + att[die, rank_from]
            spare[spare[at]] = die
            spare[at] += 1
        for i in range(n):
            index[q, i] = spare[i]
        return
    if n <= 16 and rank_to - rank_from == 1:
        filled = 0
        for i in range(n):
            die = index[q, i]
            key = att[die, rank_from]
            if filled == top:
                if key <= spare[top - 1]:
                    continue
                j = top - 2   # the last of the best so far drops out
            else:
                j = filled - 1
                filled += 1
            while j >= 0 and key > spare[j]:
                index[q, j + 1], spare[j + 1] = index[q, j], spare[j]
                j -= 1
            index[q, j + 1], spare[j + 1] = die, key
        return
    if n <= 16:
        for i in range(1, n):
            die = index[q, i]
            j = i - 1
            while j >= 0 and _higher(att, die, index[q, j], rank_from, rank_to):
                index[q, j + 1] = index[q, j]
                j -= 1
            index[q, j + 1] = die
        return
    width = 1
    while width < n:
        for low in range(0, n, 2 * width):
            middle, high = min(low + width, n), min(low + 2 * width, n)
            i, j = low, middle
            for k in range(low, high):
                if j < high and (i >= middle or _higher(att, index[q, j], index[q, i], rank_from, rank_to)):
                    spare[k] = index[q, j]
                    j += 1
                else:
                    spare[k] = index[q, i]
                    i += 1
        for k in range(n):
            index[q, k] = spare[k]
        width *= 2


@inline_kernel
def roll_check(state, init, out, slot_row, kind, sides, face_att, explodes, into, limit, extra,
               rerolls, kept_start, kept_count, kept_take, kept_lowest, rank_from, rank_to, rank_count,
               marks, spare, general):
    """Roll one check's dice into ``out`` (``init`` when nothing is set aside); returns
    whether the roll has dice and every one of them showed a negative value on its first face
    (a die rolled again for a miss had not; dice set aside do not count). ``marks`` (three
    rows) and ``spare``: room for every die; ``marks[2, s]`` is left holding die ``s``'s first
    face (0 first; 0 for a percentile die). ``general``: ``False`` skips percentile dice,
    rerolls and kept dice (a constant where inlined, so the compiled loop is lean)."""
    s0, s1, s2, s3, buffer, left = _load(state)
    width = face_att.shape[2]
    dice = slot_row.shape[0]
    percentiles = False
    for s in range(dice):
        row = slot_row[s]
        if general and kind[row] == PERCENTILE:
            percentiles = True
            marks[1, s], marks[2, s] = 0, 0   # a percentile die never shows a negative value
            continue
        first, face, s0, s1, s2, s3, buffer, left = _one_die(init, s, row, sides, face_att, explodes,
                                                             into, limit, width, s0, s1, s2, s3, buffer, left)
        marks[1, s], marks[2, s] = first, face
    if general and percentiles:
        for s in range(dice):
            row = slot_row[s]
            if kind[row] == PERCENTILE:
                read, s0, s1, s2, s3, buffer, left = _percentile(extra[row], s0, s1, s2, s3, buffer, left)
                for a in range(width):
                    init[s, a] = face_att[row, read - 1, a]
    misses = rerolls if general else 0
    for s in range(dice):
        if misses == 0:
            break
        if init[s, 0] == 0:   # a percentile die is never 0
            misses -= 1
            first, face, s0, s1, s2, s3, buffer, left = _one_die(init, s, slot_row[s], sides, face_att,
                                                                 explodes, into, limit, width,
                                                                 s0, s1, s2, s3, buffer, left)
            marks[1, s], marks[2, s] = 0, face   # its new roll is not a first roll
    state[0], state[1], state[2], state[3], state[4] = s0, s1, s2, s3, buffer
    state[5] = np.uint64(left)
    if general and kept_count > 0:
        for k in range(kept_count):
            marks[0, k] = kept_start + k
        rank_dice(init, marks, 0, kept_count, kept_count, rank_from, rank_to, rank_count, spare)
        first_kept = kept_count - kept_take if kept_lowest else 0
        for k in range(kept_take):   # the flags of the dice that stay, in their new places
            spare[k] = marks[1, marks[0, first_kept + k]]
        for s in range(kept_start):
            out[s, :] = init[s, :]
        for k in range(kept_take):
            out[kept_start + k, :] = init[marks[0, first_kept + k], :]
        for s in range(kept_start + kept_count, dice):
            out[s - kept_count + kept_take, :] = init[s, :]
            marks[1, s - kept_count + kept_take] = marks[1, s]
        for k in range(kept_take):
            marks[1, kept_start + k] = spare[k]
        dice = dice - kept_count + kept_take
    negative = dice > 0
    for s in range(dice):
        negative = negative and marks[1, s] == 1
    return negative


@inline_kernel
def read_statistics(att, negative, sel_slots, sel_len, sel_sort, order, spare, rank_from, rank_to, rank_count, ops,
                    row):
    """One number per operation into ``row``. ``ops[k]``: (code, selection, second selection,
    attribute, a, b); a selection is ``sel_slots[q, :sel_len[q]]``, its first ``sel_sort[q]``
    ranks (highest first) in ``order[q]`` (none when 0).

    SUM: the attribute over the selection. KEEP: the attribute over ranks ``a`` to ``b - 1``
    (0 the highest). PICK: the value at rank ``a``. BEATS: pairs (die of the selection, die of
    the second) the first shows more in. PAIRS: highest against highest...; ties count when
    ``a`` is 1. WIDTH / HEIGHT: the size / value of the largest set of equal values (the
    higher value on a tie). SETS: values on ``a`` or more dice. ALL_NEGATIVE: ``negative``.
    ZERO: 0.
    """
    for q in range(sel_len.shape[0]):
        if sel_sort[q] > 0:
            n = sel_len[q]
            for i in range(n):
                order[q, i] = sel_slots[q, i]
            rank_dice(att, order, q, n, sel_sort[q], rank_from, rank_to, rank_count, spare)
    for k in range(ops.shape[0]):   # sums first, in a loop of their own (compiles leaner)
        if ops[k, 0] == SUM:
            q, attribute = ops[k, 1], ops[k, 3]
            found = 0
            for i in range(sel_len[q]):
                found += att[sel_slots[q, i], attribute]
            row[k] = found
    for k in range(ops.shape[0]):
        code, q, second, attribute, a, b = ops[k, 0], ops[k, 1], ops[k, 2], ops[k, 3], ops[k, 4], ops[k, 5]
        if code == SUM:
            continue
        n = sel_len[q]
        found = 0
        if code == KEEP:
            for i in range(a, b):
                found += att[order[q, i], attribute]
        elif code == PICK:
            found = att[order[q, a], 0]
        elif code == BEATS:
            m = sel_len[second]
            below = 0   # dice of the second selection below the current die
            for i in range(n - 1, -1, -1):   # the selection from its lowest die up
                mine = att[order[q, i], 0]
                while below < m and att[order[second, m - 1 - below], 0] < mine:
                    below += 1
                found += below
        elif code == PAIRS:
            for i in range(min(n, sel_len[second])):
                mine, theirs = att[order[q, i], 0], att[order[second, i], 0]
                if mine > theirs or (mine == theirs and a == 1):
                    found += 1
        elif code == WIDTH or code == HEIGHT or code == SETS:
            widest, height, sets, run = 0, 0, 0, 0
            for i in range(n):
                value = att[order[q, i], 0]
                if i > 0 and value == att[order[q, i - 1], 0]:
                    run += 1
                else:
                    run = 1
                if run > widest:   # values come highest first: a tie keeps the higher
                    widest, height = run, value
                if run == a:
                    sets += 1
            found = widest if code == WIDTH else (height if code == HEIGHT else sets)
        elif code == ALL_NEGATIVE:
            found = 1 if negative else 0
        row[k] = found


@inline_kernel
def tally(row, keys, hits, b, mask):
    """Count ``row`` in block ``b``'s open-addressing table; 1 when it is a new row."""
    code = np.int64(0)
    for k in range(row.shape[0]):
        code = (code ^ row[k]) * _HASH_MULTIPLIER
        code ^= code >> np.int64(29)
    slot = code & mask
    while True:
        if hits[b, slot] == 0:
            for k in range(row.shape[0]):
                keys[b, slot, k] = row[k]
            hits[b, slot] = 1
            return 1
        same = True
        for k in range(row.shape[0]):
            if keys[b, slot, k] != row[k]:
                same = False
                break
        if same:
            hits[b, slot] += 1
            return 0
        slot = (slot + 1) & mask


# -- One block at a time, the GIL released: the caller runs blocks on several threads. (A
# ``prange`` loop around these compiled each of them a second time, about 15 s each.) ----

@thread_kernel
def joint_block(seed, block, b, block_size, trials, slot_row, kind, sides, face_att, explodes,
                 into, limit, extra, rerolls, kept_start, kept_count, kept_take, kept_lowest,
                 rank_from, rank_to, rank_count, sel_slots, sel_len, sel_sort, ops, keys, hits, status):
    """Block ``block`` (``block_size`` trials from stream ``block`` of ``seed``, the last block
    cut at ``trials``) rolled and read into table ``b``: ``keys[b]`` / ``hits[b]`` count its
    rows of statistics; ``status[b]`` becomes 1 when the table is half full (the block stops)."""
    room = max(slot_row.shape[0], 1)
    mask = keys.shape[1] - 1
    state = seed_state(seed, block)
    init = np.zeros((room, face_att.shape[2]), np.int64)
    out = np.zeros((room, face_att.shape[2]), np.int64) if kept_count > 0 else init
    marks = np.zeros((3, room), np.int64)
    spare = np.zeros(room + rank_count, np.int64)
    order = np.zeros((sel_len.shape[0], room), np.int64)
    row = np.zeros(ops.shape[0], np.int64)
    used = 0
    start = block * block_size
    for _ in range(start, min(start + block_size, trials)):
        negative = roll_check(state, init, out, slot_row, kind, sides, face_att, explodes, into,
                              limit, extra, rerolls, kept_start, kept_count, kept_take,
                              kept_lowest, rank_from, rank_to, rank_count, marks, spare, True)
        read_statistics(out, negative, sel_slots, sel_len, sel_sort, order, spare, rank_from, rank_to, rank_count,
                        ops, row)
        used += tally(row, keys, hits, b, mask)
        if 2 * used > keys.shape[1]:
            status[b] = 1
            break


@thread_kernel
def plain_joint_block(seed, block, b, block_size, trials, slot_row, kind, sides, face_att,
                       explodes, into, limit, extra, rerolls, kept_start, kept_count, kept_take,
                       kept_lowest, rank_from, rank_to, rank_count, sel_slots, sel_len, sel_sort, ops, keys, hits,
                       status):
    """:func:`joint_block` for rolls without percentile dice, rerolls and kept dice: the same
    dice and counts, compiled without those steps (about 15% faster)."""
    room = max(slot_row.shape[0], 1)
    mask = keys.shape[1] - 1
    state = seed_state(seed, block)
    init = np.zeros((room, face_att.shape[2]), np.int64)
    marks = np.zeros((3, room), np.int64)
    spare = np.zeros(room + rank_count, np.int64)
    order = np.zeros((sel_len.shape[0], room), np.int64)
    row = np.zeros(ops.shape[0], np.int64)
    used = 0
    start = block * block_size
    for _ in range(start, min(start + block_size, trials)):
        negative = roll_check(state, init, init, slot_row, kind, sides, face_att, explodes, into,
                              limit, extra, rerolls, kept_start, kept_count, kept_take,
                              kept_lowest, rank_from, rank_to, rank_count, marks, spare, False)
        read_statistics(init, negative, sel_slots, sel_len, sel_sort, order, spare, rank_from, rank_to, rank_count,
                        ops, row)
        used += tally(row, keys, hits, b, mask)
        if 2 * used > keys.shape[1]:
            status[b] = 1
            break


@thread_kernel
def dice_block(seed, block, b, block_size, trials, slot_row, kind, sides, face_att, explodes,
                into, limit, extra, rerolls, kept_start, kept_count, kept_take, kept_lowest,
                rank_from, rank_to, rank_count, att, negative):
    """Block ``block``'s dice only, into ``att`` / ``negative`` from row ``b * block_size``
    (for scores read from a whole chain, computed before :func:`count_block` reads them)."""
    room = max(slot_row.shape[0], 1)
    state = seed_state(seed, block)
    init = np.zeros((room, att.shape[2]), np.int64)   # room for the scores read after
    marks = np.zeros((3, room), np.int64)
    spare = np.zeros(room + rank_count, np.int64)
    start = block * block_size
    for t in range(start, min(start + block_size, trials)):
        i = b * block_size + t - start
        out = att[i]
        if kept_count == 0:
            init = out
        negative[i] = roll_check(state, init, out, slot_row, kind, sides, face_att, explodes,
                                 into, limit, extra, rerolls, kept_start, kept_count, kept_take,
                                 kept_lowest, rank_from, rank_to, rank_count, marks, spare, True)


@thread_kernel
def count_block(block, b, block_size, trials, att, negative, rank_from, rank_to, rank_count, sel_slots, sel_len,
                 sel_sort, ops, keys, hits, status):
    """Block ``block``'s dice (rows from ``b * block_size`` of ``att``) read into table ``b``,
    as :func:`joint_block` reads them."""
    room = max(att.shape[1], 1)
    mask = keys.shape[1] - 1
    spare = np.zeros(room + rank_count, np.int64)
    order = np.zeros((sel_len.shape[0], room), np.int64)
    row = np.zeros(ops.shape[0], np.int64)
    used = 0
    start = block * block_size
    for t in range(start, min(start + block_size, trials)):
        i = b * block_size + t - start
        read_statistics(att[i], negative[i], sel_slots, sel_len, sel_sort, order, spare,
                        rank_from, rank_to, rank_count, ops, row)
        used += tally(row, keys, hits, b, mask)
        if 2 * used > keys.shape[1]:
            status[b] = 1
            break
