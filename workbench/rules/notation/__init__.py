"""One-line dice formulas (``4d6kh3``, ``(@dice=5)d10cs>=8x``, ``1d20+@mod>=15``) as systems.

A formula is read by a grammar (``dice.lark``, Foundry VTT's notation) and compiled into the
tables a data file has (:mod:`.compile`), which the data files' own schema checks and their
pool mechanic rolls: every engine path, limit and error rule of the data files applies.
:func:`formula_system` is the one way in; :func:`workbench.system`, ``wb.check`` and every
command take a formula wherever a system's name goes (ids, aliases and paths first).
:func:`formula_toml` gives the equivalent data file, to grow a formula into a system.

Example:
    >>> import workbench as wb
    >>> round(wb.check("4d6kh3").mean, 4)
    12.2446
    >>> formula_system("2d20kh").params["target"].optional
    True
"""
from __future__ import annotations

import re
import threading
from typing import Any, Mapping

from ...errors import DataFileError, FormulaError, ParameterError, WorkbenchError
from ...limits import BoundedCache
from ...validation import suggest
from ..system import Rung, System
from . import _kept
from .compile import compile_formula
from .parse import parse_formula
from .toml import as_toml

__all__ = ["formula_system", "formula_toml", "formula_data", "looks_like_formula", "FormulaError"]

MAX_REMEMBERED = 256
"""Formulas whose systems are kept (a table or a sweep asks for the same one many times)."""
_SYSTEMS: BoundedCache = BoundedCache(MAX_REMEMBERED)
_LOCK = threading.Lock()

_DIE = re.compile(r"(?:^|[^A-Za-z_])[dD](?:[0-9%fF(@]|$)")
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def looks_like_formula(text: str) -> bool:
    """Whether ``text`` is meant as a formula (a die ``d6``/``dF``/``d%``, a pool ``{``, a
    knob ``@`` or a comparison), rather than a system's name.

    Example:
        >>> looks_like_formula("4d6kh3"), looks_like_formula("d%"), looks_like_formula("uwrr")
        (True, True, False)
    """
    return bool(_DIE.search(text)) or any(c in text for c in "{@;<>=")


def formula_data(text: str, settings: Mapping[str, Any] | None = None) -> tuple[dict, dict]:
    """The data file's tables for ``text`` (as a dict, the way a TOML file reads) and the
    notes its TOML form carries; ``settings`` become the parameters' defaults (each checked
    as a check would)."""
    compiled = compile_formula(parse_formula(text))
    data = compiled.data
    if settings:
        system = formula_system(text)
        resolved = system.resolve(**settings)
        for name in settings:
            name = str(name)
            table = data["params"][name]
            table.pop("optional", None)
            table["default"] = resolved[name]
    else:
        missing = [n for n in compiled.required]
        if missing:
            raise ParameterError(text, missing[0], None, f"a value: the formula gives @{missing[0]} no "
                                 f"default (give {missing[0]}=N, which the file keeps as its default)")
    return data, compiled.notes


def formula_system(text: str) -> System:
    """The system a one-line formula describes (remembered: the same text gives the same
    object). Its id and name are the formula; its knobs are its parameters.

    Raises :class:`~workbench.errors.FormulaError` (a ``WorkbenchError``) for a formula that
    cannot be read, naming the column.

    Example:
        >>> sys_ = formula_system("(@dice=5)d10cs>=8")
        >>> sys_.id, sys_.pool_parameter, sys_.params["dice"].default
        ('(@dice=5)d10cs>=8', 'dice', 5)
    """
    if not isinstance(text, str):
        raise ParameterError(None, "formula", text, "a dice formula such as '4d6kh3'")
    with _LOCK:
        found = _SYSTEMS.get(text)
    if found is not None:
        return found
    system = _kept.known(text)   # compiled by an earlier run
    if system is None:
        system = _build(text)
        _kept.remember(text, system)
    with _LOCK:   # another thread may have built it meanwhile: one system per formula
        found = _SYSTEMS.get(text)
        return found if found is not None else _SYSTEMS.keep(text, system)


def system_for(text: str, known) -> System | None:
    """The registry's look-up after ids, aliases and paths: the formula's system, or ``None``
    when ``text`` is not meant as a formula (then it is an unknown system). A word shaped like
    an id, close to a known one and no formula (``d10-pol``) is a misspelt id; one that reads
    as a formula (``d10``, close to ``d10-pool``) is the formula."""
    if not looks_like_formula(text):
        return None
    if _ID.match(text) and suggest(text.lower(), known):
        try:
            parse_formula(text)
        except FormulaError:
            return None
    return formula_system(text)


def _build(text: str) -> System:
    formula = parse_formula(text)
    compiled = compile_formula(formula)
    from ..schema import validate  # lazy: pydantic
    from .mechanics import FormulaMechanic  # lazy: pydantic
    data = compiled.data
    source = f"formula {text}"
    try:
        model = validate(data, source)
        mechanic = FormulaMechanic(text, model, source, compiled.required)
    except DataFileError as exc:
        if exc.entry.startswith("pass_if") and formula.condition is not None:
            raise FormulaError(text, formula.condition[1], exc.problem) from None
        raise WorkbenchError(f"{text}: {exc.problem} (entry '{exc.entry}' of the data file it "
                             "makes: workbench pmf FORMULA --as-toml shows it)") from None
    ladder = [Rung(r["name"], dict(r["set"])) for r in data.get("ladder", ())]
    system = System(id=text, name=text, mechanic=mechanic, pool_parameter=model.pool_parameter,
                    ladder=ladder, description=model.description)
    system.collection = "formula"
    return system


def formula_toml(text: str, **settings: Any) -> str:
    """The data file (TOML) equivalent to ``text``: loaded, it gives the same results. The
    settings given become its defaults; a knob without a default needs one.

    Example:
        >>> print(formula_toml("4d6kh3"))   # doctest: +ELLIPSIS
        # The data file of the one-line formula 4d6kh3
        ...
        [dice.d6]
        sides = 6
        count = 4
        ...
    """
    data, notes = formula_data(text, settings)
    return as_toml(text, data, notes)
