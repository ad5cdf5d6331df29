"""The three directives: options parsed by :mod:`workbench.render`, results as docutils nodes."""
from __future__ import annotations

import html
import os
import posixpath
from dataclasses import replace
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective

from .. import files
from ..errors import WorkbenchError
from ..rules.content import source_files
from ..render import (OPTIONS, Block, BlockOptionError, figure_file_name, iframe_height,
                      parse_block, write_figure_file)
from ._cache import STATS, cache_folder, cached_table


class _AnyOption(dict):
    """Option spec taking the block options and any system parameter (``:dice: 4``).

    Parameter names depend on the system named in the argument, so they cannot be listed
    up front; :func:`workbench.render.parse_block` checks every name and value instead.
    """

    def __missing__(self, name):
        return directives.unchanged


def _option_spec(kind: str) -> _AnyOption:
    return _AnyOption({name: directives.unchanged for name, (kinds, _) in OPTIONS.items() if kind in kinds})


class _OptionProblem(Exception):
    """Carries the error message node of a bad option up to :meth:`_WorkbenchDirective.run`."""

    def __init__(self, message: nodes.system_message):
        super().__init__(message.astext())
        self.message = message


class _WorkbenchDirective(SphinxDirective):
    required_arguments = 1
    optional_arguments = 0
    final_argument_whitespace = True   # a one-line formula may hold spaces (1d20 + 5)
    has_content = False
    kind = ""

    def block(self) -> Block:
        """The parsed block; a bad option becomes an error at this directive's file and line."""
        def in_source(path: str) -> str:
            return str(self.env.relfn2path(path, self.env.docname)[1])
        try:
            block = parse_block(self.kind, self.arguments[0], self.options, resolve_path=in_source)
        except BlockOptionError as exc:
            raise _OptionProblem(self.reporter_error(exc.option, f"{self.name}: {exc}")) from None
        except WorkbenchError as exc:
            raise self.error(f"{self.name}: {exc}") from None
        for path in block.data_files():  # re-read this page when a system file changes
            self.env.note_dependency(str(path))
        for sys_ in (block.system, block.base, *block.compare):
            if sys_ is not None and sys_.source is None:  # a mechanic in conf.py (or a module)
                for path in source_files(sys_):
                    self.env.note_dependency(str(path))
        return block

    def reporter_error(self, option: str, text: str) -> nodes.system_message:
        """An error at the line of ``:option:`` (the directive's line when it is not there)."""
        line = self.lineno
        for offset, source_line in enumerate(self.block_text.splitlines()):
            if source_line.strip().startswith(f":{option}:"):
                line = self.lineno + offset
                break
        return self.state.document.reporter.error(text, line=line)

    def run(self) -> list[nodes.Node]:
        try:
            return self.compute()
        except _OptionProblem as problem:
            return [problem.message]


class TableDirective(_WorkbenchDirective):
    """``.. workbench-table:: SYSTEM``: the difficulty table, as ``workbench table`` prints it."""

    kind = "table"
    option_spec = _option_spec("table")

    def compute(self) -> list[nodes.Node]:
        block = self.block()
        try:
            header, rows = cached_table(self.env, block)
        except WorkbenchError as exc:
            raise self.error(f"{self.name}: {exc}") from None
        return [table_node(header, rows, block.style, block.caption)]


class LadderDirective(TableDirective):
    """``.. workbench-ladder:: SYSTEM``: P(pass) per rung and pool, or a solved ladder (``:want:``)."""

    kind = "ladder"
    option_spec = _option_spec("ladder")


class ParametersDirective(TableDirective):
    """``.. workbench-parameters:: SYSTEM``: parameters and rule options, read from the data file."""

    kind = "parameters"
    option_spec = _option_spec("parameters")


def table_node(header: list[str], rows: list[list[str]], style: str = "grid",
               title: str | None = None) -> nodes.table:
    """A docutils table: one header row, text cells.

    ``grid`` sizes columns by their longest text, as a grid table drawn by hand would;
    ``list-table`` gives every column the same width, as the ``list-table`` directive does.
    """
    table = nodes.table(classes=["workbench-table", f"workbench-{style}"])
    if title:
        table += nodes.title(text=title)
    group = nodes.tgroup(cols=len(header))
    table += group
    for i in range(len(header)):
        width = max(len(str(row[i])) for row in [header, *rows]) if style == "grid" else 1
        group += nodes.colspec(colwidth=max(width, 1))
    head, body = nodes.thead(), nodes.tbody()
    for section, lines in ((head, [header]), (body, rows)):
        for line in lines:
            row = nodes.row()
            for text in line:
                entry = nodes.entry()
                if text:
                    entry += nodes.paragraph(text=str(text))
                row += entry
            section += row
    group += head
    group += body
    return table


class FigureDirective(_WorkbenchDirective):
    """``.. workbench-figure:: SYSTEM``: a curve, one check, a difference or a ladder figure."""

    kind = "figure"
    option_spec = _option_spec("figure")

    def compute(self) -> list[nodes.Node]:
        options = dict(self.options)
        options.setdefault("output", self.config.workbench_figure_output)
        self.options = options
        block = self.block()
        if block.output != "html":
            return [self._static(block)]
        # Interactive on HTML builders; other builders (PDF, text) get the static picture.
        interactive, static = addnodes.only(expr="html"), addnodes.only(expr="not html")
        interactive += self._figure(block, html_figure(path=str(self._draw(block)), title=block.alt,
                                                     height=iframe_height(block)))
        static += self._static(replace(block, output="png"))
        return [interactive, static]

    def _draw(self, block: Block) -> Path:
        folder = cache_folder(self.env) / "figures"
        drawn = (folder / figure_file_name(block)).exists()
        try:
            path = write_figure_file(block, folder)
        except WorkbenchError as exc:
            raise self.error(f"{self.name}: {exc}") from None
        STATS["figures read" if drawn else "figures drawn"] += 1
        return path

    def _static(self, block: Block) -> nodes.figure:
        source_dir = Path(self.env.doc2path(self.env.docname)).parent
        uri = os.path.relpath(self._draw(block), source_dir).replace(os.sep, "/")
        return self._figure(block, nodes.image(uri=uri, alt=block.alt))

    @staticmethod
    def _figure(block: Block, picture: nodes.Node) -> nodes.figure:
        figure = nodes.figure(classes=["workbench-figure"])
        figure += picture
        if block.caption:
            figure += nodes.caption(text=block.caption)
        return figure


class html_figure(nodes.General, nodes.Element):  # noqa: N801 - docutils names nodes in lower case
    """An interactive plotly figure: the HTML file copied beside the pages, shown in an iframe."""


def visit_html_figure(translator, node: html_figure) -> None:
    builder = translator.builder
    source = Path(node["path"])
    target = Path(builder.outdir) / "_workbench" / source.name
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        files.copy_file(source, target, "figure page")
    page = builder.get_target_uri(builder.current_docname)
    uri = posixpath.relpath(f"_workbench/{source.name}", posixpath.dirname(page) or ".")
    translator.body.append(f'<iframe class="workbench-figure" src="{html.escape(uri)}" '
                           f'title="{html.escape(node["title"])}" width="100%" '
                           f'height="{node.get("height", 520)}" '
                           'loading="lazy" style="border:0"></iframe>')
    raise nodes.SkipNode


def skip_node(translator, node) -> None:
    raise nodes.SkipNode
