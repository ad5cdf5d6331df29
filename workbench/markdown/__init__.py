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

The page is read with a CommonMark parser (markdown-it-py), as any Markdown tool reads it: a
block shown inside a code fence or as indented code is an example, not a block, and markers
inside code are text. Only the regions between a block's own markers are ever rewritten; a
region whose end marker is missing or damaged, a stray marker or a fence that never closes
is an error naming the file and line, and the page is left as it was. A page whose text was
read before finds its blocks in the page index (:mod:`._index`) without loading the parser.
"""
from __future__ import annotations

import html
import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from ..errors import WorkbenchError
from ..export.tables import md_escape, render_table
from ..render import (Block, figure_file_name, iframe_height, parse_block, table_rows,
                     write_figure_file)
from . import _index

BEGIN = "<!-- workbench:begin -->"
END = "<!-- workbench:end -->"
FIGURE_FOLDER = "workbench-figures"

_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")   # as CommonMark counts lines
_COMMENT_SPEC = re.compile(r"^[ ]{0,3}<!--[ \t]*workbench-(?P<kind>[a-z]+)(?=[\s]|-->)"
                           r"(?P<words>.*?)-->(?P<after>.*)$", re.S)
_MARKER = re.compile(r"^<!--[ \t]*workbench:(?P<which>begin|end)[ \t]*-->$")
_WORKBENCH_COMMENT = re.compile(r"^<!--\s*/?\s*workbench\s*[-:]", re.I)
_SPEC_LINE = re.compile(r"^[ ]{0,3}(?:`{3,}|~{3,})[ \t]*workbench-|^[ ]{0,3}<!--\s*workbench[-:]")
_MARKERS = f"{BEGIN} ... {END}"


class _PageError(WorkbenchError):
    """A problem with the page's structure at a line (the earliest one is reported)."""

    def __init__(self, index: int, message: str):
        super().__init__(message)
        self.index = index


@dataclass
class _Spec:
    """One block as found in the page: where it is, what it says, and its earlier region."""

    kind: str
    words: str
    options: list[tuple[int, str]]   # (line number, text) of option lines inside the block
    first: int                       # line index of the block's first line
    last: int                        # line index of its last line
    region: tuple[int, int] | None = None   # line indexes of the begin and end markers


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` with their line ends, counted as CommonMark counts them
    (``\\r\\n``, ``\\r`` or ``\\n``), so joined they give ``text`` back byte for byte.

    Example:
        >>> split_lines("a\\r\\nb\\rc")
        ['a\\r\\n', 'b\\r', 'c']
    """
    return _LINES.findall(text)


def _fence_closed(token, lines: list[str]) -> bool:
    start, stop = token.map
    if stop - start < 2:
        return False
    last = lines[stop - 1].strip()
    char = token.markup[0]
    return len(last) >= len(token.markup) and set(last) == {char}


def _spec_of_fence(token, lines, where) -> _Spec | None:
    words = token.info.strip()
    if not words.startswith("workbench-"):
        return None
    if token.level > 0:
        _nested(words.split()[0], token.map[0], where)
    if not _fence_closed(token, lines):
        raise _PageError(token.map[0], f"{where(token.map[0])}: {words.split()[0]}: the block's "
                         "fence is never closed; allowed: a closing ``` line after the block")
    kind, _, rest = words.partition(" ")
    body = [(token.map[0] + 1 + i, row) for i, row in enumerate(token.content.split("\n"))]
    return _Spec(kind[len("workbench-"):], rest, body, token.map[0], token.map[1] - 1)


def _spec_of_comment(token, lines, where) -> _Spec | None:
    match = _COMMENT_SPEC.match(token.content)
    if match is None:
        return None
    if match.group("after").strip():
        last = token.map[1] - 1
        raise _PageError(last, f"{where(last)}: workbench-{match.group('kind')}: text after the "
                         "comment's -->; allowed: the comment alone on its lines")
    first, *more = match.group("words").split("\n")
    body = [(token.map[0] + 1 + i, row) for i, row in enumerate(more)]
    return _Spec(match.group("kind"), first, body, token.map[0], token.map[1] - 1)


