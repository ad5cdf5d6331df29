"""Text tables have one writer, tabulate, with the workbench's conventions (cells as text,
left-aligned)."""
from __future__ import annotations

import pytest

from workbench.export.layout import layout


def test_cells_stay_text_and_columns_are_left_aligned():
    text = layout(["outcome", "probability"], [["1.50", "True"], ["≥ 9", "< 0.01%"]], "pipe")
    assert text.splitlines() == ["| outcome   | probability   |",
                                 "|:----------|:--------------|",
                                 "| 1.50      | True          |",
                                 "| ≥ 9       | < 0.01%       |"]


def test_grid_tables_are_restructuredtext():
    lines = layout(["die", "P"], [["red", "1/3"]], "grid").splitlines()
    assert lines[0] == lines[-1] == "+-------+-----+" and lines[2] == "+=======+=====+"


def test_a_format_it_does_not_lay_out_is_refused():
    with pytest.raises(ValueError, match="allowed: pipe, grid, simple"):
        layout(["a"], [["b"]], "html")
