"""The balance report's sections: text, tables and figures, gathered in Python.

:func:`report_sections` gathers them (figures from :mod:`workbench.figures`, tables with
readable column names); :mod:`.page` writes them as one HTML page and :func:`show_sections`
shows them in a notebook.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from .. import stateful, validation
from .._display import READABLE_NAMES, readable_table
from ..analysis import counts_dice, pool_bounds, pool_label, success_curve, typical_pool, pools_for
from ..api import check
from ..errors import ParameterError, WorkbenchError
from ..ladders import check_goals, difficulty_table, parse_wanted, solve_ladder
from ..limits import MAX_DICE
from ..rules.registry import get_system

DEFAULT_SYSTEMS = ("uwr", "fons", "unnamed", "arrata", "erzahlspiel")
#: The odds a designer typically asks of a four-rung ladder (the README's example).
DEFAULT_WANTED = "Easy=0.9,Normal=0.7,Difficult=0.45,Extreme=0.2"
#: Without ``--want`` each system's own rungs are solved for odds of this shape, easiest rung
#: first: 90% down to 20%, the rungs between spaced as in :data:`DEFAULT_WANTED`.
DEFAULT_SHAPE = (0.9, 0.7, 0.45, 0.2)
TYPICAL_POOL = 4
TYPICAL_POOLS = range(3, 7)
#: The Drama Dice campaign the report simulates: three checks a session, three sessions.
DRAMA_SESSION = ({"d6": 2}, {"d6": 3, "target": 2}, {"d6": 3})

#: Column names as a reader should see them (the same names as every notebook table).
READABLE_COLUMNS = READABLE_NAMES


@dataclass
class Table:
    """A table of a report section: ``percent`` columns as 12.3%, ``pp`` as +1.2 pp,
    ``stderr`` as 0.35 pp, ``digits`` columns with two decimals, whole numbers with
    thousands separators; everything else as it is."""

    caption: str
    frame: Any
    percent: Sequence[str] = ()
    pp: Sequence[str] = ()
    stderr: Sequence[str] = ()
    """Standard errors of probabilities: a spread, in percentage points, with no sign."""
    digits: Sequence[str] = ()
    index: bool = False
    """Show the frame's index as its first column(s)."""

    def text_frame(self):
        """The frame with its numbers written out and its columns readable
        (:func:`workbench._display.readable_table`, as the notebooks' tables)."""
        frame = self.frame.reset_index() if self.index else self.frame
        return readable_table(frame, percent=list(self.percent), pp=list(self.pp),
                              stderr=list(self.stderr), digits=list(self.digits), index=False)

    def html(self) -> str:
        return self.text_frame().to_html(index=False, border=0, classes="wb-table",
                                          escape=True, na_rep="")


def _percent(value: Any) -> str:
    value = float(value)
    if value != value:  # NaN
        return ""
    if 0 < value < 0.0005:
        return "< 0.1%"
    return f"{value:.1%}"


@dataclass
class Section:
    """One heading of the report: a short text, then figures, tables and notes in order."""

    title: str
    intro: str
    items: list = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return "".join(c if c.isalnum() else "-" for c in self.title.lower()).strip("-")


def _names(value: Any, name: str) -> list:
    """A list of systems; one id alone is never split into letters."""
    if isinstance(value, (str, Path)):
        return [value]
    if not isinstance(value, Iterable):
        raise ParameterError(None, name, value, "a list of system ids, aliases or .toml paths")
    return list(value)


