"""The balance report: one self-contained HTML page built in Python, and the notebook that
shows the same sections."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pandas as pd
import pytest

import workbench
from workbench.errors import WorkbenchError
from workbench.report import DEFAULT_WANTED, Table, build_report, report_sections, report_title

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "balance_report.ipynb"
RAW_NAME = re.compile(r"<th>[a-z]+_[a-z_]+</th>")  # pass_with_stderr_bound and the like


def test_sections_read_well_and_use_readable_columns():
    sections = report_sections(["uwr", "unnamed", "erzahlspiel"], ["fons-exploding"], [1, 2, 3, 4])
    titles = [s.title for s in sections]
    assert titles == ["At a glance", "Success curves", "Difficulty ladders", "What-if variants",
                      "Tiers and outcomes", "Stateful rules"]   # nothing solved unless asked
    curves = sections[1].items[0]
    # small multiples: one panel per pooled system, never one overloaded chart
    assert [a.text for a in curves.layout.annotations] == [
        "UWR (= HKRPG)", "The Unnamed System", "FoNS, exploding 6s"]
    assert len({t.xaxis for t in curves.data}) == 3
    for section in sections:
        for item in section.items:
            if isinstance(item, Table):
                html = item.html()
                assert not RAW_NAME.search(html), (section.title, RAW_NAME.search(html))
    drama = [i for i in sections[-1].items if isinstance(i, Table) and "Drama" in i.caption][0]
    assert "± (standard error, at most)" in drama.html()


def test_solved_ladder_is_drawn_over_pools_one_to_ten():
    sections = report_sections(["uwr"], pool_sizes=range(1, 11), wanted=DEFAULT_WANTED)
    solved = sections[3]
    figure = [item for item in solved.items if hasattr(item, "data")][0]
    curves = [t for t in figure.data if t.mode == "lines+markers"]
    assert [list(t.x) for t in curves] == [list(range(1, 11))] * 4
    solution = workbench.ladders.solve_ladder(
        "uwr", "Easy=0.9,Normal=0.7,Difficult=0.45,Extreme=0.2", pool=4, pools=range(3, 7))
    for trace, rung in zip(curves, solution.rungs):
        assert trace.y[3] == pytest.approx(rung.achieved)


def _solved_tables(sections):
    solved = [s for s in sections if s.title == "Ladders solved for wanted odds"][0]
    return solved, {t.caption: t.frame for t in solved.items if isinstance(t, Table)}


def _ob_truth(dice: int, ob: int) -> float:
    """Arrata, quality B (4+), every roll of the dice counted: P(successes >= Ob)."""
    import itertools
    rolls = list(itertools.product(range(1, 7), repeat=dice))
    return sum(sum(f >= 4 for f in faces) >= ob for faces in rolls) / len(rolls)


def test_without_want_each_ladder_is_shown_as_written_and_nothing_is_solved():
    """Arrata's "Ob 1..Ob 6" was solved again into ob=1, 2, 2, 2, 3, 3 and marked NOT ORDERED:
    without --want the report shows each ladder as its file writes it and solves nothing."""
    sections = report_sections(["uwr", "fons", "unnamed", "arrata"], pool_sizes=[1, 2, 3, 4, 5])
    assert "Ladders solved for wanted odds" not in [s.title for s in sections]
    ladders = [s for s in sections if s.title == "Difficulty ladders"][0]
    tables = {t.caption: t.frame for t in ladders.items if isinstance(t, Table)}
    arrata = tables["Arrata"]
    assert arrata["Difficulty"].tolist() == [f"Ob {n}" for n in range(1, 7)]
    assert arrata["Setting"].tolist() == [f"ob={n}" for n in range(1, 7)]
    for row in arrata.itertuples(index=False):
        ob = int(row.Setting.removeprefix("ob="))
        for dice, p in zip(range(1, 6), row[2:]):
            assert p == pytest.approx(_ob_truth(dice, ob), abs=1e-12), (ob, dice)
    words = " ".join([s.intro for s in sections] + [i for s in sections for i in s.items
                                                    if isinstance(i, str)])
    assert "NOT ORDERED" not in words and "not ordered" not in words
    assert "--want" in ladders.intro   # how to ask for solved ladders
    figures = [i for s in sections for i in s.items if hasattr(i, "layout")]
    assert not any("solved" in (f.layout.title.text or "") for f in figures)


def test_a_skill_is_named_as_the_system_names_it_never_dice():
    """The report called Call of Cthulhu's skill "dice" ("odds wanted at 50 dice; shaded:
    pools 50-50", axes "dice in the pool (skill)")."""
    sections = report_sections(["uwr", "call-of-cthulhu-7e"], pool_sizes=range(1, 11),
                               wanted="Regular=0.5,Hard=0.25")
    figures = [i for s in sections for i in s.items if hasattr(i, "layout")]
    curves = sections[1].items[0]
    assert curves.layout.xaxis.title.text == "dice in the pool"
    assert curves.layout.xaxis2.title.text == "skill"
    assert "skill" in sections[1].intro and "against the number of dice" not in sections[1].intro
    solved = [f for f in figures if "solved ladder" in f.layout.title.text][0]
    assert "odds wanted at skill 50" in solved.layout.title.text
    assert "dice" not in solved.layout.title.text and solved.layout.xaxis.title.text == "skill"
    for fig in figures:
        if "Call of Cthulhu" in (fig.layout.title.text or ""):
            texts = [fig.layout.title.text, fig.layout.xaxis.title.text or ""] + [
                tr.hovertemplate or "" for tr in fig.data]
            assert not any("dice" in text for text in texts), texts
    solved_section = [s for s in sections if s.title == "Ladders solved for wanted odds"][0]
    assert "skill 50" in solved_section.intro


