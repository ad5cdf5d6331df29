"""Hardening: bad inputs are clear errors, never silent wrong answers, tracebacks or hangs.

Each silent wrong answer found by throwing bad input at the workbench has a regression test
here; so do the inputs that used to end in a traceback, and the limits checked before work.
"""
from __future__ import annotations

import os
import time

import numpy as np
import pytest

import workbench as wb
from workbench import WorkbenchError
from workbench.cli import main
from workbench import limits, validation

from conftest import run_cli


def cli(capsys, *argv):
    return run_cli(capsys, *argv)


# -- silent wrong answers -----------------------------------------------------------------

def test_arrata_stat_and_a_different_quality_conflict(one_line_error):
    with pytest.raises(WorkbenchError, match="quality.*'A'.*B, as stat=B5 says"):
        wb.check("arrata", stat="B5", quality="A")
    one_line_error("pmf", "arrata", "stat=B5", "quality=A", contains=("quality", "'A'"))
    # The same Quality twice is no conflict.
    assert wb.check("arrata", stat="B5", quality="b").params["quality"] == "B"


@pytest.mark.parametrize("option", [["--trials", "abc"], ["--trials", "1000"], ["--seed", "3"]])
def test_simulation_options_without_simulate_are_errors(one_line_error, option):
    one_line_error("pmf", "uwr", *option, "dice=3",
                   contains=(option[0], "only with --simulate"))


@pytest.mark.parametrize("value", ["yes", 1, "true", None, np.array([True])])
def test_booleans_are_booleans(value):
    with pytest.raises(WorkbenchError, match="death_spiral"):
        wb.taken_out(death_spiral=value)
    assert wb.taken_out(death_spiral=np.bool_(True)).mean == wb.taken_out(death_spiral=True).mean


@pytest.mark.parametrize("faces", [[1, 2, 1.5], [1.0, 2, 3], ["1", 2, 3], {"d6": [1, 2.5, 3]}])
def test_score_never_truncates_a_face(faces):
    with pytest.raises(WorkbenchError, match="faces"):
        wb.score("uwr", faces, dice=3)


def test_unknown_outcome_labels_are_errors_listing_the_labels():
    pmf = wb.check("erzahlspiel").pmf
    with pytest.raises(WorkbenchError, match="YES!AND.*'YES! AND...'") as caught:
        pmf["YES!AND"]
    assert isinstance(caught.value, KeyError)   # a dict-like lookup error too
    with pytest.raises(KeyError):
        pmf.at_least("YES")
    numeric = wb.check("uwr", dice=2).pmf
    assert numeric[7] == 0.0                      # a count never rolled has probability 0
    with pytest.raises(WorkbenchError):
        numeric["1"]


# -- the one validator --------------------------------------------------------------------

@pytest.mark.parametrize("trials", [10_000, 1e4, "1e4", "10_000", np.int64(10_000), 1.0e4])
def test_trials_follow_one_rule_everywhere(capsys, trials):
    assert validation.trials(None, trials) == 10_000
    assert wb.simulate("uwr", trials=trials, seed=1, dice=2).trials == 10_000
    assert wb.clock(4, method="simulate", trials=trials, seed=1).trials == 10_000
    code, out, err = cli(capsys, "pmf", "uwr", "dice=2", "--simulate", "--trials", str(trials),
                         "--seed", "1")
    assert code == 0, err


@pytest.mark.parametrize("trials", [0, 1.5, 1e11, "1.5e3x", True, None, float("nan"), "²"])
def test_bad_trials_everywhere(one_line_error, trials):
    with pytest.raises(WorkbenchError, match="trials"):
        wb.simulate("uwr", trials=trials, dice=2)
    with pytest.raises(WorkbenchError, match="trials"):
        wb.clock(4, method="simulate", trials=trials)
    if trials is not None:
        one_line_error("pmf", "uwr", "--simulate", "--trials", str(trials),
                       contains=("--trials",))


def test_seeds_follow_one_rule_on_the_cli_and_in_python(capsys, one_line_error):
    top = 2**64 - 1
    assert wb.simulate("uwr", trials=10, seed=top, dice=1).seed == top
    assert wb.taken_out(method="simulate", trials=10, seed=top).seed == top
    code, out, err = cli(capsys, "pmf", "uwr", "dice=1", "--simulate", "--trials", "10",
                         "--seed", str(top))
    assert code == 0, err
    for bad in (top + 1, -1):
        with pytest.raises(WorkbenchError, match="2\\*\\*64 - 1"):
            wb.simulate("uwr", trials=10, seed=bad, dice=1)
        one_line_error("pmf", "uwr", "--simulate", "--seed", str(bad),
                       contains=("--seed", "2**64 - 1"))


