"""Results in notebooks: every result type shows a compact HTML table with its key figures,
a readable repr, and a tidy DataFrame from ``to_frame()``."""
from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from html.parser import HTMLParser

import pytest

import workbench as wb
from workbench.numbers import round_sig
from workbench.export.tables import NumberFormat

PCT = NumberFormat("percent", 2)
VOID = {"br", "hr", "img", "meta", "input"}


class _Page(HTMLParser):
    """Checks the tags nest and collects the text of every cell."""

    def __init__(self):
        super().__init__()
        self.stack, self.cells, self.headers, self._cell = [], [], [], None
        self.facts = None  # cells in the first table

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (self.stack, tag)
        self.stack.pop()
        if tag == "table" and self.facts is None:
            self.facts = len(self.cells)
        if tag in ("td", "th"):
            (self.headers if tag == "th" else self.cells).append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def parse(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    page.close()
    assert page.stack == []
    return page


def facts(page: _Page) -> dict[str, str]:
    """The key-figure table (the first table): its header row against its data row."""
    return dict(zip(page.headers[:page.facts], page.cells[:page.facts]))


def test_check_result_shows_pass_mean_and_its_outcomes():
    result = wb.check("uwr", dice=4, favor=1, rerolls=2, target=2)
    page = parse(result._repr_html_())
    assert facts(page)["P(pass)"] == "89.06%" and facts(page)["mean"] == "2.8125"
    for outcome, p in result.pmf.items():
        assert str(outcome) in page.cells and PCT.text(p) in page.cells
    frame = result.to_frame()
    assert list(frame.columns) == ["outcome", "probability", "at_least"]
    assert frame["probability"].sum() == pytest.approx(1.0)
    assert frame["at_least"].iloc[2] == pytest.approx(result.p_pass)
    text = repr(result)
    assert text.startswith("CheckResult uwr · exact · dice=4, favor=1, rerolls=2, target=2")
    assert "P(pass) 89.06%" in text and "array(" not in text


def test_tiers_are_shown_beside_the_outcomes():
    result = wb.check("unnamed", d6=3, d8=2)
    page = parse(result._repr_html_())
    for tier, p in result.tiers.items():
        assert tier in page.cells
    assert "tier" in page.headers and "outcome" in page.headers


def test_simulated_result_shows_stderr_trials_and_seed():
    result = wb.simulate("unnamed", trials=50_000, seed=3, d6=3, d8=2, target=1)
    shown = facts(parse(result._repr_html_()))
    assert shown["P(pass)"] == f"{PCT.text(result.p_pass)} ± {result.p_pass_stderr * 100:.2f} pp"
    assert shown["trials"] == "50,000" and shown["seed"] == "3"
    assert shown["mean"].startswith(f"{round(result.mean, 4):g}"[:4]) and "±" in shown["mean"]
    frame = result.to_frame()
    assert list(frame.columns) == ["outcome", "probability", "at_least", "stderr"]
    assert frame["stderr"].tolist() == pytest.approx(list(result.pmf.stderr))


def test_lost_mass_is_a_key_figure_when_there_is_some():
    result = replace(wb.check("fons-exploding", dice=3), lost_mass=2e-9)
    assert facts(parse(result._repr_html_()))["lost mass"] == "2.0e-09"
    assert "lost mass" not in facts(parse(wb.check("uwr", dice=3)._repr_html_()))


def test_long_distribution_tails_are_cut_in_the_view_not_in_the_frame():
    result = wb.check("fons-exploding", dice=8)
    page = parse(result._repr_html_())
    assert page.cells[-1] == "< 0.01%" and page.cells[-2].startswith("≥ ")
    assert len(result.to_frame()) == len(result.pmf)


def test_versus_roll_and_distribution():
    versus = wb.versus("uwr", actor={"dice": 4}, reactor={"dice": 3})
    shown = facts(parse(versus._repr_html_()))
    assert shown["P(actor passes)"] == PCT.text(versus.p_actor) and shown["ties go to"] == "reactor"
    assert list(versus.to_frame().columns) == ["margin", "probability", "at_least"]
    roll = wb.score("arrata", [1, 2, 4, 5, 6], stat="A6", disadvantage=2)
    assert facts(parse(roll._repr_html_()))["net"] == "2"
    assert roll.to_frame().to_dict("records") == [{"system": "arrata", "successes": 3, "failures": 1,
                                                   "net": 2, "outcome": 2, "tier": None, "passed": None}]
    assert repr(roll).splitlines()[1] == "  successes 3; failures 1; net 2; outcome 2"
    narrative = wb.check("erzahlspiel", die="green").pmf
    assert "YES! AND..." in parse(narrative._repr_html_()).cells
    assert narrative.to_frame()["outcome"].tolist() == list(narrative.outcomes)


def test_steps_result():
    result = wb.taken_out(reactor="red", mode="resist", death_spiral=True)
    page = parse(result._repr_html_())
    assert facts(page)["mean exchanges"] == f"{round_sig(result.mean, 6):g}"
    assert len(result.frame) > 15 and f"… {len(result.frame) - 15} more rows" in result._repr_html_()
    assert result.to_frame().equals(result.frame)
    assert repr(result).startswith("StepsResult exact")


def test_drama_and_burn_results_read_as_tables():
    drama = wb.drama_campaign(players=4, tier=1, session=[{"d6": 3}] * 3, trials=4096, seed=1)
    shown = facts(parse(drama._repr_html_()))
    assert shown["P(pass) with Drama Dice"] == PCT.text(drama.summary["pass_with"].iloc[0])
    assert shown["pool maximum"] == "10" and shown["trials"] == "4096"
    assert "pass_with_stderr_bound" not in drama._repr_html_()  # readable names only
    frame = drama.to_frame()
    assert len(frame) == 3 and {"session", "check", "p_pass_with"} <= set(frame.columns)
    burn = wb.burn_scene([{"d6": 2, "traits": ["Strong"]}, "rest", {"d6": 3}],
                         traits={"Strong": 2}, trials=4096, seed=2)
    # A burn scene pulls no Drama Dice: its figures say burning, never Drama Dice.
    shown = facts(parse(burn._repr_html_()))
    assert shown["P(pass) with burning"] == PCT.text(burn.summary["pass_with_burning"].iloc[0])
    assert "Drama" not in burn._repr_html_()
    table = wb.readable_table(burn.summary)
    assert "P(pass) with burning" in table.columns and not any("Drama" in c for c in table.columns)
    assert list(burn.to_frame().columns)[-1] == "Trait: Strong" and len(burn.to_frame()) == 2


def test_ladder_solution():
    solution = wb.solve_ladder("uwr", "Easy=0.9,Normal=0.7,Difficult=0.45,Extreme=0.2",
                               pools=range(3, 7))
    page = parse(solution._repr_html_())
    assert facts(page)["ordered"] == "yes" and facts(page)["unreachable"] == "Extreme"
    assert "target=2, favor-1" in page.cells and "26.3%" in page.cells  # Extreme at 6 dice
    assert solution.to_frame().equals(solution.table())


def test_import_workbench_does_not_load_pandas():
    code = "import sys, workbench; print('pandas' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr
