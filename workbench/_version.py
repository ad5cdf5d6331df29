"""The installed package's version, read from its metadata (``pyproject.toml`` is the one source).

Example:
    >>> from workbench import __version__
    >>> __version__.count(".") >= 1
    True
"""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("dice-workbench")
except PackageNotFoundError:  # a checkout on sys.path without `pip install` (no metadata)
    __version__ = "0+unknown"
