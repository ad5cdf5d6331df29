"""Fuzz tests that look at meaning: random data files and random parameter values, each
accepted answer compared with the brute force of ``tests/_brute.py``.

A random system file is drawn from the pool vocabulary whose meaning the brute force knows
(die types with face values, explosions capped or into another type, dice added per point,
a modifier, rerolls of misses, a floor, keeping the best or worst, tiers and a target); it
is loaded as a designer's file and checked with random parameters, through the Python API
and through the command line. Whatever is accepted must be the brute force's distribution,
tiers and P(pass); whatever is refused must be one WorkbenchError (CLI: one line, exit 2).
"""
from __future__ import annotations

import contextlib
import io
import itertools
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench.cli import main

from _brute import designed_roll, enumerate_rolls

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "1500")) // 15
"""Files per property (each is checked against a full enumeration of its rolls)."""
MAX_FACES = 7
"""Faces the brute force follows per roll (beyond: unexplored mass, a bound on the error)."""
_ids = itertools.count()


@st.composite
def designs(draw):
    """A random design: die types, counts per point and the other effects' settings."""
    types = draw(st.integers(1, 2))
    dice = {}
    for t in range(types):
        sides = draw(st.integers(2, 4))
        faces = draw(st.lists(st.integers(-1, 2), min_size=sides, max_size=sides))
        exploding = draw(st.sets(st.integers(1, sides), max_size=sides - 1))
        die = {"faces": faces, "explode": exploding, "limit": draw(st.integers(0, 2)) if exploding else 0}
        if t == 0 and types == 2 and exploding and draw(st.booleans()):
            die["into"] = "t1"
        dice[f"t{t}"] = die
    keep = draw(st.sampled_from([None, None, "highest", "lowest"])) if types == 1 else None
    if keep and dice["t0"]["explode"]:
        keep = None
    cancelling_explodes = any(f < 0 and i + 1 in d["explode"] for d in dice.values()
                              for i, f in enumerate(d["faces"]))
    rerolls = 0 if keep or cancelling_explodes else draw(st.integers(0, 2))
    return {"dice": dice, "keep": keep, "rerolls": rerolls,
            "floor": draw(st.sampled_from([None, None, -1, 0, 1])),
            "bonus": draw(st.integers(-1, 1)),
            "tiers": draw(st.booleans()) and not keep}


def toml_of(design: dict, id: str) -> str:
    lines = [f'id = "{id}"', 'name = "Fuzzed pool"', 'mechanic = "pool"', 'pool_parameter = "n_t0"']
    if design["floor"] is not None:
        lines.insert(3, f"floor = {design['floor']}")
    for name, die in design["dice"].items():
        lines += [f"[dice.{name}]", f"faces = {die['faces']}"]
        if die["explode"]:
            lines.append(f"explode = {sorted(die['explode'])}")
        if die["limit"]:
            lines.append(f"explode_limit = {die['limit']}")
        if die.get("into"):
            lines.append(f'explode_into = "{die["into"]}"')
    for name in design["dice"]:
        lines += [f"[params.n_{name}]", "default = 0", "min = 0", "max = 3",
                  f'effect = {{ add_dice = "{name}" }}']
    lines += ["[params.bonus]", "default = 0", "min = 0", "max = 2",
              f"effect = {{ add_to_total = {design['bonus']} }}"]
    if design["rerolls"]:
        lines += ["[params.edge]", "default = 0", "min = 0", "max = 2", 'effect = "reroll_misses"']
    if design["keep"]:
        lines += ["[params.extra]", "default = 0", "min = 0", "max = 2",
                  f'effect = {{ keep_{design["keep"]} = "t0" }}']
    lines += ["[params.target]", "optional = true", "min = -3", "max = 12", 'effect = "target"']
    if design["tiers"]:
        lines += ["[[tiers]]", 'name = "Botch"', "all_negative = true", "passes = false",
                  "[[tiers]]", 'name = "Low"', "max = 0", "[[tiers]]", 'name = "High"', "min = 1"]
    return "\n".join(lines) + "\n"


