"""Power Up!: playing Evolutions in the windows at the start and the end of every turn, and the
effects of the Temporary Evolutions played there.

Each test names the cards it covers with ``@pytest.mark.card(id, ..., edge=...)``. A seat's hand
is written in the notation's flags and slots: ``evo.0.0:2`` puts slot 0 of seat 0 in its hand,
and ``slots=-1:CARD`` says which card it holds, as its owner's replica knows it.
"""

from __future__ import annotations

import pytest

from kotp2p import rules
from tests.rules.kit import asked, card, past_wounds

MARKET = "market=heal,energize,jetfighters"


def holding(seats: str, slug: str, *, seat: int = 0, active: int = 0, phase: str = "end",
            hidden: bool = False, extra: str = "", at_resolve: bool = False) -> rules.State:
    """``seats`` at ``phase`` of ``active``'s turn, with ``seat`` holding ``slug`` in slot 0.

    Another seat than the active one passes at the window before the active monster's dice
    resolve, unless ``at_resolve``: most tests are about what comes after."""
    n = seats.count(";") + 1
    decks = ",".join(f"evo.n.{t}:8" for t in range(n))
    content = "?" if hidden else str(card(slug))
    key = rules.slot_key(seat, 0)
    s = rules.from_text(f"{seats} | active={active} turn=3 phase={phase} {MARKET} {extra} "
                        f"flags=powerup:1,{decks},evo.{seat}.0:2 slots={key}:{content}")
    while seat != active and not at_resolve and rules.window_of(s) == "resolve":
        s = rules.apply(s, rules.PASS)
    return s


def play(s: rules.State, slug: str, *, seat: int = 0) -> tuple[rules.State, list[rules.Event]]:
    """``seat`` plays ``slug`` from slot 0 in the window open now, and the others pass."""
    assert asked(s) == (seat, "evolution"), rules.to_text(s)
    found: list[rules.Event] = []
    s = rules.apply(s, rules.PlayEvolution(0, card(slug)), events=found)
    while asked(s) is not None and asked(s)[1] == "evolution":  # type: ignore[index]
        s = rules.apply(s, rules.PASS, events=found)
    return s, found


def test_a_seat_holding_evolutions_is_asked_even_when_it_can_play_none() -> None:
    s = holding("Giga Zaur 10/0/0; Kraken 10/0/0", "saurianadaptability")
    assert asked(s) == (0, "evolution") and rules.legal_actions(s) == (rules.PASS,)
    blind = holding("Giga Zaur 10/0/0; Kraken 10/0/0", "saurianadaptability", hidden=True)
    assert asked(blind) == (0, "evolution") and blind.digest() == s.digest()
    assert rules.PlayEvolution(0, card("radioactivewaste")) in rules.legal_actions(blind)
    s = rules.apply(s, rules.PASS)
    assert s.active == 1 and asked(s) == (0, "evolution")  # the start of Kraken's turn asks again
    assert rules.hand_of(s, 0) == ((0, card("saurianadaptability")),)


def test_a_seat_with_an_empty_hand_is_not_asked() -> None:
    s = holding("Giga Zaur 10/0/0; Kraken 10/0/0", "radioactivewaste", seat=1)
    assert asked(s) == (1, "evolution")
    s = rules.apply(s, rules.PASS)
    assert asked(s) == (1, "evolution")  # Kraken's own turn: still only Kraken is asked


@pytest.mark.card(1021)
def test_alien_scourge_gains_two_stars_and_goes_to_its_owners_discard_open() -> None:
    s, found = play(holding("Alienoid 10/3/0; Kraken 10/0/0", "alienscourge"), "alienscourge")
    assert s.stars[0] == 5 and rules.EvolutionPlayed(0, 0, card("alienscourge")) in found
    assert s.flags["evo.0.0"] == 4 and rules.hand_of(s, 0) == ()
    assert "Alienoid plays Alien Scourge" in [rules.describe_event(e, s) for e in found]


@pytest.mark.card(1021, edge=True)
def test_alien_scourge_at_the_end_of_a_turn_with_eighteen_stars_wins_that_turn() -> None:
    s, _ = play(holding("Alienoid 10/18/0; Kraken 10/0/0", "alienscourge"), "alienscourge")
    assert s.is_over and s.winners == (0,)


@pytest.mark.card(1033)
def test_electro_scratch_makes_every_other_monster_lose_one_heart() -> None:
    s, _ = play(holding("Cyber Kitty 10/0/0; Kraken 10/0/0; The King 7/0/0", "electroscratch"),
                "electroscratch")
    assert s.hp == [10, 9, 6]


@pytest.mark.card(1033, edge=True)
def test_electro_scratch_eliminates_a_monster_at_one_heart_and_its_tokyo_seat_is_free() -> None:
    s, _ = play(holding("Cyber Kitty 10/0/0; Kraken 1/0/0 @city; The King 7/0/0",
                        "electroscratch"), "electroscratch")
    assert not s.alive[1] and not s.in_tokyo(1) and s.hp[2] == 6


@pytest.mark.card(1044, 1075, 1151)
@pytest.mark.parametrize(("monster", "slug"), [("The King", "giantbanana"),
                                               ("Boogie Woogie", "wellofshadow"),
                                               ("Kraken", "healingrain")])
def test_giant_banana_well_of_shadow_and_healing_rain_heal_two(monster: str, slug: str) -> None:
    s, _ = play(holding(f"{monster} 5/0/0 @city; Alienoid 10/0/0", slug), slug)
    assert s.hp[0] == 7  # in Tokyo too: only heart dice do not heal there


@pytest.mark.card(1044, 1075, 1151, edge=True)
@pytest.mark.parametrize(("monster", "slug"), [("The King", "giantbanana"),
                                               ("Boogie Woogie", "wellofshadow"),
                                               ("Kraken", "healingrain")])
def test_giant_banana_well_of_shadow_and_healing_rain_stop_at_the_maximum(monster: str,
                                                                          slug: str) -> None:
    s, found = play(holding(f"{monster} 9/0/0; Alienoid 10/0/0", slug), slug)
    assert s.hp[0] == 10
    assert [e for e in found if isinstance(e, rules.Healed)] == [rules.Healed(0, 1, card(slug))]


@pytest.mark.card(1052)
def test_radioactive_waste_gains_two_energy_and_one_heart() -> None:
    s, _ = play(holding("Giga Zaur 6/0/1; Kraken 10/0/0", "radioactivewaste"), "radioactivewaste")
    assert (s.hp[0], s.energy[0]) == (7, 3)


@pytest.mark.card(1052, edge=True)
def test_radioactive_waste_at_full_health_still_gives_the_energy() -> None:
    s, _ = play(holding("Giga Zaur 10/0/1; Kraken 10/0/0", "radioactivewaste"), "radioactivewaste")
    assert (s.hp[0], s.energy[0]) == (10, 3)


@pytest.mark.card(1053)
def test_primal_bellow_makes_every_other_monster_lose_two_stars() -> None:
    s, _ = play(holding("Giga Zaur 10/4/0; Kraken 10/5/0; The King 10/9/0", "primalbellow"),
                "primalbellow")
    assert s.stars == [4, 3, 7]


@pytest.mark.card(1053, edge=True)
def test_primal_bellow_stops_at_zero_stars() -> None:
    s, found = play(holding("Giga Zaur 10/4/0; Kraken 10/1/0", "primalbellow"), "primalbellow")
    assert s.stars == [4, 0]
    lost = [(e.seat, e.delta, e.card) for e in found if isinstance(e, rules.StarsChanged)]
    assert lost == [(1, -1, card("primalbellow"))]


@pytest.mark.card(1076)
def test_worm_invaders_makes_every_other_monster_lose_two_hearts() -> None:
    s, _ = play(holding("Boogie Woogie 10/0/0; Kraken 10/0/0; The King 7/0/0", "worminvaders"),
                "worminvaders")
    assert s.hp == [10, 8, 5]


@pytest.mark.card(1076, edge=True)
def test_worm_invaders_on_a_monster_in_tokyo_is_no_smash_it_is_not_asked_to_yield() -> None:
    s, _ = play(holding("Boogie Woogie 10/0/0; Kraken 10/0/0 @city", "worminvaders"),
                "worminvaders")
    assert s.hp[1] == 8 and s.city == 1 and asked(s) is None and s.active == 1


@pytest.mark.card(1083)
def test_smashing_pumpkin_hurts_every_monster_with_twelve_stars_or_more_its_owner_too() -> None:
    s, _ = play(holding("Pumpkin Jack 10/12/0; Kraken 10/11/0; The King 7/15/0",
                        "smashingpumpkin"), "smashingpumpkin")
    assert s.hp == [8, 10, 5]


@pytest.mark.card(1083, edge=True)
def test_smashing_pumpkin_with_nobody_at_twelve_stars_does_nothing_and_is_spent() -> None:
    s, found = play(holding("Pumpkin Jack 10/2/0; Kraken 10/11/0", "smashingpumpkin"),
                    "smashingpumpkin")
    assert s.hp == [10, 10] and s.flags["evo.0.0"] == 4
    assert not [e for e in found if isinstance(e, rules.Damaged)]


@pytest.mark.card(1131)
def test_panda_monium_gives_six_energy_and_three_to_every_other_monster() -> None:
    s, _ = play(holding("Pandakaï 10/0/0; Kraken 10/0/1; The King 7/0/0", "pandamonium"),
                "pandamonium")
    assert s.energy == [6, 4, 3]


