"""The explorer's views, rules editor, exports, shared page and simulated refinement, without a
browser: every number drawn or written against ``workbench.check`` (or numpy over its pmf)."""
from __future__ import annotations

import asyncio
import json
import struct

import numpy as np
import pytest

import workbench
from workbench.errors import WorkbenchError
from workbench.rules.text import TextError, entry_line, source_text, system_from_text
from workbench.widgets import (EntrySettings, Explorer, ExplorerSettings, export_view, figure,
                               figure_json)
from workbench.widgets.checks import buckets, summary
from workbench.widgets.axes import entry_axis
from workbench.widgets.data import Check, _curves, entry_curves, entry_spread
from workbench.widgets.editor import RulesEditor
from workbench.widgets.panels import SharePanel, suggested_knobs
from workbench.widgets.progressive import FIRST_TRIALS, Refiner, first_estimate

MIXED = ("uwr", "call-of-cthulhu-7e", "pbta", "savage-worlds", "erzahlspiel", "fons-exploding")


def _entries(*systems):
    return tuple(EntrySettings(s, {workbench.system(s).pool_parameter: 4} if s in ("uwr", "fons-exploding") else {})
                 for s in systems)


# -- a panel per kind of pool ------------------------------------------------------------
def test_systems_growing_different_pools_never_share_an_axis():
    fig = figure(ExplorerSettings(_entries(*MIXED), pool_sizes=tuple(range(1, 9))))
    axes: dict[str, set] = {}
    for trace in fig.data:
        axes.setdefault(trace.xaxis, set()).add(trace.legendgroup.split(" ")[0])
    assert sorted(map(sorted, axes.values())) == [["call-of-cthulhu-7e"], ["erzahlspiel"],
                                                   ["fons-exploding", "uwr"], ["pbta"],
                                                   ["savage-worlds"]]
    titles = {fig.layout[f"xaxis{k[1:]}"].title.text for k in axes}
    assert titles == {"dice in the pool", "skill", "stat", "trait", "difficulty rung"}
    notes = [a.text for a in fig.layout.annotations]   # each panel titled by its entries
    assert "uwr · fons-exploding" in notes and "call-of-cthulhu-7e" in notes


@pytest.mark.parametrize("system, axis", [("call-of-cthulhu-7e", "skill"), ("pbta", "stat"),
                                          ("savage-worlds", "trait")])
def test_a_skill_a_stat_and_a_die_size_are_drawn_along_their_own_values(system, axis):
    sys_ = workbench.system(system)
    fig = figure(ExplorerSettings(_entries(system)))
    assert fig.layout.xaxis.title.text == axis
    for trace in fig.data:
        for x, y in zip(trace.x, trace.y):
            given = {axis: x}
            if sys_.ladder:
                given = sys_.with_rung(trace.name, **given)
            want = workbench.check(sys_, **given).p_pass
            assert y == pytest.approx(want, abs=1e-12)
    if axis == "skill":
        assert list(fig.data[0].x) == list(range(5, 100, 5))


def test_no_legend_entry_repeats_a_word():
    entries = (EntrySettings("uwr", label="UWR · Normal", rungs=("Normal",)),
               EntrySettings("uwr", {"favor": 1}, rungs=("Normal", "Easy")))
    for view in ("curve", "difference"):
        fig = figure(ExplorerSettings(entries, view=view, pool_sizes=(1, 2)))
        for trace in fig.data:   # "UWR · Normal · Normal" never
            shown = trace.legendgrouptitle.text.split(" · ") + trace.name.split(" vs ")[:1]
            assert len(shown) == len(set(shown)), shown
        titles = [t.legendgrouptitle.text for t in fig.data]
        assert ("UWR" in titles) == (view == "curve")   # the baseline is not drawn minus itself


# -- difference --------------------------------------------------------------------------
def test_the_difference_view_with_one_system_says_what_is_needed():
    fig = figure_json(ExplorerSettings(_entries("uwr"), view="difference"))
    assert fig["data"] == []
    note = fig["layout"]["annotations"][0]["text"]
    assert "Add a second system or variant" in note and "entries" not in note.split("<br>")[1]


def test_the_difference_view_compares_only_entries_on_the_baselines_axis():
    settings = ExplorerSettings(_entries("uwr", "call-of-cthulhu-7e", "fons-exploding"),
                                view="difference", pool_sizes=(1, 2, 3))
    fig = figure(settings)
    assert {t.legendgroup for t in fig.data} == {"fons-exploding"}
    assert "not compared (another kind of pool): call-of-cthulhu-7e" in fig.layout.title.text
    uwr, fons = workbench.system("uwr"), workbench.system("fons-exploding")
    for trace in fig.data:
        mine, theirs = (trace.name.split(" vs ") + [trace.name])[:2]
        for n, y in zip(trace.x, trace.y):
            want = (workbench.check(fons, **fons.with_rung(mine, dice=n)).p_pass
                    - workbench.check(uwr, **uwr.with_rung(theirs, dice=n)).p_pass)
            assert y == pytest.approx(100 * want, abs=1e-10)
    alone = figure_json(ExplorerSettings(_entries("uwr", "call-of-cthulhu-7e"), view="difference"))
    assert alone["data"] == [] and "another kind of pool" in alone["layout"]["annotations"][0]["text"]


