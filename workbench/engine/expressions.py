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
    value = _bounded(_value(expression.tree, names, expression.text, True), expression.text, True)
    if isinstance(value, tuple):
        numerator, denominator = value
        return np.asarray(numerator / denominator if np.any(denominator != 1) else numerator)
    return np.asarray(value)


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


def _bounded(value, text: str, live):
    """``value`` (a whole number or a fraction), refused where reached beyond MAX_TOTAL."""
    for part in (value if isinstance(value, tuple) else (value,)):
        part = np.asarray(part)
        if part.dtype.kind in "iu" and np.any((np.abs(part) > MAX_TOTAL) & live):
            worst = int(np.max(np.abs(np.where(live, part, 0))))
            raise WorkbenchError(f"{text!r} computes {worst:,} for some outcome or parameter value; "
                                 f"allowed: numbers within {MAX_TOTAL:,} either way")
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


def _value(tree: tuple, names: Mapping[str, Any], text: str, live):
    """The value of ``tree``; ``live``: where it is reached (True, or one flag per row)."""
    tag = tree[0]
    if tag == "number":
        return tree[1]
    if tag == "name":
        value = names.get(tree[1])
        if value is None and tree[1] not in names:   # a Python roll that never returns it
            raise WorkbenchError(f"{text!r} reads {tree[1]!r}, which is no statistic of this roll and "
                                 f"no parameter; names here: {', '.join(names)}")
        if value is None:
            raise WorkbenchError(f"{text!r} reads {tree[1]!r}, which has no value here (an optional "
                                 "parameter left out?); give it a value")
        return value
    if tag == "negate":
        inner = _bounded(_value(tree[1], names, text, live), text, live)
        if isinstance(inner, tuple):
            return (-inner[0], inner[1])
        return -_number(inner)
    if tag == "not":
        return np.logical_not(_truth(_value(tree[1], names, text, live)))
    if tag in ("and", "or"):
        left = _truth(_value(tree[1], names, text, live))
        reached = np.logical_and(live, left if tag == "and" else np.logical_not(left))
        right = _truth(_value(tree[2], names, text, reached))
        return (np.logical_and if tag == "and" else np.logical_or)(left, right)
    if tag == "compare":
        left, right = _value(tree[2], names, text, live), _value(tree[3], names, text, live)
        if isinstance(left, tuple) or isinstance(right, tuple):
            (a, b), (c, d) = _fraction(_bounded(left, text, live)), _fraction(_bounded(right, text, live))
            left, right = a * d, c * b
        return _COMPARE[tree[1]](_number(left), _number(right))
    if tag == "if":
        condition = _truth(_value(tree[1], names, text, live))
        # each branch bounded where it is taken (1e10 if ... else 0 was a table of 1e10 totals)
        taken, other = np.logical_and(live, condition), np.logical_and(live, np.logical_not(condition))
        yes = _bounded(_value(tree[2], names, text, taken), text, taken)
        no = _bounded(_value(tree[3], names, text, other), text, other)
        if isinstance(yes, tuple) or isinstance(no, tuple):
            (a, b), (c, d) = _fraction(yes), _fraction(no)
            return _reduced(np.where(condition, a, c), np.where(condition, b, d))
        return np.where(condition, _number(yes), _number(no))
    if tag == "call":
        arguments = [_value(a, names, text, live) for a in tree[2]]
        if tree[1] == "abs":
            if isinstance(arguments[0], tuple):
                return (np.abs(arguments[0][0]), arguments[0][1])
            return _bounded(np.abs(_number(arguments[0])), text, live)
        arguments = [_bounded(argument, text, live) for argument in arguments]   # max(face, 1e10)
        result = arguments[0]
        for argument in arguments[1:]:
            if isinstance(result, tuple) or isinstance(argument, tuple):
                (a, b), (c, d) = _fraction(_bounded(result, text, live)), _fraction(_bounded(argument, text, live))
                first = (a * d < c * b) if tree[1] == "min" else (a * d > c * b)
                result = _reduced(np.where(first, a, c), np.where(first, b, d))
            else:
                result = (np.minimum if tree[1] == "min" else np.maximum)(_number(result), _number(argument))
        return result
    if tag == "binary":
        op = tree[1]
        left = _bounded(_value(tree[2], names, text, live), text, live)
        right = _bounded(_value(tree[3], names, text, live), text, live)
        (a, b), (c, d) = _fraction(left), _fraction(right)
        if op == "+":
            return _bounded(_reduced(a * d + c * b, b * d), text, live)
        if op == "-":
            return _bounded(_reduced(a * d - c * b, b * d), text, live)
        if op == "*":
            return _bounded(_reduced(a * c, b * d), text, live)
        zero = np.asarray(c) == 0
        if np.any(np.logical_and(zero, live)):
            raise WorkbenchError(f"{text!r} divides by zero for some outcome or parameter value")
        c = np.where(zero, 1, c)
        numerator, denominator = a * d, b * c   # left / right, as a fraction
        if op == "/":
            return _bounded(_reduced(numerator, denominator), text, live)
        sign = np.where(denominator < 0, -1, 1)
        numerator, denominator = numerator * sign, denominator * sign
        quotient = np.floor_divide(numerator, denominator)
        if op == "//":
            return quotient
        return _bounded(_reduced(a * d - quotient * c * b, b * d), text, live)
    raise AssertionError(tag)
