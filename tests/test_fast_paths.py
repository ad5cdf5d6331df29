"""The quick routes of a cold check give the general routes' answers.

A check of a data file goes through many small steps; each quick route below skips work the
general route does, and is compared with it over many random cases (hypothesis), or over
every shipped system with statistics:

- rows sorted and merged (one compiled call, or ``numpy.lexsort``) against ``numpy.unique``
  and ``bincount``, bit for bit; a joint's total table and marginals the same way;
- expressions over arrays (whole numbers without the exact-fraction route, sums of values
  known to be small not searched for values past the limit, ``live`` not worked out for
  leaves) against the general route (every value a fraction, every value searched), errors
  included; and row by row against the expressions over plain numbers (nested functions);
- a roll cut down to what a reading needs (not checked again) against the same roll built
  and checked anew; a die narrowed to fewer counts against the die built anew;
- counts of a face's number worked out at load against each check's evaluation;
- tiers and P(pass) read together against :func:`reading.tiers` and :func:`reading.p_pass`
  read apart; score expressions evaluated for every die type at once against one by one.
"""
from __future__ import annotations

import contextlib
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import workbench
from workbench.engine import _rows, cut_down
from workbench.engine import evaluate as evaluate_module
from workbench.engine.evaluate import evaluate_roll
from workbench.engine.joint import JointDistribution
from workbench.errors import WorkbenchError
from workbench.results import reading
from workbench.rules.dice import Die
from workbench.rules.expressions import _evaluate, _values, evaluate, evaluate_numbers, parse
from workbench.rules.roll import Keep, RollSpec, Sum

RANDOM = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def unique_merge(rows, probabilities):
    """The reference: numpy's own sorted unique rows, probabilities added by bincount."""
    unique, inverse = np.unique(rows, axis=0, return_inverse=True)
    return unique, np.bincount(inverse.reshape(-1), weights=probabilities, minlength=len(unique))


@st.composite
def tables(draw):
    n, width = draw(st.integers(1, 400)), draw(st.integers(1, 5))
    reach = draw(st.sampled_from([3, 40, 2 ** 20, 2 ** 40, 2 ** 61]))
    distinct = draw(st.integers(1, n))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    rng = np.random.default_rng(seed)
    base = rng.integers(-reach, reach, (distinct, width), dtype=np.int64)
    rows = base[rng.integers(0, distinct, n)]
    probabilities = rng.random(n) * 10.0 ** rng.integers(-18, 1, n)
    return rows, probabilities


@RANDOM
@given(tables())
def test_merged_rows_are_numpys_unique_rows_bit_for_bit(table):
    rows, probabilities = table
    want_rows, want = unique_merge(rows, probabilities)
    from workbench.engine._kernels import rows as compiled   # numba loaded: the compiled route
    assert "numba" in sys.modules and compiled.merge_rows is not None
    got_rows, got = _rows.merge_rows(rows, probabilities)
    assert np.array_equal(got_rows, want_rows) and got_rows.dtype == np.int64
    assert np.array_equal(got, want) and got.dtype == np.float64


@contextlib.contextmanager
def numba_away():
    """merge_rows sees numba as not loaded (its numpy routes)."""
    numba = sys.modules.pop("numba")
    try:
        yield
    finally:
        sys.modules["numba"] = numba


@RANDOM
@given(tables())
def test_merged_rows_without_numba_are_the_same(table):
    rows, probabilities = table
    want_rows, want = unique_merge(rows, probabilities)
    with numba_away():
        got_rows, got = _rows.merge_rows(rows, probabilities)
    assert np.array_equal(got_rows, want_rows) and np.array_equal(got, want)


@RANDOM
@given(tables())
def test_a_joints_total_table_and_marginals_are_unique_and_bincount(table):
    rows, probabilities = table
    rows, probabilities = _rows.merge_rows(rows % 1000, probabilities)   # sorted, distinct
    names = ("total", *(f"s{j}" for j in range(1, rows.shape[1])))
    joint = JointDistribution(names, rows, probabilities)
    for j, name in enumerate(names):
        outcomes, inverse = np.unique(rows[:, j], return_inverse=True)
        want = np.bincount(inverse, weights=probabilities, minlength=len(outcomes))
        got_outcomes, got = joint.marginal(name)
        assert np.array_equal(got_outcomes, outcomes) and np.array_equal(got, want)
    outcomes, want = joint.marginal("total")
    dense = np.zeros(outcomes[-1] - outcomes[0] + 1)
    dense[outcomes - outcomes[0]] = want
    assert joint.offset == outcomes[0] and np.array_equal(joint.pmf, dense)
    assert np.array_equal(joint.totals, np.arange(outcomes[0], outcomes[-1] + 1))


