"""Exact distributions of a :class:`~workbench.rules.pool.PoolSpec` (numpy, no Monte Carlo).

Dice are combined by convolution. An exploding die is the fixed point ``D = A + B * D``
(``A``: faces that stop, ``B``: faces that roll again), followed until the probability still
in flight is far below :data:`TOLERANCE`; the mass cut off is reported, never hidden.
Rerolls are exact: for ``m`` dice that missed (their chain added up to 0), ``min(m, rerolls)`` of them are rolled
again, weighted by the binomial probability of ``m``.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ..errors import WorkbenchError
from ..rules.pool import DieType, PoolSpec
from .raw import RawDistribution
from .work import check_exact

TOLERANCE = 1e-12
"""Largest probability mass an exact result may lose to truncated explosion chains."""

SKIP_WEIGHT = 1e-17
"""Reroll weighting skips numbers of misses less likely than this (at most 1001 of them)."""

MAX_KEEP_DICE = 200
"""Most dice an exact "keep k of n" (k > 1) works on."""

TAIL = 1e-15
"""Outcomes beyond a tail holding less than this are dropped (and counted as lost)."""


class _Sub:
    """A sub-probability distribution over integers: ``probs[i]`` is P(offset + i)."""

    __slots__ = ("offset", "probs")

    def __init__(self, offset: int, probs: np.ndarray):
        self.offset, self.probs = offset, probs

    @classmethod
    def point(cls, value: int = 0) -> "_Sub":
        return cls(value, np.ones(1))

    @classmethod
    def zero(cls) -> "_Sub":
        return cls(0, np.zeros(1))

    @classmethod
    def from_faces(cls, values, weights) -> "_Sub":
        if not values:
            return cls.zero()
        lo = min(values)
        probs = np.zeros(max(values) - lo + 1)
        np.add.at(probs, np.asarray(values) - lo, weights)
        return cls(lo, probs)

    def conv(self, other: "_Sub") -> "_Sub":
        return _Sub(self.offset + other.offset, np.convolve(self.probs, other.probs))

    def add(self, other: "_Sub") -> "_Sub":
        lo = min(self.offset, other.offset)
        hi = max(self.offset + len(self.probs), other.offset + len(other.probs))
        out = np.zeros(hi - lo)
        out[self.offset - lo:self.offset - lo + len(self.probs)] += self.probs
        out[other.offset - lo:other.offset - lo + len(other.probs)] += other.probs
        return _Sub(lo, out)

    def power(self, n: int) -> "_Sub":
        result, base = _Sub.point(), self
        while n:
            if n & 1:
                result = result.conv(base)
            n >>= 1
            if n:
                base = base.conv(base)
        return result

    def mass(self) -> float:
        return float(self.probs.sum())


def _split_faces(die: DieType, keep):
    """Face values and weights of one die, restricted to faces for which ``keep`` holds."""
    p = 1.0 / die.sides
    picked = [i for i in range(die.sides) if keep(i)]
    return _Sub.from_faces([die.values[i] for i in picked], [p] * len(picked))


@lru_cache(maxsize=4096)
def _chain(kind: DieType, remaining: int | None, dice_in_pool: int) -> tuple[_Sub, float]:
    """A die of type ``kind`` with the explosions that follow it: each exploding face rolls
    one more die (``kind.next``), at most ``remaining`` more (``None``: no cap).

    Returns (distribution of the chain's sum, probability cut off the uncapped chain).
    """
    prefix, full, extra, cut = _Sub.point(), _Sub.zero(), 0, 0.0
    while True:
        if remaining is not None and extra == remaining:
            return full.add(prefix.conv(_split_faces(kind, lambda i: True))), 0.0
        full = full.add(prefix.conv(_split_faces(kind, lambda i: not kind.explodes[i])))
        prefix = prefix.conv(_split_faces(kind, lambda i: kind.explodes[i]))
        in_flight = prefix.mass()
        # Each link keeps the mass still rolling; stop once the whole pool's remainder is
        # two orders below the tolerance.
        if in_flight * max(dice_in_pool, 1) <= TOLERANCE * 1e-2:
            return full, in_flight
        kind, extra = kind.next, extra + 1


@lru_cache(maxsize=4096)
def _die_chain(die: DieType, dice_in_pool: int) -> tuple[_Sub, _Sub, float]:
    """One die with its explosion chain (capped at ``die.limit`` extra dice, if set).

    Returns (all outcomes, outcomes whose first face fails, probability cut off the chain).
    """
    remaining = die.limit or None
    full, cut = _chain(die, remaining, dice_in_pool)
    fail_stop = _split_faces(die, lambda i: die.fails[i] and not die.explodes[i])
    fail_again = _split_faces(die, lambda i: die.fails[i] and die.explodes[i])
    if fail_again.mass():
        rest, _ = _chain(die.next, None if remaining is None else remaining - 1, dice_in_pool)
        first_fails = fail_stop.add(fail_again.conv(rest))
    else:
        first_fails = fail_stop
    return full, first_fails, cut


def _log_binomial(n: int, m: int, q: float) -> float:
    if q <= 0.0:
        return 0.0 if m == 0 else -math.inf
    if q >= 1.0:
        return 0.0 if m == n else -math.inf
    return (math.lgamma(n + 1) - math.lgamma(m + 1) - math.lgamma(n - m + 1)
            + m * math.log(q) + (n - m) * math.log1p(-q))


def _with_rerolls(full: _Sub, n: int, rerolls: int) -> tuple[_Sub, float]:
    """``n`` dice, then up to ``rerolls`` of those that scored nothing rolled once more.

    Returns the distribution and the probability left out: numbers of misses whose binomial
    weight is below :data:`SKIP_WEIGHT` are not convolved (large pools spend nearly all
    their time there otherwise); their weight is reported as lost.
    """
    zero_at = -full.offset
    q = float(full.probs[zero_at]) if 0 <= zero_at < len(full.probs) else 0.0
    if q >= 1.0 or q <= 0.0:
        return (full.power(n) if q <= 0.0 else full.power(min(n, rerolls))), 0.0
    hits = _Sub(full.offset, full.probs.copy())
    hits.probs[zero_at] = 0.0
    hits = _Sub(hits.offset, hits.probs / (1.0 - q))  # one die, given it scored
    weights = np.exp([_log_binomial(n, m, q) for m in range(n + 1)])
    wanted = np.nonzero(weights >= SKIP_WEIGHT)[0]
    m_lo, m_hi = int(wanted[0]), int(wanted[-1])
    skipped = float(weights.sum() - weights[m_lo:m_hi + 1].sum())
    # hit_powers[j] = hits^(n - m_hi + j); reroll_powers[k] = full^(min(m_lo, rerolls) + k)
    hit_powers = [hits.power(n - m_hi)]
    for _ in range(m_hi - m_lo):
        hit_powers.append(hit_powers[-1].conv(hits))
    first_reroll = min(m_lo, rerolls)
    reroll_powers = [full.power(first_reroll)]
    for _ in range(min(m_hi, rerolls) - first_reroll):
        reroll_powers.append(reroll_powers[-1].conv(full))
    parts = []
    for m in range(m_lo, m_hi + 1):
        part = hit_powers[m_hi - m].conv(reroll_powers[min(m, rerolls) - first_reroll])
        parts.append(_Sub(part.offset, part.probs * weights[m]))
    lo = min(part.offset for part in parts)
    total = np.zeros(max(part.offset + len(part.probs) for part in parts) - lo)
    for part in parts:
        total[part.offset - lo:part.offset - lo + len(part.probs)] += part.probs
    return _Sub(lo, total), skipped


def _rerolls_across(groups, rerolls: int, dice: int) -> _Sub:
    """Several die types sharing ``rerolls``: they go to the first misses, group by group.

    A dynamic programme over the rerolls still unused after each group: for ``m`` misses
    among a group's ``n`` dice (binomial weight), ``min(m, left)`` of them roll a new chain.
    """
    states = {rerolls: _Sub.point()}
    for die, n in groups:
        chain = _die_chain(die, dice)[0]
        zero_at = -chain.offset
        q = float(chain.probs[zero_at]) if 0 <= zero_at < len(chain.probs) else 0.0
        hits = _Sub(chain.offset, chain.probs.copy())
        if 0 <= zero_at < len(hits.probs):
            hits.probs[zero_at] = 0.0
        hits = _Sub(hits.offset, hits.probs / (1.0 - q)) if q < 1.0 else _Sub.zero()
        new: dict[int, _Sub] = {}
        for left, before in states.items():
            for m in range(n + 1):
                weight = math.exp(_log_binomial(n, m, q))
                if weight == 0.0:
                    continue
                used = min(m, left)
                part = before.conv(hits.power(n - m)).conv(chain.power(used))
                part = _Sub(part.offset, part.probs * weight)
                new[left - used] = part if left - used not in new else new[left - used].add(part)
        states = new
    total = None
    for part in states.values():
        total = part if total is None else total.add(part)
    return total


def _kept(die: DieType, n: int, highest: bool, kept: int = 1) -> _Sub:
    """Sum of the ``kept`` highest (or lowest) values of ``n`` dice."""
    one = _split_faces(die, lambda i: True)
    if kept == 1:
        cdf = np.cumsum(one.probs)
        if highest:
            at_most = np.clip(cdf, 0.0, 1.0) ** n
        else:
            at_most = 1.0 - np.clip(1.0 - cdf, 0.0, 1.0) ** n
        return _Sub(one.offset, np.diff(np.concatenate(([0.0], at_most))))
    if kept >= n:
        return one.power(n)
    if kept <= 0:
        return _Sub.point()
    if n > MAX_KEEP_DICE:  # also refused by the work estimate, unless its limit was raised
        raise WorkbenchError(f"keeping {kept} of {n} dice: at most {MAX_KEEP_DICE} dice can be "
                             "computed exactly when more than one die is kept (use simulate)")
    # Values best first; assigned[j] = distribution of the kept sum once j dice have values,
    # weights multinomial: C(n - j, c) p^c for c more dice showing this value.
    order = sorted(((one.offset + i, float(p)) for i, p in enumerate(one.probs) if p > 0),
                   reverse=highest)
    assigned = [_Sub.point()] + [None] * n
    for value, p in order:
        new = [None] * (n + 1)
        for j, sub in enumerate(assigned):
            if sub is None:
                continue
            for c in range(n - j + 1):
                weight = math.exp(math.lgamma(n - j + 1) - math.lgamma(c + 1) - math.lgamma(n - j - c + 1)
                                  + c * math.log(p))
                taken = max(0, min(c, kept - j))
                part = _Sub(sub.offset + taken * value, sub.probs * weight)
                new[j + c] = part if new[j + c] is None else new[j + c].add(part)
        assigned = new
    return assigned[n]


def _floor(sub: _Sub, floor: int | None) -> _Sub:
    if floor is None or sub.offset >= floor:
        return sub
    cut = min(floor - sub.offset, len(sub.probs))
    below = sub.probs[:cut].sum()
    rest = sub.probs[cut:]
    start = sub.offset + cut
    out = _Sub(floor, np.zeros(1)).add(_Sub(start, rest)) if len(rest) else _Sub(floor, np.zeros(1))
    out.probs[floor - out.offset] += below
    return out


@lru_cache(maxsize=4096)
def exact_raw(spec: PoolSpec) -> RawDistribution:
    """The exact :class:`RawDistribution` of a pool.

    Example:
        >>> from workbench.rules.pool import DieType, PoolSpec
        >>> raw = exact_raw(PoolSpec(((DieType.threshold("d6", 6, 5), 2),)))
        >>> [round(float(p) * 9, 6) for p in raw.pmf]
        [4.0, 4.0, 1.0]
    """
    check_exact(spec, stop=TOLERANCE * 1e-2)  # refuse what would not end in time, up front
    dice = spec.dice
    if spec.keep != "sum" and spec.groups:
        (die, n), = spec.groups
        full, all_fail = _kept(die, n, spec.keep == "highest", spec.kept), _Sub.zero()
        lost = 0.0
    else:
        lost = 0.0
        full, all_fail = _Sub.point(), _Sub.point()
        for die, n in spec.groups:
            chain, first_fails, cut = _die_chain(die, dice)
            lost += (n + min(n, spec.rerolls)) * cut
            if spec.rerolls and len(spec.groups) > 1:
                pass  # shared between the groups: below
            elif spec.rerolls:
                part, skipped = _with_rerolls(chain, n, spec.rerolls)
                lost += skipped
                full = full.conv(part)
            else:
                full = full.conv(chain.power(n))
            all_fail = all_fail.conv(first_fails.power(n))
        if spec.rerolls and len(spec.groups) > 1:
            full = _rerolls_across(spec.groups, spec.rerolls, dice)
        if dice == 0:
            all_fail = _Sub.zero()
    some = full.add(_Sub(all_fail.offset, -all_fail.probs))
    some.probs = np.clip(some.probs, 0.0, None)
    rows = [_floor(_Sub(s.offset + spec.modifier, s.probs), spec.floor) for s in (some, all_fail)]
    lo = min(r.offset for r in rows)
    hi = max(r.offset + len(r.probs) for r in rows)
    table = np.zeros((2, hi - lo))
    for k, r in enumerate(rows):
        table[k, r.offset - lo:r.offset - lo + len(r.probs)] = r.probs
    # Trim tails too unlikely to matter (added to the reported lost mass), so tables and
    # exports stay short; impossible outcomes at either end go too.
    pmf = table.sum(axis=0)
    from_top = np.cumsum(pmf[::-1])[::-1]
    from_bottom = np.cumsum(pmf)
    keep = np.nonzero((from_top > TAIL) & (from_bottom > TAIL))[0]
    if len(keep):
        first, last = int(keep[0]), int(keep[-1])
        lost += float(pmf[:first].sum() + pmf[last + 1:].sum())
        table = table[:, first:last + 1].copy()
        lo += first
    table.setflags(write=False)
    return RawDistribution(lo, table, lost)
