"""The README's Python tour runs as written (a newcomer copies it first)."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_python_blocks_run():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "the README lost its Python tour"
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)  # noqa: S102 - our own README
    wb = namespace["wb"]
    # The figures the tour quotes in its comments.
    assert abs(wb.check("uwr", dice=4, favor=1, rerolls=2, target=2).p_pass - 0.890625) < 1e-12
    assert wb.score("arrata", [1, 2, 4, 5, 6], stat="A6", disadvantage=2).net == 2


def test_readme_drama_dice_example_pulls_dice():
    """Seen in the README: its Drama Dice example never pulled a die (every 3d6 check passed
    half the time, so "when likely to fail" never fired). The example must show the economy."""
    import ast
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"wb\.drama_campaign\((.*?)\)\.summary", text, re.S).group(0)
    call = ast.parse(block, mode="eval")
    import workbench as wb
    summary = eval(compile(call, "README.md", "eval"), {"wb": wb})  # noqa: S307 - our own README
    assert summary.loc[0, "mean_pulled"] > 0 and summary.loc[0, "pass_with"] > summary.loc[0, "pass_without"]


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_readme_and_getting_started_say_what_needs_chromium():
    """Chromium was named only as a test dependency, though every PNG/SVG figure and every
    static rulebook figure needs it; both pages say so, how to get it and what works without."""
    for page in (ROOT / "README.md", ROOT / "docs" / "getting-started.rst"):
        text = _flat(page.read_text(encoding="utf-8")).replace("``", "`")
        for words in ("PNG and SVG figures are drawn by a Chromium browser", "apt-get install chromium",
                      "plotly_get_chrome -y", "BROWSER_PATH", "workbench render",
                      "workbench-figure::", "HTML figures"):
            assert words in text, (page.name, words)
    from workbench.figures.output import NO_CHROMIUM
    assert "apt-get install chromium" in NO_CHROMIUM and "plotly_get_chrome" in NO_CHROMIUM


def test_getting_started_names_where_to_start_and_each_exists(capsys):
    """A newcomer is told which notebook to open first, where the explorer and the gallery
    are, and a one-line command to try; each named file exists and each command runs."""
    from workbench.cli import main
    import workbench as wb

    text = _flat((ROOT / "docs" / "getting-started.rst").read_text(encoding="utf-8"))
    start = text[text.index("Where to start"):]
    assert start.index("01_tour.ipynb") < start.index("00_explorer.ipynb")
    for notebook in re.findall(r"``(\d\d_\w+\.ipynb)``", start):
        assert (ROOT / "notebooks" / notebook).exists(), notebook
    gallery = [s for s in wb.systems() if s.collection == "gallery"]
    assert f"the core rolls of {len(gallery)} published games" in start
    assert "voila notebooks/00_explorer.ipynb" in start
    commands = re.findall(r"``(workbench [^`]+)``", start)
    assert len(commands) >= 4 and any('"4d6kh3"' in c for c in commands)   # a one-line formula
    import shlex
    for command in commands:
        argv = shlex.split(command)[1:]
        assert main(argv) == 0, command
        capsys.readouterr()
