"""Card questions on the game screen and in the plain interface: what resolving would do, dice
named from 1 with their faces, letters without gaps, and the footer news kept fresh."""

from __future__ import annotations

from kotp2p import rules
from kotp2p.ui.full.screen import game_screen, to_text
from kotp2p.ui.model import Controller
from tests.ui.fakes import FakeGame

FOUR = "The King {}; Giga Zaur {}; Alienoid {}; Cyber Kitty {}"


def four(a: str = "10/0/0", b: str = "10/0/0 @city", c: str = "10/0/0", d: str = "10/0/0") -> str:
    return FOUR.format(a, b, c, d)


def screen_of(text: str, me: int = 0) -> str:
    return to_text(game_screen(Controller(FakeGame(text, me=me)), 80, 24))


def test_the_preview_sees_past_a_card_question_after_the_roll() -> None:
    # Herd Culler asks before the dice resolve: the preview still says what they will do.
    screen = screen_of(four("8/0/0 +herdculler") + " | active=0 phase=roll dice=hhesss rolls=1")
    assert "nothing happens" not in screen
    assert "The King heals 2♥" in screen and "gains 1⚡" in screen and "smashes" in screen


def test_the_preview_shows_at_the_card_question_itself() -> None:
    s = rules.apply(rules.from_text(four("8/0/0 +herdculler")
                                    + " | active=0 phase=roll dice=hhesss rolls=1"), rules.STOP)
    assert isinstance(s.pending, rules.Decision) and s.pending.kind == "change"
    screen = to_text(game_screen(Controller(FakeGame(s, me=0)), 80, 24))
    assert "resolve now: The King heals 2♥" in screen
    assert "smashes" in screen and "Giga Zaur for 3♥" in screen  # on two lines, not cut
