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
