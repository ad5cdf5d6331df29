"""The balance report: ``notebooks/balance_report.ipynb`` executed with parameters, as one
self-contained HTML page (code hidden, plotly.js inlined once).

The notebook holds the narrative; this module checks the options, injects them (papermill's
parameter cell), runs the cells one by one under a tqdm bar (nbclient) and converts the result
(nbconvert). The helpers the notebook calls (:class:`FigureEmbedder`, :func:`stateful_summary`)
live here too, so the notebook only calls the package.
"""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Iterable, Sequence

from .errors import WorkbenchError
from .rules.registry import get_system

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "balance_report.ipynb"
DEFAULT_SYSTEMS = ("uwr", "fons", "unnamed", "arrata", "erzahlspiel")


class ReportError(WorkbenchError):
    """The report notebook failed: names the cell and the error it raised."""


def build_report(out: "str | Path", systems: Sequence[str] = DEFAULT_SYSTEMS,
                 variants: Sequence[str] = (), pool_sizes: Iterable[int] = range(1, 11), *,
                 progress: bool = True, timeout: int = 600, notebook: "str | Path" = NOTEBOOK) -> Path:
    """Execute the balance-report notebook for these systems and write it as one HTML page.

    Args:
        out: the ``.html`` file to write (its folder must exist).
        systems: system ids or aliases to compare.
        variants: what-if variant ids (``workbench/data/variants``) shown next to their base systems.
        pool_sizes: pool sizes for curves and ladder tables.
        progress: a tqdm bar on stderr, one step per notebook cell.
        timeout: seconds any one cell may run.

    Returns:
        The path written.

    Example:
        >>> build_report("/tmp/report.html", ["nope"])
        Traceback (most recent call last):
        ...
        workbench.errors.WorkbenchError: unknown system 'nope'; known: uwr, fons, unnamed, arrata, erzahlspiel, arrata-cancelling, d10-pool, erzahlspiel-six-dice, fons-exploding (or a path to a .toml data file)
    """
    out = Path(out)
    if out.suffix.lower() not in (".html", ".htm"):
        raise WorkbenchError(f"--out got {str(out)!r}; allowed: a file name ending in .html")
    if not out.parent.is_dir():
        raise WorkbenchError(f"--out {str(out)!r}: folder {str(out.parent)!r} does not exist")
    ids = [get_system(name).id for name in systems]
    variant_ids = [get_system(name).id for name in variants]
    if not ids and not variant_ids:
        raise WorkbenchError("systems got nothing; allowed: one or more ids such as uwr,arrata")
    sizes = [int(n) for n in pool_sizes]
    if not sizes:
        raise WorkbenchError("pool_sizes is empty; allowed: one or more whole numbers >= 0")
    parameters = {"systems": ids, "variants": variant_ids, "pool_sizes": sizes}
    executed = _execute(Path(notebook), parameters, progress, timeout)
    out.write_text(_to_html(executed), encoding="utf-8")
    return out


def _execute(path: Path, parameters: dict[str, Any], progress: bool, timeout: int):
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    from papermill.parameterize import parameterize_notebook
    from tqdm.auto import tqdm

    if not path.exists():
        raise WorkbenchError(f"report notebook {str(path)!r} is missing")
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:  # papermill looks for the tag on every cell
        cell.metadata.setdefault("tags", [])
    nb.metadata.setdefault("papermill", {})
    nb = parameterize_notebook(nb, parameters, kernel_name="python3", language="python")
    with tempfile.TemporaryDirectory(prefix="workbench-report-") as scratch:
        # Run in a scratch folder: nothing the notebook writes lands beside tracked files.
        client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                                resources={"metadata": {"path": scratch}})
        code_cells = [(i, c) for i, c in enumerate(nb.cells) if c.cell_type == "code"]
        with tqdm(total=len(code_cells), desc="balance report", unit="cell",
                  disable=not progress) as bar, client.setup_kernel():
            for index, cell in code_cells:
                try:
                    client.execute_cell(cell, index)
                except CellExecutionError as exc:
                    name = getattr(exc, "ename", "error")
                    value = str(getattr(exc, "evalue", exc)).splitlines()[0:1]
                    raise ReportError(f"report notebook cell {index} failed: {name}: "
                                      f"{value[0] if value else ''}") from None
                bar.update()
    return nb


