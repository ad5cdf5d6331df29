"""The quick route of the interpreter, for the expressions most files write.

:func:`~workbench.rules.expressions.evaluate` checks, value by value, that nothing computed
passes ``MAX_TOTAL`` and that nothing is divided by zero, searching arrays for their least
and greatest values as it goes. Most expressions need none of it: ``min(action_die + stat,
10)``, ``(total > high) + (total > low)``, ``0 if value == 1 else value`` over small whole
numbers. Here each value is worked out with the interpreter's own operations (the same
numpy calls, the same Python operators on plain numbers: the same values bit for bit) while
its least and greatest values are worked out beside it from its operands' (interval
arithmetic on plain numbers, no search). When every value on the way is known to stay
within ``MAX_TOTAL`` and no divisor can be 0, that is the answer; otherwise (``/`` and its
fractions, floats, a value that might pass the limit, a divisor that might be 0, a name
without a value) :func:`quick` gives up and the interpreter works the expression out as it
always did, refusing what it must with its own message.

Example:
    >>> import numpy as np
    >>> from workbench.rules.expressions import parse
    >>> quick(parse("min(a + 2, 10)"), {"a": np.array([3, 9])}).tolist()
    [5, 10]
    >>> quick(parse("a / 2"), {"a": np.array([3, 9])}) is None   # a fraction: the interpreter's
    True
"""
from __future__ import annotations

import operator
from typing import Any, Mapping

import numpy as np

from ...limits import MAX_TOTAL
from ._parse import Expression
from ._values import as_number, both, either, negation, plain, truth


class _GiveUp(Exception):
    """The quick route cannot vouch for this value: the interpreter works it out."""


def quick(expression: Expression, names: Mapping[str, Any]) -> "np.ndarray | None":
    """``expression`` over ``names`` as :func:`~workbench.rules.expressions.evaluate` gives it,
    or ``None`` when only the interpreter can (see the module's description)."""
    found = quick_bounded(expression, names)
    return None if found is None else found[0]


def quick_bounded(expression: Expression, names: Mapping[str, Any]) -> "tuple[np.ndarray, int, int] | None":
    """:func:`quick`'s answer with a least and a greatest value it cannot pass (worked out
    beside it: every value lies within, not always at the ends), or ``None``.

    Example:
        >>> import numpy as np
        >>> from workbench.rules.expressions import parse
        >>> value, low, high = quick_bounded(parse("min(a + 2, 10)"), {"a": np.array([3, 9])})
        >>> value.tolist(), low, high
        ([5, 10], 5, 10)
    """
    function = expression.__dict__.get("_quick")
    if function is None:
        function = expression.__dict__["_quick"] = _compile(expression.tree)
    try:
        value, low, high = _bounded(function(names))
    except _GiveUp:
        return None
    return np.asarray(value), low, high


def _compile(tree: tuple):
    """``tree`` as nested functions of ``names`` giving ``(value, least, greatest)``."""
    return _MAKERS[tree[0]](tree)


def _checked(value, low: int, high: int):
    if low < -MAX_TOTAL or high > MAX_TOTAL:
        raise _GiveUp
    return value, low, high


def _number(tree: tuple):
    literal = tree[1]
    found = (literal, int(literal), int(literal))

    def number(names):
        if found[1] < -MAX_TOTAL or found[2] > MAX_TOTAL:
            raise _GiveUp
        return found
    return number


def _name(tree: tuple):
    key = tree[1]

    def name(names):
        value = names.get(key)
        kind = type(value)
        if kind is int:
            return _checked(value, value, value)
        if kind is bool:
            return value, int(value), int(value)
        if kind is not np.ndarray or not value.ndim or not value.size:
            raise _GiveUp   # missing, a float, a numpy number...: the interpreter's
        letter = value.dtype.kind
        if letter == "b":
            return value, 0, 1
        if letter not in "iu":
            raise _GiveUp
        return value, None, None   # its least and greatest looked up when needed (not to compare)
    return name


def _bounded(found):
    """``found`` (value, least, greatest) with its least and greatest known, within the limit."""
    value, low, high = found
    if low is None:
        low, high = int(_LEAST(value, axis=None)), int(_GREATEST(value, axis=None))
        if low < -MAX_TOTAL or high > MAX_TOTAL:
            raise _GiveUp
    return value, low, high


_LEAST, _GREATEST = np.minimum.reduce, np.maximum.reduce


def _truth_of(found: tuple):
    """``found``'s value as true/false, with its bounds (0 and 1; one of them when known)."""
    flag = truth(found[0])
    if type(flag) is bool:
        return flag, int(flag), int(flag)
    return flag, 0, 1


def _negate(tree: tuple):
    inner_of = _compile(tree[1])

    def negate(names):
        inner, low, high = _bounded(inner_of(names))
        return (-inner if type(inner) is int else -as_number(inner)), -high, -low
    return negate


def _not(tree: tuple):
    inner_of = _compile(tree[1])

    def not_(names):
        flag, low, high = _truth_of(inner_of(names))
        return negation(flag), 1 - high, 1 - low
    return not_


def _and_or(tree: tuple):
    is_and = tree[0] == "and"
    left_of, right_of = _compile(tree[1]), _compile(tree[2])

    def and_or(names):
        left, left_low, left_high = _truth_of(left_of(names))
        right, right_low, right_high = _truth_of(right_of(names))
        if is_and:
            return both(left, right), min(left_low, right_low), min(left_high, right_high)
        return either(left, right), max(left_low, right_low), max(left_high, right_high)
    return and_or