def test_a_given_want_applies_where_the_rung_names_fit_and_others_say_so_once():
    solved, tables = _solved_tables(report_sections(
        ["uwr", "fons", "unnamed"], pool_sizes=[4], wanted="normal=0.7,Difficult=0.45"))
    assert tables["UWR (= HKRPG)"]["rung"].tolist() == ["Normal", "Difficult"]
    assert tables["UWR (= HKRPG)"]["wanted"].tolist() == [0.7, 0.45]
    notes = [item for item in solved.items if isinstance(item, str)]
    assert len(notes) == 2 and notes[0].startswith("FoNS: its rungs (Trivial, Average")
    assert "shown above as written" in notes[0]
    assert "FoNS" not in tables   # not solved for odds asked of other rungs
    assert "normal 70%, Difficult 45%" in solved.intro  # as typed
    text = " ".join(frame["note"].str.cat(sep=" ") for frame in tables.values())
    assert "Easy" not in text  # no rung of another system's ladder leaks into the notes


def test_notes_are_one_sentence_that_say_what_would_reach_the_rung():
    _, tables = _solved_tables(report_sections(
        ["unnamed"], pool_sizes=[4], wanted="Success with a Twist=0.9,Success=0.57,Triumph=0.2"))
    for note in tables["The Unnamed System"]["note"]:
        assert note and note.count("would be as likely as") <= 1 and "\n" not in note
        assert "would come within 5.0 pp of it at" in note  # the pool that would reach it
    first = tables["The Unnamed System"]["note"].iloc[0]
    assert first.startswith("cannot reach 90.0% at 4d6 (the settings tried give 0.0% to 55.6%)")


def test_text_speaks_only_of_what_the_report_contains():
    sections = report_sections(["uwr", "arrata"], pool_sizes=[1, 2, 3, 4])
    words = " ".join(s.intro + " ".join(i for i in s.items if isinstance(i, str)) for s in sections)
    for absent in ("clock", "condition", "narrative", "single die", "Drama", "die colour"):
        assert absent not in words, absent
    assert [s.title for s in sections][-1] != "Stateful rules"
    with_dice = report_sections(["unnamed", "erzahlspiel"], pool_sizes=[1, 2])
    intros = {s.title: s.intro for s in with_dice}
    assert "Erzählspiel narrative dice rolls a single die" in intros["Success curves"]
    assert "The Unnamed System: tiers by pool size" in intros["Tiers and outcomes"]
    assert "clocks and conditions" in intros["Stateful rules"] and "Drama Dice" in intros["Stateful rules"]
    assert "Drama" not in " ".join(s.intro for s in report_sections(["erzahlspiel"], pool_sizes=[1]))


