"""How long a browser may keep what the server sends, and the server's answers compressed.

Every HTTP answer gets a ``Cache-Control`` (:class:`CacheHeaders`):

- a static file asked for with the version this release gives it (``/static/style.css?v=``
  its content's hash, a page's module with the hash of every module it imports:
  :func:`parlour.web.pages.asset` and :func:`~parlour.web.pages.module`) is kept for a
  year and never asked again (``immutable``): a new release is a new URL;
- any other static file (the modules a page's module imports, by their plain names) is
  ``no-cache``: kept, but checked with the server (its ``ETag``) before each use, so a new
  release is never half cached;
- pages and the API are ``no-cache`` too (a page names this release's files); an error
  is ``no-store``.

``gzip``: Starlette's :class:`~starlette.middleware.gzip.GZipMiddleware` compresses pages,
scripts, styles and JSON of more than :data:`GZIP_MIN` bytes for a browser that accepts it
(:func:`compress`).
"""

from __future__ import annotations

from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import Message, Scope, Send

from parlour.web.middleware import SendFilter
from parlour.web.pages import current

FOREVER = "public, max-age=31536000, immutable"
CHECK = "no-cache"
NEVER = "no-store"
#: Smaller answers are sent as they are: compressing them gains nothing.
GZIP_MIN = 512


def policy(path: str, query: bytes) -> str:
    """The ``Cache-Control`` of a successful answer to ``path?query``.

    >>> policy("/static/lib/dom.js", b""), policy("/", b"")
    ('no-cache', 'no-cache')
    >>> policy("/static/style.css", b"v=stale") == CHECK
    True
    """
    if path.startswith("/static/"):
        versions = parse_qs(query.decode("latin-1")).get("v", [])
        if len(versions) == 1 and current(path.removeprefix("/static/"), versions[0]):
            return FOREVER
    return CHECK


class CacheHeaders(SendFilter):
    """Sets ``Cache-Control`` on every HTTP answer that has none (see the module)."""

    async def sending(self, scope: Scope, send: Send, message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = MutableHeaders(scope=message)
            if "cache-control" not in headers:
                ok = 200 <= message["status"] < 400
                headers["Cache-Control"] = (policy(scope["path"], scope["query_string"])
                                            if ok else NEVER)
        await send(message)


def compress(app: Starlette) -> None:
    """Wires the cache headers and gzip into ``app``, inside the guard's middlewares."""
    app.add_middleware(CacheHeaders)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MIN)
