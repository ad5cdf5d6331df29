"""The quick route of the interpreter, for the expressions most files write.

:func:`~workbench.rules.expressions.evaluate` checks, value by value, that nothing computed
passes ``MAX_TOTAL`` and that nothing is divided by zero, searching arrays for their least
and greatest values as it goes. Most expressions need none of it: ``min(action_die + stat,
10)``, ``(total > high) + (total > low)``, ``0 if value == 1 else value`` over small whole
numbers. Here each value is worked out with the interpreter's own operations (the same
numpy calls, the same Python operators on plain numbers: the same values bit for bit) while
its least and greatest values are worked out beside it from its operands' (interval
arithmetic on plain numbers, no search). When every value on the way is known to stay
within ``MAX_TOTAL`` and no divisor can be 0, that is the answer; otherwise (``/`` and its
fractions, floats, a value that might pass the limit, a divisor that might be 0, a name
without a value) :func:`quick` gives up and the interpreter works the expression out as it
always did, refusing what it must with its own message.

Example:
    >>> import numpy as np
    >>> from workbench.rules.expressions import parse
    >>> quick(parse("min(a + 2, 10)"), {"a": np.array([3, 9])}).tolist()
    [5, 10]
    >>> quick(parse("a / 2"), {"a": np.array([3, 9])}) is None   # a fraction: the interpreter's
    True
"""
from __future__ import annotations

import operator
from typing import Any, Mapping

import numpy as np

from ...limits import MAX_TOTAL
from ._parse import Expression
from ._values import as_number, both, either, negation, plain, truth


class _GiveUp(Exception):
    """The quick route cannot vouch for this value: the interpreter works it out."""


def quick(expression: Expression, names: Mapping[str, Any]) -> "np.ndarray | None":
    """``expression`` over ``names`` as :func:`~workbench.rules.expressions.evaluate` gives it,
    or ``None`` when only the interpreter can (see the module's description)."""
    found = quick_bounded(expression, names)
    return None if found is None else found[0]


def quick_bounded(expression: Expression, names: Mapping[str, Any],
                  spans: "Mapping[str, tuple[int, int]] | None" = None) -> "tuple[np.ndarray, int, int] | None":
    """:func:`quick`'s answer with a least and a greatest value it cannot pass (worked out
    beside it: every value lies within, not always at the ends), or ``None``. ``spans``: for
    some names whose values are arrays, a least and a greatest value the array does not pass
    (known to the caller: not looked up).

    Example:
        >>> import numpy as np
        >>> from workbench.rules.expressions import parse
        >>> value, low, high = quick_bounded(parse("min(a + 2, 10)"), {"a": np.array([3, 9])})
        >>> value.tolist(), low, high
        ([5, 10], 5, 10)
    """
    function = expression.__dict__.get("_quick")
    if function is None:
        function = expression.__dict__["_quick"] = _compile(expression.tree)
    try:
        value, low, high = _bounded(function(names, spans or _NO_SPANS))
    except _GiveUp:
        return None
    return np.asarray(value), low, high


def _compile(tree: tuple):
    """``tree`` as one Python function of ``names`` giving ``(value, least, greatest)``: the
    nodes' steps written out in the order they are worked out (:class:`_Writer`), compiled
    once per expression."""
    writer = _Writer()
    value = writer.node(tree)
    writer.line(f"return {value}, {value.replace('v', 'l')}, {value.replace('v', 'h')}")
    source = "def quick(names, spans):\n" + "\n".join("    " + line for line in writer.lines)
    scope = {**_SCOPE, **writer.constants}
    exec(compile(source, "<quick expression>", "exec"), scope)
    return scope["quick"]


def _checked(value, low: int, high: int):
    if low < -MAX_TOTAL or high > MAX_TOTAL:
        raise _GiveUp
    return value, low, high


def _leaf(value):
    """A name's value with its least and greatest (``None`` for a whole-number array: looked
    up when needed, not to compare); refused (:class:`_GiveUp`) unless a whole number, a truth
    value or an array of either."""
    kind = type(value)
    if kind is int:
        return _checked(value, value, value)
    if kind is bool:
        return value, int(value), int(value)
    if kind is not np.ndarray or not value.ndim or not value.size:
        raise _GiveUp   # missing, a float, a numpy number...: the interpreter's
    letter = value.dtype.kind
    if letter == "b":
        return value, 0, 1
    if letter not in "iu":
        raise _GiveUp
    return value, None, None