def test_five_system_report_is_at_most_two_megabytes_with_the_basic_bundle(tmp_path):
    from workbench.figures.bundle import BASIC_BUNDLE
    out = build_report(tmp_path / "five.html")
    html = out.read_text(encoding="utf-8")
    assert out.stat().st_size <= 2_000_000, out.stat().st_size
    assert "plotly.js (basic - minified)" in html and html.count("plotly.js (basic") == 1
    assert BASIC_BUNDLE.read_text(encoding="utf-8")[:2000] in html


def test_a_page_with_other_traces_gets_the_full_bundle():
    import plotly.graph_objects as go

    from workbench.figures.bundle import plotly_script
    full = plotly_script([go.Figure(go.Heatmap(z=[[1, 2]]))])
    basic = plotly_script([go.Figure(go.Bar(y=[1]))])
    assert len(full) > 3 * len(basic) and "heatmap" in full


def test_glance_table_gives_each_ladder_at_four_dice():
    glance = report_sections(["arrata"], pool_sizes=[4])[0].items[0]
    text = glance.html()
    p_ob3 = workbench.check("arrata", dice=4, ob=3).p_pass
    assert p_ob3 == 5 / 16 and "Ob 3 31.3%" in text   # halves up, as workbench table writes it


def test_page_is_self_contained_with_a_real_title(tmp_path):
    out = build_report(tmp_path / "r.html", ["uwr", "erzahlspiel"], pool_sizes=[1, 2, 3])
    html = out.read_text(encoding="utf-8")
    assert "<title>Balance report: UWR (= HKRPG), Erzählspiel narrative dice</title>" in html
    assert "<script src=" not in html and html.count("Plotly.newPlot") >= 3
    # every figure keeps an explicit pixel height inside the page
    heights = re.findall(r'<div class="figure"><div style="height:(\d+)px', html)
    assert heights and all(int(h) >= 300 for h in heights)
    assert "<th>3 dice</th>" in html and "<th>4 dice</th>" not in html  # the pools asked for


def test_bad_choices_are_one_line_errors(tmp_path):
    with pytest.raises(WorkbenchError, match="ending in .html"):
        build_report(tmp_path / "r.txt")
    with pytest.raises(WorkbenchError, match="does not exist"):
        build_report(tmp_path / "missing" / "r.html")
    with pytest.raises(WorkbenchError, match="names no rung|RUNG"):
        build_report(tmp_path / "r.html", wanted="")
    assert report_title(["uwr"], ["fons-exploding"]) == "Balance report: UWR (= HKRPG) + FoNS, exploding 6s"


@pytest.mark.parametrize("args, kwargs, match", [
    ((None,), {}, "out got None; allowed: a file name ending in .html"),
    ((3,), {}, "out got 3"),
    (("R.html", None), {}, "systems got None; allowed: a list of system ids"),
    (("R.html", ["uwr"], None), {}, "variants got None"),
    (("R.html", ["uwr"], (), None), {}, "pool_sizes got None; allowed: whole numbers"),
    (("R.html", ["uwr"], (), ["a"]), {}, "pool_sizes got 'a'; allowed: a whole number"),
    (("R.html", ["uwr"], (), [1.5]), {}, "pool_sizes got 1.5"),  # was silently pool 1
    (("R.html", ["uwr"]), {"wanted": ["Easy"]}, r"--want got \['Easy'\]; allowed: text"),
    (("R.html", ["uwr"]), {"wanted": 3}, "--want got 3"),
    (("R.html", ["uwr"]), {"progress": "x"}, "progress got 'x'; allowed: True or False"),
])
def test_bad_arguments_are_workbench_errors(tmp_path, args, kwargs, match):
    args = tuple(tmp_path / a if a == "R.html" else a for a in args)
    with pytest.raises(WorkbenchError, match=match):
        build_report(*args, **kwargs)
    assert not (tmp_path / "R.html").exists()


def test_differences_keep_their_unit_on_the_same_line():
    # Seen in the report in JupyterLab: "-13.8" with "pp" wrapped onto a line of its own.
    table = Table("t", pd.DataFrame({"error": [-0.138, 0.005]}), pp=("error",))
    assert table.text_frame()["off by"].tolist() == ["-13.8\u00a0pp", "+0.5\u00a0pp"]


