"""Shared checks for static images: is there a browser, and is a file a PNG/SVG of a size."""
from __future__ import annotations

import struct
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from _deps import missing

from workbench.export.figures import chromium_path


def need_chromium() -> None:
    """Skip without Chromium locally; under CI (``CI`` = 1, true or yes) fail loudly instead."""
    if chromium_path() is None:
        missing("Chromium for kaleido's static images", "apt-get install chromium")


def png_size(path: Path) -> tuple[int, int]:
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def svg_size(path: Path) -> tuple[int, int]:
    root = ElementTree.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg", f"{path} is not an SVG"
    return int(float(root.get("width"))), int(float(root.get("height")))


def png_pixels(path: Path):
    """The pixels of an 8-bit, non-interlaced PNG (what kaleido writes) as a numpy array of
    shape (height, width, channels), RGB or RGBA: decoded with zlib and the PNG filters alone
    (no imaging library)."""
    import zlib

    import numpy as np

    data = Path(path).read_bytes()
    width, height = png_size(path)
    depth, colour, interlace = data[24], data[25], data[28]
    assert depth == 8 and interlace == 0 and colour in (2, 6), (depth, colour, interlace)
    channels = 3 if colour == 2 else 4
    stream, at = b"", 8
    while at < len(data):
        length = struct.unpack(">I", data[at:at + 4])[0]
        if data[at + 4:at + 8] == b"IDAT":
            stream += data[at + 8:at + 8 + length]
        at += 12 + length
    stride = width * channels
    raw = np.frombuffer(zlib.decompress(stream), dtype=np.uint8).reshape(height, stride + 1)
    image = np.zeros((height, stride), dtype=np.uint8)
    previous = np.zeros(stride, dtype=np.int64)
    for y in range(height):
        kind, row = raw[y, 0], raw[y, 1:].astype(np.int64)
        if kind == 1:      # Sub: each byte adds the one a pixel to its left (a running sum)
            row = np.cumsum(row.reshape(width, channels), axis=0).reshape(stride) % 256
        elif kind == 2:    # Up
            row = (row + previous) % 256
        elif kind in (3, 4):   # Average, Paeth: byte after byte
            for x in range(stride):
                left = row[x - channels] if x >= channels else 0
                up, corner = previous[x], previous[x - channels] if x >= channels else 0
                if kind == 3:
                    row[x] = (row[x] + (left + up) // 2) % 256
                else:
                    guess = left + up - corner
                    pa, pb, pc = abs(guess - left), abs(guess - up), abs(guess - corner)
                    row[x] = (row[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) % 256
        image[y] = row
        previous = row
    return image.reshape(height, width, channels)


def rgb(colour: str) -> tuple[int, int, int]:
    """``"#0072b2"`` or ``"rgb(165, 0, 38)"`` as a tuple."""
    colour = colour.strip()
    if colour.startswith("#"):
        return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return tuple(int(part) for part in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3])


def share_of(pixels, colour: str, tolerance: int = 6) -> float:
    """The share of the image's pixels within ``tolerance`` of ``colour`` on every channel."""
    import numpy as np

    near = np.abs(pixels[..., :3].astype(np.int64) - np.array(rgb(colour))) <= tolerance
    return float(near.all(axis=-1).mean())


def assert_drawn(path: Path, colours, least: float = 0.0005, background: str = "#ffffff") -> None:
    """A PNG shows what it should: its top-left pixel is the background, at least a third of
    it is background, and each of ``colours`` (the traces' own colours) covers at least
    ``least`` of it, so a blank, black or wrongly coloured image fails."""
    pixels = png_pixels(path)
    assert tuple(pixels[0, 0, :3]) == rgb(background), f"{path}: corner {pixels[0, 0]}"
    assert share_of(pixels, background) > 1 / 3, f"{path}: mostly not background"
    for colour in colours:
        assert share_of(pixels, colour) >= least, f"{path}: {colour} drawn on {share_of(pixels, colour):.5f}"


def svg_colours(path: Path) -> set[tuple[int, int, int]]:
    """Every fill and stroke colour an SVG's shapes use (plotly writes them as ``rgb(...)``)."""
    import re

    text = Path(path).read_text(encoding="utf-8")
    found = re.findall(r"(?:fill|stroke)\s*[:=]\s*\"?\s*(rgb\([^)]*\)|#[0-9a-fA-F]{6})", text)
    return {rgb(colour) for colour in found}
