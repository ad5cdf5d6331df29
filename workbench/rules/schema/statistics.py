"""``[stats.NAME]``: one statistic of the roll besides the total (exactly one kind, with the
keys that go with it)."""
from __future__ import annotations

from typing import Literal, Union

from pydantic import Field, model_validator

from ._base import MAX_FACES, Names, _Strict


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
