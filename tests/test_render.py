"""The Markdown route: ``workbench render`` fills marked blocks in place, a second run changes
nothing, the numbers are those of ``workbench table``, and ``--check`` fails on stale files."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from _images import assert_drawn, need_chromium, png_size
from workbench.cli import main
from workbench.markdown import BEGIN, END
from _rulebook import MINE

from conftest import run_cli

PAGE = textwrap.dedent("""\
    # Climbing

    Prose the workbench must leave alone.

    ```workbench-table uwr pools=1-6 format=percent
    ```

    <!-- workbench-ladder arrata pools=2-4 quality=A format=fraction -->

    ```workbench-table erzahlspiel
    caption="Narrative dice, one per check"
    ```

    The end.
    """)


def run(capsys, *argv):
    return run_cli(capsys, *argv)


def region(text: str, number: int) -> str:
    return text.split(BEGIN)[number + 1].split(END)[0].strip()


def test_fill_then_rerun_is_a_no_op(tmp_path, capsys):
    page = tmp_path / "odds.md"
    page.write_text(PAGE, encoding="utf-8")
    code, _, err = run(capsys, "render", str(page))
    assert code == 0 and "updated" in err
    filled = page.read_text(encoding="utf-8")
    assert filled.count(BEGIN) == 3 and filled.count(END) == 3
    assert "Prose the workbench must leave alone." in filled and filled.endswith("The end.\n")
    # Same numbers as `workbench table` in Markdown.
    assert run(capsys, "table", "uwr", "--pools", "1-6", "--format", "md")[1].strip() == region(filled, 0)
    table = run(capsys, "table", "erzahlspiel", "--format", "md")[1].strip()
    assert region(filled, 2) == table + "\n\n*Narrative dice, one per check*"
    assert "| Ob 2         | 4/9  | 20/27 | 8/9   |" in region(filled, 1)  # (2/3)^2; 3·(4/9)(1/3) + 8/27
    # A second run leaves the file as it is, and --check agrees.
    code, _, err = run(capsys, "render", str(page))
    assert code == 0 and err == "" and page.read_text(encoding="utf-8") == filled
    assert run(capsys, "render", "--check", str(page))[0] == 0


def test_an_edited_region_is_replaced_and_check_catches_it(tmp_path, capsys):
    page = tmp_path / "odds.md"
    page.write_text(PAGE, encoding="utf-8")
    assert run(capsys, "render", str(page))[0] == 0
    filled = page.read_text(encoding="utf-8")
    stale = filled.replace("| 33.3%", "| 99.9%", 1)
    assert stale != filled
    page.write_text(stale, encoding="utf-8")
    code, _, err = run(capsys, "render", "--check", str(page))
    assert code == 1 and "would change" in err
    assert page.read_text(encoding="utf-8") == stale  # --check writes nothing
    assert run(capsys, "render", str(page))[0] == 0
    assert page.read_text(encoding="utf-8") == filled


def test_a_changed_system_file_changes_the_table(tmp_path, capsys):
    toml = tmp_path / "mine.toml"
    toml.write_text(MINE.format(target=1), encoding="utf-8")
    page = tmp_path / "odds.md"
    page.write_text("```workbench-table mine.toml pools=1-2\n```\n", encoding="utf-8")
    assert run(capsys, "render", str(page))[0] == 0
    assert "| 33.3%   | 55.6%    |" in page.read_text(encoding="utf-8")
    toml.write_text(MINE.format(target=2), encoding="utf-8")
    assert run(capsys, "render", "--check", str(page))[0] == 1
    assert run(capsys, "render", str(page))[0] == 0
    assert "| 0.0%    | 11.1%    |" in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("body, message", [
    ("x\n\n```workbench-table uwr format=percentage\n```\n", "odds.md:3: workbench-table: option 'format' got 'percentage'; allowed: percent, digits, fraction"),
    ("```workbench-table uwr colour=red\n```\n", "odds.md:1: workbench-table: option 'colour' got 'red'"),
    ("```workbench-table pools=1-3\n```\n", "odds.md:1: the block names no system"),
    ("```workbench-figure uwr kind=pie\n```\n", "option 'kind' got 'pie'; allowed: curve, check, difference, ladder"),
    # A fence that never closes used to leave the page untouched with status 0.
    ("# t\n\n```workbench-table uwr pools=1-3\n", "odds.md:3: workbench-table: the block's fence is never closed"),
    ("```workbench-ladder uwr want=Easy=2\n```\n", "option 'want' got 'Easy=2'; allowed: a number from 0 to 1"),
    ("```workbench-figure uwr kind=check base=fons\n```\n", "option 'base' got 'fons'; allowed: only with kind=difference"),
])
def test_bad_blocks_are_one_line_with_status_2(tmp_path, one_line_error, body, message):
    page = tmp_path / "odds.md"
    page.write_text(body, encoding="utf-8")
    one_line_error("render", str(page), contains=(message,))
    assert page.read_text(encoding="utf-8") == body


def test_a_page_named_twice_is_filled_once(tmp_path, capsys, monkeypatch):
    """A glob and a name, ``./``, or a link to the page: one page, filled once. (It was filled
    under its first name, then refused under the second as "changed on disk while render
    ran": an error after a write, over a change render had made itself.)"""
    page = tmp_path / "odds.md"
    page.write_text(PAGE, encoding="utf-8")
    (tmp_path / "link.md").symlink_to(page)
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "render", "--check", "odds.md", "./odds.md", "link.md")
    assert code == 1 and err == "odds.md: would change\n"
    assert page.read_text(encoding="utf-8") == PAGE
    code, _, err = run(capsys, "render", "odds.md", "./odds.md", "link.md", str(page))
    assert (code, err) == (0, "updated odds.md (3 blocks)\n")
    filled = page.read_text(encoding="utf-8")
    assert filled.count(BEGIN) == 3 and filled.count(END) == 3
    assert (tmp_path / "link.md").is_symlink()
    single = tmp_path / "single.md"
    single.write_text(PAGE, encoding="utf-8")
    assert run(capsys, "render", "single.md")[2] == "updated single.md (3 blocks)\n"
    assert single.read_text(encoding="utf-8") == filled
    one = tmp_path / "one.md"
    one.write_text("```workbench-table uwr pools=1-2\n```\n", encoding="utf-8")
    assert run(capsys, "render", "one.md")[2] == "updated one.md (1 block)\n"


