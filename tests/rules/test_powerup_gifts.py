"""Power Up!'s Gifts: played after the owner's smashes wound a monster, they go in front of that
monster and act on it, until their owner or that monster is out.

Each test names the cards it covers with ``@pytest.mark.card(id, ..., edge=...)``."""

from __future__ import annotations

import pytest

from kotp2p import rules
from tests.rules.kit import asked, card
from tests.rules.test_powerup_cards import MARKET, holding, play


def gifted(seats: str, slug: str, *, owner: int = 0, holder: int = 1, active: int = 1,
           phase: str = "start", extra: str = "") -> rules.State:
    """``seats``, with ``owner``'s Gift ``slug`` from its deck's slot 0 in front of ``holder``."""
    lines = seats.split("; ")
    if f"+{slug}" not in lines[holder]:
        lines[holder] += f" +{slug}"
    decks = ",".join(f"evo.n.{t}:8" for t in range(len(lines)))
    return rules.from_text(f"{'; '.join(lines)} | active={active} turn=3 phase={phase} {MARKET} "
                           f"{extra} flags=powerup:1,{decks},evo.{owner}.0:5,"
                           f"evoc.{owner}.0:{card(slug)}")


def smash_and_give(seats: str, slug: str, dice: str = "sss12e") -> rules.State:
    """Seat 0, holding ``slug``, resolves ``dice`` against Tokyo; the wounded stay; seat 0 is
    asked at the window after its enter-Tokyo step."""
    s = holding(seats, slug, phase="roll", extra=f"dice={dice} rolls=0")
    s = rules.apply(s, rules.PASS)  # the window before its dice resolve
    while asked(s) is not None and asked(s)[1] == "yield":  # type: ignore[index]
        s = rules.apply(s, rules.STAY)
        if rules.window_of(s) == "stayed":
            s = rules.apply(s, rules.PASS)
    assert rules.window_of(s) == "dealt", rules.to_text(s)
    return s


@pytest.mark.card(1082)
def test_ignis_fatus_goes_to_the_monster_wounded_and_takes_a_roll_from_it() -> None:
    s = smash_and_give("Pumpkin Jack 10/0/0; Kraken 10/0/0 @city", "ignisfatus")
    s, found = play(s, "ignisfatus")
    assert s.cards == ((), (card("ignisfatus"),)) and not rules.broken_invariants(s)
    assert "Pumpkin Jack gives Ignis Fatus to Kraken" in [rules.describe_event(e, s)
                                                           for e in found]
    s = rules.apply(s, rules.RandomResult((0, 0, 0, 0, 0, 0)))  # Kraken's first roll
    assert s.active == 1 and s.rolls_left == 1


@pytest.mark.card(1082, edge=True)
def test_ignis_fatus_with_two_monsters_wounded_asks_which_one_takes_it() -> None:
    s = smash_and_give("Pumpkin Jack 10/0/0 @city; Kraken 10/0/0; The King 10/0/0",
                       "ignisfatus")
    s, _ = play(s, "ignisfatus")
    assert asked(s) == (0, "gift")
    assert rules.legal_actions(s) == (rules.UseCard(card("ignisfatus"), (1,)),
                                      rules.UseCard(card("ignisfatus"), (2,)))
    s = rules.apply(s, rules.UseCard(card("ignisfatus"), (2,)))
    assert s.cards[2] == (card("ignisfatus"),) and not rules.broken_invariants(s)


def test_a_gift_is_not_offered_when_no_smash_wounded_anyone() -> None:
    s = holding("Pumpkin Jack 10/0/0; Kraken 10/0/0 @city", "ignisfatus", phase="roll",
                extra="dice=112eee rolls=0")
    s = rules.apply(s, rules.PASS)
    assert rules.window_of(s) != "dealt" and asked(s) == (0, "buy")


@pytest.mark.card(1073)
def test_i_live_under_your_bed_makes_its_holder_roll_one_die_fewer() -> None:
    s = gifted("Boogie Woogie 10/0/0; Kraken 10/0/0", "iliveunderyourbed")
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.bounds == (6,) * 5


@pytest.mark.card(1073, edge=True)
def test_i_live_under_your_bed_leaves_play_when_its_owner_is_eliminated() -> None:
    s = gifted("Boogie Woogie 1/0/0 @city; Kraken 10/0/0; The King 10/0/0", "iliveunderyourbed",
               active=2, phase="roll", extra="dice=s112ee rolls=0")
    s = rules.apply(s, rules.STOP) if asked(s) == (2, "roll") else s
    assert not s.alive[0] and s.cards[1] == () and s.flags["evo.0.0"] == 4
    assert not rules.broken_invariants(s)


@pytest.mark.card(1081)
def test_detachable_head_makes_its_holder_lose_one_more_to_the_cards_owner() -> None:
    s = gifted("Pumpkin Jack 10/0/0; Kraken 10/0/0 @city", "detachablehead", active=0,
               phase="roll", extra="dice=ss112e rolls=0")
    assert s.hp[1] == 10 - 2 - 1


