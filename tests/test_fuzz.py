"""Property-based fuzzing (hypothesis) of the command line and the Python API.

The command line gets random words drawn from subcommands, system names, parameter names,
values (unicode digits, huge numbers, signs, floats, words) and option flags; whatever it
is given it must exit 0 or 2, never print a traceback, and say a status 2 in one line. The
API gets random keyword arguments and must return a result or raise ``WorkbenchError``.
Work budgets are lowered for the run, so no random input can start a long simulation.
"""
from __future__ import annotations

import contextlib
import io
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench import WorkbenchError
from workbench.cli import main

SYSTEMS = ["uwr", "hkrpg", "fons", "unnamed", "arrata", "erzahlspiel", "fons-exploding",
           "d10-pool", "arrata-cancelling", "erzahlspiel-six-dice", "nope", "", "UWR"]
PARAMETERS = sorted({name for s in wb.systems() for name in s.params} | {"stat", "x", "", " dice"})
TEXT_VALUES = ["0", "1", "3", "-1", "+2", "--4", "²", "٣", "1.5", "4.0", "1e3", "1_000", "9" * 40,
               "9" * 5000, "true", "no", "maybe", "none", "", " ", "B5", "A", "s10", "green",
               "purple", "d6", "net", "obstacle", "spectrum", "defender_sets_target", "nan",
               "-0", "0x10", "１"]
OPTIONS = ["--format", "--simulate", "--trials", "--seed", "--pools", "--pool", "--want",
           "--tolerance", "--percent", "--digits", "--fraction", "--actor", "--reactor", "--show",
           "--turn", "--help", "--version", "-x", "--"]
OPTION_VALUES = ["json", "md", "rst", "csv", "rst-grid", "rst-list", "html", "xml", "1-3", "0-100",
                 "2,4", "3-1", "1,1", "Easy=0.9", "Easy=0.9,Normal=70%", "Hard=2", "x",
                 "dice=3 favor=1", "stat=B4", "'", "target", "favor,target", "solution", "pools",
                 "both", "0.05", "nan", "1e4", "10", "0", "-1", "18446744073709551616"]
SUBCOMMANDS = ["systems", "pmf", "versus", "table", "ladder"]
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "1500"))
"""Examples per property (about half a minute each); FUZZ_EXAMPLES=20000 for a long hunt."""


def _words():
    value = st.sampled_from(TEXT_VALUES) | st.text(max_size=6)
    assignment = st.builds(lambda n, v: f"{n}={v}", st.sampled_from(PARAMETERS), value)
    return st.lists(assignment | st.sampled_from(OPTIONS) | st.sampled_from(OPTION_VALUES)
                    | st.sampled_from(SYSTEMS) | value, max_size=8)


@pytest.fixture(autouse=True)
def small_budgets(monkeypatch):
    monkeypatch.setenv("WORKBENCH_MAX_ROLLED_DICE", "2e6")
    monkeypatch.setenv("WORKBENCH_MAX_SIMULATED_CHECKS", "2e6")


def run_cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exited:  # argparse: --help, --version and usage errors
            code = exited.code
    return code, out.getvalue(), err.getvalue()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(SUBCOMMANDS), st.sampled_from(SYSTEMS), _words())
def test_cli_exits_0_or_2_with_one_line(subcommand, system, words):
    argv = [subcommand] + ([system] if subcommand != "systems" else []) + words
    if subcommand == "ladder" and "--want" not in words:
        argv += ["--want", "Easy=0.8"]
    if subcommand == "versus":
        argv += ["--actor", "dice=2", "--reactor", "dice=1"]
    code, out, err = run_cli(argv)
    assert code in (0, 2), (argv, code, err)
    assert "Traceback" not in err, (argv, err)
    if code == 2:   # one line; a formula's syntax error adds a caret under its column
        lines = err.split("\n")
        assert err.startswith("workbench: error: ") and err.endswith("\n"), (argv, err)
        assert len(lines) == 2 or (len(lines) == 3 and set(lines[1]) == {" ", "^"}
                                   and lines[1].count("^") == 1), (argv, err)


VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 12), st.integers(), st.floats(),
    st.sampled_from(TEXT_VALUES), st.text(max_size=5),
    st.lists(st.integers(-2, 8), max_size=4), st.dictionaries(st.sampled_from(PARAMETERS),
                                                            st.integers(-1, 5), max_size=2),
    st.builds(np.int64, st.integers(-5, 10)), st.builds(lambda n: np.array([n]), st.integers(0, 5)),
    st.builds(np.float64, st.floats(-3, 8)))
