"""Halloween's Costume cards, one by one, and stealing them.

Each test names the cards it covers with ``@pytest.mark.card(id, ..., edge=...)``. Every state is
a Halloween game: it has ``flags=halloween:1``.
"""

from __future__ import annotations

import random

import pytest

from kotp2p import rules
from tests.rules.keep_kit import finish_turn, neutral, use
from tests.rules.kit import asked, card, random_input, roll
from tests.rules.test_playouts import check_invariants

FOUR = "The King {}; Giga Zaur {}; Alienoid {}; Cyber Kitty {}"
H = "flags=halloween:1"


def four(a: str = "10/0/0", b: str = "10/0/0 @city", c: str = "10/0/0", d: str = "10/0/0") -> str:
    return FOUR.format(a, b, c, d)


def resolve(seats: str, dice: str, extra: str = "") -> rules.State:
    """Seat 0's final dice ``dice`` resolve now, in a Halloween game."""
    return rules.from_text(f"{seats} | active=0 phase=resolve dice={dice} {H} {extra}")


def final(seats: str, dice: str, extra: str = "") -> rules.State:
    """Seat 0 has just stopped rolling with ``dice``: the windows after the final roll open."""
    return rules.from_text(f"{seats} | active=0 phase=roll dice={dice} rolls=0 {H} {extra}")


def stay(s: rules.State) -> rules.State:
    """Every monster asked to yield stays."""
    while asked(s) is not None and asked(s)[1] == "yield":  # type: ignore[index]
        s = rules.apply(s, rules.STAY)
    return s


def events_of(s: rules.State, action: rules.Action) -> tuple[rules.State, list[rules.Event]]:
    found: list[rules.Event] = []
    return rules.apply(s, action, events=found), found


# --- Astronaut ------------------------------------------------------------------------------------


@pytest.mark.card(201)
def test_astronaut_wins_at_the_end_of_a_turn_with_seventeen_stars() -> None:
    s = resolve(four("10/16/5 +astronaut"), "11123e")
    assert s.stars[0] == 17 and not s.is_over  # not at once: at the end of the turn
    found: list[rules.Event] = []
    while not s.is_over:
        s = rules.apply(s, neutral(s), events=found)
    assert s.winners == (0,)
    (over,) = [e for e in found if isinstance(e, rules.GameOver)]
    assert rules.describe_event(over, s).endswith("wins with at least 17★, thanks to a card")


@pytest.mark.card(201, edge=True)
def test_astronaut_taken_by_a_steal_wins_for_the_thief_at_seventeen_stars() -> None:
    s = stay(resolve(four("10/17/4", "10/3/0 @city +astronaut"), "sss123"))
    assert asked(s) == (0, "steal")
    s = rules.apply(s, rules.Buy(card("astronaut")))
    assert card("astronaut") in s.cards[0] and s.energy[1] == 4
    while not s.is_over:
        s = rules.apply(s, neutral(s))
    assert s.winners == (0,)


# --- Ghost and Vampire -----------------------------------------------------------------------------


@pytest.mark.card(202)
def test_ghost_heals_one_at_the_end_of_a_turn_in_which_it_lost_health() -> None:
    s = stay(resolve(four("10/0/5", "10/0/0 @city +ghost"), "sss123"))
    assert s.hp[1] == 7
    s = finish_turn(s)
    assert s.hp[1] == 8


@pytest.mark.card(202, 203, edge=True)
def test_ghost_and_vampire_both_heal_at_the_end_of_the_same_turn() -> None:
    s = stay(resolve(four("8/0/5 +vampire", "10/0/0 @city +ghost"), "ss123e"))
    assert s.hp[:2] == [8, 8]
    s = finish_turn(s)
    assert s.hp[:2] == [9, 9]


@pytest.mark.card(203)
def test_vampire_heals_when_its_owner_made_another_monster_lose_health() -> None:
    s = finish_turn(stay(resolve(four("5/0/0 +vampire"), "s123ee")))
    assert s.hp[0] == 6 and s.hp[1] == 9


@pytest.mark.card(203, edge=True)
def test_vampire_heals_nothing_after_a_turn_in_which_nobody_was_hurt_by_it() -> None:
    s = finish_turn(resolve(four("5/0/0 +vampire"), "1123ee"))
    assert s.hp[0] == 5


