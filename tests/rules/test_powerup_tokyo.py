"""Power Up!: Evolutions that change dice before they resolve, and those of Tokyo's fights.

Each test names the cards it covers with ``@pytest.mark.card(id, ..., edge=...)``."""

from __future__ import annotations

import pytest

from kotp2p import rules
from tests.rules.kit import asked, card
from tests.rules.test_powerup_cards import holding, play, table, use
from tests.rules.test_powerup_gifts import gifted

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
    s = rules.apply(s, rules.PASS)  # the window once Kraken stayed
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


@pytest.mark.card(1155)
def test_terror_of_the_deep_rolls_a_die_per_heart_of_a_hit_and_each_heart_cancels_one() -> None:
    s = table("Kraken 10/0/0 @city +terrorofthedeep", "The King 10/0/0", active=1, phase="roll",
              extra="dice=sss12e rolls=0")
    assert asked(s) == (0, "react")
    s = rules.apply(s, use("terrorofthedeep"))
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.bounds == (6,) * 3
    s = rules.apply(s, rules.RandomResult((HEART, HEART, ONE)))
    assert s.hp[0] == 9


@pytest.mark.card(1155, edge=True)
def test_terror_of_the_deep_and_camouflage_each_roll_once_against_one_hit() -> None:
    s = table("Kraken 10/0/0 @city +terrorofthedeep +camouflage", "The King 10/0/0", active=1,
              phase="roll", extra="dice=sss12e rolls=0")
    s = rules.apply(s, use("terrorofthedeep"))
    s = rules.apply(s, rules.RandomResult((HEART, ONE, ONE)))
    assert asked(s) == (0, "react")
    assert rules.legal_actions(s) == (rules.UseCard(card("camouflage")), rules.PASS)
    s = rules.apply(s, rules.UseCard(card("camouflage")))
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.bounds == (6,) * 2


@pytest.mark.card(1045)
def test_chest_thumping_forces_a_monster_it_wounds_out_of_tokyo() -> None:
    s = table("The King 10/0/0 +chestthumping", "Kraken 10/0/0 @city", phase="roll",
              extra="dice=ss112e rolls=0")
    assert asked(s) == (0, "thump")
    assert rules.legal_actions(s) == (use("chestthumping", 1), rules.DONE)
    s = rules.apply(s, use("chestthumping", 1))
    assert s.city == 0 and s.hp[1] == 8  # Kraken is out, and The King takes its place


@pytest.mark.card(1045, edge=True)
def test_chest_thumping_is_not_asked_when_the_smash_missed_tokyo() -> None:
    s = table("The King 10/0/0 @city +chestthumping", "Kraken 10/0/0", phase="roll",
              extra="dice=ss112e rolls=0")
    assert asked(s) != (0, "thump") and s.city == 0


@pytest.mark.card(1071)
def test_boo_makes_a_monster_that_stayed_in_tokyo_yield() -> None:
    s = holding("Boogie Woogie 10/0/0; Kraken 10/0/0 @city; The King 10/0/0", "boo", active=2,
                phase="roll", extra="dice=ss112e rolls=0")
    s = rules.apply(s, rules.STAY)
    assert rules.window_of(s) == "stayed"
    s, _ = play(s, "boo")
    assert s.city == 2 and s.flags["evo.0.0"] == 4  # The King took Kraken's place


@pytest.mark.card(1071, edge=True)
def test_boo_comes_back_from_the_discard_for_one_energy_in_its_owners_buy_step() -> None:
    s = rules.from_text("Boogie Woogie 10/0/3; Kraken 10/0/0 | active=0 turn=3 phase=buy "
                        "market=heal,energize,jetfighters flags=powerup:1,evo.n.0:8,evo.n.1:8,"
                        f"evo.0.0:4,evoc.0.0:{card('boo')}")
    assert asked(s) == (0, "buy") and use("boo") in rules.legal_actions(s)
    s = rules.apply(s, use("boo"))
    assert s.energy[0] == 2 and rules.hand_of(s, 0) == ((0, card("boo")),)
    assert asked(s) == (0, "buy") and use("boo") not in rules.legal_actions(s)


def _into_empty_tokyo(holder: str, slug: str, *, extra: str = "") -> rules.State:
    """Kraken, seat 0, resolves a roll with Tokyo empty; seat 1, ``holder``, holds ``slug``."""
    return holding(f"Kraken 10/0/0; {holder}; Alienoid 10/0/0", slug, seat=1, phase="roll",
                   extra=f"dice=112eee rolls=0 {extra}")


