"""Plain tables are laid out as tabulate lays them out, character for character."""
from __future__ import annotations

import string
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from workbench.export.layout import FORMATS, layout

ASCII_CELL = st.text(alphabet=string.printable[:95] + "≤≥≈±·×–—’àäéöüßÀÖÜÿ", max_size=12)
ANY_CELL = st.text(max_size=6) | ASCII_CELL | st.sampled_from(["≤ 0", "≥ 12", "Erzählspiel", "大成功",
                                                              "e\u0301", " pad ", "1.50", "True", ""])


def table(cells):
    return st.integers(1, 5).flatmap(lambda width: st.tuples(
        st.lists(cells, min_size=width, max_size=width),
        st.lists(st.lists(cells, min_size=width, max_size=width), min_size=0, max_size=6)))


def by_tabulate(header, rows, fmt):
    return tabulate(rows, headers=header, tablefmt=fmt, disable_numparse=True, stralign="left")


@settings(max_examples=400, deadline=None)
@given(table(ASCII_CELL), st.sampled_from(FORMATS))
def test_plain_tables_are_laid_out_as_tabulate_does(parts, fmt):
    header, rows = parts
    assert layout(header, rows, fmt) == by_tabulate(header, rows, fmt)


@settings(max_examples=300, deadline=None)
@given(table(ANY_CELL), st.sampled_from(FORMATS))
def test_any_table_is_laid_out_as_tabulate_does(parts, fmt):
    # wide and combining characters, spaces at the ends, no rows: tabulate lays these out
    header, rows = parts
    assert layout(header, rows, fmt) == by_tabulate(header, rows, fmt)


def test_the_usual_tables_need_no_tabulate():
    code = ("import sys; from workbench.export.layout import layout\n"
            "text = layout(['outcome', 'probability'], [['0', '19.75%'], ['≥ 9', '< 0.01%']], 'pipe')\n"
            "plain = layout(['outcome', 'probability'], [['0', '19.75%'], ['1', '80.25%']], 'grid')\n"
            "print('tabulate' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr
    wide = subprocess.run([sys.executable, "-c", code.replace("≥ 9", "大成功")], capture_output=True,
                          text=True, timeout=60)
    assert wide.stdout.strip() == "True", wide.stderr   # two columns a character: tabulate measures it


def test_a_format_it_does_not_lay_out_is_refused():
    with pytest.raises(ValueError, match="allowed: pipe, grid, simple"):
        layout(["a"], [["b"]], "html")
