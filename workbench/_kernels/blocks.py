"""Blocks handed to threads one at a time, so a thread the machine holds up holds up one block.

``prange`` splits its range into one fixed share per thread before any work starts, so a
parallel call lasts as long as its slowest share; on a busy machine (other processes on the
other core) one stalled thread made two threads slower than one. Here every thread takes the
next block number from a shared counter (an atomic fetch-and-add) until none are left::

    next_block = np.zeros(1, np.int64)
    for _slot in prange(WORKER_SLOTS):
        b = claim(next_block)
        while b < blocks:
            state, start, stop = open_block(seed, first + b, block_trials, trials)
            ...            # trials start .. stop - 1, counted in output row b only
            b = claim(next_block)

The first slot each thread runs takes blocks until the counter passes ``blocks``; the other
slots find it so and end at once. Which thread runs a block never changes its stream or its
output row, so counts stay the same for any number of threads. With ``NUMBA_DISABLE_JIT=1``
:func:`claim` is a plain Python increment (one thread).
"""
from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from ._jit import inline_kernel
from .rng import seed_state

WORKER_SLOTS = 256
"""``prange`` width of a kernel's outer loop: at least the number of threads ever used."""


def claim(counter):
    """The next block number from ``counter[0]`` (int64 array), which goes up by one."""
    taken = counter[0]
    counter[0] += 1
    return taken


@intrinsic
def _fetch_and_add_one(typingctx, counter):
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        first = cgutils.get_item_pointer(context, builder, array_type, array,
                                         [context.get_constant(types.intp, 0)])
        return builder.atomic_rmw("add", first, context.get_constant(types.int64, 1),
                                  ordering="monotonic")
    return types.int64(counter), codegen


@overload(claim, inline="always")
def _claim_compiled(counter):
    return lambda counter: _fetch_and_add_one(counter)


@inline_kernel
def open_block(seed, block, block_trials, trials):
    """Block ``block``'s generator (stream ``block`` of ``seed``) and its trials
    ``start .. stop - 1`` (the last block is cut at ``trials``)."""
    start = block * block_trials
    return seed_state(seed, block), start, min(start + block_trials, trials)
