"""Pictures of a sweep: what each draws (data shaping), the shared look, exports."""
import pandas as pd
import pytest

import workbench as wb
from workbench import WorkbenchError
from workbench.figures import TEMPLATE_NAME, write_figure
from workbench.figures.sweeps import (band_frame, band_map_figure, heatmap_figure, heatmap_frame,
                                      line_family_figure, line_family_frame)
from workbench.sweep import sweep


@pytest.fixture(scope="module")
def ladder_grid():
    return sweep("check", {"favor": [0, 1, 2], "target": [1, 2, 3], "dice": range(3, 7)},
                 system="uwr")


def test_heatmap_cells_are_the_sweep_values():
    frame = sweep("check", {"dice": [2, 5], "target": [1, 2, 3]}, system="uwr")
    table = heatmap_frame(frame, "dice", "target")
    assert table.shape == (3, 2)
    assert table.loc[3, 5] == wb.check("uwr", dice=5, target=3).p_pass
    fig = heatmap_figure(frame, "dice", "target")
    assert fig.layout.template.layout.paper_bgcolor == "white"
    assert fig.data[0].z[2][1] == table.loc[3, 5] and (fig.data[0].zmin, fig.data[0].zmax) == (0, 1)


def test_cells_with_several_points_ask_to_hold_a_parameter_fixed(ladder_grid):
    with pytest.raises(WorkbenchError, match="hold the other parameters fixed.*dice"):
        heatmap_frame(ladder_grid, "favor", "target")
    with pytest.raises(WorkbenchError, match="'p_win'.*p_pass"):
        heatmap_frame(ladder_grid, "favor", "target", "p_win")


def test_line_family_one_line_per_value_with_error_bars_for_simulations():
    frame = sweep("simulate", {"target": [1, 2], "dice": [2, 3, 4]}, system="uwr", trials=20_000)
    table = line_family_frame(frame, "dice", "target")
    assert table["stderr"].gt(0).all()
    fig = line_family_figure(frame, "dice", "target")
    assert [t.name for t in fig.data] == ["target 1", "target 2"]
    assert list(fig.data[1].y) == frame[frame["target"] == 2]["p_pass"].tolist()
    assert list(fig.data[0].error_y.array) == frame[frame["target"] == 1]["p_pass_stderr"].tolist()
    assert fig.layout.yaxis.tickformat == ".0%"


def test_band_map_counts_pools_within_the_band(ladder_grid):
    band = band_frame(ladder_grid, "favor", "target", over="dice", low=0.6, high=0.75)
    assert len(band) == 9 and (band["count"] == 4).all()
    for cell in band.to_dict("records"):
        values = [wb.check("uwr", dice=d, favor=cell["favor"], target=cell["target"]).p_pass
                  for d in range(3, 7)]
        inside = [0.6 <= v <= 0.75 for v in values]
        assert cell["share"] == pytest.approx(sum(inside) / 4)
        assert cell["all_within"] == all(inside)
        assert cell["least"] == min(values) and cell["greatest"] == max(values)
    fig = band_map_figure(ladder_grid, "favor", "target", over="dice")
    marks = sum(text == "✓" for row in fig.data[0].text for text in row)
    assert marks == band["all_within"].sum()
    with pytest.raises(WorkbenchError, match="low <= high"):
        band_frame(ladder_grid, "favor", "target", over="dice", low=0.8, high=0.6)


def test_sweep_figures_export(tmp_path, ladder_grid):
    fig = band_map_figure(ladder_grid, "favor", "target", over="dice")
    path = write_figure(fig, tmp_path / "band.html")
    assert path.exists() and "plotly" in path.read_text()[:5000].lower()
    assert fig.layout.template.layout.font.family == \
        heatmap_figure(ladder_grid[ladder_grid["dice"] == 4], "favor", "target") \
        .layout.template.layout.font.family
    assert TEMPLATE_NAME == "workbench"


def test_sweep_figures_as_png_and_svg(tmp_path, ladder_grid):
    from _images import need_chromium, png_size, svg_size

    need_chromium()
    fig = heatmap_figure(ladder_grid[ladder_grid["dice"] == 4], "favor", "target")
    png, svg = write_figure(fig, tmp_path / "heat.png"), write_figure(fig, tmp_path / "heat.svg")
    assert png_size(png)[0] > 0 and svg_size(svg)[0] > 0


