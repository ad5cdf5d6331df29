"""``workbench pmf`` and ``workbench versus``: one check's distribution, one opposed check."""
from __future__ import annotations

import json
import os
import re
import shlex

from .. import validation
from ..api import check, simulate, versus
from ..errors import WorkbenchError
from ..export.results import PMF_NUMBERS, result_tables
from ..export.tables import render_table
from ..numbers import json_ready
from ..rules.registry import get_system
from ._args import (FORMAT_RULE, FORMATS, checked_out_path, not_a_data_file, not_keywords,
                    output_format, parse_assignments, parse_quoted, write_text)

FORMAT_HELP = ("md or rst (percentages with two decimals; outcomes at either end that together "
               "round to 0%% are cut into one '< 0.01%%' row), json (numbers to 15 significant "
               "digits and 15 decimals: exact results without float noise) or csv (every "
               "outcome, plain numbers); " + FORMAT_RULE.replace("%", "%%"))


def register(sub) -> None:
    p = sub.add_parser("pmf", help="distribution of one check (exact, or --simulate)")
    p.add_argument("system", help="system id or alias (uwr, hkrpg, fons, unnamed, arrata, "
                                  "erzahlspiel), a variant id, or a path to a .toml file")
    p.add_argument("params", nargs="*", metavar="NAME=VALUE")
    p.add_argument("--format", choices=FORMATS, default=None, help=FORMAT_HELP)
    p.add_argument("--out", default=None, metavar="FILE", help="write here instead of stdout")
    p.add_argument("--simulate", action="store_true", help="simulate instead of computing exactly")
    p.add_argument("--trials", default=None,
                   help="simulated checks, 1 to 1e10 (with --simulate; default 1e6)")
    p.add_argument("--seed", default=None,
                   help="random seed, 0 to 2**64 - 1 (with --simulate; default: fresh)")
    p.add_argument("--stat", default=None, metavar="NAME",
                   help="show this statistic's distribution instead of the total's (systems with "
                        "counts or statistics: workbench systems lists them)")
    p.add_argument("--as-toml", action="store_true",
                   help="for a one-line formula: print the equivalent data file instead (the "
                        "NAME=VALUE settings become its defaults)")
    p.set_defaults(run=run_pmf)

    p = sub.add_parser("versus", help="opposed check: P(actor passes) and the margin distribution",
                       description="One system with --actor and --reactor (each reactor success "
                                   "cancels one of the actor's, by the system's rules), or two "
                                   "systems or one-line formulas, actor first: their totals are "
                                   "compared (workbench versus \"4d6kh3\" \"3d6\"; ties go to "
                                   "--ties, the reactor by default).")
    p.add_argument("system")
    p.add_argument("against", nargs="?", default=None,
                   help="the reactor's system or formula (then the two totals are compared)")
    p.add_argument("--actor", default=None, help='e.g. "dice=4 favor=1"')
    p.add_argument("--reactor", default=None, help='e.g. "dice=3"')
    p.add_argument("--ties", choices=("actor", "reactor"), default=None,
                   help="with two systems: who wins when the totals are equal (default reactor)")
    p.add_argument("--format", choices=FORMATS, default=None, help=FORMAT_HELP)
    p.add_argument("--out", default=None, metavar="FILE", help="write here instead of stdout")
    p.set_defaults(run=run_versus)


def check_out(args) -> None:
    """``--out`` checked before any work starts (a simulation can run for minutes): a file
    that may be written, and never the data file of the system (``pmf mine.toml --out
    mine.toml`` would replace the designer's system with its odds)."""
    if args.out is not None:
        checked_out_path(args.out, "check.md")
        not_a_data_file(args.out, args.system)
        output_format(args.format, args.out, FORMATS)   # a suffix it cannot write: said now


#: The table markup of each format ``pmf`` and ``versus`` write as tables.
TABLE_MARKUP = {"md": "md", "rst": "rst-grid", "csv": "csv"}


def emit(result, fmt: str | None, out: str | None = None, stat: str | None = None) -> None:
    """Print (or write to ``out``) a check's or an opposed check's result as tables in
    Markdown or reStructuredText (percentages, negligible tails cut), JSON (15 significant
    digits, see :mod:`workbench.numbers`) or CSV (every outcome, plain numbers); ``stat``: the
    statistic whose outcomes a check shows; ``fmt=None`` follows
    :func:`~workbench.cli._args.output_format`."""
    if out is not None:
        checked_out_path(out, "check.md")
    fmt = output_format(fmt, out, FORMATS)
    if fmt == "json":
        write_text(json.dumps(json_data(result, stat), ensure_ascii=False, indent=2), out)
        return
    numbers = None if fmt == "csv" else PMF_NUMBERS
    tables = result_tables(result, numbers, **({} if stat is None else {"stat": stat}))
    write_text("\n\n".join(_block(title, table, fmt, numbers) for title, table in tables), out)


