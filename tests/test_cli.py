"""The command-line contract: ``workbench systems | pmf | versus`` and its errors.

Most tests call :func:`workbench.cli.main` in-process (fast); one runs ``python -m
workbench`` and one the installed console script, to prove both entry points exist.
"""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from _deps import need

import workbench
import workbench as wb

from conftest import run_cli

REPO = Path(__file__).resolve().parents[1]
CONSOLE_SCRIPT = Path(sys.executable).with_name("workbench")

# Keys every exact ``pmf --format json`` object may carry (RULES/CLI contract), and the
# derived facts each system adds beside them (printed by the CLI, documented per system).
CONTRACT_KEYS = {"system", "params", "method", "pmf", "tiers", "p_pass", "mean", "lost_mass"}


def run(capsys, *argv):
    return run_cli(capsys, *argv)


def pmf_json(capsys, *argv) -> dict:
    code, out, err = run(capsys, "pmf", *argv, "--format", "json")
    assert code == 0, err
    assert err == ""
    return json.loads(out)


# ---------------------------------------------------------------------------------------
# workbench systems

def test_systems_text_lists_every_system(capsys):
    code, out, err = run(capsys, "systems")
    assert code == 0 and err == ""
    for sys_ in workbench.systems():
        assert f"{sys_.id}" in out and sys_.name in out
    assert "hkrpg" in out
    assert "Easy (target=1, favor+1)" in out
    # Defaults as they are typed (half=true, not True) and aligned under each other.
    uwr = out.split("\nfons")[0].splitlines()
    assert any(line.startswith("    half = false        true or false;") for line in uwr)
    assert any(line.startswith("    target = (not set)  a whole number") for line in uwr)


def test_systems_json(capsys):
    code, out, _ = run(capsys, "systems", "--format", "json")
    assert code == 0
    listing = json.loads(out)
    ids = [entry["id"] for entry in listing]
    assert ids[:5] == ["uwr", "fons", "unnamed", "arrata", "erzahlspiel"]
    assert set(ids) >= {"fons-exploding", "d10-pool", "arrata-cancelling", "erzahlspiel-six-dice"}
    uwr = listing[0]
    assert uwr["aliases"] == ["hkrpg"]
    assert set(uwr["parameters"]) == {"dice", "favor", "rerolls", "half", "penalty", "target"}
    assert uwr["parameters"]["favor"]["default"] == 0
    assert [r["name"] for r in uwr["ladder"]] == ["Easy", "Normal", "Difficult", "Extreme"]
    unnamed = listing[ids.index("unnamed")]
    assert set(unnamed["rule_options"]) == {"bounce_on", "origin_bounce", "fail_on", "disaster", "drama_pool"}
    arrata = listing[ids.index("arrata")]
    assert set(arrata["rule_options"]) == {"disadvantage_mode", "allow_negative", "combine"}


# ---------------------------------------------------------------------------------------
# workbench pmf: the JSON object

def assert_contract(data: dict, system_id: str):
    assert set(data) <= CONTRACT_KEYS, set(data) - CONTRACT_KEYS
    assert data["system"] == system_id
    assert data["method"] == "exact"
    assert set(data["params"]) == set(workbench.system(system_id).params)
    assert abs(sum(data["pmf"].values()) - 1.0) <= data["lost_mass"] + 1e-12
    assert all(isinstance(k, str) for k in data["pmf"])
    assert 0.0 <= data["lost_mass"] <= 1e-12


def test_pmf_arrata_example(capsys):
    data = pmf_json(capsys, "arrata", "quality=B", "dice=5", "advantage=1", "ob=3")
    assert_contract(data, "arrata")
    assert data["params"] == {"quality": "B", "dice": 5, "advantage": 1, "disadvantage": 0, "ob": 3,
                              "disadvantage_mode": "dice", "allow_negative": False,
                              "combine": "independent"}
    api = workbench.check("arrata", quality="B", dice=5, advantage=1, ob=3)
    assert data["pmf"] == pytest.approx({str(o): p for o, p in api.pmf.items()}, abs=1e-15)
    assert data["p_pass"] == pytest.approx(api.p_pass)
    assert data["p_pass"] == pytest.approx(sum(p for o, p in data["pmf"].items() if int(o) >= 3))
    assert data["mean"] == pytest.approx(sum(int(o) * p for o, p in data["pmf"].items()))
    assert "tiers" not in data
    assert api.extra["effective_ob"] == 3


