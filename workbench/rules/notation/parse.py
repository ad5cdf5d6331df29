"""Reading a one-line dice formula: the grammar (``dice.lark``) and what it reads into.

The text is parsed by lark (LALR, from the grammar file beside this module) into the plain
objects below; nothing is evaluated. A formula that does not parse raises
:class:`~workbench.errors.FormulaError` naming the column and what was expected there. Limits
are checked before any work: the length of the text, how deeply pools nest, how many digits a
number has, ASCII digits only.

Example:
    >>> formula = parse_formula("4d6kh3")
    >>> term = formula.terms[0][1]
    >>> term.count, term.sides, [(m.word, m.amount) for m in term.modifiers]
    (4, 6, [('kh', 3)])
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Union

from ...errors import FormulaError
from ...limits import MAX_DIGITS

GRAMMAR = Path(__file__).with_name("dice.lark")
MAX_FORMULA_CHARS = 1000
"""Longest formula read (a formula is a line; this bounds the parser's work)."""
MAX_NESTING = 5
"""Deepest nesting of pools ``{...}`` in a formula."""


@dataclass(frozen=True)
class Knob:
    """``@NAME`` or ``@NAME=DEFAULT``: a parameter of the check (``position``: where it is)."""

    name: str
    default: int | None
    position: int

    def __str__(self) -> str:
        """As written: ``@NAME`` or ``@NAME=DEFAULT`` (what messages show)."""
        return f"@{self.name}" + ("" if self.default is None else f"={self.default}")


Number = Union[int, Knob]


@dataclass(frozen=True)
class Target:
    """A comparison: ``>= 8`` (``op`` one of ``>= <= > < =``), or a value alone (``=``)."""

    op: str
    value: Number
    limit: int | None = None   # Foundry's "r1=1": at most that many results (not read)


@dataclass(frozen=True)
class Modifier:
    """One modifier of a term as written: ``word`` (``kh``, ``x``, ``cs``...), its amount (a
    keep count, a min/max value) or target (a comparison), and where it starts."""

    kind: str        # keep, reroll, explode, count, double, deduct, clamp, unsupported
    word: str
    position: int
    amount: Number | None = None
    target: Target | None = None


@dataclass(frozen=True)
class Dice:
    """``NdX`` and its modifiers: ``count`` dice (a number or a knob) with ``sides`` faces
    numbered 1 to X (``"F"``: -1, 0, 1; ``"%"``: 1 to 100)."""

    count: Number
    sides: Union[int, str, Knob]
    modifiers: tuple[Modifier, ...]
    position: int
    text: str


@dataclass(frozen=True)
class Pool:
    """``{A, B, ...}`` and its modifiers: each element is a sum of terms."""

    elements: tuple[tuple, ...]
    modifiers: tuple[Modifier, ...]
    position: int


Term = Union[Dice, int, Knob, Pool]


@dataclass(frozen=True)
class Formula:
    """A whole formula: signed terms, then what passes and the statistics named after ``;``."""

    text: str
    terms: tuple[tuple[int, Term], ...]          # (+1 or -1, term)
    pass_target: tuple[Target, int] | None = None   # (comparison, position)
    condition: tuple[str, int] | None = None         # (text, position of its first character)
    statistics: tuple[tuple[str, tuple[Modifier, ...], int], ...] = field(default=())


@lru_cache(maxsize=1)
def _parser():
    from lark import Lark  # lazy: lark (only formulas need it)
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                propagate_positions=True, maybe_placeholders=False)


EXPECTED = {
    "INT": "a number", "AT": "@", "LBRACE": "{", "LPAR": "(", "DIE": "d", "PERCENT": "%",
    "FATE": "F", "KEEP": "kh, kl, km, dh or dl", "REROLL": "r or rr", "EXPLODE": "x or xo",
    "CLAMP": "min or max", "COUNT": "cs", "DOUBLE": "dbl", "DEDUCT": "df",
    "CMP": "a comparison (>=, <=, >, <, =)", "EQUAL": "=", "SIGN": "+ or -", "RPAR": ")",
    "RBRACE": "}", "COMMA": ",", "SEMICOLON": ";", "NAME": "a name", "PASS": "pass",
    "COLON": ":", "CONDITION": "a condition", "UNSUPPORTED": None, "$END": "the end",
}
"""How the grammar's terminals are named in messages (``None``: not offered)."""

UNSUPPORTED = {
    "cf": "counts failures", "sf": "subtracts failed results", "ms": "gives the margin of success",
    "even": "counts even results", "odd": "counts odd results",
}


