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
    if not isinstance(faces, dict):
        if len(spec.groups) > 1:
            names = ", ".join(d.name for d, _ in spec.groups)
            raise WorkbenchError(f"faces: this pool mixes {names}; give a mapping name -> faces")
        faces = {spec.groups[0][0].name: faces} if spec.groups else {}
    known = {d.name for d, _ in spec.groups}
    for name, given in faces.items():
        if name not in known and len(given):
            raise WorkbenchError(f"faces: the pool has no {name} dice (it has: {', '.join(sorted(known)) or 'none'})")
    totals = []
    succ = fail = used = 0
    rerolls_left = spec.rerolls
    all_failed = spec.dice > 0
    for die, count in spec.groups:
        queue = list(faces.get(die.name, []))
        for f in queue:
            if isinstance(f, bool) or not hasattr(f, "__index__"):
                raise WorkbenchError(f"faces: a face is a whole number, got {f!r}")
        queue = [int(f.__index__()) for f in queue]
        pos = 0

        def take(kind: DieType) -> int:
            nonlocal pos
            if pos >= len(queue):
                raise WorkbenchError(f"faces: {die.name} needs more faces than the {len(queue)} given "
                                     "(exploding faces and rerolls each need one more)")
            face = queue[pos]
            if not 1 <= face <= kind.sides:
                raise WorkbenchError(f"faces: a {kind.name} shows 1 to {kind.sides}, got {face}")
            pos += 1
            return face

        initial = [take(die) for _ in range(count)]
        if spec.keep != "sum":
            ranked = sorted((die.values[f - 1] for f in initial), reverse=spec.keep == "highest")
            totals.append(sum(ranked[:spec.kept]))
        else:
            def chain(face):
                got, kind, extra = [die.values[face - 1]], die, 0
                while kind.explodes[face - 1] and (not die.limit or extra < die.limit):
                    kind = kind.next
                    face = take(kind)
                    extra += 1
                    got.append(kind.values[face - 1])
                return got
            results = [chain(f) for f in initial]
            misses = [i for i, r in enumerate(results) if sum(r) == 0]
            for i in misses[:rerolls_left]:
                results[i] = chain(take(die))
            rerolls_left -= min(len(misses), rerolls_left)
            values = [v for r in results for v in r]
            totals.append(sum(values))
            succ += sum(v for v in values if v > 0)
            fail += sum(-v for v in values if v < 0)
        all_failed = all_failed and all(die.fails[f - 1] for f in initial)
        if pos != len(queue):
            raise WorkbenchError(f"faces: {len(queue) - pos} {die.name} face(s) left over; "
                                 f"the pool rolls {count} {die.name} plus one per explosion or reroll")
        used += pos
    total = sum(totals) + spec.modifier
    if spec.floor is not None:
        total = max(total, spec.floor)
    return RolledPool(total, succ, fail, all_failed, used)
