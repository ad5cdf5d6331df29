"""One rule for conditions on every surface that takes one: ``.probability``, curves, ladder
and difficulty tables, the ladder solver and its notes, ladder figures, render and Sphinx
blocks, the command line and sweeps.

- what is shown says which condition it is (a table of P(ones >= 1) is not headed "4 dice"
  as P(pass) is, nor titled "P(pass)");
- what is computed is P(condition), notes included (a reach note under a ladder solved for a
  condition named the pool where P(pass) would reach);
- a system whose outcomes are labels refuses every condition, everywhere (``table`` and
  ``.probability`` refused; ``ladder``, figures and blocks solved over the labels' positions);
- a mechanic registered in Python reads conditions over its own statistics everywhere
  (``.probability`` read them; curves and tables refused them as unknown names).

Numbers are checked against a brute force written here (every ordered roll of d6s), without
``workbench.engine``.
"""
from __future__ import annotations

import io
import itertools
from fractions import Fraction

import pandas as pd
import pytest

import workbench as wb
from workbench.errors import WorkbenchError
from workbench.rules.roll import Die
from workbench.rules.scored import ScoredRoll

from conftest import run_cli

LABELS = "its outcomes are labels"


def shadowrun(dice: int, condition) -> float:
    """P(condition(hits, ones, total)) for a pool of d6s: hits 5-6, ones 1, total = hits."""
    rolls = itertools.product(range(1, 7), repeat=dice)
    count = Fraction(0)
    for roll in rolls:
        hits = sum(face >= 5 for face in roll)
        ones = sum(face == 1 for face in roll)
        count += bool(condition(hits=hits, ones=ones, total=hits))
    return float(count / 6 ** dice)


def cli(capsys, *argv):
    return run_cli(capsys, *argv, exits=True)


def percent(p: float) -> str:
    return f"{100 * p:.1f}%"


# -- the reach note of a ladder solved for a condition --------------------------------------

def test_the_reach_note_is_computed_for_the_condition(capsys):
    # "threshold=2 at 6 dice (64.9%)" was P(pass); P(ones >= 1) reaches 60% at 5 dice (59.8%)
    solution = wb.solve_ladder("shadowrun-5e", {"Any": 0.6}, pool=4, condition="ones >= 1")
    note = solution.rungs[0].note
    at5 = shadowrun(5, lambda ones, **_: ones >= 1)
    assert solution.rungs[0].achieved == pytest.approx(shadowrun(4, lambda ones, **_: ones >= 1), abs=1e-12)
    assert note.endswith(f"threshold=1 would come within 5.0 pp of it at 5 dice ({percent(at5)})")
    assert percent(at5) == "59.8%"
    code, out, err = cli(capsys, "ladder", "shadowrun-5e", "--want", "Any=0.6", "--pool", "4",
                         "--condition", "ones >= 1")
    assert code == 0 and "at 5 dice (59.8%)" in out and "at 5 dice (59.8%)" in err
    assert "6 dice (64.9%)" not in out + err


def test_without_a_condition_the_note_is_about_passing():
    solution = wb.solve_ladder("shadowrun-5e", {"Any": 0.9}, pool=4)
    # P(hits >= 1) at n dice is 1 - (2/3)^n: 90% first within 5 pp at 5 dice (86.8%)
    at5 = shadowrun(5, lambda hits, **_: hits >= 1)
    assert solution.rungs[0].note.endswith(f"threshold=1 would come within 5.0 pp of it at 5 dice "
                                           f"({percent(at5)})")


# -- every output names the condition -----------------------------------------------------

