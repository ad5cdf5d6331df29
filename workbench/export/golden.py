"""The committed exports under ``data/golden/``: each seed's difficulty table with probabilities
added (in the markup the seed itself uses), and the Erzählspiel narrative-dice odds chart.

``python -m workbench.export.golden`` rewrites them; ``tests/test_golden_exports.py``
regenerates them into a temporary folder and compares.

Example:
    >>> [spec.filename for spec in GOLDEN_TABLES][:2]
    ['uwr_difficulty.rst', 'fons_difficulty.rst']
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from .. import files
from ..ladders import difficulty_table
from .tables import NumberFormat, render_table

# Golden exports belong to the repository (tests compare against them), not to the package.
GOLDEN_DIR = Path(__file__).resolve().parents[2] / "data" / "golden"
GOLDEN_POOLS = range(1, 7)
CHART_STEM = "erzahlspiel_odds"


@dataclass(frozen=True)
class GoldenTable:
    """One golden table: which system, in which format, written to which file."""

    system: str
    fmt: str
    filename: str
    title: str

    def render(self) -> str:
        frame = difficulty_table(self.system, GOLDEN_POOLS)
        number_format = NumberFormat("digits", 6) if self.fmt == "csv" else NumberFormat("percent", 1)
        return render_table(frame, self.fmt, number_format, title=self.title) + "\n"


# Each seed's table in the seed's own markup: UWR a grid table, FoNS a list-table, the Unnamed
# System and Arrata Markdown, Erzählspiel a csv-table; plus CSV of each for spreadsheets.
_SEED_FORMATS = [("uwr", "rst-grid", "difficulty", "rst", "UWR difficulties: P(pass) by dice"),
                 ("fons", "rst-list", "difficulty", "rst", "FoNS difficulties: P(pass) by dice"),
                 ("unnamed", "md", "degrees", "md", ""),
                 ("arrata", "md", "obstacles", "md", ""),
                 ("erzahlspiel", "rst-csv", "dice", "rst", "Narrative dice odds")]
GOLDEN_TABLES = tuple(
    [GoldenTable(sys_id, fmt, f"{sys_id}_{what}.{ext}", title) for sys_id, fmt, what, ext, title
     in _SEED_FORMATS]
    + [GoldenTable(sys_id, "csv", f"{sys_id}_{what}.csv", "") for sys_id, _, what, _, _
       in _SEED_FORMATS])


def chart_figure():
    """The narrative-dice odds chart as committed (plotly imported on call)."""
    from ..figures import narrative_odds_figure  # lazy: plotly
    return narrative_odds_figure("erzahlspiel", height=500)


def chart_json() -> str:
    """The stable JSON of the chart (traces and titles) compared by the golden test."""
    from ..figures import figure_data  # lazy: plotly
    return json.dumps(figure_data(chart_figure()), indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def write_golden(folder: "str | Path" = GOLDEN_DIR, images: bool = True) -> list[Path]:
    """Write every golden export into ``folder``; PNG/SVG only with ``images`` (needs Chromium)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for spec in GOLDEN_TABLES:   # each file replaced whole (workbench.files)
        path = folder / spec.filename
        files.write_text(path, spec.render(), "golden file")
        written.append(path)
    chart = folder / f"{CHART_STEM}.figure.json"
    files.write_text(chart, chart_json(), "golden file")
    written.append(chart)
    if images:
        from ..figures import write_images  # lazy: plotly
        figure = chart_figure()
        written += write_images([figure, figure], [folder / f"{CHART_STEM}.png",
                                                   folder / f"{CHART_STEM}.svg"])
    return written


if __name__ == "__main__":
    for written_path in write_golden(images="--no-images" not in sys.argv[1:]):
        print(written_path)
