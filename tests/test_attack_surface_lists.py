"""Attack round on lists of systems: a one-line formula holding a comma (``{1d8x, 1d6x}kh``,
the highest of two exploding dice) is one system in every list a user writes, as in
``workbench share``."""
import json

from conftest import run_cli

POOL = "{1d8x, 1d6x}kh"


def test_figure_compare_takes_a_formula_with_commas(capsys, tmp_path):
    out = tmp_path / "f.html"
    code, _, err = run_cli(capsys, "figure", "(@dice)d6cs>=5", "--compare", POOL, "--out", str(out))
    assert code == 0, err
    html = out.read_text(encoding="utf-8")
    assert POOL in html and "column 6" not in err


def test_a_markdown_block_compares_with_a_formula_with_commas(capsys, tmp_path):
    page = tmp_path / "p.md"
    page.write_text(f"```workbench-figure uwr compare=\"{POOL},fons\" output=html\n```\n",
                    encoding="utf-8")
    code, _, err = run_cli(capsys, "render", str(page))
    assert code == 0, err
    assert "<!-- workbench:begin -->" in page.read_text(encoding="utf-8")


def test_report_systems_take_a_formula_with_commas(capsys, tmp_path):
    out = tmp_path / "r.html"
    code, stdout, err = run_cli(capsys, "report", "--systems", f"{POOL},uwr", "--pools", "1-2",
                                "--no-progress", "--out", str(out))
    assert code == 0, err
    assert f"Balance report: {POOL}, UWR (= HKRPG)" in stdout
    assert json.dumps(POOL)[1:-1] in out.read_text(encoding="utf-8")


def test_report_refuses_a_variant_without_a_base(capsys, tmp_path):
    """``report --variant blades`` (or a formula) wrote "Blades: no pool size to compare along"
    in its what-if section, of a system with a pool: it has no base to compare with."""
    for name in ("blades", "(@dice)d6cs>=5"):
        out = tmp_path / "r.html"
        code, stdout, err = run_cli(capsys, "report", "--systems", "uwr", "--variant", name,
                                    "--no-progress", "--out", str(out), exits=True)
        assert code == 2 and not stdout and not out.exists()
        assert f"{name!r} has no base: list it among the systems" in err


import pytest


@pytest.mark.parametrize("argv", [
    ["table", "erzahlspiel", "--pools", "1-3"],
    ["table", "4d6kh3", "--pools", "1-3"],
    ["ladder", "erzahlspiel", "--want", "red=0.3", "--pools", "1-3"],
    ["ladder", "erzahlspiel", "--want", "red=0.3", "--pool", "3"],
])
def test_pool_options_for_a_system_without_a_pool_are_refused(capsys, argv):
    """``table erzahlspiel --pools 1-3`` printed the same table as without --pools (it has no pool
    size to step through): an option that changes nothing, silently ignored."""
    code, out, err = run_cli(capsys, *argv, exits=True)
    assert code == 2 and not out
    assert "it has no pool size to step through (leave it out)" in err
    code, out, _ = run_cli(capsys, *[w for w in argv if w not in ("--pools", "--pool", "1-3", "3")])
    assert code == 0 and out


def test_a_block_with_pools_for_a_system_without_a_pool_is_refused(capsys, tmp_path, refused_page):
    _, err = refused_page("```workbench-table 4d6kh3 pools=1-3\n```\n")
    assert "option 'pools' got '1-3'; allowed: no pools for 4d6kh3" in err
    figure = tmp_path / "f.html"   # beside systems with a pool, pools still sets theirs
    code, _, err = run_cli(capsys, "figure", "erzahlspiel", "--compare", "uwr", "--pools", "1-3",
                           "--out", str(figure))
    assert code == 0 and figure.exists(), err