def test_the_table_command_heads_each_column_with_the_condition(capsys):
    code, out, err = cli(capsys, "table", "shadowrun-5e", "--condition", "ones >= 1", "--pools", "1-3",
                         "--format", "csv", "--fraction")
    frame = pd.read_csv(io.StringIO(out))
    assert code == 0 and list(frame.columns) == ["Difficulty", "Setting", "P(ones >= 1) at 1 die",
                                                 "P(ones >= 1) at 2 dice", "P(ones >= 1) at 3 dice"]
    for n in (1, 2, 3):
        want = Fraction(shadowrun(n, lambda ones, **_: ones >= 1)).limit_denominator(6 ** n)
        assert set(frame[f"P(ones >= 1) at {n} {'die' if n == 1 else 'dice'}"]) == {str(want)}
    code, out, err = cli(capsys, "table", "shadowrun-5e", "--pools", "1-3", "--format", "csv")
    assert list(pd.read_csv(io.StringIO(out)).columns)[2:] == ["1 die", "2 dice", "3 dice"]


def test_the_ladder_command_heads_wanted_and_every_pool_with_the_condition(capsys):
    code, out, err = cli(capsys, "ladder", "shadowrun-5e", "--want", "Rare=0.3", "--pool", "2",
                         "--condition", "ones >= 1 and hits == 0", "--across", "1-2", "--format", "md")
    assert code == 0
    shown = "P(ones >= 1 and hits == 0)"
    assert f"| wanted {shown}" in out and f"| {shown} at 2 dice" in out
    assert f"| {shown} at 1 die " in out   # the across-pools table
    both = {n: shadowrun(n, lambda ones, hits, **_: ones >= 1 and hits == 0) for n in (1, 2)}
    assert out.count(percent(both[2])) >= 2 and percent(both[1]) in out


def test_ladder_tables_of_a_solution_name_the_condition():
    solution = wb.solve_ladder("shadowrun-5e", "Easy=0.3", pool=2, pools=[2, 3], condition="ones >= 1")
    table = solution.pools_table()
    assert list(table.columns) == ["rung", "setting", "wanted P(ones >= 1)", "P(ones >= 1) at 2 dice",
                                   "P(ones >= 1) at 3 dice", "reachable", "note"]
    assert table.iloc[0, 3] == pytest.approx(shadowrun(2, lambda ones, **_: ones >= 1), abs=1e-12)


def test_a_ladder_figure_of_a_condition_is_titled_and_labelled_by_it():
    from workbench.figures import ladder_figure
    for figure in (ladder_figure("shadowrun-5e", [1, 2], condition="ones >= 1"),
                   ladder_figure(wb.solve_ladder("shadowrun-5e", "Any=0.3", pool=2,
                                                 condition="ones >= 1"), [1, 2])):
        assert "P(ones >= 1) by difficulty" in figure.layout.title.text
        assert "P(pass)" not in figure.layout.title.text
        assert figure.layout.yaxis.title.text == "P(ones >= 1)"
        line = next(trace for trace in figure.data if trace.mode == "lines+markers")
        assert list(line.y) == pytest.approx([shadowrun(n, lambda ones, **_: ones >= 1) for n in (1, 2)],
                                             abs=1e-12)
    plain = ladder_figure("shadowrun-5e", [1, 2])
    assert plain.layout.yaxis.title.text == "P(pass)"


def test_figure_command_with_a_condition_writes_the_condition_into_the_figure(tmp_path, capsys):
    out = tmp_path / "glitch.html"
    code, _, err = cli(capsys, "figure", "shadowrun-5e", "--kind", "ladder", "--pools", "1-2",
                       "--condition", "ones >= 1", "--out", str(out))
    page = out.read_text().replace("\\u003e", ">")   # the figure's JSON escapes ">"
    assert code == 0 and "P(ones >= 1) by difficulty" in page
    assert '"text":"P(ones >= 1)"' in page.replace(" ", "").replace("P(ones>=1)", "P(ones >= 1)")
    assert "P(pass)" not in page


@pytest.mark.parametrize("options, header", [
    ({"pools": "1-2"}, ["Difficulty", "Setting", "P(ones >= 1) at 1 die", "P(ones >= 1) at 2 dice"]),
])
def test_a_table_block_names_the_condition(options, header):
    from workbench.render import parse_block, table_cells
    head, rows = table_cells(parse_block("table", "shadowrun-5e", {**options, "condition": "ones >= 1"}))
    assert head == header
    assert rows[0][2:] == [percent(shadowrun(n, lambda ones, **_: ones >= 1)) for n in (1, 2)]


