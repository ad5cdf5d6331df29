"""The ``workbench`` command line (also ``python -m workbench``).

Each subcommand lives in a module with ``register(subparsers)`` (:data:`COMMANDS` says which);
a command loads only its own module, so ``workbench pmf`` never loads what ``report`` or
``render`` need. Bad input of any kind ends with one line on stderr and exit status 2, never a
traceback.
"""
from __future__ import annotations

import argparse
import importlib
import re
import signal
import sys
from typing import NoReturn

from .. import _startup, files
from ..errors import FormulaError, WorkbenchError
from ..validation import RENAMED
from ._args import one_line

#: Each command and the module of this package that registers and runs it, in the order
#: ``workbench --help`` lists them.
COMMANDS = {"systems": "_systems", "pmf": "_checks", "versus": "_checks", "table": "_docs",
            "ladder": "_ladder", "report": "_report", "sweep": "_sweep", "figure": "_figure",
            "render": "_render", "share": "_share", "files": "_files", "check-file": "_checkfile"}


def command_modules(command: str | None = None) -> list:
    """The modules to register: the one ``command`` needs, or every one (for ``--help``, a
    mistyped command or none).

    Example:
        >>> [m.__name__ for m in command_modules("pmf")]
        ['workbench.cli._checks']
    """
    names = [COMMANDS[command]] if command in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    return [importlib.import_module(f".{name}", __name__) for name in names]


def _command_word(words: list[str]) -> str | None:
    """The command a command line names: its first word not starting with ``-`` (the program's
    own options, ``--help`` and ``--version``, take no value)."""
    return next((str(word) for word in words if not str(word).startswith("-")), None)


