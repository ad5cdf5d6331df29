"""Figures for print and for the page: width, height and scale in the CLI, the Sphinx
directive and Markdown blocks; and the outcomes-by-knob kind, with which a rulebook's own
hand-drawn odds chart (Erzählspiel's d6 chart: 1d6, 2d6 and 3d6 keep highest / lowest) is
generated from one directive."""
from __future__ import annotations

import textwrap

import pytest

import workbench as wb
from _images import assert_drawn, need_chromium, png_size, svg_size
from workbench.figures.knobs import knob_figure, knob_levels, pool_text
from workbench.render import BlockOptionError, build_figure, parse_block

from conftest import run_cli

ERZ_D6 = {"kind": "outcomes", "dice": "d6", "knob": "advantage", "levels": "-2,-1,0,1,2"}


def run(capsys, *argv):
    return run_cli(capsys, *argv)


def test_outcomes_by_knob_match_the_engine_column_by_column():
    fig = knob_figure("erzahlspiel", "advantage", [-2, -1, 0, 1, 2], dice="d6")
    labels = wb.system("erzahlspiel").outcome_labels
    assert [trace.name for trace in fig.data] == list(labels)  # worst at the bottom
    for column, advantage in enumerate([-2, -1, 0, 1, 2]):
        pmf = wb.check("erzahlspiel", dice="d6", advantage=advantage).pmf
        for trace in fig.data:
            assert trace.y[column] == pytest.approx(pmf[trace.name], abs=1e-12)
    ticks = [t.split("<br>") for t in fig.layout.xaxis.ticktext]
    assert ticks == [["3d6 keep lowest", "advantage −2"], ["2d6 keep lowest", "advantage −1"],
                     ["1d6", "advantage 0"], ["2d6 keep highest", "advantage 1"],
                     ["3d6 keep highest", "advantage 2"]]
    # 3d6 keep highest shows YES! AND... (a 6) 1 - (5/6)^3 of the time, written on its piece
    assert fig.data[-1].y[-1] == pytest.approx(1 - (5 / 6) ** 3)
    assert fig.data[-1].text[-1] == "42%"


def test_outcomes_by_quality_die_colour_and_pool_size():
    quality = knob_figure("arrata", "quality", dice=4, ob=2)
    assert list(quality.data[0].x) == ["quality B", "quality A", "quality S"]
    colours = knob_figure("erzahlspiel")  # the default knob: the die colour
    assert list(colours.data[0].x) == ["die black", "die red", "die yellow", "die green", "die blue"]
    tiers = knob_figure("unnamed", levels=[2, 4])  # the default knob: the pool size
    assert list(tiers.data[0].x) == ["2d6", "4d6"] and tiers.data[0].name == "Disaster"
    assert knob_levels("uwr", "favor") == [-2, -1, 0, 1, 2]
    assert pool_text(wb.system("uwr").pool(dice=3, rerolls=2)) == "3d6, 2 rerolls"


def test_a_knob_given_a_value_too_is_an_error():
    with pytest.raises(wb.WorkbenchError, match="advantage is the knob the columns step through"):
        knob_figure("erzahlspiel", "advantage", advantage=1)
    with pytest.raises(wb.WorkbenchError, match="knob"):
        knob_figure("erzahlspiel", "colour")


def test_blocks_read_size_scale_knob_and_levels():
    block = parse_block("figure", "erzahlspiel", {**ERZ_D6, "width": "1000", "height": "600",
                                                   "scale": "2.5"})
    assert (block.width, block.height, block.scale) == (1000, 600, 2.5)
    assert block.knob == "advantage" and block.levels == (-2, -1, 0, 1, 2)
    fig = build_figure(block)
    assert (fig.layout.width, fig.layout.height) == (1000, 600)
    for options, option in [({"width": "50"}, "width"), ({"scale": "x"}, "scale"),
                            ({"scale": "11"}, "scale"), ({"kind": "curve", "knob": "dice"}, "knob"),
                            ({**ERZ_D6, "levels": "-2,-2"}, "levels"),
                            ({**ERZ_D6, "levels": "-2,x"}, "levels"),
                            ({**ERZ_D6, "knob": "colour"}, "knob")]:
        with pytest.raises(BlockOptionError) as caught:
            parse_block("figure", "erzahlspiel", options)
        assert caught.value.option == option, options


def test_cli_writes_print_size_images(capsys, tmp_path, assert_one_line):
    need_chromium()
    png, svg = tmp_path / "erz.png", tmp_path / "erz.svg"
    code, _, err = run(capsys, "figure", "erzahlspiel", "dice=d6", "--kind", "outcomes",
                       "--knob", "advantage", "--levels=-2,-1,0,1,2", "--width", "1000",
                       "--height", "600", "--scale", "3", "--out", str(png))
    assert code == 0, err
    assert png_size(png) == (3000, 1800)  # 10 x 6 inches at 300 dpi
    from workbench.figures.style import outcome_colours
    assert_drawn(png, outcome_colours(6))  # the six outcomes, worst (red) to best (blue)
    code, _, err = run(capsys, "figure", "uwr", "--width", "640", "--height", "400", "--out", str(svg))
    assert code == 0, err
    assert svg_size(svg) == (640, 400)
    err = assert_one_line(*run(capsys, "figure", "uwr", "--scale", "0.1", "--out", str(png)))
    assert err.startswith("workbench: error: --scale got '0.1'")
    with pytest.raises(SystemExit):
        run(capsys, "figure", "--help")
    help_text = " ".join(capsys.readouterr().out.split())
    for option in ("--width", "--height", "--scale", "--knob", "--levels", "outcomes"):
        assert option in help_text, option


