"""``workbench render`` owns only its regions (property tests over random Markdown pages).

Pages are built from parts whose rendering is known: hand-written paragraphs, lists and
quotes, workbench blocks (fenced or in comments, with or without an earlier region, options
in the fence), and examples of the block syntax that are not blocks (inside a longer code
fence, a tilde fence or indented code). The expected page is the same parts with each real
block followed by its fresh region and nothing else changed; rendering it again changes
nothing; and a region whose end marker is missing or damaged is an error naming its line,
with the file on disk left byte for byte.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.cli import main
from workbench.errors import WorkbenchError
from workbench.markdown import BEGIN, END, _table, fill_markdown
from workbench.render import parse_block

SYSTEMS = [("uwr", "pools=1-2 rungs=Normal"), ("fons", "pools=2-3 format=fraction"),
           ("arrata", 'pools=2-3 quality=A rungs="Ob 2"'), ("erzahlspiel", "")]
WORDS = ["dice", "odds", "the", "workbench-table", "`<!-- workbench:end -->`", "```", "~~~",
         "begin", "*stress*", "Ob 3", "<b>bold</b>", "---", "|", "1.", "#tag", "&amp;", "\\`"]


@dataclass
class Part:
    """A piece of the page: ``text`` as written; for a real block, what it should become."""

    text: str
    spec: tuple[str, str, str] | None = None   # (kind, system, options) of a real block
    region_line: int | None = None             # offset of an old region's begin marker


@st.composite
def paragraphs(draw) -> Part:
    lines = draw(st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6), min_size=1, max_size=3))
    return Part("\n".join("Text " + " ".join(words) for words in lines) + "\n")


@st.composite
def containers(draw) -> Part:
    kind = draw(st.sampled_from(["list", "quote", "heading", "html"]))
    if kind == "list":
        # The list ends with a paragraph, so an indented example after it is not inside it.
        return Part("- one item\n  - a nested `workbench-table uwr` item\n- two\n\nAfter the list.\n")
    if kind == "quote":
        return Part("> A quote about <!-- workbench:begin --> markers.\n> Still quoted.\n")
    if kind == "heading":
        return Part(draw(st.sampled_from(["# Odds\n", "## Climbing `workbench`\n", "Setext\n===\n"])))
    return Part("<div class=\"sidebar\">\n<p>Kept as it is.</p>\n</div>\n")


@st.composite
def examples(draw) -> Part:
    """The block syntax shown as an example: never a block, never a region."""
    inner = ["```workbench-table uwr pools=1-3", "```", "", BEGIN, "| stale |", END]
    if draw(st.booleans()):
        inner = inner[:4]   # an example of an unclosed region: still only an example
    style = draw(st.sampled_from(["backticks", "tildes", "indented"]))
    if style == "indented":
        return Part("\n".join("    " + line if line else "" for line in inner) + "\n")
    fence = "````" if style == "backticks" else "~~~"
    info = draw(st.sampled_from(["markdown", "", "md title=example"]))
    return Part(f"{fence}{info}\n" + "\n".join(inner) + f"\n{fence}\n")


@st.composite
def blocks(draw) -> Part:
    system, options = draw(st.sampled_from(SYSTEMS))
    form = draw(st.sampled_from(["fence", "fence-body", "tilde", "indented-fence", "comment",
                                 "comment-lines"]))
    caption = 'caption="Odds, in full"' if form in ("fence-body", "comment-lines") else ""
    words = f"{system} {options}".strip()
    if form == "fence":
        text = f"```workbench-table {words}\n```\n"
    elif form == "fence-body":
        text = f"```workbench-table {words}\n{caption}\n```\n"
    elif form == "tilde":
        text = f"~~~~workbench-table {words}\n~~~~\n"
    elif form == "indented-fence":
        text = f"  ```workbench-table {words}\n  ```\n"
    elif form == "comment":
        text = f"<!-- workbench-table {words} -->\n"
    else:
        text = f"<!-- workbench-table {words}\n{caption}\n-->\n"
    spec = ("table", system, options + (" " + caption if caption else ""))
    if draw(st.booleans()):   # an earlier run's region, maybe stale, maybe after blank lines
        gap = "\n" * draw(st.integers(0, 2))
        old = draw(st.sampled_from(["| old | table |\n|---|---|\n| 1 | 2 |", "stale words", ""]))
        region_line = text.count("\n") + gap.count("\n")
        text += gap + BEGIN + "\n" + (old + "\n" if old else "") + END + "\n"
        return Part(text, spec, region_line)
    return Part(text, spec)


PARTS = st.lists(st.one_of(paragraphs(), containers(), examples(), blocks()), min_size=1, max_size=7)


def page_of(parts: list[Part], gaps: list[int], newline: str) -> tuple[str, str, list[int]]:
    """The page, the page expected after rendering, and the line of each old begin marker."""
    text, expected, begins, line = [], [], [], 0
    for part, gap in zip(parts, gaps):
        separator = "\n" * gap
        text.append(part.text + separator)
        if part.spec is None:
            expected.append(part.text + separator)
        else:
            kind, system, options = part.spec
            body = part.text.split(BEGIN)[0].rstrip("\n") if part.region_line is not None \
                else part.text.rstrip("\n")
            content = _content_of(kind, system, options)
            expected.append(f"{body}\n\n{BEGIN}\n{content}\n{END}\n{separator}")
            if part.region_line is not None:
                begins.append(line + part.region_line)
        line += (part.text + separator).count("\n")
    return (newline.join("".join(text).split("\n")), newline.join("".join(expected).split("\n")),
            begins)


def _content_of(kind: str, system: str, options: str) -> str:
    """The region a block should get, from the block's own options (read as shell words)."""
    values = dict(word.split("=", 1) for word in shlex.split(options))
    return _table(parse_block(kind, system, values))


