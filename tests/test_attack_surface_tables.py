"""Attack round on odds tables: every number says what it is. A setting held fixed is named in
the column headings, and one that every rung sets itself (so it changes nothing) is refused."""
from conftest import run_cli


def test_a_fixed_setting_is_named_in_the_columns(capsys):
    """``table unnamed d8=2`` headed its columns ``1d6``, ``2d6`` while each cell held 2d8 more
    (1d6 alone passes 33.3%, the cell read 66.3%): nothing on the table said so."""
    code, out, err = run_cli(capsys, "table", "unnamed", "d8=2", "--pools", "1-2", "--format", "csv")
    assert code == 0, err
    header, first = out.splitlines()[:2]
    assert header == "Difficulty,Setting,1d6 (d8=2),2d6 (d8=2)"
    import workbench
    assert first.split(",")[2] == f"{100 * workbench.check('unnamed', d6=1, d8=2).p_pass:.1f}%"
    code, out, _ = run_cli(capsys, "table", "uwr", "favor=1", "half=true", "--pools", "1")
    assert "| 1 die (favor=1, half=true)" in out
    code, out, _ = run_cli(capsys, "table", "uwr", "favor=0", "--pools", "1")   # the default
    assert "| 1 die   |" in out
    code, out, _ = run_cli(capsys, "table", "arrata", "quality=S", "--pools", "3")   # said: S3
    assert "| S3    |" in out


def test_a_setting_every_rung_sets_is_refused(capsys, refused_page):
    """``table uwr target=3`` printed the very table of ``table uwr``: each rung sets target."""
    code, out, err = run_cli(capsys, "table", "uwr", "target=3", "--pools", "2", exits=True)
    assert code == 2 and not out
    assert "uwr: parameter 'target' got '3'; allowed: no target here: every rung of the ladder " \
           "sets it" in err
    _, err = refused_page("```workbench-table shadowrun-5e threshold=2\n```\n")
    assert "option 'threshold' got '2'; allowed: no threshold here" in err


def test_a_ladder_solved_at_arratas_stat_heads_its_pools_with_that_quality():
    """``solve_ladder("arrata", ..., stat="A5").pools_table()`` headed its column ``B5`` (the
    default Quality) over odds computed at Quality A (the notebooks' view of a solution)."""
    import workbench
    from workbench.ladders import solve_ladder

    solution = solve_ladder("arrata", "Ob 1=0.9", stat="A5")
    assert solution.quality == "A"
    frame = solution.pools_table()
    assert "A5" in frame.columns and "B5" not in frame.columns
    ob = int(frame.loc[0, "setting"].split("=")[1])
    assert frame.loc[0, "A5"] == workbench.check("arrata", stat="A5", ob=ob).p_pass
    assert solve_ladder("uwr", "Easy=0.9").quality is None
