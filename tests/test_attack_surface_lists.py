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