def test_drama_sweep_heatmap_of_pool_levels():
    frame = sweep("drama_campaign", {"players": [2, 4], "refill_rate": [0.0, 0.4]},
                  session=[{"d6": 2}] * 4, policy="always", trials=3_000)
    fig = heatmap_figure(frame, "players", "refill_rate", "empty_share")
    assert len(fig.data[0].z) == 2 and fig.data[0].zmax == 1.0
    table = heatmap_frame(frame, "players", "refill_rate", "empty_share")
    assert table.loc[0.4, 2] < table.loc[0.0, 2]   # refills keep the pool from running dry


def test_axes_legends_and_colour_bars_read_as_words_not_column_names():
    # Seen in notebook 08 in JupyterLab: "refill_rate", "empty_share", "pass_with" on the
    # axes, half-player ticks (2.5, 3.5) and a red-to-blue "worse to better" scale on a
    # share of empty pools, where red meant 0% empty.
    frame = pd.DataFrame({"players": [2, 2, 3, 3], "refill_rate": [0.0, 0.1, 0.0, 0.1],
                          "empty_share": [0.3, 0.2, 0.1, 0.0], "pass_with": [0.5, 0.6, 0.55, 0.65]})
    heat = heatmap_figure(frame, "players", "refill_rate", "empty_share")
    assert heat.layout.yaxis.title.text == "refill rate"
    assert heat.data[0].colorbar.title.text == "checks finding the pool empty"
    assert [c[1] for c in heat.data[0].colorscale][0] == "#ffffff"  # neutral: more, not worse
    passing = heatmap_figure(frame, "players", "refill_rate", "pass_with")
    assert passing.data[0].colorscale[0][1] != "#ffffff"  # chances of passing: worst to best
    lines = line_family_figure(frame, "players", "refill_rate", "pass_with")
    assert lines.layout.yaxis.title.text == "P(pass) with Drama Dice"
    assert [t.name for t in lines.data] == ["refill rate 0.0", "refill rate 0.1"]
    assert list(lines.layout.xaxis.tickvals) == [2, 3]


def test_band_map_says_when_no_cell_is_within_the_band(ladder_grid):
    fig = band_map_figure(ladder_grid, "favor", "target", over="dice", low=0.99, high=1.0)
    assert "every pool of 3 to 6 dice (no such cells)" in fig.layout.title.text
    assert fig.data[0].colorbar.title.text == "outside the band (pp)"


def test_band_map_tells_the_cells_apart(ladder_grid):
    """Seen in notebook 08: with shares of 0 or 1/4 in every cell, every cell looked alike."""
    fig = band_map_figure(ladder_grid, "favor", "target", over="dice", low=0.6, high=0.75)
    shades = {round(z, 6) for row in fig.data[0].z for z in row}
    assert len(shades) >= 6  # of nine cells: how far each strays from the band
    band = band_frame(ladder_grid, "favor", "target", over="dice", low=0.6, high=0.75)
    row = band[(band.favor == 0) & (band.target == 1)].iloc[0]
    assert row.outside == pytest.approx(row.greatest - 0.75)  # above the band only
    texts = [t for line in fig.data[0].text for t in line]
    assert f"{100 * row.least:.0f}–{row.greatest:.0%}" in texts


def test_a_family_of_close_probabilities_gets_an_axis_scaled_to_it():
    """Seen in notebook 08: lines near 55% on a 0-100% axis lay on top of each other."""
    frame = pd.DataFrame({"players": [2, 3, 2, 3], "refill_rate": [0.0, 0.0, 0.1, 0.1],
                          "pass_with": [0.54, 0.55, 0.56, 0.57]})
    fig = line_family_figure(frame, "players", "refill_rate", "pass_with")
    low, high = fig.layout.yaxis.range
    assert 0.5 < low < 0.54 and 0.57 < high < 0.6
    assert fig.layout.yaxis.tickformat == ".1%"


def test_wrong_objects_are_workbench_errors(tmp_path):
    with pytest.raises(WorkbenchError, match="sweep figure got NoneType; allowed: the DataFrame"):
        heatmap_figure(None, "dice", "target")
    with pytest.raises(WorkbenchError, match="write_figure got NoneType; allowed: a plotly Figure"):
        write_figure(None, tmp_path / "x.png")
    assert list(tmp_path.iterdir()) == []


def test_sweep_seed_and_progress_say_what_is_allowed():
    with pytest.raises(WorkbenchError, match="'seed' got -1; allowed: a whole number from 0 to "
                                             r"2\*\*64 - 1, or None for a fresh seed"):
        sweep("check", {"dice": [1]}, system="uwr", seed=-1)
    with pytest.raises(WorkbenchError, match="'progress' got 'x'"):
        sweep("check", {"dice": [1]}, system="uwr", progress="x")