@pytest.mark.card(1131, edge=True)
def test_panda_monium_gives_nothing_to_an_eliminated_monster() -> None:
    s, _ = play(holding("Pandakaï 10/0/0; Kraken 0/0/0 dead=1; The King 7/0/0", "pandamonium"),
                "pandamonium")
    assert s.energy == [6, 0, 3]


@pytest.mark.card(1134)
def test_bear_necessities_trades_a_star_for_two_energy_and_two_hearts() -> None:
    s, _ = play(holding("Pandakaï 5/3/0; Kraken 10/0/0", "bearnecessities"), "bearnecessities")
    assert (s.hp[0], s.stars[0], s.energy[0]) == (7, 2, 2)


@pytest.mark.card(1134, edge=True)
def test_bear_necessities_without_stars_still_gives_the_rest() -> None:
    s, _ = play(holding("Pandakaï 5/0/0; Kraken 10/0/0", "bearnecessities"), "bearnecessities")
    assert (s.hp[0], s.stars[0], s.energy[0]) == (7, 0, 2)


@pytest.mark.card(1142)
def test_emergency_battery_gains_three_energy() -> None:
    s, _ = play(holding("Cyber Bunny 10/0/2; Kraken 10/0/0", "emergencybattery"),
                "emergencybattery")
    assert s.energy[0] == 5


@pytest.mark.card(1142, edge=True)
def test_emergency_battery_is_played_at_the_start_of_another_monsters_turn() -> None:
    s = holding("Cyber Bunny 10/0/2; Kraken 10/0/0", "emergencybattery", active=1, phase="end")
    s = rules.apply(s, rules.PASS)  # the end of Kraken's turn
    assert s.active == 0 and asked(s) == (0, "evolution")  # the start of Cyber Bunny's
    s = rules.apply(holding("Cyber Bunny 10/0/2; Kraken 10/0/0", "emergencybattery", active=0),
                    rules.PASS)
    assert s.active == 1 and asked(s) == (0, "evolution")  # the start of Kraken's turn
    s, _ = play(s, "emergencybattery")
    assert s.energy[0] == 5 and s.active == 1


def test_the_plays_of_a_window_take_effect_once_everyone_answered_clockwise_from_the_active(
) -> None:
    s = rules.from_text(
        f"Kraken 10/0/0; Pandakaï 10/0/0; Cyber Kitty 10/0/0 | active=1 turn=3 phase=end {MARKET} "
        "flags=powerup:1,evo.n.0:8,evo.n.1:8,evo.n.2:8,evo.0.0:2,evo.1.0:2,evo.2.0:2 "
        f"slots=-1:{card('healingrain')},-1001:{card('pandamonium')},"
        f"-2001:{card('electroscratch')}")
    found: list[rules.Event] = []
    assert asked(s) == (1, "evolution")
    s = rules.apply(s, rules.PlayEvolution(0, card("pandamonium")), events=found)
    assert s.energy == [0, 0, 0] and asked(s) == (2, "evolution")  # nothing yet
    s = rules.apply(s, rules.PlayEvolution(0, card("electroscratch")), events=found)
    s = rules.apply(s, rules.PlayEvolution(0, card("healingrain")), events=found)
    played = [e.seat for e in found if isinstance(e, rules.EvolutionPlayed)]
    assert played == [1, 2, 0] and s.energy == [3, 6, 3] and s.hp == [10, 9, 10]


# --- Permanent Evolutions: in front of their owner, they act as its Keep cards do ---------------


def table(*seats: str, active: int = 0, phase: str = "resolve", extra: str = "",
          flags: str = "") -> rules.State:
    """A Power Up! game of ``seats``, each ``"Monster H/S/E [@city] [evolution ...]"``: the
    Evolutions named after the numbers are in play in front of that monster, from its deck.
    ``flags`` adds to the state's flags."""
    lines, flags_of = [], ["powerup:1", *([flags] if flags else [])]
    for t, seat in enumerate(seats):
        monster_and_stats, *played = seat.split(" +")
        lines.append(monster_and_stats + "".join(f" +{slug}" for slug in played))
        flags_of.append(f"evo.n.{t}:8")
        for j, slug in enumerate(played):
            flags_of += [f"evo.{t}.{j}:5", f"evoc.{t}.{j}:{card(slug)}"]
    return rules.from_text(f"{'; '.join(lines)} | active={active} turn=3 phase={phase} {MARKET} "
                           f"flags={','.join(flags_of)} {extra}")


def test_a_permanent_played_goes_in_front_of_its_owner_and_acts_from_then_on() -> None:
    s, _ = play(holding("Cyber Kitty 10/0/0; Kraken 10/0/0", "mousehunter"), "mousehunter")
    assert s.cards[0] == (card("mousehunter"),) and s.flags["evo.0.0"] == 5
    assert rules.hand_of(s, 0) == () and not rules.broken_invariants(s)
    assert "+mousehunter" in rules.to_text(s)


@pytest.mark.card(1037)
def test_mouse_hunter_gains_a_star_when_at_least_one_1_resolves() -> None:
    s = table("Cyber Kitty 10/0/0 +mousehunter", "Kraken 10/0/0 @city", extra="dice=1hheee")
    assert s.stars[0] == 1


@pytest.mark.card(1037, edge=True)
def test_mouse_hunter_adds_to_three_1s_and_needs_a_1() -> None:
    s = table("Cyber Kitty 10/0/0 +mousehunter", "Kraken 10/0/0 @city", extra="dice=111eee")
    assert s.stars[0] == 2
    s = table("Cyber Kitty 10/0/0 +mousehunter", "Kraken 10/0/0 @city", extra="dice=223eee")
    assert s.stars[0] == 0


@pytest.mark.card(1038)
def test_meow_missile_adds_a_smash_when_a_1_resolves() -> None:
    s = table("Cyber Kitty 10/0/0 +meowmissile", "Kraken 10/0/0 @city", extra="dice=1hheee")
    assert s.hp[1] == 9


@pytest.mark.card(1038, edge=True)
def test_meow_missile_without_a_1_adds_nothing() -> None:
    s = table("Cyber Kitty 10/0/0 +meowmissile", "Kraken 10/0/0 @city", extra="dice=2hhees")
    assert s.hp[1] == 9  # the rolled smash only


@pytest.mark.card(1056)
def test_heat_vision_takes_a_star_from_the_monster_whose_smashes_wound_its_owner() -> None:
    s = table("The King 10/3/0", "Giga Zaur 10/0/0 @city +heatvision", extra="dice=sssee1")
    assert s.hp[1] == 7 and s.stars[0] == 2


@pytest.mark.card(1056, edge=True)
def test_heat_vision_takes_nothing_for_a_hit_that_is_no_smash() -> None:
    s = holding("Alienoid 10/0/0 +heatvision; Cyber Kitty 10/2/0", "electroscratch", seat=1,
                active=1)
    s = rules.from_text(rules.to_text(s).replace("flags=", "flags=evo.0.1:5,evoc.0.1:1056,"))
    s, _ = play(s, "electroscratch", seat=1)
    assert s.hp[0] == 9 and s.stars[1] == 2


@pytest.mark.card(1077)
def test_nightlife_heals_one_when_its_owner_enters_tokyo() -> None:
    s = table("Boogie Woogie 6/0/0 +nightlife", "Kraken 10/0/0", extra="dice=2233ee")
    assert s.city == 0 and s.hp[0] == 7


@pytest.mark.card(1077, edge=True)
def test_nightlife_gives_nothing_at_full_health_or_when_staying_outside() -> None:
    s = table("Boogie Woogie 10/0/0 +nightlife", "Kraken 10/0/0", extra="dice=2233ee")
    assert s.city == 0 and s.hp[0] == 10
    s = table("Boogie Woogie 6/0/0 +nightlife", "Kraken 10/0/0 @city", extra="dice=2233ee")
    assert s.city == 1 and s.hp[0] == 6


@pytest.mark.card(1156)
def test_eater_of_souls_heals_on_entering_tokyo_and_raises_the_maximum_to_twelve() -> None:
    s = table("Kraken 10/0/0 +eaterofsouls", "The King 10/0/0", extra="dice=2233ee")
    assert s.city == 0 and s.hp[0] == 11
    s = table("Kraken 10/0/0 +eaterofsouls", "The King 10/0/0 @city", extra="dice=hhh2ee")
    assert s.hp[0] == 12


@pytest.mark.card(1156, edge=True)
def test_eater_of_souls_with_even_bigger_still_stops_at_twelve_hearts() -> None:
    s = table("Kraken 10/0/0 +evenbigger +eaterofsouls", "The King 10/0/0 @city",
              extra="dice=hhhhhh")
    assert s.hp[0] == 12 and rules.max_hp(s, 0) == 12


@pytest.mark.card(1116)
def test_jet_club_adds_a_smash_while_in_tokyo() -> None:
    s = table("King Kong 10/0/0 @city +jetclub", "Kraken 10/0/0", extra="dice=2233ee")
    assert s.hp[1] == 9


@pytest.mark.card(1116, edge=True)
def test_jet_club_adds_nothing_outside_tokyo() -> None:
    s = table("King Kong 10/0/0 +jetclub", "Kraken 10/0/0 @city", extra="dice=2233ee")
    assert s.hp[1] == 10 and s.city == 1


