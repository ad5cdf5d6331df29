"""Nothing lost, by construction: no module of the package writes a file except through
``workbench.files`` (a temporary file renamed over the target when complete).

The package's source is read as Python syntax: a call that opens a file for writing, writes
a path directly (``Path.write_text``, ``shutil.copy``, ``os.replace``), or hands a library a
path to write (``to_csv``, ``write_html``, ``write_images``, ...) anywhere but inside
``files.replacing`` (whose temporary path is named ``scratch``) fails this test, naming the
file and line.
"""
from __future__ import annotations

import ast
import contextlib
import os
import signal
import time
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "workbench"
PATH_WRITES = {"write_text", "write_bytes", "touch"}   # the path is the receiver
WRITES_A_PATH = {"to_csv", "to_json", "to_parquet", "to_excel", "write_html", "write_image",
                 "write_images", "savefig"}   # the path is an argument
MOVES_FILES = {("os", "replace"), ("os", "rename"), ("shutil", "copy"), ("shutil", "copyfile"),
               ("shutil", "copy2"), ("shutil", "move")}
# Library writers given the temporary path of files.replacing, or text for stdout.
ALLOWED_TARGETS = {"scratch", "scratches", "sys.stdout"}


def _name(node: ast.AST) -> str:
    return ast.unparse(node)


def _problems(path: Path, base: Path = PACKAGE.parent) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        where = f"{path.relative_to(base)}:{node.lineno}"
        function = node.func
        if isinstance(function, ast.Name) and function.id == "open":
            mode = node.args[1] if len(node.args) > 1 else next(
                (k.value for k in node.keywords if k.arg == "mode"), None)
            text = mode.value if isinstance(mode, ast.Constant) else ""
            if any(flag in str(text) for flag in "wax+"):
                found.append(f"{where}: open(..., {text!r})")
        elif isinstance(function, ast.Attribute):
            owner = _name(function.value)
            if (owner, function.attr) in MOVES_FILES:
                found.append(f"{where}: {owner}.{function.attr}")
            elif function.attr in PATH_WRITES and owner != "files":
                found.append(f"{where}: {owner}.{function.attr}")
            elif function.attr in WRITES_A_PATH and owner != "files":
                target = node.args[0] if node.args else None
                if function.attr in ("write_images", "write_image"):
                    target = node.args[1] if len(node.args) > 1 else None
                if target is None or _name(target) not in ALLOWED_TARGETS:
                    found.append(f"{where}: {owner}.{function.attr}"
                                 f"({_name(target) if target is not None else ''})")
    return found


def test_every_file_is_written_through_workbench_files():
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "files.py" and path.parent == PACKAGE:
            continue
        problems += _problems(path)
    # Text returned as a string (to_csv() with no path, fig.to_json()) is not a write.
    problems = [p for p in problems if not p.endswith("to_csv()") and not p.endswith("to_json()")]
    assert problems == [], "write these through workbench.files:\n" + "\n".join(problems)


def test_the_check_itself_finds_direct_writes(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os, shutil\nopen('x', 'w')\nPath('x').write_text('a')\n"
                      "frame.to_csv('x.csv')\nos.replace('a', 'b')\nshutil.copyfile('a', 'b')\n"
                      "frame.to_csv(scratch)\nfiles.write_text('x', 'y')\nopen('x')\n"
                      "pio.write_images(figs, paths)\n")
    found = sorted(_problems(sample, tmp_path), key=lambda line: int(line.split(":")[1]))
    assert [line.split(": ", 1)[1] for line in found] == [
        "open(..., 'w')", "Path('x').write_text", "frame.to_csv('x.csv')", "os.replace",
        "shutil.copyfile", "pio.write_images(paths)"]