def find_blocks(text: str, source: "str | os.PathLike" = "document.md") -> list[_Spec]:
    """The workbench blocks of a Markdown page and their generated regions, found with a
    CommonMark parser: fenced code and indented code are left alone (examples of the block
    syntax shown in a page are not blocks), and a region is only what lies between a block's
    own begin and end markers.

    Raises:
        WorkbenchError: naming the file and line: a block whose fence never closes, a block
            inside a list or quote, a begin marker without its end marker, a damaged or stray
            marker, a fence left open that hides a block.

    Example:
        >>> page = "```workbench-table uwr\\n```\\n\\n<!-- workbench:begin -->\\nold\\n"
        >>> find_blocks(page, "odds.md")
        Traceback (most recent call last):
        ...
        workbench.errors.WorkbenchError: odds.md:4: the region of the block at line 1 has no end marker <!-- workbench:end --> (it meets the end of the file first); nothing was changed; allowed: the end marker on a line of its own after the region
    """
    lines = split_lines(text)
    kept = _index.known(text, len(lines))   # a page read before, with this very code
    if kept is not None:
        return [_Spec(*fields) for fields in kept]
    specs = _read_blocks(text, lines, source)
    _index.remember(text, [(spec.kind, spec.words, spec.options, spec.first, spec.last,
                            spec.region) for spec in specs])
    return specs


def _read_blocks(text: str, lines: list[str], source) -> list[_Spec]:
    """The blocks of a page read with the CommonMark parser (see :func:`find_blocks`)."""
    from markdown_it import MarkdownIt   # lazy: ~20 ms, only for a page not read before

    def where(index: int) -> str:
        return f"{source}:{index + 1}"

    specs: list[_Spec] = []
    code: set[int] = set()
    problems: list[_PageError] = []
    for token in MarkdownIt("commonmark").parse(text):
        if token.map is None:
            continue
        if token.type in ("fence", "code_block"):
            code.update(range(*token.map))
        try:
            spec = None
            if token.type == "fence":
                spec = _spec_of_fence(token, lines, where)
                if spec is None and not _fence_closed(token, lines):
                    _hidden_by_open_fence(token, lines, where)
            elif token.type == "html_block":
                spec = _spec_of_comment(token, lines, where)
            if spec is not None:
                if token.level > 0:
                    _nested(f"workbench-{spec.kind}", spec.first, where)
                specs.append(spec)
        except _PageError as problem:
            problems.append(problem)
    try:
        _find_regions(lines, specs, code, where)
    except _PageError as problem:
        problems.append(problem)
    if problems:   # the first in the page: a damaged marker can make a later fence look open
        raise WorkbenchError(str(min(problems, key=lambda problem: problem.index))) from None
    return specs


def _nested(kind: str, first: int, where) -> None:
    raise _PageError(first, f"{where(first)}: {kind}: a block inside a list or quote cannot be "
                     "filled; allowed: the block at the start of a line, outside lists and "
                     "quotes (an example of the syntax goes inside a ```markdown fence)")


def _hidden_by_open_fence(token, lines, where) -> None:
    """A code fence left open runs to the end of the page and hides every block after it."""
    for index in range(token.map[0] + 1, token.map[1]):
        if _SPEC_LINE.match(lines[index]):
            raise _PageError(token.map[0], f"{where(token.map[0])}: this code fence is never "
                             f"closed, so it hides the workbench block or marker at line "
                             f"{index + 1}; allowed: a closing {token.markup} line after the code")


def _marker(line: str) -> str | None:
    """``begin`` / ``end`` for a marker line, ``None`` for other lines; a damaged marker (or
    any other ``<!-- workbench:`` comment) is an error for the caller to name."""
    stripped = line.strip()
    match = _MARKER.match(stripped)
    if match:
        return match.group("which")
    if _WORKBENCH_COMMENT.match(stripped):
        return "damaged"
    return None


