"""Published rules as the gallery files read them, each reading stated in the file's head
comment and pinned here by plain enumeration written in this file (no workbench code, no
shared brute force).

Call of Cthulhu 7th edition: 01 is always a critical success (it passes at every
difficulty); the fumble range is 100 alone when the value needed at the difficulty (the
skill, half of it for Hard, a fifth for Extreme, rounded down) is 50 or more, 96-100 when it
is under 50. Cortex Prime: a test passes only when its total beats the difficulty; a tie
fails.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest

import workbench as wb

GALLERY = Path(wb.__file__).parent / "data" / "gallery"


def head_comment(name: str) -> str:
    lines = (GALLERY / name).read_text(encoding="utf-8").splitlines()
    return " ".join(line.lstrip("# ") for line in itertools.takewhile(lambda l: l.startswith("#"), lines))


# -- Call of Cthulhu 7e -------------------------------------------------------------------
def cthulhu_truth(skill: int, difficulty: int) -> tuple[Fraction, Fraction]:
    """(P(pass), P(fumble)) of one d100 roll, every roll 1..100 counted once."""
    needed = {1: skill, 2: skill // 2, 5: skill // 5}[difficulty]
    passed = fumbled = 0
    for roll in range(1, 101):
        fumble = roll == 100 or (needed < 50 and roll >= 96)
        fumbled += fumble
        passed += roll == 1 or (not fumble and roll <= needed)
    return Fraction(passed, 100), Fraction(fumbled, 100)


@pytest.mark.parametrize("skill, difficulty", [
    (60, 1), (60, 2), (99, 2), (99, 5), (49, 1), (50, 1), (4, 5), (1, 5), (9, 2), (98, 2)])
def test_call_of_cthulhu_reading(skill, difficulty):
    p_pass, p_fumble = cthulhu_truth(skill, difficulty)
    result = wb.check("call-of-cthulhu-7e", skill=skill, difficulty=difficulty)
    assert result.p_pass == pytest.approx(float(p_pass), abs=1e-12)
    assert result.tiers["Fumble"] == pytest.approx(float(p_fumble), abs=1e-12)
    assert result.tiers["Critical"] == pytest.approx(0.01, abs=1e-12)


def test_call_of_cthulhu_hand_figures():
    # A Hard roll of skill 60 needs 30 or less: 96-100 fumble (5%), 01-30 pass (30%).
    hard = wb.check("call-of-cthulhu-7e", skill=60, difficulty=2)
    assert (round(hard.p_pass, 12), round(hard.tiers["Fumble"], 12)) == (0.30, 0.05)
    # An Extreme roll of skill 4 needs 0 or less: only the 01 critical passes.
    assert wb.check("call-of-cthulhu-7e", skill=4, difficulty=5).p_pass == pytest.approx(0.01, abs=1e-12)
    # At Regular difficulty skill 50 fumbles on 100 alone, skill 49 on 96-100.
    assert wb.check("call-of-cthulhu-7e", skill=50).tiers["Fumble"] == pytest.approx(0.01, abs=1e-12)
    assert wb.check("call-of-cthulhu-7e", skill=49).tiers["Fumble"] == pytest.approx(0.05, abs=1e-12)


def test_call_of_cthulhu_file_says_its_reading():
    head = head_comment("call-of-cthulhu-7e.toml")
    assert "01 is always a critical success" in head and "passes at every difficulty" in head
    assert "The fumble range follows the value needed, not the skill" in head


# -- Cortex Prime -------------------------------------------------------------------------
def cortex_truth(sizes: tuple[int, ...], difficulty: int) -> Fraction:
    """P(the two highest non-1 dice beat the difficulty), every roll of the pool counted."""
    passed = rolls = 0
    for faces in itertools.product(*[range(1, n + 1) for n in sizes]):
        rolls += 1
        usable = sorted((f for f in faces if f != 1), reverse=True)
        passed += sum(usable[:2]) > difficulty   # all hitches: total 0, a botch
    return Fraction(passed, rolls)


@pytest.mark.parametrize("sizes, difficulty", [
    ((4,), 3), ((6, 8), 7), ((6, 6, 8), 7), ((4, 12, 12), 11), ((8, 8, 10), 15), ((6,), 0)])
def test_cortex_prime_reading_a_tie_fails(sizes, difficulty):
    counts = {f"d{n}": sizes.count(n) for n in (4, 6, 8, 10, 12)}
    result = wb.check("cortex-prime", difficulty=difficulty, **counts)
    assert result.p_pass == pytest.approx(float(cortex_truth(sizes, difficulty)), abs=1e-12)
    assert result.tiers["Success"] == pytest.approx(result.p_pass, abs=1e-12)


def test_cortex_prime_hand_figures():
    # One d4 against 3: a 1 is a botch, 2 and 3 do not beat 3, only the 4 does.
    assert wb.check("cortex-prime", d4=1, d6=0, d8=0, difficulty=3).p_pass == pytest.approx(0.25)
    # d6 + d8 against 13: only 6 + 8 = 14 beats it (1/48); 13 (5 + 8, 6 + 7) ties and fails.
    assert wb.check("cortex-prime", d6=1, d8=1, difficulty=13).p_pass == pytest.approx(1 / 48)


def test_cortex_prime_file_says_its_reading():
    head = head_comment("cortex-prime.toml")
    assert "succeeds only when its total beats the difficulty" in head and "fails" in head
