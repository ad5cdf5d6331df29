"""Mechanics from Python: for rules the data vocabulary cannot say, defined in a notebook cell.

A designer writes either a function from resolved parameters to a
:class:`~workbench.rules.pool.PoolSpec` (with the parameters it takes), or a
:class:`~workbench.rules.mechanics.base.Mechanic` subclass, and registers it under an id.
From then on ``check``, ``simulate``, ``versus``, ``success_curve``, ladders, tables, the
explorer's system list and the report work on it, exactly as on a data-file system. Only
code the designer runs defines mechanics: nothing read from a data file is ever executed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .. import validation
from ..validation import is_whole
from ..errors import ParameterError, WorkbenchError, shown
from ..limits import MAX_CHOICES, MAX_DICE, MAX_PARAMS
from .mechanics.base import Mechanic
from .params import RESERVED, Param, shadowing
from .expressions import ExpressionError, parse
from .pool import PoolSpec
from .registry import register, unregister
from .roll import RollSpec
from .scored import Outcomes, ScoredRoll
from .system import Rung, System


def _param(name: str, spec: "Param | Mapping[str, Any]") -> Param:
    """A :class:`Param` from a Param or a table like a data file's ``[params.NAME]``."""
    if isinstance(spec, Param):
        return spec
    if not isinstance(spec, Mapping):
        raise WorkbenchError(f"parameter {name!r}: give a Param or a dict such as "
                             "{'default': 0, 'min': 0, 'max': 20}, got " + repr(spec))
    unknown = set(spec) - {"default", "min", "max", "choices", "help", "optional", "rule_option"}
    if unknown:
        raise WorkbenchError(f"parameter {name!r}: unknown keys {sorted(unknown)}; allowed: default, "
                             "min, max, choices, help, optional, rule_option")
    default = spec.get("default")
    if "choices" in spec:
        if isinstance(spec["choices"], (str, bytes, Mapping)) or not hasattr(spec["choices"], "__iter__"):
            raise WorkbenchError(f"parameter {name!r}: choices got {shown(spec['choices'])}; allowed: "
                                 f"a list of 1 to {MAX_CHOICES} texts or whole numbers")
        choices = tuple(spec["choices"])
        if default is None and not spec.get("optional") and choices:
            default = choices[0]   # (none: checked_params says what choices may be; [0] raised IndexError)
        kind = "choice"
    else:
        choices = ()
        kind = "bool" if isinstance(default, bool) else "int"
    if default is None and not spec.get("optional") and kind != "choice":
        raise WorkbenchError(f"parameter {name!r}: needs a default (or optional=True)")
    return Param(name, kind, default, spec.get("min"), spec.get("max"), choices,
                 bool(spec.get("rule_option")), bool(spec.get("optional")), spec.get("help", ""))


DESCRIPTIONS = (PoolSpec, RollSpec, ScoredRoll, Outcomes)
"""What a mechanic's ``pool(p)`` may return: dice summed, statistics read from dice, a roll
scored by a Python function, or odds given outright."""


BOUND = 10**6
"""Largest bound or default a whole-number parameter of a Python mechanic may declare (as in
data files)."""


def checked_params(system_id: str, declared: Any) -> tuple[Param, ...]:
    """A Python mechanic's declared parameters, each checked as a data file's would be: a
    known kind, bounds in order, a default the parameter itself allows, distinct choices.

    Example:
        >>> checked_params("mine", [Param("dice", "int", 50, 0, 10)])
        Traceback (most recent call last):
        ...
        workbench.errors.WorkbenchError: mine: parameter 'dice' declares default 50; allowed: a default the parameter allows (a whole number from 0 to 10)
    """
    if isinstance(declared, (str, bytes)) or not hasattr(declared, "__iter__"):
        raise WorkbenchError(f"{system_id}.params() returned {shown(declared)}; allowed: a tuple of "
                             "workbench.rules.params.Param")
    params = tuple(declared)
    if not all(isinstance(p, Param) for p in params):
        raise WorkbenchError(f"{system_id}.params() returned {shown(params)}; allowed: a tuple of "
                             "workbench.rules.params.Param")
    if len(params) > MAX_PARAMS:
        raise WorkbenchError(f"{system_id}: {len(params)} parameters; allowed: at most {MAX_PARAMS}")
    names = [p.name for p in params]
    return tuple(_checked_param(system_id, param, names) for param in params)


