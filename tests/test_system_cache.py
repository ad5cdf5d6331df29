"""The system cache: a second run reads no data file, and never gives a system other than the
one its file describes now (an edit that keeps the size and time, a file added with an id
already used, a file removed, another data folder); a broken, foreign or unwritable store is
ignored. Each run is a fresh process, as the workbench program is."""
from __future__ import annotations

import json
import os
import pickle
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import workbench as wb
from workbench.rules import _system_cache, registry
from workbench.rules._frozen import Frozen

from conftest import pool_toml


def pool(id: str, faces: str) -> str:
    """A d6 pool whose faces are ``faces`` (a success on each 1)."""
    return pool_toml(id, "Cached pool", die=f"faces = {faces}", most=20, target=20)
FIVE_UP = "[0, 0, 0, 0, 1, 1]"
FOUR_UP = "[0, 0, 0, 1, 1, 1]"   # as long as FIVE_UP: the file keeps its size

PROBE = """
import json, sys, tomllib
parsed = []
loads = tomllib.loads
tomllib.loads = lambda text, **kw: (parsed.append(1), loads(text, **kw))[1]
import workbench
from workbench.rules import _system_cache
try:
    result = workbench.check(sys.argv[1], dice=2)
    out = {"p_pass": result.p_pass}
except workbench.WorkbenchError as exc:
    out = {"error": str(exc)}
out.update(parsed=len(parsed), stats=_system_cache.STATS, pydantic="pydantic" in sys.modules)
print(json.dumps(out))
"""


def p_at_least_one(dice: int, success: float) -> float:
    return 1 - (1 - success) ** dice


@pytest.fixture
def place(tmp_path):
    """A data folder of its own (WORKBENCH_DATA), an empty cache folder and config folder."""
    data = tmp_path / "data"
    (data / "systems").mkdir(parents=True)
    (data / "variants").mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("WORKBENCH_PATH", "APPDATA")}
    env.update(WORKBENCH_DATA=str(data), XDG_CACHE_HOME=str(tmp_path / "cache"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    return data, env


def probe(env: dict, system: str = "mine") -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, system], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def store(env: dict) -> Path:
    return Path(env["XDG_CACHE_HOME"]) / "workbench" / _system_cache.STORE_NAME


def test_a_second_run_parses_no_data_file_and_loads_no_schema(place):
    data, env = place
    (data / "systems" / "mine.toml").write_text(pool("mine", FIVE_UP))
    (data / "systems" / "other.toml").write_text(pool("other", FOUR_UP))
    first = probe(env)
    assert first["parsed"] == 2 and first["stats"]["written"] == 1 and first["pydantic"]
    second = probe(env)
    assert second["parsed"] == 0 and second["stats"]["read"] == 1 and not second["pydantic"]
    assert first["p_pass"] == second["p_pass"] == pytest.approx(p_at_least_one(2, 1 / 3))
    mode = stat.S_IMODE(store(env).stat().st_mode)
    assert mode == 0o600 and stat.S_IMODE(store(env).parent.stat().st_mode) == 0o700


def test_an_edit_keeping_size_and_time_is_seen(place):
    data, env = place
    path = data / "systems" / "mine.toml"
    path.write_text(pool("mine", FIVE_UP))
    assert probe(env)["p_pass"] == pytest.approx(p_at_least_one(2, 1 / 3))
    before = path.stat()
    path.write_text(pool("mine", FOUR_UP))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    after = probe(env)
    assert after["p_pass"] == pytest.approx(p_at_least_one(2, 1 / 2))
    assert after["parsed"] == 1 and after["stats"]["written"] == 1


def test_a_file_added_with_an_id_already_used_is_refused_as_without_a_cache(place):
    data, env = place
    (data / "systems" / "mine.toml").write_text(pool("mine", FIVE_UP))
    assert "p_pass" in probe(env)
    (data / "variants" / "again.toml").write_text('base = "mine"\nid = "MINE"\nname = "Again"\n')
    for _ in range(2):   # and on every run after: a catalogue with a clash is never stored
        said = probe(env)
        assert "already used by system 'mine'" in said["error"] and "again.toml" in said["error"]


def test_a_removed_file_takes_its_system_with_it(place):
    data, env = place
    (data / "systems" / "mine.toml").write_text(pool("mine", FIVE_UP))
    (data / "systems" / "gone.toml").write_text(pool("gone", FIVE_UP))
    assert "p_pass" in probe(env, "gone")
    (data / "systems" / "gone.toml").unlink()
    assert "unknown system 'gone'" in probe(env, "gone")["error"]


def test_a_broken_file_fails_every_run(place):
    data, env = place
    (data / "systems" / "mine.toml").write_text(pool("mine", FIVE_UP))
    assert "p_pass" in probe(env)
    (data / "systems" / "broken.toml").write_bytes(b"id = \"broken\"\nname = \n")
    for _ in range(2):
        assert "broken.toml" in probe(env)["error"]


def test_another_data_folder_is_another_catalogue(place, tmp_path):
    data, env = place
    (data / "systems" / "mine.toml").write_text(pool("mine", FIVE_UP))
    assert "p_pass" in probe(env)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "systems").mkdir(parents=True)
    (elsewhere / "systems" / "mine.toml").write_text(pool("mine", FOUR_UP))
    moved = probe(dict(env, WORKBENCH_DATA=str(elsewhere)))
    assert moved["p_pass"] == pytest.approx(p_at_least_one(2, 1 / 2)) and moved["parsed"] == 1


