"""What every entry of a data file is made of: strict tables (an unknown key is an error naming
the keys that exist), bounded numbers, names, ``when`` conditions and expressions' text."""
from __future__ import annotations

from typing import Annotated, Any, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from ...limits import MAX_FACE_VALUE, MAX_SIDES, MAX_TOTAL
from ...validation import suggest
from ..params import shadowing

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"
"""What a system's id may be: ASCII letters, digits, '_', '.' and '-', from a letter or a digit."""

MAX_FACES = MAX_SIDES
"""Most faces a die may have (a die table is a list in the file; this bounds the work)."""
MAX_BOUND = 10**6
"""Largest absolute bound or default a whole-number parameter may declare, and the largest
number an effect may add per point."""

Bounded = Annotated[int, Field(ge=-MAX_BOUND, le=MAX_BOUND)]
FaceValue = Annotated[int, Field(ge=-MAX_FACE_VALUE, le=MAX_FACE_VALUE)]
TotalValue = Annotated[int, Field(ge=-MAX_TOTAL, le=MAX_TOTAL)]
Scalar = Union[bool, Bounded, str]
When = dict[str, Union[Scalar, Annotated[list[Scalar], Field(min_length=1)]]]
"""``when = { PARAM = VALUE }`` or ``{ PARAM = [V1, V2] }``: a list names at least one value."""

HINTS = {
    "constants": " (systems are now described by [dice.NAME] faces and [params.NAME] effects: "
                 "a variant changes those; see data/README.md)",
    "rule_options": " (a rule option is a parameter with rule_option = true)",
}


class _Strict(BaseModel):
    """Unknown keys are errors naming the key, a suggestion and the keys that exist."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for key in data:
                if key not in cls.model_fields:
                    raise PydanticCustomError(
                        "unknown_key", "unknown key '{key}'{hint}; keys here: {known}",
                        {"key": str(key), "hint": HINTS.get(str(key)) or suggest(str(key), cls.model_fields),
                         "known": ", ".join(cls.model_fields)})
        return data


Names = Union[str, list[str]]


def _not_blank(text):
    if isinstance(text, str) and not text.strip():
        raise ValueError("is empty; write an expression such as \"hits >= 2\", or leave the key out")
    return text


ExpressionText = Annotated[str, AfterValidator(_not_blank)]
"""An expression's text where leaving the key out has a meaning of its own (``total``,
``pass_if``, a tier's ``condition``): written empty, it is refused rather than read as left out."""


def _not_shadowing(name: str) -> str:
    problem = shadowing(name)
    if problem is not None:
        raise ValueError(problem)
    return name


ParamName = Annotated[str, AfterValidator(_not_shadowing)]
"""A parameter's name: not one expressions read as the roll itself (``total``, ``face``,
``value``)."""
