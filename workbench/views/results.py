"""How the results floor's types show: a distribution, one check, an opposed check, concrete
faces and a joint distribution of statistics (registered with :mod:`.shown`).

Example:
    >>> import workbench
    >>> from workbench.views.shown import facts
    >>> facts(workbench.check("uwr", dice=2, target=1))
    ('uwr · exact · dice=2, target=1', [('P(pass)', '55.56%'), ('mean', '0.666667')])
"""
from __future__ import annotations

from ..results import CheckResult, Distribution, Roll, VersusResult
from ..results.joint import Joint
from . import shown
from .shown import NOISE, TABLE_ROWS, distribution_frame, distribution_tables, listing, number
from .shown import percent, plus_minus, settings, shown_value

# -- a distribution

@shown.frame.register
def _(dist: Distribution):
    return distribution_frame(dist)


@shown.facts.register
def _(dist: Distribution):
    figures = [("outcomes", str(len(dist)))]
    if dist.mean is not None:
        figures.append(("mean", number(dist.mean)))
    if dist.trials is not None:
        figures.append(("trials", f"{dist.trials:,}"))
    return "", figures


@shown.tables.register
def _(dist: Distribution):
    return distribution_tables([("outcome", dist)])


@shown.text_lines.register
def _(dist: Distribution):
    return listing(dist)


# -- one check

@shown.frame.register
def _(result: CheckResult):
    return distribution_frame(result.pmf)


@shown.facts.register
def _(result: CheckResult):
    figures = []
    if result.p_pass is not None:
        figures.append(("P(pass)", percent(result.p_pass) + plus_minus(result.p_pass_stderr)))
    if result.mean is not None:
        figures.append(("mean", number(result.mean) + plus_minus(result.mean_stderr, False)))
    if result.lost_mass > NOISE:
        figures.append(("lost mass", f"{result.lost_mass:.1e}"))
    if result.stats:
        figures.append(("means", " · ".join(f"{name} {number(dist.mean)}" for name, dist
                                            in result.stats.items() if name != "total")))
    if result.method == "simulate":
        figures += [("trials", f"{result.trials:,}"), ("seed", str(result.seed))]
    return f"{result.system} · {result.method} · {settings(result.params, result.system)}", figures


@shown.tables.register
def _(result: CheckResult):
    statistics = [(name, dist) for name, dist in (result.stats or {}).items()
                  if name != "total" and len(dist) <= TABLE_ROWS]
    return distribution_tables([("outcome", result.pmf), ("tier", result.tiers), *statistics])


@shown.text_lines.register
def _(result: CheckResult):
    return listing(result.pmf)


# -- an opposed check

@shown.frame.register
def _(result: VersusResult):
    return distribution_frame(result.margin, "margin")


@shown.facts.register
def _(result: VersusResult):
    figures = [("P(actor passes)", percent(result.p_actor)),
               ("mean margin", number(result.margin.mean)), ("ties go to", result.ties_to)]
    if result.lost_mass > NOISE:
        figures.append(("lost mass", f"{result.lost_mass:.1e}"))
    return (f"{result.system} · actor {settings(result.actor, result.system)} · reactor "
            f"{settings(result.reactor, result.system)}", figures)


@shown.tables.register
def _(result: VersusResult):
    return distribution_tables([("margin", result.margin)])


@shown.text_lines.register
def _(result: VersusResult):
    return listing(result.margin)


# -- concrete faces

_ROLL_FIELDS = ("successes", "failures", "net", "outcome", "tier", "passed")


@shown.frame.register
def _(roll: Roll):
    import pandas as pd  # lazy: slow import
    row = {name: getattr(roll, name) for name in ("system", *_ROLL_FIELDS)}
    row.update(roll.stats or {})
    return pd.DataFrame([row])


@shown.facts.register
def _(roll: Roll):
    figures = [(name, shown_value(getattr(roll, name))) for name in _ROLL_FIELDS
               if getattr(roll, name) is not None]
    figures += [(name, str(value)) for name, value in (roll.stats or {}).items() if name != "total"]
    return roll.system, figures


@shown.tables.register
def _(roll: Roll):
    return []


@shown.text_lines.register
def _(roll: Roll):
    return []


# -- statistics together

@shown.frame.register
def _(joint: Joint):
    import pandas as pd  # lazy: slow import
    out = pd.DataFrame(joint.values, columns=list(joint.names))
    out["probability"] = joint.probabilities
    return out


@shown.facts.register
def _(joint: Joint):
    figures = [("statistics", ", ".join(joint.names)), ("combinations", f"{len(joint):,}")]
    if joint.trials is not None:
        figures.append(("trials", f"{joint.trials:,}"))
    return "", figures


@shown.caption.register
def _(joint: Joint):
    return "combinations"


@shown.text_lines.register
def _(joint: Joint):
    return []
