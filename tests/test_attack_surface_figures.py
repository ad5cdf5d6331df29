"""Attack round on figures: a difference subtracts P(pass) pool size by pool size, so it is
refused between systems whose pool sizes count different things."""
import pytest

from conftest import run_cli


@pytest.mark.parametrize("system, base", [("uwr", "call-of-cthulhu-7e"),
                                          ("call-of-cthulhu-7e", "uwr"), ("uwr", "dnd5e")])
def test_a_difference_between_dice_and_a_skill_is_refused(capsys, tmp_path, system, base):
    """``figure uwr --kind difference --base call-of-cthulhu-7e`` drew UWR at 1-10 dice minus
    Call of Cthulhu at skill 1-10 ("Easy vs Regular" at 1: +49 pp), a number that means
    nothing, with the x axis titled "dice in the pool / skill"."""
    out = tmp_path / "f.html"
    code, stdout, err = run_cli(capsys, "figure", system, "--kind", "difference", "--base", base,
                                "--out", str(out), exits=True)
    assert code == 2 and not stdout and not out.exists()
    assert f"--base got '{base}'; allowed: a system whose pool sizes count" in err


def test_a_difference_in_a_markdown_block_is_refused_the_same_way(refused_page):
    _, err = refused_page("```workbench-figure uwr kind=difference base=call-of-cthulhu-7e output=html\n```\n")
    assert "option 'base' got 'call-of-cthulhu-7e'" in err


@pytest.mark.parametrize("system, base", [("fons-exploding", "fons"), ("uwr", "(@dice)d6cs>=5"),
                                          ("uwr", "fons")])
def test_a_difference_between_dice_pools_is_drawn(capsys, tmp_path, system, base):
    out = tmp_path / "f.html"
    code, _, err = run_cli(capsys, "figure", system, "--kind", "difference", "--base", base,
                           "--out", str(out))
    assert code == 0, err
    assert "pp" in out.read_text(encoding="utf-8")


def test_a_curve_refuses_a_setting_every_rung_sets(capsys, tmp_path):
    """``figure uwr target=3`` drew the same curves as ``figure uwr``: each rung sets target."""
    out = tmp_path / "f.html"
    for kind in ("curve", "ladder"):
        code, stdout, err = run_cli(capsys, "figure", "uwr", "target=3", "--kind", kind,
                                    "--out", str(out), exits=True)
        assert code == 2 and not stdout and not out.exists()
        assert "parameter 'target' got '3'; allowed: no target here: every rung" in err
    code, _, err = run_cli(capsys, "figure", "uwr", "target=3", "dice=2", "--kind", "check",
                           "--out", str(out))   # one check: its target is the pass
    assert code == 0 and out.exists(), err
