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
def test_random_parameter_text_is_right_or_refused(tmp_path, data, assert_one_line):
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
        assert_one_line(code, out, err)
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
def test_uwr_from_the_command_line_matches_the_brute_force(chosen, data, assert_one_line):
    from _brute import success_pool_matrix

    words = {name: data.draw(st.sampled_from(UWR_TEXT[name])) for name in chosen}
    code, out, err = run_cli(["pmf", "uwr", "--format", "json", *(f"{k}={v}" for k, v in words.items())])
    values = {name: _uwr_value(name, text) for name, text in words.items()}
    if any(v is None for v in values.values()):
        assert_one_line(code, out, err)
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


# ---------------------------------------------------------------------------------------------
# Rolls with statistics: numbered dice, named counts, [stats.NAME], total, floor/ceiling and
# pass_if, written as a data file and compared with a brute force over every face of every die
# in exact fractions (itertools.product), written here from data/README.md alone.

from collections import Counter
from fractions import Fraction

ROLL_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "1500")) // 25
"""Random roll descriptions (each a data file checked against a full enumeration)."""

_STAT_KINDS = ("keep", "drop", "pick", "beats", "pairs", "largest_set", "sets", "sum", "expression")


@st.composite
def roll_designs(draw):
    """A random roll: 1-3 numbered die types (2-6 sides), counts, 1-2 statistics, a total,
    a floor or ceiling and a pass_if, each from the data vocabulary."""
    dice = {}
    for t in range(draw(st.integers(1, 3))):
        sides = draw(st.integers(2, 6))
        die = {"sides": sides, "count": draw(st.integers(0, 1)), "counts": {}, "explode": False}
        if draw(st.booleans()):
            die["counts"]["a"] = ("expr", draw(st.sampled_from(
                [f"face >= {draw(st.integers(1, sides))}", "face == 1", "face % 2 == 0",
                 "2 if face == 1 else 0", "value - 1"])))
        if draw(st.booleans()):
            die["counts"]["b"] = ("list", draw(st.lists(st.integers(-1, 2), min_size=sides, max_size=sides)))
        if t == 0 and draw(st.integers(0, 3)) == 0:
            die["explode"] = True          # the top face explodes, at most once
        dice[f"t{t}"] = die
    names = list(dice)
    counts = sorted({c for d in dice.values() for c in d["counts"]})
    stats = {}
    for i in range(draw(st.integers(1, 2))):
        kind = draw(st.sampled_from(_STAT_KINDS if len(names) > 1 else
                                    [k for k in _STAT_KINDS if k not in ("beats", "pairs")]))
        subset = draw(st.sampled_from([None] + names))
        stat = {"kind": kind, "dice": subset}
        if kind in ("keep", "drop"):
            stat["order"] = draw(st.sampled_from(["highest", "lowest"] + (["middle"] if kind == "keep" else [])))
            stat["count"] = draw(st.integers(0, 4))
            stat["skip"] = draw(st.integers(0, 2)) if kind == "keep" and stat["order"] != "middle" else 0
            stat["score"] = draw(st.sampled_from(["value"] + counts))
        elif kind == "pick":
            stat["order"] = draw(st.sampled_from(["highest", "lowest", "middle"]))
            stat["position"] = draw(st.integers(1, 3)) if stat["order"] != "middle" else 1
        elif kind in ("beats", "pairs"):
            stat["dice"] = draw(st.sampled_from(names))
            stat["against"] = draw(st.sampled_from([n for n in names if n != stat["dice"]]))
            stat["ties"] = draw(st.sampled_from(["lose", "win"]))
        elif kind == "largest_set":
            stat["report"] = draw(st.sampled_from(["size", "value"]))
        elif kind == "sets":
            stat["size"] = draw(st.integers(1, 3))
        elif kind == "sum":
            stat["score"] = draw(st.sampled_from(["value", "value == 1", "value >= 3"] + counts))
        else:
            earlier = ["total"] + counts + list(stats)
            stat["dice"] = None
            stat["text"] = draw(st.sampled_from(
                [f"{draw(st.sampled_from(earlier))} >= {draw(st.integers(0, 4))}",
                 f"max({draw(st.sampled_from(earlier))}, 2) - n_t0",
                 f"{draw(st.sampled_from(earlier))} // 2 if n_t0 > 0 else -1",
                 f"1 <= {draw(st.sampled_from(earlier))} <= 3"]))
        stats[f"s{i}"] = stat
    readable = counts + [n for n, s in stats.items() if s["kind"] != "expression"]
    total = draw(st.sampled_from([None] + [f"{n}" for n in readable]
                                 + [f"{n} + {m} * 2" for n in readable for m in readable]
                                 + [f"min({n}, 3) - (1 if {n} == 0 else 0)" for n in readable]
                                 + [f"{n} % 3 + n_t0" for n in readable]))
    return {"dice": dice, "stats": stats, "total": total,
            "floor": draw(st.sampled_from([None, None, 0, 2])),
            "ceiling": draw(st.sampled_from([None, None, 3, 8])),
            "pass_if": draw(st.sampled_from([None, "total >= 3", "total >= target", "s0 >= 1 or total <= 1",
                                             "not (total == 2)", "1 <= total <= 4 and n_t0 >= 1"]))}


