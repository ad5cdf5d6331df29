"""Scoring concrete faces: one roll of a pool, face by face (the rules' worked examples).

The exact engine and the simulators compute over every roll at once; this module follows one
roll as a player would, and is what the seeds' worked examples are tested against.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import WorkbenchError
from ..rules.pool import DieType, PoolSpec


@dataclass(frozen=True)
class RolledPool:
    """The score of concrete faces (see :func:`score_faces`)."""

    total: int
    successes: int
    failures: int
    all_initial_failed: bool
    faces_used: int


def score_faces(spec: PoolSpec, faces) -> RolledPool:
    """Score concrete faces against a pool.

    ``faces`` is a list of faces for a pool of one die type, or a mapping die-name -> list.
    Each list starts with the initial pool's faces in order; then come the extra dice, in the
    order they were rolled: one for each exploding face (extra dice may explode again; an
    extra die of another type, ``explode_into``, still takes its face from this list), then
    one for each reroll of a die that missed (initial dice, first to last; with several die
    types the rerolls go to the first type's misses first).

    Example:
        >>> d6 = DieType.threshold("d6", 6, 4, explode_from=6)
        >>> score_faces(PoolSpec(((d6, 7),)), [2, 6, 4, 5, 1, 3, 4, 4]).total
        5
    """
    faces = _faces_by_die(spec, faces)
    totals = []
    succ = fail = used = 0
    rerolls_left = spec.rerolls
    all_failed = spec.dice > 0
    for die, count in spec.groups:
        queue = _FaceQueue(die, faces.get(die.name, []))
        initial = [queue.take(die) for _ in range(count)]
        if spec.keep != "sum":
            ranked = sorted((die.values[f - 1] for f in initial), reverse=spec.keep == "highest")
            totals.append(sum(ranked[:spec.kept]))
        else:
            results = [queue.chain(f) for f in initial]
            misses = [i for i, r in enumerate(results) if sum(r) == 0]
            for i in misses[:rerolls_left]:
                results[i] = queue.chain(queue.take(die))
            rerolls_left -= min(len(misses), rerolls_left)
            values = [v for r in results for v in r]
            totals.append(sum(values))
            succ += sum(v for v in values if v > 0)
            fail += sum(-v for v in values if v < 0)
        all_failed = all_failed and all(die.fails[f - 1] for f in initial)
        queue.check_all_used(count)
        used += queue.position
    total = sum(totals) + spec.modifier
    if spec.floor is not None:
        total = max(total, spec.floor)
    return RolledPool(total, succ, fail, all_failed, used)


def _faces_by_die(spec: PoolSpec, faces) -> dict:
    """``faces`` as a mapping die name -> faces (a list is the faces of a pool of one die
    type); a name the pool has no dice of is refused."""
    if not isinstance(faces, dict):
        if len(spec.groups) > 1:
            names = ", ".join(d.name for d, _ in spec.groups)
            raise WorkbenchError(f"faces: this pool mixes {names}; give a mapping name -> faces")
        faces = {spec.groups[0][0].name: faces} if spec.groups else {}
    known = {d.name for d, _ in spec.groups}
    for name, given in faces.items():
        if name not in known and len(given):
            raise WorkbenchError(f"faces: the pool has no {name} dice (it has: {', '.join(sorted(known)) or 'none'})")
    return faces


class _FaceQueue:
    """The faces given for one die type, taken in order: the initial dice, then each
    explosion's die and each reroll as they come."""

    def __init__(self, die: DieType, given) -> None:
        for f in given:
            if isinstance(f, bool) or not hasattr(f, "__index__"):
                raise WorkbenchError(f"faces: a face is a whole number, got {f!r}")
        self.die = die
        self.faces = [int(f.__index__()) for f in given]
        self.position = 0

    def take(self, kind: DieType) -> int:
        """The next face, read as a die of ``kind`` (the die an explosion rolls may be
        another type, ``explode_into``)."""
        if self.position >= len(self.faces):
            raise WorkbenchError(f"faces: {self.die.name} needs more faces than the {len(self.faces)} "
                                 "given (exploding faces and rerolls each need one more)")
        face = self.faces[self.position]
        if not 1 <= face <= kind.sides:
            raise WorkbenchError(f"faces: a {kind.name} shows 1 to {kind.sides}, got {face}")
        self.position += 1
        return face

    def chain(self, face: int) -> list[int]:
        """The values of a die showing ``face`` and of the dice its explosions add."""
        die = self.die
        got, kind, extra = [die.values[face - 1]], die, 0
        while kind.explodes[face - 1] and (not die.limit or extra < die.limit):
            kind = kind.next
            face = self.take(kind)
            extra += 1
            got.append(kind.values[face - 1])
        return got

    def check_all_used(self, count: int) -> None:
        """Every face given was read (a face left over is an error, not ignored)."""
        if self.position != len(self.faces):
            raise WorkbenchError(f"faces: {len(self.faces) - self.position} {self.die.name} face(s) "
                                 f"left over; the pool rolls {count} {self.die.name} plus one per "
                                 "explosion or reroll")
