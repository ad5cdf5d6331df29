"""The simulate API: reproducible seeds and thread counts, input checks, range growth,
progress and interruption, the CLI, and the kernels as plain Python (NUMBA_DISABLE_JIT=1)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

import workbench
import workbench.engine.simulation as sim
from workbench import simulate
from workbench.errors import ParameterError, WorkbenchError
from workbench.rules.pool import DieType, PoolSpec

ROOT = Path(__file__).resolve().parents[1]


def run_python(code: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=300)


def test_a_seed_repeats_exactly_and_different_seeds_differ():
    a = simulate("arrata", trials=300_000, seed=5, stat="B6", advantage=1, disadvantage=1)
    b = simulate("arrata", trials=300_000, seed=5, stat="B6", advantage=1, disadvantage=1)
    c = simulate("arrata", trials=300_000, seed=6, stat="B6", advantage=1, disadvantage=1)
    assert a.pmf.to_dict() == b.pmf.to_dict()
    assert a.pmf.to_dict() != c.pmf.to_dict()


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")
def test_one_thread_and_two_threads_give_identical_counts():
    spec = workbench.system("unnamed").pool(d6=4, d8=2, bounce_on=6)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = sim.simulate_raw(spec, 5 * sim.BLOCK_SIZE + 123, seed=77)
        numba.set_num_threads(2)
        double = sim.simulate_raw(spec, 5 * sim.BLOCK_SIZE + 123, seed=77)
    finally:
        numba.set_num_threads(before)
    assert single.offset == double.offset
    np.testing.assert_array_equal(single.table, double.table)


def test_fresh_seed_is_reported_and_reproduces_the_run():
    first = simulate("uwr", trials=50_000, dice=3)
    assert isinstance(first.seed, int) and 0 <= first.seed < 2**63
    again = simulate("uwr", trials=50_000, seed=first.seed, dice=3)
    assert first.pmf.to_dict() == again.pmf.to_dict()


def test_result_carries_trials_and_standard_errors():
    result = simulate("uwr", trials=100_000, seed=1, dice=4, target=2)
    assert result.trials == 100_000 and result.lost_mass == 0.0
    assert result.p_pass_stderr == pytest.approx(np.sqrt(result.p_pass * (1 - result.p_pass) / 1e5))
    assert abs(sum(p for _, p in result.pmf.items()) - 1.0) < 1e-12


@pytest.mark.parametrize("trials", [0, -5, 1.5, "many", True, None, 10**10 + 1, 1e11])
def test_bad_trials_are_rejected_by_name(trials):
    with pytest.raises(WorkbenchError, match=r"trials'? got .*allowed: a whole number from 1"):
        simulate("uwr", trials=trials, dice=3)


@pytest.mark.parametrize("seed", [-1, 2**64, 1.0, "seven", True])
def test_bad_seeds_are_rejected_by_name(seed):
    with pytest.raises(WorkbenchError, match=r"seed'? got .*allowed"):
        simulate("uwr", trials=10, seed=seed, dice=3)


def test_whole_float_trials_are_accepted():
    assert simulate("uwr", trials=1e4, seed=1, dice=2).trials == 10_000


def test_parameter_errors_are_those_of_the_exact_engine():
    with pytest.raises(ParameterError, match="favor") as simulated:
        simulate("uwr", trials=10, seed=1, dice=3, favor="lots")
    with pytest.raises(ParameterError) as exact:
        workbench.check("uwr", dice=3, favor="lots")
    assert str(simulated.value) == str(exact.value)
    with pytest.raises(WorkbenchError, match="unknown|no-such"):
        simulate("no-such-system", trials=10)


def test_a_narrow_histogram_grows_instead_of_dropping_trials(monkeypatch):
    """Long explosion chains beyond the first range are rebinned, with identical counts."""
    chain = DieType("d6", (0, 1, 1, 1, 1, 1), (False, True, True, True, True, True))
    spec = PoolSpec(((chain, 3),))
    wide = sim.simulate_raw(spec, 200_000, seed=3)
    monkeypatch.setattr(sim, "_histogram_range", lambda spec: (0, 2))
    narrow = sim.simulate_raw(spec, 200_000, seed=3)
    assert narrow.offset == wide.offset
    np.testing.assert_array_equal(narrow.table, wide.table)
    assert narrow.totals.max() > 40  # chains of 5/6 per roll run far past the first range


def test_floor_and_modifier_and_keep_lowest():
    d6 = DieType.threshold("d6", 6, 4, fail_to=2)
    floored = sim.simulate_raw(PoolSpec(((d6, 2),), modifier=-1, floor=0), 100_000, seed=2)
    assert floored.totals.min() == 0 and floored.totals.max() == 1
    assert floored.pmf[1] == pytest.approx(0.25, abs=0.01)  # both dice 4+
    plain = DieType("d6", (0, 1, 2, 3, 4, 5))
    lowest = sim.simulate_raw(PoolSpec(((plain, 3),), keep="lowest"), 100_000, seed=2)
    assert lowest.pmf[-1] == pytest.approx(1 / 216, abs=0.002)


def test_empty_pool_simulates_the_modifier_only():
    raw = sim.simulate_raw(workbench.system("unnamed").pool(free_successes=2), 1000, seed=1)
    assert raw.offset == 2 and raw.table.tolist() == [[1.0], [0.0]]


def test_progress_bar_runs_and_closes(capsys):
    simulate("uwr", trials=3 * sim.BLOCK_SIZE * sim.CHUNK_BLOCKS, seed=1, progress=True, dice=1)
    assert "simulating" in capsys.readouterr().err


def test_keyboard_interrupt_closes_the_bar_and_propagates(monkeypatch):
    import workbench.engine._kernels.chunks as chunk_kernels
    import workbench.engine._kernels.fast as fast_kernels
    import workbench.engine._kernels.pool as kernels

    def interrupted(*args):
        raise KeyboardInterrupt

    closed = []
    monkeypatch.setattr(kernels, "histogram_blocks", interrupted)
    monkeypatch.setattr(fast_kernels, "sum_histogram_blocks", interrupted)
    monkeypatch.setattr(chunk_kernels, "chunk_histogram_blocks", interrupted)
    real_bar = sim._progress_bar

    def tracked(enabled, trials):
        bar = real_bar(enabled, trials)
        original_close = bar.close
        bar.close = lambda: (closed.append(True), original_close())
        return bar
    monkeypatch.setattr(sim, "_progress_bar", tracked)
    with pytest.raises(KeyboardInterrupt):
        simulate("uwr", trials=1000, seed=1, progress=True, dice=2)
    assert closed == [True]


def test_import_workbench_does_not_load_numba():
    done = run_python("import sys, workbench, workbench.engine.simulation; print('numba' in sys.modules)")
    assert done.stdout.strip() == "False", done.stderr


def test_cli_pmf_simulate_json():
    done = subprocess.run([sys.executable, "-m", "workbench", "pmf", "unnamed", "d6=3", "--simulate",
                           "--trials", "100000", "--seed", "11", "--format", "json"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["method"] == "simulate" and data["trials"] == 100_000 and data["seed"] == 11
    assert set(data["stderr"]) == set(data["pmf"])
    again = simulate("unnamed", trials=100_000, seed=11, d6=3)
    assert data["pmf"] == again.pmf.to_dict()


def test_cli_rejects_bad_trials():
    done = subprocess.run([sys.executable, "-m", "workbench", "pmf", "uwr", "dice=3", "--simulate",
                           "--trials", "0"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "trials" in done.stderr


def test_kernels_run_as_plain_python_and_match_the_compiled_ones():
    """NUMBA_DISABLE_JIT=1 runs the same code as Python (coverage); same seed, same counts."""
    code = ("import workbench, workbench.engine.simulation as s\n"
            "spec = workbench.system('unnamed').pool(d6=2, d8=1, bounce_on=6, fail_on=2)\n"
            "raw = s.simulate_raw(spec, 3000, seed=8)\n"
            "keep = workbench.system('erzahlspiel').pool(dice='d6', advantage=2)\n"
            "kept = s.simulate_raw(keep, 500, seed=8)\n"
            "reroll = workbench.system('uwr').pool(dice=3, rerolls=2)\n"
            "rr = s.simulate_raw(reroll, 500, seed=8)\n"
            "fast = s.simulate_raw(workbench.system('arrata').pool(stat='B3', advantage=1, disadvantage=1), 3000, seed=8)\n"
            "chunked = s.simulate_raw(workbench.system('unnamed').pool(d6=12, free_successes=1), 3000, seed=8)\n"
            "print([raw.offset, raw.table.tolist(), kept.offset, kept.table.tolist(), rr.table.tolist(),\n"
            "       fast.offset, fast.table.tolist(), chunked.offset, chunked.table.tolist()])")
    plain = run_python(code, NUMBA_DISABLE_JIT="1")
    compiled = run_python(code)
    assert plain.returncode == 0, plain.stderr
    assert compiled.returncode == 0, compiled.stderr
    assert plain.stdout == compiled.stdout


BYTE_PATH_POOLS = [
    ("arrata", dict(stat="B30", advantage=1, disadvantage=1)),
    ("arrata", dict(stat="B3", advantage=1, disadvantage=1)),  # floor 0 below dice sums
    ("arrata", dict(stat="A4", advantage=1, allow_negative=True)),
    ("unnamed", dict(d6=3, bounce_on=6)),
    ("fons-exploding", dict(dice=9)),
]


@pytest.mark.parametrize("system, params", BYTE_PATH_POOLS)
def test_byte_path_rolls_the_same_dice_as_the_general_kernel(monkeypatch, system, params):
    """The byte-table kernel (exploding dice) reads the same bytes as draw_face: identical
    counts per seed."""
    import workbench.engine._kernels.pool as kernels

    spec = workbench.system(system).pool(**params)
    kernel, _, _ = sim._kernel(spec)
    assert kernel.__name__ == "sum_histogram_blocks"
    trials = 2 * sim.BLOCK_SIZE + 777
    fast = sim.simulate_raw(spec, trials, seed=31)
    monkeypatch.setattr(sim, "_kernel", lambda spec: (kernels.histogram_blocks, sim.pack(spec), spec))
    general = sim.simulate_raw(spec, trials, seed=31)
    assert fast.offset == general.offset
    np.testing.assert_array_equal(fast.table, general.table)


CHUNK_PATH_POOLS = [
    ("uwr", dict(dice=10)),            # two draws of five d6
    ("uwr", dict(dice=1)),
    ("uwr", dict(dice=12)),            # 5 + 5 + a draw of 2
    ("unnamed", dict(d6=3, free_successes=2)),  # modifier
    ("d10-pool", dict(dice=7)),        # 4 + 3
]


def _reference_histogram(spec: PoolSpec, seed: int, trials: int) -> dict:
    """{(disaster, total): checks} of the chunk path's dice rolled one at a time (block 0)."""
    from _chunk_reference import reference_counts

    die, count = spec.groups[0]
    counts: dict = {}
    for (disaster, total), checks in reference_counts(seed, 0, trials, die.values, count).items():
        total += spec.modifier
        if spec.floor is not None:
            total = max(total, spec.floor)
        counts[disaster, total] = counts.get((disaster, total), 0) + checks
    return counts


