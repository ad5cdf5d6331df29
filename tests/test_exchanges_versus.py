"""Rounds of opposed checks follow the same opposed check as :func:`workbench.versus`:
each side's extra Obstacle, the tie rule and FoNS's uncontested checks (seed 002)."""
import math

import pytest

from workbench import versus
from workbench.stateful import rounds_until_hits
from workbench.engine.sampling import rolling_dice

ARRATA_OBSTACLE = ("arrata", {"stat": "B4", "disadvantage_mode": "obstacle"},
                   {"stat": "B4", "disadvantage": 3})


def test_per_round_hit_chance_is_the_versus_chance():
    system, actor, reactor = ARRATA_OBSTACLE
    exact = rounds_until_hits(system, actor, reactor, hits=2)
    assert exact.params["p_hit"] == pytest.approx(versus(system, actor, reactor).p_actor, abs=1e-15)


@pytest.mark.parametrize("rolling", [False, True], ids=["tables", "rolled dice"])
def test_simulated_rounds_count_the_reactors_extra_obstacle(rolling):
    system, actor, reactor = ARRATA_OBSTACLE
    exact = rounds_until_hits(system, actor, reactor, hits=2)
    if rolling:
        with rolling_dice():
            sim = rounds_until_hits(system, actor, reactor, hits=2, method="simulate",
                                    trials=200_000, seed=3)
    else:
        sim = rounds_until_hits(system, actor, reactor, hits=2, method="simulate",
                                trials=200_000, seed=3)
    # Mean rounds: 5 standard errors (the reactor's two extra Ob move it by far more).
    assert abs(sim.mean - exact.mean) < 5 * sim.mean_stderr
    without = rounds_until_hits(system, actor, {"stat": "B4"}, hits=2)
    assert abs(without.mean - exact.mean) > 20 * sim.mean_stderr


def test_uncontested_fons_rounds_hit_every_round():
    exact = rounds_until_hits("fons", {"dice": 2}, {}, hits=3)
    sim = rounds_until_hits("fons", {"dice": 2}, {}, hits=3, method="simulate", trials=10_000, seed=1)
    assert exact.mean == 3 and sim.mean == 3
    assert math.isclose(exact.params["p_hit"], 1.0)