# -- one check ---------------------------------------------------------------------------
def test_an_exploding_tail_joins_its_neighbour_and_keeps_its_probability():
    entry = EntrySettings("fons-exploding", {"dice": 4}, rungs=())
    fig = figure(ExplorerSettings((entry,), view="outcomes"))
    pmf = workbench.check("fons-exploding", dice=4).pmf
    names = [t.name for t in fig.data]
    assert names[-1].startswith("net ≥ ") and len(names) < len(pmf)
    top = int(names[-1].split()[-1])
    assert fig.data[-1].y[0] == pytest.approx(sum(p for o, p in pmf.items() if o >= top), abs=1e-12)
    assert sum(t.y[0] for t in fig.data) == pytest.approx(1.0, abs=1e-9)
    assert fig.data[0].marker.color == "rgb(165, 0, 38)" and fig.data[-1].marker.color == "rgb(49, 54, 149)"
    check = Check(("as set",), "outcome", (0, 1, 2), (0.2, 0.3, 0.5))
    assert buckets([0, 1, 2], (check,)) == [(None, [0]), (None, [1]), (None, [2])]


# -- distribution, at least, at most -----------------------------------------------------
@pytest.mark.parametrize("system, params", [("uwr", {"dice": 5, "favor": 1}), ("dnd5e", {"modifier": 3}),
                                            ("erzahlspiel", {"die": "green"}), ("genesys", {})])
def test_distribution_views_draw_the_pmf_and_its_summary(system, params):
    pmf = workbench.check(system, **params).pmf
    entry = (EntrySettings(system, params),)
    shown = {}
    for view in ("distribution", "at_least", "at_most"):
        fig = figure(ExplorerSettings(entry, view=view))
        (trace,) = fig.data
        shown[view] = dict(zip(trace.x, trace.y))
    outcomes = list(pmf.outcomes)
    probabilities = np.array([p for _, p in pmf.items()])
    for i, outcome in enumerate(outcomes):
        key = outcome if pmf.numeric else str(outcome)
        if key not in shown["distribution"]:
            continue   # a negligible end left off the chart
        assert shown["distribution"][key] == pytest.approx(probabilities[i], abs=1e-12)
        assert shown["at_least"][key] == pytest.approx(pmf.at_least(outcome), abs=1e-12)
        assert shown["at_most"][key] == pytest.approx(probabilities[: i + 1].sum(), abs=1e-12)
    spread = entry_spread(entry[0], "exact", 1, None)
    line = summary(spread)
    if pmf.numeric:
        values = np.array(outcomes, dtype=float)
        mean = float(values @ probabilities)
        sd = float(np.sqrt(((values - mean) ** 2) @ probabilities))
        assert f"mean {mean:.2f} · SD {sd:.2f}" in line
        cumulative = np.cumsum(probabilities)
        median = outcomes[int(np.searchsorted(cumulative, 0.5 - 1e-12))]
        assert f"median {median} " in line
    else:
        assert "no mean" in line
    fig = figure(ExplorerSettings(entry, view="distribution"))
    assert line in fig.layout.annotations[0].text.replace("<br>", " ")


# -- the rules editor --------------------------------------------------------------------
def test_an_edited_copy_is_drawn_and_the_file_is_left_alone():
    before = source_text("uwr")
    explorer = Explorer(["uwr"], pool_sizes=range(1, 4))
    uwr = explorer.entries[0]
    uwr.knobs["favor"].value = 1
    uwr.edit_button.value = True
    editor = uwr.editor
    edited = before.replace("faces = [0, 0, 0, 0, 1, 1]", "faces = [0, 0, 0, 1, 1, 1]")
    editor.text.value = edited
    system = system_from_text(edited)
    assert uwr.edited and uwr.settings().knobs["favor"] == 1   # the knob kept its value
    normal = {f"{t.legendgroup} · {t.name}": t for t in explorer.figure.data}["uwr (edited) favor=1 · Normal"]
    want = [workbench.check(system, **system.with_rung("Normal", favor=1, dice=n)).p_pass for n in (1, 2, 3)]
    np.testing.assert_allclose(normal.y, want, atol=1e-12)
    assert want != [workbench.check("uwr", **workbench.system("uwr").with_rung("Normal", favor=1, dice=n)).p_pass
                    for n in (1, 2, 3)]
    assert source_text("uwr") == before and workbench.system("uwr").collection == "systems"
    drawn = explorer.plot.spec
    editor.text.value = edited.replace("[params.favor]", "[params.favor")
    line = edited.splitlines().index("[params.favor]") + 1
    assert f"line {line}" in editor.status.value and "▶ [params.favor" in editor.status.value
    assert explorer.plot.spec == drawn   # the last good rules stay drawn


