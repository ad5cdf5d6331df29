"""Rulebook exports attacked as a designer would: labels with Markdown / RST markup characters,
non-ASCII and long names, options that clash. Each table must still read as a table with the
data file's literal text in its cells, and the numbers of ``workbench.check``."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from _deps import need
from markdown_it import MarkdownIt

import workbench
from workbench.cli import main
from workbench.markdown import fill_markdown
from workbench.render import build_figure, parse_block, table_cells

from conftest import pool_toml


#: A 2d6 + DM system whose rung names, example and tier names hold markup characters.
MARKUP = """\
id = "markup"
name = "Markup | *odds* `x`"
mechanic = "pool"
pool_parameter = "dm"
description = "2d6 + DM."

[dice.d6]
faces = [1, 2, 3, 4, 5, 6]
count = 2

[params.dm]
default = 0
min = 0
max = 2
help = "dice modifier"
effect = { add_to_total = 1 }

[params.target]
default = 8
min = 2
max = 20
help = "the total needed"
effect = "target"

[[tiers]]
name = "Miss | *bad*"
max = 6

[[tiers]]
name = "Weak `hit`_x_: 漢字"
min = 7
max = 9

[[tiers]]
name = "Strong [hit](x) <b>~~big~~</b> &amp;"
min = 10

[[ladder]]
name = "Routine | 6+"
set = { target = 6 }
example = "Pick a lock | jump *far* `x` _y_ ::"

[[ladder]]
name = "*Average* (8+)"
set = { target = 8 }