def _checked_param(system_id: str, param: Param, names: list) -> Param:
    """One declared parameter checked (``names``: every declared name); returned with its
    default as the parameter reads it (``"b"`` for the choice ``"B"``)."""
    where = f"{system_id}: parameter {shown(param.name)}"
    if not isinstance(param.name, str) or not param.name.isidentifier() or names.count(param.name) > 1:
        raise WorkbenchError(f"{where}: allowed: a name of letters, digits and _ used once")
    if param.name in RESERVED:
        raise WorkbenchError(f"{where} has the name of a keyword of the workbench's own "
                             f"functions; allowed: any other name (not {', '.join(RESERVED)})")
    if shadowing(param.name) is not None:   # pass_if = "hits >= total" read the roll's total
        raise WorkbenchError(f"{where}: {shadowing(param.name)}")
    if param.kind not in ("int", "bool", "choice"):
        raise WorkbenchError(f"{where} has kind {shown(param.kind)}; allowed: int, bool, choice")
    for bound in (param.minimum, param.maximum):
        if bound is not None and (not is_whole(bound, numpy=False) or abs(bound) > BOUND
                                  or param.kind != "int"):
            raise WorkbenchError(f"{where} declares the bound {shown(bound)}; allowed: whole "
                                 f"numbers from -{BOUND:,} to {BOUND:,}, for whole-number parameters")
    if param.minimum is not None and param.maximum is not None and param.minimum > param.maximum:
        raise WorkbenchError(f"{where} declares min {param.minimum} above max {param.maximum}")
    if param.kind == "choice":
        choices = param.choices
        if not choices or len(choices) > MAX_CHOICES or len(set(map(str, choices))) != len(choices) \
                or not all(isinstance(c, str) or is_whole(c, numpy=False) for c in choices):
            raise WorkbenchError(f"{where} declares choices {shown(choices)}; allowed: 1 to "
                                 f"{MAX_CHOICES} different texts or whole numbers")
    if param.default is None and not param.optional:
        raise WorkbenchError(f"{where} has no default; allowed: a default, or optional=True")
    if param.default is not None:
        try:   # as declared ("b" for the choice "B", True for a true/false)
            param = param.with_default(param.parse(system_id, param.default))
        except ParameterError:
            raise WorkbenchError(f"{where} declares default {shown(param.default)}; allowed: a "
                                 f"default the parameter allows ({param.allowed()})") from None
    return param


def checked_pool(system_id: str, spec: Any, p: Mapping[str, Any]) -> "PoolSpec | RollSpec | ScoredRoll | Outcomes":
    """What a designer's pool code returned, checked before any work is done with it."""
    if not isinstance(spec, DESCRIPTIONS):
        raise WorkbenchError(f"{system_id}: the pool function returned {type(spec).__name__}; "
                             "it must return a workbench.rules.PoolSpec, RollSpec, ScoredRoll or Outcomes")
    if spec.dice > MAX_DICE:  # checked before any work, as for data-file systems
        raise ParameterError(system_id, "pool", spec.dice,
                             f"a pool of at most {MAX_DICE} dice (the pool function returned "
                             f"{spec.dice} dice for {dict(p)})")
    return spec


def _checked_mechanic(mechanic: Mechanic, id: str) -> Mechanic:
    """A designer's Mechanic subclass: it must declare its parameters and its pool; what its
    ``pool`` returns is checked on every call, like a pool function's."""
    name = type(mechanic).__name__
    if type(mechanic).pool is Mechanic.pool or type(mechanic).params is Mechanic.params:
        raise WorkbenchError(f"register_mechanic: {name} must define params() and pool(p); "
                             "allowed: a Mechanic subclass implementing both")
    declared = checked_params(f"register_mechanic: {name}", mechanic.params())
    mechanic.params = _Declared(declared)  # the checked declaration, defaults as declared
    mechanic.pool = _CheckedPool(mechanic.system_id or id, mechanic.pool)
    return mechanic


