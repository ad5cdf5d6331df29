"""How a data-defined pool's total reads: tiers, the target, opposed checks.

The reading half of :class:`~workbench.rules.mechanics.pool.PoolMechanic`, apart from
compiling the dice. The target is read from the effects that say what passes
(:data:`PASSING`) alone, without compiling the pool: a sweep, a curve or a ladder asks for many
targets of one pool. Which tiers apply is remembered by the values of the parameters their
conditions name, and the pool by the values of the parameters the dice depend on
(:func:`dice_parameters`).
"""
from __future__ import annotations

from typing import Any, Mapping

from ...limits import MAX_TOTAL, BoundedCache
from ..roll import ALL_NEGATIVE
from .base import TierRule, tier_layout
from .pool_plan import EffectPlan, per_point

PASSING = ("target", "obstacle", "add_to_target")
"""Effects that say what passes, not what is rolled."""


def _big(number: int) -> str:
    """A large whole number short: ``1e+12`` as ``1e12``."""
    return f"{number:.3g}".replace("e+0", "e").replace("e+", "e")


def _total_range() -> str:
    return f"-{_big(MAX_TOTAL)} to {_big(MAX_TOTAL)}"


class PoolReading:
    """How the totals of one pool file read: its tiers (which apply for given parameters),
    its target and what is added to it, its outcome labels' first pass and its opposed checks.

    ``plan``: the file's parameters (:class:`~.pool_plan.EffectPlan`); ``statistics``: its
    checked statistics and conditions (``None`` for a sum of dice); ``memo``: where the
    tiers that apply are remembered (the mechanic keeps its memos together).
    """

    def __init__(self, plan: EffectPlan, model, statistics, memo: BoundedCache):
        self.plan, self.model, self.statistics, self.memo = plan, model, statistics, memo
        # The effects that say what passes, per parameter: the target is read from these
        # alone (a sweep or a ladder asks for many targets of one pool).
        self.passing = [(name, plan.kinds[name], [e for e in effects if e.verb in PASSING])
                        for name, effects in plan.effects.items()
                        if any(e.verb in PASSING for e in effects)
                        or any(e.verb in PASSING for sub in plan.choices[name].values() for e in sub.effects)]
        # Tables and charts list tiers worst to best: ``tier_order`` when the file gives it
        # (the order tiers are tried in is another matter: the first that fits names a roll).
        self.tier_names = tuple(model.tier_order or dict.fromkeys(t.name for t in model.tiers))
        # Which tiers apply depends on the parameters their conditions name, and only those.
        self.tier_keys = tuple(dict.fromkeys(key for t in model.tiers for key in t.when))
        # Tiers that always apply (no ``when``): the file's, gathered once here.
        self.fixed_tiers = tuple(TierRule.of(t) for t in model.tiers) if not self.tier_keys else None
        # How the fixed tiers read (each roll's tier off their conditions), laid out once here.
        self.fixed_layout = tier_layout(self.fixed_tiers, self.tier_names, statistics.conditions) \
            if self.fixed_tiers is not None and statistics is not None else None
        self.uses_obstacle = any(e.verb == "obstacle" for s in model.params.values() for e in s.effect)

    @property
    def pass_from(self) -> str | None:
        return self.model.outcome.pass_from if self.model.outcome else None

    @property
    def pass_condition(self):
        """The file's ``pass_if`` (parsed), or ``None``: then a pass is total >= target."""
        return self.statistics.pass_if if self.statistics is not None else None

    @property
    def uncontested(self) -> str:
        return self.model.versus.uncontested if self.model.versus else "counts"

    def tier_rules(self, p: Mapping[str, Any]) -> tuple:
        if self.fixed_tiers is not None:
            return self.fixed_tiers
        key = tuple(p[name] for name in self.tier_keys)
        found = self.memo.get(key)
        if found is None:
            found = self.memo.keep(key, tuple(TierRule.of(t) for t in self.model.tiers
                                              if self.plan.holds(t.when, p)))
        return found

    def names_read(self, tiers: tuple) -> frozenset[str] | None:
        """The names a check reads its result by when ``tiers`` apply: the total, those the
        ``pass_if`` and the tiers' conditions name, and whether every initial die failed when
        a tier asks (``None``: no statistics, or a tier condition the file does not know)."""
        statistics = self.statistics
        if statistics is None:
            return None
        names = {"total"}
        condition = statistics.pass_if
        if condition is not None:
            names.update(condition.names)
        for tier in tiers:
            if tier.condition:
                parsed = statistics.conditions.get(tier.condition)
                if parsed is None:
                    return None
                names.update(parsed.names)
            if tier.all_negative is not None:
                names.add(ALL_NEGATIVE)
        return frozenset(names)

    def _reading(self, p: Mapping[str, Any]) -> tuple[int | None, int, list]:
        """(the target parameter's value or ``None``, what ``add_to_target`` adds, where the
        target comes from as (parameter, entry, verb)): the full compile's, from the effects
        in :data:`PASSING` alone."""
        plan = self.plan
        target, add, sources, setter = None, 0, [], None
        for name, kind, effects in self.passing:
            value = p[name]
            if kind == "choice":
                sub = plan.chosen(name, value)
                effects, x = ([e for e in sub.effects if e.verb in PASSING] if sub else ()), 1
            elif name in plan.cancelled:   # points left after cancelling (Arrata's net)
                x = plan.points(p)[name]
            else:
                x = 0 if value is None else int(value)
            for verb, arg, effect, entry in effects:
                if effect.when and not plan.holds(effect.when, p):
                    continue
                if verb != "add_to_target":
                    if value is not None:
                        if setter is not None and setter != name:
                            plan.refuse(name, p, entry, f"no value while {setter!r} sets the "
                                        "target too (two targets at once have no single meaning; "
                                        "modifiers of a target are add_to_target)")
                        target, setter = (target or 0) + value, name
                        sources.append((name, entry, verb))
                else:
                    # An effect's own points are its own: the effects after it read the
                    # parameter's (as the dice's compile does).
                    n = per_point(effect, plan.effect_points(name, effect, x, p))
                    add += n * arg
                    if n * arg:
                        sources.append((name, entry, ""))
        return target, add, sources

    def target(self, p: Mapping[str, Any]) -> int | None:
        if not self.passing:   # no parameter says what passes: no target
            return None
        value, add, sources = self._reading(p)
        if value is None:
            return None
        target = value + add
        if abs(target) > MAX_TOTAL:
            name, entry, verb = sources[-1]
            self.plan.refuse(name, p, f"{entry} {verb}".rstrip(), f"values that keep the target "
                             f"within {_total_range()} (these make it {_big(target)})")
        return target

    def added_to_target(self, p: Mapping[str, Any]) -> int:
        """What ``add_to_target`` effects add (an opposed check's extra obstacle)."""
        return self._reading(p)[1]


