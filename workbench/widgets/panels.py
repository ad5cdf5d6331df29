"""The explorer's two hand-over rows: export the current view, write a page to share.

Both write through :mod:`workbench.files` (whole or not at all) into the notebook's folder
(or the folder named with the file) and show what was written with a link to download it (in
Voila the file is on the server; the link brings it to the browser).
"""
from __future__ import annotations

import base64
import html
import mimetypes
from pathlib import Path
from typing import Callable

import ipywidgets as widgets

from ..errors import WorkbenchError
from ..share import share_page
from ..share.grid import parse_knob
from .exporting import FORMATS, export_view
from .settings import ExplorerSettings

EXPORT_CHOICES = [("PNG, print size (2400 px)", ".png"), ("SVG", ".svg"), ("CSV", ".csv"),
                  ("Markdown table", ".md"), ("reStructuredText table", ".rst")]
#: Files up to this size get a download link (the link carries the whole file).
LINK_BYTES = 4_000_000
_LAYOUT = widgets.Layout(width="390px")
_STYLE = {"description_width": "110px"}


def written_html(path: Path, what: str = "") -> str:
    """``wrote NAME (size)`` and a link that downloads the file.

    Example:
        >>> import tempfile, pathlib
        >>> out = pathlib.Path(tempfile.mkdtemp()) / "odds.md"
        >>> _ = out.write_text("| a |")
        >>> "download" in written_html(out) and "odds.md" in written_html(out)
        True
    """
    size = path.stat().st_size
    text = f"✓ wrote <code>{html.escape(str(path))}</code> ({size / 1024:,.0f} KB{what})"
    if size <= LINK_BYTES:
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        text += (f" · <a download='{html.escape(path.name)}' href='data:{kind};base64,{data}'>"
                 "download</a>")
    return f"<span class='wb-written' style='color:#2a7a2a'>{text}</span>"


def _error_html(exc: Exception) -> str:
    return f"<span style='color:#b00'>⚠ {html.escape(str(exc))}</span>"


class ExportPanel:
    """Export the current view: an image at print size, or its numbers as a table."""

    def __init__(self, settings: Callable[[], ExplorerSettings]):
        self.settings = settings
        self.format = widgets.Dropdown(options=EXPORT_CHOICES, value=".png", description="export as",
                                       style=_STYLE, layout=_LAYOUT,
                                       tooltip="the figure as an image, or its numbers as a table")
        self.name = widgets.Text(value="", placeholder="explorer-<view> (automatic)",
                                 description="file name", style=_STYLE, layout=_LAYOUT,
                                 tooltip="where to write (the notebook's folder unless a folder "
                                         "is named); the suffix follows the format")
        self.button = widgets.Button(description="export view", icon="download",
                                     layout=widgets.Layout(width="140px"),
                                     tooltip="write the current view to the file")
        self.button.add_class("wb-export")
        self.result = widgets.HTML()
        self.result.add_class("wb-export-result")
        self.button.on_click(lambda _: self.export())
        self.box = widgets.VBox([widgets.HTML("<b>export the view</b>"), self.format, self.name,
                                 self.button, self.result])

    def target(self, settings: ExplorerSettings) -> Path:
        """The file the current format and name give (the view's name when none is typed)."""
        stem = self.name.value.strip() or f"explorer-{settings.view.replace('_', '-')}"
        path = Path(stem)
        if path.suffix.lower() in FORMATS:
            path = path.with_suffix("")
        return path.with_name(path.name + self.format.value)

    def export(self) -> Path | None:
        """Write the view now; the row says what was written, or why not."""
        try:
            settings = self.settings()
            path = export_view(settings, self.target(settings))
        except WorkbenchError as exc:
            self.result.value = _error_html(exc)
            return None
        self.result.value = written_html(path)
        return path


def suggested_knobs(settings: ExplorerSettings) -> str:
    """Knobs for a shared page from what the designer moved: each whole-number knob set away
    from its default spans from the default to its value (at least three values); a moved
    choice offers every choice.

    Example:
        >>> from workbench.widgets.settings import EntrySettings
        >>> s = ExplorerSettings((EntrySettings("uwr", {"favor": 2, "dice": 4}),
        ...                       EntrySettings("arrata", {"quality": "A"})))
        >>> suggested_knobs(s)
        'favor=0-2 quality=B,A,S'
    """
    words: dict[str, str] = {}
    for entry in settings.entries:
        sys_ = entry.system_object
        for name, value in entry.params:
            param = sys_.params.get(name)
            if param is None or name == sys_.pool_parameter or value == param.default or name in words:
                continue
            if param.kind == "int" and isinstance(value, int) and isinstance(param.default, int):
                low, high = sorted((param.default, value))
                if high - low < 2:
                    high = low + 2 if param.maximum is None or low + 2 <= param.maximum else high
                words[name] = f"{name}={low}-{high}"
            elif param.kind in ("choice", "bool"):
                values = param.choices if param.kind == "choice" else (False, True)
                words[name] = f"{name}=" + ",".join(str(v).lower() if isinstance(v, bool) else str(v)
                                                     for v in values)
    return " ".join(words.values())


class SharePanel:
    """Write a page to hand over: the entries' odds over a grid of knobs, one HTML file."""

    def __init__(self, explorer):
        self.explorer = explorer
        self.knobs = widgets.Text(value="", placeholder="favor=-2-2 quality=B,A,S",
                                  description="knobs", style=_STYLE, layout=_LAYOUT,
                                  tooltip="the page's controls: NAME=LO-HI or NAME=V1,V2,... "
                                          "separated by spaces (each sets every entry that has it)")
        self.suggest = widgets.Button(description="from my knobs", icon="magic",
                                      layout=widgets.Layout(width="140px"),
                                      tooltip="fill in the knobs you have moved")
        self.name = widgets.Text(value="odds.html", description="page", style=_STYLE,
                                 layout=_LAYOUT, tooltip="the HTML file to write")
        self.button = widgets.Button(description="write page", icon="share",
                                     layout=widgets.Layout(width="140px"),
                                     tooltip="one HTML file that works offline in any browser")
        self.button.add_class("wb-share")
        self.result = widgets.HTML()
        self.result.add_class("wb-share-result")
        self.suggest.on_click(lambda _: self._suggest())
        self.button.on_click(lambda _: self.write())
        self.box = widgets.VBox([widgets.HTML("<b>share a page</b> (no Python needed to open it)"),
                                 self.knobs, widgets.HBox([self.suggest]), self.name,
                                 self.button, self.result])

    def _suggest(self) -> None:
        self.knobs.value = suggested_knobs(self.explorer.settings())

    def write(self) -> Path | None:
        """Write the page now; the row says what was written, or why not."""
        try:
            settings = self.explorer.settings()
            knobs = dict(parse_knob(word, "knobs") for word in self.knobs.value.split())
            entries = []
            for entry in settings.entries:
                sys_ = entry.system_object
                fixed = {name: value for name, value in entry.params
                         if name in sys_.params and name != sys_.pool_parameter
                         and name not in knobs and value != sys_.params[name].default}
                entries.append((entry.system, fixed))
            self.result.value = "<span class='wb-busy-note'>⏳ computing the page…</span>"
            path = share_page(entries, knobs, out=self.name.value.strip(), option="page",
                              pools=settings.pool_sizes)
        except WorkbenchError as exc:
            self.result.value = _error_html(exc)
            return None
        self.result.value = written_html(path)
        return path
