"""Systems as data: TOML files in ``systems/`` (presets) and ``variants/`` of data folders.

Each data folder holds ``systems/`` (presets), ``variants/`` (what-if variants of another
system) and ``gallery/`` (published games' core rolls, for comparison); a system's
``collection`` says which. Folders are searched in order (see :func:`data_folders`, in
:mod:`.data_folders`): the data shipped inside the package (``workbench/data``, or the folder
``WORKBENCH_DATA`` names instead), the user's folder (``$XDG_CONFIG_HOME/workbench``, usually
``~/.config/workbench``; ``%APPDATA%\\workbench`` on Windows) when it exists, and every folder
listed in ``WORKBENCH_PATH`` (separated by ``os.pathsep``). :func:`loaded_files` says which file
each system came from.

Loaded systems are kept while their content is unchanged: a file loaded by path while its
size and modification time stay the same, the data folders' systems while no file in them
changes (checked at most every :data:`CHECK_EVERY` seconds, and at once after
:func:`reload`), a Python system until it is registered again. Registering while other
threads check is safe.

A file is parsed (``tomllib``), never executed, and checked against the schema in
:mod:`workbench.rules.schema`. A variant names ``base = "<id>"`` and only the keys it changes
(:mod:`.variants` merges it onto its base); tables merge key by key, anything else replaces
the base's value; ``aliases``, ``description`` and ``seed`` are never inherited, nor
``tier_order`` by a variant that replaces the ``tiers``; a die's ``faces``, ``sides`` or
``percentile`` given by a variant replaces the base's. Ids and aliases are matched ignoring case
and must be unique: two different files with one id are a load error.
"""
from __future__ import annotations

import os
import pickle
import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import DataFileError, WorkbenchError
from ..limits import BoundedCache
from . import _system_cache
from .data_folders import (DATA_DIR, MAX_FILE_BYTES, PACKAGED_DATA, PRESET_ORDER,  # noqa: F401
                           data_folders, read_data as _read, user_folder)
from .system import Rung, System
from .variants import NOT_INHERITED, id_key as _key, no_base, variant_data

_REGISTERED: dict[str, System] = {}
_LOCK = threading.RLock()
"""Held while the catalogue is built or Python systems are registered (threads may check
while a notebook registers)."""

CHECK_EVERY = 0.5
"""Seconds between looks at the data folders for changed, added or removed files."""


class LoadedFile(NamedTuple):
    """Where one system came from: its id, the file, and which folder (``packaged``, ``user``,
    ``WORKBENCH_PATH``, ``WORKBENCH_DATA``) or ``python`` for a registered mechanic."""

    id: str
    path: Path | None
    origin: str


