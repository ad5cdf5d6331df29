"""Kernels of the stateful simulators: Drama Dice campaigns, burn scenes, conditions, clocks,
and opposed exchanges. Every one rolls its checks with :func:`.pool.roll_pool`.

Conventions (shared with ``workbench/stateful/_common.py``): trials are cut into blocks of
``block_trials``; block ``k`` draws from stream ``k`` of ``seed`` and writes only row ``k - first``
of each output array (int64, zeroed by the caller), so the counts are identical for any
number of threads (:func:`open_block`). Pools are padded arrays as made by
``_common.pack_pools``: index 0 of ``values``/``explodes``/``sides``/``counts`` picks the pool. The rules of each game, one check at a time, are inlined
functions shared with the table kernels (:mod:`.sampled`). No input checks here.
"""
from __future__ import annotations

import math

import numpy as np
from numba import prange

from ._jit import inline_kernel, kernel, parallel_kernel
from .pool import roll_pool
from .rng import next_u64, seed_state

_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@kernel
def _uniform(state):
    """A float in [0, 1) from the top 53 bits of one word."""
    return float(next_u64(state) >> np.uint64(11)) * _TO_UNIT


@kernel
def _events(state, mode, rate, cap):
    """Fiat/complication events after one check: mode 0 one event with probability ``rate``,
    mode 1 a Poisson(``rate``) count (inversion; stops counting at ``cap``, since more could
    not be kept)."""
    u = _uniform(state)
    if mode == 0:
        return 1 if u < rate else 0
    term = math.exp(-rate)
    cumulative = term
    k = 0
    while u >= cumulative and k < cap:
        k += 1
        term *= rate / k
        cumulative += term
    return k


@kernel
def _roll(state, pools, p, scratch):
    values, explodes, sides, counts, rerolls, modifier, floor, has_floor, keep = pools
    for g in range(counts.shape[1]):
        scratch[g] = counts[p, g]
    return roll_pool(state, values[p], explodes[p], sides[p], scratch, rerolls[p], modifier[p],
                     floor[p], has_floor[p], keep[p])


@inline_kernel
def open_block(seed, block, block_trials, trials):
    """Block ``block``'s generator (stream ``block`` of ``seed``) and its trials
    ``start .. stop - 1`` (the last block is cut at ``trials``)."""
    start = block * block_trials
    return seed_state(seed, block), start, min(start + block_trials, trials)


# -- the games' rules, one check at a time: shared with the table kernels (.sampled), which
# differ only in how a check's outcome is drawn. Inlined, so sharing costs no speed.

@inline_kernel
def drama_pull(c, level, session_start, pool_max, wanted, level_counts):
    """Drama Dice before check ``c``: a starting session adds its die, the level is counted
    in ``level_counts[c, level]`` and the policy pulls what it wants and the pool has.
    Returns ``(level after the pull, dice pulled)``."""
    level = min(level + session_start[c], pool_max)
    level_counts[c, level] += 1
    pull = min(wanted[c], level)
    return level - pull, pull


@inline_kernel
def burn_step(c, traits, trait_stack, aspects, aspect_stack, uses_trait, uses_aspect,
              extra_d6, extra_d8, rest_before, policy, threshold, p_table, stack_sums,
              burn_counts):
    """Check ``c`` of a burn scene up to its roll: the short rest before it, the stacks
    summed into ``stack_sums[c]``, the burn chosen (policy as :func:`burn_blocks`), paid
    for and counted in ``burn_counts[c]``. Returns ``(d6, d8, free)``: the dice rolled and
    1 for an Aspect's free success."""
    n_traits = traits.shape[0]
    if rest_before[c]:
        recover_one(traits, trait_stack, aspects, aspect_stack)
    for i in range(n_traits):
        stack_sums[c, i] += traits[i]
    for i in range(aspects.shape[0]):
        stack_sums[c, n_traits + i] += aspects[i]
    d6 = extra_d6[c]
    d8 = extra_d8[c]
    for i in range(n_traits):
        if uses_trait[c, i]:
            d6 += traits[i]
    for i in range(aspects.shape[0]):
        if uses_aspect[c, i]:
            d8 += aspects[i]
    choice, index = 0, -1
    if policy == 1 or (policy == 2 and p_table[c, d6, d8, 0] < threshold):
        best = -1.0
        for i in range(n_traits):
            s = traits[i]
            if uses_trait[c, i] and s > 0 and p_table[c, d6 - s, d8 + s, 0] > best:
                best = p_table[c, d6 - s, d8 + s, 0]
                choice, index = 1, i
        for i in range(aspects.shape[0]):
            if uses_aspect[c, i] and aspects[i] > 0 and p_table[c, d6, d8, 1] > best:
                best = p_table[c, d6, d8, 1]
                choice, index = 2, i
    free = 0
    if choice == 1:
        d6 -= traits[index]
        d8 += traits[index]
        traits[index] -= 1
    elif choice == 2:
        free = 1
        aspects[index] -= 1
    burn_counts[c, choice] += 1
    return d6, d8, free


