"""A random generator of one-line formulas and a brute force of their own, sharing nothing with
``workbench.rules.notation`` (nor with ``tests/_formula_brute.py``).

A formula is generated as a plain tree (tuples), written out as text, and computed from the
tree: dice without an explosion by every tuple of (rerolled) results, weighted; an exploding
die by following its chain until what is left is below ``DEPTH_MASS``; terms convolved. The
reading is Foundry VTT's, as docs/one-liners.rst states it where the workbench differs (an
exploding die is one result; ``cs``/``dbl``/``df`` count every result of a chain; ``min``/``max``
before ``x`` reach the initial die only; comparisons read the result as rolled).

:func:`docs_refusal` says, from the docs alone, why a formula must be refused (``None``: it
must be answered).
"""
from __future__ import annotations

import itertools
import random
from collections import defaultdict

try:   # one die's faces, as the other brute force reads them
    from tests._formula_brute import faces_of
except ImportError:  # run from inside tests/
    from _formula_brute import faces_of

OPS = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
       "<": lambda a, b: a < b, "=": lambda a, b: a == b}
DEPTH_MASS = 1e-13
PRUNE = 1e-17


# -- trees -----------------------------------------------------------------------------------
# value: int, or ("knob", name, default)
# term: ("const", value) | ("dice", count, sides, mods) | ("pool", [elements], mod | None)
#   element: [(sign, term), ...]
# mod: ("kh"|"kl"|"km"|"dh"|"dl"|"k"|"d", amount | None)
#    | ("r"|"rr"|"x"|"xo"|"cs"|"dbl"|"df", (op, value) | (None, value) | None)
#    | ("min"|"max", value)
# formula: {"terms": [...], "pass": None | (op, value) | ("cond", text), "stats": [(name, mods)],
#           "settings": {name: value}}

KEEPS = ("kh", "kl", "km", "dh", "dl", "k", "d")
TARGETED = ("r", "rr", "x", "xo", "cs", "dbl", "df")


def value_of(v, settings):
    if isinstance(v, tuple):
        return settings.get(v[1], v[2])
    return v


def text_value(v):
    if isinstance(v, tuple):
        return f"@{v[1]}" + ("" if v[2] is None else f"={v[2]}")
    return str(v)


def text_mod(mod):
    word, arg = mod
    if word in KEEPS or word in ("min", "max"):
        return word + ("" if arg is None else text_value(arg))
    if arg is None:
        return word
    op, value = arg
    return word + (op or "") + text_value(value)


def text_term(term):
    kind = term[0]
    if kind == "const":
        return text_value(term[1])
    if kind == "dice":
        _, count, sides, mods = term
        head = "" if count is None else (f"({text_value(count)})" if isinstance(count, tuple) else str(count))
        return head + "d" + str(sides) + "".join(text_mod(m) for m in mods)
    _, elements, mod = term
    return "{" + ", ".join(text_sum(e) for e in elements) + "}" + ("" if mod is None else text_mod(mod))


def text_sum(terms):
    out = ""
    for i, (sign, term) in enumerate(terms):
        t = text_term(term)
        if i == 0:
            out = t if sign > 0 else "-" + t
        else:
            out += (" + " if sign > 0 else " - ") + t
    return out


def text_formula(f):
    out = text_sum(f["terms"])
    p = f.get("pass")
    if p is not None and p[0] != "cond":
        out += ("; " if f.get("pass_after_semicolon") else " ") + p[0] + " " + text_value(p[1])
    for name, mods in f.get("stats", ()):
        out += f"; {name}: " + "".join(text_mod(m) for m in mods)
    if p is not None and p[0] == "cond":
        out += "; pass: " + p[1]
    return out


# -- what the docs refuse --------------------------------------------------------------------
def keep_word(word):
    return {"k": "kh", "d": "dl"}.get(word, word)


def kind_of(word):
    if word in KEEPS:
        return "keep"
    return {"r": "reroll", "rr": "reroll", "x": "explode", "xo": "explode", "cs": "count",
            "dbl": "double", "df": "deduct", "min": "min", "max": "max"}[word]


