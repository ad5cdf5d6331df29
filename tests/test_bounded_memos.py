"""Every memo of the workbench holds a bounded number of entries (one helper,
:class:`workbench.limits.BoundedCache`), and a memo that starts again gives the same answers."""
from __future__ import annotations

import pickle
import re
from pathlib import Path

import workbench as wb
from workbench.limits import REMEMBERED, BoundedCache
from workbench.rules import notation, registry

PACKAGE = Path(wb.__file__).resolve().parent


def test_a_full_memo_starts_again_and_keeps_the_newest():
    memo = BoundedCache(limit=3)
    for key in "abcde":
        assert memo.keep(key, key.upper()) == key.upper()
        assert len(memo) <= 3
    assert dict(memo) == {"d": "D", "e": "E"}
    assert memo.keep("d", "again") == "again" and memo["d"] == "again"   # written over, not kept
    assert BoundedCache().limit == REMEMBERED


def test_a_memo_pickles_with_its_entries_and_its_limit():
    memo = BoundedCache(limit=7)
    memo.keep(("uwr", 3), 0.5)
    back = pickle.loads(pickle.dumps(memo, protocol=pickle.HIGHEST_PROTOCOL))
    assert type(back) is BoundedCache and back == {("uwr", 3): 0.5} and back.limit == 7


def test_a_mechanics_memos_stay_within_their_limit_and_answer_the_same():
    system = wb.system("uwr")
    mechanic = system.mechanic
    first = {dice: system.setting({"dice": dice, "target": 2})[1] for dice in range(1, 9)}
    memos = (system._settings, system._parsed, mechanic._pools, mechanic._compiled,
             mechanic._distinct, mechanic._dice_made)
    assert all(isinstance(memo, BoundedCache) for memo in memos)
    limits = [memo.limit for memo in memos]
    try:
        for memo in memos:
            memo.clear()
            memo.limit = 2
        again = {dice: system.setting({"dice": dice, "target": 2})[1] for dice in range(1, 9)}
        assert all(len(memo) <= 2 for memo in memos)
    finally:
        for memo, limit in zip(memos, limits):
            memo.limit = limit
    assert again == first
    assert [spec.dice for spec in again.values()] == list(range(1, 9))


def test_module_memos_are_bounded():
    assert isinstance(registry._BY_PATH, BoundedCache) and registry._BY_PATH.limit == 256
    assert isinstance(notation._SYSTEMS, BoundedCache)
    assert notation._SYSTEMS.limit == notation.MAX_REMEMBERED
    from workbench.results import reading_totals
    assert isinstance(reading_totals._CELLS, BoundedCache)


def test_no_memo_is_trimmed_by_hand():
    """A dict emptied once it is long (``if len(memo) > 4096: memo.clear()``) is the helper's
    job: no module but limits.py does it."""
    trimmed = re.compile(r"if len\([\w.]+\) >=? [\w.]+:\s*\n\s*[\w.]+\.(clear|popitem)\(")
    found = [str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
             if path.name != "limits.py" and trimmed.search(path.read_text(encoding="utf-8"))]
    assert found == []
    assert not [path for path in PACKAGE.rglob("*.py")
                if "OrderedDict" in path.read_text(encoding="utf-8")]
