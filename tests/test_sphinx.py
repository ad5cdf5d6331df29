"""The Sphinx extension: a small project with ``extensions = ["workbench.sphinx"]`` builds with
``-W`` and shows the numbers ``workbench table`` prints; results are cached between builds and
recomputed when a system file changes; a bad option fails naming file, line and option."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from _deps import need

need("sphinx")  # the docs extra; the dev extra brings it, so CI always has it
from docutils import nodes  # noqa: E402
from sphinx.cmd.build import build_main  # noqa: E402

from _images import need_chromium, png_size  # noqa: E402
from workbench.cli import main  # noqa: E402
from workbench.rules.registry import get_system  # noqa: E402
from workbench.sphinx._cache import STATS  # noqa: E402
from _rulebook import MINE  # noqa: E402

CONF = 'extensions = ["workbench.sphinx"]\nproject = "Odds"\nexclude_patterns = ["_build"]\n'


def make_project(folder: Path, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "conf.py").write_text(CONF, encoding="utf-8")
    (folder / "index.rst").write_text("Odds\n====\n\n" + textwrap.dedent(body), encoding="utf-8")
    return folder


def uwr_ladder_figure(pools: str, **options: str) -> str:
    """The directive for UWR's ladder drawn over ``pools``, with more ``:option: value`` lines."""
    lines = [".. workbench-figure:: uwr", "   :kind: ladder", f"   :pools: {pools}",
             *(f"   :{name}: {value}" for name, value in options.items())]
    return "\n".join(lines) + "\n\n"


def build(project: Path, builder: str = "html", *extra: str) -> tuple[int, str]:
    warnings = project / "warnings.txt"
    code = build_main(["-W", "-q", "-b", builder, "-w", str(warnings), *extra, str(project),
                       str(project / "_build" / builder)])
    return code, warnings.read_text(encoding="utf-8") if warnings.exists() else ""


def doctree_tables(project: Path, builder: str = "html") -> list[list[list[str]]]:
    """Every table of the built index page as rows of cell texts (header first)."""
    import pickle
    doctree = pickle.loads((project / "_build" / builder / ".doctrees" / "index.doctree").read_bytes())
    tables = []
    for table in doctree.findall(nodes.table):
        tables.append([[entry.astext() for entry in row.findall(nodes.entry)]
                       for row in table.findall(nodes.row)])
    return tables


def cli_grid(capsys, *argv) -> list[list[str]]:
    """The cells of a ``workbench table`` RST grid table."""
    assert main([*argv, "--format", "rst-grid"]) == 0
    out = capsys.readouterr().out
    return [[cell.strip() for cell in line.strip("|").split("|")]
            for line in out.splitlines() if line.startswith("|")]


def test_table_matches_workbench_table(tmp_path, capsys):
    project = make_project(tmp_path / "docs", """
        .. workbench-table:: uwr

        .. workbench-table:: arrata
           :pools: 2-5
           :quality: A
           :format: fraction
           :style: list-table
           :caption: Arrata at Quality A
        """)
    code, warnings = build(project)
    assert code == 0, warnings
    uwr, arrata = doctree_tables(project)
    assert uwr == cli_grid(capsys, "table", "uwr")
    assert arrata == cli_grid(capsys, "table", "arrata", "quality=A", "--pools", "2-5", "--fraction")
    assert uwr[0][:3] == ["Difficulty", "Example", "Setting"] and uwr[2][3] == "33.3%"
    html = (project / "_build" / "html" / "index.html").read_text(encoding="utf-8")
    assert "Arrata at Quality A" in html and "<table" in html and "workbench-list-table" in html


def test_ladder_directive(tmp_path, capsys):
    project = make_project(tmp_path / "docs", """
        .. workbench-ladder:: uwr
           :pools: 1-3

        .. workbench-ladder:: uwr
           :want: Easy=0.9,Normal=0.7,Hard=0.45
           :pool: 4
           :format: digits
        """)
    code, warnings = build(project)
    assert code == 0, warnings
    across, solved = doctree_tables(project)
    assert across[0] == ["Difficulty", "1 die", "2 dice", "3 dice"]
    assert across[2] == ["Normal", "33.3%", "55.6%", "70.4%"]
    assert solved[0] == ["rung", "setting", "wanted", "achieved", "reachable"]
    import workbench as wb
    solution = wb.solve_ladder("uwr", "Easy=0.9,Normal=0.7,Hard=0.45", pool=4)
    assert [row[3] for row in solved[1:]] == [f"{r.achieved:.3f}" for r in solution.rungs]


def test_results_are_cached_and_a_changed_data_file_recomputes(tmp_path):
    project = make_project(tmp_path / "docs", """
        .. workbench-table:: mine.toml
           :pools: 1-3
        """)
    (project / "mine.toml").write_text(MINE.format(target=1), encoding="utf-8")
    STATS.clear()
    assert build(project)[0] == 0
    assert STATS["tables computed"] == 1
    first = doctree_tables(project)[0]
    assert first[1][-3:] == ["33.3%", "55.6%", "70.4%"]
    assert build(project, "html", "-E")[0] == 0  # every page re-read: the table comes from the cache
    assert STATS["tables computed"] == 1 and STATS["tables read"] == 1
    assert doctree_tables(project)[0] == first
    # Two successes instead of one: the page is re-read (no -E) and the table recomputed.
    (project / "mine.toml").write_text(MINE.format(target=2), encoding="utf-8")
    assert build(project)[0] == 0
    assert STATS["tables computed"] == 2
    again = doctree_tables(project)[0]
    assert again[1][-3:] == ["0.0%", "11.1%", "25.9%"]


