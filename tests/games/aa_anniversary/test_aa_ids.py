"""The space id rule shared with the world map build (ids.space_id's docstring)."""

from __future__ import annotations

import pytest

from wartable.games.aa_anniversary.ids import space_id


@pytest.mark.parametrize(("name", "sid"), [
    ("Western United States", "western_united_states"),
    ("Eastern Europe", "eastern_europe"),
    ("Karelia S.S.R.", "karelia_ssr"),
    ("Anglo-Egypt Sudan", "anglo_egypt_sudan"),
    ("French Indo-China Thailand", "french_indo_china_thailand"),
    ("Trans-Jordan", "trans_jordan"),
    ("Bosnia & Herzegovina", "bosnia_and_herzegovina"),
    ("Bosnia&Herzegovina", "bosnia_and_herzegovina"),
    ("Queen Maud's Land", "queen_mauds_land"),
    ("  Odd -- name  ", "odd_name"),
    ("1 Sea Zone", "sz01"),
    ("9 Sea Zone", "sz09"),
    ("65 Sea Zone", "sz65"),
])
def test_space_id_rule(name: str, sid: str) -> None:
    assert space_id(name) == sid


def test_space_id_needs_letters_or_digits() -> None:
    with pytest.raises(ValueError):
        space_id("--")