@pytest.mark.card(1137)
def test_pandarwinism_gains_a_star_for_three_hearts_and_one_more_for_each_beyond() -> None:
    s = table("Pandakaï 5/0/0 +pandarwinismsurvivalofthecutest", "Kraken 10/0/0 @city",
              extra="dice=hhh23e")
    assert s.stars[0] == 1 and s.hp[0] == 8
    s = table("Pandakaï 5/0/0 +pandarwinismsurvivalofthecutest", "Kraken 10/0/0 @city",
              extra="dice=hhhhhe")
    assert s.stars[0] == 3


@pytest.mark.card(1137, edge=True)
def test_pandarwinism_needs_three_hearts() -> None:
    s = table("Pandakaï 5/0/0 +pandarwinismsurvivalofthecutest", "Kraken 10/0/0 @city",
              extra="dice=hh223e")
    assert s.stars[0] == 0


@pytest.mark.card(1145)
def test_secret_laboratory_makes_power_cards_cost_one_less() -> None:
    s = table("Cyber Bunny 10/0/2 +secretlaboratory", "Kraken 10/0/0", phase="buy")
    s = rules.apply(s, rules.Buy(card("heal")))
    assert s.energy[0] == 0 and card("heal") not in s.market


@pytest.mark.card(1145, edge=True)
def test_secret_laboratory_adds_to_alien_origin() -> None:
    s = table("Cyber Bunny 10/0/1 +alienorigin +secretlaboratory", "Kraken 10/0/0", phase="buy")
    assert rules.Buy(card("heal")) in rules.legal_actions(s)  # 3⚡ for 1⚡
    s = rules.apply(s, rules.Buy(card("heal")))
    assert s.energy[0] == 0


@pytest.mark.card(1146)
def test_king_of_the_gizmo_gains_a_star_for_each_card_bought() -> None:
    s = table("Cyber Bunny 10/1/9 +kingofthegizmo", "Kraken 10/0/0", phase="buy")
    s = rules.apply(s, rules.Buy(card("energize")))
    assert s.stars[0] == 2


@pytest.mark.card(1146, edge=True)
def test_king_of_the_gizmo_counts_a_discard_card_too_but_not_a_sweep() -> None:
    s = table("Cyber Bunny 10/1/9 +kingofthegizmo", "Kraken 10/0/0", phase="buy")
    s = rules.apply(s, rules.SWEEP)
    assert s.stars[0] == 1


@pytest.mark.card(1158)
def test_mandibles_of_dread_takes_a_star_from_each_monster_its_owner_wounds() -> None:
    s = table("Kraken 10/0/0 +mandiblesofdread", "The King 10/3/0 @city", extra="dice=ss23ee")
    assert s.hp[1] == 8 and s.stars[1] == 2


@pytest.mark.card(1158, edge=True)
def test_mandibles_of_dread_takes_nothing_below_zero_and_nothing_without_a_wound() -> None:
    s = table("Kraken 10/0/0 +mandiblesofdread", "The King 10/0/0 @city", extra="dice=ss23ee")
    assert s.hp[1] == 8 and s.stars[1] == 0
    s = table("Kraken 10/0/0 +mandiblesofdread", "The King 10/3/0 @city", extra="dice=1123ee")
    assert s.stars[1] == 3


def use(slug: str, *args: int) -> rules.UseCard:
    return rules.UseCard(card(slug), tuple(args))


def stopped(*seats: str, dice: str) -> rules.State:
    """Seat 0's last roll shows ``dice``: what its cards offer to change them comes now."""
    return table(*seats, phase="roll", extra=f"dice={dice} rolls=0")


@pytest.mark.card(1046)
def test_alpha_male_gains_a_star_when_its_smashes_wound() -> None:
    s = table("The King 10/0/0 +alphamale", "Kraken 10/0/0 @city", extra="dice=s1123e")
    assert s.hp[1] == 9 and s.stars[0] == 1


@pytest.mark.card(1046, edge=True)
def test_alpha_male_counts_once_a_turn_and_only_smashes() -> None:
    s = table("The King 10/0/0 +alphamale", "Kraken 10/0/0", "Alienoid 10/0/0",
              "Meka Dragon 10/0/0", "Space Penguin 10/0/0 @city", "Giga Zaur 10/0/0 @bay",
              extra="dice=s1123e")
    assert s.hp[4] == 9 and s.hp[5] == 9 and s.stars[0] == 1
    s = holding("Cyber Kitty 10/0/0; The King 10/0/0 +alphamale", "electroscratch")
    s = rules.from_text(rules.to_text(s).replace("flags=", "flags=evo.1.1:5,evoc.1.1:1046,"))
    s, _ = play(s, "electroscratch")
    assert s.stars[1] == 0


@pytest.mark.card(1047)
def test_i_am_the_king_gains_a_star_entering_tokyo_and_starting_a_turn_there() -> None:
    s = table("The King 10/0/0 +iamtheking", "Kraken 10/0/0", "Alienoid 10/0/0",
              extra="dice=2233ee")
    assert s.city == 0 and s.stars[0] == 1 + 1  # entering: 1★ by the rules, 1★ by the card
    s = table("The King 10/0/0 @city +iamtheking", "Kraken 10/0/0", "Alienoid 10/0/0",
              phase="start")
    assert s.stars[0] == 2 + 1


@pytest.mark.card(1047, edge=True)
def test_i_am_the_king_gives_nothing_to_a_turn_started_outside_tokyo() -> None:
    s = table("The King 10/0/0 +iamtheking", "Kraken 10/0/0 @city", "Alienoid 10/0/0",
              phase="start")
    assert s.stars[0] == 0


@pytest.mark.card(1055)
def test_defender_of_tokyo_takes_a_star_from_every_other_monster_at_the_start_in_tokyo() -> None:
    s = table("Giga Zaur 10/0/0 @city +defenderoftokyo", "Kraken 10/2/0", "The King 10/1/0",
              phase="start")
    assert s.stars == [2, 1, 0]


@pytest.mark.card(1055, edge=True)
def test_defender_of_tokyo_does_nothing_outside_tokyo() -> None:
    s = table("Giga Zaur 10/0/0 +defenderoftokyo", "Kraken 10/2/0 @city", phase="start")
    assert s.stars == [0, 2]


@pytest.mark.card(1057)
def test_gamma_breath_turns_one_die_into_a_smash() -> None:
    s = stopped("Giga Zaur 10/0/0 +gammabreath", "Kraken 10/0/0 @city", dice="1123ee")
    assert asked(s) == (0, "change")
    s = rules.apply(s, use("gammabreath", 0, rules.SMASH))  # once a turn: nothing more to ask
    assert s.hp[1] == 9 and asked(s) == (1, "yield")


@pytest.mark.card(1057, edge=True)
def test_gamma_breath_offers_nothing_for_dice_that_are_all_smashes() -> None:
    s = stopped("Giga Zaur 10/0/0 +gammabreath", "Kraken 10/0/0 @city", dice="ssssss")
    assert s.hp[1] == 4 and asked(s) == (1, "yield")  # no question about changing dice


@pytest.mark.card(1058)
def test_tail_sweep_turns_one_die_into_a_1_or_a_2() -> None:
    s = stopped("Giga Zaur 10/0/0 +tailsweep", "Kraken 10/0/0 @city", dice="1122ee")
    offered = [a for a in rules.legal_actions(s) if isinstance(a, rules.UseCard)]
    assert use("tailsweep", 4, rules.TWO) in offered and use("tailsweep", 0, rules.ONE) not in offered
    s = rules.apply(s, use("tailsweep", 4, rules.TWO))
    assert s.stars[0] == 2  # three 2s


@pytest.mark.card(1058, edge=True)
def test_tail_sweep_is_used_once_a_turn() -> None:
    s = stopped("Giga Zaur 10/0/0 +tailsweep", "Kraken 10/0/0 @city", dice="1122ee")
    found: list[rules.Event] = []
    s = rules.apply(s, use("tailsweep", 4, rules.TWO), events=found)
    assert asked(s) is None and rules.AutoDecision(0, "change", rules.DONE) in found


@pytest.mark.card(1063)
def test_programmed_to_destroy_gains_three_stars_and_two_energy_when_another_drops_to_zero(
) -> None:
    s = table("Meka Dragon 10/0/0 +programmedtodestroy", "Kraken 2/0/0 @city",
              extra="dice=ss23ee")
    assert not s.alive[1] and s.stars[0] == 3 and s.energy[0] == 2 + 2


@pytest.mark.card(1063, edge=True)
def test_programmed_to_destroy_counts_a_monster_another_one_knocks_out() -> None:
    s = table("Kraken 10/0/0", "Meka Dragon 10/0/0 +programmedtodestroy", "The King 1/0/0 @city",
              extra="dice=s223ee")
    assert not s.alive[2] and s.stars[1] == 3 and s.energy[1] == 2


@pytest.mark.card(1117)
def test_eighth_wonder_of_the_world_gains_a_star_for_four_identical_faces() -> None:
    s = table("King Kong 10/0/0 +8thwonderoftheworld", "Kraken 10/0/0 @city",
              extra="dice=eeee12")
    assert s.stars[0] == 1 and s.energy[0] == 4


@pytest.mark.card(1117, edge=True)
def test_eighth_wonder_of_the_world_needs_four_of_one_face_not_two_pairs() -> None:
    s = table("King Kong 10/0/0 +8thwonderoftheworld", "Kraken 10/0/0 @city",
              extra="dice=eehh12")
    assert s.stars[0] == 0


