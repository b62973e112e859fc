"""A modelled person: a player of the race games who reacts like a person of a given speed.

It measures the computer players against people (``docs/bots.md``): the arena and
``parlour simulate --bots hard,person:400`` seat it like any computer player.

A person is four numbers, written ``person:MEAN[:SD[:MISS[:WRONG]]]``:

- ``MEAN``, ``SD``: the mean and standard deviation of the person's choice reaction time to
  a card, in milliseconds (an ``ms`` suffix is allowed). The reaction times are log-normal
  with exactly that mean and standard deviation (a log-normal, like the ex-Gaussian, is a
  standard shape for human reaction times: a floor-less bell with a long slow tail).
  Measured choice reactions to a card are roughly 350 to 500 ms for most adults and 250 to
  300 ms for the quickest. The default ``SD`` is a fifth of the mean.
- ``MISS``: the chance of not slapping a card that may be slapped (a Jack; a Splunk pair,
  sandwich or joker). Default 0.05.
- ``WRONG``: the chance of slapping, by mistake, a card that may not be slapped. Default
  0.01 per card.
- ``@LAG`` (optional, after the numbers): the person's network delay each way, in
  milliseconds: ``person:500@50``. Every card reaches them that much later and every move
  comes back that much later, so on the scheduler of ``parlour simulate`` (which settles
  races in order of arrival) each of their moves is ``2 * LAG`` later: what a table
  without the live server's compensation would give. The live table's compensation
  (:mod:`parlour.live.lag`) is measured on its own code by ``bench/bench_lag.py``.

Everything that is not a race (when to flip, where to play a Splunk card, whether to call)
it does as the Normal computer player does, with Normal's thinking times: the person model
is about hands, not judgement. Like every player it draws from its own seeded
``random.Random``, so a seed gives the same person, reaction for reaction. It plays only the
race games: Slabberjan has no race.

>>> person = parse_person("person:400")
>>> person
Person(mean=0.4, sd=0.08, miss=0.05, wrong=0.01, lag=0.0)
>>> person.name
'person:400'
>>> parse_person("person:450ms:60:0.1:0").name
'person:450:60:0.1:0'
>>> parse_person("person:500@50ms")
Person(mean=0.5, sd=0.1, miss=0.05, wrong=0.01, lag=0.05)
>>> parse_person("person:500@50").name
'person:500@50'
>>> parse_person("person:fast")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: bad person 'person:fast': MEAN must be a number of milliseconds (person:MEAN...)

Each race game's bots module seats it (``PERSON``: ``SlapjackPerson``, ``SplunkPerson``);
:func:`parlour.bots.make_person` finds it there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from parlour.bots.base import Decision, ReactionTime

__all__ = ["PERSON", "Person", "is_person", "parse_person"]

#: The prefix that names a modelled person among computer players' levels.
PERSON = "person"
SYNTAX = "person:MEAN[:SD[:MISS[:WRONG]]][@LAG], e.g. person:400 or person:500@50"
DEFAULT_SD_SHARE = 0.2
DEFAULT_MISS = 0.05
DEFAULT_WRONG = 0.01


def _fmt(x: float) -> str:
    return f"{x:g}"


@dataclass(frozen=True, slots=True)
class Person:
    """A person's hands: reaction time (seconds; mean and standard deviation), the chance of
    missing a slap and the chance of a wrong slap on each card that may not be slapped."""

    mean: float
    sd: float
    miss: float = DEFAULT_MISS
    wrong: float = DEFAULT_WRONG
    lag: float = 0.0
    """The network delay each way, in seconds (``@LAG``)."""

    def __post_init__(self) -> None:
        if not (0.05 <= self.mean <= 10):
            raise ValueError(f"a person's mean reaction time is 50 to 10000 ms, "
                             f"not {self.mean * 1000:g}")
        if not (0 <= self.sd <= self.mean * 3):
            raise ValueError(f"a person's reaction time SD is 0 to three times the mean, "
                             f"not {self.sd * 1000:g} ms")
        if not 0 <= self.lag <= 10:
            raise ValueError(f"a person's network delay is 0 to 10000 ms, not "
                             f"{self.lag * 1000:g}")
        for what, p in (("MISS", self.miss), ("WRONG", self.wrong)):
            if not 0 <= p <= 1:
                raise ValueError(f"a person's {what} is a probability from 0 to 1, not {p:g}")

    @property
    def reaction_time(self) -> ReactionTime:
        """The log-normal with this mean and standard deviation (no floor)."""
        sigma2 = math.log1p((self.sd / self.mean) ** 2)
        return ReactionTime(floor=0.0, median=self.mean * math.exp(-sigma2 / 2),
                            spread=math.sqrt(sigma2))

    @property
    def name(self) -> str:
        """The shortest ``person:...`` that gives this person back."""
        ms = [round(self.mean * 1000, 6), round(self.sd * 1000, 6)]
        parts = [_fmt(ms[0]), _fmt(ms[1]), _fmt(self.miss), _fmt(self.wrong)]
        defaults = [None, _fmt(round(self.mean * 1000 * DEFAULT_SD_SHARE, 6)),
                    _fmt(DEFAULT_MISS), _fmt(DEFAULT_WRONG)]
        while len(parts) > 1 and parts[-1] == defaults[len(parts) - 1]:
            parts.pop()
        lag = f"@{_fmt(round(self.lag * 1000, 6))}" if self.lag else ""
        return ":".join([PERSON, *parts]) + lag

    def arriving(self, decision: Decision | None) -> Decision | None:
        """``decision`` as the server sees it: ``2 * lag`` later (the card's way out, the
        move's way back)."""
        if decision is None or not self.lag:
            return decision
        return Decision(decision.action, decision.delay + 2 * self.lag)


def is_person(name: object) -> bool:
    """Whether a level's name names a modelled person (``person`` or ``person:...``)."""
    return isinstance(name, str) and (name == PERSON or name.startswith(PERSON + ":"))


def parse_person(text: str) -> Person:
    """The person that ``person:MEAN[:SD[:MISS[:WRONG]]]`` names; ``ValueError`` saying what
    is wrong with it."""
    shown = repr(text) if len(text) <= 40 else repr(text[:40] + "...")

    def bad(why: str) -> ValueError:
        return ValueError(f"bad person {shown}: {why} ({SYNTAX})")

    text, _, lag_text = text.strip().partition("@")
    lag = 0.0
    if lag_text:
        try:
            lag = float(lag_text.strip().lower().removesuffix("ms")) / 1000
        except ValueError:
            raise bad("LAG must be a number of milliseconds") from None
        if not math.isfinite(lag):
            raise bad("LAG must be finite")
    head, *fields = text.split(":")
    if head.lower() != PERSON:
        raise bad("it must start with 'person:'")
    if not fields or len(fields) > 4:
        raise bad("give 1 to 4 numbers after 'person:'")
    names = ("MEAN", "SD", "MISS", "WRONG")
    values: list[float] = []
    for what, raw in zip(names, fields, strict=False):
        raw = raw.strip().lower()
        if what in ("MEAN", "SD"):
            raw = raw.removesuffix("ms")
        try:
            value = float(raw)
        except ValueError:
            unit = "a number of milliseconds" if what in ("MEAN", "SD") else "a probability"
            raise bad(f"{what} must be {unit}") from None
        if not math.isfinite(value):
            raise bad(f"{what} must be finite")
        values.append(value)
    mean = values[0] / 1000
    sd = (values[1] if len(values) > 1 else values[0] * DEFAULT_SD_SHARE) / 1000
    miss = values[2] if len(values) > 2 else DEFAULT_MISS
    wrong = values[3] if len(values) > 3 else DEFAULT_WRONG
    try:
        return Person(mean, sd, miss, wrong, lag)
    except ValueError as exc:
        raise bad(str(exc)) from None
