"""The one distribution type: outcomes (totals, or labels) and their probabilities.

Exact results have ``trials=None``; simulated ones carry ``trials`` and so standard errors.
The margin of two independent checks (an opposed check: one total less the other) is their
convolution, :func:`margin_distribution`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .. import validation
from ..errors import ParameterError, WorkbenchError, shown
from ..numbers import round_sig
from .rich import RichResult


SPARSE_SPAN = 200
"""Totals spanning more whole numbers than this, fewer than half of them possible, are
listed as the possible ones only: in a roll's distribution (and so its JSON) and in tables."""


def possible_only(possible: int, span: int) -> bool:
    """Whether ``possible`` totals spread over ``span`` whole numbers are listed one by one
    (the impossible ones between them left out) rather than as every whole number.

    Example:
        >>> possible_only(41, 4_000_001), possible_only(150, 250), possible_only(41, 41)
        (True, False, False)
    """
    return span > SPARSE_SPAN and 2 * possible < span


class UnknownOutcome(WorkbenchError, KeyError):
    """An outcome a distribution does not have (a ``KeyError`` too, as a dict lookup gives).

    Example:
        >>> Distribution(("NO!", "YES!"), (0.5, 0.5))["YES!AND"]
        Traceback (most recent call last):
        ...
        workbench.results.distribution.UnknownOutcome: outcome 'YES!AND' is not one of: 'NO!', 'YES!'
    """

    def __init__(self, outcome, outcomes):
        self.outcome = outcome
        super().__init__(f"outcome {shown(outcome)} is not one of: "
                         + ", ".join(repr(o) for o in outcomes))

    __str__ = WorkbenchError.__str__  # KeyError would quote the whole message



def _check_outcomes(outcomes: tuple) -> None:
    """Numbers as outcomes increase (``at_least`` and margins read them in order), and no
    outcome is listed twice. (The probabilities are checked where a result is read from them:
    a mechanic's readings say which hook gave a bad one.)"""
    whole = [isinstance(o, (int, np.integer)) and not isinstance(o, bool) for o in outcomes]
    if all(whole):
        try:
            increasing = bool(np.all(np.diff(np.array(outcomes, dtype=np.int64)) > 0))
        except OverflowError:  # past 64 bits: compare them one by one
            increasing = all(a < b for a, b in zip(outcomes, outcomes[1:]))
        if increasing:
            return
        for before, after in zip(outcomes, outcomes[1:]):
            if not before < after:
                raise WorkbenchError(f"Distribution got outcome {shown(after)} after {shown(before)}; "
                                     "allowed: whole-number outcomes in increasing order, each once")
        return
    try:
        twice = len(set(outcomes)) != len(outcomes)
    except TypeError:  # unhashable labels: compare them pair by pair
        twice = any(a == b for i, a in enumerate(outcomes) for b in outcomes[i + 1:])
    if twice:
        raise WorkbenchError(f"Distribution got outcomes {shown(outcomes)}; allowed: each outcome once")


