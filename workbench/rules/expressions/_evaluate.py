"""Evaluating a parsed expression: the one interpreter of the language.

Each name is a plain number (a parameter, a face's number: :func:`evaluate_numbers`) or a
column of outcomes, one value per row (:func:`evaluate`); the tree is walked once, the same
way for both. Comparisons give booleans, which count as 0 and 1 in arithmetic; ``/`` divides
exactly (a fraction kept as numerator and denominator), ``//`` rounds down and ``%`` is its
remainder. A number computed on the way past ``MAX_TOTAL`` either way is refused where it
is reached, and so is a division by zero.

Example:
    >>> import numpy as np
    >>> from workbench.rules.expressions import parse
    >>> evaluate(parse("(s > a) + (s > b)"), {"s": np.array([3, 5]), "a": 4, "b": np.array([1, 6])})
    array([1, 1])
"""
from __future__ import annotations

import operator
from fractions import Fraction
from itertools import repeat
from typing import Any, Mapping

import numpy as np

from ...errors import WorkbenchError
from ...limits import MAX_TOTAL
from ._parse import Expression
from ._quick import quick, quick_bounded
from ._values import (Reading, as_number, both, bounded, either, fraction, fraction_arithmetic, negation,
                      plain, reduced, truth, whole_arithmetic, within)

_COMPARE = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
            ">": np.greater, ">=": np.greater_equal}
_COMPARE_PLAIN = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
                  ">": operator.gt, ">=": operator.ge}


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
    value = quick(expression, names)   # nothing on the way can need refusing: worked out as below
    if value is not None:
        return value
    return interpreted(expression, names)


def evaluate_bounded(expression: Expression, names: Mapping[str, Any],
                     spans: "Mapping[str, tuple[int, int]] | None" = None) -> "tuple[np.ndarray, int | None, int | None]":
    """:func:`evaluate`'s answer with a least and a greatest value it cannot pass when the
    quick route worked it out (``None`` for both when the interpreter did): what a caller
    would otherwise search the answer for. ``spans``: least and greatest values that some
    names' arrays are known not to pass (the caller's bounds, not looked up again).

    Example:
        >>> import numpy as np
        >>> from workbench.rules.expressions import parse
        >>> value, low, high = evaluate_bounded(parse("(s > a) + (s > b)"), {"s": np.array([3, 5]),
        ...                                                                 "a": 4, "b": np.array([1, 6])})
        >>> value.tolist(), low, high
        ([1, 1], 0, 2)
    """
    found = quick_bounded(expression, names, spans)
    if found is not None:
        return found
    return interpreted(expression, names), None, None


def interpreted(expression: Expression, names: Mapping[str, Any]) -> np.ndarray:
    """:func:`evaluate` by the interpreter alone, every value checked where it is reached
    (what :func:`evaluate` does when its quick route cannot vouch for an expression)."""
    reading = Reading(names, expression.text, rows=True)
    value = bounded(_compiled(expression)(reading, True), reading, True)
    if isinstance(value, tuple):
        numerator, denominator = value
        return np.asarray(numerator / denominator if np.any(denominator != 1) else numerator)
    return np.asarray(value)


def evaluate_numbers(expression: Expression, names: Mapping[str, Any]) -> "int | Fraction":
    """``expression`` over plain numbers (parameters, a face's number), as :func:`evaluate`
    works it out over columns: a whole number (a condition: 1 or 0), or a
    :class:`~fractions.Fraction` where ``/`` leaves one.

    Raises:
        WorkbenchError: as :func:`evaluate` (a name without a value, a division by zero, a
            number beyond ``MAX_TOTAL`` either way on the way), said of these numbers.

    Example:
        >>> from workbench.rules.expressions import parse
        >>> evaluate_numbers(parse("min(hunger, pool)"), {"hunger": 4, "pool": 3})
        3
        >>> evaluate_numbers(parse("face * 10000000000"), {"face": 2})
        Traceback (most recent call last):
        ...
        workbench.errors.WorkbenchError: 'face * 10000000000' computes 10,000,000,000; allowed: numbers within 1,000,000,000 either way
    """
    reading = Reading(names, expression.text, False)
    value = _compiled(expression)(reading, True)
    if type(value) is bool or (type(value) is int and -MAX_TOTAL <= value <= MAX_TOTAL):
        return int(value)
    value = bounded(value, reading, True)
    if isinstance(value, tuple):
        numerator, denominator = (int(part) for part in value)
        return Fraction(numerator, denominator)
    return int(value)


_LEAVES = ("number", "name")
"""Nodes whose value does not depend on where they are reached (``live`` is not worked out
for them unless a value past the limit must be told where it is reached)."""


def _compiled(expression: Expression):
    """The function of ``(reading, live)`` that :func:`_compile` makes of the expression's
    tree, made on first use and kept with the expression (a die's counts are read face
    after face; pickles leave it out)."""
    function = expression.__dict__.get("_compiled")
    if function is None:
        function = expression.__dict__["_compiled"] = _compile(expression.tree)
    return function