def test_load_errors_name_their_line():
    text = source_text("uwr")
    with pytest.raises(TextError) as caught:
        system_from_text(text.replace("faces =", "facez =", 1))
    assert caught.value.line == text.splitlines().index("faces = [0, 0, 0, 0, 1, 1]   # 5+ succeeds at favor 0") + 1
    assert "facez" in str(caught.value)
    with pytest.raises(TextError) as caught:
        system_from_text(text + "\nname = 'again'\n")
    assert caught.value.line == len(text.splitlines()) + 2
    assert entry_line('[ladder]\nname = "x"\n[[ladder]]\nset = {a = 1}\n', "ladder.set") == 4
    seen = []
    editor = RulesEditor("fons-exploding", seen.append)   # a variant: its own file, its base loaded
    editor.text.value = editor.text.value + "\n"
    assert seen and seen[-1].base == "fons"


# -- export ------------------------------------------------------------------------------
def test_the_view_exports_as_tables_with_the_numbers_drawn(tmp_path):
    settings = ExplorerSettings(_entries("uwr", "call-of-cthulhu-7e"), pool_sizes=(1, 2, 3))
    uwr = workbench.system("uwr")
    md = export_view(settings, tmp_path / "odds.md").read_text()
    rst = export_view(settings, tmp_path / "odds.rst").read_text()
    csv = export_view(settings, tmp_path / "odds.csv").read_text()
    easy = workbench.check(uwr, **uwr.with_rung("Easy", dice=2)).p_pass
    assert f"| 2                  | {100 * easy:.1f}%" in md
    assert "**P(pass), exact (skill)**" in md and "skill 50" in md
    assert "+--" in rst and f"{100 * easy:.1f}%" in rst
    assert f",2,uwr · Easy,{easy:.6f}" in csv
    coc = workbench.system("call-of-cthulhu-7e")
    hard = workbench.check(coc, **coc.with_rung("Hard", skill=50)).p_pass
    assert f",skill 50,call-of-cthulhu-7e · Hard,{hard:.6f}" in csv
    one = ExplorerSettings(_entries("uwr"), view="difference")
    with pytest.raises(WorkbenchError, match="needs two entries"):
        export_view(one, tmp_path / "none.csv")
    with pytest.raises(WorkbenchError, match="allowed suffixes"):
        export_view(settings, tmp_path / "odds.xlsx")


