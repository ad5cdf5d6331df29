"""Simulating rolls with statistics rolls the dice: agreement with an independent brute force
(every statistic kind, explosions, percentile dice, rerolls of misses, kept dice, all-negative
rolls; hand-written and random rolls), and the simulator's contract (seeds, threads, limits,
Ctrl-C, the same counts as plain Python).

Statistics: a chi-square test over every combination of statistics (cells expecting fewer
than 5 pooled; a combination the brute force calls impossible fails outright) with p below
1e-9 failing: over the ~150 comparisons here a correct simulator fails a run with probability
below 1e-6, while one statistic read wrong in a common outcome is caught at once
(``test_a_statistic_read_wrong_is_caught``).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from _rolled_brute import brute_joint
from _rolled_brute import chains as brute_chains
from _stats import chisquare_pvalue
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import workbench.engine.roll_simulation as rs
import workbench.engine.simulation as sim
from workbench.errors import WorkbenchError
from workbench.rules.roll import (AllNegative, Beats, Derived, Die, Keep, KeptDice, LargestSet, Pairs,
                                  Percentile, Pick, RerollFaces, RollAgain, RollSpec, Sets, Sum)

ROOT = Path(__file__).resolve().parents[1]
TRIALS = 400_000
P_MIN = 1e-9


def disagreement(joint, exact: dict, trials: int) -> str | None:
    """Why simulated frequencies do not fit exact probabilities (``None`` when they do)."""
    seen = {tuple(int(v) for v in row): p for row, p in zip(joint.values, joint.probabilities)}
    impossible = [row for row in seen if exact.get(row, 0.0) == 0.0]
    if impossible:
        return f"rolled combinations the brute force calls impossible: {impossible[:3]}"
    rows = list(exact)
    observed = np.rint(np.array([seen.get(row, 0.0) for row in rows]) * trials)
    expected = np.array([exact[row] for row in rows]) * trials
    common = expected >= 5
    obs, exp = list(observed[common]), list(expected[common])
    if (~common).any():
        obs.append(observed[~common].sum())
        exp.append(max(expected[~common].sum(), 1e-3))
    if len(obs) < 2:
        return None
    p = chisquare_pvalue(obs, exp)
    return None if p > P_MIN else f"chi-square p = {p:.3g} over {len(obs)} cells"


def assert_agrees(spec: RollSpec, trials: int = TRIALS, seed: int = 20250101):
    joint = sim.simulate_raw(spec, trials, seed)   # die by die, or as one sum (summed_roll)
    assert joint.names == spec.statistic_names and joint.trials == trials
    assert joint.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
    problem = disagreement(joint, brute_joint(spec), trials)
    assert problem is None, problem


def d6(name="d6", **options):
    return Die.numbered(name, 6, **options)


# -- every kind of statistic, explosions, percentile dice -------------------------------

HITS = {"hits": [0, 0, 0, 0, 1, 1]}
GEMS = Die("gem", (1, 1, 2, 2, 3, 3), counts={"gems": (0, 1, 0, 1, 0, 2)})   # ties in value, not counts
EXPLODE_INTO = Die("a", (1, 2, 3, 4), (False, False, False, True), limit=2,
                   into=Die("b", (0, 1, 1, 2), (False, False, False, True), counts={"bs": (0, 1, 1, 1)}),
                   counts={"bs": (0, 0, 0, 0)})

CASES = {
    "keep and pick by rank, ties by counts": RollSpec(
        ((d6(counts=HITS), 2), (Die.numbered("d8", 8, counts={"hits": [0] * 6 + [1, 1]}), 1), (GEMS, 1)),
        stats=(Pick("top"), Pick("second", position=1), Pick("low1", order="lowest", position=1),
               Pick("mid", order="middle"), Pick("mid6", order="middle", dice="d6"),
               Pick("none", position=4), Keep("best2", take=2, skip=1, score="hits"),
               Keep("low2", take=2, order="lowest", score="gems"), Keep("middle", take=2, order="middle"),
               Keep("skipped", take=1, skip=5), Keep("all", take=9, score="value * 2"))),
    "dice against dice, sets": RollSpec(
        ((d6("attack"), 3), (d6("defend"), 2)),
        stats=(Beats("beaten", "attack", "defend"), Pairs("won", "attack", "defend"),
               Pairs("won_ties", "attack", "defend", ties="dice"), LargestSet("width", dice="attack"),
               LargestSet("height", report="value"), Sets("pairs"), Sets("triples", size=3))),
    "explosions into another die, capped": RollSpec(
        ((EXPLODE_INTO, 2), (d6("c", explodes=(False,) * 5 + (True,)), 1)),
        stats=(Sum("a_value", dice="a"), Keep("best", take=1), Pick("low", order="lowest"),
               Sum("c_high", score="value >= 7", dice="c"))),
    "percentile dice with bonus and penalty tens dice": RollSpec(
        ((Percentile("bonus", extra=1), 1), (Percentile("penalty", extra=-1), 1), (Percentile("plain"), 1)),
        stats=(Pick("b", dice="bonus"), Pick("p", dice="penalty"), Pick("x", dice="plain"),
               Beats("better", "bonus", "penalty")),
        total="(b <= 30) + (p <= 30) + (x <= 30)"),
    "derived statistics before and after the total": RollSpec(
        ((d6(counts=HITS), 3),), stats=(Keep("two", take=2), Derived("edge", "two - 7"),
                                        Derived("margin", "total - edge")),
        total="max(edge, hits * 3)", modifier=-1, floor=0, ceiling=5, values=(("bonus", 2),)),
    "scores read from exploding chains": RollSpec(
        ((d6("wild", explodes=(False,) * 5 + (True,)), 1), (Die.numbered("trait", 4, explodes=(False,) * 3 + (True,)), 1)),
        stats=(Sum("snake", score="value == 1"), Keep("kept", take=1, score="0 if value == 1 else value"),
               Pick("best")),
        total="kept"),
    "rerolls of misses with cancelling faces, all negative": RollSpec(
        ((Die("p", (-1, 0, 0, 1, 1, 2), counts={"ones": (1, 0, 0, 0, 0, 0)}), 3), (Die("q", (0, 0, 1)), 1)),
        stats=(AllNegative("botch"), Sum("q_hits", dice="q"), Pick("low", order="lowest")), rerolls=2),
    "rerolls of exploding dice": RollSpec(
        ((Die("x", (0, 0, 1, 1), (False, False, False, True), counts={"fours": (0, 0, 0, 1)}), 3),),
        stats=(Keep("best", take=1),), rerolls=1),
    "kept lowest of two d20 beside a d6": RollSpec(
        ((Die.numbered("d20", 20, counts={"crit": [0] * 19 + [1]}), 2), (d6(), 1)),
        stats=(Pick("d20", dice="d20"), Sum("six", score="value == 6", dice="d6"), Pick("top")),
        kept=KeptDice("d20", 1, "lowest")),
    "kept highest, ties broken by counts": RollSpec(
        ((GEMS, 3), (d6(counts={"gems": [0] * 6}), 1)), stats=(Keep("top", take=1),),
        kept=KeptDice("gem", 2, "highest")),
    "all negative reads the dice that stay": RollSpec(
        ((Die("f", (-1, -1, 0, 1)), 3), (Die("g", (-1, 1)), 1)), stats=(AllNegative("botch"),),
        kept=KeptDice("f", 1, "lowest")),
    "kept none of a type": RollSpec(((d6(), 2), (Die.numbered("d4", 4), 1)), kept=KeptDice("d6", 0)),
    "kept dice beside a die scored by its chain": RollSpec(
        ((d6("k", counts={"ones": [1] + [0] * 5}), 3), (Die("x", (1, 2, 3), (False, False, True), limit=3), 1)),
        stats=(Sum("low", score="value <= 2"), Pick("top"), AllNegative("neg")), kept=KeptDice("k", 1, "lowest")),
    "no dice, absent types, empty statistics": RollSpec(
        ((d6(), 0), (Die.numbered("d4", 4), 1)),
        stats=(Pick("none", order="middle", dice="d6"), LargestSet("w", dice="d6"), Sets("s", dice="d6"),
               Beats("b", "d6", "d4"), Keep("k", take=1, dice="d6"), AllNegative("neg"))),
    "nothing rolled at all": RollSpec((), stats=(AllNegative("neg"), Pick("p")), total="3", modifier=1),
    # Rolls that decide on their own statistics (roll_rounds).
    "a push: reroll the dice showing neither a 6 nor a 1 when no 6 shows": RollSpec(
        ((d6(counts={"sixes": [0] * 5 + [1], "ones": [1] + [0] * 5}), 3), (Die("bad", (-1, 0, 1)), 1)),
        stats=(AllNegative("botch"), Pick("top")), total="sixes",
        reroll_faces=RerollFaces((("d6", (2, 3, 4, 5)), ("bad", (1,))), "sixes == 0 and total < 1")),
    "reroll the 1s, always": RollSpec(
        ((d6(counts={"ones": [1] + [0] * 5}), 2), (Die("neg", (-1, -2)), 1)),
        stats=(AllNegative("botch"), Keep("best", take=1)), modifier=1,
        reroll_faces=RerollFaces((("d6", (1,)), ("neg", (2,))))),
    "doubles add and roll over": RollSpec(
        ((d6(), 2),), stats=(Pick("high"), Pick("low", order="lowest"), Derived("gap", "high - low")),
        again=RollAgain("high == low"), modifier=-1, floor=3),
    "rolled again at most twice, kept and rerolled": RollSpec(
        ((Die.numbered("d4", 4, counts={"fours": [0, 0, 0, 1]}), 2), (Die("z", (0, 1)), 1)),
        stats=(Sum("z_hits", dice="z"),), rerolls=1, again=RollAgain("fours >= 1", limit=2)),
    "kept, then rolled again": RollSpec(
        ((Die.numbered("d6", 6), 2),), stats=(Pick("kept"),), kept=KeptDice("d6", 1, "lowest"),
        again=RollAgain("kept >= 4 and total >= 4", limit=3), ceiling=12),
    "a push inside a roll made again": RollSpec(
        ((d6(counts={"sixes": [0] * 5 + [1]}), 2),), total="sixes",
        reroll_faces=RerollFaces((("d6", (1, 2, 3)),), "sixes == 0"), again=RollAgain("sixes == 2", limit=2)),
    # Sums over dice only: rolled as one sum by the pool kernels (summed_roll).
    "hits and ones, summed": RollSpec(
        ((d6(counts={"hits": [0, 0, 0, 0, 1, 1], "ones": [1, 0, 0, 0, 0, 0]}), 7),), total="hits"),
    "sums over some types, negative and constant scores, summed": RollSpec(
        ((Die("fate", (-1, 0, 1), counts={"plus": (0, 0, 1)}), 4), (d6("d6", counts={"plus": [2] * 6}), 2),
         (Die.numbered("d8", 8), 1)),
        stats=(Sum("fate_sum", dice="fate"), Sum("high", score="value >= 5", dice=("d6", "d8")),
               Sum("twice", score="value * 2 - 3", dice="d8"), Keep("every", take=9, order="lowest"),
               Keep("none", take=0), Derived("edge", "fate_sum + high")),
        total="edge + plus", modifier=2, ceiling=12),
}

SUMMED = {name for name in CASES if name.endswith(", summed")}


def test_rolls_of_sums_alone_are_rolled_as_one_sum(monkeypatch):
    """The cases named 'summed' take the pool kernels (several dice a draw, every die rolled;
    their agreement with the brute force is tested above), the others die by die."""
    from workbench.engine.summed_roll import summed_roll

    assert {name for name, spec in CASES.items() if summed_roll(spec) is not None} == SUMMED

    def not_die_by_die(*args):
        raise AssertionError("rolled die by die")
    monkeypatch.setattr(sim, "simulate_roll", not_die_by_die)
    for name in SUMMED:
        assert sim.simulate_raw(CASES[name], 1000, seed=1).trials == 1000


@pytest.mark.parametrize("name", list(CASES))
def test_simulation_agrees_with_the_brute_force(name):
    assert_agrees(CASES[name])


@pytest.mark.parametrize("name", list(CASES))
def test_the_exact_engine_agrees_with_the_brute_force(name):
    """The same rolls, the exact engine against the brute force (to the last digits; the
    brute force leaves out chains less likely than 1e-13)."""
    from workbench.engine.evaluate import evaluate_roll

    exact = evaluate_roll(CASES[name])
    brute = brute_joint(CASES[name])
    found = {tuple(int(v) for v in row): float(p) for row, p in zip(exact.values, exact.probabilities)}
    assert max(abs(found.get(row, 0.0) - brute.get(row, 0.0)) for row in {*found, *brute}) < 1e-9


def test_a_statistic_read_wrong_is_caught(monkeypatch):
    """The agreement test has power: picking the die one rank off (a mutated simulator) fails.
    Compiled rolls are cached, so the cache is emptied around the mutation: else a roll
    compiled before (by the agreement test of the same case) hides it, and the mutated
    compilation would outlive the test."""
    from workbench.engine import compiled_roll

    spec = CASES["keep and pick by rank, ties by counts"]
    real = compiled_roll._reading

    def off_by_one(*args):
        (slots, lengths, ranked, ops), names = real(*args)
        ops = ops.copy()
        picks = ops[:, 0] == compiled_roll.PICK
        ops[picks, 4] = np.minimum(ops[picks, 4] + 1, lengths[ops[picks, 1]] - 1)
        return (slots, lengths, ranked, ops), names

    monkeypatch.setattr(compiled_roll, "_reading", off_by_one)
    compiled_roll.compile_roll.cache_clear()
    try:
        joint = rs.simulate_roll(spec, TRIALS, 20250101)
    finally:
        compiled_roll.compile_roll.cache_clear()
    assert disagreement(joint, brute_joint(spec), TRIALS) is not None


# -- random small rolls of every kind --------------------------------------------------

NAMES = ("a", "b", "c")


@st.composite
def small_rolls(draw):
    types = draw(st.integers(1, 3))
    groups = []
    for name in NAMES[:types]:
        if draw(st.integers(0, 9)) == 0:
            groups.append((Percentile(name, extra=draw(st.integers(-1, 1))), 1))
            continue
        sides = draw(st.integers(2, 5))
        values = tuple(draw(st.lists(st.integers(-1, 3), min_size=sides, max_size=sides)))
        counts = {"c1": draw(st.lists(st.integers(0, 2), min_size=sides, max_size=sides))}
        explodes = (False,) * (sides - 1) + (draw(st.integers(0, 3)) == 0,)
        limit = draw(st.integers(1, 2)) if explodes[-1] else 0
        groups.append((Die(name, values, explodes, limit=limit, counts=counts), draw(st.integers(0, 3 if types == 1 else 2))))
    names = [die.name for die, _ in groups]
    with_counts = ["c1", "0 if value == 1 else value + c1"] if any(isinstance(d, Die) for d, _ in groups) else []
    stats = []
    for i in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["sum", "keep", "pick", "beats", "pairs", "width", "height", "sets",
                                     "negative", "derived"]))
        chosen = tuple(draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names))))
        name = f"s{i}"
        if kind == "sum":
            stats.append(Sum(name, score=draw(st.sampled_from(["value", "value >= 2", "value * 2 - 1", *with_counts])),
                             dice=chosen))
        elif kind == "keep":
            stats.append(Keep(name, take=draw(st.integers(0, 3)), skip=draw(st.integers(0, 2)),
                              order=draw(st.sampled_from(["highest", "lowest", "middle"])), dice=chosen,
                              score=draw(st.sampled_from(["value", "0 if value == 1 else value", *with_counts]))))
        elif kind == "pick":
            stats.append(Pick(name, order=draw(st.sampled_from(["highest", "lowest", "middle"])),
                              position=draw(st.integers(0, 3)), dice=chosen))
        elif kind in ("beats", "pairs") and len(names) >= 2:
            first, second = draw(st.permutations(names))[:2]
            stats.append(Beats(name, first, second) if kind == "beats" else
                         Pairs(name, first, second, ties=draw(st.sampled_from(["dice", "against"]))))
        elif kind in ("width", "height"):
            stats.append(LargestSet(name, report="size" if kind == "width" else "value", dice=chosen))
        elif kind == "sets":
            stats.append(Sets(name, size=draw(st.integers(1, 3)), dice=chosen))
        elif kind == "negative":
            stats.append(AllNegative(name))
        elif kind == "derived" and stats:
            other = draw(st.sampled_from([s.name for s in stats]))
            stats.append(Derived(name, draw(st.sampled_from([f"{other} * 2 - total", f"max({other}, 1)",
                                                               f"{other} if {other} > 0 else -1"]))))
    readable = [s.name for s in stats if not isinstance(s, Derived)]
    total = draw(st.sampled_from([None, None, *[f"{n} + 1" for n in readable[:1]]]))
    rerolls = draw(st.sampled_from([0, 0, 1, 2]))
    kept = None
    faced = [(die, n) for die, n in groups if isinstance(die, Die) and not any(die.explodes)]
    if faced and not rerolls and draw(st.booleans()):
        die, n = draw(st.sampled_from(faced))
        kept = KeptDice(die.name, draw(st.integers(0, n)), draw(st.sampled_from(["highest", "lowest"])))
    if rerolls and any(v < 0 and e for die, _ in groups if isinstance(die, Die)
                       for v, e in zip(die.values, die.explodes)):
        rerolls = 0   # refused: whether such a die missed would depend on its whole chain
    push = None
    if faced and not rerolls and kept is None and draw(st.booleans()):
        die, _ = draw(st.sampled_from(faced))
        faces = tuple(draw(st.lists(st.integers(1, die.sides), min_size=1, max_size=2, unique=True)))
        push = RerollFaces(((die.name, faces),), draw(st.sampled_from(
            [None, "total < 2", *[f"{n} <= 1" for n in readable[:1]]])))
    again = None
    if draw(st.integers(0, 3)) == 0:
        again = RollAgain(draw(st.sampled_from(["total >= 3", *[f"{n} == 1" for n in readable[:1]]])), limit=1)
    spec = RollSpec(tuple(groups), stats=tuple(stats), total=total, rerolls=rerolls, kept=kept,
                    modifier=draw(st.integers(-1, 1)), floor=draw(st.sampled_from([None, 0])),
                    ceiling=draw(st.sampled_from([None, 6])), reroll_faces=push, again=again)
    # Small enough to enumerate every combination of chains in a moment.
    assume(np.prod([float(len(brute_chains(die, spec.count_names))) ** n for die, n in spec.groups])
           * 2.0 ** min(rerolls, spec.dice) * (3 if push else 1) * (30 if again else 1) <= 20_000)
    return spec


@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(small_rolls())
def test_random_small_rolls_agree_with_the_brute_force(spec):
    assert_agrees(spec, trials=200_000)


# -- the simulator's contract ----------------------------------------------------------

SPEC = CASES["keep and pick by rank, ties by counts"]


def test_a_seed_repeats_exactly_and_another_seed_differs():
    first = sim.simulate_raw(SPEC, 300_000, seed=9)
    again = sim.simulate_raw(SPEC, 300_000, seed=9)
    other = sim.simulate_raw(SPEC, 300_000, seed=10)
    np.testing.assert_array_equal(first.values, again.values)
    np.testing.assert_array_equal(first.probabilities, again.probabilities)
    assert first.trials == 300_000 and first.lost_mass == 0.0
    assert not np.array_equal(first.probabilities[:10], other.probabilities[:10])


THREADS = ("import sys, numpy as np\n"
           "sys.path.insert(0, 'tests')\n"
           "from test_simulate_rolls import CASES\n"
           "import workbench.engine.simulation as s\n"
           "out = []\n"
           "for name in ('keep and pick by rank, ties by counts', 'scores read from exploding chains',\n"
           "             'kept lowest of two d20 beside a d6', 'rerolls of misses with cancelling faces, all negative',\n"
           "             'a push inside a roll made again', 'hits and ones, summed'):\n"
           "    j = s.simulate_raw(CASES[name], 5 * s.BLOCK_SIZE + 123, seed=77)\n"
           "    out.append([j.values.tolist(), (j.probabilities * j.trials).round().astype(int).tolist()])\n"
           "print(out)")


def test_one_thread_and_two_threads_give_identical_counts():
    runs = [subprocess.run([sys.executable, "-c", THREADS], cwd=ROOT, capture_output=True, text=True,
                           env={**os.environ, "NUMBA_NUM_THREADS": str(n)}, timeout=900) for n in (1, 2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
    assert runs[0].stdout == runs[1].stdout and len(runs[0].stdout) > 1000


def test_kernels_run_as_plain_python_and_give_the_same_counts():
    """NUMBA_DISABLE_JIT=1 runs the kernels as Python: the same seed, the same counts."""
    code = THREADS.replace("5 * s.BLOCK_SIZE + 123", "3000")
    plain = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                           env={**os.environ, "NUMBA_DISABLE_JIT": "1"}, timeout=900)
    compiled = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                              timeout=900)
    assert plain.returncode == 0, plain.stderr
    assert compiled.returncode == 0, compiled.stderr
    assert plain.stdout == compiled.stdout


def test_tables_that_fill_up_are_grown_with_the_same_counts(monkeypatch):
    """A block meeting more combinations than its table holds reruns with a larger table:
    the same dice, the same counts."""
    wide = sim.simulate_raw(SPEC, 200_000, seed=4)
    monkeypatch.setattr(rs, "TABLE_START", 2)
    narrow = sim.simulate_raw(SPEC, 200_000, seed=4)
    np.testing.assert_array_equal(narrow.values, wide.values)
    np.testing.assert_array_equal(narrow.probabilities, wide.probabilities)


def test_work_past_the_limit_is_refused_before_any_die_is_rolled(monkeypatch):
    import workbench.engine._kernels.rolls as kernels

    def never(*args):
        raise AssertionError("a kernel ran")
    monkeypatch.setattr(kernels, "plain_joint_block", never)
    monkeypatch.setattr(kernels, "joint_block", never)
    spec = RollSpec(((d6(), 200),), stats=(Pick("top"),))
    with pytest.raises(WorkbenchError, match=r"about 2e12 rolled dice, more than the limit"):
        sim.simulate_raw(spec, 10**10, seed=1)
    endless = Die("d", (1, 2), (False, True))   # a chain of 2 dice on average
    assert rs.rolled_per_roll(RollSpec(((endless, 3),), rerolls=2)) == pytest.approx(3 * 2 + 2 * 2)


def test_dice_against_the_same_dice_are_refused_as_the_exact_engine_refuses():
    spec = RollSpec(((d6(), 2),), stats=(Beats("b", (), "d6"),))
    with pytest.raises(WorkbenchError, match="dice and against must be different die types"):
        sim.simulate_raw(spec, 10, seed=1)


def test_keyboard_interrupt_closes_the_bar_and_returns_nothing(monkeypatch):
    import workbench.engine._kernels.rolls as kernels

    calls = []

    def interrupted(*args):   # the first group of blocks runs, a block of the second is stopped
        calls.append(args[1])
        if args[1] >= sim.CHUNK_BLOCKS:
            raise KeyboardInterrupt
        return real(*args)
    real = kernels.plain_joint_block
    monkeypatch.setattr(kernels, "plain_joint_block", interrupted)
    closed = []
    real_bar = sim._progress_bar

    def tracked(enabled, trials):
        bar = real_bar(enabled, trials)
        original = bar.close
        bar.close = lambda: (closed.append(True), original())
        return bar
    monkeypatch.setattr(sim, "_progress_bar", tracked)
    result = []
    with pytest.raises(KeyboardInterrupt):
        result.append(sim.simulate_raw(SPEC, 3 * sim.BLOCK_SIZE * sim.CHUNK_BLOCKS, seed=1, progress=True))
    assert closed == [True] and result == [] and max(calls) >= sim.CHUNK_BLOCKS


def test_ctrl_c_stops_a_long_run_without_a_result():
    """A real SIGINT to a process simulating: KeyboardInterrupt, no result printed."""
    code = ("import sys\n"
            "sys.path.insert(0, 'tests')\n"
            "from test_simulate_rolls import SPEC\n"
            "import workbench.engine.simulation as s\n"
            "s.simulate_raw(SPEC, 1000, seed=1)\n"
            "print('ready', flush=True)\n"
            "joint = s.simulate_raw(SPEC, 10**9, seed=1, progress=False)\n"
            "print('RESULT', joint.trials, flush=True)\n")
    process = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=300)
    finally:
        process.kill()
    assert "KeyboardInterrupt" in err and "RESULT" not in out and process.returncode != 0