def dice_parameters(model, statistics=None) -> tuple[str, ...]:
    """The parameters the dice depend on. One that only says what passes (a target, an
    Ob) and that no condition or cancelling rule reads leaves the pool alone, so the pool
    cache ignores it: a ladder or a sweep over targets builds each pool once.

    Example:
        >>> import workbench
        >>> keys = dice_parameters(workbench.system("uwr").mechanic.model)
        >>> "dice" in keys, "target" in keys
        (True, False)
    """
    read = {key for spec in model.params.values() for e in spec.effect for key in e.when}
    for spec in model.params.values():
        read |= {key for sub in spec.on.values() for e in sub.effect for key in e.when}
    read |= {key for tier in model.tiers for key in tier.when}
    for rule in model.cancel_out:
        read |= set(rule.params) | set(rule.when)
    if statistics is not None:
        read |= statistics.reads
    read |= {name for spec in model.params.values() for e in _all_effects(spec)
             if isinstance(e.points, str) for name in model.params if name in e.points}
    return tuple(name for name, spec in model.params.items()
                 if name in read or spec.kind == "choice" or not spec.effect
                 or any(e.verb not in PASSING for e in spec.effect))


def _all_effects(spec):
    """A parameter's effects, its choices' effects included."""
    yield from spec.effect
    for sub in spec.on.values():
        yield from sub.effect
