"""The check commands (``pmf``, ``versus``) attacked as a designer would: the bytes they
leave on disk, and options that look alike or clash. Every accepted answer is compared with
:func:`workbench.check` for the same settings."""
from __future__ import annotations

import json

import pytest

import workbench
from workbench.numbers import json_ready

from conftest import run_cli


def cli(capsys, *argv):
    return run_cli(capsys, *argv, exits=True)


@pytest.fixture
def mine(tmp_path):
    """A designer's system file in a folder with a space in its name."""
    from _rulebook import MINE
    folder = tmp_path / "my systems"
    folder.mkdir()
    system = folder / "my uwr.toml"
    system.write_text(MINE.format(target=2))
    return system


def test_pmf_and_versus_never_write_over_the_data_file_they_read(mine, capsys, one_line_error):
    """``pmf mine.toml --out mine.toml`` replaced the designer's system with its odds table
    (``table`` and ``ladder`` refused; ``pmf`` and ``versus`` did not)."""
    before = mine.read_bytes()
    link = mine.with_name("link.toml")
    link.symlink_to(mine)
    for out in (mine, link):
        for argv in (["pmf", str(mine), "dice=3", "--out", str(out)],
                     ["pmf", str(mine), "dice=3", "--simulate", "--trials", "100", "--seed", "1",
                      "--out", str(out)],
                     ["versus", str(mine), "--actor", "dice=3", "--reactor", "dice=2",
                      "--out", str(out)]):
            one_line_error(*argv, contains=("--out", "is the data file of system 'mine'", "allowed"),
                           usage=True)
    assert mine.read_bytes() == before
    # Beside it, the same command writes, and its numbers are workbench.check's.
    table = mine.with_name("odds.json")
    code, out, err = cli(capsys, "pmf", str(mine), "dice=3", "--out", str(table))
    assert code == 0 and out == "" and err == f"wrote {table}\n"
    assert json.loads(table.read_text()) == json_ready(workbench.check(str(mine), dice=3).to_dict())


def test_out_is_checked_before_a_simulation_runs(tmp_path, one_line_error, monkeypatch):
    """A long simulation ran to its end and only then said ``--out``'s folder is missing."""
    import workbench.cli._checks as checks

    def no_work(*args, **kwargs):
        raise AssertionError("the check ran before --out was checked")

    for name in ("check", "simulate", "versus"):
        monkeypatch.setattr(checks, name, no_work)
    missing = str(tmp_path / "missing" / "odds.md")
    for argv in (["pmf", "uwr", "dice=4", "--simulate", "--trials", "1e9", "--out", missing],
                 ["pmf", "uwr", "dice=4", "--out", missing],
                 ["versus", "uwr", "--actor", "dice=4", "--reactor", "dice=3", "--out", missing]):
        one_line_error(*argv, contains=("--out", "does not exist"), usage=True)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, out, allowed", [
    (["pmf", "uwr", "dice=3"], "odds.html", "--format json, md, rst or csv"),
    (["pmf", "fate"], "odds.txt", "ending .md, .markdown, .rst, .csv or .json"),
    (["versus", "uwr", "--actor", "dice=3", "--reactor", "dice=2"], "odds.HTM", "--format json"),
    (["table", "uwr"], "odds.json", "--format rst-grid, rst-list, rst-csv, md, csv, html or text"),
])
def test_an_out_suffix_the_command_cannot_write_is_refused(tmp_path, capsys, one_line_error, argv, out,
                                                           allowed):
    """``pmf --out odds.html`` and ``table --out odds.json`` wrote a Markdown table under that
    name (a browser showed raw pipes, a JSON reader choked)."""
    target = tmp_path / out
    one_line_error(*argv, "--out", str(target), contains=(
        f"--out '{target}'", f"its suffix .{out.rsplit('.')[-1].lower()} names", allowed), usage=True)
    assert list(tmp_path.iterdir()) == []
    # --format says what to write, whatever the name; an unknown suffix is Markdown.
    for name, fmt in ((out, "md"), ("odds.v2", None)):
        code, _, err = cli(capsys, *argv, "--out", str(tmp_path / name), *(["--format", fmt] if fmt else []))
        assert code == 0, err
        assert (tmp_path / name).read_text(encoding="utf-8").startswith(("**", "| "))


@pytest.mark.parametrize("argv, option, first, second", [
    (["pmf", "uwr", "dice=4", "--simulate", "--trials", "1000", "--seed", "1", "--seed", "2"],
     "--seed", "1", "2"),
    (["pmf", "uwr", "dice=4", "--format", "md", "--format=json"], "--format", "md", "json"),
    (["versus", "uwr", "--actor", "dice=4", "--reactor", "dice=3", "--actor", "dice=5"],
     "--actor", "dice=4", "dice=5"),
    (["table", "uwr", "--pools", "1-3", "--pools", "4"], "--pools", "1-3", "4"),
])
def test_an_option_given_twice_is_refused_as_a_parameter_given_twice_is(one_line_error, argv, option, first,
                                                                        second):
    """``--seed 1 --seed 2`` ran with seed 2 and said nothing (``dice=4 dice=5`` is refused)."""
    one_line_error(*argv, contains=(f"argument {option}: given twice ({first!r} and {second!r})",
                                    "allowed: once"), usage=True)


