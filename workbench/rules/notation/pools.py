"""A pool term ``{A, B, ...}`` with a keep (``kh``, ``kl``, ``dh``, ``dl``): the elements kept,
written as an expression over the elements' own expressions, with the range it spans.

Example:
    >>> from workbench.rules.notation.parse import Modifier
    >>> def fail(position, problem): raise ValueError(problem)
    >>> kept_elements(Modifier("keep", "kh", 0, 2), ["a", "b", "c"], [(1, 6), (1, 6), (1, 8)], fail)
    ('max(a + b, a + c, b + c)', 2, 14)
"""
from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Callable

from .parse import Knob, Modifier

MAX_POOL_SUBSETS = 50
"""Most ways to choose the kept elements of a pool ``{...}khN`` (each is written out)."""
KEEP = {"kh": ("keep", "highest"), "kl": ("keep", "lowest"), "km": ("keep", "middle"),
        "dh": ("drop", "highest"), "dl": ("drop", "lowest")}
"""Each keep modifier as a statistic's kind and order."""


def kept_elements(mod: Modifier, elements: list[str], ranges: list[tuple], fail: Callable[[int, str], None]):
    """``(text, low, high)`` of the pool keeping (or dropping) ``mod``'s number of its
    ``elements`` (each ``(low, high)`` in ``ranges``; ``None`` where unknown)."""
    k = len(elements)
    amount = 1 if mod.amount is None else mod.amount
    if isinstance(amount, Knob):
        fail(amount.position, "a pool keeps a fixed number of its elements; allowed: a number")
    kind, order = KEEP[mod.word]
    kept = amount if kind == "keep" else k - amount
    if amount == 0 or kept <= 0:
        fail(mod.position, f"{mod.word}{amount} on a pool of {k}; allowed: a number that keeps "
             f"1 to {k} of its elements")
    highest = order == "highest" if kind == "keep" else order == "lowest"
    if kept >= k:
        text = "(" + " + ".join(elements) + ")"
    elif kept == 1:
        text = ("max(" if highest else "min(") + ", ".join(elements) + ")"
    else:
        if comb(k, kept) > MAX_POOL_SUBSETS:
            fail(mod.position, f"keeping {kept} of {k} elements ({comb(k, kept)} ways); allowed: "
                 f"at most {MAX_POOL_SUBSETS} ways")
        text = ("max(" if highest else "min(") + ", ".join(
            " + ".join(chosen) for chosen in combinations(elements, kept)) + ")"
    if not all(lo is not None and hi is not None for lo, hi in ranges):
        return text, None, None
    lows = sorted(lo for lo, _ in ranges)
    highs = sorted(hi for _, hi in ranges)
    pick = (lambda xs: sum(xs[-kept:])) if highest else (lambda xs: sum(xs[:kept]))
    return text, pick(lows), pick(highs)


def summed(ranges: list[tuple]) -> tuple:
    """The range of the elements' sum (``(None, None)`` when one is unknown)."""
    if not all(lo is not None and hi is not None for lo, hi in ranges):
        return None, None
    return sum(lo for lo, _ in ranges), sum(hi for _, hi in ranges)