def _find_regions(lines: list[str], specs: list[_Spec], code: set[int], where) -> None:
    firsts = {spec.first: spec for spec in specs}
    owned: set[int] = set()
    for spec in specs:
        index = spec.last + 1
        while index < len(lines) and not lines[index].strip() and index not in code:
            index += 1
        if index >= len(lines) or index in code or index in firsts or _marker(lines[index]) != "begin":
            continue
        begin = index
        for index in range(begin + 1, len(lines) + 1):
            if index == len(lines):
                stop = "it meets the end of the file first"
            elif index in code:
                continue
            elif index in firsts:
                stop = f"it meets the next block at line {index + 1} first"
            else:
                which = _marker(lines[index])
                if which == "end":
                    spec.region = (begin, index)
                    owned.update((begin, index))
                    break
                if which is None:
                    continue
                stop = (f"it meets another begin marker at line {index + 1} first" if which == "begin"
                        else f"line {index + 1} is a damaged marker: {lines[index].strip()!r}")
            raise _PageError(begin, f"{where(begin)}: the region of the block at line "
                             f"{spec.first + 1} has no end marker {END} ({stop}); nothing was "
                             "changed; allowed: the end marker on a line of its own after the region")
    for index, line in enumerate(lines):
        if index in code or index in owned or index in firsts:
            continue
        which = _marker(line)
        if which == "begin":
            raise _PageError(index, f"{where(index)}: a region marker {BEGIN} that follows no "
                             "workbench block; nothing was changed; allowed: the marker only right "
                             "after a block (delete the stray region, or put the block back above it)")
        if which == "end":
            raise _PageError(index, f"{where(index)}: a region marker {END} that closes no "
                             "region; nothing was changed; allowed: the marker only at the end of "
                             "a block's region")
        if which == "damaged":
            raise _PageError(index, f"{where(index)}: {line.strip()!r} is neither a workbench "
                             f"block nor a region marker; nothing was changed; allowed: {BEGIN}, "
                             f"{END}, or a block such as <!-- workbench-table uwr -->")


@dataclass
class FillResult:
    """What filling a text did: the new text and how many blocks it holds."""

    text: str
    blocks: int = 0
    figures: list[Path] = field(default_factory=list)


def _options(words: str, where: str) -> tuple[str, dict[str, str]]:
    try:
        parts = shlex.split(words)
    except ValueError as exc:   # shlex: "No closing quotation", "No escaped character"
        raise WorkbenchError(f"{where}: the block's options {words!r} cannot be read "
                             f"({str(exc).lower()}); allowed: quotes in pairs, such as "
                             "caption=\"Odds at 4 dice\" or caption=\"it's\"") from None
    if not parts or re.match(r"[A-Za-z_][A-Za-z0-9_]*=", parts[0]):   # a formula may hold >=
        raise WorkbenchError(f"{where}: the block names no system; allowed: "
                             "```workbench-table SYSTEM NAME=VALUE ...")
    options: dict[str, str] = {}
    for part in parts[1:]:
        name, sep, value = part.partition("=")
        if not sep or not name:
            raise WorkbenchError(f"{where}: {part!r} is not NAME=VALUE (e.g. pools=1-6)")
        if name in options:
            raise WorkbenchError(f"{where}: option {name!r} is given twice ({options[name]!r} "
                                 f"and {value!r}); allowed: once")
        options[name] = value
    return parts[0], options


def _table(block: Block) -> str:
    text = render_table(table_rows(block), "md", block.numbers)
    return text + _caption(block)


def _caption(block: Block) -> str:
    """The caption as the literal text given (as the Sphinx directives show it), in italics."""
    return f"\n\n*{md_escape(block.caption)}*" if block.caption else ""


def _figure(block: Block, folder: Path, page_dir: Path, draw: bool) -> tuple[str, Path]:
    path = folder / figure_file_name(block)
    if draw:
        write_figure_file(block, folder)
    # Percent-encoded: a space or parenthesis in a folder's name would end the link
    # (![alt](my figs/a.png) is no image); every Markdown tool and browser decodes %20.
    link = quote(Path(os.path.relpath(path, page_dir)).as_posix(), safe="/")
    if block.output == "html":
        picture = (f'<iframe src="{html.escape(link)}" title="{html.escape(block.alt)}" '
                   f'width="100%" height="{iframe_height(block)}" style="border:0"></iframe>')
    else:
        picture = f"![{md_escape(block.alt)}]({link})"   # a "]" would end the link text
    return picture + _caption(block), path