def test_ladder_blocks_name_the_condition():
    from workbench.render import parse_block, table_cells
    head, rows = table_cells(parse_block("ladder", "shadowrun-5e", {"pools": "1-2", "condition": "ones >= 1"}))
    assert head == ["Difficulty", "P(ones >= 1) at 1 die", "P(ones >= 1) at 2 dice"]
    head, rows = table_cells(parse_block("ladder", "shadowrun-5e", {"want": "Any=0.3", "pool": "2",
                                                                     "condition": "ones >= 1"}))
    assert head == ["rung", "setting", "wanted P(ones >= 1)", "achieved P(ones >= 1)", "reachable"]
    assert rows[0][3] == percent(shadowrun(2, lambda ones, **_: ones >= 1))


def test_a_sweep_of_the_solver_names_the_condition():
    frame = wb.sweep("solve_ladder", {"dice": [2, 3]}, system="shadowrun-5e", wanted="Any=0.4",
                     condition="ones >= 1", progress=False)
    assert "Any: P(ones >= 1)" in frame.columns and "Any: p_pass" not in frame.columns
    assert frame["Any: P(ones >= 1)"].tolist() == pytest.approx(
        [shadowrun(n, lambda ones, **_: ones >= 1) for n in (2, 3)], abs=1e-12)


# -- outcomes that are labels: refused on every surface -----------------------------------

def _label_surfaces():
    from workbench.figures import ladder_figure
    from workbench.ladders import difficulty_table, ladder_table
    from workbench.render import parse_block
    condition = "total >= 1"
    return {
        "probability": lambda: wb.check("erzahlspiel").probability(condition),
        "success_curve": lambda: wb.success_curve("erzahlspiel", condition=condition),
        "ladder_table": lambda: ladder_table("erzahlspiel", condition=condition),
        "difficulty_table": lambda: difficulty_table("erzahlspiel", condition=condition),
        "solve_ladder": lambda: wb.solve_ladder("erzahlspiel", "Easy=0.5", condition=condition),
        "ladder_figure": lambda: ladder_figure("erzahlspiel", condition=condition),
        "table block": lambda: parse_block("table", "erzahlspiel", {"condition": condition}),
        "ladder block": lambda: parse_block("ladder", "erzahlspiel", {"condition": condition}),
        "figure block": lambda: parse_block("figure", "erzahlspiel", {"kind": "ladder",
                                                                      "condition": condition}),
        "sweep": lambda: wb.sweep("solve_ladder", {"advantage": [0, 1]}, system="erzahlspiel",
                                  wanted="Easy=0.5", condition=condition, progress=False),
    }


@pytest.mark.parametrize("surface", sorted(_label_surfaces()))
def test_a_condition_over_labels_is_refused_on_every_surface(surface):
    # ladder, figures and blocks read the labels' positions: 83.3% under "P(pass)" for 33.3%
    with pytest.raises(WorkbenchError, match=LABELS):
        _label_surfaces()[surface]()


@pytest.mark.parametrize("argv", [
    ["table", "erzahlspiel", "--condition", "total >= 1"],
    ["ladder", "erzahlspiel", "--want", "Easy=0.5", "--condition", "total >= 1"],
    ["figure", "erzahlspiel", "--kind", "ladder", "--condition", "total >= 1", "--out", "{out}"],
])
def test_a_condition_over_labels_is_refused_by_every_command(capsys, assert_one_line, tmp_path, argv):
    argv = [word.replace("{out}", str(tmp_path / "f.html")) for word in argv]
    err = assert_one_line(*cli(capsys, *argv))
    assert err.startswith("workbench: error: --condition got 'total >= 1'; allowed: no condition: "
                          + LABELS)
    assert list(tmp_path.iterdir()) == []


def test_a_markdown_block_with_a_condition_over_labels_is_refused(tmp_path, capsys):
    page = tmp_path / "page.md"
    before = '```workbench-ladder erzahlspiel condition="total >= 1"\n```\n'
    page.write_text(before)
    code, out, err = cli(capsys, "render", str(page))
    assert code == 2 and LABELS in err and page.read_text() == before


