"""Figures for docs and reports now live in the one figure layer, :mod:`workbench.figures`.

This module only keeps the older names importable (``from workbench.export.figures import
write_images``); new code imports from :mod:`workbench.figures`.
"""
from ..figures import (chromium_path, curve_figure, figure_data, ladder_figure,
                       narrative_odds_figure, tier_figure, write_figure, write_figures, write_html,
                       write_images)
from ..figures.style import DEFAULT_HEIGHT, DEFAULT_WIDTH, OUTCOME_SCALE

#: The size of a static export when a figure sets no width of its own.
DEFAULT_SIZE = (DEFAULT_WIDTH, DEFAULT_HEIGHT)

__all__ = ["chromium_path", "curve_figure", "figure_data", "ladder_figure",
           "narrative_odds_figure", "tier_figure", "write_figure", "write_figures", "write_html",
           "write_images", "DEFAULT_SIZE", "OUTCOME_SCALE"]
