"""Every error code of the socket protocol, stated once: what it means (for developers and
``docs/protocol.md``, whose table of codes is this list) and the one sentence a person is
shown for it. The pages read the sentences from the server (each page with a script carries
:func:`for_pages` as JSON, which ``static/lib/errors.js`` reads), never the ``reason`` of an
``error`` message: that is for developers, and names seats by number.

``tests/web/test_codes.py`` checks that every code the server sends is here, that every code
here is sent, and that the protocol's table says the same.

>>> BY_CODE["taken"].sentence
'Someone else took that seat a moment ago.'
>>> BY_CODE["full"].said("sit"), BY_CODE["full"].said("watch")
('Every seat at this table is taken.', 'The server is full right now: try again in a minute.')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: A page's words for a code that has none of its own (and for a code it does not know).
SOMETHING_WRONG = "Something went wrong: reload the page if the table stops."


@dataclass(frozen=True)
class Code:
    """One error code: ``means`` is its cause, for developers; ``sentence`` what a page says
    for it, unless ``about`` has one for the type of the message refused."""

    code: str
    means: str
    sentence: str = SOMETHING_WRONG
    about: Mapping[str, str] = field(default_factory=dict)

    def said(self, about: str | None = None) -> str:
        """What a page says for this code, to a refused message of type ``about``."""
        return self.about.get(about or "", self.sentence)


#: Every code, in the order of the protocol's table.
CODES: tuple[Code, ...] = (
    Code("bad_json",
         "the frame is not JSON"),
    Code("bad_message",
         "not a JSON object with a string `type`, or a binary frame"),
    Code("too_big",
         "a frame over 4096 bytes of UTF-8 (bytes, not characters); a frame over 256 KiB is not "
         "read at all: the socket is closed with 1009"),
    Code("unknown_type",
         "a `type` not in the table above"),
    Code("bad_request",
         "a `start` or `create` the page does not offer (game, players, level, seed, options, a "
         'missing, blank or too long name, or one of invisible characters only ("that name is '
         'only invisible characters"); any `seed` in a `create`), a `sit` or `remove` at a seat '
         "that does not exist, a `speed` that is not a level, a `remove` of the host's own seat, "
         "an `action` whose `version` is not a whole number from 0",
         "Something went wrong: reload the page.",
         about={
             "start": "This game cannot be dealt with these settings: pick others.",
             "create": "A table cannot be created with these settings: check the seats and "
                       "options.",
             "sit": "Type a name of at most 24 letters to take a seat.",
             "speed": "That speed cannot be chosen.",
             "remove": "That seat cannot be freed.",
         }),
    Code("bad_token",
         "`resume` with an unknown or expired token, `join` with a token of another table",
         "This seat's link has expired: the game it was for is over or gone."),
    Code("no_table",
         "`action` before `start` or `resume`, or before the host started the table",
         "There is no game to play here yet."),
    Code("unknown_table",
         "`join`, `sit` or `watch` of a table that does not exist (or closed)",
         "This table does not exist any more: it closed when everybody left."),
    Code("taken",
         "`sit` at a seat someone has",
         "Someone else took that seat a moment ago."),
    Code("reserved_name",
         "`create` or `sit` with a name that would pass for one of the site's own words on a "
         'seat: "You", "Computer 3", "Player 2", "Open seat", "Free seat", "host", "dealer", '
         '"spectator", "nobody", a name with "(computer)" in it, compared as a *skeleton* '
         "(`parlour.live.names`: case, accents, fullwidth forms, spaces, signs and Cyrillic or "
         'Greek look-alike letters folded away, so "\uff39\uff2f\uff35", "Y o u" and '
         '"\u0421\u043emputer-3" are the same)',
         "That name is one the site uses for its own seats (such as You, Computer 2 or Open "
         "seat): choose another."),
    Code("same_name",
         "`sit` with a name that reads as that of a person already seated at the table (the same "
         "skeleton): two seats never show the same name",
         "Someone at this table already has that name: choose another."),
    Code("full",
         "`sit` when every seat is taken; `watch` or `join` (without a seat) at a table with 200 "
         "spectators and visitors (a `sit` is never refused for them); a server with 1000 tables "
         "in use",
         "The server is full right now: try again in a minute.",
         about={
             "sit": "Every seat at this table is taken.",
         }),
    Code("too_many_tables",
         "`start` or `create` from a client address that has 10 tables in use (a table counts "
         "once someone played at it or while a person is at it)",
         "You have too many tables open: finish or leave one, then try again."),
    Code("open_seat",
         "`remove` of a seat nobody sits at",
         "Nobody sits at that seat now."),
    Code("elsewhere",
         "your seat was taken up by another connection with its token (another device or tab, of "
         "the same kind: a game page or a waiting room); this connection no longer has the seat",
         "This seat is now played on another device or tab."),
    Code("removed",
         "the host gave your seat back to the table before the start; your token is refused from "
         "then on",
         "The host gave your seat back to the table."),
    Code("seated",
         "`sit` from a connection that already holds a seat",
         "You already have a seat at this table."),
    Code("started",
         "`sit`, `speed`, `begin` or `remove` after the start (watch instead)",
         "The game has started: you can watch it."),
    Code("not_host",
         "`speed`, `begin` or `remove` from a seat that is not the host's",
         "Only the host can do that."),
    Code("no_seat",
         "`speed`, `begin`, `rematch` or `react` from a connection without a seat",
         "Take a seat first."),
    Code("not_over",
         "`rematch` before the game is over",
         "The game is not over yet."),
    Code("no_reactions",
         "`react` at a table against the computer (nobody there to see it)"),
    Code("slow_down",
         "`react` less than 1.5 seconds after this seat's last reaction (dropped: nobody is sent "
         "it)"),
    Code("no_rematch",
         "`rematch` at a table against the computer (start a new game instead)",
         "Against the computer, press New game to play again."),
    Code("refused",
         "the rules refuse the action (not your turn, `at` beyond the flips made, malformed "
         "action, you are out, the game is over), or it repeats a slap of yours at the same "
         "target: one slap per target and seat, the target being the card (Slapjack: `at`) or the"
         " stack at a play (Splunk: `stack` and `at`), so a double tap or a flood costs one card "
         "at most, and a slap at another stack at the same play goes to the rules",
         "Not now: the game moved on before your move arrived."),
    Code("stale",
         "too late, not wrong: a Splunk `call` that arrives after a slap (or the other call) "
         "settled the play it meant (P5; a late slap is answered the same way by the rules, with "
         "a `slap_ignored` event); or an `action` this seat already sent at the same `version` (a "
         "double press: the table has it); nothing changed",
         "Too late: that play was settled before your move arrived."),
    Code("rate_limited",
         "more than 20 messages a second on average from this socket (bursts of 30 allowed), or "
         "more than 100 a second from all the sockets of one client address (bursts of 200): the "
         "excess is dropped before it is read as JSON, and this is sent at most once a second",
         "Easy there: too many moves at once."),
    Code("flooding",
         "50 more messages dropped in one flood (drops less than a second apart) after "
         "`rate_limited`: the socket is closed (1008), and its address opens no new socket for 5 "
         "seconds",
         "Too many moves at once: the page reconnects in a moment."),
    Code("too_many_connections",
         "sent on a new socket, which is then closed (1013, try again later): its client address "
         "has 32 sockets open, or 8 that are at no table (neither playing, holding a seat, "
         "watching nor in a waiting room)",
         "Too many pages of this site are open here: close some, then reload."),
    Code("busy",
         "sent on a new socket, which is then closed (1013): the server has 10000 sockets open",
         "The server is busy: the page tries again in a moment."),
    Code("unavailable",
         "the game could not be stored just now (the database did not answer): the table leaves "
         "memory, to come back from the store as it was before that action"),
    Code("closed",
         "an `action` at a table that has just closed (put away, or its game could not be stored)"
         " before the connection was told"),
    Code("internal",
         "a bug on the server; the connection and the table carry on"),
)

BY_CODE: Mapping[str, Code] = {c.code: c for c in CODES}


def for_pages() -> dict[str, Any]:
    """What a page needs to word an ``error``: each code's sentence, the sentences by the
    type of the message refused, and the sentence for any other code."""
    return {"sentences": {c.code: c.sentence for c in CODES},
            "about": {c.code: dict(c.about) for c in CODES if c.about},
            "otherwise": SOMETHING_WRONG}


def table() -> str:
    """The protocol's table of codes (``docs/protocol.md``), in Markdown."""
    rows = [f"| `{c.code}` | {c.means} |" for c in CODES]
    return "\n".join(["| code | cause |", "| --- | --- |", *rows])
