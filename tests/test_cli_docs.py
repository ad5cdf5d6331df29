"""``workbench table``, ``workbench ladder`` and ``workbench report`` from the command line."""
from __future__ import annotations

import csv
import io

import docutils.core
import nbformat
import pytest
from markdown_it import MarkdownIt

from workbench.cli import main
from workbench.report import NOTEBOOK


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def rst_parses(text: str) -> int:
    """Number of tables in ``text``; docutils warnings fail the test."""
    errors = io.StringIO()
    tree = docutils.core.publish_doctree(text, settings_overrides={
        "halt_level": 2, "report_level": 2, "warning_stream": errors})
    assert errors.getvalue() == ""
    return sum(1 for _ in tree.findall(lambda node: node.tagname == "table"))


def test_table_to_stdout_as_markdown(capsys):
    status, out, _ = run(capsys, "table", "uwr", "rerolls=1", "--pools", "1-3", "--format", "md")
    assert status == 0
    tokens = MarkdownIt("commonmark").enable("table").parse(out)
    assert sum(t.type == "tr_open" for t in tokens) == 5  # header + four rungs
    assert "| 1 die" in out and "3 dice" in out
    assert "55.6%" in out  # Normal with 1 die and 1 reroll: 1 - (2/3)^2


@pytest.mark.parametrize("fmt", ["rst-grid", "rst-list", "rst-csv"])
def test_table_to_a_file_for_sphinx(tmp_path, capsys, fmt):
    out_file = tmp_path / "arrata.rst"
    status, out, _ = run(capsys, "table", "arrata", "quality=A", "--pools", "2,4",
                         "--format", fmt, "--fraction", "--out", str(out_file))
    assert status == 0 and out == ""
    text = out_file.read_text(encoding="utf-8")
    assert rst_parses(text) == 1
    assert "80/81" in text  # A4 against Ob 1: 1 - (1/3)^4


def test_table_number_options(capsys):
    _, out, _ = run(capsys, "table", "erzahlspiel", "--format", "csv", "--digits", "3")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][-1] == "any YES" and rows[3][-1] == "0.500"
    _, out, _ = run(capsys, "table", "erzahlspiel", "--format", "csv", "--percent", "0")
    assert list(csv.reader(io.StringIO(out)))[5][-1] == "83%"


def test_ladder_solves_and_shows_both_tables(capsys):
    status, out, err = run(capsys, "ladder", "uwr", "--want",
                           "Easy=0.9,Normal=0.7,Difficult=0.45,Extreme=0.2", "--pool", "4",
                           "--pools", "1-6", "--format", "rst-list")
    assert status == 0 and err == ""
    assert rst_parses(out) == 2
    assert "Solved ladder across pool sizes" in out and "6 dice" in out


def test_ladder_warns_when_a_rung_cannot_be_reached(capsys):
    status, out, err = run(capsys, "ladder", "arrata", "--want", "Sure=0.999", "--pool", "1",
                           "--format", "csv")
    assert status == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[1][0] == "Sure" and rows[1][5] == "no"
    assert "cannot reach 99.9% at B1" in err


def test_ladder_turns_only_the_knobs_asked_for(capsys):
    """--turn target keeps favor at the character's own: only targets are tried."""
    status, out, err = run(capsys, "ladder", "uwr", "--want", "Normal=0.7,Difficult=0.45",
                           "--pool", "4", "--format", "csv", "--turn", "target")
    assert status == 0
    rows = {row[0]: row for row in csv.reader(io.StringIO(out))}
    assert rows["Normal"][1] == "target=1" and rows["Difficult"][1] == "target=2"
    # 70% lies between target 1 (80.2%) and target 2 (40.7%): a step over it, not out of range.
    assert "no setting within 5.0% of 70.0% at 4 dice" in err


@pytest.mark.parametrize("argv, message", [
    (["ladder", "uwr", "--want", "Easy=0.9", "--turn", "ob"], "--turn got 'ob'"),
    (["table", "uwr", "--pools", "5-1"], "runs backwards"),
    (["table", "uwr", "--pools", "a"], "--pools got 'a'"),
    (["table", "nope"], "unknown system 'nope'"),
    (["table", "uwr", "favor=x"], "parameter 'favor' got 'x'"),
    (["table", "uwr", "--digits", "x"], "--digits got 'x'"),
    (["table", "uwr", "--out", "/no/such/folder/t.rst"], "does not exist"),
    (["ladder", "uwr", "--want", "Easy=2"], "allowed: a number from 0 to 1"),
    (["ladder", "uwr", "--want", "Easy=0.5", "--pool", "x"], "--pool got 'x'"),
    (["ladder", "uwr", "--want", "Easy=0.5", "--format", "csv", "--show", "both"], "cannot be one CSV"),
    (["report", "--out", "report.txt"], "ending in .html"),
    (["report", "--out", "r.html", "--systems", "uwr,nope"], "unknown system 'nope'"),
])
def test_bad_options_give_one_line_and_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("workbench: error:") and message in err


def test_report_notebook_is_committed_clean():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    first = nb.cells[0]
    assert first.cell_type == "markdown" and "question this notebook answers" in first.source
    assert any("parameters" in cell.metadata.get("tags", []) for cell in nb.cells)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


def test_report_end_to_end(tmp_path, capsys):
    out_file = tmp_path / "report.html"
    status, _, err = run(capsys, "report", "--out", str(out_file), "--systems", "uwr,unnamed,erzahlspiel",
                         "--variant", "fons-exploding", "--pools", "1-4")
    assert status == 0, err
    assert "balance report" in err  # the tqdm bar
    html = out_file.read_text(encoding="utf-8")
    assert "<script src=" not in html  # self-contained: no CDN
    assert html.count("Plotly.newPlot") >= 5  # curves, ladders, tier chart, narrative chart
    for text in ("Balance report", "FoNS, exploding 6s", "Success with a Twist", "YES! AND...",
                 "Stateful results", "Clocks:", "Conditions:", "Drama Dice:"):
        assert text in html, text
    assert "systems = [" not in html  # code cells are hidden
    assert "Not available" not in html  # every stateful function the report uses exists
    # The parameters reached the notebook: four pool sizes, so no "5 dice" column anywhere.
    assert "4 dice" in html and "5 dice" not in html
