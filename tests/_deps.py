"""What a test needs that the dev extra brings, and the CI rule: a missing dependency skips a
test on a developer's machine but fails it loudly under CI (``CI`` set to ``1``, ``true`` or
``yes``, as CI services set it), so a broken environment can never pass by skipping.

Use :func:`need` instead of ``pytest.importorskip`` (``tests/test_architecture.py`` holds the
suite to that), inside the tests or fixtures that need the module, so a missing module never
skips a whole file.
"""
from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

CI_VALUES = ("1", "true", "yes")


def in_ci() -> bool:
    """Is this run under CI (``CI`` is ``1``, ``true`` or ``yes``, any case)?"""
    return os.environ.get("CI", "").strip().lower() in CI_VALUES


IN_CI = in_ci()


def missing(what: str, why: str) -> None:
    """A dependency is missing: skip locally, fail under CI."""
    if in_ci():
        pytest.fail(f"CI={os.environ.get('CI')} but {what} is missing ({why})", pytrace=False)
    pytest.skip(f"{what} is missing ({why})", allow_module_level=True)


def need(module: str, why: str = "in the dev extra: pip install -e '.[dev]'") -> ModuleType:
    """``module`` imported, or the test skipped (locally) / failed (under CI)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        missing(f"the module {module!r}", why)
        raise  # not reached: missing() skips or fails