@pytest.mark.card(1135)
def test_panda_express_gains_two_stars_and_another_turn_for_every_face() -> None:
    s = table("Pandakaï 10/0/0 +pandaexpress", "Kraken 10/0/0 @city", extra="dice=123ehs")
    assert s.stars[0] == 2 and s.extra == (0,)


@pytest.mark.card(1135, edge=True)
def test_panda_express_needs_all_six_faces() -> None:
    s = table("Pandakaï 10/0/0 +pandaexpress", "Kraken 10/0/0 @city", extra="dice=123ehh")
    assert s.stars[0] == 0 and s.extra == ()


# --- Temporary Evolutions that count what happened this turn, ask others, or roll ----------------


@pytest.mark.card(1023)
def test_anger_batteries_gains_one_energy_for_each_heart_lost_this_turn() -> None:
    s = past_wounds(holding("Alienoid 10/0/0 @city; The King 10/0/0; Kraken 10/0/0",
                            "angerbatteries", active=1, phase="resolve", extra="dice=sss123"))
    s = rules.apply(s, rules.STAY)  # Alienoid lost 3♥ and stays
    s, _ = play(s, "angerbatteries")
    assert s.hp[0] == 7 and s.energy[0] == 3


@pytest.mark.card(1023, edge=True)
def test_anger_batteries_counts_only_this_turns_losses() -> None:
    s, _ = play(holding("Alienoid 4/0/0; The King 10/0/0", "angerbatteries"), "angerbatteries")
    assert s.energy[0] == 0 and s.flags["evo.0.0"] == 4


@pytest.mark.card(1032)
def test_mega_purr_each_other_monster_gives_one_energy_or_one_star_as_it_chooses() -> None:
    s, _ = play(holding("Cyber Kitty 10/0/0; Kraken 10/2/3; The King 10/0/1", "megapurr"),
                "megapurr")
    assert asked(s) == (1, "give")
    assert rules.legal_actions(s) == (use("megapurr", 0), use("megapurr", 1))
    s = rules.apply(s, use("megapurr", 1))  # Kraken gives a star; the King has only energy
    assert (s.stars, s.energy) == ([1, 1, 0], [1, 3, 0])


@pytest.mark.card(1032, edge=True)
def test_mega_purr_asks_nothing_of_a_monster_with_neither_energy_nor_stars() -> None:
    s, _ = play(holding("Cyber Kitty 10/0/0; Kraken 10/0/0", "megapurr"), "megapurr")
    assert asked(s) != (1, "give") and (s.stars, s.energy) == ([0, 0], [0, 0])


@pytest.mark.card(1141)
def test_stroke_of_genius_doubles_the_energy_gained_this_turn() -> None:
    s = holding("Cyber Bunny 10/0/0; Kraken 10/0/0 @city", "strokeofgenius", phase="resolve",
                extra="dice=eee123")
    s = rules.apply(s, rules.DONE)  # buys nothing
    s, _ = play(s, "strokeofgenius")  # at the end of the turn: 3⚡ gained, so 3⚡ more
    assert s.energy[0] == 6


@pytest.mark.card(1141, edge=True)
def test_stroke_of_genius_at_the_start_of_a_turn_has_nothing_to_double() -> None:
    s = holding("Cyber Bunny 10/0/5; Kraken 10/0/0", "strokeofgenius", active=1)
    s = rules.apply(s, rules.PASS)  # the end of Kraken's turn, then the start of Bunny's
    s, _ = play(s, "strokeofgenius")
    assert s.energy[0] == 5


@pytest.mark.card(1153)
def test_cult_worshippers_gains_a_star_for_each_heart_gained_this_turn() -> None:
    s = holding("Kraken 5/0/0; The King 10/0/0 @city", "cultworshippers", phase="resolve",
                extra="dice=hh1123")
    s, _ = play(s, "cultworshippers")
    assert s.hp[0] == 7 and s.stars[0] == 2


@pytest.mark.card(1153, edge=True)
def test_cult_worshippers_counts_hearts_gained_not_hearts_rolled_at_full_health() -> None:
    s = holding("Kraken 9/0/0; The King 10/0/0 @city", "cultworshippers", phase="resolve",
                extra="dice=hh1123")
    s, _ = play(s, "cultworshippers")  # 2 hearts rolled, 1 gained
    assert s.hp[0] == 10 and s.stars[0] == 1


@pytest.mark.card(1113)
def test_islander_sacrifice_rolls_six_dice_for_energy_and_hearts_even_in_tokyo() -> None:
    s, _ = play(holding("King Kong 5/0/0 @city; Kraken 10/0/0", "islandersacrifice"),
                "islandersacrifice")
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.bounds == (6,) * 6
    s = rules.apply(s, rules.RandomResult(rules.parse_dice("eehh12")))
    assert (s.hp[0], s.energy[0]) == (7, 2) and s.flags["evo.0.0"] == 4


@pytest.mark.card(1113, edge=True)
def test_islander_sacrifice_with_fewer_than_two_comes_back_to_the_hand_open() -> None:
    s, _ = play(holding("King Kong 5/0/0; Kraken 10/0/0", "islandersacrifice"),
                "islandersacrifice")
    s = rules.apply(s, rules.RandomResult(rules.parse_dice("e12sss")))
    assert s.energy[0] == 1 and rules.hand_of(s, 0) == ((0, card("islandersacrifice")),)
    assert s.flags["evoc.0.0"] == card("islandersacrifice")  # everyone has seen it


# --- the active monster's own windows: on entering Tokyo, and before its dice resolve -----------


@pytest.mark.card(1152)
def test_destructive_wave_is_played_on_entering_tokyo_and_hurts_every_other_monster() -> None:
    s = holding("Kraken 10/0/0; The King 10/0/0; Alienoid 7/0/0", "destructivewave",
                phase="resolve", extra="dice=1123ee")
    assert s.city == 0 and asked(s) == (0, "evolution")
    s, _ = play(s, "destructivewave")
    assert s.hp == [10, 8, 5] and asked(s) == (0, "buy")


@pytest.mark.card(1152, edge=True)
def test_destructive_wave_is_not_offered_at_the_end_of_a_turn_nor_without_entering() -> None:
    s = holding("Kraken 10/0/0; The King 10/0/0", "destructivewave")
    assert asked(s) == (0, "evolution") and rules.legal_actions(s) == (rules.PASS,)
    s = holding("Kraken 10/0/0; The King 10/0/0 @city", "destructivewave", phase="resolve",
                extra="dice=1123ee")
    assert s.city == 1 and asked(s) != (0, "evolution")


@pytest.mark.card(1132)
def test_eats_shoots_and_leaves_hurts_the_monsters_outside_gains_one_and_leaves_tokyo() -> None:
    s = holding("Pandakaï 10/0/0; The King 10/0/0; Alienoid 7/0/0", "eatsshootsandleaves",
                phase="resolve", extra="dice=1123ee")
    s, _ = play(s, "eatsshootsandleaves")
    assert s.hp == [10, 8, 5] and s.energy[0] == 2 + 1
    assert s.city < 0 and s.bay < 0  # it left, and nobody takes its place


@pytest.mark.card(1132, edge=True)
def test_eats_shoots_and_leaves_spares_the_monster_in_tokyo_bay() -> None:
    s = holding("Pandakaï 10/0/0; The King 10/0/0 @bay; Alienoid 7/0/0; Kraken 10/0/0; "
                "Cyber Kitty 10/0/0", "eatsshootsandleaves", phase="resolve", extra="dice=1123ee")
    assert s.city == 0
    s, _ = play(s, "eatsshootsandleaves")
    assert s.hp == [10, 10, 5, 8, 8] and s.bay == 1 and not s.in_tokyo(0)


@pytest.mark.card(1062)
def test_destructive_analysis_gains_one_energy_per_smash_rolled_before_resolving() -> None:
    s = holding("Meka Dragon 10/0/0; Kraken 10/0/0 @city", "destructiveanalysis", phase="roll",
                extra="dice=sss12e rolls=0")
    assert asked(s) == (0, "evolution")
    s, _ = play(s, "destructiveanalysis")
    assert s.energy[0] == 3 + 1 and s.hp[1] == 7


@pytest.mark.card(1062, edge=True)
def test_destructive_analysis_with_no_smash_gains_nothing_and_is_spent() -> None:
    s = holding("Meka Dragon 10/0/0; Kraken 10/0/0 @city", "destructiveanalysis", phase="roll",
                extra="dice=1123ee rolls=0")
    s, _ = play(s, "destructiveanalysis")
    assert s.energy[0] == 2 and s.flags["evo.0.0"] == 4


def test_a_card_played_then_shuffled_back_may_be_played_again_from_a_hidden_slot() -> None:
    s = rules.from_text(
        f"Boogie Woogie 10/0/0; Kraken 10/0/0 | active=0 turn=9 phase=end {MARKET} "
        "flags=powerup:1,evo.n.0:9,evo.n.1:8,evo.0.0:6,evoc.0.0:1076,evo.0.8:2 slots=-9:?")
    assert rules.PlayEvolution(8, card("worminvaders")) in rules.legal_actions(s)


@pytest.mark.card(1027)
def test_mothership_support_pays_one_energy_for_one_heart_in_the_buy_step() -> None:
    s = table("Alienoid 6/0/3 +mothershipsupport", "Kraken 10/0/0", phase="buy")
    assert use("mothershipsupport") in rules.legal_actions(s)
    s = rules.apply(s, use("mothershipsupport"))
    assert (s.hp[0], s.energy[0]) == (7, 2) and asked(s) == (0, "buy")


