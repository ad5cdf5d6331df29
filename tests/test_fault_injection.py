"""Every writer under injected faults, in real processes, judged by the bytes left on disk.

For each writer: a reference run gives the new bytes; then a run under a file size limit
(half the new file: the write must fail) must end with one line and exit 2 (a
``WorkbenchError`` from Python) and leave the old file byte for byte; and runs interrupted
by Ctrl-C at random moments (sent to the process group, as a terminal does) must end with
``workbench: interrupted`` and exit 130 with the old bytes, or finish with the complete new
bytes. No run may leave a temporary file. The random moments are drawn from a seed printed
with any failure (``FAULT_SEED=... pytest`` repeats them; ``FAULT_RUNS`` sets how many).
"""
from __future__ import annotations

import json
import os
import random
import shutil
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from _faults import Done, leftovers, run, snapshot
from _images import need_chromium

OLD = ("Hand-written rules text the workbench must never lose.\n" * 120).encode()
SEED = int(os.environ.get("FAULT_SEED", random.SystemRandom().randrange(10**6)))
RUNS = int(os.environ.get("FAULT_RUNS", "2"))
PAGE = ("# Climbing\n\nHand-written prose.\n\n```workbench-table uwr pools=1-6\n```\n\n"
        "<!-- workbench-ladder arrata pools=2-4 quality=A -->\n\nMore prose.\n\n"
        "```workbench-table fons pools=1-8 format=fraction\n```\n")
FIGURE_PAGE = PAGE + "\n```workbench-figure uwr kind=ladder pools=1-4\n```\n"


def png_complete(data: bytes) -> bool:
    return data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(b"IEND\xaeB`\x82")


def svg_complete(data: bytes) -> bool:
    try:
        return ElementTree.fromstring(data).tag.endswith("svg")
    except ElementTree.ParseError:
        return False


def html_page_complete(data: bytes) -> bool:
    head = data.lstrip()[:20].lower()
    return head.startswith((b"<!doctype html>", b"<html")) and data.rstrip().endswith(b"</html>")


@dataclass(frozen=True)
class Writer:
    """One writer: the command (``{out}`` is the target), the target's name, and how to tell
    a complete new file from the reference (by default: the same bytes)."""

    argv: tuple[str, ...]
    target: str
    complete: Callable[[bytes, bytes], bool] = staticmethod(lambda data, reference: data == reference)
    images: bool = False
    python: bool = False   # a Python function (the harness reports its WorkbenchError)

    def command(self) -> list[str]:
        return [word.replace("{out}", self.target) for word in self.argv]


SWEEP = ("sweep", "check", "--grid", "dice=1-30 favor=-1..2 target=1-5 rerolls=0-2", "system=uwr",
         "--out", "{out}")
WRITERS = {
    "table": Writer(("table", "uwr", "--format", "md", "--out", "{out}"), "odds.md"),
    "ladder": Writer(("ladder", "arrata", "--want", "Easy=0.9,Normal=0.7,Hard=0.4", "--pools",
                      "3-6", "--out", "{out}"), "ladder.rst"),
    "report": Writer(("report", "--systems", "uwr,arrata", "--pools", "1-6", "--no-progress",
                      "--out", "{out}"), "balance.html"),
    "figure-png": Writer(("figure", "uwr", "--kind", "ladder", "--pools", "1-6", "--out", "{out}"),
                         "ladder.png", lambda data, _: png_complete(data), images=True),
    "figure-svg": Writer(("figure", "arrata", "--pools", "1-6", "--out", "{out}"), "curve.svg",
                         lambda data, _: svg_complete(data), images=True),
    "figure-html": Writer(("figure", "fons", "--pools", "1-6", "--out", "{out}"), "curve.html",
                          lambda data, ref: html_page_complete(data) and abs(len(data) - len(ref)) < 200),
    "sweep-csv": Writer(SWEEP, "grid.csv"),
    "sweep-json": Writer(SWEEP, "grid.json"),
    "sweep-parquet": Writer(SWEEP, "grid.parquet",
                            lambda data, ref: _parquet_rows(data) == _parquet_rows(ref)),
    "render": Writer(("render", "{out}"), "rules.md"),
    "render-figure": Writer(("render", "{out}"), "figures.md", images=True),
    "golden": Writer(("python", "from workbench.export.golden import write_golden; "
                                "write_golden('{out}', images=False)"), "golden", python=True),
}


def _parquet_rows(data: bytes):
    import io

    import pandas as pd
    try:
        return pd.read_parquet(io.BytesIO(data)).to_dict("records")
    except Exception:   # not a whole Parquet file
        return None


