"""The number rule: how many digits of a result are worth writing down (base layer).

**The number rule.** Results keep full floating-point precision in Python. At presentation:

- JSON (``workbench ... --format json``, every ``to_dict()``) rounds each number to
  :data:`JSON_DIGITS` (15) significant digits and 15 decimal places: all that a double
  carries reliably, so exact results lose nothing but float noise (``0.8906249999999996`` is
  written ``0.890625``). Probabilities below 5e-16 become 0; the exact engine itself is only
  exact to 1e-12 (explosion chains).
- Tables show probabilities at a fixed precision (percentages with one decimal in ladder
  and difficulty tables, two in distributions). A probability that is not 0 but rounds to 0
  there is written ``< 0.1%`` (``> 99.9%`` near 1); a distribution's outcomes at either end
  whose probabilities together round to 0 become one ``≥ k`` / ``≤ k`` row (see
  :func:`cut_tails`). CSV keeps every outcome and plain numbers, for spreadsheets.

Example:
    >>> round_sig(0.8906249999999996), round_sig(0.09374999999999993), round_sig(1 / 3)
    (0.890625, 0.09375, 0.333333333333333)
"""
from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import numpy as np

JSON_DIGITS = 15
#: Significant digits a shown number is read to before it is rounded for a table: the exact
#: engine is exact to about 1e-12, and summing a distribution's entries leaves noise of a few
#: units in the 16th digit (15/16 comes out 0.9374999999999994), which 15 digits still keep.
NOISE_FREE_DIGITS = 12
#: Tables showing at most this many significant digits read the number to NOISE_FREE_DIGITS.
SHOWN_DIGITS = 10


def round_sig(value: float, digits: int = JSON_DIGITS) -> float:
    """``value`` rounded to ``digits`` significant digits and ``digits`` decimal places (the
    JSON number rule; 0, inf and nan pass through)."""
    value = float(value)
    if value == 0 or not math.isfinite(value):
        return value
    return round(float(f"{value:.{digits}g}"), digits) + 0.0  # + 0.0: no "-0.0"


def fixed(value: float, digits: int, percent: bool = False) -> str:
    """``value`` with ``digits`` decimals (as a percentage with ``percent``), float noise
    removed first and halves rounded up as on paper: 3/32 -> ``9.38%``, 9/32 -> ``28.13%``,
    15/16 summed to 0.9374999999999994 -> ``93.8%`` (a number shown to at most
    :data:`SHOWN_DIGITS` digits is read to :data:`NOISE_FREE_DIGITS` first).

    Example:
        >>> fixed(0.09374999999999993, 2, percent=True), fixed(0.28125, 2, True), fixed(2 / 3, 3)
        ('9.38%', '28.13%', '0.667')
        >>> fixed(0.9374999999999994, 1, percent=True)
        '93.8%'
    """
    value = round_sig(value)
    scale = 100 if percent else 1
    if value and math.isfinite(value):  # shown coarser than the engine's 1e-12: noise off there
        shown = math.floor(math.log10(abs(value * scale))) + 1 + digits
        if shown <= SHOWN_DIGITS:
            value = round_sig(value, NOISE_FREE_DIGITS)
    scaled = Decimal(repr(value)) * scale
    text = f"{scaled.quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP):f}"
    return text + "%" if percent else text


FLOAT_NOISE = 1e-12
"""A probability this close to 0 or 1 is 0 or 1 up to the engine's rounding, not a mark."""


def marked(value: float, digits: int, percent: bool = True) -> str:
    """:func:`fixed`, except that a probability strictly between 0 and 1 whose text would
    read as impossible or certain is marked ``< 1%`` / ``> 99%`` (at ``digits`` decimals):
    nothing shown is 0% or 100% that is neither. The marks follow the text shown (99.95%
    rounds up to 100.0%, so it is marked).

    Example:
        >>> marked(0.996, 0), marked(0.004, 0), marked(0.5, 0), marked(1.0, 0)
        ('> 99%', '< 1%', '50%', '100%')
        >>> marked(0.9995, 1), marked(0.0005, 1), marked(0.0002, 3, percent=False)
        ('> 99.9%', '0.1%', '< 0.001')
    """
    if 0 < value < 1 and min(value, 1 - value) > FLOAT_NOISE:
        unit = 10.0 ** -digits / (100 if percent else 1)   # the smallest step shown
        plain = fixed(value, digits, percent)
        if plain == fixed(0.0, digits, percent):
            return "< " + fixed(unit, digits, percent)
        if plain == fixed(1.0, digits, percent):
            return "> " + fixed(1 - unit, digits, percent)
        return plain
    return fixed(round(value) if 0 < value < 1 else value, digits, percent)


def json_ready(data: Any, digits: int = JSON_DIGITS) -> Any:
    """A copy of nested dicts / lists / tuples with every float rounded by :func:`round_sig`
    (numpy numbers become plain Python numbers).

    Example:
        >>> json_ready({"p": [0.1 + 0.2, 2], "ok": True})
        {'p': [0.3, 2], 'ok': True}
    """
    if isinstance(data, dict):
        return {key: json_ready(value, digits) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [json_ready(value, digits) for value in data]
    if isinstance(data, (bool, np.bool_)):
        return bool(data)
    if isinstance(data, (int, np.integer)):
        return int(data)
    if isinstance(data, (float, np.floating)):
        return round_sig(data, digits)
    return data
