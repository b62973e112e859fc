"""The error codes are one list (``parlour.live.codes``): every code the server sends is in
it and every code in it is sent, found by reading the source with ``ast``; the protocol's
table of codes is that list; the pages word an error from the list the server gives them
(as JSON data in the page) and hold no copy of their own."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from conftest import ROOT, running

import parlour
from parlour.live import Lobby, codes
from parlour.web import create_app

SRC = Path(parlour.__file__).parent
STATIC = SRC / "web" / "static"
DOCS = ROOT / "docs" / "protocol.md"

#: What a code looks like: the strings passed where one goes that are not codes are words.
LOOKS_LIKE_A_CODE = re.compile(r"[a-z]+(?:_[a-z]+)*")


def _str_annotation(arg: ast.arg) -> bool:
    return arg.annotation is not None and ast.unparse(arg.annotation) in ("str", "str | None")


def code_parameters(trees: dict[Path, ast.Module]) -> dict[str, set[int]]:
    """Each function, method or class (by its ``__init__``) that takes a ``code: str``: its
    name and where that argument stands among those a call passes."""
    found: dict[str, set[int]] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            classes = [node] if isinstance(node, ast.ClassDef) else []
            for cls in classes:
                for item in cls.body:
                    if isinstance(item, ast.FunctionDef):
                        params = item.args.posonlyargs + item.args.args
                        for i, arg in enumerate(params):
                            if arg.arg == "code" and _str_annotation(arg):
                                name = cls.name if item.name == "__init__" else item.name
                                found.setdefault(name, set()).add(i - 1)  # after self
            if isinstance(node, ast.FunctionDef):
                params = node.args.posonlyargs + node.args.args
                for i, arg in enumerate(params):
                    if arg.arg == "code" and _str_annotation(arg):
                        shift = 1 if params and params[0].arg in ("self", "cls") else 0
                        found.setdefault(node.name, set()).add(i - shift)
    return found


def _literals(node: ast.AST) -> Iterator[str]:
    """The string constants an argument can be (``"a" if x else "b"`` is both)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)


def _called(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def server_source() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text("utf-8")) for path in sorted(SRC.rglob("*.py"))}


def sent_codes(trees: dict[Path, ast.Module]) -> dict[str, list[str]]:
    """Every error code literal in ``trees``, with where it stands: an argument ``code`` (by
    keyword or by place) of anything that takes a ``code: str``, that parameter's default,
    and the ``(code, reason)`` a function returns as its refusal (``-> tuple[str, str] |
    None``, the gate's ``admit``)."""
    takes = code_parameters(trees)
    found: dict[str, list[str]] = {}

    def note(value: str, path: Path, node: ast.AST) -> None:
        if LOOKS_LIKE_A_CODE.fullmatch(value):
            where = f"{path.name}:{getattr(node, 'lineno', 0)}"
            found.setdefault(value, []).append(where)

    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called(node) in takes:
                for place in takes[_called(node) or ""]:
                    if 0 <= place < len(node.args):
                        for value in _literals(node.args[place]):
                            note(value, path, node)
                for keyword in node.keywords:
                    if keyword.arg == "code":
                        for value in _literals(keyword.value):
                            note(value, path, node)
            elif isinstance(node, ast.FunctionDef):
                params = node.args.posonlyargs + node.args.args
                defaults = dict(zip(params[len(params) - len(node.args.defaults):],
                                    node.args.defaults, strict=True))
                for arg, default in defaults.items():
                    if arg.arg == "code" and _str_annotation(arg):
                        for value in _literals(default):
                            note(value, path, node)
                returns = node.returns and ast.unparse(node.returns)
                if returns == "tuple[str, str] | None":
                    for inner in ast.walk(node):
                        if (isinstance(inner, ast.Return) and isinstance(inner.value, ast.Tuple)
                                and inner.value.elts):
                            for value in _literals(inner.value.elts[0]):
                                note(value, path, inner)
    return found


def test_every_code_the_server_sends_is_in_the_list() -> None:
    sent = sent_codes(server_source())
    unknown = {code: where for code, where in sent.items() if code not in codes.BY_CODE}
    assert unknown == {}, "add these to parlour.live.codes (and docs/protocol.md)"


def test_every_code_in_the_list_is_sent_somewhere() -> None:
    """The other way round: no code is listed that nothing sends (and the scan above sees
    every way the server names one)."""
    sent = sent_codes(server_source())
    assert [c.code for c in codes.CODES if c.code not in sent] == []
    assert {"bad_request", "busy", "removed", "internal"} <= sent.keys()  # default, tuple, ...


SOME_SERVER = """
class Refused(ValueError):
    def __init__(self, reason: str, code: str = "bad_default", about: str | None = None): ...

class Link:
    def error(self, code: str, reason: str) -> None: ...

def admit(address: str) -> tuple[str, str] | None:
    return ("by_tuple", "too many")

def cli_error(message: str) -> None: ...

def handle(link: Link, ok: bool) -> None:
    link.error("by_place", "a reason")
    link.error(reason="a reason", code="by_keyword")
    cli_error("not_a_code")
    raise Refused("no", "by_if" if ok else "by_else")
"""


def test_the_scan_finds_a_code_wherever_the_server_would_name_one() -> None:
    sent = sent_codes({Path("some.py"): ast.parse(SOME_SERVER)})
    assert sorted(sent) == ["bad_default", "by_else", "by_if", "by_keyword", "by_place",
                            "by_tuple"]
    assert sent["by_place"] == ["some.py:14"]


def test_the_codes_the_pages_test_for_are_in_the_list() -> None:
    compared = {code for path in STATIC.rglob("*.js")
                for code in re.findall(r'\bm\.code\s*[!=]==?\s*"(\w+)"',
                                       path.read_text("utf-8"))}
    assert compared, "the pages compare codes as m.code === \"...\""
    assert sorted(compared - codes.BY_CODE.keys()) == []


def test_the_protocol_table_of_codes_is_the_list() -> None:
    doc = DOCS.read_text("utf-8")
    start = doc.index("| code | cause |")
    end = doc.index("\n\n", start)
    assert doc[start:end] == codes.table()


def test_each_code_says_one_sentence_for_people() -> None:
    assert len(codes.BY_CODE) == len(codes.CODES)
    for code in codes.CODES:
        for said in (code.sentence, *code.about.values()):
            assert said[0].isupper() and said.endswith("."), code.code
            assert not re.search(r"\bseat \d|`|'\w+'", said), code.code  # words for developers


def test_the_pages_hold_no_copy_of_the_sentences() -> None:
    sentences = {s for c in codes.CODES for s in (c.sentence, *c.about.values())}
    copies = {(path.name, s) for path in STATIC.rglob("*.js")
              for s in sentences if s in path.read_text("utf-8")}
    assert sorted(copies) == []


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    with running(create_app(lobby=Lobby())) as url, httpx.Client(base_url=url) as c:
        yield c


@pytest.mark.parametrize("path", ["/slapjack", "/splunk", "/slabberjan", "/table"])
def test_each_game_page_carries_the_sentences_as_data(client: httpx.Client, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200
    found = re.findall(r'<script type="application/json" id="error-sentences">(.*?)</script>',
                       answer.text, re.S)
    assert len(found) == 1
    assert json.loads(found[0]) == codes.for_pages()
    assert "'unsafe-inline'" not in answer.headers["content-security-policy"]
