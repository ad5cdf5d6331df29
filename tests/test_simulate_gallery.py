"""Every system, simulated by rolling its dice, agrees with the exact engine: at its default
and at two other settings, ``workbench.simulate`` (fixed seed) against ``workbench.check``;
the same for every example file of data/README.md (pushes and rolls made again among them).

Per case: a chi-square test over every combination of statistics (the joint), over each
statistic's own distribution and over the tiers (cells expecting fewer than 5 pooled; p below
1e-9 fails), and P(pass) within 5 standard errors. The rolls with statistics are rolled die by
die (``workbench.engine.roll_simulation``), independently of the exact engine; the sums
(``PoolSpec``) by the pool kernels. Over the ~150 cases and ~1000 tests a correct simulator
fails a run with probability below 1e-3, mostly from the P(pass) tests.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from _stats import chisquare_pvalue

import workbench as wb
from workbench.rules.roll import RollSpec

TRIALS = 1_000_000
SEED = 20250611
P_MIN = 1e-9
Z_MAX = 5.0


def other_settings(system) -> list[dict]:
    """Two settings besides the default: each whole-number parameter a third and two thirds
    of the way from its default towards its maximum (at most 6 more; one less where the
    default is the maximum), each true/false flipped in the first, each choice the next one
    and the one after; optional parameters left out."""
    settings = []
    for step in (1, 2):
        setting = {}
        for name, param in system.params.items():
            if param.default is None:   # optional: left out, as by default
                continue
            if param.kind == "int" and param.maximum is not None and param.default is not None:
                room = min(param.maximum - param.default, 6)
                setting[name] = (param.default + -(-room * step // 3) if room > 0
                                 else max(param.minimum, param.default - step))
            elif param.kind == "bool":
                setting[name] = (step == 1) != bool(param.default)
            elif param.choices:
                choices = list(param.choices)
                at = choices.index(param.default) if param.default in choices else 0
                setting[name] = choices[(at + step) % len(choices)]
        settings.append(setting)
    return settings


def _cases():
    cases = []
    for system in wb.systems():
        system = wb.system(getattr(system, "id", system))
        for setting in [{}, *other_settings(system)]:
            cases.append(pytest.param(system.id, setting, id=f"{system.id}-" + ",".join(
                f"{k}={v}" for k, v in setting.items())))
    return cases


CASES = _cases()


def chi_square_p(simulated: dict, exact: dict, trials: int) -> float:
    """p-value of simulated frequencies against exact probabilities; a combination the exact
    engine calls impossible (or cut off below 1e-15) lands with the rare ones, which fail the
    test when they are seen far more often than expected."""
    cells = list(dict.fromkeys([*exact, *simulated]))
    observed = np.rint(np.array([simulated.get(c, 0.0) for c in cells]) * trials)
    expected = np.array([exact.get(c, 0.0) for c in cells]) * trials
    common = expected >= 5
    obs, exp = list(observed[common]), list(expected[common])
    if (~common).any():
        obs.append(observed[~common].sum())
        exp.append(max(expected[~common].sum(), 1e-3))
    if len(obs) < 2:
        return 1.0
    return float(chisquare_pvalue(obs, exp))


def rows(joint) -> dict:
    return {tuple(int(v) for v in row): float(p) for row, p in zip(joint.values, joint.probabilities)}


def test_every_system_is_covered():
    ids = {case.values[0] for case in CASES}
    assert len(ids) == len(wb.systems()) >= 49 and len(CASES) == 3 * len(ids)
    rolled = [i for i in ids if isinstance(wb.system(i).mechanic.pool(wb.system(i).resolve()), RollSpec)]
    assert len(rolled) >= 38


@pytest.mark.parametrize("system, setting", CASES)
def test_simulation_agrees_with_the_exact_engine(system, setting):
    assert_agrees(system, setting)


README = Path(__file__).resolve().parents[1] / "data" / "README.md"
EXAMPLES = re.findall(r"```toml\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("number", range(len(EXAMPLES)))
def test_simulation_of_each_data_file_example_agrees_with_the_exact_engine(tmp_path, number):
    path = tmp_path / f"example{number}.toml"
    path.write_text(EXAMPLES[number], encoding="utf-8")
    system = wb.load_system(path)
    compared = 0
    for setting in [{}, *other_settings(system)]:
        try:
            exact = wb.check(system, **setting)
            exact.joint   # noqa: B018  (every statistic computed: some settings are past the limit)
        except wb.errors.ParameterError:   # settings of this file that do not go together
            continue
        except wb.errors.WorkbenchError as error:   # more exact work than allowed: no reference
            assert "steps of exact computing" in str(error) and setting, error
            continue
        assert_agrees(system, setting)
        compared += 1
    assert compared >= 1


def test_the_data_file_examples_roll_pushes_and_rolls_made_again():
    text = "\n".join(EXAMPLES)
    assert "if_roll = " in text and "again_if = " in text


def assert_agrees(system, setting: dict) -> None:
    exact = wb.check(system, **setting)
    simulated = wb.simulate(system, trials=TRIALS, seed=SEED, **setting)
    assert simulated.method == "simulate" and simulated.trials == TRIALS and simulated.seed == SEED
    problems = []
    if exact.joint is not None:
        assert simulated.joint.names == exact.joint.names
        p = chi_square_p(rows(simulated.joint), rows(exact.joint), TRIALS)
        if p <= P_MIN:
            problems.append(f"joint: chi-square p = {p:.3g}")
        for name in exact.stats:
            p = chi_square_p(dict(simulated.stats[name].items()), dict(exact.stats[name].items()), TRIALS)
            if p <= P_MIN:
                problems.append(f"{name}: chi-square p = {p:.3g}")
    p = chi_square_p(dict(simulated.pmf.items()), dict(exact.pmf.items()), TRIALS)
    if p <= P_MIN:
        problems.append(f"outcomes: chi-square p = {p:.3g}")
    if exact.tiers is not None:
        p = chi_square_p(dict(simulated.tiers.items()), dict(exact.tiers.items()), TRIALS)
        if p <= P_MIN:
            problems.append(f"tiers: chi-square p = {p:.3g}")
        for tier, share in exact.tiers.items():
            spread = math.sqrt(max(share * (1 - share), 1e-12) / TRIALS)
            if abs(simulated.tiers[tier] - share) > Z_MAX * spread + 1e-12:
                problems.append(f"tier {tier!r}: {simulated.tiers[tier]:.6f} against {share:.6f}")
    if exact.p_pass is not None:
        spread = math.sqrt(max(exact.p_pass * (1 - exact.p_pass), 1e-12) / TRIALS)
        if abs(simulated.p_pass - exact.p_pass) > Z_MAX * spread + 1e-12:
            problems.append(f"P(pass) {simulated.p_pass:.6f} against {exact.p_pass:.6f}")
    assert not problems, "; ".join(problems)
