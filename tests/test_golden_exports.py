"""Golden exports under data/golden/: regenerated and compared with the committed files.

Text exports are compared exactly. The chart is compared through its figure data (traces and
titles, not pixels); its PNG/SVG are regenerated and checked to be valid images of the
committed size. Rewrite them all with ``python -m workbench.export.golden`` after a deliberate
change, and review the diff.
"""
from __future__ import annotations

import csv
import io

import pytest

from _images import assert_drawn, need_chromium, png_pixels, png_size, share_of, svg_size
from workbench.export.golden import CHART_STEM, GOLDEN_DIR, GOLDEN_TABLES, chart_json, write_golden

SPECS = {spec.filename: spec for spec in GOLDEN_TABLES}


def committed(name: str) -> str:
    return (GOLDEN_DIR / name).read_text(encoding="utf-8")


def rows_of_csv(name: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(committed(name))))


def test_uwr_difficulty_table():
    """Seed 000_a212a1d3b86c99f2.txt (UWR = HKRPG), "example difficulties for direct checks"
    grid table: Easy = 1 success +1 favor, Normal 1, Difficult 2, Extreme 3 successes."""
    assert SPECS["uwr_difficulty.rst"].render() == committed("uwr_difficulty.rst")
    assert SPECS["uwr_difficulty.csv"].render() == committed("uwr_difficulty.csv")
    rows = rows_of_csv("uwr_difficulty.csv")
    assert [r[0] for r in rows[1:]] == ["Easy", "Normal", "Difficult", "Extreme"]
    assert rows[2][1] == "Climb a rough surface" and rows[2][3] == f"{1 / 3:.6f}"


def test_fons_difficulty_table():
    """Seed 002_55bfc186d903ed0f.txt (FoNS), the list-table of direct-check difficulties:
    Trivial = 1 success +1 favor, Average 1, Difficult 2, Extreme 3 successes."""
    assert SPECS["fons_difficulty.rst"].render() == committed("fons_difficulty.rst")
    assert SPECS["fons_difficulty.csv"].render() == committed("fons_difficulty.csv")
    assert committed("fons_difficulty.rst").startswith(".. list-table::")
    rows = rows_of_csv("fons_difficulty.csv")
    assert [r[0] for r in rows[1:]] == ["Trivial", "Average", "Difficult", "Extreme"]


def test_unnamed_degrees_of_success_table():
    """Seed 001_9ef7d89e32ac5cb3.txt (The Unnamed System), "Degrees of Success" table: the
    passing tiers Success with a twist (net 1), Success (2), Triumph (3 or more)."""
    assert SPECS["unnamed_degrees.md"].render() == committed("unnamed_degrees.md")
    assert SPECS["unnamed_degrees.csv"].render() == committed("unnamed_degrees.csv")
    rows = rows_of_csv("unnamed_degrees.csv")
    assert [r[0] for r in rows[1:]] == ["Success with a Twist", "Success", "Triumph"]
    assert rows[1][2] == f"{1 / 3:.6f}"  # 1d6: a 5 or 6 succeeds, nothing else nets 1


def test_arrata_obstacle_table():
    """Seed 003_780bd31aa44b74e1.txt (Arrata), "Rolling Stats - Obstacle": pass iff successes
    meet the Ob; B quality succeeds on 4+, so Bn against Ob k is Binomial(n, 1/2) >= k."""
    assert SPECS["arrata_obstacles.md"].render() == committed("arrata_obstacles.md")
    assert SPECS["arrata_obstacles.csv"].render() == committed("arrata_obstacles.csv")
    rows = rows_of_csv("arrata_obstacles.csv")
    assert rows[0][2:] == [f"B{n}" for n in range(1, 7)]
    assert rows[3][6] == f"{0.5:.6f}"  # B5 against Ob 3: half the time, as the seed's B5 example


def test_erzahlspiel_narrative_dice_table():
    """Seed 004_0c5906b678ebc6af.txt (Erzählspiel), Difficulty: the die colours, "changing the
    die from yellow to red changes the chance of getting any YES from 50% to 33%"."""
    assert SPECS["erzahlspiel_dice.rst"].render() == committed("erzahlspiel_dice.rst")
    assert SPECS["erzahlspiel_dice.csv"].render() == committed("erzahlspiel_dice.csv")
    rows = rows_of_csv("erzahlspiel_dice.csv")
    any_yes = {r[0]: float(r[-1]) for r in rows[1:]}
    assert any_yes["yellow"] == pytest.approx(0.5, abs=1e-6)
    assert any_yes["red"] == pytest.approx(1 / 3, abs=1e-6)


def test_every_golden_table_is_checked_above():
    assert {spec.system for spec in GOLDEN_TABLES} == {"uwr", "fons", "unnamed", "arrata", "erzahlspiel"}


def test_narrative_odds_chart_data():
    """Seed 004_0c5906b678ebc6af.txt: the narrative-dice odds chart, five stacked columns."""
    assert chart_json() == committed(f"{CHART_STEM}.figure.json")


def test_narrative_odds_chart_images(tmp_path):
    need_chromium()
    written = write_golden(tmp_path, images=True)
    names = {path.name for path in written}
    assert {f"{CHART_STEM}.png", f"{CHART_STEM}.svg"} <= names
    assert png_size(tmp_path / f"{CHART_STEM}.png") == png_size(GOLDEN_DIR / f"{CHART_STEM}.png")
    assert svg_size(tmp_path / f"{CHART_STEM}.svg") == svg_size(GOLDEN_DIR / f"{CHART_STEM}.svg")
    # The pixels: each outcome's colour covers an area in proportion to its share summed over
    # the five dice (the chart's numbers are held to an independent count in
    # test_golden_values.py), in the regenerated image and in the committed one.
    import json
    chart = json.loads(committed(f"{CHART_STEM}.figure.json"))
    colours = [trace["marker"]["color"] for trace in chart["data"]]
    summed = [sum(trace["y"]) for trace in chart["data"]]
    for image in (tmp_path / f"{CHART_STEM}.png", GOLDEN_DIR / f"{CHART_STEM}.png"):
        assert_drawn(image, colours)
        pixels = png_pixels(image)
        area = [share_of(pixels, colour) for colour in colours]
        for a, s in zip(area, summed):
            assert a / area[1] == pytest.approx(s / summed[1], rel=0.12), (image.name, area, summed)
    for path in written:  # the text files written alongside match the committed ones
        if path.suffix in (".rst", ".md", ".csv", ".json"):
            assert path.read_text(encoding="utf-8") == committed(path.name), path.name
