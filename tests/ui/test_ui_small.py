"""Small terminals: pages scroll, a too-small window says so, and the check words are never cut."""

from __future__ import annotations

import pytest

from kotp2p.ui.full.app import draw
from kotp2p.ui.full.screen import game_screen, to_text
from kotp2p.ui.model import Controller, EndInfo
from kotp2p.ui.stats import MonsterStats
from tests.ui.fakes import FakeGame

FOUR = ("The King 10/0/0 @city; Giga Zaur 8/3/2; Alienoid 9/5/7; Cyber Kitty 4/2/9 "
        "| active=1 phase=buy market=firebreathing,healingray,energize")
ROLLING = ("Alienoid 0/10/0; Cyber Kitty 0/10/0; Giga Zaur 0/10/0; Meka Dragon 1/10/4 @city "
           "| active=0 phase=roll dice=eeseeh rolls=2 market=deathfromabove,psychicprobe,energize")
WORDS = ("lotus", "berry", "mint", "peach")


def controller(text: str = FOUR, me: int = 1) -> Controller:
    return Controller(FakeGame(text, me=me), words=WORDS)


def screen(c: Controller, width: int, height: int) -> str:
    return "".join(f[1] for f in draw(c, width, height))


def test_the_help_scrolls_to_its_end_at_60x20_and_its_footer_says_how() -> None:
    c = controller()
    c.press("?")
    first = screen(c, 60, 20)
    assert "PgDn more" in first and "Esc or ? closes this help" not in first
    for _ in range(5):
        c.press("pagedown")
    last = " ".join(screen(c, 60, 20).split())
    assert "Esc or ? closes this help" in last and "keys in the footer work too" in last
    assert "PgUp back" in last and "PgDn more" not in last
    c.press("up")
    assert "PgDn more" in screen(c, 60, 20)
    c.press("escape")
    c.press("?")  # opened again: from the top
    assert "A turn: roll the dice" in screen(c, 60, 20)


def test_the_end_page_scrolls_to_the_verify_command_at_60x20() -> None:
    c = Controller(FakeGame(FOUR.replace("Cyber Kitty 4/2/9", "Cyber Kitty 4/2/9; Meka Dragon "
                                         "1/0/0 dead=1; Space Penguin 2/0/0 dead=1"), me=1))
    path = "/home/someone-with-a-long-name/.local/share/kotp2p/games/c98b68e0b17fd5d8.kotlog"
    c.end = EndInfo("You lost: Giga Zaur (player1) won.", path, [
        MonsterStats(i, m, i + 1, 20 - i, 5, True, 12, 4, 3, 2, 9)
        for i, m in enumerate(("The King", "Giga Zaur", "Alienoid", "Cyber Kitty",
                               "Meka Dragon", "Space Penguin"))])
    c.screen = "end"
    assert "PgDn more" in screen(c, 60, 20)
    c.press("pagedown")
    c.press("pagedown")
    flat = "".join(screen(c, 60, 20).split())
    assert f"kotp2pverify{path}" in flat


def test_a_terminal_too_small_says_so_and_what_size_it_needs_and_q_still_quits() -> None:
    c = controller()
    text = screen(c, 40, 12)
    assert "too small" in text and "40×12" in text and "60×16" in text
    assert "…" not in text
    c.press("q")
    assert "y quit" in screen(c, 40, 12)
    c.press("y")
    assert c.exit_requested


@pytest.mark.parametrize(("width", "height"), [(60, 20), (60, 16), (70, 24), (80, 24)])
def test_the_check_words_are_never_cut(width: int, height: int) -> None:
    longest = ("fountain", "starfish", "fountain", "starfish")
    for text in (FOUR, ROLLING):
        c = Controller(FakeGame(text), words=longest)
        lines = to_text(game_screen(c, width, height)).splitlines()
        said = "check: fountain starfish fountain starfish"
        assert any(said in ln for ln in lines), "\n".join(lines)
