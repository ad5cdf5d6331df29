"""The directives on the oldest Sphinx the ``docs`` extra claims.

A rulebook pinned to an older Sphinx must be able to ``pip install 'dice-workbench[docs]'``
beside its pin and build with the directives. This test makes (once, cached beside the test
venv) a venv holding that Sphinx and its own dependencies, which sees the workbench's other
dependencies through a path file, and builds a book with every directive in it.
"""
from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import sysconfig
import textwrap
import tomllib
from pathlib import Path

import pytest

from _browser import IN_CI
from _images import need_chromium, png_size

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
#: The Sphinx the docs extra claims as its oldest (``sphinx>=X`` in pyproject.toml).
OLDEST = next(req.split(">=")[1].split(",")[0].strip()
              for req in PYPROJECT["project"]["optional-dependencies"]["docs"]
              if req.replace(" ", "").startswith("sphinx>="))

pytestmark = pytest.mark.slow


def _purelib(python: Path) -> Path:
    done = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True, timeout=60)
    return Path(done.stdout.strip())


@pytest.fixture(scope="session")
def oldest_sphinx() -> Path:
    """The python of a venv with ``sphinx==OLDEST`` (and myst-parser, as the docs extra has),
    made once and kept in ``<test venv>/sphinx-<OLDEST>``."""
    home = Path(sys.prefix) / f"sphinx-{OLDEST}"
    python = home / "bin" / "python"
    with open(Path(sys.prefix) / f".sphinx-{OLDEST}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # parallel test workers build it once
        if not (home / ".ready").exists():
            subprocess.run([sys.executable, "-m", "venv", "--clear", str(home)], check=True, timeout=300)
            done = subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                                   f"sphinx=={OLDEST}", "myst-parser>=1.0"],
                                  capture_output=True, text=True, timeout=900)
            if done.returncode != 0:
                message = f"cannot install sphinx=={OLDEST}: {done.stderr[-1500:]}"
                if IN_CI:
                    pytest.fail(message)
                pytest.skip(message)
            # The workbench (this checkout) and its other dependencies, after Sphinx's own.
            here = sysconfig.get_paths()["purelib"]
            (_purelib(python) / "workbench-under-test.pth").write_text(f"{ROOT}\n{here}\n", encoding="utf-8")
            (home / ".ready").write_text(OLDEST, encoding="utf-8")
    return python


def test_the_docs_extra_accepts_a_book_pinned_to_the_oldest_sphinx():
    from packaging.requirements import Requirement
    docs = [Requirement(r) for r in PYPROJECT["project"]["optional-dependencies"]["docs"]]
    sphinx = next(r for r in docs if r.name == "sphinx")
    assert sphinx.specifier.contains("7.1.2"), "a rulebook pinned to Sphinx 7.1.2 must install the extra"
    assert str(sphinx.specifier) == f">={OLDEST}"  # the one claim, tested below
    myst = next(r for r in docs if r.name == "myst-parser")
    assert myst.specifier.contains("1.0.0")  # the myst-parser that runs on that Sphinx


def test_every_directive_builds_on_the_oldest_sphinx(oldest_sphinx, tmp_path):
    need_chromium()  # the figure is drawn as a PNG
    book = tmp_path / "book"
    book.mkdir()
    (book / "conf.py").write_text('extensions = ["workbench.sphinx", "myst_parser"]\nproject = "Odds"\n',
                                  encoding="utf-8")
    (book / "index.rst").write_text(textwrap.dedent("""\
        Odds
        ====

        .. workbench-table:: uwr
           :pools: 1-3

        .. workbench-ladder:: arrata
           :stat: A4
           :want: Easy=0.9,Normal=0.7

        .. workbench-parameters:: unnamed

        .. workbench-figure:: erzahlspiel
           :kind: outcomes
           :dice: d6
           :knob: advantage
           :levels: -2,-1,0,1,2
           :width: 600
           :height: 400
           :scale: 2

        .. workbench-figure:: uwr
           :pools: 1-3
           :output: html

        .. toctree::

           notes
        """), encoding="utf-8")
    (book / "notes.md").write_text("# Notes\n\nA Markdown page, read by myst-parser.\n", encoding="utf-8")
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    version = subprocess.run([str(oldest_sphinx), "-c", "import sphinx; print(sphinx.__version__)"],
                             capture_output=True, text=True, check=True, env=env, timeout=120)
    assert version.stdout.strip() == OLDEST
    done = subprocess.run([str(oldest_sphinx), "-m", "sphinx", "-W", "-q", "-b", "html", str(book),
                           str(book / "_build")], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    html = (book / "_build" / "index.html").read_text(encoding="utf-8")
    assert "Climb a rough surface" in html and "55.6%" in html  # UWR Normal at 2 dice
    assert "bounce_on" in html and "rule option" in html  # the parameters directive
    assert html.count("<table") >= 3
    (image,) = (book / "_build" / "_images").glob("erzahlspiel-outcomes-*.png")
    assert png_size(image) == (1200, 800)
    assert list((book / "_build" / "_workbench").glob("uwr-curve-*.html"))
    assert (book / "_build" / "notes.html").exists()
