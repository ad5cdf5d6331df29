"""A check computes the joint of the statistics its reading needs and nothing more
(``exact_distribution(roll, wanted)``): those statistics' joint is the full joint's, added
over the others, and every gallery check reads the same from it as from the full joint."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import settings as examples
from hypothesis import strategies as st

import workbench
from workbench.engine import exact_distribution
from workbench.engine.evaluate import evaluate_roll
from workbench.engine.raw import RawDistribution
from workbench.errors import WorkbenchError
from workbench.results import reading
from workbench.rules.roll import Die, Keep, Pick, RollSpec, Derived
from workbench.rules.expressions import parse


def with_statistics():
    return [s for s in workbench.systems() if getattr(s.mechanic, "statistics", None) is not None]


def added_over(joint, names):
    """``joint``'s rows added over every column but ``names`` (a dict row -> probability)."""
    columns = [joint.names.index(name) for name in names]
    out: dict = {}
    for row, p in zip(joint.values[:, columns].tolist(), joint.probabilities.tolist()):
        out[tuple(row)] = out.get(tuple(row), 0.0) + p
    return out


def settings(system):
    yield {}
    parameter = getattr(system.mechanic, "pool_parameter", None)
    if parameter:
        for n in (1, 4):
            yield {parameter: n}


@pytest.mark.parametrize("system", with_statistics(), ids=lambda s: s.id)
def test_the_joint_of_the_wanted_statistics_is_the_full_joint_added_over_the_rest(system):
    for params in settings(system):
        try:
            resolved, pool = system.setting(params)
            full = exact_distribution(pool)
        except WorkbenchError:
            continue
        wanted = reading.wanted(system.mechanic, resolved)
        narrow = exact_distribution(pool, wanted)
        if isinstance(narrow, RawDistribution) or isinstance(full, RawDistribution):
            continue
        assert set(narrow.names) <= set(full.names) and narrow.names[0] == "total"
        assert set(wanted or ()) & set(full.names) <= set(narrow.names)
        mine, theirs = added_over(narrow, narrow.names), added_over(full, narrow.names)
        assert mine.keys() == theirs.keys(), (system.id, params)
        assert max(abs(mine[k] - theirs[k]) for k in mine) < 1e-12, (system.id, params)
        # and the check reads from it what it reads from the full joint
        result = workbench.check(system, **params)
        whole = reading.check_result(system, reading.as_read(system.mechanic, resolved, full), resolved)
        assert result.p_pass == pytest.approx(whole.p_pass, abs=1e-12)
        assert result.pmf.outcomes == whole.pmf.outcomes
        assert np.allclose(result.pmf.probabilities, whole.pmf.probabilities, rtol=0, atol=1e-12)
        if whole.tiers is not None:
            assert result.tiers.outcomes == whole.tiers.outcomes
            assert np.allclose(result.tiers.probabilities, whole.tiers.probabilities, rtol=0, atol=1e-12)
        assert result.stats.keys() == whole.stats.keys()   # the rest on first use


def test_ironsworn_s_joint_read_by_a_check_holds_the_total_and_the_dice_beaten_only():
    system = workbench.system("ironsworn")
    resolved, pool = system.setting({"stat": 2})
    narrow = exact_distribution(pool, reading.wanted(system.mechanic, resolved))
    assert narrow.names == ("total", "beaten")
    # every combination of faces: d6 + 2 (at most 10) against two d10s
    counts: dict = {}
    for a in range(1, 7):
        for c1 in range(1, 11):
            for c2 in range(1, 11):
                score = min(a + 2, 10)
                key = (score, (score > c1) + (score > c2))
                counts[key] = counts.get(key, 0) + 1
    assert {tuple(row): p for row, p in zip(narrow.values.tolist(), narrow.probabilities.tolist())} == \
        {key: n / 600 for key, n in sorted(counts.items())}


def test_a_walked_roll_shows_only_what_is_asked_and_its_rows_add_as_the_full_joint_s():
    d6 = Die.numbered("d6", 6, counts={"ones": [1, 0, 0, 0, 0, 0]})
    spec = RollSpec(((d6, 7),), stats=(Keep("best", take=2), Pick("low", order="lowest"),
                                       Derived("gap", parse("best - low"))), total="best")
    full = evaluate_roll(spec)
    shown = evaluate_roll(spec, ("total", "gap"))
    assert shown.names == ("total", "gap")
    mine, theirs = added_over(shown, shown.names), added_over(full, shown.names)
    assert mine.keys() == theirs.keys()
    assert max(abs(mine[k] - theirs[k]) for k in mine) < 1e-15


