"""A card is readable where it is bought: the whole market beside a wide log from 120×40, a card
reader at 80×24, the card browser saying where each card is, and every owned card by name."""

from __future__ import annotations

import re

from kotp2p import rules
from kotp2p.rules.registry import BY_SLUG
from kotp2p.ui import Controller
from kotp2p.ui.full.pages import cards_page
from kotp2p.ui.full.screen import game_screen, to_text
from kotp2p.ui.symbols import UNICODE
from tests.ui.fakes import FakeGame

MARKET = ("The King 10/0/9 @city +rootingfortheunderdog +highaltitudebombing "
          "+completedestruction +acidattack +extrahead; Giga Zaur 8/3/2 +camouflage; "
          "Alienoid 9/5/7; Cyber Kitty 4/2/9 "
          "| active=0 phase=buy market=energize,wereonlymakingitstronger,nuclearpowerplant")
LONG_LOG = "Giga Zaur smashes The King for 3♥ and The King stays in Tokyo City with 4♥ left"


def controller(text: str = MARKET) -> Controller:
    c = Controller(FakeGame(text, me=0), words=("eagle", "lizard", "beaver", "falcon"))
    for i in range(20):
        c.add_log(f"{i}: {LONG_LOG}")
    return c


def flat(text: str) -> str:
    return " ".join(text.split())


def effect(slug: str) -> str:
    return flat(UNICODE.text(rules.card_text(BY_SLUG[slug])))


def test_at_120x40_the_market_shows_every_name_and_effect_whole_beside_a_wide_log() -> None:
    screen = to_text(game_screen(controller(), 120, 40)).splitlines()
    market = [ln.split("│")[0] for ln in screen if "│" in ln]
    assert "…" not in "".join(market)
    for slug in ("energize", "wereonlymakingitstronger", "nuclearpowerplant"):
        assert rules.CARDS[BY_SLUG[slug]].name in "".join(market)
        assert effect(slug) in flat(" ".join(market))
    log = [ln.split("│")[1] for ln in screen if "│" in ln]
    assert max(len(ln.strip()) for ln in log) >= 55, "the log column is wide"
    assert sum(1 for ln in log if ln.strip()) >= 15, "the log has the rows the market leaves"


def test_at_80x24_i_reads_each_card_whole_then_closes() -> None:
    c = controller()
    before = to_text(game_screen(c, 80, 24))
    assert effect("wereonlymakingitstronger") not in flat(before)
    assert "i read a card" in before
    c.say("you: gains 3⚡ (dice); smashes Meka Dragon for 2♥")  # news takes the footer's room
    status = next(ln for ln in to_text(game_screen(c, 80, 24)).splitlines()
                  if ln.startswith(" Your move (buy)"))
    assert "i read" in status, "buying, the reader's key is still on screen"
    c.press("i")
    c.press("i")
    screen = to_text(game_screen(c, 80, 24))
    assert "Card 2 of 9: market 2" in screen
    assert effect("wereonlymakingitstronger") in flat(screen)
    assert "Your move (buy)" in screen, "the decision stays on screen"
    for _ in range(5):
        c.press("i")
    owned = to_text(game_screen(c, 80, 24))
    assert "Card 7 of 9: The King's" in owned and effect("acidattack") in flat(owned)
    c.press("escape")
    assert "Card " not in to_text(game_screen(c, 80, 24))
    for _ in range(10):
        c.press("i")
    assert "Card " not in to_text(game_screen(c, 80, 24)), "after the last card it closes"


def test_a_question_keeps_its_letter_i() -> None:
    # Stretchy and Plot Twist on 7 dice: the question lists letters a-j, i among them.
    c = Controller(FakeGame("The King 8/0/9 +stretchy +plottwist +extrahead; Giga Zaur 10/0/0 "
                            "@city | active=0 phase=roll dice=h3esss1 rolls=0", me=0))
    c.press("i")
    assert c.reading is None and c.group is not None, "the question's i, not the reader"
    assert "Card 1 of" not in to_text(game_screen(c, 80, 24))


def test_the_card_browser_puts_the_cards_in_play_first_and_says_where_they_are() -> None:
    c = controller()
    page = to_text(cards_page("", UNICODE, 80, 60, state=c.state)).splitlines()
    heads = [re.match(r" (\S.*?) +[0-9]+⚡  ", ln) for ln in page[2:]]
    names = [m.group(1) for m in heads if m is not None]
    in_play = {"Extra Head", "Energize", "We're Only Making It Stronger!", "Nuclear Power Plant",
               "Rooting for the Underdog", "High Altitude Bombing", "Complete Destruction",
               "Acid Attack", "Camouflage"}
    assert set(names[: len(in_play)]) == in_play
    text = "\n".join(page)
    assert "in the market (1)" in text and "The King has it" in text
    assert "Giga Zaur has it" in text and "in the market (3)" in text


def test_owned_cards_are_whole_wide_and_counted_narrow() -> None:
    c = controller()
    wide = to_text(game_screen(c, 160, 48))
    for slug in ("rootingfortheunderdog", "highaltitudebombing", "completedestruction",
                 "acidattack", "extrahead"):
        assert rules.CARDS[BY_SLUG[slug]].name in wide
    king = next(ln for ln in to_text(game_screen(c, 80, 24)).splitlines() if "The King " in ln)
    assert "…" not in king and (king.rstrip().endswith("5 cards") or "+" in king), king


def test_the_reader_shows_the_evolutions_the_player_holds_and_chooses_among() -> None:
    from tests.rules.test_powerup_cards import holding

    s = holding("Cyber Bunny 6/0/0; The King 10/0/0", "healingrain", active=1)
    c = Controller(FakeGame(rules.to_text(s), me=0))
    for _ in range(4):  # the market's three cards first
        c.press("i")
    screen = to_text(game_screen(c, 80, 24))
    assert "your Evolution" in screen and "Healing Rain" in screen
    assert effect("healingrain") in flat(screen)
    theirs = Controller(FakeGame(rules.to_text(s), me=1))
    assert all(card != BY_SLUG["healingrain"] for _, card in theirs.readable())


def test_at_80x24_the_longest_names_in_the_market_are_whole() -> None:
    text = MARKET.replace("+highaltitudebombing ", "").replace(
        "market=energize,", "market=highaltitudebombing,")
    screen = to_text(game_screen(controller(text), 80, 24))
    for slug in ("highaltitudebombing", "wereonlymakingitstronger", "nuclearpowerplant"):
        name = rules.CARDS[BY_SLUG[slug]].name
        row = next(ln for ln in screen.splitlines() if re.match(rf" \d  {re.escape(name)} ", ln))
        assert len(row) <= 80 and "⚡" in row
