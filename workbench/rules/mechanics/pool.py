"""The general dice-pool mechanic, configured entirely by a data file (``mechanic = "pool"``).

A system file declares die types (a value per face), parameters whose points have effects
from a fixed vocabulary, and how a total reads (tiers, labels, a target). This module
compiles resolved parameters into a :class:`~workbench.rules.pool.PoolSpec`; it reads data
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
from typing import Any, Mapping

from ...errors import DataFileError, ParameterError, WorkbenchError
from ..params import Param
from ..pool import DieType, PoolSpec
from ..roll import RollSpec
from ..schema import PoolFile, _names, suggest
from .base import MAX_DICE, Mechanic
from .statistics import Statistics, check_roll_effect, effect_points, roll_of

MAX_SHARED_REROLL_DICE = 100
"""Largest pool whose rerolls are shared by several die types (exact work grows as n^3)."""

SHORTHAND = re.compile(r"^\s*([A-Za-z]+)\s*(\d+)\s*$")


def shifted(values: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The value table moved ``k`` faces down (favor +1: a 5+ die becomes a 4+ die).

    Face ``f`` takes the value of face ``f + k``, clamped to the die. A downward move
    (``k < 0``) stops once the top face would lose its last success: favor -5 on a 5+ d6 still
    leaves a 6+ die, as UWR's "negative favor cannot go above 6".

    Example:
        >>> shifted((0, 0, 0, 0, 1, 1), 1), shifted((0, 0, 0, 0, 1, 1), -3)
        ((0, 0, 0, 1, 1, 1), (0, 0, 0, 0, 0, 1))
    """
    sides = len(values)
    scoring = [i for i, v in enumerate(values) if v > 0]
    lowest = -(sides - 1 - scoring[0]) if scoring else -(sides - 1)
    k = max(min(k, sides - 1), lowest)
    return tuple(values[min(max(i + k, 0), sides - 1)] for i in range(sides))