def test_pmf_uwr_example_as_json(capsys):
    code, out, _ = run(capsys, "pmf", "uwr", "dice=4", "favor=1", "rerolls=2", "target=2",
                       "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert_contract(data, "uwr")
    assert data["params"] == {"dice": 4, "favor": 1, "rerolls": 2, "half": False, "penalty": 0,
                              "target": 2}
    assert list(data["pmf"]) == ["0", "1", "2", "3", "4"]
    assert data["p_pass"] == pytest.approx(data["pmf"]["2"] + data["pmf"]["3"] + data["pmf"]["4"])
    assert isinstance(data["mean"], float)
    assert data["lost_mass"] == 0.0


def test_pmf_uwr_without_target_has_no_p_pass(capsys):
    data = pmf_json(capsys, "uwr", "dice=3")
    assert "p_pass" not in data
    assert data["params"]["target"] is None
    fons = pmf_json(capsys, "fons", "dice=3", "target=1")
    assert fons["p_pass"] == pytest.approx(1 - (4 / 6) ** 3)


def test_pmf_erzahlspiel_example(capsys):
    data = pmf_json(capsys, "erzahlspiel", "die=green", "dice=d6")
    assert_contract(data, "erzahlspiel")
    assert list(data["pmf"]) == ["NO! AND...", "NO!", "NO! BUT...", "YES! BUT...", "YES!", "YES! AND..."]
    assert "YES! BUT..." in data["pmf"]
    assert "mean" not in data  # labels have no mean
    assert data["p_pass"] == pytest.approx(1 - (3 / 6) ** 2)  # 2d6 keep highest: a 4+ anywhere
    assert data["params"] == {"die": "green", "advantage": 0, "ladder": "steps", "dice": "d6"}


def test_pmf_unnamed_has_six_tiers_and_p_pass(capsys):
    data = pmf_json(capsys, "unnamed", "d6=2", "d8=1")
    assert_contract(data, "unnamed")
    assert list(data["tiers"]) == ["Disaster", "Failure", "Marginal Failure", "Success with a Twist",
                                   "Success", "Triumph"]
    assert "p_pass" in data and "mean" in data
    assert sum(data["tiers"].values()) == pytest.approx(1.0, abs=1e-12)


def test_pmf_accepts_aliases_variants_and_stat_notation(capsys):
    assert pmf_json(capsys, "hkrpg", "dice=2")["system"] == "uwr"
    assert pmf_json(capsys, "fons-exploding", "dice=2")["system"] == "fons-exploding"
    assert pmf_json(capsys, "arrata", "stat=B5")["params"]["dice"] == 5


# ---------------------------------------------------------------------------------------
# Other formats

def test_pmf_markdown(capsys):
    code, out, _ = run(capsys, "pmf", "uwr", "dice=2", "target=1", "--format", "md")
    assert code == 0
    assert "**Outcomes**" in out and "**Summary**" in out
    assert any(set(line) <= set("|-: ") and "-" in line for line in out.splitlines())  # rule row
    assert "p_pass" in out and "55.56%" in out


@pytest.mark.parametrize("fmt", ["md", "rst", "csv"])
def test_simulated_pmf_table_names_the_run_so_it_can_be_repeated(capsys, fmt):
    # Without --seed the seed is fresh: a table that did not say it could never be repeated.
    code, out, _ = run(capsys, "pmf", "uwr", "dice=4", "target=2", "--simulate", "--trials", "3000",
                       "--format", fmt)
    assert code == 0
    cells = {}
    for line in out.splitlines():
        parts = [p.strip() for p in line.replace("|", ",").split(",") if p.strip()]
        if len(parts) == 2 and parts[0] in ("trials", "seed", "p_pass"):
            cells[parts[0]] = parts[1]
    assert cells["trials"] == "3000"
    again = wb.simulate("uwr", dice=4, target=2, trials=3000, seed=int(cells["seed"]))
    if fmt == "csv":
        assert float(cells["p_pass"]) == pytest.approx(again.p_pass, abs=1e-14)
    else:
        assert cells["p_pass"] == f"{100 * again.p_pass:.2f}%"
    code, out, _ = run(capsys, "pmf", "uwr", "dice=4", "target=2", "--format", fmt)
    assert "seed" not in out and "trials" not in out          # an exact table has neither


def test_pmf_rst_is_valid_restructuredtext(capsys):
    docutils_core = need("docutils.core")
    code, out, _ = run(capsys, "pmf", "unnamed", "d6=3", "--format", "rst")
    assert code == 0
    html = docutils_core.publish_string(out, writer="html",
                                        settings_overrides={"report_level": 2, "halt_level": 2})
    assert b"<table" in html and b"Marginal Failure" in html
    # Every cell against a count of every roll of 3d6: 5-6 a success, a 1 cancels one, every
    # die a 1 a Disaster; tiers by net successes as the Unnamed System's table names them.
    import itertools
    from _tables import as_dict, number, tables

    nets: dict[int, float] = {}
    tiers: dict[str, float] = {}
    for faces in itertools.product(range(1, 7), repeat=3):
        net = sum(f >= 5 for f in faces) - sum(f == 1 for f in faces)
        tier = ("Disaster" if all(f == 1 for f in faces) else "Failure" if net <= -1 else
                "Marginal Failure" if net == 0 else "Success with a Twist" if net == 1 else
                "Success" if net == 2 else "Triumph")
        nets[net] = nets.get(net, 0.0) + 1 / 216
        tiers[tier] = tiers.get(tier, 0.0) + 1 / 216
    outcomes, tier_table, summary = tables(out, "rst")
    assert {int(k): number(v) for k, v in as_dict(outcomes).items()} == pytest.approx(nets, abs=0.00005)
    assert {k: number(v) for k, v in as_dict(tier_table).items()} == pytest.approx(tiers, abs=0.00005)
    passing = sum(p for net, p in nets.items() if net >= 1)   # target 1; a Disaster nets -3
    assert number(as_dict(summary)["p_pass"]) == pytest.approx(passing, abs=0.00005)


def test_pmf_csv(capsys):
    code, out, _ = run(capsys, "pmf", "uwr", "dice=2", "--format", "csv")
    assert code == 0
    first_block = out.split("\n\n")[0]
    rows = list(csv.DictReader(io.StringIO(first_block)))
    assert [r["outcome"] for r in rows] == ["0", "1", "2"]
    assert float(rows[2]["probability"]) == pytest.approx(1 / 9)


def test_options_may_come_before_parameters(capsys):
    code, out, err = run(capsys, "pmf", "uwr", "--format", "json", "dice=3")
    assert code == 0, err
    assert json.loads(out)["params"]["dice"] == 3


# ---------------------------------------------------------------------------------------
# workbench versus

def test_versus_json(capsys):
    code, out, _ = run(capsys, "versus", "uwr", "--actor", "dice=4 favor=1", "--reactor", "dice=3",
                       "--format", "json")
    assert code == 0
    data = json.loads(out)
    api = workbench.versus("uwr", {"dice": 4, "favor": 1}, {"dice": 3})
    assert data["ties_to"] == "reactor"
    assert data["p_actor"] == pytest.approx(api.p_actor)
    assert data["p_actor"] == pytest.approx(sum(p for m, p in data["margin"].items() if int(m) >= 1))
    assert data["actor"]["favor"] == 1 and data["reactor"]["favor"] == 0


def test_versus_arrata_ties_to_actor(capsys):
    code, out, _ = run(capsys, "versus", "arrata", "--actor", "stat=B3", "--reactor", "stat=B3",
                       "--format", "json")
    data = json.loads(out)
    assert data["ties_to"] == "actor"
    assert data["p_actor"] == pytest.approx(sum(p for m, p in data["margin"].items() if int(m) >= 0))


def _fons_margins(actor: int, reactor: int) -> dict[int, float]:
    """Every roll of FoNS dice (5-6 succeed), counted: {actor's minus reactor's successes: P}."""
    import itertools
    from fractions import Fraction

    margins: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=actor + reactor):
        margin = sum(f >= 5 for f in faces[:actor]) - sum(f >= 5 for f in faces[actor:])
        margins[margin] = margins.get(margin, Fraction(0)) + Fraction(1, 6 ** (actor + reactor))
    return {m: float(p) for m, p in margins.items()}


