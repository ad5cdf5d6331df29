"""``workbench share`` and :func:`workbench.share.share_page`: the page's numbers are
``workbench.check``'s, it carries everything it needs, refuses up front a grid too large, and
stays under 2 MB for five systems with three knobs each."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import workbench
from workbench.errors import WorkbenchError
from workbench.share import GridTooLarge, share_grid, share_html, share_page
from workbench.share.grid import MILLION, parse_knob

WORKBENCH = [sys.executable, "-m", "workbench"]


def _page_data(text: str) -> dict:
    found = re.search(r'<script type="application/json" id="wb-data">(.*?)</script>', text, re.S)
    return json.loads(found.group(1).replace("<\\/", "</"))


def test_every_embedded_number_is_checks_own():
    grid = share_grid(["uwr", "call-of-cthulhu-7e"], {"favor": [-1, 0, 1], "bonus": [0, 2]},
                      pools=[1, 2, 5])
    uwr, coc = grid.systems
    assert grid.settings == 6 and uwr.knobs == ["favor"] and coc.knobs == ["bonus"]
    assert uwr.pools == [1, 2, 5] and coc.pools == list(range(10, 100, 10))  # its own axis
    for part, knob, values in ((uwr, "favor", [-1, 0, 1]), (coc, "bonus", [0, 2])):
        sys_ = part.system
        assert len(part.passes) == len(values)
        for setting, value in enumerate(values):
            for r, rung in enumerate(part.rungs):
                for p, size in enumerate(part.pools):
                    given = sys_.with_rung(rung, **{knob: value, sys_.pool_parameter: size})
                    want = workbench.check(sys_, **given).p_pass
                    assert part.passes[setting][r][p] == round(want * MILLION)
            for p, size in enumerate(part.pools):
                result = workbench.check(sys_, **{knob: value, sys_.pool_parameter: size})
                dist = result.tiers if result.tiers is not None else result.pmf
                got = dict(zip(part.outcomes, part.checks[setting][p]))
                for outcome, probability in dist.items():
                    assert got[outcome if isinstance(outcome, int) else str(outcome)] == \
                        round(probability * MILLION)
                assert sum(part.checks[setting][p]) == pytest.approx(MILLION, abs=len(part.outcomes))


def test_the_page_carries_everything_and_says_what_it_holds(tmp_path):
    out = share_page(["uwr", "erzahlspiel"], {"favor": [0, 1], "advantage": [-1, 0, 1]},
                     pools=range(1, 5), out=tmp_path / "odds.html", params={"rerolls": 1})
    text = out.read_text()
    assert "holds 6 settings (favor (2) × advantage (3)) of 2 systems" in text
    # no file or address fetched: no script or style from elsewhere, no link to follow
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", text)
    assert text.count('data-knob="favor"') == 1 and 'type="range"' in text
    assert 'data-knob="dice"' in text   # the one-check pool of uwr
    data = _page_data(text)
    assert [s["id"] for s in data["systems"]] == ["uwr", "erzahlspiel"]
    assert data["systems"][0]["passes"][1][1][3] == round(
        workbench.check("uwr", **workbench.system("uwr").with_rung("Normal", favor=1, rerolls=1, dice=4)).p_pass
        * MILLION)
    assert "held fixed: rerolls=1" in text
    assert "plotly.js" in text and len(text) < 2_000_000


def test_five_systems_with_three_knobs_each_fit_in_two_megabytes(tmp_path):
    knobs = {"favor": range(-2, 3), "rerolls": range(0, 5), "penalty": range(0, 5),
             "quality": ["B", "A", "S"], "advantage": range(0, 5), "ob": range(1, 6)}
    text = share_html(["uwr", "fons", "fons-exploding", "d10-pool", "arrata"], knobs)
    data = _page_data(text)
    assert [len(s["knobs"]) for s in data["systems"]] == [3, 3, 3, 3, 3]
    assert len(text.encode()) <= 2_000_000
    assert "holds 9,375 settings" in text


def test_a_grid_too_large_is_refused_up_front_in_one_line(tmp_path, monkeypatch):
    out = tmp_path / "big.html"
    done = subprocess.run([*WORKBENCH, "share", "uwr,fons", "--knob", "favor=-30-30", "--knob",
                           "rerolls=0-30", "--out", str(out)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("workbench: error: a page of 2 system(s) over "
                                                   "1,891 settings would hold about")
    assert "allowed: at most" in lines[0] and not out.exists()
    # Said before the numbers are computed (computing them takes minutes): nothing is.
    from workbench.share import grid as share_module
    computed = []
    monkeypatch.setattr(share_module, "compute", lambda grid: computed.append(grid) or grid)
    with pytest.raises(GridTooLarge):
        share_grid(["uwr"], {"favor": range(-40, 41), "rerolls": range(0, 41)})
    assert computed == []


@pytest.mark.parametrize("words, said", [
    (["--knob", "bogus=1-2"], "--knob got 'bogus'; allowed: a parameter of uwr: dice, favor"),
    (["--knob", "dice=1-3"], "--knob dice: dice is uwr's pool, the x axis of its chart"),
    (["--knob", "favor"], "--knob got 'favor'; allowed: NAME=LO-HI or NAME=V1,V2,..."),
    (["--knob", "favor=3-1"], "--knob favor got '3-1'; allowed: a range LO-HI with LO <= HI"),
    (["--knob", "favor=1,1"], "each value once"),
    (["--knob", "favor=0-1", "--knob", "favor=2-3"], "--knob favor is given twice"),
    (["--knob", "half=maybe"], "half"),
    (["favor=1", "--knob", "favor=0-1"], "both a knob and fixed"),
])
def test_bad_knobs_are_one_line_naming_what_is_allowed(tmp_path, assert_one_line, words, said):
    out = tmp_path / "odds.html"
    done = subprocess.run([*WORKBENCH, "share", "uwr", *words, "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert_one_line(done.returncode, done.stdout, done.stderr, contains=(said,))
    assert not out.exists()


def test_the_command_writes_the_page_and_says_so(tmp_path):
    out = tmp_path / "odds.html"
    done = subprocess.run([*WORKBENCH, "share", "uwr,call-of-cthulhu-7e", "--knob", "favor=0-1",
                           "--knob", "bonus=0,1", "--pools", "1-6", "--title", "Our odds",
                           "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(f"wrote {out} (") and "MB)" in done.stderr
    text = out.read_text()
    assert "<title>Our odds</title>" in text and "holds 4 settings" in text
    wrong = subprocess.run([*WORKBENCH, "share", "uwr", "--out", str(tmp_path / "odds.md")],
                           capture_output=True, text=True, timeout=120)
    assert wrong.returncode == 2 and "--out" in wrong.stderr and ".html" in wrong.stderr


def test_knobs_read_as_typed():
    assert parse_knob("favor=-2..0") == ("favor", [-2, -1, 0])
    assert parse_knob("quality=B, A") == ("quality", ["B", "A"])
    with pytest.raises(WorkbenchError, match="at most 200 values"):
        parse_knob("favor=0-500")


def test_formulas_are_shared_beside_systems(tmp_path):
    from workbench.cli._share import split_systems

    assert split_systems("uwr,{4d6, 3d8}kh") == ["uwr", "{4d6, 3d8}kh"]
    out = tmp_path / "odds.html"
    done = subprocess.run([*WORKBENCH, "share", "uwr,(@dice=5)d10cs>=8x,{4d6, 3d8}kh", "--knob",
                           "favor=0-1", "--pools", "1-4", "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    data = _page_data(out.read_text())
    formula, keep = data["systems"][1], data["systems"][2]
    assert formula["id"] == "(@dice=5)d10cs>=8x" and formula["pool"] == "dice"
    system = workbench.system("(@dice=5)d10cs>=8x")
    for r, rung in enumerate(formula["rungs"]):
        assert formula["passes"][0][r] == [round(workbench.check(system, **system.with_rung(rung, dice=n)).p_pass
                                                 * MILLION) for n in (1, 2, 3, 4)]
    best = workbench.check("{4d6, 3d8}kh").pmf
    assert keep["checks"][0][0] == [round(best[int(o)] * MILLION) for o in keep["outcomes"]]
    bad = subprocess.run([*WORKBENCH, "share", "4d6kq3", "--out", str(tmp_path / "x.html")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "column 5" in bad.stderr


@pytest.mark.parametrize("names, said", [
    ("uwr,HKRPG", "each system once ('uwr' is given twice: as 'uwr' and 'HKRPG')"),
    ("uwr,fons,UWR", "each system once ('uwr' is given twice: as 'uwr' and 'UWR')"),
    ("3d6,3d6", "each system once ('3d6' is given twice)"),
])
def test_a_system_named_twice_is_refused_not_drawn_twice(tmp_path, assert_one_line, names, said):
    out = tmp_path / "odds.html"
    done = subprocess.run([*WORKBENCH, "share", names, "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert_one_line(done.returncode, done.stdout, done.stderr, contains=(said,))
    assert not out.exists()


def test_one_system_at_two_settings_is_two_entries_and_at_one_setting_is_refused():
    from workbench.share.grid import plan
    assert len(plan([("uwr", {"favor": 0}), ("uwr", {"favor": 1})], {}).systems) == 2
    with pytest.raises(workbench.ParameterError, match="'uwr' is given twice with the same settings"):
        plan([("uwr", {"favor": 1}), ("uwr", {"favor": 1})], {})
