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
from typing import Annotated, Any, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError

from ..errors import DataFileError
from .params import shadowing
from ..validation import suggest  # noqa: F401  (the file checks' did-you-mean)
from ..limits import (MAX_CHOICES, MAX_DIE_TYPES, MAX_EFFECTS, MAX_FACE_VALUE, MAX_PARAMS,
                      MAX_RUNGS, MAX_SIDES, MAX_TIERS, MAX_TOTAL)

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

EFFECT_VERBS = ("add_dice", "add_to_total", "add_to_target", "reroll_misses", "shift_faces",
                "keep_highest", "keep_lowest", "explode", "explode_from", "cancel", "cancel_up_to",
                "target", "obstacle", "remove_floor", "ties", "tens_dice", "reroll")
"""What a parameter can do, per point (see data/README.md, "Parameters and effects")."""


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


def _names(value) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


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


class DieSpec(_Strict):
    """``[dice.NAME]``: the value of each face (face 1 first) and its explosions; or
    ``sides = N`` for faces numbered 1 to N; or ``percentile = true`` for a d100 read as a
    tens and a units die. ``counts`` name what else a face scores; ``count`` dice of the type
    are rolled in every check (parameters' effects add and remove more)."""

    faces: list[Union[FaceValue, str]] | None = Field(None, min_length=1, max_length=MAX_FACES)
    sides: int | None = Field(None, ge=1, le=MAX_FACES)
    percentile: bool = False
    count: int = Field(0, ge=0, le=1000)
    counts: dict[str, Union[list[FaceValue], str]] = {}
    explode: list[Bounded] = []
    explode_limit: int = Field(0, ge=0, le=100)
    explode_into: str | None = None

    @field_validator("counts", mode="before")
    @classmethod
    def _whole_scores(cls, counts):
        """Each count: whole numbers, one per face, or an expression (pydantic alone said
        "Input should be a valid string" of a list holding 1.5)."""
        for name, scores in counts.items() if isinstance(counts, dict) else ():
            bad = next(((f"[{i}]", v) for i, v in enumerate(scores)
                        if isinstance(v, bool) or not isinstance(v, int)), None) \
                if isinstance(scores, list) else None if isinstance(scores, str) else ("", scores)
            if bad is not None:
                raise ValueError(f"counts.{name}{bad[0]}: got {bad[1]!r}; allowed: one whole number "
                                 "per face (e.g. [1, 0, 0, 0, 0, 0]), or an expression such as "
                                 "\"face >= 5\"")
        return counts

    @field_validator("explode")
    @classmethod
    def _faces_exist(cls, explode, info):
        sides = len(info.data.get("faces") or ()) or info.data.get("sides") or 0
        bad = [f for f in explode if not 1 <= f <= sides]
        if sides and bad:
            raise ValueError(f"face {bad[0]} cannot explode: the die has faces 1 to {sides}")
        return explode

    @model_validator(mode="after")
    def _one_form(self):
        given = [k for k in ("faces", "sides", "percentile") if getattr(self, k) not in (None, False)]
        if len(given) != 1:
            raise ValueError("needs exactly one of faces (the value of each face), sides (faces "
                             f"numbered 1 to N) or percentile = true; got {', '.join(given) or 'none'}")
        if self.percentile and (self.explode or self.counts or self.explode_into):
            raise ValueError("a percentile die neither explodes nor counts (read its result with "
                             "[stats] expressions instead)")
        for name, scores in self.counts.items():
            if isinstance(scores, list) and len(scores) != self.face_count:
                raise ValueError(f"counts.{name} has {len(scores)} scores, but the die has "
                                 f"{self.face_count} faces; allowed: one score per face, or an "
                                 "expression such as \"face >= 5\"")
        return self

    @property
    def face_count(self) -> int:
        """Faces of the die (100 for a percentile die)."""
        return 100 if self.percentile else (self.sides or len(self.faces))

    @property
    def face_values(self) -> list:
        """Each face's value as written (numbered dice: the face's number)."""
        return list(self.faces) if self.faces is not None else list(range(1, self.face_count + 1))


