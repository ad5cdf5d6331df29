"""How much work a pool asks for, estimated from its description before any is done.

The exact engine convolves arrays of probabilities (:mod:`workbench.engine.exact`): its work
is the sum of the products of the lengths it convolves, plus a Python step per face of each
link of an explosion chain and per state of the keep-best dynamic programme. This module
follows the same steps with lengths and masses only (no arrays), so a pool whose answer
would take hours (20 dice with faces ``[0, 1000000]``, a d1000 with 999 exploding faces,
keeping 150 of 200 d1000s) is refused in microseconds, with the limit and how to raise it
(:data:`workbench.limits.EXACT_WORK`). The simulator's work is the dice it rolls, explosion
chains through ``explode_into`` included (:func:`rolled_per_check`).

Example:
    >>> from workbench.rules.pool import DieType, PoolSpec
    >>> d6 = DieType.threshold("d6", 6, 5)
    >>> exact_work(PoolSpec(((d6, 10),))).totals
    11
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from ..errors import WorkbenchError
from ..limits import EXACT_WORK, MAX_CHAIN_LINKS, MAX_TOTALS, count_text
from ..rules.pool import DieType, PoolSpec
from .forms import sum_form

PYTHON_STEP = 2000
"""Work units of one step of Python code (a face of a chain link, a state of the keep-best
programme): about a microsecond, as long as a few thousand multiply-adds in numpy."""


@dataclass(frozen=True)
class Work:
    """An estimate: ``steps`` of work (multiply-adds), the most ``totals`` one array holds,
    the longest explosion ``links`` followed, and what costs the most (for messages)."""

    steps: float
    totals: int
    links: int
    biggest: str


@dataclass(frozen=True)
class _Span:
    """A sub-distribution's shape: the range of totals it covers and its probability mass."""

    low: float
    high: float
    mass: float

    @property
    def length(self) -> float:
        return self.high - self.low + 1 if self.mass > 0 else 1


def _faces(die: DieType, exploding: bool | None) -> _Span:
    """The span of a die's faces: all, the exploding ones, or the others."""
    picked = [v for v, e in zip(die.values, die.explodes) if exploding is None or e == exploding]
    if not picked:
        return _Span(0, 0, 0.0)
    return _Span(min(picked), max(picked), len(picked) / die.sides)


@lru_cache(maxsize=4096)
def chain_shape(die: DieType, remaining: int | None, dice: int, stop: float) -> tuple[_Span, float, int]:
    """Shape of one die's explosion chain as the exact engine follows it: (span of the
    chain's sum, steps, links). Stops where the engine stops: at the cap, or once the mass
    still rolling, times the dice of the pool, is at most ``stop``."""
    # Plain floats in the loop: a chain may have tens of thousands of links to estimate.
    p_low = p_high = 0.0
    p_mass, f_low, f_high, f_mass = 1.0, math.inf, -math.inf, 0.0
    steps, links, kind = 0.0, 0, die
    threshold = stop / max(dice, 1)
    read: dict[int, tuple] = {}  # a chain asks for the same dice at every link
    while True:
        faces = read.get(id(kind))
        if faces is None:
            stopping, going, every = _faces(kind, False), _faces(kind, True), _faces(kind, None)
            faces = read[id(kind)] = (stopping.low, stopping.high, stopping.mass, stopping.length,
                                      going.low, going.high, going.mass, going.length,
                                      every.low, every.high, every.mass, every.length,
                                      kind.sides * PYTHON_STEP)
        (s_low, s_high, s_mass, s_length, g_low, g_high, g_mass, g_length,
         e_low, e_high, e_mass, e_length, python) = faces
        links += 1
        if links > MAX_CHAIN_LINKS:
            raise WorkbenchError(
                f"die {die.name!r}: its explosion chain would be followed past {MAX_CHAIN_LINKS:,} "
                "dice (it explodes on almost every face, through explode_into too); allowed: "
                "fewer exploding faces, or explode_limit on the die rolled first")
        last = remaining is not None and links - 1 == remaining
        if last:
            s_low, s_high, s_mass, s_length, g_length = e_low, e_high, e_mass, e_length, 0
        p_length = p_high - p_low + 1
        steps += python + p_length * (s_length + g_length)
        if f_mass > 0:
            steps += f_high - f_low + 1
        if s_mass > 0:
            f_low = min(f_low, p_low + s_low)
            f_high = max(f_high, p_high + s_high)
            f_mass += p_mass * s_mass
        if last:
            break
        p_low, p_high, p_mass = p_low + g_low, p_high + g_high, p_mass * g_mass
        if p_mass <= threshold:
            break
        kind = kind.next
    full = _Span(f_low, f_high, f_mass) if f_mass > 0 else _Span(0, 0, 0.0)
    return full, steps, links


