"""Every number of the golden exports (data/golden/) against values computed here, from the
source texts' rules, by plain enumeration: no workbench code computes what is compared.

``test_golden_exports.py`` checks that the committed files are what the workbench writes
today; this file checks that what is committed is right. Each CSV cell (6 decimals), each
Markdown and reStructuredText cell (one decimal, in per cent) and each number of the chart's
JSON is compared with its independent value, so a rung or tier one off (Triumph at 4 instead
of 3) or a probability slightly wrong fails, whatever the code regenerates. The Unnamed
System's tiers are held to the same enumeration, since its ladder is its degrees of success.
"""
from __future__ import annotations

import csv
import io
import itertools
import json
import math
import re
from fractions import Fraction
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
POOLS = range(1, 7)
DICE_HEADERS = [f"{n} {'die' if n == 1 else 'dice'}" for n in POOLS]


def rolls(n: int):
    """Every roll of n six-sided dice, each equally likely."""
    return itertools.product(range(1, 7), repeat=n)


def chance(n: int, passes) -> Fraction:
    hits = sum(1 for faces in rolls(n) if passes(faces))
    return Fraction(hits, 6 ** n)


# -- each system's rules, from its source text --------------------------------------------
def uwr(n: int, target: int, favor: int = 0) -> Fraction:
    """UWR / FoNS: a die succeeds on 5-6, on 4-6 with +1 favor; pass with target successes."""
    lowest = 5 - favor
    return chance(n, lambda faces: sum(f >= lowest for f in faces) >= target)


def unnamed_net(faces) -> int:
    """The Unnamed System on d6s alone: 5-6 a success, a 1 cancels one (no d8s to bounce)."""
    return sum(f >= 5 for f in faces) - sum(f == 1 for f in faces)


def unnamed_tier(faces) -> str:
    """Degrees of Success: Disaster when every die fails, else by net successes."""
    if all(f == 1 for f in faces):
        return "Disaster"
    net = unnamed_net(faces)
    return ("Failure" if net <= -1 else "Marginal Failure" if net == 0 else
            "Success with a Twist" if net == 1 else "Success" if net == 2 else "Triumph")


def unnamed(n: int, target: int) -> Fraction:
    return chance(n, lambda faces: unnamed_tier(faces) != "Disaster" and unnamed_net(faces) >= target)


def arrata(n: int, ob: int) -> Fraction:
    """Arrata, quality B: each die succeeds on 4+; pass when successes meet the Obstacle."""
    return chance(n, lambda faces: sum(f >= 4 for f in faces) >= ob)


# Erzählspiel's dice, written face 6 down to face 1 as the source's table prints them.
ERZ_BY_FACE = {
    6: ("YES! BUT...", "YES!", "YES! AND...", "YES! AND...", "YES! AND..."),
    5: ("NO! BUT...", "YES! BUT...", "YES!", "YES!", "YES! AND..."),
    4: ("NO!", "NO! BUT...", "YES! BUT...", "YES!", "YES!"),
    3: ("NO!", "NO!", "NO! BUT...", "YES! BUT...", "YES!"),
    2: ("NO! AND...", "NO!", "NO!", "NO! BUT...", "YES! BUT..."),
    1: ("NO! AND...", "NO! AND...", "NO! AND...", "NO!", "NO! BUT..."),
}
ERZ_DICE = ("black", "red", "yellow", "green", "blue")
ERZ_OUTCOMES = ("NO! AND...", "NO!", "NO! BUT...", "YES! BUT...", "YES!", "YES! AND...")


def erzahlspiel(die: str, outcome: str) -> Fraction:
    column = ERZ_DICE.index(die)
    return Fraction(sum(ERZ_BY_FACE[face][column] == outcome for face in range(1, 7)), 6)


def any_yes(die: str) -> Fraction:
    return sum((erzahlspiel(die, o) for o in ERZ_OUTCOMES if o.startswith("YES")), Fraction(0))


