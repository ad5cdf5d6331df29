"""Sphinx directives that compute a rulebook's odds while the book is built.

Add ``extensions = ["workbench.sphinx"]`` to ``conf.py`` (``pip install dice-workbench[docs]``)
and write, for example::

    .. workbench-table:: uwr
       :pools: 1-6
       :format: percent

    .. workbench-ladder:: arrata
       :want: Easy=0.9,Normal=0.7
       :pool: 4

    .. workbench-figure:: fons-exploding
       :kind: difference
       :base: fons

    .. workbench-parameters:: unnamed

Options are those of :data:`workbench.render.OPTIONS`; any other option name is one of the
system's parameters (``:dice: 4``). Tables become real docutils tables; figures are PNG / SVG
images (or interactive HTML on HTML builders with ``:output: html``), all drawn by one browser
per build (per document in the worker processes of a parallel build). Results are cached in
the build's doctree folder under a key made of the options and the data files' contents, and
a page is re-read when a system file it uses changes.

The core workbench never imports this package: Sphinx is needed only to build docs.
"""
from __future__ import annotations

from typing import Any

from .._version import __version__
from ._directives import (FigureDirective, LadderDirective, ParametersDirective, TableDirective,
                          end_session, end_worker_session, html_figure, skip_node,
                          visit_html_figure)


def setup(app) -> dict[str, Any]:
    """Register the ``workbench-table``, ``-ladder``, ``-figure`` and ``-parameters`` directives."""
    skip = (skip_node, None)
    app.add_node(html_figure, html=(visit_html_figure, None), latex=skip, text=skip, man=skip,
                 texinfo=skip)
    app.add_directive("workbench-table", TableDirective)
    app.add_directive("workbench-ladder", LadderDirective)
    app.add_directive("workbench-figure", FigureDirective)
    app.add_directive("workbench-parameters", ParametersDirective)
    app.add_config_value("workbench_figure_output", "png", "env", [str])
    app.connect("doctree-read", end_worker_session)
    app.connect("build-finished", end_session)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
