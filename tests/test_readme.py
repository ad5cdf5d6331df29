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
