"""Trust in what the workbench reads, round 4: numbers past 1e9 inside expressions are
refused naming the expression, digits are ASCII digits on every surface (as ``pmf dice=５``
always was), and Ctrl-C during a sweep never writes over a file it did not make.

Numbers are checked against a brute force written here (every ordered roll, one by one),
without ``workbench.engine``."""
from __future__ import annotations

import json
import re

import pytest

import workbench as wb
from workbench.errors import WorkbenchError

from test_trust_route import brute, cli, shadow
from conftest import pool_toml


# -- item: numbers past 1e9 inside count and sum expressions --------------------------------

def big(total: str, count: str, sum: str) -> str:
    """d6s with a count ``big``, a statistic ``s`` summing ``sum``, and ``total``."""
    return pool_toml("big", "Big", top=f'total = "{total}"', die=f'sides = 6\ncounts = {{ big = "{count}" }}',
                     dice=1, more=f'\n[stats.s]\nsum = "{sum}"\n')


@pytest.mark.parametrize("expression", ["X * 10000000000", "X * 100000 * 100000",
                                        "10000000000 if X == 1 else 0", "0 if X == 1 else 10000000000",
                                        "max(X, 10000000000)", "min(X, -10000000000)",
                                        "abs(X - 2000000000)"])
def test_a_count_past_1e9_is_refused_naming_the_entry(tmp_path, expression):
    # "span 9e+18 combinations" or a table of 1e10 totals, instead of the expression named
    path = tmp_path / "big.toml"
    count = expression.replace("X", "face")
    path.write_text(big(total="big", count=count, sum="value"))
    with pytest.raises(WorkbenchError, match=r"entry 'dice.d6.counts.big': '" + re.escape(count)
                                             + r"' computes .*allowed: numbers within 1,000,000,000"):
        wb.check(str(path))


@pytest.mark.parametrize("expression", ["X * 10000000000", "10000000000 if X == 1 else 0",
                                        "0 if X == 1 else 10000000000", "max(X, 10000000000)",
                                        "min(X, -10000000000)", "abs(X - 2000000000)"])
def test_a_sum_past_1e9_is_refused_naming_the_expression(tmp_path, expression):
    path = tmp_path / "big.toml"
    score = expression.replace("X", "value")
    path.write_text(big(total="s", count="face", sum=score))
    with pytest.raises(WorkbenchError, match=r"big: '" + re.escape(score) + r"' computes .*allowed: "
                                             r"numbers within 1,000,000,000"):
        wb.check(str(path))


def test_a_branch_not_taken_may_hold_any_number(tmp_path):
    # bounded where reached: face 7 never comes up on a d6
    path = tmp_path / "big.toml"
    path.write_text(big(total="big + s", count="10000000000 if face == 7 else face * 1000",
                               sum="10000000000 if value == 7 else value"))
    got = wb.check(str(path), dice=2)
    expected = brute([6, 6], lambda roll: sum(face * 1001 for face in roll))
    assert dict(zip(got.pmf.outcomes, got.pmf.probabilities)) == pytest.approx(
        {o: float(p) for o, p in expected.items()}, abs=1e-15)


# -- item: one ASCII-digits rule everywhere ------------------------------------------------

FOREIGN = ["５", "٥", "۵", "५"]   # fullwidth, Arabic-Indic, Persian, Devanagari five: int() reads 5


@pytest.mark.parametrize("five", FOREIGN)
@pytest.mark.parametrize("argv, flag", [
    (["figure", "uwr", "--width", "{5}00", "--out", "{out}.html"], "--width"),
    (["figure", "uwr", "--height", "{5}00", "--out", "{out}.html"], "--height"),
    (["figure", "uwr", "--scale", "{5}", "--out", "{out}.png"], "--scale"),
    (["figure", "uwr", "--pools", "{5}-6", "--out", "{out}.html"], "--pools"),
    (["figure", "uwr", "--pools", "1,{5}", "--out", "{out}.html"], "--pools"),
    (["figure", "uwr", "--kind", "ladder", "--want", "Easy=0.{5}", "--out", "{out}.html"], "--want"),
    (["table", "uwr", "--pools", "{5}-6"], "--pools"),
    (["pmf", "uwr", "dice={5}"], "dice"),
    (["sweep", "check", "system=uwr", "--grid", "dice={5}-6"], "dice"),
    (["sweep", "check", "system=uwr", "--grid", "dice={5},6"], "dice"),
    (["sweep", "check", "system=uwr", "dice={5}", "--grid", "target=1,2"], "dice"),
    (["ladder", "uwr", "--want", "Easy=0.{5}"], "--want"),
])
def test_digits_other_than_ascii_are_refused_on_every_surface(one_line_error, tmp_path, five, argv, flag):
    # `pmf dice=５` was refused while `figure --width ５００`, `--scale ２` and `--pools ３-4` drew
    out = str(tmp_path / "figure")
    argv = [word.replace("{5}", five).replace("{out}", out) for word in argv]
    err = one_line_error(*argv, contains=(flag, five), usage=True)
    assert not list(tmp_path.iterdir()), "nothing is written for a refused command"
    assert "allowed" in err


