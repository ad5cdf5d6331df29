"""The mechanic protocol: what the workbench asks of a family of dice rules.

A mechanic *describes*: it turns a check's resolved parameters into a
:class:`~workbench.rules.pool.PoolSpec` (what is rolled) and says how the total reads
(outcome labels, the target, tier ranges). The engine computes; the results layer reads the
computed totals by this description. Everything else (exact engine, simulator, ladders,
tables, explorer, report) works from these few methods, so a mechanic defined in a notebook
cell and registered with :func:`workbench.register_mechanic` gets all of it.

Must provide:
    ``params()``: the declared :class:`~workbench.rules.params.Param` s (names, defaults, bounds).
    ``pool(p)``: the :class:`PoolSpec` for resolved parameters ``p`` (a dict of every value).

May override (the defaults read a numeric total):
    ``target(p)``: the total needed to pass, or ``None`` (then ``p_pass`` is ``None``).
    ``labels`` (outcome labels the totals index, or ``None``) and ``pass_from`` (the first
    passing label).
    ``tier_names()`` and ``tier_rules(p)``: tiers as ranges of totals (objects with ``name``,
    ``min``, ``max``, ``all_negative`` and ``passes``; the first that fits names a roll).
    ``versus_ties(p)`` (``"actor"``/``"reactor"``; default: no opposed checks),
    ``versus_extra_obstacle(p)``, ``uncontested`` (``"counts"`` or ``"passes"``).
    ``preprocess(given)``, ``cross_check(p)``: shorthand and combinations of values.
    ``extra(p)``: derived facts printed beside a result.

The results layer asks for all of the reading at once, :meth:`Mechanic.reading_rules`: one
:class:`ReadingRules` per check (labels, target, tiers that apply, their parsed conditions,
the facts shown beside the result), gathered from the methods above.

A mechanic written in Python may also read its raw totals itself, by defining
``outcomes(raw)``, ``tiers(raw, p)`` or ``p_pass(raw, p)`` (see
:mod:`workbench.results.reading`).
"""
from __future__ import annotations

from typing import Any, Mapping, NamedTuple

from ...errors import WorkbenchError
from ...limits import MAX_DICE  # noqa: F401  (re-exported: mechanics declare pools up to it)
from ..params import Param
from ..pool import PoolSpec


class TierRule(NamedTuple):
    """One tier as a reading reads it: a range of totals (``min``/``max``, ``None``: open),
    whether every initial die failed (``all_negative``), a ``condition`` over the roll's
    statistics (its text), and whether it may pass. A mechanic read from a data file gives
    its tiers so (plain values, read without asking the file's entries again; a tuple, quick
    to make and to read).

    Example:
        >>> TierRule("Hit", 1, None).passes
        True
    """

    name: str
    min: int | None = None
    max: int | None = None
    all_negative: bool | None = None
    passes: bool = True
    condition: str | None = None

    @classmethod
    def of(cls, tier) -> "TierRule":
        """The tier a data file's ``[[tiers]]`` entry describes."""
        return cls(tier.name, tier.min, tier.max, tier.all_negative, tier.passes, tier.condition)


class TierLayout(NamedTuple):
    """Tiers that read as most files' do, laid out once (when the file loads): each tier is a
    condition, a range of totals, or has no rule (it fits every roll); none asks whether all
    dice failed or has both a range and a condition. A reading of these ``tiers`` (the very
    tuple) reads each roll's tier off ``steps``.

    Example:
        >>> layout = tier_layout((TierRule("Hit", condition="hits >= 1"), TierRule("Miss")),
        ...                      ("Miss", "Hit"), {"hits >= 1": "parsed"})
        >>> layout.steps, layout.positions, layout.never, layout.covers
        ((None, ('parsed', None, None)), (1, 0), None, True)
    """

    tiers: tuple
    steps: tuple
    """Each tier's rule, last to first (the order they are read): ``(condition parsed, None,
    None)``, ``(None, least total, greatest total)`` (``None``: open), or ``None`` for a tier
    without a rule."""
    positions: tuple[int, ...]
    """Each tier's position among the tier names (each tier has a name of its own)."""
    never: tuple[bool, ...] | None
    """Whether the tier at each position never passes (``None``: every tier may pass)."""
    plain_names: bool
    """Whether the tier names are texts, each once."""
    covers: bool
    """Whether the last tier has no rule (every roll is in some tier)."""


def tier_layout(tiers: tuple, names: tuple, conditions: Mapping[str, Any]) -> TierLayout | None:
    """The :class:`TierLayout` of ``tiers`` (named ``names``, worst first; ``conditions``:
    each condition's text, parsed), or ``None`` when they read otherwise (all dice failed, a
    range and a condition at once, a condition not parsed)."""
    if not tiers or not names:
        return None
    steps = []
    for tier in reversed(tiers):
        ranged = tier.min is not None or tier.max is not None
        if tier.all_negative is not None or (tier.condition is not None and (
                ranged or not tier.condition or tier.condition not in conditions)):
            return None
        steps.append((conditions[tier.condition], None, None) if tier.condition is not None
                     else (None, tier.min, tier.max) if ranged else None)
    listed = list(names)
    if any(tier.name not in listed for tier in tiers):
        return None
    positions = tuple(listed.index(tier.name) for tier in tiers)
    if len(set(positions)) != len(positions):   # two tiers of one name: read tier by tier
        return None
    never = [False] * len(listed)
    for tier, position in zip(tiers, positions):
        never[position] = not tier.passes
    return TierLayout(tiers, tuple(steps), positions, tuple(never) if True in never else None,
                      all(type(name) is str for name in names) and len(set(names)) == len(names),
                      steps[0] is None)


