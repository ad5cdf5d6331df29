"""``workbench table``: a system's odds as a table for docs builds, and the pieces the
``ladder`` and ``report`` commands share with it (pool sizes, number formats).

Tables go to stdout or ``--out FILE`` so a Sphinx page can ``.. include::`` them.
"""
from __future__ import annotations

import argparse

from ..analysis import pool_bounds
from ..errors import ParameterError, WorkbenchError
from ..export.tables import TABLE_FORMATS, NumberFormat, render_table
from ..odds_tables import column_knob, difficulty_rows, difficulty_table, overridden_setting
from ..render import MAX_POOL, parse_pools  # noqa: F401 (MAX_POOL: for the ladder command)
from ..rules.registry import get_system
from ._args import (FORMAT_RULE, checked_out_path, not_a_data_file, not_keywords,
                    output_format, parse_assignments, whole_number, write_text)

LADDER_FORMATS = (*TABLE_FORMATS, "json")


def _add_output_options(parser, formats_help: str, formats=TABLE_FORMATS) -> None:
    parser.add_argument("--format", choices=(*formats, "rst"), default=None, type=_rst_is_grid,
                        help=f"{formats_help} (rst: rst-grid); {FORMAT_RULE}")
    numbers = parser.add_mutually_exclusive_group()
    numbers.add_argument("--percent", nargs="?", const="1", default=None, metavar="DIGITS",
                         type=_percent_digits,
                         help="probabilities as percentages (default, 1 decimal: 66.7%%); "
                              "values that only round to 0%% or 100%% show as < 0.1%% / > 99.9%% "
                              "(not in csv)")
    numbers.add_argument("--digits", default=None, metavar="N", help="probabilities as 0.667 (N decimals)")
    numbers.add_argument("--fraction", action="store_true", help="probabilities as fractions (2/3)")
    parser.add_argument("--out", default=None, metavar="FILE", help="write here instead of stdout")


def _percent_digits(text: str) -> str:
    """``--percent``'s optional DIGITS: digits only, so ``table --percent uwr`` says that
    ``uwr`` is no number of decimals (argparse took it as one, then asked for a system); the
    range is checked with the other number options."""
    if not text.strip().isascii() or not text.strip().isdigit():
        raise argparse.ArgumentTypeError(
            f"got {text!r}; allowed: a whole number from 0 to 15 (decimals), or --percent alone "
            "after the system (uwr --percent)")
    return text


def _rst_is_grid(text: str) -> str:
    """``--format rst`` (as ``pmf`` takes it) is the grid table."""
    return "rst-grid" if text == "rst" else text


def register(sub) -> None:
    p = sub.add_parser("table", help="a system's odds by pool size: P(pass) at each rung of its "
                                     "difficulty ladder; without a ladder, P(pass) (or each tier's "
                                     "share)")
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



def number_format_of(args) -> NumberFormat:
    """The ``--percent`` / ``--digits`` / ``--fraction`` choice as a :class:`NumberFormat`."""
    if args.fraction:
        return NumberFormat("fraction")
    if args.digits is not None:
        return NumberFormat("digits", whole_number(args.digits, "--digits", 0, 15))
    if args.percent is not None:
        return NumberFormat("percent", whole_number(args.percent, "--percent", 0, 15))
    return NumberFormat("percent", 1)


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


def no_pool_to_step(system, given: dict) -> None:
    """Pool options (``--pools``, ``--pool``, ``--across``) for a system without a pool size
    (Erzählspiel's one coloured die, a formula such as ``4d6kh3``) would change nothing: refused,
    never silently ignored."""
    if system.pool_parameter:
        return
    for option, value in given.items():
        if value is not None:
            raise WorkbenchError(f"{option} got {value!r}; allowed: no {option} for {system.id}: "
                                 "it has no pool size to step through (leave it out)")


def run_table(args) -> int:
    args.format = output_format(args.format, args.out, TABLE_FORMATS)
    _checked_condition(args.system, args.condition)
    numbers = number_format_of(args)
    if args.out is not None:
        checked_out_path(args.out)
        not_a_data_file(args.out, args.system)
    pools = None if args.pools is None else parse_pools(args.pools)
    system = get_system(args.system)
    no_pool_to_step(system, {"--pools": args.pools})
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
    overridden = overridden_setting(system, params)
    if overridden is not None:   # dice=5 beside columns of 1 to 10 dice would change nothing
        columns = f"--pools {args.pools}" if args.pools is not None else "the default --pools"
        instead = f" (with {overridden.rest} instead)" if overridden.rest else ""
        raise WorkbenchError(f"{overridden.said} sets {overridden.knob}, which the table's columns "
                             f"step through ({columns}); allowed: --pools {overridden.value} for "
                             f"that pool alone, without {overridden.said}{instead}")
    table = difficulty_rows(args.system, pools, condition=args.condition, **params)
    write_text(render_table(table, args.format, numbers), args.out)
    return 0
