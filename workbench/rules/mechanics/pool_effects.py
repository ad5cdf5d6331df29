"""What one check's parameters make of a pool file's dice: the effects that apply, each verb
done by its own small handler (:data:`HANDLERS`), gathered into a :class:`CompiledCheck`.

Order in which a die's faces are built (documented in data/README.md): the die's ``faces``,
with any choice's ``faces`` replacing them; ``shift_faces`` moves the value table;
``cancel`` / ``cancel_up_to`` faces score -1; ``explode`` / ``explode_from`` add exploding
faces to the die's own ``explode``. Dice counts: every addition first, then removals in the
order parameters are declared. The effects that say what passes (``target``, ``obstacle``,
``add_to_target``) are read by :mod:`.pool_reading`; here a second parameter setting the
target is refused.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, NamedTuple

from .._entries import names
from .pool_plan import EffectPlan

Blame = tuple[str, str]
"""(parameter, the file's entry of its effect): who an error about a check names."""


@dataclass(frozen=True)
class CompiledCheck:
    """What a pool file's dice come to for one check's parameters."""

    faces: Mapping[str, tuple[int, ...]]
    """Each die type's values, face 1 first (a choice's ``faces`` in place of the file's)."""
    shift: Mapping[str, int]
    """How far each die type's value table moves (``shift_faces``)."""
    cancel: Mapping[str, frozenset[int]]
    """Faces (1 first) that score -1 (``cancel``, ``cancel_up_to``)."""
    explode: Mapping[str, frozenset[int]]
    """Faces that explode: the die's own and those effects add."""
    counts: Mapping[str, int]
    """Dice of each type rolled (before ``keep_highest`` / ``keep_lowest`` add extra dice)."""
    tens: Mapping[str, int]
    """Bonus (+) or penalty (-) tens dice of each percentile die (``tens_dice``)."""
    rerolls: int
    """Misses rolled once more (``reroll_misses``)."""
    modifier: int
    """Added to the total (``add_to_total``)."""
    floor: int | None
    """The lowest total (``None``: no floor, or ``remove_floor``)."""
    ties: str | None
    """Who wins a tied opposed check (``ties``; ``None``: no ``[versus]`` table)."""
    keep: tuple[tuple[str, str, int, str, str], ...]
    """``keep_highest`` / ``keep_lowest``: (verb, die type, points, parameter, entry)."""
    again: Mapping[str, frozenset[int]]
    """Faces of each die type rerolled after the roll (``reroll``)."""
    again_if: tuple[tuple[str, str, str | None], ...]
    """Each ``reroll`` effect's (parameter, entry, ``if_roll`` condition)."""
    reroll_sources: tuple[Blame, ...]
    modifier_sources: tuple[Blame, ...]
    explode_sources: Mapping[str, tuple[Blame, ...]]
    """Per die type, the effects that make its faces explode."""


class _Compiling:
    """A :class:`CompiledCheck` being gathered, effect after effect: the file's own (its
    dice as written, :func:`written_check`) changed by each effect that applies. Sets of faces
    are frozen sets replaced as effects add to them (the file's are shared, never changed)."""

    __slots__ = ("faces", "shift", "cancel", "explode", "adds", "tens", "floor", "ties", "removals",
                 "rerolls", "modifier", "keep", "again", "again_if", "reroll_sources", "modifier_sources",
                 "explode_sources", "target_setter")

    def __init__(self, base: CompiledCheck, faces: Mapping[str, tuple[int, ...]]):
        self.faces = faces
        self.shift, self.cancel, self.explode = dict(base.shift), dict(base.cancel), dict(base.explode)
        self.adds, self.tens = dict(base.counts), dict(base.tens)
        self.floor, self.ties = base.floor, base.ties
        self.removals: list[tuple[str, int, int]] = []
        self.rerolls = self.modifier = 0
        self.keep: list = []
        self.again: dict[str, frozenset[int]] = {}
        self.again_if: list = []
        self.reroll_sources: list = []
        self.modifier_sources: list = []
        self.explode_sources: dict[str, list] = {}
        self.target_setter: str | None = None
        """The first parameter whose value is the target (a second one is refused)."""

    def done(self) -> CompiledCheck:
        counts = self.adds
        for die, n, keep_at_least in self.removals:
            counts[die] = max(counts[die] - n, min(counts[die], keep_at_least))
        return _made(
            faces=self.faces, shift=self.shift, cancel=self.cancel, explode=self.explode,
            counts=counts, tens=self.tens, rerolls=self.rerolls, modifier=self.modifier, floor=self.floor,
            ties=self.ties, keep=tuple(self.keep), again=self.again, again_if=tuple(self.again_if),
            reroll_sources=tuple(self.reroll_sources), modifier_sources=tuple(self.modifier_sources),
            explode_sources={die: tuple(found) for die, found in self.explode_sources.items()})


def _made(**fields) -> CompiledCheck:
    """A :class:`CompiledCheck` of these fields (every one given, each made here): filled in at
    once rather than field by field through the frozen dataclass's ``__init__``."""
    check = object.__new__(CompiledCheck)
    check.__dict__.update(fields)
    return check


def written_check(model, values: Mapping[str, tuple[int, ...]]) -> CompiledCheck:
    """What a pool file's dice come to when no effect applies: each die type's faces, counts
    and exploding faces as the file writes them (made once, when the file loads; every check
    starts from it)."""
    dice = model.dice
    return CompiledCheck(
        faces=dict(values), shift=dict.fromkeys(dice, 0), cancel={d: frozenset() for d in dice},
        explode={d: frozenset(dice[d].explode) for d in dice}, counts={d: dice[d].count for d in dice},
        tens=dict.fromkeys(dice, 0), rerolls=0, modifier=0, floor=model.floor,
        ties=model.versus.ties if model.versus else None, keep=(), again={}, again_if=(),
        reroll_sources=(), modifier_sources=(), explode_sources={})


class Step(NamedTuple):
    """One effect applying to one check, as its handler reads it."""

    plan: EffectPlan
    p: Mapping[str, Any]
    name: str
    """The parameter whose effect it is."""
    verb: str
    argument: Any
    effect: Any
    entry: str
    points: int
    """The parameter's points (or the effect's own ``points``)."""
    n: int
    """What the effect counts for: :func:`~.pool_plan.per_point` of the points."""
    dice: tuple[str, ...]
    """The die types it acts on: its ``dice``, else every die type of the file."""


class PreparedStep(NamedTuple):
    """One planned effect as each check reads it, worked out when the file loads: its
    handler, where it is written, its ``when``, whether it has points of its own, and what a
    point counts for (:func:`~.pool_plan.per_point`: past, per point), the dice it acts on."""

    handler: Callable
    verb: str
    argument: Any
    effect: Any
    entry: str
    when: Any
    own_points: bool
    past: int
    per_point: int
    dice: tuple[str, ...]


class PreparedPlan(NamedTuple):
    """Every parameter's effects (and every choice's), prepared (:class:`PreparedStep`)."""

    effects: dict[str, tuple[PreparedStep, ...]]
    choices: dict[str, dict[str, tuple[PreparedStep, ...]]]
    adds_only: tuple[tuple[str, str], ...] | None = None
    """When every effect is a parameter adding its value in dice of one type (no choice, no
    ``when``, no points of its own, no cancelling): each such (parameter, die type), in order;
    else ``None``."""


def prepared_plan(plan: EffectPlan) -> PreparedPlan:
    """The plan's effects as each check reads them (made once, when the file loads)."""
    def steps(planned) -> tuple[PreparedStep, ...]:
        return tuple(PreparedStep(HANDLERS[verb], verb, argument, effect, entry, effect.when,
                                  effect.points is not None, effect.past, effect.per_point,
                                  names(effect.dice) if effect.dice is not None else plan.die_names)
                     for verb, argument, effect, entry in planned)
    effects = {name: steps(planned) for name, planned in plan.effects.items()}
    adds_only = None
    if not plan.choice_names and not plan.cancel_out and all(
            kind != "choice" and len(effects[name]) == 1 and _plain_add(effects[name][0])
            for name, kind in plan.effectful):
        adds_only = tuple((name, effects[name][0].argument) for name, _ in plan.effectful)
    return PreparedPlan(effects, {name: {choice: steps(sub.effects) for choice, sub in subs.items()}
                                  for name, subs in plan.choices.items()}, adds_only)


def _plain_add(step: PreparedStep) -> bool:
    """Whether a step adds the parameter's value in dice, as it is."""
    return step.handler is _add_dice and not step.when and not step.own_points \
        and step.past == 0 and step.per_point == 1


def compile_check(plan: EffectPlan, prepared: PreparedPlan, written: CompiledCheck,
                  p: Mapping[str, Any]) -> CompiledCheck:
    """The dice of a pool file (``written``: its dice as the file writes them,
    :func:`written_check`) for the parameters ``p``: every effect that applies done by its
    verb's handler, in the order the parameters and their effects are declared (a choice's
    effects at one point, a parameter's at its points after ``[[cancel_out]]``; ``prepared``:
    :func:`prepared_plan`). With no choice replacing faces and no effect applying, that is
    ``written`` itself."""
    faces = written.faces
    for name in plan.choice_names:
        sub = plan.chosen(name, p[name])
        if sub and sub.faces:
            faces = {**faces, **sub.faces}
    if not plan.has_effects:
        return written if faces is written.faces else _made(**{**written.__dict__, "faces": faces})
    if prepared.adds_only is not None:   # each parameter adds its value in dice (the usual)
        adds = dict(written.counts)
        for name, die in prepared.adds_only:
            value = p[name]
            n = 0 if value is None else int(value)
            if n < 0:
                break   # (dice taken away: as every effect is done, below)
            adds[die] += n
        else:
            check = object.__new__(CompiledCheck)   # ``written`` with these counts
            fields = check.__dict__
            fields.update(written.__dict__)
            fields["counts"] = adds
            return check
    c, adds = None, None   # (dice added alone: counted here, nothing else gathered)
    points = plan.points(p) if plan.cancel_out else None   # (else each its value: at once)
    for name, kind in plan.effectful:
        value = p[name]
        if kind == "choice":
            if plan.chosen(name, value) is None:
                continue
            steps, given = prepared.choices[name][str(value)], 1
        else:
            steps = prepared.effects[name]
            given = points[name] if points is not None else 0 if value is None else int(value)
        for handler, verb, argument, effect, entry, when, own_points, past, factor, dice in steps:
            if when and not plan.holds(when, p):
                continue
            n = plan.effect_points(name, effect, given, p) if own_points else given
            counted = (max(n - past, 0) if n >= 0 else n) * factor
            if handler is _add_dice and counted >= 0:   # dice added (the usual): at once
                if c is None:
                    adds = dict(written.counts) if adds is None else adds
                    adds[argument] += counted
                else:
                    c.adds[argument] += counted
                continue
            if c is None:
                c = _Compiling(written, faces)
                c.adds = adds if adds is not None else c.adds
            handler(c, _step((plan, p, name, verb, argument, effect, entry, n, counted, dice)))
    if c is not None:
        return c.done()
    if faces is written.faces and adds is None:
        return written
    check = object.__new__(CompiledCheck)   # ``written`` with these faces and counts
    fields = check.__dict__
    fields.update(written.__dict__)
    fields["faces"], fields["counts"] = faces, written.counts if adds is None else adds
    return check


def _step(fields: tuple) -> Step:
    """A :class:`Step` of its fields in order (made at once: one per effect of every check)."""
    return tuple.__new__(Step, fields)


# -- one handler per verb ---------------------------------------------------------------------
def _sets_target(c: _Compiling, s: Step) -> None:
    """``target`` / ``obstacle``: the parameter's value is the target (read by the reading);
    a second parameter doing so is refused."""
    if s.p[s.name] is None:
        return
    if c.target_setter is not None and c.target_setter != s.name:
        s.plan.refuse(s.name, s.p, s.entry, f"no value while {c.target_setter!r} sets the target "
                      "too (two targets at once have no single meaning; modifiers of a target are "
                      "add_to_target)")
    c.target_setter = c.target_setter or s.name


def _adds_to_target(c: _Compiling, s: Step) -> None:
    """``add_to_target`` says what passes, not what is rolled: read by the reading."""


def _add_dice(c: _Compiling, s: Step) -> None:
    if s.n >= 0:
        c.adds[s.argument] += s.n
    else:
        c.removals.append((s.argument, -s.n, s.effect.keep_at_least))


def _add_to_total(c: _Compiling, s: Step) -> None:
    c.modifier += s.n * s.argument
    if s.n * s.argument:
        c.modifier_sources.append((s.name, s.entry))


def _reroll_misses(c: _Compiling, s: Step) -> None:
    c.rerolls += max(s.n, 0)
    if s.n > 0:
        c.reroll_sources.append((s.name, s.entry))


def _shift_faces(c: _Compiling, s: Step) -> None:
    for die in names(s.argument):
        c.shift[die] += s.n


def _keep(c: _Compiling, s: Step) -> None:
    """``keep_highest`` / ``keep_lowest``: gathered, then read together (:meth:`PoolMechanic._kept`)."""
    c.keep.append((s.verb, s.argument, s.n, s.name, s.entry))


def _explode(c: _Compiling, s: Step) -> None:
    if s.n:
        for die in s.dice:
            c.explode[die] = c.explode[die].union(s.argument)
            c.explode_sources.setdefault(die, []).append((s.name, s.entry))


def _cancel(c: _Compiling, s: Step) -> None:
    if s.n:
        for die in s.dice:
            c.cancel[die] = c.cancel[die].union(s.argument)


def _lowest_face(s: Step) -> int:
    """``explode_from`` / ``cancel_up_to``: the face the points name (at least ``lowest``)."""
    return max(s.points, s.effect.lowest or 1)


def _explode_from(c: _Compiling, s: Step) -> None:
    if s.points > 0:
        face = _lowest_face(s)
        for die in names(s.argument):
            c.explode[die] = c.explode[die].union(range(face, len(c.faces[die]) + 1))
            c.explode_sources.setdefault(die, []).append((s.name, s.entry))


def _cancel_up_to(c: _Compiling, s: Step) -> None:
    if s.points > 0:
        face = _lowest_face(s)
        for die in names(s.argument):
            c.cancel[die] = c.cancel[die].union(range(1, min(face, len(c.faces[die])) + 1))


def _remove_floor(c: _Compiling, s: Step) -> None:
    if s.n:
        c.floor = None


def _ties(c: _Compiling, s: Step) -> None:
    if s.n:
        c.ties = s.argument


def _tens_dice(c: _Compiling, s: Step) -> None:
    c.tens[s.argument] += s.n


def _reroll(c: _Compiling, s: Step) -> None:
    if s.n:
        for die in s.dice:
            c.again[die] = c.again.get(die, frozenset()).union(s.argument)
        c.again_if.append((s.name, s.entry, s.effect.if_roll))


HANDLERS: dict[str, Callable[[_Compiling, Step], None]] = {
    "target": _sets_target, "obstacle": _sets_target, "add_to_target": _adds_to_target,
    "add_dice": _add_dice, "add_to_total": _add_to_total, "reroll_misses": _reroll_misses,
    "shift_faces": _shift_faces, "keep_highest": _keep, "keep_lowest": _keep,
    "explode": _explode, "cancel": _cancel, "explode_from": _explode_from,
    "cancel_up_to": _cancel_up_to, "remove_floor": _remove_floor, "ties": _ties,
    "tens_dice": _tens_dice, "reroll": _reroll,
}
"""What each verb of :data:`workbench.rules.schema.EFFECT_VERBS` does to a check's dice."""
