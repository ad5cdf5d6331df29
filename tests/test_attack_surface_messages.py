"""Attack round on messages: each bad input is one line naming the parameter, the value given
and what is allowed."""
from conftest import run_cli


def test_versus_with_a_setting_where_the_reactor_goes_says_where_settings_go(capsys):
    """``workbench versus uwr dice=3`` read ``dice=3`` as a formula: 'column 2: unexpected
    'ice'; expected a number, @, (, % or F', naming neither the argument nor --actor."""
    code, out, err = run_cli(capsys, "versus", "uwr", "dice=3", exits=True)
    assert code == 2 and not out
    line = err.strip()
    assert len(line.splitlines()) == 1
    assert "'dice=3'" in line and "--actor" in line and "allowed:" in line and "column" not in line


def test_a_setting_given_twice_names_both_values(capsys):
    code, _, err = run_cli(capsys, "pmf", "uwr", "dice=3", "dice=4", exits=True)
    assert code == 2
    assert "'dice' is given twice ('3' and '4'); allowed: once" in err


def test_a_block_option_given_twice_names_both_values(capsys, refused_page):
    page, err = refused_page("```workbench-table uwr pools=1-2 pools=1-3\n```\n")
    assert "option 'pools' is given twice ('1-2' and '1-3'); allowed: once" in err
    page.write_text("```workbench-table uwr pools=1-2\npools=1-3\n```\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "render", str(page), exits=True)
    assert code == 2 and "p.md:2: option 'pools' is given twice ('1-2' and '1-3'); allowed: once" in err


def test_wanted_odds_name_a_formulas_own_rungs(capsys, tmp_path):
    """A formula's rungs are named ``total >= N``: ``--want "total >= 2=0.5"`` was read as the
    rung 'total >' with the probability '= 2=0.5' and refused, so the report could not solve a
    formula's own ladder."""
    code, out, err = run_cli(capsys, "ladder", "(@dice)d6cs>=5", "--want",
                             "total >= 1=0.9,total >= 2=0.5", "--pool", "4", "--format", "json")
    assert code == 0, err
    import json
    rungs = {r["name"]: r for r in json.loads(out)["rungs"]}
    assert set(rungs) == {"total >= 1", "total >= 2"}
    assert rungs["total >= 2"]["wanted"] == 0.5
    page = tmp_path / "r.html"
    code, _, err = run_cli(capsys, "report", "--systems", "(@dice)d6cs>=5", "--want",
                           "total >= 2=0.5", "--pools", "1-4", "--no-progress", "--out", str(page))
    assert code == 0, err
    assert "total &gt;= 2 50%" in page.read_text(encoding="utf-8")


def test_percent_before_the_system_says_the_system_is_no_number_of_decimals(capsys):
    """``workbench table --percent uwr`` took ``uwr`` as --percent's DIGITS, then said "the
    following arguments are required: system, NAME=VALUE" (NAME=VALUE is optional)."""
    for command in (["table", "--percent", "uwr", "--pools", "1-2"],
                    ["ladder", "--percent", "uwr", "--want", "Easy=0.9"]):
        code, out, err = run_cli(capsys, *command, exits=True)
        assert code == 2 and not out
        assert "--percent: got 'uwr'; allowed: a whole number from 0 to 15" in err
        assert "required" not in err
    code, out, _ = run_cli(capsys, "table", "uwr", "--pools", "1", "--percent", "2")
    assert code == 0 and "| 33.33%  |" in out


def test_a_negative_value_after_an_option_says_to_write_it_with_equals(capsys, tmp_path):
    """``--levels -2,-1,0`` (the docs say: with ``=`` when the first is negative) ended with
    argparse's bare "argument --levels: expected one argument"."""
    code, out, err = run_cli(capsys, "figure", "erzahlspiel", "dice=d6", "--kind", "outcomes",
                             "--knob", "advantage", "--levels", "-2,-1,0",
                             "--out", str(tmp_path / "f.html"), exits=True)
    assert code == 2 and not out and not (tmp_path / "f.html").exists()
    assert err.strip() == ("workbench: error: argument --levels: expected one argument; allowed: a "
                           "value after --levels (one starting with '-' is written --levels=VALUE)")


def test_an_unclosed_quote_in_a_block_says_what_is_allowed(refused_page):
    """A block line with an odd quote said only shlex's "q.md:1: No closing quotation"."""
    _, err = refused_page('```workbench-table uwr pools=1 caption="unclosed\n```\n', "q.md")
    assert "q.md:1: the block's options 'uwr pools=1 caption=\"unclosed' cannot be read " in err
    assert "(no closing quotation); allowed: quotes in pairs" in err


def test_a_page_that_is_not_utf8_says_what_is_allowed(capsys, tmp_path):
    page = tmp_path / "latin.md"
    page.write_bytes(b"# Caf\xe9\n```workbench-table uwr pools=1\n```\n")
    code, _, err = run_cli(capsys, "render", str(page), exits=True)
    assert code == 2 and page.read_bytes().startswith(b"# Caf\xe9")
    assert err.strip().endswith("cannot be read: not UTF-8 text; allowed: a Markdown file you may "
                                "read, as UTF-8 text")
