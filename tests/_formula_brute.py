"""An independent brute force for one-line formulas: Foundry VTT's modifier algorithms written
out literally (a list of results, each active or not, each with a result and maybe a count),
run on every sequence of die rolls there can be, each weighted by its probability.

It shares nothing with ``workbench.rules.notation``: terms are given as plain tuples, not
parsed. Explosion chains are followed until a path is less likely than ``cutoff``; the mass
left is returned as ``lost``.
"""
from __future__ import annotations

from collections import defaultdict

COMPARE = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
           "<": lambda a, b: a < b, "=": lambda a, b: a == b}


class _Branch(Exception):
    def __init__(self, n):
        self.n = n


def faces_of(sides):
    if sides == "F":
        return [-1, 0, 1]
    if sides == "%":
        return list(range(1, 101))
    return list(range(1, sides + 1))


def _term_total(roll, n, sides, mods):
    """Foundry's Die: roll ``n`` dice, apply ``mods`` in order, total the active results."""
    faces = faces_of(sides)
    results = [{"result": roll(faces), "active": True} for _ in range(n)]
    for mod in mods:
        word = mod[0]
        if word in ("r", "rr"):
            op, target = mod[1], mod[2]
            checked, initial = 0, len(results)
            while checked < len(results):
                r = results[checked]
                checked += 1
                if r["active"] and COMPARE[op](r["result"], target):
                    r["active"] = False
                    results.append({"result": roll(faces), "active": True})
                if word == "r" and checked >= initial:
                    break
        elif word in ("x", "xo"):
            op, target = mod[1], mod[2]
            checked, initial = 0, len(results)
            while checked < len(results):
                r = results[checked]
                checked += 1
                if r["active"] and COMPARE[op](r["result"], target):
                    results.append({"result": roll(faces), "active": True})
                if word == "xo" and checked == initial:
                    break
        elif word in ("kh", "kl", "dh", "dl", "km"):
            number = mod[1]
            active = [r for r in results if r["active"]]
            ranked = sorted(active, key=lambda r: -r["result"])   # highest first
            if word == "kh":
                kept = ranked[:number]
            elif word == "kl":
                kept = ranked[::-1][:number]
            elif word == "dh":
                kept = ranked[number:]
            elif word == "dl":
                kept = ranked[::-1][number:]
            else:
                low = max((len(ranked) - number) // 2, 0)
                kept = ranked[low:low + number]
            for r in active:
                if not any(r is k for k in kept):
                    r["active"] = False
        elif word in ("min", "max"):
            for r in results:
                if (r["result"] < mod[1]) if word == "min" else (r["result"] > mod[1]):
                    r["count"] = mod[1]
        elif word == "cs":
            for r in results:
                r["count"] = int(COMPARE[mod[1]](r["result"], mod[2]))
        elif word == "dbl":   # the workbench's own: a matching result counts twice
            for r in results:
                if COMPARE[mod[1]](r["result"], mod[2]):
                    r["count"] = 2 * r.get("count", r["result"])
        elif word == "df":
            for r in results:
                if COMPARE[mod[1]](r["result"], mod[2]):
                    r["count"] = -1
        else:
            raise ValueError(word)
    return sum(r.get("count", r["result"]) for r in results if r["active"])


def _total(roll, terms):
    total = 0
    for sign, term in terms:
        kind = term[0]
        if kind == "const":
            value = term[1]
        elif kind == "dice":
            value = _term_total(roll, term[1], term[2], term[3])
        elif kind == "pool":
            values = [_total(roll, element) for element in term[1]]
            mod = term[2]
            if mod is None:
                value = sum(values)
            elif mod[0] in ("kh", "kl"):
                ranked = sorted(values, reverse=mod[0] == "kh")
                value = sum(ranked[:mod[1]])
            elif mod[0] == "cs":
                value = sum(COMPARE[mod[1]](v, mod[2]) for v in values)
            else:
                raise ValueError(mod)
        else:
            raise ValueError(kind)
        total += sign * value
    return total


def distribution(terms, cutoff=1e-10, statistic=None):
    """{outcome: probability} of the formula's total (or of ``statistic(roll)``), and the
    probability of the paths cut off."""
    evaluate = statistic or (lambda roll: _total(roll, terms))
    out, lost = defaultdict(float), 0.0
    stack = [()]
    while stack:
        prefix = stack.pop()
        chance = 1.0
        for _, n in prefix:
            chance /= n
        position = [0]

        def roll(faces):
            i = position[0]
            if i < len(prefix):
                position[0] += 1
                return faces[prefix[i][0]]
            raise _Branch(len(faces))
        try:
            outcome = evaluate(roll)
        except _Branch as branch:
            if chance / branch.n < cutoff:
                lost += chance
                continue
            stack.extend(prefix + ((k, branch.n),) for k in range(branch.n))
            continue
        out[outcome] += chance
    return dict(out), lost


def dice(n, sides, *mods):
    return ("dice", n, sides, list(mods))
