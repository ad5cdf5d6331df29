"""Caches keyed by content: after a data file changes or a mechanic is registered again,
every route (check, sweeps, figures' frames, the data folders, a rulebook build) gives the
new numbers, each checked against an independent computation."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from _deps import need

import workbench as wb
from workbench.rules import DieType, PoolSpec, registry
from workbench.sweep import sweep

from conftest import pool_toml


def pool(id: str, faces: str) -> str:
    """A d6 pool whose faces are ``faces`` (a success on each 1)."""
    return pool_toml(id, "Edited pool", die=f"faces = {faces}", most=20, target=20)
FIVE_UP = "[0, 0, 0, 0, 1, 1]"
FOUR_UP = "[0, 0, 0, 1, 1, 1]"


def p_at_least_one(dice: int, success: float) -> float:
    return 1 - (1 - success) ** dice


def rewrite(path: Path, text: str) -> None:
    """Write new contents whose size or modification time differs from the old."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    if path.stat().st_mtime_ns == before:
        os.utime(path, ns=(before + 1_000_000, before + 1_000_000))


def test_sweep_and_check_agree_after_a_file_changes(tmp_path):
    path = tmp_path / "edited.toml"
    rewrite(path, pool("edited", FIVE_UP))
    first = sweep("check", {"dice": [1, 3]}, system=str(path))["p_pass"].tolist()
    assert first == pytest.approx([p_at_least_one(1, 1 / 3), p_at_least_one(3, 1 / 3)])
    rewrite(path, pool("edited", FOUR_UP))
    second = sweep("check", {"dice": [1, 3]}, system=str(path))["p_pass"].tolist()
    assert second == pytest.approx([p_at_least_one(1, 1 / 2), p_at_least_one(3, 1 / 2)])
    assert wb.check(str(path), dice=3).p_pass == pytest.approx(second[1])
    # By id too: the id of a file loaded by path finds the file as it is now.
    assert wb.check("edited", dice=3).p_pass == pytest.approx(second[1])


def test_sweep_after_a_mechanic_is_registered_again():
    d6 = DieType("d6", (0, 0, 0, 0, 1, 1))
    params = {"dice": {"default": 2, "min": 0, "max": 9}}
    try:
        wb.register_mechanic("swapped", lambda p: PoolSpec(((d6, p["dice"]),)), params=params,
                             target=None)
        before = sweep("check", {"dice": [2]}, system="swapped")["mean"].tolist()
        wb.register_mechanic("swapped", lambda p: PoolSpec(((d6, p["dice"]),), modifier=1),
                             params=params, replace=True)
        after = sweep("check", {"dice": [2]}, system="swapped")["mean"].tolist()
        assert before == pytest.approx([2 / 3]) and after == pytest.approx([2 / 3 + 1])
        assert wb.check("swapped", dice=2).mean == pytest.approx(after[0])
    finally:
        wb.unregister_mechanic("swapped")


def test_data_folder_changes_are_seen(tmp_path, monkeypatch):
    (tmp_path / "systems").mkdir()
    path = tmp_path / "systems" / "folder-pool.toml"
    rewrite(path, pool("folder-pool", FIVE_UP))
    monkeypatch.setenv("WORKBENCH_PATH", str(tmp_path))
    monkeypatch.setattr(registry, "CHECK_EVERY", 0.0)
    registry.reload()
    try:
        assert wb.check("folder-pool", dice=2).p_pass == pytest.approx(p_at_least_one(2, 1 / 3))
        rewrite(path, pool("folder-pool", FOUR_UP))
        assert wb.check("folder-pool", dice=2).p_pass == pytest.approx(p_at_least_one(2, 1 / 2))
        (tmp_path / "systems" / "second.toml").write_text(pool("second", FOUR_UP))
        assert "second" in [s.id for s in wb.systems()]
    finally:
        monkeypatch.delenv("WORKBENCH_PATH")
        registry.reload()


def test_data_folders_are_not_read_again_between_looks(tmp_path, monkeypatch):
    (tmp_path / "systems").mkdir()
    path = tmp_path / "systems" / "calm.toml"
    rewrite(path, pool("calm", FIVE_UP))
    monkeypatch.setenv("WORKBENCH_PATH", str(tmp_path))
    registry.reload()
    try:
        first = wb.system("calm")
        assert wb.system("calm") is first   # unchanged: the same loaded system
        rewrite(path, pool("calm", FOUR_UP))
        time.sleep(registry.CHECK_EVERY + 0.05)
        assert wb.system("calm") is not first
    finally:
        monkeypatch.delenv("WORKBENCH_PATH")
        registry.reload()


def test_figure_frames_after_a_file_changes(tmp_path):
    from workbench.figures.frames import curve_frame

    path = tmp_path / "curve.toml"
    rewrite(path, pool("curve", FIVE_UP))
    first = curve_frame([str(path)], pools=[2], rungs=None)["p_pass"].tolist()
    rewrite(path, pool("curve", FOUR_UP))
    second = curve_frame([str(path)], pools=[2], rungs=None)["p_pass"].tolist()
    assert first == pytest.approx([p_at_least_one(2, 1 / 3)])
    assert second == pytest.approx([p_at_least_one(2, 1 / 2)])