@pytest.mark.parametrize("fmt", ["md", "rst", "csv"])
def test_versus_tables(capsys, fmt):
    """Every number of the tables against a count of every roll: the margins, P(actor wins)
    (ties go to the reactor: a margin of 1 or more) and the mean margin."""
    from _tables import as_dict, number, tables

    code, out, err = run(capsys, "versus", "fons", "--actor", "dice=3", "--reactor", "dice=2",
                         "--format", fmt)
    assert code == 0, err
    margins_table, summary = tables(out, fmt)
    truth = _fons_margins(3, 2)
    shown = {int(m): number(p) for m, p in as_dict(margins_table).items()}
    places = 1e-14 if fmt == "csv" else 0.00005 + 1e-12   # CSV keeps the digits, tables 0.01%
    assert shown.keys() == truth.keys()
    for margin, p in truth.items():
        assert shown[margin] == pytest.approx(p, abs=places), margin
    values = as_dict(summary)
    assert number(values["p_actor"]) == pytest.approx(sum(p for m, p in truth.items() if m >= 1), abs=places)
    assert number(values["mean_margin"]) == pytest.approx(sum(m * p for m, p in truth.items()), abs=1e-6)


# ---------------------------------------------------------------------------------------
# Bad input: exit 2, one line naming parameter, value and what is allowed, no traceback