def _span(value, known: "tuple[int, int] | None" = None) -> tuple[int, int]:
    """An array's least and greatest (``known``: bounds it lies within, given), within the limit."""
    if known is not None:
        low, high = known
    else:
        low, high = int(_LEAST(value, axis=None)), int(_GREATEST(value, axis=None))
    if low < -MAX_TOTAL or high > MAX_TOTAL:
        raise _GiveUp
    return low, high


def _bounded(found):
    """``found`` (value, least, greatest) with its least and greatest known, within the limit."""
    value, low, high = found
    if low is None:
        low, high = _span(value)
    return value, low, high


_LEAST, _GREATEST = np.minimum.reduce, np.maximum.reduce
_NO_SPANS: dict = {}


def _truth_bounds(flag) -> tuple[int, int]:
    """Least and greatest of a truth value (one of 0 and 1 when known), or of an array of them."""
    return (int(flag), int(flag)) if type(flag) is bool else (0, 1)


def _compared(on_numbers, on_arrays, left, right):
    if plain(left) and plain(right):
        flag = on_numbers(left, right)
        return flag, int(flag), int(flag)
    left, right = as_number(left), as_number(right)
    if type(left) is int and type(right) is int:
        flag = on_numbers(left, right)
        return flag, int(flag), int(flag)
    return on_arrays(left, right), 0, 1


def _arithmetic(op: str, on_arrays, left, right, low: int, high: int):
    """``left op right`` (``+``, ``-``, ``*``) whose least and greatest are known."""
    if low < -MAX_TOTAL or high > MAX_TOTAL:
        raise _GiveUp
    if plain(left) and plain(right):
        a, c = as_number(left), as_number(right)
        return (a + c if op == "+" else a - c if op == "-" else a * c), low, high
    a, c = np.asarray(left), np.asarray(right)   # true/false count as 1 and 0 in int64
    if a.dtype.kind not in "ib" or c.dtype.kind not in "ib":
        raise _GiveUp
    return on_arrays(a, c, dtype=np.int64), low, high