def target_of(mod, faces, settings):
    word, arg = mod
    if arg is None:
        if word in ("r", "rr"):
            return "=", 1
        if word in ("x", "xo"):
            return "=", max(faces)
        return None
    op, value = arg
    return (op or "="), value_of(value, settings)


def term_refusal(term, settings):
    """Why the docs refuse a dice term (``None``: they do not)."""
    _, count, sides, mods = term
    faces = faces_of(sides)
    kinds = [kind_of(w) for w, _ in mods]
    if len(set(kinds)) != len(kinds):
        return "a modifier kind twice"
    for i, (word, arg) in enumerate(mods):
        kind = kind_of(word)
        if kind == "reroll" and i > 0:
            return "reroll not first"
        if kind == "keep" and arg == 0:
            return "kh0"
        if kind in ("count", "double", "deduct") and arg is None:
            return "cs without target"
        if kind in ("min", "max") and isinstance(arg, tuple):
            return "min@"
        if kind == "reroll":
            op, v = target_of((word, arg), faces, settings)
            if arg is not None and isinstance(arg[1], tuple):
                return "r@"
            if word == "rr" and all(OPS[op](f, v) for f in faces):
                return "rr on every face"
            if word == "r":
                hit = sum(OPS[op](f, v) for f in faces)
                n = len(faces)
                if hit and hit < n:
                    from math import gcd
                    size = n * n
                    # multiplicities: matching faces spread over n; others n each
                    mult = [n] * (n - hit) + [hit] * n   # per raw value, the pair counts
                    g = 0
                    for m in mult:
                        g = gcd(g, m)
                    if size // g > 1000:
                        return "reroll too large"
        if kind == "explode":
            op, v = target_of((word, arg), faces, settings)
            if arg is not None and isinstance(arg[1], tuple):
                if op != ">=" or "reroll" in kinds or sides in ("F", "%") and sides != "%":
                    return "x knob"
            elif word == "x" and all(OPS[op](f, v) for f in faces):
                return "x on every face"
    if "keep" in kinds and "explode" in kinds:
        return "keep with explode"
    if ("min" in kinds or "max" in kinds) and any(k in kinds for k in ("count", "double", "deduct")):
        return "clamp with counting"
    if "deduct" in kinds and "count" in kinds and kinds.index("deduct") < kinds.index("count"):
        return "df before cs"
    if "reroll" in kinds and any(k in ("min", "max") for k in kinds[:kinds.index("reroll")]):
        return "reroll after clamp"
    lo = hi = None
    for word, arg in mods:
        if word == "min":
            lo = arg
        if word == "max":
            hi = arg
    if lo is not None and hi is not None and lo > hi:
        return "max below min"
    return None


# -- the brute force -------------------------------------------------------------------------
def convolve(a, b):
    out = defaultdict(float)
    for x, p in a.items():
        for y, q in b.items():
            if p * q > PRUNE:
                out[_add(x, y)] += p * q
    return dict(out)


def _add(x, y):
    if isinstance(x, tuple):
        return tuple(i + j for i, j in zip(x, y))
    return x + y


def first_results(faces, reroll, settings):
    """{raw result: probability} of one die after its reroll."""
    n = len(faces)
    out = defaultdict(float)
    if reroll is None:
        for f in faces:
            out[f] += 1 / n
        return dict(out)
    op, v = target_of(reroll, faces, settings)
    match = [f for f in faces if OPS[op](f, v)]
    if reroll[0] == "rr":
        rest = [f for f in faces if f not in match]
        for f in rest:
            out[f] += 1 / len(rest)
        return dict(out)
    for f in faces:
        if f in match:
            for g in faces:
                out[g] += 1 / n / n
        else:
            out[f] += 1 / n
    return dict(out)