def test_seed_defaults_to_fresh_everywhere():
    # One default: None (a fresh seed, reported in the result).
    a = wb.taken_out(method="simulate", trials=1000)
    b = wb.clock(4, method="simulate", trials=1000)
    c = wb.rounds_until_hits("uwr", {"dice": 3}, {"dice": 2}, method="simulate", trials=1000)
    assert all(isinstance(r.seed, int) for r in (a, b, c))
    import inspect
    for function in (wb.simulate, wb.taken_out, wb.clock, wb.rounds_until_hits, wb.drama_campaign,
                     wb.burn_scene, wb.success_curve):
        assert inspect.signature(function).parameters["seed"].default is None, function


def test_argument_names_are_consistent():
    import inspect
    for function in (wb.check, wb.score, wb.versus, wb.simulate, wb.success_curve,
                     wb.ladder_table, wb.difficulty_table, wb.solve_ladder, wb.rounds_until_hits):
        assert next(iter(inspect.signature(function).parameters)) == "system", function
    for function in (wb.versus, wb.rounds_until_hits, wb.taken_out):
        names = inspect.signature(function).parameters
        assert "actor" in names and "reactor" in names, function
        assert "attacker" not in names and "defender" not in names


# -- inputs that used to end in a traceback -----------------------------------------------

@pytest.mark.parametrize("word", ["dice=--4", "dice=²", "dice=٣", "dice=" + "9" * 5000,
                                  "dice=4.0", "dice=0x4", "dice= ", "favor=1e2"])
def test_odd_numbers_on_the_command_line(one_line_error, word):
    err = one_line_error("pmf", "uwr", word, contains=("dice" if "dice" in word else "favor",))
    assert len(err) < 300


@pytest.mark.parametrize("pools", ["²", "1-²", "9" * 5000, "1-" + "9" * 5000, "٣"])
def test_odd_pool_sizes(one_line_error, pools):
    one_line_error("table", "uwr", "--pools", pools, contains=("--pools",))


def test_out_locations(one_line_error, tmp_path):
    readonly = tmp_path / "locked"
    readonly.mkdir()
    readonly.chmod(0o500)
    try:
        cases = [(str(tmp_path), "is a folder"), ("", "a file name"),
                 (str(tmp_path / "missing" / "x.rst"), "does not exist")]
        if os.path.exists("/dev/full"):
            cases.append(("/dev/full", "not a file"))
        if os.geteuid() != 0:  # root writes anywhere
            cases.append((str(readonly / "x.rst"), "cannot write"))
        for out, message in cases:
            one_line_error("table", "uwr", "--out", out, contains=("--out", message))
            one_line_error("ladder", "uwr", "--want", "Easy=0.9", "--out", out,
                           contains=("--out",))
    finally:
        readonly.chmod(0o700)


