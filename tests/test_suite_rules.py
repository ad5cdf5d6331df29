"""The suite's own honesty: what a test needs fails loudly under CI instead of skipping, and
unit tests assert that work was refused or not started, never how long it took.
"""
from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import _deps

TESTS = Path(__file__).resolve().parent


def test_no_test_skips_on_a_missing_module_by_itself():
    """``pytest.importorskip`` skips under CI too (a whole file when called at its top):
    every test asks :func:`_deps.need`, which fails under CI."""
    offenders = [f"{path.name}:{number}" for path in sorted(TESTS.glob("*.py")) if path.name != "_deps.py"
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if "importorskip" in line and not line.lstrip().startswith("#")
                 and path.name != Path(__file__).name]
    assert not offenders, offenders


@pytest.mark.parametrize("value, ci", [("1", True), ("true", True), ("TRUE", True), ("yes", True),
                                       ("Yes ", True), ("0", False), ("", False), ("false", False)])
def test_ci_is_recognised_as_ci_services_set_it(monkeypatch, value, ci):
    monkeypatch.setenv("CI", value)
    assert _deps.in_ci() is ci


@pytest.mark.parametrize("value", ["1", "yes", "true"])
def test_a_missing_module_or_chromium_fails_under_ci(monkeypatch, value):
    monkeypatch.setenv("CI", value)
    with pytest.raises(pytest.fail.Exception, match="no_such_module_here"):
        _deps.need("no_such_module_here")
    import _images
    monkeypatch.setattr(_images, "chromium_path", lambda: None)
    with pytest.raises(pytest.fail.Exception, match="Chromium"):
        _images.need_chromium()


def test_a_missing_module_skips_outside_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no_such_module_here"):
        _deps.need("no_such_module_here")
    assert _deps.need("json").dumps([1]) == "[1]"


def test_a_file_needing_a_missing_module_fails_its_run_under_ci(tmp_path):
    """End to end: a test file asking for a module that is not installed is reported skipped
    locally and failed under CI=yes."""
    test = tmp_path / "test_needs.py"
    test.write_text(textwrap.dedent(f"""\
        import sys
        sys.path.insert(0, {str(TESTS)!r})
        from _deps import need

        def test_it():
            need("no_such_module_here")
        """))
    for ci, outcome in (("", "1 skipped"), ("yes", "1 failed")):
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                              "-n", "0", str(test)], capture_output=True, text=True,
                             cwd=tmp_path, env={"CI": ci, "PATH": "/usr/bin:/bin"}, timeout=300)
        assert outcome in run.stdout, run.stdout[-2000:]


def _timed_assertions(path: Path) -> list[str]:
    """Assertions that compare a clock reading: ``assert time.perf_counter() - start < 10``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            text = ast.unparse(node.test)
            if re.search(r"\btime\.(perf_counter|monotonic|time)\(\)|\b(elapsed|took|seconds)\b", text):
                found.append(f"{path.name}:{node.lineno}: {text}")
        # A timeout turned into a failure ("still computing after 20 s") is a threshold too;
        # a timeout left to raise is a guard against a hang.
        if isinstance(node, ast.ExceptHandler) and node.type is not None \
                and "TimeoutExpired" in ast.unparse(node.type) \
                and any("pytest.fail" in ast.unparse(n) for n in node.body):
            found.append(f"{path.name}:{node.lineno}: except TimeoutExpired: pytest.fail(...)")
    return found


def test_unit_tests_assert_no_wall_clock_thresholds():
    """Speed is measured in benchmarks/; a unit test asserts that work was refused or not
    started (a counter, a sentinel), which a slow machine cannot fail nor a fast one fake."""
    found = [line for path in sorted(TESTS.glob("test_*.py")) for line in _timed_assertions(path)]
    assert not found, "\n".join(found)