def _check_choice(systems: Sequence[Any], variants: Sequence[Any], pool_sizes: Iterable[int]):

    # System objects, not ids: a variant loaded from a file is not known by its id alone.
    names, variant_names = _names(systems, "systems"), _names(variants, "variants")
    picked = [get_system(name) for name in names]
    picked_variants = [get_system(name) for name in variant_names]
    if not picked and not picked_variants:
        raise WorkbenchError("systems got nothing; allowed: one or more ids such as uwr,arrata")
    # A system named twice (or by its id and an alias, or as a system and a variant) would
    # get every section twice: refused, naming it.
    validation.once(None, "systems", names, [s.id for s in picked], "system",
                    [str(n) if not hasattr(n, "id") else n.id for n in names])
    validation.once(None, "variants", variant_names, [s.id for s in picked_variants], "variant",
                    [str(n) if not hasattr(n, "id") else n.id for n in variant_names])
    both = [s.id for s in picked if s.id in {v.id for v in picked_variants}]
    if both:
        raise ParameterError(None, "variants", variant_names, f"variants not also among the "
                             f"systems ({both[0]!r} is given as both)")
    if isinstance(pool_sizes, (str, bytes)) or not isinstance(pool_sizes, Iterable):
        raise ParameterError(None, "pool_sizes", pool_sizes, "whole numbers such as range(1, 11)")
    given = pool_sizes if isinstance(pool_sizes, (list, tuple, range)) else None
    sizes = [validation.whole_number(None, "pool_sizes", n, 0, MAX_DICE) for n in pool_sizes]
    if not sizes:
        raise WorkbenchError("pool_sizes is empty; allowed: one or more whole numbers >= 1")
    validation.once(None, "pool_sizes", sizes if given is None else given, sizes, "pool size")
    return picked, picked_variants, sizes


def check_wanted(chosen: Sequence[Any], wanted: str | None) -> dict[str, float] | None:
    """``wanted`` read and checked before any section is computed: each probability from 0
    to 1, and every rung it names in the ladder of some chosen system with a pool size
    (those are the ladders solved), so a misspelt rung fails at once, not after the curves.

    Example:
        >>> check_wanted([get_system("uwr")], "Easy=0.9,Hardd=0.2")
        Traceback (most recent call last):
        ...
        workbench.errors.WorkbenchError: --want rung 'Hardd' is in no ladder of the chosen systems; allowed: rungs of uwr: Easy, Normal, Difficult, Extreme
    """
    if wanted is None:
        return None
    goals = check_goals(parse_wanted(wanted), 0.0)
    solvable = [s for s in chosen if s.pool_parameter and s.ladder]
    if not solvable:
        raise WorkbenchError(f"--want {wanted!r}: none of the chosen systems has a difficulty "
                             "ladder with a pool size to solve; allowed: leave --want out, or "
                             "choose such a system (uwr, arrata, ...)")
    if any(_fitted(s, goals) is not None for s in solvable):
        return goals
    own = {s.id: {r.name.lower() for r in s.ladder} for s in solvable}
    nowhere = [name for name in goals if all(name.lower() not in rungs for rungs in own.values())]
    rungs = "; ".join(f"{s.id}: {', '.join(r.name for r in s.ladder)}" for s in solvable)
    if nowhere:
        raise WorkbenchError(f"--want rung {nowhere[0]!r} is in no ladder of the chosen systems; "
                             f"allowed: rungs of {rungs}")
    raise WorkbenchError(f"--want {wanted!r}: no chosen system's ladder has all of "
                         f"{', '.join(goals)}; allowed: the rungs of one ladder, {rungs}")


def report_title(systems: Sequence[str], variants: Sequence[str] = ()) -> str:
    """The page title: ``Balance report: UWR (= HKRPG), Arrata``.

    Example:
        >>> report_title(["uwr", "arrata"], ["fons-exploding"])
        'Balance report: UWR (= HKRPG), Arrata + FoNS, exploding 6s'
    """
    names = ", ".join(get_system(s).name for s in _names(systems, "systems"))
    extra = ", ".join(get_system(v).name for v in _names(variants, "variants"))
    return "Balance report: " + names + (f" + {extra}" if extra else "")