def test_standard_errors_and_counts_read_as_designers_write_them():
    # Seen in the report: "± (standard error, at most) 0.4%" and "campaigns simulated 20000".
    frame = pd.DataFrame({"pass_with_stderr_bound": [0.0035], "trials": [20_000], "seed": [12345]})
    text = Table("t", frame, stderr=("pass_with_stderr_bound",)).text_frame()
    assert [str(v) for v in text.iloc[0].tolist()] == ["0.35\u00a0pp", "20,000", "12345"]  # seeds as they are


def test_one_system_id_is_not_split_into_letters():
    assert report_title("uwr") == "Balance report: UWR (= HKRPG)"
    with pytest.raises(WorkbenchError, match="systems got None"):
        report_sections(None)


def test_cli_report_says_what_it_wrote_and_nothing_on_stderr(tmp_path):
    out = tmp_path / "report.html"
    done = subprocess.run([sys.executable, "-m", "workbench", "report", "--out", str(out),
                           "--systems", "uwr,unnamed,erzahlspiel", "--variant", "fons-exploding",
                           "--pools", "1-4"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no kernel, no warnings
    assert done.stdout.startswith(f"wrote {out} (") and "Balance report" in done.stdout
    html = out.read_text(encoding="utf-8")
    for text in ("FoNS, exploding 6s", "Success with a Twist", "YES! AND...", "Stateful rules",
                 "Clocks", "Conditions", "Drama Dice", "What-if variants"):
        assert text in html, text
    assert "<th>4 dice</th>" in html and "<th>5 dice</th>" not in html


def test_cli_report_bad_want_is_status_2(one_line_error, tmp_path):
    one_line_error("report", "--out", str(tmp_path / "r.html"), "--want", "Easy=2", contains=("Easy",))


def test_notebook_shows_the_same_sections():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    first = nb.cells[0]
    assert first.cell_type == "markdown" and "question this notebook answers" in first.source
    source = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "code")
    assert "report_sections(" in source and "show_sections(" in source


def test_ctrl_c_stops_the_report_with_one_line(tmp_path):
    """No kernel to tear down: an interrupt ends the command with one line, no traceback."""
    import signal
    import time

    process = subprocess.Popen(
        [sys.executable, "-m", "workbench", "report", "--out", str(tmp_path / "r.html"),
         "--pools", "1-100", "--systems", "uwr,fons,unnamed,arrata,erzahlspiel,owod,cofd,l5r-4e",
         "--variant", "fons-exploding", "--variant", "arrata-cancelling", "--variant", "d10-pool"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Interrupt once the command is at work: past 1 s of CPU time (imports take ~0.5 s; the
    # whole report about 2.8 s with warm kernels, far more while numba compiles them),
    # however loaded the machine is. (At 1.5 s of a 2.4 s report, a test process starved on a
    # loaded machine sometimes sent its Ctrl-C after the report had finished.)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") > 1.0:
            break
        time.sleep(0.02)
    assert process.poll() is None, "the report finished before it could be interrupted"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert err == "workbench: interrupted\n" and "Traceback" not in err
    assert not (tmp_path / "r.html").exists()  # nothing half-written


def test_the_notebook_view_stays_within_jupyterlabs_outputs_a_cell(monkeypatch):
    """balance_report.ipynb showed every heading, caption, table and note as an output of its
    own: 52 for the default report, past JupyterLab's 50 (the rest hidden). Text and tables
    between figures now go out together: one output per figure and per run of text."""
    import IPython.display

    from workbench.report import show_sections

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda *objects: shown.extend(objects))
    sections = report_sections(["uwr", "fons", "unnamed", "arrata", "erzahlspiel"],
                               ["fons-exploding"], range(1, 11), wanted=DEFAULT_WANTED)
    show_sections(sections)
    figures = [item for s in sections for item in s.items if hasattr(item, "layout")]
    html = [item for item in shown if isinstance(item, IPython.display.HTML)]
    assert len(shown) == len(figures) + len(html) <= 2 * len(figures) + 1 <= 50
    text = "".join(item.data for item in html)
    for section in sections:   # every heading, caption and note still shown
        assert section.title in text
        for item in section.items:
            if isinstance(item, Table) and item.caption:
                assert html_escape(item.caption) in text
            elif isinstance(item, str):
                assert html_escape(item) in text


def html_escape(text: str) -> str:
    import html
    return html.escape(text)
