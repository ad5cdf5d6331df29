"""The package installs anywhere: a wheel built from this checkout, installed non-editable into
a fresh venv, answers the README's commands from a folder far from the checkout.

To stay quick the fresh venv gets the wheel alone (``--no-deps``) and sees the test venv's
installed dependencies through a ``.pth`` line: only the workbench itself comes from the wheel,
which is what this test is about. A ``.pth`` line adds the folder without running the ``.pth``
files inside it, so the test venv's editable install of the workbench stays out of reach; the
test checks that ``workbench`` is imported from the fresh venv all the same.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


def _run(args, cwd, env, timeout=300):
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{args}: status {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(python, workbench script, environment, a folder outside the checkout)."""
    root = tmp_path_factory.mktemp("wheel")
    wheels = root / "wheels"
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "WORKBENCH_DATA", "WORKBENCH_PATH", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    # Building in a copy keeps setuptools' build/ and egg-info out of the checkout.
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
          "-w", str(wheels), str(REPO)], cwd=root, env=env)
    wheel = next(wheels.glob("dice_workbench-*.whl"))
    target = root / "venv"
    venv.EnvBuilder(with_pip=False).create(target)
    python = target / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "_test_venv_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
          "--no-index", "-q", str(wheel)], cwd=root, env=env)
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    return python, target / "bin" / "workbench", env, elsewhere


def test_the_wheel_holds_the_data_files(installed):
    python, _, env, elsewhere = installed
    done = _run([str(python), "-c", "import workbench, json; from workbench.rules import registry; "
                 "print(json.dumps([workbench.__file__, workbench.__version__, "
                 "sorted(registry.all_systems())]))"], elsewhere, env)
    where, version, ids = json.loads(done.stdout)
    assert Path(where).is_relative_to(python.parents[1]), where  # not the checkout
    assert version[0].isdigit() and version != "0+unknown"
    assert {"uwr", "fons", "unnamed", "arrata", "erzahlspiel", "fons-exploding"} <= set(ids)


def test_readme_commands_from_another_folder(installed):
    _, script, env, elsewhere = installed
    listing = _run([str(script), "systems"], elsewhere, env).stdout
    assert "uwr" in listing and "erzahlspiel" in listing
    exact = json.loads(_run([str(script), "pmf", "uwr", "dice=4", "favor=1", "rerolls=2", "target=2",
                             "--format", "json"],
                            elsewhere, env).stdout)
    assert abs(exact["p_pass"] - 0.890625) < 1e-12
    simulated = json.loads(_run([str(script), "pmf", "unnamed", "d6=3", "d8=2", "--simulate",
                                 "--trials", "20000", "--seed", "7", "--format", "json"],
                                elsewhere, env).stdout)
    assert abs(sum(simulated["pmf"].values()) - 1) < 1e-9
    table = _run([str(script), "table", "uwr", "--pools", "1-3", "--format", "md"], elsewhere, env).stdout
    assert "Normal" in table and "%" in table
    files = _run([str(script), "files"], elsewhere, env).stdout
    assert "uwr.toml" in files and str(REPO) not in files


def test_own_systems_from_workbench_path_and_workbench_files(installed, tmp_path):
    _, script, env, elsewhere = installed
    own = tmp_path / "my-systems"
    (own / "variants").mkdir(parents=True)
    (own / "variants" / "steep.toml").write_text(
        'base = "uwr"\nid = "steep"\nname = "Steep UWR"\n\n[[ladder]]\nname = "Cliff"\n'
        'set = { target = 3 }\n', encoding="utf-8")
    env = {**env, "WORKBENCH_PATH": str(own)}
    files = json.loads(_run([str(script), "files", "--format", "json"], elsewhere, env).stdout)
    mine = [f for f in files if f["id"] == "steep"]
    assert mine == [{"id": "steep", "path": str(own / "variants" / "steep.toml"), "origin": "WORKBENCH_PATH"}]
    table = _run([str(script), "table", "steep", "--pools", "3", "--format", "csv"], elsewhere, env).stdout
    assert "Cliff" in table and "3.7%" in table  # three 5-6s on three dice: 1/27


def readme_commands() -> list[list[str]]:
    """Every ``workbench ...`` command of the README's shell blocks, as argument lists."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            for part in line.split("&&"):
                words = shlex.split(part, comments=True)
                if words[:1] == ["workbench"]:
                    commands.append(words)
    return commands


def test_every_readme_command_from_another_folder(installed):
    _, script, env, elsewhere = installed
    commands = [c for c in readme_commands() if c[1] != "report"]  # the report: its own test below
    assert len(commands) >= 10, commands
    for words in commands:
        _run([str(script), *words[1:]], elsewhere, env)
    assert (elsewhere / "uwr-odds.rst").exists() and (elsewhere / "uwr-curve.png").exists()


def test_explorer_imports_from_the_wheel(installed):
    python, _, env, elsewhere = installed
    done = _run([str(python), "-c", "from workbench.widgets import explorer, figure; print('ok')"],
                elsewhere, env)
    assert done.stdout.strip() == "ok"


def test_report_from_the_wheel(installed):
    _, script, env, elsewhere = installed
    out = elsewhere / "balance.html"
    _run([str(script), "report", "--out", str(out), "--systems", "uwr", "--pools", "1-3",
          "--no-progress"], elsewhere, env, timeout=600)
    assert out.stat().st_size > 10_000


def test_the_wheel_reads_one_line_formulas(installed):
    """The grammar file ships inside the wheel: a formula answers from the installed package,
    exactly (4d6 keep the 3 highest: 1/1296 for a 3, 21/1296 for an 18)."""
    _, script, env, elsewhere = installed
    exact = json.loads(_run([str(script), "pmf", "4d6kh3", "--format", "json"], elsewhere, env).stdout)
    assert abs(exact["pmf"]["3"] - 1 / 1296) < 1e-12 and abs(exact["pmf"]["18"] - 21 / 1296) < 1e-12
