"""``workbench ladder``: solve a difficulty ladder for wanted odds, keeping its rungs in order."""
from __future__ import annotations

import json
import sys
from typing import Any, NamedTuple

from .. import validation
from ..analysis import pools_for, probability_header, shown_probability, typical_pool
from ..errors import WorkbenchError
from ..export.tables import render_table
from ..ladders import difficulty_knobs, pool_label, pools_text, solve_ladder
from ..rules.registry import get_system
from ._args import (checked_out_path, not_a_data_file, not_keywords, output_format,
                    parse_assignments, whole_number, write_text)
from ._docs import (LADDER_FORMATS, LADDER_OPTIONS, MAX_POOL, _add_output_options,
                    _checked_condition, no_pool_to_step, number_format_of, parse_pools)


def register(sub) -> None:
    p = sub.add_parser(
        "ladder", help="solve a difficulty ladder for wanted probabilities, keeping its rungs in order",
        description="Finds the settings (target, Ob, favor, die) closest to the wanted odds at "
                    "--pool such that, at every pool size of --pools, each rung is at most as likely "
                    "to pass as the easier one (rungs ranked by wanted odds), and no two rungs are "
                    "equally likely at --pool. Rungs moved to keep that order say why (note column, "
                    "stderr); crossings at --across pools outside --pools are reported, not "
                    "enforced. --format json gives system, pool, pools, ordered, and per rung "
                    "settings, wanted, achieved, p_pass per pool, reachable and note, plus "
                    "conflicts and outside_range.")
    p.add_argument("system")
    p.add_argument("params", nargs="*", metavar="NAME=VALUE")
    p.add_argument("--want", required=True, help='e.g. "Easy=0.9,Normal=0.7,Difficult=0.45,Extreme=0.2"')
    p.add_argument("--pool", default=None, help="the typical pool size the odds are wanted at "
                                                "(default 4 dice, or the middle of --pools; a "
                                                "knob that is not dice, such as a skill: its "
                                                "default)")
    p.add_argument("--pools", default=None, metavar="RANGE",
                   help="pool sizes of the typical characters, e.g. 3-6: at each of them every rung "
                        "stays at most as likely as the easier one (default: just --pool)")
    p.add_argument("--across", default=None, metavar="RANGE",
                   help="pool sizes for the across-pools table; crossings there outside --pools are "
                        "reported, not enforced (default 1-10 dice, within the system's bounds; "
                        "round values of a skill's range)")
    p.add_argument("--tolerance", default="0.05", help="how far off still counts as reached (default 0.05)")
    p.add_argument("--turn", default=None, metavar="KNOB[,KNOB]",
                   help="turn only these of the ladder's knobs, e.g. target (default: all it uses)")
    p.add_argument("--condition", default=None, metavar="TEXT",
                   help='solve for P(this condition) instead of P(pass), e.g. "beaten == 2"')
    p.add_argument("--show", choices=("both", "solution", "pools"), default=None,
                   help="which table(s); default both (solution only for csv)")
    _add_output_options(p, "table markup, or json (numbers to 15 significant digits)",
                        LADDER_FORMATS)
    p.set_defaults(run=run_ladder)


def _turned_knobs(system: str, turn: str | None):
    """``--turn target,favor`` -> the solver's knobs, restricted to those named."""
    if turn is None:
        return None
    every = difficulty_knobs(system)
    names = [name.strip() for name in turn.split(",") if name.strip()]
    unknown = [name for name in names if name not in every]
    if unknown or not names:
        raise WorkbenchError(f"--turn got {turn!r}; allowed: comma-separated knobs of this "
                             f"ladder: {', '.join(every)}")
    return {name: every[name] for name in names}


def _pool_from_settings(args, params: dict[str, str]) -> dict[str, str]:
    """A pool size among the settings (``stat=A5``, ``dice=5``) is the typical pool: it
    becomes ``--pool`` (and must agree with a ``--pool`` given)."""
    system = get_system(args.system)
    expanded = {k: str(v) for k, v in system.mechanic.preprocess(params).items()}
    name = system.pool_parameter
    if name is None or name not in expanded:
        return params
    count = expanded.pop(name)
    said = next((f"{k}={v}" for k, v in params.items() if k not in expanded or k == name), name)
    if args.pool is None:
        args.pool = count
    elif args.pool.strip() != count:
        raise WorkbenchError(f"--pool got {args.pool!r}; allowed: {count}, as {said} says, or "
                             "leave --pool out")
    return expanded


