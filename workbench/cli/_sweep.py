"""``workbench sweep``: a workbench function over a grid of settings, as CSV, JSON or Parquet.

Values are written as on the rest of the command line; a grid value may be a range of whole
numbers (``2-6``, ``-2..2``) or a comma list (``0,0.1,0.2``, ``uwr,fons``); a value starting
with ``[`` or ``{`` is read as JSON (``session='[{"d6": 2}, {"d6": 3}]'``).
"""
from __future__ import annotations

import json
import math
import re
import shlex
import sys
import warnings
from pathlib import Path
from typing import Any

from .. import files, validation
from ..errors import WorkbenchError
from ..sweep import FUNCTIONS, sweep
from ._args import parse_assignments

OUTPUTS = (".csv", ".json", ".parquet")
_RANGE = re.compile(r"^(-?\d+)(?:-|\.\.)(-?\d+)$")


def register(sub) -> None:

    p = sub.add_parser("sweep", help="evaluate a function over a grid of settings "
                                     "(one row per point)")
    p.add_argument("function", help="one of " + ", ".join(FUNCTIONS))
    p.add_argument("params", nargs="*", metavar="NAME=VALUE",
                   help="settings held fixed at every point (system=uwr, session='[...]'); "
                        "the sweep's own settings are options: --seed, --progress, --trials "
                        "(trials=N works too)")
    p.add_argument("--grid", required=True,
                   help='the swept settings, e.g. "players=2-6 tier=0-3 refill_rate=0,0.2"')
    p.add_argument("--trials", default=None, help="trials per point (simulations)")
    p.add_argument("--seed", default=None, help="the sweep's seed (each point's seed comes from "
                   "it); left out: a fresh one, printed so the sweep can be repeated")
    p.add_argument("--out", default=None,
                   help="results.csv, results.json or results.parquet (default: CSV on stdout)")
    p.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    p.set_defaults(run=run_sweep)


def read_value(text: str, name: str) -> Any:
    """One command-line value as a Python value: JSON for ``[``/``{``, whole numbers,
    numbers, ``true``/``false``, else the text itself.

    Example:
        >>> [read_value(t, "x") for t in ("4", "-1", "0.25", "true", "green", '[{"d6": 2}]')]
        [4, -1, 0.25, True, 'green', [{'d6': 2}]]
    """
    text = text.strip()
    if text[:1] and text[:1] in "[{":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise WorkbenchError(f"{name} got {text!r}; allowed: JSON ({exc.msg})") from None
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def grid_values(text: str, name: str) -> list:
    """A grid value: ``2-6`` / ``2..6`` (whole numbers, ends included) or a comma list.

    Example:
        >>> grid_values("2-4", "players"), grid_values("-2..0", "favor"), grid_values("0,0.5", "r")
        ([2, 3, 4], [-2, -1, 0], [0, 0.5])
    """
    match = _RANGE.match(text.strip())
    if match:
        low, high = int(match.group(1)), int(match.group(2))
        if low > high:
            raise WorkbenchError(f"--grid {name} got {text!r}; allowed: a range LOW-HIGH with "
                                 "LOW <= HIGH, or a comma list")
        if high - low >= 100_000:
            raise WorkbenchError(f"--grid {name} got {text!r}; allowed: ranges of at most "
                                 "100,000 values")
        return list(range(low, high + 1))
    if text.strip()[:1] and text.strip()[:1] in "[{":
        return [read_value(text, f"--grid {name}")]
    items = [item for item in text.split(",")]
    if any(not item.strip() for item in items):
        raise WorkbenchError(f"--grid {name} got {text!r}; allowed: a range such as 2-6 or "
                             "values separated by commas")
    return [read_value(item, f"--grid {name}") for item in items]


def parse_grid(text: str) -> dict[str, list]:
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise WorkbenchError(f"--grid {text!r}: {exc}") from None
    if not words:
        raise WorkbenchError("--grid got ''; allowed: NAME=VALUES words such as "
                             '"players=2-6 tier=0-3"')
    assignments = parse_assignments(words, "--grid entry")
    check_sweep_options(assignments, "--grid")
    return {name: grid_values(value, name) for name, value in assignments.items()}


def check_out(out: str | None) -> None:
    """``--out``, checked before the first point runs: a suffix the sweep writes, pyarrow for
    Parquet, and a file that can be written (:func:`workbench.files.check_target`)."""
    if out is None:
        return
    suffix = Path(out).suffix.lower()
    files.check_target(out, "--out", example="results" + (suffix if suffix in OUTPUTS else ".csv"))
    if suffix not in OUTPUTS:
        raise WorkbenchError(f"--out got {out!r}; allowed: a path ending in " + ", ".join(OUTPUTS))
    if suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401  # lazy: only for Parquet output
        except ImportError:
            raise WorkbenchError("--out results.parquet needs pyarrow; install it with "
                                 "pip install 'dice-workbench[parquet]', or write .csv / .json") from None


