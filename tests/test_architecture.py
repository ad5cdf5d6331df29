"""The house holds: declared layers, no circles, and imports inside functions only where they
save start-up time (docs/architecture.rst)."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "workbench"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

#: What a lazy import may load: libraries slow to import, and the package's own modules that
#: load them (figures: plotly; kernels: numba; schema and mechanics: pydantic; sweep:
#: concurrent.futures and logging; notation: lark; share: pandas and plotly; _version:
#: importlib.metadata, which reads the installed package's metadata; ladders: the ladder
#: solver, which a table block does not need; views.analyses: the views of stateful play's and
#: solved ladders' results, which showing a check does not need). tomllib: only a data file
#: that is parsed needs it (the system cache parses none). concurrent: a roll simulation's
#: thread pool, only when a run uses threads.
SLOW = ("pandas", "plotly", "numba", "pydantic", "IPython", "tabulate", "tqdm", "multiprocessing",
        "kaleido", "pyarrow", "dask", "markdown_it", "sphinx", "docutils", "ipywidgets", "lark",
        "tomlkit", "logging", "tomllib", "concurrent", "difflib", "secrets", "tempfile", "shutil", "csv")
SLOW_OWN = ("figures", "_kernels", "schema", "mechanics", "sweep", "notation", "share", "_version",
            "ladders", "analyses", "simulation", "concrete", "concrete_roll", "evaluate")


def test_lint_imports_keeps_every_contract():
    done = subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_the_layers_contract_names_every_module_of_the_package():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["type"] == "layers")
    assert layers["exhaustive"] is True and layers["containers"] == ["workbench"]
    named = {part.strip() for layer in layers["layers"] for part in layer.replace(":", "|").split("|")}
    children = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    children |= {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert children == named


def _contract_floors() -> list[list[str]]:
    """The floors of the first layers contract, top to bottom, each its modules in order."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["type"] == "layers")
    return [[part.strip() for part in layer.replace(":", "|").split("|")] for layer in layers["layers"]]


def _page_floors() -> list[tuple[str, list[str]]]:
    """The floors of docs/architecture.rst's table, top to bottom: (floor, its modules in
    the order listed, ``cli/`` and ``api.py`` as ``cli`` and ``api``)."""
    text = (ROOT / "docs" / "architecture.rst").read_text(encoding="utf-8")
    table = text.split(".. list-table:: The floors, top to bottom", 1)[1].split("\n\n", 2)[1]
    floors = []
    for row in table.split("\n   * - ")[1:]:   # the header row comes before the first
        name, rest = row.split("\n", 1)
        modules_cell = ("\n" + rest).split("\n     - ")[1]
        modules = [m.rstrip("/").removesuffix(".py") for m in re.findall(r"``([^`]+)``", modules_cell)]
        floors.append((name.strip(), modules))
    return floors


def test_the_page_and_the_contract_name_the_same_floors_in_the_same_order():
    """docs/architecture.rst's table of floors and the layers contract of pyproject.toml are
    one map: the same floors top to bottom, each with the same modules in the same order (the
    order within a floor, which the "Within ..." contracts keep)."""
    page = _page_floors()
    assert [name for name, _ in page] == ["interfaces", "presentation", "analyses", "checks",
                                          "results", "engine", "rules", "base"]
    assert [modules for _, modules in page] == _contract_floors()


def test_each_floor_of_several_modules_keeps_its_order_by_a_contract_of_its_own():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    within = [c for c in config["contracts"] if c["type"] == "layers"][1:]
    for floor in (f for f in _contract_floors() if len(f) > 1):
        matching = [c for c in within
                    if [p.strip() for layer in c["layers"] for p in layer.split("|")] == floor]
        assert len(matching) == 1, f"no contract keeps the order of {floor}"


def _function_level_imports():
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
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


#: The suite's references: brute force and independent procedures the workbench's answers are
#: checked against. They must share no code with what they check.
REFERENCES = ("_brute", "_attack_formula_brute", "_roll_brute", "_rolled_brute", "_chunk_reference", "_formula_brute",
              "_gallery_brute", "_gallery_dice", "_gallery_more_brute", "_gallery_pools", "_gallery_rolls", "_stats")
#: Shared test helpers that compute no answer of their own (browsers, images, fault injection, a
#: data file, the engine's walk with its closed forms turned off).
HELPERS = ("_browser", "_deps", "_faults", "_images", "_rulebook", "_tables", "_walked")


def _imported_names(tree: ast.AST) -> list[str]:
    """Every module an import statement names, anywhere in the module (functions too), and
    every string handed to ``importlib.import_module`` / ``__import__``."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append(node.module or "")
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            function = node.func
            called = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
            if called in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                names.append(node.args[0].value)
    return names


def test_every_test_helper_module_is_a_reference_or_a_helper():
    modules = {path.stem for path in (ROOT / "tests").glob("_*.py")}
    assert modules == set(REFERENCES) | {h for h in HELPERS if (ROOT / "tests" / f"{h}.py").exists()}, \
        "classify the new module as a reference (checked below) or a helper"


def test_references_share_no_code_with_the_workbench():
    """A reference that imports the workbench (its engine, its rules, its helpers) would share
    the bugs it is there to catch: none imports any part of it, nor another reference that
    does."""
    wrong = []
    for name in REFERENCES:
        tree = ast.parse((ROOT / "tests" / f"{name}.py").read_text(encoding="utf-8"))
        for imported in _imported_names(tree):
            if imported.split(".")[0] == "workbench":
                wrong.append(f"tests/{name}.py imports {imported}")
            local = imported.removeprefix("tests.")
            if local.startswith("_") and not local.startswith("__") and local not in REFERENCES:
                wrong.append(f"tests/{name}.py imports the helper {imported}")
    assert not wrong, "\n".join(wrong)


def test_the_designed_pools_build_their_brute_force_faces_without_the_engine():
    """The designed-pool brute force once moved a favoured die's faces with the engine's own
    ``shifted`` (a mutated clamp passed every case): the faces handed to the brute force are
    built by the reference's ``moved_faces``."""
    tree = ast.parse((ROOT / "tests" / "test_designed_pools.py").read_text(encoding="utf-8"))
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef) and any(
                isinstance(n, ast.Attribute) and n.attr in ("brute_pmf", "designed_roll")
                or isinstance(n, ast.Name) and n.id == "brute_pmf" for n in ast.walk(function)):
            called = {n.func.id for n in ast.walk(function)
                      if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
            assert "shifted" not in called, function.name