def test_version(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.startswith("workbench ")


API_CALLS = [
    lambda: wb.versus("uwr", actor=None, reactor={}),
    lambda: wb.versus("uwr", {"dice": 2}, [("dice", 2)]),
    lambda: wb.score("uwr", faces=None, dice=1),
    lambda: wb.score("uwr", "123", dice=3),
    lambda: wb.solve_ladder("uwr", wanted=None),
    lambda: wb.solve_ladder("uwr", {"Easy": float("nan")}),
    lambda: wb.solve_ladder("uwr", "Easy=0.9", tolerance="x"),
    lambda: wb.solve_ladder("uwr", "Easy=0.9", knobs="target"),
    lambda: wb.drama_campaign(session=None),
    lambda: wb.drama_campaign("d6=3"),
    lambda: wb.taken_out(start=5),
    lambda: wb.load_system(None),
    lambda: wb.load_system(3),
    lambda: wb.side_by_side([]),
    lambda: wb.side_by_side(["uwr"], []),
    lambda: wb.side_by_side([("uwr",)]),
    lambda: wb.check("uwr", dice=np.array([4])),
    lambda: wb.check("uwr", dice=4.0),
    lambda: wb.check("uwr", dice=float("nan")),
    lambda: wb.check("uwr", half=np.array([True, False])),
    lambda: wb.check("arrata", quality=["B"]),
    lambda: wb.check(None),
    lambda: wb.check(3),
    lambda: wb.margin_distribution(None, None),
    lambda: wb.ladder_table("uwr", "1-3"),  # None: the default sizes
    lambda: wb.ladder_table("uwr", [1.5]),
    lambda: wb.difficulty_table("uwr", 5),
    lambda: wb.success_curve("uwr", [1], rungs=[None]),
    lambda: wb.success_curve("uwr", [1], method="guess"),
    lambda: wb.render_table(None),
    lambda: wb.clock_table(4),
    lambda: wb.clock_table([4], within=-1),
    lambda: wb.clock(4).within("3"),
    lambda: wb.burn_scene([{"d6": 1, "aspects": 3}], aspects={"Thief": 1}),
    lambda: wb.burn_scene(None),
    lambda: wb.system("uwr").with_rung(None),
    lambda: wb.simulate("uwr", trials=10, progress="yes", dice=1),
    lambda: wb.pool_maximum(None, 1),
    lambda: wb.solve_ladder("uwr", "Easy=0.9", pool=np.array([4])),
    lambda: wb.Distribution((1, 2), (0.5,)),
    lambda: wb.Distribution(None, None),
]


@pytest.mark.parametrize("call", API_CALLS)
def test_api_bad_arguments_are_workbench_errors(call):
    with pytest.raises(WorkbenchError):
        call()


# -- bounded work -------------------------------------------------------------------------

class WorkStarted(Exception):
    """Raised by every place long work starts, while a refusal is tested."""


@pytest.fixture
def no_work(monkeypatch):
    """The places where long work starts, each watched: the simulation kernels are replaced by
    a sentinel that records the call and raises; the exact chains (clocks, rounds until hits)
    are recorded and run. A test then asserts the refusal came first and nothing (or only
    what the refusal itself needs) was recorded: a counter, not a stopwatch."""
    import workbench.engine.simulation as simulation
    from workbench.stateful import burn, clocks, drama, exchanges

    started: list[str] = []

    def sentinel(name):
        def start(*args, **kwargs):
            started.append(name)
            raise WorkStarted(name)
        return start

    def watched(name, function):
        def run(*args, **kwargs):
            started.append(name)
            return function(*args, **kwargs)
        return run

    monkeypatch.setattr(simulation, "_run", sentinel("simulation"))
    for module in (clocks, exchanges, drama, burn):
        monkeypatch.setattr(module, "run_kernel", sentinel(f"{module.__name__}.run_kernel"))
    monkeypatch.setattr(clocks, "absorption_steps", watched("clock chain", clocks.absorption_steps))
    monkeypatch.setattr(exchanges, "_negative_binomial",
                        watched("negative binomial", exchanges._negative_binomial))
    return started


def test_limits_are_declared_in_one_place():
    assert limits.MAX_SEED == 2**64 - 1 and limits.MAX_TRIALS == 10**10
    assert limits.MAX_DICE == 1000


def test_huge_clocks_are_refused_before_any_work(no_work):
    with pytest.raises(WorkbenchError, match="segments.*from 1 to 100"):
        wb.clock(10_000)
    assert no_work == []


def test_the_largest_clock_is_exact():
    assert wb.clock(100, "black").mean == pytest.approx(600.0)   # one mark per 6


def test_a_fight_the_actor_can_never_win_is_refused_up_front(no_work):
    for method in ("exact", "simulate"):
        with pytest.raises(WorkbenchError, match="never hit"):
            wb.rounds_until_hits("uwr", {"dice": 0}, {"dice": 3}, method=method)
    assert no_work == []


def test_runs_past_the_work_budget_are_refused_before_they_start(one_line_error, monkeypatch, no_work):
    err = one_line_error("pmf", "uwr", "dice=1000", "--simulate", "--trials",
                         "10000000000", contains=("WORKBENCH_MAX_ROLLED_DICE",))
    assert "1e13" in err
    with pytest.raises(WorkbenchError, match="WORKBENCH_MAX_SIMULATED_CHECKS"):
        wb.rounds_until_hits("uwr", {"dice": 1}, {"dice": 6}, hits=10_000, method="simulate",
                             trials=10**10, max_rounds=10**7)
    with pytest.raises(WorkbenchError, match="WORKBENCH_MAX_SIMULATED_CHECKS"):
        wb.clock(100, "black", method="simulate", trials=10**9)
    assert no_work == ["clock chain"]   # the exact mean the budget is worked out with, no more
    monkeypatch.undo()
    # The budget is raised with its environment variable.
    monkeypatch.setenv("WORKBENCH_MAX_ROLLED_DICE", "100")
    with pytest.raises(WorkbenchError, match="limit of 100"):
        wb.simulate("uwr", trials=1000, dice=1)
    monkeypatch.setenv("WORKBENCH_MAX_ROLLED_DICE", "1e4")
    assert wb.simulate("uwr", trials=1000, seed=1, dice=1).trials == 1000


def test_ctrl_c_is_one_line_and_status_130(capsys, monkeypatch):
    import workbench.cli._checks as checks

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(checks, "check", interrupted)
    code, out, err = cli(capsys, "pmf", "uwr", "dice=3")
    assert code == 130 and err == "workbench: interrupted\n"


def test_a_chain_that_may_never_end_stops_at_once():
    from workbench.stateful._markov import absorption_steps
    # From state 0: stay 1/2, fall into a state never left 1/4, end 1/4: ends with P = 1/2.
    chain = absorption_steps(np.array([[0.5, 0.25], [0.0, 1.0]]), np.array([1.0, 0.0]), 10**7)
    assert chain.tail == pytest.approx(0.5) and np.isinf(chain.mean)
    assert chain.probabilities.sum() == pytest.approx(0.5)
    # It stopped once the mass that can still end was spent ((1/2)**40 < 1e-12 <= (1/2)**39:
    # 40 steps), not after the 10**7 steps it was allowed: one probability per step taken.
    assert len(chain.probabilities) == 40


def test_long_negative_binomials_stop_where_the_tail_ends_and_are_exact():
    result = wb.rounds_until_hits("uwr", {"dice": 2}, {"dice": 14}, hits=3, max_rounds=10**7)
    p = result.params["p_hit"]
    assert result.mean == pytest.approx(3 / p)
    assert result.frame["probability"].sum() + result.tail == pytest.approx(1.0)
    from math import comb
    for t in (3, 10, 700):
        assert result.probability(t) == pytest.approx(comb(t - 1, 2) * p**3 * (1 - p) ** (t - 3), rel=1e-9)
    # The rounds listed end soon after less than 1e-12 is left (within one chunk of rounds),
    # far short of the 10**7 allowed. P(T > t) = P(fewer than 3 hits in t rounds).
    def beyond(t):
        return sum(comb(t, k) * p**k * (1 - p) ** (t - k) for k in range(3))
    cut = next(t for t in range(3, 10**6) if beyond(t) < 1e-12)
    last = int(result.frame[result.quantity].iloc[-1])
    assert result.tail < 1e-12 and cut <= last <= cut + 2048, (cut, last)


def test_ctrl_c_stops_a_long_simulation_cleanly(tmp_path):
    """A real run interrupted while its progress bar moves: one line, status 130, quickly."""
    import signal
    import re
    import subprocess
    import sys

    estimate = re.compile(r"\[\d\d:\d\d<\d\d:\d\d")   # tqdm: [elapsed<time left]
    errors = tmp_path / "stderr.txt"
    with open(errors, "w") as stream:
        process = subprocess.Popen(
            [sys.executable, "-m", "workbench", "pmf", "uwr", "dice=1000", "--simulate",
             "--trials", "1e8"], stdout=subprocess.DEVNULL, stderr=stream,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        try:
            deadline = time.monotonic() + 120
            while not estimate.search(errors.read_text()) and time.monotonic() < deadline:
                time.sleep(0.2)
            assert estimate.search(errors.read_text()), "no progress bar with an estimate"
            process.send_signal(signal.SIGINT)
            assert process.wait(timeout=300) == 130   # a guard against a hang, not a threshold
        finally:
            if process.poll() is None:
                process.kill()
    text = errors.read_text()
    assert text.endswith("\nworkbench: interrupted\n") and "Traceback" not in text
    # Stopped part way: the bar's last count is short of its total.
    done, total = map(int, re.findall(r"(\d+)/(\d+)", text.replace(",", ""))[-1])
    assert done < total, (done, total)


def test_stateful_campaigns_and_scenes_are_bounded_before_work(no_work, monkeypatch):
    from workbench.stateful import burn

    checks = []
    real_check = burn.check
    monkeypatch.setattr(burn, "check", lambda *a, **k: checks.append(1) or real_check(*a, **k))
    with pytest.raises(WorkbenchError, match="at most 20000 checks"):
        wb.drama_campaign([{"d6": 1}] * 100, sessions=10_000)
    with pytest.raises(WorkbenchError, match="WORKBENCH_MAX_SIMULATED_CHECKS"):
        wb.drama_campaign([{"d6": 1}] * 20, sessions=1000, trials=10**9)
    with pytest.raises(WorkbenchError, match="burn table"):
        wb.burn_scene([{"traits": ["A"], "aspects": ["B"], "d6": 1}] * 5, traits={"A": 100},
                      aspects={"B": 100})
    # One exact check per check of the scene (its P(pass) without burning), none of the
    # 5 x 101 x 202 x 2 the refused table would have needed.
    assert len(checks) == 5
    with pytest.raises(WorkbenchError, match="WORKBENCH_MAX_SIMULATED_CHECKS"):
        wb.burn_scene([{"d6": 1}] * 50, trials=10**9)
    assert no_work == []
