"""Figures: the data each chart shows, self-contained HTML, and PNG/SVG through kaleido."""
from __future__ import annotations

import pytest

from _images import need_chromium, png_size, svg_size
from workbench.errors import WorkbenchError
from workbench.export.figures import (curves_figure, figure_data, ladder_figure,
                                      narrative_odds_figure, tier_figure, write_html, write_images)

# Faces per outcome on each die, counted from RULES.md's table (worst outcome first).
NARRATIVE_FACES = {"black": [2, 2, 1, 1, 0, 0], "red": [1, 2, 1, 1, 1, 0],
                   "yellow": [1, 1, 1, 1, 1, 1], "green": [0, 1, 1, 1, 2, 1],
                   "blue": [0, 0, 1, 1, 2, 2]}


def test_narrative_odds_chart_stacks_outcomes_per_die():
    fig = narrative_odds_figure()
    assert fig.layout.barmode == "stack"
    assert [t.name for t in fig.data] == ["NO! AND...", "NO!", "NO! BUT...", "YES! BUT...",
                                          "YES!", "YES! AND..."]
    for trace in fig.data:
        assert list(trace.x) == list(NARRATIVE_FACES)
    for column, colour in enumerate(NARRATIVE_FACES):
        shares = [trace.y[column] for trace in fig.data]
        assert shares == pytest.approx([n / 6 for n in NARRATIVE_FACES[colour]])
    assert "any YES 50%" in fig.layout.xaxis.ticktext[2]


def test_ladder_and_tier_figures_show_the_tables():
    fig = ladder_figure("arrata", [1, 2, 3])
    assert [t.name for t in fig.data] == [f"Ob {k}" for k in range(1, 7)]
    assert list(fig.data[0].y) == pytest.approx([0.5, 0.75, 0.875])
    bars = ladder_figure("erzahlspiel")
    assert list(bars.data[0].y) == pytest.approx([k / 6 for k in range(1, 6)])
    tiers = tier_figure("unnamed", [1, 3, 5])
    totals = [sum(trace.y[i] for trace in tiers.data) for i in range(3)]
    assert totals == pytest.approx([1.0, 1.0, 1.0])
    assert len(curves_figure(["uwr", "arrata"], [1, 2]).data) == 4 + 6
    with pytest.raises(WorkbenchError, match="no narrative outcomes"):
        narrative_odds_figure("uwr")
    with pytest.raises(WorkbenchError, match="no tiers"):
        tier_figure("uwr")


def test_figure_data_ignores_plotly_template():
    fig = ladder_figure("uwr", [1, 2])
    plain = figure_data(fig)
    fig.update_layout(template="plotly_dark")
    assert figure_data(fig) == plain
    assert plain["layout"]["title"] == "UWR (= HKRPG): P(pass) by difficulty"


def test_html_is_self_contained(tmp_path):
    path = write_html(narrative_odds_figure(), tmp_path / "odds.html")
    text = path.read_text(encoding="utf-8")
    assert "<script src=" not in text  # nothing fetched from a CDN
    assert len(text) > 1_000_000 and "NO! AND..." in text


def test_png_and_svg_in_one_batch(tmp_path):
    need_chromium()
    fig = narrative_odds_figure()
    png, svg = write_images([fig, fig], [tmp_path / "odds.png", tmp_path / "odds.svg"], size=(640, 400))
    assert png_size(png) == (640, 400)
    assert svg_size(svg) == (640, 400)
    assert "YES! AND..." in svg.read_text(encoding="utf-8")


def test_write_images_rejects_other_formats(tmp_path):
    with pytest.raises(WorkbenchError, match="allowed suffixes: .png, .svg"):
        write_images([narrative_odds_figure()], [tmp_path / "odds.gif"])