@dataclass(frozen=True, repr=False)
class Distribution(RichResult):
    """An immutable outcome -> probability table, outcomes in their natural order.

    Example:
        >>> d = Distribution((0, 1, 2), (0.25, 0.5, 0.25))
        >>> d[1], d.mean, d.at_least(1)
        (0.5, 1.0, 0.75)
    """

    outcomes: tuple
    probabilities: np.ndarray
    trials: int | None = None

    def __post_init__(self):
        probs, outcomes = self.probabilities, self.outcomes
        if (type(probs) is np.ndarray and probs.dtype == np.float64 and not probs.flags.writeable
                and type(outcomes) is tuple and probs.ndim == 1 and len(outcomes) == len(probs)):
            return   # already immutable (the engine's tables): nothing to copy
        try:
            probs = np.array(self.probabilities, dtype=float)
            outcomes = tuple(self.outcomes)
        except (TypeError, ValueError):
            raise WorkbenchError(f"Distribution got outcomes {shown(self.outcomes)} and "
                                 f"probabilities {shown(self.probabilities)}; allowed: two "
                                 "sequences of the same length, probabilities numbers") from None
        probs.setflags(write=False)
        object.__setattr__(self, "outcomes", outcomes)
        object.__setattr__(self, "probabilities", probs)
        if probs.ndim != 1 or len(self.outcomes) != len(probs):
            raise WorkbenchError(f"Distribution got {len(outcomes)} outcomes and probabilities "
                                 f"of shape {probs.shape}; allowed: one probability per outcome")
        _check_outcomes(outcomes)

    @classmethod
    def of_read(cls, outcomes: tuple, probabilities: list[float], trials: int | None = None,
                numeric: bool | None = None) -> "Distribution":
        """Outcomes and their probabilities as a reading worked them out (a tuple of outcomes,
        each once, numbers in increasing order; one Python float each), made at once: the
        distribution ``Distribution(outcomes, probabilities, trials)`` is, without checking
        them again (``numeric``: whether the outcomes are numbers, when known).

        Example:
            >>> Distribution.of_read((0, 1), [0.25, 0.75], numeric=True) == Distribution((0, 1), (0.25, 0.75))
            True
        """
        array = np.array(probabilities, dtype=float)
        array.setflags(write=False)
        made = object.__new__(cls)
        made.__dict__.update(outcomes=outcomes, probabilities=array, trials=trials)
        if numeric is not None:
            made.__dict__["numeric"] = numeric
        return made

    @classmethod
    def of_totals(cls, first: int, probabilities, trials: int | None = None) -> "Distribution":
        """Whole-number outcomes ``first, first + 1, ...``, one per probability (a read-only
        float array is kept as it is, not copied).

        Example:
            >>> Distribution.of_totals(-1, [0.5, 0.5]).to_dict()
            {'-1': 0.5, '0': 0.5}
        """
        made = cls(tuple(range(first, first + len(probabilities))), probabilities, trials)
        made.__dict__["numeric"] = True   # known already: no need to look at each outcome
        return made

    def __getitem__(self, outcome) -> float:
        """P(outcome). A whole number a numeric distribution never reaches has probability 0;
        anything else not among the outcomes (a misspelt label) is an :class:`UnknownOutcome`."""
        index = self._index(outcome)
        if index is None:
            if self.numeric and isinstance(outcome, (int, np.integer)) and not isinstance(outcome, bool):
                return 0.0
            raise UnknownOutcome(outcome, self.outcomes)
        return float(self.probabilities[index])

    def _index(self, outcome) -> int | None:
        for i, known in enumerate(self.outcomes):
            if type(known) is type(outcome) or self.numeric and isinstance(outcome, (int, np.integer)):
                if known == outcome and not isinstance(outcome, bool):
                    return i
        return None

    def __len__(self) -> int:
        return len(self.outcomes)

    def __eq__(self, other) -> bool:
        # The dataclass default would compare numpy arrays element-wise (and fail).
        if not isinstance(other, Distribution):
            return NotImplemented
        return (self.outcomes == other.outcomes and self.trials == other.trials
                and np.array_equal(self.probabilities, other.probabilities))

    __hash__ = None

    def items(self):
        return zip(self.outcomes, (float(p) for p in self.probabilities))

    @cached_property
    def numeric(self) -> bool:
        return all(isinstance(o, (int, np.integer)) for o in self.outcomes)

    @property
    def mean(self) -> float | None:
        """Expected outcome (``None`` for labelled outcomes)."""
        if not self.numeric:
            return None
        return float(np.dot(self.outcomes, self.probabilities))

    def at_least(self, value) -> float:
        """P(outcome >= value) for numbers; for labels, P(outcome at or after ``value``)."""
        if self.numeric:
            if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
                    or value != value:
                raise WorkbenchError(f"at_least got {shown(value)}; allowed: a number")
            index = int(np.searchsorted(self.outcomes, value))
        else:
            index = self._index(value)
            if index is None:
                raise UnknownOutcome(value, self.outcomes)
        return min(float(self.probabilities[index:].sum()), 1.0)   # rounding may sum past 1

    @property
    def stderr(self) -> np.ndarray | None:
        """Per-outcome standard errors of a simulated result (``None`` when exact)."""
        if self.trials is None:
            return None
        p = self.probabilities
        return np.sqrt(p * (1.0 - p) / self.trials)

    def to_dict(self) -> dict[str, float]:
        """Outcome (as text) -> probability, as the CLI prints it (15 significant digits:
        full precision without float noise).

        Example:
            >>> Distribution((0, 1), (0.1 + 0.2, 0.7)).to_dict()
            {'0': 0.3, '1': 0.7}
        """
        return {str(o): round_sig(p) for o, p in self.items()}

    def to_series(self, name: str = "probability"):
        import pandas as pd  # lazy: slow import
        return pd.Series(self.probabilities, index=list(self.outcomes), name=name)


