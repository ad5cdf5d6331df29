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
always did, refusing what it must with its own message. Whole-number arrays (two, or one and
a number) go straight to numpy's function, as the helpers would send them.

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


def quick_bounded(expression: Expression, names: Mapping[str, Any],
                  spans: "Mapping[str, tuple[int, int]] | None" = None) -> "tuple[np.ndarray, int, int] | None":
    """:func:`quick`'s answer with a least and a greatest value it cannot pass (worked out
    beside it: every value lies within, not always at the ends), or ``None``. ``spans``: for
    some names whose values are arrays, a least and a greatest value the array does not pass
    (known to the caller: not looked up).

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
        value, low, high = _bounded(function(names, spans or _NO_SPANS))
    except _GiveUp:
        return None
    return np.asarray(value), low, high


def _compile(tree: tuple):
    """``tree`` as nested functions of ``(names, spans)`` giving ``(value, least, greatest)``
    (a name's array gives ``None`` for both: looked up where an operation needs them)."""
    return _MAKERS[tree[0]](tree)


def _bounded_of(tree: tuple):
    """``tree`` as a function giving its value with its least and greatest known (a name's
    array: given in ``spans``, else looked up)."""
    found_of = _compile(tree)
    if tree[0] != "name":
        return found_of
    key = tree[1]

    def bounded(names, spans):
        value, low, high = found_of(names, spans)
        if low is None:
            low, high = _span(value, spans.get(key))
        return value, low, high
    return bounded


def _checked(value, low: int, high: int):
    if low < -MAX_TOTAL or high > MAX_TOTAL:
        raise _GiveUp
    return value, low, high


def _leaf(value):
    """A name's value with its least and greatest (``None`` for a whole-number array: looked
    up when needed, not to compare); refused (:class:`_GiveUp`) unless a whole number, a truth
    value or an array of either."""
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
    return value, None, None


def _span(value, known: "tuple[int, int] | None" = None) -> tuple[int, int]:
    """An array's least and greatest (``known``: bounds it lies within, given), within the limit."""
    if known is not None:
        low, high = known
    else:
        low, high = int(_LEAST(value, axis=None)), int(_GREATEST(value, axis=None))
    if low < -MAX_TOTAL or high > MAX_TOTAL:
        raise _GiveUp
    return low, high


def _bounded(found):
    """``found`` (value, least, greatest) with its least and greatest known, within the limit."""
    value, low, high = found
    if low is None:
        low, high = _span(value)
    return value, low, high


_LEAST, _GREATEST = np.minimum.reduce, np.maximum.reduce
_NO_SPANS: dict = {}


def _truth_bounds(flag) -> tuple[int, int]:
    """Least and greatest of a truth value (one of 0 and 1 when known), or of an array of them."""
    return (int(flag), int(flag)) if type(flag) is bool else (0, 1)


def _compared(on_numbers, on_arrays, left, right):
    if plain(left) and plain(right):
        flag = on_numbers(left, right)
        return flag, int(flag), int(flag)
    left, right = as_number(left), as_number(right)
    if type(left) is int and type(right) is int:
        flag = on_numbers(left, right)
        return flag, int(flag), int(flag)
    return on_arrays(left, right), 0, 1


def _arithmetic(op: str, on_arrays, left, right, low: int, high: int):
    """``left op right`` (``+``, ``-``, ``*``) whose least and greatest are known."""
    if low < -MAX_TOTAL or high > MAX_TOTAL:
        raise _GiveUp
    if plain(left) and plain(right):
        a, c = as_number(left), as_number(right)
        return (a + c if op == "+" else a - c if op == "-" else a * c), low, high
    a, c = np.asarray(left), np.asarray(right)   # true/false count as 1 and 0 in int64
    if a.dtype.kind not in "ib" or c.dtype.kind not in "ib":
        raise _GiveUp
    return on_arrays(a, c, dtype=np.int64), low, high


def _divided(op: str, left, right, a_low: int, a_high: int, c_low: int, c_high: int):
    """``left // right`` or ``left % right`` whose operands' least and greatest are known."""
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


def _if(condition, yes, yes_low: int, yes_high: int, no, no_low: int, no_high: int):
    if type(condition) is bool and plain(yes) and plain(no):
        return (as_number(yes), yes_low, yes_high) if condition else (as_number(no), no_low, no_high)
    return np.where(condition, as_number(yes), as_number(no)), min(yes_low, no_low), max(yes_high, no_high)


def _absolute(inner, low: int, high: int):
    inner = as_number(inner)
    value = abs(inner) if type(inner) is int else np.abs(inner)
    if low >= 0:
        return value, low, high
    return _checked(value, 0 if high >= 0 else -high, max(-low, high))


def _least_or_greatest(on_numbers, on_arrays, found: list):
    if all(type(value) is int for value, _, _ in found):
        value = on_numbers([value for value, _, _ in found])
    else:
        value = found[0][0]
        for argument, _, _ in found[1:]:
            if plain(value) and plain(argument):
                value = on_numbers(as_number(value), as_number(argument))
            else:
                value = on_arrays(as_number(value), as_number(argument))
    return value, on_numbers([low for _, low, _ in found]), on_numbers([high for _, _, high in found])


_COMPARE = {"==": (operator.eq, np.equal), "!=": (operator.ne, np.not_equal), "<": (operator.lt, np.less),
            "<=": (operator.le, np.less_equal), ">": (operator.gt, np.greater),
            ">=": (operator.ge, np.greater_equal)}

_ARRAYS = {"+": np.add, "-": np.subtract, "*": np.multiply}


def _number(tree: tuple):
    literal = tree[1]
    found = (literal, int(literal), int(literal))

    def number(names, spans):
        if found[1] < -MAX_TOTAL or found[2] > MAX_TOTAL:
            raise _GiveUp
        return found
    return number


def _name(tree: tuple):
    key = tree[1]

    def name(names, spans):
        return _leaf(names.get(key))
    return name


def _negate(tree: tuple):
    inner_of = _bounded_of(tree[1])

    def negate(names, spans):
        inner, low, high = inner_of(names, spans)
        return (-inner if type(inner) is int else -as_number(inner)), -high, -low
    return negate


def _truth_of(tree: tuple):
    inner_of = _compile(tree)

    def truth_of(names, spans):
        flag = truth(inner_of(names, spans)[0])
        return (flag, *_truth_bounds(flag))
    return truth_of


def _not(tree: tuple):
    inner_of = _truth_of(tree[1])

    def not_(names, spans):
        flag, low, high = inner_of(names, spans)
        return negation(flag), 1 - high, 1 - low
    return not_


def _and_or(tree: tuple):
    join, pick = (both, min) if tree[0] == "and" else (either, max)
    left_of, right_of = _truth_of(tree[1]), _truth_of(tree[2])

    def and_or(names, spans):
        left, left_low, left_high = left_of(names, spans)
        right, right_low, right_high = right_of(names, spans)
        return join(left, right), pick(left_low, right_low), pick(left_high, right_high)
    return and_or


def _compare(tree: tuple):
    on_numbers, on_arrays = _COMPARE[tree[1]]
    left_of, right_of = _compile(tree[2]), _compile(tree[3])

    def compare(names, spans):
        left, right = left_of(names, spans)[0], right_of(names, spans)[0]
        if _whole_arrays(left, right):
            return on_arrays(left, right), 0, 1
        return _compared(on_numbers, on_arrays, left, right)
    return compare


def _if_else(tree: tuple):
    condition_of = _compile(tree[1])
    yes_of, no_of = _bounded_of(tree[2]), _bounded_of(tree[3])

    def if_else(names, spans):
        condition = truth(condition_of(names, spans)[0])
        return _if(condition, *yes_of(names, spans), *no_of(names, spans))
    return if_else


def _call(tree: tuple):
    arguments_of = [_bounded_of(argument) for argument in tree[2]]
    if tree[1] == "abs":
        inner_of = arguments_of[0]

        def absolute(names, spans):
            return _absolute(*inner_of(names, spans))
        return absolute
    functions = (min, np.minimum) if tree[1] == "min" else (max, np.maximum)
    on_numbers, on_arrays = functions
    if len(arguments_of) == 2:
        first_of, second_of = arguments_of

        def of_two(names, spans):
            first, second = first_of(names, spans), second_of(names, spans)
            if _whole_arrays(first[0], second[0]):   # (numpy's own, as the helper would)
                return (on_arrays(first[0], second[0]), on_numbers(first[1], second[1]),
                        on_numbers(first[2], second[2]))
            return _least_or_greatest(on_numbers, on_arrays, [first, second])
        return of_two

    def least_or_greatest(names, spans):
        return _least_or_greatest(on_numbers, on_arrays, [argument_of(names, spans) for argument_of in arguments_of])
    return least_or_greatest


def _binary(tree: tuple):
    op = tree[1]
    if op == "/":
        def fraction(names, spans):   # a fraction: the interpreter's (its operands never worked out)
            raise _GiveUp
        return fraction
    left_of, right_of = _bounded_of(tree[2]), _bounded_of(tree[3])
    if op not in _ARRAYS:
        def divided(names, spans):
            left, a_low, a_high = left_of(names, spans)
            right, c_low, c_high = right_of(names, spans)
            return _divided(op, left, right, a_low, a_high, c_low, c_high)
        return divided
    on_arrays = _ARRAYS[op]

    def arithmetic(names, spans):
        left, a_low, a_high = left_of(names, spans)
        right, c_low, c_high = right_of(names, spans)
        if op == "+":
            low, high = a_low + c_low, a_high + c_high
        elif op == "-":
            low, high = a_low - c_high, a_high - c_low
        else:
            corners = (a_low * c_low, a_low * c_high, a_high * c_low, a_high * c_high)
            low, high = min(corners), max(corners)
        if -MAX_TOTAL <= low and high <= MAX_TOTAL and _whole_arrays(left, right, truths=True):
            return on_arrays(left, right, dtype=_INT64), low, high   # (as the helper would)
        return _arithmetic(op, on_arrays, left, right, low, high)
    return arithmetic


def _whole_arrays(left, right, truths: bool = False) -> bool:
    """Whether two values are whole-number arrays (int64; ``truths``: or true/false), or one
    is and the other a plain whole number: what numpy's own functions work out as the quick
    route's helpers do, without the helpers."""
    if type(left) is np.ndarray:
        kind = left.dtype
        if not (kind is _INT64 or (truths and kind is _BOOL)):
            return False
        if type(right) is int:
            return True
    elif type(left) is not int:
        return False
    if type(right) is not np.ndarray:
        return False
    kind = right.dtype
    return kind is _INT64 or (truths and kind is _BOOL)


_INT64, _BOOL = np.dtype(np.int64), np.dtype(bool)

_MAKERS = {"number": _number, "name": _name, "negate": _negate, "not": _not, "and": _and_or,
           "or": _and_or, "compare": _compare, "if": _if_else, "call": _call, "binary": _binary}
