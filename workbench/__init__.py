"""The dice-pool design workbench: exact odds, simulators, tables and figures for RPG designers.

Importing ``workbench`` loads only numpy and the rules; numba, plotly and ipywidgets load
when a simulator, figure or widget is first used.

Example:
    >>> import workbench
    >>> round(workbench.check("arrata", stat="B5", ob=3).p_pass, 4)
    0.5
"""
from .api import check, margin_distribution, score, system, systems, versus
from .distribution import CheckResult, Distribution, Roll, VersusResult
from .errors import DataFileError, ParameterError, WorkbenchError
from .rules import Rung, System, load_system

__all__ = [
    "check", "score", "system", "systems", "versus", "margin_distribution", "load_system",
    "CheckResult", "Distribution", "Roll", "VersusResult", "System", "Rung",
    "WorkbenchError", "ParameterError", "DataFileError",
]
