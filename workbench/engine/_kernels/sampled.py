"""Stateful kernels that draw each check from an exact outcome table (one number a check).

Same games, same block/stream conventions and same outputs as :mod:`.stateful` (see its
docstring), but a check's dice are not rolled: its outcome is drawn from an exact
inverse-CDF table built by ``workbench/stateful/_sampling.py`` from the exact distribution
(``cdf`` and ``guide``, see ``OutcomeTables`` there; payload columns such as ``bins``),
indexed by the table number first. No input checks here.
"""
from __future__ import annotations

import numpy as np
from numba import prange

from ._jit import inline_kernel, parallel_kernel
from .rng import next_u64, xoshiro_step
from .stateful import burn_step, drama_pull, filled_slots, open_block, place

_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53
_GUIDE_SHIFT = np.uint64(64 - 10)
"""Top bits of a word that pick its guide cell (``workbench.engine.sampling.GUIDE_BITS``)."""


@inline_kernel
def _uniform(state):
    return float(next_u64(state) >> np.uint64(11)) * _TO_UNIT


@inline_kernel
def draw(word, cdf, guide, t):
    """The outcome of table ``t`` for one 64-bit ``word``: exact inversion of ``cdf[t]``
    at the uniform of the word's top 53 bits, answered by ``guide[t]`` when it can be."""
    k = np.int64(guide[t, word >> _GUIDE_SHIFT])
    if k >= 0:
        return k
    return _search(word, cdf, t, -k - 1)


@inline_kernel
def _search(word, cdf, t, k):
    """Exact inversion of ``cdf[t]`` at the word's uniform, from outcome ``k`` on."""
    u = float(np.int64(word >> np.uint64(11))) * _TO_UNIT
    while u >= cdf[t, k]:
        k += 1
    return k


@inline_kernel
def _guide_to(guide, payload):
    """``guide`` answering with ``payload[t, outcome]`` itself wherever it names an outcome
    (its other cells, negative, unchanged): one read a draw instead of two. int16, half the
    cache of the guide; payloads here are histogram bins, far below 2**15."""
    resolved = np.empty(guide.shape, np.int16)
    for t in range(guide.shape[0]):
        for j in range(guide.shape[1]):
            k = guide[t, j]
            resolved[t, j] = payload[t, k] if k >= 0 else k
    return resolved


@parallel_kernel
def drama_blocks(seed, first, blocks, block_trials, trials, cdf, guide, bins, wanted,
                 session_start, pool_max, pool_start, events_cdf, events_guide, events_last,
                 levels, outcomes):
    """Drama Dice campaigns: ``levels[k, c, level]`` as :func:`.stateful.drama_blocks`;
    ``outcomes[k, c, bin]`` counts the outcome bins of check ``c``.

    Table ``3 * c + pull`` holds check ``c`` with ``pull`` Drama Dice; ``bins[t, outcome]``
    is the outcome's bin (the caller folds bins into passes and totals). Dice pulled need
    no count of their own: they follow from the level before the check.

    Refill events: table 0 of ``events_*`` draws the number of checks without events before
    the next check with some (outcome ``events_last`` means "that many without, then draw
    again": gaps are memoryless); table 1 the dice added by a check with events. No events
    at all when ``events_last`` is 0. One number per event instead of one per check.
    """
    checks = wanted.shape[0]
    bin_guide = _guide_to(guide, bins)
    for b in prange(blocks):
        state, start, stop = open_block(seed, first + b, block_trials, trials)
        # The generator lives in locals for the whole block (registers, not memory).
        s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
        level_counts = levels[b]
        bin_counts = outcomes[b]
        quiet, fires = 0, False   # checks left without events; whether the next one has some
        for _ in range(start, stop):
            level = pool_start
            for c in range(checks):
                level, pull = drama_pull(c, level, session_start, pool_max, wanted,
                                         level_counts)
                t = 3 * c + pull
                word, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
                k = np.int64(bin_guide[t, word >> _GUIDE_SHIFT])
                if k < 0:
                    k = bins[t, _search(word, cdf, t, -k - 1)]
                bin_counts[c, k] += 1
                if events_last == 0:
                    continue
                while quiet == 0 and not fires:
                    word, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
                    quiet = draw(word, events_cdf, events_guide, 0)
                    fires = quiet < events_last
                if quiet > 0:
                    quiet -= 1
                else:
                    fires = False
                    word, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
                    level = min(level + draw(word, events_cdf, events_guide, 1), pool_max)


