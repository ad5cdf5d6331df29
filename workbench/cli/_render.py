"""``workbench render FILE.md ...``: fill the workbench blocks of Markdown files in place.

Every page is read and every block checked before anything is written; the figures of all
pages are drawn by one browser; each page is then replaced whole (:mod:`workbench.files`), so an error, a full disk or Ctrl-C leaves each page
either as it was or fully updated. ``--check`` changes nothing and exits 1 when a file would
change (a pre-commit hook or CI step that fails on stale tables).
"""
from __future__ import annotations

import contextlib
import os
import stat
import sys
from pathlib import Path

from .. import files
from ..errors import WorkbenchError
from ..limits import MAX_PAGE_BYTES
from ..markdown import fill_markdown, find_blocks

_BOM = "\ufeff"


def register(sub) -> None:
    p = sub.add_parser("render", help="fill workbench-table / -ladder / -figure blocks of Markdown files")
    p.add_argument("files", nargs="+", metavar="FILE.md")
    p.add_argument("--check", action="store_true",
                   help="change nothing; exit 1 when a file would change (for pre-commit / CI)")
    p.add_argument("--figures", default=None, metavar="DIR",
                   help="where figure files go (default: workbench-figures/ beside each file)")
    p.set_defaults(run=run_render)


def _read(name: str) -> tuple[str, str, tuple[int, int]]:
    """The page's text (without a byte-order mark), the mark to put back, and which file it
    is (device and inode: the same page under two names, a link or ``./``, is one page)."""
    try:
        status = os.stat(name)
        if not stat.S_ISREG(status.st_mode):   # a pipe would wait for ever, a folder fails
            kind = "a folder" if stat.S_ISDIR(status.st_mode) else "a device, pipe or socket"
            raise WorkbenchError(f"file {name!r} is {kind}; allowed: Markdown files (FILE.md)")
        if status.st_size > MAX_PAGE_BYTES:
            raise WorkbenchError(f"file {name!r} has {status.st_size:,} bytes; allowed: pages of "
                                 f"at most {MAX_PAGE_BYTES:,} bytes")
        raw = Path(name).read_bytes()
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise WorkbenchError(f"file {name!r} cannot be read: {reason}; allowed: a Markdown "
                             "file you may read, as UTF-8 text") from None
    identity = (status.st_dev, status.st_ino)
    if text.startswith(_BOM):
        return text[len(_BOM):], _BOM, identity
    return text, "", identity


def run_render(args) -> int:
    if args.figures is not None and not Path(args.figures).is_dir():
        raise WorkbenchError(f"--figures {args.figures!r}: not an existing folder")
    if args.figures is not None and not args.check and not os.access(args.figures, os.W_OK):
        raise WorkbenchError(f"--figures {args.figures!r}: cannot write in this folder; allowed: "
                             "a folder you may write to")
    pages, seen = [], set()
    for name in args.files:   # every page read and its blocks found before any work
        text, mark, identity = _read(name)
        if identity in seen:   # named twice (a glob and a name, a link): filled once
            continue
        seen.add(identity)
        if find_blocks(text, name) and not args.check:   # a page with blocks will be written
            files.check_target(name, "page", example="rules.md")
        pages.append((name, text, mark))
    updated = []
    with _one_browser(not args.check):   # every figure of every page drawn by one browser
        for name, text, mark in pages:   # then every table and figure computed
            result = fill_markdown(text, Path(name), figures=args.figures, draw=not args.check)
            missing = [f for f in result.figures if not f.exists()]
            if result.text != text or missing:
                updated.append((name, text, mark, result))
    for name, text, mark, result in updated:   # and only then each page replaced whole
        if args.check:
            print(f"{name}: would change", file=sys.stderr)
            continue
        if result.text != text:
            _unchanged_since_read(name, mark + text)
            files.write_text(name, mark + result.text, "page")
        print(f"updated {name} ({result.blocks} block{'' if result.blocks == 1 else 's'})",
              file=sys.stderr)
    return 1 if args.check and updated else 0


def _one_browser(drawing: bool):
    """A drawing session (:func:`workbench.figures.drawing_session`) when figures may be
    drawn: the browser starts with the first image, if any, and serves every page."""
    if not drawing:
        return contextlib.nullcontext()
    from ..figures.output import drawing_session  # lazy: plotly
    return drawing_session()


def _unchanged_since_read(name: str, text: str) -> None:
    """A page saved from an editor while render ran must not be overwritten with the text
    read before: the author's new words would be lost."""
    try:
        now = Path(name).read_bytes()
    except OSError as exc:
        raise WorkbenchError(f"page {name!r} cannot be read again before writing: "
                             f"{exc.strerror}; nothing was written") from None
    if now != text.encode("utf-8"):
        raise WorkbenchError(f"page {name!r} changed on disk while render ran (saved from an "
                             "editor?); it was not written, to keep those changes; allowed: run "
                             "render again")
