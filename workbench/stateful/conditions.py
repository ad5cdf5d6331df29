"""Conditions and Taken Out (Erzählspiel): exchanges until a character drops.

The model, one exchange at a time:

* The victim has three slots, Mild, Moderate and Severe (``start`` may fill some).
* Each exchange gives a condition tier (none, Mild, Moderate, Severe), by ``mode``:

  - ``"apply"``: the actor (attacker) rolls; the *Applying Conditions* table picks the tier
    (YES! AND... Severe, YES! Moderate, YES! BUT... Mild, any NO none).
  - ``"resist"``: the reactor (the victim) rolls their resisting die; the *Resisting Conditions* table
    picks it (any YES none, NO! BUT... Mild, NO! Moderate, NO! AND... Severe).
  - ``"contest"``: both roll; the victim receives the lesser of the two tiers (the attack
    must land and the defence must fail; resisting can only soften a blow).

* A new condition goes to its tier's slot; if that is filled it moves up a tier; past a
  filled Severe the victim is **Taken Out** (the chain's absorbing state). The reading
  ``taken_out_when="all_filled"`` takes the victim out as soon as every slot is filled.
* ``death_spiral``: conditions give the victim Disadvantage: ``"per_slot"`` (``True``) shifts
  the victim's die one step down per filled slot, ``"any_slot"`` one step once any slot is
  filled (clamped at the worst die). In ``"apply"`` mode the victim does not roll, so the
  same disadvantage is read as the actor's die one step *up*.
* Dice: die colours, or the regular-dice variant (``dice="d6"``: 3d6 keep lowest ... 3d6 keep
  highest at the same steps); a side's die may be given as a net advantage level.

The state is the set of filled slots (8 states) plus Taken Out, so the exact answer is an
absorbing Markov chain (:mod:`._markov`); the simulator rolls the same dice in numba.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..engine.sampling import OutcomeTables, use_tables
from ..errors import ParameterError
from ..rules.system import System
from ..validation import optional_boolean
from ._common import (
    StepsResult,
    check_work,
    exact_steps,
    need_choice,
    need_method,
    need_steps,
    need_trials,
    pack_pools,
    resolve_seed,
    run_kernel,
    simulated_steps,
)
from ._markov import absorption_steps
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


SPIRALS = ("none", "per_slot", "any_slot")
OUT_WHEN = ("past_severe", "all_filled")


class _Setup:
    """Checked inputs: which die each side rolls with ``f`` slots filled, and the tables."""

    def __init__(self, actor, reactor, mode, death_spiral, start, system, taken_out_when,
                 rule_options):
        self.mode = need_choice(WHERE, "mode", mode, MODES)
        self.spiral = _spiral(death_spiral)
        self.out_when = need_choice(WHERE, "taken_out_when", taken_out_when, OUT_WHEN)
        self.dice: NarrativeDice = narrative_dice(system, WHERE, **rule_options)
        if self.mode == "apply" and reactor is not None:
            raise ParameterError(WHERE, "reactor", reactor,
                                 "None in mode 'apply' (only the actor rolls; use mode "
                                 "'resist' or 'contest' for a resisting roll)")
        if self.mode == "resist" and actor is not None:
            raise ParameterError(WHERE, "actor", actor,
                                 "None in mode 'resist' (only the reactor rolls; use mode "
                                 "'contest' for both)")
        default = self.dice.system.mechanic.default_die
        top = len(self.dice.colours) - 1
        steps = [self.penalty(f) for f in range(4)]
        self.actor = self.reactor = None
        self.actor_levels = self.reactor_levels = np.zeros(4, np.int64)
        if self.mode != "resist":
            base = self.dice.level(WHERE, "actor", default if actor is None else actor)
            self.actor = self.dice.name(base)
            shift = self.mode == "apply"  # the victim's disadvantage as the actor's advantage
            self.actor_levels = np.array([min(base + (steps[f] if shift else 0), top) for f in range(4)])
        if self.mode != "apply":
            base = self.dice.level(WHERE, "reactor", default if reactor is None else reactor)
            self.reactor = self.dice.name(base)
            self.reactor_levels = np.array([max(base - steps[f], 0) for f in range(4)])
        self.start = _start_slots(start)
        if self.out_when == "all_filled" and self.start == 0b111:
            raise ParameterError(WHERE, "start", start, "at most two slots under "
                                 "taken_out_when='all_filled' (three filled slots are already out)")
        self.apply_tier = self.dice.table(APPLYING, "Applying Conditions")
        self.resist_tier = self.dice.table(RESISTING, "Resisting Conditions")

    def penalty(self, filled: int) -> int:
        """Steps of Disadvantage the victim suffers with ``filled`` slots filled."""
        if self.spiral == "per_slot":
            return filled
        return min(filled, 1) if self.spiral == "any_slot" else 0

    def params(self) -> dict:
        return {"actor": self.actor, "reactor": self.reactor, "mode": self.mode,
                "death_spiral": self.spiral, "taken_out_when": self.out_when,
                "start": self.start_names(), "system": self.dice.system.id, **self.dice.options}

    def after(self, slots: int, tier: int) -> int:
        """Slots after a condition of ``tier`` under the Taken Out reading; -1: Taken Out."""
        placed = _slots_after(slots, tier)
        return -1 if self.out_when == "all_filled" and placed == 0b111 else placed

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
            return by_tier(self.actor_levels[filled], self.apply_tier)
        resist = by_tier(self.reactor_levels[filled], self.resist_tier)
        if self.mode == "resist":
            return resist
        attack = by_tier(self.actor_levels[filled], self.apply_tier)
        # P(min(A, R) >= t) = P(A >= t) P(R >= t) for independent rolls.
        at_least = np.cumsum(attack[::-1])[::-1] * np.cumsum(resist[::-1])[::-1]
        return at_least - np.append(at_least[1:], 0.0)


def _spiral(death_spiral) -> str:
    """``False``/``True`` (none / one step per filled slot) or a reading by name."""
    if isinstance(death_spiral, (bool, np.bool_)):
        return "per_slot" if death_spiral else "none"
    if isinstance(death_spiral, str):
        for reading in SPIRALS:
            if death_spiral.strip().lower() == reading:
                return reading
    raise ParameterError(WHERE, "death_spiral", death_spiral,
                         "True (one step of Disadvantage per filled slot), False, or one of "
                         + ", ".join(repr(r) for r in SPIRALS))


def _start_slots(start: Sequence[str] | None) -> int:
    names = {"mild": 0, "moderate": 1, "severe": 2}
    if start is None:
        return 0
    if isinstance(start, str):
        start = [start]
    if not isinstance(start, (Sequence, set, frozenset, tuple)):
        raise ParameterError(WHERE, "start", start, "slot names among Mild, Moderate, Severe, "
                             "such as ('Mild',)")
    slots = 0
    for item in start:
        key = item.strip().lower() if isinstance(item, str) else None
        if key not in names:
            raise ParameterError(WHERE, "start", item, "slot names among Mild, Moderate, Severe")
        slots |= 1 << names[key]
    return slots


def taken_out(actor: "str | int | None" = None, reactor: "str | int | None" = None, *,
              mode: str = "apply", death_spiral: "bool | str" = False,
              taken_out_when: str = "past_severe", start: Sequence[str] = (),
              system: "str | System" = "erzahlspiel", method: str = "exact",
              trials: int = 200_000, seed: int | None = None, max_exchanges: int = 10_000,
              progress: bool | None = None, **rule_options) -> StepsResult:
    """Exchanges until Taken Out: exact (absorbing Markov chain) or simulated.

    Args:
        actor: the die of the side applying conditions (modes ``"apply"``, ``"contest"``):
            a colour, a net advantage level (``1``: one step up, read through the system's
            ``ladder`` option) or ``{"advantage": n}``; default the system's default die.
        reactor: the resisting side's die (modes ``"resist"``, ``"contest"``), the same way.
        mode: ``"apply"``, ``"resist"`` or ``"contest"`` (see the module docstring).
        death_spiral: the victim's Disadvantage from filled slots: ``False`` / ``"none"``;
            ``True`` / ``"per_slot"`` (one step down per filled slot); ``"any_slot"`` (one
            step as soon as any slot is filled: "conditions usually give Disadvantage").
        taken_out_when: ``"past_severe"`` (out when a condition cannot be placed past a
            filled Severe; the default) or ``"all_filled"`` (out as soon as every slot is
            filled: "if they don't have empty slots, they are Taken Out").
        start: slots filled before the first exchange, e.g. ``("Mild",)``.
        system: a narrative system (``"erzahlspiel"`` or a what-if variant of it).
        method: ``"exact"`` or ``"simulate"``.
        trials, seed, progress: for simulations (``seed=None`` draws a fresh seed).
        max_exchanges: longest fight followed (probability beyond it is the ``tail``; if
            any, the mean is that of the fights ending within it).
        **rule_options: the system's rule options for every roll: ``dice="d6"`` (the
            regular-dice variant), ``ladder="spectrum"``.

    Returns:
        A :class:`~workbench.stateful.StepsResult` over ``exchanges``.

    Example:
        >>> result = taken_out("yellow")
        >>> round(result.mean, 3), result.tail < 1e-12
        (6.963, True)
        >>> round(taken_out("green", death_spiral=True).mean, 3)
        4.308
        >>> round(taken_out(0, dice="d6", taken_out_when="all_filled").mean, 3)
        5.778
    """
    setup = _Setup(actor, reactor, mode, death_spiral, start, system, taken_out_when, rule_options)
    method = need_method(WHERE, method)
    # The simulation's arguments are checked whatever the method: a bad one is an error,
    # not silently left unused by an exact answer.
    trials = need_trials(WHERE, trials)
    seed = resolve_seed(WHERE, seed)
    progress = optional_boolean(WHERE, "progress", progress)
    limit = need_steps(WHERE, "max_exchanges", max_exchanges)
    if method == "exact":
        return _exact(setup, limit)
    mean = _exact(setup, min(limit, 100_000)).mean
    check_work(WHERE, trials * min(limit, mean if np.isfinite(mean) else limit) * 2)
    return _simulate(setup, trials, seed, limit, progress)


def _exact(setup: _Setup, limit: int) -> StepsResult:
    transient = np.zeros((8, 8))
    leave = np.zeros(8)
    for slots in range(8):
        odds = setup.tier_odds(_filled(slots))
        transient[slots, slots] += odds[0]
        for tier in (1, 2, 3):
            after = setup.after(slots, tier)
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
        from ..engine._kernels.sampled import conditions_blocks as kernel  # lazy: numba

        tiers = np.arange(4)
        tables = OutcomeTables([(setup.tier_odds(filled), {"tier": tiers}) for filled in range(4)])
        args = (tables.cdf, tables.guide, tables.payload["tier"], setup.start,
                OUT_WHEN.index(setup.out_when), limit)
    else:
        from ..engine._kernels.stateful import conditions_blocks as kernel  # lazy: numba

        pools = pack_pools(setup.dice.pools)
        mode = MODES.index(setup.mode)
        args = (pools.arrays(), setup.actor_levels.astype(np.int64),
                setup.reactor_levels.astype(np.int64), mode, setup.apply_tier,
                setup.resist_tier, setup.start, OUT_WHEN.index(setup.out_when), limit)
    counts, = run_kernel(kernel, trials, seed, args, [(limit + 1,)], progress,
                         work=trials * 8.0, description="conditions")
    params = setup.params() | {"max_exchanges": limit}
    return simulated_steps("exchanges", counts, trials, seed, params)
