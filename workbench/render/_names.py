"""Lists of systems written as text (``uwr,fons``), for every place a user writes several:
``share SYSTEM,SYSTEM``, ``report --systems``, ``figure --compare``, a block's ``compare=`` and
the ``:compare:`` of a directive. A one-line formula may hold commas of its own (``{1d8x,
1d6x}kh`` is one formula): names are split only at the commas outside braces, brackets and
parentheses.
"""
from __future__ import annotations


def split_systems(text: str) -> list[str]:
    """``SYSTEM[,SYSTEM...]``: names split at the commas outside a formula's braces and
    brackets (``{4d6, 3d8}kh`` is one formula), each stripped; an empty name stays empty (the
    caller says what is allowed).

    Example:
        >>> split_systems("uwr, {4d6, 3d8}kh,(@dice=5)d10cs>=8x")
        ['uwr', '{4d6, 3d8}kh', '(@dice=5)d10cs>=8x']
        >>> split_systems("uwr,,fons")
        ['uwr', '', 'fons']
    """
    names, depth, current = [], 0, ""
    for char in text:
        if char in "{([":
            depth += 1
        elif char in "})]":
            depth -= 1
        if char == "," and depth <= 0:
            names.append(current.strip())
            current = ""
        else:
            current += char
    names.append(current.strip())
    return names
