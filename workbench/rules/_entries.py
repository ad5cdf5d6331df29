"""Small readers of data-file entries shared by the schema and the mechanics (no pydantic, so a
system read back from the cache runs without loading the schema)."""
from __future__ import annotations

from typing import Any, Iterator

from ..errors import DataFileError
from ..validation import is_whole
from .params import Param


def names(value) -> tuple[str, ...]:
    """A key that names one thing or several (``dice = "d6"`` or ``dice = ["d6", "d8"]``), as
    a tuple of names.

    Example:
        >>> names("d6"), names(["d6", "d8"])
        (('d6',), ('d6', 'd8'))
    """
    return (value,) if isinstance(value, str) else tuple(value)


def labels_of(model) -> tuple[str, ...] | None:
    """A pool file's outcome labels (``[outcome] labels``), or ``None`` without an outcome table."""
    return tuple(model.outcome.labels) if model.outcome else None


def face_values(faces, labels: tuple[str, ...] | None, source: object, where: str) -> tuple[int, ...]:
    """A die's faces as written (whole numbers or outcome labels) as whole numbers: a label is
    its place among ``labels``; one that is none of them is a :class:`DataFileError` at
    ``where[i]``.

    Example:
        >>> face_values([0, "hit", "hit"], ("miss", "hit"), "x.toml", "dice.d3.faces")
        (0, 1, 1)
    """
    out = []
    for i, face in enumerate(faces):
        if isinstance(face, str):
            if labels is None or face not in labels:
                raise DataFileError(source, f"{where}[{i}]", f"{face!r} is not an outcome label; faces are "
                                    "whole numbers" + (f" or one of {list(labels)}" if labels else
                                                       " (labels need an [outcome] table)"))
            out.append(labels.index(face))
        else:
            out.append(face)
    return tuple(out)


def declared_params(model) -> dict[str, Param]:
    """The parameters a pool file's ``[params.NAME]`` tables declare, by name (a choice
    parameter without a default or ``optional`` defaults to its first choice)."""
    params = {}
    for name, spec in model.params.items():
        if spec.kind == "choice":
            default = spec.default if spec.default is not None or spec.optional else spec.choices[0]
            params[name] = Param(name, "choice", default, choices=tuple(spec.choices),
                                 rule_option=spec.rule_option, optional=spec.optional, help=spec.help)
        else:
            params[name] = Param(name, spec.kind, spec.default, spec.min, spec.max,
                                 rule_option=spec.rule_option, optional=spec.optional, help=spec.help)
    return params


def effects_of(model) -> Iterator[tuple[str, Any]]:
    """``(entry, effect)`` for every effect of a pool file, each parameter's own effects then
    its choices' (the entry names it in errors: ``params.NAME.on.CHOICE.effect[0]``)."""
    for name, spec in model.params.items():
        for i, effect in enumerate(spec.effect):
            yield f"params.{name}.effect[{i}]", effect
        for choice, sub in spec.on.items():
            for i, effect in enumerate(sub.effect):
                yield f"params.{name}.on.{choice}.effect[{i}]", effect


def numeric(spec) -> bool:
    """Whether a parameter's values are numbers an expression can read (whole numbers,
    true/false, or choices that are all whole numbers, e.g. a divisor 1, 2 or 5)."""
    return spec.kind != "choice" or all(is_whole(c, numpy=False) for c in spec.choices)


def word_choices(model) -> dict[str, tuple]:
    """The parameters whose choices are words, with their choices (expressions read such a
    parameter only compared with one of them: ``mode == "middle"``)."""
    return {name: tuple(spec.choices) for name, spec in model.params.items() if not numeric(spec)}