class _Declared:
    """``mechanic.params`` giving the checked declaration (a class, not a lambda: it pickles)."""

    def __init__(self, params: tuple[Param, ...]):
        self.params = params

    def __call__(self) -> tuple[Param, ...]:
        return self.params


class _CheckedPool:
    """``mechanic.pool`` with its result checked (a class, not a closure: it pickles)."""

    def __init__(self, system_id: str, pool: Callable[[Mapping[str, Any]], Any]):
        self.system_id, self.pool = system_id, pool

    def __call__(self, p: Mapping[str, Any]) -> PoolSpec:
        return checked_pool(self.system_id, _called(self.system_id, self.pool, p), p)


def _called(system_id: str, pool: Callable, p: Mapping[str, Any]) -> Any:
    """The designer's pool code run on ``p``; a pool it describes wrongly (2.7 dice, a face
    worth 1.5) is an error naming the system and the parameters."""
    try:
        return pool(p)
    except WorkbenchError as exc:
        raise WorkbenchError(f"{system_id}: the pool for {shown(dict(p))}: {exc}") from None


@dataclass(frozen=True)
class ConditionTier:
    """A tier of a mechanic written in Python: the rolls where ``condition`` holds."""

    name: str
    condition: str
    passes: bool = True
    min: int | None = None
    max: int | None = None
    all_negative: bool | None = None


class FunctionMechanic(Mechanic):
    """A mechanic made of a pool function and declared parameters (see :func:`register_mechanic`)."""

    kind = "python"

    def __init__(self, system_id: str, pool: Callable[[dict], PoolSpec], params: Mapping[str, Any],
                 target: str | None = None, ties: str | None = None, tiers=None,
                 pass_if: str | None = None):
        self.system_id, self._pool = system_id, pool
        self._conditions: dict[str, Any] = {}
        self._tier_rules: tuple[ConditionTier, ...] = ()
        if callable(tiers):
            self.tiers = tiers   # reads the raw distribution itself
        elif tiers is not None:
            self._tier_rules = tuple(self._tier(entry) for entry in _iterable(tiers, "tiers"))
        self.pass_condition = None if pass_if is None else self.condition(pass_if)
        if not isinstance(params, Mapping):
            raise WorkbenchError(f"register_mechanic: params got {type(params).__name__}; allowed: a dict "
                                 "name -> Param or {'default': ..., 'min': ..., 'max': ...}")
        self._params = checked_params(system_id, [_param(name, spec) for name, spec in params.items()])
        self._target, self._ties = target, ties
        names = [p.name for p in self._params]
        if target is not None and target not in names:
            raise WorkbenchError(f"{system_id}: target {target!r} is not one of the parameters {names}")
        if ties not in (None, "actor", "reactor"):
            raise WorkbenchError(f"{system_id}: ties must be 'actor', 'reactor' or None, got {ties!r}")

    def params(self):
        return self._params

    def pool(self, p):
        return checked_pool(self.system_id, _called(self.system_id, self._pool, dict(p)), p)

    def target(self, p):
        return None if self._target is None else p[self._target]

    def _tier(self, entry) -> ConditionTier:
        allowed = "tiers as (name, condition) or (name, condition, passes) such as (\"Botch\", \"hits == 0\", False)"
        if isinstance(entry, ConditionTier):
            tier = entry
        elif isinstance(entry, (tuple, list)) and len(entry) in (2, 3) and all(isinstance(x, str) for x in entry[:2]):
            tier = ConditionTier(entry[0], entry[1], bool(entry[2]) if len(entry) == 3 else True)
        else:
            raise ParameterError("register_mechanic", "tiers", entry, allowed)
        self.condition(tier.condition)
        return tier

    def condition(self, text: str):
        """A condition of this mechanic (parsed once; names are checked when it is read)."""
        if text not in self._conditions:
            try:
                self._conditions[text] = parse(text, want="bool")
            except ExpressionError as exc:
                raise WorkbenchError(f"{self.system_id}: condition {exc}") from None
        return self._conditions[text]

    def tier_names(self):
        return tuple(dict.fromkeys(t.name for t in self._tier_rules))

    def tier_rules(self, p):
        return self._tier_rules

    def versus_ties(self, p):
        if self._ties is None:
            return super().versus_ties(p)
        return self._ties


