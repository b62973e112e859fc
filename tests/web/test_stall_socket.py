"""Issue 22's cheat over the real socket, for every game: a client that sends stale and
refused actions as fast as the connection's limits allow changes no computer player's
timing and no race's result. The same seeded game is played twice by one scripted person,
once quiet and once with the noise; the computers are asked the same questions and give
the same answers, and the game is the same game (the records are the same once the
person's slaps, which the rules ignored, are left out).

The computer players are the real ones, on their real decisions, at a faster tempo (every
delay scaled) so that a game's first 50 moves take seconds; nothing they do depends on
how fast the person answers (see :class:`Steady`), so the two runs must agree exactly.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest
import websockets
from conftest import running

from parlour.bots import make_player
from parlour.bots.base import AnyPlayer, ComputerPlayer, Decision
from parlour.games import GAMES
from parlour.live import Lobby
from parlour.web import Limits, create_app

#: the moves of each game compared (the person's own moves included, its slaps not)
MOVES = 50
#: the noise: one message every this many seconds, within the limit of 20 a second that
#: the person's own moves share (docs/protocol.md)
NOISE_EVERY = 1 / (Limits().rate or 20.0) * 1.25


class Steady(ComputerPlayer[Any]):
    """A real computer player whose every delay is ``scale`` times its own, and which never
    misses or slaps wrongly (so no race depends on how fast the scripted person is);
    keeps every answer it gives."""

    def __init__(self, inner: AnyPlayer, scale: float) -> None:
        super().__init__(inner.seat, level=inner.level, seed=0)
        self.inner, self.game, self.rng, self.scale = inner, inner.game, inner.rng, scale
        profile = getattr(inner, "profile", None)
        if profile is not None:
            misses = {k: 0.0 for k in ("jack_miss", "wrong_face", "wrong_other", "slap_miss",
                                       "wrong_slap") if hasattr(profile, k)}
            inner.profile = replace(profile, **misses)  # type: ignore[attr-defined]
        self.answers: list[Decision | None] = []

    def decide(self, view: Any, events: Sequence[dict[str, Any]]) -> Decision | None:
        answer = self.inner.decide(view, events)
        self.answers.append(answer)
        return None if answer is None else Decision(answer.action, answer.delay * self.scale)


SCALE = {"slapjack": 0.4, "splunk": 0.3, "slabberjan": 0.1}


class Person:
    """The scripted person of one game: what it does on each message (``move``), and the
    noise it sends meanwhile (``noise``)."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.ticks = 0
        self.done: set[Any] = set()

    def move(self, view: dict[str, Any]) -> tuple[float, dict[str, Any]] | None:
        """(after how long, the action), or ``None``."""
        if view["winner"] is not None:
            return None
        if self.game == "slapjack":
            if view["slappable"]:  # slow: every race is the computer's (1 s after)
                return self._once(("slap", view["flips"]), 1.0,
                                  {"type": "slap", "at": view["flips"]})
            if view["turn"] == 0:
                return self._once(("flip", view["flips"]), 0.0, {"type": "flip"})
            return None
        if self.game == "splunk":
            if view["turn"] != 0 or view["slap_open"] is not None:
                return None  # a slap open: the computer's to take
            totals = [(s["up_total"], i) for i, s in enumerate(view["stacks"])]
            return self._once(("play", view["plays"]), 0.0,
                              {"type": "play", "stack": min(totals)[1]})
        if view["turn"] == 0 and view["legal"]:
            key = (view["round"], view["deal"], view["phase"], len(view["learned"]))
            return self._once(key, 0.0, view["legal"][0])
        return None

    def _once(self, key: Any, after: float, action: dict[str, Any]
              ) -> tuple[float, dict[str, Any]] | None:
        if key in self.done:
            return None
        self.done.add(key)
        return after, action

    def noise(self, view: dict[str, Any]) -> dict[str, Any]:
        """A stale slap (at one of the two cards before the latest, in turn, so never the
        same twice in a row), or one the rules refuse (at a card not played yet)."""
        self.ticks += 1
        if self.game == "slabberjan":
            return {"type": "swap"}  # never the person's turn when the noise is sent
        at_field = "flips" if self.game == "slapjack" else "plays"
        at = view[at_field] - 1 - self.ticks % 2
        if self.ticks % 3 == 0 or at < 0:
            at = 999
        return {"type": "slap", "at": at, **({"stack": 0} if self.game == "splunk" else {})}


