"""The page index (workbench/markdown/_index.py): a page read before is found again without
the CommonMark parser, with exactly the blocks the parser finds; anything doubtful (an edit,
other code, a damaged, foreign or unwritable file, an entry that does not fit the page) sends
the page back to the parser."""
from __future__ import annotations

import json
import os
import re
import errno

import pytest
from hypothesis import given, settings, strategies as st

from workbench import files as workbench_files, markdown
from workbench.markdown import _index, _read_blocks, find_blocks, split_lines

PAGE = ("# Odds\n\n```workbench-table uwr pools=1-3\ncaption=At B3\n```\n\n"
        "<!-- workbench:begin -->\nold\n<!-- workbench:end -->\n\n"
        "    ```workbench-table uwr\n    ```\n\n<!-- workbench-ladder uwr -->\n")


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for name in _index.STATS:
        monkeypatch.setitem(_index.STATS, name, 0)
    return tmp_path / "cache" / "workbench" / _index.NAME


def parsed(text: str) -> list[tuple]:
    return [_fields(spec) for spec in _read_blocks(text, split_lines(text), "page.md")]


def _fields(spec) -> tuple:
    return (spec.kind, spec.words, spec.options, spec.first, spec.last, spec.region)


def without_parser(monkeypatch):
    def no_parser(*args):
        raise AssertionError("the parser was asked")
    monkeypatch.setattr(markdown, "_read_blocks", no_parser)


def test_a_page_read_before_is_found_again_without_the_parser(cache, monkeypatch):
    first = [_fields(s) for s in find_blocks(PAGE, "page.md")]
    assert first == parsed(PAGE) and len(first) == 2 and first[0][5] == (6, 8)
    assert _index.STATS["written"] == 1 and cache.stat().st_mode & 0o777 == 0o600
    without_parser(monkeypatch)
    assert [_fields(s) for s in find_blocks(PAGE, "page.md")] == first
    assert _index.STATS["found"] == 1
    with pytest.raises(AssertionError, match="parser"):   # an unknown page still needs it
        find_blocks(PAGE + "\nmore\n", "page.md")


def test_an_edited_page_is_read_again(cache):
    find_blocks(PAGE)
    edited = PAGE.replace("pools=1-3", "pools=2-4")
    assert [_fields(s) for s in find_blocks(edited)] == parsed(edited)
    assert find_blocks(edited)[0].words == "uwr pools=2-4"
    assert len(json.loads(cache.read_text())["pages"]) == 2


def test_a_page_with_an_error_is_never_kept(cache):
    broken = "```workbench-table uwr\n```\n\n<!-- workbench:begin -->\nno end\n"
    for _ in range(2):
        with pytest.raises(Exception, match="has no end marker"):
            find_blocks(broken, "odds.md")
    assert not cache.exists() and _index.STATS["found"] == 0


@pytest.mark.parametrize("damage", ["not json {", '{"format": 1}', "[]",
                                    '{"format": 1, "code": "x", "pages": {}}'])
def test_a_damaged_or_other_codes_file_is_ignored_and_written_again(cache, damage):
    cache.parent.mkdir(parents=True)
    cache.write_text(damage)
    os.chmod(cache, 0o600)
    assert [_fields(s) for s in find_blocks(PAGE)] == parsed(PAGE)
    stored = json.loads(cache.read_text())
    assert stored["code"] == _index._code_stamp() and len(stored["pages"]) == 1


@pytest.mark.parametrize("tamper", [
    lambda b: b[0].__setitem__(3, 999),          # a line the page does not have
    lambda b: b[0].__setitem__(5, [8, 6]),       # a region ending before it begins
    lambda b: b[0].__setitem__(2, [["1", "x"]]),  # an option line that is no number
    lambda b: b.append("block"),
])
def test_an_entry_that_does_not_fit_the_page_is_ignored(cache, monkeypatch, tamper):
    find_blocks(PAGE)
    stored = json.loads(cache.read_text())
    tamper(next(iter(stored["pages"].values())))
    cache.write_text(json.dumps(stored))
    assert [_fields(s) for s in find_blocks(PAGE)] == parsed(PAGE)
    assert _index.STATS["found"] == 0 and _index.STATS["ignored"] == 1


def test_a_file_others_may_write_is_not_used(cache, monkeypatch):
    find_blocks(PAGE)
    stored = json.loads(cache.read_text())
    key = next(iter(stored["pages"]))
    stored["pages"][key] = []   # says: no blocks
    cache.write_text(json.dumps(stored))
    os.chmod(cache, 0o666)
    assert len(find_blocks(PAGE)) == 2 and _index.STATS["found"] == 0
    os.chmod(cache, 0o600)   # the user's own: believed (so the test above could fail)
    cache.write_text(json.dumps(stored))
    assert find_blocks(PAGE) == [] and _index.STATS["found"] == 1


def test_a_full_disk_only_costs_time(cache, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(workbench_files, "write_bytes", full)
    assert [_fields(s) for s in find_blocks(PAGE)] == parsed(PAGE)
    assert not cache.exists() and _index.STATS["ignored"] == 1


def test_a_cache_folder_that_is_a_file_only_costs_time(cache):
    cache.parent.parent.mkdir(parents=True)
    cache.parent.write_text("a file, not a folder")
    assert [_fields(s) for s in find_blocks(PAGE)] == parsed(PAGE)
    assert _index.STATS["ignored"] == 1


def test_the_newest_pages_are_kept(cache, monkeypatch):
    monkeypatch.setattr(_index, "KEPT", 3)
    pages = [PAGE.replace("pools=1-3", f"pools=1-{n}") for n in range(3, 8)]
    for page in pages:
        find_blocks(page)
    kept = json.loads(cache.read_text())["pages"]
    assert list(kept) == [_index._page_key(page) for page in pages[-3:]]


FRAGMENTS = ["```workbench-table uwr pools=1-3\n```\n", "~~~workbench-figure blades\nx=1\n~~~\n",
             "<!-- workbench-ladder uwr -->\n", "<!-- workbench:begin -->\nold\n<!-- workbench:end -->\n",
             "    ```workbench-table uwr\n", "```python\ncode\n```\n", "- a list\n", "> quote\n",
             "\n", "text with é and 🎲\n", "\r\n", "<div>\n\nhtml\n</div>\n",
             "<!--\nworkbench-table uwr\n-->\n", "```workbench-table cortex-prime \"caption=a b\"\n```\n"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=8))
def test_the_index_answers_what_the_parser_answers(tmp_path_factory, parts):
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("index"))   # the fixture's, per example
    text = "".join(parts)
    try:
        expected = parsed(text)
    except Exception as problem:   # the page's own error: never kept, said every time
        with pytest.raises(type(problem), match="^" + re.escape(str(problem)) + "$"):
            find_blocks(text, "page.md")
        return
    assert [_fields(s) for s in find_blocks(text, "page.md")] == expected   # read, kept
    assert [_fields(s) for s in find_blocks(text, "page.md")] == expected   # from the index


def test_a_filled_page_is_kept_as_it_is_written(monkeypatch):
    filled = markdown.fill_markdown("# Odds\n\n```workbench-table uwr pools=1-2\n```\n").text
    without_parser(monkeypatch)   # the next run (a --check) finds it in the index
    assert [_fields(s) for s in find_blocks(filled)] == parsed(filled)
    assert find_blocks(filled)[0].region == (5, len(split_lines(filled)) - 1)