def partial_path(out: str) -> Path:
    """Where an interrupted sweep keeps its finished points: ``results.partial.csv`` beside
    ``results.csv`` (the file asked for is left as it was).

    Example:
        >>> partial_path("runs/results.csv").as_posix()
        'runs/results.partial.csv'
    """
    path = Path(out)
    return path.with_name(f"{path.stem}.partial{path.suffix}")


CSV_FLOATS = "%.15g"
"""Numbers in sweep CSV: 15 significant digits, every digit a double holds without its float
noise (0.684, not 0.6839999999999999), as the JSON output rounds them."""


def _write(frame, out: str | None) -> None:
    if out is None:
        frame.to_csv(sys.stdout, index=False, float_format=CSV_FLOATS)
        return
    suffix = Path(out).suffix.lower()
    frame = frame.copy()
    for column in frame.columns:   # lists and dicts (sessions, actors) as JSON text
        if frame[column].dtype == object and frame[column].map(
                lambda v: isinstance(v, (list, dict))).any():
            frame[column] = frame[column].map(json.dumps)
    # Written to a temporary file and renamed when complete: Ctrl-C or a full disk leaves an
    # existing file as it was.
    with files.replacing(out, "--out") as scratch:
        if suffix == ".csv":
            frame.to_csv(scratch, index=False, float_format=CSV_FLOATS)
        elif suffix == ".json":
            frame.to_json(scratch, orient="records", indent=1, double_precision=15)
        else:
            frame.to_parquet(scratch, index=False)


SWEEP_OPTIONS = {
    "seed": "--seed {value} (the sweep's seed; each point's seed comes from it)",
    "progress": "--progress (a progress bar on stderr)",
    "trials": None,   # a setting of the functions too: trials=N works as --trials N
    "executor": "none on the command line, which runs the sweep on this machine (executor= "
                "is an option of the Python sweep())",
    "function": "the function as the word after sweep (workbench sweep {value} ...)",
    "grid": "--grid \"NAME=VALUES ...\" for the swept settings",
}
"""Names that are options of the sweep itself, not settings of the function it evaluates:
given as NAME=VALUE (fixed or in --grid) each is refused in one line saying where it goes."""


def check_sweep_options(assignments: dict[str, str], where: str) -> None:
    """Refuse a NAME=VALUE that is an option of the sweep itself (``seed=3``: ``--seed 3``).

    Example:
        >>> check_sweep_options({"dice": "4", "trials": "100"}, "NAME=VALUE")
        >>> check_sweep_options({"seed": "3"}, "NAME=VALUE")
        Traceback (most recent call last):
        ...
        workbench.errors.WorkbenchError: NAME=VALUE seed=3 is an option of the sweep, not a setting of the function; allowed: --seed 3 (the sweep's seed; each point's seed comes from it)
    """
    for name, value in assignments.items():
        if SWEEP_OPTIONS.get(name):
            raise WorkbenchError(f"{where} {name}={value} is an option of the sweep, not a "
                                 "setting of the function; allowed: "
                                 + SWEEP_OPTIONS[name].format(value=value))


def run_sweep(args) -> int:

    grid = parse_grid(args.grid)
    params = parse_assignments(args.params)
    check_sweep_options(params, "NAME=VALUE")
    fixed = {name: read_value(value, name) for name, value in params.items()}
    for name in grid:
        if name in fixed:
            raise WorkbenchError(f"parameter {name!r} is both swept (--grid) and fixed")
    if args.trials is not None:
        if "trials" in fixed or "trials" in grid:
            raise WorkbenchError("trials is given twice (--trials and NAME=VALUE)")
        fixed["trials"] = validation.trials(None, args.trials, "--trials")
    seed = None if args.seed is None else validation.seed(None, args.seed, "--seed", text=True)
    check_out(args.out)   # before the first point runs
    with warnings.catch_warnings():   # an interrupted sweep is said below, in one line
        warnings.filterwarnings("ignore", message="sweep interrupted")
        frame = sweep(args.function, grid, seed=seed, progress=True if args.progress else False,
                      **fixed)
    if frame.attrs.get("partial"):
        return _interrupted(frame, grid, args.out)
    _write(frame, args.out)
    if args.out is not None:
        print(f"wrote {args.out} ({len(frame)} points, {len(frame.columns)} columns)")
    if seed is None and "seed" in frame.columns:  # the points were simulated: say how to repeat
        print(f"sweep seed {frame.attrs['seed']} (repeat with --seed {frame.attrs['seed']})",
              file=sys.stderr)
    return 0


def _interrupted(frame, grid: dict, out: str | None) -> int:
    """Ctrl-C stopped the sweep: the finished points go to ``results.partial.csv`` (never over
    the file asked for), and the command says so in one line and exits 130."""
    total = math.prod(len(values) for values in grid.values())
    done = f"{len(frame)} of {total} points finished"
    if out is None or frame.empty:
        print(f"workbench: interrupted ({done}; nothing written)", file=sys.stderr)
        return 130
    partial = partial_path(out)
    _write(frame, str(partial))
    print(f"workbench: interrupted ({done}, written to {partial}; {out} unchanged)",
          file=sys.stderr)
    return 130
