"""Sphinx configuration of the workbench's own documentation.

Build it with ``.venv/bin/sphinx-build -W -b html docs docs/_build/html`` (the test suite does
the same in ``tests/test_docs.py``). Its tables and figures come from the workbench's own
directives (``workbench.sphinx``): they are computed while the docs are built.
"""
from __future__ import annotations

from pathlib import Path

import workbench

ROOT = Path(__file__).resolve().parents[1]

project = "Dice-pool design workbench"
author = "the workbench's maintainers"
copyright = "2026, " + author
release = workbench.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "myst_parser",
    "workbench.sphinx",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "explorer.png"]
root_doc = "index"
html_theme = "alabaster"
# Wide enough for the data-file examples' comments and the command lines without a scroll bar.
html_theme_options = {"page_width": "1180px", "body_max_width": "none"}
html_title = project
html_static_path = ["_static"]
# Long code lines wrap instead of being cut at the right edge (docs/_static/workbench.css).
html_css_files = ["workbench.css"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_format = "short"
napoleon_google_docstring = True
napoleon_numpy_docstring = False
myst_heading_anchors = 3
# The data folder's notes (included below) are written for browsing the repository: their links
# to .toml files are not pages of these docs. Only Markdown pages raise this warning.
suppress_warnings = ["myst.xref_missing"]
# Static pictures in every build (PNG reads everywhere, PDF included).
workbench_figure_output = "png"

# The data-file schema is written once, beside the data files; the schema page includes it
# rather than repeating it.
DATA_READMES = [ROOT / "workbench" / "data" / "README.md", ROOT / "data" / "README.md"]


def _schema_page(app, docname, source):
    if docname != "data-files":
        return
    data_readme = next((path for path in DATA_READMES if path.exists()), None)
    if data_readme is not None:
        app.env.note_dependency(str(data_readme))
        relative = data_readme.relative_to(ROOT).as_posix()
        # The notes' own title and introduction open the page: nothing said twice, and no
        # heading of this page left empty above them.
        include = (f"```{{include}} ../{relative}\n:relative-images:\n```\n")
    else:
        include = ("# Systems as data files\n\nThe schema notes are missing from this checkout "
                   "(`workbench/data/README.md`); `workbench systems --format json` lists what "
                   "each shipped file declares.\n")
    source[0] = source[0].replace("<!-- data-readme -->", include)


def setup(app):
    app.connect("source-read", _schema_page)
