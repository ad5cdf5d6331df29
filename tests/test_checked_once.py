"""What a data file's checks build once and share: each die type as the file writes it, the
statistics of a roll checked once per description. Every check still rolls the same dice
and reads the same statistics as one built from scratch, and what is refused stays refused."""
from __future__ import annotations

import pytest

import workbench
from workbench.errors import WorkbenchError
from workbench.rules.roll import Derived, Die, Keep, RollSpec, checked_statistics


def built_from_scratch(mechanic, name, resolved):
    """Die type ``name`` for these parameters, by the path every changed die takes."""
    written, mechanic._as_written[name] = mechanic._as_written[name], None
    try:
        return mechanic._die(name, mechanic._compile(resolved), {}, resolved)
    finally:
        mechanic._as_written[name] = written


@pytest.mark.parametrize("system, params", [
    ("ironsworn", {"stat": 2}),
    ("cortex-prime", {"d4": 1, "d6": 2, "d8": 2, "d10": 2, "d12": 1}),
    ("savage-worlds", {"trait": "d12"}),
    ("owod", {"dice": 12}),
    ("cofd", {"dice": 10}),
])
def test_dice_as_written_are_the_dice_built_per_check(system, params):
    sys_ = workbench.system(system)
    mechanic = sys_.mechanic
    resolved = sys_.resolve(**params)
    pool = mechanic._pool_new(resolved)
    for die, _ in pool.groups:
        again = built_from_scratch(mechanic, die.name, resolved)
        assert die == again and hash(die) == hash(again)
        assert die.counts == again.counts and die.explodes == again.explodes


def test_a_die_an_effect_changes_is_built_for_the_check():
    # Chronicles of Darkness: 9-again and 8-again explode more faces of the d10 than the file
    sys_ = workbench.system("cofd")
    mechanic = sys_.mechanic
    for again in mechanic.plan.params["again"].choices:
        resolved = sys_.resolve(dice=5, again=again)
        pool = mechanic._pool_new(resolved)
        for die, _ in pool.groups:
            assert die == built_from_scratch(mechanic, die.name, resolved)
        d10 = dict((die.name, die) for die, _ in pool.groups)["d10"]
        exploding = [face for face, flag in enumerate(d10.explodes, start=1) if flag]
        assert exploding == {"10-again": [10], "9-again": [9, 10], "8-again": [8, 9, 10]}.get(again, [])
        written = mechanic._as_written["d10"]   # the file's d10 explodes no face itself
        assert not any(written.explodes) and (d10 is written) == (again == "no-again")


def test_a_record_of_checked_statistics_is_adopted_only_for_the_same_statistics():
    d6 = Die.numbered("d6", 6)
    stats = (Keep("best", take=2), Derived("double", "best * 2"))
    record = checked_statistics(stats, ["d6"], (), (), "best")
    first = RollSpec(((d6, 3),), stats=stats, total="best")
    second = RollSpec(((d6, 4),), stats=stats, total="best", checked=record)
    for name in ("_scores", "_parsed_scores", "_early", "total", "statistic_names"):
        assert getattr(first, name) == getattr(second, name)
    assert second.total is record.total and second.checked is None and first == RollSpec(
        ((d6, 3),), stats=stats, total="best", checked=record)
    for _ in range(2):   # other statistics: checked (and refused) whatever record is given
        with pytest.raises(WorkbenchError, match="unknown name 'worst'"):
            RollSpec(((d6, 3),), stats=(Keep("best", take=2), Derived("bad", "worst * 2")), total="best",
                     checked=record)
    with pytest.raises(WorkbenchError, match="unknown die type 'd8'"):
        RollSpec(((d6, 3),), stats=(Keep("best", take=2, dice=("d8",)),), total="best",
                 checked=checked_statistics((Keep("best", take=2, dice=("d8",)),), ["d6", "d8"], (), (), "best"))


def test_every_file_roll_reads_what_a_roll_checked_from_scratch_reads():
    adopted = 0
    for sys_ in workbench.systems():
        mechanic = sys_.mechanic
        record = getattr(mechanic, "_statistics_checked", None)
        if record is None:
            continue
        pool = mechanic._pool_new(sys_.resolve())
        fresh = RollSpec(pool.groups, stats=pool.stats, total=record.key[4], modifier=pool.modifier,
                         floor=pool.floor, ceiling=pool.ceiling, values=pool.values, rerolls=pool.rerolls,
                         kept=pool.kept, reroll_faces=pool.reroll_faces, again=pool.again)
        for name in ("_scores", "_parsed_scores", "_early", "statistic_names"):
            assert getattr(pool, name) == getattr(fresh, name), (sys_.id, name)
        assert pool.total == fresh.total and pool == fresh and hash(pool) == hash(fresh)
        adopted += pool.total is record.total
    assert adopted >= 30   # the gallery's files with statistics adopt their load-time record
