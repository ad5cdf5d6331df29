"""A formula's knobs (``@NAME``, ``@NAME=DEFAULT``) as the parameters of the data file it makes.

A knob may be used in several places (a count and an explosion's face): each use narrows the
values it allows and says what it is for (the parameter's ``help``); a use that leaves no
common value, or a second default that differs, is refused at the knob.

Example:
    >>> from workbench.rules.notation.parse import Knob
    >>> def fail(position, problem): raise ValueError(problem)
    >>> knobs = Knobs(fail, statistics=set())
    >>> knobs.declare(Knob("dice", 5, 1), "the number of d10 rolled", 0, 1000, {"add_dice": "d10"})
    'dice'
    >>> knobs.parameters()["dice"]
    {'default': 5, 'min': 0, 'max': 1000, 'help': 'the number of d10 rolled', 'effect': {'add_dice': 'd10'}}
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..params import RESERVED
from .parse import Knob

KEYWORDS = ("and", "or", "not", "if", "else", "true", "false", "total", "value", "face")
"""Words of the expressions: no knob or statistic may be called so."""
MAX_KNOB = 10**6
"""Largest value, either sign, a knob may take."""


@dataclass
class Declared:
    """One knob as declared so far: its default, the values its uses allow, what it is for
    (``roles``) and the effects its parameter has."""

    default: int | None
    low: int
    high: int
    roles: list = field(default_factory=list)
    effects: list = field(default_factory=list)
    position: int = 0
    optional: bool = False   # left out on purpose (the automatic target): not required


class Knobs(dict):
    """The knobs of one formula, by name (:class:`Declared`). ``fail(position, problem)``
    raises the formula's error; ``statistics``: the names counts and statistics took (a
    knob may not reuse one), shared with the compiler."""

    def __init__(self, fail: Callable[[int, str], None], statistics: set[str]):
        super().__init__()
        self.fail, self.statistics = fail, statistics

    def declare(self, knob: Knob, role: str, low: int, high: int, effect: dict | None = None) -> str:
        """A use of ``knob`` as ``role``, allowing ``low`` to ``high`` (``effect``: what its
        parameter does there); returns the parameter's name."""
        name = knob.name
        if name in RESERVED or name in KEYWORDS:
            what = "a keyword of the workbench's own functions" if name in RESERVED else "a word of the expressions"
            self.fail(knob.position, f"@{name} is {what}; allowed: any other name")
        if name in self.statistics:
            self.fail(knob.position, f"@{name} is already a statistic's name; allowed: another name")
        found = self.setdefault(name, Declared(knob.default, -MAX_KNOB, MAX_KNOB, position=knob.position))
        if knob.default is not None:
            if found.default is not None and found.default != knob.default:
                self.fail(knob.position, f"@{name}={knob.default}, but @{name}={found.default} "
                          "before; allowed: one default per knob (write it once)")
            found.default = knob.default
        found.low, found.high = max(found.low, low), min(found.high, high)
        found.roles.append(role)
        if effect is not None:
            found.effects.append(effect)
        if found.low > found.high:
            self.fail(knob.position, f"@{name} is used as {' and as '.join(dict.fromkeys(found.roles))}, "
                      "which allow no common value; allowed: a knob for each use")
        if found.default is not None and not found.low <= found.default <= found.high:
            self.fail(knob.position, f"@{name}={found.default}; allowed: {found.low} to {found.high} "
                      f"({role})")
        return name

    def number(self, value, role: str, low: int, high: int, effect=None) -> str | int:
        """A literal, or a knob's parameter name."""
        if isinstance(value, Knob):
            return self.declare(value, role, low, high, effect)
        return value

    def free_name(self, base: str) -> str:
        """``base``, or ``base_2``, ``base_3``... when a knob or a statistic has it."""
        name, n = base, 1
        while name in self or name in self.statistics:
            n += 1
            name = f"{base}_{n}"
        return name

    def required(self) -> tuple[str, ...]:
        """The knobs written without a default (a check must give them)."""
        return tuple(n for n, k in self.items() if k.default is None and not k.optional)

    def parameters(self) -> dict:
        """Every knob as a data file's ``[params.NAME]`` table."""
        out = {}
        for name, knob in self.items():
            table: dict = {}
            if knob.default is not None:
                table["default"] = knob.default
            else:
                table["optional"] = True
            table["min"], table["max"] = knob.low, knob.high
            table["help"] = "; ".join(dict.fromkeys(knob.roles))
            effects = [e for e in knob.effects if e != {"add_dice": None}]
            if len(effects) > 1:
                effects = [{e: True} if isinstance(e, str) else e for e in effects]
            if effects:
                table["effect"] = effects[0] if len(effects) == 1 else effects
            out[name] = table
        return out
