"""Table exports: every RST export parses with docutils without warnings, every Markdown
export with markdown-it-py, and each keeps the table's rows, columns and cell text."""
from __future__ import annotations

import csv
import io
from html.parser import HTMLParser

import docutils.core
import docutils.nodes
import pandas as pd
import pytest
from markdown_it import MarkdownIt

from workbench.analysis import side_by_side
from workbench.errors import WorkbenchError
from workbench.export import NumberFormat, format_numbers, render_table
from workbench.ladders import difficulty_table

TRICKY = pd.DataFrame({"name": ["*bold* | pipe", "- 1 looks like a list", "under_score_ `tick`",
                                "back\\slash", ""],
                       "p": [0.5, 1 / 3, 2 / 3, 0.0, 1.0], "count": [1, 2, 3, 4, 5]})


def frames():
    yield "uwr", difficulty_table("uwr", [1, 2, 3])
    yield "erzahlspiel", difficulty_table("erzahlspiel")
    yield "unnamed", difficulty_table("unnamed", [1, 4])
    yield "side_by_side", side_by_side(["uwr", ("arrata", {"quality": "A"})], [2, 3])
    yield "tricky", TRICKY


FRAMES = dict(frames())


def parse_rst(text: str):
    """Doctree of ``text``; any docutils message at level 2 (warning) or above fails."""
    errors = io.StringIO()
    tree = docutils.core.publish_doctree(text, settings_overrides={
        "halt_level": 2, "report_level": 2, "warning_stream": errors})
    assert errors.getvalue() == ""
    return tree


def rst_cells(text: str) -> list[list[str]]:
    tree = parse_rst(text)
    (table,) = list(tree.findall(docutils.nodes.table))
    return [[entry.astext() for entry in row.findall(docutils.nodes.entry)]
            for row in table.findall(docutils.nodes.row)]


def expected_cells(frame, number_format=None):
    text = format_numbers(frame, number_format)
    return [list(text.columns), *text.values.tolist()]


@pytest.mark.parametrize("fmt", ["rst-grid", "rst-list", "rst-csv"])
@pytest.mark.parametrize("name", list(FRAMES))
def test_rst_exports_parse_cleanly_with_every_cell(fmt, name):
    frame = FRAMES[name]
    text = render_table(frame, fmt, title="A table" if fmt != "rst-grid" else None)
    assert rst_cells(text) == expected_cells(frame)


@pytest.mark.parametrize("name", list(FRAMES))
def test_markdown_export_parses_as_a_table(name):
    frame = FRAMES[name]
    tokens = MarkdownIt("commonmark").enable("table").parse(render_table(frame, "md"))
    rows, row = [], None
    for i, token in enumerate(tokens):
        if token.type == "tr_open":
            row = []
        elif token.type in ("th_open", "td_open"):
            inline = tokens[i + 1]
            row.append("".join(child.content for child in inline.children or [])
                       if inline.type == "inline" else "")
        elif token.type == "tr_close":
            rows.append(row)
    expected = expected_cells(frame)
    assert len(rows) == len(expected) and all(len(r) == len(expected[0]) for r in rows)
    if name != "tricky":  # Markdown reads *bold* as emphasis; the shape is what counts there
        assert rows == expected


@pytest.mark.parametrize("name", list(FRAMES))
def test_csv_export_round_trips(name):
    frame = FRAMES[name]
    rows = list(csv.reader(io.StringIO(render_table(frame, "csv", NumberFormat("digits", 4)))))
    assert rows == expected_cells(frame, NumberFormat("digits", 4))


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self._cell = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.rows[-1].append(self._cell)
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


@pytest.mark.parametrize("name", list(FRAMES))
def test_html_export_has_every_cell(name):
    frame = FRAMES[name]
    parser = _Cells()
    parser.feed(render_table(frame, "html"))
    assert parser.rows == expected_cells(frame)


def test_number_styles_as_designers_write_them():
    values = pd.DataFrame({"p": [2 / 3, 0.5, 1 / 7776, 0.1234567891234]})
    # 1/7776 is not impossible: at one decimal it shows as "< 0.1%", never as "0.0%"
    assert format_numbers(values)["p"].tolist() == ["66.7%", "50.0%", "< 0.1%", "12.3%"]
    assert format_numbers(values, NumberFormat("percent", 3))["p"].tolist()[2] == "0.013%"
    assert format_numbers(values, NumberFormat("digits", 2))["p"].tolist() == ["0.67", "0.50", "< 0.01", "0.12"]
    unmarked = NumberFormat("percent", 1, marks=False)
    assert format_numbers(values, unmarked)["p"].tolist()[2] == "0.0%"
    fractions = format_numbers(values, NumberFormat("fraction"))["p"].tolist()
    assert fractions[:3] == ["2/3", "1/2", "1/7776"]
    assert fractions[3].startswith("≈")  # not a fraction with a small denominator: say so
    assert format_numbers(pd.DataFrame({"p": [1.0, 0.0]}), NumberFormat("fraction"))["p"].tolist() == ["1", "0"]


def test_multiindex_headers_and_named_index_are_flattened():
    table = side_by_side(["uwr"], [1, 2])
    text = format_numbers(table)
    assert list(text.columns)[:2] == ["pool", "uwr / Easy"]
    assert text["pool"].tolist() == ["1", "2"]


def test_bad_format_and_style_are_rejected():
    with pytest.raises(WorkbenchError, match="allowed: rst-grid, rst-list, rst-csv, md, csv, html, text"):
        render_table(TRICKY, "latex")
    with pytest.raises(WorkbenchError, match="allowed: percent, digits, fraction"):
        NumberFormat("stars")
    with pytest.raises(WorkbenchError, match="digits got -1"):
        NumberFormat("digits", -1)


@pytest.mark.parametrize("name", [n for n in FRAMES if n != "tricky"])
def test_text_export_lines_up_every_cell(name):
    """Plain columns for a terminal: a header, a rule, then one line per row, each cell at
    its column's position."""
    frame = FRAMES[name]
    lines = render_table(frame, "text").splitlines()
    expected = expected_cells(frame)
    assert len(lines) == len(expected) + 1 and set(lines[1]) <= {"-", " "}
    starts = [i for i, ch in enumerate(lines[1]) if ch == "-" and (i == 0 or lines[1][i - 1] == " ")]
    for line, cells in zip([lines[0], *lines[2:]], expected):
        assert [line[a:b].strip() for a, b in zip(starts, [*starts[1:], None])] == cells


def test_csv_keeps_plain_numbers_where_tables_mark_them():
    frame = pd.DataFrame({"p": [1 / 7776, 1 - 1 / 7776]})
    assert render_table(frame, "md").count("< 0.1%") == 1 and "> 99.9%" in render_table(frame, "md")
    assert render_table(frame, "csv").splitlines()[1:] == ["0.0%", "100.0%"]
