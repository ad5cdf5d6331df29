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
from ..rules.expressions import Expression

_COMPARE = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
            ">": np.greater, ">=": np.greater_equal}


def evaluate(expression: Expression, names: Mapping[str, Any]) -> np.ndarray:
    """``expression`` over ``names`` (name -> array or number); broadcast to the arrays' length.

    Raises:
        WorkbenchError: a name without a value (an optional parameter left out), or a
            division by zero.
    """
    return np.asarray(_value(expression.tree, names, expression.text))


def _number(value):
    """Booleans as 0/1 for arithmetic."""
    value = np.asarray(value)
    return value.astype(np.int64) if value.dtype == bool else value


def _truth(value):
    value = np.asarray(value)
    return value if value.dtype == bool else value != 0


def _value(tree: tuple, names: Mapping[str, Any], text: str):
    tag = tree[0]
    if tag == "number":
        return tree[1]
    if tag == "name":
        value = names.get(tree[1])
        if value is None:
            raise WorkbenchError(f"{text!r} reads {tree[1]!r}, which has no value here (an optional "
                                 "parameter left out?); give it a value")
        return value
    if tag == "negate":
        return -_number(_value(tree[1], names, text))
    if tag == "not":
        return np.logical_not(_truth(_value(tree[1], names, text)))
    if tag == "and":
        return np.logical_and(_truth(_value(tree[1], names, text)), _truth(_value(tree[2], names, text)))
    if tag == "or":
        return np.logical_or(_truth(_value(tree[1], names, text)), _truth(_value(tree[2], names, text)))
    if tag == "compare":
        return _COMPARE[tree[1]](_number(_value(tree[2], names, text)), _number(_value(tree[3], names, text)))
    if tag == "if":
        condition = _truth(_value(tree[1], names, text))
        return np.where(condition, _number(_value(tree[2], names, text)), _number(_value(tree[3], names, text)))
    if tag == "call":
        arguments = [_number(_value(a, names, text)) for a in tree[2]]
        if tree[1] == "abs":
            return np.abs(arguments[0])
        combine = np.minimum if tree[1] == "min" else np.maximum
        result = arguments[0]
        for argument in arguments[1:]:
            result = combine(result, argument)
        return result
    if tag == "binary":
        op = tree[1]
        left, right = _number(_value(tree[2], names, text)), _number(_value(tree[3], names, text))
        if op == "+":
            return left + right
        if op == "-":
            return left - right
        if op == "*":
            return left * right
        if np.any(np.asarray(right) == 0):
            raise WorkbenchError(f"{text!r} divides by zero for some outcome or parameter value")
        if op == "/":
            return np.true_divide(left, right)
        if op == "//":
            return np.floor_divide(left, right)
        return np.mod(left, right)
    raise AssertionError(tag)