@pytest.mark.card(202, edge=True)
def test_ghost_counts_poison_at_the_end_of_its_own_turn() -> None:
    s = finish_turn(resolve(four("6/0/0 +ghost poison=2"), "1123ee"))
    assert s.hp[0] == 5  # 2 to poison, then 1 back


# --- Witch -------------------------------------------------------------------------------------------


@pytest.mark.card(204)
def test_witch_rerolls_one_die_of_a_roll_that_would_wound_her() -> None:
    s = final(four("10/0/5", "10/0/0 @city +witch"), "sss123")
    assert asked(s) == (1, "witch")
    s = rules.apply(s, use("witch", 0))
    assert s.pending.bounds == (6,)  # type: ignore[union-attr]
    s = stay(roll(s, "1"))
    assert s.dice[0] == rules.ONE and s.hp[1] == 8


@pytest.mark.card(204, 36, edge=True)
def test_witch_and_psychic_probe_are_asked_in_one_window_clockwise() -> None:
    s = final(four("10/0/0", "10/0/0 @city +witch", "10/0/0 +psychicprobe"), "sss123")
    assert asked(s) == (1, "witch")
    s = rules.apply(s, rules.PASS)
    assert asked(s) == (2, "probe")
    # Not wounded, not asked: the Witch outside Tokyo is not hit by smashes from outside.
    s = final(four("10/0/0", "10/0/0 @city", "10/0/0 +witch"), "sss123")
    assert asked(s) != (2, "witch")


# --- Devil ---------------------------------------------------------------------------------------------


@pytest.mark.card(205)
def test_devil_adds_one_to_each_monster_its_owner_wounds_on_its_turn() -> None:
    s = resolve(four("10/0/0 @city +devil", "10/0/0", "10/0/0"), "ss123e")
    assert s.hp[1:] == [7, 7, 7]


@pytest.mark.card(205, 4, edge=True)
def test_devil_adds_before_armor_plating_so_one_smash_gets_through() -> None:
    s = resolve(four("10/0/0 +devil", "10/0/0 @city +armorplating"), "s123ee")
    assert s.hp[1] == 8


# --- Pirate ------------------------------------------------------------------------------------------


@pytest.mark.card(206)
def test_pirate_takes_one_energy_from_each_monster_it_wounds() -> None:
    s = resolve(four("10/0/0 @city +pirate", "10/0/3", "10/0/1", "10/0/0"), "s11223")
    assert s.energy == [2, 2, 0, 0]


@pytest.mark.card(206, edge=True)
def test_pirate_takes_nothing_when_its_owner_is_the_one_hit() -> None:
    s = stay(resolve(four("10/0/2", "10/0/2 @city +pirate"), "s11223"))
    assert s.energy[:2] == [2, 2] and s.hp[1] == 9


# --- Princess ---------------------------------------------------------------------------------------


@pytest.mark.card(207)
def test_princess_gains_a_star_at_the_start_of_her_turn() -> None:
    s = rules.from_text(f"{four('10/3/0 +princess')} | active=0 phase=start {H}")
    assert s.stars[0] == 4


@pytest.mark.card(207, edge=True)
def test_princess_in_tokyo_gains_three_stars_and_stops_at_twenty() -> None:
    s = rules.from_text(f"{four('10/5/0 @city +princess', '10/0/0')} | active=0 phase=start {H}")
    assert s.stars[0] == 8
    s = rules.from_text(f"{four('10/19/0 @city +princess', '10/0/0')} | active=0 phase=start {H}")
    assert s.stars[0] == 20


# --- Zombie -------------------------------------------------------------------------------------------


@pytest.mark.card(208)
def test_zombie_at_zero_is_not_eliminated_and_loses_no_more() -> None:
    s = stay(resolve(four("10/0/0", "2/0/0 @city +zombie"), "sss123"))
    assert s.hp[1] == 0 and s.alive[1]
    s = resolve(four("10/0/0", "0/0/0 @city +zombie"), "sss123")
    assert s.hp[1] == 0 and s.alive[1]
    assert asked(s) != (1, "yield")  # it lost nothing, so it was not wounded


@pytest.mark.card(208, edge=True)
def test_a_zombie_taken_from_a_monster_at_zero_eliminates_it_at_once() -> None:
    s = stay(resolve(four("10/0/4", "2/0/0 @city +zombie"), "sss123"))
    assert asked(s) == (0, "steal")
    s, found = events_of(s, rules.Buy(card("zombie")))
    assert not s.alive[1] and card("zombie") in s.cards[0]
    assert any(isinstance(e, rules.Eliminated) and e.seat == 1 for e in found)