# -- expressions ------------------------------------------------------------------------------
BIG = [0, 1, 2, 3, 7, 10 ** 5, 10 ** 8, 999_999_999, 10 ** 9, 10 ** 9 + 1, 3 * 10 ** 9]


LEAVES = st.one_of(st.sampled_from(["a", "b", "c", "k", "flag"]), st.sampled_from([str(n) for n in BIG]))


def _extended(inner):
    pair = st.tuples(inner, inner)
    return st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%", "/"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, pair).map(lambda t: f"({t[1][0]} if {t[0]} else {t[1][1]})"),
        st.tuples(st.sampled_from(["min", "max"]), pair).map(lambda t: f"{t[0]}({t[1][0]}, {t[1][1]})"),
        inner.map(lambda t: f"abs({t})"), inner.map(lambda t: f"(-{t})"), inner.map(lambda t: f"(not {t})"))


EXPRESSIONS = st.recursive(LEAVES, _extended, max_leaves=10)


def parsed(text):
    try:
        return parse(text)
    except WorkbenchError:   # a constant mistake (6 // 0) is refused when the file loads
        assume(False)


@st.composite
def columns(draw):
    rows = draw(st.integers(1, 40))
    reach = draw(st.sampled_from([3, 50, 10 ** 6, 10 ** 9]))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    rng = np.random.default_rng(seed)
    names = {name: rng.integers(-reach, reach + 1, rows, dtype=np.int64) for name in "abc"}
    names["flag"] = rng.random(rows) < 0.5
    names["k"] = draw(st.sampled_from(BIG + [-4]))
    return names


def outcome(function):
    try:
        return "value", function()
    except WorkbenchError as exc:
        return "error", str(exc)


def general_route(monkeypatch, expression):
    """The expression evaluator with every quick route closed: fractions everywhere, every
    value searched for values past the limit, ``live`` worked out for every branch, no number
    worked out with Python's own operators (every literal a numpy value), and the expression
    made into functions again under these rules (and back after)."""
    monkeypatch.setattr(_evaluate, "whole_arithmetic", lambda *args: None)
    monkeypatch.setattr(_values, "within", lambda part, reading: False)
    monkeypatch.setattr(_evaluate, "within", lambda part, reading: False)
    monkeypatch.setattr(_evaluate, "_bounded_already", lambda tree: False)
    monkeypatch.setattr(_evaluate, "_LEAVES", ())
    monkeypatch.setitem(_evaluate._COMPILERS, "number",
                        lambda tree: (lambda reading, live, value=np.asarray(tree[1]): value))
    monkeypatch.delitem(expression.__dict__, "_compiled", raising=False)


@RANDOM
@given(EXPRESSIONS, columns())
def test_expressions_give_the_general_routes_values_and_errors(text, names):
    expression = parsed(text)
    quick = outcome(lambda: evaluate(expression, names))
    arrays = {name: np.asarray(value) for name, value in names.items()}   # no plain number either
    with pytest.MonkeyPatch.context() as monkeypatch:
        general_route(monkeypatch, expression)
        general = outcome(lambda: evaluate(expression, arrays))
    assert quick[0] == general[0], (text, quick, general)
    if quick[0] == "error":
        assert quick[1] == general[1]
    else:
        a, b = np.broadcast_arrays(np.asarray(quick[1]), np.asarray(general[1]))
        assert a.dtype.kind == b.dtype.kind and np.array_equal(a, b), (text, a, b)


@RANDOM
@given(EXPRESSIONS, columns())
def test_expressions_over_arrays_agree_with_plain_numbers_row_by_row(text, names):
    expression = parsed(text)
    found = outcome(lambda: evaluate(expression, names))
    assume(found[0] == "value")
    values = np.broadcast_to(np.asarray(found[1]), len(names["a"]))
    for row in range(len(values)):
        plain = {name: (int(v[row]) if isinstance(v, np.ndarray) else v) for name, v in names.items()}
        assert float(evaluate_numbers(expression, plain)) == pytest.approx(float(values[row]), rel=1e-12), (text, row)


