"""Start-up does only what the command needs: which modules a command loads and which data
files it reads, asserted in a fresh process (never its time: speed is measured in
benchmarks/bench_cli.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

#: Libraries no command below needs: each takes a good part of a command's time to load.
HEAVY = ("pandas", "numba", "plotly", "pydantic", "kaleido", "pyarrow", "tabulate", "wcwidth",
         "IPython", "ipywidgets", "sphinx", "docutils", "importlib.metadata", "concurrent.futures",
         "markdown_it")   # render --check of a page read before: its blocks are in the page index

#: Runs a command in this process's place and says what it loaded and read.
RUN = """
import atexit, json, sys, tomllib
parsed = []
loads = tomllib.loads
tomllib.loads = lambda text, **kw: (parsed.append(1), loads(text, **kw))[1]

def said():
    from workbench.rules import _system_cache
    sys.__stderr__.write("\\nLOADED " + json.dumps({
        "modules": sorted(sys.modules), "parsed": len(parsed), "store": _system_cache.STATS}) + "\\n")
atexit.register(said)
sys.argv = ["workbench", *sys.argv[1:]]
from workbench.cli import entry
entry()
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A command in a fresh process with its own cache folder, after one run that fills it."""
    folder = tmp_path_factory.mktemp("startup")
    env = {k: v for k, v in os.environ.items() if k not in ("WORKBENCH_PATH", "WORKBENCH_DATA")}
    env.update(XDG_CACHE_HOME=str(folder / "cache"), XDG_CONFIG_HOME=str(folder / "config"))
    page = folder / "rules.md"
    page.write_text("# Odds\n\n```workbench-table uwr pools=1-3\n```\n", encoding="utf-8")

    def go(*argv: str) -> dict:
        argv = [str(page) if word == "PAGE" else word for word in argv]
        done = subprocess.run([sys.executable, "-c", RUN, *argv], env=env, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode in (0, 1), done.stderr
        return json.loads(done.stderr.rsplit("LOADED ", 1)[1])
    go("render", "PAGE")   # fills the cache and the page's region
    return go


COMMANDS = [("pmf", "uwr", "dice=4"), ("table", "uwr"), ("systems",), ("render", "--check", "PAGE"),
            ("pmf", "blades", "--format", "rst"), ("table", "blades", "--format", "rst-grid"),
            ("versus", "uwr", "--actor", "dice=3", "--reactor", "dice=2"), ("files",)]
#: Blades reads its statistics with the exact engine's compiled walk: numba is its work. A
#: command that prints a table loads tabulate (and wcwidth where it is installed), never
#: importlib.metadata (tabulate 0.10 reads its own version with it: pinned below 0.10).
TABLES = {"tabulate", "wcwidth"}
NEEDS = {"blades": {"numba", "importlib.metadata"}, "pmf": TABLES, "table": TABLES,
         "render": TABLES, "versus": TABLES}


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_a_command_loads_no_heavy_library_and_parses_no_data_file(run, argv):
    loaded = run(*argv)
    needed = set().union(*(NEEDS.get(word, set()) for word in argv))
    heavy = [name for name in HEAVY if name in loaded["modules"] and name not in needed]
    assert heavy == []
    assert loaded["parsed"] == 0 and loaded["store"]["read"] == 1
    assert "workbench.rules.schema" not in loaded["modules"]


def test_each_command_loads_only_its_own_command_module(run):
    commands = {m for m in run("pmf", "uwr", "dice=4")["modules"] if m.startswith("workbench.cli.")}
    assert commands == {"workbench.cli._args", "workbench.cli._checks"}
    listing = run("systems")["modules"]
    assert not any(m.startswith(("workbench.engine", "workbench.results")) for m in listing)
    table = run("table", "uwr")["modules"]
    assert not any(m in table for m in ("workbench.ladders", "workbench.report", "workbench.markdown",
                                        "workbench.stateful", "workbench.sweep", "markdown_it"))


def test_help_still_lists_every_command():
    done = subprocess.run([sys.executable, "-m", "workbench", "--help"], capture_output=True,
                          text=True, timeout=120)
    from workbench.cli import COMMANDS as ALL
    assert done.returncode == 0
    assert "{" + ",".join(ALL) + "}" in done.stdout.replace("\n", "").replace(" ", "")


def test_each_command_is_registered_by_the_module_the_table_names():
    import argparse

    from workbench.cli import COMMANDS as ALL, command_modules
    for command, module in ALL.items():
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        (only,) = command_modules(command)
        only.register(sub)
        assert only.__name__.endswith(module) and command in sub.choices


def test_a_mistyped_command_names_every_command(capsys):
    from workbench.cli import main
    with pytest.raises(SystemExit) as stop:
        main(["tabel", "uwr"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'tabel'" in err and "'table'" in err and "'render'" in err


def test_version_is_read_when_asked_for(capsys):
    from workbench import __version__
    from workbench.cli import main
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out == f"workbench {__version__}\n"


def test_import_workbench_loads_names_on_first_use():
    code = ("import sys, workbench\n"
            "before = len([m for m in sys.modules if m.startswith('workbench')])\n"
            "result = workbench.check('uwr', dice=2)\n"
            "print(before, 'numpy' in sys.modules, repr(result).splitlines()[0],"
            " workbench.ladders.solve_ladder.__name__, sorted(set(workbench.__all__) - set(dir(workbench))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[:2] == ["2", "True"]   # workbench and its start-up guard only
    assert "CheckResult uwr · exact · dice=2" in done.stdout and "solve_ladder []" in done.stdout


#: Says whether the cyclic collector ran while the program loaded, when its work started and
#: after it (a command in this process's place, as the ``workbench`` script runs it).
GC_STATES = """
import gc, json, sys
sys.argv = ["workbench", *sys.argv[1:]]
import workbench.cli as cli
states = {"loading": gc.isenabled()}
original = cli._startup.work_starts
def work_starts():
    original()
    states.update(working=gc.isenabled(), set_aside=gc.get_freeze_count())
cli._startup.work_starts = work_starts
code = cli.main()
states.update(after=gc.isenabled(), code=code)
print(json.dumps(states))
"""


def test_the_program_loads_without_the_cyclic_collector_and_works_with_it():
    done = subprocess.run([sys.executable, "-c", GC_STATES, "pmf", "uwr", "dice=3"],
                          capture_output=True, text=True, timeout=300)
    states = json.loads(done.stdout.strip().splitlines()[-1])
    assert states["code"] == 0 and states["loading"] is False
    assert states["working"] is True and states["after"] is True
    assert states["set_aside"] > 10_000   # the loaded modules, classes and rules


def test_importing_the_workbench_leaves_the_cyclic_collector_alone():
    code = ("import gc, json, workbench.cli, workbench.api; from workbench import _startup; "
            "_startup.work_starts(); _startup.exiting(); "
            "print(json.dumps([gc.isenabled(), gc.get_freeze_count()]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert json.loads(done.stdout) == [True, 0]
