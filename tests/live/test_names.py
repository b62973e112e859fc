"""The names people give at a table with friends (``parlour.live.names``): what is refused
and why, and the invariants of cleaning and comparing names."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.live.names import NAME_MAX, BadName, clean_name, same_name, site_word

FAMILY = "\U0001f469\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"


@pytest.mark.parametrize("name", ["You", "you", "Y O U", "\uff39\uff2f\uff35", "Y\u00f3u",
                                  "Y\u043eu", "Computer 3", "computer-3", "COMPUTER3",
                                  "Player 2", "Open seat", "free seat", "Dealer", "the host",
                                  "Ann (computer)", "Spectator"])
def test_the_site_s_own_words_are_refused(name: str) -> None:
    with pytest.raises(BadName) as refused:
        clean_name(name)
    assert refused.value.code == "reserved_name"


@pytest.mark.parametrize("name", ["Ann", "Yolanda", "Hostess", "Mehmet", "Computerist",
                                  FAMILY, "\U0001f469\u200d\U0001f4bb Zoe", "!!"])
def test_ordinary_names_are_kept_whole(name: str) -> None:
    assert clean_name(name) == name  # a joiner inside an emoji is kept: never split


@pytest.mark.parametrize(("name", "words"), [
    ("   ", "type a name"), ("\u200b\u200d", "only invisible"), ("\u3164\u2800", "only invisible"),
    ("x" * (NAME_MAX + 1), f"at most {NAME_MAX}"),
])
def test_unreadable_names_get_their_own_reason(name: str, words: str) -> None:
    with pytest.raises(BadName, match=words) as refused:
        clean_name(name)
    assert refused.value.code == "bad_request"


@given(st.text(max_size=40))
def test_a_clean_name_is_clean_again_and_reads_as_itself(name: str) -> None:
    try:
        cleaned = clean_name(name)
    except BadName:
        return
    assert clean_name(cleaned) == cleaned
    assert same_name(cleaned, name) and same_name(name, cleaned)
    assert 1 <= len(cleaned) <= NAME_MAX and not site_word(cleaned)


@given(st.sampled_from(["you", "computer 7", "open seat"]),
       st.lists(st.sampled_from([" ", "-", ".", "_"]), max_size=3), st.booleans())
def test_a_site_word_dressed_up_is_still_one(word: str, signs: list[str], upper: bool) -> None:
    dressed = "".join(signs) + (word.upper() if upper else word.title()) + "".join(signs)
    assert site_word(dressed)
