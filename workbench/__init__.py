"""The dice-pool design workbench: exact odds, simulators, tables and figures for RPG designers.

``import workbench`` loads nothing but this list of names: each name loads its module on first
use (``workbench.check`` the rules, engine and numpy; ``workbench.simulate`` numba; figures
plotly), so the ``workbench`` program and a script pay only for what they use. The first
name used also installs how results show themselves in notebooks (``workbench.views``).

Example:
    >>> import workbench
    >>> round(workbench.check("arrata", stat="B5", ob=3).p_pass, 4)
    0.5
"""
from . import _startup  # noqa: F401  (first: Ctrl-C while the workbench program loads)

import importlib

#: Each public name and the module it comes from (loaded when the name is first used).
_PUBLIC = {
    "__version__": "._version",
    **dict.fromkeys(("check", "simulate", "score", "system", "systems", "versus", "load_system"),
                    ".api"),
    **dict.fromkeys(("CheckResult", "Distribution", "Roll", "VersusResult", "margin_distribution"),
                    ".results"),
    **dict.fromkeys(("WorkbenchError", "ParameterError", "DataFileError", "FormulaError"), ".errors"),
    **dict.fromkeys(("Rung", "System"), ".rules"),
    **dict.fromkeys(("register_mechanic", "unregister_mechanic"), ".rules.python"),
    "loaded_files": ".rules.registry",
    **dict.fromkeys(("formula_system", "formula_toml"), ".rules.notation"),
    **dict.fromkeys(("side_by_side", "success_curve"), ".analysis"),
    **dict.fromkeys(("NumberFormat", "render_table"), ".export.tables"),
    **dict.fromkeys(("LadderSolution", "RungSolution", "difficulty_table", "ladder_table",
                     "solve_ladder"), ".ladders"),
    "build_report": ".report",
    **dict.fromkeys(("BurnResult", "DramaResult", "StepsResult", "burn_scene", "clock",
                     "clock_table", "drama_campaign", "pool_maximum", "rounds_until_hits",
                     "taken_out"), ".stateful"),
    "readable_table": ".views",
}

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

#: Subpackages and modules reached as attributes (``workbench.ladders.solve_ladder``).
_MODULES = ("analysis", "api", "cli", "engine", "errors", "export", "figures", "files", "ladders",
            "limits", "markdown", "numbers", "render", "report", "results", "rules", "sphinx",
            "stateful", "sweep", "validation", "views", "widgets")


def __getattr__(name: str):
    """A public name, or a module of the package, loaded on first use and kept.

    ``workbench.sweep`` is the sweep package (callable, see :mod:`workbench.sweep`)."""
    if name in _PUBLIC:
        importlib.import_module(".views", __name__)   # results' notebook views, once
        value = getattr(importlib.import_module(_PUBLIC[name], __name__), name)
    elif name in _MODULES:   # also how `from .. import validation` finds a module not yet loaded
        value = importlib.import_module("." + name, __name__)
    else:
        raise AttributeError(f"module 'workbench' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, *_MODULES})
