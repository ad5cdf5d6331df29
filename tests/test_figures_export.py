"""The figure layer (workbench.figures): the numbers each chart shows, one palette and template
everywhere, explicit sizes, and writing HTML / PNG / SVG."""
from __future__ import annotations

import os
import re

import pytest
from _deps import need

import workbench
from _images import assert_drawn, need_chromium, png_pixels, png_size, share_of, svg_colours, svg_size
from workbench import ladders
from workbench.errors import WorkbenchError
from workbench.figures import (DIE_COLOURS, LINE_COLOURS, TEMPLATE_NAME, check_figure,
                               curve_figure, curve_panels, difference_figure, figure_data,
                               figure_html, ladder_figure, narrative_odds_figure, new_figure,
                               outcome_colours, stacked_outcomes_figure, tier_figure,
                               write_figure, write_figures, write_html, write_images)
from workbench.figures.frames import outcome_frame

# Faces per outcome on each die, counted from RULES.md's table (worst outcome first).
NARRATIVE_FACES = {"black": [2, 2, 1, 1, 0, 0], "red": [1, 2, 1, 1, 1, 0],
                   "yellow": [1, 1, 1, 1, 1, 1], "green": [0, 1, 1, 1, 2, 1],
                   "blue": [0, 0, 1, 1, 2, 2]}


def _every_figure():
    solution = ladders.solve_ladder("uwr", {"Easy": 0.9, "Normal": 0.7}, pool=4)
    return {"curve": curve_figure(["uwr", "arrata"], [1, 2]),
            "check": check_figure("unnamed", d6=3),
            "difference": difference_figure("fons-exploding", "fons", [1, 2]),
            "ladder": ladder_figure("arrata", [1, 2]),
            "solved ladder": ladder_figure(solution, [1, 2]),
            "narrative": narrative_odds_figure(),
            "tiers": tier_figure("unnamed", [1, 2]),
            "panels": curve_panels(["uwr", "fons", "arrata"], [1, 2])}


def test_every_figure_uses_the_white_template_and_an_explicit_height():
    for name, fig in _every_figure().items():
        assert fig.layout.template.layout.plot_bgcolor == "white", name
        assert fig.layout.template.layout.paper_bgcolor == "white", name
        assert fig.layout.height and fig.layout.height >= 300, name
    assert new_figure("t", "x", "y").layout.template == _every_figure()["curve"].layout.template


def test_narrative_odds_chart_stacks_outcomes_per_die_worst_first():
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
    # each die named in its own colour under its column
    for text, colour in zip(fig.layout.xaxis.ticktext, NARRATIVE_FACES):
        assert DIE_COLOURS[colour] in text
    assert [t.marker.color for t in fig.data] == outcome_colours(6)


def test_outcome_colours_run_worst_to_best_the_same_everywhere():
    """Tiers of the Unnamed System and the narrative outcomes share one scale: the worst
    is the same red and the best the same blue in every chart that shows them."""
    worst, best = outcome_colours(6)[0], outcome_colours(6)[-1]
    tiers = tier_figure("unnamed", [1, 2])
    stacked = stacked_outcomes_figure(outcome_frame(["erzahlspiel"]))
    check = check_figure("erzahlspiel", die="green")
    assert (tiers.data[0].marker.color, tiers.data[-1].marker.color) == (worst, best)
    assert (stacked.data[0].marker.color, stacked.data[-1].marker.color) == (worst, best)
    assert (check.data[0].marker.color[0], check.data[0].marker.color[-1]) == (worst, best)
    (r_worst, _, b_worst), (r_best, _, b_best) = [
        [int(v) for v in re.findall(r"\d+", c)] for c in (worst, best)]
    assert r_worst > b_worst and b_best > r_best  # red for the worst, blue for the best


