"""QR codes read back as a phone's camera would: by zxing-cpp, from pixels.

Only dark-on-light codes are read (``try_invert=False``): a code that a page or a terminal
draws inverted fails here, as it would with many cameras.
"""

from __future__ import annotations

import io

import zxingcpp
from PIL import Image

#: The terminal's half blocks (segno's compact drawing): (top, bottom) light or not.
HALF_BLOCKS = {" ": (False, False), "\u2580": (True, False), "\u2584": (False, True),
               "\u2588": (True, True)}


def read(image: Image.Image) -> list[str]:
    """The text of every QR code in ``image``."""
    found = zxingcpp.read_barcodes(image.convert("L"), formats=zxingcpp.BarcodeFormat.QRCode,
                                   try_invert=False)
    return [code.text for code in found]


def read_png(png: bytes) -> list[str]:
    """The text of every QR code in a PNG (a screenshot)."""
    return read(Image.open(io.BytesIO(png)))


def read_terminal(lines: list[str], scale: int = 8) -> list[str]:
    """The text of the QR code that ``lines`` of half blocks draw on a terminal with a dark
    background (a block is lit: light; a space is the background: dark)."""
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [HALF_BLOCKS[c] for c in line]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    width = max(len(r) for r in rows)
    image = Image.new("L", (width, len(rows)), 0)
    image.putdata([255 if lit else 0 for r in rows for lit in r + [False] * (width - len(r))])
    return read(image.resize((width * scale, len(rows) * scale), Image.NEAREST))
