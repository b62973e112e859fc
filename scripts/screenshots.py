"""Takes the screenshots in docs/ of each game page, in Debian's chromium, against a server of
this checkout with its real computer players: ``python scripts/screenshots.py [NAME ...]``
(no names: all of them). Each deal is seeded, so a refresh shows the same game unless the
page changed. Look at them before you commit them."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

from conftest import CHROMIUM, CHROMIUM_ARGS, running
from playwright.sync_api import sync_playwright

from parlour.games.slabberjan import Slabberjan
from parlour.live import Lobby
from parlour.web import create_app

DOCS = Path(__file__).parent.parent / "docs"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
SIDEWAYS = {**PHONE, "viewport": {"width": 844, "height": 390}}
LAPTOP = {"viewport": {"width": 1280, "height": 900}}
BAR = "(s) => document.getElementById('bar').textContent.startsWith(s)"


def slapjack(page: Any, url: str) -> None:
    page.goto(f"{url}/slapjack?seed=7")
    page.wait_for_function(BAR, arg="Your turn")
    for k in range(3):  # three rounds of flips, then the pile as it is
        page.keyboard.press("f")
        page.wait_for_function("(k) => Number(document.getElementById('pile').dataset.flips)"
                               " >= 2 * k + 2", arg=k, timeout=15000)
        page.wait_for_function(BAR, arg="Your turn", timeout=15000)
    page.wait_for_timeout(300)


def slabberjan(players: int) -> Callable[[Any, str], None]:
    # a deal whose dealer sits on our right: we move first
    seed = next(s for s in range(1000) if Slabberjan(players, seed=s).dealer == players - 1)

    def shoot(page: Any, url: str) -> None:
        page.goto(f"{url}/slabberjan?seed={seed}")
        page.wait_for_function("() => document.body.dataset.state === 'playing'")
        if players != 5:
            page.click("#players-button")
            page.click(f"[data-players='{players}']")
            if page.is_visible("dialog.ask[open]"):  # the computers had begun the first deal
                page.click("dialog.ask button[value=yes]")
            page.wait_for_function("(n) => document.querySelectorAll('.sj-seat').length === n",
                                   arg=players)
        page.wait_for_function(BAR, arg="Your turn", timeout=15000)
        page.wait_for_timeout(300)
    return shoot


def splunk(page: Any, url: str) -> None:
    page.goto(f"{url}/splunk?seed=3")
    page.wait_for_function("() => document.body.dataset.state === 'playing'")
    for i in range(3):
        page.wait_for_function(BAR, arg="Your turn", timeout=15000)
        page.keyboard.press(str(i + 1))
        page.wait_for_timeout(400)
    page.wait_for_function(BAR, arg="Your turn", timeout=15000)
    page.wait_for_timeout(300)


SHOTS: dict[str, tuple[dict[str, Any], Callable[[Any, str], None]]] = {
    "slapjack-desktop": (DESKTOP, slapjack),
    "slapjack-phone": (PHONE, slapjack),
    "slapjack-phone-sideways": (SIDEWAYS, slapjack),
    "slabberjan-desktop": (DESKTOP, slabberjan(5)),
    "slabberjan-phone": (PHONE, slabberjan(5)),
    "slabberjan-phone-sideways": (SIDEWAYS, slabberjan(5)),
    "slabberjan-30": (LAPTOP, slabberjan(30)),
    "slabberjan-12-sideways": (SIDEWAYS, slabberjan(12)),
    "slabberjan-16-sideways": (SIDEWAYS, slabberjan(16)),
    "slabberjan-42": (LAPTOP, slabberjan(42)),
    "slabberjan-42-phone": (PHONE, slabberjan(42)),
    "slabberjan-42-sideways": (SIDEWAYS, slabberjan(42)),
    "splunk-desktop": (DESKTOP, splunk),
    "splunk-phone": (PHONE, splunk),
    "splunk-phone-sideways": (SIDEWAYS, splunk),
}


def main(names: list[str]) -> int:
    out = DOCS
    if names[:1] == ["--out"]:  # a look before docs/ changes: --out DIR NAME...
        out, names = Path(names[1]), names[2:]
        out.mkdir(parents=True, exist_ok=True)
    unknown = [n for n in names if n not in SHOTS]
    if unknown:
        print(f"no such screenshot: {', '.join(unknown)} (there are: {', '.join(SHOTS)})")
        return 2
    with running(create_app(lobby=Lobby(tables_per_address=None))) as url, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name in names or list(SHOTS):
            size, shoot = SHOTS[name]
            context = browser.new_context(**size)
            shoot(context.new_page(), url)
            context.pages[0].screenshot(path=str(out / f"{name}.png"))
            context.close()
            print(out / f"{name}.png")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