@pytest.mark.card(1027, edge=True)
def test_mothership_support_works_once_a_turn_and_not_at_full_health() -> None:
    s = rules.apply(table("Alienoid 6/0/3 +mothershipsupport", "Kraken 10/0/0", phase="buy"),
                    use("mothershipsupport"))
    assert use("mothershipsupport") not in rules.legal_actions(s)
    s = table("Alienoid 10/0/3 +mothershipsupport", "Kraken 10/0/0", phase="buy")
    assert use("mothershipsupport") not in rules.legal_actions(s)


@pytest.mark.card(1138)
def test_yin_and_yang_turns_every_die_to_its_opposite_before_resolving() -> None:
    s = stopped("Pandakaï 10/0/0 +yinyang", "Kraken 10/0/0 @city", dice="1122ee")
    assert asked(s) == (0, "change")
    s = rules.apply(s, use("yinyang"))
    assert s.dice == rules.parse_dice("33hhss") and s.hp[1] == 8 and s.hp[0] == 10


@pytest.mark.card(1138, edge=True)
def test_yin_and_yang_is_a_choice_and_turns_a_smash_into_energy_too() -> None:
    s = stopped("Pandakaï 10/0/0 +yinyang", "Kraken 10/0/0 @city", dice="sss123")
    s = rules.apply(s, rules.DONE)
    assert s.hp[1] == 7
    s = rules.apply(stopped("Pandakaï 10/0/0 +yinyang", "Kraken 10/0/0 @city", dice="sss123"),
                    use("yinyang"))
    assert s.dice == rules.parse_dice("eee3h1") and s.hp[1] == 10 and s.energy[0] == 3


@pytest.mark.card(1136)
def test_bamboo_supply_stores_energy_from_the_bank_then_gives_it_all() -> None:
    s = table("Pandakaï 10/0/1 +bamboosupply", "Kraken 10/0/0", phase="start")
    assert s.tokens[card("bamboosupply")] == 1 and s.energy[0] == 1  # one choice: put
    s = table("Pandakaï 10/0/1 +bamboosupply", "Kraken 10/0/0", phase="start",
              extra="tokens=bamboosupply:3")
    assert asked(s) == (0, "bamboo")
    s = rules.apply(s, use("bamboosupply", 1))
    assert s.energy[0] == 4 and s.tokens.get(card("bamboosupply"), 0) == 0


@pytest.mark.card(1136, edge=True)
def test_bamboo_supply_may_keep_storing_and_its_energy_is_lost_with_the_monster() -> None:
    s = table("Pandakaï 10/0/1 +bamboosupply", "Kraken 10/0/0", phase="start",
              extra="tokens=bamboosupply:3")
    s = rules.apply(s, use("bamboosupply", 0))
    assert s.tokens[card("bamboosupply")] == 4 and s.energy[0] == 1
    s = table("Pandakaï 1/0/1 +bamboosupply", "Kraken 10/0/0 @city", active=1,
              extra="dice=ssss12 tokens=bamboosupply:3")
    assert not s.alive[0] and card("bamboosupply") not in s.tokens


# --- effects that last until their owner's next turn, and skipping a turn ----------------------


@pytest.mark.card(1014)
@pytest.mark.ruling("1.2.7")
def test_cold_wave_makes_every_other_monster_roll_one_die_fewer_until_its_owners_turn() -> None:
    s, _ = play(holding("Space Penguin 10/0/0; Kraken 10/0/0; The King 10/0/0", "coldwave"),
                "coldwave")
    assert s.active == 1 and isinstance(s.pending, rules.RandomRequest)
    assert s.pending.bounds == (6,) * 5
    s = rules.from_text(
        f"Space Penguin 10/0/0; Kraken 10/0/0; The King 10/0/0 | active=2 turn=5 phase=end "
        f"{MARKET} flags=powerup:1,evo.n.0:8,evo.n.1:8,evo.n.2:8,evo.cold.0:1")
    assert s.active == 0 and "evo.cold.0" not in s.flags  # it ends as its owner's turn starts


@pytest.mark.card(1014, edge=True)
def test_cold_wave_played_just_before_its_owners_turn_ends_at_once() -> None:
    s = holding("Space Penguin 10/0/0; Kraken 10/0/0", "coldwave", active=1)
    s, _ = play(s, "coldwave")  # at the end of Kraken's turn
    assert s.active == 0 and "evo.cold.0" not in s.flags
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.bounds == (6,) * 6


@pytest.mark.card(1016)
def test_blizzard_gives_the_others_one_roll_and_no_yielding() -> None:
    s, _ = play(holding("Space Penguin 10/0/0; Kraken 10/0/0", "blizzard"), "blizzard")
    assert s.active == 1 and s.rolls_left == 0  # Kraken's only roll comes now
    s = rules.from_text(
        f"Space Penguin 10/0/0; Kraken 10/0/0 @city | active=0 turn=5 phase=resolve "
        f"dice=sss123 {MARKET} flags=powerup:1,evo.n.0:8,evo.n.1:8,evo.blizzard.0:1")
    assert s.hp[1] == 7 and s.city == 1 and asked(s) != (1, "yield")


@pytest.mark.card(1016, edge=True)
def test_blizzard_is_played_only_in_its_owners_turn() -> None:
    s = holding("Space Penguin 10/0/0; Kraken 10/0/0", "blizzard", active=1)
    assert asked(s) == (0, "evolution") and rules.legal_actions(s) == (rules.PASS,)


@pytest.mark.card(1064)
def test_tune_up_skips_its_owners_turn_for_four_hearts_and_two_energy() -> None:
    s = holding("Meka Dragon 5/0/0; Kraken 10/0/0", "tuneup", active=1)
    assert rules.legal_actions(s) == (rules.PASS,)  # not at the end of another's turn
    s = rules.apply(s, rules.PASS)
    assert s.active == 0 and asked(s) == (0, "evolution")  # the start of its own turn
    s, _ = play(s, "tuneup")
    assert (s.hp[0], s.energy[0]) == (9, 2) and s.active == 1 and s.dice == ()


@pytest.mark.card(1064, edge=True)
def test_tune_up_is_not_offered_in_tokyo() -> None:
    s = holding("Meka Dragon 5/0/0 @city; Kraken 10/0/0", "tuneup", active=1)
    s = rules.apply(s, rules.PASS)
    assert s.active == 0 and rules.legal_actions(s) == (rules.PASS,)


@pytest.mark.card(1157)
def test_sunken_temple_may_skip_the_turn_outside_tokyo_for_three_hearts_and_three_energy() -> None:
    s = table("Kraken 5/0/0 +sunkentemple", "The King 10/0/0", phase="start")
    assert asked(s) == (0, "temple")
    s = rules.apply(s, use("sunkentemple"))
    assert (s.hp[0], s.energy[0]) == (8, 3) and s.active == 1


@pytest.mark.card(1157, edge=True)
def test_sunken_temple_asks_nothing_in_tokyo_and_a_pass_plays_the_turn() -> None:
    s = table("Kraken 5/0/0 @city +sunkentemple", "The King 10/0/0", phase="start")
    assert asked(s) != (0, "temple")
    s = rules.apply(table("Kraken 5/0/0 +sunkentemple", "The King 10/0/0", phase="start"),
                    rules.PASS)
    assert s.active == 0 and isinstance(s.pending, rules.RandomRequest)


@pytest.mark.card(1022)
def test_precision_field_support_turns_cards_over_until_a_keep_card_of_four_or_less() -> None:
    s, _ = play(holding("Alienoid 10/0/0; Kraken 10/0/0", "precisionfieldsupport",
                        extra="deck=gasrefinery,alienorigin,acidattack"), "precisionfieldsupport")
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.bounds == (3,)
    s = rules.apply(s, rules.RandomResult((2,)))  # Acid Attack: a Keep card, but 6⚡
    s = rules.apply(s, rules.RandomResult((0,)))  # Gas Refinery: a Discard card
    s = rules.apply(s, rules.RandomResult((0,)))  # Alien Origin: 3⚡, kept for free
    assert s.cards[0] == (card("alienorigin"),) and s.energy[0] == 0
    assert set(s.discard) == {card("acidattack"), card("gasrefinery")} and s.deck == ()


@pytest.mark.card(1022, edge=True)
def test_precision_field_support_with_no_cheap_keep_card_discards_the_whole_deck() -> None:
    s, _ = play(holding("Alienoid 10/0/0; Kraken 10/0/0", "precisionfieldsupport",
                        extra="deck=gasrefinery,acidattack"), "precisionfieldsupport")
    s = rules.apply(rules.apply(s, rules.RandomResult((0,))), rules.RandomResult((0,)))
    assert s.cards[0] == () and s.deck == () and len(s.discard) == 2


@pytest.mark.card(1048)
def test_twas_beauty_killed_the_beast_gains_a_star_at_the_end_of_every_turn() -> None:
    s = holding("The King 10/0/0; Kraken 10/0/0", "twasbeautykilledthebeast", active=1)
    assert rules.legal_actions(s) == (rules.PASS,)  # only while in Tokyo
    s = table("The King 10/2/0 @city +twasbeautykilledthebeast", "Kraken 10/0/0", active=1,
              phase="end")
    assert s.stars[0] == 3 and s.active == 0


