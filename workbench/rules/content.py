"""What a system's numbers depend on, as one hash: the key of results kept between sessions.

A system from a data file depends on the file's bytes and its bases' files. A mechanic
written in Python depends on its code: the code of its pool function or Mechanic class (the
compiled instructions, constants and names, and those of every function they define), the
values its closures, default arguments and the globals it reads hold (a module it reads by
its file), the file the code was written in (a Sphinx
``conf.py``: a change anywhere in it, a module-level constant included, gives a new key), and
what it was registered with (parameters, ladder, defaults). A rulebook build keeps a table
only as long as this key is unchanged, so a mechanic edited in ``conf.py`` is never read
back stale.

Example:
    >>> import workbench
    >>> key = content_key(workbench.system("uwr"))
    >>> len(key), key == content_key(workbench.system("hkrpg"))
    (64, True)
"""
from __future__ import annotations

import hashlib
import inspect
import types
from pathlib import Path
from typing import Any

from ._frozen import Frozen
from .registry import get_system
from .system import System

_SEEN_DEPTH = 6
"""How deep nested code and containers are followed (a mechanic's helpers are shallow)."""


def content_key(system: System) -> str:
    """The SHA-256 (hex) of everything ``system``'s numbers depend on."""
    return _walk(system)[0]


def source_files(system: System) -> list[Path]:
    """The files ``system``'s numbers depend on: its data files, and the files its Python
    code was written in (outside the workbench itself).

    Example:
        >>> import workbench
        >>> [path.name for path in source_files(workbench.system("fons-exploding"))]
        ['fons-exploding.toml', 'fons.toml']
    """
    return _walk(system)[1]


def _walk(system: System) -> tuple[str, list[Path]]:
    digest = hashlib.sha256()
    files: list[Path] = []
    seen: set[int] = set()
    current: System | None = system
    while current is not None:
        digest.update(f"{current.id}\0{current.name}\0".encode())
        if current.source is not None:
            path = Path(current.source)
            files.append(path)
            digest.update(path.name.encode() + b"\0" + _file_bytes(path))
        else:
            _describe(digest, current.mechanic, seen, 0, files)
            for value in (current.params, current.ladder, current.pool_parameter):
                digest.update(repr(value).encode())
        current = _base_of(current)
    return digest.hexdigest(), files


def _base_of(system: System) -> System | None:
    return get_system(system.base) if system.base else None


def _file_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b"<unreadable>"


def _describe(digest, value: Any, seen: set[int], depth: int, files: list) -> None:
    """Feed ``value`` into ``digest``: code by its instructions, the rest by its parts."""
    if depth > _SEEN_DEPTH or id(value) in seen:
        digest.update(b"<again>")
        return
    if isinstance(value, (types.FunctionType, types.MethodType)):
        seen.add(id(value))
        function = value.__func__ if isinstance(value, types.MethodType) else value
        _describe_code(digest, function.__code__, seen, depth, files)
        _source_file(digest, function, files)
        for cell in function.__closure__ or ():
            try:
                _describe(digest, cell.cell_contents, seen, depth + 1, files)
            except ValueError:  # an empty cell
                digest.update(b"<empty>")
        _describe(digest, function.__defaults__, seen, depth + 1, files)
        _describe(digest, function.__kwdefaults__, seen, depth + 1, files)
        for name in sorted(_names_used(function.__code__)):   # the globals it reads, as they are
            if name in function.__globals__:
                found = function.__globals__[name]
                digest.update(name.encode())
                if isinstance(found, types.ModuleType):
                    _source_file(digest, found, files)
                else:
                    _describe(digest, found, seen, depth + 1, files)
    elif hasattr(value, "tobytes") and hasattr(value, "dtype"):   # a numpy array: every value
        digest.update(repr((value.dtype, getattr(value, "shape", None))).encode() + value.tobytes())
    elif isinstance(value, type):
        seen.add(id(value))
        digest.update(value.__qualname__.encode())
        _source_file(digest, value, files)
        for name, member in sorted(vars(value).items()):
            if not name.startswith("__") or name in ("__init__", "__call__"):
                digest.update(name.encode())
                _describe(digest, member, seen, depth + 1, files)
    elif isinstance(value, (staticmethod, classmethod)):
        _describe(digest, value.__func__, seen, depth + 1, files)
    elif isinstance(value, (list, tuple, set, frozenset)):
        seen.add(id(value))
        for item in value:
            _describe(digest, item, seen, depth + 1, files)
    elif isinstance(value, dict):
        seen.add(id(value))
        for key, item in value.items():
            digest.update(repr(key).encode())
            _describe(digest, item, seen, depth + 1, files)
    elif hasattr(value, "__dict__") and not isinstance(value, (types.ModuleType, Frozen)):   # an entry: its repr
        seen.add(id(value))
        _describe(digest, type(value), seen, depth + 1, files)
        _describe(digest, vars(value), seen, depth + 1, files)
    else:
        digest.update(repr(value).encode())


def _names_used(code: types.CodeType) -> set[str]:
    """Every global or attribute name the code (and the code it defines) mentions."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _names_used(constant)
    return names


def _describe_code(digest, code: types.CodeType, seen: set[int], depth: int, files: list) -> None:
    digest.update(code.co_code)
    digest.update(repr(code.co_names).encode())
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            _describe_code(digest, constant, seen, depth + 1, files)
        else:
            digest.update(repr(constant).encode())


PACKAGE = Path(__file__).resolve().parents[1]


def _source_file(digest, thing: Any, files: list) -> None:
    """The bytes of the file ``thing`` was written in (a notebook cell has none)."""
    try:
        name = inspect.getsourcefile(thing)
    except (TypeError, OSError):
        name = None
    if name and Path(name).is_file():
        path = Path(name).resolve()
        digest.update(_file_bytes(path))
        if PACKAGE not in path.parents and path not in files:
            files.append(path)
