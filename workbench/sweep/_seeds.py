"""Per-point seeds: derived from the sweep's seed and the point itself, nothing else.

A point's seed is numpy's ``SeedSequence`` over the sweep seed and a BLAKE2 digest of the
point's parameters (function name, grid values and fixed values, in a canonical text). So a
point gets the same seed in any grid, in any order, on any machine or executor, and running
it alone (with the ``seed`` the sweep reports) gives the same answer.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping

import numpy as np


def _canonical(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if hasattr(value, "item") and not hasattr(value, "__len__"):
        return _canonical(value.item())
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return repr(value)


def point_seed(sweep_seed: int, function: str, params: Mapping[str, Any]) -> int:
    """The seed of one point (a whole number below 2**63).

    Example:
        >>> a = point_seed(1, "drama_campaign", {"players": 4, "tier": 1})
        >>> a == point_seed(1, "drama_campaign", {"tier": 1, "players": 4})
        True
        >>> a == point_seed(2, "drama_campaign", {"players": 4, "tier": 1})
        False
    """
    text = json.dumps([function, _canonical(dict(params))], sort_keys=True)
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()
    words = [int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4)]
    state = np.random.SeedSequence([int(sweep_seed), *words]).generate_state(2, np.uint64)
    return int(state[0] >> np.uint64(1))