@pytest.mark.card(208, edge=True)
def test_a_zombie_at_zero_is_not_wounded_so_nothing_can_be_taken_from_it() -> None:
    s = resolve(four("10/0/9", "0/0/0 @city +zombie"), "sss123")
    assert asked(s) != (0, "steal") and card("zombie") in s.cards[1]


@pytest.mark.card(208, 23, edge=True)
def test_a_zombie_at_zero_is_not_dying_so_it_has_a_child_keeps_its_cards() -> None:
    s = stay(resolve(four("10/0/5", "2/6/0 @city +zombie +ithasachild"), "sss123"))
    assert s.hp[1] == 0 and s.alive[1] and s.stars[1] == 6
    assert card("zombie") in s.cards[1] and card("ithasachild") in s.cards[1]


def test_an_ejected_zombie_is_eliminated_all_the_same() -> None:
    s = rules.from_text(f"{four('10/0/0', '3/0/0 @city +zombie')} | active=0 phase=buy {H}")
    s = rules.eject(s, 1)
    assert not s.alive[1] and card("zombie") in s.discard


# --- Cheerleader ------------------------------------------------------------------------------------


@pytest.mark.card(209)
def test_cheerleader_adds_a_smash_to_another_monsters_roll() -> None:
    s = final(four("10/0/0", "10/0/0 @city", "10/0/0 +cheerleader"), "ss1123")
    assert asked(s) == (2, "cheer")
    s = stay(rules.apply(s, use("cheerleader")))
    assert s.hp[1] == 7


@pytest.mark.card(209, edge=True)
def test_a_cheered_roll_wounds_tokyo_then_its_monster_enters_the_yielded_place() -> None:
    s = final(four("10/0/0", "10/0/0 @city", "10/0/0 +cheerleader"), "112233")
    s = rules.apply(s, use("cheerleader"))
    assert asked(s) == (1, "yield") and s.hp[1] == 9
    s = rules.apply(s, rules.YIELD)
    assert s.city == 0 and s.stars[0] == 1  # 1★ for entering
    # Only on another monster's turn: the cheerleader's own turn opens no window.
    s = final(four("10/0/0 +cheerleader"), "112233")
    assert asked(s) != (0, "cheer")


@pytest.mark.card(209, 43, edge=True)
def test_a_cheer_counts_as_a_rolled_smash_for_spiked_tail() -> None:
    s = final(four("10/0/0 +spikedtail", "10/0/0 @city", "10/0/0 +cheerleader"), "112233")
    s = rules.apply(s, use("cheerleader"))
    assert s.hp[1] == 8  # the cheer's smash, and Spiked Tail's one more


# --- Robot ---------------------------------------------------------------------------------------------


@pytest.mark.card(210)
def test_robot_pays_energy_instead_of_health_in_part() -> None:
    s = resolve(four("10/0/0", "10/0/5 @city +robot"), "sss123")
    assert asked(s) == (1, "react")
    assert use("robot", 3) in rules.legal_actions(s) and use("robot", 4) not in rules.legal_actions(s)
    s = stay(rules.apply(s, use("robot", 2)))
    assert s.energy[1] == 3 and s.hp[1] == 9


@pytest.mark.card(210, edge=True)
def test_robot_without_energy_opens_no_window_and_paying_all_wounds_nobody() -> None:
    s = resolve(four("10/0/0", "10/0/0 @city +robot"), "sss123")
    assert asked(s) == (1, "yield") and s.hp[1] == 7
    s = resolve(four("10/0/0", "10/0/5 @city +robot"), "sss123")
    s = rules.apply(s, use("robot", 3))
    assert s.hp[1] == 10 and s.energy[1] == 2 and asked(s) != (1, "yield")


# --- Statue of Liberty ----------------------------------------------------------------------------------


@pytest.mark.card(211)
def test_statue_of_liberty_gives_an_extra_roll() -> None:
    s = rules.from_text(f"{four('10/0/0 +statueofliberty')} | active=0 phase=start {H}")
    s = roll(s, "123ehs")
    assert s.rolls_left == 3


@pytest.mark.card(211, 18, edge=True)
def test_statue_of_liberty_and_giant_brain_add_up() -> None:
    s = rules.from_text(f"{four('10/0/0 +statueofliberty +giantbrain')} | active=0 phase=start {H}")
    s = roll(s, "123ehs")
    assert s.rolls_left == 4