SETTINGS = settings(max_examples=int(__import__("os").environ.get("RENDER_EXAMPLES", "150")),
                    deadline=None, suppress_health_check=list(HealthCheck))


@SETTINGS
@given(PARTS, st.lists(st.integers(1, 2), min_size=7, max_size=7), st.sampled_from(["\n", "\r\n"]))
def test_render_changes_only_its_regions_and_is_idempotent(parts, gaps, newline):
    page, expected, _ = page_of(parts, gaps, newline)
    filled = fill_markdown(page, "rules.md").text
    assert filled == expected
    assert fill_markdown(filled, "rules.md").text == filled
    assert filled.count(BEGIN) - page.count(BEGIN) == sum(p.spec is not None and p.region_line is None
                                                          for p in parts)


DAMAGE = ["drop", "<!-- workbench:ned -->", "<!-- workbench:end --", "<!-- Workbench:End -->",
          "<!- workbench:end -->", "<!-- workbench: end -->"]


@SETTINGS
@given(PARTS, st.lists(st.integers(1, 2), min_size=7, max_size=7), st.sampled_from(DAMAGE),
       st.data())
def test_a_damaged_end_marker_is_an_error_at_its_region_and_nothing_changes(
        tmp_path_factory, parts, gaps, damage, data):
    page, _, begins = page_of(parts, gaps, "\n")
    if not begins:
        return
    which = data.draw(st.integers(0, len(begins) - 1))
    lines = page.split("\n")
    end = next(i for i in range(begins[which] + 1, len(lines)) if lines[i] == END)
    if damage == "drop":
        del lines[end]
    else:
        lines[end] = damage
    broken = "\n".join(lines)
    with pytest.raises(WorkbenchError) as raised:
        fill_markdown(broken, "rules.md")
    assert str(raised.value).startswith(f"rules.md:{begins[which] + 1}: ") or \
        str(raised.value).startswith(f"rules.md:{end + 1}: "), (str(raised.value), begins[which] + 1)
    # Through the command line: one line, status 2, the page byte for byte.
    folder = tmp_path_factory.mktemp("damaged")
    path = folder / "rules.md"
    path.write_bytes(broken.encode())
    assert main(["render", str(path)]) == 2
    assert path.read_bytes() == broken.encode()
    assert [p.name for p in folder.iterdir()] == ["rules.md"]


