"""The house holds: declared layers, no circles, and imports inside functions only where they
save start-up time (docs/architecture.rst)."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "workbench"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

#: What a lazy import may load: libraries slow to import, and the package's own modules that
#: load them (figures: plotly; kernels: numba; schema and mechanics: pydantic; sweep:
#: concurrent.futures and logging; notation: lark; _version: importlib.metadata, which reads
#: the installed package's metadata; ladders: the ladder solver, which a table block does not
#: need). tomllib: only a data file that is parsed needs it (the system cache parses none).
SLOW = ("pandas", "plotly", "numba", "pydantic", "IPython", "tabulate", "tqdm", "multiprocessing",
        "kaleido", "pyarrow", "dask", "markdown_it", "sphinx", "docutils", "ipywidgets", "lark",
        "tomlkit", "logging", "tomllib")
SLOW_OWN = ("figures", "_kernels", "schema", "mechanics", "sweep", "notation", "_version", "ladders")


def test_lint_imports_keeps_every_contract():
    done = subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_the_layers_contract_names_every_module_of_the_package():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["type"] == "layers")
    assert layers["exhaustive"] is True and layers["containers"] == ["workbench"]
    named = {part.strip() for layer in layers["layers"] for part in layer.replace(":", "|").split("|")}
    children = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    children |= {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert children == named


def _function_level_imports():
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text().splitlines()
        tree = ast.parse("\n".join(lines))
        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(func):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    yield path.relative_to(ROOT), node, lines[node.lineno - 1]


def test_imports_inside_functions_only_save_start_up_time_and_say_so():
    wrong = []
    for path, node, line in _function_level_imports():
        if isinstance(node, ast.ImportFrom):
            names = [node.module or ""] + [alias.name for alias in node.names]
        else:
            names = [alias.name for alias in node.names]
        slow = any(name.split(".")[0] in SLOW for name in names) or \
            any(part in SLOW_OWN for name in names for part in name.split("."))
        if not slow or "#" not in line:
            wrong.append(f"{path}:{node.lineno}: {line.strip()}")
    assert not wrong, "imports inside functions that do not save start-up time (or say why):\n" + \
        "\n".join(wrong)


def test_import_workbench_loads_no_slow_library():
    code = ("import sys, workbench\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            f"{set(SLOW) | {'ipywidgets', 'anywidget'}!r}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
