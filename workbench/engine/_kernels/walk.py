"""Exact kernels for rolls with several statistics (:mod:`workbench.engine.evaluate` drives them).

A *state* is a few whole-number registers (running sums, counts, dice seen, a die's value)
plus, for the walk, how many dice of each group are still unresolved; it is one whole number
(mixed radix: register ``j`` is digit ``j``, then one digit per group). Distributions over
states are sparse: parallel arrays of codes and probabilities, and between steps a hash
table (open addressing) that adds up the probability of each code reached, so only states
that occur cost anything.

:func:`walk` goes through the outcomes in rank order (the approach of icepool, AIIDE 2022):
at each outcome it draws how many of each group's unresolved dice show it (binomial, with the
probability of that outcome given the die shows it or a later one) and updates the registers.
:func:`convolve` adds dice whose order does not matter, one die at a time: each outcome
shifts the state by a fixed number of indices.

Register kinds (``ops[j, 0]``; ``k`` dice of the register's groups show outcome ``o``):

======  ========  ===================================================================
code    name      update
======  ========  ===================================================================
0       ADD       ``+= k * attrs[o, ops[j, 1]]``
1       COUNTER   dice seen so far, capped at ``ops[j, 1]``
2       KEEP      ``+= attrs[o, a]`` for each die at walk positions ``[lo, hi)``
                  (``ops[j] = (2, counter, lo, hi, a)``)
3       PICK      the value of the die at walk position ``ops[j, 2]`` (counter ``ops[j, 1]``)
4       BEATS     pairs (first, second) the first die wins by showing more
                  (``ops[j] = (4, n_first, n_second, -, run_first, run_second)``)
5       PAIRS     sorted pairs won (``ops[j] = (5, n_first, n_second, ties_to_first,
                  run_first, run_second)``)
6       WIDTH     the most dice showing one value (``ops[j] = (6, run)``)
7       HEIGHT    the value of the widest set (``ops[j] = (7, width register, a, run)``)
8       SETS      values shown by ``ops[j, 1]`` or more dice (``ops[j] = (8, size, run)``)
9       RUN       dice shown so far at this value, 0 once the value changes
======  ========  ===================================================================

Outcomes are (value, counts) rows, so one value may span several outcomes in a row (faces
equal in value, different in counts): a RUN register (``-1``: none needed) carries the dice
already seen at the current value, so sets and comparisons go by value alone.

No input checks here beyond a guard that every register stays in its range (a register out of
range makes the kernel return an empty result, which the caller reports as a bug).
"""
from __future__ import annotations

import numpy as np

from ._jit import kernel

ADD, COUNTER, KEEP, PICK, BEATS, PAIRS, WIDTH, HEIGHT, SETS, RUN = range(10)


_EMPTY = -1
_MIX = np.uint64(0x9E3779B97F4A7C15)


@kernel
def _table(capacity):
    """An empty hash table of ``capacity`` slots (a power of two): codes and probabilities."""
    return np.full(capacity, _EMPTY, np.int64), np.zeros(capacity)


@kernel
def _add(keys, values, code, p):
    """Add ``p`` to ``code``'s probability; returns 1 when the code is new."""
    mask = keys.shape[0] - 1
    h = np.uint64(code) * _MIX
    i = np.int64((h ^ (h >> np.uint64(31))) & np.uint64(mask))
    while True:
        found = keys[i]
        if found == code:
            values[i] += p
            return 0
        if found == _EMPTY:
            keys[i] = code
            values[i] = p
            return 1
        i = (i + 1) & mask


@kernel
def _roomy(keys, values, count):
    """The table, doubled and refilled once it is half full (lookups stay short)."""
    if 2 * (count + 1) <= keys.shape[0]:
        return keys, values
    bigger_keys, bigger_values = _table(2 * keys.shape[0])
    for i in range(keys.shape[0]):
        if keys[i] != _EMPTY:
            _add(bigger_keys, bigger_values, keys[i], values[i])
    return bigger_keys, bigger_values


