"""A parsed formula as the tables of a data file (``[dice]``, ``[params]``, ``[stats]``,
``total``, ``pass_if``, ``[[ladder]]``): the same description the TOML files give, checked by
the same schema and rolled by the same :class:`~workbench.rules.mechanics.pool.PoolMechanic`.

How a formula reads (docs/one-liners.rst says it for designers):

- each dice term is a die type (``d6``, ``d10_2`` for a second d10 term, ``d6x`` for the die
  its explosions roll when that differs); its dice are rolled ``count`` times, or as many
  times as a knob says (``add_dice``);
- a plain term adds its dice; ``kh``/``kl``/``km``/``dh``/``dl`` keep some of them (a
  ``[stats]`` keep or drop); ``cs``/``dbl``/``df`` make the term a count of its results (a
  ``counts`` expression per face, summed over the term's dice, explosions included);
- the total is the signed sum of the terms (an expression, unless the formula is a plain
  sum of dice, which keeps the data files' fast path);
- a knob ``@NAME`` is a parameter; a pass target (``>= 15``) a parameter the total is
  compared with; without one, an optional ``target`` (pass iff total >= target), and a ladder
  of rungs ``total >= N`` across the total's range, so tables and ladders have rows.

Every refusal is a :class:`~workbench.errors.FormulaError` pointing at the modifier, number or
knob it is about.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import combinations
from math import comb

from ...errors import FormulaError
from ...limits import MAX_DICE, MAX_DIE_TYPES, MAX_SIDES
from ..params import RESERVED
from .dice_terms import EXPRESSION_OP, Faces, score
from .parse import UNSUPPORTED, Dice, Formula, Knob, Modifier, Pool, Target

KEYWORDS = ("and", "or", "not", "if", "else", "true", "false", "total", "value", "face")
MAX_POOL_SUBSETS = 50
"""Most ways to choose the kept elements of a pool ``{...}khN`` (each is written out)."""
MAX_KNOB = 10**6
TYPICAL_DICE = 5
"""Dice a count knob without a default stands for when the ladder's rungs are spread over the
total's range (counts get rungs 1 to 5 successes)."""
KEEP = {"kh": ("keep", "highest"), "kl": ("keep", "lowest"), "km": ("keep", "middle"),
        "dh": ("drop", "highest"), "dl": ("drop", "lowest")}


@dataclass
class _Knob:
    default: int | None
    low: int
    high: int
    roles: list = field(default_factory=list)
    effects: list = field(default_factory=list)
    position: int = 0
    optional: bool = False   # left out on purpose (the automatic target): not required


@dataclass
class Compiled:
    """What :func:`compile_formula` gives: the data file's tables, the comments the TOML form
    carries (``notes``: the encodings of dice the vocabulary has no word for), and the knobs
    written without a default (a check must give them)."""

    data: dict
    notes: dict
    required: tuple[str, ...]


def compile_formula(formula: Formula) -> Compiled:
    """The data-file tables of a parsed formula.

    Example:
        >>> from workbench.rules.notation.parse import parse_formula
        >>> compile_formula(parse_formula("4d6kh3")).data["stats"]
        {'d6': {'keep': 'highest', 'count': 3, 'dice': 'd6'}}
    """
    return _Compiler(formula).run()