@pytest.mark.parametrize("system, params", CHUNK_PATH_POOLS)
def test_chunk_path_rolls_the_reference_dice(system, params):
    """The chunk kernel against the same draws decoded one die at a time in plain Python:
    identical counts per seed, Disaster flag included."""
    spec = sim.sum_form(workbench.system(system).pool(**params))
    assert sim._kernel(spec)[0].__name__ == "chunk_histogram_blocks"
    trials = 4000
    raw = sim.simulate_raw(spec, trials, seed=31)
    counts = np.rint(raw.table * trials).astype(int)
    seen = {(row, raw.offset + column): int(counts[row, column])
            for row, column in zip(*np.nonzero(counts))}
    assert seen == _reference_histogram(spec, 31, trials)


@pytest.mark.parametrize("faces, count", [
    ((-1, 0, 0, 1, 1, 2), 11),          # cancelling faces, 5 + 5 + 1
    (tuple(range(-3, 17)), 7),          # d20 with negatives, 3 + 3 + 1
    ((0, 1), 40),                       # a coin: 13 dice a draw
    ((2,), 5),                          # one face
    (tuple(range(150)), 3),             # one die a draw
    (tuple(range(100)), 5),             # 2 + 2 + 1
])
def test_chunk_kernel_matches_the_reference_on_any_faces(faces, count):
    from _chunk_reference import reference_counts
    from workbench.engine._kernels.chunks import chunk_block, chunk_tables

    full, draws, rest = chunk_tables(faces, [False] * len(faces), count)
    low = count * min(faces)
    hist = np.zeros((2, count * (max(faces) - min(faces)) + 1), dtype=np.int64)
    extremes = np.zeros(3, dtype=np.int64)
    chunk_block(np.uint64(77), 3, 2000, full, draws, rest, low, hist, extremes)
    assert extremes[0] == 0
    seen = {(row, low + column): int(hist[row, column]) for row, column in zip(*np.nonzero(hist))}
    assert seen == reference_counts(77, 3, 2000, faces, count)


