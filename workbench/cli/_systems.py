"""``workbench systems``: every system, its parameters, defaults, rule options and ladder.

Loads only the rules (no engine): listing the systems computes nothing.
"""
from __future__ import annotations

import json

from ..rules.registry import all_systems


def register(sub) -> None:
    p = sub.add_parser("systems", help="list systems, their parameters, defaults and rule options")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_systems)


def _system_listing(sys_) -> dict:
    return {
        "id": sys_.id, "name": sys_.name, "aliases": list(sys_.aliases), "seed": sys_.seed,
        "description": sys_.description, "collection": sys_.collection,
        "statistics": list(sys_.statistic_names),
        "parameters": {p.name: {"default": p.default, "allowed": p.allowed(), "help": p.help}
                       for p in sys_.params.values() if not p.rule_option},
        "rule_options": {p.name: {"default": p.default, "allowed": p.allowed(), "help": p.help}
                         for p in sys_.params.values() if p.rule_option},
        "ladder": [{"name": r.name, "settings": r.describe()} for r in sys_.ladder],
    }


def _as_typed(value) -> str:
    """A default as it is typed on the command line: ``true``, not ``True``; unset, not ``None``."""
    if value is None:
        return "(not set)"
    return str(value).lower() if isinstance(value, bool) else str(value)


SECTIONS = (("systems", "Systems and what-if variants"), ("gallery", "Published games' core rolls "
                                                                    "(the gallery, for comparison)"))


def run_systems(args) -> int:
    listing = [_system_listing(s) for s in all_systems().values()]
    if args.format == "json":
        print(json.dumps(listing, indent=2, ensure_ascii=False))
        return 0
    for collection, title in SECTIONS:
        entries = [e for e in listing if (e["collection"] == "gallery") == (collection == "gallery")]
        if entries:
            print(f"== {title} ==\n")
            _print_entries(entries)
    return 0


def _print_entries(listing: list[dict]) -> None:
    for entry in listing:
        alias = f" (alias: {', '.join(entry['aliases'])})" if entry["aliases"] else ""
        print(f"{entry['id']}{alias}: {entry['name']}")
        if entry["description"]:
            print(f"  {entry['description']}")
        for title in ("parameters", "rule_options"):
            if entry[title]:
                print(f"  {title.replace('_', ' ')}:")
                # One column for "name = default", as wide as the longest, so the
                # allowed values line up under each other.
                heads = {name: f"{name} = {_as_typed(info['default'])}" for name, info in entry[title].items()}
                width = max(map(len, heads.values()))
                for name, info in entry[title].items():
                    print(f"    {heads[name]:<{width}}  {info['allowed']}; {info['help']}")
        if entry["ladder"]:
            print("  ladder: " + "; ".join(f"{r['name']} ({r['settings']})" for r in entry["ladder"]))
        if len(entry["statistics"]) > 1:
            print("  statistics: " + ", ".join(entry["statistics"]))
        print()
