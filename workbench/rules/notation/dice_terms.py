"""One die term of a formula as data-file dice: its faces, rerolls, explosions and clamps.

Foundry VTT applies a term's modifiers in the order written, each to the results there are
at that moment; this module works out what one initial die comes to under ``r``/``rr``,
``x``/``xo`` and ``min``/``max`` as die types of a data file (equally likely faces, each with
a value and whether it explodes):

- ``r`` (reroll once) has no word in the data-file vocabulary: a die whose matching faces are
  rolled once more is written as the die of every (first roll, second roll) pair, equally
  likely, with as few faces as the proportions allow (a d6 with 1s rerolled once: 36 pairs,
  kept as 36 faces; a d100 rerolling 1-10: 10,000 pairs, kept as 1,000). Beyond 1,000 faces (the
  most a die may have) the term is refused.
- ``rr`` (reroll until the result stops matching) removes the matching faces, in proportion.
- ``x`` explodes: an extra die of the raw type is rolled and added to the chain, exploding
  again on the same faces; ``xo`` explodes once. Foundry compares the raw result, so a face
  clamped by ``min`` still explodes on its raw number.
- ``min``/``max`` set what a result counts (Foundry leaves the result itself, which later
  comparisons read, as rolled): before ``x`` only the initial die, after it every die of the
  chain.

Example:
    >>> faces = Faces.numbered(6).rerolled("=", 1, once=True)
    >>> faces.size, sorted(set(faces.values()))
    (36, [1, 2, 3, 4, 5, 6])
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import gcd

from ...limits import MAX_SIDES

COMPARE = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
           "<": lambda a, b: a < b, "=": lambda a, b: a == b}
EXPRESSION_OP = {">=": ">=", "<=": "<=", ">": ">", "<": "<", "=": "=="}
"""A comparison of the formula in the data file's expression language."""


@dataclass(frozen=True)
class Faces:
    """A die as equally likely faces: each face's raw result (what comparisons read), its
    value (what it adds: the raw result unless clamped) and whether it explodes, with how
    many faces show it (``entries``: ``((raw, value, explodes), multiplicity)``)."""

    entries: tuple[tuple[tuple[int, int, bool], int], ...]
    raw: tuple[int, ...]

    @classmethod
    def numbered(cls, sides: int) -> "Faces":
        return cls.of(range(1, sides + 1))

    @classmethod
    def of(cls, raw) -> "Faces":
        raw = tuple(raw)
        return cls(tuple(((v, v, False), 1) for v in raw), raw)._reduced()

    def _reduced(self) -> "Faces":
        merged = Counter()
        for key, m in self.entries:
            merged[key] += m
        g = 0
        for m in merged.values():
            g = gcd(g, m)
        return Faces(tuple(sorted((key, m // g) for key, m in merged.items())), self.raw)

    @property
    def size(self) -> int:
        """Faces the die needs (the sum of the multiplicities)."""
        return sum(m for _, m in self.entries)

    def faces(self) -> list[tuple[int, int, bool]]:
        """Every face, in order: (raw result, value, explodes)."""
        return [key for key, m in self.entries for _ in range(m)]

    def values(self) -> list[int]:
        return [value for _, value, _ in self.faces()]

    def rerolled(self, op: str, target: int, once: bool) -> "Faces":
        """Results matching ``op target`` rolled again on the raw die: once (``r``), or until
        they stop matching (``rr``; ``None`` when every raw face matches)."""
        test = COMPARE[op]
        raw = Counter(self.raw)
        keep = raw if once else Counter({v: m for v, m in raw.items() if not test(v, target)})
        if not keep:
            return None
        width = sum(keep.values())
        out = []
        for (r, value, flag), m in self.entries:
            if test(r, target):
                out += [((v, v, False), m * k) for v, k in keep.items()]
            else:
                out.append(((r, value, flag), m * width))
        return Faces(tuple(out), self.raw)._reduced()

    def exploding(self, op: str, target: int) -> "Faces":
        """Faces whose raw result matches ``op target`` explode."""
        test = COMPARE[op]
        return Faces(tuple(((r, v, test(r, target)), m) for (r, v, _), m in self.entries), self.raw)._reduced()

    def clamped(self, low: int | None, high: int | None) -> "Faces":
        """Each face's value kept within ``low`` .. ``high`` (its raw result unchanged)."""
        def clamp(v):
            if low is not None and v < low:
                v = low
            if high is not None and v > high:
                v = high
            return v
        return Faces(tuple(((r, clamp(v), f), m) for (r, v, f), m in self.entries), self.raw)._reduced()

    @property
    def plain(self) -> bool:
        """Faces 1..N, each once, valued as rolled: written ``sides = N`` in the file."""
        numbered = self.raw == tuple(range(1, len(self.raw) + 1))
        return numbered and len(self.entries) == len(self.raw) and all(
            m == 1 and r == v == i for i, ((r, v, _), m) in enumerate(self.entries, start=1))

    @property
    def explodes(self) -> list[int]:
        """The exploding faces (face 1 first)."""
        return [i for i, (_, _, flag) in enumerate(self.faces(), start=1) if flag]

    @property
    def every_face_explodes(self) -> bool:
        return all(flag for (_, _, flag), _ in self.entries)

    def value_range(self) -> tuple[int, int]:
        values = [v for (_, v, _), _ in self.entries]
        return min(values), max(values)


def too_many_faces(faces: Faces) -> bool:
    return faces.size > MAX_SIDES


def score(op: str | None, target: int | None, double: tuple | None, deduct: tuple | None,
          value: int) -> int:
    """What one result adds to a counting term: 1 or 0 under ``cs`` (its value without),
    times 2 under ``dbl``, -1 under ``df``."""
    out = int(COMPARE[op](value, target)) if op is not None else value
    if double is not None and COMPARE[double[0]](value, double[1]):
        out *= 2
    if deduct is not None and COMPARE[deduct[0]](value, deduct[1]):
        out = -1
    return out


def score_as_rolled(targets: dict, raw: int, value: int) -> int:
    """What one result scores in a statistic, ``targets`` ``{"count"|"double"|"deduct": (op,
    target)}`` compared with the result as rolled (``raw``), ``value`` what it counts after
    ``min``/``max``: 1 or 0 under ``cs`` (else its value), twice under ``dbl``, -1 under ``df``.

    Example:
        >>> score_as_rolled({"count": ("=", 1)}, 1, 2), score_as_rolled({"double": ("=", 6)}, 6, 5)
        (1, 10)
    """
    count, double, deduct = (targets.get(k) for k in ("count", "double", "deduct"))
    out = int(COMPARE[count[0]](raw, count[1])) if count is not None else value
    if double is not None and COMPARE[double[0]](raw, double[1]):
        out *= 2
    if deduct is not None and COMPARE[deduct[0]](raw, deduct[1]):
        out = -1
    return out