def players_for(kept: list[Steady]) -> Callable[..., AnyPlayer]:
    def make(game: str, level: str, seat: int, *, seed: int | None = None) -> AnyPlayer:
        player = Steady(make_player(game, level, seat, seed=seed), SCALE[game])
        kept.append(player)
        return player

    return make


async def play(url: str, game: str, players: int, seed: int, noisy: bool) -> str:
    """Plays the scripted person until ``MOVES`` moves or the end; the table's id."""
    person = Person(game)
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "start", "game": game, "players": players,
                                  "level": "hard", "seed": seed}))
        table = ""
        view: dict[str, Any] | None = None
        moves = 0
        loop = asyncio.get_running_loop()

        async def later(after: float, action: dict[str, Any]) -> None:
            await asyncio.sleep(after)
            await ws.send(json.dumps({"type": "action", "action": action}))

        async def noise() -> None:
            while True:
                await asyncio.sleep(NOISE_EVERY)
                if view is not None and (game != "slabberjan" or view["turn"] != 0):
                    await ws.send(json.dumps({"type": "action",
                                              "action": person.noise(view)}))

        tasks = [loop.create_task(noise())] if noisy else []
        deadline = loop.time() + 60  # bounded, far beyond what 50 moves take
        try:
            while moves < MOVES and loop.time() < deadline:
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if message["type"] == "welcome":
                    table = message["table"]
                if message["type"] == "error":
                    assert message["code"] in ("refused", "stale"), message  # never limited
                if "view" not in message:
                    continue
                view = message["view"]
                moves += sum(e["type"] in ("flip", "play", "call", "swap", "stand", "draw",
                                           "slap", "take", "win")
                             for e in message.get("events", ()))
                if view["winner"] is not None:
                    break
                step = person.move(view)
                if step is not None:
                    tasks.append(loop.create_task(later(*step)))
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, websockets.ConnectionClosed):
                    await task
    return table


def without_person_slaps(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [a for a in actions if not (a["player"] == 0 and a["type"] == "slap")]


@pytest.mark.parametrize(("game", "players"), [("slapjack", 2), ("splunk", 2),
                                               ("slabberjan", 3)])
async def test_noise_at_the_highest_rate_changes_no_computer_and_no_race(
        game: str, players: int) -> None:
    runs: list[tuple[list[dict[str, Any]], list[list[Decision | None]]]] = []
    pacing = {name: replace(cls.spec.pacing, pause={"hard": 0.3}) for name, cls in GAMES.items()}
    for noisy in (False, True):
        kept: list[Steady] = []
        lobby = Lobby(players=players_for(kept), pacing=pacing)
        with running(create_app(lobby=lobby)) as http:
            table = await play(http.replace("http", "ws") + "/ws", game, players, 7, noisy)
            record = lobby.room(table).game.record()
        runs.append((record["actions"], [p.answers for p in kept]))
    (quiet, asked_quiet), (noisy_actions, asked_noisy) = runs
    noise = len(noisy_actions) - len(quiet)
    assert game == "slabberjan" or noise > 20  # stale slaps were applied, and ignored
    n = min(len(without_person_slaps(quiet)), len(without_person_slaps(noisy_actions)))
    assert n >= 15
    assert without_person_slaps(noisy_actions)[:n] == without_person_slaps(quiet)[:n]
    # every computer was asked the same questions and gave the same answers (the noisy run
    # may have gone a few moves further)
    for quiet_answers, noisy_answers in zip(asked_quiet, asked_noisy, strict=True):
        k = min(len(quiet_answers), len(noisy_answers))
        assert k > 5 and noisy_answers[:k] == quiet_answers[:k]
    if game != "slabberjan":  # the computer won the slap races, every one
        computer_slaps = [a for a in quiet if a["type"] == "slap" and a["player"] != 0]
        assert computer_slaps
