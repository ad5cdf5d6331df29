"""The one die type every roll is made of, and the d100 read as two dice.

A :class:`Die` lists, per face (face 1 first), its *value* (what it adds to the total and how
it ranks: +1 a success, -1 a cancelling failure, 0 a miss; 1 to 6 on a numbered d6; for
narrative dice the outcome's index), its named *counts* (what else the face scores: ``hits``,
``ones``...) and whether it *explodes* (one more die is rolled, of the type ``into`` or the
same, and its value and counts are added to this die's). Data files, one-line formulas and
Python mechanics all build these; every number is checked here, once, so a face of 0.5 or a
limit of 2.7 is refused on every route instead of being cut to a whole number.

:class:`Percentile` is a d100 read as a tens die and a units die, with bonus or penalty tens
dice.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

import numpy as np

from ..errors import WorkbenchError, shown
from ..limits import MAX_DICE, MAX_FACE_VALUE, MAX_SIDES
from ..validation import is_whole

MAX_EXPLODE_LIMIT = 100
"""Most extra dice ``explode_limit`` may allow one initial die (0: no cap)."""

MAX_TENS_DICE = MAX_DICE
"""Most bonus or penalty tens dice one percentile roll may have."""


class HashedOnce:
    """Mix-in for frozen descriptions: the hash is worked out on first use and kept (the exact
    engine's memo hashes a pool on every check). Never pickled: a string's hash differs
    between processes, so another process works it out again."""

    __slots__ = ()

    def __hash__(self) -> int:
        found = self.__dict__.get("_hash")
        if found is None:
            found = self.__dict__["_hash"] = hash(tuple(getattr(self, f) for f in self._hashed))
        return found

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k not in ("_hash", "_counting", "_faces")}


@dataclass(frozen=True)
class Die(HashedOnce):
    """One kind of die: per face (face 1 first) its value, whether it explodes, its counts.

    Attributes:
        name: the die type's name (``"d6"``); the dice of one roll have different names.
        values: one whole number per face, at most 1,000,000 either way; 1 to 1000 faces.
        explodes: one ``True``/``False`` per face (empty: none explodes). An exploding face
            rolls one more die, of the type ``into`` (``None``: the same type), whose value
            and counts are added to this die's: the whole chain is one die.
        limit: most extra dice one initial die's chain may add (0: no cap; the exact engine
            follows the chain until less than 1e-12 of the probability is left).
        into: the die an explosion rolls (``None``: this one).
        counts: ``(name, scores)`` pairs, or a mapping: what else each face scores besides
            its value (``{"ones": (1, 0, 0, 0, 0, 0)}``).

    Example:
        >>> d6 = Die.threshold("d6", sides=6, success_from=5)
        >>> d6.values
        (0, 0, 0, 0, 1, 1)
        >>> Die.numbered("d4", 4, counts={"fours": [0, 0, 0, 1]}).counts
        (('fours', (0, 0, 0, 1)),)
    """

    name: str
    values: tuple[int, ...]
    explodes: tuple[bool, ...] = ()
    limit: int = 0
    into: "Die | None" = None
    counts: tuple[tuple[str, tuple[int, ...]], ...] = ()
    _hashed = ("name", "values", "explodes", "limit", "into", "counts")
    __hash__ = HashedOnce.__hash__

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise WorkbenchError(f"die name got {shown(self.name)}; allowed: a non-empty text")
        object.__setattr__(self, "values", _face_numbers(self.name, "values", self.values))
        object.__setattr__(self, "counts", _counts(self.name, self.counts, len(self.values)))
        if not self.explodes:
            object.__setattr__(self, "explodes", (False,) * len(self.values))
        elif type(self.explodes) is not tuple or not all(type(flag) is bool for flag in self.explodes):
            if not isinstance(self.explodes, (tuple, list)) or not all(
                    isinstance(flag, (bool, np.bool_)) for flag in self.explodes):
                raise WorkbenchError(f"die {self.name!r}: explodes got {shown(self.explodes)}; "
                                     "allowed: one True or False per face")
            object.__setattr__(self, "explodes", tuple(bool(flag) for flag in self.explodes))
        if len(self.explodes) != len(self.values):
            raise WorkbenchError(f"die '{self.name}': {len(self.values)} face values but "
                                 f"{len(self.explodes)} explode flags")
        if not is_whole(self.limit) or not 0 <= self.limit <= MAX_EXPLODE_LIMIT:
            raise WorkbenchError(f"die '{self.name}': explode_limit got {shown(self.limit)}; "
                                 f"allowed: a whole number from 0 (no cap) to {MAX_EXPLODE_LIMIT}")
        object.__setattr__(self, "limit", int(self.limit))
        if self.into is not None and not isinstance(self.into, Die):
            raise WorkbenchError(f"die '{self.name}': into got {shown(self.into)}; allowed: a "
                                 "Die or None")
        if all(self.explodes) and not self.limit and self.next is self:
            raise WorkbenchError(f"die '{self.name}': every face explodes, so a roll never ends")
        self._name_counts()
        self._tabulate()
        if self.count_names:   # made with the die: a reading that needs none of its counts rolls this
            self.__dict__["_uncounted"] = self.counting_only((), self.into.uncounted if self.into else None)

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._tabulate()

    def _tabulate(self) -> None:
        """The faces as a table, made with the die when it does not explode and its values all
        differ, in order: one row per face (its value) and each face's chance, read-only."""
        values = self.values
        if True in self.explodes or any(a >= b for a, b in zip(values, values[1:])):
            return
        rows = np.array(values, np.int64).reshape(len(values), 1)
        chances = np.full(len(values), 1.0 / len(values))
        rows.setflags(write=False)
        chances.setflags(write=False)
        self.__dict__["_faces"] = (rows, chances)

    @property
    def faces_table(self) -> "tuple[np.ndarray, np.ndarray] | None":
        """``(values, one row per face; chances)`` of a die that does not explode and whose
        values all differ, in order (``None`` for any other die), made with the die.

        Example:
            >>> rows, chances = Die.numbered("d4", 4).faces_table
            >>> rows[:, 0].tolist(), chances.tolist()
            ([1, 2, 3, 4], [0.25, 0.25, 0.25, 0.25])
        """
        return self.__dict__.get("_faces")

    @property
    def uncounted(self) -> "Die":
        """This die scoring no counts (its explosions rolling such dice): itself when it
        scores none.

        Example:
            >>> Die.numbered("d6", 6, counts={"ones": [1, 0, 0, 0, 0, 0]}).uncounted.count_names
            ()
        """
        if not self.count_names:
            return self
        found = self.__dict__.get("_uncounted")
        if found is None:   # a die made from another (counting_only): made again when asked
            found = self.counting_only((), self.into.uncounted if self.into else None)
        return found

    def counting_only(self, counts: tuple, into: "Die | None") -> "Die":
        """This die scoring only ``counts`` (some of its own ``counts`` pairs, in order), its
        explosions rolling ``into`` (its own ``into``, or that die made to count the same):
        made from a die checked already, so not checked again.

        Example:
            >>> d6 = Die.numbered("d6", 6, counts={"ones": [1, 0, 0, 0, 0, 0], "sixes": [0] * 5 + [1]})
            >>> d6.counting_only(d6.counts[1:], None).count_names
            ('sixes',)
        """
        die = object.__new__(Die)
        die.__dict__.update(name=self.name, values=self.values, explodes=self.explodes, limit=self.limit,
                            into=into, counts=tuple(counts))
        if "_faces" in self.__dict__:   # the same faces
            die.__dict__["_faces"] = self.__dict__["_faces"]
        die._name_counts()
        return die

    @classmethod
    def numbered(cls, name: str, sides: int, **options) -> "Die":
        """A die numbered 1 to ``sides`` (``counts``, ``explodes``... as keywords).

        Example:
            >>> Die.numbered("d4", 4).values
            (1, 2, 3, 4)
        """
        if not is_whole(sides) or not 1 <= sides <= MAX_SIDES:
            raise WorkbenchError(f"die {name!r}: sides got {shown(sides)}; allowed: a whole number "
                                 f"from 1 to {MAX_SIDES}")
        return cls(name, tuple(range(1, sides + 1)), **options)

    @classmethod
    def threshold(cls, name: str, sides: int, success_from: int, fail_to: int = 0,
                  explode_from: int = 0) -> "Die":
        """A counting die: faces >= ``success_from`` succeed, faces <= ``fail_to`` fail,
        faces >= ``explode_from`` explode (0 means never)."""
        return _threshold_die(cls, name, sides, success_from, fail_to, explode_from)

    @property
    def next(self) -> "Die":
        """The die an explosion rolls."""
        return self if self.into is None else self.into

    @property
    def plain(self) -> bool:
        """Explodes into itself without a cap (or never): what the simplest kernels handle."""
        return self.into is None and not self.limit

    @property
    def sides(self) -> int:
        return len(self.values)

    @property
    def fails(self) -> tuple[bool, ...]:
        """Faces that are cancelling failures (value below zero)."""
        return tuple(v < 0 for v in self.values)

    @property
    def count_names(self) -> tuple[str, ...]:
        """Counts this die scores, with those of the dice its explosions roll (worked out when
        the die is made: every roll holding it asks)."""
        return self.__dict__["_count_names"]

    def _name_counts(self) -> None:
        names: list[str] = []
        kind, seen = self, set()
        while kind is not None and id(kind) not in seen:
            seen.add(id(kind))
            names += [name for name, _ in kind.counts if name not in names]
            kind = kind.next if any(kind.explodes) else None
        self.__dict__["_count_names"] = tuple(names)

    @property
    def counting_chance(self) -> float | None:
        """For a counting die (every face adds 0 or 1, none explodes), the chance that it
        adds 1; ``None`` for any other die. Worked out once (the exact engine asks on every
        check) and never pickled, like the hash.

        Example:
            >>> Die.threshold("d6", 6, 5).counting_chance, Die("d", (0, 2)).counting_chance
            (0.3333333333333333, None)
        """
        found = self.__dict__.get("_counting", False)
        if found is False:
            values = self.values
            hits = values.count(1)
            counting = True not in self.explodes and hits + values.count(0) == len(values)
            found = self.__dict__["_counting"] = hits / len(values) if counting else None
        return found


