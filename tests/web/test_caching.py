"""What the server tells a browser about keeping its answers, and their compression: every
file a page names is named by its content's hash and kept for good; the modules those import
are checked before each use; pages are compressed and checked; a new release is never half
cached. The pages' own HTML is read for the URLs it names."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator

import httpx
import pytest
from conftest import running

from parlour.live import Lobby
from parlour.web import create_app
from parlour.web.pages import STATIC, asset, module, module_imports


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    with running(create_app(lobby=Lobby())) as url, httpx.Client(base_url=url) as c:
        yield c


def named(html: str) -> list[str]:
    """The static URLs a page names (scripts, styles, preloads, the icon)."""
    return re.findall(r'(?:src|href)="(/static/[^"]+)"', html)


@pytest.mark.parametrize("path", ["/", "/slapjack", "/slabberjan", "/splunk", "/table",
                                  "/rules/splunk"])
def test_pages_are_compressed_checked_before_use_and_name_versioned_files(
        client: httpx.Client, path: str) -> None:
    r = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200
    assert r.headers["content-encoding"] == "gzip"
    assert r.headers["cache-control"] == "no-cache"
    assert "Accept-Encoding" in r.headers["vary"]
    urls = named(r.text)
    assert urls
    for url in urls:
        file = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert file.status_code == 200, url
        if "?v=" in url:
            assert file.headers["cache-control"] == "public, max-age=31536000, immutable", url
        else:  # a module preloaded by its plain name, as its importers name it
            assert file.headers["cache-control"] == "no-cache", url
            assert file.headers["etag"], url
        if len(file.content) > 512 and url.split("?")[0].endswith((".js", ".css")):
            assert file.headers["content-encoding"] == "gzip", url


def test_a_file_is_versioned_by_its_contents_and_a_module_by_all_it_imports() -> None:
    body = (STATIC / "style.css").read_bytes()
    assert asset("style.css") == (
        f"/static/style.css?v={hashlib.sha256(body).hexdigest()[:10]}")
    digest = hashlib.sha256((STATIC / "slapjack.js").read_bytes())
    imports = module_imports("slapjack.js")
    assert "/static/lib/dom.js" in imports and "/static/slapjack/story.js" in imports
    for url in imports:
        digest.update((STATIC / url.removeprefix("/static/")).read_bytes())
    assert module("slapjack.js") == f"/static/slapjack.js?v={digest.hexdigest()[:10]}"


def test_a_stale_or_unknown_version_is_never_kept_for_good(client: httpx.Client) -> None:
    r = client.get("/static/style.css?v=0000000000")
    assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
    r = client.get("/static/lib/dom.js?v=" + module("slapjack.js").split("v=")[1])
    assert r.headers["cache-control"] == "no-cache"  # another file's version


def test_an_unchanged_module_is_not_sent_again(client: httpx.Client) -> None:
    first = client.get("/static/lib/dom.js")
    again = client.get("/static/lib/dom.js", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_json_is_compressed_and_errors_are_not_kept(client: httpx.Client) -> None:
    r = client.get("/api/games", headers={"Accept-Encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"
    assert r.headers["cache-control"] == "no-cache"
    missing = client.get("/no-such-page")
    assert missing.status_code == 404 and missing.headers["cache-control"] == "no-store"
    raw = client.get("/", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in raw.headers
    assert b"<!doctype html>" in raw.content
    packed = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert packed.content == raw.content  # the same page, once unpacked