def _divided(op: str, left, right, a_low: int, a_high: int, c_low: int, c_high: int):
    """``left // right`` or ``left % right`` whose operands' least and greatest are known."""
    a, c = as_number(left), as_number(right)
    if c_low <= 0 <= c_high:   # a divisor that may be 0: the interpreter says where
        raise _GiveUp
    corners = (a_low // c_low, a_low // c_high, a_high // c_low, a_high // c_high)
    q_low, q_high = min(corners), max(corners)
    if type(a) is int and type(c) is int:
        quotient = a // c
        value = quotient if op == "//" else a - quotient * c
    else:
        a, c = np.asarray(a), np.asarray(c)
        if a.dtype.kind != "i" or c.dtype.kind != "i":
            raise _GiveUp
        quotient = np.floor_divide(a, c, dtype=np.int64)
        value = quotient if op == "//" else np.subtract(a, quotient * c, dtype=np.int64)
    if op == "//":
        return value, q_low, q_high
    # a remainder takes the divisor's sign and is smaller than it
    return (value, 0, c_high - 1) if c_low > 0 else (value, c_low + 1, 0)


def _if(condition, yes, yes_low: int, yes_high: int, no, no_low: int, no_high: int):
    if type(condition) is bool and plain(yes) and plain(no):
        return (as_number(yes), yes_low, yes_high) if condition else (as_number(no), no_low, no_high)
    return np.where(condition, as_number(yes), as_number(no)), min(yes_low, no_low), max(yes_high, no_high)


def _absolute(inner, low: int, high: int):
    inner = as_number(inner)
    value = abs(inner) if type(inner) is int else np.abs(inner)
    if low >= 0:
        return value, low, high
    return _checked(value, 0 if high >= 0 else -high, max(-low, high))


def _least_or_greatest(on_numbers, on_arrays, found: list):
    if all(type(value) is int for value, _, _ in found):
        value = on_numbers([value for value, _, _ in found])
    else:
        value = found[0][0]
        for argument, _, _ in found[1:]:
            if plain(value) and plain(argument):
                value = on_numbers(as_number(value), as_number(argument))
            else:
                value = on_arrays(as_number(value), as_number(argument))
    return value, on_numbers([low for _, low, _ in found]), on_numbers([high for _, _, high in found])


_COMPARE = {"==": (operator.eq, np.equal), "!=": (operator.ne, np.not_equal), "<": (operator.lt, np.less),
            "<=": (operator.le, np.less_equal), ">": (operator.gt, np.greater),
            ">=": (operator.ge, np.greater_equal)}

_ARRAYS = {"+": np.add, "-": np.subtract, "*": np.multiply}


class _Writer:
    """Writes an expression's nodes as lines of one function, each node's value, least and
    greatest in variables ``vN``, ``lN``, ``hN``, in the order the operands are worked out
    (the first operand first, all of it, then the next); a name's least and greatest are
    looked up only where an operation needs them."""

    def __init__(self):
        self.lines: list[str] = []
        self.constants: dict[str, Any] = {}
        self.open: dict[str, str] = {}   # names' variables whose least and greatest are not known yet: the names
        self.counter = 0

    def line(self, text: str) -> None:
        self.lines.append(text)

    def constant(self, value) -> str:
        key = f"K{len(self.constants)}"
        self.constants[key] = value
        return key

    def fresh(self) -> str:
        self.counter += 1
        return f"v{self.counter}"

    def bounded(self, value: str) -> str:
        """``value`` with its least and greatest known from here on."""
        if value in self.open:
            self.line(f"if {value.replace('v', 'l')} is None: {value.replace('v', 'l')}, "
                      f"{value.replace('v', 'h')} = _span({value}, spans.get({self.open.pop(value)!r}))")
        return value

    def node(self, tree: tuple) -> str:
        return getattr(self, "_" + tree[0])(tree)

    def _set(self, value: str, expression: str) -> None:
        self.line(f"{value}, {value.replace('v', 'l')}, {value.replace('v', 'h')} = {expression}")

    def _number(self, tree: tuple) -> str:
        value = self.fresh()
        literal = tree[1]
        if int(literal) < -MAX_TOTAL or int(literal) > MAX_TOTAL:
            self.line("raise _GiveUp")
        self._set(value, self.constant((literal, int(literal), int(literal))))
        return value

    def _name(self, tree: tuple) -> str:
        value = self.fresh()
        self._set(value, f"_leaf(names.get({tree[1]!r}))")
        self.open[value] = tree[1]
        return value

    def _negate(self, tree: tuple) -> str:
        inner = self.bounded(self.node(tree[1]))
        value = self.fresh()
        self.line(f"{value} = -{inner} if type({inner}) is int else -as_number({inner})")
        self.line(f"{value.replace('v', 'l')}, {value.replace('v', 'h')} = "
                  f"-{inner.replace('v', 'h')}, -{inner.replace('v', 'l')}")
        return value

    def _truth(self, tree: tuple) -> str:
        inner = self.node(tree)
        self.open.pop(inner, None)   # (its least and greatest are replaced by its truth's)
        self.line(f"{inner} = truth({inner}); {inner.replace('v', 'l')}, {inner.replace('v', 'h')} "
                  f"= _truth_bounds({inner})")
        return inner

    def _not(self, tree: tuple) -> str:
        flag = self._truth(tree[1])
        value = self.fresh()
        self._set(value, f"negation({flag}), 1 - {flag.replace('v', 'h')}, 1 - {flag.replace('v', 'l')}")
        return value

    def _and(self, tree: tuple) -> str:
        left, right = self._truth(tree[1]), self._truth(tree[2])
        value = self.fresh()
        join, pick = ("both", "min") if tree[0] == "and" else ("either", "max")
        self._set(value, f"{join}({left}, {right}), {pick}({left.replace('v', 'l')}, {right.replace('v', 'l')}), "
                         f"{pick}({left.replace('v', 'h')}, {right.replace('v', 'h')})")
        return value

    _or = _and

    def _compare(self, tree: tuple) -> str:
        left, right = self.node(tree[2]), self.node(tree[3])
        value = self.fresh()
        call = f"_compared(*{self.constant(_COMPARE[tree[1]])}, {left}, {right})"
        self.line(f"if {_whole_arrays(left, right)}: {value}, {value.replace('v', 'l')}, "
                  f"{value.replace('v', 'h')} = {left} {tree[1]} {right}, 0, 1")   # (numpy's own)
        self.line(f"else: {value}, {value.replace('v', 'l')}, {value.replace('v', 'h')} = {call}")
        return value

    def _if(self, tree: tuple) -> str:
        condition = self.node(tree[1])
        self.open.pop(condition, None)
        self.line(f"{condition} = truth({condition})")
        yes = self.bounded(self.node(tree[2]))
        no = self.bounded(self.node(tree[3]))
        value = self.fresh()
        self._set(value, f"_if({condition}, {yes}, {yes.replace('v', 'l')}, {yes.replace('v', 'h')}, "
                         f"{no}, {no.replace('v', 'l')}, {no.replace('v', 'h')})")
        return value

    def _call(self, tree: tuple) -> str:
        arguments = [self.bounded(self.node(argument)) for argument in tree[2]]
        value = self.fresh()
        if tree[1] == "abs":
            inner = arguments[0]
            self._set(value, f"_absolute({inner}, {inner.replace('v', 'l')}, {inner.replace('v', 'h')})")
            return value
        functions = (min, np.minimum) if tree[1] == "min" else (max, np.maximum)
        found = ", ".join(f"({a}, {a.replace('v', 'l')}, {a.replace('v', 'h')})" for a in arguments)
        call = f"_least_or_greatest(*{self.constant(functions)}, [{found}])"
        if len(arguments) == 2:   # (numpy's own of two arrays, or of an array and a number)
            a, c = arguments
            self.line(f"if {_whole_arrays(a, c)}: {value}, {value.replace('v', 'l')}, {value.replace('v', 'h')} = "
                      f"np.{'minimum' if tree[1] == 'min' else 'maximum'}({a}, {c}), "
                      f"{tree[1]}({a.replace('v', 'l')}, {c.replace('v', 'l')}), "
                      f"{tree[1]}({a.replace('v', 'h')}, {c.replace('v', 'h')})")
            self.line(f"else: {value}, {value.replace('v', 'l')}, {value.replace('v', 'h')} = {call}")
        else:
            self._set(value, call)
        return value

    def _binary(self, tree: tuple) -> str:
        op = tree[1]
        if op == "/":   # a fraction: the interpreter's (its operands are never worked out here)
            self.line("raise _GiveUp")
            value = self.fresh()
            self._set(value, "None, 0, 0")
            return value
        left = self.bounded(self.node(tree[2]))
        right = self.bounded(self.node(tree[3]))
        a_low, a_high, c_low, c_high = (left.replace("v", "l"), left.replace("v", "h"),
                                        right.replace("v", "l"), right.replace("v", "h"))
        value = self.fresh()
        if op == "+":
            bounds = f"{a_low} + {c_low}, {a_high} + {c_high}"
        elif op == "-":
            bounds = f"{a_low} - {c_high}, {a_high} - {c_low}"
        elif op == "*":
            corners = f"({a_low} * {c_low}, {a_low} * {c_high}, {a_high} * {c_low}, {a_high} * {c_high})"
            bounds = f"min({corners}), max({corners})"
        else:
            self._set(value, f"_divided({op!r}, {left}, {right}, {a_low}, {a_high}, {c_low}, {c_high})")
            return value
        low, high = value.replace("v", "l"), value.replace("v", "h")
        self.line(f"{low}, {high} = {bounds}")
        self.line(f"if {_whole_arrays(left, right, truths=True)} and -MAX_TOTAL <= {low} and {high} <= MAX_TOTAL: "
                  f"{value} = {self.constant(_ARRAYS[op])}({left}, {right}, dtype=_INT64)")   # (as _arithmetic)
        self.line(f"else: {value}, {low}, {high} = "
                  f"_arithmetic({op!r}, {self.constant(_ARRAYS[op])}, {left}, {right}, {low}, {high})")
        return value


def _whole_arrays(left: str, right: str, truths: bool = False) -> str:
    """The test that two values are whole-number arrays (int64; ``truths``: or true/false),
    or one is and the other a plain whole number: what numpy's own functions work out as the
    quick route's helpers do, without the helpers."""
    def array(value: str) -> str:
        if truths:
            return f"(type({value}) is _ARRAY and ({value}.dtype is _INT64 or {value}.dtype is _BOOL))"
        return f"(type({value}) is _ARRAY and {value}.dtype is _INT64)"
    return (f"(({array(left)} and (type({right}) is int or {array(right)})) "
            f"or (type({left}) is int and {array(right)}))")


_SCOPE = {"_GiveUp": _GiveUp, "_leaf": _leaf, "_span": _span, "_compared": _compared,
          "_arithmetic": _arithmetic, "_divided": _divided, "_if": _if, "_absolute": _absolute,
          "_least_or_greatest": _least_or_greatest, "_truth_bounds": _truth_bounds,
          "truth": truth, "negation": negation, "both": both, "either": either,
          "as_number": as_number, "np": np, "min": min, "max": max, "MAX_TOTAL": MAX_TOTAL,
          "_ARRAY": np.ndarray, "_INT64": np.dtype(np.int64), "_BOOL": np.dtype(bool)}
