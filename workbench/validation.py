"""The one validator: every whole number, yes/no, choice, probability, rate, trials, seed and
method the workbench accepts is checked here, so the Python API, the command line, the
stateful models and the explorer accept and reject exactly the same values.

The rules:

* A **whole number** is a Python or numpy integer (not ``True``/``False``, not ``2.0``, not
  an array), or, where the value may come from a command line (``text=True``), ASCII
  digits with an optional sign (``-1``, ``+3``; not ``--4``, ``²`` or 5000 digits).
* **Trials** are a whole number from 1 to 1e10; because designers write ``1e6``, a
  whole-valued float (``1e6``, ``2.5e5``) and the text ``1e6`` or ``1_000_000`` count too,
  in Python and on the command line alike.
* A **seed** is a whole number from 0 to 2**64 - 1, or ``None`` for a fresh one (reported in
  the result); the default is ``None`` everywhere.
* A **yes/no** value is ``True`` or ``False`` (a numpy bool too); text such as ``true``,
  ``no``, ``on``, ``1`` only where the value may come from a command line.
* A **choice** is one of the allowed values, text compared without case.
* A **probability** is a real number from 0 to 1, a **rate** a finite number >= 0 (a float,
  an int, a ``Fraction``, a ``Decimal``, a numpy float or int); not NaN, not a bool; text such as
  ``0.7`` only from a command line.

Each failure is a :class:`~workbench.errors.ParameterError` (a ``WorkbenchError``) naming
where, the parameter, the value given and what is allowed. ``where=None`` names the
parameter alone (command-line options such as ``--trials``).

Example:
    >>> whole_number("uwr", "favor", "-1", -5, 5, text=True)
    -1
    >>> trials(None, 1e6)
    1000000
    >>> whole_number("uwr", "favor", 1.5)
    Traceback (most recent call last):
    ...
    workbench.errors.ParameterError: uwr: parameter 'favor' got 1.5; allowed: a whole number
"""
from __future__ import annotations

import decimal
import math
import numbers
import re
from typing import Any, Sequence

import numpy as np

from .errors import ParameterError, WorkbenchError
from .limits import MAX_DIGITS, MAX_SEED, MAX_TRIALS

_WHOLE_TEXT = re.compile(r"^[+-]?[0-9]+(?:_[0-9]+)*$", re.ASCII)
_REAL_TEXT = re.compile(r"^[+-]?(?:[0-9]+(?:_[0-9]+)*(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$",
                        re.ASCII)
TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")
METHODS = ("exact", "simulate")


def suggest(key: str, known) -> str:
    """`` (did you mean 'x'?)`` for a near miss among ``known``, else ``''``.

    Example:
        >>> suggest("explodes_on", ["explode", "explode_limit"]), suggest("favr", ["dice", "favor"])
        (" (did you mean 'explode'?)", " (did you mean 'favor'?)")
    """
    import difflib   # lazy: difflib (only an error message needs it)

    key = str(key)
    known = [str(k) for k in known]
    if len(key) > 100:  # no near miss of a name is that long
        return ""
    stems = sorted((k for k in known if len(k) >= 3 and (key.startswith(k) or k.startswith(key))),
                   key=len, reverse=True)
    # A near spelling first ('reroll_mises': 'reroll_misses', not its stem 'reroll').
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.85) or stems[:1] or \
        difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


RENAMED = {"attacker": "actor", "defender": "reactor"}
"""Keywords of earlier versions and their names now."""


def renamed(where: str | None, names) -> None:
    """Refuse a keyword of an earlier version, saying its name now.

    Example:
        >>> renamed("versus", ["attacker"])
        Traceback (most recent call last):
        ...
        workbench.errors.WorkbenchError: versus: attacker= is now actor= (and defender= is reactor=)
    """
    for name in names:
        if name in RENAMED:
            pairs = " (and ".join(f"{old}= is{' now' if old == name else ''} {new}="
                                  for old, new in sorted(RENAMED.items(), key=lambda kv: kv[0] != name))
            raise WorkbenchError(f"{where}: {pairs})" if where else f"{pairs})")