def _parsed(spec: _Spec, source: Path, resolve) -> tuple[str, Block]:
    where = f"{source}:{spec.first + 1}"
    system, options = _options(spec.words, where)
    for number, row in spec.options:
        if row.strip():
            _, more = _options("x " + row.strip(), f"{source}:{number + 1}")
            for name, value in more.items():
                if name in options:
                    raise WorkbenchError(f"{source}:{number + 1}: option {name!r} is given twice "
                                         f"({options[name]!r} and {value!r}); allowed: once")
                options[name] = value
    try:
        return where, parse_block(spec.kind, system, options, resolve_path=resolve)
    except WorkbenchError as exc:
        raise WorkbenchError(f"{where}: workbench-{spec.kind}: {exc}") from None


def _line_end(lines: list[str]) -> str:
    for line in lines:
        for end in ("\r\n", "\n", "\r"):
            if line.endswith(end):
                return end
    return "\n"


def fill_markdown(text: str, source: "str | os.PathLike" = "document.md", *,
                  figures: "str | os.PathLike | None" = None, draw: bool = True) -> FillResult:
    """``text`` with every workbench block's generated region (re)written; every byte outside
    the regions stays as it was.

    The page is read with a CommonMark parser (:func:`find_blocks`): blocks shown inside
    code fences or indented code are examples and left alone, and a region is only what lies
    between a block's own begin and end markers. Every block is read and checked before any
    table or figure is made, so an error leaves nothing half-done.

    Args:
        text: the Markdown page (any line ends; new regions use the page's own).
        source: its path: names it in errors, and ``.toml`` systems and figure links are
            relative to its folder.
        figures: where figure files go (default ``workbench-figures/`` beside the page).
        draw: write figure files (``False`` only names them, as ``--check`` does).

    Raises:
        WorkbenchError: a bad block or region, as ``FILE:LINE: ...``.

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

    def resolve(path: str) -> str:
        return str(page_dir / path)

    specs = find_blocks(text, source)
    blocks = [_parsed(spec, source, resolve) for spec in specs]   # every block checked first
    contents = []
    for spec, (where, block) in zip(specs, blocks):
        content, path = _region_content(spec, where, block, folder, page_dir, draw)
        if path is not None:
            result.figures.append(path)
        contents.append(content)
    result.text = _with_regions(split_lines(text), specs, contents)
    result.blocks = len(contents)
    if result.text != text:   # the page as it will be: read now, so the next run finds it kept
        find_blocks(result.text, source)
    return result


def _region_content(spec: _Spec, where: str, block: Block, folder: Path, page_dir: Path,
                    draw: bool) -> tuple[str, Path | None]:
    """What goes between a block's markers (a table, or a figure's link and its file), and
    the figure file it links to."""
    path = None
    try:
        if block.kind == "figure":
            content, path = _figure(block, folder, page_dir, draw)
        else:
            content = _table(block)
    except WorkbenchError as exc:
        raise WorkbenchError(f"{where}: workbench-{spec.kind}: {exc}") from None
    if any(_marker(row) for row in content.split("\n")):   # would end the region early
        raise WorkbenchError(f"{where}: workbench-{spec.kind}: the generated text has a line "
                             "that reads as a region marker (a caption, rung or label "
                             "starting with <!-- workbench); allowed: other text there")
    return content, path


def _with_regions(lines: list[str], specs: list[_Spec], contents: list[str]) -> str:
    """The page's lines with each block's region (re)written to hold its content; every byte
    outside the regions as it was, new regions in the page's own line ends."""
    newline = _line_end(lines)
    pieces, last = [], 0   # last: the first line not yet copied
    for spec, content in zip(specs, contents):
        # The block's last line keeps its own line end after the region; an old region is
        # replaced from the end of that line through its end marker (not the marker's line end).
        closing = lines[spec.last]
        body = closing.rstrip("\r\n")
        pieces += lines[last:spec.last] + [body]
        pieces.append(newline.join(["", "", BEGIN, *content.split("\n"), END]))
        if spec.region is None:
            pieces.append(closing[len(body):])
            last = spec.last + 1
        else:
            end_line = lines[spec.region[1]]
            pieces.append(end_line[len(end_line.rstrip("\r\n")):])
            last = spec.region[1] + 1
    pieces += lines[last:]
    return "".join(pieces)
