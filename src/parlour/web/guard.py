"""What the server does before any page or socket sees a request: the site's own hosts and
origins only, security headers on every response, ``HEAD`` wherever ``GET`` answers, and
no seat token in a log. (The sockets and messages per address: :mod:`parlour.web.gate`,
whose :class:`Gate` and :class:`TokenBucket` are importable from here too.)

Every piece is a plain ASGI middleware (no per-request task or body copy), wired once by
:func:`protect`, outermost first:

- :class:`SecurityHeaders`: a Content-Security-Policy that allows the site's own scripts,
  styles, images and socket only (no inline script, no framing), ``nosniff`` and
  ``Referrer-Policy: no-referrer`` (a page's address, which may hold a seat token, never
  leaves in a ``Referer``), on every HTTP response: pages, static files, the API, errors,
  and the refusals of the middlewares below.
- :class:`HeadAsGet`: a ``HEAD`` request is answered as its ``GET`` would be, without body.
- Starlette's :class:`~starlette.middleware.trustedhost.TrustedHostMiddleware`: a request
  whose ``Host`` is not one of the configured names gets 400 (DNS rebinding: a foreign
  name pointed at this machine reaches nothing).
- :class:`SameOrigin`: a WebSocket opened by a page of another site (its ``Origin`` is not
  this site's, nor one configured) is refused before it is accepted (HTTP 403, as is a
  socket to a host name not served: :class:`BareDenials`). A client
  that is not a browser sends no ``Origin`` and is let through: the check protects a
  browser's user from other sites' pages, not the server from clients.

>>> same_origin("http://127.0.0.1:8000", "127.0.0.1:8000", ())
True
>>> same_origin("http://evil.example", "127.0.0.1:8000", ())
False
>>> same_origin("https://cards.example.org", "10.0.0.5:8000", ("https://cards.example.org",))
True
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parlour.web.gate import Gate as Gate
from parlour.web.gate import TokenBucket as TokenBucket
from parlour.web.middleware import SendFilter

#: The Content-Security-Policy of every response: the site's own resources only.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
#: Every HTTP response carries these.
HEADERS: dict[str, str] = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
#: Host names a server answers to unless told more (``parlour serve --allowed-host``).
DEFAULT_HOSTS: tuple[str, ...] = ("127.0.0.1", "localhost", "[::1]")


@dataclass(frozen=True)
class Site:
    """Who the site is: the host names it answers to, and the origins (besides its own)
    whose pages may open its socket (``https://cards.example.org`` behind a proxy)."""

    hosts: tuple[str, ...] = DEFAULT_HOSTS
    origins: tuple[str, ...] = ()

    @classmethod
    def of(cls, hosts: Iterable[str] = (), origins: Iterable[str] = ()) -> Site:
        """The default hosts plus ``hosts``; ``origins`` as given, normalised. A host that
        is not a name, or an origin that is not ``http(s)://host[:port]``, is a
        :class:`ValueError` saying which.

        >>> Site.of(["http://cards.example.org"])
        Traceback (most recent call last):
        ...
        ValueError: 'http://cards.example.org' is not a host name (give the name alone: ...)
        """
        extra = tuple(h.strip().lower() for h in hosts if h.strip())
        for host in extra:
            if "/" in host or "@" in host:
                name = urlsplit(host).hostname if "//" in host else None
                raise ValueError(f"{host!r} is not a host name"
                                 + (f" (give the name alone: {name})" if name else ""))
        return cls(tuple(dict.fromkeys(DEFAULT_HOSTS + extra)),
                   tuple(normal_origin(o) for o in origins if o.strip()))


    @classmethod
    def only(cls, address: str) -> Site:
        """A site reached by ``address`` alone (``parlour serve --lan``): neither 127.0.0.1
        nor localhost, nor any other name; its socket opens to its own pages only.

        >>> Site.only("192.168.1.20"), Site.only("fd12::7").hosts
        (Site(hosts=('192.168.1.20',), origins=()), ('[fd12::7]',))
        """
        return cls((f"[{address}]" if ":" in address else address,), ())


def normal_origin(origin: str) -> str:
    """``scheme://host[:port]`` in lower case, without a default port or a trailing slash.

    >>> normal_origin("HTTPS://Cards.Example.org:443/")
    'https://cards.example.org'
    """
    parts = urlsplit(origin.strip().lower())
    netloc = parts.netloc
    try:
        port = parts.port
    except ValueError:  # not a number, or out of range
        port = -1
    if (parts.scheme not in ("http", "https") or not parts.hostname or port == -1
            or parts.path not in ("", "/") or parts.query or parts.fragment):
        raise ValueError(f"{origin!r} is not an origin (http:// or https://, a host name and "
                         "perhaps a port, as https://cards.example.org)")
    if (parts.scheme, port) in (("http", 80), ("https", 443)):
        netloc = netloc.rsplit(":", 1)[0]
    return f"{parts.scheme}://{netloc}"


def same_origin(origin: str, host: str | None, allowed: Sequence[str], *,
                secure: bool = False) -> bool:
    """Whether a page at ``origin`` belongs to the site that ``host`` (the request's
    ``Host`` header) names over http (``secure``: https), or is one of the ``allowed``
    origins."""
    try:
        mine = normal_origin(origin)
    except ValueError:
        return False
    if mine in allowed:
        return True
    if host is None:
        return False
    try:
        own = normal_origin(f"{'https' if secure else 'http'}://{host}")
    except ValueError:
        return False
    return mine == own


class SecurityHeaders(SendFilter):
    """Adds :data:`HEADERS` to every HTTP response (and to a refused socket's answer)."""

    scopes = ("http", "websocket")

    async def sending(self, scope: Scope, send: Send, message: Message) -> None:
        if message["type"] in ("http.response.start", "websocket.http.response.start"):
            headers = MutableHeaders(scope=message)
            for name, value in HEADERS.items():
                headers[name] = value
        await send(message)


class HeadAsGet:
    """``HEAD`` on any route that answers ``GET``: the same status and headers, no body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return  # the rest follows; only the last (empty) part is sent
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_without_body)


class SameOrigin:
    """Refuses a WebSocket whose ``Origin`` is another site's (see the module docstring)."""

    def __init__(self, app: ASGIApp, origins: Sequence[str] = ()) -> None:
        self.app = app
        self.origins = tuple(origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            headers = Headers(scope=scope)
            origin = headers.get("origin")
            secure = scope.get("scheme") == "wss"
            if origin is not None and not same_origin(origin, headers.get("host"),
                                                      self.origins, secure=secure):
                await send({"type": "websocket.close", "code": 1008})  # HTTP 403
                return
        await self.app(scope, receive, send)


class BareDenials(SendFilter):
    """A socket refused before its handshake gets uvicorn's bare 403, not a response with a
    body: uvicorn's default socket implementation logs an error for every denial response
    (https://github.com/Kludex/uvicorn/pull/3138), and a log line per refusal is a lever.
    """

    scopes = ("websocket",)

    async def sending(self, scope: Scope, send: Send, message: Message) -> None:
        kind = message["type"]
        if kind == "websocket.http.response.start":
            await send({"type": "websocket.close", "code": 1008})
        elif kind != "websocket.http.response.body":
            await send(message)


def protect(app: Any, site: Site) -> None:
    """Wires the middlewares of this module into ``app`` (a Starlette or FastAPI app)."""
    # add_middleware puts each one outside those added before it: innermost first
    app.add_middleware(SameOrigin, origins=site.origins)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(site.hosts), www_redirect=False)
    app.add_middleware(BareDenials)
    app.add_middleware(HeadAsGet)
    app.add_middleware(SecurityHeaders)
    redact_logs()


# -- logs ------------------------------------------------------------------------------------

class NoQueryStrings(logging.Filter):
    """Cuts the query string off every path in uvicorn's log lines: a game page's address
    may hold a seat token (``/slapjack?token=...``), and a log is no place for it.

    >>> record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0,
    ...     '%s - "%s %s HTTP/%s" %d', ("1.2.3.4:5", "GET", "/slapjack?token=abc", "1.1", 200),
    ...     None)
    >>> NoQueryStrings().filter(record), record.getMessage()
    (True, '1.2.3.4:5 - "GET /slapjack?… HTTP/1.1" 200')
    """

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and args:
            record.args = tuple(_no_query(a) for a in args)
        return True


def _no_query(value: object) -> object:
    if isinstance(value, str) and value.startswith("/") and "?" in value:
        return value.split("?", 1)[0] + "?…"
    return value


_REDACTED = ("uvicorn.access", "uvicorn.error")


def redact_logs() -> None:
    """Puts :class:`NoQueryStrings` on uvicorn's loggers (once)."""
    for name in _REDACTED:
        logger = logging.getLogger(name)
        if not any(isinstance(f, NoQueryStrings) for f in logger.filters):
            logger.addFilter(NoQueryStrings())