@inline_kernel
def recover_one(traits, trait_stack, aspects, aspect_stack):
    """A short rest: one point back to the characteristic furthest below its stack (Traits
    first on ties)."""
    worst, kind, index = 0, 0, -1
    for i in range(traits.shape[0]):
        if trait_stack[i] - traits[i] > worst:
            worst, kind, index = trait_stack[i] - traits[i], 1, i
    for i in range(aspects.shape[0]):
        if aspect_stack[i] - aspects[i] > worst:
            worst, kind, index = aspect_stack[i] - aspects[i], 2, i
    if kind == 1:
        traits[index] += 1
    elif kind == 2:
        aspects[index] += 1


@inline_kernel
def place(slots, tier):
    """Put a condition of ``tier`` (1 Mild .. 3 Severe) into ``slots`` (bit 0 Mild, 1
    Moderate, 2 Severe), moving up past filled slots; -1 means Taken Out."""
    t = tier
    while t <= 3 and (slots >> (t - 1)) & 1:
        t += 1
    if t > 3:
        return -1
    return slots | (1 << (t - 1))


@inline_kernel
def filled_slots(slots):
    """How many of the three condition slots are filled."""
    return (slots & 1) + ((slots >> 1) & 1) + ((slots >> 2) & 1)


@parallel_kernel
def drama_blocks(seed, first, blocks, block_trials, trials, pools, drama_group, target, wanted,
                 session_start, pool_max, pool_start, refill_mode, refill_rate, low,
                 levels, passes, spent, outcomes):
    """Campaigns of checks sharing one Drama Dice pool.

    ``session_start[c]``: sessions that begin just before check ``c`` (each adds one die).
    Per check ``c``: ``levels[k, c, level]`` counts the pool before the check, ``passes[k, c]``
    the passes, ``spent[k, c, n]`` checks that pulled ``n`` dice, ``outcomes[k, c, disaster,
    total - low]`` the result (totals clipped into the histogram's width).
    """
    width = outcomes.shape[3]
    checks = target.shape[0]
    for b in prange(blocks):
        state, start, stop = open_block(seed, first + b, block_trials, trials)
        scratch = np.zeros(pools[3].shape[1], np.int64)
        for _ in range(start, stop):
            level = pool_start
            for c in range(checks):
                level, pull = drama_pull(c, level, session_start, pool_max, wanted, levels[b])
                spent[b, c, pull] += 1
                for g in range(scratch.shape[0]):
                    scratch[g] = pools[3][c, g]
                scratch[drama_group[c]] += pull
                total, disaster = roll_pool(state, pools[0][c], pools[1][c], pools[2][c],
                                            scratch, pools[4][c], pools[5][c], pools[6][c],
                                            pools[7][c], pools[8][c])
                if not disaster and total >= target[c]:
                    passes[b, c] += 1
                index = min(max(total - low, 0), width - 1)
                outcomes[b, c, 1 if disaster else 0, index] += 1
                if refill_rate > 0.0 and level < pool_max:
                    added = _events(state, refill_mode, refill_rate, pool_max - level)
                    level = min(level + added, pool_max)