MAX_MARGIN_WORK = 10**8
"""Most products of probabilities :func:`margin_distribution` computes (outcomes of one side
times outcomes of the other, or the two spans of whole numbers when those are fewer)."""


def margin_distribution(actor: Distribution, reactor: Distribution, shift: int = 0) -> Distribution:
    """Distribution of ``actor - reactor - shift`` for independent numeric distributions.

    The outcomes may have gaps (a statistic's distribution lists only the values it takes):
    every pair of outcomes counts. Outcomes far apart give the possible margins only.

    Example:
        >>> coin = Distribution((0, 1), (0.5, 0.5))
        >>> margin_distribution(coin, coin).to_dict()
        {'-1': 0.25, '0': 0.5, '1': 0.25}
        >>> odd = Distribution((-2, 0, 2), (0.25, 0.5, 0.25))   # Risk's total: no -1, no 1
        >>> margin_distribution(odd, Distribution((0,), (1.0,)), shift=1).to_dict()
        {'-3': 0.25, '-2': 0.0, '-1': 0.5, '0': 0.0, '1': 0.25}
    """
    for name, side in (("actor", actor), ("reactor", reactor)):
        if not isinstance(side, Distribution) or not side.numeric or not len(side):
            raise ParameterError(None, name, side, "a numeric Distribution, such as check(...).pmf")
    shift = validation.whole_number(None, "shift", shift, -10**6, 10**6)
    a_out = np.array([int(o) for o in actor.outcomes], dtype=np.int64)
    r_out = np.array([int(o) for o in reactor.outcomes], dtype=np.int64)
    a, r = np.asarray(actor.probabilities), np.asarray(reactor.probabilities)
    a_span, r_span = int(a_out[-1] - a_out[0]) + 1, int(r_out[-1] - r_out[0]) + 1
    low = int(a_out[0] - r_out[-1]) - shift
    if a_span * r_span <= MAX_MARGIN_WORK and not possible_only(len(a) * len(r), a_span + r_span - 1):
        # Every whole number between (the impossible ones with probability 0): a convolution.
        a_dense, r_dense = np.zeros(a_span), np.zeros(r_span)
        np.add.at(a_dense, a_out - a_out[0], a)
        np.add.at(r_dense, r_out - r_out[0], r)
        return Distribution.of_totals(low, np.convolve(a_dense, r_dense[::-1]))
    if len(a) * len(r) > MAX_MARGIN_WORK:
        raise ParameterError(None, "actor", f"{len(a)} outcomes against {len(r)}",
                             f"at most {MAX_MARGIN_WORK:.0e} pairs of outcomes for outcomes this far apart")
    margins, where = np.unique(np.subtract.outer(a_out, r_out).ravel() - shift, return_inverse=True)
    probs = np.bincount(where.reshape(-1), weights=np.outer(a, r).ravel(), minlength=len(margins))
    return Distribution(tuple(int(m) for m in margins), probs)