@pytest.mark.parametrize("damage", ["garbage", "truncated", "other-key", "group-writable"])
def test_a_damaged_or_foreign_store_is_ignored(place, damage):
    data, env = place
    (data / "systems" / "mine.toml").write_text(pool("mine", FIVE_UP))
    probe(env)
    path = store(env)
    if damage == "garbage":
        path.write_bytes(b"\x80\x05not a pickle at all")
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:200])
    elif damage == "other-key":   # a whole store, for other files: its systems are never used
        stored = pickle.loads(path.read_bytes())
        stored["key"] = "0" * 64
        path.write_bytes(pickle.dumps(stored))
    else:
        path.chmod(0o662)
    again = probe(env)
    assert again["p_pass"] == pytest.approx(p_at_least_one(2, 1 / 3))
    assert again["parsed"] == 1 and again["stats"]["read"] == 0
    assert again["stats"]["written"] == 1   # and the store is whole again
    assert probe(env)["stats"]["read"] == 1


def test_a_store_that_cannot_be_written_is_only_slower(place, tmp_path):
    data, env = place
    (data / "systems" / "mine.toml").write_text(pool("mine", FIVE_UP))
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    env = dict(env, XDG_CACHE_HOME=str(blocked))
    for _ in range(2):
        said = probe(env)
        assert said["p_pass"] == pytest.approx(p_at_least_one(2, 1 / 3)) and said["parsed"] == 1
        assert said["stats"]["written"] == 0 and said["stats"]["ignored"] == 1
    assert blocked.read_text() == "not a folder"


def test_the_store_never_goes_inside_the_package(place):
    data, env = place
    (data / "systems" / "mine.toml").write_text(pool("mine", FIVE_UP))
    package = Path(wb.__file__).parent
    before = sorted(p.name for p in package.iterdir())
    said = probe(dict(env, XDG_CACHE_HOME=str(package)))
    assert "p_pass" in said and said["stats"]["written"] == 0
    assert sorted(p.name for p in package.iterdir()) == before


def test_the_cache_folder_follows_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert _system_cache.cache_folder() == tmp_path / "workbench"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")   # not absolute: ignored, as XDG says
    assert _system_cache.cache_folder() == Path.home() / ".cache" / "workbench"