def test_the_chunk_reference_generators_give_the_published_outputs():
    """The reference's SplitMix64 and xoshiro256** (written from their papers, not from the
    engine) against the outputs their authors' code gives: SplitMix64 from 1234567, and
    xoshiro256** from the state words 1, 2, 3, 4."""
    from _chunk_reference import splitmix64, xoshiro256ss

    words = splitmix64(1234567)
    assert [next(words) for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431,
        16408922859458223821]
    words = xoshiro256ss([1, 2, 3, 4])
    assert [next(words) for _ in range(6)] == [
        11520, 0, 1509978240, 1215971899390074240, 1216172134540287360, 607988272756665600]


def test_chunk_tables_hold_every_roll_once():
    """A chunk table is an enumeration: its totals are the exact convolution of the dice."""
    from workbench.engine._kernels.chunks import chunk_tables
    from workbench.engine._kernels.fast import VALUE_SHIFT

    faces = (0, 0, 1, 1, 1, 2, 3)
    full, draws, rest = chunk_tables(faces, [False] * len(faces), 6)
    assert (len(full), draws, len(rest)) == (7 ** 4, 1, 7 ** 2)
    one = np.bincount(faces)
    four = one
    for _ in range(3):
        four = np.convolve(four, one)
    np.testing.assert_array_equal(np.bincount(full >> VALUE_SHIFT), four)


