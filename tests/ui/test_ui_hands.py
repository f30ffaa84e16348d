"""Power Up! hands on the screens: the owner reads its cards, the others a count; and the player
is asked at a window only as they chose."""

from __future__ import annotations

import pytest

from kotp2p import rules
from kotp2p.ui.hands import EvolutionAsk, evolution_answer, hand_words
from tests.rules.test_powerup_cards import holding


def test_the_owner_reads_its_hand_and_the_others_only_count_it() -> None:
    mine = holding("Cyber Kitty 6/0/0; The King 10/0/0", "megapurr")
    assert hand_words(mine, 0, me=0) == "in hand: Mega Purr"
    theirs = holding("Cyber Kitty 6/0/0; The King 10/0/0", "megapurr", hidden=True)
    assert hand_words(theirs, 0, me=1) == "1 Evolution in hand"
    assert hand_words(theirs, 1, me=1) == ""
    assert hand_words(rules.from_text("Alienoid 10/0/0; The King 10/0/0 | turn=1"), 0, 0) == ""


@pytest.mark.parametrize(("slug", "ask", "answer"), [
    ("healingrain", "playable", None),  # playable at the end of a turn: asked
    ("healingrain", "never", rules.PASS),
    ("healingrain", "always", None),
    ("ninelives", "playable", rules.PASS),  # played only at 0♥, never at the end of a turn
    ("ninelives", "always", None),
])
def test_the_player_is_asked_at_a_window_only_as_they_chose(
        slug: str, ask: str, answer: rules.Action | None) -> None:
    monster = "Cyber Kitty" if slug == "ninelives" else "Cyber Bunny"
    s = holding(f"{monster} 6/0/0; The King 10/0/0", slug, active=1)
    assert s.pending == rules.Decision(0, "evolution"), s.pending
    assert evolution_answer(s, ask) == answer
    wire = EvolutionAsk(ask)(s)
    assert wire == (None if answer is None else rules.action_to_wire(answer))


def test_no_standing_answer_outside_an_evolution_window() -> None:
    s = rules.from_text("Alienoid 10/0/0; The King 10/0/0 | turn=1 phase=roll dice=123hhh rolls=1")
    assert isinstance(s.pending, rules.Decision) and s.pending.kind == "roll"
    assert evolution_answer(s, "never") is None
