"""The pages: Jinja2 templates on one base layout (a game's page on the game layout,
``templates/game.html``), and the rules rendered from Markdown.

Every title, blurb, player count and option a page shows comes from the games' specs
(:mod:`parlour.games`); the pages' scripts read the same specs from ``GET /api/games``.
The rules files are rendered by markdown-it-py with raw HTML off, so a rules file cannot
inject markup; headings get anchors to link a ruling to. A rules file is the one statement
of its game's rules: the rules page shows it whole, the game page below its table
(:func:`rules_article`).

>>> "<script>" in rules_html("# Slap\\n\\n<script>x</script>")
False
>>> rules_html("## The dealer's turn").startswith('<h2 id="the-dealers-turn">')
True
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.anchors.index import slugify
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


#: The section of a rules file that the game page leaves to the rules page: the rulings'
#: codes (``J1``...) are for the rulings file and developers.
RULINGS = "Parlour's rulings"

_article = (MarkdownIt("commonmark", {"html": False}).enable("table")
            .use(anchors_plugin, min_level=1, max_level=3,
                 slug_func=lambda title: "rules-" + slugify(title)))


def rules_article(markdown: str) -> str:
    """A rules file as the article below a game's table: every heading a level lower (the
    page's own title is its ``h1``), every anchor ``rules-`` first (never the id of
    something on the table), and without the section of Parlour's rulings.

    >>> html = rules_article("# Swap\\n\\nLeft.\\n\\n## Parlour's rulings, in short\\n\\nS1\\n")
    >>> html.splitlines()[0], "S1" in html
    ('<h2 id="rules-swap">Swap</h2>', False)
    """
    env: dict[str, object] = {}
    tokens = _article.parse(markdown, env)
    kept: list[Token] = []
    skipping = False
    for k, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag in ("h1", "h2"):
            skipping = token.tag == "h2" and tokens[k + 1].content.startswith(RULINGS)
        if skipping:
            continue
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(6, int(token.tag[1]) + 1)}"
        kept.append(token)
    html: str = _article.renderer.render(kept, _article.options, env)
    return html


def has_asset(name: str) -> bool:
    """Whether the static file ``name`` is there (a game's stylesheet is optional)."""
    return (STATIC / name).is_file()


@cache
def _version(name: str) -> str:
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:10]


def asset(name: str) -> str:
    """The URL of a static file, with its content's hash so that a new release is never
    half cached."""
    return f"/static/{name}?v={_version(name)}"


#: A static import of an ES module by a relative path: ``import { x } from "./dom.js";``.
_IMPORT = re.compile(r'^\s*(?:import|export)\b[^;"]*?\bfrom\s*"(\.{1,2}/[^"]+)"', re.M)


@cache
def _graph(name: str) -> tuple[str, ...]:
    """The static ES module ``name`` and every module it imports, directly or not."""
    found: list[str] = []

    def visit(module: str) -> None:
        if module in found:
            return
        found.append(module)
        for spec in _IMPORT.findall((STATIC / module).read_text("utf-8")):
            visit(posixpath.normpath(posixpath.join(posixpath.dirname(module), spec)))

    visit(name)
    return tuple(found)


@cache
def _module_version(name: str) -> str:
    digest = hashlib.sha256()
    for part in _graph(name):
        digest.update((STATIC / part).read_bytes())
    return digest.hexdigest()[:10]


def module(name: str) -> str:
    """The URL of a page's ES module, with a hash of it and of every module it imports: a
    change to any of them is a new URL for the page."""
    return f"/static/{name}?v={_module_version(name)}"


def current(name: str, version: str) -> bool:
    """Whether ``version`` is the one this release gives the static file ``name`` (by
    :func:`asset` or, for a page's module, :func:`module`): such a URL names these very
    bytes for good, and may be cached for good. Any other name or version is ``False``.

    >>> current("style.css", asset("style.css").split("v=")[1])
    True
    >>> current("style.css", "0123456789"), current("../pages.py", "x")
    (False, False)
    """
    try:
        path = (STATIC / name).resolve()
        if not path.is_relative_to(STATIC.resolve()) or not path.is_file():
            return False
        if version == _version(name):
            return True
        return name.endswith(".js") and version == _module_version(name)
    except (OSError, ValueError):
        return False


def module_imports(name: str) -> list[str]:
    """The URLs the module ``name`` imports, directly or not (as its imports name them, so
    that a preload of them is the very module the import gets)."""
    return [f"/static/{part}" for part in _graph(name)[1:]]


def players_text(spec: GameSpec) -> str:
    """How many play at a live table, in words: "2 players", "2 to 42 players"."""
    low, high = spec.seats
    return f"{low} players" if low == high else f"{low} to {high} players"


#: A ruling's code (``S1``, ``P5``): for the rulings file and developers, not for players.
_RULING = re.compile(r"\b[SJPG]\d+\b,?\s*")


def for_players(text: str) -> str:
    """``text`` without the ruling codes in its brackets: "the same for every player (S1)"
    is "the same for every player", "(S4, Cuckoo-style)" is "(Cuckoo-style)"."""
    def bracket(m: re.Match[str]) -> str:
        if not _RULING.search(m.group(1)):
            return m.group(0)
        rest = _RULING.sub("", m.group(1)).strip(" ,")
        return f" ({rest})" if rest else ""
    return re.sub(r"\s*\(([^()]*)\)", bracket, text)


def templates() -> Jinja2Templates:
    t = Jinja2Templates(directory=str(TEMPLATES))
    t.env.globals.update(asset=asset, has_asset=has_asset, players_text=players_text,
                         module=module, module_imports=module_imports)
    t.env.filters["for_players"] = for_players
    return t
