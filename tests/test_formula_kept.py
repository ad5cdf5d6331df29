"""Formulas' systems kept between runs (workbench/rules/notation/_kept.py): a formula compiled
by an earlier run is read back without the grammar and the schema, and answers exactly as the
compiled one; anything doubtful (other code, a damaged, foreign or unwritable file, a system
that is not the formula's) compiles the formula again."""
from __future__ import annotations

import errno
import json
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import workbench as wb
from workbench import files as workbench_files
from workbench.limits import BoundedCache
from workbench.rules import notation
from workbench.rules.notation import _kept

FORMULAS = ["3d6", "4d6kh3", "8d10cs>=8x", "2d20kh1+5>=15", "(@dice=5)d10cs>=8",
            "4dF+@skill=2", "{2d6, d8}kh2; sixes: cs=6"]


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(notation, "_SYSTEMS", BoundedCache(notation.MAX_REMEMBERED))
    monkeypatch.setattr(_kept, "_PENDING", {})
    for name in _kept.STATS:
        monkeypatch.setitem(_kept.STATS, name, 0)
    return tmp_path / "cache" / "workbench" / _kept.NAME


def compiled(text):
    """``text`` compiled in this process, and written as the process's exit writes it."""
    system = notation.formula_system(text)
    _kept.write_pending()
    return system


def new_process(monkeypatch):
    """This process's memo emptied and its compiler as not yet loaded: the next look-up is a
    new run's."""
    monkeypatch.setattr(notation, "_SYSTEMS", BoundedCache(notation.MAX_REMEMBERED))
    monkeypatch.setattr(_kept, "COMPILER", ("a module no process has loaded",))


def never_compiled(monkeypatch):
    def compiling(text):
        raise AssertionError(f"{text} was compiled")
    monkeypatch.setattr(notation, "_build", compiling)


def answer(system) -> list:
    result = wb.check(system)
    return [list(result.pmf.outcomes), list(result.pmf.probabilities),
            result.to_dict() if result.pmf.numeric else None]


@pytest.mark.parametrize("text", FORMULAS)
def test_a_formula_compiled_before_is_read_back_and_answers_the_same(cache, monkeypatch, text):
    first = compiled(text)
    expected = answer(first)
    assert _kept.STATS["written"] == 1 and cache.stat().st_mode & 0o777 == 0o600
    new_process(monkeypatch)
    never_compiled(monkeypatch)
    kept = notation.formula_system(text)
    assert kept is not first and kept.id == text and kept.collection == "formula"
    assert answer(kept) == expected and _kept.STATS["found"] == 1
    assert kept.params.keys() == first.params.keys()


def test_a_new_run_reads_a_kept_formula_without_the_grammar_and_the_schema(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    code = ("import json, sys, workbench as wb; r = wb.check('2d20kh1+5>=15'); "
            "print(json.dumps([r.p_pass, 'lark' in sys.modules, 'pydantic' in sys.modules]))")
    runs = [json.loads(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                      text=True, timeout=300, check=True).stdout) for _ in range(2)]
    assert runs[0] == [runs[0][0], True, True]   # compiled: the grammar and the schema loaded
    assert runs[1] == [runs[0][0], False, False]
    assert runs[0][0] == pytest.approx(1 - (9 / 20) ** 2)   # the higher d20 at least 10


def test_a_formula_with_an_error_is_never_kept(cache):
    for _ in range(2):
        with pytest.raises(wb.FormulaError):
            compiled("3d6q")
    assert not cache.exists()


@pytest.mark.parametrize("damage", [b"not a pickle", pickle.dumps({"format": 1}), pickle.dumps([]),
                                    pickle.dumps({"format": 1, "code": "other", "systems": {}})])