class Scorer:
    """What a result of a term (and of each statistic) adds: its value, clamped, or its count."""

    def __init__(self, mods, settings, faces, term_mods=None):
        """``term_mods``: the term's own modifiers, whose min/max set what a result counts
        (a statistic's ``mods`` count, the term's clamps stay)."""
        self.settings = settings
        clamp_mods = mods if term_mods is None else term_mods
        words = [w for w, _ in clamp_mods]
        explode_at = next((i for i, w in enumerate(words) if w in ("x", "xo")), None)
        # Foundry's min/max, in the order written: (word, target, reaches explosions too)
        self.clamps = [(w, value_of(arg, settings), explode_at is None or i > explode_at)
                       for i, (w, arg) in enumerate(clamp_mods) if w in ("min", "max")]
        self.cs = self.dbl = self.df = None
        for w, arg in mods:
            if w == "cs":
                self.cs = target_of((w, arg), faces, settings)
            if w == "dbl":
                self.dbl = target_of((w, arg), faces, settings)
            if w == "df":
                self.df = target_of((w, arg), faces, settings)

    def value(self, raw, first):
        """What a result counts: each min/max in turn sets it when the result as rolled is
        beyond it (a clamp before x: the initial die only)."""
        v = raw
        for word, target, everywhere in self.clamps:
            if not (first or everywhere):
                continue
            if (word == "min" and raw < target) or (word == "max" and raw > target):
                v = target
        return v

    @property
    def counting(self):
        return any((self.cs, self.dbl, self.df))


    def score(self, raw, first):
        if not self.counting:
            return self.value(raw, first)
        out = int(OPS[self.cs[0]](raw, self.cs[1])) if self.cs else self.value(raw, first)
        if self.dbl and OPS[self.dbl[0]](raw, self.dbl[1]):
            out *= 2
        if self.df and OPS[self.df[0]](raw, self.df[1]):
            out = -1
        return out


def keep_indices(word, amount, n):
    """Positions kept of ``n`` results sorted from lowest to highest."""
    word = keep_word(word)
    k = 1 if amount is None else amount
    if word == "kh":
        return list(range(max(n - k, 0), n))
    if word == "kl":
        return list(range(min(k, n)))
    if word == "dh":
        return list(range(0, max(n - k, 0)))
    if word == "dl":
        return list(range(min(k, n), n))
    # km: the middle k, the higher middle when the rest is odd
    k = min(k, n)
    top = (n - k) // 2
    return list(range(n - top - k, n - top))


def dice_term_dist(term, settings, stats=()):
    """{(term value, *statistics' values): probability} of a dice term, and the mass lost."""
    _, count, sides, mods = term
    n = 1 if count is None else value_of(count, settings)
    faces = faces_of(sides)
    reroll = next((m for m in mods if m[0] in ("r", "rr")), None)
    explode = next((m for m in mods if m[0] in ("x", "xo")), None)
    keep = next((m for m in mods if m[0] in KEEPS), None)
    scorer = Scorer(mods, settings, faces)
    stat_scorers = [(Scorer(smods, settings, faces, mods), next((m for m in smods if m[0] in KEEPS), None))
                    for _, smods in stats]
    first = first_results(faces, reroll, settings)
    width = 1 + len(stats)
    if explode is None:
        out = defaultdict(float)
        items = list(first.items())
        for combo in itertools.product(items, repeat=n):
            p = 1.0
            for _, q in combo:
                p *= q
            raws = sorted(r for r, _ in combo)
            vec = []
            for sc, kp in [(scorer, keep)] + stat_scorers:
                idx = range(len(raws)) if kp is None else keep_indices(kp[0], value_of(kp[1], settings) if kp[1] is not None else None, len(raws))
                vec.append(sum(sc.score(raws[i], True) for i in idx))
            out[tuple(vec)] += p
        return dict(out), 0.0
    op, v = target_of(explode, faces, settings)
    test = lambda r: OPS[op](r, v)
    scorers = [scorer] + [s for s, _ in stat_scorers]
    # the rest of a chain from a fresh raw die: E_d
    p_go = sum(test(f) for f in faces) / len(faces)
    depth = 1
    if explode[0] == "x" and p_go > 0:
        while p_go ** depth > DEPTH_MASS:
            depth += 1
    rest = {}
    lost_rest = 1.0
    for _ in range(depth if explode[0] == "x" else 1):
        new = defaultdict(float)
        lost = 0.0
        for f in faces:
            vec = tuple(s.score(f, False) for s in scorers)
            if test(f) and explode[0] == "x":
                lost += lost_rest / len(faces)
                for w, q in rest.items():
                    new[_add(vec, w)] += q / len(faces)
            else:
                new[vec] += 1 / len(faces)
        rest, lost_rest = dict(new), lost
    if explode[0] == "xo":
        lost_rest = 0.0
    die = defaultdict(float)
    lost_die = 0.0
    for r, q in first.items():
        vec = tuple(s.score(r, True) for s in scorers)
        if test(r):
            lost_die += q * lost_rest
            for w, p in rest.items():
                die[_add(vec, w)] += q * p
        else:
            die[vec] += q
    out = {tuple([0] * width): 1.0}
    for _ in range(n):
        out = convolve(out, die)
    lost = 1 - (1 - lost_die) ** n
    return out, lost