def whole_allowed(minimum: int | None = None, maximum: int | None = None) -> str:
    """What a whole-number check allows, in words.

    Example:
        >>> whole_allowed(1, 10), whole_allowed(0), whole_allowed(maximum=3), whole_allowed()
        ('a whole number from 1 to 10', 'a whole number >= 0', 'a whole number <= 3', 'a whole number')
    """
    if minimum is not None and maximum is not None:
        return f"a whole number from {minimum} to {_big(maximum)}"
    if minimum is not None:
        return f"a whole number >= {minimum}"
    if maximum is not None:
        return f"a whole number <= {_big(maximum)}"
    return "a whole number"


def _big(number: int) -> str:
    """Limits as people write them: 2**64 - 1, 1e10; small ones in full."""
    if number == MAX_SEED:
        return "2**64 - 1"
    if number >= 10**6 and number == 10 ** (len(str(number)) - 1):
        return f"1e{len(str(number)) - 1}"
    return str(number)


def number_text(text: Any) -> int | float | None:
    """A number as typed, in ASCII digits only: ``"-1"`` and ``"1_000"`` as whole numbers,
    ``"0.25"`` and ``"1e6"`` as floats; ``None`` for anything else (``"５"`` and ``"٢"``,
    which Python's ``int()`` and ``float()`` read as 5 and 2, ``"nan"``, ``"inf"``, words).
    The one rule every option, setting and expression of the workbench reads numbers by.

    Example:
        >>> number_text(" 12 "), number_text("0.5"), number_text("1e6"), number_text("５"), number_text("nan")
        (12, 0.5, 1000000.0, None, None)
    """
    if not isinstance(text, str):
        return None
    word = text.strip()
    if len(word) > MAX_DIGITS + 8:
        return None
    if _WHOLE_TEXT.match(word) and len(word.lstrip("+-").replace("_", "")) <= MAX_DIGITS:
        return int(word)
    if _REAL_TEXT.match(word):
        number = float(word.replace("_", ""))
        return number if math.isfinite(number) else None
    return None


def is_whole(value: Any, *, numpy: bool = True) -> bool:
    """Whether ``value`` is a whole number as code writes one: a Python int, or a numpy
    integer too (``numpy=False``: a Python int only); never a bool, a float such as ``2.0``,
    text or an array. What a die's faces, a roll's counts and a declared bound must be.

    Example:
        >>> is_whole(3), is_whole(np.int8(3)), is_whole(2.0), is_whole(True), is_whole("3")
        (True, True, False, False, False)
        >>> is_whole(np.int8(3), numpy=False)
        False
    """
    if numpy:
        return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    return isinstance(value, int) and not isinstance(value, bool)


def as_whole(value: Any, *, text: bool = False, floats: bool = False) -> int | None:
    """``value`` read as a whole number (an int), or ``None`` when it is none under these
    rules: a Python or numpy integer, a 0-d integer array; with ``text``, ASCII digits with an
    optional sign (``"-1"``, ``"1_000"``); with ``floats``, a whole-valued float and its text
    (``1e6``, ``"2.5e5"``). Never a bool. The reading every whole-number check uses.

    Example:
        >>> as_whole(np.int64(6)), as_whole("-1", text=True), as_whole("1e6", floats=True), as_whole(2.5, floats=True)
        (6, -1, 1000000, None)
        >>> as_whole("5"), as_whole(True)
        (None, None)
    """
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, (int, np.integer)):
        return int(value)
    if floats and isinstance(value, (float, np.floating)):
        return int(value) if math.isfinite(value) and float(value).is_integer() else None
    if isinstance(value, str) and text or (floats and isinstance(value, str)):
        word = value.strip()
        if len(word) > MAX_DIGITS + 8:
            return None
        if _WHOLE_TEXT.match(word) and len(word.lstrip("+-").replace("_", "")) <= MAX_DIGITS:
            return int(word)
        if floats and _REAL_TEXT.match(word):
            return as_whole(float(word.replace("_", "")), text=text, floats=floats)
        return None
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return as_whole(value.item(), text=text, floats=floats)
    return None