def test_the_key_holds_every_byte_of_every_file_and_the_code(tmp_path, monkeypatch):
    folders = [(tmp_path, "WORKBENCH_DATA")]
    (tmp_path / "systems").mkdir()
    path = tmp_path / "systems" / "mine.toml"
    path.write_text(pool("mine", FIVE_UP))
    key = _system_cache.key_of(folders, _system_cache.read_data_files(folders, 1 << 20))
    path.write_text(pool("mine", FOUR_UP))
    assert _system_cache.key_of(folders, _system_cache.read_data_files(folders, 1 << 20)) != key
    path.write_text(pool("mine", FIVE_UP))
    same = _system_cache.read_data_files(folders, 1 << 20)
    assert _system_cache.key_of(folders, same) == key
    monkeypatch.setattr(_system_cache, "code_stamp", lambda: ["other code"])
    assert _system_cache.key_of(folders, same) != key


def test_a_pipe_among_the_files_is_never_opened_for_the_key(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("named pipes are POSIX")
    (tmp_path / "systems").mkdir()
    os.mkfifo(tmp_path / "systems" / "pipe.toml")
    assert _system_cache.read_data_files([(tmp_path, "WORKBENCH_PATH")], 1 << 20) is None


def _every_system_read_back() -> dict:
    systems, _, _ = registry._read_folders(registry.data_folders(), None)
    return {sid: pickle.loads(_system_cache.pickled(system)) for sid, system in systems.items()}


def test_every_shipped_system_read_back_from_the_store_gives_the_same_odds():
    built, _, _ = registry._read_folders(registry.data_folders(), None)
    for sid, copy in _every_system_read_back().items():
        original = built[sid]
        assert copy.id == original.id and copy.aliases == original.aliases
        assert copy.ladder == original.ladder and copy.statistic_names == original.statistic_names
        assert {n: p.allowed() for n, p in copy.params.items()} == \
            {n: p.allowed() for n, p in original.params.items()}
        settings = [{}] + [copy.with_rung(rung) for rung in copy.ladder[:2]]
        for params in settings:
            assert wb.check(copy, **params).to_dict() == wb.check(original, **params).to_dict()


def test_checked_entries_read_back_answer_as_the_models_did():
    model = registry._validating_modules()[2]({"id": "x", "name": "X", "mechanic": "pool",
                                              "dice": {"d6": {"faces": [0, 0, 1], "count": 1}},
                                              "tiers": [{"name": "Low", "max": 0},
                                                        {"name": "High", "min": 1}]}, None)
    copy = pickle.loads(_system_cache.pickled(model))
    assert isinstance(copy, Frozen) and "pydantic" not in type(copy).__module__
    die = copy.dice["d6"]
    assert (die.faces, die.face_count, die.face_values) == ([0, 0, 1], 3, [0, 0, 1])
    assert dict(die) == dict(model.dice["d6"])                    # iterated as the model
    assert die == pickle.loads(_system_cache.pickled(model.dice["d6"]))
    for entry in (copy.tiers[0], model.tiers[0]):              # a table inside: neither hashes
        with pytest.raises(TypeError, match="unhashable"):
            hash(entry)
    low, high = copy.tiers                                        # a method: the model answers
    assert low.shadows(high) is model.tiers[0].shadows(model.tiers[1])
    with pytest.raises(TypeError, match="cannot be changed"):
        die.count = 3


def test_a_python_system_may_not_take_an_id_of_a_stored_file():
    from workbench.rules.scored import Outcomes
    registry.reload()
    registry._catalogue()   # the data folders' systems (from the store after the first run)
    with pytest.raises(wb.WorkbenchError, match="already used"):
        wb.register_mechanic("HKRPG", lambda p: Outcomes(("total",), {(1,): 1.0}),
                             params={"x": {"default": 1}})
    assert wb.system("hkrpg").id == "uwr" and wb.system("uwr").collection == "systems"


def test_writing_the_store_is_not_a_commands_output(monkeypatch, tmp_path):
    """Ctrl-C names the files a command wrote; the workbench's own cache is not one of them
    ("interrupted after writing .../systems.pickle" told the user of a file they never asked for)."""
    from workbench import files

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    before = len(files.replaced())
    _system_cache.write("a key", {"systems": {}})
    assert (tmp_path / "workbench" / _system_cache.STORE_NAME).is_file()
    assert files.replaced()[before:] == []
