"""``workbench table`` and ``workbench ladder`` from the command line (``report``: test_report.py)."""
from __future__ import annotations

import csv
import io
import json

import docutils.core
import pytest
from markdown_it import MarkdownIt


from conftest import run_cli


def run(capsys, *argv):
    return run_cli(capsys, *argv)


def rst_parses(text: str) -> int:
    """Number of tables in ``text``; docutils warnings fail the test."""
    errors = io.StringIO()
    tree = docutils.core.publish_doctree(text, settings_overrides={
        "halt_level": 2, "report_level": 2, "warning_stream": errors})
    assert errors.getvalue() == ""
    return sum(1 for _ in tree.findall(lambda node: node.tagname == "table"))


def _uwr_with_a_reroll(dice: int, target: int, lowest: int) -> float:
    """UWR with one reroll, every roll counted: the dice, then one more die that replaces a
    miss (if there is one); a die succeeds from face ``lowest`` up."""
    import itertools

    passed = 0
    for *faces, again in itertools.product(range(1, 7), repeat=dice + 1):
        hits = sum(f >= lowest for f in faces)
        hits += hits < dice and again >= lowest
        passed += hits >= target
    return passed / 6 ** (dice + 1)


def test_table_to_stdout_as_markdown(capsys):
    from _tables import tables

    status, out, _ = run(capsys, "table", "uwr", "rerolls=1", "--pools", "1-3", "--format", "md")
    assert status == 0
    tokens = MarkdownIt("commonmark").enable("table").parse(out)
    assert sum(t.type == "tr_open" for t in tokens) == 5  # header + four rungs
    assert "55.6%" in out  # Normal with 1 die and 1 reroll: 1 - (2/3)^2
    (rows,) = tables(out, "md")
    assert rows[0][-3:] == ["1 die (rerolls=1)", "2 dice (rerolls=1)", "3 dice (rerolls=1)"]
    rungs = {"Easy": (1, 4), "Normal": (1, 5), "Difficult": (2, 5), "Extreme": (3, 5)}
    for row in rows[1:]:
        target, lowest = rungs[row[0]]
        assert row[-3:] == [f"{100 * _uwr_with_a_reroll(n, target, lowest):.1f}%" for n in (1, 2, 3)], row


@pytest.mark.parametrize("fmt", ["rst-grid", "rst-list", "rst-csv"])
def test_table_to_a_file_for_sphinx(tmp_path, capsys, fmt):
    out_file = tmp_path / "arrata.rst"
    status, out, err = run(capsys, "table", "arrata", "quality=A", "--pools", "2,4",
                         "--format", fmt, "--fraction", "--out", str(out_file))
    assert status == 0 and out == ""
    assert err == f"wrote {out_file}\n"  # every --out says what it wrote
    text = out_file.read_text(encoding="utf-8")
    assert rst_parses(text) == 1
    assert "80/81" in text  # A4 against Ob 1: 1 - (1/3)^4


def test_ladder_to_a_file_says_what_it_wrote(tmp_path, capsys):
    out_file = tmp_path / "ladder.json"
    status, out, err = run(capsys, "ladder", "uwr", "--want", "Normal=0.7", "--format", "json",
                           "--out", str(out_file))
    assert status == 0 and out == "" and err.strip().endswith(f"wrote {out_file}")
    assert '"Normal"' in out_file.read_text(encoding="utf-8")


@pytest.mark.parametrize("flag", [["--digits", "3"], ["--percent"], ["--fraction"], ["--show", "pools"]])
def test_ladder_json_refuses_table_only_options(capsys, assert_one_line, flag):
    # They used to be accepted and silently ignored.
    assert_one_line(*run(capsys, "ladder", "uwr", "--want", "Normal=0.7", "--format", "json", *flag),
                    contains=(f"{flag[0]} does not apply to --format json",))


def test_table_number_options(capsys):
    _, out, _ = run(capsys, "table", "erzahlspiel", "--format", "csv", "--digits", "3")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][-1] == "any YES" and rows[3][-1] == "0.500"
    _, out, _ = run(capsys, "table", "erzahlspiel", "--format", "csv", "--percent", "0")
    assert list(csv.reader(io.StringIO(out)))[5][-1] == "83%"


README_WANT = "Easy=0.9,Normal=0.7,Difficult=0.45,Extreme=0.2"


def test_ladder_solves_and_shows_both_tables(capsys):
    status, out, err = run(capsys, "ladder", "uwr", "--want", README_WANT, "--pool", "4",
                           "--pools", "3-6", "--format", "rst-list")
    assert status == 0
    assert rst_parses(out) == 2
    assert "Solved ladder across pool sizes" in out and "10 dice" in out
    assert "Ordered at 3-6 dice: yes" in out
    # Extreme cannot reach 20% without beating Difficult at 6 dice: said on stderr, one line
    assert err.count("\n") == 1
    assert err.startswith("workbench: warning: Extreme: target=4, favor+2 (19.8%) would be closer")
    assert "would beat Difficult at 6 dice" in err