def brute(design: dict, params: dict) -> tuple[dict, float]:
    counts = {name: params.get(f"n_{name}", 0) for name in design["dice"]}
    kept = None
    if design["keep"]:
        kept = counts["t0"]
        counts["t0"] += params.get("extra", 0)
    procedure = designed_roll(design["dice"], counts, rerolls=params.get("edge", 0),
                              modifier=design["bonus"] * params.get("bonus", 0), floor=design["floor"],
                              keep=design["keep"] if params.get("extra", 0) else None,
                              kept=kept if kept is not None else 1)
    return enumerate_rolls(procedure, max_faces=MAX_FACES)


def expected(design, params, rolls):
    totals: dict[int, float] = {}
    tiers = {"Botch": 0.0, "Low": 0.0, "High": 0.0}
    p_pass = 0.0
    for (total, negative), p in rolls.items():
        totals[total] = totals.get(total, 0.0) + p
        tier = "Botch" if negative else ("Low" if total <= 0 else "High")
        tiers[tier] += p
        if params.get("target") is not None and total >= params["target"] and not (
                design["tiers"] and tier == "Botch"):
            p_pass += p
    return totals, tiers, p_pass


def params_strategy(design):
    names = {f"n_{name}": st.integers(0, 3) for name in design["dice"]}
    names["bonus"] = st.integers(0, 2)
    if design["rerolls"]:
        names["edge"] = st.integers(0, 2)
    if design["keep"]:
        names["extra"] = st.integers(0, 2)
    names["target"] = st.one_of(st.none(), st.integers(-3, 12))
    return st.fixed_dictionaries(names)


def run_cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_designs_match_the_brute_force(tmp_path, data):
    design = data.draw(designs())
    params = data.draw(params_strategy(design))
    if sum(params.get(f"n_{name}", 0) for name in design["dice"]) + params.get("extra", 0) > 3:
        params = {**params, **{f"n_{name}": int(name == "t0") for name in design["dice"]},
                  **({"extra": min(params["extra"], 1)} if "extra" in params else {})}
    path = tmp_path / f"fuzz-{next(_ids)}.toml"
    path.write_text(toml_of(design, path.stem), encoding="utf-8")
    rolls, unexplored = brute(design, params)
    given = {k: v for k, v in params.items() if v is not None}
    result = wb.check(str(path), **given)   # every design here is within the vocabulary
    totals, tiers, p_pass = expected(design, params, rolls)
    tolerance = unexplored + 1e-9
    got = dict(zip(result.pmf.outcomes, result.pmf.probabilities))
    for total in set(got) | set(totals):
        assert abs(got.get(total, 0.0) - totals.get(total, 0.0)) <= tolerance, (design, params, total)
    if design["tiers"]:
        for name, p in tiers.items():
            assert abs(result.tiers[name] - p) <= tolerance, (design, params, name)
    if params.get("target") is None:
        assert result.p_pass is None
    else:
        assert abs(result.p_pass - p_pass) <= tolerance, (design, params)
    # The command line reads the same file and prints the same numbers.
    code, out, err = run_cli(["pmf", str(path), "--format", "json", *(f"{k}={v}" for k, v in given.items())])
    assert code == 0, err
    printed = json.loads(out)
    for total, p in printed["pmf"].items():
        assert abs(p - got[int(total)]) <= 1e-12