def whole_number(where: str | None, name: str, value: Any, minimum: int | None = None,
                 maximum: int | None = None, *, text: bool = False) -> int:
    """A whole number within bounds (see the module docstring for what counts).

    Example:
        >>> whole_number("clock", "segments", np.int64(6), 1, 100)
        6
        >>> whole_number(None, "--pool", "²", 0, 100, text=True)
        Traceback (most recent call last):
        ...
        workbench.errors.ParameterError: --pool got '²'; allowed: a whole number from 0 to 100
    """
    number = as_whole(value, text=text)
    if number is None or (minimum is not None and number < minimum) or (
            maximum is not None and number > maximum):
        raise ParameterError(where, name, value, whole_allowed(minimum, maximum))
    return number


def trials(where: str | None, value: Any, name: str = "trials") -> int:
    """Simulated runs: a whole number from 1 to 1e10; ``1e6`` and ``"1_000_000"`` count.

    Example:
        >>> trials("simulate", "2e5"), trials(None, 10_000)
        (200000, 10000)
    """
    number = as_whole(value, text=True, floats=True) if not isinstance(value, str) or value else None
    if number is None or not 1 <= number <= MAX_TRIALS:
        raise ParameterError(where, name, value, "a whole number from 1 to 1e10 (1e6 is fine)")
    return number


def seed(where: str | None, value: Any, name: str = "seed", *, text: bool = False) -> int:
    """The seed to use: ``value`` checked, or a fresh one from the system's entropy for ``None``.

    Example:
        >>> seed("simulate", 7), 0 <= seed("simulate", None) <= 2**64 - 1
        (7, True)
    """
    if value is None:
        return fresh_seed()
    number = as_whole(value, text=text)
    if number is None or not 0 <= number <= MAX_SEED:
        fresh = f"leave {name} out" if name.startswith("-") else "None"
        raise ParameterError(where, name, value,
                             f"a whole number from 0 to 2**64 - 1, or {fresh} for a fresh seed")
    return number


def fresh_seed() -> int:
    """A new seed from the operating system's entropy (63 bits: it prints as a plain int)."""
    import secrets   # lazy: secrets (its hashing modules cost every command start-up)

    return secrets.randbits(63)


