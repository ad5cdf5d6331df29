"""Random one-line formulas (seeded) against a brute force of the tests' own
(``tests/_attack_formula_brute.py``): every answer's total, statistics and pass chance equal
the brute force's, and every refusal is one line for a reason docs/one-liners.rst gives."""
from __future__ import annotations

from collections import Counter, defaultdict

import pytest

import workbench as wb

try:
    from tests import _attack_formula_brute as brute
except ImportError:  # run from inside tests/
    import _attack_formula_brute as brute

SEEDS = range(6)
PER_SEED = 80


def joint(f):
    """{(total, *statistics): probability} of formula ``f`` by the brute force, and the mass
    it left out."""
    settings, terms, stats = f["settings"], f["terms"], f.get("stats", [])
    if stats:   # one dice term: its value and each statistic's
        d, lost = brute.dice_term_dist(terms[0][1], settings, stats)
        return {(terms[0][0] * k[0],) + k[1:]: p for k, p in d.items()}, lost
    d, lost = brute.sum_dist(terms, settings)
    return {(k,): p for k, p in d.items()}, lost


def assert_close(got, want, tolerance, what):
    for outcome in set(got) | set(want):
        assert abs(got.get(outcome, 0.0) - want.get(outcome, 0.0)) <= tolerance, (what, outcome)


def check_formula(f) -> str:
    """``"answered"`` (as the brute force) or ``"refused"`` (in one line, as the docs say);
    an ``AssertionError`` otherwise."""
    text, why = brute.text_formula(f), brute.refusal(f)
    try:
        result = wb.check(text, **f["settings"])
    except wb.WorkbenchError as exc:
        assert "\n" not in str(exc).strip(), text
        if why is None:   # limits of the exact engine are the only other refusals
            assert "more than" in str(exc) or "allowed: 0 to" in str(exc) or "got -" in str(exc), (text, str(exc))
        return "refused"
    assert why is None, (text, why)
    want, lost = joint(f)
    tolerance = 1e-9 + lost + result.lost_mass
    totals = defaultdict(float)
    for key, p in want.items():
        totals[key[0]] += p
    assert_close({int(k): p for k, p in result.pmf.to_dict().items()}, totals, tolerance, text)
    for i, (name, _) in enumerate(f.get("stats", [])):
        column = defaultdict(float)
        for key, p in want.items():
            column[key[1 + i]] += p
        assert_close({int(k): p for k, p in result.stats[name].to_dict().items()}, column,
                     tolerance, (text, name))
    target = f.get("pass")
    if target is not None and target[0] == "cond":   # over the total and the statistics
        names = ["total"] + [name for name, _ in f["stats"]]
        chance = sum(p for key, p in want.items() if eval(target[1], {}, dict(zip(names, key))))
        assert result.p_pass == pytest.approx(chance, abs=tolerance), text
    elif target is not None:
        op, value = target[0], brute.value_of(target[1], f["settings"])
        chance = sum(p for o, p in totals.items() if brute.OPS[op](o, value))
        assert result.p_pass == pytest.approx(chance, abs=tolerance), text
    return "answered"


@pytest.mark.parametrize("seed", SEEDS)
def test_random_formulas_answer_as_the_brute_force_or_are_refused_as_the_docs_say(seed):
    generator = brute.Generator(1000 + seed)
    done = Counter(check_formula(generator.formula()) for _ in range(PER_SEED))
    assert done["answered"] >= PER_SEED // 3   # most formulas are answered, not refused
