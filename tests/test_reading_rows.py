"""A small joint (a few dozen rows) is read row by row in plain Python
(:mod:`workbench.results.reading_rows`): its outcomes, tiers and P(pass) are the numpy
reading's number for number (not merely close), and it refuses what the numpy reading refuses
with the same words."""
from __future__ import annotations

import numpy as np
import pytest

import workbench
from workbench.errors import WorkbenchError
from workbench.results import reading_rows
from workbench.results.distribution import Distribution


def settings(system):
    yield {}
    parameter = getattr(system.mechanic, "pool_parameter", None)
    if parameter:
        for n in (1, 3, 6):
            yield {parameter: n}
    for rung in system.ladder:
        yield system.with_rung(rung)


def answers(system, params):
    """(the check's answers, or the error it gives)."""
    try:
        result = workbench.check(system, **params)
    except WorkbenchError as exc:
        return ("refused", str(exc))
    tiers = result.tiers
    return (result.pmf.outcomes, result.pmf.probabilities.tolist(), result.p_pass,
            None if tiers is None else (tiers.outcomes, tiers.probabilities.tolist()),
            result.to_dict())


def test_every_shipped_check_reads_the_same_from_a_small_joint_as_numpy_reads_it(monkeypatch):
    read_here = []
    rows_of = reading_rows.rows_of

    def counted(raw):
        found = rows_of(raw)
        read_here.extend([1] if found is not None else [])
        return found
    monkeypatch.setattr(reading_rows, "rows_of", counted)
    checks = []
    for system in workbench.systems():
        for params in settings(system):
            checks.append((system, params, answers(system, params)))
    assert len(read_here) > 100   # most data-file checks read a few rows (the test reads the right path)
    monkeypatch.setattr(reading_rows, "rows_of", lambda raw: None)   # every joint read by numpy
    for system, params, plain in checks:
        assert answers(system, params) == plain, (system.id, params)   # exactly: == on every float


def test_a_small_joint_of_rows_outside_every_tier_is_refused_as_numpy_refuses_it(tmp_path, monkeypatch):
    path = tmp_path / "holes.toml"
    path.write_text("""
id = "holes"
name = "Holes"
mechanic = "pool"
total = "high"
[dice.d6]
sides = 6
count = 2
[params.edge]
default = 0
min = 0
max = 3
[stats.high]
pick = "highest"
dice = "d6"
[[tiers]]
name = "Six"
condition = "high == 6"
[[tiers]]
name = "Low"
condition = "high <= 3 + edge"
""", encoding="utf-8")
    system = workbench.load_system(path)
    refused = []
    for reads_small in (True, False):
        if not reads_small:
            monkeypatch.setattr(reading_rows, "rows_of", lambda raw: None)
        with pytest.raises(WorkbenchError, match="fall in no tier") as caught:
            workbench.check(system)
        refused.append(str(caught.value))
        # with edge 2 every roll is in a tier: read alike both ways
        result = workbench.check(system, edge=2)
        refused.append((result.tiers.probabilities.tolist(), result.pmf.probabilities.tolist()))
    assert refused[0] == refused[2] and refused[1] == refused[3]
    assert "high=4" in refused[0]
    assert refused[1][0] == pytest.approx([1 / 36 * 11, 1 - 11 / 36])   # the first tier that fits: Six


def test_the_totals_of_a_small_joint_are_added_row_by_row_as_bincount_adds_them():
    rng = np.random.default_rng(5)
    from workbench.engine.joint import JointDistribution
    for rows in (1, 2, 7, 8, 9, 17, 64):
        totals = np.sort(rng.integers(-5, 40, rows))
        joint = JointDistribution(("total",), totals.reshape(-1, 1), rng.random(rows) / rows)
        found = reading_rows.totals_pmf(reading_rows.rows_of(joint), None)
        low = int(totals.min())
        assert found == Distribution.of_totals(low, np.bincount(totals - low, weights=joint.probabilities))
        assert not found.probabilities.flags.writeable and found.numeric
        assert list(vars(found)) == list(vars(Distribution.of_totals(low, found.probabilities)))


