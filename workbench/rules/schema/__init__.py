"""The one schema of system and variant files: every key, its type and what is allowed.

Every data file (after a variant is merged onto its base) is checked here by pydantic models
before anything else reads it. A key the schema does not know is an error with a
did-you-mean suggestion and the keys that exist at that place; a value of the wrong type or
out of range (an explosion on a face the die lacks, ``ties = "nobody"``) is an error naming
the file, the entry as a dotted path and what is allowed. ``data/README.md`` documents the
same keys with an example for each.

pydantic is imported only when a file is first read (``import workbench`` stays light).
"""
from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ValidationError

from ...errors import DataFileError
from ...validation import suggest
from ._base import (HINTS, ID_PATTERN, MAX_BOUND, MAX_FACES, Bounded, ExpressionText, FaceValue, Names,
                    ParamName, Scalar, TotalValue, When)
from .dice import DieSpec
from .system_files import (CancelOut, NarrativeConstants, NarrativeFile, Outcome, PoolFile, Rung, Shorthand,
                    Tier, Versus)
from .parameters import EFFECT_VERBS, MODIFIERS, ChoiceEffects, Effect, ParamSpec
from .references import check_references
from .statistics import STAT_KINDS, STAT_MODIFIERS, StatSpec

__all__ = ["HINTS", "MAX_BOUND", "MAX_FACES", "Bounded", "ExpressionText", "FaceValue", "Names",
           "ParamName", "Scalar", "TotalValue", "When", "DieSpec", "CancelOut", "NarrativeConstants",
           "NarrativeFile", "Outcome", "PoolFile", "Rung", "Shorthand", "Tier", "Versus",
           "EFFECT_VERBS", "MODIFIERS", "ChoiceEffects", "Effect", "ParamSpec", "STAT_KINDS",
           "STAT_MODIFIERS", "StatSpec", "FILE_MODELS", "VARIANT_KEYS", "explain", "validate"]


FILE_MODELS = {"pool": PoolFile, "narrative": NarrativeFile}
VARIANT_KEYS = ("base",)


PATTERNS_IN_WORDS = {ID_PATTERN: "allowed: ASCII letters, digits, '_', '.' and '-', starting "
                                 "with a letter or a digit (the id is typed on command lines)"}
"""What a text entry's pattern allows, in words (pydantic says it as a regular expression)."""


def _where(loc) -> str:
    parts = []
    for part in loc:
        if isinstance(part, int):
            parts[-1:] = [f"{parts[-1] if parts else ''}[{part}]"]
        elif "[" in str(part) or str(part) in ("str", "int", "bool", "list", "dict") \
                or str(part).startswith(("constrained-", "function-")):
            continue  # pydantic's tag of a union member, not a key of the file
        else:
            parts.append(str(part))
    return ".".join(parts) or "(file)"


def explain(error: ValidationError, path) -> DataFileError:
    """The first problem of a validation error, as a :class:`DataFileError`."""
    # The shallowest problem first; within a union of types (a face: a number or a label),
    # the branch that got the right type but a wrong value says more than "not a string".
    first = min(error.errors(), key=lambda e: (e["type"] != "unknown_key", len(e["loc"]),
                                               e["type"].endswith("_type")))
    loc = list(first["loc"])
    if first["type"] == "unknown_key":
        loc.append(first["ctx"]["key"])
    message = first["msg"].removeprefix("Value error, ")
    if first["type"] == "string_pattern_mismatch":   # the pattern said in words
        message = PATTERNS_IN_WORDS.get(first.get("ctx", {}).get("pattern"), message)
    message = re.sub(r" or instance of \w+", "", message).replace("valid dictionary", "table")
    if first["type"] not in ("unknown_key", "value_error", "effect_word") and "input" in first:
        shown = first["input"]
        if not isinstance(shown, (dict, list)) or len(repr(shown)) < 80:
            message += f"; got {shown!r}"
    return DataFileError(path, _where(loc), message)


def validate(data: dict[str, Any], path) -> BaseModel:
    """Check a parsed (and merged) data file, each entry (the models) and then a pool file's
    entries against each other (:mod:`.references`); the model, or a :class:`DataFileError`.

    Example:
        >>> validate({"id": "x", "name": "X", "mechanic": "pool", "dice": {"d6": {"faces": [0, 1]}},
        ...           "dice_count": 3}, "x.toml")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        workbench.errors.DataFileError: x.toml: entry 'dice_count': unknown key 'dice_count' (did you mean 'dice'?); keys here: ...
    """
    mechanic = data.get("mechanic")
    if not isinstance(mechanic, str):
        raise DataFileError(path, "mechanic", "is required (text): pool or narrative"
                            + ("" if mechanic is None else f"; got {mechanic!r}"))
    model = FILE_MODELS.get(mechanic)
    if model is None:
        raise DataFileError(path, "mechanic", f"unknown {mechanic!r}{suggest(mechanic, FILE_MODELS)}; "
                            f"data files use: {', '.join(FILE_MODELS)} (Python mechanics are "
                            "registered with workbench.register_mechanic)")
    try:
        checked = model.model_validate(data)
    except ValidationError as exc:
        raise explain(exc, path) from None
    if isinstance(checked, PoolFile):
        check_references(checked, path)
    return checked