class _StoreOnce(argparse._StoreAction):
    """An option that takes a value takes it once: ``--seed 1 --seed 2`` (an alias adding
    its own ``--seed``, a pasted command) is refused, as ``dice=2 dice=3`` is, rather than
    the last silently winning."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("_given_options", {})
        if self.dest in given:
            raise argparse.ArgumentError(self, f"given twice ({given[self.dest]!r} and {values!r}); "
                                               "allowed: once")
        given[self.dest] = values
        super().__call__(parser, namespace, values, option_string)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("action", None, _StoreOnce)
        self.register("action", "store", _StoreOnce)

    def error(self, message):  # one line, status 2, like every other bad input
        missing = re.fullmatch(r"argument (--[\w-]+): expected one argument", message)
        if missing:   # argparse reads "--levels -2,-1,0" as an option without its value
            option = missing.group(1)
            message += (f"; allowed: a value after {option} (one starting with '-' is written "
                        f"{option}=VALUE)")
        self.exit(2, f"workbench: error: {one_line(message)}\n")


class _Version(argparse.Action):
    """``--version``: the installed package's version, read only when asked for (reading the
    package metadata takes longer than many commands)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0,
                         help=help or "show the program's version number and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        from .._version import __version__  # lazy: importlib.metadata (reads the package metadata)
        sys.stdout.write(f"workbench {__version__}\n")
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: with ``command``, only that command's module is loaded and
    registered (a command line naming another command is then not parsed by it)."""
    parser = _Parser(prog="workbench", description="Exact odds, simulations, tables and reports "
                                                   "for dice-pool RPG systems.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for module in command_modules(command):
        module.register(sub)
    return parser


# Libraries that drive the browser for images log their own warnings ("Browser is being
# closed by watchdog"); the command says every failure itself, in one line.
QUIET_LOGGERS = ("choreographer", "kaleido", "logistro")
DRAWING = ("figure", "render", "report")
"""The commands that may draw images (and so drive the browser)."""
ERROR = "workbench: error: "


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status (0, 1 for ``render --check`` finding stale pages, 2
    for bad input, 130 for Ctrl-C). Nothing but ``--help``/``--version`` and usage errors
    leave by ``SystemExit``."""
    written_before = len(files.replaced())
    try:
        words = sys.argv[1:] if argv is None else list(argv)
        parser = build_parser(_command_word(words))
        for word in words:   # options of earlier versions: say what they are called now
            flag = str(word).partition("=")[0]
            if flag in ("--attacker", "--defender"):
                other = next(old for old in RENAMED if old != flag[2:])
                print(f"workbench: error: {flag} is now --{RENAMED[flag[2:]]} (and --{other} is "
                      f"--{RENAMED[other]})", file=sys.stderr)
                return 2
        # NAME=VALUE words may come after options too (``pmf uwr --format md dice=3``):
        # argparse leaves them over once the positional list has closed; they are added back.
        args, leftover = parser.parse_known_args(argv)
        if leftover:
            if not hasattr(args, "params") or any(word.startswith("-") for word in leftover):
                parser.error(f"unrecognized arguments: {' '.join(leftover)}")
            args.params = [*args.params, *leftover]
        if args.command in DRAWING and not getattr(args, "check", False):   # --check draws none
            import logging  # lazy: logging (only the commands that draw need it)
            for name in QUIET_LOGGERS:
                logging.getLogger(name).setLevel(logging.CRITICAL)
        _startup.work_starts()
        return int(args.run(args) or 0)
    except WorkbenchError as exc:
        print(f"{ERROR}{one_line(exc)}", file=sys.stderr)
        if isinstance(exc, FormulaError):   # a caret under the column of the formula named
            print(" " * (len(ERROR) + exc.offset) + "^", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(interrupted_line(files.replaced()[written_before:]), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


INTERRUPTED = "workbench: interrupted"
TERMINATED = "workbench: terminated"


def interrupted_line(written: list[str], how: str = INTERRUPTED) -> str:
    """What Ctrl-C prints: one line, naming any file that was already written whole (a file
    is renamed into place in one step, so it is either that or untouched).

    Example:
        >>> interrupted_line([])
        'workbench: interrupted'
        >>> interrupted_line(["odds.rst"])
        'workbench: interrupted after writing odds.rst'
    """
    if not written:
        return how
    return f"{how} after writing {', '.join(dict.fromkeys(written))}"


class Terminated(BaseException):
    """SIGTERM (``kill``, a CI time-out) while a command runs: it unwinds like Ctrl-C, so
    every temporary file is removed, and the command exits with status 143."""


def _terminate(signum, frame):
    raise Terminated


def entry(argv: list[str] | None = None) -> "NoReturn":
    """The ``workbench`` program: :func:`main`, then exit with its status. SIGTERM stops a
    command as cleanly as Ctrl-C (one line, status 143). Once the command has finished (or
    stopped), a late Ctrl-C can change nothing on disk; it is ignored while Python shuts
    down, so it cannot print a traceback or replace the status."""
    _startup.loaded()
    signal.signal(signal.SIGTERM, _terminate)
    before = len(files.replaced())
    try:
        code = main(argv)
    except KeyboardInterrupt:   # in the instant between the command's end and here
        print(interrupted_line(files.replaced()[before:]), file=sys.stderr)
        code = 130
    except Terminated:   # a file renamed into place before it is whole and new: said so
        print(interrupted_line(files.replaced()[before:], TERMINATED), file=sys.stderr)
        code = 143
    except Exception:
        if not _startup.interrupted():
            raise
        # Ctrl-C that a library turned into an error of its own (pydantic reports an
        # interrupt while it builds a validator as a SchemaError): still Ctrl-C.
        print(interrupted_line(files.replaced()[before:]), file=sys.stderr)
        code = 130
    if code not in (130, 143) and _startup.interrupted():
        # Ctrl-C that some library caught and dropped: the command ran on to its end, but
        # the user asked it to stop, and a script must see that it was stopped.
        print(interrupted_line(files.replaced()[before:]), file=sys.stderr)
        code = 130
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _startup.exiting()
    sys.exit(code)
