"""The one error family of the workbench: every bad input raises a ``WorkbenchError``.

``WorkbenchError`` is a ``ValueError`` so callers that already guard against ``ValueError``
keep working; the command line turns it into one line on stderr and exit status 2.
"""
from __future__ import annotations


SHOWN_CHARACTERS = 60
"""Values in messages are cut to this many characters (a 5000-digit number stays one line)."""


def shown(value: object) -> str:
    """``repr(value)`` for an error message: one line, at most :data:`SHOWN_CHARACTERS` long.

    Example:
        >>> shown("1" * 5000)
        "'1111111111111111111111111111111111111111111111111111111... (5002 characters)"
    """
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        text = f"<{type(value).__name__}>"
    text = text.replace("\n", " ")
    if len(text) > SHOWN_CHARACTERS:
        text = f"{text[:SHOWN_CHARACTERS - 4]}... ({len(text)} characters)"
    return text


class WorkbenchError(ValueError):
    """Bad input to the workbench: the message names what was wrong and what is allowed."""


class ParameterError(WorkbenchError):
    """A check parameter or rule option with a value the system does not allow.

    Example:
        >>> raise ParameterError("uwr", "favor", "1.5", "a whole number")
        Traceback (most recent call last):
        ...
        workbench.errors.ParameterError: uwr: parameter 'favor' got '1.5'; allowed: a whole number
    """

    def __init__(self, system: str | None, parameter: str, value: object, allowed: str):
        self.system = system
        self.parameter = parameter
        self.value = value
        self.allowed = allowed
        if system is None:  # a command-line option or a plain argument: named as given
            super().__init__(f"{parameter} got {shown(value)}; allowed: {allowed}")
        else:
            super().__init__(f"{system}: parameter '{parameter}' got {shown(value)}; allowed: {allowed}")


class DataFileError(WorkbenchError):
    """A system data file that cannot be used: names the file, the entry and the problem."""

    def __init__(self, path: object, entry: str, problem: str):
        self.path = path
        self.entry = entry
        self.problem = problem
        super().__init__(f"{path}: entry '{entry}': {problem}")


class FormulaError(WorkbenchError):
    """A one-line dice formula that cannot be read: one line naming the column and what was
    expected there; :attr:`caret` points at it (the line below the formula).

    ``str(error)`` is the one line; a note (shown under it in tracebacks and notebooks) repeats
    the formula with a caret under the column. The command line prints the line and a caret
    under the same column of it.

    Example:
        >>> error = FormulaError("4d6kq3", 4, "unexpected 'q'; expected a modifier")
        >>> str(error)
        "4d6kq3: column 5: unexpected 'q'; expected a modifier"
        >>> print(error.caret)
            ^
    """

    def __init__(self, formula: str, position: int, problem: str):
        self.formula = formula
        self.position = max(0, min(int(position), len(formula)))
        self.problem = problem
        shown = [c if c.isprintable() else repr(c)[1:-1] for c in formula]
        self.shown = "".join(shown)
        self.offset = len("".join(shown[:self.position]))
        """Where the column is in :attr:`shown` (and in the first line): escapes widen it."""
        self.caret = " " * self.offset + "^"
        super().__init__(f"{self.shown}: column {self.position + 1}: {problem}")
        self.add_note(f"    {self.shown}\n    {self.caret}")
