"""The pool mechanic's parts: every effect verb of the schema has its handler, what one check's
parameters make of the dice is a named, frozen record read back as the file says, and a
pool file's entries are checked against each other when the file is read (before any
mechanic is built)."""
from __future__ import annotations

import dataclasses

import pytest

import workbench as wb
from workbench.errors import DataFileError
from workbench.rules.mechanics.pool_effects import HANDLERS, CompiledCheck
from workbench.rules.schema import EFFECT_VERBS, validate


def test_every_effect_verb_has_exactly_one_handler():
    assert set(HANDLERS) == set(EFFECT_VERBS)


def test_a_compiled_check_says_what_the_file_makes_of_the_dice():
    """UWR: dice adds d6s, penalty removes them but keeps one, favor shifts the faces,
    rerolls and half reroll misses (data/systems/uwr.toml)."""
    system = wb.system("uwr")
    resolved = system.resolve(dice=4, favor=2, rerolls=1, half=True, penalty=9)
    compiled = system.mechanic._compile(resolved)
    assert isinstance(compiled, CompiledCheck)
    assert dict(compiled.counts) == {"d6": 1}          # 4 dice, 9 removed, at least 1 kept
    assert dict(compiled.shift) == {"d6": 2}
    assert compiled.rerolls == 2                        # one per point, one for half
    assert [name for name, _ in compiled.reroll_sources] == ["rerolls", "half"]
    assert compiled.ties == "reactor" and compiled.floor is None and compiled.modifier == 0
    assert dict(compiled.faces) == {"d6": (0, 0, 0, 0, 1, 1)}
    with pytest.raises(dataclasses.FrozenInstanceError):
        compiled.rerolls = 0
    spec = system.mechanic.pool(resolved)
    assert spec.dice == 1 and spec.rerolls == 2
    assert spec.groups[0][0].values == (0, 0, 1, 1, 1, 1)   # favor 2: a 3+ die


def test_cancel_and_explode_build_the_faces_in_the_documented_order(tmp_path):
    path = tmp_path / "order.toml"
    path.write_text("""
id = "order"
name = "Order"
mechanic = "pool"
[dice.d6]
faces = [0, 0, 0, 1, 1, 2]
count = 2
[params.worse]
default = 1
min = 0
max = 3
effect = [{ cancel = [1] }, { explode = [6] }, { shift_faces = "d6", per_point = -1 }]
[params.edge]
default = 0
min = 0
max = 6
effect = { explode_from = "d6", lowest = 5 }
""", encoding="utf-8")
    system = wb.load_system(path)
    compiled = system.mechanic._compile(system.resolve(worse=1, edge=2))
    assert compiled.cancel["d6"] == frozenset({1}) and compiled.explode["d6"] == frozenset({5, 6})
    assert compiled.shift["d6"] == -1 and compiled.counts["d6"] == 2
    die = system.mechanic.pool(system.resolve(worse=1, edge=2)).groups[0][0]
    # shifted down one face (face f shows face f - 1's value), then face 1 cancelled (-1)
    assert die.values == (-1, 0, 0, 0, 1, 1) and die.explodes == (False,) * 4 + (True, True)


def test_a_pool_file_is_checked_across_its_entries_when_it_is_read():
    data = {"id": "x", "name": "X", "mechanic": "pool", "dice": {"d6": {"sides": 6}},
            "params": {"favor": {"default": 0, "effect": {"shift_faces": "d8"}}},
            "tiers": [{"name": "all", "when": {"mood": 1}}]}
    with pytest.raises(DataFileError) as caught:
        validate(data, "x.toml")
    assert str(caught.value) == ("x.toml: entry 'params.favor.effect[0].shift_faces': unknown die "
                                 "type 'd8'; declared: d6")
    data["params"]["favor"]["effect"] = {"shift_faces": "d6"}
    with pytest.raises(DataFileError) as caught:
        validate(data, "x.toml")
    assert str(caught.value) == "x.toml: entry 'tiers[0].when.mood': unknown parameter; known: favor"


def test_an_effects_own_points_do_not_carry_to_the_next_effect(pool_file):
    """Two ``add_to_target`` effects of one parameter, the first with its own points: each
    adds by its own points (10, then the parameter's 1), so the target is 3 + 10 + 1 = 14.
    The first effect's points leaked into the second (target 23)."""
    import itertools

    path = pool_file(id="twice", name="a target raised twice", die="sides = 6\ncount = 0", dice=4, more='''
[params.target]
default = 3
min = 0
max = 40
effect = "target"

[params.hard]
default = 0
min = 0
max = 1
effect = [{ add_to_target = 1, points = "hard * 10" }, { add_to_target = 1 }]
''')
    system = wb.load_system(path)
    for hard, target in ((0, 3), (1, 14)):
        brute = sum(sum(f) >= target for f in itertools.product(range(1, 7), repeat=4)) / 6 ** 4
        assert wb.check(system, dice=4, hard=hard).p_pass == pytest.approx(brute, abs=1e-12)