class ReadingRules(NamedTuple):
    """How one check's totals read, as a mechanic says it for resolved parameters ``params``:
    everything the results layer reads a raw distribution by, gathered in one call
    (:meth:`Mechanic.reading_rules`; a tuple, never changed). ``target`` and ``extra`` are as
    the mechanic returned them (the results layer checks them); ``conditions``: each tier
    condition's text, parsed.

    Example:
        >>> class Plain(Mechanic):
        ...     system_id = "plain"
        ...     def target(self, p):
        ...         return p["target"]
        >>> rules = Plain().reading_rules({"target": 3}, facts=True)
        >>> rules.target, rules.extra, rules.tier_names, rules.labels
        (3, {}, (), None)
    """

    system_id: str
    source: object
    params: Mapping[str, Any]
    labels: tuple[str, ...] | None
    pass_from: str | None
    pass_condition: Any
    tier_names: tuple[str, ...]
    tier_rules: tuple
    conditions: Mapping[str, Any]
    statistics: Any
    target: Any = None
    extra: Any = None


TARGET_READS = ("read", "for_pass", "given")
"""What :meth:`Mechanic.reading_rules` does with the target: read it, read it only when no
``pass_if`` decides a pass, or leave it to the caller (who knows it already)."""


class Mechanic:
    """Base class of the protocol above; subclasses implement ``params`` and ``pool``."""

    kind = ""
    pure = False
    """True when ``pool(p)`` and the readings depend on nothing but ``p`` and the system's data
    (mechanics read from data files), so a system may remember settings it has resolved."""
    labels: tuple[str, ...] | None = None
    reading_parameters: tuple[str, ...] = ()
    """Parameters that only say what passes (never what is rolled), which ``preprocess`` and
    ``cross_check`` leave alone: points differing only in these share one pool."""
    uncontested = "counts"
    system_id = ""
    # Readings a mechanic written in Python may define as methods (see the module docstring);
    # ``None``: the declared readings apply.
    outcomes = None
    tiers = None
    p_pass = None
    tier_layout: TierLayout | None = None
    """How the tiers read when they always read so (:func:`tier_layout`), else ``None``."""

    def params(self) -> tuple[Param, ...]:
        raise NotImplementedError

    def pool(self, p: Mapping[str, Any]) -> PoolSpec:
        raise NotImplementedError

    def preprocess(self, given: dict[str, Any]) -> dict[str, Any]:
        """Rewrite shorthand before validation (e.g. Arrata stat notation)."""
        return given

    def cross_check(self, p: Mapping[str, Any]) -> None:
        """Reject combinations of individually valid values."""

    def adds_dice(self, name: str) -> bool:
        """Whether parameter ``name`` is a number of dice (tables head its values "4 dice"
        and show 1-10); a mechanic that cannot say is taken to count dice."""
        return True

    pass_from: str | None = None

    def tier_names(self) -> tuple[str, ...]:
        """Every tier's name, worst first (empty: the system has no tiers)."""
        return ()

    def tier_rules(self, p: Mapping[str, Any]) -> tuple:
        """The tiers that apply with parameters ``p``, in the order they are tried."""
        return ()

    def target(self, p: Mapping[str, Any]) -> int | None:
        """Total needed to pass, or ``None`` when the check has no target."""
        return None

    def versus_ties(self, p: Mapping[str, Any]) -> str:
        """Who wins a tie in an opposed check: ``"actor"`` or ``"reactor"``."""
        raise WorkbenchError(f"{self.system_id}: its rules define no opposed checks")

    def versus_extra_obstacle(self, p: Mapping[str, Any]) -> int:
        return 0

    def extra(self, p: Mapping[str, Any]) -> dict[str, Any]:
        """Derived facts worth printing beside the result (e.g. the effective Ob)."""
        return {}

    def reading_rules(self, p: Mapping[str, Any], *, facts: bool = False,
                      target: str = "read") -> ReadingRules:
        """Everything a check with parameters ``p`` reads its totals by, in one record (the
        results layer asks once per check). ``facts``: gather ``extra(p)`` too; ``target``:
        one of :data:`TARGET_READS`. Asked in the order a reading uses them: the facts, the
        target, the tier names, then (with tiers) the tiers that apply and their conditions."""
        found_extra = self.extra(p) if facts else None
        pass_condition = getattr(self, "pass_condition", None)
        found_target = None
        if target == "read" or (target == "for_pass" and pass_condition is None):
            found_target = self.target(p)
        names = self.tier_names()
        names = tuple(names) if names else ()
        rules, conditions = (), {}
        if names:
            rules = self.tier_rules(p)
            parse = getattr(self, "condition", None)
            try:
                texts = [getattr(tier, "condition", None) for tier in rules]
            except TypeError:   # not tiers at all: refused where they are read, by name
                texts = []
            for text in texts:
                if text and parse is not None and text not in conditions:
                    conditions[text] = parse(text)
        return ReadingRules(self.system_id, getattr(self, "source", None), p, self.labels,
                            self.pass_from, pass_condition, names, rules, conditions,
                            getattr(self, "statistics", None), found_target, found_extra)
