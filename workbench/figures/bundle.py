"""The plotly.js a self-contained page carries: the smallest bundle that draws its figures.

plotly's own ``plotly.min.js`` holds every trace type (about 4.8 MB). A page whose figures
only draw lines, markers and bars (every figure of the balance report) gets plotly.js's
*basic* partial bundle instead (``_vendor/plotly-basic.min.js``: bar, pie and scatter, about
1.2 MB, MIT licence beside it), the same release as the plotly.js that plotly for Python
writes figures for. A page with any other trace (a heatmap), or a plotly whose plotly.js is
of another major version, gets the full bundle.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Iterable

BASIC_BUNDLE = Path(__file__).with_name("_vendor") / "plotly-basic.min.js"
#: The trace types the basic bundle draws.
BASIC_TRACES = frozenset({"bar", "pie", "scatter"})
#: The plotly.js release of the basic bundle.
BASIC_VERSION = "4.1.1"


def trace_types(figures: Iterable) -> set[str]:
    """The trace types drawn by ``figures`` (plotly figures).

    Example:
        >>> import plotly.graph_objects as go
        >>> sorted(trace_types([go.Figure([go.Bar(y=[1]), go.Scatter(y=[2])])]))
        ['bar', 'scatter']
    """
    return {trace.type for fig in figures for trace in fig.data}


def _major(version: str) -> str:
    return version.split(".")[0]


def uses_basic_bundle(figures: Iterable) -> bool:
    """Whether the basic bundle draws every trace of ``figures``.

    Example:
        >>> import plotly.graph_objects as go
        >>> uses_basic_bundle([go.Figure(go.Bar(y=[1]))]), uses_basic_bundle([go.Figure(go.Heatmap(z=[[1]]))])
        (True, False)
    """
    from plotly.offline import get_plotlyjs_version  # lazy: plotly

    return (trace_types(figures) <= BASIC_TRACES and BASIC_BUNDLE.is_file()
            and _major(get_plotlyjs_version()) == _major(BASIC_VERSION))


def plotly_script(figures: Iterable) -> str:
    """The JavaScript of the smallest plotly.js bundle that draws ``figures``.

    Example:
        >>> import plotly.graph_objects as go
        >>> len(plotly_script([go.Figure(go.Bar(y=[1]))])) < 1_500_000
        True
    """
    figures = list(figures)
    return _basic() if uses_basic_bundle(figures) else _full()


@lru_cache(maxsize=1)
def _basic() -> str:
    return BASIC_BUNDLE.read_text(encoding="utf-8")


def _full() -> str:
    from plotly.offline import get_plotlyjs  # lazy: plotly

    return get_plotlyjs()
