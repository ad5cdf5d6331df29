"""A die's faces as a table, made with the die (workbench/rules/dice.py ``faces_table``): what
the exact engine reads for a die that scores no counts, the same as it worked out before."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import workbench
from workbench.engine.dice import die_outcomes
from workbench.rules.dice import Die


@pytest.mark.parametrize("die, tabled", [
    (Die.numbered("d6", 6), True),
    (Die("step", (-2, 0, 3, 9)), True),
    (Die("fate", (-1, -1, 0, 0, 1, 1)), False),              # values repeat: merged by the engine
    (Die("down", (3, 2, 1)), False),                         # not in order
    (Die.numbered("x", 6, explodes=[False] * 5 + [True]), False),
])
def test_a_die_s_table_is_its_outcomes_as_the_engine_works_them_out(die, tabled):
    assert (die.faces_table is not None) == tabled
    die_outcomes.cache_clear()
    attributes, chances, lost = die_outcomes(die, ())
    if tabled:
        rows, table_chances = die.faces_table
        assert rows.tolist() == [[v] for v in die.values] and table_chances.tolist() == [1 / die.sides] * die.sides
        assert not rows.flags.writeable and not table_chances.flags.writeable
        assert attributes is rows and chances is table_chances and lost == 0.0
    if True not in die.explodes:
        assert sorted(set(die.values)) == attributes[:, 0].tolist()
    assert np.isclose(chances.sum() + lost, 1.0)


def test_a_die_pickled_and_its_twin_that_counts_nothing_keep_the_table():
    die = Die.numbered("d6", 6, counts={"ones": [1, 0, 0, 0, 0, 0]})
    again = pickle.loads(pickle.dumps(die))
    assert again == die and again.faces_table[0].tolist() == die.faces_table[0].tolist()
    assert not again.faces_table[0].flags.writeable
    assert die.uncounted.faces_table is die.faces_table
    with pytest.raises(ValueError):
        die.faces_table[0][0, 0] = 7   # read-only: no check can change what every check reads


def test_the_gallery_s_dice_loaded_again_have_their_tables():
    seen = 0
    for system in workbench.systems():
        _, pool = system.setting({})
        for die, _ in getattr(pool, "groups", ()):
            if isinstance(die, Die):
                seen += 1
                assert (die.faces_table is not None) == (
                    True not in die.explodes and list(die.values) == sorted(set(die.values)))
    assert seen >= 40