@parallel_kernel
def burn_blocks(seed, first, blocks, block_trials, trials, pools, d6_group, d8_group,
                uses_trait, uses_aspect, extra_d6, extra_d8, target, rest_before,
                trait_stack, aspect_stack, policy, threshold, p_table, passes, burns, stacks):
    """Scenes of checks where a character may burn one Trait or Aspect per check.

    ``pools`` holds one pool per check with the die tables of d6 (``d6_group``) and d8
    (``d8_group``) and the check's modifier; counts are set here from the current stacks.
    ``policy``: 0 never, 1 always, 2 when ``p_table[c, d6, d8, 0] < threshold``. A burn
    takes the option with the highest ``p_table`` (index 3: 1 for an Aspect's free
    success), Traits before Aspects on ties. A short rest before check ``c`` restores one
    point to the characteristic furthest below its stack (Traits first on ties).
    Outputs per check: ``passes[k, c]``, ``burns[k, c, 0 none / 1 trait / 2 aspect]``,
    ``stacks[k, c, i]`` sum of stack ``i`` (Traits, then Aspects) before the check.
    """
    checks = target.shape[0]
    for b in prange(blocks):
        state, start, stop = open_block(seed, first + b, block_trials, trials)
        scratch = np.zeros(pools[3].shape[1], np.int64)
        traits = np.zeros(trait_stack.shape[0], np.int64)
        aspects = np.zeros(aspect_stack.shape[0], np.int64)
        stack_sums, burn_counts = stacks[b], burns[b]
        for _ in range(start, stop):
            traits[:] = trait_stack
            aspects[:] = aspect_stack
            for c in range(checks):
                d6, d8, free = burn_step(c, traits, trait_stack, aspects, aspect_stack,
                                         uses_trait, uses_aspect, extra_d6, extra_d8,
                                         rest_before, policy, threshold, p_table,
                                         stack_sums, burn_counts)
                for g in range(scratch.shape[0]):
                    scratch[g] = 0
                scratch[d6_group] = d6
                scratch[d8_group] = d8
                total, disaster = roll_pool(state, pools[0][c], pools[1][c], pools[2][c],
                                            scratch, pools[4][c], pools[5][c] + free,
                                            pools[6][c], pools[7][c], pools[8][c])
                if not disaster and total >= target[c]:
                    passes[b, c] += 1


@parallel_kernel
def conditions_blocks(seed, first, blocks, block_trials, trials, pools, attacker_pool,
                      defender_pool, mode, apply_tier, resist_tier, start_slots, out_when_full,
                      max_steps, hist):
    """Exchanges until Taken Out. ``attacker_pool[f]``/``defender_pool[f]``: the pool rolled
    when ``f`` slots are filled. ``mode``: 0 the attacker's roll picks the condition (applying
    table), 1 the defender's roll does (resisting table), 2 the lesser of the two.
    ``out_when_full``: 1 takes the victim out as soon as all three slots are filled.
    ``hist[k, n]``: trials Taken Out at exchange ``n``; ``hist[k, 0]``: still standing after
    ``max_steps`` exchanges."""
    for b in prange(blocks):
        state, start, stop = open_block(seed, first + b, block_trials, trials)
        scratch = np.zeros(pools[3].shape[1], np.int64)
        for _ in range(start, stop):
            slots = start_slots
            ended = 0
            for step in range(1, max_steps + 1):
                filled = filled_slots(slots)
                tier = 3
                if mode != 1:
                    outcome, _ = _roll(state, pools, attacker_pool[filled], scratch)
                    tier = apply_tier[outcome]
                if mode != 0 and tier > 0:
                    outcome, _ = _roll(state, pools, defender_pool[filled], scratch)
                    tier = min(tier, resist_tier[outcome])
                if tier > 0:
                    slots = place(slots, tier)
                    if slots < 0 or (out_when_full == 1 and slots == 7):
                        ended = step
                        break
            hist[b, ended] += 1


@parallel_kernel
def clock_blocks(seed, first, blocks, block_trials, trials, pools, marks, segments, max_steps,
                 hist):
    """Rolls of pool 0 until ``segments`` are marked (``marks[outcome]`` per roll);
    ``hist[k, n]`` trials filled at roll ``n``, ``hist[k, 0]`` unfilled after ``max_steps``."""
    for b in prange(blocks):
        state, start, stop = open_block(seed, first + b, block_trials, trials)
        scratch = np.zeros(pools[3].shape[1], np.int64)
        for _ in range(start, stop):
            marked = 0
            ended = 0
            for step in range(1, max_steps + 1):
                outcome, _ = _roll(state, pools, 0, scratch)
                marked += marks[outcome]
                if marked >= segments:
                    ended = step
                    break
            hist[b, ended] += 1


@parallel_kernel
def exchange_blocks(seed, first, blocks, block_trials, trials, pools, need, hits, max_steps,
                    hist):
    """Rounds of attacker (pool 0) against defender (pool 1) until ``hits`` rounds where
    ``attacker - defender >= need``; ``hist[k, n]`` trials done at round ``n``, ``hist[k, 0]``
    not done after ``max_steps`` rounds."""
    for b in prange(blocks):
        state, start, stop = open_block(seed, first + b, block_trials, trials)
        scratch = np.zeros(pools[3].shape[1], np.int64)
        for _ in range(start, stop):
            landed = 0
            ended = 0
            for step in range(1, max_steps + 1):
                attack, _ = _roll(state, pools, 0, scratch)
                defence, _ = _roll(state, pools, 1, scratch)
                if attack - defence >= need:
                    landed += 1
                    if landed >= hits:
                        ended = step
                        break
            hist[b, ended] += 1