@kernel
def _entries(keys, values, count):
    """The table's codes and probabilities as two compact arrays."""
    codes = np.empty(count, np.int64)
    probabilities = np.empty(count)
    n = 0
    for i in range(keys.shape[0]):
        if keys[i] != _EMPTY:
            codes[n] = keys[i]
            probabilities[n] = values[i]
            n += 1
    return codes[:n], probabilities[:n]


@kernel
def _capacity(count):
    """Slots for a table expected to hold ``count`` codes (a power of two, a quarter full)."""
    capacity = 64
    while capacity < 4 * count:
        capacity *= 2
    return capacity


@kernel
def _saturated(m, regs, ops, gate, droppable):
    """Whether no register still reads group ``m`` (every counter it feeds is full)."""
    if not droppable[m]:
        return False
    for c in range(gate.shape[1]):
        if gate[m, c] and regs[c] < ops[c, 1]:
            return False
    return True


@kernel
def walk(attrs, fresh_next, q, join, pend, r_max, reg_lo, reg_size, ops, sel_a, sel_b, gate,
         droppable, descending, start_codes, start_probabilities, most_states):
    """The distribution over registers once every die is resolved: ``(codes, probabilities,
    status)``; status 1: a register left its range, 2: more than ``most_states`` states.

    ``attrs[o]``: outcome ``o``'s attributes (walk order); ``fresh_next[o]``: the next
    outcome shows another value (or there is none); ``q[m, o]``: P(a die of group ``m``
    still unresolved at ``o`` shows ``o``); ``join[m, o]``: dice of group ``m`` that become
    unresolved at ``o`` (their first possible outcome); ``pend[m, o]``: dice of ``m`` joining
    after ``o``; ``r_max[m]``: most unresolved dice of ``m``; ``start_*``: the distribution
    over registers before any die.
    """
    n_out = attrs.shape[0]
    n_groups = q.shape[0]
    n_regs = reg_lo.shape[0]
    reg_space = 1
    for j in range(n_regs):
        reg_space *= reg_size[j]
    group_stride = np.empty(n_groups, np.int64)
    size = reg_space
    for m in range(n_groups):
        group_stride[m] = size
        size *= r_max[m] + 1
    codes = start_codes.copy()
    probabilities = start_probabilities.copy()
    next_keys, next_values = _table(_capacity(codes.shape[0]))
    done_keys, done_values = _table(64)   # states whose dice are all resolved (or unread)
    n_done = 0
    most = 1
    for m in range(n_groups):
        most = max(most, r_max[m])
    log_fact = np.zeros(most + 2)
    for i in range(1, most + 2):
        log_fact[i] = log_fact[i - 1] + np.log(i)
    weights = np.zeros((n_groups, most + 1, most + 1))
    tails = np.zeros((n_groups, most + 1, most + 1))   # P(k or more), for counters that fill
    row_ready = np.zeros((n_groups, most + 1), np.bool_)
    regs = np.empty(n_regs, np.int64)
    new = np.empty(n_regs, np.int64)
    r = np.empty(n_groups, np.int64)
    k = np.empty(n_groups, np.int64)
    k_low = np.empty(n_groups, np.int64)
    k_high = np.empty(n_groups, np.int64)
    k_full = np.empty(n_groups, np.int64)
    for o in range(n_out):
        row_ready[:, :] = False
        n_next = 0
        for i in range(codes.shape[0]):
            p = probabilities[i]
            if p == 0.0:
                continue
            rest = codes[i]
            for j in range(n_regs):
                regs[j] = rest % reg_size[j] + reg_lo[j]
                rest //= reg_size[j]
            for m in range(n_groups):
                r[m] = rest % (r_max[m] + 1) + join[m, o]
                rest //= r_max[m] + 1
                if r[m] > 0 and _saturated(m, regs, ops, gate, droppable):
                    r[m] = 0
                qm = q[m, o]
                k_low[m] = r[m] if qm >= 1.0 else 0
                k_high[m] = 0 if qm <= 0.0 else r[m]
                k[m] = k_low[m]
                # Past the number of dice that fills every counter reading the group, more
                # dice change nothing: one step with the probability of that many or more.
                k_full[m] = k_high[m] + 1
                if droppable[m]:
                    need = 0
                    for c in range(n_regs):
                        if gate[m, c]:
                            need = max(need, ops[c, 1] - regs[c])
                    if max(need, k_low[m]) < k_high[m]:
                        k_full[m] = max(need, k_low[m])
                        k_high[m] = k_full[m]
                if not row_ready[m, r[m]]:
                    row_ready[m, r[m]] = True
                    n = r[m]
                    for kk in range(n + 1):
                        if qm <= 0.0:
                            weights[m, n, kk] = 1.0 if kk == 0 else 0.0
                        elif qm >= 1.0:
                            weights[m, n, kk] = 1.0 if kk == n else 0.0
                        else:
                            weights[m, n, kk] = np.exp(log_fact[n] - log_fact[kk] - log_fact[n - kk]
                                                       + kk * np.log(qm) + (n - kk) * np.log1p(-qm))
                    tail = 0.0
                    for kk in range(n, -1, -1):
                        tail += weights[m, n, kk]
                        tails[m, n, kk] = tail
            while True:
                w = p
                for m in range(n_groups):
                    if k[m] == k_full[m]:
                        w *= tails[m, r[m], k[m]]
                    else:
                        w *= weights[m, r[m], k[m]]
                if w != 0.0:
                    for j in range(n_regs):
                        kind = ops[j, 0]
                        ka = 0
                        for m in range(n_groups):
                            if sel_a[j, m]:
                                ka += k[m]
                        value = regs[j]
                        if kind == ADD:
                            value += ka * attrs[o, ops[j, 1]]
                        elif kind == COUNTER:
                            value = min(value + ka, ops[j, 1])
                        elif kind == KEEP:
                            seen = regs[ops[j, 1]]
                            top = min(seen + ka, ops[j, 3])
                            bottom = max(seen, ops[j, 2])
                            if top > bottom:
                                value += (top - bottom) * attrs[o, ops[j, 4]]
                        elif kind == PICK:
                            seen = regs[ops[j, 1]]
                            if seen <= ops[j, 2] < seen + ka:
                                value = attrs[o, ops[j, 3]]
                        elif kind == BEATS or kind == PAIRS:
                            kb = 0
                            rb = 0
                            ra = 0
                            for m in range(n_groups):
                                if sel_b[j, m]:
                                    kb += k[m]
                                    rb += r[m] + pend[m, o]
                                if sel_a[j, m]:
                                    ra += r[m] + pend[m, o]
                            run_a = regs[ops[j, 4]] if ops[j, 4] >= 0 else 0
                            run_b = regs[ops[j, 5]] if ops[j, 5] >= 0 else 0
                            above_a = ops[j, 1] - ra - run_a   # dice showing a greater value
                            above_b = ops[j, 2] - rb - run_b
                            if kind == BEATS:
                                if descending:
                                    value += kb * above_a
                                else:
                                    value += ka * above_b
                            else:
                                pairs = min(ops[j, 1], ops[j, 2])
                                won = min(above_b + run_b + kb, above_a, pairs) - (above_b + run_b)
                                if won > 0:
                                    value += won
                                if ops[j, 3] == 1:
                                    level = max(above_a, above_b)
                                    before = min(above_a + run_a, above_b + run_b, pairs) - level
                                    after = min(above_a + run_a + ka, above_b + run_b + kb, pairs) - level
                                    value += max(after, 0) - max(before, 0)
                        elif kind == RUN:
                            value = 0 if fresh_next[o] else value + ka
                        elif kind == WIDTH:
                            shown = ka + (regs[ops[j, 1]] if ops[j, 1] >= 0 else 0)
                            value = max(value, shown)
                        elif kind == HEIGHT:
                            width = regs[ops[j, 1]]
                            shown = ka + (regs[ops[j, 3]] if ops[j, 3] >= 0 else 0)
                            if shown > 0 and (shown > width or (not descending and shown == width)):
                                value = attrs[o, ops[j, 2]]
                        elif kind == SETS:
                            before = regs[ops[j, 2]] if ops[j, 2] >= 0 else 0
                            if before < ops[j, 1] <= before + ka:
                                value += 1
                        if value < reg_lo[j] or value >= reg_lo[j] + reg_size[j]:
                            return np.zeros(0, np.int64), np.zeros(0), 1
                        new[j] = value
                    target = 0  # registers are the low digits, then one digit per group
                    stride = 1
                    for j in range(n_regs):
                        target += (new[j] - reg_lo[j]) * stride
                        stride *= reg_size[j]
                    finished = True
                    for m in range(n_groups):
                        left = r[m] - k[m]
                        if (left > 0 or pend[m, o] > 0) and _saturated(m, new, ops, gate, droppable):
                            left = 0
                        elif pend[m, o] > 0:
                            finished = False
                        if left > 0:
                            finished = False
                        target += left * group_stride[m]
                    if finished:
                        done_keys, done_values = _roomy(done_keys, done_values, n_done)
                        n_done += _add(done_keys, done_values, target, w)
                    else:
                        next_keys, next_values = _roomy(next_keys, next_values, n_next)
                        n_next += _add(next_keys, next_values, target, w)
                    if n_next > most_states or n_done > most_states:
                        return np.zeros(0, np.int64), np.zeros(0), 2
                m = 0
                while m < n_groups:
                    k[m] += 1
                    if k[m] <= k_high[m]:
                        break
                    k[m] = k_low[m]
                    m += 1
                if m == n_groups:
                    break
        codes, probabilities = _entries(next_keys, next_values, n_next)
        next_keys[:] = _EMPTY
    for i in range(codes.shape[0]):   # (none: after the last outcome every die is resolved)
        done_keys, done_values = _roomy(done_keys, done_values, n_done)
        n_done += _add(done_keys, done_values, codes[i] % reg_space, probabilities[i])
    finals, chances = _entries(done_keys, done_values, n_done)
    return finals, chances, 0


