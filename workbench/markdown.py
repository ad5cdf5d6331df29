"""The Markdown route: fill marked blocks of a Markdown file with tables and figures, in place.

A block is a fenced code block whose info string names a kind, a system and options, exactly
as the Sphinx directives take them (:mod:`workbench.render`)::

    ```workbench-table uwr pools=1-6 format=percent
    ```

Longer options may go inside the fence, one ``NAME=VALUE`` per line (``caption=Odds at B3``).
Where the fence would show on the page, the same spec may instead sit in an HTML comment,
which Markdown renderers hide: ``<!-- workbench-table uwr pools=1-6 -->``.

Right after the block comes the generated region, between two marker comments; each run
replaces it, so running twice changes nothing the second time::

    <!-- workbench:begin -->
    | Difficulty | ... |
    <!-- workbench:end -->

Tables are pipe tables (``style`` is accepted and has one form here); figures are image files
written beside the Markdown file (``workbench-figures/``) and linked, or an ``<iframe>`` for
``output=html``.
"""
from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from .errors import WorkbenchError
from .export.tables import render_table
from .render import Block, figure_file_name, parse_block, table_frame, write_figure_file

BEGIN = "<!-- workbench:begin -->"
END = "<!-- workbench:end -->"
FIGURE_FOLDER = "workbench-figures"

# A fenced spec: ```workbench-KIND SYSTEM options``` (body lines: more options), or the same
# words in a comment. Either may be followed by a generated region from an earlier run.
_SPEC = re.compile(
    r"^(?P<spec>(?P<fence>`{3,}|~{3,})[ \t]*workbench-(?P<kind>[a-z]+)[ \t]+(?P<words>[^\n]*)\n"
    r"(?P<body>(?:(?!(?P=fence))[^\n]*\n)*?)(?P=fence)[ \t]*"
    r"|<!--[ \t]*workbench-(?P<ckind>[a-z]+)[ \t]+(?P<cwords>(?:(?!-->)[^\n])*)-->[ \t]*)$"
    r"(?P<region>\n+" + re.escape(BEGIN) + r".*?" + re.escape(END) + r"[ \t]*$)?",
    re.M | re.S)


_OPENING = re.compile(r"^(?:`{3,}|~{3,})[ \t]*workbench-(?P<kind>[a-z]+)", re.M)


def _unclosed(text: str, matches: list, source: Path) -> None:
    """A block whose fence never closes would be skipped silently: name it instead."""
    spans = [(m.start(), m.end()) for m in matches]
    for opening in _OPENING.finditer(text):
        if not any(start <= opening.start() < end for start, end in spans):
            line = text.count("\n", 0, opening.start()) + 1
            raise WorkbenchError(f"{source}:{line}: workbench-{opening.group('kind')}: the block's "
                                 "fence is never closed; allowed: a closing ``` line after the block")


@dataclass
class FillResult:
    """What filling a text did: the new text and how many blocks it holds."""

    text: str
    blocks: int = 0
    figures: list[Path] = field(default_factory=list)


def _options(words: str, where: str) -> tuple[str, dict[str, str]]:
    try:
        parts = shlex.split(words)
    except ValueError as exc:
        raise WorkbenchError(f"{where}: {exc}") from None
    if not parts or "=" in parts[0]:
        raise WorkbenchError(f"{where}: the block names no system; allowed: "
                             "```workbench-table SYSTEM NAME=VALUE ...")
    options: dict[str, str] = {}
    for part in parts[1:]:
        name, sep, value = part.partition("=")
        if not sep or not name:
            raise WorkbenchError(f"{where}: {part!r} is not NAME=VALUE (e.g. pools=1-6)")
        if name in options:
            raise WorkbenchError(f"{where}: option {name!r} is given twice")
        options[name] = value
    return parts[0], options


def _table(block: Block) -> str:
    text = render_table(table_frame(block), "md", block.numbers)
    return text + (f"\n\n*{block.caption}*" if block.caption else "")


def _figure(block: Block, folder: Path, page_dir: Path, draw: bool) -> tuple[str, Path]:
    path = folder / figure_file_name(block)
    if draw:
        write_figure_file(block, folder)
    link = Path(os.path.relpath(path, page_dir)).as_posix()
    if block.output == "html":
        picture = (f'<iframe src="{link}" title="{block.alt}" width="100%" height="520" '
                   'style="border:0"></iframe>')
    else:
        picture = f"![{block.alt}]({link})"
    return picture + (f"\n\n*{block.caption}*" if block.caption else ""), path


def fill_markdown(text: str, source: "str | os.PathLike" = "document.md", *,
                  figures: "str | os.PathLike | None" = None, draw: bool = True) -> FillResult:
    """``text`` with every workbench block's generated region (re)written.

    Args:
        text: the Markdown page.
        source: its path: names it in errors, and ``.toml`` systems and figure links are
            relative to its folder.
        figures: where figure files go (default ``workbench-figures/`` beside the page).
        draw: write figure files (``False`` only names them, as ``--check`` does).

    Raises:
        WorkbenchError: a bad block, as ``FILE:LINE: option 'x' got ...``.

    Example:
        >>> page = "# Odds\\n\\n```workbench-table uwr pools=1-2 rungs=Normal\\n```\\n"
        >>> filled = fill_markdown(page).text
        >>> print(filled.split("```\\n", 2)[-1])
        <BLANKLINE>
        <!-- workbench:begin -->
        | Difficulty   | Example               | Setting   | 1 die   | 2 dice   |
        |:-------------|:----------------------|:----------|:--------|:---------|
        | Normal       | Climb a rough surface | target=1  | 33.3%   | 55.6%    |
        <!-- workbench:end -->
        <BLANKLINE>
        >>> fill_markdown(filled).text == filled
        True
    """
    source = Path(source)
    page_dir = source.parent.resolve() if str(source.parent) else Path.cwd()
    folder = Path(figures).resolve() if figures is not None else page_dir / FIGURE_FOLDER
    result = FillResult(text)
    pieces, last = [], 0

    def resolve(path: str) -> str:
        return str(page_dir / path)

    matches = list(_SPEC.finditer(text))
    _unclosed(text, matches, source)
    for match in matches:
        line = text.count("\n", 0, match.start()) + 1
        where = f"{source}:{line}"
        kind = match.group("kind") or match.group("ckind")
        words = match.group("words") if match.group("kind") else match.group("cwords")
        system, options = _options(words, where)
        body = match.group("body") or ""
        if body.strip():
            for extra_line, row in enumerate(body.splitlines(), start=line + 1):
                if row.strip():
                    _, more = _options("x " + row.strip(), f"{source}:{extra_line}")
                    for name, value in more.items():
                        if name in options:
                            raise WorkbenchError(f"{source}:{extra_line}: option {name!r} is given twice")
                        options[name] = value
        try:
            block = parse_block(kind, system, options, resolve_path=resolve)
            if block.kind == "figure":
                content, path = _figure(block, folder, page_dir, draw)
                result.figures.append(path)
            else:
                content = _table(block)
        except WorkbenchError as exc:
            raise WorkbenchError(f"{where}: workbench-{kind}: {exc}") from None
        pieces += [text[last:match.end("spec")], f"\n\n{BEGIN}\n{content}\n{END}"]
        last = match.end()
        result.blocks += 1
    pieces.append(text[last:])
    result.text = "".join(pieces)
    return result