@parallel_kernel
def burn_blocks(seed, first, blocks, block_trials, trials, d6_low, d8_low, uses_trait,
                uses_aspect, extra_d6, extra_d8, rest_before, trait_stack, aspect_stack, policy,
                threshold, p_table, p_sample, passes, burns, stacks):
    """Scenes with burning (outputs and policy as :func:`.stateful.burn_blocks`); a check
    passes when a uniform falls below ``p_sample[c, d6 - d6_low[c], d8 - d8_low[c], free]``,
    its exact P(pass) with those dice."""
    checks = extra_d6.shape[0]
    for b in prange(blocks):
        state, start, stop = open_block(seed, first + b, block_trials, trials)
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
                if _uniform(state) < p_sample[c, d6 - d6_low[c], d8 - d8_low[c], free]:
                    passes[b, c] += 1


@parallel_kernel
def conditions_blocks(seed, first, blocks, block_trials, trials, cdf, guide, tiers,
                      start_slots, out_when_full, max_steps, hist):
    """Exchanges until Taken Out (output as :func:`.stateful.conditions_blocks`); table ``f``
    gives the condition tier of an exchange with ``f`` slots filled (payload ``tiers``).
    ``out_when_full``: 1 takes the victim out as soon as all three slots are filled."""
    for b in prange(blocks):
        state, start, stop = open_block(seed, first + b, block_trials, trials)
        for _ in range(start, stop):
            slots = start_slots
            ended = 0
            for step in range(1, max_steps + 1):
                filled = filled_slots(slots)
                tier = tiers[filled, draw(next_u64(state), cdf, guide, filled)]
                if tier > 0:
                    slots = place(slots, tier)
                    if slots < 0 or (out_when_full == 1 and slots == 7):
                        ended = step
                        break
            hist[b, ended] += 1


@parallel_kernel
def clock_blocks(seed, first, blocks, block_trials, trials, cdf, guide, marks, segments,
                 max_steps, hist):
    """Rolls until ``segments`` are marked (output as :func:`.stateful.clock_blocks`); table
    0 gives one roll's marks (payload ``marks``)."""
    for b in prange(blocks):
        state, start, stop = open_block(seed, first + b, block_trials, trials)
        for _ in range(start, stop):
            marked = 0
            ended = 0
            for step in range(1, max_steps + 1):
                marked += marks[0, draw(next_u64(state), cdf, guide, 0)]
                if marked >= segments:
                    ended = step
                    break
            hist[b, ended] += 1


@parallel_kernel
def exchange_blocks(seed, first, blocks, block_trials, trials, p_hit, hits, max_steps, hist):
    """Rounds until ``hits`` hits (output as :func:`.stateful.exchange_blocks`); a round hits
    when a uniform falls below ``p_hit``, its exact probability."""
    for b in prange(blocks):
        state, start, stop = open_block(seed, first + b, block_trials, trials)
        for _ in range(start, stop):
            landed = 0
            ended = 0
            for step in range(1, max_steps + 1):
                if _uniform(state) < p_hit:
                    landed += 1
                    if landed >= hits:
                        ended = step
                        break
            hist[b, ended] += 1


@parallel_kernel
def table_blocks(seed, first, blocks, block_trials, trials, cdf, guide, counts):
    """One check per trial drawn from table 0 (a roll's exact joint distribution):
    ``counts[b, outcome]`` counts block ``first + b``'s draws of each outcome. Block ``k``
    draws from stream ``k`` of the seed, so counts do not depend on the number of threads."""
    for b in prange(blocks):
        state, start, stop = open_block(seed, first + b, block_trials, trials)
        s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
        seen = counts[b]
        for _ in range(start, stop):
            word, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
            seen[draw(word, cdf, guide, 0)] += 1
