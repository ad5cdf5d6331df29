"""A dice term's modifiers read: refused when repeated or in an order the workbench does not
model, and the die they make of the term's dice (rerolls, ``min``/``max``, explosions) as
data-file die types (:mod:`.dice_terms` works the faces out).

Each refusal calls ``fail(position, problem)``, which raises the formula's
:class:`~workbench.errors.FormulaError` pointing at the modifier.

Example:
    >>> from workbench.rules.notation.parse import parse_formula
    >>> term = parse_formula("3d6r1x").terms[0][1]
    >>> def fail(position, problem): raise ValueError(problem)
    >>> die = term_die(term, ordered(term.modifiers, fail), raw_faces(term, fail)[0], fail)
    >>> die.t0.size, die.limit, die.encoding.split(":")[0]
    (36, 0, 'r=1')
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from ...limits import MAX_SIDES
from .dice_terms import Faces
from .parse import UNSUPPORTED, Dice, Knob, Modifier, Target

Fail = Callable[[int, str], None]
"""``fail(position, problem)``: raises the formula's error at that column."""


class TermDie(NamedTuple):
    """The die one dice term rolls."""

    t0: Faces
    """The initial die."""
    t1: Faces | None
    """The die its explosions roll, when that differs (``None``: the initial die again)."""
    explode_knob: tuple[Knob, str] | None
    """A knob that says where explosions start, with its comparison (``x>=@ex``)."""
    limit: int
    """Most explosions (1 for ``xo`` on one die type; 0: no cap)."""
    encoding: str | None
    """How a reroll was written as faces (a note in the data file), or ``None``."""


def ordered(mods, fail: Fail) -> list[Modifier]:
    """The modifiers, refused when repeated or in an order whose meaning the workbench
    does not model (a reroll after other modifiers, df before cs)."""
    seen: dict[str, Modifier] = {}
    for i, mod in enumerate(mods):
        if mod.kind == "unsupported":
            fail(mod.position, f"{mod.word} ({UNSUPPORTED[mod.word]} in Foundry VTT) is not "
                 "read by the workbench; allowed: kh, kl, km, dh, dl, x, xo, r, rr, min, max, "
                 "cs, dbl, df")
        key = mod.word if mod.kind == "clamp" else mod.kind
        if key in seen:
            fail(mod.position, f"a second {mod.word} (after {seen[key].word}); allowed: each "
                 "kind of modifier once per term")
        seen[key] = mod
        if mod.kind == "reroll" and i > 0:
            fail(mod.position, f"{mod.word} after {mods[0].word}: write the reroll first "
                 f"(e.g. 4d6r1kh3): a reroll after other modifiers is not read by the workbench")
    if "deduct" in seen and "count" in seen and seen["deduct"].position < seen["count"].position:
        fail(seen["deduct"].position, "df before cs: Foundry's cs then counts every result "
             "again, undoing df; allowed: cs before df (e.g. 10d10cs>=8df=1)")
    if "keep" in seen and "explode" in seen:
        fail(seen["keep"].position, f"{seen['keep'].word} with {seen['explode'].word}: Foundry "
             "keeps from every result, each explosion apart, which the workbench does not "
             "model; allowed: keep whole exploding dice as a pool, e.g. {1d6x, 1d6x, 1d6x}kh2")
    clamp = [m for m in mods if m.kind == "clamp"]
    counting = [m for m in mods if m.kind in ("count", "double", "deduct")]
    if clamp and counting:
        fail(clamp[0].position, f"{clamp[0].word} with {counting[0].word}: min and max set what a "
             "result adds, cs, dbl and df count results; allowed: one or the other")
    if "reroll" in seen and any(m.kind == "clamp" and m.position < seen["reroll"].position for m in mods):
        fail(seen["reroll"].position, f"{seen['reroll'].word} after {clamp[0].word}: write the "
             "reroll first")
    return list(mods)


def raw_faces(term: Dice, fail: Fail) -> tuple[Faces, int, str]:
    """A term's die as rolled: its faces, its size and its label (``d6``, ``dF``, ``d100``)."""
    sides = term.sides
    where = term.position + term.text.lower().index("d") + 1
    if isinstance(sides, Knob):
        fail(sides.position, "a die's size cannot be a knob (the faces are fixed when the "
             "formula is read); allowed: a number such as d6, dF or d%")
    if sides == "F":
        return Faces.of((-1, 0, 1)), 3, "dF"
    if sides == "%":
        return Faces.numbered(100), 100, "d100"
    if not 1 <= sides <= MAX_SIDES:
        fail(where, f"a d{sides}; allowed: dice of 1 to {MAX_SIDES} faces")
    return Faces.numbered(sides), sides, f"d{sides}"


def term_die(term: Dice, mods, faces: Faces, fail: Fail) -> TermDie:
    """The die a term's modifiers (``mods``, :func:`ordered`) make of its raw die ``faces``:
    rerolled first, clamped by the ``min``/``max`` written before an explosion, then exploding
    (clamped by those written after it, on every die of the chain)."""
    explode = next((m for m in mods if m.kind == "explode"), None)
    clamp_before, clamp_all = _clamps(mods, explode, fail)
    reroll = next((m for m in mods if m.kind == "reroll"), None)
    t0, encoding = _rerolled(term, reroll, faces, fail) if reroll is not None else (faces, None)
    t0 = t0.clamped(clamp_before.get("min"), clamp_before.get("max"))
    after = (clamp_all.get("min"), clamp_all.get("max"))
    if explode is None:
        return TermDie(t0.clamped(*after), None, None, 0, encoding)
    return TermDie(*_exploding(explode, reroll, faces, t0, after, fail), encoding)