def test_chunk_path_agrees_with_exact():
    """Chi-square of 10d6 and 12 cancelling dice (Disaster included) against the exact pmf."""
    from test_simulate_agreement import chi_square_p

    for system, params in [("uwr", dict(dice=10)), ("unnamed", dict(d6=6, d8=0, fail_on=1))]:
        spec = workbench.system(system).pool(**params)
        result = simulate(system, trials=1_000_000, seed=5, **params)
        exact = workbench.check(system, **params)
        assert chi_square_p(dict(result.pmf.items()), dict(exact.pmf.items()), 1_000_000) > 1e-9, system
        assert sim._kernel(spec)[0].__name__ == "chunk_histogram_blocks"


def test_floor_and_modifier_are_applied_to_the_fast_paths_histogram():
    from workbench.engine.exact import exact_raw

    d6 = DieType.threshold("d6", 6, 4, fail_to=2)
    for modifier, floor in [(-1, 0), (3, 4), (-5, -1), (0, 9)]:
        raw = sim.simulate_raw(PoolSpec(((d6, 2),), modifier=modifier, floor=floor), 50_000, seed=2)
        exact = exact_raw(PoolSpec(((d6, 2),), modifier=modifier, floor=floor))
        assert raw.offset == exact.offset and raw.table.shape == exact.table.shape
        np.testing.assert_allclose(raw.table, exact.table, atol=0.01)