def test_curves_equal_the_engine_and_colour_one_system_per_line():
    fig = curve_figure(["uwr", ("arrata", {"quality": "A"})], [1, 2, 3])
    assert len(fig.data) == 4 + 6
    uwr = workbench.system("uwr")
    for trace, rung in zip(fig.data[:4], uwr.ladder):
        expected = [workbench.check("uwr", **uwr.with_rung(rung, dice=n)).p_pass for n in (1, 2, 3)]
        assert list(trace.y) == pytest.approx(expected, abs=1e-12)
        assert trace.line.color == LINE_COLOURS[0]
    assert {t.line.color for t in fig.data[4:]} == {LINE_COLOURS[1]}
    assert len({t.line.dash for t in fig.data[:4]}) == 4  # rungs of one system by dash
    # One die and no pool to vary: level lines in the dice's colours, named and titled so,
    # never drawn against "dice in the pool".
    one = curve_figure("erzahlspiel", [1, 2])
    assert [t.line.color for t in one.data] == [DIE_COLOURS[c] for c in NARRATIVE_FACES]
    assert [t.y[0] for t in one.data] == pytest.approx([k / 6 for k in range(1, 6)], abs=1e-12)
    assert all("(one die, any pool)" in t.name and t.line.dash == "dot" for t in one.data)
    assert "dice in the pool" not in one.layout.xaxis.title.text
    assert "one die" in one.layout.title.text and "against" not in one.layout.title.text
    mixed = curve_figure(["uwr", "erzahlspiel"], [1, 2])
    levels = [t for t in mixed.data if "(one die, any pool)" in t.name]
    assert len(levels) == 5 and {t.line.dash for t in levels} == {"dot"}


def test_difference_is_in_percentage_points():
    fig = difference_figure("fons-exploding", "fons", [2])
    fons = workbench.system("fons")
    difficult = fons.with_rung("Difficult", dice=2)
    expected = workbench.check("fons-exploding", **difficult).p_pass - workbench.check("fons", **difficult).p_pass
    assert fig.data[2].y[0] == pytest.approx(100 * expected)
    assert fig.layout.yaxis.ticksuffix == " pp" and "pp" in fig.layout.yaxis.title.text
    assert "%" not in (fig.layout.yaxis.tickformat or "")
    with pytest.raises(WorkbenchError, match="two or more"):
        difference_figure("uwr")


def test_check_figure_shows_outcomes_and_tiers():
    fig = check_figure("unnamed", d6=3, d8=1)
    result = workbench.check("unnamed", d6=3, d8=1)
    outcomes, tiers = fig.data
    pmf = {f"net {o}": p for o, p in result.pmf.to_dict().items()}
    assert list(outcomes.y) == pytest.approx([pmf[name] for name in outcomes.x])
    assert sum(outcomes.y) > 0.999  # only negligible ends are left out
    assert list(tiers.x) == [str(t) for t in result.tiers.outcomes]
    assert list(tiers.y) == pytest.approx(list(result.tiers.probabilities))
    assert f"{result.p_pass:.1%}" in fig.layout.title.text


def test_ladder_figures_draw_rungs_over_pools():
    fig = ladder_figure("arrata", [1, 2, 3])
    assert [t.name for t in fig.data] == [f"Ob {k}" for k in range(1, 7)]
    assert list(fig.data[0].y) == pytest.approx([0.5, 0.75, 0.875])
    bars = ladder_figure("erzahlspiel")
    assert list(bars.data[0].y) == pytest.approx([k / 6 for k in range(1, 6)])
    assert list(bars.data[0].marker.color) == [DIE_COLOURS[c] for c in NARRATIVE_FACES]


def test_solved_ladder_is_drawn_as_curves_over_pools_with_the_wanted_odds():
    wanted = {"Easy": 0.9, "Normal": 0.65, "Difficult": 0.35}
    solution = ladders.solve_ladder("uwr", wanted, pool=4)
    fig = ladder_figure(solution, range(1, 11))
    curves = [t for t in fig.data if t.mode == "lines+markers"]
    marks = [t for t in fig.data if t.mode == "markers"]
    assert len(curves) == 3 and list(curves[0].x) == list(range(1, 11))
    for trace, rung in zip(curves, solution.rungs):
        assert trace.name.startswith(rung.name) and rung.rung.describe() in trace.name
        assert trace.y[3] == pytest.approx(rung.achieved)  # 4 dice: the solved pool
        expected = workbench.check("uwr", **workbench.system("uwr").with_rung(rung.rung, dice=9)).p_pass
        assert trace.y[8] == pytest.approx(expected)
    assert [(m.x[0], m.y[0]) for m in marks] == [(4, w) for w in wanted.values()]


def test_small_multiples_one_panel_per_system():
    fig = curve_panels(["uwr", "fons", "unnamed"], [1, 2])
    titles = [a.text for a in fig.layout.annotations]
    assert titles == ["UWR (= HKRPG)", "FoNS", "The Unnamed System"]
    axes = {t.xaxis for t in fig.data}
    assert len(axes) == 3


def test_figure_data_ignores_plotly_template():
    fig = ladder_figure("uwr", [1, 2])
    plain = figure_data(fig)
    fig.update_layout(template="plotly_dark")
    assert figure_data(fig) == plain
    assert plain["layout"]["title"] == "UWR (= HKRPG): difficulty ladder, P(pass) by difficulty"