OTHER_SPELLINGS = {
    "!!": "compounding explosions (Roll20's !!) are not in this notation; x explodes, each "
          "explosion a further result of the term",
    "!p": "penetrating explosions (Roll20's !p: each further die one less) are not in this "
          "notation",
    "!": "Roll20's ! (explode) is written x here: 2d10x, 8d10x>=9",
    "ro": "Roll20's ro (reroll once) is written r here: 2d6r1, 4d6r<=2 (rr: until none match)",
}
"""Spellings of other dice roller notations met where they differ: the hint a designer
who types them reads instead of a list of what the grammar expects."""


def _other_spelling(text: str, position: int) -> str | None:
    negative = re.match(r"-\s*([0-9]+)", text[position:])
    if negative and re.search(r"(>=|<=|>|<|=)\s*$", text[:position]):
        return (f"a comparison with a negative number is written with a knob: "
                f"@t=-{negative.group(1)} (a comparison reads 0 or more as written)")
    for word, hint in OTHER_SPELLINGS.items():
        if text[position:position + len(word)].lower() == word:
            return hint
        if word == "ro" and text[max(position - 1, 0):position + 1].lower() == word:
            return hint
    return None


def _expected(names) -> str:
    order = list(EXPECTED)
    ranked = sorted(names, key=lambda n: order.index(n) if n in order else len(order))
    words = list(dict.fromkeys(EXPECTED.get(n, n.lower()) for n in ranked
                               if EXPECTED.get(n, "") is not None))
    if not words:
        return "nothing more"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _check_text(text: str) -> None:
    """The limits read before parsing: length, characters, digits, nesting."""
    if len(text) > MAX_FORMULA_CHARS:
        raise FormulaError(text[:80] + "...", 80, f"a formula of {len(text):,} characters; allowed: "
                           f"at most {MAX_FORMULA_CHARS:,}")
    depth = 0
    for i, char in enumerate(text):
        if char.isdigit() and not char.isascii():
            raise FormulaError(text, i, f"{char!r} is not an ASCII digit; allowed: digits 0-9")
        if char == "{":
            depth += 1
            if depth > MAX_NESTING:
                raise FormulaError(text, i, f"pools nested {depth} deep; allowed: at most "
                                   f"{MAX_NESTING} levels of {{...}}")
        elif char == "}":
            depth -= 1
    for match in re.finditer(r"[0-9]+", text):
        if len(match.group()) > MAX_DIGITS:
            raise FormulaError(text, match.start(), f"a number of {len(match.group())} digits; "
                               f"allowed: at most {MAX_DIGITS}")


def parse_formula(text: str) -> Formula:
    """``text`` read as a formula, or :class:`~workbench.errors.FormulaError`.

    Example:
        >>> parse_formula("4d6+")   # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        workbench.errors.FormulaError: 4d6+: column 5: the formula ends early; expected a number, @, ...
    """
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken  # lazy: lark
    _check_text(text)
    try:
        tree = _parser().parse(text)
    except UnexpectedCharacters as exc:
        found = re.match(r"[A-Za-z_]+|.", text[exc.pos_in_stream:]).group()
        hint = _other_spelling(text, exc.pos_in_stream)
        if hint is not None:
            raise FormulaError(text, exc.pos_in_stream, hint) from None
        raise FormulaError(text, exc.pos_in_stream, f"unexpected {found!r}; expected "
                           f"{_expected(exc.allowed)}") from None
    except UnexpectedToken as exc:
        if exc.token.type == "$END":
            raise FormulaError(text, len(text), f"the formula ends early; expected "
                               f"{_expected(exc.accepts or exc.expected)}") from None
        hint = _other_spelling(text, exc.token.start_pos)
        if hint is not None:
            raise FormulaError(text, exc.token.start_pos, hint) from None
        raise FormulaError(text, exc.token.start_pos, f"unexpected {str(exc.token)!r}; expected "
                           f"{_expected(exc.accepts or exc.expected)}") from None
    except UnexpectedEOF as exc:
        raise FormulaError(text, len(text), f"the formula ends early; expected "
                           f"{_expected(exc.expected)}") from None
    except UnexpectedInput as exc:   # any other reading error: still one line with a caret
        raise FormulaError(text, getattr(exc, "pos_in_stream", 0) or 0, "cannot be read") from None
    return _Reader(text).formula(tree)


