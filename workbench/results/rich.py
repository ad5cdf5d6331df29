"""How a result shows itself, without knowing how: views registered by the presentation layer.

Results are plain data. Each result type inherits :class:`RichResult`, whose ``to_frame()``,
``_repr_html_()`` and ``repr`` call the views that the presentation layer
(``workbench.views``) registers with :func:`register_views` when ``workbench`` is
imported. So a result never imports tables, pandas or HTML code, and the presentation layer
can change how results look without touching them.

Example:
    >>> import workbench
    >>> repr(workbench.check("uwr", dice=1, target=1)).splitlines()[0]
    'CheckResult uwr · exact · dice=1, target=1'
"""
from __future__ import annotations

from typing import Any, Callable

_VIEWS: dict[str, Callable[[Any], Any]] = {}


def register_views(*, to_frame: Callable[[Any], Any], html: Callable[[Any], str],
                   text: Callable[[Any], str]) -> None:
    """Install the three views every result type uses (called by the presentation layer)."""
    _VIEWS.update(to_frame=to_frame, html=html, text=text)


class RichResult:
    """Mixin giving a result ``to_frame()``, ``_repr_html_()`` and a readable ``repr``.

    A dataclass using it needs ``repr=False`` (else the dataclass writes its own repr).
    """

    __slots__ = ()

    def to_frame(self):
        """A tidy pandas DataFrame of this result (one row per outcome, step or check)."""
        return _VIEWS["to_frame"](self)

    def _repr_html_(self) -> str:
        return _VIEWS["html"](self)

    def __repr__(self) -> str:
        view = _VIEWS.get("text")
        return view(self) if view else f"<{type(self).__name__}>"
