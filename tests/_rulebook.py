"""What the rulebook-route tests (Sphinx directives, ``workbench render``) share."""
from __future__ import annotations

#: A designer's variant of UWR with one rung; ``MINE.format(target=N)`` sets that rung's
#: target, so a test can change the data file and watch a table recompute.
MINE = """\
base = "uwr"
id = "mine"
name = "My UWR"

[[ladder]]
name = "Steep"
set = {{ target = {target} }}
"""