# The lab template loads require.js, MathJax and Mermaid from CDNs: the page would not be
# self-contained, and require.js would capture the inlined plotly.js as an AMD module so
# ``window.Plotly`` stays undefined. The report uses none of them.
_OFFLINE_TEMPLATE = """{%- extends 'index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
"""


def _to_html(nb) -> str:
    from jinja2 import DictLoader
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="lab", template_file="workbench_report.html.j2",
                            extra_loaders=[DictLoader({"workbench_report.html.j2": _OFFLINE_TEMPLATE})],
                            exclude_input=True, exclude_input_prompt=True,
                            exclude_output_prompt=True)
    body, _ = exporter.from_notebook_node(nb)
    return body


class FigureEmbedder:
    """Plotly figures as HTML for the report: plotly.js inlined with the first figure only,
    so the page works offline without carrying the library once per chart.

    Example:
        >>> import plotly.graph_objects as go
        >>> embed = FigureEmbedder()
        >>> first, second = embed.html(go.Figure()), embed.html(go.Figure())
        >>> len(first) > 1_000_000, len(second) < 10_000
        (True, True)
    """

    def __init__(self):
        self._included = False

    def html(self, fig) -> str:
        from .figures import figure_html
        text = figure_html(fig, include_plotlyjs=not self._included)
        self._included = True
        return text

    def show(self, fig) -> None:
        """Display ``fig`` in the running notebook."""
        from IPython.display import HTML, display
        display(HTML(self.html(fig)))


#: The Drama Dice campaign the report simulates: three checks a session, three sessions.
DRAMA_SESSION = ({"d6": 2}, {"d6": 3, "target": 2}, {"d6": 3})


def stateful_summary(systems: Sequence[str] = DEFAULT_SYSTEMS) -> dict[str, Any]:
    """Tables from ``workbench.stateful`` for the chosen systems, for the report.

    Clocks and conditions are Erzählspiel rules (shown when a narrative system is chosen),
    the Drama Dice economy is the Unnamed System's (shown when a bounce-pool system is).
    A result whose function is missing (the stateful layer is written alongside the report)
    is listed under ``"missing"`` with the reason, never silently left out.

    Returns:
        ``{"clocks", "taken_out", "drama_summary", "drama_tiers"}`` (DataFrame or ``None``)
        and ``"missing"`` (list of text).

    Example:
        >>> found = stateful_summary(["uwr"])
        >>> found["clocks"] is None and found["missing"] == []
        True
    """
    import pandas as pd

    kinds = {get_system(name).mechanic.kind for name in systems}
    found: dict[str, Any] = {"clocks": None, "taken_out": None, "drama_summary": None,
                             "drama_tiers": None, "missing": []}

    def attempt(what: str, compute) -> None:
        try:
            compute()
        except (ImportError, AttributeError, TypeError) as exc:
            found["missing"].append(f"{what} ({type(exc).__name__}: {exc})")

    def clocks():
        from .stateful import clock_table
        found["clocks"] = clock_table()

    def conditions():
        from .stateful import taken_out
        rows = []
        for colour in ("red", "yellow", "green"):
            for spiral in (False, True):
                result = taken_out(colour, death_spiral=spiral)
                rows.append({"attacker die": colour, "death spiral": "yes" if spiral else "no",
                             "mean exchanges": result.mean, "P(within 5)": result.within(5)})
        found["taken_out"] = pd.DataFrame(rows)

    def drama():
        from .stateful import drama_campaign
        result = drama_campaign(list(DRAMA_SESSION), sessions=3, players=4, tier=1,
                                trials=20_000, seed=0)
        found["drama_summary"] = result.summary
        found["drama_tiers"] = result.tiers

    if "narrative" in kinds:
        attempt("clocks (workbench.stateful.clock_table)", clocks)
        attempt("conditions (workbench.stateful.taken_out)", conditions)
    if any({"d6", "d8", "drama"} <= set(get_system(name).params) for name in systems):  # Unnamed-like
        attempt("Drama Dice economy (workbench.stateful.drama_campaign)", drama)
    return found