def test_the_view_exports_as_a_print_size_png_and_an_svg(tmp_path):
    settings = ExplorerSettings(_entries("uwr", "pbta"), view="outcomes")
    png = export_view(settings, tmp_path / "odds.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert width == 2400 and height >= 1200   # 8 inches at 300 dpi
    svg = export_view(settings, tmp_path / "odds.svg").read_text()
    assert svg.lstrip().startswith("<svg") or "<svg" in svg[:400]
    assert "One check" in svg and "uwr dice=4" in svg


# -- the simulated view: an estimate, then the trials asked for -------------------------
def test_the_simulated_view_draws_a_first_estimate_then_the_full_trials():
    pytest.importorskip("numba")
    explorer = Explorer(["uwr"], pool_sizes=range(1, 5), trials=20_000, seed=3)
    specs = []
    explorer.plot.observe(lambda change: specs.append(json.loads(change["new"])), names="spec")
    explorer.method.value = "simulate"
    assert any("first estimate from 2,000 trials" in text for text in explorer.history)
    assert explorer.history[-1].endswith("simulated: 20,000 trials per point</span>")
    first, last = specs[0], specs[-1]
    assert f"{FIRST_TRIALS:,} trials, seed 3" in first["layout"]["title"]["text"]
    assert "20,000 trials, seed 3" in last["layout"]["title"]["text"]
    want = figure_json(ExplorerSettings(tuple(e.settings() for e in explorer.entries),
                                        method="simulate", trials=20_000, seed=3,
                                        pool_sizes=(1, 2, 3, 4)))
    assert last["data"][0]["y"] == want["data"][0]["y"]


def test_a_refinement_overtaken_by_a_change_is_dropped():
    shown, build_calls = [], []

    def build(settings):
        build_calls.append(settings.trials)
        return {"trials": settings.trials}

    refiner = Refiner(build, lambda s, f: shown.append(f["trials"]), lambda s, e: None)
    base = ExplorerSettings(_entries("uwr"), method="simulate", trials=50_000, seed=1)

    async def run():
        refiner.start(base)
        refiner.start(ExplorerSettings(_entries("uwr"), method="simulate", trials=60_000, seed=1))
        for _ in range(200):
            await asyncio.sleep(0.01)
            if len(build_calls) == 2 and shown:
                break
        await asyncio.sleep(0.05)

    asyncio.run(run())
    assert build_calls == [50_000, 60_000] and shown == [60_000]   # the first was obsolete
    quick = first_estimate(ExplorerSettings(_entries("uwr", "arrata"), method="simulate",
                                            pool_sizes=tuple(range(1, 41)), seed=1))
    points = 4 * len(quick.pool_sizes) + 6 * len(quick.pool_sizes)
    assert points <= 2 * 90 and quick.pool_sizes[-1] == 40


def test_a_moved_slider_has_its_next_steps_ready():
    explorer = Explorer(["uwr"], pool_sizes=range(1, 6))
    explorer.entries[0].knobs["favor"].value = 2
    explorer.prefetcher.pending.result(timeout=60)
    settings = explorer.settings()
    for favor in (1, 3):   # a step either way was computed in the background: memo hits
        step = EntrySettings("uwr", tuple((k, favor if k == "favor" else v)
                                          for k, v in settings.entries[0].params))
        axis = entry_axis("uwr", settings.pool_sizes, step.chosen_rungs())
        before = _curves.cache_info()
        entry_curves(step, axis, "exact", settings.trials, settings.seed)
        after = _curves.cache_info()
        assert (after.hits, after.misses) == (before.hits + 1, before.misses)


# -- sharing from the explorer -----------------------------------------------------------
def test_the_share_row_writes_a_page_of_the_entries(tmp_path):
    explorer = Explorer([EntrySettings("uwr", {"favor": 1}), "arrata"], pool_sizes=range(1, 5))
    assert suggested_knobs(explorer.settings()) == "favor=0-2"
    panel = SharePanel(explorer)
    panel.knobs.value = "favor=0-1 quality=B,A"
    panel.name.value = str(tmp_path / "odds.html")
    path = panel.write()
    text = path.read_text()
    assert "holds 4 settings" in text and "download" in panel.result.value
    panel.knobs.value = "bogus=1-2"
    assert panel.write() is None and "bogus" in panel.result.value


# -- one-line formulas -------------------------------------------------------------------
def test_a_formula_is_drawn_beside_the_systems_and_edited_in_place():
    explorer = Explorer(["uwr"], pool_sizes=range(1, 5))
    assert explorer.add_formula("4d6kq3") is None
    assert "column 5" in explorer.status.value and "<pre>4d6kq3\n<b>    ^</b></pre>" in explorer.status.value
    entry = explorer.add_formula("(@dice=5)d10cs>=8x")
    system = workbench.system("(@dice=5)d10cs>=8x")
    assert entry.knobs["dice"].value == 4 and not entry.edit_button.disabled
    lines = {f"{t.legendgroup} · {t.name}": t for t in explorer.figure.data}
    for rung in ("total >= 1", "total >= 3"):
        want = [workbench.check(system, **system.with_rung(rung, dice=n)).p_pass for n in (1, 2, 3, 4)]
        np.testing.assert_allclose(lines[f"(@dice=5)d10cs>=8x · {rung}"].y, want, atol=1e-12)
    entry.edit_button.value = True
    assert entry.editor.text.value == "(@dice=5)d10cs>=8x"
    entry.editor.text.value = "(@dice=5)d10cs>=9x"
    assert entry.settings().system == "(@dice=5)d10cs>=9x" and not entry.edited
    groups = {t.legendgroup for t in explorer.figure.data}
    assert "(@dice=5)d10cs>=9x" in groups and "(@dice=5)d10cs>=8x" not in groups
    entry.editor.text.value = "(@dice=5)d10cs>=9q"
    assert "column" in entry.editor.status.value and "^" in entry.editor.status.value
    needs = explorer.add_formula("1d20+@mod>=15")   # a knob without a default starts at 0
    assert needs.knobs["mod"].value == 0 and type(needs.knobs["mod"]).__name__ == "IntSlider"
    needs.knobs["mod"].value = 3
    bar = [t for t in explorer.figure.data if t.legendgroup.startswith("1d20")][0]
    assert bar.y[0] == pytest.approx(workbench.check("1d20+@mod>=15", mod=3).p_pass)


def test_a_data_file_copy_replaced_by_a_formula_becomes_that_formula():
    seen = []
    editor = RulesEditor("uwr", seen.append)
    editor.text.value = "  3d6kh2 \n"
    assert seen[-1].id == "3d6kh2" and seen[-1].collection == "formula"
    editor.text.value = 'id = "x"'   # one line of TOML is a data file, not a formula
    assert "entry" in editor.status.value and seen[-1].id == "3d6kh2"
