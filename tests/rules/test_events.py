"""Events: ``apply(..., events=lst)`` tells what happened, in order, in plain words too; asking
for events changes nothing else."""

from __future__ import annotations

import random

import pytest

from kotp2p import rules
from tests.rules.kit import random_input
from tests.rules.test_cards_keep_playouts import dealt_start


def said(state: rules.State, action: rules.Action) -> tuple[rules.State, list[str]]:
    """Apply ``action``; return the new state and its events in plain words, told from
    ``state`` as a view tells them."""
    events: list[rules.Event] = []
    after = rules.apply(state, action, events=events)
    return after, [rules.describe_event(e, state) for e in events]


def test_a_smash_on_tokyo_reads_in_order() -> None:
    s = rules.from_text(
        "Giga Zaur 8/0/0; Cyber Kitty 10/3/0 @city; The King 10/0/0 | active=0 phase=roll dice=sss1eh rolls=1"
    )
    s, words = said(s, rules.STOP)
    assert words == [
        "Giga Zaur resolves ✸ ✸ ✸ 1 ⚡ ♥",
        "Giga Zaur heals 1♥",
        "Giga Zaur gains 1⚡ (dice)",
        "Giga Zaur smashes Cyber Kitty for 3♥",
    ]
    assert s.pending == rules.Decision(1, "yield")
    s, words = said(s, rules.YIELD)
    assert words == [
        "Cyber Kitty yields Tokyo City",
        "Giga Zaur enters Tokyo City",
        "Giga Zaur gains 1★ (entering Tokyo)",
        "Giga Zaur cannot buy anything",  # 1⚡ buys nothing in an empty market
        "turn 2: Cyber Kitty",
    ]


def test_the_last_roll_stops_by_itself_and_the_turn_passes() -> None:
    s = rules.from_text(
        "The King 10/0/3; Giga Zaur 10/0/0; Alienoid 10/0/0 | active=0 phase=roll dice=111222 rolls=1"
    )
    s = rules.apply(s, rules.Reroll((0,)))
    s, words = said(s, rules.RandomResult((0,)))
    assert words == [
        "The King re-rolls 1 die: 1",
        "The King has no re-roll left",
        "The King resolves 1 1 1 2 2 2",
        "The King gains 3★ (dice)",
        "The King enters Tokyo City",
        "The King gains 1★ (entering Tokyo)",
    ]
    assert s.pending == rules.Decision(0, "buy")
    s, words = said(s, rules.DONE)
    assert words == ["turn 2: Giga Zaur"]


def test_events_are_frozen_values_equal_by_content() -> None:
    a = rules.Damaged(1, 2, 0, True)
    assert a == rules.Damaged(1, 2, 0, True) and a != rules.Damaged(1, 2, 0, False)
    with pytest.raises(AttributeError):
        a.amount = 3  # type: ignore[misc]
    assert eval(repr(a), vars(rules)) == a


@pytest.mark.parametrize("players", [2, 4, 5, 6])
def test_asking_for_events_changes_no_state_and_every_event_reads(players: int) -> None:
    seen: set[type] = set()
    for seed in range(4):
        rng = random.Random(seed)
        s = dealt_start(players, rng)
        for _ in range(3000):
            if s.is_over:
                break
            a = random_input(s, rng)
            events: list[rules.Event] = []
            with_events = rules.apply(s, a, events=events)
            without = rules.apply(s, a)
            assert rules.state_to_wire(with_events) == rules.state_to_wire(without)
            assert with_events.pending == without.pending
            for e in events:
                assert isinstance(e, rules.EVENT_TYPES)
                assert rules.describe_event(e, with_events)
                seen.add(type(e))
            s = with_events
        assert s.is_over
    assert {rules.TurnBegan, rules.DiceRolled, rules.GameOver} <= seen


def test_a_refused_action_records_nothing() -> None:
    s = rules.from_text("The King 10/0/0; Giga Zaur 10/0/0 | active=0 phase=roll dice=111222 rolls=1")
    events: list[rules.Event] = []
    with pytest.raises(rules.IllegalAction):
        rules.apply(s, rules.Buy(1), events=events)
    assert events == []


def events_of(state: rules.State, action: rules.Action) -> tuple[rules.State, list[rules.Event]]:
    events: list[rules.Event] = []
    return rules.apply(state, action, events=events), events


def test_a_tokyo_bay_round_with_two_yields() -> None:
    s = rules.from_text(
        "Giga Zaur 10/0/0; Cyber Kitty 10/3/0 @city; The King 10/5/0 @bay; Alienoid 10/0/0; "
        "Meka Dragon 10/0/0 | active=0 phase=roll dice=ss1eh2 rolls=1"
    )
    s, events = events_of(s, rules.STOP)
    assert events == [
        rules.DiceKept(0, (5, 5, 0, 3, 4, 1)),
        rules.EnergyChanged(0, 1, "dice"),
        rules.Damaged(1, 2, 0, True),
        rules.Damaged(2, 2, 0, True),
    ]
    assert s.pending == rules.Decision(1, "yield")  # City first, clockwise from the attacker
    s, events = events_of(s, rules.YIELD)
    assert events == [rules.YieldedTokyo(1, rules.CITY)]
    assert s.pending == rules.Decision(2, "yield")
    s, events = events_of(s, rules.YIELD)
    assert events == [
        rules.YieldedTokyo(2, rules.BAY),
        rules.EnteredTokyo(0, rules.CITY),
        rules.StarsChanged(0, 1, "enter"),
        rules.AutoDecision(0, "buy", rules.DONE),
        rules.TurnBegan(1, 2),
    ]
    assert [rules.describe_event(e, s) for e in events] == [
        "The King yields Tokyo Bay",
        "Giga Zaur enters Tokyo City",
        "Giga Zaur gains 1★ (entering Tokyo)",
        "Giga Zaur cannot buy anything",
        "turn 2: Cyber Kitty",
    ]
    assert (s.city, s.bay) == (0, -1)