def test_readme_ladder_example_reports_crossings_outside_the_pool(capsys):
    status, out, err = run(capsys, "ladder", "uwr", "--want", README_WANT, "--pool", "4",
                           "--format", "md", "--show", "solution")
    assert status == 0
    assert "| Extreme   | target=4, favor+2 | 20.0%    | 19.8%    | yes" in out
    assert "**Ordered at 4 dice: yes**" in out
    assert err == ("workbench: note: outside the pools asked for (not enforced): Extreme "
                   "(target=4, favor+2) beats Difficult (target=2) at 6-10 dice\n")


def test_ladder_json_contract(capsys):
    status, out, err = run(capsys, "ladder", "uwr", "--want", README_WANT, "--pools", "3-6",
                           "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert data["ordered"] is True and data["pool"] == 4 and data["pools"] == [3, 4, 5, 6]
    assert [r["name"] for r in data["rungs"]] == ["Easy", "Normal", "Difficult", "Extreme"]
    for rung in data["rungs"]:
        assert set(rung["p_pass"]) == {"3", "4", "5", "6"}
        assert rung["achieved"] == rung["p_pass"]["4"]
        assert isinstance(rung["reachable"], bool) and rung["settings"]
    assert data["rungs"][1]["p_pass"]["6"] == 0.890625  # target 2 with favor +1 at 6 dice, exact
    assert [r["reachable"] for r in data["rungs"]] == [True, True, True, False]
    assert data["conflicts"] == [{"easier": "Difficult", "easier_settings": "target=2",
                                  "harder": "Extreme", "harder_settings": "target=4, favor+2",
                                  "kind": "beats", "pools": [6]}]
    assert data["outside_range"] == []


def test_ladder_pools_without_pool_take_the_middle(capsys):
    status, out, _ = run(capsys, "ladder", "arrata", "--want", "Easy=0.8,Hard=0.3", "--pools", "5-7",
                         "--format", "json")
    assert status == 0 and json.loads(out)["pool"] == 6


def test_ladder_warns_when_a_rung_cannot_be_reached(capsys):
    status, out, err = run(capsys, "ladder", "arrata", "--want", "Sure=0.999", "--pool", "1",
                           "--format", "csv")
    assert status == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][:5] == ["rung", "setting", "wanted", "B1", "reachable"]
    assert rows[1][0] == "Sure" and rows[1][4] == "no"
    assert "cannot reach 99.9% at B1" in err


def test_ladder_as_plain_text(capsys):
    status, out, _ = run(capsys, "ladder", "erzahlspiel", "--want", "Easy=0.8,Hard=0.3",
                         "--format", "text")
    assert status == 0
    assert out.splitlines()[0].split() == ["rung", "setting", "wanted", "P(pass)", "reachable"]
    assert "die=blue" in out and "Ordered: yes" in out
    assert "across pool sizes" not in out  # one die: no pool sizes to go across


def test_ladder_turns_only_the_knobs_asked_for(capsys):
    """--turn target keeps favor at the character's own: only targets are tried."""
    status, out, err = run(capsys, "ladder", "uwr", "--want", "Normal=0.7,Difficult=0.45",
                           "--pool", "4", "--format", "csv", "--turn", "target")
    assert status == 0
    rows = {row[0]: row for row in csv.reader(io.StringIO(out))}
    assert rows["Normal"][1] == "target=1" and rows["Difficult"][1] == "target=2"
    # 70% lies between target 1 (80.2%) and target 2 (40.7%): a step over it, not out of range.
    assert "no setting comes within 5.0 pp of 70.0% at 4 dice" in err  # a distance: pp, not %


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
    (["ladder", "uwr", "--want", "Easy=0.5", "--pool", "3", "--pools", "4-6"], "--pool 3 is outside --pools 4-6"),
    (["ladder", "uwr", "--want", "Easy=0.5", "--across", "x"], "--across got 'x'"),
    (["ladder", "uwr", "--want", "Easy=0.5", "--format", "csv", "--show", "both"], "cannot be one CSV"),
    (["report", "--out", "report.txt"], "ending in .html"),
    (["report", "--out", "r.html", "--systems", "uwr,nope"], "unknown system 'nope'"),
])
def test_bad_options_give_one_line_and_status_2(capsys, assert_one_line, argv, message):
    assert_one_line(*run(capsys, *argv), contains=(message,))


