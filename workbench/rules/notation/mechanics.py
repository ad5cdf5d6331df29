"""The mechanic of a one-line formula: the data files' pool mechanic, and knobs that must be
given (a formula may name ``@dice`` without a default; a data file has no such word, so the
check refuses to run without it instead of rolling no dice)."""
from __future__ import annotations

from typing import Any, Mapping

from ...errors import ParameterError
from ..mechanics.pool import PoolMechanic


class FormulaMechanic(PoolMechanic):
    """A :class:`PoolMechanic` whose knobs written without a default need a value."""

    def __init__(self, system_id: str, model, source: object, required: tuple[str, ...]):
        super().__init__(system_id, model, source)
        self.required = required

    def pool(self, p: Mapping[str, Any]):
        """What is rolled: refused while a knob without a default has no value (a table
        resolves the other settings first and gives the pool size itself)."""
        for name in self.required:
            if p.get(name) is None:
                raise ParameterError(self.system_id, name, None, f"a value: the formula gives @{name} "
                                     f"no default (give {name}=N, or write @{name}=N in the formula)")
        return super().pool(p)
