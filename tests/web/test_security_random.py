"""Unpredictable deals (docs/security.md): at a live table every chance outcome (deals, the
shuffle of a taken pile, the first player or dealer) and every computer player's choice come
from the operating system's generator, never from a seed a watcher could search for; a
seeded game ("play this deal again") exists against the computer only and says so; records
still replay, as they hold every chance outcome."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import websockets
from conftest import FAST_PACING, command, running

from parlour.bots.base import ComputerPlayer
from parlour.games import GAMES, replay
from parlour.live import Lobby
from parlour.live.caps import Metered
from parlour.web import create_app


def computers(lobby: Lobby, table: str) -> list[ComputerPlayer[Any]]:
    room = lobby.room(table)
    assert room.table is not None
    players = list(room.table.computers.values())
    return [p.player if isinstance(p, Metered) else p for p in players]


async def test_a_live_table_draws_every_chance_outcome_from_the_os() -> None:
    lobby = Lobby(tables_per_address=None)
    for game, spec in ((name, cls.spec) for name, cls in GAMES.items()):
        players = spec.seats[1] if game != "slabberjan" else 6
        seating = lobby.open(command(type="start", game=game, players=players, level="hard",
                                     options={"free_choice": True} if game == "slabberjan"
                                     else {}))
        live = seating.room.game
        assert live.seed is None and live.record()["seed"] is None
        assert type(live.chance.rng) is random.SystemRandom
        bots = computers(lobby, seating.table_id)
        assert len(bots) == players - 1
        assert all(type(bot.rng) is random.SystemRandom for bot in bots)
        assert not seating.room.seeded and seating.welcome()["seeded"] is False
    lobby.close()


async def test_two_live_tables_never_share_a_deal() -> None:
    lobby = Lobby(tables_per_address=None)
    deals = set()
    for _ in range(300):
        seating = lobby.open(command(type="start", game="slapjack", players=2))
        deals.add(tuple(seating.room.game.chance.used_decks[0]))
        lobby.leave(seating.token)
    assert len(deals) == 300 and len(lobby) == 0
    first = set()  # Splunk's first player is a chance outcome too: both seats come up
    for _ in range(40):
        seating = lobby.open(command(type="start", game="splunk"))
        first.add(seating.room.game.options["first"])
        lobby.leave(seating.token)
    assert first == {0, 1}


async def test_a_live_game_replays_from_its_record_though_it_had_no_seed() -> None:
    lobby = Lobby(tables_per_address=None)
    seating = lobby.open(command(type="start", game="slapjack", players=3))
    game = seating.room.game
    for _ in range(40):  # the person flips when it is their turn; computers' moves are theirs
        legal = game.legal_actions(0)
        if not legal:
            break
        game.apply(legal[0])
    record = json.loads(json.dumps(game.record()))
    again = replay(record)
    assert [e.public() for e in again.events] == [e.public() for e in game.events]
    lobby.close()


async def first_flip(url: str, **start: Any) -> tuple[dict[str, Any], str]:
    async with websockets.connect(url.replace("http", "ws") + "/ws") as ws:
        await ws.send(json.dumps({"type": "start", "game": "slapjack", "players": 2, **start}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
        json.loads(await asyncio.wait_for(ws.recv(), 5))  # state
        await ws.send(json.dumps({"type": "action", "action": {"type": "flip"}}))
        events = json.loads(await asyncio.wait_for(ws.recv(), 5))
        card: str = events["events"][0]["card"]
        return welcome, card


async def test_a_seeded_game_is_marked_as_seeded_and_deals_again_card_for_card() -> None:
    with running(create_app(lobby=Lobby(pacing=FAST_PACING))) as url:
        seeded = [await first_flip(url, seed=7) for _ in range(3)]
        assert all(w["seeded"] is True for w, _ in seeded)
        assert len({card for _, card in seeded}) == 1  # "play this deal again"
        unseeded = [await first_flip(url) for _ in range(6)]
        assert all(w["seeded"] is False for w, _ in unseeded)
        assert len({card for _, card in unseeded}) > 1
        assert all("seed" not in json.dumps(w["options"]) for w, _ in unseeded)


async def test_nobody_chooses_the_deal_of_a_table_with_friends() -> None:
    with running(create_app(lobby=Lobby(pacing=FAST_PACING))) as url:
        async with websockets.connect(url.replace("http", "ws") + "/ws") as ws:
            await ws.send(json.dumps({"type": "create", "game": "splunk", "name": "Ann",
                                      "seed": 7}))
            refused = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert (refused["code"], refused["about"]) == ("bad_request", "create")
            assert "dealt at random" in refused["reason"]
