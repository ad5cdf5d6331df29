"""Writing figures: self-contained HTML, PNG and SVG (kaleido + the system's Chromium), and
HTML fragments for pages that hold several figures (the balance report).

Starting the browser takes longer than drawing (~2-3 s against a few tenths), so images are
drawn in batches: :func:`write_figures` draws all its images with one browser
(``plotly.io.write_images``, whatever their sizes), and inside :func:`drawing_session` every
image drawn (by any number of calls: ``workbench render`` over its pages, the Sphinx
extension over a build) shares one browser, started with the first image and closed when the
session ends. Every file is written to a temporary name in its folder and renamed over the
target once complete (:mod:`workbench.files`): an error, a full disk or Ctrl-C leaves an
existing figure as it was (kaleido deletes the file it was writing when it fails; that file is
only ever the temporary one), and the browser is closed before the temporary files are
removed, so it cannot write one afterwards.
"""
from __future__ import annotations

import contextlib
import html
import json
import os
import shutil
import threading
from pathlib import Path
from typing import Sequence

import plotly.graph_objects as go

from .. import files
from ..errors import WorkbenchError
from ..limits import check_image_size
from . import session
from .bundle import plotly_script
from .session import drawing_session  # noqa: F401 (public here)
from .style import DEFAULT_HEIGHT, DEFAULT_WIDTH

FIGURE_SUFFIXES = (".png", ".svg", ".html", ".htm")
PAGE_SUFFIXES = (".html", ".htm")
_PLOT_CONFIG = {"displaylogo": False, "responsive": True}


def chromium_path() -> str | None:
    """The browser kaleido will use: ``BROWSER_PATH``, else ``chromium`` on the PATH."""
    given = os.environ.get("BROWSER_PATH")
    if given and Path(given).exists():
        return given
    return shutil.which("chromium") or shutil.which("chromium-browser")


#: What a PNG or SVG needs and how to get it (HTML figures need no browser).
NO_CHROMIUM = ("PNG and SVG figures are drawn by a Chromium browser, and none was found on the "
               "PATH or in BROWSER_PATH; install it (Debian/Ubuntu: apt-get install chromium; "
               "elsewhere: plotly_get_chrome -y, then set BROWSER_PATH to the browser it "
               "installed), or write the figure as .html, which needs no browser")

_PNG = b"\x89PNG\r\n\x1a\n"


def _drawn(path: Path) -> bool:
    """Whether kaleido left a real image: a PNG signature, or SVG markup."""
    with open(path, "rb") as handle:
        head = handle.read(256)
    return head.startswith(_PNG) if path.suffix.lower() == ".png" else b"<svg" in head


def figure_size(fig: go.Figure) -> tuple[int, int]:
    """The pixel size a static export of ``fig`` gets: its own width and height, else
    :data:`~workbench.figures.style.DEFAULT_WIDTH` × its height (or the default height).

    Example:
        >>> figure_size(go.Figure(layout={"height": 300}))
        (800, 300)
    """
    width = fig.layout.width or DEFAULT_WIDTH
    height = fig.layout.height or DEFAULT_HEIGHT
    return int(width), int(height)


_OPTION = "figure path"


def _check_target(path: Path, allowed: Sequence[str]) -> None:
    if path.suffix.lower() not in allowed:
        raise WorkbenchError(f"figure path {str(path)!r}: allowed suffixes: {', '.join(allowed)}")
    files.check_target(path, _OPTION, example="figure" + allowed[0])


@contextlib.contextmanager
def _browser_threads_finished(patience: float = 60.0):
    """kaleido draws in a thread of its own, which Ctrl-C does not stop: on any error, wait for
    that thread before the temporary files are removed, or it would write one afterwards. In
    a drawing session, its browser finishes the image it draws and closes (the threads it
    leaves, a browser's pipe readers, write no file)."""
    before = set(threading.enumerate())
    try:
        yield
    except BaseException:
        if session.in_session():
            session.close_browser()
        else:
            for thread in set(threading.enumerate()) - before:
                thread.join(timeout=patience)
        raise


