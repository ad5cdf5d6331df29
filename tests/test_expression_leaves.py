"""A comparison of two leaves (``beaten == 2``, ``total <= difficulty``) over columns is
worked out at once, without walking the tree: its answer (values, type, shape) and its
errors are those of the long way, for every kind of value a name may hold."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from workbench.errors import WorkbenchError
from workbench.rules.expressions import evaluate, parse
from workbench.rules.expressions._evaluate import _compiled

VALUES = {
    "column": np.array([0, 1, 2, 5, -3], dtype=np.int64),
    "other": np.array([2, 1, 0, 5, 9], dtype=np.int64),
    "small": np.array([0, 1, 2, 5, -3], dtype=np.int32),
    "flag": np.array([True, False, True, False, True]),
    "number": 2,
    "yes": True,
    "scalar": np.int64(1),
    "empty": None,
}
OPERATORS = ("==", "!=", "<", "<=", ">", ">=")


def answer(text: str, long_way: bool):
    expression = parse(text)
    function = _compiled(expression)
    leaves = function.leaves
    if long_way:
        function.leaves = None
    try:
        value = evaluate(expression, VALUES)
        return ("value", value.tolist(), value.dtype.str, value.shape)
    except WorkbenchError as exc:
        return ("refused", str(exc))
    finally:
        function.leaves = leaves


@pytest.mark.parametrize("op", OPERATORS)
def test_two_leaves_compared_at_once_are_the_long_way_s_answer(op):
    leaves = [*VALUES, "missing", "2", "0", "1000000000"]
    at_once = 0
    for left, right in itertools.product(leaves, repeat=2):
        if left.isdigit() and right.isdigit():
            continue
        text = f"{left} {op} {right}"
        expression = parse(text)
        assert _compiled(expression).leaves is not None
        quick, slow = answer(text, False), answer(text, True)
        assert quick == slow, text
        at_once += left in ("column", "other", "small") or right in ("column", "other", "small")
    assert at_once > 20


def test_only_a_comparison_of_two_leaves_is_worked_out_at_once():
    assert _compiled(parse("column + 1 == 2")).leaves is None
    assert getattr(_compiled(parse("not column == 2")), "leaves", None) is None
    assert evaluate(parse("column + 1 == number"), VALUES).tolist() == [False, True, False, False, False]


@pytest.mark.parametrize("op", OPERATORS)
def test_two_leaves_compared_over_lists_are_what_evaluate_says_over_the_columns(op):
    from workbench.rules.expressions import compared_rows
    as_lists = {name: value.tolist() if isinstance(value, np.ndarray) and value.dtype == np.int64 else value
                for name, value in VALUES.items()}
    as_lists["huge"] = 2**70
    read = 0
    for left, right in itertools.product([*as_lists, "2", "-3", "missing"], repeat=2):
        text = f"{left} {op} {right}"
        rows = compared_rows(parse(text), as_lists)
        columns = left in ("column", "other") or right in ("column", "other")
        plain = all(name in ("column", "other", "number", "2") for name in (left, right))   # (-3 is a negation)
        assert (rows is not None) == (columns and plain), text   # read here: lists and whole numbers only
        if rows is not None:
            read += 1
            assert rows == evaluate(parse(text), VALUES).tolist(), text
            assert all(type(flag) is bool for flag in rows)
    assert read == 12
