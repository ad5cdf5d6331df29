"""``workbench report``: a self-contained HTML balance report (one page, opens offline)."""
from __future__ import annotations

from .. import files
from ..errors import WorkbenchError
from ..render._names import split_systems
from ..report import build_report, report_title
from ._args import checked_out_path
from ._docs import parse_pools


def register(sub) -> None:
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


def run_report(args) -> int:
    systems = [name for name in split_systems(args.systems) if name]
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