def report_sections(systems: Sequence[str] = DEFAULT_SYSTEMS, variants: Sequence[str] = (),
                    pool_sizes: Iterable[int] = range(1, 11), *,
                    wanted: str | None = None) -> list[Section]:
    """The report's sections, in order: at a glance, success curves (one panel per system),
    difficulty ladders, solved ladders, what-if variants, tiers and outcomes, stateful rules.

    ``wanted=None`` solves each system's own rungs for odds from 90% (easiest) to 20%
    (hardest) (:func:`own_wanted`); ``wanted="Easy=0.9,..."`` applies to each system whose
    ladder names every rung given, and the others say so once and keep their own rungs.

    Example:
        >>> [s.title for s in report_sections(["uwr"], pool_sizes=[1, 2])]
        ['At a glance', 'Success curves', 'Difficulty ladders', 'Ladders solved for wanted odds']
    """
    from .. import figures  # plotly loads when a report is built, not on `import workbench`

    picked, picked_variants, sizes = _check_choice(systems, variants, pool_sizes)
    chosen = [*picked, *picked_variants]
    check_wanted(chosen, wanted)   # a bad or misplaced --want fails before any section
    pooled = [s for s in chosen if s.pool_parameter]
    sections = [_glance(chosen)]

    single = [s.name for s in chosen if not s.pool_parameter]
    curves = Section("Success curves", "P(pass) against the number of dice, one panel per "
                     "system, one line per difficulty rung of its own ladder." + (
                         f" {_and(single)} " + ("rolls a single die: no curve, see its ladder"
                                                if len(single) == 1 else "roll a single die: no "
                                                "curves, see their ladders") + " below."
                         if single else ""))
    if pooled:
        curves.items.append(figures.curve_panels(pooled, sizes))
    else:
        curves.items.append("None of the chosen systems has a pool size to vary.")
    sections.append(curves)

    ladders = Section("Difficulty ladders", "Each system's own ladder from its data file (the "
                      "seed's difficulty table), with the chance to pass by pool size" +
                      (" (drawn as the success curves above)." if pooled else "."))
    for sys_ in chosen:
        if not sys_.ladder:
            ladders.items.append(f"{sys_.name}: no difficulty ladder in its data file.")
            continue
        table = difficulty_table(sys_, pools_for(sys_, sizes) if sys_.pool_parameter else [1])
        numeric = [c for c in table.columns if table[c].dtype.kind == "f"]
        ladders.items.append(Table(sys_.name, table, percent=numeric))
        if not sys_.pool_parameter:  # pooled ladders are the curves above
            ladders.items.append(figures.ladder_figure(sys_, sizes, height=380))
    sections.append(ladders)

    sections.append(_solved_section(pooled, sizes, wanted))

    if picked_variants:
        what_if = Section("What-if variants", "Each variant's P(pass) minus its base system's, "
                          "rung by rung, in percentage points.")
        for sys_ in picked_variants:
            base = sys_.base
            if base and sys_.pool_parameter:
                what_if.items.append(figures.difference_figure(sys_, base, pools_for(sys_, sizes),
                                                               height=380))
            else:
                what_if.items.append(f"{sys_.name}: no pool size to compare along; see its "
                                     "outcome chart below.")
        sections.append(what_if)

    narrative = [s for s in chosen if s.outcome_labels]
    tiered = [s for s in chosen if not s.outcome_labels and s.pool_parameter and _has_tiers(s)]
    shown = ([f"{_and([s.name for s in tiered])}: tiers by pool size"] if tiered else []) + (
        [f"{_and([s.name for s in narrative])}: outcomes by die colour"] if narrative else [])
    outcomes = Section("Tiers and outcomes", "How results spread over named outcomes, worst at "
                       "the bottom. " + "; ".join(shown) + ".")
    for sys_ in chosen:
        if sys_ in narrative:
            outcomes.items.append(figures.narrative_odds_figure(sys_, height=420))
        elif sys_ in tiered:
            outcomes.items.append(figures.tier_figure(sys_, pools_for(sys_, sizes), height=420))
    if outcomes.items:
        sections.append(outcomes)
    state = _stateful_section(chosen)
    if state.items:
        sections.append(state)
    return sections


def _wanted_text(wanted: Mapping[str, float]) -> str:
    return ", ".join(f"{name} {p:.0%}" for name, p in wanted.items())


def own_wanted(system: Any, pool: int | None = None, shape: Sequence[float] = DEFAULT_SHAPE
               ) -> dict[str, float]:
    """Wanted odds for a system's own rungs: the easiest (likeliest at ``pool`` dice with the
    system's own settings) gets ``shape[0]``, the hardest ``shape[-1]``, the rungs between
    follow the shape, to whole percents.

    Example:
        >>> own_wanted("uwr")
        {'Easy': 0.9, 'Normal': 0.7, 'Difficult': 0.45, 'Extreme': 0.2}
        >>> own_wanted("unnamed")
        {'Success with a Twist': 0.9, 'Success': 0.57, 'Triumph': 0.2}
    """
    sys_ = get_system(system)
    frame = success_curve(sys_, [typical_pool(sys_) if pool is None else pool])
    names = list(dict.fromkeys(frame["rung"]))
    odds = dict(zip(frame["rung"], frame["p_pass"]))
    easiest_first = sorted(names, key=lambda name: -float(odds[name] or 0))  # stable on ties
    marks = np.linspace(0, 1, len(shape))
    spots = np.linspace(0, 1, len(names)) if len(names) > 1 else np.array([0.5])
    values = [round(float(v), 2) for v in np.interp(spots, marks, shape)]
    by_name = dict(zip(easiest_first, values))
    return {name: by_name[name] for name in easiest_first}