def test_ctrl_c_just_after_the_rename_names_the_file_written(tmp_path, monkeypatch, capsys):
    """The instant between a file renamed into place and "wrote ..." being said: Ctrl-C there
    cannot undo the write, so the one line says the file was written (and it is whole)."""
    from workbench import cli
    from workbench.cli import _args

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(_args, "print", interrupted, raising=False)
    out = tmp_path / "odds.rst"
    assert cli.main(["table", "uwr", "--out", str(out)]) == 130
    assert capsys.readouterr().err.endswith(f"workbench: interrupted after writing {out}\n")
    assert out.read_text() == cli_table_text()


def cli_table_text() -> str:
    from workbench import cli
    import io
    import contextlib
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert cli.main(["table", "uwr", "--format", "rst-grid"]) == 0
    return buffer.getvalue()


def test_ctrl_c_before_any_write_says_only_interrupted(tmp_path, monkeypatch, capsys):
    from workbench import cli, files

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(files, "write_text", interrupted)
    (tmp_path / "odds.rst").write_text("old\n")
    assert cli.main(["table", "uwr", "--out", str(tmp_path / "odds.rst")]) == 130
    assert capsys.readouterr().err == "workbench: interrupted\n"
    assert (tmp_path / "odds.rst").read_text() == "old\n"


def test_sigterm_just_after_the_rename_names_the_file_written(tmp_path, monkeypatch, capsys):
    """As with Ctrl-C: a kill that lands after the file is renamed into place says it is there."""
    from workbench import cli
    from workbench.cli import _args

    def killed(*args, **kwargs):
        raise cli.Terminated

    monkeypatch.setattr(_args, "print", killed, raising=False)
    out = tmp_path / "odds.rst"
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:   # entry() sets the program's own signal handlers: the test process gets its back
        with pytest.raises(SystemExit) as stop:
            cli.entry(["table", "uwr", "--out", str(out)])
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    assert stop.value.code == 143
    assert capsys.readouterr().err == f"workbench: terminated after writing {out}\n"
    assert out.read_text() == cli_table_text()


def _real_ctrl_c() -> None:
    """A real Ctrl-C through the installed handler; returns only by its KeyboardInterrupt."""
    os.kill(os.getpid(), signal.SIGINT)
    for _ in range(500):
        time.sleep(0.01)
    raise AssertionError("SIGINT never arrived")


@contextlib.contextmanager
def _pythons_own_handler():
    """Python's own Ctrl-C handler, as in a process that calls entry() without being the
    workbench script (the fault tests' harness); the handlers are put back afterwards."""
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)


def test_ctrl_c_that_a_library_turns_into_its_own_error_is_still_one_line(tmp_path, monkeypatch, capsys):
    """Ctrl-C while pydantic builds a validator comes out as pydantic's SchemaError (found by
    the random Ctrl-C test: a traceback). The program remembers the interrupt and answers it
    with the one line and status 130; the same error without a Ctrl-C is still a traceback."""
    from workbench import _startup, cli
    from workbench.cli import _docs

    def interrupted_inside_a_library(*args, **kwargs):
        try:
            _real_ctrl_c()
        except KeyboardInterrupt as exc:
            raise RuntimeError("Error building validator: KeyboardInterrupt") from exc

    monkeypatch.setattr(_docs, "not_a_data_file", interrupted_inside_a_library)
    monkeypatch.setattr(_startup, "_interrupts", 0)
    out = tmp_path / "odds.rst"
    # Python's own handler (CI found a traceback there): entry() must still count.
    with _pythons_own_handler():
        with pytest.raises(SystemExit) as stop:
            cli.entry(["table", "uwr", "--out", str(out)])
        assert stop.value.code == 130
        assert capsys.readouterr().err == "workbench: interrupted\n"
        assert not out.exists()
        monkeypatch.setattr(_startup, "_interrupts", 0)
        monkeypatch.setattr(_docs, "not_a_data_file", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("a bug")))
        with pytest.raises(RuntimeError, match="a bug"):
            cli.entry(["table", "uwr", "--out", str(out)])


