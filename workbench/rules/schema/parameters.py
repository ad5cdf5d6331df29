"""``[params.NAME]``: a parameter (a whole number, true/false or one of its choices) and its
effects, each one verb of a fixed vocabulary scaled by the parameter's points."""
from __future__ import annotations

from typing import Literal, Union

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from ...limits import MAX_CHOICES, MAX_EFFECTS, MAX_SIDES
from ...validation import suggest
from ._base import MAX_BOUND, Bounded, FaceValue, Names, Scalar, When, _Strict

EFFECT_VERBS = ("add_dice", "add_to_total", "add_to_target", "reroll_misses", "shift_faces",
                "keep_highest", "keep_lowest", "explode", "explode_from", "cancel", "cancel_up_to",
                "target", "obstacle", "remove_floor", "ties", "tens_dice", "reroll")
"""What a parameter can do, per point (see data/README.md, "Parameters and effects")."""

MODIFIERS = {
    "keep_at_least": ("add_dice",),
    "lowest": ("explode_from", "cancel_up_to"),
    "dice": ("explode", "cancel", "reroll"),
    "if_roll": ("reroll",),
    "per_point": ("add_dice", "add_to_total", "add_to_target", "reroll_misses", "shift_faces",
                  "keep_highest", "keep_lowest", "tens_dice"),
    "past": ("add_dice", "add_to_total", "add_to_target", "reroll_misses", "shift_faces",
             "keep_highest", "keep_lowest", "explode", "cancel", "remove_floor", "ties", "reroll"),
    "points": ("add_dice", "add_to_total", "add_to_target", "reroll_misses", "shift_faces",
               "keep_highest", "keep_lowest", "explode", "cancel", "remove_floor", "ties", "tens_dice",
               "reroll"),
}
"""Which effect words each modifier goes with (anything else is a mistake in the file)."""


class Effect(_Strict):
    """One thing a parameter does, scaled by its points (exactly one verb per table)."""

    add_dice: str | None = None
    add_to_total: Bounded | None = None
    add_to_target: Bounded | None = None
    reroll_misses: bool | None = None
    shift_faces: Names | None = None
    keep_highest: str | None = None
    keep_lowest: str | None = None
    explode: list[Bounded] | None = None
    explode_from: Names | None = None
    cancel: list[Bounded] | None = None
    cancel_up_to: Names | None = None
    target: bool | None = None
    obstacle: bool | None = None
    remove_floor: bool | None = None
    ties: Literal["actor", "reactor"] | None = None
    tens_dice: str | None = None
    reroll: list[Bounded] | None = Field(None, min_length=1)
    # modifiers
    if_roll: str | None = None
    points: Union[int, str, None] = None
    per_point: Bounded = 1
    past: int = Field(0, ge=0, le=MAX_BOUND)
    keep_at_least: int = Field(0, ge=0, le=MAX_BOUND)
    dice: Names | None = None
    lowest: int | None = Field(None, ge=1, le=MAX_SIDES)
    when: When = {}

    @model_validator(mode="after")
    def _one_verb(self):
        verbs = [v for v in EFFECT_VERBS if getattr(self, v) is not None]
        if len(verbs) != 1:
            raise ValueError(f"needs exactly one of {', '.join(EFFECT_VERBS)}; got "
                             f"{', '.join(verbs) or 'none'}")
        verb = verbs[0]
        if getattr(self, verb) is False:   # acted as true: reroll_misses = false rerolled
            raise ValueError(f"{verb} = false has no meaning: an effect is what each point of the "
                             f"parameter does; allowed: {verb} = true, or leave the effect out ('when' "
                             "limits when it applies)")
        for modifier, allowed in MODIFIERS.items():
            if modifier in self.model_fields_set and verb not in allowed:
                raise ValueError(f"{modifier} does not apply to {verb}; it goes with {', '.join(allowed)}")
        return self

    @property
    def verb(self) -> str:
        return next(v for v in EFFECT_VERBS if getattr(self, v) is not None)

    @property
    def argument(self):
        return getattr(self, self.verb)


def _effect_list(value):
    """``effect = "target"``, ``effect = {...}`` or ``effect = [{...}, ...]`` -> a list."""
    if value is None:
        return []
    if isinstance(value, str):
        if value not in ("target", "obstacle", "reroll_misses", "remove_floor"):
            hint = (" needs a value: write it as a table such as { " + value + " = ... }"
                    if value in EFFECT_VERBS else " is not an effect" + suggest(value, EFFECT_VERBS))
            raise PydanticCustomError(
                "effect_word", "'{value}'{hint}; words that stand alone: target, obstacle, "
                "reroll_misses, remove_floor", {"value": value, "hint": hint})
        return [{value: True}]
    if isinstance(value, dict):
        return [value]
    return value


class ChoiceEffects(_Strict):
    """What one choice of a choice parameter does: die faces replaced, effects at one point."""

    faces: dict[str, list[Union[FaceValue, str]]] = {}
    effect: list[Effect] = Field([], max_length=MAX_EFFECTS)

    _effects = field_validator("effect", mode="before")(lambda cls, v: _effect_list(v))


class ParamSpec(_Strict):
    """``[params.NAME]``: a whole number (min/max), true/false, or one of ``choices``."""

    default: Scalar | None = None
    min: int | None = Field(None, ge=-MAX_BOUND, le=MAX_BOUND)
    max: int | None = Field(None, ge=-MAX_BOUND, le=MAX_BOUND)
    choices: list[Union[str, Bounded]] | None = Field(None, max_length=MAX_CHOICES)
    optional: bool = False
    rule_option: bool = False
    help: str = ""
    effect: list[Effect] = Field([], max_length=MAX_EFFECTS)
    on: dict[str, ChoiceEffects] = {}

    _effects = field_validator("effect", mode="before")(lambda cls, v: _effect_list(v))

    @model_validator(mode="after")
    def _consistent(self):
        if self.choices is not None:
            if not self.choices or len(set(map(str, self.choices))) != len(self.choices):
                raise ValueError("choices must be a non-empty list without repeats")
            if self.min is not None or self.max is not None:
                raise ValueError("a choice parameter has no min or max")
            if self.default is not None and self.default not in self.choices:
                raise ValueError(f"default {self.default!r} is not one of the choices {self.choices}")
            unknown = [k for k in self.on if k not in map(str, self.choices)]
            if unknown:
                raise ValueError(f"'on' names {unknown[0]!r}, which is not one of the choices {self.choices}")
        elif self.on:
            raise ValueError("'on' (what each choice does) needs 'choices'")
        elif isinstance(self.default, str):
            raise ValueError(f"default {self.default!r} is text: a parameter without choices takes a "
                             "whole number or true/false")
        if isinstance(self.default, bool) and (self.min is not None or self.max is not None):
            raise ValueError("a true/false parameter has no min or max")
        if self.default is None and not self.optional and self.choices is None:
            raise ValueError("needs a default (or optional = true for 'not given')")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}")
        if isinstance(self.default, int) and not isinstance(self.default, bool):
            if (self.min is not None and self.default < self.min) or (
                    self.max is not None and self.default > self.max):
                raise ValueError(f"default {self.default} is outside min {self.min} .. max {self.max}")
        return self

    @property
    def kind(self) -> str:
        if self.choices is not None:
            return "choice"
        return "bool" if isinstance(self.default, bool) else "int"
