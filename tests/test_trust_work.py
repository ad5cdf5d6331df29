"""Work is bounded before it starts, and comparisons and sweeps show the numbers of the
settings they name.

Each pool or sweep here used to spin for minutes or fill the memory; now it is refused in
well under a second with the limit and the environment variable that raises it, and what
stays within the limits is checked against an independent computation.
"""
from __future__ import annotations

import math
import textwrap

import pytest

import workbench as wb
from workbench import WorkbenchError
from workbench.analysis import side_by_side
from workbench.engine.exact import exact_raw
from workbench.engine.work import exact_work, rolled_per_check
from workbench.rules import DieType, PoolSpec
from workbench.sweep import sweep

from _brute import designed_roll, enumerate_rolls


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


ONES = ", ".join(["1"] * 1000)
FROM_TWO = ", ".join(str(f) for f in range(2, 1001))


@pytest.fixture
def monsters(tmp_path):
    """Files whose exact answer would take hours, each with the words its refusal names."""
    return {
        "wide faces": (write(tmp_path, "wide", """
            id = "wide"
            name = "Wide faces"
            mechanic = "pool"
            [dice.w]
            faces = [0, 1000000]
            [params.dice]
            default = 20
            min = 0
            max = 40
            effect = { add_dice = "w" }
            """), "different totals"),
        "d1000 exploding": (write(tmp_path, "boom", f"""
            id = "boom"
            name = "A d1000 exploding on 999 faces"
            mechanic = "pool"
            [dice.x]
            faces = [{ONES}]
            explode = [{FROM_TWO}]
            [params.dice]
            default = 1
            min = 0
            max = 10
            effect = {{ add_dice = "x" }}
            """), "WORKBENCH_MAX_EXACT_WORK"),
        "chain into": (write(tmp_path, "into", f"""
            id = "into"
            name = "Bounces into a die whose own cap counts only when rolled first"
            mechanic = "pool"
            [dice.a]
            faces = [0, 1, 1]
            explode = [2, 3]
            explode_into = "b"
            [dice.b]
            faces = [{ONES}]
            explode = [{FROM_TWO}]
            explode_limit = 1
            [params.dice]
            default = 30
            min = 0
            max = 100
            effect = {{ add_dice = "a" }}
            """), "WORKBENCH_MAX_EXACT_WORK"),
        "keep 150 of 200": (write(tmp_path, "keeps", f"""
            id = "keeps"
            name = "Keep most of many d1000s"
            mechanic = "pool"
            [dice.k]
            faces = [{", ".join(str(v) for v in range(1000))}]
            [params.dice]
            default = 150
            min = 0
            max = 300
            effect = {{ add_dice = "k" }}
            [params.edge]
            default = 50
            min = 0
            max = 100
            effect = {{ keep_highest = "k" }}
            """), "keeping 150 of 200"),
    }


@pytest.mark.parametrize("case", ["wide faces", "d1000 exploding", "chain into", "keep 150 of 200"])
def test_exact_work_is_refused_before_it_starts(monsters, one_line_error, case):
    path, words = monsters[case]
    with pytest.raises(WorkbenchError, match=words):
        wb.check(path)
    one_line_error("pmf", path, contains=(words,))


