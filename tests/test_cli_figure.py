"""``workbench figure``: PNG / SVG / HTML files from the command line, and one-line errors."""
from __future__ import annotations

import json
import re

import pytest

from _images import assert_drawn, need_chromium, png_size, svg_colours, svg_size

from conftest import run_cli


def run(capsys, *argv):
    return run_cli(capsys, *argv)


def plotly_traces(html: str) -> list[dict]:
    """The traces of a plotly HTML page (its Plotly.newPlot call's data argument)."""
    match = re.search(r'Plotly\.newPlot\(\s*"[^"]+",\s*(\[.*?\])\s*,\s*\{', html, flags=re.S)
    assert match, "no Plotly.newPlot call in the page"
    return json.loads(match.group(1))


def test_html_curve_holds_the_exact_numbers(tmp_path, capsys):
    out = tmp_path / "curve.html"
    code, _, err = run(capsys, "figure", "uwr", "--kind", "curve", "--pools", "1-3", "--rungs", "Normal",
                       "--out", str(out))
    assert code == 0 and err.strip() == f"wrote {out}"
    traces = plotly_traces(out.read_text(encoding="utf-8"))
    assert len(traces) == 1
    assert [round(y, 4) for y in traces[0]["y"]] == [0.3333, 0.5556, 0.7037]  # 1 - (2/3)^n


def test_difference_against_a_base(tmp_path, capsys):
    out = tmp_path / "diff.html"
    code, _, err = run(capsys, "figure", "fons-exploding", "--kind", "difference", "--base", "fons",
                       "--pools", "1-2", "--out", str(out))
    assert code == 0, err
    names = [t["name"] for t in plotly_traces(out.read_text(encoding="utf-8"))]
    assert any("Difficult" in name for name in names)


def test_curves_of_several_systems_one_panel_each(tmp_path, capsys):
    out = tmp_path / "panels.html"
    code, _, err = run(capsys, "figure", "uwr", "--compare", "arrata,erzahlspiel", "--pools", "1-2",
                       "--out", str(out))
    assert code == 0, err
    traces = plotly_traces(out.read_text(encoding="utf-8"))
    # every rung of each pooled ladder as a curve; Erzählspiel's one die as one bar per rung
    assert len(traces) == 4 + 6 + 1
    assert traces[-1]["type"] == "bar" and len(traces[-1]["x"]) == 5
    assert {t.get("xaxis", "x") for t in traces} == {"x", "x2", "x3"}


def test_png_and_svg(tmp_path, capsys):
    need_chromium()
    png, svg = tmp_path / "ladder.png", tmp_path / "check.svg"
    assert run(capsys, "figure", "arrata", "quality=A", "--kind", "ladder", "--pools", "1-4",
               "--out", str(png))[0] == 0
    assert run(capsys, "figure", "unnamed", "d6=3", "d8=1", "--kind", "check", "--out", str(svg))[0] == 0
    assert png_size(png)[0] > 300 and svg_size(svg)[0] > 300
    # The pixels show the four rungs that pass at 1-4 dice in their line colours (Ob 5 and
    # Ob 6 lie at 0% under the axis line), and the check's bars in worst-to-best colours.
    from workbench.figures.style import LINE_COLOURS, outcome_colours
    from _images import rgb
    assert_drawn(png, LINE_COLOURS[:4])
    drawn = svg_colours(svg)
    assert {rgb(c) for c in outcome_colours(3)} <= drawn   # the three tiers