def _not_blank(text):
    if isinstance(text, str) and not text.strip():
        raise ValueError("is empty; write an expression such as \"hits >= 2\", or leave the key out")
    return text


ExpressionText = Annotated[str, AfterValidator(_not_blank)]


def _not_shadowing(name: str) -> str:
    problem = shadowing(name)
    if problem is not None:
        raise ValueError(problem)
    return name


ParamName = Annotated[str, AfterValidator(_not_shadowing)]
"""A parameter's name: not one expressions read as the roll itself (``total``, ``face``,
``value``)."""
"""An expression's text where leaving the key out has a meaning of its own (``total``,
``pass_if``, a tier's ``condition``): written empty, it is refused rather than read as left out."""


class Tier(_Strict):
    """``[[tiers]]``: a named range of totals; the first tier that fits a roll names it."""

    name: str = Field(min_length=1)
    min: TotalValue | None = None
    max: TotalValue | None = None
    all_negative: bool | None = None
    condition: ExpressionText | None = None
    passes: bool = True
    when: When = {}

    @model_validator(mode="after")
    def _range(self):
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}: the tier could never "
                             "name a roll; allowed: min <= max")
        return self

    def shadows(self, later: "Tier") -> bool:
        """Whether this tier, listed first, names some roll that ``later`` also fits, under
        the same conditions (then ``later`` never gets those totals)."""
        low = max(-10**9 if self.min is None else self.min, -10**9 if later.min is None else later.min)
        high = min(10**9 if self.max is None else self.max, 10**9 if later.max is None else later.max)
        return (low <= high and self.all_negative == later.all_negative
                and self.condition is None and later.condition is None
                and (not self.when or self.when == later.when))


class Rung(_Strict):
    """``[[ladder]]``: one difficulty step, setting and adding parameter values."""

    name: str = Field(min_length=1)
    set: dict[str, Scalar] = {}
    add: dict[str, Bounded] = {}
    example: str = ""


class Shorthand(_Strict):
    """``[shorthand.NAME]``: a value such as ``B5`` sets a choice and a count at once."""

    choice: str
    count: str


class CancelOut(_Strict):
    """``[[cancel_out]]``: two parameters whose points cancel one for one before anything else."""

    params: list[str] = Field(min_length=2, max_length=2)
    when: When = {}

    @field_validator("params")
    @classmethod
    def _two_parameters(cls, params):
        if params[0] == params[1]:
            raise ValueError(f"names {params[0]!r} twice; allowed: two different whole-number "
                             "parameters whose points cancel each other")
        return params


class Versus(_Strict):
    """``[versus]``: opposed checks, each reactor success cancelling one of the actor's."""

    ties: Literal["actor", "reactor"]
    uncontested: Literal["counts", "passes"] = "counts"


class Outcome(_Strict):
    """``[outcome]``: labels for the totals 0, 1, ... (narrative faces) and the first passing one."""

    labels: list[str] = Field(min_length=1, max_length=MAX_SIDES)
    pass_from: str | None = None

    @model_validator(mode="after")
    def _known(self):
        if len(set(self.labels)) != len(self.labels):
            raise ValueError("labels must differ from each other")
        if self.pass_from is not None and self.pass_from not in self.labels:
            raise ValueError(f"pass_from {self.pass_from!r} is not one of the labels {self.labels}")
        return self


class _Common(_Strict):
    id: str = Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    name: str = Field(min_length=1)
    mechanic: str
    aliases: list[str] = []
    seed: str = ""
    description: str = ""
    pool_parameter: str | None = None
    defaults: dict[str, Scalar] = {}
    ladder: list[Rung] = Field([], max_length=MAX_RUNGS)

    @field_validator("ladder")
    @classmethod
    def _unique_rungs(cls, ladder):
        names = [r.name.lower() for r in ladder]
        for name in names:
            if names.count(name) > 1:
                raise ValueError(f"two rungs are named {name!r}; rung names must differ")
        return ladder