[[ladder]]
name = "Hard_ \\\\* (10+) 漢字"
set = { target = 10 }
"""

_MD = MarkdownIt("commonmark").enable("table")


def md_tables(text: str) -> list[list[list[str]]]:
    """Every pipe table of a Markdown text as rows of cells: the plain text a reader sees, and
    ``<em>`` / ``<code>`` / link / HTML markers where a cell was read as markup."""
    tokens, tables = _MD.parse(text), []
    for index, token in enumerate(tokens):
        if token.type == "table_open":
            tables.append([])
        elif token.type == "tr_open":
            tables[-1].append([])
        elif token.type in ("th_open", "td_open"):
            children = tokens[index + 1].children or []
            tables[-1][-1].append("".join(c.content if c.type == "text" else f"<{c.type}>"
                                          for c in children))
    return tables


def md_paragraphs(text: str) -> list[str]:
    tokens = _MD.parse(text)
    return ["".join(c.content if c.type == "text" else f"<{c.type}>" for c in t.children or [])
            for t in tokens if t.type == "inline" and tokens[tokens.index(t) - 1].type == "paragraph_open"]


@pytest.fixture
def markup(tmp_path: Path) -> Path:
    path = tmp_path / "markup.toml"
    path.write_text(MARKUP, encoding="utf-8")
    return path


def test_markdown_table_cells_keep_the_data_files_text(markup):
    """Before: ``*Average*`` rendered as emphasis, `` `hit` `` as code, ``Hard_ \\*`` lost its
    backslash; only ``|`` was escaped. Now every cell reads as the text Sphinx shows."""
    page = textwrap.dedent("""\
        ```workbench-table markup.toml format=fraction
        caption="Odds *at* 2_d6 | [all](x)"
        ```
        """)
    filled = fill_markdown(page, markup.parent / "rules.md").text
    header, rows = table_cells(parse_block("table", str(markup), {"format": "fraction"}))
    assert md_tables(filled) == [[header, *rows]]
    assert rows[1][0] == "*Average* (8+)" and rows[2][0] == "Hard_ \\* (10+) 漢字"
    # the numbers are workbench.check's: 2d6 + 1 >= 8 is 7/12
    assert rows[1][header.index("dm 1")] == "7/12"
    assert workbench.check(str(markup), dm=1, target=8).p_pass == pytest.approx(7 / 12)
    # the caption is the literal text given, in italics (one <em> around it)
    assert "<em_open>Odds *at* 2_d6 | [all](x)<em_close>" in md_paragraphs(filled)


@pytest.mark.parametrize("fmt", ["md"])
def test_pmf_markdown_tier_labels_stay_one_cell(markup, capsys, fmt):
    """Before: ``workbench pmf --format md`` wrote ``| Miss | *bad* | 27.78% |``: three cells, so
    the probability column read ``*bad*`` and the number was dropped."""
    assert main(["pmf", str(markup), "dm=1", "--format", fmt]) == 0
    tables = md_tables(capsys.readouterr().out)
    tiers = next(t for t in tables if t[0] == ["tier", "probability"])
    expected = workbench.check(str(markup), dm=1).tiers
    assert [row[0] for row in tiers[1:]] == list(expected.outcomes)
    assert [row[1] for row in tiers[1:]] == [f"{100 * p:.2f}%" for p in expected.probabilities]
    summary = next(t for t in tables if t[0] == ["quantity", "value"])
    assert [row[0] for row in summary[1:]][:2] == ["p_pass", "mean"]


def test_pmf_rst_tier_labels_build_with_sphinx(markup, tmp_path, capsys):
    """Before: ``workbench pmf --format rst`` left `` `hit`_x_ `` unescaped, and a book holding
    the table failed to build (an unknown reference / an unclosed interpreted text)."""
    need("sphinx")
    from test_sphinx import build, doctree_tables, make_project
    assert main(["pmf", str(markup), "dm=1", "--format", "rst"]) == 0
    project = make_project(tmp_path / "book", capsys.readouterr().out)
    code, warnings = build(project)
    assert code == 0, warnings
    tiers = next(t for t in doctree_tables(project) if t[0] == ["tier", "probability"])
    assert [row[0] for row in tiers[1:]] == list(workbench.check(str(markup), dm=1).tiers.outcomes)


# ------------------------------------------------------------------------- figure sizes


def test_compare_panels_too_low_are_refused(tmp_path, capsys):
    """Before: ``compare`` of ten systems at ``height=200`` drew ten panels ~10 px tall each,
    titles on top of each other. Now the height must leave each row of panels its room."""
    from workbench.render import BlockOptionError
    compare = "arrata,fons,unnamed,fate,blades,pbta,dnd5e,genesys,traveller"
    with pytest.raises(BlockOptionError) as caught:
        parse_block("figure", "uwr", {"compare": compare, "height": "200"})
    assert (caught.value.option, caught.value.value) == ("height", "200")
    assert "at least 1640 px for 10 panels in 5 rows" in caught.value.allowed
    out = tmp_path / "panels.png"
    assert main(["figure", "uwr", "--compare", compare, "--height", "200", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--height got '200'; allowed: at least 1640 px" in err and not out.exists()
    # one row of two panels may be lower; the default height always fits
    assert parse_block("figure", "uwr", {"compare": "arrata", "height": "290"}).height == 290
    assert parse_block("figure", "uwr", {"compare": compare}).height is None


def test_png_beyond_the_browsers_canvas_is_refused(tmp_path, capsys):
    """Before: ``--width 5000 --height 5000 --scale 10`` said "wrote huge.png" and left a 3-byte
    file that is no PNG (Chromium's canvas tops out at 16384 x 16384 pixels)."""
    out = tmp_path / "huge.png"
    assert main(["figure", "uwr", "--width", "5000", "--height", "5000", "--scale", "10",
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--scale got '10'" in err and "a scale up to 3.27" in err and "50000 x 50000" in err
    assert not out.exists()
    page = tmp_path / "rules.md"
    text = "```workbench-figure uwr width=5000 height=5000 scale=10\n```\n"
    page.write_text(text, encoding="utf-8")
    assert main(["render", str(page)]) == 2
    assert "option 'scale' got '10'" in capsys.readouterr().err
    assert page.read_text(encoding="utf-8") == text and not (tmp_path / "workbench-figures").exists()


def test_a_browser_that_returns_no_png_leaves_the_old_file(tmp_path, monkeypatch):
    """Before: whatever bytes kaleido wrote were renamed over the figure, even the few bytes
    of an empty ``data:,`` canvas. Now a file that is no PNG is an error; the old one stays."""
    import plotly.io as pio
    from workbench.figures import output, write_figure
    from workbench.files import TargetError
    out = tmp_path / "odds.png"
    out.write_bytes(b"\x89PNG\r\n\x1a\nold figure")

    def blank(figures, files, **_):
        for name in files:
            Path(name).write_bytes(b"u\xabZ")
    monkeypatch.setattr(pio, "write_images", blank)
    monkeypatch.setattr(output, "chromium_path", lambda: "/usr/bin/chromium")
    fig = build_figure(parse_block("figure", "uwr", {"pools": "1-2"}))
    with pytest.raises(TargetError, match=r"returned 3 bytes that are no PNG\); no file was changed"):
        write_figure(fig, out)
    assert out.read_bytes() == b"\x89PNG\r\n\x1a\nold figure"
    assert [p.name for p in tmp_path.iterdir()] == ["odds.png"]


# ------------------------------------------------------------------- options left unused


@pytest.mark.parametrize("kind, options, option, allowed", [
    # the command line refuses --fraction --digits 3; a block printed fractions and dropped it
    ("table", {"format": "fraction", "digits": "3"}, "digits", "only with format=percent or format=digits"),
    ("ladder", {"format": "fraction", "digits": "3"}, "digits", "only with format=percent or format=digits"),
    # without want the block shows the plain ladder: show and pool did nothing
    ("ladder", {"show": "pools"}, "show", "only together with want"),
    ("ladder", {"pool": "3"}, "pool", "only together with want"),
    # with want the solution names its rungs, and pools are the columns of show=pools only
    ("ladder", {"want": "Easy=0.9,Normal=0.7", "rungs": "Easy"}, "rungs", "no rungs together with want"),
    ("ladder", {"want": "Easy=0.9,Normal=0.7", "pools": "1-3"}, "pools", "only together with show=pools"),
    ("figure", {"kind": "ladder", "want": "Easy=0.9", "rungs": "Easy"}, "rungs", "no rungs together with want"),
    # the parameters table lists defaults: a value was accepted and shown nowhere
    ("parameters", {"dice": "3"}, "dice", "no parameter values in workbench-parameters"),
])
def test_an_option_its_block_would_ignore_is_an_error(kind, options, option, allowed):
    """Before: each of these blocks built, the option silently ignored (the table showed the
    same numbers as without it). Now the error names the option, its value and its use."""
    from workbench.render import BlockOptionError
    with pytest.raises(BlockOptionError) as caught:
        parse_block(kind, "uwr", options)
    assert (caught.value.option, caught.value.value) == (option, options[option])
    assert allowed in caught.value.allowed


def test_the_options_that_are_used_still_build():
    solved = parse_block("ladder", "uwr", {"want": "Easy=0.9,Normal=0.7", "pools": "1-3", "show": "pools"})
    header, rows = table_cells(solved)
    assert header == ["Difficulty", "1 die", "2 dice", "3 dice"] and [r[0] for r in rows] == ["Easy", "Normal"]
    # the solved Easy (target=2, favor+2) at 3 dice: a 4+ on at least two of three d6s
    assert rows[0][3] == f"{100 * workbench.check('uwr', dice=3, target=2, favor=2).p_pass:.1f}%"
    assert table_cells(parse_block("table", "uwr", {"format": "digits", "digits": "2", "pools": "2"}))[1][1][-1] \
        == f"{workbench.check('uwr', dice=2, target=1).p_pass:.2f}"


def test_a_figure_folder_with_spaces_is_still_linked(tmp_path):
    """Before: ``--figures "my figs"`` wrote ``![...](my figs/uwr-ladder-....png)``, which no
    Markdown tool reads as an image (a space ends the link). Now the link is percent-encoded."""
    from urllib.parse import unquote
    from workbench.render import figure_file_name
    folder = tmp_path / "my figs (print)"
    folder.mkdir()
    page = "```workbench-figure uwr kind=ladder pools=1-2 alt=\"Odds [all] *rungs*\"\n```\n"
    filled = fill_markdown(page, tmp_path / "rules.md", figures=folder, draw=False).text
    images = [child for token in _MD.parse(filled) if token.type == "inline"
              for child in token.children if child.type == "image"]
    assert len(images) == 1
    src = images[0].attrs["src"]
    name = figure_file_name(parse_block("figure", "uwr", {"kind": "ladder", "pools": "1-2",
                                                          "alt": "Odds [all] *rungs*"}))
    assert (tmp_path / unquote(src)) == folder / name
    assert images[0].children[0].content == "Odds [all] *rungs*"   # the alt text as given


@pytest.mark.parametrize("fmt", ["rst-grid", "rst-list", "rst-csv"])
def test_rst_tables_keep_a_label_with_a_line_break_inside(fmt):
    """Before: a tier or rung name with a line break ("Routine\\nsecond line", as a data file
    may write it) put its second line outside the list-table / csv-table directive's body:
    docutils reported an error and the table lost its row. Now the break is a space."""
    import pandas as pd
    from docutils import nodes
    from docutils.core import publish_doctree
    frame = pd.DataFrame({"tier": ["Routine\nsecond line", "*Average*", "`hit`_x_"],
                          "p": [0.5, 0.25, 0.25]})
    doctree = publish_doctree(workbench.render_table(frame, fmt),
                              settings_overrides={"report_level": 5, "halt_level": 5})
    assert not list(doctree.findall(nodes.system_message))
    cells = [[entry.astext() for entry in row.findall(nodes.entry)] for row in doctree.findall(nodes.row)]
    assert cells == [["tier", "p"], ["Routine second line", "50.0%"], ["*Average*", "25.0%"],
                     ["`hit`_x_", "25.0%"]]


def test_a_long_tier_name_is_wrapped_in_the_legend(markup, tmp_path):
    """Before: a tier named in a sentence was one legend line: in an 800 px outcomes figure the
    plot shrank to a quarter of the width. Now legend names break after 32 characters."""
    long = "Strong hit with a very very long name that goes on and on and on"
    markup.write_text(MARKUP.replace('"Strong [hit](x) <b>~~big~~</b> &amp;"', f'"{long}"'),
                      encoding="utf-8")
    fig = build_figure(parse_block("figure", str(markup), {"kind": "outcomes"}))
    names = [trace.name for trace in fig.data]
    assert [name.replace("<br>", " ") for name in names] == list(workbench.check(str(markup)).tiers.outcomes)
    assert max(len(line) for name in names for line in name.split("<br>")) <= 32
    assert names[-1] == "Strong hit with a very very long<br>name that goes on and on and on"


# ----------------------------------------------- a ladder that sets the pool parameter itself


def test_cypher_table_is_not_eleven_copies_of_each_rung(capsys):
    """Before: Cypher's ladder sets ``level``, its pool parameter, so ``workbench table cypher``
    and a workbench-table block headed eleven columns ``level 0`` ... ``level 10`` that all
    showed the rung's own odds (75% under "level 7", where workbench.check says 0%). Now the
    table has one row per rung with the tier shares and P(pass), as for a system without a
    pool, and pools are refused."""
    from workbench.render import BlockOptionError
    header, rows = table_cells(parse_block("table", "cypher", {"format": "digits", "digits": "4"}))
    assert header == ["Difficulty", "Setting", "GM intrusion", "Ordinary", "Minor effect",
                      "Major effect", "P(pass)"]
    for row in rows:
        level = int(row[1].removeprefix("level="))
        result = workbench.check("cypher", level=level)
        assert row[-1] == f"{result.p_pass:.4f}"
        assert row[2:-1] == [f"{p:.4f}" for p in result.tiers.probabilities]
    assert table_cells(parse_block("ladder", "cypher", {}))[0] == ["Difficulty", "P(pass)"]
    with pytest.raises(BlockOptionError) as caught:
        parse_block("table", "cypher", {"pools": "1-3"})
    assert caught.value.value == "1-3" and "its ladder sets level itself" in caught.value.allowed
    assert main(["table", "cypher", "--pools", "1-3"]) == 2
    assert "--pools got '1-3'; allowed: no --pools for cypher" in capsys.readouterr().err


@pytest.mark.parametrize("options", [
    {}, {"kind": "check"}, {"kind": "outcomes"}, {"height": "700"},
    {"compare": "arrata"}, {"compare": "arrata,fons,unnamed,fate"},
])
def test_an_interactive_figure_gets_a_frame_as_tall_as_itself(options, tmp_path):
    """Before: an ``output=html`` figure was shown in an iframe 520 px tall whatever its
    height: five compared systems (1040 px of panels) or height=700 were squeezed into 520,
    the panels half as tall as drawn. Now the frame is the figure's height and 40 px."""
    import re
    from workbench.render import figure_height
    block = parse_block("figure", "uwr", options)
    assert figure_height(block) == build_figure(block).layout.height
    words = " ".join(f"{name}={value}" for name, value in options.items())
    page = f"```workbench-figure uwr {words} output=html\n```\n"
    filled = fill_markdown(page, tmp_path / "rules.md", draw=False).text
    assert re.search(r'<iframe [^>]*height="(\d+)"', filled).group(1) == str(figure_height(block) + 40)


def test_scale_on_an_svg_is_an_error(tmp_path, capsys):
    """Before: ``scale=3 output=svg`` (or ``workbench figure --scale 3 --out odds.svg``) was
    accepted and did nothing: an SVG keeps its size in its own units."""
    from workbench.render import BlockOptionError
    with pytest.raises(BlockOptionError) as caught:
        parse_block("figure", "uwr", {"scale": "3", "output": "svg"})
    assert (caught.value.option, caught.value.value) == ("scale", "3")
    assert caught.value.allowed.startswith("only with output=png")
    assert parse_block("figure", "uwr", {"scale": "3", "output": "html"}).scale == 3
    out = tmp_path / "odds.svg"
    assert main(["figure", "uwr", "--scale", "3", "--out", str(out)]) == 2
    assert "--scale got '3'; allowed: only with output=png" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("system, pools, outside", [("l5r-4e", "1-100", "roll from 1 to 10 (not 11)"),
                                                     ("star-wars-d6", "0-3", "dice from 1 to 15 (not 0)"),
                                                     ("fate", "0-9", "skill from 0 to 8 (not 9)")])
def test_pools_a_system_cannot_roll_are_named_as_given(system, pools, outside, capsys, tmp_path):
    """Before: ``pools=1-100`` for Legend of the Five Rings failed with "parameter 'roll' got
    11", a value the author never wrote (and a curve figure silently drew 1-10 instead). Now
    the error names the pools given and the sizes the system can roll."""
    from workbench.render import BlockOptionError
    for kind in ("table", "ladder", "figure"):
        with pytest.raises(BlockOptionError) as caught:
            parse_block(kind, system, {"pools": pools})
        assert (caught.value.option, caught.value.value) == ("pools", pools)
        assert caught.value.allowed == f"pool sizes {system} can roll: its {outside}"
    assert main(["table", system, "--pools", pools]) == 2
    assert f"--pools got '{pools}'; allowed: pool sizes {system} can roll: its {outside}" \
        in capsys.readouterr().err


def test_a_table_of_a_system_without_a_ladder_shows_its_odds_by_pool(tmp_path, capsys):
    """Before: ``workbench-table blades`` stopped with "blades: has no difficulty ladder
    ([[ladder]] in its data file)"; now it shows P(pass) by pool, as check says."""
    page = tmp_path / "rules.md"
    page.write_text("```workbench-table blades pools=1-2 format=fraction\n```\n", encoding="utf-8")
    assert main(["render", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "| Chance   | 1 die   | 2 dice   |" in text and "| P(pass)  | 1/2     | 3/4      |" in text
    assert [workbench.check("blades", dice=n).p_pass for n in (1, 2)] == pytest.approx([1 / 2, 3 / 4])
    # the ladder block shows the same chances, under the one rung it has
    header, rows = table_cells(parse_block("ladder", "blades", {"pools": "1-2", "format": "fraction"}))
    assert header == ["Difficulty", "1 die", "2 dice"]
    assert rows == [["pass", "1/2", "3/4"]]


ADDS_DICE = pool_toml("adds-dice", "a ladder that takes dice away", dice=4, most=12, target=12, more='''
[[ladder]]
name = "Plain"

[[ladder]]
name = "Hard"
add = { dice = -2 }
''')


def test_a_ladder_that_adds_to_the_pool_keeps_a_column_per_pool(pool_file):
    """Only a ladder that *sets* the pool knob (Cypher's task level) loses the columns; one
    that takes two dice away reads each column as the character's own pool."""
    from workbench.ladders import column_knob
    path = pool_file(ADDS_DICE, file="adds-dice.toml")
    system = workbench.load_system(path)
    assert column_knob(system) == "dice"
    table = workbench.ladder_table(system, [3, 5])
    assert list(table.columns) == [3, 5]
    assert table.loc["Hard", 5] == pytest.approx(1 - (2 / 3) ** 3)   # 5 dice less 2: 3 dice
    assert table.loc["Plain", 3] == pytest.approx(1 - (2 / 3) ** 3)


@pytest.mark.parametrize("pools, problem, allowed", [
    ("5-1", ": range 5-1 runs backwards", "sizes from 0 to 100 such as 1-10 or 2,4,6"),
    ("3-5,04", ": pool size 4 is given twice", "sizes from 0 to 100 such as 1-10 or 2,4,6, each once"),
    ("1-101", "", "sizes from 0 to 100 such as 1-10 or 2,4,6"),
    ("1...3", "", "sizes from 0 to 100 such as 1-10 or 2,4,6"),
    ("\uff13", "", "sizes from 0 to 100 such as 1-10 or 2,4,6"),   # a fullwidth 3
])
def test_pool_sizes_are_read_by_one_grammar_on_every_route(pools, problem, allowed, tmp_path, capsys):
    """Before: the command line and the rulebook blocks each read pool sizes with a parser of
    their own; a block said only "allowed: pool sizes from 0 to 100 ..." where the command
    line said what was wrong ("range 5-1 runs backwards", "pool size 4 is given twice"). Now
    one parser reads them and every route says the same, each naming the option its way."""
    from workbench import render
    from workbench.cli import _docs
    from workbench.render import BlockOptionError
    assert _docs.parse_pools is render.parse_pools
    assert main(["table", "uwr", "--pools", pools]) == 2
    assert capsys.readouterr().err == f"workbench: error: --pools got {pools!r}{problem}; allowed: {allowed}\n"
    with pytest.raises(BlockOptionError) as caught:
        parse_block("ladder", "uwr", {"pools": pools})
    assert (caught.value.option, caught.value.value) == ("pools", pools)
    assert str(caught.value) == f"option 'pools' got {pools!r}{problem}; allowed: {allowed}"
    page = tmp_path / "odds.md"
    page.write_text(f"```workbench-table uwr pools={pools}\n```\n", encoding="utf-8")
    assert main(["render", str(page)]) == 2
    assert capsys.readouterr().err == (f"workbench: error: {page}:1: workbench-table: option 'pools' "
                                       f"got {pools!r}{problem}; allowed: {allowed}\n")
    assert page.read_text(encoding="utf-8") == f"```workbench-table uwr pools={pools}\n```\n"


def test_pool_sizes_every_route_took_are_still_read_alike(capsys):
    """What either parser took is still taken, and read as the same sizes: spaces around the
    parts, leading zeros, a range of one size, pool 0."""
    from workbench.render import parse_pools
    for text, sizes in ((" 1 - 3 , 6 ", [1, 2, 3, 6]), ("04", [4]), ("2-2", [2]), ("0,10", [0, 10]),
                        ("1-10", list(range(1, 11))), ("1..3", [1, 2, 3]), (" 2 .. 4,6", [2, 3, 4, 6])):
        assert parse_pools(text) == sizes
        assert parse_block("table", "uwr", {"pools": text}).pools == tuple(sizes)
        assert main(["table", "uwr", "--pools", text, "--format", "csv"]) == 0
        header = capsys.readouterr().out.splitlines()[0]
        assert header.count(",") == 3 + len(sizes) - 1   # Difficulty, Example, Setting, one per size


@pytest.mark.parametrize("words, said", [
    (["uwr", "--compare", "HKRPG"], "--compare got 'HKRPG': 'uwr' is given twice: as 'uwr' and 'HKRPG'"),
    (["uwr", "favor=1", "--compare", "fons,FoNS"], "'fons' is given twice: as 'fons' and 'FoNS'"),
    (["uwr", "--kind", "difference", "--base", "hkrpg"], "it names 'uwr', the figure's own system"),
])
def test_a_figure_refuses_the_same_system_twice(tmp_path, capsys, words, said):
    out = tmp_path / "f.html"
    assert main(["figure", *words, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and not out.exists()


@pytest.mark.parametrize("words", [["uwr", "favor=1", "--compare", "uwr"],
                                   ["uwr", "favor=1", "--kind", "difference", "--base", "uwr"]])
def test_a_figure_compares_its_system_with_itself_at_other_settings(tmp_path, capsys, words):
    out = tmp_path / "f.html"
    assert main(["figure", *words, "--out", str(out)]) == 0
    assert out.stat().st_size > 1000