def test_an_option_given_once_after_its_parameters_still_counts(capsys):
    code, out, err = cli(capsys, "pmf", "uwr", "--seed", "5", "dice=4", "--simulate", "--trials",
                         "500", "--format", "json")
    assert code == 0, err
    assert json.loads(out) == json_ready(workbench.simulate("uwr", dice=4, trials=500, seed=5).to_dict())


@pytest.mark.parametrize("argv", [["pmf", "uwr", "dice=3"], ["table", "uwr", "--pools", "1-2"],
                                  ["versus", "uwr", "--actor", "dice=3", "--reactor", "dice=2"]])
def test_out_dash_is_not_a_file_named_dash(tmp_path, capsys, one_line_error, monkeypatch, argv):
    """``--out -`` (stdout, to many programs) printed nothing and left a file named '-'."""
    monkeypatch.chdir(tmp_path)
    one_line_error(*argv, "--out", "-", contains=("--out '-': names no file", "'./-' for a file named '-'"),
                   usage=True)
    assert list(tmp_path.iterdir()) == []
    code, out, err = cli(capsys, *argv, "--out", "./-")
    assert code == 0 and out == "" and err == "wrote ./-\n"
    assert (tmp_path / "-").read_text(encoding="utf-8").startswith(("**", "|"))


@pytest.mark.parametrize("words, mentions", [
    (["seed=3", "--simulate"], ["NAME=VALUE seed=3 is an option of pmf", "allowed: --seed 3"]),
    (["trials=100", "--simulate"], ["NAME=VALUE trials=100", "allowed: --trials 100 (with --simulate)"]),
    (["trials=100"], ["NAME=VALUE trials=100", "allowed: --trials 100"]),
    (["system=fate"], ["uwr: parameter 'system' got 'fate'", "allowed: a parameter of this system: dice"]),
    (["system=fate", "--simulate"], ["uwr: parameter 'system' got 'fate'"]),
    (["progress=true", "--simulate"], ["uwr: parameter 'progress' got 'true'", "dice, favor"]),
])
def test_pmf_words_that_are_keywords_of_check_are_one_line(one_line_error, words, mentions):
    """``pmf uwr seed=3 --simulate`` and ``pmf uwr system=fate`` ended in a Python traceback
    (TypeError: got multiple values for keyword argument); ``progress=true`` said 'allowed:
    True or False' of a word that is no parameter of uwr."""
    one_line_error("pmf", "uwr", "dice=2", *words, contains=mentions, usage=True)


@pytest.mark.parametrize("argv, mentions", [
    (["table", "uwr", "system=fate"], ["uwr: parameter 'system' got 'fate'"]),
    (["table", "uwr", "condition=hits>1"], ["NAME=VALUE condition=hits>1 is an option of table",
                                          "allowed: --condition 'hits>1'"]),
    (["ladder", "uwr", "--want", "Easy=0.9", "pool=3"], ["NAME=VALUE pool=3 is an option of ladder",
                                                         "allowed: --pool 3"]),
    (["ladder", "uwr", "--want", "Easy=0.9", "system=fate"], ["uwr: parameter 'system' got 'fate'"]),
])
def test_table_and_ladder_words_that_are_keywords_are_one_line(one_line_error, argv, mentions):
    """``table uwr condition=...`` and ``ladder uwr ... pool=3`` ended in a Python traceback
    (TypeError: difficulty_table() got multiple values for keyword argument 'condition')."""
    one_line_error(*argv, contains=mentions, usage=True)


def test_shorthands_and_parameters_still_pass(capsys):
    code, out, err = cli(capsys, "pmf", "arrata", "stat=B5", "ob=2", "--format", "json")
    assert code == 0, err
    assert json.loads(out) == json_ready(workbench.check("arrata", stat="B5", ob=2).to_dict())


def test_out_dev_stdout_on_a_pipe_is_named_a_pipe(tmp_path):
    """``pmf uwr --out /dev/stdout | less`` said "cannot write in folder '/dev' (No such file
    or directory)": the link leads to a pipe that has no path, and the folder was blamed."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    env = {**os.environ, "PYTHONPATH": str(Path(workbench.__file__).parents[1])}
    done = subprocess.run([sys.executable, "-m", "workbench", "pmf", "uwr", "--out", "/dev/stdout"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("workbench: error: --out '/dev/stdout': is a link to a device, pipe or "
                           "socket, not a file; allowed: a regular file (new or existing)\n")


def test_wrote_is_one_line_whatever_the_file_name(tmp_path, capsys):
    """A file name with a line break (pasted) split the 'wrote ...' line in two."""
    target = tmp_path / "odds\nv2.md"
    code, out, err = cli(capsys, "pmf", "uwr", "dice=2", "--out", str(target))
    assert code == 0 and out == ""
    assert err == f"wrote {tmp_path}/odds\\nv2.md\n"
    assert target.read_text(encoding="utf-8").startswith("**Outcomes**")
