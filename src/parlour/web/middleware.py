"""The shape every one of the site's ASGI middlewares that looks at answers shares."""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class SendFilter:
    """An ASGI middleware that sees each message the app sends in answer to a request of a
    type in :attr:`scopes` (:meth:`sending`, which passes it on, changed or not, or holds
    it back), and lets every other request through untouched."""

    scopes: ClassVar[tuple[str, ...]] = ("http",)

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in self.scopes:
            await self.app(scope, receive, send)
            return
        await self.app(scope, receive, partial(self.sending, scope, send))

    async def sending(self, scope: Scope, send: Send, message: Message) -> None:
        await send(message)
