"""The balance report's sections: text, tables and figures, gathered in Python.

:func:`report_sections` gathers them (figures from :mod:`workbench.figures`, tables with
readable column names); :mod:`.page` writes them as one HTML page and :func:`show_sections`
shows them in a notebook.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from .. import stateful, validation
from ..views import READABLE_NAMES, readable_table
from ..analysis import counts_dice, pool_bounds, pool_label, success_curve, typical_pool, pools_for
from ..api import check
from ..errors import ParameterError, WorkbenchError
from ..ladders import check_goals, difficulty_table, parse_wanted, solve_ladder
from ..export.tables import NumberFormat
from ..limits import MAX_DICE
from ..rules.registry import get_system

DEFAULT_SYSTEMS = ("uwr", "fons", "unnamed", "arrata", "erzahlspiel")
#: The odds a designer typically asks of a four-rung ladder (the README's example; what
#: ``--want`` may ask, never assumed: without it each ladder is shown as written).
DEFAULT_WANTED = "Easy=0.9,Normal=0.7,Difficult=0.45,Extreme=0.2"
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
        (:func:`workbench.views.readable_table`, as the notebooks' tables)."""
        frame = self.frame.reset_index() if self.index else self.frame
        return readable_table(frame, percent=list(self.percent), pp=list(self.pp),
                              stderr=list(self.stderr), digits=list(self.digits), index=False)

    def html(self) -> str:
        return self.text_frame().to_html(index=False, border=0, classes="wb-table",
                                          escape=True, na_rep="")


def _percent(value: Any) -> str:
    """One decimal, as the ladder tables write it (halves up, float noise off, ``< 0.1%`` and
    ``> 99.9%`` for what rounds to 0 or 100% and is not)."""
    value = float(value)
    if value != value:  # NaN
        return ""
    return NumberFormat("percent", 1).text(value)


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
    baseless = [v.id for v in picked_variants if not v.base]
    if baseless:   # its what-if section would compare it with nothing
        raise ParameterError(None, "variants", variant_names, "what-if variants, made from a "
                             f"base system (base = \"...\" in their data file); {baseless[0]!r} "
                             "has no base: list it among the systems")
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
    difficulty ladders (each system's own, as written), solved ladders (only when ``wanted``
    asks), what-if variants, tiers and outcomes, stateful rules.

    ``wanted=None`` (the default) solves nothing: each ladder is shown as its data file
    writes it, rung by rung at its own settings. ``wanted="Easy=0.9,..."`` solves the ladder
    of each system whose rungs include every one given; the others say so once and keep
    their own ladder as written.

    Example:
        >>> [s.title for s in report_sections(["uwr"], pool_sizes=[1, 2])]
        ['At a glance', 'Success curves', 'Difficulty ladders']
        >>> [s.title for s in report_sections(["uwr"], pool_sizes=[1, 2], wanted="Easy=0.9")][-1]
        'Ladders solved for wanted odds'
    """
    picked, picked_variants, sizes = _check_choice(systems, variants, pool_sizes)
    chosen = [*picked, *picked_variants]
    check_wanted(chosen, wanted)   # a bad or misplaced --want fails before any section
    pooled = [s for s in chosen if s.pool_parameter]
    sections = [_glance(chosen), _curves_section(chosen, pooled, sizes),
                _ladders_section(chosen, pooled, sizes, wanted)]
    if wanted is not None:
        sections.append(_solved_section(pooled, sizes, wanted))
    if picked_variants:
        sections.append(_variants_section(picked_variants, sizes))
    outcomes = _outcomes_section(chosen, sizes)
    if outcomes.items:
        sections.append(outcomes)
    state = _stateful_section(chosen)
    if state.items:
        sections.append(state)
    return sections


def _curves_section(chosen, pooled, sizes) -> Section:
    """P(pass) against each pooled system's knob, one panel per system."""
    from .. import figures  # lazy: plotly loads when a report is built, not on `import workbench`

    single = [s.name for s in chosen if not s.pool_parameter]
    curves = Section("Success curves", f"P(pass) against {_knobs_text(pooled)}, one panel "
                     "per system, one line per difficulty rung of its own ladder." + (
                         f" {_and(single)} " + ("rolls a single die: no curve, see its ladder"
                                                if len(single) == 1 else "roll a single die: no "
                                                "curves, see their ladders") + " below."
                         if single else ""))
    if pooled:
        curves.items.append(figures.curve_panels(pooled, sizes))
    else:
        curves.items.append("None of the chosen systems has a pool size to vary.")
    return curves


def _ladders_section(chosen, pooled, sizes, wanted: str | None) -> Section:
    """Each system's own ladder as written: a table, and a chart for a single die (pooled
    ladders are the curves)."""
    from .. import figures  # lazy: plotly

    ladders = Section("Difficulty ladders", "Each system's own ladder as its data file writes "
                      "it: every rung at its own setting, with the chance to pass at each pool "
                      "size" + (" (drawn as the success curves above)" if pooled else "") +
                      ". Nothing here is solved or adjusted" + (
                          "." if wanted is not None else
                          "; to find the settings that give odds you want, ask for them "
                          "(--want \"Easy=0.9,Normal=0.7\", or wanted= in Python)."))
    for sys_ in chosen:
        if not sys_.ladder:
            ladders.items.append(f"{sys_.name}: no difficulty ladder in its data file.")
            continue
        table = difficulty_table(sys_, pools_for(sys_, sizes) if sys_.pool_parameter else [1])
        numeric = [c for c in table.columns if table[c].dtype.kind == "f"]
        ladders.items.append(Table(sys_.name, table, percent=numeric))
        if not sys_.pool_parameter:  # pooled ladders are the curves above
            ladders.items.append(figures.ladder_figure(sys_, sizes, height=380))
    return ladders