class _Compiler:
    def __init__(self, formula: Formula):
        self.formula, self.text = formula, formula.text
        self.dice: dict[str, dict] = {}
        self.stats: dict[str, dict] = {}
        self.knobs: dict[str, _Knob] = {}
        self.notes: dict[str, str] = {}
        self.names: set[str] = set()          # counts and statistics (read by expressions)
        self.rolled: list[str] = []           # die types rolled as initial dice
        self.extra: list[str] = []            # die types only explosions roll
        self.exploding = False
        self.fast = True                      # a plain sum of dice: no total expression
        self.counting = True                  # the total counts results (a ladder of 1+, 2+...)
        self.literal_dice = 0
        self.pool_parameter = None
        self.encoding: str | None = None     # how the last reroll was written (a note)
        self.plain_stats: set[str] = set()   # sums of plain terms (not needed on the fast path)

    def fail(self, position: int, problem: str):
        raise FormulaError(self.text, position, problem)

    # -- names ------------------------------------------------------------------------------
    def die_name(self, base: str) -> str:
        name, n = base, 1
        while name in self.dice or name in self.names or name in self.knobs:
            n += 1
            name = f"{base}_{n}"
        return name

    def stat_name(self, base: str) -> str:
        name, n = base, 1
        while name in self.names or name in self.knobs:
            n += 1
            name = f"{base}_{n}"
        self.names.add(name)
        return name

    def knob(self, knob: Knob, role: str, low: int, high: int, effect: dict | None = None) -> str:
        name = knob.name
        if name in RESERVED or name in KEYWORDS:
            what = "a keyword of the workbench's own functions" if name in RESERVED else "a word of the expressions"
            self.fail(knob.position, f"@{name} is {what}; allowed: any other name")
        if name in self.names:
            self.fail(knob.position, f"@{name} is already a statistic's name; allowed: another name")
        found = self.knobs.setdefault(name, _Knob(knob.default, -MAX_KNOB, MAX_KNOB, position=knob.position))
        if knob.default is not None:
            if found.default is not None and found.default != knob.default:
                self.fail(knob.position, f"@{name}={knob.default}, but @{name}={found.default} "
                          "before; allowed: one default per knob (write it once)")
            found.default = knob.default
        found.low, found.high = max(found.low, low), min(found.high, high)
        found.roles.append(role)
        if effect is not None:
            found.effects.append(effect)
        if found.low > found.high:
            self.fail(knob.position, f"@{name} is used as {' and as '.join(dict.fromkeys(found.roles))}, "
                      "which allow no common value; allowed: a knob for each use")
        if found.default is not None and not found.low <= found.default <= found.high:
            self.fail(knob.position, f"@{name}={found.default}; allowed: {found.low} to {found.high} "
                      f"({role})")
        return name

    def number(self, value, role: str, low: int, high: int, effect=None) -> str | int:
        """A literal, or a knob's parameter name."""
        if isinstance(value, Knob):
            return self.knob(value, role, low, high, effect)
        return value

    # -- the formula -------------------------------------------------------------------------
    def run(self) -> Compiled:
        f = self.formula
        parts, low, high = self.sum(f.terms, top=True)
        if not self.rolled:
            self.fail(0, "a formula without dice; allowed: at least one die term such as 1d20")
        if len(self.dice) > MAX_DIE_TYPES:
            self.fail(0, f"{len(self.dice)} die types; allowed: at most {MAX_DIE_TYPES} dice terms")
        data: dict = {"id": slug(self.text), "name": self.text, "mechanic": "pool",
                      "description": "One-line formula " + self.text}
        for name, mods, position in f.statistics:
            self.statistic(name, mods, position)
        total = _joined(parts)
        pass_name = self.passing(data, low, high)
        if self.pool_parameter:
            data["pool_parameter"] = self.pool_parameter
        data["dice"] = self.dice
        params = self.parameters()
        if params:
            data["params"] = params
        if self.fast:   # a plain sum of dice: the total is the sum, as in the data files
            for name in self.plain_stats:
                del self.stats[name]
        else:
            data["total"] = total
        if self.stats:
            data["stats"] = self.stats
        if pass_name is not None:
            rungs = ladder(f.pass_target[0].op if f.pass_target else ">=", pass_name, low, high,
                           self.counting)
            if rungs:
                data["ladder"] = rungs
        required = tuple(n for n, k in self.knobs.items() if k.default is None and not k.optional)
        return Compiled(data, self.notes, required)

    def sum(self, terms, top: bool = False):
        """The expression parts ``(sign, text)`` of a sum of terms, and its range (low, high;
        ``None`` where unknown)."""
        parts, low, high = [], 0, 0
        plain: dict[tuple, str] = {}
        for sign, term in terms:
            if isinstance(term, Dice):
                text, lo, hi = self.dice_term(term, sign, plain)
            elif isinstance(term, Pool):
                text, lo, hi = self.pool(term)
                self.fast = False
            elif isinstance(term, Knob):
                text = self.knob(term, "a number added to the total", -MAX_KNOB, MAX_KNOB)
                lo = hi = self.knobs[text].default
                self.fast = self.counting = False
            else:
                text, lo, hi = str(term), term, term
                self.fast = self.counting = False
            if sign < 0:
                self.fast = False
                lo, hi = (None if hi is None else -hi), (None if lo is None else -lo)
            if text is not None:
                parts.append((sign, text))
            low = None if low is None or lo is None else low + lo
            high = None if high is None or hi is None else high + hi
        return parts, low, high

    # -- dice terms -------------------------------------------------------------------------
    def dice_term(self, term: Dice, sign: int, plain: dict):
        mods = self.ordered(term.modifiers)
        faces, raw_size, label = self.raw_faces(term)
        count = self.count(term, label)
        by_kind = {m.kind: m for m in mods}
        if not mods:   # a plain sum: dice of one kind with the same sign share one die type
            key = (label, sign)
            if key in plain:
                self.add_dice(plain[key], term, count)
                lo, hi = faces.value_range()
                n = self.typical(count)
                return None, (None if n is None else n * lo), (None if n is None else n * hi)
        t0, t1, explode_knob, limit = self.faces_of(term, mods, faces)
        name = self.die_name(label)
        if self.encoding is not None:
            self.notes[f"dice.{name}"], self.encoding = self.encoding, None
        die = self.die_table(t0, limit)
        self.dice[name] = die
        self.rolled.append(name)
        self.add_dice(name, term, count)
        if t1 is not None:
            extra = self.die_name(name + "x")
            self.dice[extra] = self.die_table(t1)
            self.dice[name]["explode_into"] = extra
            self.extra.append(extra)
            self.notes[f"dice.{extra}"] = f"the die the explosions of {term.text} roll"
        if explode_knob is not None:
            knob, op = explode_knob
            targets = [name] + ([extra] if t1 is not None and "x" == by_kind["explode"].word else [])
            effect = {"explode_from": targets if len(targets) > 1 else name}
            self.knob(knob, f"the face {term.text} explodes from", 2, MAX_SIDES, effect)
        if "explode" in by_kind:
            self.exploding = True
        counting = [by_kind.get(k) for k in ("count", "double", "deduct")]
        n = self.typical(count)
        if any(counting):
            text = self.counting_term(name, term, counting)
            lo, hi = self.count_range(t0, counting, n)
            if text is None:
                return None, lo, hi
        else:
            self.counting = False
            text = None
            lo, hi = (None, None) if n is None else (n * t0.value_range()[0], n * t0.value_range()[1])
            if t1 is not None or "explode" in by_kind:
                hi = None if hi is None else hi + t0.value_range()[1]
        keep = by_kind.get("keep")
        if keep is not None:
            text, lo, hi = self.keep(name, term, keep, text, lo, hi, n)
        elif text is None:
            text = self.stat_name(name)
            self.stats[text] = {"sum": "value", "dice": name}
            if not mods:
                plain[(label, sign)] = name
                self.plain_stats.add(text)
        else:
            self.fast = False
        if mods:
            self.fast = False
        return text, lo, hi

    def typical(self, count) -> int:
        """A term's dice for the ladder's range: its count, or its knob's default (a knob
        without one: :data:`TYPICAL_DICE`)."""
        if isinstance(count, int):
            return count
        default = self.knobs[count].default
        return TYPICAL_DICE if default is None else default

    def ordered(self, mods) -> list[Modifier]:
        """The modifiers, refused when repeated or in an order whose meaning the workbench
        does not model (a reroll after other modifiers, df before cs)."""
        seen: dict[str, Modifier] = {}
        for i, mod in enumerate(mods):
            if mod.kind == "unsupported":
                self.fail(mod.position, f"{mod.word} ({UNSUPPORTED[mod.word]} in Foundry VTT) is not "
                          "read by the workbench; allowed: kh, kl, km, dh, dl, x, xo, r, rr, min, max, "
                          "cs, dbl, df")
            key = mod.word if mod.kind == "clamp" else mod.kind
            if key in seen:
                self.fail(mod.position, f"a second {mod.word} (after {seen[key].word}); allowed: each "
                          "kind of modifier once per term")
            seen[key] = mod
            if mod.kind == "reroll" and i > 0:
                self.fail(mod.position, f"{mod.word} after {mods[0].word}: write the reroll first "
                          f"(e.g. 4d6r1kh3): a reroll after other modifiers is not read by the workbench")
        if "deduct" in seen and "count" in seen and seen["deduct"].position < seen["count"].position:
            self.fail(seen["deduct"].position, "df before cs: Foundry's cs then counts every result "
                      "again, undoing df; allowed: cs before df (e.g. 10d10cs>=8df=1)")
        if "keep" in seen and "explode" in seen:
            self.fail(seen["keep"].position, f"{seen['keep'].word} with {seen['explode'].word}: Foundry "
                      "keeps from every result, each explosion apart, which the workbench does not "
                      "model; allowed: keep whole exploding dice as a pool, e.g. {1d6x, 1d6x, 1d6x}kh2")
        clamp = [m for m in mods if m.kind == "clamp"]
        counting = [m for m in mods if m.kind in ("count", "double", "deduct")]
        if clamp and counting:
            self.fail(clamp[0].position, f"{clamp[0].word} with {counting[0].word}: min and max set what a "
                      "result adds, cs, dbl and df count results; allowed: one or the other")
        if "reroll" in seen and any(m.kind == "clamp" and m.position < seen["reroll"].position for m in mods):
            self.fail(seen["reroll"].position, f"{seen['reroll'].word} after {clamp[0].word}: write the "
                      "reroll first")
        return list(mods)

    def raw_faces(self, term: Dice) -> tuple[Faces, int, str]:
        sides = term.sides
        where = term.position + term.text.lower().index("d") + 1
        if isinstance(sides, Knob):
            self.fail(sides.position, "a die's size cannot be a knob (the faces are fixed when the "
                      "formula is read); allowed: a number such as d6, dF or d%")
        if sides == "F":
            return Faces.of((-1, 0, 1)), 3, "dF"
        if sides == "%":
            return Faces.numbered(100), 100, "d100"
        if not 1 <= sides <= MAX_SIDES:
            self.fail(where, f"a d{sides}; allowed: dice of 1 to {MAX_SIDES} faces")
        return Faces.numbered(sides), sides, f"d{sides}"

    def count(self, term: Dice, label: str):
        if isinstance(term.count, Knob):
            name = self.knob(term.count, f"the number of {label} rolled", 0, MAX_DICE,
                             {"add_dice": None})
            if self.pool_parameter is None:
                self.pool_parameter = name
            return name
        if term.count > MAX_DICE or self.literal_dice + term.count > MAX_DICE:
            self.fail(term.position, f"{term.count:,} dice; allowed: at most {MAX_DICE:,} dice in a "
                      "formula")
        self.literal_dice += term.count
        return term.count

    def add_dice(self, name: str, term: Dice, count) -> None:
        if isinstance(count, int):
            self.dice[name]["count"] = self.dice[name].get("count", 0) + count
            if not self.dice[name]["count"]:
                del self.dice[name]["count"]
        else:
            knob = self.knobs[count]
            pending = [e for e in knob.effects if e == {"add_dice": None}]
            if pending:
                pending[-1]["add_dice"] = name

    def faces_of(self, term: Dice, mods, faces: Faces):
        """The initial die (t0), the die explosions roll when it differs (t1), a knob the
        explosion reads ``(knob, op)``, and the explosion limit (1 for ``xo`` on one die type)."""
        t0, clamp_before, clamp_all = faces, {}, {}
        explode = next((m for m in mods if m.kind == "explode"), None)
        for mod in mods:
            if mod.kind == "clamp":
                if isinstance(mod.amount, Knob):
                    self.fail(mod.amount.position, f"{mod.word} cannot read a knob (what a face adds is "
                              "fixed when the formula is read); allowed: a number")
                side = clamp_before if explode is not None and mod.position < explode.position else clamp_all
                side[mod.word] = mod.amount
        low = clamp_all.get("min", clamp_before.get("min"))
        high = clamp_all.get("max", clamp_before.get("max"))
        if low is not None and high is not None and low > high:
            self.fail(next(m.position for m in mods if m.word == "max"), f"max {high} below min {low}; "
                      "allowed: max at least min")
        reroll = next((m for m in mods if m.kind == "reroll"), None)
        if reroll is not None:
            target = reroll.target or Target("=", 1)
            if target.limit is not None:
                self.fail(reroll.position, f"{reroll.word}{target.limit}{target.op}{target.value}: "
                          f"rerolling at most {target.limit} results of the term is not read by the "
                          f"workbench; allowed: {reroll.word} with a comparison (every matching result)")
            if isinstance(target.value, Knob):
                self.fail(target.value.position, f"{reroll.word} cannot read a knob (the faces a reroll "
                          "gives are fixed when the formula is read); allowed: a number")
            once = reroll.word == "r"
            t0 = faces.rerolled(target.op, target.value, once)
            if t0 is None:
                self.fail(reroll.position, f"{reroll.word}{target.op}{target.value} matches every face, so "
                          "rerolling never ends; allowed: a comparison some face misses")
            if t0.size > MAX_SIDES:
                self.fail(reroll.position, f"{term.text}: the exact reroll needs a die of {t0.size:,} "
                          f"equally likely faces (every first and second roll); allowed: at most "
                          f"{MAX_SIDES} (fewer faces, or a comparison matching a share of them)")
            if once:
                self.encoding = (
                    f"{reroll.word}{target.op}{target.value}: every (first roll, second roll) pair is "
                    f"equally likely; a first roll {target.op} {target.value} is replaced by the second, "
                    f"so the die is {t0.size} equally likely faces")
            else:
                self.encoding = (
                    f"rr{target.op}{target.value}: rolled again until no longer {target.op} "
                    f"{target.value}: the die is {t0.size} equally likely faces in the same proportions")
        t0 = t0.clamped(clamp_before.get("min"), clamp_before.get("max"))
        after = (clamp_all.get("min"), clamp_all.get("max"))
        if explode is None:
            return t0.clamped(*after), None, None, 0
        target = explode.target or Target("=", max(faces.raw))
        if target.limit is not None:
            self.fail(explode.position, f"{explode.word}{target.limit}{target.op}{target.value}: "
                      f"at most {target.limit} explosions per term is not read by the workbench; "
                      f"allowed: {explode.word} with a comparison")
        recursive = explode.word == "x"
        raw_after = faces.clamped(*after)
        if isinstance(target.value, Knob):
            if target.op != ">=" or reroll is not None or not faces.plain:
                self.fail(target.value.position, f"{explode.word}{target.op}@{target.value.name}: a knob "
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
            self.fail(explode.position, f"{explode.word}{op}{value} explodes on every face, so a roll "
                      "never ends; allowed: a comparison some face misses")
        t0 = t0.clamped(*after)
        if recursive:
            t1 = faces.exploding(op, value).clamped(*after)
            return (t0, None, None, 0) if t0 == t1 else (t0, t1, None, 0)
        if t0 == raw_after.exploding(op, value):   # the initial die is the raw die: it explodes once
            return t0, None, None, 1
        return t0, raw_after, None, 0

    def die_table(self, faces: Faces, limit: int = 0) -> dict:
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

    def counting_term(self, name: str, term: Dice, mods) -> str:
        """The count a ``cs``/``dbl``/``df`` term comes to, scored by its die types."""
        count, double, deduct = mods
        parts = {}
        for mod in (m for m in mods if m is not None):
            target = mod.target
            if target is None:
                self.fail(mod.position + len(mod.word), f"{mod.word} needs a target such as "
                          f"{mod.word}>=5 or {mod.word}=1")
            if target.limit is not None:
                self.fail(mod.position, f"{mod.word}{target.limit}{target.op}...: a number before the "
                          f"comparison is not read; allowed: {mod.word}{target.op}{target.value}")
            value = self.number(target.value, f"the target of {mod.word} in {term.text}", -MAX_KNOB, MAX_KNOB)
            parts[mod.kind] = f"value {EXPRESSION_OP[target.op]} {value}"
        text = f"({parts['count']})" if "count" in parts else "value"
        if "double" in parts:
            text = f"{text} * (1 + ({parts['double']}))"
        if "deduct" in parts:
            text = f"-1 if {parts['deduct']} else {text}"
        if text.startswith("(") and text.endswith(")") and text.count("(") == 1:
            text = text[1:-1]
        count_name = self.stat_name("hits" if "count" in parts else "score")
        dice = [name] + ([self.dice[name]["explode_into"]] if "explode_into" in self.dice[name] else [])
        for die in dice:
            self.dice[die].setdefault("counts", {})[count_name] = text
        return count_name

    def count_range(self, t0: Faces, mods, n):
        if mods[0] is None:   # dbl or df alone: the term still adds values
            self.counting = False
        values = []
        targets = []
        for mod in mods:
            if mod is None:
                targets.append(None)
                continue
            value = mod.target.value
            if isinstance(value, Knob):
                value = self.knobs[value.name].default
                if value is None:
                    return None, None
            targets.append((mod.target.op, value))
        for (r, _, _), _ in t0.entries:
            count, double, deduct = targets
            values.append(score(count[0] if count else None, count[1] if count else None, double, deduct, r))
        if n is None:
            return None, None
        return n * min(values), n * max(values)

    def keep(self, name: str, term: Dice, mod: Modifier, score_name, lo, hi, n):
        kind, order = KEEP[mod.word]
        amount = 1 if mod.amount is None else mod.amount
        if amount == 0:
            self.fail(mod.position, f"{mod.word}0 keeps or drops no die (Foundry reads it as "
                      f"{mod.word}1); allowed: {mod.word}1 or more, or no {mod.word}")
        amount = self.number(amount, f"the dice {mod.word} counts in {term.text}", 1, MAX_DICE)
        stat = {kind: order, "count": amount, "dice": name}
        if score_name is not None:
            stat["score"] = score_name
        text = self.stat_name(name if score_name is None else f"kept_{score_name}")
        self.stats[text] = stat
        self.fast = False
        if isinstance(amount, str) or n is None or lo is None:
            return text, None, None
        kept = amount if kind == "keep" else max(n - amount, 0)
        per = (lo / n, hi / n) if n else (0, 0)
        return text, int(round(kept * per[0])), int(round(kept * per[1]))

    # -- pools ------------------------------------------------------------------------------
    def pool(self, pool: Pool):
        elements, ranges = [], []
        for element in pool.elements:
            parts, lo, hi = self.sum(element)
            text = _joined(parts)
            elements.append(text if re.fullmatch(r"[A-Za-z0-9_]+", text) else f"({text})")
            ranges.append((lo, hi))
        known = all(lo is not None and hi is not None for lo, hi in ranges)
        if not pool.modifiers:
            self.counting = False
            return "(" + " + ".join(elements) + ")", *(_add(ranges) if known else (None, None))
        if len(pool.modifiers) > 1:
            self.fail(pool.modifiers[1].position, "a second modifier on a pool; allowed: one of kh, kl, "
                      "dh, dl or cs")
        mod = pool.modifiers[0]
        k = len(elements)
        if mod.kind == "count":
            target = mod.target
            if target is None or target.limit is not None:
                self.fail(mod.position, "cs on a pool needs a comparison such as cs>=10")
            value = self.number(target.value, "the target of cs on a pool", -MAX_KNOB, MAX_KNOB)
            op = EXPRESSION_OP[target.op]
            return "(" + " + ".join(f"({e} {op} {value})" for e in elements) + ")", 0, k
        if mod.kind != "keep" or mod.word == "km":
            self.fail(mod.position, f"{mod.word} on a pool {{...}}; allowed there: kh, kl, dh, dl or cs")
        self.counting = False
        amount = 1 if mod.amount is None else mod.amount
        if isinstance(amount, Knob):
            self.fail(amount.position, "a pool keeps a fixed number of its elements; allowed: a number")
        kind, order = KEEP[mod.word]
        kept = amount if kind == "keep" else k - amount
        if amount == 0 or kept <= 0:
            self.fail(mod.position, f"{mod.word}{amount} on a pool of {k}; allowed: a number that keeps "
                      f"1 to {k} of its elements")
        highest = order == "highest" if kind == "keep" else order == "lowest"
        if kept >= k:
            text = "(" + " + ".join(elements) + ")"
        elif kept == 1:
            text = ("max(" if highest else "min(") + ", ".join(elements) + ")"
        else:
            if comb(k, kept) > MAX_POOL_SUBSETS:
                self.fail(mod.position, f"keeping {kept} of {k} elements ({comb(k, kept)} ways); allowed: "
                          f"at most {MAX_POOL_SUBSETS} ways")
            text = ("max(" if highest else "min(") + ", ".join(
                " + ".join(chosen) for chosen in combinations(elements, kept)) + ")"
        if not known:
            return text, None, None
        lows = sorted(lo for lo, _ in ranges)
        highs = sorted(hi for _, hi in ranges)
        pick = (lambda xs: sum(xs[-kept:])) if highest else (lambda xs: sum(xs[:kept]))
        return text, pick(lows), pick(highs)

    # -- statistics, passing, parameters ------------------------------------------------------
    def statistic(self, name: str, mods, position: int) -> None:
        if name in KEYWORDS or name in RESERVED or name in self.names or name in self.knobs:
            self.fail(position, f"the name {name!r} is taken (by the formula, a knob or the "
                      "workbench); allowed: another name")
        mods = self.ordered(mods)
        bad = [m for m in mods if m.kind not in ("keep", "count", "double", "deduct")]
        if bad:
            self.fail(bad[0].position, f"{bad[0].word} in a statistic; allowed there: kh, kl, km, dh, dl, "
                      "cs, dbl, df (a statistic reads the formula's dice as rolled)")
        if not mods:
            self.fail(position, f"the statistic {name!r} names no modifier; e.g. {name}: cs=1")
        keep = next((m for m in mods if m.kind == "keep"), None)
        counting = [next((m for m in mods if m.kind == k), None) for k in ("count", "double", "deduct")]
        if keep is not None and self.exploding:
            self.fail(keep.position, f"{keep.word} over exploding dice: Foundry keeps from every result, "
                      "which the workbench does not model; allowed: cs, dbl, df")
        score_name = None
        if any(counting):
            self.names.add(name)
            text = self._score(counting, name)
            score_name = f"{name}_score" if keep is not None else name
            if keep is not None:
                self.names.add(score_name)
            for die in [*self.rolled, *self.extra]:
                self.dice[die].setdefault("counts", {})[score_name] = text
        if keep is not None:
            kind, order = KEEP[keep.word]
            amount = 1 if keep.amount is None else keep.amount
            amount = self.number(amount, f"the dice {name} keeps", 1, MAX_DICE)
            stat = {kind: order, "count": amount}
            if score_name is not None:
                stat["score"] = score_name
            self.names.add(name)
            self.stats[name] = stat

    def _score(self, counting, where: str) -> str:
        parts = {}
        for mod in (m for m in counting if m is not None):
            if mod.target is None:
                self.fail(mod.position + len(mod.word), f"{mod.word} needs a target such as {mod.word}=1")
            value = self.number(mod.target.value, f"the target of {mod.word} in {where}", -MAX_KNOB, MAX_KNOB)
            parts[mod.kind] = f"value {EXPRESSION_OP[mod.target.op]} {value}"
        text = parts.get("count", "value")
        if "double" in parts:
            text = f"({text}) * (1 + ({parts['double']}))"
        if "deduct" in parts:
            text = f"-1 if {parts['deduct']} else {text}"
        return text

    def passing(self, data: dict, low, high) -> str | None:
        f = self.formula
        bound = -MAX_KNOB if low is None or low < 0 else 0
        if f.condition is not None:
            text, position = f.condition
            def declare(match):
                knob = Knob(match.group(1), int(match.group(2)) if match.group(2) else None,
                            position + match.start())
                return self.knob(knob, "read by the pass condition", -MAX_KNOB, MAX_KNOB)
            data["pass_if"] = re.sub(r"@([A-Za-z_][A-Za-z0-9_]*)(?:=(-?[0-9]+))?", declare, text)
            self.fast = False
            return None
        if f.pass_target is not None:
            target, position = f.pass_target
            value = target.value
            if isinstance(value, Knob):
                name = self.knob(value, "the pass target", bound, MAX_KNOB,
                                 "target" if target.op == ">=" else None)
            else:
                name = self.free_name("target")
                self.knobs[name] = _Knob(value, bound, MAX_KNOB, ["the pass target"],
                                         ["target"] if target.op == ">=" else [], position)
            if target.op != ">=":
                data["pass_if"] = f"total {EXPRESSION_OP[target.op]} {name}"
                self.fast = False
            return name
        name = self.free_name("target")
        self.knobs[name] = _Knob(None, bound, MAX_KNOB, ["total needed to pass (leave out: no pass or "
                                                         "fail)"], ["target"], 0)
        self.knobs[name].optional = True
        return name

    def free_name(self, base: str) -> str:
        name, n = base, 1
        while name in self.knobs or name in self.names:
            n += 1
            name = f"{base}_{n}"
        return name

    def parameters(self) -> dict:
        out = {}
        for name, knob in self.knobs.items():
            table: dict = {}
            if knob.default is not None:
                table["default"] = knob.default
            else:
                table["optional"] = True
            table["min"], table["max"] = knob.low, knob.high
            table["help"] = "; ".join(dict.fromkeys(knob.roles))
            effects = [e for e in knob.effects if e != {"add_dice": None}]
            if len(effects) > 1:
                effects = [{e: True} if isinstance(e, str) else e for e in effects]
            if effects:
                table["effect"] = effects[0] if len(effects) == 1 else effects
            out[name] = table
        return out


def _joined(parts) -> str:
    text = ""
    for i, (sign, part) in enumerate(parts):
        if i == 0:
            text = part if sign > 0 else f"-{part}"
        else:
            text += f" + {part}" if sign > 0 else f" - {part}"
    return text or "0"


def _add(ranges):
    return sum(lo for lo, _ in ranges), sum(hi for _, hi in ranges)


def ladder(op: str, name: str, low, high, counting: bool) -> list[dict]:
    """Rungs ``total >= N`` (or the formula's own comparison) across the total's range: 1 to
    5 successes for a count, five steps up to the highest total for a sum.

    Example:
        >>> [r["name"] for r in ladder(">=", "target", 3, 18, False)]
        ['total >= 6', 'total >= 9', 'total >= 12', 'total >= 15', 'total >= 18']
    """
    if op == "=" or low is None or high is None or high <= low:
        return []
    if counting or high - low <= 5:
        values = list(range(low + 1, min(low + 5, high) + 1))
    else:
        values = sorted({round(low + (high - low) * step / 5) for step in range(1, 6)})
    if op in ("<=", ">"):
        values = [v - 1 for v in values]
    written = {">=": ">=", "<=": "<=", ">": ">", "<": "<"}[op]
    return [{"name": f"total {written} {v}", "set": {name: v}} for v in values]


def slug(text: str) -> str:
    """An id for the data file a formula makes: its text with what an id cannot hold as ``-``.

    Example:
        >>> slug("8d10cs>=8x"), slug("{1d8x, 1d6x}kh")
        ('8d10cs-ge-8x', '1d8x-1d6x-kh')
    """
    words = {">=": "-ge-", "<=": "-le-", ">": "-gt-", "<": "-lt-", "=": "-eq-", "+": "-plus-"}
    out = re.sub(">=|<=|>|<|=|\\+", lambda m: words[m.group()], text)
    out = re.sub(r"[^A-Za-z0-9_.]+", "-", out).strip("-.")
    out = re.sub("-+", "-", out)[:90].strip("-.")
    return out if out and out[0].isalnum() else f"formula-{out}".strip("-")
