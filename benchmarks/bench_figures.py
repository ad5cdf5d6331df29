"""Figures in batches: ``workbench render`` of a page with 6 PNG figure blocks against one with
1, whole processes, in one run.

Run from the repository root: ``python -m benchmarks.bench_figures``. Before every run the
page's figure folder (``workbench-figures/``, where render keeps what it drew) is emptied and
the page put back as written, so every figure is drawn. The two pages take turns, best of
``BENCH_REPEATS`` rounds (default 3); printed: each time, the ratio, one PASS/FAIL line
against the target (6 figures in at most 2x the time of 1: one browser draws them all) and
the load average at the start and the end. Needs Chromium (``/usr/bin/chromium``).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPEATS = int(os.environ.get("BENCH_REPEATS", 3))
TARGET = 2.0
#: Six different figures (each its own file), the first of them alone on the one-figure page.
BLOCKS = ["```workbench-figure uwr kind=ladder pools=1-6\n```\n",
          "```workbench-figure arrata pools=1-8\n```\n",
          "```workbench-figure fons kind=difference base=fons-exploding pools=1-6\n```\n",
          "```workbench-figure unnamed kind=check\n```\n",
          "```workbench-figure erzahlspiel kind=outcomes\n```\n",
          "```workbench-figure uwr compare=fons,arrata pools=1-6\n```\n"]


def program() -> list[str]:
    script = Path(sys.executable).with_name("workbench")
    return [str(script)] if script.exists() else [sys.executable, "-m", "workbench"]


def timed_render(folder: Path, text: str) -> float:
    """Render the page from scratch (no figure drawn before) in a whole process: seconds."""
    page = folder / "rules.md"
    shutil.rmtree(folder / "workbench-figures", ignore_errors=True)
    page.write_text(text, encoding="utf-8")
    start = time.perf_counter()
    done = subprocess.run([*program(), "render", str(page)], cwd=ROOT, capture_output=True,
                          text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"render failed ({done.returncode}): {done.stderr.strip()}")
    drawn = sorted((folder / "workbench-figures").glob("*.png"))
    if len(drawn) != text.count("workbench-figure "):
        raise SystemExit(f"render drew {len(drawn)} PNG files for {text.count('workbench-figure ')} blocks")
    return seconds


def main() -> int:
    pages = {"1 figure": "# Odds\n\n" + BLOCKS[0], "6 figures": "# Odds\n\n" + "\n".join(BLOCKS)}
    folders = {name: Path(tempfile.mkdtemp(prefix="bench-figures-")) for name in pages}
    print(f"workbench render, PNG figures drawn from scratch; best of {REPEATS} rounds; "
          f"load average now: {os.getloadavg()[0]:.2f}")
    best = {name: float("inf") for name in pages}
    for _ in range(REPEATS):
        for name, text in pages.items():   # taking turns: a burst of load hits both alike
            best[name] = min(best[name], timed_render(folders[name], text))
    ratio = best["6 figures"] / best["1 figure"]
    for name in pages:
        print(f"render, {name:9s}  {best[name]:6.2f} s")
    ok = ratio <= TARGET
    print(f"{'PASS' if ok else 'FAIL'}  6 figures in at most {TARGET:g}x the time of 1 ({ratio:.2f}x)")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    for folder in folders.values():
        shutil.rmtree(folder, ignore_errors=True)
    return 0   # the verdict is printed: make bench runs every benchmark


if __name__ == "__main__":
    sys.exit(main())
