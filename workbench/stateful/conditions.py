"""Conditions and Taken Out (Erzählspiel, RULES.md §5): exchanges until a character drops.

The model, one exchange at a time:

* The victim has three slots, Mild, Moderate and Severe (``start`` may fill some).
* Each exchange gives a condition tier (none, Mild, Moderate, Severe), by ``mode``:

  - ``"apply"``: the attacker rolls; the *Applying Conditions* table picks the tier
    (YES! AND... Severe, YES! Moderate, YES! BUT... Mild, any NO none).
  - ``"resist"``: the defender rolls their resisting die; the *Resisting Conditions* table
    picks it (any YES none, NO! BUT... Mild, NO! Moderate, NO! AND... Severe).
  - ``"contest"``: both roll; the victim receives the lesser of the two tiers (the attack
    must land and the defence must fail; resisting can only soften a blow).

* A new condition goes to its tier's slot; if that is filled it moves up a tier; past a
  filled Severe the victim is **Taken Out** (the chain's absorbing state).
* Rule option ``death_spiral=True``: each filled slot shifts the victim's die one step down
  (clamped at the worst colour). In ``"apply"`` mode the victim does not roll, so the same
  disadvantage is read as the attacker's die one step *up* per filled slot.

The state is the set of filled slots (8 states) plus Taken Out, so the exact answer is an
absorbing Markov chain (:mod:`._markov`); the simulator rolls the same dice in numba.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..errors import ParameterError
from ..rules.system import System
from ._common import (need_choice, need_int, need_method, need_trials, pack_pools, resolve_seed,
                      run_kernel, simulated_steps, exact_steps, StepsResult)
from ._markov import absorption_steps
from ._sampling import OutcomeTables, use_tables
from ._narrative import APPLYING, RESISTING, NarrativeDice, narrative_dice

MODES = ("apply", "resist", "contest")
WHERE = "taken_out"


def _slots_after(slots: int, tier: int) -> int:
    """Slots (bit 0 Mild, 1 Moderate, 2 Severe) after a condition of ``tier``; -1: Taken Out."""
    t = tier
    while t <= 3 and (slots >> (t - 1)) & 1:
        t += 1
    return -1 if t > 3 else slots | (1 << (t - 1))


def _filled(slots: int) -> int:
    return bin(slots).count("1")


class _Setup:
    """Checked inputs: which die each side rolls with ``f`` slots filled, and the tables."""

    def __init__(self, attacker, defender, mode, death_spiral, start, system):
        self.mode = need_choice(WHERE, "mode", mode, MODES)
        self.dice: NarrativeDice = narrative_dice(system)
        if self.mode == "apply" and defender is not None:
            raise ParameterError(WHERE, "defender", defender,
                                 "None in mode 'apply' (only the attacker rolls; use mode "
                                 "'resist' or 'contest' for a resisting roll)")
        if self.mode == "resist" and attacker is not None:
            raise ParameterError(WHERE, "attacker", attacker,
                                 "None in mode 'resist' (only the defender rolls; use mode "
                                 "'contest' for both)")
        default = self.dice.system.mechanic.default_die
        top = len(self.dice.colours) - 1
        spiral = bool(death_spiral)
        self.attacker = self.defender = None
        self.attacker_levels = self.defender_levels = np.zeros(4, np.int64)
        if self.mode != "resist":
            self.attacker = attacker or default
            base = self.dice.level(WHERE, "attacker", self.attacker)
            shift = spiral and self.mode == "apply"
            self.attacker_levels = np.array([min(base + (f if shift else 0), top) for f in range(4)])
        if self.mode != "apply":
            self.defender = defender or default
            base = self.dice.level(WHERE, "defender", self.defender)
            self.defender_levels = np.array([max(base - (f if spiral else 0), 0) for f in range(4)])
        self.death_spiral = spiral
        self.start = _start_slots(start)
        self.apply_tier = self.dice.table(APPLYING, "Applying Conditions")
        self.resist_tier = self.dice.table(RESISTING, "Resisting Conditions")

    def params(self) -> dict:
        return {"attacker": self.attacker, "defender": self.defender, "mode": self.mode,
                "death_spiral": self.death_spiral, "start": self.start_names(),
                "system": self.dice.system.id}

    def start_names(self) -> tuple[str, ...]:
        return tuple(name for i, name in enumerate(("Mild", "Moderate", "Severe"))
                     if (self.start >> i) & 1)

    def tier_odds(self, filled: int) -> np.ndarray:
        """P(condition tier 0..3) in an exchange with ``filled`` slots filled."""
        def by_tier(level, table):
            out = np.zeros(4)
            np.add.at(out, table, self.dice.odds[level])
            return out
        if self.mode == "apply":
            return by_tier(self.attacker_levels[filled], self.apply_tier)
        resist = by_tier(self.defender_levels[filled], self.resist_tier)
        if self.mode == "resist":
            return resist
        attack = by_tier(self.attacker_levels[filled], self.apply_tier)
        # P(min(A, R) >= t) = P(A >= t) P(R >= t) for independent rolls.
        at_least = np.cumsum(attack[::-1])[::-1] * np.cumsum(resist[::-1])[::-1]
        return at_least - np.append(at_least[1:], 0.0)


def _start_slots(start: Sequence[str] | None) -> int:
    names = {"mild": 0, "moderate": 1, "severe": 2}
    slots = 0
    for item in start or ():
        key = item.strip().lower() if isinstance(item, str) else None
        if key not in names:
            raise ParameterError(WHERE, "start", item, "slot names among Mild, Moderate, Severe")
        slots |= 1 << names[key]
    return slots


def taken_out(attacker: str | None = None, defender: str | None = None, *, mode: str = "apply",
              death_spiral: bool = False, start: Sequence[str] = (),
              system: "str | System" = "erzahlspiel", method: str = "exact",
              trials: int = 200_000, seed: int | None = 0, max_exchanges: int = 10_000,
              progress: bool | None = None) -> StepsResult:
    """Exchanges until Taken Out: exact (absorbing Markov chain) or simulated.

    Args:
        attacker: the attacker's die colour (modes ``"apply"``, ``"contest"``; default the
            system's default die, yellow).
        defender: the defender's resisting die colour (modes ``"resist"``, ``"contest"``).
        mode: ``"apply"``, ``"resist"`` or ``"contest"`` (see the module docstring).
        death_spiral: each filled slot shifts the victim's die one step down.
        start: slots filled before the first exchange, e.g. ``("Mild",)``.
        system: a narrative system (``"erzahlspiel"`` or a what-if variant of it).
        method: ``"exact"`` or ``"simulate"``.
        trials, seed, progress: for simulations (``seed=None`` draws a fresh seed).
        max_exchanges: longest fight followed (probability beyond it is the ``tail``).

    Returns:
        A :class:`~workbench.stateful.StepsResult` over ``exchanges``.

    Example:
        >>> result = taken_out("yellow")
        >>> round(result.mean, 3), result.tail < 1e-12
        (6.963, True)
        >>> round(taken_out("green", death_spiral=True).mean, 3)
        4.308
    """
    setup = _Setup(attacker, defender, mode, death_spiral, start, system)
    method = need_method(WHERE, method)
    limit = need_int(WHERE, "max_exchanges", max_exchanges, 1, 10**7)
    if method == "exact":
        return _exact(setup, limit)
    return _simulate(setup, need_trials(WHERE, trials), resolve_seed(WHERE, seed), limit, progress)


def _exact(setup: _Setup, limit: int) -> StepsResult:
    transient = np.zeros((8, 8))
    leave = np.zeros(8)
    for slots in range(8):
        odds = setup.tier_odds(_filled(slots))
        transient[slots, slots] += odds[0]
        for tier in (1, 2, 3):
            after = _slots_after(slots, tier)
            if after >= 0:
                transient[slots, after] += odds[tier]
            else:
                leave[slots] += odds[tier]
    start = np.zeros(8)
    start[setup.start] = 1.0
    chain = absorption_steps(transient, start, limit, leave)
    return exact_steps("exchanges", chain.probabilities, chain.tail, chain.mean, setup.params())


def _simulate(setup: _Setup, trials: int, seed: int, limit: int, progress) -> StepsResult:
    if use_tables(8):
        from .._kernels.sampled import conditions_blocks as kernel

        tiers = np.arange(4)
        tables = OutcomeTables([(setup.tier_odds(filled), {"tier": tiers}) for filled in range(4)])
        args = (tables.cdf, tables.guide, tables.payload["tier"], setup.start, limit)
    else:
        from .._kernels.stateful import conditions_blocks as kernel

        pools = pack_pools(setup.dice.pools)
        mode = MODES.index(setup.mode)
        args = (pools.arrays(), setup.attacker_levels.astype(np.int64),
                setup.defender_levels.astype(np.int64), mode, setup.apply_tier,
                setup.resist_tier, setup.start, limit)
    counts, = run_kernel(kernel, trials, seed, args, [(limit + 1,)], progress,
                         work=trials * 8.0, description="conditions")
    params = setup.params() | {"max_exchanges": limit}
    return simulated_steps("exchanges", counts, trials, seed, params)
