"""Declared parameters: each knob of a system with its type, default and allowed values.

Values arrive either as Python values (the API) or as text (the command line, ``favor=-1``);
both go through :meth:`Param.parse`, so the two interfaces accept and reject the same things.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .. import validation
from ..errors import ParameterError
from ..validation import whole_allowed


RESERVED = ("system", "trials", "seed", "progress", "method", "label", "rungs", "pool_sizes",
            "wanted", "pool", "pools", "tolerance", "knobs", "report_pools", "actor", "reactor",
            "faces", "entries", "options")
"""Keywords of the workbench's own functions (``check(system, ...)``, ``simulate(...,
trials=, seed=)``, ``solve_ladder(..., pool=)``...): a parameter of that name could never be
given to them, so no system may declare one."""

SHADOWED = {"total": "the roll's total", "face": "a die's face", "value": "a die's value"}
"""Names expressions read as the roll itself (conditions read ``total``, a die's counts
``face`` and ``value``): a parameter of that name would be read as the roll's number instead
(``pass_if = "hits >= total"`` compared the hits with the dice's sum), so none may have one.

Example:
    >>> shadowing("total")
    "the name 'total' is the roll's total, which expressions read under that name; allowed: any other name (not total, face, value)"
"""


def shadowing(name: str) -> str | None:
    """Why a parameter may not be called ``name`` (see :data:`SHADOWED`), or ``None``."""
    if name not in SHADOWED:
        return None
    return (f"the name {name!r} is {SHADOWED[name]}, which expressions read under that name; "
            f"allowed: any other name (not {', '.join(SHADOWED)})")


@dataclass(frozen=True)
class Param:
    """One parameter or rule option of a system.

    Attributes:
        name: the keyword, as the system's rules name it.
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
        else:
            text = whole_allowed(self.minimum, self.maximum)
        return text + (" (or leave it out)" if self.optional else "")

    def parse(self, system: str, value: Any) -> Any:
        """Check and convert ``value`` with :mod:`workbench.validation` (text as typed on a
        command line is accepted, since the CLI passes its words through the API);
        raise :class:`ParameterError` naming what is allowed."""
        if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "")):
            if self.optional:
                return None
            raise ParameterError(system, self.name, value, self.allowed())
        try:
            if self.kind == "bool":
                return validation.boolean(system, self.name, value, text=True)
            if self.kind == "choice":
                return validation.choice(system, self.name, value, self.choices)
            return validation.whole_number(system, self.name, value, self.minimum, self.maximum,
                                           text=True)
        except ParameterError:
            raise ParameterError(system, self.name, value, self.allowed()) from None