def test_markdown_block_draws_the_erzahlspiel_d6_chart_at_print_size(capsys, tmp_path):
    need_chromium()
    page = tmp_path / "dice.md"
    page.write_text("```workbench-figure erzahlspiel kind=outcomes dice=d6 knob=advantage "
                    "levels=-2,-1,0,1,2 width=900 height=500 scale=2\n```\n", encoding="utf-8")
    code, _, err = run(capsys, "render", str(page))
    assert code == 0, err
    (image,) = (tmp_path / "workbench-figures").glob("erzahlspiel-outcomes-*.png")
    assert png_size(image) == (1800, 1000)
    from workbench.figures.style import outcome_colours
    assert_drawn(image, outcome_colours(6))


def test_one_directive_regenerates_the_erzahlspiel_d6_chart(tmp_path):
    need_chromium()
    from sphinx.cmd.build import build_main
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text('extensions = ["workbench.sphinx"]\nproject = "Dice"\n', encoding="utf-8")
    (docs / "index.rst").write_text(textwrap.dedent("""\
        Regular dice
        ============

        .. workbench-figure:: erzahlspiel
           :kind: outcomes
           :dice: d6
           :knob: advantage
           :levels: -2,-1,0,1,2
           :width: 1000
           :height: 600
           :scale: 2
           :caption: 1d6, 2d6 and 3d6 keep highest or lowest
        """), encoding="utf-8")
    assert build_main(["-W", "-q", "-b", "html", str(docs), str(docs / "_build")]) == 0
    (image,) = (docs / "_build" / "_images").glob("erzahlspiel-outcomes-*.png")
    assert png_size(image) == (2000, 1200)
    html = (docs / "_build" / "index.html").read_text(encoding="utf-8")
    assert "1d6, 2d6 and 3d6 keep highest or lowest" in html
    assert 'alt="Erzählspiel narrative dice: the share of each outcome, one column per level of advantage"' in html


@pytest.mark.parametrize("system", sorted(s.id for s in wb.systems()))
def test_every_system_draws_its_outcomes_chart_with_the_engines_shares(system):
    """`workbench figure SYSTEM --kind outcomes` failed with AttributeError ('RollSpec' has no
    'keep') for every published game of the gallery; each column holds the check it names."""
    sys_ = wb.system(system)
    fig = knob_figure(system)
    knob = sys_.pool_parameter or next(p.name for p in sys_.params.values()
                                       if p.kind == "choice" and not p.rule_option)
    levels = knob_levels(system, knob)
    assert len(fig.data[0].x) == len(levels)
    column = len(levels) // 2
    result = wb.check(system, **{knob: levels[column]})
    shares = result.tiers if result.tiers is not None else result.pmf
    for trace in fig.data:
        named = {(f'net {o}' if isinstance(o, int) else str(o)): p
                 for o, p in shares.items()}.get(str(trace.name), 0.0)
        assert trace.y[column] == pytest.approx(float(named), abs=1e-9), trace.name
    assert sum(trace.y[column] for trace in fig.data) == pytest.approx(1.0, abs=1e-9)
    if sys_.pool_parameter and not wb.analysis.counts_dice(sys_):   # a skill, not dice
        assert all(x.startswith(f"{knob} ") for x in fig.data[0].x)


def test_what_a_published_roll_rolls_is_written_as_a_rulebook_does():
    assert pool_text(wb.system("dnd5e").pool(modifier=3, advantage=True)) == "2d20 +3"
    assert pool_text(wb.system("dnd5e").pool(modifier=-2)) == "1d20 −2"
    assert pool_text(wb.system("genesys").pool(ability=2, difficulty=1)).startswith("2 ability")
    assert "bonus die" in pool_text(wb.system("call-of-cthulhu-7e").pool(skill=40, bonus=1))
    assert knob_levels("fate", "skill") == list(range(0, 9))    # Fate's skill stops at 8


def test_cli_draws_a_published_games_outcomes(capsys, tmp_path):
    """The command a designer types for Fate's odds chart: one column per skill 0-8 (the
    skill's range), written as HTML (no browser needed), each column's shares in the page."""
    page = tmp_path / "fate.html"
    code, out, err = run(capsys, "figure", "fate", "--kind", "outcomes", "--out", str(page))
    assert code == 0, err
    text = page.read_text()
    assert all(f"skill {n}" in text for n in range(9)) and "skill 9" not in text
    assert "Succeed with style" in text


def test_a_stack_of_many_outcomes_lays_its_legend_in_rows_under_the_plot():
    """Genesys' net results (20-odd entries) ran off the bottom of a 480-px PNG beside the
    plot; a legend that does not fit goes under the plot in rows, worst first."""
    many = knob_figure("genesys")
    assert len(many.data) * 20 > 480 - 170
    assert many.layout.legend.orientation == "h" and many.layout.legend.yref == "container"
    assert many.layout.legend.traceorder == "normal" and many.layout.legend.title.text == "worst first"
    few = knob_figure("erzahlspiel")
    assert few.layout.legend.orientation in (None, "v") and few.layout.legend.traceorder == "reversed"
    assert few.layout.legend.title.text == "worst at the bottom"
    tall = knob_figure("genesys", height=900)    # room enough: beside the plot again
    assert tall.layout.legend.orientation in (None, "v")
