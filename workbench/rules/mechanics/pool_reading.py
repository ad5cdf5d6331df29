"""How a data-defined pool's total reads: tiers, the target, opposed checks.

The reading half of :class:`~workbench.rules.mechanics.pool.PoolMechanic`, apart from
compiling the dice. The target is read from the effects that say what passes
(:data:`PASSING`) alone, without compiling the pool: a sweep, a curve or a ladder asks for many
targets of one pool. Which tiers apply is remembered by the values of the parameters their
conditions name, and the pool by the values of the parameters the dice depend on
(:func:`dice_parameters`).
"""
from __future__ import annotations

from ...errors import WorkbenchError
from ...limits import MAX_TOTAL
from .statistics import effect_points

PASSING = ("target", "obstacle", "add_to_target")
"""Effects that say what passes, not what is rolled."""


def _big(number: int) -> str:
    """A large whole number short: ``1e+12`` as ``1e12``."""
    return f"{number:.3g}".replace("e+0", "e").replace("e+", "e")


def _total_range() -> str:
    return f"-{_big(MAX_TOTAL)} to {_big(MAX_TOTAL)}"


class PoolReading:
    """Mix-in of :class:`~workbench.rules.mechanics.pool.PoolMechanic` (which sets up what it
    reads: ``model``, ``_passing``, ``_on``, ``_cancelled``, ``_tier_names``, ``_tier_keys``,
    ``_tier_rules``, ``statistics``, ``uses_obstacle`` and the methods ``_points``, ``_when``, ``_refuse``,
    ``_compile``)."""

    @property
    def pass_from(self) -> str | None:
        return self.model.outcome.pass_from if self.model.outcome else None

    def tier_names(self) -> tuple[str, ...]:
        return self._tier_names

    @property
    def pass_condition(self):
        """The file's ``pass_if`` (parsed), or ``None``: then a pass is total >= target."""
        return self.statistics.pass_if if self.statistics is not None else None

    def condition(self, text: str):
        """A tier's ``condition``, parsed and checked when the file was loaded."""
        return self.statistics.conditions[text]

    def tier_rules(self, p):
        key = tuple(p[name] for name in self._tier_keys)
        found = self._tier_rules.get(key)
        if found is None:
            found = self._tier_rules.keep(key, tuple(t for t in self.model.tiers if self._when(t.when, p)))
        return found

    def _reading(self, p) -> tuple[int | None, int, list]:
        """(the target parameter's value or ``None``, what ``add_to_target`` adds, where the
        target comes from as (parameter, entry)): the full compile's, from the effects in
        :data:`PASSING` alone."""
        target, add, sources, setter = None, 0, [], None
        for name, kind, plan in self._passing:
            value = p[name]
            if kind == "choice":
                sub = self._on[name].get(str(value)) if value is not None else None
                plan, x = ([e for e in sub[1] if e[0] in PASSING] if sub else ()), 1
            elif name in self._cancelled:   # points left after cancelling (Arrata's net)
                x = self._points(p)[name]
            else:
                x = 0 if value is None else int(value)
            for verb, arg, effect, entry in plan:
                if effect.when and not self._when(effect.when, p):
                    continue
                if verb != "add_to_target":
                    if value is not None:
                        if setter is not None and setter != name:
                            self._refuse(name, p, entry, f"no value while {setter!r} sets the "
                                         "target too (two targets at once have no single meaning; "
                                         "modifiers of a target are add_to_target)")
                        target, setter = (target or 0) + value, name
                        sources.append((name, entry, verb))
                else:
                    if effect.points is not None:
                        x = effect_points(self, name, effect.points, p)
                    n = (max(x - effect.past, 0) if x >= 0 else x) * effect.per_point
                    add += n * arg
                    if n * arg:
                        sources.append((name, entry, ""))
        return target, add, sources

    def target(self, p):
        value, add, sources = self._reading(p)
        if value is None:
            return None
        target = value + add
        if abs(target) > MAX_TOTAL:
            name, entry, verb = sources[-1]
            self._refuse(name, p, f"{entry} {verb}".rstrip(), f"values that keep the target "
                         f"within {_total_range()} (these make it {_big(target)})")
        return target

    def versus_ties(self, p):
        ties = self._compile(p)["ties"]
        if ties is None:
            raise WorkbenchError(f"{self.system_id}: its rules define no opposed checks (no [versus] table)")
        return ties

    def versus_extra_obstacle(self, p):
        return self._reading(p)[1]

    @property
    def uncontested(self) -> str:
        return self.model.versus.uncontested if self.model.versus else "counts"

    def extra(self, p):
        return {"effective_ob": self.target(p)} if self.uses_obstacle else {}


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


def _no_key(p) -> tuple:
    """The pool memo's key for a mechanic whose dice depend on no parameter."""
    return ()


def _all_effects(spec):
    """A parameter's effects, its choices' effects included."""
    yield from spec.effect
    for sub in spec.on.values():
        yield from sub.effect
