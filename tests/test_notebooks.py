"""Every notebook in notebooks/ is committed clean and runs top to bottom headless.

Parametrised over the folder's glob, so a new notebook is covered without editing this file.
Each runs on a temporary copy of the folder (kernel working directory = that copy), so a run
never changes tracked files.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS_DIR = Path(__file__).resolve().parents[1] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("*.ipynb"))


def _ids(paths):
    return [p.name for p in paths]


def test_notebooks_exist():
    assert NOTEBOOKS, f"no notebooks in {NOTEBOOKS_DIR}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_is_committed_without_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    dirty = [i for i, cell in enumerate(notebook.cells) if cell.cell_type == "code"
             and (cell.get("outputs") or cell.get("execution_count") is not None)]
    assert not dirty, f"{path.name}: cells {dirty} have outputs; clear them before committing"
    assert "widgets" not in notebook.metadata, f"{path.name}: stored widget state; clear it"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_opens_with_its_question(path):
    notebook = nbformat.read(path, as_version=4)
    first = notebook.cells[0]
    assert first.cell_type == "markdown", f"{path.name}: the first cell must be markdown"
    assert first.source.lstrip().startswith("#"), f"{path.name}: open with a title"
    assert "?" in first.source, f"{path.name}: say which question the notebook answers"


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_runs_headless(path, tmp_path):
    from nbclient import NotebookClient

    tracked = path.read_bytes()
    folder = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS_DIR, folder)
    notebook = nbformat.read(folder / path.name, as_version=4)
    # The timeout guards against a hung kernel; speed belongs to benchmarks, not tests.
    client = NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}})
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    ran = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.execution_count for cell in ran), f"{path.name}: a cell did not run"
    assert path.read_bytes() == tracked, f"{path.name}: the tracked notebook changed"
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        # JupyterLab shows at most 50 outputs a cell (maxNumberOutputs); past them the rest
        # hides behind a "show more" line.
        assert len(cell.outputs) <= JUPYTERLAB_MAX_OUTPUTS, (path.name, index, len(cell.outputs))
        for output in cell.outputs:
            text = output.get("text", "") + output.get("data", {}).get("text/plain", "")
            noise = FLOAT_NOISE.search(text)
            assert not noise, f"{path.name}: cell {index} prints {noise.group()} (round it for a reader)"


#: JupyterLab's default ``maxNumberOutputs``.
JUPYTERLAB_MAX_OUTPUTS = 50
#: A float printed with its binary noise: 0.47974400000000034, 0.30000000000000004.
FLOAT_NOISE = re.compile(r"\b\d+\.\d*(?:0{6,}|9{6,})\d{1,3}\b")