BAD_INPUTS = [
    (["pmf", "nosuch"], ["nosuch", "uwr", "arrata"]),
    (["pmf", "uwr", "colour=red"], ["colour", "red", "dice"]),
    (["pmf", "uwr", "dice=-1"], ["dice", "-1", "0 to 1000"]),
    (["pmf", "arrata", "quality=Q"], ["quality", "Q", "B, A, S"]),
    (["pmf", "uwr", "favor=1.5"], ["favor", "1.5", "whole number"]),
    (["pmf", "unnamed", "drama=3"], ["drama", "3", "0 to 2"]),
    (["pmf", "erzahlspiel", "die=purple"], ["die", "purple", "black, red, yellow, green, blue"]),
    (["pmf", "uwr", "dice=100000"], ["dice", "100000", "1000"]),
    (["pmf", "uwr", "dice"], ["dice", "NAME=VALUE"]),
    (["pmf", "uwr", "=4"], ["=4", "NAME=VALUE"]),
    (["pmf", "uwr", "dice=2", "dice=3"], ["dice", "twice"]),
    (["pmf", "arrata", "stat=Q5"], ["stat", "Q5", "B5"]),
    (["pmf", "uwr", "half=maybe"], ["half", "maybe", "true or false"]),
    (["versus", "uwr", "--actor", "dice=2", "--reactor", "dice=-2"], ["dice", "-2"]),
    (["versus", "uwr", "--actor", "dice=2", "--reactor", "nonsense"], ["--reactor", "nonsense", "NAME=VALUE"]),
    (["versus", "erzahlspiel", "--actor", "die=red", "--reactor", "die=blue"], ["erzahlspiel", "opposed"]),
    (["pmf", "uwr", "dice=2", "--format", "xml"], ["--format", "xml", "json"]),
    (["bogus"], ["bogus"]),
]


