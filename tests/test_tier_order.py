"""Tiers are listed worst to best wherever they are shown (results, tables, charts coloured red
to blue), whatever order a file tries them in: Blades tries its critical first, Call of
Cthulhu its critical and fumble first, and their charts drew the critical as the worst tier.
``tier_order`` in a data file says the ranking; each name once."""
from __future__ import annotations

import re
from fractions import Fraction

import pytest

import workbench as wb
from workbench.figures.knobs import knob_figure

from conftest import pool_toml


BAD = re.compile(r"fail|fumble|botch|miss\b|bad|disaster|bestial|glitch|intrusion", re.I)
GOOD = re.compile(r"success|win\b|hit\b|crit\b|critical$|raise|triumph|fantastic|effect|succeed",
                  re.I)


def _kind(name: str) -> str | None:
    if name.lower().startswith("no "):      # "No glitch": the good end of a glitch scale
        return "good"
    if BAD.search(name):
        return "bad"
    return "good" if GOOD.search(name) else None


TIERED = [s.id for s in wb.systems() if wb.check(s).tiers is not None]


def test_many_systems_have_tiers():
    assert len(TIERED) >= 25


@pytest.mark.parametrize("system", TIERED)
def test_every_failing_tier_is_listed_below_every_succeeding_one(system):
    names = list(wb.check(system).tiers.outcomes)
    bad = [i for i, n in enumerate(names) if _kind(n) == "bad"]
    good = [i for i, n in enumerate(names) if _kind(n) == "good"]
    if bad and good:
        assert max(bad) < min(good), names


def test_blades_tiers_worst_first_with_the_shares_of_every_roll():
    tiers = wb.check("blades", dice=2).tiers
    assert tiers.outcomes == ("Bad outcome", "Partial success", "Full success", "Critical")
    # brute force over the 36 rolls of 2d6: the highest die, two sixes a critical
    counts = {name: 0 for name in tiers.outcomes}
    for a in range(1, 7):
        for b in range(1, 7):
            top = max(a, b)
            name = ("Critical" if a == b == 6 else "Full success" if top == 6
                    else "Partial success" if top >= 4 else "Bad outcome")
            counts[name] += 1
    for name, count in counts.items():
        assert tiers[name] == pytest.approx(float(Fraction(count, 36)), abs=1e-12), name


def test_charts_stack_the_worst_tier_at_the_bottom():
    assert [t.name for t in knob_figure("blades").data] == [
        "Bad outcome", "Partial success", "Full success", "Critical"]
    cthulhu = [t.name for t in knob_figure("call-of-cthulhu-7e").data]
    assert cthulhu[0] == "Fumble" and cthulhu[-1] == "Critical"


TIERS = '''
[[tiers]]
name = "High"
condition = "total >= 10"

[[tiers]]
name = "Low"
'''


def ranked(order: str) -> str:
    """2d6 summed, tiers High (10 or more) and Low, ``order`` among the file's keys."""
    return pool_toml("ranked", top=order, die="faces = [1, 2, 3, 4, 5, 6]", most=6, more=TIERS)


@pytest.mark.parametrize("order, said", [
    ('tier_order = ["Low", "High", "Low"]', "'Low' is named twice"),
    ('tier_order = ["Low", "Hihg"]', "'Hihg' is no tier"),
    ('tier_order = ["Low"]', "'High' is missing"),
])
def test_a_tier_order_that_does_not_name_each_tier_once_is_refused(order, said, pool_file):
    path = pool_file(ranked(order), file="ranked.toml")
    with pytest.raises(wb.WorkbenchError) as info:
        wb.load_system(path)
    text = str(info.value)
    assert "tier_order" in text and said in text and "allowed: every tier's name once" in text


def test_a_tier_order_ranks_the_tiers_of_a_file(pool_file):
    path = pool_file(ranked('tier_order = ["Low", "High"]'), file="ranked.toml")
    tiers = wb.check(wb.load_system(path), dice=2).tiers
    assert tiers.outcomes == ("Low", "High")
    assert tiers["High"] == pytest.approx(6 / 36) and tiers["Low"] == pytest.approx(30 / 36)
