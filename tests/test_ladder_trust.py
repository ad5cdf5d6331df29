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