@pytest.mark.card(1048, edge=True)
def test_twas_beauty_killed_the_beast_is_lost_with_every_star_on_leaving_tokyo() -> None:
    s = table("The King 10/5/0 @city +twasbeautykilledthebeast", "Kraken 10/0/0", active=1,
              extra="dice=sss123")
    assert asked(s) == (0, "yield")
    s = rules.apply(s, rules.YIELD)
    assert s.cards[0] == () and s.stars[0] == 0 and s.flags["evo.0.0"] == 4


@pytest.mark.card(1112)
def test_king_of_skull_island_on_yielding_heals_fully_and_skips_the_next_turn() -> None:
    s = past_wounds(holding("King Kong 6/0/0 @city; Kraken 10/0/0; The King 10/0/0",
                            "kingofskullisland", active=1, phase="resolve", extra="dice=ss1123"))
    assert asked(s) == (0, "yield")
    s = rules.apply(s, rules.YIELD)
    assert asked(s) == (0, "evolution")  # its own window, right after yielding
    s, _ = play(s, "kingofskullisland")
    assert s.hp[0] == 10 and "evo.skip.0" in s.flags
    rolled: set[int] = set()
    while "evo.skip.0" in s.flags:  # the rest of Kraken's turn, The King's: all 1s, no buying
        if isinstance(s.pending, rules.RandomRequest):
            rolled.add(s.active)
            s = rules.apply(s, rules.RandomResult((0,) * len(s.pending.bounds)))
        else:
            legal = rules.legal_actions(s)
            quiet = [a for a in legal if a in (rules.DONE, rules.PASS, rules.STOP, rules.STAY)]
            s = rules.apply(s, (quiet or list(legal))[0])
    assert rolled == {2} and s.active == 1  # after The King, King Kong's turn came and went, no roll


@pytest.mark.card(1112, edge=True)
def test_king_of_skull_island_is_offered_only_on_yielding() -> None:
    s = past_wounds(holding("King Kong 6/0/0 @city; Kraken 10/0/0", "kingofskullisland",
                            active=1, phase="resolve", extra="dice=ss1123"))
    s = rules.apply(s, rules.STAY)  # no window of its own; the next is the end of the turn
    assert asked(s) == (0, "evolution") and rules.legal_actions(s) == (rules.PASS,)


@pytest.mark.card(1143)
def test_rabbits_foot_keeps_its_owner_from_losing_hearts_for_the_rest_of_the_turn() -> None:
    s = holding("Cyber Bunny 10/0/0; Kraken 10/0/0", "rabbitsfoot", active=1)
    s = rules.apply(s, rules.PASS)  # the end of Kraken's turn
    assert s.active == 0 and asked(s) == (0, "evolution")
    poisoned = rules.from_text(rules.to_text(s).replace("Cyber Bunny 10/0/0",
                                                        "Cyber Bunny 10/0/0 poison=2"))
    safe, _ = play(poisoned, "rabbitsfoot")
    hurt = rules.apply(poisoned, rules.PASS)
    for state in (safe, hurt):
        state = rules.apply(state, rules.RandomResult((0, 0, 1, 1, 2, 4)))  # 1 1 2 2 3 ⚡
        while state.active == 0:  # it stops rolling, buys nothing, and its turn ends
            if isinstance(state.pending, rules.RandomRequest):
                state = rules.apply(state, rules.RandomResult((0,) * len(state.pending.bounds)))
                continue
            legal = rules.legal_actions(state)
            quiet = [a for a in legal if a in (rules.STOP, rules.DONE, rules.PASS)]
            state = rules.apply(state, (quiet or list(legal))[0])
        if state is safe:
            safe = state
        else:
            hurt = state
    assert safe.hp[0] == 10 and hurt.hp[0] == 8  # its poison took nothing this turn


@pytest.mark.card(1143, edge=True)
def test_rabbits_foot_ends_with_the_turn_it_was_played_in() -> None:
    s = holding("Cyber Bunny 10/0/0; Kraken 10/0/0", "rabbitsfoot", active=1)
    s, _ = play(s, "rabbitsfoot")  # at the end of Kraken's turn: nothing left of it
    assert s.active == 0 and "t.unharmed" not in s.flags


@pytest.mark.card(1017)
def test_black_diamond_gains_a_star_more_entering_tokyo_and_staying_after_a_smash() -> None:
    s = table("Space Penguin 10/0/0 +blackdiamond", "Kraken 10/0/0", "Alienoid 10/0/0",
              extra="dice=2233ee")
    assert s.city == 0 and s.stars[0] == 1 + 1  # entering: 1★ by the rules, 1★ by the card
    s = table("Space Penguin 10/0/0 @city +blackdiamond", "Kraken 10/0/0", active=1,
              extra="dice=s2233e")
    assert asked(s) == (0, "yield")
    s = rules.apply(s, rules.STAY)
    assert s.stars[0] == 1 and s.city == 0


@pytest.mark.card(1017, edge=True)
def test_black_diamond_gives_nothing_for_yielding_and_leaves_the_stay_before_it_unchanged() -> None:
    s = table("Space Penguin 10/0/0 @city +blackdiamond", "Kraken 10/0/0", active=1,
              extra="dice=s2233e")
    stayed = rules.apply(s, rules.STAY)
    assert s.stars[0] == 0 and stayed.stars[0] == 1  # the state before is left as it was
    s = rules.apply(s, rules.YIELD)
    assert s.stars[0] == 0 and s.city == 1  # Kraken takes the City and its star


@pytest.mark.card(1025)
def test_funny_looking_but_dangerous_makes_every_other_monster_lose_a_heart_on_three_twos() -> None:
    s = table("Alienoid 10/0/0 +funnylookingbutdangerous", "Kraken 10/0/0", "The King 8/0/0",
              extra="dice=222ee3")
    assert s.hp == [10, 9, 7] and s.stars[0] == 2 + 1  # the 2s still score; it enters Tokyo


@pytest.mark.card(1025, edge=True)
def test_funny_looking_but_dangerous_needs_three_twos_and_spares_its_owner() -> None:
    s = table("Alienoid 10/0/0 +funnylookingbutdangerous", "Kraken 10/0/0", extra="dice=22eee3")
    assert s.hp == [10, 10]
    s = table("Alienoid 10/0/0 +funnylookingbutdangerous", "Kraken 1/0/0", extra="dice=2222hh")
    assert s.hp[0] == 10 and not s.alive[1] and s.winners == (0,)  # it can knock one out


@pytest.mark.card(1118)
def test_climb_tokyo_tower_gains_a_star_per_one_in_tokyo_and_six_ones_win() -> None:
    s = table("King Kong 10/0/0 @city +climbtokyotower", "Kraken 10/0/0", "The King 10/0/0",
              extra="dice=111ee3")
    assert s.stars[0] == 1 + 3  # three 1s score 1★, and the card 1★ for each
    s = table("King Kong 10/0/0 +climbtokyotower", "Kraken 10/0/0", "The King 10/0/0",
              extra="dice=111111")
    assert s.is_over and s.winners == (0,)


@pytest.mark.card(1118, edge=True)
def test_climb_tokyo_tower_gives_no_star_outside_tokyo() -> None:
    s = table("King Kong 10/0/0 +climbtokyotower", "Kraken 10/0/0 @city", "The King 10/0/0",
              extra="dice=111ee3")
    assert s.stars[0] == 1 and not s.is_over


@pytest.mark.card(1061)
def test_mecha_blast_makes_each_monster_its_smashes_wound_lose_two_more() -> None:
    s = holding("Meka Dragon 10/0/0; Kraken 10/0/0 @city", "mechablast", phase="roll",
                extra="dice=ss112e rolls=0")
    assert asked(s) == (0, "evolution")
    blasted, _ = play(s, "mechablast")
    plain = rules.apply(s, rules.PASS)
    assert plain.hp[1] == 8 and blasted.hp[1] == 8 - 2


@pytest.mark.card(1061, edge=True)
def test_mecha_blast_without_a_smash_hits_nobody() -> None:
    s = holding("Meka Dragon 10/0/0; Kraken 10/0/0 @city", "mechablast", phase="roll",
                extra="dice=1123ee rolls=0")
    s, _ = play(s, "mechablast")
    assert s.hp == [10, 10] and s.flags["evo.0.0"] == 4  # spent all the same


@pytest.mark.card(1067)
def test_claws_of_steel_adds_a_heart_to_a_hit_of_three_or_more_on_its_owners_turn() -> None:
    s = table("Meka Dragon 10/0/0 +clawsofsteel", "Kraken 10/0/0 @city", extra="dice=sss12e")
    assert s.hp[1] == 10 - 3 - 1


@pytest.mark.card(1067, edge=True)
def test_claws_of_steel_adds_nothing_to_a_hit_of_two() -> None:
    s = table("Meka Dragon 10/0/0 +clawsofsteel", "Kraken 10/0/0 @city", extra="dice=ss112e")
    assert s.hp[1] == 10 - 2


@pytest.mark.card(1031)
def test_nine_lives_keeps_its_owner_in_the_game_at_nine_hearts_and_nine_stars() -> None:
    s = holding("Cyber Kitty 2/5/4 @city +acidattack; Kraken 10/0/0", "ninelives", active=1,
                phase="roll", extra="dice=sss123 rolls=0")
    assert rules.window_of(s) == "wounded" and s.hp[0] == 2  # first, before it loses ♥
    s = past_wounds(s)
    assert s.hp[0] == 0 and rules.window_of(s) == "zero"  # at 0♥, before it is eliminated
    s, _ = play(s, "ninelives")
    assert s.alive[0] and (s.hp[0], s.stars[0], s.energy[0]) == (9, 9, 0)
    assert s.cards[0] == () and s.city == 1  # its Power cards gone, Tokyo left


