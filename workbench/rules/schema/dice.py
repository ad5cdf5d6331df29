"""``[dice.NAME]``: a die type, its faces (a value each, numbered, or a percentile die), its
counts and its explosions."""
from __future__ import annotations

from typing import Union

from pydantic import Field, field_validator, model_validator

from ._base import MAX_FACES, Bounded, FaceValue, _Strict


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
