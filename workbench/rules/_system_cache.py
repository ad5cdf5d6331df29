"""The data folders' systems kept between runs: a command finds one system without reading,
parsing and checking every data file.

Reading and checking the ~45 data files (and loading pydantic to check them) takes longer
than most commands' own work. After the data folders have been read once, their systems are
stored in one file in the user's cache folder (``$XDG_CACHE_HOME/workbench``, usually
``~/.cache/workbench``; ``%LOCALAPPDATA%\\workbench`` on Windows), with:

- the ids and aliases of every system, the file each came from and its folder, so a lookup
  needs no file parsed and a clash of two ids was already refused when the file was written;
- each system as built (pickled), its checked entries as :class:`~._frozen.Frozen` entries,
  so reading one back needs neither pydantic nor the schema.

The stored file is used only when its key matches the present one: the bytes of every data
file in every folder searched (their SHA-256, not their size or time: an edit that keeps both
is still seen), the folders and their order, the workbench's own code (each module's size and
time, as Python's bytecode cache checks them), pydantic's version and Python's. Anything else
(a file added, removed, edited or renamed, another ``WORKBENCH_PATH``) makes the systems be read
from their files again, with every check and error of a first run, and the store rewritten.

The store is written whole through :mod:`workbench.files` (never half a file), in a folder
only the user may write to, and never inside the package folder. A store that is missing,
corrupt, from another version, not the user's own, or that cannot be written is ignored
silently: the systems are then read from their files, as without a cache.
"""
from __future__ import annotations

import hashlib
import importlib.util
import io
import os
import pickle
import stat
import sys
from pathlib import Path
from typing import Any, Iterable, NamedTuple

from .. import files
from ._frozen import reduce_model

FORMAT = 1
"""Changes whenever the stored file's layout does."""
STORE_NAME = "systems.pickle"
PARTS = ("systems", "variants", "gallery")
PACKAGE = Path(__file__).resolve().parents[1]
"""The workbench package's own folder (its code is part of the key; the store never goes here)."""
STATS = {"read": 0, "written": 0, "ignored": 0}
"""What this process did with the store (tests read it)."""


class DataFile(NamedTuple):
    """One data file as read for the key: its path, folder origin, part and bytes."""

    path: Path
    origin: str
    part: str
    data: bytes


def cache_folder() -> Path:
    """Where the store lives: ``$XDG_CACHE_HOME/workbench`` (``~/.cache/workbench``), or
    ``%LOCALAPPDATA%\\workbench`` on Windows.

    Example:
        >>> cache_folder().name
        'workbench'
    """
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "workbench"
    base = os.environ.get("XDG_CACHE_HOME") or ""
    return (Path(base) if os.path.isabs(base) else Path.home() / ".cache") / "workbench"


def read_data_files(folders: Iterable[tuple[Path, str]], max_bytes: int) -> list[DataFile] | None:
    """Every ``.toml`` file of the folders' ``systems/``, ``variants/`` and ``gallery/``, with
    its bytes; ``None`` when any of them is not a regular file of at most ``max_bytes`` or
    cannot be read (the registry then reads the files itself and says what is wrong)."""
    found: list[DataFile] = []
    for folder, origin in folders:
        for part in PARTS:
            try:
                with os.scandir(folder / part) as entries:
                    names = sorted(entry.name for entry in entries if entry.name.endswith(".toml"))
            except FileNotFoundError:
                continue
            except OSError:
                return None
            for name in names:
                path = folder / part / name
                try:
                    info = os.stat(path)
                    if not stat.S_ISREG(info.st_mode) or info.st_size > max_bytes:
                        return None   # a pipe would block: never opened here
                    with open(path, "rb") as handle:
                        data = handle.read(max_bytes + 1)
                except OSError:
                    return None
                if len(data) > max_bytes:
                    return None
                found.append(DataFile(path, origin, part, data))
    return found