@pytest.mark.card(1031, edge=True)
def test_a_monster_at_zero_that_passes_is_eliminated_and_one_with_nothing_playable_is_asked() -> None:
    s = past_wounds(holding("Cyber Kitty 2/5/4 @city; Kraken 10/0/0", "ninelives", active=1,
                            phase="roll", extra="dice=sss123 rolls=0"))
    s = rules.apply(s, rules.PASS)
    assert not s.alive[0] and s.winners == (1,)
    s = past_wounds(holding("Cyber Kitty 2/5/4 @city; Kraken 10/0/0", "meowmissile", active=1,
                            phase="roll", extra="dice=sss123 rolls=0"))
    assert rules.window_of(s) == "zero" and rules.legal_actions(s) == (rules.PASS,)


@pytest.mark.card(1111)
def test_son_of_kong_kiko_gains_four_hearts_and_leaves_tokyo_at_zero() -> None:
    s = past_wounds(holding("King Kong 3/2/0 @city; Kraken 10/0/0; The King 10/0/0",
                            "sonofkongkiko", active=1, phase="roll", extra="dice=sss123 rolls=0"))
    s, _ = play(s, "sonofkongkiko")
    assert s.alive[0] and (s.hp[0], s.stars[0]) == (4, 2) and s.city == 1


@pytest.mark.card(1111, edge=True)
def test_an_ejected_monster_gets_no_window_at_zero() -> None:
    s = holding("King Kong 3/2/0; Kraken 10/0/0; The King 10/0/0", "sonofkongkiko", active=1,
                phase="roll", extra="dice=123eee rolls=0")
    s = rules.eject(s, 0)
    assert not s.alive[0] and asked(s) != (0, "evolution")


@pytest.mark.card(1154)
def test_high_tide_doubles_the_hearts_of_its_owners_roll() -> None:
    s = holding("Kraken 3/0/0; The King 10/0/0 @city", "hightide", phase="roll",
                extra="dice=hh123e rolls=0")
    assert asked(s) == (0, "evolution")
    tide, _ = play(s, "hightide")
    plain = rules.apply(s, rules.PASS)
    assert plain.hp[0] == 3 + 2 and tide.hp[0] == 3 + 4


@pytest.mark.card(1154, edge=True)
def test_high_tide_makes_two_hearts_enough_to_draw_evolutions() -> None:
    s = holding("Kraken 3/0/0; The King 10/0/0 @city", "hightide", phase="roll",
                extra="dice=hh123e rolls=0")
    tide, _ = play(s, "hightide")
    assert isinstance(tide.pending, rules.RandomRequest) and "rand:evopick" in rules.to_text(tide)
    plain = rules.apply(s, rules.PASS)
    assert "evopick" not in rules.to_text(plain)


@pytest.mark.card(1034)
def test_cat_nip_gives_one_roll_that_counts_double() -> None:
    s = holding("Cyber Kitty 6/0/0; Kraken 10/0/0 @city", "catnip", active=1)
    s = rules.apply(s, rules.PASS)  # the end of Kraken's turn
    assert s.active == 0 and asked(s) == (0, "evolution")
    s, _ = play(s, "catnip")
    s = rules.apply(s, rules.RandomResult((0, 0, 0, 5, 3, 4)))  # 1 1 1 ✸ ⚡ ♥, no re-roll
    assert s.stars[0] == 2 and s.hp[0] == 6 + 2 and s.energy[0] == 2 and s.hp[1] == 10 - 2


@pytest.mark.card(1034, edge=True)
def test_cat_nip_is_played_only_before_its_owners_own_turn() -> None:
    s = holding("Cyber Kitty 6/0/0; Kraken 10/0/0 @city", "catnip")  # the end of its own turn
    assert asked(s) == (0, "evolution") and rules.legal_actions(s) == (rules.PASS,)


@pytest.mark.card(1086)
def test_feast_of_crows_each_other_monster_gives_a_heart_a_star_or_an_energy() -> None:
    s, _ = play(holding("Pumpkin Jack 5/0/0; Kraken 10/2/3; The King 1/0/0", "feastofcrows"),
                "feastofcrows")
    assert asked(s) == (1, "give")
    assert [rules.describe_action(s, a) for a in rules.legal_actions(s)] == [
        f"Kraken gives Pumpkin Jack {gift} (Feast of Crows)" for gift in ("1⚡", "1★", "1♥")]
    s = rules.apply(s, use("feastofcrows", 2))  # Kraken gives a heart
    assert s.hp[:2] == [6, 9]
    assert asked(s) != (2, "give")  # the King, at 1♥ with nothing else, gives nothing


@pytest.mark.card(1086, edge=True)
def test_feast_of_crows_never_takes_a_monsters_last_heart() -> None:
    s, _ = play(holding("Pumpkin Jack 5/0/0; Kraken 1/0/2", "feastofcrows"), "feastofcrows")
    assert s.hp == [5, 1] and s.energy == [1, 1]  # its one choice, an energy, taken for it


@pytest.mark.card(1074)
def test_boogie_dance_gains_an_energy_or_a_heart_on_four_of_a_kind() -> None:
    s = table("Boogie Woogie 6/0/0 +boogiedance", "Kraken 10/0/0 @city", extra="dice=11112e")
    assert asked(s) == (0, "give")
    assert [rules.describe_action(s, a) for a in rules.legal_actions(s)] == [
        "Boogie Woogie gains 1⚡ (Boogie Dance)", "Boogie Woogie gains 1♥ (Boogie Dance)"]
    s = rules.apply(s, use("boogiedance", 4))
    assert s.hp[0] == 7 and s.stars[0] == 2 and s.energy[0] == 1


@pytest.mark.card(1074, edge=True)
def test_boogie_dance_asks_nothing_for_three_of_a_kind() -> None:
    s = table("Boogie Woogie 6/0/0 +boogiedance", "Kraken 10/0/0 @city", extra="dice=11122e")
    assert asked(s) != (0, "give") and s.hp[0] == 6


@pytest.mark.card(1084)
def test_trick_or_threat_each_other_monster_gives_an_energy_or_loses_two_hearts() -> None:
    s = table("Pumpkin Jack 10/0/0 +trickorthreat", "Kraken 10/0/2 @city", "The King 10/0/0",
              extra="dice=11123e")
    assert asked(s) == (1, "give")
    assert [rules.describe_action(s, a) for a in rules.legal_actions(s)] == [
        "Kraken gives Pumpkin Jack 1⚡ (Trick or Threat)", "Kraken loses 2♥ (Trick or Threat)"]
    s = rules.apply(s, use("trickorthreat", 0))
    assert s.energy[:2] == [1 + 1, 1] and s.hp[2] == 8  # the King had no energy to give


@pytest.mark.card(1084, edge=True)
def test_trick_or_threat_needs_three_ones() -> None:
    s = table("Pumpkin Jack 10/0/0 +trickorthreat", "Kraken 10/0/2 @city", extra="dice=11223e")
    assert asked(s) != (1, "give") and s.hp[1] == 10


@pytest.mark.card(1078)
def test_dusk_ritual_is_played_right_after_its_owner_buys_a_keep_card() -> None:
    s = holding("Boogie Woogie 6/0/9; Kraken 10/0/0", "duskritual", phase="buy",
                extra="market=acidattack,energize,heal")
    s = rules.apply(s, rules.Buy(rules.card_by_name("Acid Attack")))
    s = rules.apply(s, rules.RandomResult((0,)))  # the market's refill
    assert asked(s) == (0, "evolution")
    s, _ = play(s, "duskritual")
    assert (s.hp[0], s.energy[0]) == (8, 9 - 6 + 2) and asked(s) == (0, "buy")


@pytest.mark.card(1078, edge=True)
def test_dusk_ritual_is_not_offered_after_a_discard_card() -> None:
    s = holding("Boogie Woogie 6/0/9; Kraken 10/0/0", "duskritual", phase="buy",
                extra="market=acidattack,energize,heal")
    s = rules.apply(s, rules.Buy(rules.card_by_name("Energize")))
    s = rules.apply(s, rules.RandomResult((0,)))
    assert asked(s) == (0, "buy")


@pytest.mark.card(1148)
def test_electric_carrot_each_monster_wounded_from_tokyo_pays_an_energy_or_a_heart_more() -> None:
    s = table("Cyber Bunny 10/0/0 @city +electriccarrot", "Kraken 10/0/2", "The King 10/0/0",
              extra="dice=ss1233")
    assert asked(s) == (1, "give")
    assert [rules.describe_action(s, a) for a in rules.legal_actions(s)] == [
        "Kraken gives Cyber Bunny 1⚡ (Electric Carrot)",
        "Kraken loses 1♥ more (Electric Carrot)"]
    s = rules.apply(s, use("electriccarrot", 6))
    assert s.hp[1] == 10 - 2 - 1 and s.hp[2] == 10 - 2 - 1  # the King had no ⚡: 1♥ more


@pytest.mark.card(1148, edge=True)
def test_electric_carrot_asks_nothing_outside_tokyo() -> None:
    s = table("Cyber Bunny 10/0/0 +electriccarrot", "Kraken 10/0/2 @city", extra="dice=ss1233")
    assert asked(s) != (1, "give") and s.hp[1] == 8


