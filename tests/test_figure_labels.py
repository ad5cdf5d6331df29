"""What figures write on their bars says what it is: a probability that is neither 0 nor 1 is
never labelled 0% or 100% (tables already marked it; bar labels rounded with ``.0%``), and a
difference never subtracts a skill from a number of dice (the command line refused it; Python
drew it)."""
from __future__ import annotations

import pytest

import workbench
from workbench.errors import WorkbenchError
from workbench.figures import check_figure, difference_figure, ladder_figure

from conftest import run_cli


def _labels(fig) -> list[str]:
    return [text for trace in fig.data for text in (trace.text or ()) if text]


def test_a_bar_of_996_in_1000_reads_above_99_percent_not_100():
    result = workbench.check("1d1000cs<=996")
    assert result.pmf[1] == pytest.approx(0.996)
    labels = _labels(check_figure("1d1000cs<=996"))
    assert "> 99%" in labels and "100%" not in labels
    assert "P(pass) > 99.9%" not in str(check_figure("1d1000cs<=996").layout.title.text)


def test_a_certain_bar_still_reads_100_percent():
    labels = _labels(check_figure("1d1000cs<=1000"))
    assert labels == ["100%"]


def test_a_single_dies_ladder_bars_mark_near_certain_odds():
    fig = ladder_figure("1d1000cs<=996")
    assert _labels(fig) == ["> 99%"]
    assert [round(v, 3) for v in fig.data[0].y] == [0.996]


def test_difference_of_dice_against_a_skill_is_refused_in_python():
    with pytest.raises(WorkbenchError, match="uwr's pool sizes count dice, call-of-cthulhu-7e's "
                                             "count skill"):
        difference_figure("uwr", "call-of-cthulhu-7e", [1, 2])
    fig = difference_figure("fons-exploding", "fons", [1, 2])   # the same kind: drawn
    assert [round(v, 2) for v in fig.data[2].y] == [5.56, 7.41]


def test_pmf_of_one_statistic_says_whose_mean_it_shows(capsys):
    """``--stat beaten``: the summary's mean is the statistic's (0.9), beside the check's
    P(pass); named so, not a bare ``mean`` read as the total's (5.5)."""
    code, out, _ = run_cli(capsys, "pmf", "ironsworn", "--stat", "beaten")
    result = workbench.check("ironsworn")
    beaten = result.stats["beaten"].mean
    assert code == 0
    assert f"| mean of beaten | {beaten:.1f}" in out and "| mean     " not in out
    assert round(beaten, 1) != round(result.mean, 1)


def test_a_figures_legend_names_the_settings_its_block_gives():
    """``figure unnamed d8=2``: every curve has two d8s added; the legend says so (it read
    ``unnamed · Success`` like the plain system's). The pool size is the x axis, not named."""
    from workbench.render import build_figure, parse_block

    fig = build_figure(parse_block("figure", "unnamed", {"d8": "2", "pools": "1-3"}))
    names = [trace.name for trace in fig.data if trace.name]
    assert names and all(name.startswith("unnamed d8=2 ·") for name in names)
    plain = build_figure(parse_block("figure", "uwr", {"pools": "1-3"}))
    assert all(name.startswith("uwr ·") for name in (t.name for t in plain.data) if name)


def test_one_entry_given_as_a_mapping_is_one_entry():
    """``curve_figure({"system": ..., "params": ...})`` read the mapping's keys as systems
    ("unknown system 'system'")."""
    from workbench.figures import curve_figure

    fig = curve_figure({"system": "unnamed", "params": {"d8": 2}}, pools=[1, 2])
    names = [trace.name for trace in fig.data if trace.name]
    assert names and all(name.startswith("unnamed d8=2 ·") for name in names)