def sum_dist(terms, settings):
    """{total: probability} of a signed sum of terms, and the mass lost."""
    out, lost = {0: 1.0}, 0.0
    for sign, term in terms:
        d, l = term_dist(term, settings)
        lost = lost + l
        out = convolve(out, {sign * k: p for k, p in d.items()})
    return out, lost


def term_dist(term, settings):
    kind = term[0]
    if kind == "const":
        return {value_of(term[1], settings): 1.0}, 0.0
    if kind == "dice":
        d, lost = dice_term_dist(term, settings)
        return {k[0]: p for k, p in d.items()}, lost
    _, elements, mod = term
    dists, lost = [], 0.0
    for e in elements:
        d, l = sum_dist(e, settings)
        dists.append(list(d.items()))
        lost += l
    out = defaultdict(float)
    for combo in itertools.product(*dists):
        p = 1.0
        for _, q in combo:
            p *= q
        if p < PRUNE:
            continue
        values = sorted(v for v, _ in combo)
        if mod is None:
            out[sum(values)] += p
        elif mod[0] == "cs":
            op, t = target_of(mod, [], settings)
            out[sum(OPS[op](v, t) for v in values)] += p
        else:
            idx = keep_indices(mod[0], mod[1], len(values))
            out[sum(values[i] for i in idx)] += p
    return dict(out), lost


def pool_refusal(term, settings):
    _, elements, mod = term
    if mod is None:
        return None
    word, arg = mod
    k = len(elements)
    if word in KEEPS:
        if keep_word(word) == "km":
            return "km on a pool"
        amount = 1 if arg is None else arg
        if isinstance(amount, tuple):
            return "pool keep knob"
        kept = amount if keep_word(word) in ("kh", "kl") else k - amount
        if amount == 0 or kept <= 0:
            return "pool keeps none"
        from math import comb
        if 1 < kept < k and comb(k, kept) > 50:
            return "pool subsets"
        return None
    if word == "cs":
        if arg is None or arg[0] is None and False:
            return "pool cs without comparison"
        return None
    return "pool modifier"


