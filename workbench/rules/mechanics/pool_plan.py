"""A pool file's parameters as a plan: each parameter's effects (verb, argument, entry), which of
them apply with given values, and the points each parameter gives.

Read once when the file is loaded (the file's entries were checked by
:mod:`workbench.rules.schema`); both halves of a pool mechanic use it: compiling the dice
(:mod:`.pool_effects`) and reading the total (:mod:`.pool_reading`).
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping, NamedTuple

from ...errors import ParameterError
from .._entries import declared_params, face_values, labels_of, word_choices
from ..params import Param
from .statistics import effect_points


class Planned(NamedTuple):
    """One effect of a parameter as the plan keeps it."""

    verb: str
    argument: Any
    effect: Any
    entry: str
    """Where the file says it (``params.NAME.effect[0]``), for errors."""


class Choice(NamedTuple):
    """What one choice of a choice parameter does: die faces replaced and effects at one point."""

    faces: dict[str, tuple[int, ...]]
    effects: list[Planned]


class EffectPlan:
    """The parameters of one pool file: declared (:attr:`params`), their effects planned, and
    the rules that net their points (``[[cancel_out]]``)."""

    def __init__(self, system_id: str, model, source: object):
        self.system_id, self.source = system_id, source
        self.params: dict[str, Param] = declared_params(model)
        self.kinds = {name: spec.kind for name, spec in model.params.items()}
        self.cancel_out = tuple(model.cancel_out)
        self.cancelled = {name for rule in model.cancel_out for name in rule.params}
        self.texts = word_choices(model)
        labels = labels_of(model)
        self.effects = {name: [Planned(e.verb, e.argument, e, f"params.{name}.effect[{i}]")
                               for i, e in enumerate(spec.effect)]
                        for name, spec in model.params.items()}
        self.choices = {name: {choice: Choice(
            {die: face_values(table, labels, source, f"params.{name}.on") for die, table in sub.faces.items()},
            [Planned(e.verb, e.argument, e, f"params.{name}.on.{choice}.effect[{i}]")
             for i, e in enumerate(sub.effect)])
            for choice, sub in spec.on.items()} for name, spec in model.params.items()}
        self.choice_names = tuple(name for name, kind in self.kinds.items() if kind == "choice")
        self.die_names = tuple(model.dice)
        # Whether any parameter (or any choice) has an effect: without one, no check has any
        # effect to apply (nor points to work out for one).
        self.has_effects = any(self.effects.values()) or any(
            sub.effects for subs in self.choices.values() for sub in subs.values())
        # The parameters that may have effects (a choice, or effects of its own), in order.
        self.effectful = tuple((name, kind) for name, kind in self.kinds.items()
                               if kind == "choice" or self.effects[name])

    def chosen(self, name: str, value: Any) -> Choice | None:
        """What choice ``value`` of parameter ``name`` does (``None``: no value, or a choice
        that does nothing)."""
        return self.choices[name].get(str(value)) if value is not None else None

    def points(self, p: Mapping[str, Any]) -> dict[str, int]:
        """Each parameter's points: its value (a choice or no value: 0), after the
        ``[[cancel_out]]`` rules that apply net pairs of them."""
        points = {name: 0 if p[name] is None or kind == "choice" else int(p[name])
                  for name, kind in self.kinds.items()}
        for rule in self.cancel_out:
            if self.holds(rule.when, p):
                a, b = rule.params
                both = min(points[a], points[b])
                if both > 0:
                    points[a] -= both
                    points[b] -= both
        return points

    def holds(self, when, p: Mapping[str, Any]) -> bool:
        """Whether a ``when`` table holds for the parameters ``p``."""
        for key, value in when.items():
            allowed = value if isinstance(value, list) else [value]
            if p[key] not in allowed and not any(p[key] == self.params[key].parse(self.system_id, v)
                                                 for v in allowed):
                return False
        return True

    def effect_points(self, name: str, effect, points: int, p: Mapping[str, Any]) -> int:
        """The points an effect acts with: its own ``points`` when it has them (a number or an
        expression over the parameters), else ``points``."""
        if effect.points is None:
            return points
        return effect_points(self.texts, self.system_id, name, effect.points, p)

    def refuse(self, name: str, p: Mapping[str, Any], entry: str, allowed: str):
        """A check these parameters cannot make, blamed on the parameter and the file's entry
        whose effect asks for it."""
        where = f"{entry} in {self.source}" if self.source is not None else entry
        raise ParameterError(self.system_id, name, p.get(name), f"{allowed} ({where})")


def per_point(effect, points: int) -> int:
    """What an effect adds for ``points`` points: those past its ``past``, times ``per_point``
    (negative points count in full: a penalty)."""
    return (max(points - effect.past, 0) if points >= 0 else points) * effect.per_point