def _typical_pools(args) -> tuple[int, list[int]]:
    """``--pool`` and ``--pools`` -> (typical pool, pools where the order is kept)."""
    pools = None if args.pools is None else parse_pools(args.pools)
    if args.pool is not None:
        pool = whole_number(args.pool, "--pool", 0, MAX_POOL)
    elif pools is None:
        pool = typical_pool(args.system)   # 4 dice, or a skill's default (Call of Cthulhu: 50)
    elif 4 in pools:
        pool = 4
    else:
        pool = sorted(pools)[(len(pools) - 1) // 2]
    if pools is not None and pool not in pools:
        raise WorkbenchError(f"--pool {pool} is outside --pools {args.pools}; allowed: a pool "
                             "size within the range")
    return pool, pools if pools is not None else [pool]


def _order_sentence(solution, fmt: str) -> str:
    where = pools_text(solution.system, solution.pools, solution.quality)
    text = (f"Ordered {where}: " if where else "Ordered: ") + ("yes" if solution.ordered else "no")
    if fmt == "html":
        return f"<p>{text}</p>"
    return f"**{text}**" if fmt == "md" else text


class _Settings(NamedTuple):
    """``workbench ladder``'s options, checked: what the solver is given and what is shown."""

    params: dict
    pool: int
    pools: list[int]
    tolerance: float
    numbers: Any
    show: str
    across: list[int]


def run_ladder(args) -> int:
    settings = _settings(args)
    solution = solve_ladder(args.system, args.want, settings.pool, pools=settings.pools,
                            tolerance=settings.tolerance, knobs=_turned_knobs(args.system, args.turn),
                            report_pools=settings.across, condition=args.condition, **settings.params)
    if args.format == "json":
        write_text(json.dumps(solution.to_dict(), indent=2, ensure_ascii=False), args.out)
    else:
        write_text("\n\n".join(_tables(solution, args, settings)), args.out)
    _say_notes(solution)
    return 0


def _settings(args) -> _Settings:
    """Every option checked, in the order given on the page, before the solver runs (a bad
    one is one line, never minutes of search first)."""
    args.format = output_format(args.format, args.out, LADDER_FORMATS)
    _checked_condition(args.system, args.condition)
    numbers = number_format_of(args)
    params = parse_assignments(args.params)
    not_keywords(args.system, params, "ladder", LADDER_OPTIONS, solve_ladder)
    params = _pool_from_settings(args, params)
    no_pool_to_step(get_system(args.system),
                    {"--pool": args.pool, "--pools": args.pools, "--across": args.across})
    pool, pools = _typical_pools(args)
    tolerance = validation.real_number(None, "--tolerance", args.tolerance, 0.0, 1.0, text=True,
                                       allowed="a number from 0 to 1")
    if args.out is not None:
        checked_out_path(args.out)
        not_a_data_file(args.out, args.system)
    if args.format == "json":  # JSON holds every figure at full precision: nothing to choose
        given = [flag for flag, value in (("--percent", args.percent), ("--digits", args.digits),
                                          ("--fraction", args.fraction or None), ("--show", args.show))
                 if value is not None]
        if given:
            raise WorkbenchError(f"{given[0]} does not apply to --format json (it gives every rung, "
                                 "every pool and full-precision numbers); allowed: a table format "
                                 "such as rst-grid, md or csv")
    show = args.show or ("solution" if args.format == "csv" else "both")
    if show == "both" and args.format == "csv":
        raise WorkbenchError("--show both cannot be one CSV file; allowed with csv: solution or pools")
    across = (pools_for(args.system, range(1, 11)) if args.across is None
              else parse_pools(args.across, "--across"))
    return _Settings(params, pool, pools, tolerance, numbers, show, across)


def _tables(solution, args, settings: _Settings) -> list[str]:
    """The tables ``--show`` asks for, in ``--format``: the solved ladder (and whether it
    keeps its order), and the solved rungs across ``--across``'s pool sizes."""
    blocks = []
    of = "" if solution.condition is None else f", {shown_probability(solution.condition)}"
    if settings.show in ("both", "solution"):
        frame = solution.pools_table()
        frame["reachable"] = frame["reachable"].map({True: "yes", False: "no"})
        if not frame["note"].astype(bool).any():
            frame = frame.drop(columns="note")
        blocks.append(render_table(frame, args.format, settings.numbers, title="Solved ladder" + of))
        if args.format != "csv":
            blocks.append(_order_sentence(solution, args.format))
    if settings.show in ("both", "pools") and solution.pool is not None:  # one die: no pool sizes
        table = solution.across_pools(settings.across)
        if len(table.columns) == len(settings.across):  # pool sizes as designers write them: B3, 3d6
            quality = solution.quality
            table.columns = [probability_header(pool_label(args.system, n, quality), solution.condition)
                             for n in settings.across]
        blocks.append(render_table(table, args.format, settings.numbers,
                                   title="Solved ladder across pool sizes" + of))
    return blocks


def _say_notes(solution) -> None:
    """Each rung's note, a ladder that could not keep distinct rungs, and crossings outside
    the pools asked for: on stderr, one line each."""
    for rung in solution.rungs:
        if rung.note:
            kind = "warning" if not rung.reachable else "note"
            print(f"workbench: {kind}: {rung.name}: {rung.note}", file=sys.stderr)
    if not solution.ordered:
        print("workbench: warning: no ladder with distinct rungs keeps this order; rungs that "
              "tie: " + "; ".join(solution.describe(c) for c in solution.conflicts
                                   if c.kind == "ties"), file=sys.stderr)
    for crossing in solution.outside:
        print(f"workbench: note: outside the pools asked for (not enforced): "
              f"{solution.describe(crossing)}", file=sys.stderr)
