"""Start-up of the ``workbench`` program against ``python -c "import numpy"``, in one run.

Run from the repository root: ``python -m benchmarks.bench_cli``. Each command runs as a whole
process (the ``workbench`` script beside this Python, output thrown away), every command once
per round, ``BENCH_REPEATS`` rounds (default 5): the best wall time of each, its ratio to the
baseline, and one PASS/FAIL line per command against the target, at most 2x the baseline.
The processes' CPU time (best of the rounds) is printed too: on a shared machine it moves
less with the load than wall time does. The load average is printed at the start and the end.

The commands: ``workbench pmf uwr dice=4``, ``workbench table uwr``, ``workbench systems`` and
``workbench render --check`` of a page with one table block (up to date, so nothing is
written). What an installed workbench does is measured: the processes share a fresh system
cache folder (``XDG_CACHE_HOME``), filled by a first run that is timed and printed apart
("first run"), and Python's bytecode is cached (a ``PYTHONPYCACHEPREFIX`` folder, filled by
the same first runs), as pip leaves it for an installed package, even where the environment
sets ``PYTHONDONTWRITEBYTECODE``.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPEATS = int(os.environ.get("BENCH_REPEATS", 5))
TARGET = 2.0
PAGE = "# Odds\n\n```workbench-table uwr pools=1-6\n```\n"


def program() -> list[str]:
    """The ``workbench`` script installed beside this Python, else ``python -m workbench``."""
    script = Path(sys.executable).with_name("workbench")
    return [str(script)] if script.exists() else [sys.executable, "-m", "workbench"]


def run(argv: list[str], env: dict) -> tuple[float, float, int]:
    """One whole process: (wall seconds, CPU seconds of the process, exit status)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()}")
    return wall, cpu, done.returncode


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="bench-cli-"))
    page = work / "rules.md"
    page.write_text(PAGE, encoding="utf-8")
    env = dict(os.environ, XDG_CACHE_HOME=str(work / "cache"),
               PYTHONPYCACHEPREFIX=str(work / "bytecode"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    commands = {
        'python -c "import numpy"': [sys.executable, "-c", "import numpy"],
        "workbench pmf uwr dice=4": [*program(), "pmf", "uwr", "dice=4"],
        "workbench table uwr": [*program(), "table", "uwr"],
        "workbench systems": [*program(), "systems"],
        "workbench render --check (one table block)": [*program(), "render", "--check", str(page)],
    }
    subprocess.run([*program(), "render", str(page)], env=env, cwd=ROOT, check=True,
                   capture_output=True)   # fills the page's region: --check then finds it current
    print(f"best of {REPEATS} rounds, whole processes; load average now: {os.getloadavg()[0]:.2f}")
    first = {name: run(argv, env) for name, argv in commands.items()}
    best = {name: [float("inf"), float("inf")] for name in commands}
    for _ in range(REPEATS):
        for name, argv in commands.items():   # taking turns: a burst of load hits all alike
            wall, cpu, _ = run(argv, env)
            best[name] = [min(best[name][0], wall), min(best[name][1], cpu)]
    base_wall, base_cpu = best['python -c "import numpy"']
    width = max(map(len, commands))
    verdicts = []
    for name in commands:
        wall, cpu = best[name]
        print(f"{name:<{width}}  {wall:6.3f} s ({wall / base_wall:4.2f}x)  cpu {cpu:6.3f} s "
              f"({cpu / base_cpu:4.2f}x)  first run {first[name][0]:6.3f} s")
        if name != 'python -c "import numpy"':
            ok = wall <= TARGET * base_wall
            verdicts.append(ok)
            print(f"  {'PASS' if ok else 'FAIL'}  at most {TARGET:g}x the baseline "
                  f"({wall / base_wall:.2f}x)")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    return 0   # the verdicts are printed: make bench runs every benchmark


if __name__ == "__main__":
    sys.exit(main())