# -- a Python mechanic: conditions over its own statistics, everywhere ---------------------

D6 = Die.numbered("d6", 6)


def _glitch_score(faces):
    hits = sum(face >= 5 for face in faces)
    return {"total": hits, "hits": hits, "ones": sum(face == 1 for face in faces)}


@pytest.fixture
def glitchy():
    wb.register_mechanic("py-glitch", lambda p: ScoredRoll(((D6, p["dice"]),), _glitch_score),
                         params={"dice": {"default": 2, "min": 0, "max": 8},
                                 "threshold": {"default": 1, "min": 0, "max": 8}},
                         target="threshold", pool_parameter="dice",
                         ladder=[{"name": "Easy", "set": {"threshold": 1}},
                                 {"name": "Hard", "set": {"threshold": 3}}], replace=True)
    yield "py-glitch"
    wb.unregister_mechanic("py-glitch")


def test_a_python_mechanic_reads_its_own_statistics_on_every_surface(glitchy, capsys):
    from workbench.figures import ladder_figure
    from workbench.ladders import difficulty_table, ladder_table
    from workbench.render import parse_block, table_cells
    condition = "ones >= 1 and hits == 0"
    want = {n: shadowrun(n, lambda ones, hits, **_: ones >= 1 and hits == 0) for n in (1, 2, 3)}
    assert wb.check(glitchy, dice=2).probability(condition) == pytest.approx(want[2], abs=1e-12)
    curve = wb.success_curve(glitchy, [1, 2, 3], condition=condition)
    assert curve["p_pass"].tolist() == pytest.approx([want[1], want[2], want[3]] * 2, abs=1e-12)
    table = ladder_table(glitchy, [1, 2, 3], condition=condition)
    assert table.loc["Hard"].tolist() == pytest.approx([want[1], want[2], want[3]], abs=1e-12)
    frame = difficulty_table(glitchy, [2], condition=condition)
    assert frame.columns[-1] == f"P({condition}) at 2 dice"
    assert frame.iloc[:, -1].tolist() == pytest.approx([want[2]] * 2, abs=1e-12)
    solved = wb.solve_ladder(glitchy, {"Rare": 0.2}, pool=2, condition=condition)
    assert solved.rungs[0].achieved == pytest.approx(want[2], abs=1e-12)
    figure = ladder_figure(glitchy, [1, 2, 3], condition=condition)
    assert figure.layout.yaxis.title.text == f"P({condition})"
    assert list(figure.data[0].y) == pytest.approx([want[1], want[2], want[3]], abs=1e-12)
    head, rows = table_cells(parse_block("ladder", glitchy, {"pools": "2", "condition": condition}))
    assert head == ["Difficulty", f"P({condition}) at 2 dice"] and rows[0][1] == percent(want[2])
    code, out, err = cli(capsys, "table", glitchy, "--pools", "2", "--condition", condition,
                         "--format", "csv")
    assert code == 0 and pd.read_csv(io.StringIO(out)).iloc[0, -1] == percent(want[2])


def test_a_python_condition_naming_no_statistic_is_refused_where_read(glitchy, capsys, assert_one_line):
    with pytest.raises(WorkbenchError, match=r"'crits >= 1' reads 'crits', which is no statistic "
                                             r"of this roll and no parameter; names here: .*ones"):
        wb.success_curve(glitchy, [1, 2], condition="crits >= 1")
    assert_one_line(*cli(capsys, "table", glitchy, "--condition", "crits >= 1"),
                    contains=("'crits'", "names here"))


def test_rst_titles_of_a_ladder_name_the_condition(capsys):
    code, out, err = cli(capsys, "ladder", "shadowrun-5e", "--want", "Any=0.3", "--pool", "2",
                         "--condition", "ones >= 1", "--format", "rst-list", "--across", "1-2")
    assert code == 0
    assert ".. list-table:: Solved ladder, P(ones >= 1)\n" in out
    assert ".. list-table:: Solved ladder across pool sizes, P(ones >= 1)\n" in out
