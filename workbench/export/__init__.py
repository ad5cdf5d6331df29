"""Exports for docs and reports: tables in text formats (figures: :mod:`workbench.figures`).

``workbench.export.tables`` needs only pandas and tabulate. Figures import plotly, so they
are not imported here: ``import workbench.export`` stays light.
"""
from .tables import NUMBER_STYLES, TABLE_FORMATS, NumberFormat, format_numbers, render_table

__all__ = ["NUMBER_STYLES", "TABLE_FORMATS", "NumberFormat", "format_numbers", "render_table"]