def boolean(where: str | None, name: str, value: Any, *, text: bool = False) -> bool:
    """``True`` or ``False``; text such as ``yes``/``off`` only with ``text=True``.

    Example:
        >>> boolean("uwr", "half", "true", text=True), boolean("taken_out", "death_spiral", False)
        (True, False)
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if text and isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS or word in FALSE_WORDS:
            return word in TRUE_WORDS
    raise ParameterError(where, name, value, "true or false" if text else "True or False")


def optional_boolean(where: str | None, name: str, value: Any) -> bool | None:
    """``None`` (let the workbench decide, e.g. a progress bar for long runs only), or a bool."""
    return None if value is None else boolean(where, name, value)


def choice(where: str | None, name: str, value: Any, choices: Sequence[Any]) -> Any:
    """One of ``choices`` (text compared without case and surrounding spaces); returns the
    allowed value as declared. A whole-number choice may be given as text (``"6"`` from a
    command line or a rulebook page) and a text choice that reads as a number as a number.

    Example:
        >>> choice("arrata", "quality", " a ", ("B", "A", "S"))
        'A'
        >>> choice("pool", "size", "6", (4, 6, 8))
        6
    """
    if isinstance(value, (bool, np.bool_)):
        value = None  # True is no choice (and not the number 1)
    for allowed in choices:
        if isinstance(allowed, str):
            if isinstance(value, str) and value.strip().lower() == allowed.lower():
                return allowed
            if isinstance(value, (int, np.integer)) and str(int(value)) == allowed.strip():
                return allowed
        elif is_whole(allowed, numpy=False):
            number = as_whole(value, text=True) if value is not None else None
            if number is not None and number == allowed:
                return allowed
        elif type(value) is type(allowed) and value == allowed:
            return allowed
    raise ParameterError(where, name, value, "one of " + ", ".join(str(c) for c in choices))


def real_number(where: str | None, name: str, value: Any, minimum: float | None = None,
                maximum: float | None = None, *, text: bool = False, allowed: str | None = None
                ) -> float:
    """A finite real number within bounds (not a bool, not NaN; text only with ``text=True``)."""
    number = None
    if isinstance(value, (numbers.Real, decimal.Decimal, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_)):
        try:
            number = float(value)   # a Fraction, a numpy float32 as well as a float
        except (OverflowError, ValueError):   # a Fraction or Decimal too large for a float
            number = None
    elif text and isinstance(value, str) and _REAL_TEXT.match(value.strip()):
        number = float(value.strip().replace("_", ""))
    if number is None or not math.isfinite(number) or (minimum is not None and number < minimum) or (
            maximum is not None and number > maximum):
        if allowed is None:
            low = "" if minimum is None else f" from {minimum:g}"
            high = "" if maximum is None else f" to {maximum:g}"
            allowed = f"a number{low}{high}" if high else f"a finite number{' >= ' + format(minimum, 'g') if low else ''}"
        raise ParameterError(where, name, value, allowed)
    return number


def once(where: str | None, name: str, given: Any, keys: Sequence[Any], what: str,
         shown_as: Sequence[Any] | None = None) -> None:
    """Refuse a list naming the same thing twice (a pool size, a rung, a system): the rule
    everywhere is an error naming what was repeated, never a table with a doubled row or
    column. ``keys`` are what makes two entries the same (``4`` for ``4`` and ``04``, a
    system's id for it and its alias); ``shown_as`` how each was given (default ``given``).

    Example:
        >>> once(None, "pool_sizes", [3, 4, 3], [3, 4, 3], "pool size")
        Traceback (most recent call last):
        ...
        workbench.errors.ParameterError: pool_sizes got [3, 4, 3]; allowed: each pool size once (3 is given twice)
        >>> once(None, "systems", ["uwr", "HKRPG"], ["uwr", "uwr"], "system")
        Traceback (most recent call last):
        ...
        workbench.errors.ParameterError: systems got ['uwr', 'HKRPG']; allowed: each system once ('uwr' is given twice: as 'uwr' and 'HKRPG')
    """
    first: dict = {}
    for index, key in enumerate(keys):
        if key in first:
            if shown_as is None:   # as given, when the list given is the one checked
                shown_as = given if isinstance(given, (list, tuple)) and len(given) == len(keys) else keys
            names = list(shown_as)
            a, b = names[first[key]], names[index]
            twice = f"{key!r} is given twice" + (f": as {a!r} and {b!r}" if a != b else "")
            raise ParameterError(where, name, given, f"each {what} once ({twice})")
        first[key] = index


def probability(where: str | None, name: str, value: Any, *, text: bool = False) -> float:
    """A probability from 0 to 1.

    Example:
        >>> from fractions import Fraction
        >>> probability("drama_campaign", "threshold", 0.5), probability(None, "p", Fraction(1, 4))
        (0.5, 0.25)
    """
    return real_number(where, name, value, 0.0, 1.0, text=text, allowed="a number from 0 to 1")


def rate(where: str | None, name: str, value: Any, *, text: bool = False) -> float:
    """A finite rate >= 0 (events per check)."""
    return real_number(where, name, value, 0.0, None, text=text, allowed="a finite number >= 0")


def method(where: str | None, value: Any) -> str:
    """``"exact"`` or ``"simulate"``."""
    return choice(where, "method", value, METHODS)