CONF = '''
extensions = ["workbench.sphinx"]
project = "Odds"
exclude_patterns = ["_build"]

import workbench as wb
from workbench.rules import DieType, PoolSpec

SUCCESS_FROM = {success_from}
D6 = DieType("d6", tuple(int(face >= SUCCESS_FROM) for face in range(1, 7)))
wb.register_mechanic("conf-pool", lambda p: PoolSpec(((D6, p["dice"]),)), target="target",
                     params={{"dice": {{"default": 1, "min": 0, "max": 10}},
                              "target": {{"default": 1, "min": 0, "max": 10}}}},
                     pool_parameter="dice", ladder=[{{"name": "Normal", "set": {{"target": 1}}}}],
                     replace=True)
'''


def test_a_rulebook_build_sees_a_mechanic_changed_in_conf_py(tmp_path):
    need("sphinx")
    from sphinx.cmd.build import build_main
    from docutils import nodes
    import pickle

    project = tmp_path / "docs"
    project.mkdir()
    (project / "index.rst").write_text("Odds\n====\n\n.. workbench-table:: conf-pool\n   :pools: 2\n",
                                       encoding="utf-8")

    def build_cells(success_from: int) -> list[str]:
        (project / "conf.py").write_text(CONF.format(success_from=success_from), encoding="utf-8")
        code = build_main(["-q", "-b", "html", str(project), str(project / "_build")])
        assert code == 0
        doctree = pickle.loads((project / "_build" / ".doctrees" / "index.doctree").read_bytes())
        return [entry.astext() for entry in doctree.findall(nodes.entry)]

    try:
        five_up = build_cells(5)
        four_up = build_cells(4)
    finally:
        wb.unregister_mechanic("conf-pool")
    assert five_up[-1] == f"{100 * p_at_least_one(2, 1 / 3):.1f}%"
    assert four_up[-1] == f"{100 * p_at_least_one(2, 1 / 2):.1f}%"


def test_content_key_follows_the_code():
    from workbench.rules.content import content_key

    d6 = DieType("d6", (0, 0, 0, 1, 1, 1))
    params = {"dice": {"default": 1, "min": 0, "max": 9}}
    try:
        one = content_key(wb.register_mechanic("keyed", lambda p: PoolSpec(((d6, p["dice"]),)), params=params))
        same = content_key(wb.register_mechanic("keyed", lambda p: PoolSpec(((d6, p["dice"]),)),
                                                params=params, replace=True))
        other = content_key(wb.register_mechanic("keyed", lambda p: PoolSpec(((d6, p["dice"] + 1),)),
                                                 params=params, replace=True))
        bounds = content_key(wb.register_mechanic("keyed", lambda p: PoolSpec(((d6, p["dice"]),)),
                                                  params={"dice": {"default": 1, "min": 0, "max": 8}},
                                                  replace=True))
    finally:
        wb.unregister_mechanic("keyed")
    assert one == same and len({one, other, bounds}) == 3


def test_a_python_mechanic_reading_a_changed_global_is_not_served_from_a_memo():
    from workbench.figures.frames import curve_frame

    d6 = DieType("d6", (0, 0, 0, 0, 1, 1))
    settings = {"bonus": 0}
    try:
        wb.register_mechanic("reads-a-global", lambda p: PoolSpec(((d6, p["dice"]),), modifier=settings["bonus"]),
                             params={"dice": {"default": 2, "min": 0, "max": 9}}, target=None,
                             pool_parameter="dice")
        before = sweep("check", {"dice": [2]}, system="reads-a-global")["mean"].tolist()
        curve_before = curve_frame(["reads-a-global"], pools=[2])["mean"].tolist()
        settings["bonus"] = 1   # the designer changes a setting the code reads
        after = sweep("check", {"dice": [2]}, system="reads-a-global")["mean"].tolist()
        assert before == pytest.approx([2 / 3]) and after == pytest.approx([2 / 3 + 1])
        assert wb.check("reads-a-global", dice=2).mean == pytest.approx(after[0])
        assert curve_before == pytest.approx([2 / 3])
        assert curve_frame(["reads-a-global"], pools=[2])["mean"].tolist() == pytest.approx([2 / 3 + 1])
    finally:
        wb.unregister_mechanic("reads-a-global")


SETTING = {"bonus": 0}


def test_content_key_follows_the_globals_the_code_reads():
    from workbench.rules.content import content_key

    d6 = DieType("d6", (0, 0, 0, 1, 1, 1))
    params = {"dice": {"default": 1, "min": 0, "max": 9}}

    def pool(p):
        return PoolSpec(((d6, p["dice"]),), modifier=SETTING["bonus"])

    try:
        before = content_key(wb.register_mechanic("global-keyed", pool, params=params))
        SETTING["bonus"] = 1
        after = content_key(wb.system("global-keyed"))
    finally:
        SETTING["bonus"] = 0
        wb.unregister_mechanic("global-keyed")
    assert before != after