def code_stamp() -> list:
    """Each module of the workbench package (its size and time) and the versions of Python
    and pydantic: a system built by other code is built again."""
    stamp: list = [FORMAT, sys.version, pickle.HIGHEST_PROTOCOL]
    folders = [PACKAGE]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in sorted(entries, key=lambda e: e.name):
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name not in ("__pycache__", "data") and not entry.name.startswith("."):
                            folders.append(Path(entry.path))
                    elif entry.name.endswith(".py"):
                        info = entry.stat()
                        stamp.append((entry.path, info.st_size, info.st_mtime_ns))
        except OSError:
            stamp.append((str(folder), None))
    spec = importlib.util.find_spec("pydantic")   # found, not imported
    try:
        stamp.append(Path(spec.origin).with_name("version.py").read_bytes())
    except (AttributeError, TypeError, OSError):
        stamp.append(None)
    return stamp


def key_of(folders: Iterable[tuple[Path, str]], data_files: list[DataFile]) -> str:
    """The key a store must carry to be used: the data files' bytes, the folders searched and
    the code (see the module's description)."""
    digest = hashlib.sha256()
    digest.update(repr(code_stamp()).encode())
    digest.update(repr([(str(Path(folder).resolve()), origin) for folder, origin in folders]).encode())
    for data_file in data_files:
        digest.update(repr((data_file.origin, data_file.part, data_file.path.name,
                            len(data_file.data))).encode())
        digest.update(hashlib.sha256(data_file.data).digest())
    return digest.hexdigest()


class _Pickler(pickle.Pickler):
    """Pickles the schema's models as :class:`~._frozen.Frozen` entries."""

    def reducer_override(self, obj: Any):
        return reduce_model(obj)


def pickled(value: Any) -> bytes:
    """``value`` pickled, the schema's models stored as :class:`~._frozen.Frozen` entries."""
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


def read(key: str) -> dict | None:
    """The stored catalogue if its key is ``key`` (else ``None``, silently): ``files`` (id,
    path, origin), ``named`` (id -> aliases, path), ``systems``
    (id -> pickled system) and ``raw`` (the pickled data of every system, by id)."""
    try:
        stored = pickle.loads(read_store(STORE_NAME))
        if not isinstance(stored, dict) or stored.get("format") != FORMAT or stored.get("key") != key:
            return None
        payload = stored["payload"]
        if not all(name in payload for name in ("files", "named", "systems", "raw")):
            return None
    except OSError:   # none yet, or a cache folder that is no folder: the files are read
        return None
    except Exception:   # a corrupt or foreign store is never an error: the files are read
        STATS["ignored"] += 1
        return None
    STATS["read"] += 1
    return payload


class NotOwnStore(Exception):
    """A file of the cache folder that another user owns or others may change: never read
    (it may be unpickled)."""


def read_store(name: str) -> bytes:
    """The bytes of the cache folder's file ``name``.

    Raises:
        OSError: there is none, or it cannot be read.
        NotOwnStore: it is not the user's own (see :func:`trusted`)."""
    with open(cache_folder() / name, "rb") as handle:
        if not trusted(os.fstat(handle.fileno())):
            raise NotOwnStore(name)
        return handle.read()


def write_store(name: str, data: bytes) -> bool:
    """Write the cache folder's file ``name`` whole (or not at all), readable and writable by
    the user alone; never inside the package folder (then ``False``). Raises what writing
    raises (a read-only home, a full disk): the callers ignore it, a cache is only faster."""
    folder = cache_folder()
    if folder.resolve().is_relative_to(PACKAGE):
        return False
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    target = files.write_bytes(folder / name, data, "workbench cache file", output=False)
    os.chmod(target, 0o600)   # only the user may change what is unpickled
    return True


def trusted(info: os.stat_result) -> bool:
    """A store the user owns and only the user may change (it is unpickled)."""
    if not stat.S_ISREG(info.st_mode):
        return False
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return False
    return not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def write(key: str, payload: dict) -> None:
    """Store ``payload`` under ``key``, whole or not at all; any problem (a read-only home, a
    full disk, a system that cannot be pickled) leaves things as they were, silently."""
    try:
        data = pickle.dumps({"format": FORMAT, "key": key, "payload": payload},
                            protocol=pickle.HIGHEST_PROTOCOL)
        if not write_store(STORE_NAME, data):
            return
    except Exception:   # noqa: BLE001 (a cache that cannot be written is only slower)
        STATS["ignored"] += 1
        return
    STATS["written"] += 1
