"""Fuzz tests of the Python route and of every surface that takes a condition, each accepted
answer compared with a brute force written here (every ordered roll, one by one), without
``workbench.engine``.

- random ``ScoredRoll`` mechanics (one or two die types, faces of any values, a pool size, a
  designer's scoring function returning a total and a true/false statistic, sometimes a
  number it may not return) registered with ``register_mechanic``;
- random ``Outcomes`` tables;
- random data files with counts;

each asked for its distribution, P(pass) and P(a random condition) through ``.probability``,
``success_curve``, ``ladder_table``, ``difficulty_table``, ``solve_ladder``, ladder figures,
table blocks and ``workbench table --condition``. A random condition uses only what reads
the same in Python (whole numbers, ``+ - *``, ``//`` by a positive number, comparisons,
``and or not``, ``min max abs``, ``if else``), so the brute force evaluates the text itself.
Whatever is refused must be one WorkbenchError.
"""
from __future__ import annotations

import io
import itertools
import os
from fractions import Fraction

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench.errors import WorkbenchError
from workbench.rules.roll import Die
from workbench.rules.scored import Outcomes, ScoredRoll

EXAMPLES = max(int(os.environ.get("FUZZ_EXAMPLES", "1500")) // 40, 5)
"""Mechanics per property (each registered, then read on every surface)."""

SAFE = {"__builtins__": {}, "min": min, "max": max, "abs": abs, "true": True, "false": False}


# -- random conditions ----------------------------------------------------------------------

def numbers(names):
    """A random whole-number expression over ``names``."""
    leaves = st.one_of(st.sampled_from(names), st.integers(0, 4).map(str))
    return st.recursive(leaves, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, st.integers(1, 3)).map(lambda t: f"({t[0]} // {t[1]})"),
        st.tuples(st.sampled_from(["min", "max"]), inner, inner).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
        inner.map(lambda t: f"abs({t})")), max_leaves=4)


def conditions(names):
    """A random condition over ``names``."""
    compare = st.tuples(numbers(names), st.sampled_from(["==", "!=", "<", "<=", ">", ">="]),
                        numbers(names)).map(lambda t: f"{t[0]} {t[1]} {t[2]}")
    return st.recursive(compare, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda t: f"not ({t})")), max_leaves=3)


def holds(condition: str, names: dict) -> bool:
    return bool(eval(condition, SAFE, dict(names)))   # the text, read by Python itself


def possible(pmf) -> dict:
    """A distribution's outcomes that can happen (a pmf lists every whole number between its
    least and greatest total, the impossible ones at 0)."""
    return {o: p for o, p in zip(pmf.outcomes, pmf.probabilities) if p > 0}


def close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-9


# -- random ScoredRoll mechanics -----------------------------------------------------------

@st.composite
def scored_designs(draw):
    types = draw(st.integers(1, 2))
    dice = []
    for t in range(types):
        sides = draw(st.integers(2, 5))
        dice.append(Die(f"t{t}", tuple(draw(st.lists(st.integers(-2, 4), min_size=sides,
                                                      max_size=sides)))))
    return {"dice": dice, "fixed": draw(st.integers(0, 1)) if types == 2 else 0,
            "total": draw(st.sampled_from(["sum", "max", "top2", "at_least", "pairs"])),
            "k": draw(st.integers(-1, 3)), "reads": draw(st.sampled_from(["sorted", "counts"])),
            "flag": draw(st.integers(-1, 4)),
            "bad": draw(st.sampled_from([None] * 8 + ["half", "huge", "text"]))}


def scorer(design):
    """The designer's function: reads one roll (as ScoredRoll hands it) and scores it."""
    def flat(roll):
        parts = roll.values() if isinstance(roll, dict) and all(isinstance(k, str) for k in roll) \
            else [roll]
        values = []
        for part in parts:
            if isinstance(part, dict):   # counts: value -> how many dice show it
                values += [v for v, n in part.items() for _ in range(n)]
            else:
                values += list(part)
        return sorted(values, reverse=True)

    def score(roll):
        values = flat(roll)
        kind, k = design["total"], design["k"]
        total = {"sum": sum(values), "max": max(values, default=0), "top2": sum(values[:2]),
                 "at_least": sum(v >= k for v in values),
                 "pairs": sum(values.count(v) >= 2 for v in set(values))}[kind]
        flag = any(v >= design["flag"] for v in values)
        if design["bad"] == "half" and total == max(values, default=0):
            total = total + 0.5
        elif design["bad"] == "huge" and flag:
            total = 10**10
        elif design["bad"] == "text":
            flag = "yes"
        return {"total": total, "flag": flag}
    return score


