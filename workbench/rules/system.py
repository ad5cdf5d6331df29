"""A system: a mechanic configured by a data file, with its presets and difficulty ladder.

A system describes; :func:`workbench.check` and the other entry points compute.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Iterable, Iterator, Mapping

from ..errors import DataFileError, ParameterError, WorkbenchError, shown
from ..limits import BoundedCache
from ..validation import is_whole, suggest
from .expressions import ExpressionError, parse
from .mechanics.base import Mechanic
from .params import Param
from .pool import PoolSpec


@dataclass(frozen=True)
class Rung:
    """One step of a difficulty ladder: parameters it sets and parameters it adds to.

    Example: UWR's Easy is ``Rung("Easy", set={"target": 1}, add={"favor": 1})``.
    """

    name: str
    set: Mapping[str, Any] = field(default_factory=dict)
    add: Mapping[str, Any] = field(default_factory=dict)
    example: str = ""

    def describe(self) -> str:
        parts = [f"{k}={v}" for k, v in self.set.items()]
        parts += [f"{k}{v:+d}" for k, v in self.add.items()]
        return ", ".join(parts)


class System:
    """One playable system (or what-if variant): names, parameters, ladder and mechanic.

    Use :func:`workbench.system` to get one; compute with :func:`workbench.check`.

    Example:
        >>> import workbench
        >>> uwr = workbench.system("hkrpg")
        >>> uwr.id, [r.name for r in uwr.ladder]
        ('uwr', ['Easy', 'Normal', 'Difficult', 'Extreme'])
    """

    def __init__(self, *, id: str, name: str, mechanic: Mechanic, aliases=(), seed: str = "",
                 pool_parameter: str | None = None, ladder=(), defaults=None, source=None,
                 description: str = "", base: str | None = None):
        self.id = id
        self.base = base  # the preset a what-if variant changes (None for presets)
        self.name = name
        self.mechanic = mechanic
        self.aliases = tuple(aliases)
        self.seed = seed
        self.pool_parameter = pool_parameter
        self.ladder = tuple(ladder)
        self.source = source
        self.description = description
        # Where the system came from: "systems" (presets), "variants", "gallery" (published
        # games' core rolls), "python" (registered), or "file" (loaded by path).
        self.collection = "file"
        params = {p.name: p for p in mechanic.params()}
        for key, value in (defaults or {}).items():
            if key not in params:
                if source is None:
                    raise ParameterError(id, f"defaults[{key!r}]", value, "defaults of declared "
                                         f"parameters{suggest(key, params)}: {', '.join(params)}")
                raise DataFileError(source, f"defaults.{key}",
                                    f"unknown parameter{suggest(key, params)}; known: {', '.join(params)}")
            try:
                parsed = params[key].parse(id, value)
            except ParameterError as exc:
                if source is None:  # a mechanic registered in Python: no file to name
                    raise ParameterError(id, f"defaults[{key!r}]", value, exc.allowed) from None
                raise DataFileError(source, f"defaults.{key}",
                                    f"got {value!r}; allowed: {exc.allowed}") from None
            params[key] = params[key].with_default(parsed)
        self.params: dict[str, Param] = params
        self._parsed = BoundedCache()     # (param, value) -> the value checked
        self._settings = BoundedCache()   # the values given -> (parameters, pool)

    def __repr__(self) -> str:
        return f"<System {self.id}: {self.name}>"

    @property
    def statistic_names(self) -> tuple[str, ...]:
        """What one check reads: ``("total",)``, or the total, counts and statistics of a
        system that declares them.

        Example:
            >>> import workbench
            >>> workbench.system("shadowrun-5e").statistic_names
            ('total', 'hits', 'ones')
        """
        statistics = getattr(self.mechanic, "statistics", None)
        if statistics is None:
            return ("total",)
        return ("total", *statistics.counts, *statistics.base, *statistics.derived)

    def condition(self, text: str):
        """A condition over this system's statistics and parameters (``"hits >= 3"``, ``"ones >
        dice / 2"``), parsed and checked: an unknown name is an error naming those that exist.

        One rule on every surface that takes a condition (``.probability``, tables, ladders,
        figures, blocks): a system whose outcomes are labels (Erzählspiel's narrative dice) has
        no numbers a condition could read, so every condition is refused there (rather than
        read over the labels' positions); a mechanic registered in Python names its
        statistics only when it rolls, so there the names are checked where they are read.

        Example:
            >>> import workbench
            >>> workbench.system("uwr").condition("total >= dice").names
            ('total', 'dice')
            >>> workbench.system("erzahlspiel").condition("total >= 1")  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            workbench.errors.ParameterError: erzahlspiel: parameter 'condition' got 'total >= 1'; allowed: no condition: its outcomes are labels (NO! AND..., ..., YES! AND...), and a condition reads numbers
        """
        labels = self.outcome_labels
        if labels is not None:
            raise labels_refused(self.id, text, labels)
        statistics = getattr(self.mechanic, "statistics", None)
        numbers = [name for name, param in self.params.items()
                   if param.kind != "choice" or all(is_whole(c, numpy=False) for c in param.choices)]
        flags = statistics.flags if statistics is not None else []
        # A data file (or a formula, compiled into one) names every statistic when it loads;
        # Python code only when it rolls: its names are checked where they are read.
        known = [*self.statistic_names, *numbers] if self.mechanic.kind in ("pool", "narrative") else None
        try:
            return parse(text, known=known, want="bool", conditions=flags)
        except ExpressionError as exc:
            raise ParameterError(self.id, "condition", text, f"a condition over "
                                 f"{', '.join(self.statistic_names)} and the parameters ({exc.problem})") from None

    @property
    def outcome_labels(self) -> tuple[str, ...] | None:
        return getattr(self.mechanic, "labels", None)

    def resolve(self, /, **given) -> dict[str, Any]:
        """Every parameter with its checked value, defaults filled in.

        Example:
            >>> import workbench
            >>> workbench.system("uwr").resolve(dice=3)["rerolls"]
            0
        """
        given = self.mechanic.preprocess(given)
        if type(given) is not dict and not isinstance(given, Mapping):   # dict: the usual, at once
            raise WorkbenchError(f"{self.id}: preprocess(given) returned {shown(given)}; allowed: "
                                 "a dict of parameters")
        params = self.params
        for name in given:
            if name not in params:
                raise ParameterError(self.id, name, given[name],
                                     "a parameter of this system" + suggest(name, params)
                                     + ": " + ", ".join(params))
        parse, values = self._parse, {}
        for name, param in params.items():   # (a whole number within its bounds: at once, in _parse)
            values[name] = parse(param, given[name]) if name in given else param.default
        self.mechanic.cross_check(values)
        return values

    def _parse(self, param: Param, value: Any) -> Any:
        """:meth:`Param.parse`, remembered per parameter, type and value (checking a value
        depends on nothing else; sweeps and curves check the same few values many times). A
        whole number within a number parameter's bounds is itself, at once."""
        if type(value) is int and param.kind != "bool" and param.kind != "choice" and (
                param.minimum is None or param.minimum <= value) and (param.maximum is None or value <= param.maximum):
            return value
        key = (id(param), type(value), value)
        try:
            known, parsed = self._parsed[key]
            if known is param:
                return parsed
        except KeyError:
            pass
        except TypeError:   # an unhashable value: checked (and refused) every time
            return param.parse(self.id, value)
        parsed = param.parse(self.id, value)
        self._parsed.keep(key, (param, parsed))
        return parsed

    def pool(self, /, **given) -> PoolSpec:
        """The dice rolled for a check with these parameters."""
        return self.mechanic.pool(self.resolve(**given))

    def resolve_points(self, points: Iterable[Mapping[str, Any]],
                       pools: bool = True) -> Iterator[tuple[dict[str, Any], PoolSpec]]:
        """``(parameters, pool)`` for each point, as :meth:`resolve` and the mechanic's
        ``pool`` give them, and refusing the same values (``pools=False``: the parameters
        alone, the pool ``None``; what a sweep checks before its first point runs).

        Points that differ only in parameters that say what passes (a target, an Ob: the
        mechanic's ``reading_parameters``) share one resolution of the rest and one pool; only
        those values are checked again. A sweep over targets builds each pool once.

        Example:
            >>> import workbench
            >>> points = [{"dice": 3, "target": t} for t in (1, 2)]
            >>> [(p["target"], pool.dice) for p, pool in workbench.system("uwr").resolve_points(points)]
            [(1, 3), (2, 3)]
        """
        reading = [(name, self.params[name]) for name in getattr(self.mechanic, "reading_parameters", ())]
        shared: dict[tuple, tuple[dict[str, Any], PoolSpec]] = {}
        parse = self._parse
        skipped = {name for name, _ in reading}
        layout, rest, getter = None, (), None
        for given in points:
            key = None
            if reading:
                names = tuple(given)
                if names != layout:   # a grid's points name the same parameters: once
                    layout = names
                    rest = tuple(name for name in names if name not in skipped)
                    getter = itemgetter(*rest) if len(rest) > 1 else None
                values = getter(given) if getter is not None else tuple(given[name] for name in rest)
                key = (rest, values, tuple(map(type, values)))   # 1 and True differ
                try:
                    found = shared.get(key)
                except TypeError:   # an unhashable value: resolved (and refused) on its own
                    key = found = None
            if key is None or found is None:
                resolved = self.resolve(**given)
                found = resolved, (self.mechanic.pool(resolved) if pools else None)
                if key is not None:
                    shared[key] = found
                yield found
                continue
            resolved = dict(found[0])
            for name, param in reading:
                resolved[name] = parse(param, given[name]) if name in given else param.default
            yield resolved, found[1]

    def setting(self, given: Mapping[str, Any]) -> tuple[dict[str, Any], PoolSpec]:
        """Every parameter's checked value (as :meth:`resolve`) and the pool they roll.

        Remembered per setting when the mechanic says its pool depends on nothing but the
        parameters and the system's data (``mechanic.pure``): a repeated or slightly changed
        check then skips both steps. The memo lives on this object, so a changed data file or
        a mechanic registered again (a new ``System``) never meets old settings. The values
        returned are shared: read them, copy before changing.

        Example:
            >>> import workbench
            >>> params, pool = workbench.system("uwr").setting({"dice": 3, "target": 2})
            >>> params["target"], pool.dice
            (2, 3)
        """
        if not getattr(self.mechanic, "pure", False):
            resolved = self.resolve(**given)
            return resolved, self.mechanic.pool(resolved)
        values = tuple(given.values())
        key = (tuple(given), values, tuple(map(type, values)))
        try:
            found = self._settings.get(key)
        except TypeError:   # an unhashable value: resolved (and refused) every time
            resolved = self.resolve(**given)
            return resolved, self.mechanic.pool(resolved)
        if found is not None:
            return found
        resolved = self.resolve(**given)
        return self._settings.keep(key, (resolved, self.mechanic.pool(resolved)))

    def with_rung(self, rung: Rung | str, **given) -> dict[str, Any]:
        """Parameters for a check at a ladder rung: the rung's values set or added."""
        if not isinstance(rung, (str, Rung)):
            raise ParameterError(self.id, "rung", rung, "a rung name: " + ", ".join(r.name for r in self.ladder))
        if isinstance(rung, str):
            named = {r.name.lower(): r for r in self.ladder}
            if rung.lower() not in named:
                raise ParameterError(self.id, "rung", rung, "one of " + ", ".join(r.name for r in self.ladder))
            rung = named[rung.lower()]
        params = dict(given)
        params.update(rung.set)
        base = self.resolve(**given)
        for key, delta in rung.add.items():
            param = self.params[key]
            if param.kind != "int" or base[key] is None:
                raise ParameterError(self.id, key, base[key], f"a whole number for rung "
                                     f"{rung.name!r} to add {delta:+d} to")
            value = base[key] + delta
            if (param.minimum is not None and value < param.minimum) or (
                    param.maximum is not None and value > param.maximum):
                raise ParameterError(self.id, key, base[key], f"a value that stays within "
                                     f"{param.allowed()} once rung {rung.name!r} adds {delta:+d}")
            params[key] = value
        return params

    def rung_problem(self, rung: Rung) -> tuple[str, str] | None:
        """What is wrong with a rung of this system's ladder, as ``(where, problem)``
        (``where``: ``""``, ``"set.KEY"`` or ``"add.KEY"``), or ``None``. A rung names only
        known parameters, sets values they allow, and adds only to whole-number parameters
        that always have a value (a choice, a true/false or a parameter that may be left
        out has nothing to add to)."""
        for key in [*rung.set, *rung.add]:
            if key not in self.params:
                return "", f"unknown parameter {key!r}{suggest(key, self.params)}; known: {', '.join(self.params)}"
        for key, value in rung.set.items():
            try:
                self.params[key].parse(self.id, value)
            except ParameterError as exc:
                return f"set.{key}", f"got {value!r}; allowed: {exc.allowed}"
        for key, delta in rung.add.items():
            param = self.params[key]
            if key in rung.set:   # set and add at once: the add was dropped without a word
                return (f"add.{key}", f"the rung also sets {key} = {rung.set[key]!r}; allowed: set "
                        f"{key} or add to it, not both")
            if isinstance(delta, bool) or not isinstance(delta, int):
                return f"add.{key}", f"got {delta!r}; allowed: a whole number"
            if param.kind != "int" or param.optional:
                kind = {"choice": "a choice", "bool": "true or false"}.get(
                    param.kind, "optional (it may be left out)")
                return (f"add.{key}", f"adds to {key!r}, which is {kind}; allowed: add to a "
                        f"whole-number parameter with a default, or set {key} instead")
        return None


def labels_refused(system_id: str, condition: object, labels) -> ParameterError:
    """The one error for a condition over outcomes that are labels, on every surface."""
    return ParameterError(system_id, "condition", condition, "no condition: its outcomes are "
                          f"labels ({', '.join(map(str, labels))}), and a condition reads numbers")