STAT_KINDS = ("keep", "drop", "pick", "beats", "pairs", "largest_set", "sets", "sum", "expression")
"""What a statistic can be (see data/README.md, "Statistics")."""

STAT_MODIFIERS = {
    "count": ("keep", "drop"),
    "skip": ("keep",),
    "score": ("keep", "drop"),
    "position": ("pick",),
    "ties": ("pairs",),
    "dice": ("keep", "drop", "pick", "beats", "pairs", "largest_set", "sets", "sum"),
}
"""Which keys go with which kind of statistic (anything else is a mistake in the file)."""


class StatSpec(_Strict):
    """``[stats.NAME]``: one statistic of the roll besides the total (exactly one kind)."""

    keep: Literal["highest", "lowest", "middle"] | None = None
    drop: Literal["highest", "lowest"] | None = None
    pick: Literal["highest", "lowest", "middle"] | None = None
    beats: Names | None = None
    pairs: Names | None = None
    largest_set: Literal["size", "value"] | None = None
    sets: int | None = Field(None, ge=1, le=MAX_FACES)
    sum: str | None = None
    expression: str | None = None
    # modifiers
    count: Union[int, str] = 1
    skip: Union[int, str] = 0
    score: str = "value"
    position: Union[int, str] = 1
    ties: Literal["win", "lose"] = "lose"
    dice: Names | None = None

    @model_validator(mode="after")
    def _one_kind(self):
        kinds = [k for k in STAT_KINDS if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(f"needs exactly one of {', '.join(STAT_KINDS)}; got "
                             f"{', '.join(kinds) or 'none'}")
        kind = kinds[0]
        for modifier, allowed in STAT_MODIFIERS.items():
            if modifier in self.model_fields_set and kind not in allowed:
                raise ValueError(f"{modifier} does not go with {kind}; it goes with {', '.join(allowed)}")
        for modifier, of, plain in (("skip", self.keep, 0), ("position", self.pick, 1)):
            if of == "middle" and getattr(self, modifier) != plain:   # was silently dropped
                raise ValueError(f"{modifier} does not go with {kind} = \"middle\" (the middle dice are "
                                 f"counted from both ends); it goes with {kind} = \"highest\" or \"lowest\"")
        if kind in ("beats", "pairs") and self.dice is None:
            raise ValueError(f"{kind} compares two sets of dice: name the first with dice = \"TYPE\" "
                             f"and the second with {kind} = \"TYPE\"")
        for modifier, low in (("count", 0), ("skip", 0), ("position", 1)):
            number = getattr(self, modifier)
            if isinstance(number, int) and not low <= number <= MAX_FACES:
                raise ValueError(f"{modifier} {number} is outside {low} .. {MAX_FACES}")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in STAT_KINDS if getattr(self, k) is not None)