# -- the expected tables: (row label, fixed cells, [probabilities]) -----------------------
EXPECTED = {
    "uwr": (["Difficulty", "Example", "Setting", *DICE_HEADERS], [
        ("Easy", ["Climb using a rope", "target=1, favor+1"], [uwr(n, 1, favor=1) for n in POOLS]),
        ("Normal", ["Climb a rough surface", "target=1"], [uwr(n, 1) for n in POOLS]),
        ("Difficult", ["Climb a wet or flat surface", "target=2"], [uwr(n, 2) for n in POOLS]),
        ("Extreme", ["Climb a wet overhang", "target=3"], [uwr(n, 3) for n in POOLS])]),
    "fons": (["Difficulty", "Example", "Setting", *DICE_HEADERS], [
        ("Trivial", ["Climb using a rope", "target=1, favor+1"], [uwr(n, 1, favor=1) for n in POOLS]),
        ("Average", ["Climb a rough surface", "target=1"], [uwr(n, 1) for n in POOLS]),
        ("Difficult", ["Climb a wet or flat surface", "target=2"], [uwr(n, 2) for n in POOLS]),
        ("Extreme", ["Climb a sharp surface", "target=3"], [uwr(n, 3) for n in POOLS])]),
    "unnamed": (["Difficulty", "Setting", *[f"{n}d6" for n in POOLS]], [
        (tier, [f"target={t}"], [unnamed(n, t) for n in POOLS])
        for t, tier in ((1, "Success with a Twist"), (2, "Success"), (3, "Triumph"))]),
    "arrata": (["Difficulty", "Setting", *[f"B{n}" for n in POOLS]], [
        (f"Ob {ob}", [f"ob={ob}"], [arrata(n, ob) for n in POOLS]) for ob in range(1, 7)]),
    "erzahlspiel": (["Difficulty", "Setting", *ERZ_OUTCOMES, "any YES"], [
        (die, [f"die={die}"], [*(erzahlspiel(die, o) for o in ERZ_OUTCOMES), any_yes(die)])
        for die in ERZ_DICE]),
}
FILES = {"uwr": ("uwr_difficulty.csv", "uwr_difficulty.rst"),
         "fons": ("fons_difficulty.csv", "fons_difficulty.rst"),
         "unnamed": ("unnamed_degrees.csv", "unnamed_degrees.md"),
         "arrata": ("arrata_obstacles.csv", "arrata_obstacles.md"),
         "erzahlspiel": ("erzahlspiel_dice.csv", "erzahlspiel_dice.rst")}


def expected_rows(system: str, number) -> list[list[str]]:
    header, rows = EXPECTED[system]
    return [header] + [[label, *fixed, *(number(p) for p in probabilities)]
                       for label, fixed, probabilities in rows]


def half_up(p: Fraction, digits: int) -> str:
    """The exact probability to ``digits`` decimals, halves rounded up (81.25% -> 81.3%)."""
    scaled = math.floor(p * 10 ** digits + Fraction(1, 2))
    whole, part = divmod(scaled, 10 ** digits)
    return f"{whole}.{part:0{digits}d}"


def percent(p: Fraction) -> str:
    return half_up(p * 100, 1) + "%"


def markup_rows(text: str, markup: str) -> list[list[str]]:
    """The cells of a golden table in its own markup, row by row (header first)."""
    if markup == "rst-grid":
        return [[c.strip() for c in line.strip("|").split("|")]
                for line in text.splitlines() if line.startswith("|")]
    if markup == "rst-list":
        rows: list[list[str]] = []
        for line in text.splitlines():
            if line.startswith("   * - "):
                rows.append([line[7:].strip()])
            elif line.startswith("     - "):
                rows[-1].append(line[7:].strip())
        return rows
    if markup == "rst-csv":
        body = "\n".join(line.strip() for line in text.splitlines() if line.startswith('   "'))
        return list(csv.reader(io.StringIO(body)))
    return [[c.strip() for c in line.strip().strip("|").split("|")]   # Markdown
            for line in text.splitlines() if line.startswith("|") and not re.match(r"\|:?-", line)]