def test_a_probability_is_summed_as_numpy_sums_it_to_the_last_bit():
    rng = np.random.default_rng(11)
    for trial in range(3000):
        values = rng.random(int(rng.integers(0, 300))) ** 3
        kept = values[rng.random(len(values)) < 0.6]
        for array in (values, kept):
            assert reading_rows.numpy_sum(array.tolist()) == float(array.sum())


def test_a_check_result_made_of_its_parts_is_the_dataclass_s_own_field_for_field():
    import dataclasses
    from workbench.results import CheckResult
    result = workbench.check("ironsworn", stat=2)
    parts = {field.name: getattr(result, field.name) for field in dataclasses.fields(CheckResult)}
    made = CheckResult.of_parts(**parts)
    assert list(vars(made)) == list(vars(CheckResult(**parts))) == list(parts)   # every field, in order
    assert made == CheckResult(**parts) and made.later is result.later
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.p_pass = 1.0


def test_tiers_laid_out_when_the_file_loads_read_as_the_tiers_read_one_by_one(monkeypatch):
    """A file whose tiers are conditions with a last tier for the rest has them laid out once
    (``mechanic.tier_layout``); a small joint read by that layout in one pass gives the
    outcomes, target, tiers and P(pass) the reading step by step gives, number for number."""
    from workbench.results import reading
    laid_out = [s for s in workbench.systems() if s.mechanic.tier_layout is not None]
    assert len(laid_out) >= 10 and "ironsworn" in [s.id for s in laid_out]
    one_pass, used = reading_rows.laid_out, []

    def both(rules, raw, rows, layout):
        found = one_pass(rules, raw, rows, layout)
        if found is not None:
            used.append(rules.system_id)
            mechanic = workbench.system(rules.system_id).mechanic
            target = reading.checked_target(rules)
            pmf = reading.outcomes(mechanic, raw, rules, rows)
            tiers, passed = reading_rows.readings(rules, raw, rows, target)
            assert found == (pmf, target, tiers, passed)
            for mine, theirs in ((found[0], pmf), (found[2], tiers)):
                assert mine.probabilities.tolist() == theirs.probabilities.tolist()
                assert list(vars(mine)) == list(vars(theirs)) and not mine.probabilities.flags.writeable
        return found
    monkeypatch.setattr(reading_rows, "laid_out", both)
    for system in laid_out:
        for params in settings(system):
            result = workbench.check(system, **params)
            assert result.tiers is not None
    assert len(used) >= 50 and len(set(used)) >= 10


def test_a_tier_layout_is_made_only_for_tiers_it_reads_as_they_read():
    from workbench.rules.mechanics.base import TierRule, tier_layout
    hit, rest = TierRule("Hit", condition="hits >= 1"), TierRule("Miss")
    parsed = {"hits >= 1": "parsed"}
    layout = tier_layout((hit, rest), ("Miss", "Hit"), parsed)
    assert layout.positions == (1, 0) and layout.steps == (None, ("parsed", None, None)) and layout.covers
    ranged = tier_layout((TierRule("Hit", 1, None), TierRule("Miss", max=0)), ("Miss", "Hit"), parsed)
    assert ranged.steps == ((None, None, 0), (None, 1, None)) and not ranged.covers
    assert tier_layout((hit._replace(min=1), rest), ("Miss", "Hit"), parsed) is None   # a range and a condition
    assert tier_layout((hit, rest._replace(all_negative=True)), ("Miss", "Hit"), parsed) is None
    assert tier_layout((hit, rest), ("Miss", "Hit"), {}) is None   # a condition not parsed
    assert tier_layout((hit, rest), ("Miss",), parsed) is None   # a tier not named
    assert tier_layout((), (), parsed) is None
    blocked = tier_layout((hit._replace(passes=False), rest), ("Miss", "Hit"), parsed)
    assert blocked.never == (False, True)   # by position: Miss, Hit
    assert tier_layout((hit, hit._replace(condition=None)), ("Miss", "Hit"), parsed) is None   # one name twice


