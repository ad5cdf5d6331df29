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
"""
from __future__ import annotations

import hashlib
import os
import pickle

from ... import files
from .. import _system_cache
from ..system import System

FORMAT = 1
"""Changes whenever the file's layout does."""
NAME = "formulas.pickle"
KEPT = 256
"""The most formulas the file remembers (the newest)."""
STATS = {"found": 0, "written": 0, "ignored": 0}
"""What this process did with the file (tests read it)."""


def _code() -> str:
    return hashlib.sha256(repr(_system_cache.code_stamp()).encode()).hexdigest()


def _read() -> tuple[str, dict]:
    """(the code's stamp, the formulas' pickled systems kept for it)."""
    code = _code()
    try:
        with open(_system_cache.cache_folder() / NAME, "rb") as handle:
            if not _system_cache.trusted(os.fstat(handle.fileno())):
                STATS["ignored"] += 1
                return code, {}
            stored = pickle.loads(handle.read())
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
    """The system kept for the formula ``text``, or ``None`` when it must be compiled."""
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
    """Keep the formula's system, with the newest :data:`KEPT` formulas; any problem (a
    read-only home, a full disk, a system that cannot be pickled) leaves the file as it was."""
    try:
        code, systems = _read()
        systems.pop(text, None)   # re-added last: the newest
        systems[text] = _system_cache.pickled(system)
        systems = dict(list(systems.items())[-KEPT:])
        data = pickle.dumps({"format": FORMAT, "code": code, "systems": systems},
                            protocol=pickle.HIGHEST_PROTOCOL)
        folder = _system_cache.cache_folder()
        if folder.resolve().is_relative_to(_system_cache.PACKAGE):
            return
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        target = files.write_bytes(folder / NAME, data, "workbench cache file", output=False)
        os.chmod(target, 0o600)   # only the user may change what is unpickled
    except Exception:   # noqa: BLE001 (a file that cannot be written is only slower)
        STATS["ignored"] += 1
        return
    STATS["written"] += 1
