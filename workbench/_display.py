"""How results are shown to people: numbers in JSON, and results in notebooks.

**The number rule.** Results keep full floating-point precision in Python. At presentation:

- JSON (``workbench ... --format json``, every ``to_dict()``) rounds each probability and mean
  to :data:`JSON_DIGITS` (15) significant digits: all that a double carries reliably, so exact
  results lose nothing but float noise (``0.8906249999999996`` is written ``0.890625``).
- Tables show percentages at a fixed number of decimals (one by default). A row whose every
  probability rounds to 0 at that precision is a negligible tail: distributions drop such
  outcomes from the ends and say how much was cut in one ``< 0.1%`` row (see
  :func:`cut_tails`).

Example:
    >>> round_sig(0.8906249999999996), round_sig(1 / 3)
    (0.890625, 0.333333333333333)
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

JSON_DIGITS = 15


def round_sig(value: float, digits: int = JSON_DIGITS) -> float:
    """``value`` rounded to ``digits`` significant digits (0, inf and nan pass through)."""
    value = float(value)
    if value == 0 or not math.isfinite(value):
        return value
    return float(f"{value:.{digits}g}")


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