def _clamps(mods, explode: Modifier | None, fail: Fail) -> tuple[dict, dict]:
    """``min``/``max`` written before an explosion (the initial die only) and after it (every
    die of the chain), each ``{word: amount}``."""
    clamp_before, clamp_all = {}, {}
    for mod in mods:
        if mod.kind == "clamp":
            if isinstance(mod.amount, Knob):
                fail(mod.amount.position, f"{mod.word} cannot read a knob (what a face adds is "
                     "fixed when the formula is read); allowed: a number")
            side = clamp_before if explode is not None and mod.position < explode.position else clamp_all
            side[mod.word] = mod.amount
    low = clamp_all.get("min", clamp_before.get("min"))
    high = clamp_all.get("max", clamp_before.get("max"))
    if low is not None and high is not None and low > high:
        fail(next(m.position for m in mods if m.word == "max"), f"max {high} below min {low}; "
             "allowed: max at least min")
    return clamp_before, clamp_all


def _rerolled(term: Dice, reroll: Modifier, faces: Faces, fail: Fail) -> tuple[Faces, str]:
    """The die ``r`` (once) or ``rr`` (until no longer matching) makes, and how it is written."""
    target = reroll.target or Target("=", 1)
    if target.limit is not None:
        fail(reroll.position, f"{reroll.word}{target.limit}{target.op}{target.value}: "
             f"rerolling at most {target.limit} results of the term is not read by the "
             f"workbench; allowed: {reroll.word} with a comparison (every matching result)")
    if isinstance(target.value, Knob):
        fail(target.value.position, f"{reroll.word} cannot read a knob (the faces a reroll "
             "gives are fixed when the formula is read); allowed: a number")
    once = reroll.word == "r"
    t0 = faces.rerolled(target.op, target.value, once)
    if t0 is None:
        fail(reroll.position, f"{reroll.word}{target.op}{target.value} matches every face, so "
             "rerolling never ends; allowed: a comparison some face misses")
    if t0.size > MAX_SIDES:
        fail(reroll.position, f"{term.text}: the exact reroll needs a die of {t0.size:,} "
             f"equally likely faces (every first and second roll); allowed: at most "
             f"{MAX_SIDES} (fewer faces, or a comparison matching a share of them)")
    if once:
        return t0, (
            f"{reroll.word}{target.op}{target.value}: every (first roll, second roll) pair is "
            f"equally likely; a first roll {target.op} {target.value} is replaced by the second, "
            f"so the die is {t0.size} equally likely faces")
    return t0, (
        f"rr{target.op}{target.value}: rolled again until no longer {target.op} "
        f"{target.value}: the die is {t0.size} equally likely faces in the same proportions")


def _exploding(explode: Modifier, reroll: Modifier | None, faces: Faces, t0: Faces, after: tuple,
               fail: Fail) -> tuple[Faces, Faces | None, tuple | None, int]:
    """(initial die, die of the explosions or ``None``, knob, limit) of an exploding term:
    ``x`` explodes again on the raw faces, ``xo`` once; ``after``: the clamps of every die."""
    target = explode.target or Target("=", max(faces.raw))
    if target.limit is not None:
        fail(explode.position, f"{explode.word}{target.limit}{target.op}{target.value}: "
             f"at most {target.limit} explosions per term is not read by the workbench; "
             f"allowed: {explode.word} with a comparison")
    recursive = explode.word == "x"
    raw_after = faces.clamped(*after)
    if isinstance(target.value, Knob):
        if target.op != ">=" or reroll is not None or not faces.plain:
            fail(target.value.position, f"{explode.word}{target.op}@{target.value.name}: a knob "
                 f"says where explosions start only as {explode.word}>=@NAME, on a numbered "
                 "die without r; allowed: that, or a number")
        t0 = t0.clamped(*after)
        if t0 == raw_after:
            return t0, None, (target.value, target.op), 0 if recursive else 1
        return t0, raw_after, (target.value, target.op), 0
    op, value = target.op, target.value
    t0 = t0.exploding(op, value)
    if not t0.explodes:   # no face matches: nothing explodes
        return t0.clamped(*after), None, None, 0
    if recursive and faces.exploding(op, value).every_face_explodes:
        fail(explode.position, f"{explode.word}{op}{value} explodes on every face, so a roll "
             "never ends; allowed: a comparison some face misses")
    t0 = t0.clamped(*after)
    if recursive:
        t1 = faces.exploding(op, value).clamped(*after)
        return (t0, None, None, 0) if t0 == t1 else (t0, t1, None, 0)
    if t0 == raw_after.exploding(op, value):   # the initial die is the raw die: it explodes once
        return t0, None, None, 1
    return t0, raw_after, None, 0


def die_table(faces: Faces, limit: int = 0) -> dict:
    """A die as a data file's ``[dice.NAME]`` table."""
    table: dict = {}
    if faces.plain:
        table["sides"] = len(faces.raw)
    else:
        table["faces"] = faces.values()
    if faces.explodes:
        table["explode"] = faces.explodes
    if limit:
        table["explode_limit"] = limit
    return table