def _face_numbers(name: str, what: str, given) -> tuple[int, ...]:
    numbers = tuple(given) if isinstance(given, (tuple, list, np.ndarray)) else None
    if not numbers or len(numbers) > MAX_SIDES:
        raise WorkbenchError(f"die {name!r}: {what} got {shown(given)}; allowed: a tuple of 1 to "
                             f"{MAX_SIDES} face values")
    if all(type(value) is int for value in numbers) and \
            -MAX_FACE_VALUE <= min(numbers) and max(numbers) <= MAX_FACE_VALUE:
        return numbers   # the usual case: plain whole numbers within the limit
    for face, value in enumerate(numbers, 1):
        if not is_whole(value) or abs(value) > MAX_FACE_VALUE:
            raise WorkbenchError(f"die {name!r}: face {face} has value {shown(value)}"
                                 f"{'' if what == 'values' else f' in {what}'}; allowed: a whole "
                                 f"number from -{MAX_FACE_VALUE:,} to {MAX_FACE_VALUE:,}")
    return tuple(int(v) for v in numbers)


def _counts(name: str, given, sides: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    if type(given) is tuple and not given:   # no counts, the usual case
        return given
    pairs = given.items() if isinstance(given, Mapping) else given
    if not isinstance(pairs, (tuple, list, type({}.items()))) or not all(
            isinstance(pair, (tuple, list)) and len(pair) == 2 for pair in pairs):
        raise WorkbenchError(f"die {name!r}: counts got {shown(given)}; allowed: a mapping of "
                             "count names to one score per face")
    out = []
    for count, scores in pairs:
        if not isinstance(count, str) or not count:
            raise WorkbenchError(f"die {name!r}: a count's name got {shown(count)}; allowed: a "
                                 "non-empty text")
        if not (type(scores) is tuple and len(scores) == sides and all(type(score) is int for score in scores)
                and -MAX_FACE_VALUE <= min(scores) and max(scores) <= MAX_FACE_VALUE):   # else checked
            scores = _face_numbers(name, f"count {count!r}", scores)
        if len(scores) != sides:
            raise WorkbenchError(f"die '{name}': count {count!r} has {len(scores)} scores "
                                 f"for {sides} faces; allowed: one per face")
        out.append((count, scores))
    if len({count for count, _ in out}) != len(out):
        raise WorkbenchError(f"die {name!r}: a count is named twice in {shown(given)}")
    return tuple(out)


@lru_cache(maxsize=1024)
def _threshold_die(cls, name, sides, success_from, fail_to, explode_from) -> Die:
    # Cached: curves and tables build the same few dice hundreds of times, and one shared
    # (immutable) object also makes the exact engine's cache lookups cheaper.
    values = tuple(1 if f >= success_from else (-1 if f <= fail_to else 0)
                   for f in range(1, sides + 1))
    explodes = tuple(bool(explode_from) and f >= explode_from for f in range(1, sides + 1))
    return cls(name, values, explodes)


@dataclass(frozen=True)
class Percentile:
    """A d100 roll read as a tens die (00-90) and a units die (0-9); 00 with 0 reads 100.

    ``extra`` more tens dice are rolled with the same units die: bonus dice (``extra > 0``)
    keep the lowest (best) result, penalty dice (``extra < 0``) the highest (worst).

    Example:
        >>> Percentile("d100", extra=1).values
        (1, 100)
    """

    name: str = "d100"
    extra: int = 0
    counts: tuple = ()

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise WorkbenchError(f"die name got {shown(self.name)}; allowed: a non-empty text")
        if not is_whole(self.extra) or abs(self.extra) > MAX_TENS_DICE:
            raise WorkbenchError(f"percentile die {self.name!r}: extra got {shown(self.extra)}; "
                                 f"allowed: a whole number from -{MAX_TENS_DICE} to {MAX_TENS_DICE} "
                                 "(bonus tens dice above 0, penalty dice below)")
        object.__setattr__(self, "extra", int(self.extra))
        if self.counts:
            raise WorkbenchError(f"percentile die {self.name!r}: counts got {shown(self.counts)}; "
                                 "a percentile die scores no counts (read its value instead)")

    @property
    def values(self) -> tuple[int, int]:
        """The lowest and highest result."""
        return (1, 100)

    @property
    def count_names(self) -> tuple[str, ...]:
        return ()
