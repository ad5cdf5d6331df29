"""Systems as data: TOML files under ``systems/`` (presets) and ``variants/`` of the data folder.

The data folder ships inside the package (``workbench/data``); ``WORKBENCH_DATA`` names another.

A file is parsed (``tomllib``), never executed. A variant names ``base = "<id>"`` and only
the keys it changes; tables merge key by key, anything else replaces the base's value.
Malformed files raise :class:`~workbench.errors.DataFileError` naming file, entry, problem.
"""
from __future__ import annotations

import os
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import DataFileError, WorkbenchError
from .mechanics import MECHANICS
from .system import Rung, System

DATA_DIR = Path(os.environ.get("WORKBENCH_DATA", Path(__file__).resolve().parents[1] / "data"))
PRESET_ORDER = ("uwr", "fons", "unnamed", "arrata", "erzahlspiel")
_KEYS = {"id", "name", "base", "aliases", "mechanic", "seed", "pool_parameter", "description",
         "constants", "defaults", "rule_options", "ladder"}


def _read(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(path, "(file)", f"not valid TOML: {exc}") from None
    except OSError as exc:
        raise DataFileError(path, "(file)", f"cannot be read: {exc.strerror}") from None


def _merge(base: dict, change: dict) -> dict:
    out = dict(base)
    for key, value in change.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _ladder(path, entries) -> list[Rung]:
    if not isinstance(entries, list):
        raise DataFileError(path, "ladder", "must be a list of [[ladder]] tables")
    rungs = []
    for i, entry in enumerate(entries):
        where = f"ladder[{i}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise DataFileError(path, where, "needs a name")
        extra = set(entry) - {"name", "set", "add", "example"}
        if extra:
            raise DataFileError(path, where, f"unknown keys {sorted(extra)}; allowed: name, set, add, example")
        add = entry.get("add", {})
        if any(isinstance(v, bool) or not isinstance(v, int) for v in add.values()):
            raise DataFileError(path, where + ".add", "values must be whole numbers")
        rungs.append(Rung(entry["name"], dict(entry.get("set", {})), dict(add), entry.get("example", "")))
    return rungs


def build_system(data: dict[str, Any], path: Path, base: str | None = None) -> System:
    """Make a :class:`System` from parsed (and merged) data-file contents."""
    unknown = set(data) - _KEYS
    if unknown:
        raise DataFileError(path, sorted(unknown)[0], f"unknown key; allowed: {', '.join(sorted(_KEYS))}")
    for key in ("id", "name", "mechanic"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise DataFileError(path, key, "is required (text)")
    kind = data["mechanic"]
    if kind not in MECHANICS:
        raise DataFileError(path, "mechanic", f"unknown {kind!r}; known: {', '.join(MECHANICS)}")
    constants = data.get("constants", {})
    if not isinstance(constants, dict):
        raise DataFileError(path, "constants", "must be a table")
    mechanic = MECHANICS[kind](data["id"], constants, path, tuple(data.get("rule_options", ())))
    try:
        system = System(id=data["id"], name=data["name"], mechanic=mechanic,
                        aliases=data.get("aliases", ()), seed=data.get("seed", ""),
                        pool_parameter=data.get("pool_parameter"), ladder=_ladder(path, data.get("ladder", [])),
                        defaults=data.get("defaults", {}), source=path,
                        description=data.get("description", ""), base=base)
    except DataFileError:
        raise
    except WorkbenchError as exc:
        raise DataFileError(path, "defaults", str(exc)) from None
    if system.pool_parameter is not None and system.pool_parameter not in system.params:
        raise DataFileError(path, "pool_parameter", f"unknown parameter {system.pool_parameter!r}")
    for rung in system.ladder:
        for key in [*rung.set, *rung.add]:
            if key not in system.params:
                raise DataFileError(path, f"ladder.{rung.name}", f"unknown parameter {key!r}")
    return system


def load_system(path: str | os.PathLike, known: dict[str, dict] | None = None) -> System:
    """Load one system or variant file.

    Example:
        >>> from workbench.rules.registry import DATA_DIR, load_system
        >>> load_system(DATA_DIR / "variants" / "fons-exploding.toml").id
        'fons-exploding'
    """
    path = Path(path)
    data = _read(path)
    if "base" in data:
        bases = known if known is not None else _raw_presets()
        base = data["base"]
        if base not in bases:
            raise DataFileError(path, "base", f"unknown system {base!r}; known: {', '.join(bases)}")
        data = _merge({k: v for k, v in bases[base].items() if k not in ("aliases",)}, data)
        data.pop("base")
        return build_system(data, path, base=base)
    return build_system(data, path)


@lru_cache(maxsize=1)
def _raw_presets() -> dict[str, dict]:
    out = {}
    paths = sorted((DATA_DIR / "systems").glob("*.toml"),
                   key=lambda p: (PRESET_ORDER.index(p.stem) if p.stem in PRESET_ORDER else 99, p.stem))
    for path in paths:
        data = _read(path)
        if "id" not in data:
            raise DataFileError(path, "id", "is required (text)")
        out[data["id"]] = data
    return out


@lru_cache(maxsize=1)
def all_systems() -> dict[str, System]:
    """Every preset and shipped variant, by id (aliases are resolved by :func:`get_system`)."""
    raw = _raw_presets()
    systems = {sid: build_system(dict(data), DATA_DIR / "systems" / f"{sid}.toml") for sid, data in raw.items()}
    for path in sorted((DATA_DIR / "variants").glob("*.toml")):
        variant = load_system(path, raw)
        if variant.id in systems:
            raise DataFileError(path, "id", f"{variant.id!r} is already taken")
        systems[variant.id] = variant
    return systems


def get_system(name: "str | os.PathLike | System") -> System:
    """A system by id, alias, or path to a data file."""
    if isinstance(name, System):
        return name
    text = str(name)
    if text.endswith(".toml") or os.sep in text:
        return load_system(text)
    systems = all_systems()
    key = text.strip().lower()
    for system in systems.values():
        if key == system.id or key in system.aliases:
            return system
    raise WorkbenchError(f"unknown system {text!r}; known: {', '.join(systems)} "
                         "(or a path to a .toml data file)")
