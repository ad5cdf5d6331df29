"""Results layer: what a check, an opposed check or a concrete roll comes to, as plain data.

Result types are immutable and know nothing of how they are shown (the presentation layer
registers their notebook views, :mod:`workbench.results.rich`). :mod:`.reading` turns the
engine's raw totals into a system's result by the system's own description.
"""
from .check import CheckResult, Roll, VersusResult, stderr_of
from .distribution import Distribution, UnknownOutcome, margin_distribution
from .joint import Joint
from .reading import check_result
from .rich import RichResult

__all__ = ["CheckResult", "Roll", "VersusResult", "stderr_of", "Distribution", "UnknownOutcome", "Joint",
           "check_result", "margin_distribution", "RichResult"]