def test_html_keeps_an_explicit_height():
    """A div sized height:100% in a notebook output with no height collapses to a few pixels."""
    html = figure_html(curve_figure("uwr", [1, 2])).replace(" ", "")
    # the outermost div carries the pixel height; the plot inside may fill it (100%)
    assert html.startswith('<divstyle="height:480px;')


def test_html_is_self_contained(tmp_path):
    path = write_figure(narrative_odds_figure(), tmp_path / "odds.html")
    text = path.read_text(encoding="utf-8")
    assert "<script src=" not in text  # nothing fetched from a CDN
    assert len(text) > 1_000_000 and "NO! AND..." in text
    assert write_html(narrative_odds_figure(), tmp_path / "again.html").exists()


def test_html_of_lines_and_bars_carries_the_basic_bundle(tmp_path):
    """A page of lines and bars inlines plotly.js's basic bundle once (about 1.3 MB), as the
    balance report does, not the full 4.8 MB; a figure of another trace gets the full one."""
    import plotly.graph_objects as go
    from workbench.figures.bundle import BASIC_BUNDLE

    path = write_figure(curve_figure("uwr", [1, 2]), tmp_path / "curve.html")
    text = path.read_text(encoding="utf-8")
    assert path.stat().st_size < 1_600_000, path.stat().st_size
    assert text.count("plotly.js (basic - minified)") == 1
    assert BASIC_BUNDLE.read_text(encoding="utf-8")[:2000] in text
    assert text.count("Plotly.newPlot") == 1 and "<title>UWR (= HKRPG): P(pass) against dice in the pool</title>" in text
    heat = write_figure(go.Figure(go.Heatmap(z=[[1, 2]])), tmp_path / "heat.html")
    assert heat.stat().st_size > 3_000_000 and "heatmap" in heat.read_text(encoding="utf-8")


def test_png_and_svg_in_one_batch(tmp_path):
    need_chromium()
    fig = narrative_odds_figure()
    png, svg = write_images([fig, fig], [tmp_path / "odds.png", tmp_path / "odds.svg"], size=(640, 400))
    assert png_size(png) == (640, 400)
    assert svg_size(svg) == (640, 400)
    assert "YES! AND..." in svg.read_text(encoding="utf-8")
    colours = [trace.marker.color for trace in fig.data]
    from _images import rgb
    assert {rgb(c) for c in colours} <= svg_colours(svg)
    # Each outcome's colour covers an area of the PNG in proportion to its share summed over
    # the five dice (NO! and YES! 1 each, NO! AND... and YES! AND... 2/3, the BUTs 5/6).
    pixels = png_pixels(png)
    area = [share_of(pixels, c) for c in colours]
    summed = [sum(trace.y) for trace in fig.data]
    for a, s in zip(area, summed):
        assert a / area[1] == pytest.approx(s / summed[1], rel=0.12), (area, summed)
    curve = curve_figure("uwr", [1, 2])
    own = write_figure(curve, tmp_path / "curve.png")
    assert png_size(own) == (800, 480)  # the figure's own height, the default width
    assert_drawn(own, [trace.line.color for trace in curve.data])


def test_write_figure_rejects_bad_suffixes_and_paths(tmp_path):
    fig = narrative_odds_figure()
    with pytest.raises(WorkbenchError, match="allowed suffixes: .png, .svg, .html"):
        write_figure(fig, tmp_path / "odds.gif")
    with pytest.raises(WorkbenchError, match="allowed suffixes: .png, .svg"):
        write_images([fig], [tmp_path / "odds.html"])
    with pytest.raises(WorkbenchError, match="does not exist"):
        write_figure(fig, tmp_path / "missing" / "odds.svg")
    with pytest.raises(WorkbenchError, match="2 paths"):
        write_figures([fig], [tmp_path / "a.svg", tmp_path / "b.svg"])
    if os.geteuid() != 0:  # root writes anywhere: the permission check cannot fail for it
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        with pytest.raises(WorkbenchError, match="not writable"):
            write_figure(fig, locked / "odds.html")


def test_new_figure_for_other_engineers_figures():
    fig = new_figure("A sweep", "favor", "difference", y="pp", subtitle="exact", height=360,
                     traces=[{"type": "heatmap", "z": [[1, 2], [3, 4]]}])
    assert fig.layout.height == 360 and fig.layout.yaxis.ticksuffix == " pp"
    assert fig.layout.template.layout.colorway == LINE_COLOURS
    with pytest.raises(WorkbenchError, match="allowed"):
        new_figure("t", "x", "y", y="log")
    assert TEMPLATE_NAME == "workbench"


