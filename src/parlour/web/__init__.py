"""The web front end: a FastAPI app over the live tables of :mod:`parlour.live`."""

from parlour.web.app import Limits, create_app

__all__ = ["Limits", "create_app"]
