"""Property test: any edit of a shipped system file either loads or is a DataFileError.

Random changes (a value replaced by another type or number, a key removed, an unknown key
added) anywhere in the parsed files must never escape as a TypeError, KeyError or
traceback: the schema catches them at load time, naming the file and the entry. A file that
loads computes its default check (or refuses it with a WorkbenchError).
"""
from __future__ import annotations

import copy
import tomllib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench.errors import DataFileError, WorkbenchError
from workbench.rules.registry import PACKAGED_DATA, build_system

FILES = {p.stem: tomllib.loads(p.read_text(encoding="utf-8"))
         for p in sorted((PACKAGED_DATA / "systems").glob("*.toml"))}

VALUES = st.one_of(st.integers(-10, 10), st.booleans(), st.text(max_size=6),
                   st.lists(st.integers(-2, 12), max_size=8), st.just({}), st.just({"x": 1}),
                   st.just(["d6"]), st.just("d6"), st.none())


def paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths(value, prefix + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from paths(value, prefix + (i,))


def edit(data, path, action, value):
    data = copy.deepcopy(data)
    if not path:
        data["surprise"] = value
        return data
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if action == "delete" and isinstance(parent, dict):
        del parent[last]
    elif action == "add" and isinstance(parent[last], dict):
        parent[last]["surprise_key"] = value
    else:
        parent[last] = value
    return data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(FILES)), pick=st.integers(0, 10_000),
       action=st.sampled_from(["replace", "delete", "add"]), value=VALUES)
def test_edited_files_load_or_fail_cleanly(name, pick, action, value):
    original = FILES[name]
    all_paths = list(paths(original))
    path = all_paths[pick % len(all_paths)]
    data = edit(original, path, action, value)
    if value is None and action != "delete":
        return  # TOML has no null; a parsed file never holds None
    data["id"] = f"fuzz-{name}"
    try:
        system = build_system(data, PACKAGED_DATA / "systems" / f"{name}.toml")
    except DataFileError as exc:
        assert exc.entry and exc.problem
        return
    try:
        result = wb.check(system)
    except WorkbenchError:
        return
    # An accepted file gives a distribution: probabilities from 0 to 1 adding up to 1 (with
    # what explosion chains leave out), tiers too, and a P(pass) from 0 to 1.
    lost = float(result.lost_mass or 0.0)
    assert abs(sum(result.pmf.probabilities) + lost - 1.0) <= 1e-9
    assert all(-1e-15 <= p <= 1 + 1e-12 for p in result.pmf.probabilities)
    if result.tiers is not None:
        assert abs(sum(result.tiers.probabilities) + lost - 1.0) <= 1e-9
    if result.p_pass is not None:
        assert -1e-15 <= result.p_pass <= 1 + 1e-12