class PoolMechanic(Mechanic):
    """Dice, parameters and outcome read from a validated :class:`~.schema.PoolFile`."""

    kind = "pool"

    def __init__(self, system_id: str, model: PoolFile, source: object):
        self.system_id, self.model, self.source = system_id, model, source
        self.labels = tuple(model.outcome.labels) if model.outcome else None
        self.values = {name: self._face_values(f"dice.{name}.faces", die.face_values)
                       for name, die in model.dice.items() if not die.percentile}
        self._params = self._declare()
        self._compiled: dict[tuple, dict] = {}
        # Each effect's verb and argument, read once (the compile loop runs per check).
        self._plan = {name: [(e.verb, e.argument, e) for e in spec.effect]
                      for name, spec in model.params.items()}
        self._on = {name: {choice: (sub.faces, [(e.verb, e.argument, e) for e in sub.effect])
                           for choice, sub in spec.on.items()} for name, spec in model.params.items()}
        self._kinds = {name: spec.kind for name, spec in model.params.items()}
        self._pools: dict[tuple, PoolSpec] = {}
        self._check_references()
        # Counts, statistics, a total or conditions: the roll engine computes these checks.
        self.statistics = Statistics(model, self._params, source) if model.rolls_statistics else None
        self._pool_keys = self._dice_parameters(model, self.statistics)
        self.uses_obstacle = any(e.verb == "obstacle" for s in model.params.values() for e in s.effect)

    @staticmethod
    def _dice_parameters(model: PoolFile, statistics=None) -> tuple[str, ...]:
        """The parameters the dice depend on. One that only says what passes (a target, an
        Ob) and that no condition or cancelling rule reads leaves the pool alone, so the pool
        cache ignores it: a ladder or a sweep over targets builds each pool once."""
        read = {key for spec in model.params.values() for e in spec.effect for key in e.when}
        for spec in model.params.values():
            read |= {key for sub in spec.on.values() for e in sub.effect for key in e.when}
        read |= {key for tier in model.tiers for key in tier.when}
        for rule in model.cancel_out:
            read |= set(rule.params) | set(rule.when)
        if statistics is not None:
            read |= statistics.reads
        read |= {name for spec in model.params.values() for e in _all_effects(spec)
                 if isinstance(e.points, str) for name in model.params if name in e.points}
        passing = ("target", "obstacle", "add_to_target")
        return tuple(name for name, spec in model.params.items()
                     if name in read or spec.kind == "choice" or not spec.effect
                     or any(e.verb not in passing for e in spec.effect))

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
                    if dice[die].percentile and verb in ("explode", "cancel") and effect.dice is None:
                        continue
                    for face in effect.argument if verb in ("explode", "cancel") else ():
                        if not 1 <= face <= dice[die].face_count:
                            self._fail(f"{where}.{verb}", f"face {face}, but {die} has faces 1 to {dice[die].face_count}")
                if verb in ("target", "obstacle") and spec.kind != "int":
                    self._fail(f"{where}.{verb}", "needs a whole-number parameter (its value is the target)")
                need_when(f"{where}.when", effect.when)
        for i, tier in enumerate(self.model.tiers):
            need_when(f"tiers[{i}].when", tier.when)
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
        """Every effect that applies, as (parameter, (verb, argument, effect), points)."""
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
            if len(self._compiled) > 4096:
                self._compiled.clear()
            found = self._compiled[key] = self._compile_new(p)
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
        out = {"rerolls": 0, "modifier": 0, "target": None, "target_add": 0,
               "floor": self.model.floor, "ties": self.model.versus.ties if self.model.versus else None,
               "keep": [], "tens": dict.fromkeys(dice, 0)}
        for name, (verb, arg, effect), x in self._effects(p):
            if effect.when and not self._when(effect.when, p):
                continue
            if effect.points is not None:
                x = effect_points(self, name, effect.points, p)
            n = (max(x - effect.past, 0) if x >= 0 else x) * effect.per_point
            targets = _names(effect.dice) if effect.dice is not None else tuple(dice)
            if verb in ("target", "obstacle"):
                if p[name] is not None:
                    out["target"] = (out["target"] or 0) + p[name]
            elif verb == "add_dice":
                if n >= 0:
                    adds[arg] += n
                else:
                    removals.append((arg, -n, effect.keep_at_least))
            elif verb == "add_to_total":
                out["modifier"] += n * arg
            elif verb == "add_to_target":
                out["target_add"] += n * arg
            elif verb == "reroll_misses":
                out["rerolls"] += max(n, 0)
            elif verb == "shift_faces":
                for die in _names(arg):
                    shift[die] += n
            elif verb in ("keep_highest", "keep_lowest"):
                out["keep"].append((verb, arg, n))
            elif verb in ("explode", "cancel") and n:
                for die in targets:
                    (explode if verb == "explode" else cancel)[die].update(arg)
            elif verb in ("explode_from", "cancel_up_to") and x > 0:
                face = max(x, effect.lowest or 1)
                for die in _names(arg):
                    sides = len(faces[die])
                    if verb == "explode_from":
                        explode[die].update(range(face, sides + 1))
                    else:
                        cancel[die].update(range(1, min(face, sides) + 1))
            elif verb == "remove_floor" and n:
                out["floor"] = None
            elif verb == "ties" and n:
                out["ties"] = arg
            elif verb == "tens_dice":
                out["tens"][arg] += n
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

    def _die(self, name: str, c: dict, made: dict) -> DieType:
        if name not in made:
            spec = self.model.dice[name]
            values, flags = self._faces_of(name, c)
            into = None
            if spec.explode_into not in (None, name) and any(flags):
                into = self._die(spec.explode_into, c, made)
            if all(flags) and not spec.explode_limit and into is None:
                raise WorkbenchError(f"{self.system_id}: with these parameters every face of {name} "
                                     "explodes, so a roll never ends")
            made[name] = DieType(name, tuple(values), flags, limit=spec.explode_limit, into=into)
        return made[name]

    def pool(self, p: Mapping[str, Any]) -> PoolSpec:
        key = tuple(p[name] for name in self._pool_keys)
        if key not in self._pools:
            if len(self._pools) > 4096:
                self._pools.clear()
            self._pools[key] = self._pool_new(p)
        return self._pools[key]

    def _pool_new(self, p: Mapping[str, Any]) -> "PoolSpec | RollSpec":
        c = self._compile(p)
        if self.statistics is not None:
            return roll_of(self, c, p)
        made: dict[str, DieType] = {}
        groups = [(self._die(name, c, made), c["counts"][name]) for name in self.model.dice]
        keep, kept = "sum", None
        if c["keep"]:
            kinds = {(verb, arg) for verb, arg, n in c["keep"] if n}
            extra = sum(n if verb == "keep_highest" else -n for verb, arg, n in c["keep"])
            if kinds and extra:
                die = c["keep"][0][1]
                if len({arg for _, arg, _ in c["keep"]}) > 1 or any(n for d, n in groups if d.name != die):
                    raise ParameterError(self.system_id, c["keep"][0][0], extra,
                                         f"keeping the best or worst works on a pool of {die} dice only")
                keep, kept = ("highest" if extra > 0 else "lowest"), c["counts"][die]
                groups = [(d, n + abs(extra)) if d.name == die else (d, n) for d, n in groups]
        rolled = sum(n for _, n in groups)
        if rolled > MAX_DICE:
            raise ParameterError(self.system_id, self.model.pool_parameter or "dice", rolled,
                                 f"a pool of at most {MAX_DICE} dice (these parameters roll {rolled})")
        if c["rerolls"] and sum(1 for _, n in groups if n) > 1 and rolled > MAX_SHARED_REROLL_DICE:
            raise ParameterError(self.system_id, "rerolls", c["rerolls"],
                                 f"rerolls shared by several die types on at most "
                                 f"{MAX_SHARED_REROLL_DICE} dice (use one die type, or simulate)")
        return PoolSpec(tuple(groups), rerolls=c["rerolls"], modifier=c["modifier"],
                        floor=c["floor"], keep=keep, kept=kept)

    # -- how a total reads ----------------------------------------------------------------
    @property
    def pass_from(self) -> str | None:
        return self.model.outcome.pass_from if self.model.outcome else None

    def tier_names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t.name for t in self.model.tiers))

    def tier_rules(self, p):
        return tuple(t for t in self.model.tiers if self._when(t.when, p))

    @property
    def pass_condition(self):
        """The file's ``pass_if`` (parsed), or ``None``: then a pass is total >= target."""
        return self.statistics.pass_if if self.statistics is not None else None

    def condition(self, text: str):
        """A tier's ``condition``, parsed and checked when the file was loaded."""
        return self.statistics.conditions[text]

    def target(self, p):
        c = self._compile(p)
        if c["target"] is None:
            return None
        return c["target"] + c["target_add"]

    def versus_ties(self, p):
        ties = self._compile(p)["ties"]
        if ties is None:
            raise WorkbenchError(f"{self.system_id}: its rules define no opposed checks (no [versus] table)")
        return ties

    def versus_extra_obstacle(self, p):
        return self._compile(p)["target_add"]

    @property
    def uncontested(self) -> str:
        return self.model.versus.uncontested if self.model.versus else "counts"

    def extra(self, p):
        return {"effective_ob": self.target(p)} if self.uses_obstacle else {}


def _all_effects(spec):
    """A parameter's effects, its choices' effects included."""
    yield from spec.effect
    for sub in spec.on.values():
        yield from sub.effect
