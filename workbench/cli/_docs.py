"""``workbench table``, ``workbench ladder`` and ``workbench report``: exports for docs builds.

Tables go to stdout or ``--out FILE`` so a Sphinx page can ``.. include::`` them; the report
is one self-contained HTML page.
"""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

from .. import files, validation
from ..analysis import pool_bounds, pools_for, probability_header, shown_probability, typical_pool
from ..errors import ParameterError, WorkbenchError
from ..export.tables import TABLE_FORMATS, NumberFormat, render_table
from ..ladders import (
    column_knob,
    difficulty_knobs,
    difficulty_table,
    pool_label,
    pools_text,
    solve_ladder,
)
from ..limits import MAX_TABLE_POOL
from ..rules.registry import get_system
from ..report import build_report, report_title
from ._args import (FORMAT_RULE, not_keywords, one_line, output_format, parse_assignments,
                    whole_number)

_RANGE = re.compile(r"^\s*([0-9]{1,6})\s*-\s*([0-9]{1,6})\s*$", re.ASCII)
_SIZE = re.compile(r"^\s*[0-9]{1,6}\s*$", re.ASCII)
MAX_POOL = MAX_TABLE_POOL
LADDER_FORMATS = (*TABLE_FORMATS, "json")


def parse_pools(text: str, option: str = "--pools") -> list[int]:
    """``"1-10"``, ``"2,4,6"`` or ``"3"`` -> pool sizes (each 0..100, each once: ``04`` is
    ``4``, so ``4,04`` is one pool given twice, an error as everywhere a pool repeats).

    Example:
        >>> parse_pools("1-3,6"), parse_pools("04")
        ([1, 2, 3, 6], [4])
        >>> parse_pools("3-5,04")
        Traceback (most recent call last):
        ...
        workbench.errors.WorkbenchError: --pools got '3-5,04': pool size 4 is given twice; allowed: sizes from 0 to 100 such as 1-10 or 2,4,6, each once
    """
    sizes: list[int] = []
    allowed = f"allowed: sizes from 0 to {MAX_POOL} such as 1-10 or 2,4,6"
    for part in text.split(","):
        match = _RANGE.match(part)
        if match:
            low, high = int(match.group(1)), int(match.group(2))
            if low > high:
                raise WorkbenchError(f"{option} got {text!r}: range {part.strip()} runs backwards; {allowed}")
            sizes.extend(range(low, high + 1))
        elif _SIZE.match(part):
            sizes.append(int(part))
        else:
            raise WorkbenchError(f"{option} got {text!r}; {allowed}")
    if any(n > MAX_POOL for n in sizes):
        raise WorkbenchError(f"{option} got {text!r}; {allowed}")
    twice = next((n for i, n in enumerate(sizes) if n in sizes[:i]), None)
    if twice is not None:   # 4,04 or 3-5,4: one pool, said twice
        raise WorkbenchError(f"{option} got {text!r}: pool size {twice} is given twice; "
                             f"{allowed}, each once")
    return sizes


def _add_output_options(parser, formats_help: str, formats=TABLE_FORMATS) -> None:
    parser.add_argument("--format", choices=formats, default=None,
                        help=f"{formats_help}; {FORMAT_RULE}")
    numbers = parser.add_mutually_exclusive_group()
    numbers.add_argument("--percent", nargs="?", const="1", default=None, metavar="DIGITS",
                         help="probabilities as percentages (default, 1 decimal: 66.7%%); "
                              "values that only round to 0%% or 100%% show as < 0.1%% / > 99.9%% "
                              "(not in csv)")
    numbers.add_argument("--digits", default=None, metavar="N", help="probabilities as 0.667 (N decimals)")
    numbers.add_argument("--fraction", action="store_true", help="probabilities as fractions (2/3)")
    parser.add_argument("--out", default=None, metavar="FILE", help="write here instead of stdout")


