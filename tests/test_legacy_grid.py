"""The data-defined systems give the answers the built-in mechanic classes gave.

``tests/data/legacy_grid.json.gz`` holds the exact results of the retired Python mechanics
(success_pool, bounce_pool, open_ended, narrative) over a grid of every parameter and rule
option, recorded by ``tests/data/make_legacy_grid.py`` before they were replaced. Every
probability must agree to 1e-12.
"""
import gzip
import json
from pathlib import Path

import numpy as np
import pytest

import workbench as wb

GRID = json.loads(gzip.decompress((Path(__file__).parent / "data" / "legacy_grid.json.gz").read_bytes()))
TOL = 1e-12


def as_dict(dist):
    if isinstance(dist[0], int):
        return {dist[0] + i: p for i, p in enumerate(dist[1])}
    return dict(zip(dist[0], dist[1]))


def assert_close(got: dict, want: dict, what):
    for key in set(got) | set(want):
        assert abs(got.get(key, 0.0) - want.get(key, 0.0)) <= TOL, (what, key, got.get(key), want.get(key))


def _chunks(items, size):
    return [items[i:i + size] for i in range(0, len(items), size)]


@pytest.mark.parametrize("chunk", _chunks(GRID["checks"], 500), ids=lambda c: f"{c[0]['s']}...")
def test_checks_match_the_retired_mechanics(chunk):
    for case in chunk:
        res = wb.check(case["s"], **case["p"])
        where = (case["s"], case["p"])
        assert_close(dict(res.pmf.items()), as_dict(case["pmf"]), where)
        if "tiers" in case:
            assert res.tiers is not None, where
            assert np.allclose(res.tiers.probabilities, case["tiers"], rtol=0, atol=TOL), where
        if "pass" in case:
            assert res.p_pass is not None and abs(res.p_pass - case["pass"]) <= TOL, where
        else:
            assert res.p_pass is None, where


def test_versus_matches_the_retired_mechanics():
    for case in GRID["versus"]:
        if case["s"].startswith("fons") and not case["r"].get("dice"):
            # An uncontested FoNS check now always passes (the seed's rule; test_rule_readings.py).
            continue
        res = wb.versus(case["s"], case["a"], case["r"])
        where = (case["s"], case["a"], case["r"])
        assert res.ties_to == case["ties"], where
        assert abs(res.p_actor - case["p_actor"]) <= TOL, where
        assert_close(dict(res.margin.items()), as_dict(case["margin"]), where)