@pytest.mark.parametrize("body, line, option, allowed", [
    (".. workbench-table:: uwr\n   :format: percentage\n", 5, "format", "percent, digits, fraction"),
    (".. workbench-table:: uwr\n   :colour: red\n", 5, "colour", "pools"),
    ("Some text.\n\n.. workbench-table:: uwr\n   :favor: 1.5\n", 7, "favor", "whole number"),
    (".. workbench-figure:: uwr\n   :kind: pie\n", 5, "kind", "curve, check, difference, ladder"),
    (".. workbench-ladder:: uwr\n   :pools: 3-1\n", 5, "pools", "1-10"),
    (".. workbench-figure:: uwr\n   :base: fons\n", 5, "base", "only with kind=difference"),
    (".. workbench-ladder:: uwr\n   :want: Easy=2\n", 4, "want", "allowed: a number from 0 to 1"),
])
def test_bad_option_names_file_line_option_and_allowed(tmp_path, body, line, option, allowed):
    """``line`` is the option's own line (the page title takes lines 1-3)."""
    project = make_project(tmp_path / "docs", body)
    code, warnings = build(project)
    assert code != 0
    assert f"index.rst:{line}" in warnings, warnings
    assert f"'{option}'" in warnings and allowed in warnings, warnings


def test_a_bad_option_on_a_later_line_and_a_missing_one(tmp_path):
    body = (".. workbench-ladder:: uwr\n   :pools: 1-3\n   :format: digits\n   :show: all\n\n"
            ".. workbench-figure:: uwr\n   :kind: difference\n")
    code, warnings = build(make_project(tmp_path / "docs", body))
    assert code != 0
    assert "index.rst:7: ERROR: workbench-ladder: option 'show' got 'all'; allowed: solution, pools" in warnings
    assert "index.rst:9: ERROR: workbench-figure: option 'base'" in warnings  # missing: the directive's line


def test_unknown_system_is_a_build_error(tmp_path):
    code, warnings = build(make_project(tmp_path / "docs", ".. workbench-table:: nope\n"))
    assert code != 0 and "index.rst:4" in warnings and "unknown system 'nope'" in warnings


def test_figure_directive_writes_an_image_with_alt_and_caption(tmp_path):
    need_chromium()
    project = make_project(tmp_path / "docs", uwr_ladder_figure("1-4", caption="UWR difficulty by pool size")
                           + textwrap.dedent("""
        .. workbench-figure:: fons-exploding
           :kind: difference
           :base: fons
           :output: svg
           :alt: Exploding sixes against plain FoNS
        """))
    STATS.clear()
    code, warnings = build(project)
    assert code == 0, warnings
    images = project / "_build" / "html" / "_images"
    pngs, svgs = sorted(images.glob("uwr-ladder-*.png")), sorted(images.glob("fons-exploding-difference-*.svg"))
    assert len(pngs) == 1 and len(svgs) == 1
    assert png_size(pngs[0])[0] > 300
    html = (project / "_build" / "html" / "index.html").read_text(encoding="utf-8")
    assert 'alt="Exploding sixes against plain FoNS"' in html
    assert "UWR difficulty by pool size" in html and 'alt="UWR' in html
    assert STATS["figures drawn"] == 2
    assert build(project, "html", "-E")[0] == 0
    assert STATS["figures drawn"] == 2 and STATS["figures read"] == 2


def test_interactive_figure_on_html_builders(tmp_path):
    project = make_project(tmp_path / "docs", """
        .. workbench-figure:: uwr
           :kind: curve
           :pools: 1-3
           :output: html
        """)
    code, warnings = build(project)
    assert code == 0, warnings
    pages = list((project / "_build" / "html" / "_workbench").glob("uwr-curve-*.html"))
    assert len(pages) == 1 and "plotly" in pages[0].read_text(encoding="utf-8")
    html = (project / "_build" / "html" / "index.html").read_text(encoding="utf-8")
    assert f'src="_workbench/{pages[0].name}"' in html


def test_parameters_directive_lists_every_parameter_and_rule_option(tmp_path):
    project = make_project(tmp_path / "docs", ".. workbench-parameters:: arrata\n")
    code, warnings = build(project)
    assert code == 0, warnings
    (table,) = doctree_tables(project)
    arrata = get_system("arrata")
    assert table[0] == ["Name", "Kind", "Default", "Allowed", "Meaning"]
    assert [row[0] for row in table[1:]] == sorted(arrata.params, key=lambda n: arrata.params[n].rule_option)
    combine = next(row for row in table if row[0] == "combine")
    assert combine[1:3] == ["rule option", "independent"]


def test_interactive_figure_falls_back_to_a_picture_elsewhere(tmp_path):
    need_chromium()
    project = make_project(tmp_path / "docs", uwr_ladder_figure("1-3", output="html",
                                                                caption="The ladder, drawn"))
    code, warnings = build(project, "latex")
    assert code == 0, warnings
    tex = next((project / "_build" / "latex").glob("*.tex")).read_text(encoding="utf-8")
    assert "includegraphics" in tex and "uwr-ladder-" in tex and ".png" in tex and "iframe" not in tex
    assert "The ladder, drawn" in tex
