"""``workbench files``: which system and variant data files were loaded, and from where.

Designers keep their own systems next to the shipped ones; when a table looks wrong the first
question is which file it came from.
"""
from __future__ import annotations

import json

from ..rules import registry


def register(sub) -> None:
    p = sub.add_parser("files", help="which system and variant files were loaded, from where")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_files)


def loaded_files() -> list[dict]:
    """One entry per loaded system: its id, the file it came from, and which folder named it.

    Example:
        >>> [entry["id"] for entry in loaded_files()][:2]
        ['uwr', 'fons']
    """
    listing = getattr(registry, "loaded_files", None)
    if listing is not None:  # the registry's own account of its search path
        return [{"id": f.id, "path": str(f.path) if f.path else "", "origin": f.origin} for f in listing()]
    return [{"id": s.id, "path": str(s.source), "origin": "packaged"}
            for s in registry.all_systems().values()]


def run_files(args) -> int:
    entries = loaded_files()
    if args.format == "json":
        print(json.dumps(entries, indent=2, ensure_ascii=False))
        return 0
    width = max((len(e["id"]) for e in entries), default=0)
    origin_width = max((len(e["origin"]) for e in entries), default=0)
    for entry in entries:
        print(f"{entry['id']:<{width}}  {entry['origin']:<{origin_width}}  {entry['path']}")
    return 0
