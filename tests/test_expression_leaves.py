"""A comparison of two leaves (``beaten == 2``, ``total <= difficulty``) read over columns
given as Python lists (:func:`~workbench.rules.expressions.compared_rows`, what a small
joint's reading uses) says, row by row, what the interpreter says over the columns; anything
else is left to the interpreter."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from workbench.rules.expressions import compared_rows, parse
from workbench.rules.expressions._evaluate import _compiled, interpreted

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


@pytest.mark.parametrize("op", OPERATORS)
def test_two_leaves_compared_over_lists_are_what_the_interpreter_says_over_the_columns(op):
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
            assert rows == interpreted(parse(text), VALUES).tolist(), text
            assert all(type(flag) is bool for flag in rows)
    assert read == 12


def test_only_a_comparison_of_two_leaves_is_read_over_lists():
    lists = {"column": [0, 1, 2], "number": 2}
    assert compared_rows(parse("column + 1 == 2"), lists) is None
    assert compared_rows(parse("not column == 2"), lists) is None
    assert compared_rows(parse("column == 2 and number == 2"), lists) is None
    assert getattr(_compiled(parse("not column == 2")), "leaves", None) is None
    assert compared_rows(parse("number <= column"), lists) == [False, False, True]