def refusal(f):
    """Why the docs refuse formula ``f`` (``None``: it must be answered)."""
    settings = f.get("settings", {})
    found = []

    def walk(terms):
        for _, term in terms:
            if term[0] == "dice":
                why = term_refusal(term, settings)
                if why:
                    found.append(why)
            elif term[0] == "pool":
                why = pool_refusal(term, settings)
                if why:
                    found.append(why)
                for e in term[1]:
                    walk(e)
    walk(f["terms"])
    if not any(t[0] == "dice" for t in _all_terms(f["terms"])):
        found.append("no dice")
    exploding = any(t[0] == "dice" and any(w in ("x", "xo") for w, _ in t[3]) for t in _all_terms(f["terms"]))
    clamped = any(t[0] == "dice" and any((w == "min" and a > min(faces_of(t[2])))
                                         or (w == "max" and a < max(faces_of(t[2])))
                                         for w, a in t[3] if w in ("min", "max"))
                  for t in _all_terms(f["terms"]))
    for name, mods in f.get("stats", ()):
        kinds = [kind_of(w) for w, _ in mods]
        counting = [a for w, a in mods if kind_of(w) in ("count", "double", "deduct")]
        if clamped and counting and "keep" in kinds and len(set(kinds)) == len(kinds):
            found.append("stat: keep by a count of clamped dice")
        if clamped and any(a is not None and isinstance(a[1], tuple) for a in counting):
            found.append("stat: a knob target over clamped dice")
        if len(set(kinds)) != len(kinds):
            found.append("stat: a modifier kind twice")
        elif "deduct" in kinds and "count" in kinds and kinds.index("deduct") < kinds.index("count"):
            found.append("stat: df before cs")
        elif "keep" in kinds and exploding:
            found.append("stat: keep over exploding dice")
        elif any(kind_of(w) == "keep" and a == 0 for w, a in mods):
            found.append("stat: kh0")
    return found[0] if found else None


def _all_terms(terms):
    for _, term in terms:
        yield term
        if term[0] == "pool":
            for e in term[1]:
                yield from _all_terms(e)


# -- the generator ---------------------------------------------------------------------------
CMP = (">=", "<=", ">", "<", "=")


