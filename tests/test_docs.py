"""The project's own documentation: it builds with warnings as errors, its worked examples run
as written, its tables are ``workbench table``'s, and neither it nor the README points outside
the repository."""
from __future__ import annotations

import doctest
import pickle
import re
from pathlib import Path

import pytest
from _deps import need

need("sphinx")  # the docs extra; the dev extra brings it, so CI always has it
from docutils import nodes  # noqa: E402
from sphinx.cmd.build import build_main  # noqa: E402

from _images import assert_drawn, need_chromium, png_pixels, share_of  # noqa: E402
from workbench.cli import main  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
PAGES = sorted([*DOCS.rglob("*.rst"), *DOCS.rglob("*.md")])


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    need_chromium()  # the pages hold static figures
    out = tmp_path_factory.mktemp("docs")
    warnings = out / "warnings.txt"
    code = build_main(["-W", "--keep-going", "-q", "-b", "html", "-w", str(warnings),
                       "-d", str(out / "doctrees"), str(DOCS), str(out / "html")])
    assert code == 0, warnings.read_text(encoding="utf-8")
    return out


@pytest.mark.slow
def test_docs_build_with_warnings_as_errors(built):
    html = built / "html"
    for page in ("index", "getting-started", "systems/uwr", "systems/arrata", "data-files", "cli",
                 "rulebooks", "api"):
        assert (html / f"{page}.html").exists(), page
    images = list((html / "_images").glob("*.png"))
    assert len(images) >= 5
    for image in images:   # each a drawn figure: white paper, and ink on at least 2% of it
        assert_drawn(image, [])
        assert share_of(png_pixels(image), "#ffffff", tolerance=2) < 0.98, image.name
    api = (html / "api.html").read_text(encoding="utf-8")
    assert 'id="workbench.check"' in api and 'id="workbench.render.parse_block"' in api


@pytest.mark.slow
def test_schema_page_includes_the_data_folder_notes(built):
    """The schema is written once, beside the data files, and included rather than copied."""
    notes = next((p for p in (REPO / "workbench" / "data" / "README.md", REPO / "data" / "README.md")
                  if p.exists()), None)
    page = (built / "html" / "data-files.html").read_text(encoding="utf-8")
    assert "fons-exploding" in page  # the variant example, read from its file
    if notes is None:
        assert "schema notes are missing" in page
        return
    heading = next(line.lstrip("#").strip() for line in notes.read_text(encoding="utf-8").splitlines()
                   if line.startswith("#"))
    assert heading.split("`")[0] in page


@pytest.mark.slow
def test_the_data_files_page_says_its_introduction_once_under_no_empty_heading(built):
    """The page showed an empty "The schema" heading and its introduction twice (its own, then
    the notes' own)."""
    page = (built / "html" / "data-files.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", " ", page)
    assert text.count("never executed") == 1
    doctree = pickle.loads((built / "doctrees" / "data-files.doctree").read_bytes())
    for section in doctree.findall(nodes.section):
        body = [child for child in section.children if not isinstance(child, nodes.title)]
        assert body, f"empty heading: {section[0].astext()}"
    titles = [section[0].astext() for section in doctree.findall(nodes.section)]
    assert titles[0] == "System and variant files" and "The schema" not in titles
    assert not any("the issue" in title.lower() for title in titles)


@pytest.mark.slow
def test_code_lines_wrap_instead_of_being_cut(built):
    """Long data-file and command lines ran past the right edge of the page, cut off there."""
    page = (built / "html" / "data-files.html").read_text(encoding="utf-8")
    assert "_static/workbench.css" in page
    css = (built / "html" / "_static" / "workbench.css").read_text(encoding="utf-8")
    rule = re.search(r"div\.highlight pre[^{]*\{([^}]*)\}", css)
    assert rule and "white-space: pre-wrap" in rule.group(1)


@pytest.mark.slow
def test_docs_tables_are_workbench_table(built, capsys):
    doctree = pickle.loads((built / "doctrees" / "systems" / "uwr.doctree").read_bytes())
    tables = [[[entry.astext() for entry in row.findall(nodes.entry)] for row in table.findall(nodes.row)]
              for table in doctree.findall(nodes.table)]
    assert main(["table", "uwr", "--pools", "1-6", "--format", "rst-grid"]) == 0
    grid = [[cell.strip() for cell in line.strip("|").split("|")]
            for line in capsys.readouterr().out.splitlines() if line.startswith("|")]
    assert grid in tables


@pytest.mark.parametrize("page", [p for p in PAGES if ">>>" in p.read_text(encoding="utf-8")],
                         ids=lambda p: str(p.relative_to(DOCS)))
def test_worked_examples_run_as_written(page):
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS,
                              verbose=False, report=True)
    assert result.attempted > 0 and result.failed == 0, f"{page}: {result}"


@pytest.mark.parametrize("path", [REPO / "README.md", *PAGES], ids=lambda p: str(p.relative_to(REPO)))
def test_nothing_points_outside_the_repository(path):
    text = path.read_text(encoding="utf-8")
    assert "shared/" not in text and "RULES.md" not in text and "seeds/" not in text
    assert not re.search(r"\]\(\.\./", text), "a link leaves the repository"


def test_readme_links_to_the_docs():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "docs/" in readme and "sphinx-build" in readme
