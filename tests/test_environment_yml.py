"""``environment.yml`` (conda users) stays in step with ``pyproject.toml``.

pyproject is the single source of truth: the yml brings Python and pip, then installs the
package itself, editable, with the ``dev`` extra (so the tests run) - nothing else.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml  # PyYAML: installed with jupyterlab (jupyter-events depends on it)

REPO = Path(__file__).resolve().parents[1]
ENVIRONMENT = REPO / "environment.yml"


@pytest.fixture(scope="module")
def environment() -> dict:
    assert ENVIRONMENT.exists(), "environment.yml is missing at the repository root"
    return yaml.safe_load(ENVIRONMENT.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def project() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def conda_entries(environment) -> list[str]:
    return [d for d in environment["dependencies"] if isinstance(d, str)]


def pip_entries(environment) -> list[str]:
    blocks = [d["pip"] for d in environment["dependencies"] if isinstance(d, dict) and "pip" in d]
    assert len(blocks) == 1, "expected exactly one pip: section"
    return blocks[0]


def test_python_version_matches_requires_python(environment, project):
    pythons = [d for d in conda_entries(environment) if re.match(r"python\b", d)]
    assert len(pythons) == 1, pythons
    spec = pythons[0].replace(" ", "")
    required = project["requires-python"].replace(" ", "")
    assert spec == "python" + required, (spec, required)


def test_pip_is_in_the_conda_dependencies(environment):
    assert "pip" in [re.split(r"[<>=!~ ]", d)[0] for d in conda_entries(environment)]


def test_pip_installs_the_package_with_dev_extra(environment, project):
    assert "dev" in project["optional-dependencies"]
    entries = [e.replace(" ", "") for e in pip_entries(environment)]
    assert entries == ["-e.[dev]"], entries


def test_no_dependency_is_listed_twice(environment, project):
    """Everything else comes from pyproject: the yml must not pin packages on its own."""
    extra = [d for d in conda_entries(environment) if not re.match(r"(python|pip)\b", d)]
    assert extra == [], f"declare these in pyproject.toml instead: {extra}"


def test_environment_has_a_name(environment):
    assert isinstance(environment.get("name"), str) and environment["name"]