_COMPARE = {"==": (np.equal, operator.eq), "!=": (np.not_equal, operator.ne), "<": (np.less, operator.lt),
            "<=": (np.less_equal, operator.le), ">": (np.greater, operator.gt),
            ">=": (np.greater_equal, operator.ge)}


def _compare(tree: tuple):
    on_arrays, on_numbers = _COMPARE[tree[1]]
    left_of, right_of = _compile(tree[2]), _compile(tree[3])

    def compare(names):
        left, right = left_of(names)[0], right_of(names)[0]
        if plain(left) and plain(right):
            flag = on_numbers(left, right)
            return flag, int(flag), int(flag)
        left, right = as_number(left), as_number(right)
        if type(left) is int and type(right) is int:
            flag = on_numbers(left, right)
            return flag, int(flag), int(flag)
        return on_arrays(left, right), 0, 1
    return compare


def _if(tree: tuple):
    condition_of, yes_of, no_of = _compile(tree[1]), _compile(tree[2]), _compile(tree[3])

    def if_(names):
        condition = truth(condition_of(names)[0])
        yes, yes_low, yes_high = _bounded(yes_of(names))
        no, no_low, no_high = _bounded(no_of(names))
        if type(condition) is bool and plain(yes) and plain(no):
            return (as_number(yes), yes_low, yes_high) if condition else (as_number(no), no_low, no_high)
        return (np.where(condition, as_number(yes), as_number(no)),
                min(yes_low, no_low), max(yes_high, no_high))
    return if_


def _call(tree: tuple):
    arguments_of = [_compile(argument) for argument in tree[2]]
    if tree[1] == "abs":
        inner_of = arguments_of[0]

        def absolute(names):
            inner, low, high = _bounded(inner_of(names))
            inner = as_number(inner)
            value = abs(inner) if type(inner) is int else np.abs(inner)
            if low >= 0:
                return value, low, high
            return _checked(value, 0 if high >= 0 else -high, max(-low, high))
        return absolute
    least = tree[1] == "min"
    on_numbers, on_arrays = (min, np.minimum) if least else (max, np.maximum)

    def least_or_greatest(names):
        found = [_bounded(argument_of(names)) for argument_of in arguments_of]
        if all(type(value) is int for value, _, _ in found):
            value = on_numbers([value for value, _, _ in found])
        else:
            value = found[0][0]
            for argument, _, _ in found[1:]:
                if plain(value) and plain(argument):
                    value = on_numbers(as_number(value), as_number(argument))
                else:
                    value = on_arrays(as_number(value), as_number(argument))
        lows, highs = [low for _, low, _ in found], [high for _, _, high in found]
        return value, on_numbers(lows), on_numbers(highs)
    return least_or_greatest


_ARRAYS = {"+": np.add, "-": np.subtract, "*": np.multiply}


def _binary(tree: tuple):
    op = tree[1]
    if op == "/":
        def fraction(names):
            raise _GiveUp
        return fraction
    left_of, right_of = _compile(tree[2]), _compile(tree[3])
    on_arrays = _ARRAYS.get(op)

    def binary(names):
        left, a_low, a_high = _bounded(left_of(names))
        right, c_low, c_high = _bounded(right_of(names))
        if op in ("+", "-", "*"):
            if op == "+":
                low, high = a_low + c_low, a_high + c_high
            elif op == "-":
                low, high = a_low - c_high, a_high - c_low
            else:
                corners = (a_low * c_low, a_low * c_high, a_high * c_low, a_high * c_high)
                low, high = min(corners), max(corners)
            if low < -MAX_TOTAL or high > MAX_TOTAL:
                raise _GiveUp
            if plain(left) and plain(right):
                a, c = as_number(left), as_number(right)
                return (a + c if op == "+" else a - c if op == "-" else a * c), low, high
            a, c = np.asarray(left), np.asarray(right)   # true/false count as 1 and 0 in int64
            if a.dtype.kind not in "ib" or c.dtype.kind not in "ib":
                raise _GiveUp
            return on_arrays(a, c, dtype=np.int64), low, high
        a, c = as_number(left), as_number(right)
        if c_low <= 0 <= c_high:   # a divisor that may be 0: the interpreter says where
            raise _GiveUp
        corners = (a_low // c_low, a_low // c_high, a_high // c_low, a_high // c_high)
        q_low, q_high = min(corners), max(corners)
        if type(a) is int and type(c) is int:
            quotient = a // c
            value = quotient if op == "//" else a - quotient * c
        else:
            a, c = np.asarray(a), np.asarray(c)
            if a.dtype.kind != "i" or c.dtype.kind != "i":
                raise _GiveUp
            quotient = np.floor_divide(a, c, dtype=np.int64)
            value = quotient if op == "//" else np.subtract(a, quotient * c, dtype=np.int64)
        if op == "//":
            return value, q_low, q_high
        # a remainder takes the divisor's sign and is smaller than it
        return (value, 0, c_high - 1) if c_low > 0 else (value, c_low + 1, 0)
    return binary


_MAKERS = {"number": _number, "name": _name, "negate": _negate, "not": _not, "and": _and_or,
           "or": _and_or, "compare": _compare, "if": _if, "call": _call, "binary": _binary}
