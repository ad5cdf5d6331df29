"""The exact engine's walk forced: its closed forms (one die by rank, the highest of a mixed
pool) turned off, no memo. Tests compare the closed forms with it."""
from __future__ import annotations

from workbench.engine import evaluate as evaluate_module
from workbench.engine.evaluate import evaluate_roll


def walked(spec):
    """The walk's answer for ``spec`` (the closed forms turned off, no cache)."""
    saved = evaluate_module.order_statistic_roll, evaluate_module.highest_of_mixed
    evaluate_module.order_statistic_roll = lambda spec, shown=None: None
    evaluate_module.highest_of_mixed = lambda spec, shown=None: None
    try:
        return evaluate_roll.__wrapped__(spec)
    finally:
        evaluate_module.order_statistic_roll, evaluate_module.highest_of_mixed = saved