class _Reader:
    """The parse tree as the objects above (a plain walk: the tree is at most a few levels
    deep, bounded by :data:`MAX_NESTING`)."""

    def __init__(self, text: str):
        self.text = text

    def fail(self, position: int, problem: str):
        raise FormulaError(self.text, position, problem)

    def formula(self, tree) -> Formula:
        terms, pass_target, condition, statistics = (), None, None, []
        for child in tree.children:
            kind = child.data
            if kind == "sum":
                terms = self.sum(child)
            elif kind in ("pass_target", "pass_clause"):
                op, value = [c for c in child.children if not _punct(c)][-2:]
                if pass_target is not None or condition is not None:
                    self.fail(op.start_pos, "a second pass target; allowed: one pass target or condition")
                pass_target = (Target(str(op), self.value(value)), op.start_pos)
            elif kind == "condition_clause":
                token = child.children[-1]
                if pass_target is not None or condition is not None:
                    self.fail(token.start_pos, "a second pass condition; allowed: one pass target or condition")
                stripped = str(token).strip()
                start = token.start_pos + (len(str(token)) - len(str(token).lstrip()))
                condition = (stripped, start)
            elif kind == "stat_clause":
                name = child.children[0]
                statistics.append((str(name), tuple(self.modifier(m) for m in child.children[1:]
                                                    if not _punct(m)), name.start_pos))
        return Formula(self.text, terms, pass_target, condition, tuple(statistics))

    def sum(self, tree) -> tuple[tuple[int, Term], ...]:
        out, sign = [], 1
        for child in tree.children:
            if getattr(child, "data", None) == "signed":
                parts = child.children
                sign = -1 if len(parts) == 2 and str(parts[0]) == "-" else 1
                out.append((sign, self.term(parts[-1])))
            elif getattr(child, "type", None) == "SIGN":
                sign = -1 if str(child) == "-" else 1
            else:
                out.append((sign, self.term(child)))
        return tuple(out)

    def term(self, node) -> Term:
        kind = getattr(node, "data", None)
        if kind == "number":
            return self.number(node.children[0])
        if kind == "knob":
            return self.knob(node)
        if kind == "pool":
            elements = tuple(self.sum(c) for c in node.children if getattr(c, "data", None) == "sum")
            mods = tuple(self.modifier(c) for c in node.children if getattr(c, "data", None) not in ("sum", None))
            return Pool(elements, mods, node.meta.start_pos)
        return self.dice(node)

    def dice(self, node) -> Dice:
        count, sides, mods = 1, None, []
        for child in node.children:
            kind = getattr(child, "data", None)
            if kind == "count":
                inner = [c for c in child.children if not _punct(c)][0]
                count = self.value(inner)
            elif kind == "sides":
                inner = [c for c in child.children if not _punct(c)][0]
                if getattr(inner, "type", None) == "PERCENT":
                    sides = "%"
                elif getattr(inner, "type", None) == "FATE":
                    sides = "F"
                else:
                    sides = self.value(inner)
            elif kind is not None:
                mods.append(self.modifier(child))
        start, end = node.meta.start_pos, node.meta.end_pos
        return Dice(count, sides, tuple(mods), start, self.text[start:end])

    def modifier(self, node) -> Modifier:
        word_token = node.children[0]
        word = str(word_token).lower()
        kind = {"keep": "keep", "reroll": "reroll", "explode": "explode", "count_results": "count",
                "double": "double", "deduct": "deduct", "clamp": "clamp",
                "unsupported": "unsupported"}[node.data]
        rest = node.children[1:]
        amount = target = None
        if kind in ("keep", "clamp") and rest:
            amount = self.value(rest[0])
        elif rest:
            target = self.target(rest[0])
        return Modifier(kind, "dl" if word == "d" else ("kh" if word == "k" else word),
                        word_token.start_pos, amount, target)

    def target(self, node) -> Target:
        parts = [c for c in node.children if not _punct(c)]
        if len(parts) == 1:
            return Target("=", self.value(parts[0]))
        if len(parts) == 2:
            return Target(str(parts[0]), self.value(parts[1]))
        return Target(str(parts[1]), self.value(parts[2]), limit=self.number(parts[0]))

    def value(self, node) -> Number:
        if getattr(node, "data", None) == "knob":
            return self.knob(node)
        return self.number(node)

    def number(self, token) -> int:
        return int(str(token))

    def knob(self, node) -> Knob:
        parts = [c for c in node.children if not _punct(c)]
        name = str(parts[0])
        default = None
        if len(parts) > 1:
            sign = -1 if len(parts) == 3 and str(parts[1]) == "-" else 1
            default = sign * int(str(parts[-1]))
        return Knob(name, default, node.meta.start_pos)


def _punct(node) -> bool:
    """Anonymous tokens kept by lark (none with ``keep_all_tokens`` off): skipped."""
    return getattr(node, "type", "").startswith("__") if hasattr(node, "type") else False
