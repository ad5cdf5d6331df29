"""``workbench figure SYSTEM [NAME=VALUE ...] --kind KIND --out FILE``: one figure to a file.

The figure is the one the ``workbench-figure`` directive and Markdown blocks draw (the same
options, through :mod:`workbench.render`); the file's suffix picks PNG, SVG or HTML.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from .. import files
from ..errors import WorkbenchError
from ..render import (
    FIGURE_KINDS,
    FIGURE_OUTPUTS,
    BlockOptionError,
    build_figure,
    parse_block,
)
from ..rules.registry import get_system
from ._args import parse_assignments

# Block options the command line spells as --options; any other name is a system parameter.
_CLI_OPTIONS = ("kind", "base", "compare", "pools", "rungs", "want", "pool", "knob", "levels",
                "width", "height", "scale", "condition")


def register(sub) -> None:
    p = sub.add_parser("figure", help="a figure (curve, check, difference, ladder, outcomes) as "
                                      "PNG, SVG or HTML, at any size")
    p.add_argument("system", help="system id, alias, variant id or path to a .toml file")
    p.add_argument("params", nargs="*", metavar="NAME=VALUE", help="the character's settings")
    p.add_argument("--kind", default="curve", help=f"{' | '.join(FIGURE_KINDS)} (default curve; "
                                                   "outcomes: one stacked column per level of "
                                                   "--knob)")
    p.add_argument("--base", default=None, metavar="SYSTEM",
                   help="with --kind difference: the system to compare against")
    p.add_argument("--compare", default=None, metavar="SYSTEM[,SYSTEM]",
                   help="with --kind curve: more systems, one panel each")
    p.add_argument("--pools", default=None, help="pool sizes, e.g. 1-10 or 2,4,6 (default 1-10)")
    p.add_argument("--rungs", default=None, help="comma-separated rungs to draw (default: all)")
    p.add_argument("--want", default=None, help='with --kind ladder: solve first, e.g. "Easy=0.9,Normal=0.7"')
    p.add_argument("--pool", default=None, help="with --want: the pool the odds are wanted at (default 4 dice within the "
                                                "system's bounds; a skill: its default)")
    p.add_argument("--condition", default=None, metavar="TEXT",
                   help='with --kind ladder: P(this condition) instead of P(pass), e.g. "beaten == 2"')
    p.add_argument("--stat", default=None, metavar="NAME",
                   help="with --kind check: this statistic's distribution instead of the total's")
    p.add_argument("--knob", default=None, metavar="PARAMETER",
                   help="with --kind outcomes: the parameter whose levels are the columns "
                        "(default: the pool size, or the die colour)")
    p.add_argument("--levels", default=None, metavar="V1,V2,...",
                   help="with --kind outcomes: the knob's values, e.g. --levels=-2,-1,0,1,2 (default: "
                        "every choice, or two either side of the default)")
    p.add_argument("--width", default=None, metavar="PX", help="width in pixels (default 800 for "
                                                                "PNG/SVG; HTML fills the page)")
    p.add_argument("--height", default=None, metavar="PX", help="height in pixels (default 480)")
    p.add_argument("--scale", default=None, metavar="N",
                   help="image pixels per figure pixel, 0.5 to 10 (default 1; 3 gives a "
                        "2400 px wide PNG: 8 inches at 300 dpi)")
    p.add_argument("--out", required=True, metavar="FILE", help="FILE.png, FILE.svg or FILE.html")
    p.set_defaults(run=run_figure)


def run_figure(args) -> int:
    out = Path(args.out)
    suffix = out.suffix.lower().lstrip(".")
    suffix = "html" if suffix == "htm" else suffix   # as report and share take it
    # The file first (a folder, a trailing '/', a device...), before any work; then its suffix.
    files.check_target(args.out, "--out", example="figure." + (suffix or "png"))
    if suffix not in FIGURE_OUTPUTS:
        raise WorkbenchError(f"--out got {args.out!r}; allowed: a file name ending in "
                             + ", ".join("." + s for s in FIGURE_OUTPUTS) + " (or .htm)")
    from ..figures import write_figure  # lazy: plotly
    params = parse_assignments(args.params)
    clash = [name for name in params if name in _CLI_OPTIONS or name in ("output", "alt", "caption")]
    if clash:
        raise WorkbenchError(f"parameter {clash[0]!r} is an option here; allowed: --{clash[0]}"
                             if clash[0] in _CLI_OPTIONS else
                             f"parameter {clash[0]!r} is not a parameter of a figure")
    options = {name: getattr(args, name) for name in _CLI_OPTIONS if getattr(args, name) is not None}
    if args.stat is not None:   # --stat as in pmf; blocks call it statistic (stat=B5 is a setting)
        options["statistic"] = args.stat
    try:
        block = parse_block("figure", args.system, {**options, **params, "output": suffix})
        figure = build_figure(block)  # a --want the solver cannot read fails here
    except BlockOptionError as exc:
        if exc.option in (*_CLI_OPTIONS, "statistic"):
            flag = "stat" if exc.option == "statistic" else exc.option
            said = f": {exc.problem}" if exc.problem else ""
            raise WorkbenchError(f"--{flag} got {exc.value!r}{said}; allowed: {exc.allowed}") from None
        system = get_system(args.system)
        unknown = exc.allowed.startswith("options of workbench-")
        allowed = f"parameters of {system.id}: {', '.join(system.params)}" if unknown else exc.allowed
        allowed = re.sub(r"\bpools=", "--pools ", allowed)   # the block's pools=5 is --pools 5 here
        raise WorkbenchError(f"parameter {exc.option!r} got {exc.value!r}; allowed: {allowed}") from None
    try:
        write_figure(figure, out, scale=block.scale)   # whole or not at all (workbench.files)
    except files.TargetError as exc:
        raise exc.named("--out") from None
    print(f"wrote {out}", file=sys.stderr)
    return 0
