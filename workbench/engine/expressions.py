"""Evaluating parsed expressions (:mod:`workbench.rules.expressions`) over arrays of outcomes.

Each name is a column of a joint distribution (one value per row) or a parameter's value;
the result is one value per row. Comparisons give booleans, which count as 0 and 1 in
arithmetic; ``/`` divides exactly (floats), ``//`` rounds down and ``%`` is its remainder.

Example:
    >>> from workbench.rules.expressions import parse
    >>> evaluate(parse("(s > a) + (s > b)"), {"s": np.array([3, 5]), "a": 4, "b": np.array([1, 6])})
    array([1, 1])
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..errors import WorkbenchError
from ..limits import MAX_TOTAL
from ..rules.expressions import Expression

_COMPARE = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
            ">": np.greater, ">=": np.greater_equal}


def evaluate(expression: Expression, names: Mapping[str, Any]) -> np.ndarray:
    """``expression`` over ``names`` (name -> array or number); broadcast to the arrays' length.

    ``/`` is exact: values are kept as fractions (numerator and denominator arrays) until they
    are compared or rounded, so ``ones / 10 * 3 == 3 * ones / 10`` holds; a value that stays a
    fraction comes back as floats. A division by zero is an error only where it is reached:
    ``0 if hits == 0 else 6 // hits`` and ``hits > 0 and 6 // hits >= 2`` are fine.

    Raises:
        WorkbenchError: a name without a value (an optional parameter left out), a division
            by zero, or a number beyond ``MAX_TOTAL`` either way on the way.
    """
    reading = _Reading(names, expression.text)
    value = _bounded(_value(expression.tree, reading, True), reading, True)
    if isinstance(value, tuple):
        numerator, denominator = value
        return np.asarray(numerator / denominator if np.any(denominator != 1) else numerator)
    return np.asarray(value)


class _Reading:
    """One evaluation: the names' values, the text (for errors) and the least and greatest
    value of each whole-number array met so far (by identity), so that a sum of values known
    to be small is not searched again for values past MAX_TOTAL."""

    __slots__ = ("names", "text", "spans")

    def __init__(self, names: Mapping[str, Any], text: str):
        self.names, self.text, self.spans = names, text, {}

    def span(self, value) -> tuple[int, int] | None:
        """``(least, greatest)`` of a whole number or an array of them (true/false: 0 and 1);
        ``None`` for anything else (fractions, floats)."""
        if type(value) is int or isinstance(value, (bool, np.integer, np.bool_)):
            return int(value), int(value)
        if type(value) is not np.ndarray:
            return None
        kind = value.dtype.kind
        if kind == "b":
            return 0, 1
        if kind not in "iu":
            return None
        found = self.spans.get(id(value))
        if found is not None and found[0] is value:
            return found[1], found[2]
        span = (int(value.min()), int(value.max())) if value.size else (0, 0)
        self.spans[id(value)] = (value, *span)
        return span

    def spanned(self, value, low: int, high: int):
        """``value``, its least and greatest value known to lie within ``low`` .. ``high``."""
        if type(value) is np.ndarray:
            self.spans[id(value)] = (value, low, high)
        return value


def _number(value):
    """Booleans as 0/1 for arithmetic."""
    value = np.asarray(value)
    return value.astype(np.int64) if value.dtype == bool else value


def _truth(value):
    if isinstance(value, tuple):
        return np.asarray(value[0]) != 0
    value = np.asarray(value)
    return value if value.dtype == bool else value != 0


def _fraction(value):
    """(numerator, denominator > 0) of a value."""
    if isinstance(value, tuple):
        return value
    return _number(value), np.int64(1)


def _within(part, reading: _Reading) -> bool:
    """Whether ``part`` (a number or an array) lies within MAX_TOTAL everywhere: the usual
    case, told by its least and greatest value (known, or looked up once) before anything
    else is worked out."""
    span = reading.span(part)
    return span is not None and -MAX_TOTAL <= span[0] and span[1] <= MAX_TOTAL


def _bounded_already(tree: tuple) -> bool:
    """Whether the value of ``tree`` went through :func:`_bounded` as it was worked out (a
    sum, difference, product, ``/`` or ``%``, or a negated value); ``//`` of fractions may
    leave it."""
    return tree[0] == "negate" or (tree[0] == "binary" and tree[1] != "//")


def _operand(tree: tuple, reading: _Reading, live):
    """The value of an operand of arithmetic, refused where reached beyond MAX_TOTAL."""
    value = _value(tree, reading, live)
    return value if _bounded_already(tree) else _bounded(value, reading, live)


def _bounded(value, reading: _Reading, live):
    """``value`` (a whole number or a fraction), refused where reached beyond MAX_TOTAL."""
    for part in (value if isinstance(value, tuple) else (value,)):
        if _within(part, reading):
            continue
        part = np.asarray(part)
        if part.dtype.kind in "iu" and np.any((np.abs(part) > MAX_TOTAL) & live):
            worst = int(np.max(np.abs(np.where(live, part, 0))))
            raise WorkbenchError(f"{reading.text!r} computes {worst:,} for some outcome or parameter "
                                 f"value; allowed: numbers within {MAX_TOTAL:,} either way")
    return value


def _reduced(numerator, denominator):
    numerator, denominator = np.asarray(numerator, np.int64), np.asarray(denominator, np.int64)
    sign = np.where(denominator < 0, -1, 1)
    numerator, denominator = numerator * sign, denominator * sign
    common = np.gcd(numerator, denominator)
    common = np.where(common == 0, 1, common)
    numerator, denominator = numerator // common, denominator // common
    if not np.any(denominator != 1):
        return numerator
    return numerator, denominator


_LEAVES = ("number", "name")
"""Nodes whose value does not depend on where they are reached (``live`` is not worked out
for them unless a value past the limit must be told where it is reached)."""


def _branch(tree: tuple, reading: _Reading, where):
    """The value of one branch of an ``if``, bounded where it is taken (``where()``: that
    mask, worked out when the branch needs it)."""
    taken = None if tree[0] in _LEAVES else where()
    value = _value(tree, reading, True if taken is None else taken)
    if taken is None:
        if not isinstance(value, tuple) and _within(value, reading):
            return value
        taken = where()
    return _bounded(value, reading, taken)


def _value(tree: tuple, reading: _Reading, live):
    """The value of ``tree``; ``live``: where it is reached (True, or one flag per row)."""
    tag = tree[0]
    if tag == "number":
        return tree[1]
    if tag == "name":
        names = reading.names
        value = names.get(tree[1])
        if value is None and tree[1] not in names:   # a Python roll that never returns it
            raise WorkbenchError(f"{reading.text!r} reads {tree[1]!r}, which is no statistic of this roll "
                                 f"and no parameter; names here: {', '.join(names)}")
        if value is None:
            raise WorkbenchError(f"{reading.text!r} reads {tree[1]!r}, which has no value here (an "
                                 "optional parameter left out?); give it a value")
        return value
    if tag == "negate":
        inner = _operand(tree[1], reading, live)
        if isinstance(inner, tuple):
            return (-inner[0], inner[1])
        span = reading.span(inner)
        negated = -_number(inner)
        return negated if span is None else reading.spanned(negated, -span[1], -span[0])
    if tag == "not":
        return np.logical_not(_truth(_value(tree[1], reading, live)))
    if tag in ("and", "or"):
        left = _truth(_value(tree[1], reading, live))
        reached = live if tree[2][0] in _LEAVES else np.logical_and(live, left if tag == "and" else np.logical_not(left))
        right = _truth(_value(tree[2], reading, reached))
        return (np.logical_and if tag == "and" else np.logical_or)(left, right)
    if tag == "compare":
        left, right = _value(tree[2], reading, live), _value(tree[3], reading, live)
        if isinstance(left, tuple) or isinstance(right, tuple):
            (a, b), (c, d) = _fraction(_bounded(left, reading, live)), _fraction(_bounded(right, reading, live))
            left, right = a * d, c * b
        return _COMPARE[tree[1]](_number(left), _number(right))
    if tag == "if":
        condition = _truth(_value(tree[1], reading, live))
        # each branch bounded where it is taken (1e10 if ... else 0 was a table of 1e10 totals)
        yes = _branch(tree[2], reading, lambda: np.logical_and(live, condition))
        no = _branch(tree[3], reading, lambda: np.logical_and(live, np.logical_not(condition)))
        if isinstance(yes, tuple) or isinstance(no, tuple):
            (a, b), (c, d) = _fraction(yes), _fraction(no)
            return _reduced(np.where(condition, a, c), np.where(condition, b, d))
        return np.where(condition, _number(yes), _number(no))
    if tag == "call":
        arguments = [_value(a, reading, live) for a in tree[2]]
        if tree[1] == "abs":
            if isinstance(arguments[0], tuple):
                return (np.abs(arguments[0][0]), arguments[0][1])
            return _bounded(np.abs(_number(arguments[0])), reading, live)
        arguments = [_bounded(argument, reading, live) for argument in arguments]   # max(face, 1e10)
        result = arguments[0]
        for argument in arguments[1:]:
            if isinstance(result, tuple) or isinstance(argument, tuple):
                (a, b), (c, d) = _fraction(_bounded(result, reading, live)), _fraction(_bounded(argument, reading, live))
                first = (a * d < c * b) if tree[1] == "min" else (a * d > c * b)
                result = _reduced(np.where(first, a, c), np.where(first, b, d))
            else:
                result = (np.minimum if tree[1] == "min" else np.maximum)(_number(result), _number(argument))
        return result
    if tag == "binary":
        op = tree[1]
        left = _operand(tree[2], reading, live)
        right = _operand(tree[3], reading, live)
        if op != "/" and not isinstance(left, tuple) and not isinstance(right, tuple):
            whole = _whole_binary(op, left, right, reading, live)
            if whole is not None:
                return whole
        (a, b), (c, d) = _fraction(left), _fraction(right)
        if op == "+":
            return _bounded(_reduced(a * d + c * b, b * d), reading, live)
        if op == "-":
            return _bounded(_reduced(a * d - c * b, b * d), reading, live)
        if op == "*":
            return _bounded(_reduced(a * c, b * d), reading, live)
        zero = np.asarray(c) == 0
        if np.any(np.logical_and(zero, live)):
            raise WorkbenchError(f"{reading.text!r} divides by zero for some outcome or parameter value")
        c = np.where(zero, 1, c)
        numerator, denominator = a * d, b * c   # left / right, as a fraction
        if op == "/":
            return _bounded(_reduced(numerator, denominator), reading, live)
        sign = np.where(denominator < 0, -1, 1)
        numerator, denominator = numerator * sign, denominator * sign
        quotient = np.floor_divide(numerator, denominator)
        if op == "//":
            return quotient
        return _bounded(_reduced(a * d - quotient * c * b, b * d), reading, live)
    raise AssertionError(tag)


def _whole_binary(op: str, left, right, reading: _Reading, live):
    """``left op right`` for whole numbers (no fraction on either side, both within
    MAX_TOTAL): the value the fractions' route gives with denominators of 1, without it;
    ``None`` for values that are not whole numbers (that route handles them). A sum,
    difference or product whose operands' least and greatest values keep it within
    MAX_TOTAL is not searched for values past it."""
    a, c = _number(left), _number(right)
    if a.dtype.kind != "i" or c.dtype.kind != "i":
        return None
    if op in ("+", "-", "*"):
        (a_low, a_high), (c_low, c_high) = reading.span(left), reading.span(right)
        if op == "+":
            value, low, high = np.add(a, c, dtype=np.int64), a_low + c_low, a_high + c_high
        elif op == "-":
            value, low, high = np.subtract(a, c, dtype=np.int64), a_low - c_high, a_high - c_low
        else:
            corners = (a_low * c_low, a_low * c_high, a_high * c_low, a_high * c_high)
            value, low, high = np.multiply(a, c, dtype=np.int64), min(corners), max(corners)
        if -MAX_TOTAL <= low and high <= MAX_TOTAL:
            return reading.spanned(value, low, high)
        return _bounded(value, reading, live)
    zero = c == 0
    if zero.any() and np.any(np.logical_and(zero, live)):
        raise WorkbenchError(f"{reading.text!r} divides by zero for some outcome or parameter value")
    if zero.any():
        c = np.where(zero, 1, c)
    quotient = np.floor_divide(a, c, dtype=np.int64)
    if op == "//":
        return quotient
    return _bounded(np.subtract(a, quotient * c, dtype=np.int64), reading, live)
