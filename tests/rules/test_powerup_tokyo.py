"""Power Up!: Evolutions that change dice before they resolve, and those of Tokyo's fights.

Each test names the cards it covers with ``@pytest.mark.card(id, ..., edge=...)``."""

from __future__ import annotations

import pytest

from kotp2p import rules
from tests.rules.kit import asked, card
from tests.rules.test_powerup_cards import holding, play, table, use

ONE, TWO, THREE, ENERGY, HEART, SMASH = range(6)


@pytest.mark.card(1054)
def test_saurian_adaptability_turns_every_die_of_one_face_into_another() -> None:
    s = holding("Giga Zaur 10/0/0; Kraken 10/0/0 @city", "saurianadaptability", phase="roll",
                extra="dice=111sse rolls=0")
    s, _ = play(s, "saurianadaptability")
    assert asked(s) == (0, "saurian") and use("saurianadaptability", ONE, SMASH) in \
        rules.legal_actions(s)
    s = rules.apply(s, use("saurianadaptability", ONE, SMASH))
    assert s.hp[1] == 10 - 5 and s.flags["evo.0.0"] == 4


@pytest.mark.card(1054, edge=True)
def test_saurian_adaptability_offers_only_faces_the_dice_show() -> None:
    s = holding("Giga Zaur 10/0/0; Kraken 10/0/0 @city", "saurianadaptability", phase="roll",
                extra="dice=hhhhhh rolls=0")
    s, _ = play(s, "saurianadaptability")
    assert {a.args[0] for a in rules.legal_actions(s)} == {HEART}  # type: ignore[attr-defined]
    assert len(rules.legal_actions(s)) == 5


@pytest.mark.card(1043)
def test_jungle_frenzy_after_wounding_tokyo_from_outside_gives_another_turn() -> None:
    s = holding("The King 10/0/0; Kraken 10/0/0 @city", "junglefrenzy", phase="roll",
                extra="dice=ss112e rolls=0")
    s = rules.apply(s, rules.PASS)  # the window before the dice resolve
    s = rules.apply(s, rules.STAY)
    assert rules.window_of(s) == "dealt"
    s, found = play(s, "junglefrenzy")
    assert rules.ExtraTurn(0, card("junglefrenzy")) in found
    while asked(s) is not None:
        s = rules.apply(s, rules.PASS if rules.PASS in rules.legal_actions(s) else rules.DONE)
    assert s.active == 0 and s.turn == 4


@pytest.mark.card(1043, edge=True)
def test_jungle_frenzy_is_not_offered_once_its_owner_took_tokyo() -> None:
    s = holding("The King 10/0/0; Kraken 10/0/0 @city", "junglefrenzy", phase="roll",
                extra="dice=ss112e rolls=0")
    s = rules.apply(s, rules.PASS)
    s = rules.apply(s, rules.YIELD)  # The King enters
    assert s.city == 0
    while rules.window_of(s):
        assert rules.legal_actions(s) == (rules.PASS,)
        s = rules.apply(s, rules.PASS)


def test_saurian_adaptability_answers_are_worded_with_the_faces() -> None:
    s = holding("Giga Zaur 10/0/0; Kraken 10/0/0 @city", "saurianadaptability", phase="roll",
                extra="dice=111sse rolls=0")
    s, _ = play(s, "saurianadaptability")
    assert (rules.describe_action(s, use("saurianadaptability", ONE, SMASH))
            == "Giga Zaur turns every 1 into ✸ (Saurian Adaptability)")