@pytest.mark.card(1036)
def test_feline_motor_enters_tokyo_in_the_place_of_the_monster_whose_turn_it_is() -> None:
    s = _into_empty_tokyo("Cyber Kitty 10/0/0", "felinemotor")
    assert rules.window_of(s) == "enter" and asked(s) == (1, "evolution")
    s, _ = play(s, "felinemotor", seat=1)
    assert s.city == 1 and s.stars[1] == 1 and not s.in_tokyo(0)
    assert s.cards[1] == (card("felinemotor"),)


@pytest.mark.card(1036, edge=True)
def test_feline_motor_in_play_is_used_again_on_a_later_turn() -> None:
    s = table("Kraken 10/0/0", "Cyber Kitty 10/0/0 +felinemotor", "Alienoid 10/0/0",
              phase="roll", extra="dice=112eee rolls=0")
    assert asked(s) == (1, "feline")
    s = rules.apply(s, use("felinemotor"))
    assert s.city == 1 and not s.in_tokyo(0)
    started_there = table("Kraken 10/0/0", "Cyber Kitty 10/0/0 +felinemotor", "Alienoid 10/0/0",
                          phase="roll", extra="dice=112eee rolls=0",
                          flags="t.intokyo:2")
    assert asked(started_there) != (1, "feline")


@pytest.mark.card(1041)
def test_monkey_rush_takes_the_place_a_monster_just_left() -> None:
    s = holding("Kraken 10/0/0; The King 10/0/0; Alienoid 10/0/0 @city", "monkeyrush", seat=1,
                phase="roll", extra="dice=ss112e rolls=0")
    s = rules.apply(s, rules.YIELD)  # Alienoid yields to Kraken's smash
    while rules.window_of(s) != "enter":
        s = rules.apply(s, rules.PASS)
    s, _ = play(s, "monkeyrush", seat=1)
    assert s.city == 1 and not s.in_tokyo(0)


@pytest.mark.card(1041, edge=True)
def test_monkey_rush_is_not_offered_when_tokyo_was_empty_all_turn() -> None:
    s = _into_empty_tokyo("The King 10/0/0", "monkeyrush")
    assert rules.window_of(s) == "enter" and rules.legal_actions(s) == (rules.PASS,)


@pytest.mark.card(1114)
def test_monkey_leap_takes_an_empty_tokyo_instead_of_the_monster_entering() -> None:
    s = _into_empty_tokyo("King Kong 10/0/0", "monkeyleap")
    s, _ = play(s, "monkeyleap", seat=1)
    assert s.city == 1 and not s.in_tokyo(0) and s.flags["evo.1.0"] == 4


@pytest.mark.card(1114, edge=True)
def test_monkey_leap_is_not_offered_while_the_bay_holds_a_monster() -> None:
    s = holding("Kraken 10/0/0; King Kong 10/0/0; Alienoid 10/0/0 @bay; The King 10/0/0; "
                "Meka Dragon 10/0/0", "monkeyleap", seat=1, phase="roll",
                extra="dice=112eee rolls=0")
    assert rules.window_of(s) == "enter" and rules.legal_actions(s) == (rules.PASS,)


@pytest.mark.card(1018)
def test_icy_reflection_becomes_a_copy_of_a_permanent_evolution_in_play() -> None:
    s = table("Space Penguin 10/0/0", "Meka Dragon 10/0/0 +clawsofsteel", "Kraken 10/0/0",
              phase="end", flags="evo.0.0:2",
              extra=f"slots={rules.slot_key(0, 0)}:{card('icyreflection')}")
    s, found = play(s, "icyreflection")
    assert s.flags["copy.1018"] == card("clawsofsteel") and not rules.broken_invariants(s)
    assert "Space Penguin's Icy Reflection copies Claws of Steel" in [
        rules.describe_event(e, s) for e in found]


@pytest.mark.card(1018, edge=True)
def test_icy_reflection_leaves_play_with_the_card_it_copies() -> None:
    s = table("Space Penguin 10/0/0 +icyreflection", "Meka Dragon 1/0/0 @city +clawsofsteel",
              "Kraken 10/0/0", phase="roll", extra="dice=s112ee rolls=0",
              flags=f"copy.1018:{card('clawsofsteel')}")
    assert not s.alive[1] and s.cards[0] == () and "copy.1018" not in s.flags
    assert s.flags["evo.0.0"] == 4 and not rules.broken_invariants(s)