# --- Clown ---------------------------------------------------------------------------------------------


@pytest.mark.card(212)
def test_clown_changes_every_die_once_the_dice_show_all_six_faces() -> None:
    s = final(four("10/0/0 +clown"), "123ehs")
    assert asked(s) == (0, "change")
    for die in range(5):
        s = rules.apply(s, use("clown", die, rules.SMASH))
    assert s.dice == (rules.SMASH,) * 6 and asked(s) == (0, "change")
    s = rules.apply(s, rules.DONE)
    assert s.hp[1] == 4


@pytest.mark.card(212, 1, edge=True)
def test_clown_counts_a_smash_from_a_card_and_needs_the_other_five_faces() -> None:
    s = final(four("10/0/0 +clown +acidattack"), "123eh1")
    assert asked(s) == (0, "change") and use("clown", 5, rules.SMASH) in rules.legal_actions(s)
    s = final(four("10/0/0 +clown"), "123eh1")
    assert asked(s) != (0, "change")


# --- stealing -------------------------------------------------------------------------------------------


def test_stealing_needs_three_smashes_and_takes_only_from_monsters_they_wounded() -> None:
    seats = four("10/0/9", "10/0/0 @city +ghost", "10/0/0 +devil", "10/0/0")
    s = stay(resolve(seats, "ss1123"))
    assert asked(s) == (0, "buy")  # two smashes: no steal
    s = stay(resolve(seats, "sss123"))
    assert rules.legal_actions(s) == (rules.Buy(card("ghost")), rules.DONE)  # not the Devil


def test_a_steal_costs_the_price_after_discounts_paid_to_the_owner_and_may_repeat() -> None:
    seats = four("10/0/7 +alienorigin", "10/0/0 @city +ghost +princess", "10/0/0", "10/0/0")
    s = stay(resolve(seats, "sss123"))
    s, found = events_of(s, rules.Buy(card("ghost")))
    assert s.energy[:2] == [4, 3] and asked(s) == (0, "steal")
    assert any(isinstance(e, rules.CostumeTaken) and e.price == 3 for e in found)
    s = rules.apply(s, rules.Buy(card("princess")))
    assert s.energy[:2] == [0, 7] and s.cards[1] == () and asked(s) != (0, "steal")


def test_no_steal_when_the_thief_cannot_pay() -> None:
    s = stay(resolve(four("10/0/3", "10/0/0 @city +princess"), "sss123"))
    assert asked(s) == (0, "buy")


def test_parasitic_tentacles_can_buy_a_costume_as_the_printed_card_says() -> None:
    s = rules.from_text(f"{four('10/0/9 +parasitictentacles', '10/0/0 @city +robot')} "
                        f"| active=0 phase=buy {H}")
    assert use("parasitictentacles", card("robot")) in rules.legal_actions(s)


# --- the first costumes, and whole games --------------------------------------------------------------


def halloween_game(n: int) -> rules.State:
    return rules.new_game(rules.Setup(monsters=rules.MONSTERS[:n],
                                      options=rules.Options(halloween=True)))


def test_each_seat_draws_two_costumes_alone_keeps_one_and_the_rest_go_into_the_deck() -> None:
    s = halloween_game(3)
    p = s.pending
    assert isinstance(p, rules.RandomRequest) and p.private_to == 0 and p.bounds == (12, 11)
    s = rules.apply(s, rules.RandomResult((0, 0)))  # Astronaut, then Ghost of the 11 left
    assert rules.legal_actions(s) == (use("astronaut"), use("ghost"))
    s, found = events_of(s, use("ghost"))
    assert s.cards[0] == (card("ghost"),) and found == [rules.CostumeKept(0, card("ghost"))]
    p = s.pending
    assert isinstance(p, rules.RandomRequest) and p.private_to == 1 and p.bounds == (11, 10)
    s = rules.apply(s, rules.RandomResult((0, 0)))  # the Astronaut put back: drawn again
    assert rules.legal_actions(s) == (use("astronaut"), use("vampire"))
    s = rules.apply(s, use("astronaut"))
    s = rules.apply(rules.apply(s, rules.RandomResult((9, 0))), use("clown"))
    assert s.pending.purpose == rules.ROLLOFF  # type: ignore[union-attr]
    assert len(s.deck) == 66 + 9 and card("vampire") in s.deck and card("clown") not in s.deck
    assert "deck=" not in rules.to_text(s)  # the usual deck: nothing to write
    assert rules.from_text(rules.to_text(s)) == s


