"""How the analyses floor's results show: stateful play (steps until something happens, Drama
Dice campaigns, burning scenes) and solved ladders (registered with :mod:`.shown`).

Loaded with the first of these results shown (:mod:`workbench.views`), so showing a check
never loads the stateful simulators or the ladder solver.

Example:
    >>> import workbench
    >>> from workbench.views.shown import facts
    >>> facts(workbench.clock(4))[1][0][0]
    'mean rolls'
"""
from __future__ import annotations

from ..ladders import LadderSolution
from ..stateful import BurnResult, DramaResult, StepsResult
from ..export.tables import NumberFormat, format_numbers
from . import shown
from .readable import readable
from .shown import NOISE, cell, number, percent, plus_minus, settings

# -- steps until something happens (a clock filled, a side taken out, hits scored)

@shown.frame.register
def _(result: StepsResult):
    return result.frame.copy()


@shown.facts.register
def _(result: StepsResult):
    cut = result.tail > NOISE
    figures = [(f"mean {result.quantity}" + (" of the runs ending within the table" if cut else ""),
                number(result.mean) + plus_minus(result.mean_stderr, False))]
    if cut:
        figures.append(("beyond the table", percent(result.tail)))
    if result.method == "simulate":
        figures += [("trials", f"{result.trials:,}"), ("seed", str(result.seed))]
    plain = {k: v for k, v in result.params.items() if not isinstance(v, (list, tuple, dict))}
    return f"{result.method} · {settings(plain)}", figures


@shown.caption.register
def _(result: StepsResult):
    return result.quantity


# -- Drama Dice campaigns and burning scenes: a summary row, and a row per check

@shown.frame.register
def _(result: DramaResult):
    return result.checks.reset_index()


@shown.frame.register
def _(result: BurnResult):
    return result.checks.join(result.stacks).reset_index()


@shown.facts.register(DramaResult)
@shown.facts.register(BurnResult)
def _(result):
    # Cell by cell from each column: a row of mixed columns is one float Series, which
    # would round a 64-bit seed (3455801360657544005 shown as ...544,192).
    return "simulated", [(readable(name), cell(name, result.summary[name].iloc[0]))
                         for name in result.summary.columns]


@shown.caption.register(DramaResult)
@shown.caption.register(BurnResult)
def _(result):
    return "per check"


# -- a solved ladder

@shown.frame.register
def _(solution: LadderSolution):
    return solution.table()


@shown.facts.register
def _(solution: LadderSolution):
    where = [f"pool {solution.pool}"] if solution.pool is not None else []
    pools = solution.pools
    if len(pools) > 1:
        where.append(f"order kept over {min(pools)}-{max(pools)}"
                     if list(pools) == list(range(min(pools), max(pools) + 1))
                     else f"order kept over {', '.join(map(str, pools))}")
    figures = [("ordered", "yes" if solution.ordered else "no"),
               ("unreachable", ", ".join(solution.unreachable) or "none")]
    figures += [("conflict", solution.describe(c)) for c in solution.conflicts]
    figures += [("outside the range", solution.describe(c)) for c in solution.outside]
    return " · ".join([solution.system, *where]), figures


@shown.tables.register
def _(solution: LadderSolution):
    rungs = solution.pools_table()
    rungs["reachable"] = rungs["reachable"].map({True: "yes", False: "no"})
    return [("rungs", format_numbers(rungs, NumberFormat("percent", 1)), 0)]


@shown.text_lines.register
def _(solution: LadderSolution):
    return []