def test_windows_line_ends_are_kept(tmp_path, capsys):
    page = tmp_path / "odds.md"
    page.write_bytes(PAGE.replace("\n", "\r\n").encode("utf-8"))
    assert run(capsys, "render", str(page))[0] == 0
    filled = page.read_bytes()
    assert filled.count(BEGIN.encode()) == 3 and b"\n" not in filled.replace(b"\r\n", b"")
    assert run(capsys, "render", "--check", str(page))[0] == 0


def test_missing_file_is_status_2(tmp_path, capsys):
    code, _, err = run(capsys, "render", str(tmp_path / "nope.md"))
    assert code == 2 and "nope.md" in err and "cannot be read" in err


def test_figure_block_writes_an_image_and_links_it(tmp_path, capsys):
    need_chromium()
    page = tmp_path / "odds.md"
    page.write_text("```workbench-figure uwr kind=ladder pools=1-3 alt=\"UWR ladder\"\n```\n", encoding="utf-8")
    assert run(capsys, "render", str(page))[0] == 0
    images = list((tmp_path / "workbench-figures").glob("uwr-ladder-*.png"))
    assert len(images) == 1 and png_size(images[0])[0] > 300
    from workbench.figures.style import LINE_COLOURS
    assert_drawn(images[0], LINE_COLOURS[:4])   # one line per rung in its own colour
    text = page.read_text(encoding="utf-8")
    assert f"![UWR ladder](workbench-figures/{images[0].name})" in text
    images[0].unlink()  # a missing figure is a change too
    assert run(capsys, "render", "--check", str(page))[0] == 1


def test_the_core_never_imports_sphinx():
    """Sphinx is the docs extra: the package, its CLI and both rulebook routes load without it."""
    import subprocess
    import sys
    code = ("import sys, workbench, workbench.cli, workbench.render, workbench.markdown; "
            "print(sorted(m for m in ('sphinx', 'docutils', 'myst_parser') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_ladder_block_without_pool_solves_at_the_systems_typical_pool(tmp_path, capsys):
    """A skill system's wanted odds hold at its default skill (Call of Cthulhu: 50), not at
    "4" as if it counted dice; a dice system's at 4 dice; a pool given wins."""
    from workbench.render import parse_block
    assert parse_block("ladder", "call-of-cthulhu-7e", {"want": "Regular=0.5"}).pool == 50
    assert parse_block("ladder", "uwr", {"want": "Normal=0.7"}).pool == 4
    assert parse_block("ladder", "call-of-cthulhu-7e", {"want": "Regular=0.5", "pool": "70"}).pool == 70
    page = tmp_path / "page.md"
    page.write_text('```workbench-ladder call-of-cthulhu-7e want="Regular=0.5,Hard=0.25"\n```\n')
    assert main(["render", str(page)]) == 0
    rows = [line for line in page.read_text().splitlines() if line.startswith("| Regular") or line.startswith("| Hard")]
    # Regular success at skill 50 is a roll of 50 or under: exactly one half; Hard (half
    # the skill, 25 or under) exactly a quarter. Solved at skill 4 they were 4% and 2%.
    assert "| 50.0%    | 50.0%" in rows[0] and "| 25.0%    | 25.0%" in rows[1], rows
