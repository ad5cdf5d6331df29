"""The general dice-pool mechanic, configured entirely by a data file (``mechanic = "pool"``).

A system file declares die types (a value per face), parameters whose points have effects
from a fixed vocabulary, and how a total reads (tiers, labels, a target). This module
compiles resolved parameters into a :class:`~workbench.rules.roll.RollSpec`; it reads data
and never executes any. ``data/README.md`` documents every key with an example.

Order in which a die's faces are built for one check (documented in data/README.md):
1. the die's ``faces`` from the file, with any choice's ``faces`` replacing them;
2. ``shift_faces`` moves the value table (face ``f`` takes the value of face ``f + k``);
3. ``cancel`` / ``cancel_up_to`` faces score -1;
4. ``explode`` / ``explode_from`` add exploding faces to the die's own ``explode``.
Dice counts: every addition first, then removals in the order parameters are declared.
"""
from __future__ import annotations

import re
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Mapping

from ...errors import DataFileError, ParameterError, WorkbenchError
from ...limits import MAX_DIGITS, MAX_TOTAL, BoundedCache
from ..params import RESERVED, Param
from ..dice import Die, Percentile
from ..roll import ALL_NEGATIVE, AllNegative, KeptDice, RerollFaces, RollAgain, RollSpec
from ...validation import suggest
from .._entries import names as _names
from .base import MAX_DICE, Mechanic
from .pool_reading import PASSING, PoolReading, _big, _total_range, dice_parameters, _no_key
from .statistics import Statistics, check_roll_effect, effect_points
from .tier_coverage import check_coverage

if TYPE_CHECKING:  # a system read back from the cache runs without the schema (pydantic)
    from ..schema import PoolFile

MAX_SHARED_REROLL_DICE = 100
"""Largest pool whose rerolls are shared by several die types (exact work grows as n^3)."""

SHORTHAND = re.compile(rf"^\s*([A-Za-z]+)\s*(\d{{1,{MAX_DIGITS}}})\s*$", re.ASCII)
"""``B5``: a choice's letters, then the count (at most MAX_DIGITS digits: 5000 are no count)."""