def _read_both_ways(system, params=None):
    """(the laid-out reading, the reading step by step) of a check of ``system``."""
    from workbench.engine import exact_distribution
    from workbench.results import reading
    p = system.resolve(**(params or {}))
    raw = reading.as_read(system.mechanic, p, exact_distribution(system.mechanic.pool(p)))
    rules = system.mechanic.reading_rules(p, facts=True)
    rows = reading_rows.rows_of(raw)
    found = reading_rows.laid_out(rules, raw, rows, system.mechanic.tier_layout)
    target = reading.checked_target(rules)
    return found, (reading.outcomes(system.mechanic, raw, rules, rows), target,
                   *reading_rows.readings(rules, raw, rows, target))


HIGH_D6 = """
id = "{id}"
name = "Ranges"
mechanic = "pool"
total = "high"
pass_if = "high >= 4"
[dice.d6]
sides = 6
count = 2
[stats.high]
pick = "highest"
dice = "d6"
"""


def test_tiers_by_ranges_of_totals_and_a_tier_without_a_rule_between_others_read_as_tier_by_tier(tmp_path):
    path = tmp_path / "ranges.toml"
    path.write_text(HIGH_D6.format(id="ranges") + """
[[tiers]]
name = "Six"
condition = "high == 6"
[[tiers]]
name = "Four or five"
min = 4
max = 5
[[tiers]]
name = "Up to two"
max = 2
passes = false
[[tiers]]
name = "Three"
min = 3
max = 3
""", encoding="utf-8")
    system = workbench.load_system(path)
    assert system.mechanic.tier_layout is not None and not system.mechanic.tier_layout.covers
    found, step_by_step = _read_both_ways(system)
    assert found == step_by_step
    assert found[2].to_dict() == pytest.approx({"Six": 11 / 36, "Four or five": 16 / 36, "Up to two": 4 / 36,
                                                "Three": 5 / 36})
    assert found[3] == pytest.approx(27 / 36)
    path.write_text(HIGH_D6.format(id="between") + """
[[tiers]]
name = "Six"
condition = "high == 6"
[[tiers]]
name = "Rest"
[[tiers]]
name = "One"
condition = "high == 1"
""", encoding="utf-8")
    between = workbench.load_system(path)
    assert between.mechanic.tier_layout.steps[1] is None and not between.mechanic.tier_layout.covers
    found, step_by_step = _read_both_ways(between)
    assert found == step_by_step and found[2].to_dict() == pytest.approx({"Six": 11 / 36, "Rest": 25 / 36,
                                                                          "One": 0.0})


def test_rolls_in_no_laid_out_tier_are_read_tier_by_tier_and_refused(tmp_path):
    path = tmp_path / "gap.toml"
    path.write_text(HIGH_D6.format(id="gap") + """
[[tiers]]
name = "Six"
condition = "high == 6"
[[tiers]]
name = "Low"
max = 2
""", encoding="utf-8")
    gap = workbench.load_system(path)
    assert gap.mechanic.tier_layout is not None
    from workbench.engine import exact_distribution
    p = gap.resolve()
    raw = exact_distribution(gap.mechanic.pool(p))
    assert reading_rows.laid_out(gap.mechanic.reading_rules(p, facts=True), raw, reading_rows.rows_of(raw),
                                 gap.mechanic.tier_layout) is None
    with pytest.raises(WorkbenchError, match="fall in no tier"):
        _read_both_ways(gap)
    with pytest.raises(WorkbenchError, match="fall in no tier"):
        workbench.check(gap)
