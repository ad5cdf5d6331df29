"""Targets and the one atomic writer (``workbench.files``): every bad ``--out`` of every
command is one line before any work, and a failed write leaves the old file byte for byte."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from _faults import leftovers, run, snapshot
from workbench import files
from workbench.errors import WorkbenchError

from conftest import run_cli

OLD = "precious hand-made text\n" * 200

# Every command that writes, each with a target of the kind it writes.
WRITERS = {
    "table": (["table", "uwr", "--pools", "1-3", "--out"], "odds.rst"),
    "ladder": (["ladder", "uwr", "--want", "Easy=0.9,Normal=0.7", "--out"], "ladder.md"),
    "report": (["report", "--systems", "uwr", "--pools", "1-3", "--no-progress", "--out"], "r.html"),
    "figure": (["figure", "uwr", "--pools", "1-3", "--out"], "curve.html"),
    "sweep": (["sweep", "check", "--grid", "dice=1-3", "system=uwr", "--out"], "r.csv"),
}


def cli(capsys, *argv):
    return run_cli(capsys, *argv)


@pytest.fixture
def place(tmp_path):
    """A folder with an existing page, a read-only page, a folder named like a file, a plain
    file used as a folder and a link to /dev/full."""
    (tmp_path / "old.rst").write_text(OLD)
    (tmp_path / "locked.rst").write_text(OLD)
    (tmp_path / "locked.rst").chmod(0o444)
    (tmp_path / "d.png").mkdir()
    (tmp_path / "plain").write_text("x")
    (tmp_path / "full.csv").symlink_to("/dev/full")
    return tmp_path


def bad_targets(folder: Path, name: str) -> list[tuple[str, str]]:
    suffix = Path(name).suffix
    return [
        (str(folder / ("d.png" if suffix != ".png" else "d2.png")) + "/", "ends with '/'"),
        (str(folder / "nodir") + "/", "ends with '/'"),
        (str(folder / "d.png") if suffix == ".png" else str(_folder_named(folder, suffix)), "is a folder"),
        (str(folder / "missing" / name), "does not exist"),
        (str(folder / "plain" / name), "is a file, not a folder"),
        (str(_link_to_device(folder, suffix)), "not a file"),
        (str(_read_only(folder, suffix)), "is read-only"),
    ]


def _folder_named(folder: Path, suffix: str) -> Path:
    path = folder / f"a-folder{suffix}"
    path.mkdir(exist_ok=True)
    return path


def _link_to_device(folder: Path, suffix: str) -> Path:
    path = folder / f"full{suffix}"
    if not path.is_symlink():
        path.symlink_to("/dev/full")
    return path


def _read_only(folder: Path, suffix: str) -> Path:
    path = folder / f"locked{suffix}"
    if not path.exists():
        path.write_text(OLD)
        path.chmod(0o444)
    return path


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_every_bad_out_is_one_line_before_any_work(one_line_error, place, writer, monkeypatch):
    argv, name = WRITERS[writer]
    # No work may start: the functions that compute are replaced by ones that fail loudly.
    import workbench.cli._docs as docs
    import workbench.cli._figure as figure
    import workbench.cli._ladder as ladder_cli
    import workbench.cli._report as report_cli
    import workbench.cli._sweep as sweep_cli

    def no_work(*args, **kwargs):
        raise AssertionError("work started before --out was checked")
    monkeypatch.setattr(docs, "difficulty_rows", no_work)
    monkeypatch.setattr(ladder_cli, "solve_ladder", no_work)
    monkeypatch.setattr(report_cli, "build_report", no_work)
    monkeypatch.setattr(figure, "build_figure", no_work)
    monkeypatch.setattr(sweep_cli, "sweep", no_work)
    targets = bad_targets(place, name)
    before = snapshot(place)
    for out, words in targets:
        one_line_error(*argv, out, contains=("--out", words))
    assert snapshot(place) == before
    assert leftovers(place) == []


def test_symlinked_page_is_written_through_and_the_link_stays(tmp_path, capsys):
    real = tmp_path / "book" / "odds.rst"
    real.parent.mkdir()
    real.write_text(OLD)
    link = tmp_path / "odds.rst"
    link.symlink_to(real)
    assert cli(capsys, "table", "uwr", "--pools", "1-2", "--out", str(link))[0] == 0
    assert link.is_symlink() and "1 die" in real.read_text()
    assert OLD not in real.read_text()


def test_permissions_of_an_existing_file_are_kept(tmp_path, capsys):
    page = tmp_path / "odds.rst"
    page.write_text(OLD)
    page.chmod(0o640)
    assert cli(capsys, "table", "uwr", "--pools", "1-2", "--out", str(page))[0] == 0
    assert stat.S_IMODE(page.stat().st_mode) == 0o640 and OLD not in page.read_text()
    fresh = tmp_path / "new.rst"
    mask = os.umask(0o027)
    try:
        assert cli(capsys, "table", "uwr", "--pools", "1-2", "--out", str(fresh))[0] == 0
    finally:
        os.umask(mask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o640   # 0o666 less the umask, as open() gives


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"), KeyboardInterrupt,
                                     RuntimeError("the image library failed")])
def test_a_failed_write_leaves_the_old_bytes_and_no_temporary_file(tmp_path, failure):
    page = tmp_path / "odds.md"
    page.write_text(OLD)
    page.chmod(0o600)
    expected = (files.TargetError if isinstance(failure, OSError)
                else type(failure) if isinstance(failure, Exception) else failure)
    with pytest.raises(expected) as raised:
        with files.replacing(page, "--out") as scratch:
            scratch.write_text("half a ta")
            raise failure
    assert page.read_text() == OLD and stat.S_IMODE(page.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["odds.md"]
    if isinstance(failure, OSError):
        assert str(raised.value) == (f"--out {str(page)!r}: cannot be written (No space left on "
                                     "device); the file is unchanged")


def test_a_writer_that_deletes_its_output_deletes_only_the_temporary_file(tmp_path):
    """The image exporter removes the file it was writing when it fails."""
    page = tmp_path / "chart.png"
    page.write_bytes(b"old png")
    with pytest.raises(RuntimeError):
        with files.replacing(page) as scratch:
            assert scratch.parent == tmp_path and scratch.suffix == ".png"
            scratch.write_bytes(b"\x89PNG half")
            scratch.unlink()
            raise RuntimeError("browser closed")
    assert page.read_bytes() == b"old png" and [p.name for p in tmp_path.iterdir()] == ["chart.png"]


def test_python_callers_get_workbench_errors_naming_their_argument(tmp_path):
    with pytest.raises(WorkbenchError, match=r"^out .*: is a folder"):
        files.write_text(tmp_path, "x")
    for given in (None, 3, b"x.md", ""):
        with pytest.raises(WorkbenchError, match="allowed: a file name"):
            files.write_text(given, "x")
    with pytest.raises(WorkbenchError, match="NUL"):
        files.write_text(str(tmp_path / "a\0b.md"), "x")
    long_name = tmp_path / ("x" * 300 + ".md")
    with pytest.raises(WorkbenchError, match="File name too long"):
        files.write_text(long_name, "x")


def test_a_read_only_folder_is_one_line(tmp_path):
    """A folder that cannot be written to (for root: a read-only mount of it)."""
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "odds.rst").write_text(OLD)
    (locked / "rules.md").write_text("# Odds\n\n```workbench-table uwr pools=1-2\n```\n")
    before = snapshot(tmp_path)
    for argv in (["table", "uwr", "--out", "locked/odds.rst"],
                 ["table", "uwr", "--out", "locked/new.rst"],
                 ["sweep", "check", "--grid", "dice=1-2", "system=uwr", "--out", "locked/r.csv"],
                 ["render", "locked/rules.md"]):
        done = run(argv, tmp_path, read_only=locked)
        assert done.code == 2 and done.problem_lines() == [done.last_line], done.err
        assert "'locked/" in done.last_line, done.err
        assert any(words in done.last_line for words in (
            "cannot write in folder 'locked' (Permission denied)",
            "cannot write in folder 'locked' (Read-only file system)",
            "odds.rst': is read-only", "rules.md': is read-only"   # on a read-only disk
        )), done.err
    assert snapshot(tmp_path) == before


def test_render_reads_only_regular_pages_of_a_sane_size(tmp_path, one_line_error, monkeypatch):
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)   # reading it would wait for ever
    one_line_error("render", str(fifo), contains=("pipe.md", "a device, pipe or socket"))
    one_line_error("render", str(tmp_path), contains=("is a folder",))
    import workbench.cli._render as render_cli
    monkeypatch.setattr(render_cli, "MAX_PAGE_BYTES", 100)
    big = tmp_path / "big.md"
    big.write_text("x" * 101)
    one_line_error("render", str(big), contains=("101 bytes", "at most 100 bytes"))


def test_out_is_never_the_data_file_the_table_comes_from(tmp_path, one_line_error):
    from _rulebook import MINE
    system = tmp_path / "mine.toml"
    system.write_text(MINE.format(target=1))
    before = system.read_bytes()
    link = tmp_path / "link.toml"
    link.symlink_to(system)
    for argv in (["table", str(system), "--out", str(system)],
                 ["table", str(system), "--out", str(link)],
                 ["ladder", str(system), "--want", "Easy=0.9", "--out", str(system)]):
        one_line_error(*argv, contains=("is the data file of system 'mine'",))
    assert system.read_bytes() == before
