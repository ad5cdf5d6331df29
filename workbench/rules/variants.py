"""Variants: a data file naming ``base = "<id>"`` and only the keys it changes, merged onto
its base's data before the schema checks it.

Tables merge key by key, anything else replaces the base's value (an ``effect`` is replaced
whole); ``aliases``, ``description`` and ``seed`` are never inherited, nor ``tier_order`` by a
variant that replaces the ``tiers``; a die's ``faces``, ``sides`` or ``percentile`` given by a
variant replaces the base's, and a statistic of another kind replaces the base's statistic.
A base is matched ignoring case; a variant whose base never loads (unknown, itself, a loop of
variants, a mechanic registered in Python) is a :class:`~workbench.errors.DataFileError`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from ..errors import DataFileError

NOT_INHERITED = ("aliases", "description", "seed")
"""Keys a variant never takes from its base (each file says its own)."""

REPLACED = ("effect",)
"""Keys whose value a variant replaces whole even when it is a table (an effect is one rule:
merging two would mix their words)."""


def _merge(base: dict, change: dict) -> dict:
    """A variant's data over its base's: tables merge key by key, anything else (and the
    keys in :data:`REPLACED`) replaces.

    Example:
        >>> _merge({"dice": {"d6": {"faces": [0, 1]}}, "params": {"x": {"effect": {"add_dice": "d6"}}}},
        ...        {"dice": {"d6": {"explode": [2]}}, "params": {"x": {"effect": {"add_to_total": 1}}}})
        {'dice': {'d6': {'faces': [0, 1], 'explode': [2]}}, 'params': {'x': {'effect': {'add_to_total': 1}}}}
    """
    out = dict(base)
    for key, value in change.items():
        if key not in REPLACED and isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out



def variant_data(path: Path, data: dict, bases: dict[str, dict],
                 registered: Mapping[str, Any]) -> tuple[dict, str]:
    """A variant's data merged onto its base's (``bases``: the data of the systems loaded so
    far, by id; ``registered``: the systems registered in Python, which have no data to
    merge onto), and the base's id."""
    base = data["base"]
    if not isinstance(base, str):
        raise DataFileError(path, "base", f"must be the id of a system (text), got {base!r}")
    found = {k.lower(): k for k in bases}
    if base.lower() not in found and id_key(str(data.get("id", ""))) == id_key(base):
        raise DataFileError(path, "base", f"{base!r} is this file's own id: a variant cannot be its "
                            "own base; allowed: the id of another system")
    if base.lower() not in found:
        python = next((k for k, system in registered.items()
                       if id_key(base) in (id_key(k), *map(id_key, system.aliases))), None)
        if python is not None:   # not "unknown": it is known, but has no file to build on
            raise DataFileError(path, "base", f"{base!r} is a mechanic registered in Python, which has "
                                "no data file to change; a variant's base must be a data-file system "
                                f"(known: {', '.join(bases)}); allowed: register the changed mechanic "
                                "in Python too (register_mechanic)")
        raise DataFileError(path, "base", f"unknown system {base!r}; known: {', '.join(bases)}")
    base = found[base.lower()]
    inherited = {k: v for k, v in bases[base].items() if k not in NOT_INHERITED}
    if "tiers" in data and "tier_order" not in data:
        inherited.pop("tier_order", None)  # the base's ranking named the base's tiers
    merged = _merge(inherited, {k: v for k, v in data.items() if k != "base"})
    _one_way_to_number(merged, data)
    _one_kind_of_statistic(merged, data, bases[base])
    return merged, base


FACE_KEYS = ("faces", "sides", "percentile")
"""A die says its faces in exactly one of these ways: a variant naming one replaces the base's."""


def _one_way_to_number(merged: dict, data: dict) -> None:
    """A variant's ``sides = 8`` over a base die with ``faces`` (or the reverse) replaces them,
    rather than leaving the die with both.

    Example:
        >>> merged = {"dice": {"d6": {"faces": [0, 1], "sides": 8, "count": 1}}}
        >>> _one_way_to_number(merged, {"dice": {"d6": {"sides": 8}}})
        >>> merged
        {'dice': {'d6': {'sides': 8, 'count': 1}}}
    """
    dice, changed = merged.get("dice"), data.get("dice")
    if not isinstance(dice, dict) or not isinstance(changed, dict):
        return
    for name, change in changed.items():
        die = dice.get(name)
        if isinstance(change, dict) and isinstance(die, dict) and any(k in change for k in FACE_KEYS):
            for key in FACE_KEYS:
                if key not in change:
                    die.pop(key, None)


def _one_kind_of_statistic(merged: dict, data: dict, base: dict) -> None:
    """A variant's ``[stats.NAME]`` of another kind than the base's (``pick`` over ``keep``)
    replaces the base's statistic whole: its ``keep`` and ``count`` belonged to the other kind
    (the merged table had both kinds, and the message named ``keep``, which the variant never
    wrote).

    Example:
        >>> merged = {"stats": {"best": {"keep": "highest", "count": 2, "pick": "highest"}}}
        >>> _one_kind_of_statistic(merged, {"stats": {"best": {"pick": "highest"}}},
        ...                        {"stats": {"best": {"keep": "highest", "count": 2}}})
        >>> merged
        {'stats': {'best': {'pick': 'highest'}}}
    """
    from .schema import STAT_KINDS  # lazy: pydantic (loaded anyway to check the file)
    stats, changed, before = merged.get("stats"), data.get("stats"), base.get("stats")
    if not all(isinstance(part, dict) for part in (stats, changed, before)):
        return
    for name, change in changed.items():
        old = before.get(name)
        if not isinstance(change, dict) or not isinstance(old, dict):
            continue
        kinds = {k for k in change if k in STAT_KINDS}
        if kinds and kinds != {k for k in old if k in STAT_KINDS}:
            stats[name] = dict(change)


def no_base(pending: list, raw: dict, registered: Mapping[str, Any]) -> None:
    """Raise for the variants whose bases never load: a loop of variants, a variant naming
    itself, an unknown base."""
    waiting = {id_key(str(data.get("id", ""))): (path, data) for path, _, data in pending}
    path, _, data = pending[0]
    chain: list[str] = []
    while True:
        chain.append(id_key(str(data.get("id", ""))))
        base = data["base"]
        if not isinstance(base, str) or id_key(base) not in waiting or id_key(base) == chain[-1]:
            variant_data(path, data, raw, registered)  # raises: not text, its own id, unknown base
        if id_key(base) in chain:
            loop = " -> ".join(chain[chain.index(id_key(base)):] + [id_key(base)])
            raise DataFileError(path, "base", f"{base!r} is a variant based on this file ({loop}): "
                                "a chain of bases must end at a system without a base; allowed: "
                                "the id of a system outside the loop")
        path, data = waiting[id_key(base)]


def id_key(name: str) -> str:
    """How ids, aliases and bases are compared: without surrounding spaces, ignoring case."""
    return name.strip().lower()