@pytest.mark.card(1081, edge=True)
def test_detachable_head_adds_nothing_to_another_monsters_smash() -> None:
    s = gifted("Pumpkin Jack 10/0/0; Kraken 10/0/0 @city; The King 10/0/0", "detachablehead",
               active=2, phase="roll", extra="dice=ss112e rolls=0")
    assert s.hp[1] == 10 - 2


@pytest.mark.card(1072)
def test_worst_nightmare_makes_its_holder_give_an_energy_or_lose_a_heart() -> None:
    s = gifted("Boogie Woogie 10/0/0; Kraken 10/0/3", "worstnightmare")
    assert asked(s) == (1, "give")
    paid = rules.apply(s, rules.legal_actions(s)[0])
    assert (paid.energy, paid.hp) == ([1, 2], [10, 10])
    hurt = rules.apply(s, rules.legal_actions(s)[1])
    assert (hurt.energy, hurt.hp) == ([0, 3], [10, 9])


@pytest.mark.card(1072, edge=True)
def test_worst_nightmare_without_energy_costs_a_heart_with_no_question() -> None:
    s = gifted("Boogie Woogie 10/0/0; Kraken 10/0/0", "worstnightmare")
    assert asked(s) != (1, "give") and s.hp[1] == 9


def test_the_question_of_which_monster_takes_a_gift_names_the_card_and_the_monster() -> None:
    s = smash_and_give("Pumpkin Jack 10/0/0 @city; Kraken 10/0/0; The King 10/0/0",
                       "detachablehead")
    s, _ = play(s, "detachablehead")
    words = [rules.describe_action(s, a) for a in rules.legal_actions(s)]
    assert words == ["Pumpkin Jack gives Detachable Head to Kraken",
                     "Pumpkin Jack gives Detachable Head to The King"]


@pytest.mark.card(1087)
def test_scythe_comes_with_an_energy_that_adds_a_smash() -> None:
    s, _ = play(holding("Pumpkin Jack 10/0/0; Kraken 10/0/0 @city", "scythe", active=1,
                        phase="end"), "scythe")
    assert s.tokens[card("scythe")] == 1 and s.energy[0] == 0  # from the bank, not Jack's
    s = gifted("Pumpkin Jack 10/0/0 +scythe; Kraken 10/0/0 @city", "scythe", holder=0, active=0,
               phase="roll", extra="dice=s112ee rolls=0 tokens=scythe:1")
    assert s.hp[1] == 10 - 2


@pytest.mark.card(1087, edge=True)
def test_scythe_takes_another_energy_when_its_owner_knocks_a_monster_out() -> None:
    s = gifted("Pumpkin Jack 10/0/0 +scythe; Kraken 2/0/0 @city; The King 10/0/0", "scythe",
               holder=0, active=0, phase="roll", extra="dice=s112ee rolls=0 tokens=scythe:1")
    assert not s.alive[1] and s.tokens[card("scythe")] == 2


@pytest.mark.card(1088)
def test_candy_against_a_smash_loses_no_heart_and_goes_to_the_attacker() -> None:
    s = holding("Pumpkin Jack 10/0/0 @city; Kraken 10/0/0", "candy", active=1, phase="roll",
                extra="dice=sss12e rolls=0")
    assert rules.window_of(s) == "wounded"
    s, found = play(s, "candy", seat=0)
    assert s.hp == [10, 10] and s.cards == ((), (card("candy"),))
    assert asked(s) != (0, "yield") and not rules.broken_invariants(s)
    assert "Pumpkin Jack gives Candy! to Kraken" in [rules.describe_event(e, s) for e in found]


@pytest.mark.card(1088, edge=True)
def test_candy_in_front_of_another_monster_is_eaten_before_its_roll_or_passed_on() -> None:
    s = gifted("Pumpkin Jack 10/0/0 @city; Kraken 6/0/0", "candy")
    assert asked(s) == (1, "prepare")
    eaten = rules.apply(s, rules.UseCard(card("candy")))
    assert eaten.hp[1] == 7 and eaten.cards[1] == () and eaten.flags["evo.0.0"] == 4
    s = gifted("Pumpkin Jack 10/0/0 @city; Kraken 6/0/0; The King 10/0/0", "candy",
               active=0, phase="roll", extra="dice=ss112e rolls=0")
    assert asked(s) == (1, "react")
    s = rules.apply(s, rules.UseCard(card("candy")))
    assert s.hp[1] == 6 and s.cards[0] == (card("candy"),) and not rules.broken_invariants(s)


@pytest.mark.card(1088)
def test_candy_played_at_any_time_gains_a_heart() -> None:
    s, _ = play(holding("Pumpkin Jack 7/0/0; Kraken 10/0/0", "candy"), "candy")
    assert s.hp[0] == 8 and s.flags["evo.0.0"] == 4