def scored_brute(design, pool: int) -> dict:
    """{(total, flag): probability} over every ordered roll of the design at ``pool``."""
    counts = [pool] + ([design["fixed"]] if len(design["dice"]) == 2 else [])
    faces = [die.values for die in design["dice"]]
    score = scorer(design)
    out: dict = {}
    rolls = list(itertools.product(*[range(len(f)) for f, n in zip(faces, counts) for _ in range(n)]))
    for picks in rolls:
        groups, at = [], 0
        for f, n in zip(faces, counts):
            values = tuple(sorted((f[i] for i in picks[at:at + n]), reverse=True))
            at += n
            groups.append(values if design["reads"] == "sorted" else
                          {v: values.count(v) for v in sorted(set(values), reverse=True)})
        roll = groups[0] if len(groups) == 1 else {d.name: g for d, g in zip(design["dice"], groups)}
        result = score(roll)
        key = (result["total"], result["flag"])
        out[key] = out.get(key, 0) + Fraction(1, len(rolls))
    return out


def valid(total, flag) -> bool:
    """What a scoring function may return: whole numbers within 1e9 (true/false as 1/0)."""
    return isinstance(total, int) and abs(total) <= 10**9 and isinstance(flag, (bool, int))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(design=scored_designs(), data=st.data())
def test_random_scored_rolls_match_the_brute_force_on_every_surface(design, data):
    from workbench.figures import ladder_figure
    from workbench.ladders import difficulty_table, ladder_table
    from workbench.render import parse_block, table_cells

    dice = design["dice"]

    def pool(p):
        groups = [(dice[0], p["dice"])] + ([(dice[1], design["fixed"])] if len(dice) == 2 else [])
        return ScoredRoll(tuple(groups), scorer(design), reads=design["reads"])

    wb.register_mechanic("fuzz-scored", pool, replace=True, pool_parameter="dice", target="target",
                         params={"dice": {"default": 1, "min": 0, "max": 3},
                                 "target": {"default": 1, "min": -10, "max": 20}},
                         ladder=[{"name": "Easy", "set": {"target": 0}},
                                 {"name": "Hard", "set": {"target": 2}}])
    try:
        sizes = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True))
        condition = data.draw(conditions(["total", "flag", "dice", "target"]))
        target = data.draw(st.integers(-2, 4))
        brute = {n: scored_brute(design, n) for n in range(4)}
        refused = {n: any(not valid(t, f) for t, f in brute[n]) for n in range(4)}
        for n in sizes:   # what the function may not return is refused, said so, at that pool
            if refused[n]:
                with pytest.raises(WorkbenchError, match=r"fuzz-scored: the scoring function's"):
                    wb.check("fuzz-scored", dice=n, target=target)
        if any(refused[n] for n in sizes):
            with pytest.raises(WorkbenchError, match=r"the scoring function's"):
                wb.success_curve("fuzz-scored", sizes, condition=condition)
            sizes = [n for n in sizes if not refused[n]]
            if not sizes:
                return
        result = wb.check("fuzz-scored", dice=sizes[0], target=target)
        rows = brute[sizes[0]]
        totals: dict = {}
        for (total, flag), p in rows.items():
            totals[total] = totals.get(total, 0) + p
        assert possible(result.pmf) == pytest.approx({t: float(p) for t, p in totals.items()}, abs=1e-9)
        assert close(result.p_pass, float(sum(p for (t, _), p in rows.items() if t >= target)))

        def chance(n, **given):
            return float(sum(p for (t, f), p in brute[n].items()
                             if holds(condition, {"total": t, "flag": f, "dice": n, **given})))
        try:
            got = result.probability(condition)
        except WorkbenchError as exc:   # a number past 1e9 on the way: the same on every surface
            assert "computes" in str(exc), exc
            with pytest.raises(WorkbenchError, match="computes"):
                wb.success_curve("fuzz-scored", sizes, condition=condition)
            return
        assert close(got, chance(sizes[0], target=target))
        # every surface that takes a condition: the same numbers, named by the condition
        curve = wb.success_curve("fuzz-scored", sizes, condition=condition)
        for row in curve.itertuples():
            setting = 0 if row.rung == "Easy" else 2
            assert close(row.p_pass, chance(row.pool, target=setting)), (row, condition)
        table = ladder_table("fuzz-scored", sizes, condition=condition)
        assert [close(table.loc["Hard", n], chance(n, target=2)) for n in sizes] == [True] * len(sizes)
        frame = difficulty_table("fuzz-scored", sizes, condition=condition)
        heads = [f"P({condition}) at {n} {'die' if n == 1 else 'dice'}" for n in sizes]
        assert list(frame.columns[2:]) == heads
        assert all(close(frame.loc[0, h], chance(n, target=0)) for h, n in zip(heads, sizes))
        figure = ladder_figure("fuzz-scored", sizes, condition=condition)
        assert figure.layout.yaxis.title.text == f"P({condition})"
        assert all(close(y, chance(n, target=0)) for y, n in zip(figure.data[0].y, sizes))
        head, cells = table_cells(parse_block("table", "fuzz-scored", {
            "pools": ",".join(map(str, sizes)), "condition": condition, "format": "digits",
            "digits": "12"}))
        assert head[2:] == heads
        assert all(abs(float(c) - chance(n, target=2)) < 1e-11 for c, n in zip(cells[1][2:], sizes))
        if any(refused.values()):   # the solver's notes may look at any pool of 0-3 dice
            return
        solved = wb.solve_ladder("fuzz-scored", {"Only": 0.5}, pool=max(sizes), condition=condition,
                                 knobs={"target": (0, 2)}, report_pools=sizes)
        setting = solved.rungs[0].rung.set["target"]
        assert close(solved.rungs[0].achieved, chance(max(sizes), target=setting))
    finally:
        wb.unregister_mechanic("fuzz-scored")


