"""What ``workbench pmf`` and ``versus`` print is the result itself, through the one table
writer: the numbers of every table format are the JSON's numbers (as the number rule writes
them), formatted for people or plain; and notebook views are registered by type."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest

import workbench as wb
from workbench.cli import main
from workbench.export.tables import NumberFormat
from workbench.results.rich import RichResult

PERCENT = NumberFormat("percent", 2)
COMMANDS = [("pmf", "uwr", "dice=4", "target=2"), ("pmf", "unnamed", "d6=3", "d8=1"),
            ("pmf", "erzahlspiel", "die=green"), ("pmf", "alien-rpg", "--stat", "panic_faces"),
            ("pmf", "uwr", "dice=6", "--simulate", "--trials", "20000", "--seed", "4"),
            ("pmf", "d10-pool", "dice=12"), ("versus", "uwr", "--actor", "dice=4", "--reactor", "dice=3"),
            ("versus", "4d6kh3", "3d6")]


def _printed(capsys, argv, fmt: str) -> str:
    assert main([*argv, "--format", fmt]) == 0
    return capsys.readouterr().out


def _csv_tables(text: str) -> list[list[list[str]]]:
    return [list(csv.reader(io.StringIO(block))) for block in text.rstrip("\n").split("\n\n")]


def _md_tables(text: str) -> dict[str, list[list[str]]]:
    tables, title = {}, None
    for block in text.rstrip("\n").split("\n\n"):
        if block.startswith("**"):
            title = block.strip("*")
            continue
        rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in block.splitlines()]
        tables[title] = [rows[0], *rows[2:]]   # the header, then the rows below the rule
    return tables


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_every_format_prints_the_json_numbers(capsys, argv):
    data = json.loads(_printed(capsys, argv, "json"))
    key = "pmf" if argv[0] == "pmf" else "margin"
    # CSV: every outcome, each probability written as the JSON writes it.
    outcomes, *rest = _csv_tables(_printed(capsys, argv, "csv"))
    assert [row[0] for row in outcomes[1:]] == list(data[key])
    assert [row[1] for row in outcomes[1:]] == [str(p) for p in data[key].values()]
    if "stderr" in data:
        assert [row[2] for row in outcomes[1:]] == [str(s) for s in data["stderr"].values()]
    summary = dict(rest[-1][1:])
    # One statistic's tables name its mean (``mean of panic_faces``); the JSON says which
    # statistic in ``stat`` beside its ``mean``.
    shown_as = {"mean": f"mean of {data['stat']}"} if data.get("stat") else {}
    for name in ("p_pass", "p_actor", "lost_mass", "mean", "mean_margin"):
        if name in data:
            assert summary[shown_as.get(name, name)] == ("" if data[name] is None else str(data[name]))
    # Markdown: the same numbers as percentages; the outcomes at either end cut into one
    # row hold what the JSON's cut outcomes add up to.
    tables = _md_tables(_printed(capsys, argv, "md"))
    shown = next(rows for title, rows in tables.items() if title.startswith(("Outcomes", "Margins")))
    listed = {str(o): p for o, p in data[key].items()}
    for label, cell, *_ in shown[1:]:
        if label in listed:
            assert cell == PERCENT.text(listed[label])
        else:
            bound = int(label.split()[-1])
            below = label.startswith("≤")
            mass = sum(p for o, p in listed.items() if (int(o) <= bound if below else int(o) >= bound))
            assert cell == PERCENT.text(mass) and cell.startswith("<")
    if "p_pass" in data:
        assert dict(tables["Summary"][1:])["p_pass"] == PERCENT.text(data["p_pass"])


def test_a_cut_tail_is_what_the_outcomes_far_out_add_up_to(capsys):
    """d10-pool's 12 dice: the most successes are each far below 0.01%: one '≥ k' row."""
    tables = _md_tables(_printed(capsys, ("pmf", "d10-pool", "dice=12"), "md"))
    assert any(row[0].startswith("≥ ") and row[1] == "< 0.01%" for row in tables["Outcomes"])


def test_every_result_type_shows_itself_by_its_registered_views():
    from workbench import ladders, stateful  # noqa: F401  (every result type loaded)
    from workbench.views import analyses, shown  # noqa: F401  (their views: loaded when first shown)

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)
    types = {t for t in subclasses(RichResult) if t.__module__.startswith("workbench.")}
    assert {t.__name__ for t in types} >= {"Distribution", "CheckResult", "VersusResult", "Roll",
                                          "Joint", "StepsResult", "DramaResult", "BurnResult",
                                          "LadderSolution"}
    missing = [t.__name__ for t in types if shown.facts.dispatch(t) is shown.facts.dispatch(object)]
    assert missing == []


def test_showing_a_check_does_not_load_the_analyses_and_showing_theirs_does():
    code = ("import sys, workbench as wb\n"
            "print(repr(wb.check('uwr', dice=1)).splitlines()[0])\n"
            "print(any(m.startswith(('workbench.stateful', 'workbench.ladders')) for m in sys.modules))\n"
            "from workbench import stateful\n"
            "print(repr(stateful.clock(2)).splitlines()[0])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    first, loaded, clock = done.stdout.splitlines()
    assert first == "CheckResult uwr · exact · dice=1" and loaded == "False"
    assert clock.startswith("StepsResult exact · ")


def test_a_result_of_no_known_type_is_refused_by_name():
    with pytest.raises(TypeError, match="no display for int"):
        wb.views.text(3)


@pytest.mark.parametrize("fmt", ["md", "rst"])
def test_a_cut_tail_of_a_simulation_has_an_empty_standard_error(capsys, fmt):
    """The outcomes cut together into '≥ 12' have no one standard error: the cell is empty
    (it read "None"). CSV lists every outcome, each with its own."""
    text = _printed(capsys, ("pmf", "uwr", "dice=12", "--simulate", "--trials", "200000",
                             "--seed", "2"), fmt)
    tail = next(line for line in text.splitlines() if "≥ 12" in line)
    assert "None" not in text
    assert tail.rstrip("|").split("|")[-1].strip() == ""
