"""Strange expressions and sizes on the statistics surfaces (issue 18), each answer checked by
hand or by exact fractions: ``/`` is exact, a division by zero counts only where it is
reached, numbers never wrap around, empty texts are not read as left out, and huge totals or
pools are refused with one line naming the limit."""
from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

import workbench as wb
from workbench.errors import DataFileError, WorkbenchError
from workbench.results.joint import Joint

from conftest import COUNTED_D6, pool_toml


def write(tmp_path, top="", tail="", name="e.toml"):
    path = tmp_path / name
    path.write_text(pool_toml("e", "E", top=top, die=COUNTED_D6, most=200, more=tail), encoding="utf-8")
    return str(path)


ONES = Joint(("total", "ones"), np.array([[0, 1], [0, 3], [1, 7], [2, 0]]), np.full(4, 0.25))


@pytest.mark.parametrize("condition, rows", [
    ("ones / 10 * 3 == 3 * ones / 10", 4),      # floats: 0.1 * 3 != 0.3 (was 0 of 4 rows)
    ("ones / 3 + ones / 3 + ones / 3 == ones", 4),
    ("ones / 49 * 49 == ones", 4),                # floats: 7 / 49 * 49 != 7 (was 2 of 4)
    ("(ones / 3) % 1 > 0", 2),
    ("max(ones / 2, 1) > 1", 2),
    ("ones > 0 and 6 // ones >= 2", 2),           # 6 // 0 is never reached (was refused)
    ("(0 if ones == 0 else 6 // ones) >= 2", 2),  # the same with if/else
    ("ones == 0 or 6 % ones == 0", 3),
])
def test_exact_division_and_guarded_division(condition, rows):
    truth = {"ones / 10 * 3 == 3 * ones / 10": lambda o: Fraction(o, 10) * 3 == Fraction(3 * o, 10)}
    assert ONES.probability(condition) == rows / 4
    if condition in truth:
        assert all(truth[condition](o) for o in (1, 3, 7, 0))


@pytest.mark.parametrize("condition", ["6 // ones >= 2", "ones == 0 and 6 // ones >= 2",
                                       "(6 // ones if ones == 0 else 1) > 0"])
def test_a_division_by_zero_that_is_reached_is_refused(condition):
    with pytest.raises(WorkbenchError, match="divides by zero"):
        ONES.probability(condition)


@pytest.mark.parametrize("total, words", [
    ("999999999999999999 * 999999999999999999", "computes 999,999,999,999,999,999"),  # wrapped to -7.5e18
    ("hits * 1000000000000", "computes 1,000,000,000,000"),                        # was a 14.6 TiB array
    ("hits * 400000000", "totals run from 0 to 800,000,000"),                       # was a 6.4 GB array
])
def test_totals_beyond_the_limits_are_refused(tmp_path, total, words, assert_one_line):
    path = write(tmp_path, top=f'total = "{total}"')
    with pytest.raises(WorkbenchError, match=words) as caught:
        wb.check(path)
    assert "allowed" in str(caught.value)
    run = subprocess.run([sys.executable, "-m", "workbench", "pmf", path], capture_output=True,
                         text=True, timeout=120)
    assert_one_line(run.returncode, run.stdout, run.stderr)


@pytest.mark.parametrize("top, tail, entry", [
    ('total = ""', "", "total"),                   # was the sum of the dice
    ('pass_if = " "', "", "pass_if"),              # was total >= target
    ("", '[[tiers]]\nname = "A"\ncondition = ""\n[[tiers]]\nname = "B"\n', "tiers[0].condition"),
])
def test_empty_expressions_are_refused_not_read_as_left_out(tmp_path, top, tail, entry):
    with pytest.raises(DataFileError) as caught:
        wb.load_system(write(tmp_path, top=top, tail=tail))
    assert f"entry '{entry}': is empty" in str(caught.value)


def test_probabilities_never_add_up_past_one(tmp_path):
    path = write(tmp_path, top='pass_if = "true"', tail='[stats.best]\npick = "highest"\n')
    result = wb.check(path, dice=3)
    assert result.p_pass == pytest.approx(1.0, abs=1e-12) and result.p_pass <= 1.0
    probability = result.probability("hits >= 0")
    assert probability == pytest.approx(1.0, abs=1e-12) and probability <= 1.0


def test_a_huge_pool_with_statistics_is_refused_within_the_work_budget(tmp_path, monkeypatch):
    """100d6 + 100d8 with two counts and a keep was computed for minutes before the
    5,000,000-combination refusal; the exact-work budget now caps the combinations each step
    may hold: the kernel stops at that cap (a counter of the work it may do, not a
    stopwatch), so the work done before the refusal is within the budget, and the message
    names the limit."""
    import workbench.engine.evaluate as evaluate
    from workbench.limits import EXACT_WORK

    caps, statuses = [], []
    most_states, check_status = evaluate._most_states, evaluate._check
    monkeypatch.setattr(evaluate, "_most_states",
                        lambda per_state: caps.append((per_state, most_states(per_state))) or caps[-1][1])
    monkeypatch.setattr(evaluate, "_check",
                        lambda status, most=evaluate.MAX_STATES: statuses.append((status, most))
                        or check_status(status, most))
    path = write(tmp_path, tail='[dice.d8]\nsides = 8\n[params.big]\ndefault = 0\nmin = 0\nmax = 200\n'
                 'effect = { add_dice = "d8" }\n[stats.k]\nkeep = "highest"\ncount = 3\n')
    result = wb.check(path, dice=100, big=100)   # the total alone: a sum, computed at once
    with pytest.raises(WorkbenchError, match="WORKBENCH_MAX_EXACT_WORK") as refused:
        result.stats   # the statistics together: past the budget
    assert "steps of exact computing" in str(refused.value)
    (per_state, cap), = caps
    assert statuses == [(2, cap)]   # the kernel stopped at the cap it was given
    assert cap * per_state * evaluate.HASH_STEP <= EXACT_WORK.current()
    assert cap < evaluate.MAX_STATES   # the budget set the cap, not the 5,000,000 states