class Generator:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.knobs = 0

    def knob(self, low, high):
        self.knobs += 1
        return ("knob", f"k{self.knobs}", self.rng.randint(low, high))

    def target(self, faces, knob_ok=True):
        rng = self.rng
        lo, hi = min(faces) - 1, max(faces) + 1
        value = rng.randint(lo, hi)
        if value < 0 or (knob_ok and rng.random() < 0.08):
            return (rng.choice(CMP), self.knob(value, value))
        r = rng.random()
        if r < 0.2:
            return (None, value)
        return (rng.choice(CMP), value)

    def mods(self, sides, allow_explode=True, for_stat=False):
        rng = self.rng
        faces = faces_of(sides)
        kinds = ["keep", "reroll", "explode", "clamp", "count", "double", "deduct"]
        if for_stat:
            kinds = ["keep", "count", "double", "deduct"]
        out = []
        for _ in range(rng.choice([0, 1, 1, 2, 2, 3])):
            kind = rng.choice(kinds)
            if kind == "keep":
                word = rng.choice(KEEPS)
                amount = rng.choice([None, 1, 1, 2, 3, 4, 5, 0 if not for_stat else 1])
                out.append((word, amount))
            elif kind == "reroll":
                out.append((rng.choice(["r", "r", "rr"]), rng.choice([None, self.target(faces, False)])))
            elif kind == "explode":
                if not allow_explode:
                    continue
                target = self.target(faces, False)
                if rng.random() < 0.1 and sides != "F":
                    target = (">=", self.knob(2, 9))
                out.append((rng.choice(["x", "x", "xo"]), rng.choice([None, None, target])))
            elif kind == "clamp":
                out.append((rng.choice(["min", "max"]), rng.randint(max(min(faces) - 1, 0), max(faces) + 1)))
            else:
                word = {"count": "cs", "double": "dbl", "deduct": "df"}[kind]
                out.append((word, self.target(faces)))
        # a word without its number may not run into the next one (r + r reads as rr)
        for i, (word, arg) in enumerate(out[:-1]):
            if arg is None and word in ("r", "rr", "x", "xo"):
                out[i] = (word, ("=", 1 if word[0] == "r" else max(faces)))
            elif arg is None and word in KEEPS:
                out[i] = (word, 1)
        return out

    def dice(self, small=False):
        rng = self.rng
        sides = rng.choice([1, 2, 3, 4, 4, 6, 6, 8, "F"] + ([] if small else [5, 10]))
        count = rng.choice([None, 0, 1, 1, 2, 2, 3, 3, 4])
        if small and count not in (None, 0, 1, 2):
            count = 2
        if rng.random() < 0.1 and count:
            count = ("knob", f"n{self.rng.randint(0, 99)}", count)
        mods = self.mods(sides)
        faces = len(faces_of(sides))
        if isinstance(count, tuple):
            n = count[2]
        else:
            n = 1 if count is None else count
        if faces ** max(n, 1) > 5000:
            count = 2
        return ("dice", count, sides, mods)

    def term(self, depth=0):
        rng = self.rng
        r = rng.random()
        if r < 0.12:
            value = rng.randint(-3, 6)
            return ("const", value if value >= 0 and rng.random() < 0.9 else self.knob(value, value))
        if r < 0.22 and depth < 2:
            k = rng.choice([2, 2, 3])
            elements = [[(1, self.dice(small=True))] + ([(rng.choice([1, -1]), ("const", rng.randint(0, 3)))]
                                                       if rng.random() < 0.3 else [])
                        for _ in range(k)]
            if rng.random() < 0.15 and depth == 0:
                elements[0] = [(1, self.term(depth + 1))]
            mod = rng.choice([None, ("kh", None), ("kl", None), ("kh", 2), ("kl", 2), ("dh", 1),
                              ("dl", 1), ("cs", (">=", rng.randint(1, 8)))])
            return ("pool", elements, mod)
        return self.dice()

    def formula(self):
        rng = self.rng
        terms = [(1 if rng.random() < 0.85 else -1, self.term())]
        while rng.random() < 0.35 and len(terms) < 3:
            terms.append((rng.choice([1, 1, -1]), self.term()))
        f = {"terms": terms, "pass": None, "stats": [], "settings": {}}
        r = rng.random()
        if r < 0.25:
            value = rng.randint(-2, 14)
            f["pass"] = (rng.choice(CMP), value if value >= 0 and rng.random() < 0.7 else self.knob(value, value))
            f["pass_after_semicolon"] = rng.random() < 0.5 or ends_with_comparison(terms)
        single = [t for _, t in terms if t[0] == "dice"]
        if len(terms) == 1 and single and rng.random() < 0.35:
            for i in range(rng.choice([1, 1, 2])):
                mods = self.mods(single[0][2], for_stat=True)
                if mods:
                    f["stats"].append((f"s{i}", mods))
            if f["stats"] and f["pass"] is None and rng.random() < 0.5:
                name = rng.choice(f["stats"])[0]
                f["pass"] = ("cond", f"total {rng.choice(CMP[:4])} {rng.randint(0, 8)} "
                                     f"{rng.choice(['and', 'or'])} {name} {rng.choice(CMP[:4])} {rng.randint(-1, 3)}")
        # settings overriding some knob defaults
        for name, default, kind in knobs_in(f):
            if rng.random() < 0.3:
                f["settings"][name] = max(default + rng.randint(-1, 2), 0 if kind == "count" else -3)
        return f


def ends_with_comparison(terms):
    last = terms[-1][1]
    if last[0] == "dice" and last[3]:
        return last[3][-1][0] in TARGETED
    if last[0] == "pool" and last[2] is not None:
        return last[2][0] in TARGETED
    return False


def knobs_in(f):
    out = []

    def walk(terms):
        for _, t in terms:
            if t[0] == "const" and isinstance(t[1], tuple):
                out.append((t[1][1], t[1][2], "const"))
            if t[0] == "dice" and isinstance(t[1], tuple):
                out.append((t[1][1], t[1][2], "count"))
            if t[0] == "pool":
                for e in t[1]:
                    walk(e)
    walk(f["terms"])
    if f.get("pass") and f["pass"][0] != "cond" and isinstance(f["pass"][1], tuple):
        out.append((f["pass"][1][1], f["pass"][1][2], "pass"))
    return out
