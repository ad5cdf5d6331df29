"""Exports for docs and reports: tables (text formats) and figures (HTML, PNG, SVG).

``workbench.export.tables`` needs only pandas and tabulate. ``workbench.export.figures``
imports plotly when it is imported, so it is not imported here: ``import workbench.export``
stays light.
"""
from .tables import NUMBER_STYLES, TABLE_FORMATS, NumberFormat, format_numbers, render_table

__all__ = ["NUMBER_STYLES", "TABLE_FORMATS", "NumberFormat", "format_numbers", "render_table"]