def _compile(tree: tuple):
    """``tree`` as nested Python functions of ``(reading, live)``: its value where ``live``
    (True, or one flag per row) says it is reached."""
    return _COMPILERS[tree[0]](tree)


def _number_node(tree: tuple):
    literal = tree[1]
    return lambda reading, live: literal


def _name(tree: tuple):
    key = tree[1]

    def name(reading: Reading, live):
        names = reading.names
        value = names.get(key)
        if value is None and key not in names and reading.rows:   # a Python roll that never returns it
            raise WorkbenchError(f"{reading.text!r} reads {key!r}, which is no statistic of this roll "
                                 f"and no parameter; names here: {', '.join(names)}")
        if value is None:
            raise WorkbenchError(f"{reading.text!r} reads {key!r}, which has no value here (an "
                                 "optional parameter left out?); give it a value")
        return value
    return name


def _bounded_already(tree: tuple) -> bool:
    """Whether the value of ``tree`` went through :func:`bounded` as it was worked out (a
    sum, difference, product, ``/`` or ``%``, or a negated value); ``//`` of fractions may
    leave it."""
    return tree[0] == "negate" or (tree[0] == "binary" and tree[1] != "//")


def _operand(tree: tuple):
    """An operand of arithmetic, refused where reached beyond MAX_TOTAL."""
    value_of = _compile(tree)
    if _bounded_already(tree) or (tree[0] == "number" and -MAX_TOTAL <= tree[1] <= MAX_TOTAL):
        return value_of

    def operand(reading: Reading, live):
        value = value_of(reading, live)
        if type(value) is int and -MAX_TOTAL <= value <= MAX_TOTAL:
            return value
        return bounded(value, reading, live)
    return operand


def _negate(tree: tuple):
    inner_of = _operand(tree[1])

    def negate(reading: Reading, live):
        inner = inner_of(reading, live)
        if type(inner) is int:
            return -inner
        if isinstance(inner, tuple):
            return (-inner[0], inner[1])
        span = reading.span(inner)
        negated = -as_number(inner)
        return negated if span is None else reading.spanned(negated, -span[1], -span[0])
    return negate


def _not_node(tree: tuple):
    inner_of = _compile(tree[1])
    return lambda reading, live: negation(truth(inner_of(reading, live)))


def _and_or(tree: tuple):
    """``a and b``, ``a or b``: ``b`` is reached where ``a`` does not decide."""
    is_and, right_is_leaf = tree[0] == "and", tree[2][0] in _LEAVES
    left_of, right_of = _compile(tree[1]), _compile(tree[2])

    def and_or(reading: Reading, live):
        left = truth(left_of(reading, live))
        reached = live if right_is_leaf else both(live, left if is_and else negation(left))
        right = truth(right_of(reading, reached))
        return both(left, right) if is_and else either(left, right)
    return and_or


def _leaf(tree: tuple, names: Mapping[str, Any]):
    """The value of a leaf (a name or a number), or ``None`` when it has none."""
    return tree[1] if tree[0] == "number" else names.get(tree[1])


_INT64 = (-2**63, 2**63 - 1)


def compared_rows(expression: Expression, names: Mapping[str, Any]) -> list[bool] | None:
    """A comparison of two leaves (``beaten == 2``, ``total <= difficulty``) over columns of
    whole numbers given as Python lists (one int per row, as an int64 column's ``tolist()``
    gives them): whether it holds, row by row, as :func:`evaluate` says it over those columns.
    ``None`` for anything else (another expression, a name with no value or with another kind
    of value, a number past 64 bits, no column at all): then :func:`evaluate` reads it.

    Example:
        >>> from workbench.rules.expressions import parse
        >>> compared_rows(parse("beaten >= 1"), {"beaten": [0, 1, 2]})
        [False, True, True]
        >>> compared_rows(parse("beaten + 1 >= 1"), {"beaten": [0, 1, 2]}) is None
        True
    """
    leaves = getattr(_compiled(expression), "leaves", None)
    if leaves is None:
        return None
    left_tree, right_tree, on_numbers = leaves
    left, right = _leaf(left_tree, names), _leaf(right_tree, names)
    low, high = _INT64
    for value in (left, right):
        if type(value) is not list and (type(value) is not int or not low <= value <= high):
            return None
    if type(left) is list:
        return list(map(on_numbers, left, right if type(right) is list else repeat(right)))
    if type(right) is list:
        return list(map(on_numbers, repeat(left), right))
    return None


def _compare(tree: tuple):
    left_of, right_of = _compile(tree[2]), _compile(tree[3])
    on_arrays, on_numbers = _COMPARE[tree[1]], _COMPARE_PLAIN[tree[1]]
    leaves = (tree[2], tree[3], on_numbers) if tree[2][0] in _LEAVES and tree[3][0] in _LEAVES else None

    def compare(reading: Reading, live):
        left, right = left_of(reading, live), right_of(reading, live)
        if plain(left) and plain(right):   # (true and false compare as 1 and 0)
            return on_numbers(left, right)
        if isinstance(left, tuple) or isinstance(right, tuple):
            (a, b), (c, d) = fraction(bounded(left, reading, live)), fraction(bounded(right, reading, live))
            left, right = a * d, c * b
        left, right = as_number(left), as_number(right)
        if type(left) is int and type(right) is int:
            return on_numbers(left, right)
        return on_arrays(left, right)
    compare.leaves = leaves   # read by compared_rows()
    return compare


