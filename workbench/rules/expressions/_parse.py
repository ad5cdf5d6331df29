"""Reading an expression: text -> a checked tree of plain tuples (:func:`parse`).

The language, its grammar and its rules of division are described in
:mod:`workbench.rules.expressions`; the tree is evaluated by
:mod:`workbench.rules.expressions._evaluate`. Nothing here runs the text: it is tokenised
and parsed by a small recursive-descent parser.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Mapping

from ...errors import WorkbenchError
from ...validation import suggest

FUNCTIONS = {"min": (1, None), "max": (1, None), "abs": (1, 1)}
"""Function name -> (fewest, most arguments; ``None``: any number)."""

KEYWORDS = ("and", "or", "not", "if", "else", "true", "false")
COMPARISONS = ("==", "!=", "<=", ">=", "<", ">")
MAX_LENGTH = 1000
"""Longest expression text read (a condition is one line)."""
MAX_DEPTH = 60
"""Deepest nesting of parentheses and operators."""

_TOKEN = re.compile(r"\s*(?:(?P<number>[0-9]+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
                    r"|(?P<text>\"[^\"]*\"|'[^']*')"
                    r"|(?P<op>//|==|!=|<=|>=|[-+*/%<>(),])|(?P<bad>\S))", re.ASCII)
_MISTAKES = {"=": " (use == to compare)", "&": " (write 'and')", "|": " (write 'or')",
             "!": " (write 'not', or != to compare)", "^": " (there is no power operator)",
             ".": " (numbers are whole: divide with / or // instead)",
             "'": " (a text needs its closing quote)", '"': " (a text needs its closing quote)"}


class ExpressionError(WorkbenchError):
    """Text that is not an expression of this language, or names nothing known.

    ``problem`` says what is wrong (the data-file loader puts the file and entry in front).
    """

    def __init__(self, text: str, problem: str):
        self.text, self.problem = text, problem
        super().__init__(f"{text!r}: {problem}")


@dataclass(frozen=True)
class Expression:
    """A parsed expression: its text, its tree of plain tuples and what it refers to.

    ``kind`` is ``"bool"`` (a condition), ``"whole"`` (a whole number) or ``"fraction"``
    (a number that ``/`` may have made fractional). ``names`` lists the statistics and
    parameters it reads, in order of first use.

    Tree nodes: ``("number", n)``, ``("name", s)``, ``("negate", x)``, ``("not", x)``,
    ``("binary", op, a, b)`` for ``+ - * / // %``, ``("compare", op, a, b)``,
    ``("and", a, b)``, ``("or", a, b)``, ``("if", condition, a, b)``,
    ``("call", function, (arguments...))``.
    """

    text: str
    tree: tuple
    names: tuple[str, ...]
    kind: str

    def __str__(self) -> str:
        return self.text

    def __getstate__(self):
        # The functions the evaluator makes of the tree (kept with it) stay in this process.
        return {k: v for k, v in self.__dict__.items() if k not in ("_compiled", "_quick")}


def parse(text: str, known: Iterable[str] | None = None, want: str | None = None,
          conditions: Iterable[str] = (), texts: Mapping[str, tuple] | None = None) -> Expression:
    """Parse ``text``; check its names against ``known`` (if given) and its kind against
    ``want`` (``"bool"`` for a condition, ``"whole"`` for a statistic: a condition is one too,
    counting 1 when true). Names listed in ``conditions`` are true/false statistics, so they
    may stand alone as a condition. ``texts`` maps the parameters whose choices are words to
    those choices: such a parameter is read only compared with one of them (``mode ==
    "middle"``, ``mode != 'best'``), and is given to the evaluators as the choice's position.

    Raises:
        ExpressionError: what is wrong and where (the character position), or the unknown
            name with the names that exist.

    Example:
        >>> parse("total >= skill / 2", known=["total", "skill"], want="bool").kind
        'bool'
        >>> parse("hits = 0")
        Traceback (most recent call last):
        ...
        workbench.rules.expressions.ExpressionError: 'hits = 0': unexpected '=' at character 6 (use == to compare)
    """
    if known is None and want is None and not conditions and texts is None and type(text) is str:
        return _read_once(text)
    return _read(text, known, want, conditions, texts)


@lru_cache(maxsize=4096)
def _read_once(text: str) -> Expression:
    """An expression read without names or kind to check: read once per text (the engine
    and the results read the texts a roll describes, call after call)."""
    return _read(text, None, None, (), None)


def _read(text: str, known: Iterable[str] | None, want: str | None, conditions: Iterable[str],
          texts: Mapping[str, tuple] | None) -> Expression:
    if not isinstance(text, str):
        raise ExpressionError(str(text), "an expression is text, such as \"hits >= 2\"")
    if not text.strip():
        raise ExpressionError(text, "is empty; write a condition such as \"hits >= 2\"")
    if len(text) > MAX_LENGTH:
        raise ExpressionError(text[:40] + "...", f"is longer than {MAX_LENGTH} characters")
    parser = _Parser(text)
    tree = parser.expression(0)
    if parser.peek() is not None:
        parser.fail("unexpected")
    if texts or any(token[0] == "text" for token in parser.tokens):   # else the tree reads as it is
        tree = _choices_read(tree, dict(texts or {}), text)
    names = tuple(dict.fromkeys(_names(tree)))
    if known is not None:
        known = list(known)
        for name in names:
            if name not in known:
                raise ExpressionError(text, f"unknown name {name!r}{suggest(name, known)}; "
                                      f"names here: {', '.join(known) or '(none)'}")
    kind = _kind(tree, frozenset(conditions))
    if want == "bool" and kind != "bool":
        raise ExpressionError(text, "is a number, not a condition: compare it, e.g. "
                              f"\"{text.strip()} >= 1\"")
    if want == "whole" and kind == "fraction":
        raise ExpressionError(text, "may not be whole: '/' divides exactly; use // to round down")
    return Expression(text, tree, names, kind)


def _choices_read(tree: tuple, texts: Mapping[str, tuple], text: str) -> tuple:
    """``tree`` with each comparison of a word-choice parameter and one of its choices made a
    comparison of whole numbers (the choice's position); any other use of a text, or of such
    a parameter, is an error saying how to write it."""
    tag = tree[0]
    if tag == "compare":
        sides = (tree[2], tree[3])
        named = [side for side in sides if side[0] == "name" and side[1] in texts]
        worded = [side for side in sides if side[0] == "text"]
        if named or worded:
            if tree[1] not in ("==", "!=") or len(named) != 1 or len(worded) != 1:
                raise ExpressionError(text, _text_advice(texts, named, worded))
            name, word = named[0][1], worded[0][1]
            choices = [str(choice) for choice in texts[name]]
            if word not in choices:
                raise ExpressionError(text, f"{name!r} has no choice {word!r}{suggest(word, choices)}; "
                                            f"its choices: {', '.join(choices)}")
            number = ("number", choices.index(word))
            return ("compare", tree[1], *((side if side[0] == "name" else number) for side in sides))
    if tag == "text" or (tag == "name" and tree[1] in texts):
        raise ExpressionError(text, _text_advice(texts, [tree] if tag == "name" else [],
                                                 [tree] if tag == "text" else []))
    if tag == "call":
        return ("call", tree[1], tuple(_choices_read(a, texts, text) for a in tree[2]))
    return tuple(_choices_read(part, texts, text) if isinstance(part, tuple) else part for part in tree)


def _text_advice(texts: Mapping[str, tuple], named: list, worded: list) -> str:
    if named:
        name = named[0][1]
        example = str(texts[name][0]) if texts[name] else "CHOICE"
        return (f"{name!r} is a choice among words ({', '.join(map(str, texts[name]))}): compare it "
                f"with one of them, e.g. {name} == \"{example}\"")
    if texts:
        name = next(iter(texts))
        return (f"a text ({worded[0][1]!r}) is only compared with a parameter whose choices are "
                f"words, e.g. {name} == \"{texts[name][0]}\"")
    return (f"a text ({worded[0][1]!r}) is only compared with a parameter whose choices are words, "
            "and nothing here has such choices")


def _names(tree: tuple):
    tag = tree[0]
    if tag == "name":
        yield tree[1]
    elif tag == "call":
        for argument in tree[2]:
            yield from _names(argument)
    else:
        for part in tree[1:]:
            if isinstance(part, tuple):
                yield from _names(part)


def _kind(tree: tuple, conditions: frozenset = frozenset()) -> str:
    tag = tree[0]
    if tag in ("compare", "and", "or", "not"):
        return "bool"
    if tag == "number" and isinstance(tree[1], bool):
        return "bool"
    if tag == "name" and tree[1] in conditions:
        return "bool"
    if tag in ("number", "name"):
        return "whole"
    if tag == "negate":
        return "fraction" if _kind(tree[1], conditions) == "fraction" else "whole"
    if tag == "binary":
        if tree[1] == "/":
            return "fraction"
        kinds = (_kind(tree[2], conditions), _kind(tree[3], conditions))
        return "fraction" if "fraction" in kinds else "whole"
    if tag == "if":
        kinds = {_kind(tree[2], conditions), _kind(tree[3], conditions)}
        return "bool" if kinds == {"bool"} else ("fraction" if "fraction" in kinds else "whole")
    if tag == "call":
        kinds = [_kind(a, conditions) for a in tree[2]]
        return "fraction" if "fraction" in kinds else "whole"
    raise AssertionError(tag)


class _Parser:
    """Recursive descent over the tokens of one expression."""

    def __init__(self, text: str):
        self.text = text
        self.tokens: list[tuple[str, str, int]] = []
        position = 0
        while position < len(text):
            match = _TOKEN.match(text, position)
            if match is None or match.end() == position:  # only trailing spaces are left
                break
            kind = match.lastgroup
            value = match.group(kind)
            start = match.start(kind)
            if kind == "bad":
                hint = " (numbers are written with the digits 0-9)" if value.isdigit() else ""
                raise ExpressionError(text, f"unexpected {value!r} at character {start + 1}"
                                      + _MISTAKES.get(value, hint))
            if kind == "name" and value in KEYWORDS:
                kind = "keyword"
            self.tokens.append((kind, value, start))
            position = match.end()
        self.index = 0

    def peek(self):
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def fail(self, what: str):
        token = self.peek()
        if token is None:
            if what.startswith("expected"):
                raise ExpressionError(self.text, f"{what} the end")
            raise ExpressionError(self.text, "ends too soon: something is missing at the end")
        hint = " (use == to compare)" if token[1] == "=" else ""
        raise ExpressionError(self.text, f"{what} {token[1]!r} at character {token[2] + 1}{hint}")

    def take(self, value: str | None = None, kind: str | None = None):
        token = self.peek()
        if token is None or (value is not None and token[1] != value) or (kind is not None and token[0] != kind):
            return None
        self.index += 1
        return token

    def expect(self, value: str):
        if self.take(value) is None:
            self.fail(f"expected {value!r}, found")

    def _deeper(self, depth: int) -> int:
        if depth > MAX_DEPTH:
            raise ExpressionError(self.text, f"is nested more than {MAX_DEPTH} levels deep")
        return depth + 1

    def expression(self, depth):
        depth = self._deeper(depth)
        value = self.or_test(depth)
        if self.take("if", "keyword"):
            condition = self.or_test(depth)
            if self.take("else", "keyword") is None:
                self.fail("expected 'else' (a if condition else b), found")
            return ("if", condition, value, self.expression(depth))
        return value

    def or_test(self, depth):
        value = self.and_test(depth)
        while self.take("or", "keyword"):
            value = ("or", value, self.and_test(depth))
        return value

    def and_test(self, depth):
        value = self.not_test(depth)
        while self.take("and", "keyword"):
            value = ("and", value, self.not_test(depth))
        return value

    def not_test(self, depth):
        if self.take("not", "keyword"):
            return ("not", self.not_test(self._deeper(depth)))
        return self.comparison(depth)

    def comparison(self, depth):
        left = self.sum(depth)
        result = None
        while (token := self.peek()) is not None and token[1] in COMPARISONS:
            self.index += 1
            right = self.sum(depth)
            step = ("compare", token[1], left, right)
            result = step if result is None else ("and", result, step)
            left = right
        return left if result is None else result

    def sum(self, depth):
        value = self.product(depth)
        while (token := self.peek()) is not None and token[1] in ("+", "-") and token[0] == "op":
            self.index += 1
            value = ("binary", token[1], value, self.product(depth))
        return value

    def product(self, depth):
        value = self.unary(depth)
        while (token := self.peek()) is not None and token[1] in ("*", "/", "//", "%"):
            self.index += 1
            value = ("binary", token[1], value, self.unary(depth))
            if token[1] != "*" and value[3] in (("number", 0), ("number", False)):
                raise ExpressionError(self.text, f"divides by zero ('{token[1]}' at character "
                                                 f"{token[2] + 1} has 0 on its right)")
        return value

    def unary(self, depth):
        if self.take("-", "op"):
            return ("negate", self.unary(self._deeper(depth)))
        if self.take("+", "op"):
            return self.unary(self._deeper(depth))
        return self.atom(depth)

    def atom(self, depth):
        token = self.peek()
        if token is None:
            self.fail("")
        kind, value, start = token
        if kind == "number":
            self.index += 1
            if len(value) > 18:
                raise ExpressionError(self.text, f"number {value[:20]}... at character {start + 1} is too "
                                                 "large (at most 18 digits)")
            return ("number", int(value))
        if kind == "keyword" and value in ("true", "false"):
            self.index += 1
            return ("number", value == "true")
        if kind == "text":
            self.index += 1
            return ("text", value[1:-1])
        if kind == "name":
            self.index += 1
            if self.take("(", "op"):
                return self.call(value, start, depth)
            return ("name", value)
        if self.take("(", "op"):
            inner = self.expression(depth)
            self.expect(")")
            return inner
        self.fail("unexpected")

    def call(self, function: str, start: int, depth: int):
        if function not in FUNCTIONS:
            raise ExpressionError(self.text, f"unknown function {function!r} at character {start + 1}"
                                  f"{suggest(function, FUNCTIONS)}; functions: {', '.join(FUNCTIONS)}")
        arguments = [self.expression(depth)]
        while self.take(",", "op"):
            arguments.append(self.expression(depth))
        self.expect(")")
        fewest, most = FUNCTIONS[function]
        if len(arguments) < fewest or (most is not None and len(arguments) > most):
            wanted = f"{fewest}" if fewest == most else f"{fewest} or more"
            raise ExpressionError(self.text, f"{function}() takes {wanted} argument"
                                  f"{'' if wanted == '1' else 's'}, got {len(arguments)}")
        return ("call", function, tuple(arguments))
