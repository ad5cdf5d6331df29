"""The tables of one check's result, as ``workbench pmf`` and ``workbench versus`` print them.

A check gives its outcomes (or one statistic's, with ``stat``), its tiers and a summary
(P(pass), the mean, the mass lost, and for a simulation the trials and the seed that repeat
it); an opposed check its margins and a summary. Each is a
:class:`~workbench.results.table.Table` that :func:`~workbench.export.tables.render_table`
writes: numbers as the number rule writes them (:func:`~workbench.numbers.json_ready`, 15
significant digits), then for people (``numbers``) probabilities formatted and tails that
together round to 0 cut into one row, or plain for CSV.

Example:
    >>> import workbench
    >>> (title, table), = result_tables(workbench.versus("1d6", against="1d6"), PMF_NUMBERS)[:1]
    >>> title, table.rows[0]
    ('Margins', ('-5', 0.027777777777778))
"""
from __future__ import annotations

import math
from functools import singledispatch
from typing import Any

import numpy as np

from ..numbers import json_ready, round_sig
from ..results import CheckResult, Distribution, VersusResult, stderr_of
from ..results.table import Table
from .tables import NumberFormat, cut_tails

#: Distributions in Markdown / RST: percentages with two decimals; tails that round to 0 at
#: that precision are cut into one "< 0.01%" row (see :func:`~.tables.cut_tails`).
PMF_NUMBERS = NumberFormat("percent", 2)


@singledispatch
def result_tables(result, numbers: NumberFormat | None = None) -> list[tuple[str, Table]]:
    """``(title, table)`` of each table of ``result``: for people with ``numbers`` (the
    probabilities left as numbers for it to write), plain without (every cell text, for CSV)."""
    raise TypeError(f"no tables for {type(result).__name__}")


@result_tables.register
def check_tables(result: CheckResult, numbers: NumberFormat | None = None,
                 stat: str | None = None) -> list[tuple[str, Table]]:
    """A check's outcomes (those of the statistic ``stat`` when given and the check has
    statistics), tiers and summary."""
    title, dist, mean, listed = "Outcomes", result.pmf, result.mean, result.mean is not None
    mean_name = "mean"
    if stat is not None and result.stats is not None:
        title, dist = f"Outcomes of {stat}", result.stats[stat]
        mean, listed = dist.mean, True
        mean_name = f"mean of {stat}"   # beside the check's own P(pass): says whose mean it is
    simulated = result.method == "simulate"
    tables = [(title, distribution_table(dist, numbers, with_stderr=simulated))]
    if result.tiers is not None:   # a simulated share has its standard error, as outcomes do
        tables.append(("Tiers", Table(("tier", "probability", "stderr")[:3 if simulated else 2],
                                      tuple((str(tier), _number(p, numbers),
                                             *([_number(stderr_of(p, result.trials), numbers)]
                                               if simulated else []))
                                            for tier, p in result.tiers.items()))))
    summary = []   # a simulated P(pass) and mean carry their standard errors, named as in Python
    if result.p_pass is not None:
        summary.append(("p_pass", _number(result.p_pass, numbers)))
        if simulated:
            summary.append(("p_pass_stderr", _number(stderr_of(result.p_pass, result.trials), numbers)))
    if listed:
        summary.append((mean_name, _figure(mean, numbers)))
        if simulated:
            summary.append((f"mean_stderr of {stat}" if stat is not None and result.stats is not None
                            else "mean_stderr", _figure(_mean_stderr(dist), numbers)))
    summary.append(("lost_mass", _number(result.lost_mass, numbers)))
    if simulated:
        # The run that gave these numbers, so a table can be repeated: a left-out --seed is
        # fresh, and only the result knows it.
        summary += [("trials", str(result.trials)), ("seed", str(result.seed))]
    return [*tables, ("Summary", Table(("quantity", "value"), tuple(summary)))]


def _mean_stderr(dist: Distribution) -> float | None:
    """The standard error of a simulated mean: the outcomes' standard deviation over the
    square root of the trials (``None`` when exact or not numeric)."""
    if dist.trials is None or not dist.numeric or dist.mean is None:
        return None
    values = np.asarray(dist.outcomes, dtype=float)
    variance = float(np.dot((values - dist.mean) ** 2, dist.probabilities))
    return math.sqrt(variance / dist.trials)


@result_tables.register
def versus_tables(result: VersusResult, numbers: NumberFormat | None = None) -> list[tuple[str, Table]]:
    """An opposed check's margins (actor - reactor) and summary."""
    summary = (("p_actor", _number(result.p_actor, numbers)),
               ("mean_margin", _figure(result.margin.mean, numbers)),
               ("lost_mass", _number(result.lost_mass, numbers)))
    return [("Margins", distribution_table(result.margin, numbers)),
            ("Summary", Table(("quantity", "value"), summary))]


def distribution_table(dist: Distribution, numbers: NumberFormat | None = None,
                       with_stderr: bool = False) -> Table:
    """Outcomes and their probabilities (and standard errors): for people, tails that
    together round to 0 at ``numbers``' precision cut into one row; plain, every outcome."""
    probabilities = [json_ready(p) for p in dist.probabilities]
    if numbers is not None:
        rows = cut_tails(dist.outcomes, probabilities, numbers.resolution)
    else:
        rows = [(str(o), p, False) for o, p in zip(dist.outcomes, probabilities)]
    if not with_stderr:
        return Table(("outcome", "probability"),
                     tuple((label, _number(p, numbers)) for label, p, _ in rows))
    errors = dict(zip(map(str, dist.outcomes), dist.stderr))
    # A row of outcomes cut together has no one standard error: its cell is left empty.
    return Table(("outcome", "probability", "stderr"),
                 tuple((label, _number(p, numbers),
                        None if tail else _number(float(errors[label]), numbers))
                       for label, p, tail in rows))


def _number(value: Any, numbers: NumberFormat | None) -> Any:
    """A probability as the number rule writes it: left a number for ``numbers`` to format,
    or plain text."""
    value = json_ready(value)
    return value if numbers is not None else ("" if value is None else str(value))


def _figure(value: Any, numbers: NumberFormat | None) -> str:
    """A number that is not a probability (a mean): six significant digits for people."""
    value = json_ready(value)
    if value is None:
        return ""
    return f"{round_sig(value, 6):g}" if numbers is not None else str(value)