def _block(title: str, table, fmt: str, numbers) -> str:
    """One table under its heading (CSV: the table alone). Tier labels are the data file's
    text: the table writer escapes them, so "Miss | *bad*" stays one cell and literal text."""
    text = render_table(table, TABLE_MARKUP[fmt], numbers)
    if fmt == "csv":
        return text
    heading = f"**{title}**" if fmt == "md" else f"{title}\n{'-' * len(title)}"
    return f"{heading}\n\n{text}"


def json_data(result, stat: str | None = None) -> dict:
    """The JSON object of a result: its ``to_dict()``, with ``stat`` the statistic's outcomes,
    mean (and standard errors) in place of the total's."""
    data = result.to_dict()
    if stat is not None and result.stats is not None:
        chosen = result.stats[stat]
        data = {**data, "stat": stat, "pmf": chosen.to_dict(), "mean": chosen.mean}
        if "stderr" in data:
            data["stderr"] = {str(o): float(e) for o, e in zip(chosen.outcomes, chosen.stderr)}
    return json_ready(data)


#: NAME=VALUE words that are options of ``pmf`` itself, not settings of the system.
PMF_OPTIONS = {"trials": "--trials {value} (with --simulate)",
               "seed": "--seed {value} (with --simulate)"}


def run_pmf(args) -> int:
    params = parse_assignments(args.params)
    not_keywords(args.system, params, "pmf", PMF_OPTIONS, simulate if args.simulate else check)
    check_out(args)
    if args.as_toml:
        chosen = get_system(args.system)
        if chosen.collection != "formula":
            raise WorkbenchError(f"--as-toml prints the data file of a one-line formula; {args.system!r} "
                                 f"is the system {chosen.id!r}, whose file is "
                                 f"{chosen.source or 'none (registered in Python)'}")
        given = [f"--{o}" for o in ("simulate", "stat", "trials", "seed", "format")
                 if getattr(args, o.replace("-", "_")) not in (None, False)]
        if given:
            raise WorkbenchError(f"{given[0]} does not go with --as-toml (it prints the data file, "
                                 "not a distribution); allowed: --as-toml with NAME=VALUE and --out")
        from ..rules.notation import formula_toml  # lazy: notation (lark, tomlkit)
        write_text(formula_toml(args.system, **params), args.out)
        return 0
    if args.simulate:
        trials = validation.trials(None, "1e6" if args.trials is None else args.trials, "--trials")
        seed = None if args.seed is None else validation.seed(None, args.seed, "--seed", text=True)
        result = simulate(args.system, trials=trials, seed=seed, **params)
    else:
        given = [option for option in ("trials", "seed") if getattr(args, option) is not None]
        if given:
            raise WorkbenchError(f"--{given[0]} got {getattr(args, given[0])!r}; allowed only "
                                 "with --simulate (an exact result has no trials or seed)")
        result = check(args.system, **params)
    if args.stat is not None:
        known = list(result.stats) if result.stats else ["total"]
        if args.stat not in known:
            raise WorkbenchError(f"--stat got {args.stat!r}; allowed: {', '.join(known)}")
    emit(result, args.format, args.out, args.stat)
    return 0


def _a_setting(name: str) -> bool:
    """``dice=3`` (NAME=VALUE) where a system or formula goes: no formula starts with a name
    and ``=``, and no file of that name is there."""
    return bool(re.match(r"[A-Za-z_][A-Za-z0-9_]*=", name)) and not os.path.exists(name)


def run_versus(args) -> int:
    check_out(args)
    if args.against is None:
        missing = [o for o in ("actor", "reactor") if getattr(args, o) is None]
        if missing:
            raise WorkbenchError(f"--{missing[0]} is needed with one system (e.g. --actor \"dice=4\" "
                                 "--reactor \"dice=3\"); or name two systems or formulas: "
                                 "workbench versus \"4d6kh3\" \"3d6\"")
        if args.ties is not None:
            raise WorkbenchError("--ties goes with two systems; one system's own rules say who "
                                 "wins a tie")
    if args.against is not None and _a_setting(args.against):
        raise WorkbenchError(f"against got {args.against!r}, a setting: the second name is the "
                             "reactor's system or formula; allowed: settings in --actor / "
                             f"--reactor, such as --actor {shlex.quote(args.against)}")
    actor = parse_quoted(args.actor, "--actor") if args.actor is not None else {}
    reactor = parse_quoted(args.reactor, "--reactor") if args.reactor is not None else {}
    if args.against is not None:
        result = versus(args.system, actor, reactor, against=args.against, ties=args.ties or "reactor")
    else:
        result = versus(args.system, actor, reactor)
    emit(result, args.format, args.out)
    return 0