def _interrupt_inside(exc: BaseException | None) -> bool:
    """Whether ``exc`` was caused by Ctrl-C: along its chain, or (pydantic's compiled core
    keeps no chain) named in the text of a ``SchemaError``."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt) or (
                type(exc).__name__ == "SchemaError" and "KeyboardInterrupt" in str(exc)):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def _validating_modules():
    """The modules that validate data files, imported on first use (pydantic takes a few
    tenths of a second to load). Pydantic reports Ctrl-C while it builds a validator as a
    ``SchemaError`` of its own; here it is Ctrl-C again (``KeyboardInterrupt``), so a
    notebook, a script or the command line sees the interrupt it asked for."""
    try:
        from . import schema  # lazy: pydantic
        from .mechanics import narrative, pool  # lazy: pydantic
    except Exception as exc:
        if _interrupt_inside(exc):
            raise KeyboardInterrupt from exc
        raise
    return narrative.NarrativeDie, pool.PoolMechanic, schema.validate


def build_system(data: dict[str, Any], path: Path | None, base: str | None = None) -> System:
    """Make a :class:`System` from parsed (and merged) data-file contents."""
    NarrativeDie, PoolMechanic, validate = _validating_modules()

    model = validate(data, path)
    if model.mechanic == "pool":
        mechanic = PoolMechanic(model.id, model, path)
    else:
        mechanic = NarrativeDie(model.id, model.constants, path)
    ladder = [Rung(r.name, dict(r.set), dict(r.add), r.example) for r in model.ladder]
    system = System(id=model.id, name=model.name, mechanic=mechanic, aliases=model.aliases,
                    seed=model.seed, pool_parameter=model.pool_parameter, ladder=ladder,
                    defaults=model.defaults, source=path, description=model.description, base=base)
    if system.pool_parameter is not None and (system.pool_parameter not in system.params
                                              or system.params[system.pool_parameter].kind != "int"):
        raise DataFileError(path, "pool_parameter", f"{system.pool_parameter!r} is not a whole-number "
                            f"parameter; known: {', '.join(system.params)}")
    for rung in system.ladder:
        problem = system.rung_problem(rung)
        if problem is not None:
            where, text = problem
            raise DataFileError(path, f"ladder.{rung.name}" + (f".{where}" if where else ""), text)
    return system


def load_system(path: str | os.PathLike, known: dict[str, dict] | None = None) -> System:
    """Load one system or variant file (a variant's base is looked up among the loaded systems).

    Example:
        >>> from workbench.rules.registry import DATA_DIR, load_system
        >>> load_system(DATA_DIR / "variants" / "fons-exploding.toml").id
        'fons-exploding'
    """
    if path is None or not isinstance(path, (str, os.PathLike)):
        raise WorkbenchError(f"load_system needs the path of a .toml file, got {path!r}")
    path = Path(path)
    data = _read(path)
    if "base" in data:
        merged, base = variant_data(path, data, known if known is not None else _catalogue().raw(), _REGISTERED)
        system = build_system(merged, path, base=base)
    else:
        system = build_system(data, path)
    if known is None:
        _not_taken(system, path)
        _FROM_FILES[_key(system.id)] = str(path)
    return system


_FROM_FILES: dict[str, str] = {}
"""Files loaded by path in this session, by the id they declared: code that keeps only a
result's system id finds the file's system again (as the file is now)."""


def _not_taken(system: System, path: Path) -> None:
    """A file loaded by path may not reuse the id or an alias of another loaded system."""
    for other_id, (aliases, source) in _catalogue().named.items():
        names = {_key(other_id), *map(_key, aliases)}
        clash = [n for n in (system.id, *system.aliases) if _key(n) in names]
        same_file = source is not None and Path(source).resolve() == path.resolve()
        if clash and not same_file:
            where = source or "registered in Python"
            raise DataFileError(path, "id" if _key(clash[0]) == _key(system.id) else "aliases",
                                f"{clash[0]!r} is already used by system {other_id!r} ({where}); "
                                "give this file its own id")



_LOOKED = {"at": -float("inf"), "stamp": None}


def _folder_stamp() -> tuple:
    """What the catalogue depends on: the folders searched and each .toml file in them with
    its size and modification time."""
    stamp: list = [tuple(_REGISTERED.items())]
    for folder, origin in data_folders():
        for part in _system_cache.PARTS:
            try:
                with os.scandir(folder / part) as entries:
                    for entry in entries:
                        if entry.name.endswith(".toml"):
                            info = entry.stat()
                            stamp.append((entry.path, info.st_mtime_ns, info.st_size))
            except OSError:
                stamp.append((str(folder / part), None, None))
    return tuple(stamp)


def _catalogue() -> "_Catalogue":
    """Every system from every data folder (read when first asked for), the raw (merged)
    data by id, and the file list; built again when a file in the data folders has changed."""
    with _LOCK:
        now = time.monotonic()
        if now - _LOOKED["at"] >= CHECK_EVERY:
            stamp = _folder_stamp()
            if stamp != _LOOKED["stamp"]:
                _build_catalogue.cache_clear()
                _LOOKED["stamp"] = stamp
            _LOOKED["at"] = time.monotonic()
        return _build_catalogue()


class _Catalogue:
    """The systems of the data folders and Python: which exist (ids, aliases, files), each
    System made when first asked for (from the system cache, see
    :mod:`workbench.rules._system_cache`, or built from its file)."""

    def __init__(self, files: list[LoadedFile], named: dict[str, tuple[tuple, str | None]],
                 systems: dict[str, System], pickled: dict[str, bytes] | None = None,
                 raw: dict[str, dict] | None = None, raw_pickled: bytes | None = None,
                 rebuild=None):
        self.files = tuple(files)
        self.named = named   # id -> (aliases, file), in load order
        self.names: dict[str, str] = {}   # id or alias (lower case) -> id, first in load order
        for system_id, (aliases, _) in named.items():
            for name in (system_id, *aliases):
                if not _looks_like_a_path(name):
                    self.names.setdefault(_key(name), system_id)
        self._systems, self._pickled = systems, pickled or {}
        self._raw, self._raw_pickled, self._rebuild = raw, raw_pickled, rebuild

    def system(self, system_id: str) -> System:
        found = self._systems.get(system_id)
        if found is None:
            with _LOCK:
                found = self._systems.get(system_id)
                if found is None:
                    try:
                        found = pickle.loads(self._pickled[system_id])
                    except Exception:   # a store the code cannot read back: the files, read again
                        self._read_files()
                        return self._systems[system_id]
                    self._systems[system_id] = found
        return found

    def systems(self) -> dict[str, System]:
        return {system_id: self.system(system_id) for system_id in self.named}

    def raw(self) -> dict[str, dict]:
        if self._raw is None:
            with _LOCK:
                try:
                    self._raw = pickle.loads(self._raw_pickled)
                except Exception:
                    self._read_files()
        return self._raw

    def _read_files(self) -> None:
        """Every system built from its file again (the store could not be read back)."""
        built = self._rebuild()
        self._systems.update(built._systems)
        self._raw = built._raw


def _read_folders(folders, data_files) -> tuple[dict[str, System], dict[str, dict], list[LoadedFile]]:
    """Every system of the data folders built from its file, in load order: presets, then
    variants (whose bases may be other variants), then the gallery. ``data_files``: the files'
    bytes as read for the system cache's key (so what is built is what the key names), or
    ``None`` to read them here."""
    systems: dict[str, System] = {}
    raw: dict[str, dict] = {}
    loaded: list[LoadedFile] = []
    taken: dict[str, tuple[str, Path]] = {}  # id or alias (lower case) -> (id, file)
    read_bytes = {str(f.path): f.data for f in data_files or ()}
    files = [(p, origin, "systems") for folder, origin in folders
             for p in sorted((folder / "systems").glob("*.toml"),
                             key=lambda p: (PRESET_ORDER.index(p.stem) if p.stem in PRESET_ORDER else 99, p.stem))]
    files += [(p, origin, "variants") for folder, origin in folders
              for p in sorted((folder / "variants").glob("*.toml"))]
    files += [(p, origin, "gallery") for folder, origin in folders
              for p in sorted((folder / "gallery").glob("*.toml"))]
    pending = []
    for path, origin, part in files:
        data = _read(path, read_bytes.get(str(path)))
        if "base" in data:
            pending.append((path, origin, data))
            continue
        system = build_system(data, path)
        system.collection = part
        _claim(taken, system, path)
        systems[system.id], raw[system.id] = system, data
        loaded.append(LoadedFile(system.id, path, origin))
    while pending:  # variants, whose bases may be other variants
        ready = [item for item in pending if isinstance(item[2]["base"], str)
                 and _key(item[2]["base"]) in {_key(k) for k in raw}]
        if not ready:
            no_base(pending, raw, _REGISTERED)
        for item in ready:
            path, origin, data = item
            merged, base = variant_data(path, data, raw, _REGISTERED)
            system = build_system(merged, path, base=base)
            system.collection = "variants"
            _claim(taken, system, path)
            systems[system.id], raw[system.id] = system, dict(merged, **{k: data[k] for k in NOT_INHERITED if k in data})
            loaded.append(LoadedFile(system.id, path, origin))
            pending.remove(item)
    return systems, raw, loaded


def _claim(taken: dict[str, tuple[str, Path]], system: System, path: Path) -> None:
    """Ids and aliases are unique, ignoring case: a second system using one is an error."""
    for name, what in [(system.id, "id"), *((a, "alias") for a in system.aliases)]:
        key = _key(name)
        if key in taken:
            other_id, other_path = taken[key]
            raise DataFileError(path, "id" if what == "id" else "aliases",
                                f"{what} {name!r} is already used by system {other_id!r} ({other_path}); "
                                "ids and aliases must be unique (ignoring case): choose another")
    for name in (system.id, *system.aliases):
        taken[_key(name)] = (system.id, path)


@lru_cache(maxsize=1)
def _build_catalogue() -> _Catalogue:
    """The data folders' systems (from the system cache when it holds these very files, else
    read from them), then the systems registered in Python."""
    folders = data_folders()
    data_files = _system_cache.read_data_files(folders, MAX_FILE_BYTES)
    key = None if data_files is None else _system_cache.key_of(folders, data_files)
    stored = None if key is None else _system_cache.read(key)

    def from_files() -> _Catalogue:
        systems, raw, loaded = _read_folders(folders, data_files)
        named = {f.id: (systems[f.id].aliases, str(f.path)) for f in loaded}
        return _Catalogue(loaded, named, systems, raw=raw)

    if stored is not None:
        catalogue = _Catalogue([LoadedFile(i, Path(p), o) for i, p, o in stored["files"]],
                               stored["named"], {}, stored["systems"], raw_pickled=stored["raw"],
                               rebuild=from_files)
    else:
        catalogue = from_files()
        if key is not None:
            try:
                pickled = {i: _system_cache.pickled(s) for i, s in catalogue._systems.items()}
                raw = _system_cache.pickled(catalogue._raw)
            except Exception:   # a system the cache cannot keep: read from the files each time
                pass
            else:
                _system_cache.write(key, {"files": [(f.id, str(f.path), f.origin) for f in catalogue.files],
                                          "named": catalogue.named, "systems": pickled, "raw": raw})
    if _REGISTERED:
        taken = {_key(n): (i, Path(p) if p else None) for i, (aliases, p) in catalogue.named.items()
                 for n in (i, *aliases)}
        files, named = list(catalogue.files), dict(catalogue.named)
        for system in _REGISTERED.values():
            system.collection = "python"
            _claim(taken, system, Path("<python>"))
            catalogue._systems[system.id] = system
            files.append(LoadedFile(system.id, None, "python"))
            named[system.id] = (system.aliases, None)
        catalogue = _Catalogue(files, named, catalogue._systems, catalogue._pickled,
                               catalogue._raw, catalogue._raw_pickled, catalogue._rebuild)
    return catalogue


def all_systems() -> dict[str, System]:
    """Every preset, variant and registered system, by id (aliases: :func:`get_system`)."""
    return _catalogue().systems()


def loaded_files() -> list[LoadedFile]:
    """Which file each system was loaded from, in load order.

    Example:
        >>> [f.origin for f in loaded_files() if f.id == "uwr"]
        ['packaged']
    """
    return list(_catalogue().files)


def reload() -> None:
    """Forget the loaded systems, so the next use reads the data folders again."""
    with _LOCK:
        _build_catalogue.cache_clear()
        _LOOKED["at"] = -float("inf")


def register(system: System, replace: bool = False) -> System:
    """Add a system made in Python (see :func:`workbench.register_mechanic`)."""
    with _LOCK:
        if not replace and system.id in _REGISTERED:
            raise WorkbenchError(f"a Python system {system.id!r} is already registered (replace=True to swap it)")
        previous = _REGISTERED.get(system.id)
        _REGISTERED[system.id] = system
        reload()
        try:
            all_systems()
        except WorkbenchError:
            if previous is None:
                del _REGISTERED[system.id]
            else:
                _REGISTERED[system.id] = previous
            reload()
            raise
    return system


def unregister(system_id: str) -> None:
    """Remove a system added with :func:`register`."""
    with _LOCK:
        if _REGISTERED.pop(system_id, None) is None:
            raise WorkbenchError(f"no Python system {system_id!r} is registered")
        reload()


_BY_PATH = BoundedCache(256)


def _load_cached(text: str) -> System:
    """:func:`load_system`, remembered while the file is unchanged (curves and tables ask for
    the same file hundreds of times)."""
    path = Path(text)
    try:
        info = path.stat()
        key = (str(path.resolve()), info.st_mtime_ns, info.st_size, id(_catalogue()))
    except (OSError, RuntimeError):
        return load_system(text)
    found = _BY_PATH.get(key)
    return found if found is not None else _BY_PATH.keep(key, load_system(text))


def get_system(name: "str | os.PathLike | System") -> System:
    """A system by id or alias (ignoring case), a path to a data file, or a System itself."""
    if type(name) is str:   # the usual case first: an id or alias as registered
        catalogue = _catalogue()
        found = catalogue.names.get(name)
        if found is not None:
            return catalogue.system(found)
    if isinstance(name, System):
        return name
    if name is None or not isinstance(name, (str, os.PathLike)):
        raise WorkbenchError(f"system: give a system id, alias or .toml path, got {name!r}")
    text = str(name)
    if _looks_like_a_path(text):
        return _load_cached(text)
    key = _key(text)
    found = _catalogue().names.get(key)
    if found is not None:
        return _catalogue().system(found)
    if key in _FROM_FILES:
        return _load_cached(_FROM_FILES[key])
    from .notation import system_for   # one-line formulas (4d6kh3): after ids, aliases, paths
    formula = system_for(text, _catalogue().names)
    if formula is not None:
        return formula
    raise WorkbenchError(f"unknown system {text!r}; known: {', '.join(all_systems())} "
                         "(or a path to a .toml data file)")


def _looks_like_a_path(text: str) -> bool:
    return text.endswith(".toml") or os.sep in text or bool(os.altsep and os.altsep in text)