def test_pools_outside_the_fast_path_use_the_general_kernel():
    d6 = DieType.threshold("d6", 6, 5)
    failing_explosion = DieType("odd", (-1, 0, 1), (True, False, False))
    for spec in [PoolSpec(((d6, 3),), rerolls=1), PoolSpec(((d6, 2), (DieType.threshold("d8", 8, 5), 1))),
                 PoolSpec(((DieType("d", (0, 1, 2)), 3),), keep="highest"),
                 PoolSpec(((failing_explosion, 2),))]:
        assert sim._kernel(spec)[0].__name__ == "histogram_blocks"


def _random_plain_pools(count: int, seed: int):
    """Plain pools the chunk path takes: random faces (negatives, repeats, 1-30 sides),
    1-60 dice, a modifier and sometimes a floor."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        sides = int(rng.integers(1, 31))
        faces = tuple(int(v) for v in rng.integers(-2, 4, size=sides))
        spec = PoolSpec(((DieType("d", faces), int(rng.integers(1, 61))),),
                        modifier=int(rng.integers(-3, 4)),
                        floor=int(rng.integers(-2, 3)) if rng.random() < 0.4 else None)
        yield spec


@pytest.mark.parametrize("spec", list(_random_plain_pools(24, seed=2026)), ids=lambda s: repr(
    (s.groups[0][0].values, s.groups[0][1], s.modifier, s.floor))[:60])
def test_chunk_path_agrees_with_exact_on_random_pools(spec):
    """200,000 checks through the chunk path against the exact table, both rows (Disaster
    and not), by chi-square; and the same range of totals where the exact one is narrow."""
    from test_simulate_agreement import chi_square_p
    from workbench.engine.exact import exact_raw

    assert sim._kernel(spec)[0].__name__ == "chunk_histogram_blocks"
    trials = 200_000
    raw = sim.simulate_raw(spec, trials, seed=17)
    exact = exact_raw(spec)

    def cells(dist):
        return {(row, dist.offset + column): float(dist.table[row, column])
                for row in range(dist.table.shape[0]) for column in range(dist.table.shape[1])
                if dist.table[row, column] > 0}
    assert chi_square_p(cells(raw), cells(exact), trials) > 1e-9
    if exact.table.shape[1] <= 3:
        assert raw.offset == exact.offset


def test_p_pass_is_a_share_of_the_trials_and_never_past_one():
    # A simulated P(pass) is passes / trials: every trial of 56 dice needing 2 successes
    # passes, and summing the table's floats once gave 1.0000000000000002 (CSV and Python);
    # an exact long tail summed to 1.00000000000006 (JSON).
    trials = 2_000_000
    for dice in (47, 56, 154, 192):
        result = simulate("uwr", dice=dice, target=2, trials=trials, seed=1)
        assert result.p_pass == 1.0 and result.p_pass_stderr == 0.0
    some = simulate("uwr", dice=4, target=2, trials=trials, seed=1)
    assert some.p_pass * trials == round(some.p_pass * trials)          # a whole count
    assert abs(some.p_pass - some.pmf.at_least(2)) < 1e-12
    for dice in (78, 99, 106, 154):
        assert 0.0 <= workbench.check("uwr", dice=dice, target=1).p_pass <= 1.0
