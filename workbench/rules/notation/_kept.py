"""Formulas' systems kept between runs: ``workbench pmf "3d6"`` in a new process finds the
system its formula was compiled into by an earlier run, without loading the formula grammar
and the data files' schema (lark and pydantic: about half of such a command's time).

One file, ``formulas.pickle``, in the workbench's cache folder (beside the system cache,
:mod:`workbench.rules._system_cache`, and kept the same way): for each formula's text, the
system it was compiled into, its schema entries stored as plain frozen entries. The file is
used only when written by this very code (the workbench's modules, Python's and pydantic's
versions: the system cache's key without the data files); a system read back must be the
formula's own. Only formulas compiled without an error are kept, the newest :data:`KEPT`.
A missing, corrupt, foreign (another user's, writable by others) or unwritable file is
ignored silently: the formula is then compiled as without it.

The file serves a process until it has loaded the compiler: from then on a formula compiles
in well under a millisecond, quicker than the file is read. The formulas a process compiles
are written to the file once, when it exits (a sweep over a thousand formulas writes once).
"""
from __future__ import annotations

import atexit
import hashlib
import pickle
import sys
import threading

from .. import _system_cache
from ..system import System

FORMAT = 1
"""Changes whenever the file's layout does."""
NAME = "formulas.pickle"
KEPT = 256
"""The most formulas the file remembers (the newest)."""
STATS = {"found": 0, "written": 0, "ignored": 0}
"""What this process did with the file (tests read it)."""
COMPILER = ("lark", "workbench.rules.schema")
"""The modules compiling a formula loads (the grammar and the schema, with pydantic)."""
_PENDING: dict[str, bytes] = {}
"""The formulas this process compiled, pickled, to be written when it exits (the newest)."""
_LOCK = threading.Lock()


def _code() -> str:
    return hashlib.sha256(repr(_system_cache.code_stamp()).encode()).hexdigest()


def _read() -> tuple[str, dict]:
    """(the code's stamp, the formulas' pickled systems kept for it)."""
    code = _code()
    try:
        stored = pickle.loads(_system_cache.read_store(NAME))
    except OSError:
        return code, {}
    except Exception:   # a corrupt file is never an error: written over by the next formula
        STATS["ignored"] += 1
        return code, {}
    if (not isinstance(stored, dict) or stored.get("format") != FORMAT
            or stored.get("code") != code or not isinstance(stored.get("systems"), dict)):
        return code, {}
    return code, stored["systems"]


def known(text: str) -> System | None:
    """The system kept for the formula ``text``, or ``None`` when it must be compiled (always,
    once this process has loaded the compiler)."""
    if all(name in sys.modules for name in COMPILER):
        return None
    _, systems = _read()
    data = systems.get(text)
    if data is None:
        return None
    try:
        system = pickle.loads(data)
    except Exception:   # noqa: BLE001 (a system the code cannot read back: compiled again)
        system = None
    if not isinstance(system, System) or system.id != text or system.collection != "formula":
        STATS["ignored"] += 1
        return None
    STATS["found"] += 1
    return system


def remember(text: str, system: System) -> None:
    """Keep the formula's system: pickled now (as built, before any check fills its memos),
    written with the others when the process exits (:func:`write_pending`)."""
    try:
        data = _system_cache.pickled(system)
    except Exception:   # noqa: BLE001 (a system that cannot be pickled is compiled each time)
        STATS["ignored"] += 1
        return
    with _LOCK:
        if not _PENDING:
            atexit.register(write_pending)
        _PENDING.pop(text, None)   # re-added last: the newest
        _PENDING[text] = data
        if len(_PENDING) > KEPT:
            del _PENDING[next(iter(_PENDING))]


def write_pending() -> None:
    """Write the formulas compiled so far into the file, with the newest :data:`KEPT` of
    those it holds; any problem (a read-only home, a full disk) leaves it as it was."""
    with _LOCK:
        pending = dict(_PENDING)
        _PENDING.clear()
    if not pending:
        return
    try:
        code, systems = _read()
        for text in pending:
            systems.pop(text, None)
        systems = dict(list({**systems, **pending}.items())[-KEPT:])
        data = pickle.dumps({"format": FORMAT, "code": code, "systems": systems},
                            protocol=pickle.HIGHEST_PROTOCOL)
        if not _system_cache.write_store(NAME, data):
            return
    except Exception:   # noqa: BLE001 (a file that cannot be written is only slower)
        STATS["ignored"] += 1
        return
    STATS["written"] += 1