def _specs(images, scratches, sizes, scale: float) -> list[dict]:
    """kaleido's figure specs for the images, as ``plotly.io.write_images`` makes them."""
    import plotly.io as pio  # lazy: plotly
    return [{"fig": fig.to_dict(), "path": Path(scratch),
             "opts": {"format": path.suffix.lower().lstrip("."), "width": width,
                      "height": height, "scale": scale},
             "topojson": pio.defaults.topojson}
            for (fig, path), scratch, (width, height) in zip(images, scratches, sizes)]


def _browser_options() -> dict:
    """The options plotly gives the browsers it starts (its plotly.js, MathJax, headers)."""
    import plotly.io as pio  # lazy: plotly
    defaults = pio.defaults
    return {name: value for name, value in (("plotlyjs", defaults.plotlyjs),
                                            ("mathjax", defaults.mathjax),
                                            ("headers", defaults.headers)) if value}


def figure_html(fig: go.Figure, include_plotlyjs: "bool | str" = False,
                div_id: str | None = None) -> str:
    """``fig`` as an HTML fragment (a ``<div>`` and its script) with an explicit pixel height,
    so it keeps its size inside any page or notebook output.

    Example:
        >>> html = figure_html(go.Figure(layout={"height": 300}))
        >>> "height:300px" in html, "<html" in html
        (True, False)
    """
    height = int(fig.layout.height or DEFAULT_HEIGHT)
    return fig.to_html(full_html=False, include_plotlyjs=include_plotlyjs, div_id=div_id,
                       default_height=f"{height}px", default_width="100%", config=_PLOT_CONFIG)


def write_html(fig: go.Figure, path: "str | Path") -> Path:
    """A self-contained HTML page that opens offline: plotly.js inlined once, the smallest
    bundle that draws the figure (:mod:`workbench.figures.bundle`: about 1.3 MB for lines and
    bars, the full 4.8 MB only for other traces), as the balance report does."""
    path = Path(path)
    _check_target(path, PAGE_SUFFIXES)
    title = fig.layout.title.text or "figure"
    title = title.split("<br>")[0]
    page = ("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n"
            f"<script type=\"text/javascript\">{plotly_script([fig])}</script>\n</head>\n<body>\n"
            f"{figure_html(fig)}\n</body>\n</html>\n")
    files.write_text(path, page, _OPTION)   # whole or not at all
    return path


def write_figures(figures: Sequence[go.Figure], paths: Sequence["str | Path"],
                  size: tuple[int, int] | None = None, scale: float = 1.0) -> list[Path]:
    """Write several figures, each by its path's suffix (``.png``, ``.svg``, ``.html``); all
    images with one browser start (none inside a :func:`drawing_session` that has one).

    Args:
        size: ``(width, height)`` for every image; by default each figure's own
            (:func:`figure_size`).
        scale: image pixels per figure pixel (PNG; an SVG keeps its size in its units): 3
            draws an 800 x 480 figure as a 2400 x 1440 PNG, 8 inches wide at 300 dpi.

    Raises:
        WorkbenchError: another suffix, a missing or unwritable folder, or no Chromium to
            draw images with.
    """
    paths = [Path(p) for p in paths]
    _check_figures(figures, paths)
    images = [(fig, path) for fig, path in zip(figures, paths) if path.suffix.lower() not in PAGE_SUFFIXES]
    for fig, path in zip(figures, paths):
        if path.suffix.lower() in PAGE_SUFFIXES:
            write_html(fig, path)
    if images:
        _write_images_at_once(images, size, scale)
    return paths


def _check_figures(figures: Sequence[go.Figure], paths: list[Path]) -> None:
    """Refuse anything but plotly figures, a path count that differs, and a path that cannot
    be written (another suffix, a missing or unwritable folder) before anything is drawn."""
    from plotly.basedatatypes import BaseFigure  # a Figure or the explorer's FigureWidget
    for fig in figures:
        if not isinstance(fig, BaseFigure):
            raise WorkbenchError(f"write_figure got {type(fig).__name__}; allowed: a plotly Figure "
                                 "(from workbench.figures or the explorer's figure())")
    if len(paths) != len(figures):
        raise WorkbenchError(f"write_figures got {len(figures)} figures and {len(paths)} paths")
    for path in paths:
        _check_target(path, FIGURE_SUFFIXES)