def register_mechanic(id: str, mechanic: "Callable[[dict], PoolSpec] | Mechanic | type", *,
                      params: Mapping[str, Any] | None = None, name: str | None = None,
                      target: str | None = None, ties: str | None = None,
                      pass_if: str | None = None, tiers=None,
                      pool_parameter: str | None = None, ladder=(), defaults=None, aliases=(),
                      description: str = "", replace: bool = False) -> System:
    """Register a mechanic written in Python under ``id``; returns its :class:`System`.

    Args:
        id: the system id (unique among all systems, ignoring case).
        mechanic: a function ``pool(p)`` of the resolved parameters ``p`` (a dict of every
            parameter's value) returning what is rolled: a :class:`~workbench.rules.PoolSpec`
            (dice summed), a :class:`~workbench.rules.roll.RollSpec` (statistics, as a data
            file says them), a :class:`~workbench.rules.scored.ScoredRoll` (dice and your own
            function reading each roll: the engine evaluates it exactly over every roll) or
            :class:`~workbench.rules.scored.Outcomes` (odds given outright); or a
            :class:`Mechanic` subclass / instance that implements the protocol (``params``
            and ``pool``, optionally ``target``, ``tiers``, ``versus_ties``...).
        params: for a function: name -> :class:`Param` or a dict like a data file's
            ``[params.NAME]`` (``default``, ``min``, ``max``, ``choices``, ``help``,
            ``optional``, ``rule_option``).
        target: for a function: the parameter whose value is the total needed to pass.
        ties: for a function: who wins a tied opposed check (``"actor"``/``"reactor"``).
        pass_if: for a function: the condition of a pass over its statistics and parameters
            (as a data file's ``pass_if``, e.g. ``"hits >= 2 and not botch"``).
        tiers: for a function: ``[(name, condition), ...]`` (optionally ``(name, condition,
            passes)``), the first that holds names a roll; or a function ``tiers(raw, p)``.
        pool_parameter, ladder, defaults, aliases, description: as in a data file
            (``ladder``: :class:`Rung` s or dicts with ``name``, ``set``, ``add``).
        replace: swap an earlier registration with the same id.

    What the code returns is checked once, where it enters the workbench: the declared
    parameters when it is registered (a default outside its bounds, repeated choices), each
    pool when it is asked for (2.7 dice, a face worth 0.5, a NaN modifier), and each custom
    reading when it is read (probabilities that are NaN, negative, above 1 or add up to 1.2,
    a target of 2.5): a clear ``WorkbenchError`` naming the system, never a number in a table.
    Parameters may not be named like the workbench's own keywords (``system``, ``trials``...).

    Example:
        >>> import workbench as wb
        >>> from workbench.rules import DieType, PoolSpec
        >>> d6 = DieType("d6", (0, 0, 0, 1, 1, 1))
        >>> def pool(p):  # a d6 per point of dice, plus a free success at 3+ dice
        ...     return PoolSpec(((d6, p["dice"]),), modifier=int(p["dice"] >= 3))
        >>> system = wb.register_mechanic("notebook-pool", pool, target="target",
        ...     params={"dice": {"default": 1, "min": 0, "max": 30},
        ...             "target": {"optional": True, "min": 0}}, replace=True)
        >>> wb.check("notebook-pool", dice=3, target=2).p_pass
        0.875
        >>> wb.unregister_mechanic("notebook-pool")
    """

    if not isinstance(id, str) or not id.strip():
        raise WorkbenchError(f"register_mechanic: id must be a non-empty text, got {id!r}")
    replace = validation.boolean("register_mechanic", "replace", replace)
    if isinstance(aliases, str) or not all(isinstance(a, str) and a for a in _iterable(aliases, "aliases")):
        raise ParameterError("register_mechanic", "aliases", aliases,
                             "a list of ids such as ['my-pool'] (a single text is not split)")
    made = _mechanic_of(id, mechanic, params=params, target=target, ties=ties, pass_if=pass_if, tiers=tiers)
    system = _system_of(id, made, name=name, aliases=aliases, pool_parameter=pool_parameter,
                        ladder=ladder, defaults=defaults, description=description)
    return register(system, replace=replace)