def register(sub) -> None:
    p = sub.add_parser("table", help="a system's difficulty ladder with P(pass) per pool size")
    p.add_argument("system", help="system id, alias, variant id or path to a .toml file")
    p.add_argument("params", nargs="*", metavar="NAME=VALUE", help="the character's other settings")
    p.add_argument("--pools", default=None,
                   help="pool sizes, e.g. 1-10 or 2,4,6 (default 1-10 dice; for a knob that is "
                        "not a number of dice, such as a skill of 1-99, round values across "
                        "its range)")
    p.add_argument("--condition", default=None, metavar="TEXT",
                   help='P(this condition) instead of P(pass), e.g. "ones * 2 > dice" (names: the '
                        "system's statistics, as workbench systems lists them, and parameters)")
    _add_output_options(p, "table markup")
    p.set_defaults(run=run_table)

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

    p = sub.add_parser("report", help="a self-contained HTML balance report (one page, opens offline)")
    p.add_argument("--out", required=True, metavar="FILE.html")
    p.add_argument("--systems", default="uwr,fons,unnamed,arrata,erzahlspiel",
                   help="comma-separated system ids (default: the five seeds)")
    p.add_argument("--variant", action="append", default=[], metavar="ID",
                   help="a what-if variant to compare (repeatable), e.g. fons-exploding")
    p.add_argument("--pools", default="1-10", help="pool sizes for curves and tables (default 1-10)")
    p.add_argument("--want", default=None, metavar="RUNG=P,...",
                   help="odds to solve the ladders for, e.g. \"Easy=0.9,Normal=0.7\", applied to "
                        "each system whose ladder has these rungs (default: each system's own "
                        "rungs, easiest 90%% down to hardest 20%%)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.set_defaults(run=run_report)


def number_format_of(args) -> NumberFormat:
    """The ``--percent`` / ``--digits`` / ``--fraction`` choice as a :class:`NumberFormat`."""
    if args.fraction:
        return NumberFormat("fraction")
    if args.digits is not None:
        return NumberFormat("digits", whole_number(args.digits, "--digits", 0, 15))
    if args.percent is not None:
        return NumberFormat("percent", whole_number(args.percent, "--percent", 0, 15))
    return NumberFormat("percent", 1)


def write_text(text: str, out: str | None) -> None:
    """``text`` and a line end to stdout, or to the ``--out`` file (saying so on stderr)."""
    if out is None:
        sys.stdout.write(text + "\n")
        return
    files.write_text(out, text + "\n", "--out")   # whole or not at all
    print(one_line(f"wrote {out}"), file=sys.stderr)  # as figure, sweep and report do


def checked_out_path(out: str, example: str = "odds.rst", suffixes=()) -> Path:
    """``--out``'s file, checked before any work (:func:`workbench.files.check_target`): a
    file name, in a folder that exists and may be written to; not a folder, a device or a
    read-only file."""
    files.check_target(out, "--out", suffixes=suffixes, example=example)
    return Path(out)


def not_a_data_file(out: str, system: str) -> None:
    """``--out`` must not be the data file the table is computed from (``table mine.toml
    --out mine.toml`` would replace the designer's system with its own table)."""
    sys_ = get_system(system)
    while sys_ is not None:
        if sys_.source is not None and os.path.realpath(out) == os.path.realpath(sys_.source):
            raise WorkbenchError(f"--out {out!r} is the data file of system {sys_.id!r} that the "
                                 "table is computed from; allowed: another file name, such as "
                                 f"{sys_.id}-odds.rst")
        sys_ = get_system(sys_.base) if sys_.base else None


#: NAME=VALUE words that are options of ``table`` / ``ladder``, not settings of the system.
TABLE_OPTIONS = {"pools": "--pools {value}", "condition": "--condition {value!r}"}
LADDER_OPTIONS = {"want": "--want {value!r}", "pool": "--pool {value}", "pools": "--pools {value}",
                  "tolerance": "--tolerance {value}", "condition": "--condition {value!r}"}


def _checked_condition(system: str, text: str | None) -> None:
    """``--condition``, checked before any work and named as the option (not "parameter
    'condition'"): one rule with every other surface (:meth:`System.condition`)."""
    if text is None:
        return
    try:
        get_system(system).condition(text)
    except ParameterError as exc:
        raise WorkbenchError(f"--condition got {text!r}; allowed: {exc.allowed}") from None


def run_table(args) -> int:
    args.format = output_format(args.format, args.out, TABLE_FORMATS)
    _checked_condition(args.system, args.condition)
    numbers = number_format_of(args)
    if args.out is not None:
        checked_out_path(args.out)
        not_a_data_file(args.out, args.system)
    pools = None if args.pools is None else parse_pools(args.pools)
    system = get_system(args.system)
    if pools is not None and system.pool_parameter and not column_knob(system):
        raise WorkbenchError(f"--pools got {args.pools!r}; allowed: no --pools for {system.id}: "
                             f"its ladder sets {system.pool_parameter} itself, so the table has "
                             f"no column per {system.pool_parameter}")
    if pools is not None and system.pool_parameter:
        low, high = pool_bounds(system)
        outside = [n for n in pools if not low <= n <= high]
        if outside:   # named as given, not as the one size a check refused ("roll got 11")
            raise WorkbenchError(f"--pools got {args.pools!r}; allowed: pool sizes {system.id} can "
                                 f"roll: its {system.pool_parameter} from {low} to {high} (not "
                                 f"{outside[0]})")
    params = parse_assignments(args.params)
    not_keywords(args.system, params, "table", TABLE_OPTIONS, difficulty_table)
    frame = difficulty_table(args.system, pools, condition=args.condition, **params)
    write_text(render_table(frame, args.format, numbers), args.out)
    return 0


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
    where = pools_text(solution.system, solution.pools, solution.params.get("quality"))
    text = (f"Ordered {where}: " if where else "Ordered: ") + ("yes" if solution.ordered else "no")
    if fmt == "html":
        return f"<p>{text}</p>"
    return f"**{text}**" if fmt == "md" else text


def run_ladder(args) -> int:
    args.format = output_format(args.format, args.out, LADDER_FORMATS)
    _checked_condition(args.system, args.condition)
    numbers = number_format_of(args)
    params = parse_assignments(args.params)
    not_keywords(args.system, params, "ladder", LADDER_OPTIONS, solve_ladder)
    params = _pool_from_settings(args, params)
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
    solution = solve_ladder(args.system, args.want, pool, pools=pools, tolerance=tolerance,
                            knobs=_turned_knobs(args.system, args.turn), report_pools=across,
                            condition=args.condition, **params)
    if args.format == "json":
        write_text(json.dumps(solution.to_dict(), indent=2, ensure_ascii=False), args.out)
    else:
        blocks = []
        quality = params.get("quality")
        if show in ("both", "solution"):
            frame = solution.pools_table()
            frame["reachable"] = frame["reachable"].map({True: "yes", False: "no"})
            if not frame["note"].astype(bool).any():
                frame = frame.drop(columns="note")
            of = "" if solution.condition is None else f", {shown_probability(solution.condition)}"
            blocks.append(render_table(frame, args.format, numbers, title="Solved ladder" + of))
            if args.format != "csv":
                blocks.append(_order_sentence(solution, args.format))
        if show in ("both", "pools") and solution.pool is not None:  # one die: no pool sizes
            table = solution.across_pools(across)
            if len(table.columns) == len(across):  # pool sizes as designers write them: B3, 3d6
                table.columns = [probability_header(pool_label(args.system, n, quality),
                                                    solution.condition) for n in across]
            of = "" if solution.condition is None else f", {shown_probability(solution.condition)}"
            blocks.append(render_table(table, args.format, numbers,
                                       title="Solved ladder across pool sizes" + of))
        write_text("\n\n".join(blocks), args.out)
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
    return 0


def run_report(args) -> int:
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    if not systems:
        raise WorkbenchError(f"--systems got {args.systems!r}; allowed: ids such as uwr,arrata")
    checked_out_path(args.out, "balance.html", (".html", ".htm"))
    try:
        path = build_report(args.out, systems=systems, variants=args.variant,
                            pool_sizes=parse_pools(args.pools), progress=not args.no_progress,
                            wanted=args.want)
    except files.TargetError as exc:  # writing the page failed (full disk, a size limit)
        raise exc.named("--out") from None
    size = path.stat().st_size / 1e6
    print(f"wrote {path} ({size:.1f} MB, self-contained HTML): "
          f"{report_title(systems, args.variant)}")
    return 0
