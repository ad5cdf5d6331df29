"""Figures in batches: every caller that writes several images draws them with one browser
(``workbench render`` over its pages, the Sphinx extension over a build, ``write_figures`` /
``write_images`` whatever the sizes), counted by instrumenting kaleido's browser; the files
are real images of the sizes asked for, and an interrupted batch leaves no browser running
and no temporary file."""
from __future__ import annotations

import textwrap

import pytest

from _deps import need

from _images import need_chromium, png_size, svg_size
from workbench.cli import main


@pytest.fixture
def browsers(monkeypatch):
    """How many browsers kaleido opens (each ``Kaleido`` opens one when it starts)."""
    need_chromium()
    import kaleido
    opened = []
    original = kaleido.Kaleido.open

    async def counted(self, *args, **kwargs):
        opened.append(1)
        return await original(self, *args, **kwargs)
    monkeypatch.setattr(kaleido.Kaleido, "open", counted)
    yield opened
    assert not kaleido._global_server.is_running()   # no browser left behind


def figure_block(pools: str, **options: str) -> str:
    words = " ".join(f"{k}={v}" for k, v in options.items())
    return f"```workbench-figure uwr kind=ladder pools={pools} {words}\n```\n\n"


def test_render_draws_every_figure_of_every_page_with_one_browser(tmp_path, browsers):
    first = tmp_path / "rules.md"
    first.write_text("# Rules\n\n" + "".join(figure_block(f"1-{n}") for n in range(2, 6))
                     + figure_block("1-3", width="600", height="300"), encoding="utf-8")
    second = tmp_path / "more.md"
    second.write_text("# More\n\n" + figure_block("2-6") + figure_block("1-6", output="svg"),
                      encoding="utf-8")
    assert main(["render", str(first), str(second)]) == 0
    assert len(browsers) == 1
    images = sorted((tmp_path / "workbench-figures").iterdir())
    pngs = [p for p in images if p.suffix == ".png"]
    assert len(pngs) == 6 and len(images) == 7
    sizes = sorted(png_size(p) for p in pngs)
    assert sizes == [(600, 300)] + [(800, 480)] * 5
    (svg,) = [p for p in images if p.suffix == ".svg"]
    assert svg_size(svg) == (800, 480)
    for page in (first, second):   # every figure linked from its page
        text = page.read_text(encoding="utf-8")
        assert text.count("](workbench-figures/") == text.count("workbench-figure uwr")
    assert not [p for p in tmp_path.rglob("*.partial*")]


def test_render_check_starts_no_browser(tmp_path, browsers):
    page = tmp_path / "rules.md"
    page.write_text(figure_block("1-3") + figure_block("1-4"), encoding="utf-8")
    assert main(["render", "--check", str(page)]) == 1
    assert browsers == [] and not (tmp_path / "workbench-figures").exists()


def test_write_figures_of_several_sizes_start_one_browser(tmp_path, browsers):
    from workbench.figures import curve_figure, write_figures, write_images
    figures = [curve_figure("uwr", [1, 2, 3]) for _ in range(3)]
    figures[1].layout.width, figures[1].layout.height = 500, 300
    figures[2].layout.height = 250
    paths = [tmp_path / "a.png", tmp_path / "b.png", tmp_path / "c.svg"]
    write_figures(figures, paths)
    assert len(browsers) == 1
    assert [png_size(paths[0]), png_size(paths[1]), svg_size(paths[2])] == \
        [(800, 480), (500, 300), (800, 250)]
    write_images(figures[:2], [tmp_path / "d.png", tmp_path / "e.png"])
    assert len(browsers) == 2   # a second call: its own browser, one for both images


def test_a_drawing_session_shares_one_browser_between_calls(tmp_path, browsers):
    from workbench.figures import curve_figure, drawing_session, write_figure
    with drawing_session():
        for n in range(3):
            write_figure(curve_figure("uwr", [1, 2]), tmp_path / f"{n}.png", scale=1 + n / 2)
        assert len(browsers) == 1
    assert [png_size(tmp_path / f"{n}.png") for n in range(3)] == [(800, 480), (1200, 720),
                                                                   (1600, 960)]


def browser_threads() -> list:
    import threading
    return [t for t in threading.enumerate() if t.name == "workbench-browser"]


def test_ctrl_c_in_a_session_closes_its_browser_and_leaves_no_scratch(tmp_path, browsers,
                                                                      monkeypatch):
    from workbench.figures import curve_figure, drawing_session, session, write_figure
    real = session._Browser.draw
    calls = []

    def second_is_interrupted(self, specs):
        calls.append(1)
        if len(calls) == 2:   # while the image is drawn: Ctrl-C
            real(self, specs)
            raise KeyboardInterrupt
        return real(self, specs)
    monkeypatch.setattr(session._Browser, "draw", second_is_interrupted)
    (tmp_path / "old.png").write_bytes(b"old")
    with drawing_session():
        write_figure(curve_figure("uwr", [1, 2]), tmp_path / "one.png")
        assert len(browser_threads()) == 1
        with pytest.raises(KeyboardInterrupt):
            write_figure(curve_figure("uwr", [1, 3]), tmp_path / "old.png")
        assert browser_threads() == [] and session._SESSION["browser"] is None
        write_figure(curve_figure("uwr", [1, 4]), tmp_path / "three.png")   # a new browser
    assert len(browsers) == 2 and browser_threads() == []
    assert (tmp_path / "old.png").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.png", "one.png", "three.png"]
    assert png_size(tmp_path / "three.png") == (800, 480)


def test_a_browser_that_cannot_start_is_one_error_not_a_wait(tmp_path, browsers, monkeypatch):
    from workbench.figures import curve_figure, drawing_session, write_figure
    from workbench.files import TargetError
    monkeypatch.setenv("BROWSER_PATH", str(tmp_path / "no-chromium"))
    monkeypatch.setattr("workbench.figures.output.chromium_path", lambda: "/usr/bin/chromium")
    with drawing_session():
        with pytest.raises(TargetError, match="Chromium could not draw the image"):
            write_figure(curve_figure("uwr", [1, 2]), tmp_path / "a.png")
    assert browser_threads() == [] and list(tmp_path.iterdir()) == []


def test_a_sphinx_build_draws_its_figures_with_one_browser(tmp_path, browsers):
    need("sphinx")
    from sphinx.cmd.build import build_main
    project = tmp_path / "book"
    project.mkdir()
    (project / "conf.py").write_text('extensions = ["workbench.sphinx"]\nproject = "Odds"\n'
                                     'exclude_patterns = ["_build"]\n', encoding="utf-8")
    figures = "".join(f".. workbench-figure:: uwr\n   :kind: ladder\n   :pools: 1-{n}\n\n"
                      for n in range(2, 5))
    (project / "index.rst").write_text("Odds\n====\n\n" + figures + ".. toctree::\n\n   more\n",
                                       encoding="utf-8")
    (project / "more.rst").write_text("More\n====\n\n" + textwrap.dedent("""\
        .. workbench-figure:: fons
           :pools: 1-3
           :width: 400
           :height: 300
        """), encoding="utf-8")
    assert build_main(["-W", "-q", "-b", "html", str(project), str(project / "_build")]) == 0
    assert len(browsers) == 1
    images = sorted((project / "_build" / "_images").glob("*.png"))
    assert sorted(png_size(p) for p in images) == [(400, 300)] + [(800, 480)] * 3