def _mechanic_of(id: str, mechanic: Any, *, params, target, ties, pass_if, tiers) -> Mechanic:
    """What :func:`register_mechanic` was given, as a checked mechanic: a Mechanic subclass or
    instance (which declares its own readings), or a pool function and its declarations."""
    if isinstance(mechanic, type) and issubclass(mechanic, Mechanic):
        mechanic = mechanic()
    if isinstance(mechanic, Mechanic):
        if params is not None or target is not None or ties is not None or pass_if is not None \
                or tiers is not None:
            raise WorkbenchError("register_mechanic: params, target, ties, pass_if and tiers belong to "
                                 "the Mechanic class itself when one is given")
        mechanic.system_id = mechanic.system_id or id
        return _checked_mechanic(mechanic, id)
    if callable(mechanic):
        if params is None:
            raise WorkbenchError("register_mechanic: a pool function needs params={name: {...}}")
        return FunctionMechanic(id, mechanic, params, target=target, ties=ties, tiers=tiers, pass_if=pass_if)
    raise WorkbenchError("register_mechanic: give a function pool(p) -> PoolSpec or a Mechanic, "
                         f"got {type(mechanic).__name__}")


def _system_of(id: str, mechanic: Mechanic, *, name, aliases, pool_parameter, ladder, defaults,
               description) -> System:
    """The system a registered mechanic makes, its pool parameter and ladder rungs checked."""
    rungs = [_rung(r) for r in _iterable(ladder, "ladder")]
    system = System(id=id, name=name or id, mechanic=mechanic, aliases=aliases,
                    pool_parameter=pool_parameter, ladder=rungs, defaults=defaults, source=None,
                    description=description)
    if pool_parameter is not None and pool_parameter not in system.params:
        raise WorkbenchError(f"register_mechanic: pool_parameter {pool_parameter!r} is not a parameter")
    for rung in rungs:
        problem = system.rung_problem(rung)
        if problem is not None:
            raise WorkbenchError(f"register_mechanic {id}: ladder rung {rung.name!r}"
                                 + (f" {problem[0]}" if problem[0] else "") + f": {problem[1]}")
    return system


def _iterable(value: Any, name: str) -> list:
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise ParameterError("register_mechanic", name, value, "a list")
    return list(value)


def _rung(rung: Any) -> Rung:
    if isinstance(rung, Rung):
        return rung
    allowed = "a Rung or a dict with name, set, add (and example)"
    if not isinstance(rung, Mapping) or not isinstance(rung.get("name"), str) \
            or set(rung) - {"name", "set", "add", "example"}:
        raise ParameterError("register_mechanic", "ladder", rung, allowed)
    parts = [rung.get("set", {}), rung.get("add", {})]
    if not all(isinstance(part, Mapping) for part in parts):
        raise ParameterError("register_mechanic", "ladder", rung, allowed + " (set and add are dicts)")
    return Rung(rung["name"], dict(parts[0]), dict(parts[1]), str(rung.get("example", "")))


def unregister_mechanic(id: str) -> None:
    """Remove a mechanic added with :func:`register_mechanic`."""
    unregister(id)
