"""A small, safe expression language for conditions and derived statistics.

Data files say things such as ``hits == 0 and ones >= 1``, ``ones > dice / 2`` or
``total <= skill // 5``. :func:`parse` reads such text into a tree of plain tuples and checks
every name against the statistics and parameters the file declares; nothing is executed
(there is no ``eval``: the text is tokenised and parsed by the small grammar below). One
interpreter gives a tree its value: :func:`evaluate_numbers` over plain numbers (the rules
work out what an effect adds or a face counts for given parameters), :func:`evaluate` over
columns of outcomes (the engine reads a roll's statistics and conditions), the same walk of
the tree for both.

Grammar, loosest binding first::

    expression := or_test ["if" or_test "else" expression]
    or_test    := and_test {"or" and_test}
    and_test   := not_test {"and" not_test}
    not_test   := "not" not_test | comparison
    comparison := sum {("==" | "!=" | "<" | "<=" | ">" | ">=") sum}   (chained as in 1 <= x <= 3)
    sum        := product {("+" | "-") product}
    product    := unary {("*" | "/" | "//" | "%") unary}
    unary      := ("-" | "+") unary | atom
    atom       := NUMBER | "true" | "false" | TEXT | NAME | NAME "(" expression {"," expression} ")"
                  | "(" expression ")"

A TEXT (``"middle"`` or ``'middle'``) is read only compared (``==``, ``!=``) with a parameter
whose choices are words: ``mode == "middle"``.

Functions: ``min(a, b, ...)``, ``max(a, b, ...)``, ``abs(a)``. Comparisons give true/false,
which count as 1 and 0 in arithmetic (``(score > c1) + (score > c2)`` counts dice beaten).

How division rounds: ``/`` divides exactly (``7 / 2`` is 3.5: use it in comparisons such as
``ones > dice / 2``); ``//`` divides and rounds down (``7 // 2`` is 3, ``-7 // 2`` is -4) and
``%`` is the matching remainder. A statistic must come out whole, so ``/`` may appear only
inside a comparison.

Example:
    >>> expr = parse("hits == 0 and ones >= 1")
    >>> expr.names, expr.kind
    (('hits', 'ones'), 'bool')
    >>> parse("skill // 5").tree
    ('binary', '//', ('name', 'skill'), ('number', 5))
    >>> evaluate_numbers(parse("skill // 5"), {"skill": 17})
    3
"""
from __future__ import annotations

from ._evaluate import compared_rows, evaluate, evaluate_bounded, evaluate_numbers
from ._parse import COMPARISONS, FUNCTIONS, KEYWORDS, MAX_DEPTH, MAX_LENGTH, Expression, ExpressionError, parse

# Named where they are used: tracebacks, pickles of systems and docs say
# workbench.rules.expressions.Expression, not the private module that defines it.
for _public in (Expression, ExpressionError):
    _public.__module__ = __name__
del _public

__all__ = ["COMPARISONS", "FUNCTIONS", "KEYWORDS", "MAX_DEPTH", "MAX_LENGTH", "Expression",
           "ExpressionError", "compared_rows", "evaluate", "evaluate_bounded", "evaluate_numbers", "parse"]