def test_plain_numbers_say_the_same_errors():
    with pytest.raises(WorkbenchError, match="divides by zero"):
        evaluate_numbers(parse("6 // (face - 1)"), {"face": 1})
    with pytest.raises(WorkbenchError, match="reads 'hunger', which has no value"):
        evaluate_numbers(parse("min(hunger, 3)"), {"hunger": None})
    assert evaluate_numbers(parse("face == 1 or 1 // (face - 1) > 9"), {"face": 1}) == 1   # not reached


# -- rolls cut down, dice narrowed, counts of the face ---------------------------------------
def with_statistics():
    return [s for s in workbench.systems() if getattr(s.mechanic, "statistics", None) is not None]


def rebuilt(spec: RollSpec) -> RollSpec:
    """The same roll built and checked anew (dice too)."""
    def die(d):
        if not isinstance(d, Die):
            return d
        return Die(d.name, d.values, d.explodes, d.limit, die(d.into) if d.into is not None else None, d.counts)
    return RollSpec(tuple((die(d), n) for d, n in spec.groups), stats=spec.stats, total=spec.total,
                    modifier=spec.modifier, floor=spec.floor, ceiling=spec.ceiling, values=spec.values,
                    rerolls=spec.rerolls, kept=spec.kept, reroll_faces=spec.reroll_faces, again=spec.again)


@pytest.mark.parametrize("system", with_statistics(), ids=lambda s: s.id)
def test_a_roll_cut_down_is_the_roll_built_anew(system):
    resolved, pool = system.setting({})
    if not isinstance(pool, RollSpec):
        pytest.skip("no roll with statistics at the defaults")
    names = [name for name in pool.statistic_names if name != "total"]
    for wanted in [reading.wanted(system.mechanic, resolved) or frozenset({"total"}), frozenset({"total"}),
                   *(frozenset({"total", name}) for name in names)]:
        narrow = cut_down(pool, wanted)
        anew = rebuilt(narrow)
        assert narrow == anew and hash(narrow) == hash(anew)
        for attribute in ("count_names", "score_expressions", "derived_before_total", "statistic_names",
                          "sum_only", "dice"):
            assert getattr(narrow, attribute) == getattr(anew, attribute), attribute
        for score in narrow.score_expressions:
            assert narrow.parsed_score(score) == anew.parsed_score(score)
        for (die, _), (other, _) in zip(narrow.groups, anew.groups):
            assert die == other and hash(die) == hash(other) and die.count_names == other.count_names
        if narrow.dice <= 12:
            evaluate_roll.cache_clear()
            one = evaluate_roll(narrow)
            evaluate_roll.cache_clear()
            two = evaluate_roll(anew)
            assert one.names == two.names and np.array_equal(one.values, two.values)
            assert np.array_equal(one.probabilities, two.probabilities)


@pytest.mark.parametrize("system", with_statistics(), ids=lambda s: s.id)
def test_counts_of_the_face_worked_out_at_load_are_each_checks(system):
    statistics = system.mechanic.statistics
    resolved, _ = system.setting({})
    for name, die in system.mechanic.model.dice.items():
        if die.percentile:
            continue
        faces = system.mechanic.values[name]
        kept = statistics.by_face
        try:
            statistics.by_face = {}
            every_time = statistics.die_counts(name, faces, resolved)
        finally:
            statistics.by_face = kept
        assert {k: list(v) for k, v in statistics.die_counts(name, faces, resolved).items()} == \
            {k: list(v) for k, v in every_time.items()}


@pytest.mark.parametrize("system", with_statistics(), ids=lambda s: s.id)
def test_tiers_and_pass_read_together_are_read_apart(system):
    resolved, pool = system.setting({})
    try:
        result = workbench.check(system)
    except WorkbenchError:
        pytest.skip("refused at the defaults")
    raw = reading.as_read(system.mechanic, resolved, workbench.engine.exact_distribution(
        pool, reading.wanted(system.mechanic, resolved)))
    tiers = reading.tiers(system.mechanic, raw, resolved)
    assert (tiers is None) == (result.tiers is None)
    if tiers is not None:
        assert tiers == result.tiers
    passed = reading.p_pass(system.mechanic, raw, resolved)
    assert passed == result.p_pass


# -- the engine's quick steps ------------------------------------------------------------------
@RANDOM
@given(st.lists(st.tuples(st.integers(1, 12), st.integers(1, 3)), min_size=2, max_size=4, unique_by=lambda t: t[0]),
       st.sampled_from(["0 if value == 1 else value", "value * 2 - 3", "value // 2", "min(value, 4) + 1"]))