def shifted(values: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The value table moved ``k`` faces down (favor +1: a 5+ die becomes a 4+ die).

    Face ``f`` takes the value of face ``f + k``, clamped to the die. A downward move
    (``k < 0``) stops once the top face would lose its last success: favor -5 on a 5+ d6 still
    leaves a 6+ die, as UWR's "negative favor cannot go above 6".

    Example:
        >>> shifted((0, 0, 0, 0, 1, 1), 1), shifted((0, 0, 0, 0, 1, 1), -3)
        ((0, 0, 0, 1, 1, 1), (0, 0, 0, 0, 0, 1))
    """
    if k == 0:   # the usual case: nothing moves
        return tuple(values)
    sides = len(values)
    scoring = [i for i, v in enumerate(values) if v > 0]
    lowest = -(sides - 1 - scoring[0]) if scoring else -(sides - 1)
    k = max(min(k, sides - 1), lowest)
    return tuple(values[min(max(i + k, 0), sides - 1)] for i in range(sides))


class PoolMechanic(PoolReading, Mechanic):
    """Dice, parameters and outcome read from a validated :class:`~.schema.PoolFile`; how its
    totals read comes from :class:`~.pool_reading.PoolReading`."""

    kind = "pool"
    pure = True

    def __init__(self, system_id: str, model: PoolFile, source: object):
        self.system_id, self.model, self.source = system_id, model, source
        self.labels = tuple(model.outcome.labels) if model.outcome else None
        self.values = {name: self._face_values(f"dice.{name}.faces", die.face_values)
                       for name, die in model.dice.items() if not die.percentile}
        self._params = self._declare()
        self._compiled = BoundedCache()
        # Each effect's verb, argument and entry in the file, read once (the compile loop runs
        # per check; the entry names the effect in errors).
        self._plan = {name: [(e.verb, e.argument, e, f"params.{name}.effect[{i}]")
                             for i, e in enumerate(spec.effect)]
                      for name, spec in model.params.items()}
        self._on = {name: {choice: (sub.faces, [(e.verb, e.argument, e, f"params.{name}.on.{choice}.effect[{i}]")
                                                for i, e in enumerate(sub.effect)])
                           for choice, sub in spec.on.items()} for name, spec in model.params.items()}
        self._kinds = {name: spec.kind for name, spec in model.params.items()}
        # The effects that say what passes, per parameter: the target is read from these
        # alone (a sweep or a ladder asks for many targets of one pool).
        self._passing = [(name, self._kinds[name], [e for e in plan if e[0] in PASSING])
                         for name, plan in self._plan.items()
                         if any(e[0] in PASSING for e in plan)
                         or any(e[0] in PASSING for sub in self._on[name].values() for e in sub[1])]
        self._pools = BoundedCache()      # the parameters the dice depend on -> the roll
        self._distinct = BoundedCache()   # one object per distinct roll
        self._dice_made = BoundedCache()  # one object per distinct die
        self.reads_all_negative = any(tier.all_negative is not None for tier in model.tiers)
        # Tables and charts list tiers worst to best: ``tier_order`` when the file gives it
        # (the order tiers are tried in is another matter: the first that fits names a roll).
        self._tier_names = tuple(model.tier_order or dict.fromkeys(t.name for t in model.tiers))
        # Which tiers apply depends on the parameters their conditions name, and only those.
        self._tier_keys = tuple(dict.fromkeys(key for t in model.tiers for key in t.when))
        self._tier_rules = BoundedCache()
        self._cancelled = {name for rule in model.cancel_out for name in rule.params}
        self._check_references()
        # Counts, statistics, a total or conditions: the roll engine computes these checks.
        self.statistics = Statistics(model, self._params, source) if model.rolls_statistics else None
        self._pool_keys = dice_parameters(model, self.statistics)
        # The pool memo's key: those parameters' values (one look-up in C per check).
        self._pool_key = itemgetter(*self._pool_keys) if self._pool_keys else _no_key
        # Parameters that only say what passes, which shorthand never sets: a point that
        # changes only these rolls the same pool (System.resolve_points).
        shorthand = {n for name, short in model.shorthand.items() for n in (name, short.choice, short.count)}
        self.reading_parameters = tuple(name for name in model.params
                                        if name not in self._pool_keys and name not in shorthand)
        self.uses_obstacle = any(e.verb == "obstacle" for s in model.params.values() for e in s.effect)

    def adds_dice(self, name: str) -> bool:
        """Whether parameter ``name`` adds dice (``effect = { add_dice = ... }``), as a pool
        size does; a skill, a modifier or a target does not."""
        return any(verb == "add_dice" for verb, *_ in self._plan.get(name, ()))

    # -- reading the file ------------------------------------------------------------------
    def _fail(self, where: str, problem: str):
        raise DataFileError(self.source, where, problem)

    def _face_values(self, where: str, faces) -> tuple[int, ...]:
        out = []
        for i, face in enumerate(faces):
            if isinstance(face, str):
                if self.labels is None or face not in self.labels:
                    self._fail(f"{where}[{i}]", f"{face!r} is not an outcome label; faces are whole numbers"
                               + (f" or one of {list(self.labels)}" if self.labels else
                                  " (labels need an [outcome] table)"))
                out.append(self.labels.index(face))
            else:
                out.append(face)
        return tuple(out)

    def _declare(self) -> dict[str, Param]:
        params = {}
        for name, spec in self.model.params.items():
            if spec.kind == "choice":
                default = spec.default if spec.default is not None or spec.optional else spec.choices[0]
                params[name] = Param(name, "choice", default, choices=tuple(spec.choices),
                                     rule_option=spec.rule_option, optional=spec.optional, help=spec.help)
            else:
                params[name] = Param(name, spec.kind, spec.default, spec.min, spec.max,
                                     rule_option=spec.rule_option, optional=spec.optional, help=spec.help)
        return params

    def _check_references(self) -> None:
        dice, params = self.model.dice, self.model.params

        def need_dice(where, names):
            for name in names:
                if name not in dice:
                    self._fail(where, f"unknown die type {name!r}{suggest(name, dice)}; declared: {', '.join(dice)}")

        def need_when(where, when):
            for key, value in when.items():
                if key not in params:
                    self._fail(f"{where}.{key}", f"unknown parameter{suggest(key, params)}; known: {', '.join(params)}")
                for v in value if isinstance(value, list) else [value]:
                    try:
                        self._params[key].parse(self.system_id, v)
                    except ParameterError as exc:
                        self._fail(f"{where}.{key}", f"got {v!r}; allowed: {exc.allowed}")

        for name, die in dice.items():
            if die.explode_into is not None:
                need_dice(f"dice.{name}.explode_into", [die.explode_into])
                seen, current = {name}, die.explode_into
                while dice[current].explode_into not in (None, current):
                    if current in seen:
                        self._fail(f"dice.{name}.explode_into", "explosions loop between die types; "
                                   "a die may explode into itself or into a chain that ends")
                    seen.add(current)
                    current = dice[current].explode_into
            if len(set(die.explode)) == die.face_count and not die.explode_limit and die.explode_into in (None, name):
                self._fail(f"dice.{name}.explode", "every face explodes, so a roll never ends "
                           "(leave a face out or set explode_limit)")
        for name, spec in params.items():
            if name in RESERVED:
                self._fail(f"params.{name}", "has the name of a keyword of the workbench's own "
                           f"functions; allowed: any other name (not {', '.join(RESERVED)})")
            effects = [(f"params.{name}.effect[{i}]", e) for i, e in enumerate(spec.effect)]
            for choice, sub in spec.on.items():
                for die, faces in sub.faces.items():
                    need_dice(f"params.{name}.on.{choice}.faces", [die])
                    if dice[die].percentile:
                        self._fail(f"params.{name}.on.{choice}.faces.{die}", "a percentile die has no face table")
                    if len(faces) != dice[die].face_count:
                        self._fail(f"params.{name}.on.{choice}.faces.{die}",
                                   f"{len(faces)} faces, but the die has {dice[die].face_count}")
                    self._face_values(f"params.{name}.on.{choice}.faces.{die}", faces)
                effects += [(f"params.{name}.on.{choice}.effect[{i}]", e) for i, e in enumerate(sub.effect)]
            if spec.kind == "choice" and spec.effect:
                self._fail(f"params.{name}.effect", "a choice parameter acts through 'on' (what each choice does)")
            for where, effect in effects:
                verb = effect.verb
                check_roll_effect(self, where, effect)
                if verb in ("add_dice", "keep_highest", "keep_lowest", "tens_dice"):
                    need_dice(f"{where}.{verb}", [effect.argument])
                elif verb in ("shift_faces", "explode_from", "cancel_up_to"):
                    need_dice(f"{where}.{verb}", _names(effect.argument))
                if effect.dice is not None:
                    need_dice(f"{where}.dice", _names(effect.dice))
                for die in _names(effect.dice) if effect.dice is not None else dice:
                    if dice[die].percentile and verb in ("explode", "cancel", "reroll") and effect.dice is None:
                        continue
                    for face in effect.argument if verb in ("explode", "cancel", "reroll") else ():
                        if not 1 <= face <= dice[die].face_count:
                            self._fail(f"{where}.{verb}", f"face {face}, but {die} has faces 1 to {dice[die].face_count}")
                if verb in ("target", "obstacle") and spec.kind != "int":
                    self._fail(f"{where}.{verb}", "needs a whole-number parameter (its value is the target)")
                need_when(f"{where}.when", effect.when)
        for i, tier in enumerate(self.model.tiers):
            need_when(f"tiers[{i}].when", tier.when)
        check_coverage(self.model.tiers, self._params,
                       lambda key, value: self._params[key].parse(self.system_id, value),
                       self._negative_faces(), self._fail)
        for i, rule in enumerate(self.model.cancel_out):
            for key in rule.params:
                if key not in params or params[key].kind != "int":
                    self._fail(f"cancel_out[{i}].params", f"{key!r} is not a whole-number parameter")
            need_when(f"cancel_out[{i}].when", rule.when)
        for name, short in self.model.shorthand.items():
            if name in params:
                self._fail(f"shorthand.{name}", "is already a parameter's name")
            if short.choice not in params or params[short.choice].kind != "choice":
                self._fail(f"shorthand.{name}.choice", f"{short.choice!r} is not a choice parameter")
            if short.count not in params or params[short.count].kind != "int":
                self._fail(f"shorthand.{name}.count", f"{short.count!r} is not a whole-number parameter")

    def _negative_faces(self) -> bool:
        """Whether some die can show a negative face (then "all initial dice negative" rolls
        exist and need tiers too)."""
        tables = [*self.values.values()]
        tables += [self._face_values("on", faces) for spec in self.model.params.values()
                   for sub in spec.on.values() for faces in sub.faces.values()]
        cancels = any(e.verb in ("cancel", "cancel_up_to") for spec in self.model.params.values()
                      for e in [*spec.effect, *(e for sub in spec.on.values() for e in sub.effect)])
        return cancels or any(v < 0 for table in tables for v in table)

    def _refuse(self, name: str, p: Mapping[str, Any], entry: str, allowed: str):
        """A check these parameters cannot make, blamed on the parameter and the file's entry
        whose effect asks for it."""
        where = f"{entry} in {self.source}" if self.source is not None else entry
        raise ParameterError(self.system_id, name, p.get(name), f"{allowed} ({where})")

    # -- the protocol -----------------------------------------------------------------------
    def params(self) -> tuple[Param, ...]:
        return tuple(self._params.values())

    def preprocess(self, given: dict[str, Any]) -> dict[str, Any]:
        """Shorthand such as ``stat="B5"`` (or ``quality="B5"``): a choice and a count at once."""
        given = dict(given)
        for name, short in self.model.shorthand.items():
            choices = {str(c).lower(): c for c in self._params[short.choice].choices}
            for key in (name, short.choice):
                value = given.get(key)
                match = SHORTHAND.match(value) if isinstance(value, str) else None
                if match and match.group(1).lower() not in choices:
                    match = None
                if key == name and key in given and not match:
                    raise ParameterError(self.system_id, name, value,
                                         f"a {short.choice} ({', '.join(map(str, choices.values()))}) "
                                         f"followed by the {short.count}, such as "
                                         f"{next(iter(choices.values()))}5")
                if not match:
                    continue
                choice, count = choices[match.group(1).lower()], int(match.group(2))
                for other, want in ((short.count, count), (short.choice, choice)):
                    if other != key and other in given and str(given[other]).strip().lower() != str(want).lower():
                        raise ParameterError(self.system_id, other, given[other],
                                             f"{want}, as {key}={value} says, or leave {other} out")
                given.pop(name, None)
                given[short.choice], given[short.count] = choice, count
        return given

    def _points(self, p: Mapping[str, Any]) -> dict[str, int]:
        points = {}
        for name, param in self._params.items():
            value = p[name]
            points[name] = 0 if value is None or param.kind == "choice" else int(value)
        for rule in self.model.cancel_out:
            if self._when(rule.when, p):
                a, b = rule.params
                both = min(points[a], points[b])
                if both > 0:
                    points[a] -= both
                    points[b] -= both
        return points

    def _when(self, when, p) -> bool:
        for key, value in when.items():
            allowed = value if isinstance(value, list) else [value]
            if p[key] not in allowed and not any(p[key] == self._params[key].parse(self.system_id, v)
                                                 for v in allowed):
                return False
        return True

    def _effects(self, p):
        """Every effect that applies, as (parameter, (verb, argument, effect, entry), points)."""
        points = self._points(p)
        for name, kind in self._kinds.items():
            if kind == "choice":
                sub = self._on[name].get(str(p[name])) if p[name] is not None else None
                for planned in sub[1] if sub else ():
                    yield name, planned, 1
            else:
                for planned in self._plan[name]:
                    yield name, planned, points[name]

    def _compile(self, p: Mapping[str, Any]) -> dict[str, Any]:
        # Cached: a check asks for the pool, the target and the ties of the same parameters.
        key = tuple(p[name] for name in self._params)
        found = self._compiled.get(key)
        if found is None:
            found = self._compiled.keep(key, self._compile_new(p))
        return found

    def _compile_new(self, p: Mapping[str, Any]) -> dict[str, Any]:
        dice = self.model.dice
        faces = dict(self.values)
        for name, kind in self._kinds.items():
            sub = self._on[name].get(str(p[name])) if kind == "choice" and p[name] is not None else None
            for die, table in (sub[0].items() if sub else ()):
                faces[die] = self._face_values(f"params.{name}.on", table)
        shift = dict.fromkeys(dice, 0)
        cancel = {d: set() for d in dice}
        explode = {d: set(dice[d].explode) for d in dice}
        adds, removals = {d: dice[d].count for d in dice}, []
        out = {"rerolls": 0, "modifier": 0, "target": None, "target_add": 0, "again": {}, "again_if": [],
               "floor": self.model.floor, "ties": self.model.versus.ties if self.model.versus else None,
               "keep": [], "sources": {"rerolls": [], "modifier": [], "target": [], "explode": {}},
               "tens": dict.fromkeys(dice, 0)}
        sources = out["sources"]
        for name, (verb, arg, effect, entry), x in self._effects(p):
            if effect.when and not self._when(effect.when, p):
                continue
            if effect.points is not None:
                x = effect_points(self, name, effect.points, p)
            n = (max(x - effect.past, 0) if x >= 0 else x) * effect.per_point
            targets = _names(effect.dice) if effect.dice is not None else tuple(dice)
            if verb in ("target", "obstacle"):
                if p[name] is not None:
                    earlier = [n for n, e in sources["target"] if e.endswith(("target", "obstacle"))]
                    if earlier and earlier[0] != name:
                        self._refuse(name, p, entry, f"no value while {earlier[0]!r} sets the "
                                     "target too (two targets at once have no single meaning; "
                                     "modifiers of a target are add_to_target)")
                    out["target"] = (out["target"] or 0) + p[name]
                    sources["target"].append((name, f"{entry} {verb}"))
            elif verb == "add_dice":
                if n >= 0:
                    adds[arg] += n
                else:
                    removals.append((arg, -n, effect.keep_at_least))
            elif verb == "add_to_total":
                out["modifier"] += n * arg
                if n * arg:
                    sources["modifier"].append((name, entry))
            elif verb == "add_to_target":
                out["target_add"] += n * arg
                if n * arg:
                    sources["target"].append((name, entry))
            elif verb == "reroll_misses":
                out["rerolls"] += max(n, 0)
                if n > 0:
                    sources["rerolls"].append((name, entry))
            elif verb == "shift_faces":
                for die in _names(arg):
                    shift[die] += n
            elif verb in ("keep_highest", "keep_lowest"):
                out["keep"].append((verb, arg, n, name, entry))
            elif verb in ("explode", "cancel") and n:
                for die in targets:
                    (explode if verb == "explode" else cancel)[die].update(arg)
                    if verb == "explode":
                        sources["explode"].setdefault(die, []).append((name, entry))
            elif verb in ("explode_from", "cancel_up_to") and x > 0:
                face = max(x, effect.lowest or 1)
                for die in _names(arg):
                    sides = len(faces[die])
                    if verb == "explode_from":
                        explode[die].update(range(face, sides + 1))
                        sources["explode"].setdefault(die, []).append((name, entry))
                    else:
                        cancel[die].update(range(1, min(face, sides) + 1))
            elif verb == "remove_floor" and n:
                out["floor"] = None
            elif verb == "ties" and n:
                out["ties"] = arg
            elif verb == "tens_dice":
                out["tens"][arg] += n
            elif verb == "reroll" and n:
                for die in targets:
                    out["again"].setdefault(die, set()).update(arg)
                out["again_if"].append((name, entry, effect.if_roll))
        counts = dict(adds)
        for die, n, keep_at_least in removals:
            counts[die] = max(counts[die] - n, min(counts[die], keep_at_least))
        out.update(faces=faces, shift=shift, cancel=cancel, explode=explode, counts=counts)
        return out

    def _faces_of(self, name: str, c: dict) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        """One die type's values (shifted, cancelled) and exploding faces for this check."""
        values = list(shifted(tuple(c["faces"][name]), c["shift"][name]))
        for face in c["cancel"][name]:
            values[face - 1] = -1
        return tuple(values), tuple(f in c["explode"][name] for f in range(1, len(values) + 1))

    def _die(self, name: str, c: dict, made: dict, p: Mapping[str, Any]) -> Die:
        if name not in made:
            spec = self.model.dice[name]
            values, flags = self._faces_of(name, c)
            into = None
            if spec.explode_into not in (None, name) and any(flags):
                into = self._die(spec.explode_into, c, made, p)
            if all(flags) and not spec.explode_limit and into is None:
                blamed = c["sources"]["explode"].get(name)
                if blamed:
                    self._refuse(blamed[-1][0], p, blamed[-1][1], f"a value that leaves some face of "
                                 f"{name} not exploding (with these parameters every face explodes, "
                                 "so a roll never ends)")
                raise WorkbenchError(f"{self.system_id}: with these parameters every face of {name} "
                                     "explodes, so a roll never ends")
            counts = self.statistics.die_counts(name, values, p) if self.statistics is not None else {}
            # One object per distinct die (most settings of a sweep roll the same few dice):
            # built and checked once, and rolls holding it compare by identity.
            key = (name, tuple(values), flags, spec.explode_limit, into,
                   tuple((count, tuple(scores)) for count, scores in counts.items()))
            die = self._dice_made.get(key)
            if die is None:
                try:
                    die = Die(name, key[1], flags, limit=spec.explode_limit, into=into, counts=key[5])
                except WorkbenchError as exc:
                    raise WorkbenchError(f"{self.system_id} ({self.source}): with these parameters, "
                                         f"{exc}") from None
                self._dice_made.keep(key, die)
            made[name] = die
        return made[name]

    def pool(self, p: Mapping[str, Any]) -> RollSpec:
        """What one check with resolved parameters ``p`` rolls and reads (the engine decides
        how to compute it: a sum of dice takes its fast paths)."""
        key = self._pool_key(p)
        found = self._pools.get(key)
        if found is None:
            found = self._pools.keep(key, self._pool_new(p))
        return found

    def _kept(self, c: dict, counts: dict, p: Mapping[str, Any]) -> KeptDice | None:
        """``keep_highest`` / ``keep_lowest`` points: that many extra dice of the type are
        rolled (added to ``counts``) and as many as the pool had are kept."""
        keeping = [(+n if verb == "keep_highest" else -n, arg, name, entry)
                   for verb, arg, n, name, entry in c["keep"] if n]
        if not keeping:
            return None
        extra = sum(signed for signed, *_ in keeping)
        up = [k for k in keeping if k[0] > 0]
        down = [k for k in keeping if k[0] < 0]
        if up and down:
            self._refuse(down[0][2], p, down[0][3], f"no points while {up[0][2]!r} keeps the best "
                         f"dice ({up[0][3]}): keeping the best and the worst at once has no "
                         "single meaning; net them with [[cancel_out]]")
        die, name = keeping[0][1], keeping[0][2]
        other = [k for k in keeping if k[1] != die]
        if other:
            self._refuse(other[0][2], p, other[0][3], f"keeping the same die type as {name!r} "
                         f"({die}); one roll keeps one die type's best or worst")
        take = counts[die]
        counts[die] += abs(extra)
        return KeptDice(die, take, "highest" if extra > 0 else "lowest")

    def _reroll_faces(self, c: dict, p: Mapping[str, Any]) -> RerollFaces | None:
        """``reroll`` effects: the faces of each die type rolled once more, and when."""
        if not c["again"]:
            return None
        conditions = {text for _, _, text in c["again_if"]}
        if len(conditions) > 1:
            (first, where, _), (other, entry, _) = c["again_if"][0], next(
                e for e in c["again_if"][1:] if e[2] != c["again_if"][0][2])
            self._refuse(other, p, entry, f"no points while {first!r} rerolls faces under another "
                         f"condition ({where}): one roll is rerolled once, under one condition")
        text = conditions.pop()
        condition = self.statistics.roll_condition(text) if text is not None else None
        faces = tuple((die, tuple(sorted(found))) for die, found in c["again"].items() if found)
        return RerollFaces(faces, condition)

    def _pool_new(self, p: Mapping[str, Any]) -> RollSpec:
        c = self._compile(p)
        counts = dict(c["counts"])
        kept = self._kept(c, counts, p)
        rolled = sum(counts.values())
        if rolled > MAX_DICE:
            name = self.model.pool_parameter if self.model.pool_parameter in p else next(
                (n for n, kind in self._kinds.items() if kind == "int" and p[n]), "dice")
            raise ParameterError(self.system_id, name, p.get(name, rolled),
                                 f"a pool of at most {MAX_DICE} dice (these parameters roll {rolled})")
        if c["rerolls"] and sum(1 for n in counts.values() if n) > 1 and rolled > MAX_SHARED_REROLL_DICE:
            name, entry = c["sources"]["rerolls"][0]
            self._refuse(name, p, entry, f"rerolls shared by several die types on at most "
                         f"{MAX_SHARED_REROLL_DICE} dice (these parameters roll {rolled}; use one "
                         "die type, or simulate)")
        if abs(c["modifier"]) > MAX_TOTAL:
            name, entry = c["sources"]["modifier"][-1]
            self._refuse(name, p, entry, f"values that keep what is added to the total within "
                         f"{_total_range()} (these add {_big(c['modifier'])})")
        made: dict[str, Die] = {}
        groups = tuple((Percentile(name, extra=c["tens"][name]) if spec.percentile
                        else self._die(name, c, made, p), counts[name])
                       for name, spec in self.model.dice.items())
        again = self._reroll_faces(c, p)
        stats, total, values = (), None, ()
        if self.statistics is not None:
            in_roll = dict(counts, **({kept.dice: kept.take} if kept is not None else {}))
            stats, total, values = self.statistics.describe(self.system_id, p, in_roll)
        if self.reads_all_negative:
            stats = (*stats, AllNegative(ALL_NEGATIVE))
        ceiling = self.model.ceiling
        # One object per distinct roll: settings that roll the same dice (a die penalty and a
        # smaller pool) share it, built and checked once, and the engine's memo finds it
        # without comparing rolls.
        roll_again = RollAgain(self.statistics.again_if, self.model.again_limit) \
            if self.statistics is not None and self.statistics.again_if is not None else None
        key = (groups, stats, total, c["modifier"], c["floor"], ceiling,
               tuple(sorted(values.items())) if values else (), c["rerolls"], kept, again, roll_again)
        found = self._distinct.get(key)
        if found is not None:
            return found
        try:
            spec = RollSpec(groups, stats=stats, total=total, modifier=c["modifier"], floor=c["floor"],
                            ceiling=ceiling, values=values, rerolls=c["rerolls"], kept=kept,
                            reroll_faces=again, again=roll_again)
        except WorkbenchError as exc:  # a combination the vocabulary cannot roll
            blamed = c["sources"]["rerolls"] if c["rerolls"] else []
            if blamed:
                self._refuse(blamed[0][0], p, blamed[0][1], f"0 with these dice: {exc}")
            raise WorkbenchError(f"{self.system_id} ({self.source}): with these parameters, {exc}") from None
        return self._distinct.keep(key, spec)