def _write_images_at_once(images: list, size: tuple[int, int] | None, scale: float) -> None:
    """``(figure, path)`` pairs drawn by one browser (the session's, or one started for them);
    each image is renamed into place when all are drawn, none when one fails."""
    if chromium_path() is None:
        raise WorkbenchError(NO_CHROMIUM)
    import plotly.io as pio  # lazy: plotly
    sizes = [size or figure_size(fig) for fig, _ in images]
    for (fig, path), (width, height) in zip(images, sizes):
        if path.suffix.lower() == ".png":   # an SVG keeps its size in its own units
            check_image_size(width, height, scale)
    with contextlib.ExitStack() as stack:   # each image renamed into place when all are drawn
        scratches = [stack.enter_context(files.replacing(p, _OPTION)) for _, p in images]
        try:
            with _browser_threads_finished():
                if session.in_session():   # the session's browser, started once
                    session.draw(_specs(images, scratches, sizes, scale), _browser_options())
                else:   # one call, one browser for every image, whatever its size
                    pio.write_images([f for f, _ in images], scratches,
                                     width=[w for w, _ in sizes], height=[h for _, h in sizes],
                                     scale=scale)
        except (OSError, WorkbenchError):   # a full disk: said by files.replacing
            raise
        except Exception as exc:   # the browser failed to start or to draw
            reason = str(exc.args[0] if exc.args else exc).splitlines()[0][:200]
            raise files.TargetError(
                _OPTION, images[0][1], f"Chromium could not draw the image "
                f"({type(exc).__name__}: {reason}); no file was changed") from None
        for scratch, (_, path) in zip(scratches, images):
            if not _drawn(Path(scratch)):   # the browser's "data:," for a canvas too big
                raise files.TargetError(
                    _OPTION, path, f"Chromium could not draw the image (it returned "
                    f"{Path(scratch).stat().st_size} bytes that are no "
                    f"{path.suffix.lstrip('.').upper()}); no file was changed")


def write_figure(fig: go.Figure, path: "str | Path", size: tuple[int, int] | None = None,
                 scale: float = 1.0) -> Path:
    """Write one figure: ``.png`` / ``.svg`` through kaleido, ``.html`` self-contained.

    Raises:
        WorkbenchError: another suffix, a missing or unwritable folder, no Chromium for images.

    Example:
        >>> write_figure(go.Figure(), "chart.gif")
        Traceback (most recent call last):
        ...
        workbench.errors.WorkbenchError: figure path 'chart.gif': allowed suffixes: .png, .svg, .html, .htm
    """
    return write_figures([fig], [path], size, scale)[0]


def write_images(figures: Sequence[go.Figure], paths: Sequence["str | Path"],
                 size: tuple[int, int] | None = None) -> list[Path]:
    """PNG / SVG files only (format from each path's suffix), all with one browser start."""
    for path in paths:
        _check_target(Path(path), (".png", ".svg"))
    return write_figures(figures, paths, size)


def figure_data(fig: go.Figure, digits: int = 10) -> dict:
    """The stable part of a figure for golden comparisons: traces and titles, numbers rounded.

    Plotly's template and version metadata are left out: they change with plotly releases
    while the chart a reader sees does not.

    Example:
        >>> figure_data(go.Figure(go.Bar(y=[1 / 3])), digits=3)["data"][0]["y"]
        [0.333]
    """
    def clean(value):
        if isinstance(value, float):
            return round(value, digits)
        if isinstance(value, dict):
            return {k: clean(v) for k, v in sorted(value.items())}
        if isinstance(value, (list, tuple)):
            return [clean(v) for v in value]
        return value.tolist() if hasattr(value, "tolist") else value
    plain = json.loads(fig.to_json())
    layout = plain.get("layout", {})
    keep = {"title": layout.get("title", {}).get("text"), "barmode": layout.get("barmode"),
            "xaxis": (layout.get("xaxis", {}).get("title") or {}).get("text"),
            "yaxis": (layout.get("yaxis", {}).get("title") or {}).get("text")}
    return {"data": clean(plain["data"]), "layout": keep}