def _power_steps(length: float, n: int) -> tuple[float, float]:
    """Steps of raising a distribution of ``length`` totals to the ``n``-th power by
    repeated squaring, and the result's length."""
    steps, result, base = 0.0, 1.0, length
    while n:
        if n & 1:
            steps += result * base
            result = result + base - 1
        n >>= 1
        if n:
            steps += base * base
            base = 2 * base - 1
    return steps, result


def exact_work(spec: PoolSpec, stop: float = 1e-14, skip_sd: float = 9.0) -> Work:
    """Estimated work of :func:`workbench.engine.exact.exact_raw` on ``spec``.

    ``stop`` is where an uncapped chain is cut (the engine's tolerance); ``skip_sd`` how many
    standard deviations of the number of misses the reroll weighting covers at most.
    """
    dice = spec.dice
    steps, widest, links, biggest = 0.0, 1.0, 0, "the pool"
    if spec.keep != "sum" and spec.groups:
        (die, n), = spec.groups
        values = sorted(set(die.values))
        span = max(values) - min(values) + 1
        kept = spec.kept or 1
        if 1 < kept < n:
            states = len(values) * (n + 1) * (n + 2) / 2
            steps = states * (PYTHON_STEP + kept * span)
            biggest = f"keeping {kept} of {n} dice of type {die.name!r} ({len(values)} different values)"
        else:
            steps, widest = _power_steps(span, n if kept >= n else 1)
        widest = max(widest, kept * span)
        return Work(steps, int(widest), 0, biggest)
    total = 1.0
    for die, n in spec.groups:
        chain, chain_steps, chain_links = chain_shape(die, die.limit or None, dice, stop)
        links = max(links, chain_links)
        chain_steps *= 2  # the chain of dice whose first face fails is followed too
        length = chain.length
        power_steps, power_length = _power_steps(length, n)
        part = chain_steps + 2 * power_steps + total * power_length
        if spec.rerolls and len(spec.groups) == 1:
            used = min(n, spec.rerolls)
            misses = min(n + 1, skip_sd * math.sqrt(n) + 1)
            part += misses * (power_length * (used * (length - 1) + 1) + power_length)
        elif spec.rerolls:
            states = min(spec.rerolls, dice) + 1
            part += states * (n + 1) * (2 * power_steps + total * power_length + 10 * PYTHON_STEP)
        if part > steps / 2:
            biggest = f"{n} dice of type {die.name!r}" + (
                f" with explosion chains of up to {chain_links} dice" if chain_links > 2 else "")
        steps += part
        total = total + power_length - 1
        widest = max(widest, total, length)
    return Work(steps, int(min(widest, 2**62)), links, biggest)


def check_exact(spec: PoolSpec, where: str = "an exact check",
                fewer: str = "fewer dice, fewer faces or explosions, or simulate instead "
                             "(method='simulate', --simulate)", **estimate) -> Work:
    """Refuse an exact computation past the declared limits, before any of it is done."""
    work = exact_work(spec, **estimate)
    if work.totals > MAX_TOTALS:
        raise WorkbenchError(
            f"{where}: {work.biggest} spread over up to {count_text(work.totals)} different totals, more "
            f"than the {count_text(MAX_TOTALS)} one table may hold; allowed: dice whose face values lie "
            "closer together (or fewer dice)")
    EXACT_WORK.check(work.steps, f"{where} ({work.biggest})", fewer=fewer)
    return work


def rolled_per_check(spec) -> float:
    """Dice one simulated check rolls on average: each initial die with its expected explosion
    chain (through ``explode_into``, up to its cap), each reroll once more. A roll that is not
    a :class:`PoolSpec` (statistics, scored in Python, odds given outright) is drawn from its
    exact table: one number a check, counted as one die."""
    spec = sum_form(spec)
    if spec is None:
        return 1.0
    rolled = 0.0
    for die, count in spec.groups:
        expected, alive, kind, extra = 1.0, 1.0, die, 0
        while True:
            alive *= sum(kind.explodes) / kind.sides
            extra += 1
            if alive < 1e-12 or (die.limit and extra > die.limit) or extra > MAX_CHAIN_LINKS:
                break
            expected += alive
            kind = kind.next
        if extra > MAX_CHAIN_LINKS:
            expected = math.inf
        rolled += count * expected * (2 if spec.rerolls else 1)
    return max(rolled, 1.0)


def spread_of_totals(spec: PoolSpec) -> float:
    """How many different totals a simulated check may show at most, before explosions: the
    histogram the simulator keeps is this wide."""
    width = 1.0
    for die, count in spec.groups:
        width += count * (max(die.values) - min(die.values)) * (2 if spec.rerolls else 1)
    return width


def exact_steps(spec) -> float:
    """Estimated exact work of any description: a pool's as :func:`exact_work` says; a roll
    with statistics, or scored in Python, bounds its own work while it runs (the roll
    engine's states, the scoring function's calls) and counts nothing here."""
    pool = sum_form(spec)
    return exact_work(pool).steps if pool is not None else 0.0