def test_a_kill_closes_the_bay_in_the_middle_of_the_turn() -> None:
    s = rules.from_text(
        "Giga Zaur 10/0/0; Cyber Kitty 2/3/0 @city; The King 10/5/0 @bay; Alienoid 10/0/0; "
        "Meka Dragon 10/0/0 | active=0 phase=roll dice=ss1eh2 rolls=1"
    )
    s, events = events_of(s, rules.STOP)
    assert events == [
        rules.DiceKept(0, (5, 5, 0, 3, 4, 1)),
        rules.EnergyChanged(0, 1, "dice"),
        rules.Damaged(1, 2, 0, True),
        rules.Damaged(2, 2, 0, True),
        rules.Eliminated(1),
        rules.BayClosed(2, to_city=True),
    ]
    # The King, smashed in the Bay, now holds the City and still decides whether to yield it.
    assert (s.city, s.bay) == (2, -1)
    assert s.pending == rules.Decision(2, "yield")
    s, events = events_of(s, rules.STAY)
    assert events == [
        rules.StayedInTokyo(2, rules.CITY),
        rules.AutoDecision(0, "buy", rules.DONE),
        rules.TurnBegan(2, 2),  # Cyber Kitty is out: The King is next
        rules.StarsChanged(2, 2, "tokyo"),  # and starts its turn in Tokyo
    ]


def test_frenzy_gives_an_extra_turn() -> None:
    s = rules.from_text("The King 10/0/7; Giga Zaur 10/0/0; Alienoid 10/0/0 | active=0 phase=buy market=frenzy,-,-")
    frenzy, heal = rules.card_by_name("Frenzy"), rules.card_by_name("Heal")
    s, events = events_of(s, rules.Buy(frenzy))
    assert events == [rules.CardBought(0, frenzy, 7)]
    s, events = events_of(s, rules.RandomResult((s.deck.index(heal),)))
    assert events == [
        rules.CardRevealed(heal, 0),
        rules.CardEffect(0, frenzy),
        rules.ExtraTurn(0, frenzy),
        rules.CardDiscarded(0, frenzy),
        rules.AutoDecision(0, "buy", rules.DONE),
        rules.TurnBegan(0, 2, extra=True),
    ]
    assert [rules.describe_event(e, s) for e in events][2:] == [
        "The King will take another turn (Frenzy)",
        "The King discards Frenzy",
        "The King cannot buy anything",
        "turn 2: The King (an extra turn)",
    ]


def test_mimic_copies_a_card_with_tokens() -> None:
    s = rules.from_text(
        "The King 10/0/8; Giga Zaur 10/0/0 +batterymonster; Alienoid 10/0/0 | active=0 phase=buy "
        "market=mimic,-,- tokens=batterymonster:4"
    )
    mimic, battery, heal = (rules.card_by_name(n) for n in ("Mimic", "Battery Monster", "Heal"))
    s, events = events_of(s, rules.Buy(mimic))
    assert events == [rules.CardBought(0, mimic, 8)]
    s, events = events_of(s, rules.RandomResult((s.deck.index(heal),)))
    assert events == [
        rules.CardRevealed(heal, 0),
        rules.AutoDecision(0, "mimic", rules.UseCard(mimic, (battery,))),  # one card to copy
        rules.Copied(0, mimic, battery),
        rules.TokensChanged(0, "card", 6, mimic),  # charged as if just bought
        rules.AutoDecision(0, "buy", rules.DONE),
        rules.TurnBegan(1, 2),
        rules.TokensChanged(1, "card", -2, battery),  # Giga Zaur's own Battery Monster
        rules.EnergyChanged(1, 2, "card", battery),
    ]
    assert rules.describe_event(events[2], s) == "The King's Mimic copies Battery Monster"
    assert "+mimic>batterymonster" in rules.to_text(s)


def test_only_the_decisions_the_engine_took_alone_are_minor() -> None:
    s = rules.from_text(
        "The King 10/0/3; Giga Zaur 10/0/0; Alienoid 10/0/0 | active=0 phase=roll dice=111222 rolls=1"
    )
    s = rules.apply(s, rules.Reroll((0,)))
    s, events = events_of(s, rules.RandomResult((0,)))
    minor = [e for e in events if rules.is_minor(e)]
    assert minor == [rules.AutoDecision(0, "roll", rules.STOP)]
    shown = [rules.describe_event(e, s) for e in events if not rules.is_minor(e)]
    assert shown[:2] == ["The King re-rolls 1 die: 1", "The King resolves 1 1 1 2 2 2"]
