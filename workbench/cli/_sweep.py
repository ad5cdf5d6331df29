"""``workbench sweep``: a workbench function over a grid of settings, as CSV, JSON or Parquet.

Values are written as on the rest of the command line (a value starting with ``[`` or ``{``
is read as JSON: ``session='[{"d6": 2}, {"d6": 3}]'``); ``--grid`` is read as
:mod:`._grid` says: ranges (``2-6``), comma lists, JSON lists (``quality=["A","B"]``), quotes as
in the shell (``label="a b"``).
"""
from __future__ import annotations

import json
import math
import sys
import warnings
from pathlib import Path
from typing import Any

from .. import files, validation
from ..errors import WorkbenchError
from ..sweep import FUNCTIONS, find_target, sweep
from ._args import parse_assignments
from ._grid import grid_values, grid_words, read_value, shown_value

OUTPUTS = (".csv", ".json", ".parquet")


def register(sub) -> None:

    p = sub.add_parser("sweep", help="evaluate a function over a grid of settings "
                                     "(one row per point)")
    p.add_argument("function", help="one of " + ", ".join(FUNCTIONS))
    p.add_argument("params", nargs="*", metavar="NAME=VALUE",
                   help="settings held fixed at every point (system=uwr, session='[...]'); "
                        "the sweep's own settings are options: --seed, --progress, --trials "
                        "(trials=N works too)")
    p.add_argument("--grid", required=True,
                   help='the swept settings, NAME=VALUES words: a range of whole numbers '
                        '(players=2-6, favor=-2..2), a comma list (refill_rate=0,0.2), or a JSON '
                        'list (quality=\'["A","B"]\', session=\'[[{"d6": 2}], [{"d6": 3}]]\'); '
                        'quotes group as in the shell (label="a b"), JSON stays whole; e.g. '
                        '"players=2-6 tier=0-3 refill_rate=0,0.2"')
    p.add_argument("--trials", default=None, help="trials per point (simulations)")
    p.add_argument("--seed", default=None, help="the sweep's seed (each point's seed comes from "
                   "it); left out: a fresh one, printed so the sweep can be repeated")
    p.add_argument("--out", default=None,
                   help="results.csv, results.json or results.parquet (default: CSV on stdout)")
    p.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    p.set_defaults(run=run_sweep)


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


def partial_path(out: str, number: int = 1) -> Path:
    """Where an interrupted sweep keeps its finished points: ``results.partial.csv`` beside
    ``results.csv`` (the file asked for is left as it was); ``number`` 2, 3, ... when that
    name is taken: ``results.partial-2.csv``.

    Example:
        >>> partial_path("runs/results.csv").as_posix(), partial_path("runs/results.csv", 2).as_posix()
        ('runs/results.partial.csv', 'runs/results.partial-2.csv')
    """
    path = Path(out)
    return path.with_name(f"{path.stem}.partial{'' if number == 1 else f'-{number}'}{path.suffix}")


MAX_PARTIAL_NAMES = 1000
"""How many names (``results.partial.csv`` to ``results.partial-1000.csv``) an interrupted
sweep tries before it gives up keeping its points."""


CSV_FLOATS = "%.15g"
"""Numbers in sweep CSV: 15 significant digits, every digit a double holds without its float
noise (0.684, not 0.6839999999999999), as the JSON output rounds them."""


def _json_cells(frame):
    """``frame`` with its list and dict cells (sessions, actors) as JSON text, as every
    output writes them (CSV on stdout, CSV, JSON and Parquet files)."""
    frame = frame.copy()
    for column in frame.columns:
        if frame[column].dtype == object and frame[column].map(
                lambda v: isinstance(v, (list, dict))).any():
            frame[column] = frame[column].map(json.dumps)
    return frame


def _write(frame, out: str | None, new: bool = False) -> None:
    """``frame`` to ``out`` (stdout for ``None``) whole or not at all; ``new``: only as a new
    file (:func:`workbench.files.creating`: nothing already there is replaced)."""
    frame = _json_cells(frame)
    if out is None:
        frame.to_csv(sys.stdout, index=False, float_format=CSV_FLOATS)
        return
    suffix = Path(out).suffix.lower()
    # Written to a temporary file and renamed when complete: Ctrl-C or a full disk leaves an
    # existing file as it was.
    with (files.creating if new else files.replacing)(out, "--out") as scratch:
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

    words = grid_words(args.grid)
    check_sweep_options({name: shown_value(value) for name, value in words.items()}, "--grid")
    grid = {name: grid_values(value, name) for name, value in words.items()}
    params = parse_assignments(args.params)
    check_sweep_options(params, "NAME=VALUE")
    fixed = {name: read_value(value, name) for name, value in params.items()}
    for name in grid:
        if name in fixed:
            raise WorkbenchError(f"parameter {name!r} is both swept (--grid {name}="
                                 f"{shown_value(words[name])}) and fixed ({name}={params[name]}); "
                                 "allowed: one of them")
    if args.trials is not None:
        target = find_target(args.function)
        if not target.stochastic:   # an exact check: --trials 100 was silently not rolled
            raise WorkbenchError(f"--trials {args.trials} does not apply to sweep {target.name}: it is "
                                 "exact at every point; allowed: no --trials"
                                 + (", or sweep simulate --trials N" if target.name == "check" else ""))
        if "trials" in fixed or "trials" in grid:
            raise WorkbenchError("trials is given twice (--trials and "
                                 + ("--grid trials=...)" if "trials" in grid else "trials=...)")
                                 + "; allowed: one of them")
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
    the file asked for, nor over anything already under that name: then to the first free
    ``results.partial-2.csv``, ...), and the command says so in one line and exits 130. A
    name that cannot be written at all is said in that line (the points are lost, --out is
    not to blame)."""
    total = math.prod(len(values) for values in grid.values())
    done = f"{len(frame)} of {total} points finished"
    if out is None or frame.empty:
        print(f"workbench: interrupted ({done}; nothing written)", file=sys.stderr)
        return 130
    taken = []
    for number in range(1, MAX_PARTIAL_NAMES + 1):
        # Never over a file this run did not make: the user's own grid.partial.csv, or an
        # earlier run's finished points, stays as it was; the points go to a free name.
        partial = partial_path(out, number)
        try:
            _write(frame, str(partial), new=True)
        except files.TargetExists:
            taken.append(partial)
            continue
        except files.TargetError as exc:   # the points' file, not --out, could not be written
            print(f"workbench: interrupted ({done}; they could not be kept in {partial}: "
                  f"{exc.problem}; {out} unchanged)", file=sys.stderr)
            return 130
        there = (f" ({taken[0]} was there already, left as it was)" if len(taken) == 1 else
                 f" ({taken[0]} to {taken[-1]} were there already, left as they were)" if taken else "")
        print(f"workbench: interrupted ({done}, written to {partial}{there}; {out} unchanged)",
              file=sys.stderr)
        return 130
    print(f"workbench: interrupted ({done}; they could not be kept: {partial_path(out)} to "
          f"{partial}, every name tried, are taken; {out} unchanged)", file=sys.stderr)
    return 130
