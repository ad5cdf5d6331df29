"""One way to read a result: a table of totals (``RawDistribution``) and rows of statistics
(``JointDistribution``) answer the same questions, so outcomes, conditions, tiers and P(pass)
read the same off either, and the reading tells them apart in one place only."""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.engine import JointDistribution, RawDistribution, exact_distribution
from workbench.errors import WorkbenchError
from workbench.results import reading, reading_statistics, reading_totals
from workbench.rules.roll import ALL_NEGATIVE

ROOT = Path(__file__).resolve().parents[1]

#: Checks whose engine answer is a table of totals, with and without tiers, labels, targets.
SUMS = [("uwr", {"dice": 3, "target": 2}), ("uwr", {"dice": 5, "favor": 1, "rerolls": 2}),
        ("unnamed", {"d6": 3, "d8": 1}), ("unnamed", {"d6": 1, "penalty": 2, "target": 2}),
        ("arrata", {"stat": "B4", "ob": 2}), ("erzahlspiel", {"die": "green"}),
        ("fons-exploding", {"dice": 3, "target": 2})]


def _raw(system: str, params: dict):
    sys_ = wb.system(system)
    resolved = sys_.resolve(**params)
    raw = exact_distribution(sys_.mechanic.pool(resolved))
    assert type(raw) is RawDistribution
    return sys_, resolved, raw


@pytest.mark.parametrize("system, params", SUMS, ids=[f"{s} {p}" for s, p in SUMS])
def test_a_table_of_totals_and_its_rows_answer_alike(system, params):
    sys_, resolved, raw = _raw(system, params)
    rows = raw.as_joint(("total", ALL_NEGATIVE))
    # The total's marginal: every total of the table, those the rows hold with their
    # probability, the others impossible.
    totals, probs = raw.marginal("total")
    by_row = dict(zip(*(a.tolist() for a in rows.marginal("total"))))
    assert [by_row.get(t, 0.0) for t in totals.tolist()] == pytest.approx(probs.tolist(), abs=1e-15)
    assert raw.total_span == (int(totals[0]), int(totals[-1]))
    assert raw.whole == pytest.approx(rows.whole, abs=1e-15)
    assert raw.whole == pytest.approx(1.0 - raw.lost_mass, abs=1e-9)
    assert list(raw.columns()) == ["total"] and raw.probabilities is raw.pmf


@pytest.mark.parametrize("system, params", SUMS, ids=[f"{s} {p}" for s, p in SUMS])
def test_outcomes_tiers_and_p_pass_read_the_same_off_either(system, params):
    sys_, resolved, raw = _raw(system, params)
    mechanic = sys_.mechanic
    rows = raw.as_joint(("total", ALL_NEGATIVE))
    assert reading.model(raw) is reading_totals and reading.model(rows) is reading_statistics
    if mechanic.labels is None:   # outcomes as totals (rows list only the possible ones)
        by_total = dict(reading.outcomes(mechanic, raw).items())
        assert {t: p for t, p in by_total.items() if p} == pytest.approx(
            {t: p for t, p in reading.outcomes(mechanic, rows).items() if p}, abs=1e-15)
    table_tiers, row_tiers = reading.tiers(mechanic, raw, resolved), reading.tiers(mechanic, rows, resolved)
    assert (table_tiers is None) == (row_tiers is None) == (not mechanic.tier_names())
    if table_tiers is not None:
        assert table_tiers.outcomes == row_tiers.outcomes
        assert table_tiers.probabilities.tolist() == pytest.approx(row_tiers.probabilities.tolist(), abs=1e-15)
    table_pass, row_pass = reading.p_pass(mechanic, raw, resolved), reading.p_pass(mechanic, rows, resolved)
    assert (table_pass is None) == (row_pass is None)
    if table_pass is not None:
        assert table_pass == pytest.approx(row_pass, abs=1e-15)


@pytest.mark.parametrize("condition, holds", [("total >= 2", lambda t: t >= 2),
                                              ("total == 0 or total > 3", lambda t: t == 0 or t > 3),
                                              ("total * 2 < dice", lambda t: t * 2 < 5)])
