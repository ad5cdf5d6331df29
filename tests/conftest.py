"""What many test files share: a small pool system's data file, and the way every user error
must end (status 2, one line on stderr saying ``workbench: error: ...``, no traceback).

- :func:`pool_toml` writes the text of a pool system (d6s, a ``dice`` parameter adding them),
  with room for the keys a test is about; the ``pool_file`` fixture writes it into the test's
  folder and gives its path.
- The ``one_line_error`` fixture runs ``workbench ARGV`` in this process and asserts it is
  refused in one line; ``assert_one_line`` asserts the same of a run already made (a
  subprocess, a run through another entry point).
"""
from __future__ import annotations

from pathlib import Path

import pytest


COUNTED_D6 = 'sides = 6\ncounts = { hits = "face >= 5", ones = "face == 1" }'
"""A d6 whose faces count ``hits`` (5 and 6) and ``ones``: the ``die`` of a system with
statistics."""


def pool_toml(id: str = "mine", name: str | None = None, *, top: str = "",
              die: str = "faces = [0, 0, 0, 0, 1, 1]", dice: int = 2, least: int = 0,
              most: int = 10, pool_parameter: bool = True, target: int | None = None,
              more: str = "") -> str:
    """A pool system's data file: a die type ``d6`` (``die``: its keys, by default faces
    counting a success on 5 and 6) and a parameter ``dice`` (default ``dice``, ``least`` to
    ``most``) adding that many d6s, the system's pool parameter unless ``pool_parameter`` is
    false; with ``target``, a parameter ``target`` (default 1, 0 to ``target``) setting the
    successes needed. ``top`` goes among the file's own keys (``pass_if``, ``total``...),
    ``more`` at the end (other parameters, statistics, tiers, a ladder).

    Example:
        >>> print(pool_toml("ones", die='sides = 6\\ncounts = { ones = "face == 1" }'))
        <BLANKLINE>
        id = "ones"
        name = "ones"
        mechanic = "pool"
        pool_parameter = "dice"
        <BLANKLINE>
        [dice.d6]
        sides = 6
        counts = { ones = "face == 1" }
        <BLANKLINE>
        [params.dice]
        default = 2
        min = 0
        max = 10
        effect = { add_dice = "d6" }
        <BLANKLINE>
    """
    head = [f'id = "{id}"', f'name = "{id if name is None else name}"', 'mechanic = "pool"']
    if pool_parameter:
        head.append('pool_parameter = "dice"')
    if top.strip():
        head.append(top.strip("\n"))
    lines = ["", *head, "", "[dice.d6]", die.strip("\n"), "", "[params.dice]", f"default = {dice}",
             f"min = {least}", f"max = {most}", 'effect = { add_dice = "d6" }', ""]
    if target is not None:
        lines[-1:] = ["", "[params.target]", "default = 1", "min = 0", f"max = {target}",
                      'effect = "target"', ""]
    return "\n".join(lines) + more


@pytest.fixture
def pool_file(tmp_path):
    """Writes a data file into the test's folder and gives its path: ``text``, or the
    :func:`pool_toml` of the keywords given (``pool_file(id="big", most=2000)``); ``file``
    names it (by default ``ID.toml``)."""
    def write(text: str | None = None, *, file: str | None = None, **keys) -> Path:
        if text is None:
            text = pool_toml(**keys)
        path = Path(tmp_path) / (file or f"{keys.get('id', 'mine')}.toml")
        path.write_text(text, encoding="utf-8")
        return path
    return write


def _refused_in_one_line(code, out: str, err: str, contains, *, argv=()) -> str:
    assert code == 2, (argv, code, out, err)
    assert out == "", (argv, out, err)
    assert err.startswith("workbench: error: ") and err.count("\n") == 1, (argv, err)
    assert "Traceback" not in err, (argv, err)
    for text in contains:
        assert text in err, (argv, text, err)
    return err


@pytest.fixture
def one_line_error(capsys):
    """Runs ``workbench *argv`` in this process and asserts it is refused as every user error
    is: status 2, nothing on stdout, one line on stderr starting ``workbench: error: ``, no
    traceback, each text of ``contains`` in that line; gives the line. ``usage=True``: the
    words may be refused by argparse itself (which ends the program by ``SystemExit``)."""
    def run(*argv: str, contains=(), usage: bool = False) -> str:
        code, out, err = run_cli(capsys, *argv, exits=usage)
        return _refused_in_one_line(code, out, err, contains, argv=argv)
    return run


@pytest.fixture
def refused_page(capsys, tmp_path):
    """``(page, stderr)`` after ``workbench render`` of a Markdown page holding ``text`` (file
    ``name`` in the test's folder), asserting it was refused (status 2) and left byte for byte
    as it was."""
    def render(text: str, name: str = "p.md"):
        page = tmp_path / name
        page.write_text(text, encoding="utf-8")
        code, _, err = run_cli(capsys, "render", str(page), exits=True)
        assert code == 2 and page.read_text(encoding="utf-8") == text
        return page, err
    return render


@pytest.fixture(scope="session")   # no state: hypothesis's tests may take it too
def assert_one_line():
    """Asserts that a run already made (status, stdout, stderr) was refused as every user
    error is (see ``one_line_error``); gives the line."""
    def check(code, out: str, err: str, contains=()) -> str:
        return _refused_in_one_line(code, out, err, contains)
    return check


@pytest.fixture
def registered():
    """``make(id, pool, **kw)``: ``wb.register_mechanic(id, pool, replace=True, **kw)``, each
    mechanic registered so taken out again when the test ends."""
    import workbench as wb
    from workbench.errors import WorkbenchError

    ids = []

    def make(id, pool, **kw):
        system = wb.register_mechanic(id, pool, replace=True, **kw)
        ids.append(id)
        return system
    yield make
    for id in ids:
        try:
            wb.unregister_mechanic(id)
        except WorkbenchError:
            pass


def run_cli(capsys, *argv: str, exits: bool = False) -> tuple[int, str, str]:
    """``(status, stdout, stderr)`` of ``workbench *argv`` run in this process. ``exits=True``:
    argparse may end the program itself (``SystemExit``), whose code is the status then."""
    from workbench.cli import main

    try:
        code = main(list(argv))
    except SystemExit as exited:
        if not exits:
            raise
        code = exited.code
    out, err = capsys.readouterr()
    return code, out, err