@pytest.mark.parametrize("five", FOREIGN)
@pytest.mark.parametrize("option", ["width", "height", "scale", "pools", "pool", "digits"])
def test_render_block_options_take_ascii_digits_only(five, option):
    from workbench.render import BlockOptionError, parse_block
    kind = "table" if option == "digits" else "figure"
    value = {"width": "{5}00", "height": "{5}00", "scale": "{5}", "pools": "1-{5}", "pool": "{5}",
             "digits": "{5}"}[option]
    extra = {"kind": "ladder", "want": "Easy=0.5"} if option == "pool" else {}
    with pytest.raises(BlockOptionError, match=rf"option '{option}' got"):
        parse_block(kind, "uwr", {option: value.replace("{5}", five), **extra})
    block = parse_block(kind, "uwr", {option: value.replace("{5}", "5"), **extra})   # ASCII: read
    read = {"width": 500, "height": 500, "scale": 5.0, "pools": (1, 2, 3, 4, 5), "pool": 5,
            "digits": 5}[option]
    got = block.numbers.digits if option == "digits" else getattr(block, option)
    assert got == read


@pytest.mark.parametrize("five", FOREIGN)
def test_expressions_take_ascii_digits_only(five, tmp_path):
    result = wb.check("uwr", dice=2)
    with pytest.raises(WorkbenchError, match=rf"unexpected '{five}' at character 10 \(numbers are "
                                             r"written with the digits 0-9\)"):
        result.probability(f"total >= {five}")
    hits = brute([6, 6], lambda roll: sum(face >= 5 for face in roll))
    assert result.probability("total >= 2") == pytest.approx(float(hits[2]), abs=1e-15)
    path = tmp_path / "f.toml"
    path.write_text(shadow("need").replace('"face >= 5"', f'"face >= {five}"'))
    with pytest.raises(WorkbenchError, match=r"entry 'dice.d6.counts.hits'.*0-9"):
        wb.check(str(path))


def test_the_sweep_reads_ascii_numbers_as_before(capsys):
    import io
    import pandas as pd
    code, out, err = cli(capsys, "sweep", "check", "system=uwr", "target=1", "--grid", "dice=1_0,2")
    frame = pd.read_csv(io.StringIO(out))
    assert code == 0 and frame["dice"].tolist() == [10, 2]
    none = brute([6, 6], lambda roll: sum(face >= 5 for face in roll) == 0)[True]
    assert frame["p_pass"].tolist()[1] == pytest.approx(1 - float(none), abs=1e-14)
    assert frame["p_pass"].tolist()[0] == pytest.approx(1 - (2 / 3) ** 10, abs=1e-14)


# -- item: Ctrl-C during a sweep never writes over a file it did not make -------------------

def _finished_points():
    frame = wb.sweep("check", {"dice": [1, 2, 3]}, system="uwr", target=1)
    return frame.iloc[:2]


def test_interrupted_points_pass_over_every_name_already_taken(tmp_path, capsys, monkeypatch):
    from workbench.cli._sweep import _interrupted
    monkeypatch.chdir(tmp_path)
    mine = b"dice,p\n9,0.5\n"
    (tmp_path / "grid.csv").write_bytes(b"old grid")
    (tmp_path / "grid.partial.csv").write_bytes(mine)              # the user's own file
    (tmp_path / "grid.partial-2.csv").mkdir()                       # a folder
    (tmp_path / "grid.partial-3.csv").symlink_to(tmp_path / "grid.partial.csv")   # a link to it
    (tmp_path / "grid.partial-4.csv").symlink_to(tmp_path / "nowhere.csv")        # a broken link
    code = _interrupted(_finished_points(), {"dice": [1, 2, 3]}, "grid.csv")
    err = capsys.readouterr().err
    assert code == 130
    assert err == ("workbench: interrupted (2 of 3 points finished, written to grid.partial-5.csv "
                   "(grid.partial.csv to grid.partial-4.csv were there already, left as they were); "
                   "grid.csv unchanged)\n")
    assert (tmp_path / "grid.partial.csv").read_bytes() == mine
    assert (tmp_path / "grid.csv").read_bytes() == b"old grid"
    assert not (tmp_path / "nowhere.csv").exists()
    written = (tmp_path / "grid.partial-5.csv").read_text().splitlines()
    ones = {n: 1 - float(brute([6] * n, lambda roll: sum(f >= 5 for f in roll) == 0)[True]) for n in (1, 2)}
    assert written[0].startswith("dice,p_pass")
    assert [int(line.split(",")[0]) for line in written[1:]] == [1, 2]
    assert [float(line.split(",")[1]) for line in written[1:]] == pytest.approx([ones[1], ones[2]],
                                                                               abs=1e-14)


def test_interrupted_points_go_to_the_usual_name_when_it_is_free(tmp_path, capsys, monkeypatch):
    from workbench.cli._sweep import _interrupted
    monkeypatch.chdir(tmp_path)
    code = _interrupted(_finished_points(), {"dice": [1, 2, 3]}, "grid.json")
    assert code == 130 and capsys.readouterr().err == (
        "workbench: interrupted (2 of 3 points finished, written to grid.partial.json; grid.json "
        "unchanged)\n")
    assert [row["dice"] for row in json.loads((tmp_path / "grid.partial.json").read_text())] == [1, 2]


def test_points_that_cannot_be_kept_are_not_blamed_on_out(tmp_path, capsys, monkeypatch):
    # its folder removed while the sweep ran: "--out 'runs/grid.partial.csv': ..." blamed an
    # option that was fine when given, and the command ended as an error, not as interrupted
    from workbench.cli._sweep import _interrupted
    monkeypatch.chdir(tmp_path)
    code = _interrupted(_finished_points(), {"dice": [1, 2, 3]}, "runs/grid.csv")
    err = capsys.readouterr().err
    assert code == 130
    assert err == ("workbench: interrupted (2 of 3 points finished; they could not be kept in "
                   "runs/grid.partial.csv: folder 'runs' does not exist; runs/grid.csv unchanged)\n")
    assert list(tmp_path.iterdir()) == []
