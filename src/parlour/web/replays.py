"""Finished games as the replay page reads them: the record, and each step as a spectator saw
it.

Only a finished game is served: the record of a game in play holds every hidden card (the
deck order), so for one still in play the answer is 404 with the reason, whoever asks.
"""

from __future__ import annotations

from typing import Any

from parlour.engine import GameError
from parlour.games import dealt
from parlour.store import Store

#: Most steps one ``steps.json`` answer holds.
STEPS_MAX = 500


class NotServed(LookupError):
    """There is no finished game to show; the message says why, for a person."""


def finished_record(store: Store, table_id: str) -> dict[str, Any]:
    """The record of the finished game ``table_id`` (``shared/spec/records.md``)."""
    table = store.table(table_id)
    if table is None:
        raise NotServed("there is no game with that id")
    if table.phase != "finished":
        raise NotServed("that game is not over: its record is shown once it ends")
    record = table.record()
    record["table"] = table_id
    record["outcome"] = table.outcome
    record["seats"] = [{"name": seat.name, "kind": seat.kind} for seat in table.seats]
    record["finished"] = table.finished
    record["times"] = table.times
    try:  # what the replay reveals at its end: each seat's cards as dealt, from the game
        record["dealt"] = dealt(table.game, table.players, table.options, table.decks,
                                table.shuffles).hands_dealt()
    except GameError:
        record["dealt"] = None
    return record


def steps(record: dict[str, Any], first: int = 0, count: int = STEPS_MAX) -> dict[str, Any]:
    """Steps ``first`` to ``first + count - 1`` of a finished game: step 0 is the deal, step
    ``k`` the game after its ``k``-th action; each is the public view with the public
    events of that step (what a spectator was told), the last one with the outcome."""
    if first < 0 or not 1 <= count <= STEPS_MAX:
        raise NotServed(f"ask for 1 to {STEPS_MAX} steps from step 0 on")
    try:
        game = dealt(record["game"], record["players"], record["options"], record["decks"],
                     record["shuffles"])
    except GameError as exc:
        raise NotServed(f"this game cannot be shown ({exc})") from None
    actions = record["actions"]
    total = len(actions) + 1
    out: list[dict[str, Any]] = []
    events = [e.public() for e in game.events]
    last = min(total, first + count)
    for step in range(last):
        if step > 0:
            events = [e.public() for e in game.apply_json(actions[step - 1])]
        if step >= first:
            out.append({"step": step, "events": events, "view": game.view(None)})
    return {"table": record.get("table"), "game": record["game"], "total": total,
            "first": first, "steps": out}