def roll_toml(design: dict, id: str) -> str:
    lines = [f'id = "{id}"', 'name = "Fuzzed roll"', 'mechanic = "pool"', 'pool_parameter = "n_t0"']
    for key in ("total", "pass_if"):
        if design[key] is not None:
            lines.append(f"{key} = {json.dumps(design[key])}")
    for key in ("floor", "ceiling"):
        if design[key] is not None:
            lines.append(f"{key} = {design[key]}")
    for name, die in design["dice"].items():
        lines += [f"[dice.{name}]", f"sides = {die['sides']}", f"count = {die['count']}"]
        if die["explode"]:
            lines += [f"explode = [{die['sides']}]", "explode_limit = 1"]
        if die["counts"]:
            written = [f"{c} = {json.dumps(spec) if form == 'expr' else list(spec)}"
                       for c, (form, spec) in sorted(die["counts"].items())]
            lines.append("counts = { " + ", ".join(written) + " }")
    for name in design["dice"]:
        lines += [f"[params.n_{name}]", "default = 0", "min = 0", "max = 3", f'effect = {{ add_dice = "{name}" }}']
    lines += ["[params.target]", "default = 2", "min = 0", "max = 12"]
    if design["pass_if"] is None:   # beside a pass_if, a target effect would change nothing (refused)
        lines.append('effect = "target"')
    for name, stat in design["stats"].items():
        lines.append(f"[stats.{name}]")
        kind = stat["kind"]
        if kind in ("keep", "drop"):
            lines += [f'{kind} = "{stat["order"]}"', f"count = {stat['count']}", f'score = "{stat["score"]}"']
            if stat["skip"]:
                lines.append(f"skip = {stat['skip']}")
        elif kind == "pick":
            lines += [f'pick = "{stat["order"]}"', f"position = {stat['position']}"]
        elif kind in ("beats", "pairs"):
            lines.append(f'{kind} = "{stat["against"]}"')
            if kind == "pairs":
                lines.append(f'ties = "{stat["ties"]}"')
        elif kind == "largest_set":
            lines.append(f'largest_set = "{stat["report"]}"')
        elif kind == "sets":
            lines.append(f"sets = {stat['size']}")
        elif kind == "sum":
            lines.append(f'sum = "{stat["score"]}"')
        else:
            lines.append(f"expression = {json.dumps(stat['text'])}")
        if stat["dice"] is not None:
            lines.append(f'dice = "{stat["dice"]}"')
    return "\n".join(lines) + "\n"


def _number(text: str, names: dict):
    """A tiny reader of this test's own expression texts (they use only + - * // % comparisons,
    and/or/not, min/max and if/else, all Python syntax): Python's ``eval`` on our own strings."""
    python = text.replace("true", "True").replace("false", "False")
    value = eval(python, {"min": min, "max": max, "abs": abs}, dict(names))  # noqa: S307 (our text)
    return int(value)


def _die_results(die: dict):
    """[(value, {count: score}, probability)] of one die, its explosion (top face, once) included."""
    def face_counts(face):
        out = {}
        for c, (form, spec) in die["counts"].items():
            out[c] = _number(spec, {"face": face, "value": face}) if form == "expr" else spec[face - 1]
        return out
    p = Fraction(1, die["sides"])
    results = []
    for face in range(1, die["sides"] + 1):
        mine = face_counts(face)
        if die["explode"] and face == die["sides"]:
            for again in range(1, die["sides"] + 1):
                more = face_counts(again)
                results.append((face + again, {c: mine[c] + more[c] for c in mine}, p * p))
        else:
            results.append((face, mine, p))
    return results


_COUNT_ORDER: list = []
"""The counts in the order the file first names them: dice of equal value rank by them, more
first, the first-named count deciding (data/README.md, Statistics)."""


def _ranked(rolled, order="highest"):
    ranked = sorted(rolled, key=lambda d: (d[1], tuple(d[2].get(c, 0) for c in _COUNT_ORDER)), reverse=True)
    return ranked if order == "highest" else ranked[::-1]


def _score(die, score):
    _, value, counts = die
    if score == "value":
        return value
    if score in ("a", "b"):
        return counts.get(score, 0)
    return _number(score, {"value": value, **counts})


