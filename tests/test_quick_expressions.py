"""The interpreter's quick route (``workbench/rules/expressions/_quick.py``) against the
interpreter itself: on random expressions over random columns and numbers, whatever the
quick route answers is the interpreter's answer bit for bit (values and type), and wherever
the interpreter refuses (a value past the limit where it is reached, a division by zero) the
quick route gives up rather than answer."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from workbench.errors import WorkbenchError
from workbench.limits import MAX_TOTAL
from workbench.rules.expressions import ExpressionError, evaluate, parse
from workbench.rules.expressions._evaluate import interpreted
from workbench.rules.expressions._quick import quick, quick_bounded

NUMBERS = ["0", "1", "2", "3", "7", "10", str(MAX_TOTAL), str(MAX_TOTAL - 1), "true", "false"]
NAMES = ["x", "y", "z", "b", "k", "f", "big"]


def expressions(depth: int):
    leaves = st.sampled_from(NUMBERS + NAMES)
    if depth == 0:
        return leaves
    inner = expressions(depth - 1)
    return st.one_of(
        leaves,
        st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%", "/"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda a: f"(-{a})"), inner.map(lambda a: f"(not {a})"), inner.map(lambda a: f"abs({a})"),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        st.lists(inner, min_size=1, max_size=3).flatmap(
            lambda args: st.sampled_from(["min", "max"]).map(lambda f: f"{f}({', '.join(args)})")),
    )


@st.composite
def columns(draw):
    rows = draw(st.integers(1, 6))
    small = st.integers(-4, 6)
    names = {
        "x": np.array(draw(st.lists(small, min_size=rows, max_size=rows)), np.int64),
        "y": np.array(draw(st.lists(st.integers(0, 2), min_size=rows, max_size=rows)), np.int64),
        "z": np.array(draw(st.lists(small, min_size=rows, max_size=rows)), draw(st.sampled_from([np.int64, np.int32]))),
        "b": np.array(draw(st.lists(st.booleans(), min_size=rows, max_size=rows))),
        "k": draw(st.integers(-3, 3)),
        "f": draw(st.booleans()),
        "big": np.array(draw(st.lists(st.sampled_from([MAX_TOTAL, -MAX_TOTAL, MAX_TOTAL // 2, 0, 1]),
                                      min_size=rows, max_size=rows)), np.int64),
    }
    for name, value in names.items():   # columns of one or two dimensions (they broadcast)
        if isinstance(value, np.ndarray) and draw(st.booleans()):
            names[name] = value.reshape(rows, 1)
    return names


def interpreter(expression, names):
    try:
        return interpreted(expression, names), None
    except WorkbenchError as exc:
        return None, exc


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=expressions(3), names=columns())
def test_the_quick_route_answers_as_the_interpreter_or_gives_up(text, names):
    try:
        expression = parse(text)
    except ExpressionError:   # (a literal division by 0 is refused as the text is read)
        assume(False)
    expected, refused = interpreter(expression, names)
    mine = quick(expression, names)
    if refused is not None:
        assert mine is None, (text, refused)
        return
    if mine is None:
        return
    assert mine.dtype == expected.dtype and mine.shape == expected.shape, text
    assert np.array_equal(mine, expected), text
    assert np.array_equal(evaluate(expression, names), expected)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=expressions(3), names=columns(), loose=st.integers(0, 3))
def test_spans_given_for_arrays_keep_the_answer_and_bound_it(text, names, loose):
    """Bounds a caller knows for some arrays (their least and greatest, or looser) are read
    instead of searching the arrays: the answer is the same, and lies within the bounds given
    back."""
    try:
        expression = parse(text)
    except ExpressionError:
        assume(False)
    spans = {name: (int(value.min()) - loose, int(value.max()) + loose) for name, value in names.items()
             if isinstance(value, np.ndarray) and value.dtype.kind == "i" and value.size}
    found = quick_bounded(expression, names, spans)
    if found is None:
        return
    value, low, high = found
    plain = quick_bounded(expression, names)   # (bounds it looks up are no looser: it answers too)
    assert plain is not None, text
    assert value.dtype == plain[0].dtype and np.array_equal(value, plain[0]), text
    if value.size:
        assert low <= int(value.min()) and int(value.max()) <= high, text


@pytest.mark.parametrize("text, answered", [
    ("min(x + k, 10)", True), ("(x > y) + (x > z)", True), ("0 if x == 1 else x", True),
    ("x // 2 + x % 3", True), ("abs(x - 7) * 2", True), ("not b or x >= 2", True),
    ("x / 2", False),                 # a fraction: the interpreter keeps it exact
    ("x // y", False),                # y may be 0: the interpreter says where
    ("big * 2", False),               # may pass the limit: the interpreter looks
    ("missing + 1", False),           # no value: the interpreter names it
])
def test_the_expressions_files_write_take_the_quick_route(text, answered):
    names = {"x": np.array([1, 5, 9]), "y": np.array([0, 1, 2]), "z": np.array([3, 3, 3]),
             "b": np.array([True, False, True]), "k": 2, "big": np.array([1, 2, MAX_TOTAL])}
    assert (quick(parse(text), names) is not None) == answered


def test_what_the_interpreter_refuses_it_still_refuses_with_its_own_words():
    names = {"x": np.array([1, 2]), "y": np.array([0, 1])}
    with pytest.raises(WorkbenchError, match="divides by zero"):
        evaluate(parse("x // y"), names)
    with pytest.raises(WorkbenchError, match="computes"):
        evaluate(parse("x * 1000000000"), names)
    assert evaluate(parse("0 if y == 0 else x // y"), names).tolist() == [0, 2]


def test_an_expression_worked_out_pickles_without_its_functions():
    import pickle
    expression = parse("min(a + 2, 10) if b else 0")
    names = {"a": np.array([1, 9]), "b": np.array([True, False])}
    first = evaluate(expression, names)
    again = pickle.loads(pickle.dumps(expression))
    assert "_quick" not in again.__dict__ and "_compiled" not in again.__dict__
    assert again == expression and evaluate(again, names).tolist() == first.tolist() == [3, 0]