@pytest.mark.parametrize("argv, message", [
    (["uwr", "--out", "{tmp}/x.gif"], "--out got '{tmp}/x.gif'; allowed: a file name ending in .png, .svg, .html"),
    (["uwr", "--out", "{tmp}/missing/x.png"], "folder '{tmp}/missing' does not exist"),
    (["uwr", "--kind", "pie", "--out", "{tmp}/x.png"], "--kind got 'pie'; allowed: curve, check, difference, ladder"),
    (["uwr", "--kind", "difference", "--out", "{tmp}/x.png"], "--base got ''"),
    (["uwr", "dice=x", "--out", "{tmp}/x.png"], "parameter 'dice' got 'x'"),
    (["uwr", "--pools", "9-1", "--out", "{tmp}/x.png"], "--pools got '9-1': range 9-1 runs backwards"),
    (["nope", "--out", "{tmp}/x.png"], "unknown system 'nope'"),
    # Options the kind does not use were silently ignored.
    (["uwr", "--base", "fons", "--out", "{tmp}/x.png"],
     "--base got 'fons'; allowed: only with kind=difference (this figure is kind=curve)"),
    (["uwr", "--kind", "check", "--want", "Easy=0.9", "--out", "{tmp}/x.png"], "--want got 'Easy=0.9'; allowed: only with kind=ladder"),
    (["uwr", "--kind", "check", "--pools", "1-3", "--out", "{tmp}/x.png"], "--pools got '1-3'; allowed: only with kind=curve"),
    (["uwr", "--kind", "ladder", "--pool", "3", "--out", "{tmp}/x.png"], "--pool got '3'; allowed: only together with want"),
    # The solver's message is said once, under the option's own name.
    (["uwr", "--kind", "ladder", "--want", "Easy=2", "--out", "{tmp}/x.png"], "--want got 'Easy=2'; allowed: a number from 0 to 1"),
    (["uwr", "--kind", "ladder", "--want", "oops", "--out", "{tmp}/x.png"],
     "--want got 'oops'; allowed: RUNG=PROBABILITY entries such as Easy=0.9,Normal=70%"),
    # On the command line a stray NAME=VALUE is a parameter: the directive's options are not listed.
    (["uwr", "foo=1", "--out", "{tmp}/x.png"],
     "parameter 'foo' got '1'; allowed: parameters of uwr: dice, favor, rerolls, half, penalty, target"),
])
def test_bad_input_is_status_2_on_one_line(tmp_path, capsys, assert_one_line, argv, message):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert_one_line(*run(capsys, "figure", *argv), contains=(message.replace("{tmp}", str(tmp_path)),))
    assert list(tmp_path.iterdir()) == []


def test_without_chromium_a_png_says_how_to_get_it_and_html_still_works(tmp_path, capsys, monkeypatch,
                                                                          assert_one_line):
    """PNG and SVG figures (and a rulebook's static figures) need Chromium: without it the
    one-line error says so and how to install it; an HTML figure needs no browser."""
    import workbench.figures.output as output
    monkeypatch.setattr(output, "chromium_path", lambda: None)
    err = assert_one_line(*run(capsys, "figure", "uwr", "--out", str(tmp_path / "odds.png")))
    assert not (tmp_path / "odds.png").exists()
    for words in ("Chromium", "apt-get install chromium", "plotly_get_chrome", "BROWSER_PATH", ".html"):
        assert words in err, words
    assert run(capsys, "figure", "uwr", "--out", str(tmp_path / "odds.html"))[0] == 0


def test_a_curve_of_a_one_die_system_is_its_rungs_as_bars(tmp_path, capsys):
    """`workbench figure erzahlspiel` drew flat lines against "dice in the pool": one die has
    no pool to vary, so the figure shows each rung's P(pass) as a bar."""
    out = tmp_path / "erz.html"
    assert run(capsys, "figure", "erzahlspiel", "--out", str(out))[0] == 0
    (bars,) = plotly_traces(out.read_text(encoding="utf-8"))
    assert bars["type"] == "bar" and bars["x"] == ["black", "red", "yellow", "green", "blue"]
    assert bars["y"] == pytest.approx([k / 6 for k in range(1, 6)], abs=1e-9)


def test_figure_out_htm_writes_the_html_page_as_report_and_share_take_it(capsys, tmp_path):
    out = tmp_path / "odds.htm"
    code, _, err = run_cli(capsys, "figure", "uwr", "--out", str(out))
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "P(pass) against dice" in page
