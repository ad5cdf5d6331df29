"""The dice-pool design workbench: exact odds, simulators, tables and figures for RPG designers.

Importing ``workbench`` loads only numpy and the rules; numba, plotly and ipywidgets load
when a simulator, figure or widget is first used.

Example:
    >>> import workbench
    >>> round(workbench.check("arrata", stat="B5", ob=3).p_pass, 4)
    0.5
"""
from . import _startup  # noqa: F401  (first: Ctrl-C while the workbench program loads)

import importlib

from ._version import __version__
from . import _display  # noqa: F401  (registers how results show themselves in notebooks)
from ._display import readable_table
from .api import check, load_system, margin_distribution, score, simulate, system, systems, versus
from .results import CheckResult, Distribution, Roll, VersusResult
from .errors import DataFileError, FormulaError, ParameterError, WorkbenchError
from .rules import Rung, System
from .rules.python import register_mechanic, unregister_mechanic
from .rules.registry import loaded_files
from .rules.notation import formula_system, formula_toml
from .analysis import side_by_side, success_curve
from .export.tables import NumberFormat, render_table
from .ladders import LadderSolution, RungSolution, difficulty_table, ladder_table, solve_ladder
from .report import build_report
from .stateful import (BurnResult, DramaResult, StepsResult, burn_scene, clock, clock_table,
                       drama_campaign, pool_maximum, rounds_until_hits, taken_out)

__all__ = [
    "__version__",
    "check", "simulate", "score", "system", "systems", "versus", "margin_distribution", "load_system",
    "register_mechanic", "unregister_mechanic", "loaded_files",
    "CheckResult", "Distribution", "Roll", "VersusResult", "System", "Rung",
    "WorkbenchError", "ParameterError", "DataFileError", "FormulaError",
    "formula_system", "formula_toml",
    "drama_campaign", "burn_scene", "taken_out", "clock", "clock_table", "rounds_until_hits",
    "pool_maximum", "DramaResult", "BurnResult", "StepsResult",
    "success_curve", "side_by_side", "ladder_table", "difficulty_table", "solve_ladder",
    "LadderSolution", "RungSolution", "render_table", "NumberFormat", "build_report", "sweep",
    "readable_table",
]


def __getattr__(name: str):
    """``workbench.sweep`` on first use: the sweep package (callable, see
    :mod:`workbench.sweep`) loads concurrent.futures and logging, which ``import workbench``
    does not need."""
    if name == "sweep":  # (`from . import sweep` here would ask this function again)
        return importlib.import_module(".sweep", __name__)
    raise AttributeError(f"module 'workbench' has no attribute {name!r}")