@pytest.mark.card(1011)
def test_freeze_ray_goes_to_the_monster_wounded_in_tokyo_whose_named_face_does_nothing() -> None:
    s = table("Space Penguin 10/0/0 +freezeray", "Kraken 10/0/0 @city", phase="roll",
              extra="dice=ss112e rolls=0")
    s = rules.apply(s, rules.STAY)
    assert s.cards == ((), (card("freezeray"),)) and not rules.broken_invariants(s)
    while s.active == 0:
        s = rules.apply(s, rules.PASS if rules.PASS in rules.legal_actions(s) else rules.DONE)
    assert asked(s) == (0, "freeze")  # Space Penguin names a face at the start of Kraken's turn
    s = rules.apply(s, use("freezeray", ONE))
    s = rules.apply(s, rules.RandomResult((ONE, ONE, ONE, SMASH, TWO, THREE)))
    s = rules.apply(s, rules.STOP)
    assert s.stars[1] == 0 and s.hp[0] == 9  # its three 1s score nothing; its ✸ still hits


@pytest.mark.card(1011, edge=True)
def test_freeze_ray_comes_back_at_the_end_of_the_frozen_monsters_turn() -> None:
    s = gifted("Space Penguin 10/0/0; Kraken 10/0/0 @city", "freezeray", phase="end")
    assert s.cards == ((card("freezeray"),), ()) and not rules.broken_invariants(s)


@pytest.mark.card(1144)
def test_heart_of_the_rabbit_rerolls_one_die_of_another_monsters_final_roll() -> None:
    s = holding("Kraken 10/0/0; Cyber Bunny 10/0/0 @city", "heartoftherabbit", seat=1,
                phase="roll", extra="dice=sss12e rolls=0", at_resolve=True)
    assert rules.window_of(s) == "resolve" and asked(s) == (1, "evolution")
    s, _ = play(s, "heartoftherabbit", seat=1)
    assert asked(s) == (1, "rabbit") and len(rules.legal_actions(s)) == 6
    s = rules.apply(s, use("heartoftherabbit", 0))
    s = rules.apply(s, rules.RandomResult((HEART,)))
    assert s.hp[1] == 10 - 2


@pytest.mark.card(1144, edge=True)
def test_heart_of_the_rabbit_comes_back_when_its_owner_takes_tokyo() -> None:
    s = holding("Kraken 10/0/0; Cyber Bunny 10/0/0", "heartoftherabbit", seat=1,
                phase="roll", extra="dice=112eee rolls=0", at_resolve=True)
    s, _ = play(s, "heartoftherabbit", seat=1)
    s = rules.apply(s, use("heartoftherabbit", 5))
    s = rules.apply(s, rules.RandomResult((ENERGY,)))
    assert s.flags["evo.1.0"] == 4  # in the discard, face up
    while s.active == 0:
        s = rules.apply(s, rules.PASS if rules.PASS in rules.legal_actions(s) else rules.DONE)
    assert s.city == 0  # Kraken entered; now Cyber Bunny smashes it out and takes its place
    s = rules.apply(s, rules.RandomResult((SMASH, SMASH, ONE, ONE, TWO, TWO)))
    s = rules.apply(s, rules.STOP)
    while asked(s) != (0, "yield"):
        s = rules.apply(s, rules.PASS)
    s = rules.apply(s, rules.YIELD)
    while s.city != 1:
        s = rules.apply(s, rules.PASS)
    assert rules.hand_of(s, 1) == ((0, card("heartoftherabbit")),)


def test_heart_of_the_rabbit_names_the_die_from_one_with_its_face() -> None:
    s = holding("Kraken 10/0/0; Cyber Bunny 10/0/0 @city", "heartoftherabbit", seat=1,
                phase="roll", extra="dice=sss12e rolls=0", at_resolve=True)
    s, _ = play(s, "heartoftherabbit", seat=1)
    assert (rules.describe_action(s, use("heartoftherabbit", 0))
            == "Cyber Bunny rerolls Kraken's die 1 (✸) (Heart of the Rabbit)")


def _encased() -> rules.State:
    """Space Penguin froze its ✸ die 1, and Kraken's turn begins."""
    s = table("Space Penguin 10/0/2 +encasedinice", "Kraken 10/0/0", phase="roll",
              extra="dice=s112ee rolls=0")
    assert asked(s) == (0, "change") and use("encasedinice", 0) in rules.legal_actions(s)
    s = rules.apply(s, use("encasedinice", 0))
    assert s.energy[0] == 2 - 1 + 2 + 1  # paid 1, then two ⚡ rolled and one for entering Tokyo
    while s.active == 0:
        s = rules.apply(s, rules.PASS if rules.PASS in rules.legal_actions(s) else rules.DONE)
    return s


