"""Record the exact answers of the built-in mechanics as they were before the data-defined
``pool`` mechanic replaced them (run once, on commit 2ce6ab3; kept for the record).

    python tests/data/make_legacy_grid.py  ->  tests/data/legacy_grid.json.gz

Each case: system, parameters given, the pmf as (first total, probabilities) or labels,
tiers, p_pass; versus cases: actor, reactor, p_actor and the margin. The data-defined systems
must reproduce every number to 1e-12 (tests/test_legacy_grid.py).
"""
import gzip
import itertools
import json
from pathlib import Path

import workbench as wb


def pmf_of(res):
    outcomes = list(res.pmf.outcomes)
    probs = [float(f"{p:.16g}") for p in res.pmf.probabilities]
    if res.pmf.numeric:
        return [int(outcomes[0]), probs]
    return [outcomes, probs]


def case(system, **params):
    res = wb.check(system, **params)
    out = {"s": system, "p": params, "pmf": pmf_of(res)}
    if res.tiers is not None:
        out["tiers"] = [float(f"{p:.16g}") for p in res.tiers.probabilities]
    if res.p_pass is not None:
        out["pass"] = float(f"{res.p_pass:.16g}")
    return out


def vs(system, actor, reactor):
    res = wb.versus(system, actor, reactor)
    return {"s": system, "a": actor, "r": reactor, "ties": res.ties_to,
            "p_actor": float(f"{res.p_actor:.16g}"),
            "margin": [int(res.margin.outcomes[0]), [float(f"{p:.16g}") for p in res.margin.probabilities]]}


def grid(**axes):
    keys = list(axes)
    for values in itertools.product(*axes.values()):
        yield {k: v for k, v in zip(keys, values) if v is not None}


def main():
    checks, versus = [], []
    for system in ("uwr", "fons", "d10-pool", "fons-exploding"):
        for p in grid(dice=range(0, 5), favor=(-7, -1, 0, 1, 2, 6), rerolls=(0, 1, 2),
                      half=(False, True), penalty=(0, 1, 3)):
            checks.append(case(system, **p))
        for p in grid(dice=(0, 2, 3), target=(0, 1, 2, 4)):
            checks.append(case(system, **p))
    for p in grid(d6=range(0, 4), d8=range(0, 3), bonus=(0, 1, 2), penalty=(0, 1, 2),
                  free_successes=(0, 1), drama=(0, 2), stunt=(False, True)):
        checks.append(case("unnamed", **p))
    for p in grid(d6=range(0, 3), d8=range(0, 3), bounce_on=range(5, 10), fail_on=range(0, 5),
                  free_successes=(0, 2), target=(0, 1, 3)):
        checks.append(case("unnamed", **p))
    for system in ("arrata", "arrata-cancelling"):
        for p in grid(quality=("B", "A", "S") if system == "arrata" else ("A",), dice=range(0, 4), advantage=range(0, 3),
                      disadvantage=range(0, 4), ob=(None, 2), disadvantage_mode=("dice", "obstacle"),
                      allow_negative=(False, True)):
            checks.append(case(system, **p))
        for p in grid(dice=(1, 3), advantage=(1, 2), disadvantage=(1, 3), combine=("independent", "net"),
                      ob=(0, 3)):
            checks.append(case(system, **p))
    for system in ("erzahlspiel", "erzahlspiel-six-dice"):
        for p in grid(advantage=range(-5, 6), ladder=("steps", "spectrum"), dice=("narrative", "d6")):
            checks.append(case(system, **p))
        for die in wb.system(system).params["die"].choices:
            checks.append(case(system, die=die))
    for system in ("uwr", "fons", "fons-exploding"):
        for a, r in itertools.product(grid(dice=range(0, 4), favor=(0, 1)), grid(dice=range(0, 4), rerolls=(0, 1))):
            versus.append(vs(system, a, r))
    for a, r in itertools.product(grid(dice=(1, 3), attack_resolution=("opposed", "defender_sets_target")),
                                  grid(dice=(0, 2))):
        versus.append(vs("fons", a, r))
    for a, r in itertools.product(grid(dice=(0, 2, 3), advantage=(0, 1, 2), disadvantage=(0, 2),
                                       disadvantage_mode=("dice", "obstacle")),
                                  grid(dice=(0, 2), advantage=(0, 1), disadvantage=(0, 1))):
        versus.append(vs("arrata", a, r))
    for a, r in itertools.product(grid(d6=(0, 2), d8=(0, 1), penalty=(0, 1)), grid(d6=(1, 2), d8=(0, 1))):
        try:
            versus.append(vs("unnamed", a, r))
        except wb.WorkbenchError:
            break
    out = Path(__file__).with_name("legacy_grid.json.gz")
    out.write_bytes(gzip.compress(json.dumps({"checks": checks, "versus": versus}, separators=(",", ":")).encode(), mtime=0))
    print(len(checks), "checks,", len(versus), "versus,", out.stat().st_size // 1024, "KiB")


if __name__ == "__main__":
    main()