@pytest.mark.parametrize("page, message", [
    # The case: the first region's end marker is gone; the next block and the prose
    # between them used to be swallowed up to the second region's end.
    ("```workbench-table uwr pools=1-2\n```\n\n" + BEGIN + "\nold\n\nA hand-written paragraph.\n\n"
     "```workbench-table fons pools=1-2\n```\n\n" + BEGIN + "\nold\n" + END + "\n",
     "rules.md:4: the region of the block at line 1 has no end marker"),
    ("Text.\n\n" + END + "\n", "rules.md:3: a region marker <!-- workbench:end --> that closes no region"),
    ("Text.\n\n" + BEGIN + "\nx\n" + END + "\n", "rules.md:3: a region marker <!-- workbench:begin --> that follows no"),
    ("```workbench-table uwr\n```\nA paragraph in between.\n" + BEGIN + "\nx\n" + END + "\n",
     "rules.md:4: a region marker <!-- workbench:begin --> that follows no"),
    ("- item\n\n  ```workbench-table uwr\n  ```\n", "rules.md:3: workbench-table: a block inside a list"),
    ("> ```workbench-table uwr\n> ```\n", "rules.md:1: workbench-table: a block inside a list or quote"),
    ("```python\nprint(1)\n\n```workbench-table uwr\n", "rules.md:1: this code fence is never closed, so it hides"),
    ("<!-- workbench-table uwr --> trailing\n", "text after the comment's -->"),
    ("<!-- workbench-tables uwr -->\n", "option"),   # an unknown kind names what is allowed
    ("<!-- workbench:finish -->\n", "is neither a workbench block nor a region marker"),
])
def test_structural_errors_name_the_line(tmp_path, one_line_error, page, message):
    path = tmp_path / "rules.md"
    path.write_bytes(page.encode())
    one_line_error("render", str(path), contains=(message,))
    assert path.read_bytes() == page.encode()


def test_every_page_is_checked_before_any_is_written(tmp_path, capsys):
    good, bad = tmp_path / "a.md", tmp_path / "b.md"
    good.write_text("```workbench-table uwr pools=1-2\n```\n")
    bad.write_text("```workbench-table uwr pools=1-2\n```\n\n" + BEGIN + "\nold\n")
    assert main(["render", str(good), str(bad)]) == 2
    assert "b.md:4:" in capsys.readouterr().err
    assert good.read_text() == "```workbench-table uwr pools=1-2\n```\n"


def test_a_byte_order_mark_and_odd_line_ends_survive(tmp_path, capsys):
    path = tmp_path / "rules.md"
    page = "\ufeff# Odds\r\n\r\nProse\rwith an old Mac line end.\n\n```workbench-table uwr pools=1-2\r\n```\r\n"
    path.write_bytes(page.encode())
    assert main(["render", str(path)]) == 0
    data = path.read_bytes()
    assert data.startswith("\ufeff# Odds\r\n\r\nProse\rwith an old Mac line end.\n\n".encode())
    assert data.count(b"\r\n") > page.count("\r\n") and BEGIN.encode() + b"\r\n" in data
    assert main(["render", "--check", str(path)]) == 0


def test_a_page_saved_while_render_runs_is_not_overwritten(tmp_path, capsys, monkeypatch):
    import workbench.cli._render as render_cli
    path = tmp_path / "rules.md"
    path.write_text("```workbench-table uwr pools=1-2\n```\n")
    real_fill = render_cli.fill_markdown

    def fill_while_the_author_saves(*args, **kwargs):
        filled = real_fill(*args, **kwargs)
        path.write_text("```workbench-table uwr pools=1-2\n```\n\nA paragraph typed meanwhile.\n")
        return filled
    monkeypatch.setattr(render_cli, "fill_markdown", fill_while_the_author_saves)
    assert main(["render", str(path)]) == 2
    assert "changed on disk while render ran" in capsys.readouterr().err
    assert path.read_text().endswith("A paragraph typed meanwhile.\n")
