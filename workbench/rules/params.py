"""Declared parameters: each knob of a system with its type, default and allowed values.

Values arrive either as Python values (the API) or as text (the command line, ``favor=-1``);
both go through :meth:`Param.parse`, so the two interfaces accept and reject the same things.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..errors import ParameterError

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Param:
    """One parameter or rule option of a system.

    Attributes:
        name: the keyword, exactly as in RULES.md.
        kind: ``"int"``, ``"bool"`` or ``"choice"``.
        default: the value when not given (``None`` for "not given", e.g. no target).
        minimum, maximum: bounds for ``"int"`` (inclusive, ``None`` for unbounded).
        choices: allowed values for ``"choice"``.
        rule_option: a reading of the rules rather than a property of the roll.
        optional: ``None`` is allowed (the parameter may be left out).
        help: one line for ``workbench systems`` and the widgets.

    Example:
        >>> Param("favor", "int", 0, help="favor").parse("uwr", "-1")
        -1
    """

    name: str
    kind: str
    default: Any
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple = ()
    rule_option: bool = False
    optional: bool = False
    help: str = ""

    def with_default(self, default: Any) -> "Param":
        return replace(self, default=default)

    def allowed(self) -> str:
        """What is allowed, in words, for error messages and listings."""
        if self.kind == "bool":
            text = "true or false"
        elif self.kind == "choice":
            text = "one of " + ", ".join(str(c) for c in self.choices)
        elif self.minimum is not None and self.maximum is not None:
            text = f"a whole number from {self.minimum} to {self.maximum}"
        elif self.minimum is not None:
            text = f"a whole number >= {self.minimum}"
        elif self.maximum is not None:
            text = f"a whole number <= {self.maximum}"
        else:
            text = "a whole number"
        return text + (" (or leave it out)" if self.optional else "")

    def parse(self, system: str, value: Any) -> Any:
        """Check and convert ``value``; raise :class:`ParameterError` naming what is allowed."""
        if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "")):
            if self.optional:
                return None
            raise ParameterError(system, self.name, value, self.allowed())
        if self.kind == "bool":
            return self._parse_bool(system, value)
        if self.kind == "choice":
            return self._parse_choice(system, value)
        return self._parse_int(system, value)

    def _fail(self, system: str, value: Any):
        raise ParameterError(system, self.name, value, self.allowed())

    def _parse_bool(self, system, value):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        self._fail(system, value)

    def _parse_choice(self, system, value):
        for choice in self.choices:
            if value == choice or (isinstance(value, str) and isinstance(choice, str)
                                   and value.strip().lower() == choice.lower()):
                return choice
        self._fail(system, value)

    def _parse_int(self, system, value):
        if isinstance(value, bool):
            self._fail(system, value)
        if isinstance(value, str):
            text = value.strip()
            if not text.lstrip("+-").isdigit():
                self._fail(system, value)
            number = int(text)
        elif hasattr(value, "__index__"):
            number = int(value.__index__())
        else:
            self._fail(system, value)
        if (self.minimum is not None and number < self.minimum) or (
                self.maximum is not None and number > self.maximum):
            self._fail(system, value)
        return number
