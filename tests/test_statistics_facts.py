"""What a roll's statistics are (``RollSpec.statistics_facts``) is told once when they are
checked and read by the engine on every check: it must say what walking the statistics says,
for every roll the gallery builds, for the rolls a check cuts down, and for chains of derived
statistics of any shape."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings as examples
from hypothesis import strategies as st

import workbench
from workbench.engine.wanted import cut_down
from workbench.results import reading
from workbench.rules.roll import (AllNegative, Beats, Derived, Die, Keep, Pick, RollSpec, Sum,
                                  statistics_facts)


def walked(stats) -> dict:
    """The facts, found by walking the statistics (the way the engine found them before)."""
    derived = [s for s in stats if isinstance(s, Derived)]
    reads = {}
    for stat in derived:
        needed, todo = set(stat.expression.names), list(stat.expression.names)
        while todo:
            name = todo.pop()
            for other in derived:
                if other.name == name:
                    for more in other.expression.names:
                        if more not in needed:
                            needed.add(more)
                            todo.append(more)
        reads[stat.name] = needed
    countable = True
    for stat in stats:
        if isinstance(stat, Beats):
            countable = countable and bool(stat.against) and not set(stat.dice) & set(stat.against)
        elif not isinstance(stat, (Sum, Pick, Derived, Keep)):
            countable = False
    return {"base": [s.name for s in stats if not isinstance(s, Derived)],
            "derived": [s.name for s in derived], "reads": reads,
            "from_dice": {s.name for s in stats if not isinstance(s, (Derived, AllNegative))},
            "base_names": {s.name for s in stats if not isinstance(s, Derived)},
            "names": {s.name for s in stats},
            "scored": [s.name for s in stats if isinstance(s, (Sum, Keep)) and s.score != "value"],
            "all_negative": any(isinstance(s, AllNegative) for s in stats), "countable": countable}


def told(facts) -> dict:
    return {"base": [s.name for s in facts.base], "derived": [s.name for s in facts.derived],
            "reads": {k: set(v) for k, v in facts.reads.items()}, "from_dice": set(facts.from_dice),
            "base_names": set(facts.base_names), "names": set(facts.names),
            "scored": [s.name for s in facts.scored], "all_negative": facts.all_negative,
            "countable": facts.countable}


def gallery_rolls():
    for system in workbench.systems():
        if getattr(system.mechanic, "statistics", None) is None:
            continue
        resolved, roll = system.setting({})
        if isinstance(roll, RollSpec):
            yield pytest.param(system, resolved, roll, id=system.id)


@pytest.mark.parametrize("system, resolved, roll", list(gallery_rolls()))
def test_every_gallery_roll_and_its_cut_down_roll_say_what_their_statistics_are(system, resolved, roll):
    assert told(roll.statistics_facts) == walked(roll.stats)
    wanted = reading.wanted(system.mechanic, resolved)
    if wanted is not None:
        cut = cut_down(roll, wanted)
        assert told(cut.statistics_facts) == walked(cut.stats)
        assert cut.statistic_names == ("total", *cut.count_names, *(s.name for s in cut.stats))


@examples(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.booleans()), min_size=1, max_size=6))
def test_derived_statistics_read_through_one_another_whatever_their_chain(links):
    """Each derived statistic reads one or two earlier ones (or the picks): what each reads in
    the end is what a walk through the chain finds."""
    stats = [Pick("high"), Pick("low", order="lowest")]
    for i, (a, b, twice) in enumerate(links):
        names = [s.name for s in stats]
        first, second = names[a % len(names)], names[b % len(names)]
        stats.append(Derived(f"d{i}", f"{first} + {second}" if twice else first))
    roll = RollSpec(((Die.numbered("d6", 6), 2),), stats=tuple(stats), total="high")
    assert told(roll.statistics_facts) == walked(roll.stats)
    assert told(statistics_facts(roll.stats)) == walked(roll.stats)