def test_derived_statistics_a_check_does_not_read_are_not_worked_out():
    from workbench.engine.wanted import cut_down
    d6 = Die.numbered("d6", 6)
    spec = RollSpec(((d6, 2),), stats=(Pick("high"), Pick("low", order="lowest"),
                                       Derived("ratio", parse("6 // (low - 1)")),   # 0 where low is 1
                                       Derived("gap", parse("high - low"))), total="high")
    assert cut_down(spec, frozenset({"total", "gap"})) is spec   # only a derived one left out: no new roll
    with pytest.raises(WorkbenchError, match="divides by zero"):
        evaluate_roll(spec)
    shown = evaluate_roll(spec, ("total", "gap"))
    assert shown.names == ("total", "gap")
    counts: dict = {}
    for a in range(1, 7):
        for b in range(1, 7):
            key = (max(a, b), max(a, b) - min(a, b))
            counts[key] = counts.get(key, 0) + 1
    assert {tuple(row): p for row, p in zip(shown.values.tolist(), shown.probabilities.tolist())} == \
        {key: n / 36 for key, n in sorted(counts.items())}
    # a total alone is still cut down to what it reads (it may then be a sum of dice)
    assert cut_down(spec, frozenset({"total"})).statistic_names == ("total", "high")


@examples(max_examples=300, deadline=None)
@given(st.data())
def test_rows_merged_by_counting_codes_are_the_rows_merged_by_sorting(data):
    from workbench.engine._rows import merge_columns, merge_rows
    rows = data.draw(st.integers(1, 40))
    width = data.draw(st.integers(1, 3))
    columns = [np.array(data.draw(st.lists(st.integers(-3, 4), min_size=rows, max_size=rows)), np.int64)
               + data.draw(st.integers(-2, 12)) for _ in range(width)]   # (least values below, at or above 0)
    probabilities = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.125, 0.25, 1 / 3]),
                                                min_size=rows, max_size=rows)))
    if data.draw(st.booleans()):   # each row counted once (no weights: whole numbers)
        probabilities = None
    # bounds given (exact or looser) or looked up: the same rows either way
    bounds = [data.draw(st.sampled_from([None, (int(c.min()), int(c.max())), (int(c.min()) - 2, int(c.max()) + 1)]))
              for c in columns]
    found = merge_columns(columns, probabilities, (rows,), bounds)
    values, merged = merge_rows(np.column_stack(columns), np.ones(rows) if probabilities is None else probabilities)
    keep = merged > 0.0
    assert found[0].tolist() == values[keep].tolist()
    assert found[1].tolist() == merged[keep].tolist()


def test_a_data_file_says_the_statistics_a_check_reads_as_its_reading_rules_name_them():
    """What a pool file's rules say a check reads (gathered once when the file loads, or per
    check when which tiers apply depends on the parameters) is what the check's reading rules
    name: the total, the names of ``pass_if`` and of the conditions of the tiers that apply."""
    said_at_load = 0
    for system in with_statistics():
        mechanic = system.mechanic
        if not hasattr(mechanic, "statistics_read"):
            continue
        said_at_load += mechanic._names_read is not None
        settings = [{}] + [system.with_rung(rung) for rung in system.ladder]
        for given in settings:
            try:
                params = system.resolve(**given)
            except WorkbenchError:
                continue
            assert mechanic.statistics_read(params) == reading.read_by_rules(mechanic, params), (system.id, given)
            assert reading.wanted(mechanic, params) == reading.read_by_rules(mechanic, params)
    assert said_at_load >= 20


def test_tiers_that_apply_under_a_rule_option_say_what_each_check_reads(tmp_path):
    path = tmp_path / "options.toml"
    path.write_text("""
id = "options"
name = "Options"
mechanic = "pool"
total = "high"
[dice.d6]
sides = 6
count = 2
[params.strict]
choices = ["yes", "no"]
default = "no"
rule_option = true
[stats.high]
pick = "highest"
dice = "d6"
[stats.low]
pick = "lowest"
dice = "d6"
[[tiers]]
name = "Double"
condition = "low == high"
when = { strict = "yes" }
[[tiers]]
name = "Roll"
""", encoding="utf-8")
    system = workbench.load_system(path)
    mechanic = system.mechanic
    assert mechanic._names_read is None   # which tiers apply depends on a parameter
    for strict, names in (("yes", {"total", "low", "high"}), ("no", {"total"})):
        params = system.resolve(strict=strict)
        assert reading.wanted(mechanic, params) == reading.read_by_rules(mechanic, params) == names
        result = workbench.check(system, strict=strict)
        assert result.tiers["Roll"] == pytest.approx(5 / 6 if strict == "yes" else 1.0)


def test_a_roll_that_is_a_sum_once_its_derived_statistics_are_left_out_is_summed():
    from workbench.engine.raw import RawDistribution as Raw
    from workbench.engine.wanted import cut_down
    d6 = Die.numbered("d6", 6)
    spec = RollSpec(((d6, 3),), stats=(Derived("crit", parse("total >= 15")),), values={"difficulty": 10})
    narrow = cut_down(spec, frozenset({"total", "difficulty"}))
    assert narrow.stats == () and narrow.sum_only   # (made again: a sum of dice)
    assert isinstance(exact_distribution(spec, frozenset({"total", "difficulty"})), Raw)
