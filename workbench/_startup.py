"""Ctrl-C while the ``workbench`` program is still loading: one line and status 130.

The command line answers Ctrl-C in :func:`workbench.cli.entry`, but before that code runs the
package loads (numpy, the rules, the command modules: up to a few seconds on a busy machine),
and Python would answer a Ctrl-C then with a traceback. When this process *is* the workbench
program (the ``workbench`` script or ``python -m workbench``), this module, imported first by
the package, makes a Ctrl-C during loading end the process at once with the same line the
commands print. Nothing has been written at that point. Imported by anything else (a
notebook, a script, the tests), it changes nothing.

The program also spares itself Python's cyclic garbage collector where it only costs time:
while it loads (thousands of long-lived objects: modules, classes, the rules), the collector
is off; when the command's own work starts, what was loaded is set aside for good
(``gc.freeze``) and the collector runs again for what the command makes; at exit, the final
scan of every object is skipped (the process ends, freeing everything). About 25 ms of a
``workbench pmf`` (docs/speed.rst). Imported by anything else, the collector is left alone.
"""
from __future__ import annotations

import gc
import os
import signal
import sys
import threading

INTERRUPTED = b"workbench: interrupted\n"


def is_the_program(argv: list[str] | None = None, orig_argv: list[str] | None = None) -> bool:
    """This process runs the ``workbench`` script or ``python -m workbench``.

    Example:
        >>> is_the_program(["/venv/bin/workbench", "table", "uwr"], [])
        True
        >>> is_the_program(["-m"], ["python", "-m", "workbench", "table"])
        True
        >>> is_the_program(["notebook.py"], ["python", "notebook.py"])
        False
    """
    argv = sys.argv if argv is None else argv
    orig_argv = getattr(sys, "orig_argv", []) if orig_argv is None else orig_argv
    script = os.path.basename(argv[0]) if argv else ""
    if script in ("workbench", "workbench.exe"):
        return True
    words = list(orig_argv[1:])
    return any(word == "-m" and following == "workbench"
               for word, following in zip(words, words[1:]))


def _interrupted_while_loading(signum, frame) -> None:
    os.write(2, INTERRUPTED)
    os._exit(130)


_interrupts = 0
#: Python code that compiled code calls back (numba's compiler, through llvmlite): an exception
#: raised there is printed as "ignored" and lost, so Ctrl-C is answered a moment later instead.
_CALLBACK_PACKAGES = (f"{os.sep}llvmlite{os.sep}",)
_LATER = 0.05


def _in_callback(frame) -> bool:
    return frame is not None and any(package in frame.f_code.co_filename
                                     for package in _CALLBACK_PACKAGES)


def _keyboard_interrupt(signum, frame) -> None:
    """Python's own answer to Ctrl-C (``KeyboardInterrupt``), remembered: a library may turn
    the interrupt into an error of its own (pydantic, building a validator in compiled code,
    reports it as a ``SchemaError``), and the program must still know it was Ctrl-C. Inside
    a callback from compiled code the exception would be swallowed, so the signal is sent
    again a moment later, when Python code of ours or numba's runs."""
    global _interrupts
    if _in_callback(frame):
        timer = threading.Timer(_LATER, signal.raise_signal, (signal.SIGINT,))
        timer.daemon = True
        timer.start()
        return
    _interrupts += 1
    raise KeyboardInterrupt


def interrupted() -> bool:
    """Whether Ctrl-C has reached the program since its own code started."""
    return _interrupts > 0


def loaded() -> None:
    """The program's own code runs now: Ctrl-C raises ``KeyboardInterrupt`` again, to be
    answered where the work is (and files are cleaned up), and is remembered. This holds
    however the program was started (the script, ``python -m workbench``, or Python calling
    :func:`workbench.cli.entry`): a handler someone else installed is left alone."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) in (_interrupted_while_loading, signal.default_int_handler):
        signal.signal(signal.SIGINT, _keyboard_interrupt)


def work_starts() -> None:
    """The command's own work starts: in the program, the objects loaded so far are set aside
    from the cyclic collector for good and the collector runs again (it was off while the
    program loaded). Anywhere else, nothing changes."""
    if _PROGRAM:
        gc.freeze()
        gc.enable()


def exiting() -> None:
    """The program is about to exit: the collector's final scan of every object is skipped
    (in the program only: the process ends and frees everything)."""
    if _PROGRAM:
        gc.freeze()


_PROGRAM = is_the_program() and threading.current_thread() is threading.main_thread()
if _PROGRAM:
    gc.disable()
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupted_while_loading)