def test_scores_for_every_die_type_at_once_are_one_by_one(kinds, score):
    spec = RollSpec(tuple((Die.numbered(f"d{sides}", sides), n) for sides, n in kinds),
                    stats=(Keep("kept", take=2, score=score), Sum("scored", score=score)))
    counts = evaluate_module.count_columns(spec)
    groups = []
    for index, (die, n) in enumerate(spec.groups):
        attributes, probabilities, _ = evaluate_module.die_outcomes(die, counts, spec.dice)
        groups.append((index, die, n, attributes, probabilities))
    together = evaluate_module._with_scores(spec, counts, groups)
    for group, scored in zip(groups, together):
        assert np.array_equal(scored[3], evaluate_module._scored(spec, counts, group[3]))


def unique_deltas(deltas, probabilities):
    """The general route of _merged_deltas: numpy.unique always."""
    unique, inverse = np.unique(deltas, return_inverse=True)
    return unique, np.bincount(inverse.reshape(-1), weights=probabilities, minlength=len(unique))


@RANDOM
@given(st.lists(st.tuples(st.integers(2, 10), st.integers(1, 3)), min_size=1, max_size=3, unique_by=lambda t: t[0]),
       st.booleans(), st.booleans())
def test_dice_that_only_add_give_the_same_joint_either_way(kinds, shuffled, ranked):
    """Dice added one at a time (no statistic reads their rank, or only some do): moves in
    order and distinct skip numpy.unique; the joint is the one the unique route gives, bit
    for bit."""
    dice = []
    for sides, n in kinds:
        values = tuple(range(1, sides + 1))
        dice.append((Die(f"d{sides}", values[::-1] if shuffled else values, counts={"ones": (1,) + (0,) * (sides - 1)}), n))
    stats = (Sum("sum"), Keep("best", take=1, dice=(dice[0][0].name,))) if ranked else (Sum("sum"),)
    spec = RollSpec(tuple(dice), stats=stats, total="sum + ones")
    evaluate_roll.cache_clear()
    quick = evaluate_roll(spec)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(evaluate_module, "_merged_deltas", unique_deltas)
        evaluate_roll.cache_clear()
        general = evaluate_roll(spec)
    evaluate_roll.cache_clear()
    assert np.array_equal(quick.values, general.values)
    assert np.array_equal(quick.probabilities, general.probabilities)


@RANDOM
@given(st.lists(st.tuples(st.integers(2, 10), st.integers(1, 4)), min_size=1, max_size=3, unique_by=lambda t: t[0]),
       st.sampled_from(["highest", "lowest", "middle"]), st.integers(1, 3))
def test_a_roll_with_numba_loaded_or_not_is_the_same(kinds, order, take):
    """With numba loaded, rows are merged and registers read by compiled calls; without, by
    numpy: the same joint, bit for bit."""
    dice = tuple((Die.numbered(f"d{sides}", sides, counts={"ones": (1,) + (0,) * (sides - 1)}), n)
                 for sides, n in kinds)
    spec = RollSpec(dice, stats=(Keep("kept", take=take, order=order), Sum("low", score="value <= 2")),
                    total="kept + ones")
    evaluate_roll.cache_clear()
    compiled = evaluate_roll(spec)
    evaluate_roll.cache_clear()
    with numba_away():
        plain = evaluate_roll(spec)
    evaluate_roll.cache_clear()
    assert np.array_equal(compiled.values, plain.values)
    assert np.array_equal(compiled.probabilities, plain.probabilities)


def test_a_score_parsed_already_is_checked_against_the_roll_as_text_is():
    d6 = Die.numbered("d6", 6, counts={"ones": (1, 0, 0, 0, 0, 0)})
    plain = Die.numbered("d6", 6)
    given = parse("value + ones")
    with_counts = RollSpec(((d6, 2),), stats=(Keep("kept", take=1, score="value + ones", parsed=given),))
    assert with_counts == RollSpec(((d6, 2),), stats=(Keep("kept", take=1, score="value + ones"),))
    assert with_counts.parsed_score("value + ones") is given
    errors = []
    for parsed in (given, None):   # the roll has no count "ones": refused alike
        with pytest.raises(WorkbenchError) as refused:
            RollSpec(((plain, 2),), stats=(Keep("kept", take=1, score="value + ones", parsed=parsed),))
        errors.append(str(refused.value))
    assert errors[0] == errors[1] and "unknown name 'ones'" in errors[0]
    other = RollSpec(((d6, 2),), stats=(Sum("s", score="value * 2", parsed=parse("value * 3")),))
    assert other.parsed_score("value * 2").text == "value * 2"   # not the expression of another text
