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
from dataclasses import dataclass

from ...errors import FormulaError
from ...limits import MAX_DICE, MAX_DIE_TYPES, MAX_SIDES
from ..params import RESERVED
from .dice_terms import EXPRESSION_OP, Faces, score, score_as_rolled
from .knobs import KEYWORDS, MAX_KNOB, Declared, Knobs
from .modifiers import die_table, ordered, raw_faces, term_die
from .parse import Dice, Formula, Knob, Modifier, Pool
from .pools import KEEP, kept_elements, summed

TYPICAL_DICE = 5
"""Dice a count knob without a default stands for when the ladder's rungs are spread over the
total's range (counts get rungs 1 to 5 successes)."""


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
        self.notes: dict[str, str] = {}
        self.names: set[str] = set()          # counts and statistics (read by expressions)
        self.knobs = Knobs(self.fail, self.names)
        self.rolled: list[str] = []           # die types rolled as initial dice
        self.extra: list[str] = []            # die types only explosions roll
        self.exploding = False
        self.fast = True                      # a plain sum of dice: no total expression
        self.counting = True                  # the total counts results (a ladder of 1+, 2+...)
        self.literal_dice = 0
        self.pool_parameter = None
        self.plain_stats: set[str] = set()   # sums of plain terms (not needed on the fast path)
        self.faces: dict[str, Faces] = {}     # each die type's faces (raw result and value)
        self.knob_lowers = False              # a knob may take the total below its range's low

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
        params = self.knobs.parameters()
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
            allowed = self.knobs[pass_name]   # a total beyond the target's range: no rung there
            rungs = [r for r in rungs if allowed.low <= r["set"][pass_name] <= allowed.high]
            if rungs:
                data["ladder"] = rungs
        return Compiled(data, self.notes, self.knobs.required())

    def sum(self, terms, top: bool = False):
        """The expression parts ``(sign, text)`` of a sum of terms, and its range (low, high;
        ``None`` where unknown)."""
        parts, low, high = [], 0, 0
        plain: dict[tuple, str] = {}
        for sign, term in terms:
            if isinstance(term, Dice):
                text, lo, hi = self.dice_term(term, sign, plain)
                if sign < 0 and isinstance(term.count, Knob):
                    self.knob_lowers = True
            elif isinstance(term, Pool):
                text, lo, hi = self.pool(term)
                self.fast = False
            elif isinstance(term, Knob):
                text = self.knobs.declare(term, "a number added to the total", -MAX_KNOB, MAX_KNOB)
                lo = hi = self.knobs[text].default
                self.fast = self.counting = False
                self.knob_lowers = True
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
        """A dice term: its die type declared (:meth:`declare_die`), then what it adds to the
        total (a sum of its dice, a count of its results, the dice it keeps) and that
        part's range. ``plain``: the die types of plain terms so far, by (label, sign)."""
        mods = ordered(term.modifiers, self.fail)
        faces, raw_size, label = raw_faces(term, self.fail)
        count = self.count(term, label)
        if not mods and (label, sign) in plain:   # plain dice of one kind and sign share a type
            return self.more_plain_dice(plain[(label, sign)], term, count, faces)
        by_kind = {m.kind: m for m in mods}
        made = term_die(term, mods, faces, self.fail)
        name = self.declare_die(term, label, count, made, by_kind)
        counting = [by_kind.get(k) for k in ("count", "double", "deduct")]
        n = self.typical(count)
        if any(counting):
            text = self.counting_term(name, term, counting)
            lo, hi = self.count_range(made.t0, counting, n)
            if text is None:
                return None, lo, hi
        else:
            self.counting = False
            text = None
            lo, hi = _sum_range(made, "explode" in by_kind, n)
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

    def more_plain_dice(self, name: str, term: Dice, count, faces: Faces):
        """A plain term adding dice to the die type of an earlier one (``2d6 + 1d6``): no
        text of its own, only its range."""
        self.add_dice(name, term, count)
        lo, hi = faces.value_range()
        n = self.typical(count)
        return None, (None if n is None else n * lo), (None if n is None else n * hi)

    def declare_die(self, term: Dice, label: str, count, made, by_kind: dict) -> str:
        """The term's die type in ``[dice]`` (and the die its explosions roll, when that
        differs), its dice counted, a knob saying where it explodes; returns its name."""
        name = self.die_name(label)
        if made.encoding is not None:
            self.notes[f"dice.{name}"] = made.encoding
        self.dice[name] = die_table(made.t0, made.limit)
        self.faces[name] = made.t0
        self.rolled.append(name)
        self.add_dice(name, term, count)
        if made.t1 is not None:
            extra = self.die_name(name + "x")
            self.dice[extra] = die_table(made.t1)
            self.faces[extra] = made.t1
            self.dice[name]["explode_into"] = extra
            self.extra.append(extra)
            self.notes[f"dice.{extra}"] = f"the die the explosions of {term.text} roll"
        if made.explode_knob is not None:
            knob, op = made.explode_knob
            targets = [name] + ([extra] if made.t1 is not None and "x" == by_kind["explode"].word else [])
            effect = {"explode_from": targets if len(targets) > 1 else name}
            self.knobs.declare(knob, f"the face {term.text} explodes from", 2, MAX_SIDES, effect)
        if "explode" in by_kind:
            self.exploding = True
        return name

    def typical(self, count) -> int:
        """A term's dice for the ladder's range: its count, or its knob's default (a knob
        without one: :data:`TYPICAL_DICE`)."""
        if isinstance(count, int):
            return count
        default = self.knobs[count].default
        return TYPICAL_DICE if default is None else default

    def count(self, term: Dice, label: str):
        if isinstance(term.count, Knob):
            name = self.knobs.declare(term.count, f"the number of {label} rolled", 0, MAX_DICE,
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
            value = self.knobs.number(target.value, f"the target of {mod.word} in {term.text}", -MAX_KNOB, MAX_KNOB)
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
        amount = self.knobs.number(amount, f"the dice {mod.word} counts in {term.text}", 1, MAX_DICE)
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
        """A pool ``{A, B, ...}``: its elements summed, counted (``cs``) or some kept."""
        elements, ranges = [], []
        for element in pool.elements:
            parts, lo, hi = self.sum(element)
            text = _joined(parts)
            elements.append(text if re.fullmatch(r"[A-Za-z0-9_]+", text) else f"({text})")
            ranges.append((lo, hi))
        if not pool.modifiers:
            self.counting = False
            return "(" + " + ".join(elements) + ")", *summed(ranges)
        if len(pool.modifiers) > 1:
            self.fail(pool.modifiers[1].position, "a second modifier on a pool; allowed: one of kh, kl, "
                      "dh, dl or cs")
        mod = pool.modifiers[0]
        if mod.kind == "count":
            target = mod.target
            if target is None or target.limit is not None:
                self.fail(mod.position, "cs on a pool needs a comparison such as cs>=10")
            value = self.knobs.number(target.value, "the target of cs on a pool", -MAX_KNOB, MAX_KNOB)
            op = EXPRESSION_OP[target.op]
            return "(" + " + ".join(f"({e} {op} {value})" for e in elements) + ")", 0, len(elements)
        if mod.kind != "keep" or mod.word == "km":
            self.fail(mod.position, f"{mod.word} on a pool {{...}}; allowed there: kh, kl, dh, dl or cs")
        self.counting = False
        return kept_elements(mod, elements, ranges, self.fail)

    # -- statistics, passing, parameters ------------------------------------------------------
    def statistic(self, name: str, mods, position: int) -> None:
        if name in KEYWORDS or name in RESERVED or name in self.names or name in self.knobs:
            self.fail(position, f"the name {name!r} is taken (by the formula, a knob or the "
                      "workbench); allowed: another name")
        mods = ordered(mods, self.fail)
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
        if keep is not None and any(counting) and any(self._clamped(d) for d in [*self.rolled, *self.extra]):
            self.fail(keep.position, f"{keep.word} with {next(m for m in counting if m).word} over dice "
                      "clamped by min or max: Foundry keeps by the result as rolled, which dice "
                      "counting the same cannot tell apart; allowed: the two as statistics of their own")
        if any(counting):
            self.names.add(name)
            text = self._score(counting, name)
            score_name = f"{name}_score" if keep is not None else name
            if keep is not None:
                self.names.add(score_name)
            for die in [*self.rolled, *self.extra]:
                self.dice[die].setdefault("counts", {})[score_name] = self._raw_score(die, counting, text)
        if keep is not None:
            kind, order = KEEP[keep.word]
            amount = 1 if keep.amount is None else keep.amount
            if amount == 0:
                self.fail(keep.position, f"{keep.word}0 keeps or drops no die (Foundry reads it as "
                          f"{keep.word}1); allowed: {keep.word}1 or more, or no {keep.word}")
            amount = self.knobs.number(amount, f"the dice {name} keeps", 1, MAX_DICE)
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
            value = self.knobs.number(mod.target.value, f"the target of {mod.word} in {where}", -MAX_KNOB, MAX_KNOB)
            parts[mod.kind] = f"value {EXPRESSION_OP[mod.target.op]} {value}"
        text = parts.get("count", "value")
        if "double" in parts:
            text = f"({text}) * (1 + ({parts['double']}))"
        if "deduct" in parts:
            text = f"-1 if {parts['deduct']} else {text}"
        return text

    def _clamped(self, die: str) -> bool:
        """Whether ``min``/``max`` made a face of ``die`` count other than it shows."""
        return any(raw != value for (raw, value, _), _ in self.faces[die].entries)

    def _raw_score(self, die: str, counting, text: str):
        """What one ``die`` scores in a statistic: ``text`` (over ``value``), or, when ``min``/
        ``max`` made a face count other than it shows, one number per face, the comparisons
        reading the result as rolled (what ``min``/``max`` leave, as in a term)."""
        if not self._clamped(die):
            return text
        faces = self.faces[die]
        targets = {}
        for mod in (m for m in counting if m is not None):
            if isinstance(mod.target.value, Knob):
                self.fail(mod.target.value.position, f"{mod.word}{mod.target.op}@{mod.target.value.name} "
                          "over dice clamped by min or max: a knob cannot say which results "
                          "match; allowed: a number")
            targets[mod.kind] = (mod.target.op, mod.target.value)
        return [score_as_rolled(targets, raw, value) for raw, value, _ in faces.faces()]

    def passing(self, data: dict, low, high) -> str | None:
        f = self.formula
        bound = -MAX_KNOB if low is None or low < 0 or self.knob_lowers else 0
        if f.condition is not None:
            text, position = f.condition
            def declare(match):
                knob = Knob(match.group(1), int(match.group(2)) if match.group(2) else None,
                            position + match.start())
                return self.knobs.declare(knob, "read by the pass condition", -MAX_KNOB, MAX_KNOB)
            data["pass_if"] = re.sub(r"@([A-Za-z_][A-Za-z0-9_]*)(?:=(-?[0-9]+))?", declare, text)
            self.fast = False
            return None
        if f.pass_target is not None:
            target, position = f.pass_target
            value = target.value
            if isinstance(value, Knob):
                name = self.knobs.declare(value, "the pass target", bound, MAX_KNOB,
                                 "target" if target.op == ">=" else None)
            else:
                name = self.knobs.free_name("target")
                self.knobs[name] = Declared(value, bound, MAX_KNOB, ["the pass target"],
                                         ["target"] if target.op == ">=" else [], position)
            if target.op != ">=":
                data["pass_if"] = f"total {EXPRESSION_OP[target.op]} {name}"
                self.fast = False
            return name
        name = self.knobs.free_name("target")
        self.knobs[name] = Declared(None, bound, MAX_KNOB, ["total needed to pass (leave out: no pass or "
                                                         "fail)"], ["target"], 0)
        self.knobs[name].optional = True
        return name


def _sum_range(made, explodes: bool, n):
    """The range of a sum of ``n`` dice of a term's die (an exploding die: its top face once
    more, the least an explosion adds)."""
    t0 = made.t0
    lo, hi = (None, None) if n is None else (n * t0.value_range()[0], n * t0.value_range()[1])
    if made.t1 is not None or explodes:
        hi = None if hi is None else hi + t0.value_range()[1]
    return lo, hi


def _joined(parts) -> str:
    text = ""
    for i, (sign, part) in enumerate(parts):
        if i == 0:
            text = part if sign > 0 else f"-{part}"
        else:
            text += f" + {part}" if sign > 0 else f" - {part}"
    return text or "0"


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