MARKUP = {"uwr_difficulty.rst": "rst-grid", "fons_difficulty.rst": "rst-list",
          "unnamed_degrees.md": "md", "arrata_obstacles.md": "md", "erzahlspiel_dice.rst": "rst-csv"}


@pytest.mark.parametrize("system", list(EXPECTED))
def test_every_csv_cell_is_the_independent_value(system):
    text = (GOLDEN / FILES[system][0]).read_text(encoding="utf-8")
    assert list(csv.reader(io.StringIO(text))) == expected_rows(system, lambda p: half_up(p, 6))


@pytest.mark.parametrize("system", list(EXPECTED))
def test_every_markup_cell_is_the_independent_value(system):
    name = FILES[system][1]
    got = markup_rows((GOLDEN / name).read_text(encoding="utf-8"), MARKUP[name])
    assert got == expected_rows(system, percent)


def test_source_figures_hold():
    """Figures the source texts print, as a check of the enumeration itself."""
    assert arrata(5, 3) == Fraction(1, 2)             # B5 against Ob 3: half the time
    assert [any_yes(d) for d in ERZ_DICE] == [Fraction(k, 6) for k in range(1, 6)]
    assert uwr(1, 1) == Fraction(1, 3) and uwr(1, 1, favor=1) == Fraction(1, 2)
    assert unnamed(2, 1) == Fraction(16, 36)          # 5-6 with 2-6, or two successes


@pytest.mark.parametrize("n", POOLS)
def test_unnamed_tiers_are_the_degrees_of_success(n):
    """The ladder is the least net reaching each passing tier: the workbench's tier shares
    (read from unnamed.toml's [[tiers]]) match the enumeration, and so does each rung's
    P(pass) with the share of its tier and the better ones."""
    import workbench as wb

    shares: dict[str, Fraction] = {}
    for faces in rolls(n):
        tier = unnamed_tier(faces)
        shares[tier] = shares.get(tier, Fraction(0)) + Fraction(1, 6 ** n)
    result = wb.check("unnamed", d6=n)
    assert {t: p for t, p in result.tiers.items() if p > 0} == pytest.approx(
        {t: float(p) for t, p in shares.items()}, abs=1e-12)
    order = ["Success with a Twist", "Success", "Triumph"]
    for i, rung in enumerate(order):
        reaching = sum((shares.get(t, Fraction(0)) for t in order[i:]), Fraction(0))
        assert unnamed(n, i + 1) == reaching


def test_the_chart_json_holds_the_independent_shares():
    chart = json.loads((GOLDEN / "erzahlspiel_odds.figure.json").read_text(encoding="utf-8"))
    traces = chart["data"]
    assert [t["name"] for t in traces] == list(ERZ_OUTCOMES)   # worst at the bottom of the stack
    for trace, outcome in zip(traces, ERZ_OUTCOMES):
        assert trace["type"] == "bar" and trace["x"] == list(ERZ_DICE)
        shares = [erzahlspiel(die, outcome) for die in ERZ_DICE]
        assert trace["y"] == pytest.approx([float(s) for s in shares], abs=1e-10), outcome
        assert trace["text"] == [f"{float(s):.0%}" if s > 0 else "" for s in shares], outcome
    # Colours run from deep red (worst) to deep blue (best), one for each outcome.
    colours = [tuple(int(v) for v in re.findall(r"\d+", t["marker"]["color"])) for t in traces]
    assert colours[0] == (165, 0, 38) and colours[-1] == (49, 54, 149) and len(set(colours)) == 6
    assert chart["layout"]["barmode"] == "stack" and chart["layout"]["yaxis"] == "share of rolls"