class PoolFile(_Common):
    """A ``mechanic = "pool"`` system: dice, parameters and outcome, all in data."""

    dice: dict[str, DieSpec] = Field(min_length=1, max_length=MAX_DIE_TYPES)
    params: dict[ParamName, ParamSpec] = Field({}, max_length=MAX_PARAMS)
    tiers: list[Tier] = Field([], max_length=MAX_TIERS)
    tier_order: list[str] = Field([], max_length=MAX_TIERS)
    outcome: Outcome | None = None
    versus: Versus | None = None
    floor: TotalValue | None = None
    cancel_out: list[CancelOut] = Field([], max_length=MAX_EFFECTS)
    shorthand: dict[str, Shorthand] = {}
    stats: dict[str, StatSpec] = {}
    total: ExpressionText | None = None
    ceiling: TotalValue | None = None
    pass_if: ExpressionText | None = None
    again_if: ExpressionText | None = None
    again_limit: int = Field(0, ge=0, le=100)

    @model_validator(mode="after")
    def _limit_with_again(self):
        if "again_limit" in self.model_fields_set and self.again_if is None:
            raise ValueError("again_limit caps the rolls made again, but no again_if says when the "
                             "roll is made again; allowed: again_if = \"CONDITION\" beside it, or "
                             "no again_limit")
        return self

    @model_validator(mode="after")
    def _every_tier_ranked_once(self):
        """``tier_order`` (worst to best) names each tier exactly once, or is left out."""
        if not self.tier_order:
            return self
        names = list(dict.fromkeys(t.name for t in self.tiers))
        twice = [n for i, n in enumerate(self.tier_order) if n in self.tier_order[:i]]
        unknown = [n for n in self.tier_order if n not in names]
        missing = [n for n in names if n not in self.tier_order]
        if twice or unknown or missing:
            said = "; ".join(filter(None, [twice and f"{twice[0]!r} is named twice",
                                           unknown and f"{unknown[0]!r} is no tier",
                                           missing and f"{missing[0]!r} is missing"]))
            allowed = (f"every tier's name once, worst first ({', '.join(map(repr, names))} in some "
                       "order)" if names else "no tier_order: the file has no [[tiers]] to rank")
            raise ValueError(f"tier_order {self.tier_order!r}: {said}; allowed: {allowed}")
        return self

    @model_validator(mode="after")
    def _floor_below_ceiling(self):
        if self.floor is not None and self.ceiling is not None and self.floor > self.ceiling:
            raise ValueError(f"floor {self.floor} is above ceiling {self.ceiling}; allowed: floor <= ceiling")
        return self

    @property
    def rolls_statistics(self) -> bool:
        """Whether the file says more than a sum of per-die scores (then the roll engine
        computes it; otherwise the seeds' fast path does)."""
        return bool(self.stats or self.total or self.ceiling is not None or self.pass_if or self.again_if
                    or any(t.condition for t in self.tiers)
                    or any(e.if_roll for spec in self.params.values()
                           for e in [*spec.effect, *(e for sub in spec.on.values() for e in sub.effect)])
                    or any(d.counts or d.percentile for d in self.dice.values()))

    @field_validator("tiers")
    @classmethod
    def _no_overlap(cls, tiers):
        for i, later in enumerate(tiers):
            for j, first in enumerate(tiers[:i]):
                if first.shadows(later):
                    raise ValueError(
                        f"tiers[{i}] {later.name!r} overlaps tiers[{j}] {first.name!r} (totals "
                        f"{_span(first)} and {_span(later)}); the first tier that fits names a roll, "
                        "so the later one would be cut short; allowed: ranges that do not overlap "
                        "(or that differ in all_negative / when)")
        return tiers


class NarrativeConstants(_Strict):
    outcomes: list[str] = Field(min_length=1)
    pass_from: str
    default_die: str
    spectrum: list[int] = Field([1, 3], min_length=2, max_length=2)
    d6_faces: list[str] = Field(min_length=1, max_length=MAX_FACES)
    dice: dict[str, list[str]] = Field(min_length=1)


class NarrativeFile(_Common):
    """The Erzählspiel mechanic: coloured dice whose faces are outcome labels."""

    constants: NarrativeConstants


def _span(tier: Tier) -> str:
    if tier.min is None:
        return "every total" if tier.max is None else f"up to {tier.max}"
    return f"{tier.min} and up" if tier.max is None else f"{tier.min} to {tier.max}"


FILE_MODELS = {"pool": PoolFile, "narrative": NarrativeFile}
VARIANT_KEYS = ("base",)


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
    message = re.sub(r" or instance of \w+", "", message).replace("valid dictionary", "table")
    if first["type"] not in ("unknown_key", "value_error", "effect_word") and "input" in first:
        shown = first["input"]
        if not isinstance(shown, (dict, list)) or len(repr(shown)) < 80:
            message += f"; got {shown!r}"
    return DataFileError(path, _where(loc), message)


def validate(data: dict[str, Any], path) -> BaseModel:
    """Check a parsed (and merged) data file; the model, or a :class:`DataFileError`.

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
        return model.model_validate(data)
    except ValidationError as exc:
        raise explain(exc, path) from None