TEXT = ["0", "1", "2", "3", "-1", "+2", " 2 ", "4", "1.5", "2.0", "1e0", "x", "", "none",
        "\u0663", "\uff11", "9" * 40, "9" * 5000, "true", "0x1", "1_0"]


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_parameter_text_is_right_or_refused(tmp_path, data):
    design = data.draw(designs())
    path = tmp_path / f"text-{next(_ids)}.toml"
    path.write_text(toml_of(design, path.stem), encoding="utf-8")
    names = [f"n_{name}" for name in design["dice"]] + ["bonus", "target"]
    chosen = data.draw(st.dictionaries(st.sampled_from(names), st.sampled_from(TEXT), max_size=3))
    words = [f"{k}={v}" for k, v in chosen.items()]
    code, out, err = run_cli(["pmf", str(path), "--format", "json", *words])
    # What a whole-number parameter accepts: ASCII digits with a sign, within its bounds.
    bounds = {"bonus": (0, 2), "target": (-3, 12)}
    values = {}
    for name, text in chosen.items():
        low, high = bounds.get(name, (0, 3))
        word = text.strip()
        if name == "target" and word.lower() in ("", "none"):
            values[name] = None
            continue
        digits = word.lstrip("+-").replace("_", "")
        if word and digits.isascii() and digits.isdigit() and len(digits) <= 30 and \
                word.count("-") + word.count("+") <= 1 and "__" not in word and \
                not word.startswith("_") and low <= int(word.replace("_", "")) <= high:
            values[name] = int(word.replace("_", ""))
        else:
            values = None
            break
    dice = 0 if values is None else sum(values.get(f"n_{name}", 0) for name in design["dice"])
    if values is None:
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (words, err)
        return
    if dice > 3 or (design["tiers"] and code == 2 and "fall in no tier" in err):
        return   # too many dice to enumerate here; tiers that name no roll: refused, tested above
    assert code == 0, (words, err)
    full = {name: 0 for name in names}
    full.update({k: v for k, v in values.items()})
    rolls, unexplored = brute(design, full)
    totals, _, p_pass = expected(design, full, rolls)
    printed = json.loads(out)
    for total, p in totals.items():
        assert abs(printed["pmf"].get(str(total), 0.0) - p) <= unexplored + 1e-9, (words, total)


UWR_TEXT = {"dice": ["0", "1", "2", "3", "+2", "-1", "2.0", "x", "\u0663", ""],
            "favor": ["-2", "-1", "0", "1", "2", "+1", "1.5", "one"],
            "rerolls": ["0", "1", "2", "-1", "1e0"],
            "half": ["true", "false", "yes", "no", "1", "0", "maybe", "True"],
            "penalty": ["0", "1", "2", "-1"],
            "target": ["0", "1", "2", "3", "none", "", "-1", "x"]}


def _uwr_value(name: str, text: str):
    """What the one validator makes of ``text`` for UWR's parameter ``name`` (None: refused)."""
    word = text.strip()
    if name == "half":
        return {"true": True, "yes": True, "1": True, "false": False, "no": False,
                "0": False}.get(word.lower())
    if name == "target" and word.lower() in ("", "none"):
        return "unset"
    digits = word.lstrip("+-")
    if not (word and digits.isascii() and digits.isdigit() and word.count("-") + word.count("+") <= 1):
        return None
    value = int(word)
    low = {"favor": -1000}.get(name, 0)
    return value if low <= value <= 1000 else None


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chosen=st.dictionaries(st.sampled_from(sorted(UWR_TEXT)), st.just(None), max_size=6),
       data=st.data())
def test_uwr_from_the_command_line_matches_the_brute_force(chosen, data):
    from _brute import success_pool_matrix

    words = {name: data.draw(st.sampled_from(UWR_TEXT[name])) for name in chosen}
    code, out, err = run_cli(["pmf", "uwr", "--format", "json", *(f"{k}={v}" for k, v in words.items())])
    values = {name: _uwr_value(name, text) for name, text in words.items()}
    if any(v is None for v in values.values()):
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (words, err)
        return
    assert code == 0, (words, err)
    settings_ = {"dice": 0, "favor": 0, "rerolls": 0, "half": False, "penalty": 0, **values}
    truth = success_pool_matrix(settings_["dice"], settings_["favor"], settings_["rerolls"],
                                settings_["half"], settings_["penalty"])
    printed = json.loads(out)
    assert {int(k): v for k, v in printed["pmf"].items()} == pytest.approx(truth, abs=1e-12)
    target = settings_.get("target", "unset")
    want = None if target == "unset" else sum(p for k, p in truth.items() if k >= target)
    assert printed.get("p_pass") == (None if want is None else pytest.approx(want, abs=1e-12))
