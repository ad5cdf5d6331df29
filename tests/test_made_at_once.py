"""A roll made of its parts at once (``RollSpec.of_parts``, what the pool mechanic builds for
each check) is the one ``RollSpec(...)`` makes, field for field, and is refused as it is."""
from __future__ import annotations

import re

import pytest

import workbench
from workbench.errors import WorkbenchError
from workbench.rules.roll import Die, KeptDice, RollSpec

PARTS = ("groups", "stats", "total", "modifier", "floor", "ceiling", "values", "rerolls", "kept",
         "reroll_faces", "again", "checked")


def test_every_shipped_pool_is_the_roll_the_constructor_makes():
    seen = 0
    for system in workbench.systems():
        if system.mechanic.kind != "pool":
            continue
        spec = system.mechanic.pool(system.resolve())
        if not isinstance(spec, RollSpec):
            continue
        parts = {name: getattr(spec, name) for name in PARTS}
        made, built = RollSpec.of_parts(**parts), RollSpec(**parts)
        assert made == built and hash(made) == hash(built) and list(vars(made)) == list(vars(built))
        assert made.statistic_names == built.statistic_names
        seen += 1
    assert seen > 20


def test_a_roll_made_of_its_parts_is_checked_as_every_roll():
    d6 = Die("d6", (1, 2, 3, 4, 5, 6), (False,) * 5 + (True,))
    parts = dict(zip(PARTS, (((d6, 2),), (), None, 0, None, None, {"dice": 2.5}, 0, None, None, None, None)))
    for make in (RollSpec, RollSpec.of_parts):
        with pytest.raises(WorkbenchError, match="parameter 'dice' is read by an expression"):
            make(**parts)
    parts.update(values={"dice": 2}, kept=KeptDice("d6", 1, "highest"))
    for make in (RollSpec, RollSpec.of_parts):
        with pytest.raises(WorkbenchError, match="needs dice that do not explode"):
            make(**parts)
    parts.update(kept=None)
    assert RollSpec.of_parts(**parts).values == (("dice", 2),) == RollSpec(**parts).values


def test_a_roll_reads_the_parameters_its_statistics_read_as_their_values_give_them():
    seen = 0
    for system in workbench.systems():
        statistics = getattr(system.mechanic, "statistics", None)
        if statistics is None:
            continue
        p = system.resolve()
        expected = {name: value for name, value in statistics.values(p, statistics.readable).items()
                    if name in statistics.reads}
        try:
            found = statistics.describe(system.id, p, {})[2]
        except WorkbenchError:
            continue
        assert found == expected and list(found) == list(expected), system.id
        seen += bool(found)
    assert seen >= 5


def test_a_statistic_reading_a_parameter_left_out_is_refused_naming_it(tmp_path):
    path = tmp_path / "bonus.toml"
    path.write_text("""
id = "bonus"
name = "Bonus"
mechanic = "pool"
total = "high + bonus"
[dice.d6]
sides = 6
count = 2
[params.bonus]
default = 1
min = 0
max = 3
optional = true
[stats.high]
pick = "highest"
dice = "d6"
""", encoding="utf-8")
    system = workbench.load_system(path)
    assert workbench.check(system, bonus=2).pmf.outcomes == tuple(range(3, 9))
    with pytest.raises(WorkbenchError, match="'bonus' got None; allowed: a value: this system's statistics read it"):
        workbench.check(system, bonus=None)


def test_dice_added_by_parameters_alone_are_compiled_as_every_effect_is():
    """A pool file whose every effect adds a parameter's value in dice compiles its dice at
    once; what it gives is what doing each effect gives, field for field (dice taken away by
    a value below 0 included)."""
    from itertools import product

    from workbench.rules.mechanics.pool_effects import compile_check
    seen = 0
    for system in workbench.systems():
        mechanic = system.mechanic
        prepared = getattr(mechanic, "_prepared", None)
        if prepared is None or prepared.adds_only is None:
            continue
        seen += 1
        base = system.resolve()
        names = [name for name, _ in prepared.adds_only]
        for values in product((-1, 0, 1, 3), repeat=min(len(names), 2)):
            p = dict(base, **dict(zip(names, values)))
            try:
                each = compile_check(mechanic.plan, prepared._replace(adds_only=None),
                                     mechanic._written_check, p)
            except WorkbenchError as exc:
                with pytest.raises(WorkbenchError, match=re.escape(str(exc))):
                    compile_check(mechanic.plan, prepared, mechanic._written_check, p)
                continue
            at_once = compile_check(mechanic.plan, prepared, mechanic._written_check, p)
            assert vars(at_once) == vars(each), (system.id, p)
    assert seen >= 8
