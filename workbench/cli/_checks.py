"""``workbench systems``, ``workbench pmf`` and ``workbench versus``."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .. import validation
from .._display import cut_tails
from ..api import check, simulate, systems, versus
from ..errors import WorkbenchError
from ..rules.notation import formula_toml
from ..rules.registry import get_system
from ..export.tables import NumberFormat, format_numbers, md_escape, rst_escape
from ..numbers import json_ready, round_sig
from ._docs import checked_out_path, not_a_data_file, write_text
from ._args import (FORMAT_RULE, FORMATS, not_keywords, output_format, parse_assignments,
                    parse_quoted)

FORMAT_HELP = ("md or rst (percentages with two decimals; outcomes at either end that together "
               "round to 0%% are cut into one '< 0.01%%' row), json (numbers to 15 significant "
               "digits and 15 decimals: exact results without float noise) or csv (every "
               "outcome, plain numbers); " + FORMAT_RULE.replace("%", "%%"))

if TYPE_CHECKING:  # pandas loads on first use, keeping `import workbench` quick
    import pandas as pd  # lazy: pandas


def register(sub) -> None:
    p = sub.add_parser("systems", help="list systems, their parameters, defaults and rule options")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_systems)

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


def _system_listing(sys_) -> dict:
    return {
        "id": sys_.id, "name": sys_.name, "aliases": list(sys_.aliases), "seed": sys_.seed,
        "description": sys_.description, "collection": sys_.collection,
        "statistics": list(sys_.statistic_names),
        "parameters": {p.name: {"default": p.default, "allowed": p.allowed(), "help": p.help}
                       for p in sys_.params.values() if not p.rule_option},
        "rule_options": {p.name: {"default": p.default, "allowed": p.allowed(), "help": p.help}
                         for p in sys_.params.values() if p.rule_option},
        "ladder": [{"name": r.name, "settings": r.describe()} for r in sys_.ladder],
    }


def _as_typed(value) -> str:
    """A default as it is typed on the command line: ``true``, not ``True``; unset, not ``None``."""
    if value is None:
        return "(not set)"
    return str(value).lower() if isinstance(value, bool) else str(value)


SECTIONS = (("systems", "Systems and what-if variants"), ("gallery", "Published games' core rolls "
                                                                    "(the gallery, for comparison)"))


def run_systems(args) -> int:
    listing = [_system_listing(s) for s in systems()]
    if args.format == "json":
        print(json.dumps(listing, indent=2, ensure_ascii=False))
        return 0
    for collection, title in SECTIONS:
        entries = [e for e in listing if (e["collection"] == "gallery") == (collection == "gallery")]
        if entries:
            print(f"== {title} ==\n")
            _print_entries(entries)
    return 0


def _print_entries(listing: list[dict]) -> None:
    for entry in listing:
        alias = f" (alias: {', '.join(entry['aliases'])})" if entry["aliases"] else ""
        print(f"{entry['id']}{alias}: {entry['name']}")
        if entry["description"]:
            print(f"  {entry['description']}")
        for title in ("parameters", "rule_options"):
            if entry[title]:
                print(f"  {title.replace('_', ' ')}:")
                # One column for "name = default", as wide as the longest, so the
                # allowed values line up under each other.
                heads = {name: f"{name} = {_as_typed(info['default'])}" for name, info in entry[title].items()}
                width = max(map(len, heads.values()))
                for name, info in entry[title].items():
                    print(f"    {heads[name]:<{width}}  {info['allowed']}; {info['help']}")
        if entry["ladder"]:
            print("  ladder: " + "; ".join(f"{r['name']} ({r['settings']})" for r in entry["ladder"]))
        if len(entry["statistics"]) > 1:
            print("  statistics: " + ", ".join(entry["statistics"]))
        print()


#: Distributions in Markdown / RST: percentages with two decimals; tails that round to 0 at
#: that precision are cut into one "< 0.01%" row (see workbench._display.cut_tails).
PMF_NUMBERS = NumberFormat("percent", 2)
_PROBABILITIES = ("p_pass", "p_actor", "lost_mass")


def _result_frames(data: dict, numbers: NumberFormat | None) -> list[tuple[str, pd.DataFrame]]:
    """The tables of a result: outcomes (or margins), tiers, summary. With ``numbers`` the
    cells are text for people (tails cut); without, plain numbers for CSV."""
    import pandas as pd  # lazy: pandas
    frames = []
    # A check prints its outcome distribution; an opposed check its margin distribution.
    title, key = ("Outcomes", "pmf") if "pmf" in data else ("Margins", "margin")
    if "stat" in data:
        title = f"Outcomes of {data['stat']}"
    rows = (cut_tails(data[key], data[key].values(), numbers.resolution) if numbers
            else [(o, p, False) for o, p in data[key].items()])
    pmf = pd.DataFrame({"outcome": [r[0] for r in rows], "probability": [r[1] for r in rows]})
    if "stderr" in data:
        pmf["stderr"] = [None if tail else data["stderr"][label] for label, _, tail in rows]
    frames.append((title, pmf))
    if "tiers" in data:
        frames.append(("Tiers", pd.DataFrame({"tier": list(data["tiers"]),
                                              "probability": list(data["tiers"].values())})))
    summary = {k: data[k] for k in ("p_pass", "mean", "p_actor", "mean_margin", "lost_mass") if k in data}
    if numbers:
        summary = {k: numbers.text(v) if k in _PROBABILITIES else
                   ("" if v is None else f"{round_sig(v, 6):g}") for k, v in summary.items()}
    if data.get("method") == "simulate":
        # The run that gave these numbers, so a table can be repeated: a left-out --seed is
        # fresh, and only the result knows it.
        summary.update({"trials": str(data["trials"]), "seed": str(data["seed"])})
    frames.append(("Summary", pd.DataFrame({"quantity": list(summary), "value": list(summary.values())})))
    if numbers:
        frames = [(name, format_numbers(frame, numbers)) for name, frame in frames]
    return frames


def check_out(args) -> None:
    """``--out`` checked before any work starts (a simulation can run for minutes): a file
    that may be written, and never the data file of the system (``pmf mine.toml --out
    mine.toml`` would replace the designer's system with its odds)."""
    if args.out is not None:
        checked_out_path(args.out, "check.md")
        not_a_data_file(args.out, args.system)
        output_format(args.format, args.out, FORMATS)   # a suffix it cannot write: said now


def emit(data: dict, fmt: str | None, out: str | None = None) -> None:
    """Print (or write to ``out``) a result object as tables in Markdown or reStructuredText
    (percentages, negligible tails cut), JSON (15 significant digits, see
    ``workbench._display``) or CSV (every outcome, plain numbers); ``fmt=None`` follows
    :func:`~workbench.cli._args.output_format`."""
    if out is not None:
        checked_out_path(out, "check.md")
    fmt = output_format(fmt, out, FORMATS)
    data = json_ready(data)
    if fmt == "json":
        write_text(json.dumps(data, ensure_ascii=False, indent=2), out)
        return
    from tabulate import tabulate  # lazy: slow import
    blocks = []
    for title, frame in _result_frames(data, None if fmt == "csv" else PMF_NUMBERS):
        if fmt == "csv":
            blocks.append(frame.to_csv(index=False).rstrip("\n"))
        else:
            # Tier labels are the data file's text: escaped, so "Miss | *bad*" stays one cell
            # and literal text (not emphasis, or an RST reference that fails the build).
            escape = md_escape if fmt == "md" else rst_escape
            table = tabulate([[escape(str(v)) for v in row] for row in frame.values.tolist()],
                             headers=[escape(str(c)) for c in frame.columns], disable_numparse=True,
                             tablefmt="pipe" if fmt == "md" else "grid", stralign="left")
            heading = f"**{title}**" if fmt == "md" else f"{title}\n{'-' * len(title)}"
            blocks.append(f"{heading}\n\n{table}")
    write_text("\n\n".join(blocks), out)


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
    data = result.to_dict()
    if args.stat is not None:
        known = list(result.stats) if result.stats else ["total"]
        if args.stat not in known:
            raise WorkbenchError(f"--stat got {args.stat!r}; allowed: {', '.join(known)}")
        if result.stats is not None:
            chosen = result.stats[args.stat]
            data = {**data, "stat": args.stat, "pmf": chosen.to_dict(), "mean": chosen.mean}
            if "stderr" in data:
                data["stderr"] = {str(o): float(e) for o, e in zip(chosen.outcomes, chosen.stderr)}
    emit(data, args.format, args.out)
    return 0


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
    actor = parse_quoted(args.actor, "--actor") if args.actor is not None else {}
    reactor = parse_quoted(args.reactor, "--reactor") if args.reactor is not None else {}
    if args.against is not None:
        result = versus(args.system, actor, reactor, against=args.against, ties=args.ties or "reactor")
        emit(result.to_dict(), args.format, args.out)
        return 0
    result = versus(args.system, actor, reactor)
    emit(result.to_dict(), args.format, args.out)
    return 0
