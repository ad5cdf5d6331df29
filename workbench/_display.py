"""How results are shown to people: numbers in JSON and tables, and results in notebooks.

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
from typing import Any

import numpy as np

JSON_DIGITS = 15


def round_sig(value: float, digits: int = JSON_DIGITS) -> float:
    """``value`` rounded to ``digits`` significant digits and ``digits`` decimal places (the
    JSON number rule; 0, inf and nan pass through)."""
    value = float(value)
    if value == 0 or not math.isfinite(value):
        return value
    return round(float(f"{value:.{digits}g}"), digits) + 0.0  # + 0.0: no "-0.0"


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


def _as_number(outcome: Any) -> int | None:
    if isinstance(outcome, (bool, np.bool_)):
        return None
    if isinstance(outcome, (int, np.integer)):
        return int(outcome)
    try:
        return int(str(outcome))
    except ValueError:
        return None


def cut_tails(outcomes, probabilities, resolution: float) -> list[tuple[str, float, bool]]:
    """The rows a table shows for a distribution: ``(label, probability, is_tail)``.

    Numeric outcomes at either end whose probabilities *together* stay below ``resolution``
    (half the smallest step the table shows, see
    :attr:`workbench.export.tables.NumberFormat.resolution`) become one row ``≤ k`` or
    ``≥ k`` holding their total, which the table then writes as ``< 0.01%``; a tail of
    outcomes that never happen is dropped. Labelled outcomes (narrative dice, tiers) are all
    kept. The cut never changes which outcomes a reader can see as possible: the merged tail
    says it is there.

    Example:
        >>> cut_tails([0, 1, 2, 3, 4], [1e-9, 0.5, 0.3, 0.2 - 2e-9, 1e-9], 5e-5)
        [('≤ 0', 1e-09, True), ('1', 0.5, False), ('2', 0.3, False), ('3', 0.199999998, False), ('≥ 4', 1e-09, True)]
    """
    items = [(o, float(p)) for o, p in zip(outcomes, probabilities)]
    numbers = [_as_number(o) for o, _ in items]
    if resolution <= 0 or len(items) < 2 or any(n is None for n in numbers):
        return [(str(o), p, False) for o, p in items]
    low, low_mass = 0, 0.0
    while low < len(items) - 1 and low_mass + items[low][1] < resolution:
        low_mass += items[low][1]
        low += 1
    high, high_mass = len(items), 0.0
    while high - 1 > low and high_mass + items[high - 1][1] < resolution:
        high_mass += items[high - 1][1]
        high -= 1
    rows = [(str(o), p, False) for o, p in items[low:high]]
    if low and low_mass > 0:
        rows.insert(0, (f"≤ {numbers[low - 1]}", low_mass, True))
    if high < len(items) and high_mass > 0:
        rows.append((f"≥ {numbers[high]}", high_mass, True))
    return rows
