"""``workbench render FILE.md ...``: fill the workbench blocks of Markdown files in place.

``--check`` changes nothing and exits 1 when a file would change (a pre-commit hook or CI
step that fails on stale tables).
"""
from __future__ import annotations

import sys
from pathlib import Path

from ..errors import WorkbenchError
from ..markdown import fill_markdown


def register(sub) -> None:
    p = sub.add_parser("render", help="fill workbench-table / -ladder / -figure blocks of Markdown files")
    p.add_argument("files", nargs="+", metavar="FILE.md")
    p.add_argument("--check", action="store_true",
                   help="change nothing; exit 1 when a file would change (for pre-commit / CI)")
    p.add_argument("--figures", default=None, metavar="DIR",
                   help="where figure files go (default: workbench-figures/ beside each file)")
    p.set_defaults(run=run_render)


def run_render(args) -> int:
    if args.figures is not None and not Path(args.figures).is_dir():
        raise WorkbenchError(f"--figures {args.figures!r}: not an existing folder")
    stale = []
    for name in args.files:
        path = Path(name)
        try:
            raw = path.read_bytes()
            text = raw.decode("utf-8").replace("\r\n", "\n")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
            raise WorkbenchError(f"file {name!r} cannot be read: {reason}") from None
        newline = "\r\n" if b"\r\n" in raw else "\n"  # a Windows-edited page keeps its line ends
        result = fill_markdown(text, path, figures=args.figures, draw=not args.check)
        missing = [f for f in result.figures if not f.exists()]
        if result.text == text and not missing:
            continue
        stale.append(name)
        if args.check:
            print(f"{name}: would change", file=sys.stderr)
            continue
        try:
            path.write_text(result.text, encoding="utf-8", newline=newline)
        except OSError as exc:
            raise WorkbenchError(f"file {name!r} cannot be written: {exc.strerror}") from None
        print(f"updated {name} ({result.blocks} blocks)", file=sys.stderr)
    return 1 if args.check and stale else 0