def test_a_replica_that_cannot_see_a_pick_offers_every_free_costume_and_checks_it_at_the_end(
) -> None:
    s = halloween_game(2)
    hidden = rules.apply(s, rules.RandomResult((rules.HIDDEN, rules.HIDDEN)))
    assert len(rules.legal_actions(hidden)) == 12
    seen = rules.apply(s, rules.RandomResult((3, 4)))  # Witch and Pirate
    honest = rules.apply(hidden, use("pirate"))
    assert honest.digest() == rules.apply(seen, use("pirate")).digest()
    k = s.pending.index  # type: ignore[union-attr]
    rules.open_slot(honest, k, seen.slots[k])
    lying = rules.apply(hidden, use("zombie"))
    with pytest.raises(rules.IllegalAction, match="kept Zombie at pick 1, but it drew Witch and "
                                                  "Pirate"):
        rules.open_slot(lying, k, seen.slots[k])


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_halloween_games_keep_every_invariant_and_a_hidden_replica_agrees(n: int) -> None:
    for seed in range(6):
        rng = random.Random(n * 100 + seed)
        full = public = halloween_game(n)
        inputs: list[rules.Action] = []
        while not full.is_over:
            a = random_input(full, rng)
            b = a
            p = full.pending
            if isinstance(p, rules.RandomRequest) and p.private_to >= 0:
                b = rules.RandomResult((rules.HIDDEN,) * len(p.bounds))
            before, full = full, rules.apply(full, a)
            try:
                public = rules.apply(public, b)
            except rules.IllegalAction:  # a move that needs a peek: its owner opens it first
                for k, v in before.slots.items():
                    if public.slots.get(k) == rules.HIDDEN:
                        public = rules.open_slot(public, k, v)
                public = rules.apply(public, b)
            check_invariants(full)
            assert public.digest() == full.digest()
            inputs.append(a)
        for k, v in full.slots.items():  # the end: every pick opens, and each one holds up
            if public.slots.get(k) == rules.HIDDEN:
                public = rules.open_slot(public, k, v)
        again = halloween_game(n)
        for a in inputs:
            again = rules.apply(again, a)
        assert again.digest() == full.digest() and rules.to_text(again) == rules.to_text(full)


def test_a_steal_and_a_pick_are_told_in_plain_words() -> None:
    s = stay(resolve(four("10/0/9", "10/0/0 @city +ghost"), "sss123"))
    assert rules.describe_action(s, rules.Buy(card("ghost"))) == (
        "The King takes Ghost from Giga Zaur for 4⚡")
    assert rules.describe_action(s, rules.DONE) == "The King takes no more costumes"
    _, found = events_of(s, rules.Buy(card("ghost")))
    assert rules.describe_event(found[0], s) == (
        "The King takes Ghost from Giga Zaur and pays 4⚡")
    s = rules.apply(halloween_game(2), rules.RandomResult((0, 0)))
    assert rules.describe_action(s, use("ghost")) == "Alienoid keeps Ghost"


def test_the_option_is_covered_by_the_engine_id_and_a_base_game_has_no_trace_of_it() -> None:
    base = rules.new_game(rules.Setup(monsters=rules.MONSTERS[:3]))
    # (other tests may install random events of their own: compare ids made now, not ENGINE_ID)
    assert rules.engine_id() == rules.engine_id(rules.Options())
    assert rules.engine_id(rules.Options(halloween=True)) != rules.engine_id()
    assert not rules.is_halloween(base) and "halloween" not in rules.to_text(base)
    assert all(rules.CARDS[c].box == "base" for c in base.deck) and len(base.deck) == 66


def test_boogie_woogie_and_pumpkin_jack_can_be_picked_in_any_game() -> None:
    for options in (rules.Options(), rules.Options(halloween=True)):
        s = rules.new_game(rules.Setup(monsters=("Boogie Woogie", "Pumpkin Jack", "The King"),
                                       options=options))
        assert s.monsters[:2] == ("Boogie Woogie", "Pumpkin Jack")
        assert rules.from_text(rules.to_text(s)) == s
    assert rules.MONSTERS[:6] == ("Alienoid", "Cyber Kitty", "Giga Zaur", "Meka Dragon",
                                  "Space Penguin", "The King")