def test_a_condition_reads_a_table_of_totals_as_its_rows(condition, holds):
    """P(condition) off the table, off its rows, and added up total by total here."""
    sys_, resolved, raw = _raw("uwr", {"dice": 5})
    parsed = sys_.condition(condition)
    by_hand = sum(float(p) for t, p in zip(raw.totals.tolist(), raw.pmf) if holds(t))
    assert reading.probability(sys_.mechanic, raw, resolved, parsed) == pytest.approx(by_hand, abs=1e-15)
    rows = raw.as_joint()
    assert reading.probability(sys_.mechanic, rows, resolved, parsed) == pytest.approx(by_hand, abs=1e-15)


def test_only_a_raw_distribution_is_read():
    with pytest.raises(WorkbenchError, match=r"a raw distribution got \[0\.5, 0\.5\]; allowed: the "
                                             "engine's RawDistribution or JointDistribution"):
        reading.model([0.5, 0.5])


def test_rows_of_statistics_are_themselves_as_a_joint():
    rows = JointDistribution(("total",), np.array([[0], [1]]), np.array([0.25, 0.75]))
    assert rows.as_joint(("total", ALL_NEGATIVE)) is rows and rows.whole == 1.0


def test_the_results_tell_the_raw_types_apart_in_one_place():
    """No reading asks a raw distribution its type: :func:`reading.model` is the one place
    (its registrations), so a reading added later reads both or says which it reads."""
    found = []
    for path in sorted((ROOT / "workbench" / "results").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("isinstance", "type"):
                named = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
                if named & {"RawDistribution", "JointDistribution"}:
                    found.append(f"{path.name}:{node.lineno}")
    assert found == []
    source = (ROOT / "workbench" / "results" / "reading.py").read_text(encoding="utf-8")
    assert source.count("model.register(") == 2


#: Checks of every way a reading goes: totals plain, tiered, with a target, outcome labels,
#: rows of statistics read by ``pass_if`` and tier conditions.
READ_ONCE = [*SUMS, ("alien-rpg", {}), ("alien-rpg", {"stress": 3})]


def _rules_asked(check):
    """The calls from the results layer into the rules layer (the mechanic's methods and
    properties) while ``check()`` runs; conditions evaluated by the rules' one expression
    interpreter are not asking the rules how to read."""
    import sys
    asked = []

    def profile(frame, event, arg):
        if event != "call" or frame.f_back is None:
            return
        callee = frame.f_globals.get("__name__", "")
        caller = frame.f_back.f_globals.get("__name__", "")
        if callee.startswith("workbench.rules.") and not callee.startswith("workbench.rules.expressions") \
                and caller.startswith("workbench.results."):
            asked.append(f"{callee}.{frame.f_code.co_name}")

    sys.setprofile(profile)
    try:
        result = check()
    finally:
        sys.setprofile(None)
    return result, asked


@pytest.mark.parametrize("system, params", READ_ONCE, ids=[f"{s} {p}" for s, p in READ_ONCE])
def test_a_check_asks_the_rules_once_how_it_reads(system, params):
    """Reading one check crosses into the rules once (one record of labels, target, tiers,
    conditions and facts), and reads the same as the readings asked one by one."""
    sys_ = wb.system(system)
    resolved = sys_.resolve(**params)
    mechanic = sys_.mechanic
    raw = exact_distribution(sys_.pool(**params))
    result, asked = _rules_asked(lambda: reading.check_result(sys_, raw, resolved))
    assert [name.rsplit(".", 1)[1] for name in asked] == ["reading_rules"], asked
    read = reading.as_read(mechanic, resolved, raw)
    assert result.pmf.outcomes == reading.outcomes(mechanic, read).outcomes
    assert result.pmf.probabilities.tolist() == reading.outcomes(mechanic, read).probabilities.tolist()
    tiers = reading.tiers(mechanic, read, resolved)
    assert (result.tiers is None) == (tiers is None)
    if tiers is not None:
        assert result.tiers.probabilities.tolist() == tiers.probabilities.tolist()
    passed = reading.p_pass(mechanic, read, resolved)
    assert result.p_pass == (None if passed is None else reading.model(read).kept_p_pass(passed, read))
    assert result.extra.get("effective_ob") == mechanic.extra(resolved).get("effective_ob")


def test_a_python_mechanic_is_asked_each_reading_once_per_check():
    """A mechanic written in Python: target(p), extra(p), tier_names() and tier_rules(p) are
    each asked once per check, and what they say reads as before."""
    from workbench.rules.mechanics.base import Mechanic

    class Tier:
        def __init__(self, name, low, high, passes=True):
            self.name, self.min, self.max, self.all_negative, self.passes = name, low, high, None, passes

    asked = []

    class Counted(Mechanic):
        system_id = "py-counted"

        def target(self, p):
            asked.append("target")
            return 1

        def extra(self, p):
            asked.append("extra")
            return {"note": 7}

        def tier_names(self):
            asked.append("tier_names")
            return ("Miss", "Hit")

        def tier_rules(self, p):
            asked.append("tier_rules")
            return (Tier("Miss", None, 0, passes=False), Tier("Hit", 1, None))

    mechanic = Counted()
    raw = RawDistribution(0, np.array([[0.25, 0.5, 0.25], [0.0, 0.0, 0.0]]))

    class System:
        id = "py-counted"

    System.mechanic = mechanic
    result = reading.check_result(System, raw, {"dice": 2})
    assert sorted(asked) == ["extra", "target", "tier_names", "tier_rules"]
    assert result.tiers.outcomes == ("Miss", "Hit")
    assert result.tiers.probabilities.tolist() == [0.25, 0.75]
    assert result.p_pass == 0.75 and result.extra["note"] == 7
    assert result.extra["margin"].outcomes == (-1, 0, 1)


@pytest.mark.parametrize("system, params", READ_ONCE, ids=[f"{s} {p}" for s, p in READ_ONCE])
def test_a_data_file_gathers_its_reading_as_the_protocol_says(system, params):
    """A mechanic may gather its reading rules more quickly (a data file's constant parts kept):
    it gathers what the protocol's own gathering would, method by method."""
    from workbench.rules.mechanics.base import Mechanic
    sys_ = wb.system(system)
    resolved = sys_.resolve(**params)
    for target in ("read", "for_pass", "given"):
        quick = sys_.mechanic.reading_rules(resolved, facts=True, target=target)
        plain = Mechanic.reading_rules(sys_.mechanic, resolved, facts=True, target=target)
        assert quick._replace(conditions=None) == plain._replace(conditions=None)
        assert all(quick.conditions[text] is parsed for text, parsed in plain.conditions.items())


def test_a_tier_condition_without_a_reader_is_said_plainly():
    """A Python mechanic whose tier has a condition but which has no condition() to read it:
    one error naming the system and the condition (it was a bare KeyError / AttributeError)."""
    from workbench.engine.joint import JointDistribution
    from workbench.errors import WorkbenchError
    from workbench.rules.mechanics.base import Mechanic

    class Tier:
        def __init__(self, name, condition, passes=True):
            self.name, self.min, self.max, self.all_negative = name, None, None, None
            self.condition, self.passes = condition, passes

    class NoReader(Mechanic):
        system_id = "py-no-reader"

        def target(self, p):
            return None

        def tier_names(self):
            return ("Miss", "Hit")

        def tier_rules(self, p):
            return (Tier("Hit", "ones >= 1"), Tier("Miss", None, passes=False))

    class System:
        id = "py-no-reader"
        mechanic = NoReader()

    raw = JointDistribution(("total", "ones"), np.array([[0, 1], [1, 0]]), np.array([0.5, 0.5]))
    with pytest.raises(WorkbenchError, match=r"py-no-reader: a tier has the condition 'ones >= 1' "
                                             r"but the mechanic has no condition\(\) to read it"):
        reading.check_result(System, raw, {"dice": 1})