def prepare(folder: Path, writer: Writer) -> None:
    """The folder as a designer has it before the run: the target exists, with old bytes."""
    folder.mkdir(parents=True, exist_ok=True)
    if writer.target == "rules.md":
        (folder / "rules.md").write_text(PAGE)
    elif writer.target == "figures.md":
        (folder / "figures.md").write_text(FIGURE_PAGE)
    elif writer.target == "golden":
        (folder / "golden").mkdir(exist_ok=True)
        from workbench.export.golden import GOLDEN_TABLES
        for spec in GOLDEN_TABLES:
            (folder / "golden" / spec.filename).write_bytes(OLD)
    else:
        (folder / writer.target).write_bytes(OLD)
        (folder / writer.target).chmod(0o640)


def go(writer: Writer, folder: Path, **fault) -> Done:
    if writer.python:
        return run(["--python", writer.command()[1]], folder, **fault)
    return run(writer.command(), folder, **fault)


@pytest.fixture(scope="module")
def references(tmp_path_factory):
    """Each writer's new bytes from a run without faults, and how long the run took."""
    cache: dict[str, tuple[dict[str, bytes], float]] = {}

    def reference(name: str) -> tuple[dict[str, bytes], float]:
        if name not in cache:
            writer = WRITERS[name]
            folder = tmp_path_factory.mktemp(f"reference-{name}")
            prepare(folder, writer)
            done = go(writer, folder)
            assert done.code == 0, done.err
            cache[name] = (snapshot(folder), done.seconds)
        return cache[name]
    return reference


def judge(writer: Writer, folder: Path, before: dict[str, bytes], reference: dict[str, bytes],
          context: str) -> None:
    """Every file is either as it was or complete as in the reference; nothing else is there."""
    after = snapshot(folder)
    assert leftovers(folder) == [], (context, leftovers(folder))
    for name, data in after.items():
        if name in before and data == before[name]:
            continue
        if ".partial." in name:   # an interrupted sweep's finished points, beside its --out
            assert writer.argv[0] == "sweep" and name == _partial_name(writer.target), (context, name)
            assert _partial_rows_agree(data, reference[writer.target], Path(name).suffix), \
                (context, name)
            continue
        assert name in reference, (context, f"unexpected file {name}")
        check = writer.complete if name == writer.target else (
            (lambda d, r: png_complete(d)) if name.endswith(".png") else (lambda d, r: d == r))
        assert check(data, reference[name]), (context, f"{name} is neither old nor complete")
    assert set(before) <= set(after), (context, "a file disappeared", set(before) - set(after))


def _partial_name(target: str) -> str:
    path = Path(target)
    return f"{path.stem}.partial{path.suffix}"


def _partial_rows_agree(partial: bytes, full: bytes, suffix: str = ".csv") -> bool:
    """A whole file of some of the points, each as in the full sweep."""
    import io

    import pandas as pd
    read = {".csv": pd.read_csv, ".json": pd.read_json, ".parquet": pd.read_parquet}[suffix]
    rows = read(io.BytesIO(partial)).to_dict("records")
    everything = read(io.BytesIO(full)).to_dict("records")
    return 0 < len(rows) < len(everything) and all(row in everything for row in rows)


