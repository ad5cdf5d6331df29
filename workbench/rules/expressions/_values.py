"""The values an expression is worked out over, and the arithmetic the evaluator shares.

A value is a plain Python whole number or truth value (a parameter, a face's number, a
literal), a numpy array with one value per row of outcomes, or a fraction kept as
``(numerator, denominator)`` (arrays, the denominator above 0) where ``/`` leaves one. Plain
numbers are worked out with Python's operators and arrays with numpy's: the same values.
Every number computed past ``MAX_TOTAL`` either way is refused where it is reached
(:func:`bounded`), said "for some outcome or parameter value" when reading rows.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ...errors import WorkbenchError
from ...limits import MAX_TOTAL


class Reading:
    """One evaluation: the names' values, the text (for errors), whether the values are
    columns of outcomes (``rows``: errors say "for some outcome or parameter value") and the
    least and greatest value of each whole-number array met so far (by identity), so that a
    sum of values known to be small is not searched again for values past MAX_TOTAL."""

    __slots__ = ("names", "text", "rows", "spans")

    def __init__(self, names: Mapping[str, Any], text: str, rows: bool):
        self.names, self.text, self.rows, self.spans = names, text, rows, {}

    @property
    def where(self) -> str:
        """How an error says where a value was reached."""
        return " for some outcome or parameter value" if self.rows else ""

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
        if not value.ndim:
            return int(value), int(value)
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


def plain(value) -> bool:
    """Whether ``value`` is a plain Python whole number or truth value (a parameter, a face's
    number, a literal): worked out with Python's own operators, as numpy would for one row."""
    return type(value) is int or type(value) is bool


def as_number(value):
    """Booleans as 0/1 for arithmetic."""
    if type(value) is int:
        return value
    if type(value) is bool:
        return int(value)
    value = np.asarray(value)
    return value.astype(np.int64) if value.dtype == bool else value


def truth(value):
    """A value as true/false (an array of them; a fraction is true where not 0)."""
    if plain(value):
        return bool(value)
    if isinstance(value, tuple):
        return np.asarray(value[0]) != 0
    value = np.asarray(value)
    return value if value.dtype == bool else value != 0


def negation(truth):
    """``not`` of a truth value or an array of them."""
    return (not truth) if type(truth) is bool else np.logical_not(truth)


def both(one, other):
    """``one and other``: truth values or arrays of them."""
    if type(one) is bool and type(other) is bool:
        return one and other
    return np.logical_and(one, other)


def either(one, other):
    """``one or other``: truth values or arrays of them."""
    if type(one) is bool and type(other) is bool:
        return one or other
    return np.logical_or(one, other)


def fraction(value):
    """(numerator, denominator > 0) of a value."""
    if isinstance(value, tuple):
        return value
    return np.asarray(as_number(value)), np.int64(1)   # arrays: past int64, numpy wraps silently


def within(part, reading: Reading) -> bool:
    """Whether ``part`` (a number or an array) lies within MAX_TOTAL everywhere: the usual
    case, told by its least and greatest value (known, or looked up once) before anything
    else is worked out."""
    span = reading.span(part)
    return span is not None and -MAX_TOTAL <= span[0] and span[1] <= MAX_TOTAL


def bounded(value, reading: Reading, live):
    """``value`` (a whole number or a fraction), refused where reached beyond MAX_TOTAL."""
    if type(value) is bool or (type(value) is int and -MAX_TOTAL <= value <= MAX_TOTAL):
        return value
    for part in (value if isinstance(value, tuple) else (value,)):
        if within(part, reading):
            continue
        part = np.asarray(part)
        if part.dtype.kind in "iu" and np.any((np.abs(part) > MAX_TOTAL) & live):
            worst = int(np.max(np.abs(np.where(live, part, 0))))
            raise WorkbenchError(f"{reading.text!r} computes {worst:,}{reading.where}; allowed: "
                                 f"numbers within {MAX_TOTAL:,} either way")
    return value


def reduced(numerator, denominator):
    """A fraction in lowest terms, its denominator above 0: the numerator alone where every
    denominator is 1."""
    numerator, denominator = np.asarray(numerator, np.int64), np.asarray(denominator, np.int64)
    sign = np.where(denominator < 0, -1, 1)
    numerator, denominator = numerator * sign, denominator * sign
    common = np.gcd(numerator, denominator)
    common = np.where(common == 0, 1, common)
    numerator, denominator = numerator // common, denominator // common
    if not np.any(denominator != 1):
        return numerator
    return numerator, denominator


def fraction_arithmetic(op: str, left, right, reading: Reading, live):
    """``left op right`` with either side a fraction, or ``/``: exact, as a fraction."""
    (a, b), (c, d) = fraction(left), fraction(right)
    if op == "+":
        return bounded(reduced(a * d + c * b, b * d), reading, live)
    if op == "-":
        return bounded(reduced(a * d - c * b, b * d), reading, live)
    if op == "*":
        return bounded(reduced(a * c, b * d), reading, live)
    zero = np.asarray(c) == 0
    if np.any(np.logical_and(zero, live)):
        raise WorkbenchError(f"{reading.text!r} divides by zero{reading.where}")
    c = np.where(zero, 1, c)
    numerator, denominator = a * d, b * c   # left / right, as a fraction
    if op == "/":
        return bounded(reduced(numerator, denominator), reading, live)
    sign = np.where(denominator < 0, -1, 1)
    numerator, denominator = numerator * sign, denominator * sign
    quotient = np.floor_divide(numerator, denominator)
    if op == "//":
        return quotient
    return bounded(reduced(a * d - quotient * c * b, b * d), reading, live)


def whole_arithmetic(op: str, left, right, reading: Reading, live):
    """``left op right`` for whole numbers (no fraction on either side, both within
    MAX_TOTAL): the value the fractions' route gives with denominators of 1, without it;
    ``None`` for values that are not whole numbers (that route handles them). A sum,
    difference or product whose operands' least and greatest values keep it within
    MAX_TOTAL is not searched for values past it."""
    a, c = as_number(left), as_number(right)
    if type(a) is int and type(c) is int:
        result = plain_arithmetic(op, a, c, reading, live)
        if result is not None:
            return result
    a, c = np.asarray(a), np.asarray(c)
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
        return bounded(value, reading, live)
    zero = c == 0
    if zero.any() and np.any(np.logical_and(zero, live)):
        raise WorkbenchError(f"{reading.text!r} divides by zero{reading.where}")
    if zero.any():
        c = np.where(zero, 1, c)
    quotient = np.floor_divide(a, c, dtype=np.int64)
    if op == "//":
        return quotient
    return bounded(np.subtract(a, quotient * c, dtype=np.int64), reading, live)


def plain_arithmetic(op: str, a: int, c: int, reading: Reading, live):
    """:func:`whole_arithmetic` of two plain whole numbers, with Python's operators (the same
    values: ``//`` rounds down and ``%`` takes the divisor's sign in both); ``None`` for a
    sum, difference or product past MAX_TOTAL (the arrays' route bounds it where reached)."""
    if op in ("+", "-", "*"):
        value = a + c if op == "+" else (a - c if op == "-" else a * c)
        return value if -MAX_TOTAL <= value <= MAX_TOTAL else None
    if c == 0:
        if np.any(live):
            raise WorkbenchError(f"{reading.text!r} divides by zero{reading.where}")
        c = 1
    quotient = a // c
    if op == "//":
        return quotient
    return bounded(a - quotient * c, reading, live)