def test_a_damaged_or_other_codes_file_is_ignored_and_written_again(cache, damage):
    cache.parent.mkdir(parents=True)
    cache.write_bytes(damage)
    os.chmod(cache, 0o600)
    assert answer(compiled("3d6")) == answer(wb.system("3d6"))
    stored = pickle.loads(cache.read_bytes())
    assert stored["code"] == _kept._code() and list(stored["systems"]) == ["3d6"]


def test_a_system_kept_under_another_formula_is_not_used(cache, monkeypatch):
    compiled("3d6")
    stored = pickle.loads(cache.read_bytes())
    stored["systems"]["2d6"] = stored["systems"]["3d6"]   # 3d6's system under 2d6's name
    cache.write_bytes(pickle.dumps(stored))
    new_process(monkeypatch)
    system = notation.formula_system("2d6")
    assert system.id == "2d6" and max(answer(system)[0]) == 12
    assert _kept.STATS["ignored"] == 1


def test_a_file_others_may_write_is_not_read(cache, monkeypatch):
    compiled("3d6")
    os.chmod(cache, 0o666)
    new_process(monkeypatch)
    never_compiled(monkeypatch)
    with pytest.raises(AssertionError, match="was compiled"):
        notation.formula_system("3d6")
    os.chmod(cache, 0o600)   # the user's own: read (so the test above could fail)
    assert notation.formula_system("3d6").id == "3d6"


def test_a_full_disk_only_costs_time(cache, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(workbench_files, "write_bytes", full)
    assert compiled("3d6").id == "3d6"
    assert not cache.exists() and _kept.STATS["ignored"] == 1


def test_the_newest_formulas_are_kept(cache, monkeypatch):
    monkeypatch.setattr(_kept, "KEPT", 3)
    texts = [f"{n}d6" for n in range(1, 6)]
    for text in texts:
        compiled(text)
    assert list(pickle.loads(cache.read_bytes())["systems"]) == texts[-3:]


def test_a_kept_formula_still_checks_its_settings(cache, monkeypatch):
    compiled("(@dice)d10cs>=8")
    new_process(monkeypatch)
    never_compiled(monkeypatch)
    with pytest.raises(wb.ParameterError, match="dice"):
        wb.check("(@dice)d10cs>=8")
    counts = np.array(wb.check("(@dice)d10cs>=8", dice=3).pmf.probabilities)
    assert counts == pytest.approx([0.343, 0.441, 0.189, 0.027])


def test_a_process_with_the_compiler_loaded_compiles_without_the_file(cache, monkeypatch):
    compiled("3d6")
    monkeypatch.setattr(notation, "_SYSTEMS", BoundedCache(notation.MAX_REMEMBERED))
    reads = []
    monkeypatch.setattr(_kept, "_read", lambda: reads.append(1) or ("", {}))
    assert notation.formula_system("3d6").id == "3d6" and reads == []   # compiled: quicker


def test_a_process_writes_its_formulas_once_when_it_exits(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    code = ("import workbench as wb; from workbench.rules.notation import _kept; "
            "[wb.system(f'{n}d6') for n in range(1, 6)]; "
            "print(len(_kept._PENDING))")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=300, check=True)
    assert done.stdout.split()[0] == "5"   # held until the exit
    stored = pickle.loads((tmp_path / "cache" / "workbench" / _kept.NAME).read_bytes())
    assert list(stored["systems"]) == [f"{n}d6" for n in range(1, 6)]


@pytest.mark.parametrize("text", ["2d20kh1+5>=15", "{2d6, d8}kh2; sixes: cs=6"])
def test_a_formula_checked_before_the_run_ends_is_kept_too(cache, monkeypatch, text):
    # (checking works expressions out, and the evaluator keeps its functions with them:
    # those stay in the process, the expressions are written)
    system = notation.formula_system(text)
    expected = answer(system)
    _kept.write_pending()
    assert _kept.STATS["written"] == 1
    new_process(monkeypatch)
    never_compiled(monkeypatch)
    assert answer(notation.formula_system(text)) == expected and _kept.STATS["found"] == 1