def test_simulated_curves_without_a_seed_are_not_memoised():
    from workbench.figures import curve_frame
    runs = [curve_frame(["uwr"], [2, 3, 4], rungs=["Normal"], method="simulate", trials=20_000,
                        seed=None)["p_pass"].tolist() for _ in range(2)]
    assert runs[0] != runs[1]  # a fresh seed each time (equal only with negligible chance)
    seeded = [curve_frame(["uwr"], [2, 3], rungs=["Normal"], method="simulate", trials=5_000,
                          seed=3)["p_pass"].tolist() for _ in range(2)]
    assert seeded[0] == seeded[1]


def test_one_check_bars_leave_out_only_negligible_ends():
    # Seen in notebook 01 in JupyterLab: Unnamed 3d6+2d8 drew net -5 to net 29, the real
    # bars squeezed into the left third with unreadable labels.
    from workbench.figures import check_figure
    fig = check_figure("unnamed", d6=3, d8=2)
    pmf = workbench.check("unnamed", d6=3, d8=2).pmf.to_dict()
    drawn = list(fig.data[0].x)
    assert "net 1" in drawn and "net 29" not in drawn and len(drawn) < len(pmf)
    left_out = sum(p for o, p in pmf.items() if f"net {o}" not in drawn)
    assert 0 < left_out < 0.001
    assert "ends under 0.1% together not drawn" in fig.layout.xaxis.title.text
    assert len(check_figure("uwr", dice=3).data[0].x) == 4  # nothing negligible: every bar


def test_simulated_figures_default_to_a_fresh_seed_they_name():
    # One default for seed everywhere (None: fresh, reported). Figures used to default to 0.
    need("numba")
    from workbench.figures import curve_figure
    titles = {curve_figure("uwr", [2], ["Normal"], "simulate", trials=2_000).layout.title.text
              for _ in range(3)}
    assert all("seed None" not in t and "simulated: 2,000 trials, seed " in t for t in titles)
    assert len(titles) > 1  # a fresh seed each time, each named
    fixed = check_figure("uwr", "simulate", trials=2_000, seed=5, dice=3)
    assert "seed 5" in fixed.layout.title.text
    assert list(fixed.data[0].y) == list(check_figure("uwr", "simulate", trials=2_000, seed=5, dice=3).data[0].y)


def test_a_true_false_statistic_is_no_and_yes_in_neutral_colours():
    """A flag (dnd5e's critical: a natural 20) was drawn on a -0.5..1.5 axis with "no" in the
    worst colour and "yes" in the best, though a flag such as a botch is bad when true."""
    from workbench.figures.charts import FLAG_COLOURS
    from workbench.figures.style import OUTCOME_SCALE

    fig = check_figure("dnd5e", stat="critical")
    bars = fig.data[0]
    assert list(bars.x) == ["no", "yes"] and fig.layout.xaxis.type == "category"
    assert list(bars.y) == pytest.approx([19 / 20, 1 / 20], abs=1e-12)   # one d20 shows 20
    assert list(bars.marker.color) == [FLAG_COLOURS["no"], FLAG_COLOURS["yes"]]
    assert not set(bars.marker.color) & set(OUTCOME_SCALE)


def test_totals_and_tiers_each_get_their_own_axis():
    """Call of Cthulhu at skill 50: each total 1% beside tiers up to 49%. The totals had the
    tiers' axis (up to 58%), a flat strip at the bottom."""
    fig = check_figure("call-of-cthulhu-7e", skill=50)
    totals, tiers = fig.data
    assert max(totals.y) == pytest.approx(0.01) and max(tiers.y) == pytest.approx(0.49)
    assert fig.layout.yaxis.range[1] < 0.05 < 0.49 < fig.layout.yaxis2.range[1]
    # A roll-under total has no better end the figure could know: one colour, not red to blue.
    assert len(set(totals.marker.color)) == 1
    # a pool counted up (higher is better) keeps its worst-to-best colours
    assert len(set(check_figure("uwr", dice=3).data[0].marker.color)) == 4


def test_tier_charts_run_along_the_systems_own_knob():
    from workbench.figures import tier_figure
    fig = tier_figure("call-of-cthulhu-7e", [20, 50])
    assert fig.layout.title.text.endswith("tiers by skill") and fig.layout.xaxis.title.text == "skill"
    assert all("dice" not in trace.hovertemplate for trace in fig.data)
    assert tier_figure("unnamed", [1, 2]).layout.title.text.endswith("tiers by pool size")