def test_the_exact_work_limit_can_be_raised(monkeypatch):
    pool = PoolSpec(((DieType.threshold("d6", 6, 5, explode_from=6), 12),))
    steps = exact_work(pool).steps
    monkeypatch.setenv("WORKBENCH_MAX_EXACT_WORK", str(int(steps // 2)))
    exact_raw.cache_clear()
    with pytest.raises(WorkbenchError, match="WORKBENCH_MAX_EXACT_WORK"):
        exact_raw(pool)
    monkeypatch.setenv("WORKBENCH_MAX_EXACT_WORK", str(int(steps * 2)))
    raw = exact_raw(pool)
    assert raw.pmf.sum() + raw.lost_mass == pytest.approx(1.0)


def test_pools_within_the_limits_still_match_the_brute_force():
    d6 = {"faces": [-1, 0, 0, 0, 1, 2], "explode": {6}, "limit": 2, "into": "d4"}
    d4 = {"faces": [0, 1, 1, 1], "explode": {4}}
    die4 = DieType("d4", (0, 1, 1, 1), (False, False, False, True))
    die6 = DieType("d6", (-1, 0, 0, 0, 1, 2), (False,) * 5 + (True,), limit=2, into=die4)
    truth, unexplored = enumerate_rolls(designed_roll({"d6": d6, "d4": d4}, {"d6": 3}), max_faces=9)
    assert unexplored == 0
    raw = exact_raw(PoolSpec(((die6, 3),)))
    totals: dict = {}
    for (total, _), p in truth.items():
        totals[total] = totals.get(total, 0.0) + p
    assert dict(zip(raw.totals.tolist(), raw.pmf)) == pytest.approx(totals)


def test_simulation_counts_chains_through_explode_into():
    # a: 2 of 3 faces bounce into b; b rolls again on 3 of 4 faces (no cap: b was not first).
    b = DieType("b", (0, 1, 1, 1), (False, True, True, True))
    a = DieType("a", (0, 1, 1), (False, True, True), into=b)
    expected = 1 + (2 / 3) * (1 / (1 - 3 / 4))   # the initial die, then b's geometric chain
    assert rolled_per_check(PoolSpec(((a, 10),))) == pytest.approx(10 * expected, rel=1e-6)
    with pytest.raises(WorkbenchError, match="rolled dice.*WORKBENCH_MAX_ROLLED_DICE"):
        wb.simulate(wb.register_mechanic("chained", lambda p: PoolSpec(((a, p["dice"]),)),
                                         params={"dice": {"default": 1000, "min": 0, "max": 1000}},
                                         replace=True), trials=10**10, seed=1)
    wb.unregister_mechanic("chained")


def test_simulated_totals_too_spread_out_are_refused(monsters):
    path, _ = monsters["wide faces"]
    with pytest.raises(WorkbenchError, match="simulate: these dice spread over up to 20,000,001 different totals, more than the 10,000,000"):
        wb.simulate(path, trials=1000, seed=1)


# -- sweeps: bounded before the first point ------------------------------------------------

def test_a_billion_point_grid_is_refused_without_listing_it(one_line_error):
    with pytest.raises(WorkbenchError, match=r"1e9 points.*WORKBENCH_MAX_SWEEP_POINTS"):
        sweep("check", {"dice": range(10**9)}, system="uwr")
    with pytest.raises(WorkbenchError, match=r"1e9 points"):
        sweep("check", {"dice": range(1000), "favor": range(1000), "target": range(1000)}, system="uwr")
    with pytest.raises(WorkbenchError, match=r"points"):
        sweep("check", {"dice": (n for n in range(10**12))}, system="uwr")
    one_line_error("sweep", "check", "system=uwr", "--grid", "dice=1-99999 target=1-99999",
                   contains=("1e10 points", "WORKBENCH_MAX_SWEEP_POINTS"))


def test_simulated_sweeps_add_up_their_trials():
    with pytest.raises(WorkbenchError, match=r"sweep simulate \(4,851 points\).*simulated checks"):
        sweep("simulate", {"dice": range(1, 100), "target": range(1, 50)}, system="uwr", trials=10**7)
    with pytest.raises(WorkbenchError, match=r"sweep drama_campaign.*simulated checks"):
        sweep("drama_campaign", {"players": range(2, 7), "tier": range(0, 4)},
              session=[{"d6": 3}], trials=10**9, seed=1)
    # Exact points of a function that can simulate cost no trials.
    frame = sweep("clock", {"segments": [4, 6]}, trials=10**10, seed=1)
    assert frame["mean"].notna().all()


# -- sweeps of opposed checks use every setting -------------------------------------------

def test_versus_sweep_over_one_side_matches_versus(capsys):
    frame = sweep("versus", {"actor.favor": [0, 1, 2], "reactor.dice": [2, 3]}, system="uwr",
                  actor={"dice": 4})
    for favor, dice, p_actor in frame[["actor.favor", "reactor.dice", "p_actor"]].values.tolist():
        direct = wb.versus("uwr", {"dice": 4, "favor": int(favor)}, {"dice": int(dice)}).p_actor
        assert p_actor == pytest.approx(direct)
    assert frame["p_actor"].nunique() == 6
    # Independent: favor 2 makes 3+ succeed; ties go to the reactor.
    favor2 = frame[(frame["actor.favor"] == 2) & (frame["reactor.dice"] == 2)]["p_actor"].item()
    actor = [math.comb(4, k) * (2 / 3) ** k * (1 / 3) ** (4 - k) for k in range(5)]
    reactor = [math.comb(2, k) * (1 / 3) ** k * (2 / 3) ** (2 - k) for k in range(3)]
    assert favor2 == pytest.approx(sum(pa * pr for a, pa in enumerate(actor)
                                       for r, pr in enumerate(reactor) if a > r))


def test_versus_sweep_refuses_a_setting_of_no_side(one_line_error):
    with pytest.raises(WorkbenchError, match="'favor' belongs to no side; allowed: actor.favor"):
        sweep("versus", {"favor": [0, 2]}, system="uwr", actor={"dice": 4}, reactor={"dice": 3})
    one_line_error("sweep", "versus", "system=uwr", 'actor={"dice": 4}', 'reactor={"dice": 3}',
                   "--grid", "favor=0-2", contains=("actor.favor",))


def test_versus_sweep_over_a_rule_option():
    frame = sweep("versus", {"attack_resolution": ["opposed", "defender_sets_target"]}, system="fons",
                  actor={"dice": 4}, reactor={"dice": 3})
    for option, p_actor in frame[["attack_resolution", "p_actor"]].values.tolist():
        assert p_actor == pytest.approx(
            wb.versus("fons", {"dice": 4, "attack_resolution": option}, {"dice": 3}).p_actor)
    assert frame["ties_to"].tolist() == ["reactor", "actor"]


# -- side by side: one column per setting ----------------------------------------------------

def test_side_by_side_of_one_system_at_two_settings():
    table = side_by_side([("uwr", {"favor": 0}), ("uwr", {"favor": 1})], [4])
    assert table[("uwr favor=0", "Normal")].item() == pytest.approx(1 - (4 / 6) ** 4)
    assert table[("uwr favor=1", "Normal")].item() == pytest.approx(1 - (3 / 6) ** 4)
    same = side_by_side(["uwr", "uwr"], [2])
    assert list(dict.fromkeys(same.columns.get_level_values(0))) == ["uwr", "uwr #2"]
    with pytest.raises(WorkbenchError, match="two entries are labelled 'A'"):
        side_by_side([("A", "uwr", {"favor": 0}), ("A", "uwr", {"favor": 1})], [4])
