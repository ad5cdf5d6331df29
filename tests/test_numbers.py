"""Numbers as designers read them: JSON without float noise, tables with negligible tails cut
and marked, never a possible outcome shown as impossible."""
from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import numpy as np
import pytest

import workbench
from workbench.export.tables import cut_tails
from workbench.numbers import json_ready, round_sig
from workbench.cli import main
from workbench.export.tables import NumberFormat


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


def test_readme_pmf_prints_the_exact_probability(capsys):
    out = run(capsys, "pmf", "uwr", "dice=4", "favor=1", "rerolls=2", "target=2", "--format", "json")
    assert '"p_pass": 0.890625,' in out
    assert '"1": 0.09375,' in out  # 0.09374999999999993 in floating point
    # the Python object keeps the raw double; only presentation rounds
    raw = workbench.check("uwr", dice=4, favor=1, rerolls=2, target=2).p_pass
    assert raw == pytest.approx(0.890625, abs=1e-15)


@pytest.mark.parametrize("value", [1 / 3, 2 / 3, 0.1 + 0.2, 1e-3 / 7, 12345.678901234567, -2 / 3])
def test_rounding_changes_numbers_only_at_the_noise_level(value):
    assert round_sig(value) == pytest.approx(value, rel=1e-14, abs=5e-16)


def test_exact_dyadic_probabilities_come_out_exact():
    # Every UWR probability with favor +1 (p = 1/2) is k / 2**n: the JSON must show it exactly.
    result = workbench.check("uwr", dice=7, favor=1, rerolls=1)
    for outcome, p in result.pmf.to_dict().items():
        assert Fraction(p).denominator <= 4**7, (outcome, p)


def test_json_ready_walks_nested_data():
    data = json_ready({"a": [0.8906249999999996, {"b": 0.30000000000000004}], "n": 3, "t": "x"})
    assert data == {"a": [0.890625, {"b": 0.3}], "n": 3, "t": "x"}


def test_markdown_pmf_cuts_the_negligible_tail(capsys):
    out = run(capsys, "pmf", "fons-exploding", "dice=6", "--format", "md")
    rows = [line.split("|")[1:3] for line in out.split("**Tiers**")[0].split("**Summary**")[0]
            .splitlines() if line.startswith("| ") and "outcome" not in line]
    labels = [label.strip() for label, _ in rows]
    cells = [cell.strip() for _, cell in rows]
    pmf = workbench.check("fons-exploding", dice=6).pmf
    assert labels[-1].startswith("≥ ") and cells[-1] == "< 0.01%"
    first_cut = int(labels[-1][2:])
    assert sum(p for o, p in pmf.items() if o >= first_cut) < 0.00005  # the tail rounds to 0
    assert all(not c.startswith("<") for c in cells[:-1])  # every row shown above the cut is visible
    assert labels[:-1] == [str(o) for o in pmf.outcomes if o < first_cut]
    assert len(pmf) > len(labels) + 5  # the exact pmf runs on to ~1e-12


def test_csv_pmf_keeps_every_outcome(capsys):
    out = run(capsys, "pmf", "fons-exploding", "dice=6", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out.split("\n\n")[0])))
    pmf = workbench.check("fons-exploding", dice=6).pmf
    assert [r["outcome"] for r in rows] == [str(o) for o in pmf.outcomes]
    assert float(rows[-1]["probability"]) > 0


def test_labelled_outcomes_are_never_cut(capsys):
    out = run(capsys, "pmf", "erzahlspiel", "die=black", "--format", "md")
    for label in ("NO! AND...", "YES! AND..."):
        assert f"| {label}" in out


def test_versus_margins_get_the_same_rule(capsys):
    out = run(capsys, "versus", "fons-exploding", "--actor", "dice=5", "--reactor", "dice=5",
              "--format", "md")
    margins = out.split("**Summary**")[0]
    assert "| ≤ " in margins and "| ≥ " in margins and "< 0.01%" in margins
    data = json.loads(run(capsys, "versus", "uwr", "--actor", "dice=3", "--reactor", "dice=2",
                          "--format", "json"))
    assert all(round_sig(p) == p for p in data["margin"].values())


def test_cut_tails_drops_tails_that_never_happen_and_keeps_the_middle():
    assert cut_tails([0, 1, 2, 3], [0.0, 0.5, 0.5, 0.0], 5e-5) == [("1", 0.5, False), ("2", 0.5, False)]
    # a small value in the middle is not a tail: it stays, and the table marks it
    rows = cut_tails([0, 1, 2], [0.5, 1e-9, 0.5 - 1e-9], 5e-5)
    assert [r[0] for r in rows] == ["0", "1", "2"]
    assert NumberFormat("percent", 2).text(rows[1][1]) == "< 0.01%"
    # fractions are exact: nothing is cut
    assert len(cut_tails([0, 1], [1e-9, 1 - 1e-9], NumberFormat("fraction").resolution)) == 2


def test_float_noise_at_zero_and_one_is_not_a_mark():
    number = NumberFormat("percent", 1)
    assert number.text(1 - 1e-15) == "100.0%" and number.text(1e-16) == "0.0%"
    assert number.text(1 - 1e-6) == "> 99.9%" and number.text(1e-6) == "< 0.1%"


def test_rst_pmf_with_a_cut_tail_is_valid_restructuredtext(capsys):
    import docutils.core
    out = run(capsys, "pmf", "fons-exploding", "dice=6", "target=2", "--format", "rst")
    errors = io.StringIO()
    tree = docutils.core.publish_doctree(out, settings_overrides={
        "halt_level": 2, "report_level": 2, "warning_stream": errors})
    assert errors.getvalue() == ""
    cells = [node.astext() for node in tree.findall(lambda n: n.tagname == "entry")]
    assert "< 0.01%" in cells and any(c.startswith("≥ ") for c in cells)
    assert cells[cells.index("lost_mass") + 1] == "0.00%"  # 2.5e-15: float noise, not a mark


def test_a_table_of_totals_far_apart_shows_only_the_possible_ones(tmp_path):
    """A count times 1000 as the total: three possible totals among 2001, not 2001 rows of 0%
    (the table of a dense distribution keeps its impossible totals inside the range)."""
    from workbench.export.tables import cut_tails
    probabilities = np.zeros(2001)
    probabilities[[0, 1000, 2000]] = [4 / 9, 4 / 9, 1 / 9]
    rows = cut_tails(range(2001), probabilities, 5e-5)
    assert [(label, round(p, 12)) for label, p, _ in rows] == [("0", round(4 / 9, 12)), ("1000", round(4 / 9, 12)),
                                                               ("2000", round(1 / 9, 12))]
    dense = cut_tails(range(5), [0.25, 0.0, 0.5, 0.0, 0.25], 5e-5)
    assert [label for label, _, _ in dense] == ["0", "1", "2", "3", "4"]
