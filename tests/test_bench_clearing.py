"""The published-games benchmark times a check with every workbench cache cleared: its
clearing must reach every memo a check fills (the engine's, the rules', the results', each
system's and mechanic's), or a "cold" figure would be a warm one. Also: what a data file's
mechanic builds once when it loads (the tiers that always apply) is what each check would
gather."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import workbench
from workbench.limits import BoundedCache
from workbench.rules.mechanics.base import TierRule

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_published.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_published_under_test", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def module_memos():
    """Every memo held at module level in the layers a check runs through."""
    for name, module in list(sys.modules.items()):
        if not name.startswith(("workbench.engine", "workbench.rules", "workbench.results")):
            continue
        if name in ("workbench.rules.registry", "workbench.rules.notation"):   # the files loaded
            continue
        for attribute, value in list(vars(module).items()):
            if isinstance(value, BoundedCache):
                yield f"{name}.{attribute}", lambda value=value: len(value)
            elif callable(getattr(value, "cache_info", None)) and getattr(value, "__module__", "").startswith(name):
                yield f"{name}.{attribute}", lambda value=value: value.cache_info().currsize


@pytest.mark.parametrize("system, params", [
    ("ironsworn", {"stat": 2}),
    ("cortex-prime", {"d4": 1, "d6": 2, "d8": 2, "d10": 2, "d12": 1}),
    ("owod", {"dice": 12}),
    ("blades", {"dice": 3}),   # a pool of one parameter's dice
])
def test_the_benchmark_clears_every_memo_a_check_fills(bench, system, params):
    workbench.check(system, **params)
    filled = [name for name, size in module_memos() if size()]
    assert filled   # a check fills some: the test reads the right places
    bench.clear_every_cache()
    left = [name for name, size in module_memos() if size()]
    assert left == []
    sys_ = workbench.system(system)
    for owner in (sys_, sys_.mechanic):
        for name, value in vars(owner).items():
            if isinstance(value, BoundedCache):
                assert not value, f"{type(owner).__name__}.{name}"


def test_tiers_that_always_apply_are_the_file_tiers_each_check_would_gather():
    seen = 0
    for sys_ in workbench.systems():
        reading = getattr(sys_.mechanic, "reading", None)
        if reading is None or not hasattr(reading, "fixed_tiers"):
            continue
        model, plan = reading.model, reading.plan
        gathered = tuple(TierRule.of(t) for t in model.tiers if plan.holds(t.when, sys_.resolve()))
        if reading.fixed_tiers is None:
            assert any(t.when for t in model.tiers)
            continue
        seen += 1
        assert reading.fixed_tiers == gathered and sys_.mechanic.tier_rules(sys_.resolve()) is reading.fixed_tiers
    assert seen >= 20