def _branch(tree: tuple):
    """One branch of an ``if``, bounded where it is taken (``where()``: that mask, worked out
    when the branch needs it)."""
    value_of, leaf = _compile(tree), tree[0] in _LEAVES

    def branch(reading: Reading, where):
        taken = None if leaf else where()
        value = value_of(reading, True if taken is None else taken)
        if taken is None:
            if type(value) is int and -MAX_TOTAL <= value <= MAX_TOTAL:
                return value
            if not isinstance(value, tuple) and within(value, reading):
                return value
            taken = where()
        return bounded(value, reading, taken)
    return branch


def _if(tree: tuple):
    condition_of, yes_of, no_of = _compile(tree[1]), _branch(tree[2]), _branch(tree[3])
    leaves = tree[2][0] in _LEAVES and tree[3][0] in _LEAVES
    yes_leaf, no_leaf = _compile(tree[2]), _compile(tree[3])

    def if_(reading: Reading, live):
        condition = truth(condition_of(reading, live))
        if leaves and type(condition) is bool:   # (0 if dice == 0 else 2): both read, one kept
            yes = yes_leaf(reading, True)
            if type(yes) is int and -MAX_TOTAL <= yes <= MAX_TOTAL:
                no = no_leaf(reading, True)
                if type(no) is int and -MAX_TOTAL <= no <= MAX_TOTAL:
                    return yes if condition else no
        # each branch bounded where it is taken (1e10 if ... else 0 was a table of 1e10 totals)
        yes = yes_of(reading, lambda: both(live, condition))
        no = no_of(reading, lambda: both(live, negation(condition)))
        if isinstance(yes, tuple) or isinstance(no, tuple):
            (a, b), (c, d) = fraction(yes), fraction(no)
            return reduced(np.where(condition, a, c), np.where(condition, b, d))
        if type(condition) is bool and plain(yes) and plain(no):
            return as_number(yes) if condition else as_number(no)
        return np.where(condition, as_number(yes), as_number(no))
    return if_


def _call(tree: tuple):
    return (_abs if tree[1] == "abs" else _least_or_greatest)(tree)


def _abs(tree: tuple):
    inner_of = _compile(tree[2][0])

    def absolute(reading: Reading, live):
        inner = inner_of(reading, live)
        if isinstance(inner, tuple):
            return (np.abs(inner[0]), inner[1])
        inner = as_number(inner)
        return bounded(abs(inner) if type(inner) is int else np.abs(inner), reading, live)
    return absolute


def _least_or_greatest(tree: tuple):
    """``min(a, b, ...)`` / ``max(a, b, ...)``: each argument bounded (``max(face, 1e10)``)."""
    arguments_of = [_compile(argument) for argument in tree[2]]
    least = tree[1] == "min"
    on_numbers, on_arrays = (min, np.minimum) if least else (max, np.maximum)

    def least_or_greatest(reading: Reading, live):
        arguments = [argument_of(reading, live) for argument_of in arguments_of]
        if all(type(argument) is int and -MAX_TOTAL <= argument <= MAX_TOTAL for argument in arguments):
            return on_numbers(arguments)
        arguments = [bounded(argument, reading, live) for argument in arguments]
        result = arguments[0]
        for argument in arguments[1:]:
            if isinstance(result, tuple) or isinstance(argument, tuple):
                (a, b), (c, d) = fraction(bounded(result, reading, live)), fraction(bounded(argument, reading, live))
                first = (a * d < c * b) if least else (a * d > c * b)
                result = reduced(np.where(first, a, c), np.where(first, b, d))
            elif plain(result) and plain(argument):
                result = on_numbers(as_number(result), as_number(argument))
            else:
                result = on_arrays(as_number(result), as_number(argument))
        return result
    return least_or_greatest


def _binary(tree: tuple):
    op, left_of, right_of = tree[1], _operand(tree[2]), _operand(tree[3])

    def binary(reading: Reading, live):
        left, right = left_of(reading, live), right_of(reading, live)
        if op != "/" and not isinstance(left, tuple) and not isinstance(right, tuple):
            whole = whole_arithmetic(op, left, right, reading, live)
            if whole is not None:
                return whole
        return fraction_arithmetic(op, left, right, reading, live)
    return binary


_COMPILERS = {"number": _number_node, "name": _name, "negate": _negate, "not": _not_node,
              "and": _and_or, "or": _and_or, "compare": _compare, "if": _if, "call": _call,
              "binary": _binary}
"""How each kind of node of the tree (:class:`~workbench.rules.expressions.Expression`) is
made into a function."""