def one_line(done: Done, *words: str) -> str:
    lines = done.problem_lines()
    assert len(lines) == 1, done.err
    assert "Traceback" not in done.err
    for word in words:
        assert word in lines[0], done.err
    return lines[0]


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_file_size_limit_leaves_the_old_file(name, tmp_path, references):
    writer = WRITERS[name]
    if writer.images:
        need_chromium()
    reference, _ = references(name)
    prepare(tmp_path, writer)
    before = snapshot(tmp_path)
    new_sizes = [len(data) for file, data in reference.items() if before.get(file) != data]
    limit = max(min(new_sizes) // 2, 1)
    done = go(writer, tmp_path, fsize=limit)
    assert done.code == 2, (limit, done.err)
    line = one_line(done, "error")
    if not writer.python:
        assert line.startswith("workbench: error: ") and any(
            name in line for name in ("--out", "page", "figure path")), line
    if not writer.images:   # the browser itself cannot start under the limit: said as such
        assert "File too large" in line, line
    judge(writer, tmp_path, before, reference, f"fsize={limit}")
    if writer.target != "golden":
        assert snapshot(tmp_path) == before   # one file: exactly as it was


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_ctrl_c_at_random_moments_leaves_old_or_complete_files(name, tmp_path, references):
    writer = WRITERS[name]
    if writer.images:
        need_chromium()
    reference, duration = references(name)
    draw = random.Random(f"{SEED}-{name}")
    outcomes = []
    for attempt in range(RUNS):
        folder = tmp_path / f"run{attempt}"
        prepare(folder, writer)
        before = snapshot(folder)
        delay = draw.uniform(0, duration)
        done = go(writer, folder, interrupt_after=delay)
        context = f"FAULT_SEED={SEED} {name} Ctrl-C after {delay:.2f} s"
        assert done.code in (0, 130), (context, done.err)
        if done.code == 130:
            line = done.last_line
            assert line.startswith("workbench: interrupted" if not writer.python else "interrupted"), \
                (context, done.err)
            late = " after writing " in line   # the rename came first: the file is whole and new
            if not late:
                one_line(done)
            if not name.startswith("sweep") and writer.target != "golden" and not late:
                assert snapshot(folder)[writer.target] == before[writer.target], context
        judge(writer, folder, before, reference, context)
        outcomes.append(done.code)
    print(f"{name}: exits {outcomes} (FAULT_SEED={SEED})")


def test_ctrl_c_during_a_long_sweep_keeps_finished_points_apart(tmp_path):
    """The points finished before Ctrl-C go to grid.partial.csv; grid.csv stays as it was."""
    (tmp_path / "grid.csv").write_bytes(OLD)
    argv = ["sweep", "drama_campaign", "--grid", "players=2-6 refill_rate=0,0.1,0.2,0.3,0.4,0.5",
            'session=[{"d6": 3}, {"d6": 2, "target": 2}]', "--trials", "1500000", "--seed", "5",
            "--out", "grid.csv", "--progress"]
    done = run(argv, tmp_path)
    assert done.code == 0, done.err
    full = (tmp_path / "grid.csv").read_bytes()
    (tmp_path / "grid.csv").write_bytes(OLD)
    # Ctrl-C once the progress bar shows 3 to 25 of the 30 points done (each point is long
    # enough that a fast machine redraws the bar before the sweep ends).
    done = run(argv, tmp_path, interrupt_on=r"\| ?([3-9]|1[0-9]|2[0-5])/30 ")
    assert done.code == 130, done.err
    line = one_line(done, "workbench: interrupted", "grid.partial.csv", "grid.csv unchanged")
    assert " of 30 points finished" in line
    assert (tmp_path / "grid.csv").read_bytes() == OLD
    assert _partial_rows_agree((tmp_path / "grid.partial.csv").read_bytes(), full)
    assert leftovers(tmp_path) == []


def test_sphinx_cache_files_are_whole_or_absent(tmp_path):
    """A cache file cut short would be read back by the next build: it is written whole."""
    code = ("import types; from workbench.render import parse_block; "
            "from workbench.sphinx._cache import cached_table; "
            "env = types.SimpleNamespace(doctreedir='doctrees'); "
            "cached_table(env, parse_block('table', 'uwr', {'pools': '1-40'}))")
    done = run(["--python", code], tmp_path, fsize=1000)
    assert done.code == 2 and "File too large" in one_line(done), done.err
    cache = tmp_path / "doctrees" / "workbench" / "tables"
    assert [p.name for p in cache.iterdir()] == []
    assert run(["--python", code], tmp_path).code == 0
    stored = json.loads(next(cache.iterdir()).read_text())
    assert stored["header"][:3] == ["Difficulty", "Example", "Setting"] and len(stored["rows"]) == 4


def test_the_sphinx_figure_copy_is_whole_or_absent(tmp_path):
    (tmp_path / "figure.html").write_bytes(b"<html>" + b"x" * 50_000 + b"</html>")
    (tmp_path / "_workbench").mkdir()
    (tmp_path / "_workbench" / "figure.html").write_bytes(OLD)
    code = "from workbench import files; files.copy_file('figure.html', '_workbench/figure.html')"
    done = run(["--python", code], tmp_path, fsize=10_000)
    assert done.code == 2 and "File too large" in one_line(done), done.err
    assert (tmp_path / "_workbench" / "figure.html").read_bytes() == OLD
    assert leftovers(tmp_path) == []
    shutil.rmtree(tmp_path / "_workbench")


@pytest.mark.parametrize("name", ["render", "report", "sweep-csv"])
def test_kill_leaves_old_or_complete_files_and_no_temporary_file(name, tmp_path, references):
    """SIGTERM (kill, a CI time-out) unwinds like Ctrl-C: one line, status 143."""
    import signal
    writer = WRITERS[name]
    reference, duration = references(name)
    draw = random.Random(f"{SEED}-term-{name}")
    for attempt in range(RUNS):
        folder = tmp_path / f"run{attempt}"
        prepare(folder, writer)
        before = snapshot(folder)
        delay = draw.uniform(0, duration)
        done = go(writer, folder, interrupt_after=delay, stop_with=signal.SIGTERM)
        context = f"FAULT_SEED={SEED} {name} SIGTERM after {delay:.2f} s"
        assert done.code in (0, 143), (context, done.err)
        if done.code == 143 and done.last_line == f"workbench: terminated after writing {writer.target}":
            pass   # SIGTERM just after the rename: the file is new and whole (judged below)
        elif done.code == 143:
            assert one_line(done) == "workbench: terminated", (context, done.err)
            assert snapshot(folder)[writer.target] == before[writer.target], context
        judge(writer, folder, before, reference, context)


def test_ctrl_c_while_the_program_loads_is_one_line(tmp_path):
    """The real ``workbench`` script, interrupted in its first second: once any code of the
    package runs, the answer is the one line and status 130 (before that, Python itself is
    still starting and nothing of the workbench has run)."""
    import signal
    import subprocess
    import sys
    script = Path(sys.executable).with_name("workbench")
    package = str(Path(__file__).resolve().parents[1] / "workbench") + os.sep
    draw = random.Random(f"{SEED}-loading")
    answered = 0
    for attempt in range(4 * RUNS):
        delay = draw.uniform(0.05, 1.0)
        process = subprocess.Popen([str(script), "table", "uwr", "--out", "odds.rst"], cwd=tmp_path,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   start_new_session=True,
                                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        time.sleep(delay)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=120)
        context = f"FAULT_SEED={SEED} Ctrl-C {delay:.2f} s after start: {err}"
        assert package not in err, context   # no traceback through the workbench's own code
        # Ctrl-C in the instant after the rename: the file is whole, and the line says so.
        late = err.endswith("workbench: interrupted after writing odds.rst\n")
        if "Traceback" not in err and process.returncode != -signal.SIGINT:
            assert (process.returncode, err) in ((130, "workbench: interrupted\n"),
                                                 (0, "wrote odds.rst\n")) or (
                process.returncode == 130 and late and err.count("\n") <= 2), context
            answered += 1
        assert not (tmp_path / "odds.rst").exists() or process.returncode == 0 or late, context
        if late:
            assert (tmp_path / "odds.rst").read_text().count("\n") > 3, context
        (tmp_path / "odds.rst").unlink(missing_ok=True)   # each attempt starts without it
        assert leftovers(tmp_path) == [], context
    assert answered > 0   # at least one Ctrl-C reached the workbench (not only Python's start)


def test_ctrl_c_never_writes_over_a_partial_file_it_did_not_make(tmp_path):
    """The user's own grid.partial.csv (or an earlier run's points) stays as it was; a folder
    under the next name is passed over too: the points go to the first free name, said."""
    import io

    import pandas as pd

    import workbench as wb
    from workbench.cli._grid import read_value   # the values as the command line read them
    mine = b"the user's own notes\n"
    (tmp_path / "grid.csv").write_bytes(OLD)
    (tmp_path / "grid.partial.csv").write_bytes(mine)
    (tmp_path / "grid.partial-2.csv").mkdir()
    argv = ["sweep", "drama_campaign", "--grid", "players=2-6 refill_rate=0,0.1,0.2,0.3,0.4,0.5",
            'session=[{"d6": 3}, {"d6": 2, "target": 2}]', "--trials", "1500000", "--seed", "5",
            "--out", "grid.csv", "--progress"]
    done = run(argv, tmp_path, interrupt_on=r"\| ?([3-9]|1[0-9]|2[0-5])/30 ")
    assert done.code == 130, done.err
    line = one_line(done, "workbench: interrupted", "written to grid.partial-3.csv",
                    "grid.partial.csv to grid.partial-2.csv were there already, left as they were",
                    "grid.csv unchanged")
    assert " of 30 points finished" in line
    assert (tmp_path / "grid.csv").read_bytes() == OLD
    assert (tmp_path / "grid.partial.csv").read_bytes() == mine
    assert (tmp_path / "grid.partial-2.csv").is_dir() and not any((tmp_path / "grid.partial-2.csv").iterdir())
    rows = pd.read_csv(io.BytesIO((tmp_path / "grid.partial-3.csv").read_bytes()), dtype=str)
    assert 0 < len(rows) < 30
    # Each row is that point's own answer: the first and last rerun alone with the sweep's seed.
    for _, row in rows.iloc[[0, -1]].iterrows():
        point = {name: [read_value(row[name], name)] for name in ("players", "refill_rate")}
        alone = wb.sweep("drama_campaign", point, seed=5,
                         session=[{"d6": 3}, {"d6": 2, "target": 2}], trials=1500000)
        assert str(alone["seed"].iloc[0]) == row["seed"]
        assert float(alone["pass_with"].iloc[0]) == pytest.approx(float(row["pass_with"]), abs=1e-14)
    assert leftovers(tmp_path) == []
