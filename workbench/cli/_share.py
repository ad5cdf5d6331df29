"""``workbench share SYSTEM[,SYSTEM...] --knob NAME=VALUES ... --out page.html``: one HTML page
with the odds over a grid of knobs, computed ahead, that works offline in any browser.
"""
from __future__ import annotations

import sys

from ..errors import WorkbenchError, shown
from ..files import check_target
from ..render._names import split_systems
from ._args import parse_assignments
from ._docs import parse_pools


def register(sub) -> None:
    p = sub.add_parser("share", help="one self-contained HTML page with the odds over a grid "
                                     "of knobs, for people without Python (works offline)")
    p.add_argument("systems", metavar="SYSTEM[,SYSTEM...]",
                   help="system ids, aliases, .toml paths or one-line formulas (quoted: "
                        "\"4d6kh3\"), separated by commas")
    p.add_argument("params", nargs="*", metavar="NAME=VALUE",
                   help="settings held fixed, for every system that has them")
    p.add_argument("--knob", action="append", default=[], metavar="NAME=LO-HI|V1,V2,...",
                   help="a control of the page and its values: a range of whole numbers "
                        "(favor=-2-2, favor=-2..2) or a comma list (quality=B,A,S); it sets every "
                        "system that has the parameter; give --knob once per knob")
    p.add_argument("--pools", default=None, metavar="RANGE",
                   help="pool sizes for systems whose pool is a number of dice (default 1-10; a "
                        "skill or a stat is drawn over round values of its range)")
    p.add_argument("--title", default=None, help="the page's heading")
    p.add_argument("--out", required=True, metavar="FILE.html", help="the page to write")
    p.set_defaults(run=run_share)


def run_share(args) -> int:
    from ..share import share_page  # lazy: share loads pandas and plotly
    from ..share.grid import parse_knob  # lazy: share loads pandas and plotly

    check_target(args.out, "--out", suffixes=(".html", ".htm"), example="odds.html")
    systems = split_systems(args.systems)
    if not all(systems):
        raise WorkbenchError(f"SYSTEM got {shown(args.systems)}; allowed: system ids separated by "
                             "commas, such as uwr,fons")
    knobs: dict[str, list] = {}
    for text in args.knob:
        name, values = parse_knob(text)
        if name in knobs:
            raise WorkbenchError(f"--knob {name} is given twice; allowed: once per knob")
        knobs[name] = values
    pools = None if args.pools is None else parse_pools(args.pools)
    params = parse_assignments(args.params)
    page = share_page(systems, knobs, out=args.out, pools=pools, params=params, title=args.title,
                      option="--out")
    size = page.stat().st_size
    print(f"wrote {args.out} ({size / 1e6:.2f} MB)", file=sys.stderr)
    return 0
