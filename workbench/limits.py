"""Every bound on the work one call may ask for, declared in one place and checked up front.

Two kinds of limits:

* Fixed limits: sizes beyond any table (a pool of 1000 dice, a die of 1000 faces) where the
  answer would take minutes or gigabytes. They are part of the workbench's contract and are
  not meant to be raised.
* Work budgets: how much rolling one simulation may do. A run past the budget is refused
  before it starts, with an error saying how to raise the budget (an environment variable)
  for a deliberate long run; runs within it show a progress bar and stop cleanly on Ctrl-C.

Example:
    >>> MAX_DICE, MAX_SEED == 2**64 - 1
    (1000, True)
    >>> ROLLED_DICE.check(10**6, "simulate")   # well within the budget: no error
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from .errors import WorkbenchError

MAX_DICE = 1000
"""Largest pool (dice in one check) the workbench computes, exactly or by simulation."""

MAX_SIDES = 1000
"""Most faces one die type of a data file may have."""

MAX_TRIALS = 10**10
"""Most simulated checks (or campaigns, scenes, fights) in one run."""

MAX_SEED = 2**64 - 1
"""Seeds are whole numbers from 0 to this (the generator's 64-bit state), on the CLI too."""

MAX_CLOCK_SEGMENTS = 100
"""Largest clock (the rule's clocks have 4 to 10 segments)."""

MAX_STEPS = 10**7
"""Longest run a stateful model follows (``max_exchanges``, ``max_rolls``, ``max_rounds``)."""

MAX_HITS = 10_000
"""Most hits :func:`workbench.rounds_until_hits` may wait for."""

MAX_TABLE_POOL = 100
"""Largest pool size in the command line's tables (``--pools``, ``--pool``)."""

MAX_BURN_TABLE = 200_000
"""Most exact checks :func:`workbench.burn_scene` computes for its burn decisions (a table
over every Trait and Aspect stack the scene can reach)."""

MAX_CAMPAIGN_CHECKS = 20_000
"""Most checks in one :func:`workbench.drama_campaign` (sessions x checks per session)."""

MAX_DATA_FILE_BYTES = 1_000_000
"""Largest system or variant data file read (the shipped ones are about 2 kB)."""

MAX_IMAGE_PIXELS = 16384 * 16384
"""Most pixels in one PNG (width x height after ``scale``): Chromium's largest canvas. A
larger image comes back from the browser as a few bytes that are no PNG at all."""

MAX_DIGITS = 30
"""Longest whole number accepted as text (far past every limit above; stops 5000-digit input)."""

MAX_FACE_VALUE = 10**6
"""Largest value, either sign, one face of a die may add to a total."""

MAX_TOTAL = 10**9
"""Largest total, target, Ob, floor or modifier, either sign, one check may reach: far past any
table, far inside the engine's 64-bit whole numbers (so no total ever wraps around)."""

MAX_TIERS = 100
"""Most ``[[tiers]]`` entries in one data file."""

MAX_DIE_TYPES = 50
"""Most die types (``[dice.NAME]``) in one data file."""

MAX_PARAMS = 100
"""Most parameters (``[params.NAME]``) in one data file or Python mechanic."""

MAX_CHOICES = 100
"""Most choices of one choice parameter."""

MAX_RUNGS = 100
"""Most rungs of one difficulty ladder."""

MAX_EFFECTS = 50
"""Most effects one parameter (or one of its choices) may have, and most ``[[cancel_out]]``
rules in one file."""

MAX_PAGE_BYTES = 10_000_000
"""Largest Markdown page ``workbench render`` reads (a rulebook chapter is well under 1 MB)."""


@dataclass(frozen=True)
class Budget:
    """A work budget: ``default`` units per run, raised with the environment variable ``env``."""

    what: str
    default: int
    env: str

    def current(self) -> int:
        """The budget in force: the environment variable when it holds a whole number > 0."""
        text = os.environ.get(self.env, "").strip().replace("_", "")
        try:   # ASCII digits, as everywhere ("５e9" is no number here)
            value = int(float(text)) if text and text.isascii() else 0
        except (ValueError, OverflowError):
            value = 0
        return value if value > 0 else self.default

    def check(self, amount: float, where: str,
              fewer: str = "fewer trials (or fewer dice, checks or steps)") -> None:
        """Refuse ``amount`` units of work beyond the budget, before any work starts;
        ``fewer`` says what to ask for less of."""
        budget = self.current()
        if not amount <= budget:   # NaN and infinity too
            need = short_number(amount) if short_number(amount) != short_number(budget) else f"{amount:,.0f}"
            raise WorkbenchError(
                f"{where}: this run would need about {need} {self.what}, more than the "
                f"limit of {short_number(budget)}; use {fewer}, or raise the limit with the environment "
                f"variable {self.env} (e.g. {self.env}={short_number(budget * 10)})")


def short_number(number: float) -> str:
    """``1e+11`` as people write it: ``1e11``; ``2.5e+09`` -> ``2.5e9``."""
    if number == float("inf"):
        return "infinitely many"
    return f"{number:.3g}".replace("e+", "e").replace("e0", "e")


def count_text(number: float) -> str:
    """A count as people read it beside a limit: every digit up to a trillion (``10,000,001``
    against ``10,000,000``, where ``1e7`` against ``1e7`` said nothing), else short.

    Example:
        >>> count_text(10_000_001), count_text(2.5e13)
        ('10,000,001', '2.5e13')
    """
    return f"{number:,.0f}" if number < 1e12 else short_number(number)


REMEMBERED = 4096
"""Most entries one of the workbench's memos keeps (:class:`BoundedCache`)."""


class BoundedCache(dict):
    """A memo that holds at most ``limit`` entries: once full, it forgets them all and starts
    again. Its entries (settings checked, pools and dice built, tiers painted) are cheap to
    make again, and a session's working set is far below the limit, so starting again costs
    less than keeping an order of use. Read as a dict (``get``, ``in``, ``[key]`` at dict
    speed); written with :meth:`keep`.

    Example:
        >>> memo = BoundedCache(limit=2)
        >>> memo.keep("a", 1), memo.keep("b", 2), memo.keep("c", 3)
        (1, 2, 3)
        >>> dict(memo)
        {'c': 3}
    """

    def __init__(self, limit: int = REMEMBERED):
        super().__init__()
        self.limit = limit

    def keep(self, key, value):
        """Remember ``value`` under ``key`` (forgetting every entry first when the memo is
        full) and return it."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


MAX_TOTALS = 10**7
"""Most different totals one check's table may hold, exact or simulated (80 MB a row)."""

MAX_CHAIN_LINKS = 10**5
"""Longest explosion chain (dice one initial die sets rolling) the exact engine follows."""


EXACT_WORK = Budget("steps of exact computing", 3 * 10**9, "WORKBENCH_MAX_EXACT_WORK")
"""Work one exact distribution may take, in multiply-adds (from a second to about a minute on
these machines); estimated from the pool before any is done (:mod:`workbench.engine.work`)."""

SWEEP_POINTS = Budget("points", 10**6, "WORKBENCH_MAX_SWEEP_POINTS")
"""Points one sweep evaluates (a frame of a million rows, about a gigabyte while it is built)."""

ROLLED_DICE = Budget("rolled dice", 10**11, "WORKBENCH_MAX_ROLLED_DICE")
"""Dice one :func:`workbench.simulate` run may roll (about a minute or two on two cores)."""

SIMULATED_CHECKS = Budget("simulated checks", 10**10, "WORKBENCH_MAX_SIMULATED_CHECKS")
"""Checks one stateful simulation (campaigns, scenes, fights, clocks) may roll."""

LADDER_COMPARISONS = Budget("comparisons of settings", 10**8, "WORKBENCH_MAX_LADDER_COMPARISONS")
"""Comparisons one ladder search may make: every pair of distinct settings at every pool of the
range, and again for every rung (a minute or so at the limit; a wide knob range such as favor
-1000 to 1000 is mostly settings with the very same odds, which count once)."""


def check_image_size(width: float, height: float, scale: float) -> None:
    """Refuse a PNG larger than Chromium can draw (:data:`~workbench.limits.MAX_IMAGE_PIXELS`),
    naming the scale, the size it gives and the largest scale that fits.

    Example:
        >>> check_image_size(5000, 5000, 10)
        Traceback (most recent call last):
        ...
        workbench.errors.WorkbenchError: scale got 10: a 5000 x 5000 figure would be a 50000 x 50000 px image (2,500,000,000 pixels); allowed: at most 268,435,456 pixels (16384 x 16384), here a scale up to 3.27 or a smaller width and height
    """
    wide, high = round(width * scale), round(height * scale)
    if wide * high > MAX_IMAGE_PIXELS:
        fits = int((MAX_IMAGE_PIXELS / (width * height)) ** 0.5 * 100) / 100
        raise WorkbenchError(
            f"scale got {scale:g}: a {width:g} x {height:g} figure would be a {wide} x {high} px "
            f"image ({wide * high:,} pixels); allowed: at most {MAX_IMAGE_PIXELS:,} pixels "
            f"(16384 x 16384), here a scale up to {fits:g} or a smaller width and height")
