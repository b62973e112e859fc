"""The pages: Jinja2 templates on one base layout, and the rules rendered from Markdown.

Every title, blurb, player count and option a page shows comes from the games' specs
(:mod:`parlour.games`); the pages' scripts read the same specs from ``GET /api/games``.
The rules files are rendered by markdown-it-py with raw HTML off, so a rules file cannot
inject markup; headings get anchors to link a ruling to.

>>> "<script>" in rules_html("# Slap\\n\\n<script>x</script>")
False
>>> rules_html("## The dealer's turn").startswith('<h2 id="the-dealers-turn">')
True
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt
from mdit_py_plugins.anchors import anchors_plugin
from starlette.templating import Jinja2Templates

from parlour.engine import GameSpec

STATIC = Path(__file__).parent / "static"
TEMPLATES = Path(__file__).parent / "templates"

_markdown = (MarkdownIt("commonmark", {"html": False})
             .enable("table").use(anchors_plugin, min_level=1, max_level=3))


def rules_html(markdown: str) -> str:
    """The HTML of a rules file (a fragment)."""
    html: str = _markdown.render(markdown)
    return html


@cache
def _version(name: str) -> str:
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:10]


def asset(name: str) -> str:
    """The URL of a static file, with its content's hash so that a new release is never
    half cached."""
    return f"/static/{name}?v={_version(name)}"


def players_text(spec: GameSpec) -> str:
    """How many play at a live table, in words: "2 players", "2 to 42 players"."""
    low, high = spec.seats
    return f"{low} players" if low == high else f"{low} to {high} players"


def templates() -> Jinja2Templates:
    t = Jinja2Templates(directory=str(TEMPLATES))
    t.env.globals.update(asset=asset, players_text=players_text)
    return t
