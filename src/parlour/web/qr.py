"""QR codes of the site's links, drawn by segno: as SVG for a page (a table's waiting room
shows its join link so), and in half blocks for a terminal (``parlour serve --lan``).

Both keep the quiet zone of four modules that a camera needs round the code, and draw it
dark on light: error correction M (15% of the code may be unreadable: a glare on a screen).

>>> code = svg("http://192.168.1.20:8000/table/AbCdEfGh")  # 29 modules and the quiet zone
>>> code.startswith('<svg shape-rendering="crispEdges"'), 'viewBox="0 0 37 37"' in code
(True, True)
"""

from __future__ import annotations

import io
import sys
from functools import lru_cache
from typing import TextIO

import segno

#: ``M``: up to 15% of the code may be lost (a reflection on the screen) and still read.
ERROR = "m"


@lru_cache(maxsize=512)
def svg(text: str, title: str = "") -> str:
    """``text`` as a QR code in an SVG document: black on white, four modules of quiet
    zone, a ``viewBox`` and no size of its own (the page sizes it), edges kept crisp at any
    scale. Kept for the tables asked about most (a reload asks again)."""
    out = io.BytesIO()
    segno.make(text, error=ERROR).save(
        out, kind="svg", dark="#000", light="#fff", border=4, omitsize=True, xmldecl=False,
        svgclass=None, lineclass=None, title=title or None, nl=False)
    return out.getvalue().decode("utf-8").replace("<svg ", '<svg shape-rendering="crispEdges" ',
                                                  1)


def print_terminal(text: str, out: TextIO | None = None) -> None:
    """``text`` as a QR code on the terminal ``out`` (standard output): half-block
    characters, two rows a line, light on the terminal's dark background; ANSI colours
    instead where the terminal cannot show the blocks."""
    stream = out if out is not None else sys.stdout
    code = segno.make(text, error=ERROR)
    try:
        "\u2580\u2584\u2588".encode(stream.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        code.terminal(out=stream, border=4, compact=False)
    else:
        code.terminal(out=stream, border=4, compact=True)
    stream.flush()