KWARGS = st.dictionaries(st.sampled_from(PARAMETERS), VALUES, max_size=4)
STATEFUL_KEYS = ["mode", "death_spiral", "taken_out_when", "start", "method", "trials", "seed",
                 "max_exchanges", "dice", "ladder", "segments", "die", "hits", "max_rounds",
                 "max_rolls", "progress", "players", "tier", "policy", "threshold", "sessions",
                 "refill", "refill_rate", "start", "traits", "aspects", "system", "within"]
STATEFUL_KWARGS = st.dictionaries(st.sampled_from(STATEFUL_KEYS),
                                  VALUES | st.sampled_from(["simulate", "exact", "resist",
                                                            "contest", "all_filled", "any_slot",
                                                            "d6", "yellow", 1000, 10**7]),
                                  max_size=4)


def accepted(function, kwargs, given=0):
    """The keyword arguments ``function`` declares: an undeclared keyword is Python's own
    TypeError, a mistake in the calling code rather than a bad value."""
    import inspect
    parameters = dict(inspect.signature(function).parameters)
    for name in list(parameters)[:given]:  # already passed by position
        parameters.pop(name)
        kwargs = {k: v for k, v in kwargs.items() if k != name}
    if any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        return kwargs
    return {k: v for k, v in kwargs.items() if k in parameters}


def _calls(system, kwargs, other, stateful, value):
    return [
        lambda: wb.check(system, **kwargs),
        lambda: wb.simulate(system, trials=200, seed=1, **kwargs),
        lambda: wb.simulate(system, trials=value, seed=value, **kwargs),
        lambda: wb.versus(system, kwargs, other),
        lambda: wb.score(system, value, **kwargs),
        lambda: wb.score(system, [1, 2, 3, 4, 5, 6][: len(kwargs) + 1], **kwargs),
        lambda: wb.taken_out(**accepted(wb.taken_out, stateful)),
        lambda: wb.taken_out(value, value, **accepted(wb.taken_out, stateful, 2)),
        lambda: wb.clock(**accepted(wb.clock, stateful)),
        lambda: wb.rounds_until_hits(system, kwargs, other, **accepted(wb.rounds_until_hits, stateful, 3)),
        lambda: wb.drama_campaign([kwargs], **accepted(wb.drama_campaign, stateful, 1)),
        lambda: wb.burn_scene([kwargs], **accepted(wb.burn_scene, stateful, 1)),
        lambda: wb.success_curve(system, value),
        lambda: wb.solve_ladder(system, value, value),
        lambda: wb.check(system, **kwargs).pmf[value],
    ]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(SYSTEMS), KWARGS, KWARGS, STATEFUL_KWARGS, VALUES, st.integers(0, 14))
def test_api_gives_results_or_workbench_errors(system, kwargs, other, stateful, value, which):
    call = _calls(system, kwargs, other, stateful, value)[which]
    try:
        result = call()
    except WorkbenchError:
        return
    assert_meaningful(result)


def _adds_up(probabilities, lost=0.0, what=""):
    values = np.asarray(list(probabilities), dtype=float)
    assert np.all(values >= -1e-15) and np.all(values <= 1 + 1e-12), what
    assert abs(values.sum() + lost - 1.0) <= 1e-9, (what, values.sum(), lost)


def assert_meaningful(result) -> None:
    """What an accepted answer must mean, whatever the input: probabilities between 0 and 1
    that add up to 1 (with the mass an explosion chain or a step limit leaves out)."""
    import pandas as pd

    if isinstance(result, wb.CheckResult):
        lost = float(result.lost_mass or 0.0)
        _adds_up(result.pmf.probabilities, lost, "pmf")
        if result.tiers is not None:
            _adds_up(result.tiers.probabilities, lost, "tiers")
        if result.p_pass is not None:
            assert -1e-15 <= result.p_pass <= 1 + 1e-12
    elif isinstance(result, wb.VersusResult):
        _adds_up(result.margin.probabilities, float(result.lost_mass or 0.0), "margin")
        assert -1e-15 <= result.p_actor <= 1 + 1e-12
    elif isinstance(result, wb.StepsResult):
        _adds_up(result.frame["probability"], float(result.tail), "steps")
    elif isinstance(result, float):
        assert -1e-15 <= result <= 1 + 1e-12   # one outcome's probability
    elif isinstance(result, pd.DataFrame) and "p_pass" in result.columns:
        shown = result["p_pass"].dropna().to_numpy(dtype=float)
        assert np.all((shown >= -1e-15) & (shown <= 1 + 1e-12))