def _fitted(sys_, wanted: Mapping[str, float]) -> dict[str, float] | None:
    """``wanted`` in the system's own rung names, or ``None`` when its ladder lacks one."""
    names = {rung.name.lower(): rung.name for rung in sys_.ladder}
    if not all(name.lower() in names for name in wanted):
        return None
    return {names[name.lower()]: p for name, p in wanted.items()}


def _solved_section(pooled, sizes, wanted: str | None) -> Section:
    """Each pooled system's ladder solved: for its own rungs, or for ``wanted`` where it fits."""
    from .. import figures  # lazy: plotly

    given = parse_wanted(wanted) if wanted is not None else None
    drawn = f"pools {sizes[0]}-{sizes[-1]}" if len(sizes) > 1 else f"pool {sizes[0]}"
    kept = (f"keeping the rungs in order for {min(TYPICAL_POOLS)} to {max(TYPICAL_POOLS)} dice; "
            f"drawn over {drawn}, × marking the odds wanted")
    if given is None:
        intro = (f"Each system's own rungs, solved for a typical character ({TYPICAL_POOL} dice): "
                 "the easiest rung is wanted at 90%, the hardest at 20%, the rungs between spaced "
                 f"as Easy 90%, Normal 70%, Difficult 45%, Extreme 20%; {kept}.")
    else:
        intro = (f"The settings that come closest to {_wanted_text(given)} for a typical "
                 f"character ({TYPICAL_POOL} dice) in each system whose ladder has these rungs, "
                 f"{kept}.")
    section = Section("Ladders solved for wanted odds", intro)
    for sys_ in pooled:
        if not sys_.ladder:
            section.items.append(f"{sys_.name}: no difficulty ladder in its data file to solve.")
            continue
        goals = _fitted(sys_, given) if given is not None else own_wanted(sys_)
        caption = sys_.name
        if goals is None:
            goals = own_wanted(sys_)
            own = ", ".join(r.name for r in sys_.ladder)
            section.items.append(f"{sys_.name}: its rungs ({own}) are not those asked for; "
                                 "its own rungs are solved instead, at 90% down to 20%.")
        pool = typical_pool(sys_)
        low, high = pool_bounds(sys_)
        near = [n for n in TYPICAL_POOLS if low <= n <= high] if counts_dice(sys_) else [pool]
        solution = solve_ladder(sys_, goals, pool=pool, pools=sorted({pool, *near}))
        if not solution.ordered:
            caption += " — not ordered: rungs cross"
        section.items.append(Table(caption, solution.table(), percent=["wanted", "achieved"],
                                   pp=["error"]))
        section.items.append(figures.ladder_figure(solution, pools_for(sys_, sizes), height=380))
    if not pooled:
        section.items.append("Solved ladders need a system with a pool size.")
    return section


def _and(names: Sequence[str]) -> str:
    """``["A", "B", "C"]`` -> ``"A, B and C"``."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _has_tiers(sys_) -> bool:
    return check(sys_, **{sys_.pool_parameter: typical_pool(sys_)}).tiers is not None


def _glance(chosen) -> Section:
    """One row per system: its ladder's odds at a typical pool, easiest to hardest."""
    import pandas as pd  # lazy: slow import

    rows = []
    for sys_ in chosen:
        pool = typical_pool(sys_)
        frame = success_curve(sys_, [pool])
        steps = " → ".join(f"{rung} {_percent(p)}" for rung, p in zip(frame["rung"], frame["p_pass"]))
        rows.append({"system": f"{sys_.name} ({sys_.id})",
                     "pool": pool_label(sys_, pool) if sys_.pool_parameter else "one die",
                     "P(pass), easiest to hardest": steps})
    single = any(not sys_.pool_parameter for sys_ in chosen)
    other = any(sys_.pool_parameter and not counts_dice(sys_) for sys_ in chosen)
    dice = any(sys_.pool_parameter and counts_dice(sys_) for sys_ in chosen)
    return Section("At a glance", "Each system's ladder at a typical pool" +
                   (f" of {TYPICAL_POOL} dice" if dice else "") +
                   (" (a single die where the system rolls one)" if single else "") +
                   (" (a knob that is not a number of dice, such as a skill, at its default)"
                    if other else "") + ". Every number is exact unless marked simulated.",
                   [Table("", pd.DataFrame(rows))])


