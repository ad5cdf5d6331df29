"""Where systems come from: the data folders searched, in order, and one data file read.

Each data folder holds ``systems/`` (presets), ``variants/`` (what-if variants of another
system) and ``gallery/`` (published games' core rolls, for comparison). Folders are searched
in order (see :func:`data_folders`): the data shipped inside the package (``workbench/data``,
or the folder ``WORKBENCH_DATA`` names instead), the user's folder
(``$XDG_CONFIG_HOME/workbench``, usually ``~/.config/workbench``; ``%APPDATA%\\workbench`` on
Windows) when it exists, and every folder listed in ``WORKBENCH_PATH`` (separated by
``os.pathsep``). A file is parsed (``tomllib``), never executed: a file that is no regular
file, too large, binary, not UTF-8 or not TOML is a :class:`~workbench.errors.DataFileError`.
"""
from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

from ..errors import DataFileError, WorkbenchError

PACKAGED_DATA = Path(__file__).resolve().parents[1] / "data"
DATA_DIR = Path(os.environ.get("WORKBENCH_DATA", PACKAGED_DATA))
"""The first data folder as it was when the workbench was imported (see :func:`data_folders`)."""
PRESET_ORDER = ("uwr", "fons", "unnamed", "arrata", "erzahlspiel")
MAX_FILE_BYTES = 1 << 20
"""Largest data file read (1 MiB; a system file is a few KiB)."""

def user_folder() -> Path:
    """The user's own data folder (it need not exist)."""
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "workbench"
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "workbench"


def data_folders() -> list[tuple[Path, str]]:
    """The data folders searched, in order, each with where it was named.

    Example:
        >>> data_folders()[0][1] in ("packaged", "WORKBENCH_DATA")
        True
    """
    override = os.environ.get("WORKBENCH_DATA")
    folders = [(Path(override), "WORKBENCH_DATA") if override else (PACKAGED_DATA, "packaged")]
    if user_folder().is_dir():
        folders.append((user_folder(), "user"))
    for entry in os.environ.get("WORKBENCH_PATH", "").split(os.pathsep):
        if entry.strip():
            folders.append((Path(entry.strip()), "WORKBENCH_PATH"))
    unique, seen = [], set()
    for folder, origin in folders:
        if not folder.is_dir():
            what = "is a file, not a folder" if folder.exists() else "does not exist"
            raise WorkbenchError(f"{origin} names the folder {str(folder)!r}, which {what} "
                                 "(a data folder holds systems/ and variants/ with .toml files)")
        _check_layout(folder, origin)
        if folder.resolve() not in seen:   # a folder named twice is read once
            seen.add(folder.resolve())
            unique.append((folder, origin))
    return unique


def _check_layout(folder: Path, origin: str) -> None:
    """A data folder keeps its files in ``systems/`` and ``variants/``: a folder with .toml
    files but neither subfolder was meant as one and would silently add nothing."""
    parts = [folder / part for part in ("systems", "variants")]
    for part in parts:
        if part.exists() and not part.is_dir():
            raise WorkbenchError(f"{origin}: {str(part)!r} is a file; allowed: a folder of .toml "
                                 "files")
    if origin != "user" and not any(part.is_dir() for part in parts):
        loose = sorted(p.name for p in folder.glob("*.toml"))
        if loose:
            raise WorkbenchError(
                f"{origin} names the folder {str(folder)!r}, which holds .toml files "
                f"({', '.join(loose[:3])}{', ...' if len(loose) > 3 else ''}) but no systems/ or "
                "variants/ folder; allowed: systems in systems/, variants in variants/ inside it")


def read_bytes(path: Path) -> bytes:
    """A data file's bytes (at most one more than :data:`MAX_FILE_BYTES`): a folder, a pipe,
    a device or a file that cannot be opened is a :class:`DataFileError`."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise DataFileError(path, "(file)", f"cannot be read: {exc.strerror}") from None
    if stat.S_ISDIR(mode):
        raise DataFileError(path, "(file)", "is a folder, not a .toml file")
    if not stat.S_ISREG(mode):  # a named pipe or a device would block or never end
        raise DataFileError(path, "(file)", "is not a regular file (a named pipe, socket or "
                            "device); allowed: a .toml text file")
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_FILE_BYTES + 1)
    except IsADirectoryError:
        raise DataFileError(path, "(file)", "is a folder, not a .toml file") from None
    except OSError as exc:
        raise DataFileError(path, "(file)", f"cannot be read: {exc.strerror}") from None


def read_data(path: Path, raw: bytes | None = None) -> dict[str, Any]:
    """A data file's contents (``raw``: its bytes, already read from the regular file)."""
    if raw is None:
        raw = read_bytes(path)
    if len(raw) > MAX_FILE_BYTES:
        raise DataFileError(path, "(file)", f"is larger than {MAX_FILE_BYTES // 1024} KiB; a system "
                            "file is a few KiB of TOML")
    if b"\0" in raw:
        raise DataFileError(path, "(file)", "is a binary file, not TOML text")
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark at the start is fine
    except UnicodeDecodeError as exc:
        raise DataFileError(path, "(file)", f"is not UTF-8 text (byte {exc.start})") from None
    import tomllib  # lazy: tomllib (a system read back from the cache parses no file)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(path, "(file)", f"not valid TOML: {exc}") from None
    except RecursionError:
        raise DataFileError(path, "(file)", "is nested too deeply to be a system file") from None

