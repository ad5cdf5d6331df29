"""Plain, frozen settings passed from the explorer's controls to the figure functions.

The widgets only *read* their values into these dataclasses; :func:`workbench.widgets.figure`
turns settings into a figure. Tests and notebooks build settings directly, without widgets.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from .. import validation
from ..analysis import pool_size_list
from ..limits import MAX_DICE
from ..errors import ParameterError, WorkbenchError
from ..rules.registry import get_system
from ..rules.system import System
from .axes import grown_choice

VIEWS = ("curve", "outcomes", "difference", "distribution", "at_least", "at_most")
"""What the explorer draws: success curves, one check's outcomes (or tiers), variant minus
baseline, and the roll's distribution (with its mean, SD and quantiles), at least and at most
each outcome."""
METHODS = ("exact", "simulate")
AS_SET = "as set"
"""Rung name meaning "no ladder rung: the knobs exactly as set" (as in workbench.figures)."""


class SettingsError(WorkbenchError):
    """Explorer settings with a value that is not allowed.

    Example:
        >>> ExplorerSettings(entries=(EntrySettings("uwr"),), view="pie")
        Traceback (most recent call last):
        ...
        workbench.widgets.settings.SettingsError: explorer setting 'view' got 'pie'; allowed: one of curve, outcomes, difference, distribution, at_least, at_most
    """

    def __init__(self, setting: str, value: object, allowed: str):
        self.setting = setting
        self.value = value
        self.allowed = allowed
        super().__init__(f"explorer setting '{setting}' got {value!r}; allowed: {allowed}")


@dataclass(frozen=True)
class EntrySettings:
    """One system or variant drawn in the explorer, with its knob values and ladder rungs.

    Attributes:
        system: a system id, alias or data-file path (see :func:`workbench.system`), or a
            :class:`~workbench.rules.system.System` (an edited copy of a data file).
        params: knob values as ``(name, value)`` pairs (a mapping is accepted and converted).
        rungs: ladder rungs to draw; ``None`` draws every rung of the system's ladder and
            ``()`` (or the rung ``"as set"``) draws the knobs exactly as set.
        label: legend text; ``None`` makes one from ``name`` and the non-default knobs.
        name: what an automatic label starts with; ``None``: the system's id (an edited copy
            is named ``uwr (edited)``).

    Example:
        >>> entry = EntrySettings("uwr", {"favor": 1}, rungs=("Normal",))
        >>> entry.params, entry.display_label()
        ((('favor', 1),), 'uwr favor=1')
    """

    system: str
    params: tuple[tuple[str, Any], ...] = ()
    rungs: tuple[str, ...] | None = None
    label: str | None = None
    name: str | None = None

    def __post_init__(self):
        params = self.params
        if isinstance(params, Mapping):
            params = tuple(params.items())
        if isinstance(params, (str, bytes)) or not isinstance(params, Iterable):
            raise SettingsError("params", params, "knob values as a mapping, such as {'favor': 1}")
        pairs = []
        for pair in params:
            if isinstance(pair, (str, bytes)) or not isinstance(pair, Iterable) or len(tuple(pair)) != 2:
                raise SettingsError("params", pair, "(name, value) pairs, or a mapping such as {'favor': 1}")
            pairs.append(tuple(pair))
        object.__setattr__(self, "params", tuple((str(k), v) for k, v in pairs))
        if self.rungs is not None:
            if isinstance(self.rungs, (str, bytes)) or not isinstance(self.rungs, Iterable):
                raise SettingsError("rungs", self.rungs, "a list of rung names, such as ('Normal',), "
                                    "or None for every rung")
            object.__setattr__(self, "rungs", tuple(self.rungs))
        if self.label is not None and not isinstance(self.label, str):
            raise SettingsError("label", self.label, "legend text, or None")
        if self.name is not None and not isinstance(self.name, str):
            raise SettingsError("name", self.name, "text, or None")

    @property
    def system_object(self) -> System:
        return get_system(self.system)

    @property
    def knobs(self) -> dict[str, Any]:
        return dict(self.params)

    def chosen_rungs(self) -> tuple[str, ...]:
        """Rung names to draw: every ladder rung when ``rungs`` is ``None``."""
        if self.rungs is None:
            return tuple(r.name for r in self.system_object.ladder) or (AS_SET,)
        return self.rungs or (AS_SET,)

    def display_label(self, include_pool: bool = True) -> str:
        """The legend text: ``label`` if given, else the id and every non-default knob
        (what the x axis grows left out where the x axis is the pool: ``include_pool=False``)."""
        if self.label:
            return self.label
        sys_ = self.system_object
        axis = sys_.pool_parameter or grown_choice(sys_)
        changed = [f"{name}={_format(value)}" for name, value in self.params
                   if name in sys_.params and value != sys_.params[name].default
                   and (include_pool or name != axis)]
        return " ".join([self.name or sys_.id, *changed])


@dataclass(frozen=True)
class ExplorerSettings:
    """Everything one explorer figure depends on.

    Attributes:
        entries: the systems and variants to overlay (:class:`EntrySettings`; one alone
            is read as a tuple of one).
        view: ``"curve"`` (P(pass) against the pool), ``"outcomes"`` (one check's outcome or
            tier distribution, stacked), ``"difference"`` (each entry minus the baseline),
            ``"distribution"`` (the roll at the knobs as set, with mean, SD and quantiles),
            ``"at_least"`` or ``"at_most"`` (the chance of each outcome or better, or worse).
            ``"at least"`` is read as ``"at_least"``.
        method: ``"exact"`` or ``"simulate"`` (simulated results carry error bars), read as
            everywhere in the workbench (``"Exact"`` is ``"exact"``).
        pool_sizes: dice in the pool along the curve's x axis.
        trials: simulated checks per point.
        seed: the simulator's seed. ``None`` (the default, as everywhere in the workbench)
            draws one fresh seed when the settings are made and keeps it in ``seed``, so the
            same settings always draw the same simulated curves; see :func:`explorer_seed`.
        baseline: index into ``entries`` of the entry the difference view subtracts.

    Example:
        >>> s = ExplorerSettings(entries=(EntrySettings("uwr"), EntrySettings("fons")))
        >>> s.view, s.method, s.pool_sizes[:3]
        ('curve', 'exact', (1, 2, 3))
    """

    entries: tuple[EntrySettings, ...]
    view: str = "curve"
    method: str = "exact"
    pool_sizes: tuple[int, ...] = field(default_factory=lambda: tuple(range(1, 21)))
    trials: int = 100_000
    seed: int | None = None
    baseline: int = 0

    def __post_init__(self):
        entries = self.entries
        if isinstance(entries, EntrySettings):
            entries = (entries,)
        if isinstance(entries, (str, bytes, Mapping)) or not isinstance(entries, Iterable):
            raise SettingsError("entries", entries, "EntrySettings, such as (EntrySettings('uwr'),)")
        entries = tuple(entries)
        for entry in entries:
            if not isinstance(entry, EntrySettings):
                raise SettingsError("entries", entry, "EntrySettings, such as EntrySettings('uwr')")
        object.__setattr__(self, "entries", entries)
        object.__setattr__(self, "method", _checked("method", validation.method, None, self.method))
        object.__setattr__(self, "pool_sizes", _pool_sizes(self.pool_sizes))
        object.__setattr__(self, "trials", _checked("trials", validation.trials, None, self.trials))
        # None: one fresh seed, drawn now and kept, so redrawing these settings never flickers.
        seed = explorer_seed() if self.seed is None else self.seed
        object.__setattr__(self, "seed", _checked("seed", validation.seed, None, seed))
        if not self.entries:
            raise SettingsError("entries", (), "at least one system or variant")
        view = self.view
        if isinstance(view, str) and "_".join(view.split()).lower() in VIEWS:
            view = "_".join(view.split()).lower()   # "at least" is at_least
        object.__setattr__(self, "view", _checked("view", validation.choice, None, "view", view, VIEWS))
        baseline = _checked("baseline", validation.whole_number, None, "baseline", self.baseline,
                            0, len(self.entries) - 1)
        object.__setattr__(self, "baseline", baseline)

    def labels(self) -> list[str]:
        """Unique legend labels, one per entry (repeats get ``#2``, ``#3``...). The pool
        size is named only in the one-check view: elsewhere it is the x axis."""
        seen: dict[str, int] = {}
        out = []
        for entry in self.entries:
            text = entry.display_label(include_pool=self.view not in ("curve", "difference"))
            seen[text] = seen.get(text, 0) + 1
            out.append(text if seen[text] == 1 else f"{text} #{seen[text]}")
        return out


EXACT_IN_BROWSER = 2**53
"""Seeds the explorer draws stay below this: a browser shows whole numbers exactly only up
to 2**53, and the seed on screen must be the seed used (typed in again, it repeats the run)."""


def explorer_seed() -> int:
    """A fresh seed for the explorer: random like every other default seed, below 2**53.

    Example:
        >>> 0 <= explorer_seed() < 2**53
        True
    """
    return validation.fresh_seed() % EXACT_IN_BROWSER


def _pool_sizes(sizes) -> tuple[int, ...]:
    """Pool sizes checked: a tuple of distinct plain whole numbers in range (what the explorer
    passes on every update) as it is, anything else by :func:`~workbench.analysis.pool_size_list`."""
    if (type(sizes) is tuple and sizes and len(sizes) <= MAX_DICE + 1
            and all(type(n) is int and 0 <= n <= MAX_DICE for n in sizes)
            and len(set(sizes)) == len(sizes)):
        return sizes
    return _checked("pool_sizes", lambda: tuple(pool_size_list(sizes, "pool_sizes")))


def _checked(setting: str, check, *args):
    """Run one of :mod:`workbench.validation`'s checks; its error as a :class:`SettingsError`."""
    try:
        return check(*args)
    except ParameterError as exc:
        raise SettingsError(setting, exc.value, exc.allowed) from None


def _format(value: Any) -> str:
    """Knob values for display: whole floats as integers (slider values such as 1.9999999999999998)."""
    if isinstance(value, float):
        return f"{value:.6g}" if abs(value - round(value)) > 1e-9 else str(int(round(value)))
    return str(value)