def _variants_section(picked_variants, sizes) -> Section:
    """Each variant's P(pass) minus its base system's."""
    from .. import figures  # lazy: plotly

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
    return what_if


def _outcomes_section(chosen, sizes) -> Section:
    """Tiers by pool size (or knob) and narrative outcomes by die colour, worst at the bottom
    (no items when no chosen system has either)."""
    from .. import figures  # lazy: plotly

    narrative = [s for s in chosen if s.outcome_labels]
    tiered = [s for s in chosen if not s.outcome_labels and s.pool_parameter and _has_tiers(s)]
    by_knob: dict[str, list[str]] = {}
    for s in tiered:   # tiers run along each system's own knob: pool size, or a skill
        by_knob.setdefault("pool size" if counts_dice(s) else s.pool_parameter, []).append(s.name)
    shown = [f"{_and(names)}: tiers by {knob}" for knob, names in by_knob.items()] + (
        [f"{_and([s.name for s in narrative])}: outcomes by die colour"] if narrative else [])
    outcomes = Section("Tiers and outcomes", "How results spread over named outcomes, worst at "
                       "the bottom. " + "; ".join(shown) + ".")
    for sys_ in chosen:
        if sys_ in narrative:
            outcomes.items.append(figures.narrative_odds_figure(sys_, height=420))
        elif sys_ in tiered:
            outcomes.items.append(figures.tier_figure(sys_, pools_for(sys_, sizes), height=420))
    return outcomes


def _wanted_text(wanted: Mapping[str, float]) -> str:
    return ", ".join(f"{name} {p:.0%}" for name, p in wanted.items())


def _fitted(sys_, wanted: Mapping[str, float]) -> dict[str, float] | None:
    """``wanted`` in the system's own rung names, or ``None`` when its ladder lacks one."""
    names = {rung.name.lower(): rung.name for rung in sys_.ladder}
    if not all(name.lower() in names for name in wanted):
        return None
    return {names[name.lower()]: p for name, p in wanted.items()}


def _solved_section(pooled, sizes, wanted: str) -> Section:
    """Each pooled system's ladder solved for ``wanted``, where its rungs include every one
    asked for; the others say so and keep their ladder as written (above)."""
    from .. import figures  # lazy: plotly

    given = parse_wanted(wanted)
    solved = [s for s in pooled if s.ladder and _fitted(s, given) is not None]
    intro = (f"The settings that come closest to {_wanted_text(given)} for a typical character "
             f"({_typical_text(solved)}) in each system whose ladder has these rungs, keeping the "
             "rungs in order at the pools around it (shaded where there are several); drawn "
             "over each system's pools, "
             "× marking the odds wanted.")
    section = Section("Ladders solved for wanted odds", intro)
    for sys_ in pooled:
        if not sys_.ladder:
            section.items.append(f"{sys_.name}: no difficulty ladder in its data file to solve.")
            continue
        goals = _fitted(sys_, given)
        if goals is None:
            own = ", ".join(r.name for r in sys_.ladder)
            section.items.append(f"{sys_.name}: its rungs ({own}) are not those asked for; its "
                                 "own ladder is shown above as written.")
            continue
        caption = sys_.name
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


def _knobs_text(pooled) -> str:
    """What the curves run along, in the systems' own words: ``the number of dice``, or
    ``each system's pool (dice, skill)`` when a knob is not a number of dice."""
    other = list(dict.fromkeys(s.pool_parameter for s in pooled if not counts_dice(s)))
    if not other:
        return "the number of dice"
    return "each system's pool (" + ", ".join(
        (["dice"] if any(counts_dice(s) for s in pooled) else []) + other) + ")"


def _typical_text(pooled) -> str:
    """The typical pool each system is solved at: ``4 dice``, or ``4 dice; skill 50``."""
    shown = list(dict.fromkeys(pool_label(s, typical_pool(s)) if not counts_dice(s)
                               else f"{TYPICAL_POOL} dice" for s in pooled))
    return "; ".join(shown) if shown else f"{TYPICAL_POOL} dice"


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
    knobs = list(dict.fromkeys(sys_.pool_parameter for sys_ in chosen
                               if sys_.pool_parameter and not counts_dice(sys_)))
    asides = (["a single die where the system rolls one"] if single else []) + (
        [f"{_and(knobs)} at {'its' if len(knobs) == 1 else 'their'} default"] if other else [])
    return Section("At a glance", "Each system's own ladder, as written, at a typical pool" +
                   (f" of {TYPICAL_POOL} dice" if dice else "") +
                   (f" ({'; '.join(asides)})" if asides else "") +
                   ". Every number is exact unless marked simulated.",
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
    """Display the report's sections in a notebook (the same content as the HTML page).

    Text and tables between two figures go out as one HTML output, each figure as its own:
    a whole report stays well under JupyterLab's 50 outputs a cell (past them it hides the
    rest behind a "show more" line)."""
    from IPython.display import HTML, display  # lazy: IPython, only in a notebook

    pending: list[str] = []

    def flush() -> None:
        if pending:
            display(HTML("\n".join(pending)))
            pending.clear()

    for section in sections:
        pending.append(f"<h2>{html.escape(section.title)}</h2>\n"
                       f"<p>{html.escape(section.intro)}</p>")
        for item in section.items:
            if isinstance(item, Table):
                if item.caption:
                    pending.append(f"<h4>{html.escape(item.caption)}</h4>")
                pending.append(item.html())
            elif isinstance(item, str):
                pending.append(f"<p><em>{html.escape(item)}</em></p>")
            else:
                flush()
                display(item)
    flush()
