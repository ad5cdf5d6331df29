"""The ladder solver, its tables and the report, attacked: odd numbers for wanted odds,
repeated systems, pools and rungs, knobs the solver itself turns, and work bounds."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from workbench.errors import ParameterError, WorkbenchError
from workbench.ladders import solve_ladder


# ------------------------------------------------------------ 1. any real number as odds


@pytest.mark.parametrize("wanted", [Fraction(7, 10), np.float64(0.7), np.float32(0.7),
                                    Decimal("0.7"), 0.7])
def test_wanted_odds_any_real_number(wanted):
    solution = solve_ladder("uwr", {"Normal": wanted}, pool=4)
    rung = solution.rungs[0]
    assert type(rung.wanted) is float and rung.wanted == pytest.approx(0.7, abs=1e-7)
    assert rung.rung.describe() == "target=2, favor+1"


@pytest.mark.parametrize("wanted", [np.int64(1), Fraction(1), 1])
def test_wanted_odds_whole_numbers_count(wanted):
    assert solve_ladder("uwr", {"Sure": wanted}, pool=4).rungs[0].wanted == 1.0


@pytest.mark.parametrize("wanted", [True, np.bool_(True), Fraction(3, 2), float("nan"), "0.7"])
def test_wanted_odds_not_a_probability(wanted):
    with pytest.raises(WorkbenchError) as info:
        solve_ladder("uwr", {"Normal": wanted}, pool=4)
    assert str(info.value) == (f"wanted probability for 'Normal' got {wanted!r}; "
                               "allowed: a number from 0 to 1")


@pytest.mark.parametrize("tolerance", [Fraction(1, 20), np.float32(0.05), Decimal("0.05")])
def test_tolerance_any_real_number(tolerance):
    solution = solve_ladder("uwr", {"Normal": 0.7}, pool=4, tolerance=tolerance)
    assert solution.tolerance == pytest.approx(0.05, abs=1e-8)


@pytest.mark.parametrize("tolerance", [True, np.bool_(False), Fraction(3, 2), -0.1])
def test_tolerance_not_a_probability(tolerance):
    with pytest.raises(ParameterError) as info:
        solve_ladder("uwr", {"Normal": 0.7}, pool=4, tolerance=tolerance)
    assert str(info.value) == f"tolerance got {tolerance!r}; allowed: a number from 0 to 1"


# ------------------------------------------------- 2. the report: nothing named twice


def test_report_system_twice_is_refused(tmp_path):
    from workbench.report import build_report
    out = tmp_path / "r.html"
    with pytest.raises(ParameterError) as info:
        build_report(out, ["uwr", "uwr"], pool_sizes=[3, 4])
    assert str(info.value) == ("systems got ['uwr', 'uwr']; allowed: each system once "
                               "('uwr' is given twice)")
    assert not out.exists()


def test_report_system_and_its_alias_is_refused(tmp_path):
    from workbench.report import build_report
    with pytest.raises(ParameterError) as info:
        build_report(tmp_path / "r.html", ["uwr", "hkrpg"], pool_sizes=[3, 4])
    assert str(info.value) == ("systems got ['uwr', 'hkrpg']; allowed: each system once "
                               "('uwr' is given twice: as 'uwr' and 'hkrpg')")


def test_report_variant_twice_or_as_a_system_is_refused():
    from workbench.report import report_sections
    with pytest.raises(ParameterError, match="each variant once .'fons-exploding' is given twice"):
        report_sections(["fons"], ["fons-exploding", "fons-exploding"], [3])
    with pytest.raises(ParameterError, match="'fons-exploding' is given as both"):
        report_sections(["fons-exploding"], ["fons-exploding"], [3])


def test_report_pool_twice_is_refused(tmp_path):
    from workbench.report import build_report
    with pytest.raises(ParameterError) as info:
        build_report(tmp_path / "r.html", ["uwr"], pool_sizes=[3, 4, 3])
    assert str(info.value) == ("pool_sizes got [3, 4, 3]; allowed: each pool size once "
                               "(3 is given twice)")


def test_report_wanted_rung_in_no_ladder_fails_first(tmp_path, monkeypatch):
    from workbench import report as report_module
    from workbench.report import sections

    def no_work(*args, **kwargs):   # the curves must not even start
        raise AssertionError("work began before --want was checked")
    monkeypatch.setattr(sections, "_glance", no_work)
    with pytest.raises(WorkbenchError) as info:
        report_module.build_report(tmp_path / "r.html", ["uwr", "arrata"], pool_sizes=[3, 4],
                                   wanted="Easy=0.9,Hardd=0.2")
    assert str(info.value) == (
        "--want rung 'Hardd' is in no ladder of the chosen systems; allowed: rungs of "
        "uwr: Easy, Normal, Difficult, Extreme; arrata: Ob 1, Ob 2, Ob 3, Ob 4, Ob 5, Ob 6")
    with pytest.raises(WorkbenchError, match="wanted probability for 'Easy' got 1.5"):
        report_module.build_report(tmp_path / "r.html", ["uwr"], pool_sizes=[3, 4],
                                   wanted="Easy=1.5")


def test_report_wanted_for_one_of_the_systems_still_solves(tmp_path):
    from workbench.report import report_sections
    sections = report_sections(["uwr", "fons"], pool_sizes=[4], wanted="Easy=0.9,Normal=0.7")
    assert [s.title for s in sections][-1] == "Ladders solved for wanted odds"


def test_cli_report_system_twice(capsys, tmp_path):
    from workbench.cli import main
    code = main(["report", "--out", str(tmp_path / "r.html"), "--systems", "uwr,HKRPG",
                 "--no-progress"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err
    assert err.endswith("each system once ('uwr' is given twice: as 'uwr' and 'HKRPG')")
    assert not (tmp_path / "r.html").exists()


# ----------------------------------------- 3. pool sizes and rungs: each once, or an error


@pytest.mark.parametrize("call", [
    lambda: __import__("workbench").ladders.ladder_table("uwr", [3, 3]),
    lambda: __import__("workbench").ladders.difficulty_table("uwr", [3, 3]),
    lambda: __import__("workbench").analysis.side_by_side(["uwr"], [3, 3]),
    lambda: __import__("workbench").analysis.success_curve("uwr", [3, 3]),
    lambda: __import__("workbench").ladders.ladder_table("uwr", np.array([3, 3])),
], ids=["ladder_table", "difficulty_table", "side_by_side", "success_curve", "numpy"])
def test_pool_size_twice_is_refused(call):
    with pytest.raises(ParameterError) as info:
        call()
    assert str(info.value).endswith("; allowed: each pool size once (3 is given twice)")
    assert str(info.value).startswith("pool_sizes got ")


@pytest.mark.parametrize("rungs, twice", [(["Easy", "Easy"], "'Easy' is given twice"),
                                          (["Easy", "easy"], "'Easy' is given twice: as 'Easy' and 'easy'")])
def test_rung_twice_is_refused(rungs, twice):
    from workbench.analysis import success_curve
    from workbench.ladders import ladder_table
    for call in (ladder_table, success_curve):
        with pytest.raises(ParameterError) as info:
            call("uwr", [3], rungs)
        assert str(info.value) == f"uwr: parameter 'rungs' got {rungs!r}; allowed: each rung once ({twice})"


def test_solver_pools_twice_names_the_pool():
    with pytest.raises(WorkbenchError) as info:
        solve_ladder("uwr", "Easy=0.9", pool=4, pools=[3, 4, 4])
    assert str(info.value).startswith("pools got [3, 4, 4]: pool size 4 is given twice; allowed:")


@pytest.mark.parametrize("argv, option, text", [
    (["table", "uwr", "--pools", "4,04"], "--pools", "4,04"),
    (["ladder", "uwr", "--want", "Easy=0.9", "--pools", "3-5,04"], "--pools", "3-5,04"),
    (["ladder", "uwr", "--want", "Easy=0.9", "--across", "4,04"], "--across", "4,04")])
def test_cli_pool_written_two_ways_is_one_pool(capsys, argv, option, text):
    from workbench.cli import main
    assert main(argv + ["--format", "md"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"workbench: error: {option} got {text!r}: pool size 4 is given twice; allowed: "
                   "sizes from 0 to 100 such as 1-10 or 2,4,6, each once")


def test_cli_pool_04_is_pool_4(capsys):
    from workbench.cli import main
    assert main(["table", "uwr", "--pools", "04", "--format", "csv"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header.endswith(",4 dice") and header.count("dice") == 1


# ---------------------------------- 4. a knob the solver turns is not a character setting


def test_knob_given_as_a_setting_is_refused():
    with pytest.raises(ParameterError) as info:
        solve_ladder("uwr", "Normal=0.7,Hard=0.3", pool=4, target=2)
    assert str(info.value) == (
        "uwr: parameter 'target' got 2; allowed: no value here: the solver chooses target for "
        "each rung (its knobs: target, favor); to keep target=2, let the solver turn only the "
        "other knobs: knobs={'favor': (-2, -1, 0, 1, 2)} (on the command line --turn favor)")


def test_a_knob_rungs_add_to_is_the_characters_starting_value():
    # favor=1 is the character's own favor: each rung adds to it, and the odds are theirs
    import workbench
    solution = solve_ladder("uwr", "Normal=0.7,Hard=0.3", pool=4, favor=1)
    assert solution.params == {"favor": 1}
    for rung in solution.rungs:
        given = {"dice": 4, **rung.rung.set, "favor": 1 + rung.rung.add.get("favor", 0)}
        assert rung.achieved == pytest.approx(workbench.check("uwr", **given).p_pass, abs=1e-12)


def test_knob_kept_out_of_the_search_is_a_setting():
    solution = solve_ladder("uwr", "Normal=0.7,Hard=0.3", pool=4, knobs={"favor": (0, 1)}, target=2)
    assert [r.rung.describe() for r in solution.rungs] == ["favor+1", ""]
    assert solution.rungs[0].achieved == pytest.approx(0.6875)   # target 2, favor +1 at 4 dice
    restricted = solve_ladder("uwr", "Normal=0.7", pool=4, knobs={"target": None}, favor=1)
    assert restricted.rungs[0].rung.describe() == "target=2"
    assert restricted.params == {"favor": 1}


def test_only_knob_given_says_leave_it_out():
    with pytest.raises(ParameterError, match=r"leave target=2 out, or solve with other knobs"):
        solve_ladder("uwr", "Normal=0.7", pool=4, knobs={"target": None}, target=2)


def test_cli_knob_given_as_a_setting(capsys):
    from workbench.cli import main
    assert main(["ladder", "uwr", "target=2", "--want", "Normal=0.7"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "the solver chooses target for each rung" in err
    assert "--turn favor" in err


# ------------------------------------------------------------------- 5. work bounds


def _uwr_candidates(favor, pools=(4,)):
    import workbench
    from workbench.ladders.search import candidates
    sys_ = workbench.system("uwr")
    return candidates(sys_, {"target": None, "favor": tuple(favor)}, {}, pools, 0)


def test_settings_with_the_same_odds_are_one_candidate():
    wide, narrow = _uwr_candidates(range(-50, 51)), _uwr_candidates(range(-10, 11))
    assert len({c.p_pass for c in wide}) == len(wide)            # no odds twice
    assert [c.rung for c in wide] == [c.rung for c in narrow]    # favor past +-10 adds nothing
    assert len(wide) < 200                                      # (it was 101 x targets)


def test_wide_favor_range_is_solved_within_memory(monkeypatch):
    # used to compare 35,000 settings pairwise (a 35,000 x 35,000 x pools array: gigabytes,
    # MemoryError on a small machine, minutes here); now only the ~90 with different odds
    from workbench import ladders
    search = ladders.ordered_choice
    def few(cands, *args, **kwargs):
        assert len(cands) < 200, f"{len(cands)} settings compared"
        return search(cands, *args, **kwargs)
    monkeypatch.setattr(ladders, "ordered_choice", few)
    wanted = "Easy=0.9,Normal=0.7,Difficult=0.45,Extreme=0.2"
    wide = solve_ladder("uwr", wanted, pool=20, knobs={"target": None, "favor": range(-1000, 1001)})
    narrow = solve_ladder("uwr", wanted, pool=20, knobs={"target": None, "favor": range(-6, 7)})
    assert [r.rung.describe() for r in wide.rungs] == [r.rung.describe() for r in narrow.rungs]
    assert [r.rung.describe() for r in wide.rungs] == [
        "target=15, favor+3", "target=6", "target=4, favor-1", "target=9"]


def test_fixed_target_with_a_wide_favor_range():
    solution = solve_ladder("uwr", "Normal=0.7,Hard=0.3", pool=20, target=8,
                            knobs={"favor": range(-1000, 1001)})
    assert solution.ordered and len(solution.rungs) == 2
    assert solution.rungs[0].achieved > solution.rungs[1].achieved


def test_order_search_past_the_limit_is_refused_before_it_starts(monkeypatch):
    from workbench import ladders
    def no_search(*args, **kwargs):
        raise AssertionError("the search began")
    monkeypatch.setattr(ladders, "ordered_choice", no_search)
    monkeypatch.setenv("WORKBENCH_MAX_LADDER_COMPARISONS", "1000")
    with pytest.raises(WorkbenchError) as info:
        solve_ladder("uwr", "Easy=0.9,Normal=0.7", pool=4, pools=[3, 4])
    message = str(info.value)
    assert message.startswith("solve_ladder uwr (")
    assert "settings with different odds, compared pairwise at 2 pools and for 2 rungs)" in message
    assert "more than the limit of 1e3; use fewer knob values (knobs={...}" in message
    assert "WORKBENCH_MAX_LADDER_COMPARISONS" in message


def test_default_limit_allows_the_usual_ladders():
    from workbench.limits import LADDER_COMPARISONS
    assert LADDER_COMPARISONS.default == 10**8
    solution = solve_ladder("uwr", "Easy=0.9,Normal=0.7,Difficult=0.45,Extreme=0.2", pool=4,
                            pools=range(1, 11))
    assert len(solution.rungs) == 4


# ------------------------------------------------------------------ the neighbourhood


@pytest.mark.parametrize("text, message", [
    ("Easy=90%,Easy=0.5", "--want rung 'Easy' is given twice; allowed: each rung once"),
    ("Easy=90%,easy=0.5", "--want rung 'Easy' is given twice (as 'Easy' and 'easy'); allowed: "
                          "each rung once")])
def test_wanted_text_rung_twice(text, message):
    with pytest.raises(WorkbenchError) as info:
        solve_ladder("uwr", text)
    assert str(info.value) == message


@pytest.mark.parametrize("wanted, message", [
    ({"": 0.5}, "wanted names a rung ''; allowed: a rung name as text, such as 'Easy'"),
    ({"  ": 0.5}, "wanted names a rung '  '; allowed: a rung name as text, such as 'Easy'"),
    ({1: 0.5}, "wanted names a rung 1; allowed: a rung name as text, such as 'Easy'"),
    ({"Easy": 0.9, "easy": 0.5}, "wanted names rung 'Easy' twice (as 'Easy' and 'easy'); "
                                 "allowed: each rung once")])
def test_wanted_names_must_be_distinct_text(wanted, message):
    with pytest.raises(WorkbenchError) as info:
        solve_ladder("uwr", wanted)
    assert str(info.value) == message


def test_report_wanted_rungs_differing_in_case_are_refused(tmp_path):
    # the report reads rung names without case: 'easy' quietly replaced 'Easy'
    from workbench.report import build_report
    with pytest.raises(WorkbenchError, match="'Easy' is given twice .as 'Easy' and 'easy'"):
        build_report(tmp_path / "r.html", ["uwr"], pool_sizes=[4], wanted="Easy=0.9,easy=0.5")


@pytest.mark.parametrize("wanted, setting, achieved", [
    (1e-300, "target=5", 0.0), (5e-324, "target=5", 0.0), (1 - 1e-17, "target=1, favor+2", 0.98765)])
def test_extreme_odds_are_solved(wanted, setting, achieved):
    rung = solve_ladder("uwr", {"R": wanted}, pool=4).rungs[0]
    assert rung.rung.describe() == setting and rung.achieved == pytest.approx(achieved, abs=1e-5)
    assert rung.reachable


def test_pool_zero_says_nothing_can_pass():
    rung = solve_ladder("uwr", "Easy=0.9", pool=0).rungs[0]
    assert rung.achieved == 0.0 and not rung.reachable
    assert rung.note.startswith("cannot reach 90.0% at 0 dice (the settings tried give 0.0% to 0.0%)")


def test_pool_left_out_is_the_typical_pool():
    # pool=None read as "no pool size": every rung at 0 dice, 0%
    assert solve_ladder("uwr", "Easy=0.9", pool=None).pool == 4
    # Call of Cthulhu's knob is a skill: the default pool was skill 4 (every rung near 0%)
    coc = solve_ladder("call-of-cthulhu-7e", {"Regular": 0.5})
    assert coc.pool == 50 and coc.rungs[0].achieved == pytest.approx(0.5)


def test_pool_left_out_with_pools_that_exclude_four():
    # was "pool 4 is not among pools [5, 6]" although no pool was given
    solution = solve_ladder("uwr", "Easy=0.6", pools=[5, 6])
    assert solution.pool == 5 and solution.pools == (5, 6)
    assert solve_ladder("uwr", "Easy=0.6", pools=(n for n in [6, 7, 8])).pool == 7


def test_pool_among_the_settings_is_the_typical_pool():
    # was "give the pool as pool=4, not also dice=5" although no pool was given
    assert solve_ladder("uwr", "Easy=0.6", dice=5).pool == 5


def test_pool_given_outside_pools_is_refused():
    with pytest.raises(WorkbenchError) as info:
        solve_ladder("uwr", "Easy=0.9", pool=4, pools=[1, 2])
    assert str(info.value) == ("pool 4 is not among pools [1, 2]; allowed: the typical pool "
                               "must lie in the range the order is kept over")