@pytest.mark.parametrize("text, words", [
    ("hits // 0", "divides by zero ('//' at character 6 has 0 on its right)"),
    ("hits % 0", "divides by zero"),
    ("hits / false", "divides by zero"),
    ("hits * 123456789012345678901", "too large (at most 18 digits)"),
])
def test_a_constant_mistake_in_an_expression_is_a_load_error_naming_the_entry(tmp_path, text, words):
    """Found at load, naming the file and the entry (a division by zero was once said only
    when a check ran, without the entry)."""
    path = write(tmp_path, top=f'total = "{text}"')
    with pytest.raises(DataFileError) as caught:
        wb.load_system(path)
    assert "entry 'total'" in str(caught.value) and words in str(caught.value)


def test_totals_far_apart_are_listed_as_the_possible_ones_only(tmp_path):
    """40 dice, total = hits * 100000: 41 possible totals over 4,000,001 whole numbers. The
    result, its JSON and its table list the 41 (the JSON was 79 MB of zeros, 23 s, 1.9 GB),
    each with the binomial probability; a whole number between them has probability 0."""
    from math import comb

    path = write(tmp_path, top='total = "hits * 100000"')
    result = wb.check(path, dice=40)
    assert result.pmf.outcomes == tuple(range(0, 4_000_001, 100_000))
    for hits in (0, 13, 40):
        exact = Fraction(comb(40, hits) * 2 ** (40 - hits), 3 ** 40)
        assert result.pmf[hits * 100_000] == pytest.approx(float(exact), rel=1e-12, abs=1e-300)
    assert result.pmf[50_000] == 0.0 and result.pmf.at_least(1_300_001) == pytest.approx(
        sum(float(Fraction(comb(40, h) * 2 ** (40 - h), 3 ** 40)) for h in range(14, 41)))
    assert result.mean == pytest.approx(40 / 3 * 100_000)
    done = subprocess.run([sys.executable, "-m", "workbench", "pmf", path, "dice=40", "--format",
                           "json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    import json
    assert len(json.loads(done.stdout)["pmf"]) == 41 and len(done.stdout) < 1_000_000
    few = wb.check(path, dice=1)   # a span of 100,001 with 2 possible totals
    assert few.pmf.outcomes == (0, 100_000)


def test_totals_close_together_keep_every_whole_number(tmp_path):
    """A total with gaps but close together (hits * 2 over 40 dice: 81 whole numbers) keeps
    its consecutive table, the impossible odd totals at 0, as before."""
    result = wb.check(write(tmp_path, top='total = "hits * 2"'), dice=40)
    assert result.pmf.outcomes == tuple(range(0, 81)) and result.pmf[3] == 0.0


def _random_expression(rng, depth=0):
    """A random expression of the language over face, skill and extra (numbers up to past
    the 1e9 limit, every operator, function and keyword)."""
    if depth > 3 or rng.random() < 0.3:
        return rng.choice(["face", "skill", "extra", "true", "false", str(rng.randint(0, 12)),
                           str(rng.choice([999999999, 1000000000, 2000000000, 10000000000]))])
    a, b = _random_expression(rng, depth + 1), _random_expression(rng, depth + 1)
    return rng.choice([
        f"({a} {rng.choice(['+', '-', '*', '/', '//', '%'])} {b})",
        f"({a} {rng.choice(['==', '!=', '<', '<=', '>', '>='])} {b})",
        f"({a} {rng.choice(['and', 'or'])} {b})", f"(not {a})", f"(-{a})", f"abs({a})",
        f"({a} if {_random_expression(rng, depth + 1)} else {b})",
        f"{rng.choice(['min', 'max'])}({a}, {b})"])


def test_plain_numbers_and_columns_are_worked_out_by_one_interpreter():
    """Before: a die's counts, an effect's points and a statistic's count were worked out by
    an interpreter of their own over plain numbers, conditions and totals by the engine's over
    columns, and the two disagreed: ``min(2000000000, 9)`` was 9 as a count and refused as a
    condition, an optional parameter left out was read in a branch not taken... Now one
    evaluator works out both: over plain numbers, every expression gives the value (or the
    error) it gives in a column of one row."""
    import random

    from workbench.rules.expressions import evaluate, evaluate_numbers, parse
    rng = random.Random(2024)
    compared = errors = 0
    while compared < 3000:
        text = _random_expression(rng)
        try:
            expression = parse(text)
        except WorkbenchError:   # a division by a literal 0 is refused as the file loads
            continue
        names = {"face": rng.choice([0, 1, 2, 6, -3, 1000000000]), "skill": rng.choice([0, 1, 5, 999999999]),
                 "extra": rng.choice([None, 0, 3])}
        try:
            number = ("value", float(evaluate_numbers(expression, names)))
        except WorkbenchError as exc:
            number = ("error", str(exc))
        columns = {name: (None if value is None else np.array([value])) for name, value in names.items()}
        try:
            column = ("value", float(np.broadcast_to(evaluate(expression, columns), (1,))[0]))
        except WorkbenchError as exc:
            column = ("error", str(exc).replace(" for some outcome or parameter value", ""))
        assert number == column, text
        compared += 1
        errors += number[0] == "error"
    assert 300 < errors < 2700   # both kinds of answer were compared