# -- random Outcomes tables ----------------------------------------------------------------

@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(rows=st.dictionaries(st.tuples(st.integers(-3, 5), st.integers(0, 1), st.integers(-2, 2)),
                            st.integers(1, 9), min_size=1, max_size=8),
       data=st.data())
def test_random_outcomes_match_their_own_table(rows, data):
    weight = sum(rows.values())
    table = {row: w / weight for row, w in rows.items()}
    condition = data.draw(conditions(["total", "crit", "shift", "level"]))
    wb.register_mechanic("fuzz-outcomes", lambda p: Outcomes(("total", "crit", "shift"), table),
                         params={"level": {"default": 1, "min": 0, "max": 3}}, replace=True)
    try:
        level = data.draw(st.integers(0, 3))
        result = wb.check("fuzz-outcomes", level=level)
        totals: dict = {}
        for (total, _, _), p in table.items():
            totals[total] = totals.get(total, 0) + p
        assert possible(result.pmf) == pytest.approx(totals, abs=1e-12)
        want = sum(p for (total, crit, shift), p in table.items()
                   if holds(condition, {"total": total, "crit": crit, "shift": shift, "level": level}))
        try:
            got = result.probability(condition)
        except WorkbenchError as exc:
            assert "computes" in str(exc), exc
            return
        assert close(got, want), (condition, table)
    finally:
        wb.unregister_mechanic("fuzz-outcomes")


# -- random data files with counts, on every surface (the command line too) ----------------

@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(sides=st.integers(2, 6), hit=st.integers(1, 6), total=st.sampled_from(["hits", "hits - ones", None]),
       data=st.data())
def test_conditions_over_a_random_file_match_the_brute_force_everywhere(tmp_path_factory, sides, hit,
                                                                         total, data):
    from workbench.cli import main
    from workbench.render import parse_block, table_cells
    folder = tmp_path_factory.mktemp("file")
    path = folder / "counted.toml"
    path.write_text(f'''
id = "counted"
name = "Counted"
mechanic = "pool"
pool_parameter = "dice"
{'total = "' + total + '"' if total else ''}

[dice.d]
sides = {sides}
counts = {{ hits = "face >= {hit}", ones = "face == 1" }}

[params.dice]
default = 2
min = 0
max = 4
effect = {{ add_dice = "d" }}

[params.threshold]
default = 1
min = 0
max = 5
effect = "target"

[[ladder]]
name = "Easy"
set = {{ threshold = 1 }}

[[ladder]]
name = "Hard"
set = {{ threshold = 3 }}
''')
    sizes = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True))
    condition = data.draw(conditions(["total", "hits", "ones", "dice", "threshold"]))

    def chance(n, threshold):
        count = Fraction(0)
        rolls = list(itertools.product(range(1, sides + 1), repeat=n))
        for roll in rolls:
            hits = sum(face >= hit for face in roll)
            ones = sum(face == 1 for face in roll)
            value = {"hits": hits, "hits - ones": hits - ones, None: sum(roll)}[total]
            count += holds(condition, {"total": value, "hits": hits, "ones": ones, "dice": n,
                                       "threshold": threshold})
        return float(count / len(rolls))
    try:
        frame = wb.ladders.difficulty_table(str(path), sizes, condition=condition)
    except WorkbenchError as exc:   # a number past 1e9 on the way (abs(x * x * ...)): said so
        assert "computes" in str(exc), exc
        return
    heads = [f"P({condition}) at {n} {'die' if n == 1 else 'dice'}" for n in sizes]
    assert list(frame.columns[2:]) == heads
    for rung, threshold in ((0, 1), (1, 3)):
        assert all(close(frame.loc[rung, h], chance(n, threshold)) for h, n in zip(heads, sizes))
    assert close(wb.check(str(path), dice=sizes[0], threshold=3).probability(condition), chance(sizes[0], 3))
    head, cells = table_cells(parse_block("ladder", str(path), {
        "pools": ",".join(map(str, sizes)), "condition": condition, "format": "digits", "digits": "12"}))
    assert head == ["Difficulty", *heads]
    assert all(abs(float(c) - chance(n, 1)) < 1e-11 for c, n in zip(cells[0][1:], sizes))
    out = io.StringIO()
    import contextlib
    with contextlib.redirect_stdout(out):
        code = main(["table", str(path), "--pools", ",".join(map(str, sizes)), "--condition", condition,
                     "--format", "csv", "--digits", "12"])
    csv = pd.read_csv(io.StringIO(out.getvalue()))
    assert code == 0 and list(csv.columns[2:]) == heads
    assert all(close(float(v), chance(n, 3)) for v, n in zip(csv.iloc[1, 2:], sizes))