@pytest.mark.card(1015)
def test_encased_in_ice_keeps_a_die_through_the_next_monsters_roll() -> None:
    s = _encased()
    assert s.cards[0] == (card("encasedinice"),)
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.bounds == (6,) * 5
    s = rules.apply(s, rules.RandomResult((ONE, ONE, TWO, TWO, THREE)))
    assert s.dice == (SMASH, ONE, ONE, TWO, TWO, THREE)
    rerolls = [a for a in rules.legal_actions(s) if isinstance(a, rules.Reroll)]
    assert rerolls and all(0 not in a.dice for a in rerolls)
    with pytest.raises(rules.IllegalAction):
        rules.apply(s, rules.Reroll((0, 1)))


@pytest.mark.card(1015, edge=True)
def test_encased_in_ice_lets_go_when_its_owners_next_turn_begins() -> None:
    s = _encased()
    assert s.cards[0] == (card("encasedinice"),)
    s = rules.apply(s, rules.RandomResult((ONE, ONE, TWO, TWO, THREE)))
    while s.active == 1:
        legal = rules.legal_actions(s)
        s = rules.apply(s, next(a for a in (rules.STOP, rules.PASS, rules.DONE, rules.STAY)
                                if a in legal))
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.bounds == (6,) * 6
    assert "evo.ice" not in s.flags


@pytest.mark.card(1115)
def test_it_was_beauty_killed_the_beast_gives_the_beauty_to_whoever_smashes_its_holder() -> None:
    s, found = play(holding("King Kong 10/0/0 @city; Kraken 10/0/0", "itwasbeautykilledthebeast",
                            active=1, phase="end"), "itwasbeautykilledthebeast")
    assert "King Kong takes the Beauty (It Was Beauty Killed the Beast)" in [
        rules.describe_event(e, s) for e in found]
    assert s.flags["evo.beauty"] == 1
    s = table("King Kong 10/0/0 @city +itwasbeautykilledthebeast", "Kraken 10/0/0", active=1,
              phase="roll", extra="dice=ss112e rolls=0", flags="evo.beauty:1")
    assert s.flags["evo.beauty"] == 2  # Kraken's smash took it


@pytest.mark.card(1115, edge=True)
def test_without_its_beauty_king_kong_keeps_its_smashes_and_wounds_only_the_holder() -> None:
    s = table("King Kong 10/0/0 +itwasbeautykilledthebeast", "Kraken 10/0/0",
              "The King 10/0/0 @city", phase="start", flags="evo.beauty:2")
    s = rules.apply(s, rules.RandomResult((SMASH, SMASH, ONE, ONE, TWO, TWO)))
    rerolls = [a for a in rules.legal_actions(s) if isinstance(a, rules.Reroll)]
    assert rerolls and all(0 not in a.dice and 1 not in a.dice for a in rerolls)
    s = rules.apply(s, rules.STOP)
    assert s.hp == [10, 10, 10]  # The King in Tokyo is no Beauty holder: nobody is hit


def test_the_questions_of_chest_thumping_freeze_ray_and_icy_reflection_are_worded() -> None:
    s = table("The King 10/0/0 +chestthumping", "Kraken 10/0/0 @city", phase="roll",
              extra="dice=ss112e rolls=0")
    assert (rules.describe_action(s, use("chestthumping", 1))
            == "The King forces Kraken out of Tokyo (Chest Thumping)")
    s = gifted("Space Penguin 10/0/0; Kraken 10/0/0 @city", "freezeray")
    assert asked(s) == (0, "freeze")
    assert (rules.describe_action(s, use("freezeray", SMASH))
            == "Space Penguin names ✸: it does nothing for Kraken this turn (Freeze Ray)")
    s = table("Space Penguin 10/0/0", "Meka Dragon 10/0/0 +clawsofsteel +lightningarmor",
              "Kraken 10/0/0", phase="end", flags="evo.0.0:2,evo.1.1:5,evoc.1.1:"
              f"{card('lightningarmor')}", extra=f"slots={rules.slot_key(0, 0)}:"
                                                 f"{card('icyreflection')}")
    s, _ = play(s, "icyreflection")
    assert asked(s) == (0, "icy")
    assert (rules.describe_action(s, use("icyreflection", card("clawsofsteel")))
            == "Space Penguin copies Claws of Steel (Icy Reflection)")
