"""Checked data-file entries as the system cache keeps them: read like the models, without pydantic.

A system built from a data file keeps the file's checked entries (:mod:`workbench.rules.schema`
models: its dice, parameters, effects, tiers). The system cache
(:mod:`workbench.rules._system_cache`) stores each model as a :class:`Frozen` entry: its kind
(the model's class name), its fields and the values of its properties (``kind``, ``verb``,
``face_count``, ...), so a system read back from the cache answers every attribute as the
model did, and loading it needs neither pydantic nor the schema (a few tenths of a second).
Anything else asked of an entry (a method) is answered by the model itself, made again from
the entry's fields on first use.

Example:
    >>> from workbench.rules.schema import validate
    >>> model = validate({"id": "x", "name": "X", "mechanic": "pool",
    ...                   "dice": {"d6": {"sides": 6, "count": 2}}}, None)
    >>> die = freeze(model.dice["d6"])
    >>> die, die.face_count, die.face_values
    (DieSpec(faces=None, sides=6, percentile=False, count=2, counts={}, explode=[], explode_limit=0, explode_into=None), 6, [1, 2, 3, 4, 5, 6])
    >>> die == freeze(model.dice["d6"]), die.model_dump()["sides"]
    (True, 6)
"""
from __future__ import annotations

from typing import Any


class Frozen:
    """One checked entry of a data file: its fields and properties, read as attributes.

    Compared, hashed and iterated as the model it was made from (``for name, value in
    entry`` gives the fields); never changed (the models are frozen too).
    """

    __slots__ = ("_entry_kind", "_fields", "_properties", "_model", "__dict__")

    def __init__(self, kind: str, fields: dict[str, Any], properties: dict[str, Any]):
        object.__setattr__(self, "_entry_kind", kind)
        object.__setattr__(self, "_fields", fields)
        object.__setattr__(self, "_properties", properties)
        object.__setattr__(self, "_model", None)
        # The fields as plain attributes too: a check reads them often, each read then an
        # ordinary look-up (no field name starts with "_", so none hides a slot or a method).
        self.__dict__.update(fields)

    def __getattr__(self, name: str) -> Any:   # what is not a field
        if name.startswith("__"):
            raise AttributeError(name)
        if name in self._fields:
            return self._fields[name]
        if name in self._properties:
            value = self._properties[name]
            return list(value) if isinstance(value, list) else value   # a fresh list, as the model
        return getattr(self._as_model(), name)

    def _as_model(self) -> Any:
        """The pydantic model this entry was made from, made again from its fields (loads the
        schema: only for what the entry does not keep itself)."""
        if self._model is None:
            from . import schema  # lazy: pydantic
            made = getattr(schema, self._entry_kind).model_construct(
                **{name: _thawed(value) for name, value in self._fields.items()})
            object.__setattr__(self, "_model", made)
        return self._model

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError(f"a checked data-file entry ({self._entry_kind}) cannot be changed")

    def __iter__(self):
        return iter(self._fields.items())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Frozen):
            return (self._entry_kind, self._fields) == (other._entry_kind, other._fields)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._entry_kind, *self._fields.values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self._fields.items())
        return f"{self._entry_kind}({shown})"

    def __reduce__(self):
        return Frozen, (self._entry_kind, self._fields, self._properties)


def _thawed(value: Any) -> Any:
    """A field's value with every :class:`Frozen` entry inside it made a model again."""
    if isinstance(value, Frozen):
        return value._as_model()
    if isinstance(value, list):
        return [_thawed(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_thawed(item) for item in value)
    if isinstance(value, dict):
        return {key: _thawed(item) for key, item in value.items()}
    return value


SCHEMA = "workbench.rules.schema"
"""The package of the schema's models (:mod:`workbench.rules.schema` and its modules)."""


def _of_the_schema(cls: type) -> bool:
    """Whether ``cls`` is one of the schema's own classes."""
    module = cls.__module__
    return module == SCHEMA or module.startswith(SCHEMA + ".")


def _properties_of(model: Any) -> dict[str, Any]:
    """The values of the properties the schema's own classes define on ``model`` (pure reads of
    a frozen model, so computing them once is the same as computing them on every read)."""
    found: dict[str, Any] = {}
    for cls in type(model).__mro__:
        if not _of_the_schema(cls):
            continue
        for name, member in vars(cls).items():
            if isinstance(member, property) and name not in found:
                found[name] = getattr(model, name)
    return found


def freeze(model: Any) -> Frozen:
    """A model of :mod:`workbench.rules.schema` as a :class:`Frozen` entry (its fields as they
    are: entries inside them are frozen when they are pickled, see :func:`reduce_model`)."""
    fields = {name: getattr(model, name) for name in type(model).model_fields}
    return Frozen(type(model).__name__, fields, _properties_of(model))


def reduce_model(obj: Any):
    """For a pickler's ``reducer_override``: a schema model is stored as a :class:`Frozen`
    entry; anything else as pickle stores it (``NotImplemented``)."""
    if _of_the_schema(type(obj)) and hasattr(type(obj), "model_fields"):
        frozen = freeze(obj)
        return Frozen, (frozen._entry_kind, frozen._fields, frozen._properties)
    return NotImplemented