@pytest.mark.card(1065)
def test_breath_of_doom_wounding_tokyo_costs_every_other_monster_outside_a_heart() -> None:
    s = table("Meka Dragon 10/0/0 +breathofdoom", "Kraken 10/0/0 @city", "The King 10/0/0",
              "Alienoid 10/0/0", extra="dice=ss1233")
    assert s.hp == [10, 8, 9, 9]


@pytest.mark.card(1065, edge=True)
def test_breath_of_doom_needs_a_monster_in_tokyo_to_lose_hearts() -> None:
    s = table("Meka Dragon 10/0/0 @city +breathofdoom", "Kraken 10/0/0", "The King 10/0/0",
              extra="dice=ss1233")
    assert s.hp == [10, 8, 8]  # its smash on those outside, and nothing more


@pytest.mark.card(1051)
def test_detachable_tail_played_before_a_loss_keeps_every_heart_for_the_rest_of_the_turn() -> None:
    s = holding("Giga Zaur 10/0/0 @city; Kraken 10/0/0", "detachabletail", active=1,
                phase="roll", extra="dice=sss123 rolls=0")
    assert rules.window_of(s) == "wounded" and asked(s) == (0, "evolution") and s.hp[0] == 10
    s, _ = play(s, "detachabletail")
    assert s.hp[0] == 10 and s.city == 0 and s.alive[0]


@pytest.mark.card(1051, edge=True)
def test_detachable_tail_is_played_only_before_a_loss() -> None:
    s = holding("Giga Zaur 10/0/0; Kraken 10/0/0", "detachabletail")  # the end of a turn
    assert asked(s) == (0, "evolution") and rules.legal_actions(s) == (rules.PASS,)


def test_a_monster_about_to_lose_hearts_is_asked_once_whatever_it_holds() -> None:
    s = holding("Giga Zaur 10/0/0 @city; Kraken 10/0/0", "radioactivewaste", active=1,
                phase="roll", extra="dice=sss123 rolls=0")
    assert rules.window_of(s) == "wounded"  # asked, though it cannot play its card there
    assert rules.legal_actions(s) == (rules.PASS,)
    s = rules.apply(s, rules.PASS)
    assert s.hp[0] == 7 and rules.window_of(s) != "wounded"


@pytest.mark.card(1042)
def test_simian_scamper_yields_tokyo_and_loses_no_heart() -> None:
    s = holding("The King 10/0/0 @city; Kraken 10/0/0; Alienoid 10/0/0", "simianscamper",
                active=1, phase="roll", extra="dice=sss123 rolls=0")
    s, _ = play(s, "simianscamper")
    assert s.hp[0] == 10 and s.city == 1  # the King left; Kraken took Tokyo
    assert asked(s) != (0, "yield")


@pytest.mark.card(1042, edge=True)
def test_simian_scamper_is_played_only_in_tokyo() -> None:
    s = holding("The King 10/0/0; Kraken 10/0/0 @city; Alienoid 10/0/0", "simianscamper",
                active=1, phase="roll", extra="dice=sss123 rolls=0")
    assert rules.window_of(s) == "wounded" and rules.legal_actions(s) == (rules.PASS,)


def _roll_and_stop(s: rules.State, dice: tuple[int, ...]) -> rules.State:
    s = rules.apply(s, rules.RandomResult(dice))
    return rules.apply(s, rules.STOP)


@pytest.mark.card(1147)
def test_energy_sword_paid_before_rolling_adds_a_smash_and_an_energy_per_smash() -> None:
    s = table("Cyber Bunny 10/0/5 +energysword", "Kraken 10/0/0 @city", phase="start")
    assert asked(s) == (0, "prepare")
    assert rules.legal_actions(s) == (rules.PASS, use("energysword"))
    sword = _roll_and_stop(rules.apply(s, use("energysword")), (5, 5, 0, 1, 2, 3))  # ✸✸123⚡
    plain = _roll_and_stop(rules.apply(s, rules.PASS), (5, 5, 0, 1, 2, 3))
    assert plain.hp[1] == 8 and plain.energy[0] == 5 + 1
    assert sword.hp[1] == 7 and sword.energy[0] == 5 - 2 + 1 + 2


@pytest.mark.card(1147, edge=True)
def test_energy_sword_is_not_offered_without_two_energy_and_adds_nothing_without_a_smash() -> None:
    s = table("Cyber Bunny 10/0/1 +energysword", "Kraken 10/0/0 @city", phase="start")
    assert asked(s) != (0, "prepare")
    s = table("Cyber Bunny 10/0/2 +energysword", "Kraken 10/0/0 @city", phase="start")
    s = _roll_and_stop(rules.apply(s, use("energysword")), (0, 1, 2, 3, 3, 4))  # 123⚡⚡♥
    assert s.hp[1] == 10 and s.energy[0] == 2 - 2 + 2


@pytest.mark.card(1026)
def test_exotic_arms_loaded_before_rolling_hits_two_harder_on_three_smashes() -> None:
    s = table("Alienoid 10/0/4 +exoticarms", "Kraken 10/0/0 @city", phase="start")
    assert asked(s) == (0, "prepare")
    s = _roll_and_stop(rules.apply(s, use("exoticarms")), (5, 5, 5, 0, 1, 2))  # ✸✸✸123
    assert s.hp[1] == 10 - 3 - 2 and s.energy[0] == 4 - 2 + 2


@pytest.mark.card(1026, edge=True)
def test_exotic_arms_loaded_and_missing_loses_the_energy_and_two_hearts() -> None:
    s = table("Alienoid 10/0/4 +exoticarms", "Kraken 10/0/0 @city", phase="start")
    s = _roll_and_stop(rules.apply(s, use("exoticarms")), (5, 5, 0, 1, 2, 2))  # ✸✸1233
    assert s.hp == [8, 8] and s.energy[0] == 4 - 2


@pytest.mark.card(1066)
def test_lightning_armor_rolls_a_die_per_heart_lost_and_each_smash_strikes_back() -> None:
    s = table("Meka Dragon 10/0/0 @city +lightningarmor", "Kraken 10/0/0", active=1,
              extra="dice=ss1233")
    assert s.hp[0] == 8
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.bounds == (6, 6)
    assert s.pending.purpose == rules.CARD_ROLL
    s = rules.apply(s, rules.RandomResult((5, 0)))  # ✸ 1
    assert s.hp[1] == 9


@pytest.mark.card(1066, edge=True)
def test_lightning_armor_does_not_answer_a_loss_from_nobody() -> None:
    s = table("Meka Dragon 10/0/0 poison=2 +lightningarmor", "Kraken 10/0/0 @city",
              extra="dice=123eee")
    s = rules.apply(s, rules.DONE)  # its turn ends: its poison takes 2♥, dealt by nobody
    assert s.hp[0] == 8 and not (isinstance(s.pending, rules.RandomRequest)
                                 and s.pending.purpose == rules.CARD_ROLL)


@pytest.mark.card(1068)
def test_target_acquired_marks_who_wounded_its_owner_to_lose_a_heart_more() -> None:
    s = table("Meka Dragon 10/0/0 @city +targetacquired", "Kraken 10/0/0", "The King 10/0/0",
              active=1, extra="dice=ss1233")
    assert asked(s) == (0, "target")
    assert rules.describe_action(s, rules.legal_actions(s)[1]) == (
        "Meka Dragon gives Kraken the Target token (Target Acquired)")
    s = rules.apply(s, use("targetacquired", 1))
    assert s.flags["evo.mark.0"] == 2
    hit = table("Meka Dragon 10/0/0 @city +targetacquired", "Kraken 10/0/0", "The King 10/0/0",
                extra="dice=s12233", flags="evo.mark.0:2")
    assert hit.hp[1] == 10 - 1 - 1 and hit.hp[2] == 10 - 1


@pytest.mark.card(1068, edge=True)
def test_target_acquired_asks_nothing_when_the_token_is_already_there() -> None:
    s = table("Meka Dragon 10/0/0 @city +targetacquired", "Kraken 10/0/0", active=1,
              extra="dice=ss1233", flags="evo.mark.0:2")
    assert asked(s) != (0, "target") and s.hp[0] == 8


@pytest.mark.card(1024)
def test_adapting_technology_sweeps_the_market_for_free_three_times_then_goes() -> None:
    s = holding("Alienoid 10/0/0; Kraken 10/0/0", "adaptingtechnology", active=1)
    s, _ = play(s, "adaptingtechnology")
    assert s.tokens == {card("adaptingtechnology"): 3}
    s = table("Alienoid 10/0/0 +adaptingtechnology", "Kraken 10/0/0 @city", phase="buy",
              extra="tokens=adaptingtechnology:1")
    assert use("adaptingtechnology") in rules.legal_actions(s)
    s = rules.apply(s, use("adaptingtechnology"))
    for _ in range(3):  # the market's three new cards
        s = rules.apply(s, rules.RandomResult((0,)))
    assert s.energy[0] == 0 and "heal" not in rules.to_text(s).split("market=")[1].split()[0]
    assert card("adaptingtechnology") not in s.cards[0]  # its last token gone, so is the card


@pytest.mark.card(1024, edge=True)
def test_adapting_technology_is_not_offered_on_another_monsters_turn() -> None:
    s = table("Alienoid 10/0/0 +adaptingtechnology", "Kraken 10/0/9 @city", active=1,
              phase="buy", extra="tokens=adaptingtechnology:3")
    assert asked(s) == (1, "buy") and use("adaptingtechnology") not in rules.legal_actions(s)
