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
    assert tier_layout((hit, rest), ("Miss", "Hit"), parsed).positions == (1, 0)
    assert tier_layout((hit, TierRule("Miss", max=0)), ("Miss", "Hit"), parsed) is None   # a rule of its own
    assert tier_layout((TierRule("Hit", 1, None), rest), ("Miss", "Hit"), parsed) is None   # a range of totals
    assert tier_layout((hit, rest), ("Miss", "Hit"), {}) is None   # a condition not parsed
    assert tier_layout((), (), parsed) is None
    blocked = tier_layout((hit._replace(passes=False), rest), ("Miss", "Hit"), parsed)
    assert blocked.never == (True, False)