def _stat(stat, rolled, known):
    kind = stat["kind"]
    if kind == "expression":
        return _number(stat["text"], known)
    chosen = [d for d in rolled if stat["dice"] is None or d[0] == stat["dice"]]
    values = [d[1] for d in chosen]
    if kind == "keep":
        if stat["order"] == "middle":
            low = max((len(chosen) - stat["count"]) // 2, 0)
            picked = _ranked(chosen)[low:low + stat["count"]]
        else:
            picked = _ranked(chosen, stat["order"])[stat["skip"]:stat["skip"] + stat["count"]]
        return sum(_score(d, stat["score"]) for d in picked)
    if kind == "drop":
        dropped_from = "lowest" if stat["order"] == "lowest" else "highest"
        kept = _ranked(chosen, dropped_from)[stat["count"]:]
        return sum(_score(d, stat["score"]) for d in kept)
    if kind == "pick":
        ranked = _ranked(chosen)
        if stat["order"] == "middle":
            index = (len(ranked) - 1) // 2
        else:
            ranked = ranked if stat["order"] == "highest" else ranked[::-1]
            index = stat["position"] - 1
        return ranked[index][1] if 0 <= index < len(ranked) else 0
    if kind in ("beats", "pairs"):
        theirs = [d[1] for d in rolled if d[0] == stat["against"]]
        if kind == "beats":
            return sum(1 for a in values for b in theirs if a > b)
        pairs = zip(sorted(values, reverse=True), sorted(theirs, reverse=True))
        return sum(1 for a, b in pairs if a > b or (a == b and stat["ties"] == "win"))
    if kind == "largest_set":
        sizes = Counter(values)
        if not sizes:
            return 0
        widest = max(sizes.values())
        return widest if stat["report"] == "size" else max(v for v, n in sizes.items() if n == widest)
    if kind == "sets":
        return sum(1 for n in Counter(values).values() if n >= stat["size"])
    return sum(_score(d, stat["score"]) for d in chosen)


def roll_brute(design: dict, params: dict):
    """({(statistic values in ``names`` order): Fraction}, P(pass), names) by enumeration."""
    dice = []
    for name, die in design["dice"].items():
        dice += [(name, _die_results(die))] * (die["count"] + params.get(f"n_{name}", 0))
    counts = sorted({c for d in design["dice"].values() for c in d["counts"]})
    _COUNT_ORDER[:] = dict.fromkeys(c for d in design["dice"].values() for c in sorted(d["counts"]))
    names = ["total", *counts, *design["stats"]]
    joint, p_pass = {}, Fraction(0)
    for combo in itertools.product(*[results for _, results in dice]):
        p = Fraction(1)
        rolled = []
        for (name, _), (value, scored, q) in zip(dice, combo):
            p *= q
            rolled.append((name, value, scored))
        known = dict(params)
        for c in counts:
            known[c] = sum(d[2].get(c, 0) for d in rolled)
        for stat_name, stat in design["stats"].items():
            if stat["kind"] != "expression":
                known[stat_name] = _stat(stat, rolled, known)
        total = sum(d[1] for d in rolled) if design["total"] is None else _number(design["total"], known)
        if design["floor"] is not None:
            total = max(total, design["floor"])
        if design["ceiling"] is not None:
            total = min(total, design["ceiling"])
        known["total"] = total
        for stat_name, stat in design["stats"].items():
            if stat["kind"] == "expression":
                known[stat_name] = _stat(stat, rolled, known)
        row = tuple(known[n] for n in names)
        joint[row] = joint.get(row, 0) + p
        condition = design["pass_if"] or "total >= target"
        if _number(condition, known):
            p_pass += p
    return joint, p_pass, names


@settings(max_examples=ROLL_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_rolls_with_statistics_match_the_brute_force(tmp_path, data):
    design = data.draw(roll_designs())
    params = {f"n_{name}": data.draw(st.integers(0, 2)) for name in design["dice"]}
    params["target"] = data.draw(st.integers(0, 6))
    while sum(d["count"] for d in design["dice"].values()) + sum(
            v for k, v in params.items() if k.startswith("n_")) > 4:
        biggest = max((k for k in params if k.startswith("n_")), key=params.get)
        if params[biggest] == 0:
            break
        params[biggest] -= 1
    path = tmp_path / f"roll-{next(_ids)}.toml"
    path.write_text(roll_toml(design, path.stem), encoding="utf-8")
    try:
        joint, p_pass, names = roll_brute(design, params)
    except ZeroDivisionError:
        joint = None
    try:
        result = wb.check(str(path), **params)
    except wb.WorkbenchError as exc:
        # The only refusals allowed here: a division by zero that really happens.
        assert joint is None and "divides by zero" in str(exc), (roll_toml(design, "x"), params, exc)
        return
    assert joint is not None, (roll_toml(design, "x"), params, "accepted a division by zero")
    assert result.joint is not None
    got = {}
    for row, p in zip(result.joint.values, result.joint.probabilities):
        picked = tuple(int(row[result.joint.names.index(n)]) for n in names)
        got[picked] = got.get(picked, 0.0) + float(p)
    for row in set(got) | set(joint):
        assert abs(got.get(row, 0.0) - float(joint.get(row, 0))) <= 1e-9, (
            roll_toml(design, "x"), params, dict(zip(names, row)), got.get(row), joint.get(row))
    assert result.p_pass == pytest.approx(float(p_pass), abs=1e-9), (roll_toml(design, "x"), params)
    totals = {}
    for row, p in joint.items():
        totals[row[0]] = totals.get(row[0], 0) + p
    got_pmf = dict(zip(result.pmf.outcomes, result.pmf.probabilities))
    for total in set(got_pmf) | set(totals):
        p = totals.get(total, 0)
        assert abs(got_pmf.get(total, 0.0) - float(p)) <= 1e-9
