"""``workbench table`` for every system: a system without a ladder gets P(pass) (or each
tier's share, when it has tiers and no pass) by pool size, on the command line, in a
``workbench-table`` block and in the Sphinx directive, each number equal to ``check``'s;
a setting the columns step through (``dice=5`` beside ``--pools``) is refused, naming both."""
from __future__ import annotations

import csv
import io
import textwrap

import pytest

from _deps import need

import workbench as wb
from workbench.analysis import default_pool_sizes, pool_label
from workbench.cli import main
from workbench.render import BlockOptionError, parse_block, table_cells
from workbench.rules.registry import all_systems

from conftest import pool_toml


WITHOUT_LADDER = sorted(s.id for s in all_systems().values() if not s.ladder)

TIERS_NO_PASS = pool_toml("tiers-only", "Tiers and no pass", die="sides = 6\nexplode = []", dice=1, least=1,
                          most=4, more="""
[[tiers]]
name = "Low"
max = 6

[[tiers]]
name = "High"
min = 7
""")


def cli_csv(capsys, *argv) -> list[list[str]]:
    code = main(["table", *argv, "--format", "csv", "--digits", "15"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return list(csv.reader(io.StringIO(captured.out)))


def test_there_are_systems_without_a_ladder():
    assert {"blades", "cofd", "pbta", "risk"} <= set(WITHOUT_LADDER)


@pytest.mark.parametrize("system", WITHOUT_LADDER)
def test_a_system_without_a_ladder_gives_p_pass_by_pool(capsys, system):
    sys_ = wb.system(system)
    pools = default_pool_sizes(sys_)
    header, *rows = cli_csv(capsys, system)
    assert header == ["Chance", *(pool_label(sys_, n) for n in pools)]
    assert len(rows) == 1 and rows[0][0] == "P(pass)"
    want = [wb.check(system, **{sys_.pool_parameter: n}).p_pass for n in pools]
    assert [float(cell) for cell in rows[0][1:]] == pytest.approx(want, abs=1e-14)


def test_blades_by_hand():
    # Blades: the best of the dice passes on 4-6: P(pass) = 1 - (1/2)^n
    table = wb.ladders.difficulty_table("blades", [1, 2, 3])
    assert list(table.columns) == ["Chance", "1 die", "2 dice", "3 dice"]
    assert table.iloc[0, 1:].tolist() == pytest.approx([1 / 2, 3 / 4, 7 / 8])


def test_blades_in_rst_as_a_designer_pastes_it(capsys):
    assert main(["table", "blades", "--pools", "1-3", "--format", "rst"]) == 0
    assert capsys.readouterr().out == textwrap.dedent("""\
        +----------+---------+----------+----------+
        | Chance   | 1 die   | 2 dice   | 3 dice   |
        +==========+=========+==========+==========+
        | P(pass)  | 50.0%   | 75.0%    | 87.5%    |
        +----------+---------+----------+----------+
        """)


def test_a_condition_names_itself_and_gives_its_chance(capsys):
    header, row = cli_csv(capsys, "cofd", "--pools", "2,6", "--condition", "total >= 2")
    assert header == ["Chance", "2 dice", "6 dice"] and row[0] == "P(total >= 2)"
    want = [wb.check("cofd", dice=n).probability("total >= 2") for n in (2, 6)]
    assert [float(cell) for cell in row[1:]] == pytest.approx(want, abs=1e-14)


def test_tiers_and_no_pass_give_each_tiers_share(capsys, pool_file):
    path = pool_file(TIERS_NO_PASS, file="tiers-only.toml")
    assert wb.check(str(path), dice=2).p_pass is None
    header, *rows = cli_csv(capsys, str(path), "--pools", "1-3")
    assert header == ["Tier", "1 die", "2 dice", "3 dice"] and [r[0] for r in rows] == ["Low", "High"]
    for column, n in enumerate((1, 2, 3), start=1):
        tiers = dict(wb.check(str(path), dice=n).tiers.items())
        assert [float(r[column]) for r in rows] == pytest.approx([tiers["Low"], tiers["High"]], abs=1e-14)
    # by hand: two dice total 7 or more in 21 of 36 rolls; one die never
    assert float(rows[1][1]) == 0 and float(rows[1][2]) == pytest.approx(21 / 36)


def test_no_ladder_no_pass_no_tiers_says_what_works(capsys, one_line_error, pool_file):
    path = pool_file(TIERS_NO_PASS.split("[[tiers]]")[0].replace("tiers-only", "bare"), file="bare.toml")
    err = one_line_error("table", str(path), contains=("no ladder, no pass and no tiers",))
    assert "--condition" in err and "workbench pmf bare" in err and "ladder_table" not in err
    header, row = cli_csv(capsys, str(path), "--pools", "2", "--condition", "total >= 7")
    assert float(row[1]) == pytest.approx(21 / 36)


@pytest.mark.parametrize("system", ["blades", "pbta", "risk"])
def test_a_block_and_the_command_show_the_same_cells(capsys, system):
    block = parse_block("table", system, {"format": "fraction"})
    header, rows = table_cells(block)
    assert main(["table", system, "--fraction", "--format", "csv"]) == 0
    printed = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert [header, *rows] == printed


def test_a_markdown_block_of_blades_is_filled(tmp_path):
    page = tmp_path / "rules.md"
    page.write_text("```workbench-table blades pools=1-2 format=fraction\n```\n", encoding="utf-8")
    assert main(["render", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "| Chance   | 1 die   | 2 dice   |" in text and "| P(pass)  | 1/2     | 3/4      |" in text


def test_the_directive_shows_blades_odds(tmp_path):
    need("sphinx")
    from sphinx.cmd.build import build_main
    project = tmp_path / "book"
    project.mkdir()
    (project / "conf.py").write_text('extensions = ["workbench.sphinx"]\nproject = "Odds"\n'
                                     'exclude_patterns = ["_build"]\n', encoding="utf-8")
    (project / "index.rst").write_text("Odds\n====\n\n.. workbench-table:: blades\n   :pools: 1-3\n",
                                       encoding="utf-8")
    assert build_main(["-W", "-q", "-b", "text", str(project), str(project / "_build")]) == 0
    text = (project / "_build" / "index.txt").read_text(encoding="utf-8")
    assert "P(pass)" in text and "50.0%" in text and "75.0%" in text and "87.5%" in text


# --------------------------------------------------------- a setting the columns override


@pytest.mark.parametrize("argv, said", [
    (["uwr", "dice=5", "--pools", "1-4"], "dice=5 sets dice, which the table's columns step through "
                                          "(--pools 1-4); allowed: --pools 5 for that pool alone, "
                                          "without dice=5"),
    (["uwr", "dice=5"], "(the default --pools)"),
    (["blades", "dice=3"], "dice=3 sets dice"),
    (["arrata", "stat=B5", "--pools", "3-5"], "without stat=B5 (with quality=B instead)"),
])
def test_the_table_refuses_a_setting_its_columns_override(one_line_error, argv, said):
    one_line_error("table", *argv, contains=(said,))


def test_a_setting_the_columns_do_not_step_through_is_kept(capsys):
    header, *rows = cli_csv(capsys, "uwr", "favor=1", "--pools", "2")
    easy = wb.system("uwr").with_rung("Easy", dice=2, favor=1)
    assert rows[0][0] == "Easy" and float(rows[0][-1]) == pytest.approx(wb.check("uwr", **easy).p_pass)


@pytest.mark.parametrize("kind, options, option", [
    ("table", {"dice": "5", "pools": "1-4"}, "dice"),
    ("table", {"stat": "B5"}, "stat"),
    ("ladder", {"dice": "5", "pools": "1-4"}, "dice"),
    ("figure", {"dice": "5", "pools": "1-4"}, "dice"),
    ("figure", {"dice": "5", "kind": "difference", "base": "fons"}, "dice"),
])
def test_blocks_refuse_a_setting_the_pools_override(kind, options, option):
    system = "arrata" if "stat" in options else "uwr"
    with pytest.raises(BlockOptionError) as caught:
        parse_block(kind, system, options)
    assert caught.value.option == option and "pools" in caught.value.allowed
    assert "shows that pool alone" in caught.value.allowed


def test_the_figure_command_names_its_own_option(tmp_path, capsys):
    assert main(["figure", "uwr", "dice=5", "--pools", "1-4", "--out", str(tmp_path / "c.html")]) == 2
    err = capsys.readouterr().err
    assert err == ("workbench: error: parameter 'dice' got '5'; allowed: no dice here: the pool "
                   "axis steps through dice (--pools 1-4); --pools 5 shows that pool alone\n")
    assert not (tmp_path / "c.html").exists()


def test_blocks_keep_a_pool_setting_where_it_is_read():
    assert dict(parse_block("figure", "uwr", {"dice": "5", "kind": "check"}).params)["dice"] == "5"
    assert parse_block("ladder", "uwr", {"dice": "5", "want": "Easy=0.9"}).pool == 5
