"""Shared checks for static images: is there a browser, and is a file a PNG/SVG of a size."""
from __future__ import annotations

import os
import struct
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from workbench.export.figures import chromium_path


def need_chromium() -> None:
    """Skip without Chromium locally; under ``CI=true`` fail loudly instead."""
    if chromium_path() is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but no Chromium for kaleido (apt-get install chromium)")
        pytest.skip("no /usr/bin/chromium: static image export needs it")


def png_size(path: Path) -> tuple[int, int]:
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def svg_size(path: Path) -> tuple[int, int]:
    root = ElementTree.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg", f"{path} is not an SVG"
    return int(float(root.get("width"))), int(float(root.get("height")))