@kernel
def convolve(codes, probabilities, deltas, chances, dice, most_states):
    """The distribution ``(codes, probabilities, status)`` after ``dice`` more dice, each
    outcome ``f`` moving a state by ``deltas[f]`` with probability ``chances[f]``; status 2:
    more than ``most_states`` states."""
    keys, values = _table(_capacity(codes.shape[0] * deltas.shape[0]))
    codes = codes.copy()
    probabilities = probabilities.copy()
    for _ in range(dice):
        count = 0
        for i in range(codes.shape[0]):
            p = probabilities[i]
            for f in range(deltas.shape[0]):
                keys, values = _roomy(keys, values, count)
                count += _add(keys, values, codes[i] + deltas[f], p * chances[f])
                if count > most_states:
                    return np.zeros(0, np.int64), np.zeros(0), 2
        codes, probabilities = _entries(keys, values, count)
        keys[:] = _EMPTY
    return codes, probabilities, 0


@kernel
def chain(shifts, again, chance, size, start):
    """One die's explosion chains: link ``i`` moves a chain still rolling by ``shifts[i, f]``
    with probability ``chance[i, f]`` and stops it unless ``again[i, f]``. Returns the
    distribution of the chains that stopped (those still rolling after the last link are
    the caller's lost mass)."""
    rolling = np.zeros(size)
    following = np.zeros(size)
    finished = np.zeros(size)
    rolling[start] = 1.0
    low = start
    high = start
    for i in range(shifts.shape[0]):
        new_low = size
        new_high = -1
        for c in range(low, high + 1):
            p = rolling[c]
            if p == 0.0:
                continue
            rolling[c] = 0.0
            for f in range(shifts.shape[1]):
                w = chance[i, f]
                if w == 0.0:
                    continue
                target = c + shifts[i, f]
                if again[i, f]:
                    following[target] += p * w
                    new_low = min(new_low, target)
                    new_high = max(new_high, target)
                else:
                    finished[target] += p * w
        rolling, following = following, rolling
        low = new_low
        high = new_high
    return finished
