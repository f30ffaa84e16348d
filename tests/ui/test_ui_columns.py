"""Card names in columns: the longest names neither push the market's cost column nor the card
browser's, and a hand of long names ends with how many cards are not shown, at 80×24 and wider."""

from __future__ import annotations

import re

import pytest
from prompt_toolkit.utils import get_cwidth

from kotp2p import rules
from kotp2p.ui import Controller
from kotp2p.ui.full.pages import cards_page
from kotp2p.ui.full.screen import game_screen, names_in, to_text, width_of
from kotp2p.ui.symbols import UNICODE
from tests.ui.fakes import FakeGame

LONGEST = sorted((cd for cd in rules.CARDS.values() if cd.kind not in rules.EVOLUTION_KINDS),
                 key=lambda cd: -len(cd.name))
LONG_MARKET = ("The King 10/0/9 @city +rootingfortheunderdog +highaltitudebombing "
               "+completedestruction; Giga Zaur 8/3/2; Alienoid 9/5/7; Cyber Kitty 4/2/9 "
               "| active=0 phase=buy market=wereonlymakingitstronger,energize,nuclearpowerplant")
SIZES = [(60, 20), (80, 24), (100, 30), (160, 48)]


def cell_of(line: str, text: str) -> int:
    """The terminal cell where ``text`` starts in ``line``."""
    return get_cwidth(line[: line.index(text)])


def controller(text: str) -> Controller:
    return Controller(FakeGame(text, me=0, names=("alice", "bob", "carol", "dan")))


def test_the_market_of_these_tests_holds_the_longest_card_name() -> None:
    assert LONGEST[0].name == "We're Only Making It Stronger!"  # the test below uses it


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_market_cost_column_stays_aligned_with_the_longest_names(width: int,
                                                                     height: int) -> None:
    lines = game_screen(controller(LONG_MARKET), width, height)
    assert all(width_of(line) == width for line in lines)
    screen = to_text(lines).splitlines()
    rows = [ln for ln in screen if ln[:3] in (" 1 ", " 2 ", " 3 ")]
    assert len(rows) == 3
    costs = {cell_of(row, "⚡") for row in rows}
    kinds = {cell_of(row, " keep ") if " keep " in row else cell_of(row, " discard ")
             for row in rows}
    assert len(costs) == 1 and len(kinds) == 1, "\n".join(rows)
    name = "We're Only Making It Stronger!"
    if width >= 80:  # room for the whole name beside 33 columns of effect
        assert name in rows[0]
    else:
        assert "We're Only Making" in rows[0] and "…" in rows[0].split("⚡")[0]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_hand_of_long_names_keeps_the_stats_in_columns_and_says_how_many_more(
        width: int, height: int) -> None:
    screen = to_text(game_screen(controller(LONG_MARKET), width, height)).splitlines()
    rows = [ln for ln in screen if ln.startswith(("▶ ", "  ")) and re.search("★ *[0-9]", ln)]
    assert len(rows) == 4
    assert len({cell_of(row, "♥") for row in rows}) == 1
    hand = "\n".join(screen)
    if width < 120:  # one line per monster: the whole names that fit, then how many more
        king = rows[0]
        assert re.search(r"( \+[12]| 3 cards| \+3)$", king), king
        assert "…" not in king
    else:  # a line of its own under the monster, after the key fingerprint
        assert "key ab0c-d0e5-f6a7-b8c9  Rooting for the Underdog, High Altitude Bombing" in hand


def test_names_in_shows_only_whole_names_then_the_count() -> None:
    names = ["Acid Attack", "Rooting for the Underdog", "Complete Destruction"]
    assert names_in(names, 80) == "Acid Attack, Rooting for the Underdog, Complete Destruction"
    assert names_in(names, 45) == "Acid Attack, Rooting for the Underdog +1"
    assert names_in(names, 30) == "Acid Attack +2"
    assert names_in(names, 14) == "Acid Attack +2"
    assert names_in(names, 7) == "3 cards"
    assert names_in(names, 4) == "+3"  # too narrow for the words: the count as in "Acid Attack +2"
    assert names_in([], 10) == ""
    for width in range(1, 60):
        assert get_cwidth(names_in(names, width)) <= width


@pytest.mark.parametrize("width", [50, 80, 160])
def test_the_card_browser_keeps_cost_and_type_in_columns(width: int) -> None:
    lines = cards_page("ing", UNICODE, width, 200)
    assert all(width_of(line) == width for line in lines)
    rows = [ln for ln in to_text(lines).splitlines()
            if "⚡  keep" in ln or "⚡  discard" in ln]
    assert len(rows) >= 10
    assert len({cell_of(row, "⚡") for row in rows}) == 1, "\n".join(rows)
    assert any("We're Only Making" in row for row in rows)