def stateful_summary(systems: Sequence[str] = DEFAULT_SYSTEMS) -> dict[str, Any]:
    """Tables from ``workbench.stateful`` for the chosen systems.

    Clocks and conditions are Erzählspiel rules (shown when a narrative system is chosen),
    the Drama Dice economy is the Unnamed System's (shown when a bounce-pool system is).

    Example:
        >>> found = stateful_summary(["uwr"])
        >>> found["clocks"] is None and found["drama_summary"] is None
        True
    """
    import pandas as pd  # lazy: slow import

    chosen = [get_system(name) for name in systems]
    kinds = {sys_.mechanic.kind for sys_ in chosen}
    found: dict[str, Any] = {"clocks": None, "taken_out": None, "drama_summary": None,
                             "drama_tiers": None}
    if "narrative" in kinds:
        found["clocks"] = stateful.clock_table()
        rows = []
        for colour in ("red", "yellow", "green"):
            for spiral in (False, True):
                result = stateful.taken_out(colour, death_spiral=spiral)
                rows.append({"attacker die": colour, "death spiral": "yes" if spiral else "no",
                             "mean exchanges": result.mean, "P(within 5)": result.within(5)})
        found["taken_out"] = pd.DataFrame(rows)
    if any({"d6", "d8", "drama"} <= set(sys_.params) for sys_ in chosen):  # Unnamed-like
        result = stateful.drama_campaign(list(DRAMA_SESSION), sessions=3, players=4, tier=1,
                                         trials=20_000, seed=0)
        found["drama_summary"] = result.summary
        found["drama_tiers"] = result.tiers
    return found


def _stateful_section(ids: Sequence[Any]) -> Section:
    state = stateful_summary(ids)
    shown = []
    if state["clocks"] is not None:
        shown.append("clocks and conditions for the narrative dice (exact)")
    if state["drama_summary"] is not None:
        shown.append("the Drama Dice economy of the Unnamed System (simulated, seed 0)")
    section = Section("Stateful rules", "What carries from one check to the next: "
                      + " and ".join(shown) + ".")
    if state["clocks"] is not None:
        clocks = state["clocks"].copy()
        clocks.columns = [f"{c} segments" for c in clocks.columns]
        section.items.append(Table("Clocks: mean rolls to fill a clock, by die colour and size",
                                   clocks, digits=list(clocks.columns), index=True))
    if state["taken_out"] is not None:
        section.items.append(Table("Conditions: exchanges until a defender is Taken Out",
                                   state["taken_out"], percent=["P(within 5)"],
                                   digits=["mean exchanges"]))
    if state["drama_summary"] is not None:
        summary = state["drama_summary"].drop(columns=["seed"])
        section.items.append(Table(
            "Drama Dice: three sessions of three checks (2d6, 3d6 needing 2, 3d6), four "
            "players, tier 1, dice pulled when a check is likely to fail", summary,
            percent=["pass_without", "pass_with", "empty_share"], stderr=["pass_with_stderr_bound"],
            digits=["mean_pulled"]))
        section.items.append(Table("Tiers over all checks of the campaign",
                                   state["drama_tiers"], percent=["without", "with"], index=True))
    return section


def show_sections(sections: Sequence[Section]) -> None:
    """Display the report's sections in a notebook (the same content as the HTML page)."""
    from IPython.display import HTML, Markdown, display  # lazy: IPython, only in a notebook

    for section in sections:
        display(Markdown(f"## {section.title}\n\n{section.intro}"))
        for item in section.items:
            if isinstance(item, Table):
                if item.caption:
                    display(Markdown(f"**{item.caption}**"))
                display(HTML(item.html()))
            elif isinstance(item, str):
                display(Markdown(f"_{item}_"))
            else:
                display(item)