@pytest.mark.parametrize("argv,mentions", BAD_INPUTS, ids=lambda v: " ".join(v) if isinstance(v, list) and v and v[0] in ("pmf", "versus", "bogus") else None)
def test_bad_input_exits_2_with_one_line(one_line_error, argv, mentions):
    one_line_error(*argv, contains=mentions, usage=True)   # argparse's own errors: SystemExit


@pytest.mark.parametrize("system_id,params", [
    ("nosuch", {}), ("uwr", {"colour": "red"}), ("uwr", {"dice": -1}), ("arrata", {"quality": "Q"}),
    ("uwr", {"favor": 1.5}), ("uwr", {"favor": "1.5"}), ("unnamed", {"drama": 3}),
    ("erzahlspiel", {"die": "purple"}), ("uwr", {"dice": 100000})])
def test_api_raises_value_error_with_the_cli_message(capsys, system_id, params):
    with pytest.raises(ValueError) as caught:
        workbench.check(system_id, **params)
    assert isinstance(caught.value, workbench.WorkbenchError)
    if isinstance(params.get("favor"), float):
        return  # the CLI only ever passes text; the float's message shows 1.5, not '1.5'
    code, _, err = run(capsys, "pmf", system_id, *(f"{k}={v}" for k, v in params.items()))
    assert code == 2
    cli_message = err.strip().removeprefix("workbench: error: ")
    api_message = str(caught.value)
    if params:  # the API shows Python values (-1), the CLI the text it was given ('-1')
        key, value = next(iter(params.items()))
        api_message = api_message.replace(repr(value), repr(str(value)))
    assert cli_message == api_message


# ---------------------------------------------------------------------------------------
# Entry points, in real processes

def test_python_dash_m_workbench():
    done = subprocess.run([sys.executable, "-m", "workbench", "pmf", "uwr", "dice=2", "target=1",
                           "--format", "json"],
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["p_pass"] == pytest.approx(1 - (4 / 6) ** 2)


def test_every_table_command_picks_its_format_by_one_rule(capsys, tmp_path):
    """--format, else the format --out's suffix names, else Markdown; and --help says so."""
    for argv in (["pmf", "uwr", "dice=2"], ["versus", "uwr", "--actor", "dice=2", "--reactor", "dice=1"],
                 ["table", "uwr", "--pools", "1-2"], ["ladder", "uwr", "--want", "Normal=0.7"]):
        code, out, _ = run(capsys, *argv)
        assert code == 0 and out.lstrip().startswith(("|", "**")), (argv, out[:80])
        assert "|:--" in out, argv  # a Markdown pipe table
        rst = tmp_path / f"{argv[0]}.rst"
        code, _, _ = run(capsys, *argv, "--out", str(rst))
        assert code == 0 and "+====" in rst.read_text(encoding="utf-8"), argv  # RST grid
        as_json = tmp_path / f"{argv[0]}.json"
        if argv[0] != "table":  # a difficulty table has no JSON form
            code, _, _ = run(capsys, *argv, "--out", str(as_json))
            assert code == 0 and json.loads(as_json.read_text(encoding="utf-8")), argv
        code, _, _ = run(capsys, *argv, "--format", "csv", "--out", str(rst))
        assert code == 0 and "+====" not in rst.read_text(encoding="utf-8"), argv  # --format wins
        with pytest.raises(SystemExit):
            run(capsys, argv[0], "--help")
        text = " ".join(capsys.readouterr().out.split())
        assert "default: the format --out's suffix names" in text and "else md" in text, argv[0]


def test_console_script_and_its_errors():
    if not CONSOLE_SCRIPT.exists():
        pytest.fail(f"console script missing: {CONSOLE_SCRIPT} (pip install -e .)")
    done = subprocess.run([str(CONSOLE_SCRIPT), "pmf", "arrata", "quality=Q"],
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "workbench: error: arrata: parameter 'quality' got 'Q'; allowed: one of B, A, S\n"
