"""Small readers of data-file entries shared by the schema and the mechanics (no pydantic, so a
system read back from the cache runs without loading the schema)."""
from __future__ import annotations


def names(value) -> tuple[str, ...]:
    """A key that names one thing or several (``dice = "d6"`` or ``dice = ["d6", "d8"]``), as
    a tuple of names.

    Example:
        >>> names("d6"), names(["d6", "d8"])
        (('d6',), ('d6', 'd8'))
    """
    return (value,) if isinstance(value, str) else tuple(value)
