"""``workbench check-file``: whether data files load, and what each would need to.

A file written for an earlier version may meet a load check added since (tiers that leave a
hole, keeping the best and the worst at once, a ``pass_if`` that ignores a target...). This
command loads each file, says what is wrong and the change that makes it load, then makes a
check at the defaults, at each rung of its ladder, at each end of each whole-number parameter
and at each choice, and reports any setting the rules refuse. Exit status 0 when every file
loads and every setting is made, 1 when something is reported, 2 for bad input.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from ..api import check, load_system
from ..errors import DataFileError, WorkbenchError
from ._args import one_line

MOST_SETTINGS = 200
"""Most settings tried per file (a file of many parameters is tried at the first ones)."""

FIXES = (
    (r"leave a hole|fall in no tier|run past the first or last tier",
     "add a tier for those totals, or leave the lowest tier's min (the highest tier's max) out, "
     "so the tiers name every roll"),
    (r"at most 100|max_length.*tiers|too many tiers",
     "merge tiers: a tier's condition can name several ranges at once"),
    (r"keeping the best and the worst at once",
     "name the two parameters in a [[cancel_out]] so their points net one for one"),
    (r"cannot read what add_to_target adds",
     "read the parameter in pass_if instead, e.g. pass_if = \"total >= target + hard * 2\""),
    (r"does not read '[^']+', so the effect would change nothing",
     "read that parameter in pass_if (e.g. \"total >= target\"), or drop pass_if"),
    (r"= false has no meaning",
     "delete the effect, or limit when it applies with when = { PARAM = VALUE }"),
    (r"does not go with (keep|pick) = \"middle\"",
     "drop skip / position: the middle dice are counted from both ends"),
    (r"sets a parameter or adds to it|both sets and adds|set and add",
     "a rung either sets a parameter (set = {...}) or adds to it (add = {...}): keep one"),
    (r"cannot be read by an expression|is a word of the expressions",
     "rename it with letters A-Z and a-z, digits and _, not a word of the expressions"),
    (r"tier_order",
     "list every tier's name once in tier_order, worst first, or leave tier_order out"),
    (r"overlaps tiers",
     "make the two ranges not overlap, or give the tiers different when / all_negative"),
    (r"is already (a parameter|the total|a count|a statistic|a die's)",
     "give the statistic or count a name of its own"),
    (r"unknown key",
     "rename the key as suggested (data/README.md lists every key)"),
)
"""Load problems of earlier files and the change that makes such a file load."""


def register(sub) -> None:
    p = sub.add_parser("check-file", help="whether data files load, and what each would need "
                                          "(a file written for an earlier version, say)")
    p.add_argument("paths", nargs="+", metavar="FILE", help="system or variant data files (.toml)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run_check_file)


def fix_for(problem: str) -> str | None:
    """The change that makes a file with this load problem load, if one is known.

    Example:
        >>> fix_for("keeping the best and the worst at once has no single meaning")
        'name the two parameters in a [[cancel_out]] so their points net one for one'
    """
    return next((fix for pattern, fix in FIXES if re.search(pattern, problem)), None)


def settings(system) -> list[dict]:
    """The settings tried: the defaults, each rung, each end of each whole-number parameter
    and each choice (yes/no parameters both ways), at most :data:`MOST_SETTINGS`."""
    tried: list[dict] = [{}]
    for rung in system.ladder:
        tried.append(system.with_rung(rung))
    for name, param in system.params.items():
        if param.kind == "int":
            tried += [{name: value} for value in (param.minimum, param.maximum) if value is not None]
        elif param.kind == "bool":
            tried += [{name: True}, {name: False}]
        elif param.kind == "choice":
            tried += [{name: choice} for choice in param.choices]
    unique = list({json.dumps(s, sort_keys=True, default=str): s for s in tried}.values())
    return unique[:MOST_SETTINGS]


def check_file(path: str) -> dict:
    """``{"path", "loads", "id", "problem", "fix", "refused": [{"setting", "problem"}]}``."""
    found = {"path": path, "loads": False, "id": None, "problem": None, "fix": None, "refused": []}
    try:
        system = load_system(path)
    except DataFileError as exc:
        problem = getattr(exc, "problem", None) or str(exc)
        found.update(problem=one_line(str(exc)), fix=fix_for(problem))
        return found
    except WorkbenchError as exc:
        found.update(problem=one_line(str(exc)), fix=fix_for(str(exc)))
        return found
    found.update(loads=True, id=system.id)
    for setting in settings(system):
        try:
            check(system, **setting)
        except WorkbenchError as exc:
            found["refused"].append({"setting": setting, "problem": one_line(str(exc)),
                                     "fix": fix_for(str(exc))})
    return found


def run_check_file(args) -> int:
    reports = []
    for path in args.paths:
        if not Path(path).is_file():
            raise WorkbenchError(f"check-file: {path!r} is not a file; allowed: paths of .toml data files")
        reports.append(check_file(path))
    if args.format == "json":
        print(json.dumps(reports, indent=2, ensure_ascii=False))
    else:
        for report in reports:
            print("\n".join(_lines(report)))
    return 0 if all(r["loads"] and not r["refused"] for r in reports) else 1


def _lines(report: dict) -> list[str]:
    if not report["loads"]:
        lines = [f"{report['path']}: does not load: {report['problem']}"]
        if report["fix"]:
            lines.append(f"  to load it: {report['fix']}")
        return lines
    if not report["refused"]:
        return [f"{report['path']}: loads as {report['id']}; every setting tried is made"]
    lines = [f"{report['path']}: loads as {report['id']}; {len(report['refused'])} setting(s) refused:"]
    for refused in report["refused"]:
        setting = " ".join(f"{k}={v}" for k, v in refused["setting"].items()) or "the defaults"
        lines.append(f"  {setting}: {refused['problem']}")
        if refused["fix"]:
            lines.append(f"    to make it: {refused['fix']}")
    return lines
