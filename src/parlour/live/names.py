"""The names people give themselves at a table with friends: what a name may be, and when two
names would read as one.

A name is shown as text on every screen at the table, next to the words the site itself puts
on seats ("You", "Computer 2", "Open seat", "(computer)" after an away seat). So a name is
refused when it would pass for one of those (a friend called "You" would make the host read
"You won." when that friend wins) or for another person at the same table; the comparison is
made on a *skeleton*: compatibility forms folded (NFKC: fullwidth letters, ligatures), case
folded, accents and every mark dropped, the Cyrillic and Greek letters that look like Latin
ones read as those, and only letters and digits kept. So "You" in fullwidth letters, "Yóu",
"You" with a Cyrillic o and "Computer-3" are each caught.

>>> clean_name("  Ann \\u200b ")
'Ann'
>>> same_name("Ann", "\\uff21NN"), same_name("Ann", "Anna")  # a fullwidth A
(True, False)
>>> site_word("\\u0421\\u043emputer 3")  # a Cyrillic C and o
True
"""

from __future__ import annotations

import re
import unicodedata

#: Longest name a person may give, in characters (code points, as the protocol counts them).
NAME_MAX = 24

#: Letters that render blank although Unicode files them as letters or symbols: Hangul
#: fillers and the empty braille cell (the control and format characters, zero-width ones
#: included, are category C and go anyway).
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")

#: Cyrillic and Greek letters (lower case, after case folding) drawn like a Latin one.
_LOOKALIKE = str.maketrans({
    "\u0430": "a", "\u0432": "b", "\u0441": "c", "\u0501": "d", "\u0435": "e", "\u04bb": "h",
    "\u0456": "i", "\u0458": "j", "\u043a": "k", "\u04cf": "l", "\u043c": "m", "\u043d": "h",
    "\u043e": "o", "\u0440": "p", "\u051b": "q", "\u0433": "r", "\u0455": "s", "\u0442": "t",
    "\u0446": "u", "\u0443": "y", "\u0445": "x", "\u051d": "w", "\u0475": "v", "\u03b1": "a",
    "\u03b2": "b", "\u03b5": "e", "\u03b7": "n", "\u03b9": "i", "\u03ba": "k", "\u03bc": "u",
    "\u03bd": "v", "\u03bf": "o", "\u03c1": "p", "\u03c4": "t", "\u03c5": "u", "\u03c7": "x",
    "\u03b3": "y", "\u03c9": "w",
})

#: Skeletons of the words the site writes on seats and in its sentences about them.
_SITE_WORDS = re.compile(
    r"(you|yours?|yourself|computers?\d*|player\d*|seat\d*|openseat|freeseat|(the)?host"
    r"|(the)?dealer|spectators?|nobody|everyone|parlour)")


class BadName(ValueError):
    """A name that cannot be given: the message is one sentence for a person, ``code`` the
    protocol's error code (``bad_request``, or ``reserved_name`` for the site's own words)."""

    def __init__(self, reason: str, code: str = "bad_request") -> None:
        super().__init__(reason)
        self.code = code


def _folded(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


def skeleton(name: str) -> str:
    """What ``name`` reads as: letters and digits only, folded as the module says."""
    bare = "".join(c for c in unicodedata.normalize("NFD", _folded(name))
                   if not unicodedata.category(c).startswith("M"))
    return "".join(c for c in bare.translate(_LOOKALIKE) if c.isalnum())


def same_name(a: str, b: str) -> bool:
    """Whether two names would read as one on a screen (a name of signs only, such as "!!",
    is compared as it is written, case folded, without its spaces)."""
    ka, kb = skeleton(a), skeleton(b)
    if ka or kb:
        return ka == kb
    return "".join(_folded(_visible(a)).split()) == "".join(_folded(_visible(b)).split())


def site_word(name: str) -> bool:
    """Whether ``name`` would pass for a word the site puts on a seat ("You", "Computer 3",
    "Open seat", a name followed by "(computer)"...)."""
    if _SITE_WORDS.fullmatch(skeleton(name)):
        return True
    return re.search(r"\(\s*(computer|away|you|host)\s*\)", _folded(name)) is not None


def _seen(c: str) -> bool:
    return not c.isspace() and unicodedata.category(c)[0] != "C" and c not in _BLANK


def _tag(c: str) -> bool:
    return "\U000e0020" <= c <= "\U000e007f"


def _visible(name: str) -> str:
    """``name`` without the characters nobody sees, but for those that hold a grapheme
    together (a zero-width joiner in 👩‍💻 or between two letters, the tags of the flag of
    Scotland), which are dropped only when they join nothing."""
    kept: list[str] = []
    for i, c in enumerate(name):
        if _seen(c) or c.isspace():
            kept.append(c)
        elif c in "\u200c\u200d":
            if kept and _seen(kept[-1]) and i + 1 < len(name) and _seen(name[i + 1]):
                kept.append(c)
        elif _tag(c) and kept and (kept[-1] == "\U0001f3f4" or _tag(kept[-1])):
            kept.append(c)
    return "".join(kept)


def clean_name(name: str) -> str:
    """``name`` as a seat shows it: no control or format characters (no invisible or
    zero-width characters, no line breaks, no direction overrides), spaces folded; raises
    :class:`BadName` for a name nobody could read, one too long, or one that would pass
    for the site's own words."""
    typed = name.strip()
    cleaned = " ".join(_visible(name).split())
    if not cleaned or all(unicodedata.category(c)[0] in "MZ" for c in cleaned):
        raise BadName("type a name to take a seat" if not typed else
                      "that name is only invisible characters: type one people can see")
    if len(cleaned) > NAME_MAX:
        raise BadName(f"a name may be at most {NAME_MAX} characters")
    if site_word(cleaned):
        raise BadName("that name is one the site uses for its own seats (such as You, "
                      "Computer 2 or Open seat): choose another", "reserved_name")
    return cleaned