CTRL_C_WHILE_VALIDATORS_ARE_BUILT = """
import os, signal, sys
import pydantic._internal._model_construction as construction
from pydantic_core import SchemaValidator, core_schema
from workbench.rules import registry

built = construction.ModelMetaclass.__new__


class Interrupting:   # Ctrl-C landing while pydantic's compiled core builds a validator
    def __repr__(self):
        raise KeyboardInterrupt


def interrupted(*args, **kwargs):
    SchemaValidator(core_schema.nullable_schema(core_schema.literal_schema([Interrupting()])))
    return built(*args, **kwargs)

construction.ModelMetaclass.__new__ = interrupted
try:
    registry.load_system(registry.DATA_DIR / "systems" / "uwr.toml")
except KeyboardInterrupt as exc:
    print("KeyboardInterrupt from", type(exc.__cause__).__name__)
    sys.exit(0)
print("no interrupt seen")
"""


def test_ctrl_c_while_the_validators_are_built_is_a_keyboard_interrupt():
    """Pydantic turns Ctrl-C during its first (lazy) import into a ``SchemaError``; a notebook
    or script reading its first data file sees ``KeyboardInterrupt`` instead (the fault tests'
    random Ctrl-C found the SchemaError traceback)."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", CTRL_C_WHILE_VALIDATORS_ARE_BUILT],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "KeyboardInterrupt from SchemaError\n", (done.stdout, done.stderr)


def test_ctrl_c_that_a_library_drops_still_stops_the_program(monkeypatch, tmp_path, capsys):
    """A library that catches Ctrl-C and carries on (CI found numba's compiler doing so: the
    report ran to its end and exited 0): the program still ends with the one line, naming
    what it wrote, and status 130."""
    from workbench import _startup, cli
    from workbench.cli import _docs

    def dropping_the_interrupt(*args, **kwargs):
        try:
            _real_ctrl_c()
        except KeyboardInterrupt:
            return False

    monkeypatch.setattr(_docs, "not_a_data_file", dropping_the_interrupt)
    monkeypatch.setattr(_startup, "_interrupts", 0)
    out = tmp_path / "odds.rst"
    with _pythons_own_handler(), pytest.raises(SystemExit) as stop:
        cli.entry(["table", "uwr", "--out", str(out)])
    assert stop.value.code == 130
    assert capsys.readouterr().err.endswith(f"workbench: interrupted after writing {out}\n")
    assert out.read_text().count("|") > 10 or out.read_text().count("=") > 10   # written whole


CALLED_BACK = """
import ctypes, os, signal, time


@ctypes.CFUNCTYPE(None)
def called_back():   # Python code that compiled code calls, as llvmlite's object cache is
    os.kill(os.getpid(), signal.SIGINT)
    for _ in range(20):
        time.sleep(0.01)
"""

CTRL_C_INSIDE_A_CALLBACK = """
import sys, time
from workbench import _startup
from llvmlite.fake_callback import called_back

_startup.loaded()
try:
    called_back()
    for _ in range(500):
        time.sleep(0.01)
except KeyboardInterrupt:
    print("interrupted after the callback")
    sys.exit(0)
print("the interrupt was lost")
"""


def test_ctrl_c_inside_a_callback_from_compiled_code_is_answered_after_it(tmp_path):
    """Ctrl-C landing in Python code that compiled code calls back (numba compiling, through
    llvmlite: CI found a report that ran on to its end) would be printed as "Exception
    ignored" and lost; it is raised just after the callback returns."""
    import subprocess
    import sys
    (tmp_path / "llvmlite").mkdir()
    (tmp_path / "llvmlite" / "__init__.py").write_text("")
    (tmp_path / "llvmlite" / "fake_callback.py").write_text(CALLED_BACK)
    path = os.pathsep.join([str(tmp_path), str(Path(__file__).resolve().parents[1])])
    done = subprocess.run([sys.executable, "-c", CTRL_C_INSIDE_A_CALLBACK],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": path})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "interrupted after the callback\n", (done.stdout, done.stderr)
    assert "ignored" not in done.stderr
