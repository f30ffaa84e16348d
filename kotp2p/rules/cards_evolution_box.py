"""Power Up!'s Evolution decks of the six other monsters of the Monster Box.

This module holds the decks of Boogie Woogie, Pumpkin Jack, King Kong, Pandakaï, Cyber Bunny and
Kraken, 8 cards each. Their numbers are 7, 8, 11, 13, 14 and 15 in that order. A card's id is 1000
plus the monster's number times ten plus 1 to 8.
"""

from __future__ import annotations

from kotp2p.rules.actions import PASS, Action, UseCard
from kotp2p.rules.basics import NOBODY
from kotp2p.rules.card import ANY_TIME, GIFT, PERMANENT, TEMPORARY, Card, evolution
from kotp2p.rules.cards_keep_damage import camouflage, react_window
from kotp2p.rules.cards_keep_dice import change_window
from kotp2p.rules.dice import BASE_DICE, ENERGY, FACES, HEART, ONE, SMASH, THREE, TWO
from kotp2p.rules.effects import (
    BEAST,
    MORE_HEARTS,
    card_cost,
    deal_damage,
    end_game,
    gain_energy,
    gain_stars,
    grant_extra_turn,
    heal,
    leave_tokyo,
    lose_energy,
    lose_stars,
    max_hp,
    move_card,
    note,
    remove_card,
    set_card_tokens,
    set_turn_flag,
    take_card,
    tally,
    turn_flag,
)
from kotp2p.rules.events import BeautyTaken, DiceChanged, GiftGiven
from kotp2p.rules.evoeffects import (
    GAIN_ENERGY,
    GAIN_HEART,
    GIVE_ENERGY,
    GIVE_HEART,
    GIVE_STAR,
    LOSE_ONE,
    LOSE_TWO,
    each_other_answers,
    gains_energy,
    heals,
    offered_for,
    others_lose,
    owner_answers,
    unharmed_this_turn,
)
from kotp2p.rules.evomarket import apples_buy, apples_offer
from kotp2p.rules.evoslots import evolution_owner, put_in_play, take_back
from kotp2p.rules.market import buy_card
from kotp2p.rules.powerup import (
    BEAUTY,
    BOOZLED,
    FORBIDDEN,
    SKIP_NEXT,
    STAYER,
    WOUND_ASKED,
    enter_instead,
    frozen_die,
    gift_wanted,
    keep_ice,
    skip_turn,
)
from kotp2p.rules.registry import DecisionKind, Frames, RandomKind, frame_seat, others_of, seats_from
from kotp2p.rules.state import CARD_ROLL, Frame, State
from kotp2p.rules.tokyo import yield_tokyo


def _boo_wanted(s: State, seat: int, c: int) -> bool:
    stayer = turn_flag(s, STAYER) - 1
    return stayer >= 0 and s.alive[stayer] and s.in_tokyo(stayer)


def _boo(s: State, seat: int, c: int) -> None:
    if _boo_wanted(s, seat, c):
        yield_tokyo(s, turn_flag(s, STAYER) - 1)


def _boo_back_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    return (UseCard(c),) if s.energy[seat] >= 1 else ()


def _boo_back(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    lose_energy(s, seat, 1, card=c)
    take_back(s, seat, c)
    s.stack.append(frame)


def _monkey_leap_ok(s: State, seat: int, c: int) -> bool:
    return s.city == NOBODY and s.bay == NOBODY and not s.in_tokyo(seat)


BAM_BOOZLE = 1133


def _purchase_under_way(s: State) -> tuple[int, int] | None:
    """The buyer and the card of the purchase the window "buying" is about."""
    for frame in reversed(s.stack):
        if frame[0] == "buying":
            return frame[1], frame[2]
    return None


def _boozle_wanted(s: State, seat: int, c: int) -> bool:
    under_way = _purchase_under_way(s)
    return under_way is not None and under_way[0] != seat


def _bam_boozle(s: State, seat: int, c: int) -> None:
    under_way = _purchase_under_way(s)
    if under_way is None or not s.alive[under_way[0]]:
        return
    buyer, card = under_way
    set_turn_flag(s, BOOZLED, 1)
    set_turn_flag(s, FORBIDDEN, card + 1)
    s.stack.append(("ask", seat, "boozle", buyer, card))


def _boozle_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    buyer, card = frame[3], frame[4]
    return tuple(UseCard(BAM_BOOZLE, (m,)) for m in s.market
                 if m and m != card and card_cost(s, buyer, m) <= s.energy[buyer])


def _boozle_handle(s: State, frame: Frame, action: Action) -> None:
    assert isinstance(action, UseCard)
    buyer, card = frame[3], action.args[0]
    buy_card(s, buyer, card, card_cost(s, buyer, card))


BEAUTY_CARD = 1115


def _beauty_holder(s: State) -> int:
    return s.flags.get(BEAUTY, 0) - 1


def _give_beauty(s: State, seat: int, taker: int) -> None:
    s.flags[BEAUTY] = taker + 1
    note(s, BeautyTaken(taker, BEAUTY_CARD))


def _beauty_taken_up(s: State, seat: int, c: int) -> None:
    _give_beauty(s, seat, seat)


def _beauty_won(s: State, seat: int, c: int, victim: int, lost: int, dealer: int,
                smash: bool) -> None:
    """Whoever wounds the Beauty's holder with its smashes takes the Beauty; if its holder is
    out, it comes back to its owner."""
    holder = _beauty_holder(s)
    if victim != holder or lost <= 0:
        return
    if not s.alive[holder] or s.hp[holder] <= 0:
        _give_beauty(s, seat, seat)
    elif smash and 0 <= dealer != holder and s.alive[dealer]:
        _give_beauty(s, seat, dealer)


def _beast_wakes(s: State, seat: int, c: int) -> None:
    holder = _beauty_holder(s)
    if 0 <= holder != seat and s.alive[holder]:
        set_turn_flag(s, BEAST, holder + 1)
    elif holder >= 0 and not s.alive[holder]:
        _give_beauty(s, seat, seat)


def _beauty_gone(s: State, seat: int, c: int) -> None:
    s.flags.pop(BEAUTY, None)


HEART_OF_THE_RABBIT = 1144
TAKE_BACK = "evo.back."
"""``evo.back.<seat>``: the Evolution seat takes back from its discard when it takes Tokyo."""


def _rabbit_wanted(s: State, seat: int, c: int) -> bool:
    return seat != s.active and bool(s.dice)


def _heart_of_the_rabbit(s: State, seat: int, c: int) -> None:
    s.flags[TAKE_BACK + str(seat)] = c
    if s.dice and s.alive[s.active]:
        s.stack.append(("ask", seat, "rabbit"))


def _rabbit_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    ice = frozen_die(s)
    return tuple(UseCard(HEART_OF_THE_RABBIT, (i,)) for i in range(len(s.dice)) if i != ice)


def _rabbit_handle(s: State, frame: Frame, action: Action) -> None:
    assert isinstance(action, UseCard)
    s.stack.append(("rand", "rabbit", frame_seat(frame), action.args[0]))


def _rabbit_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    return (FACES,) if frame[3] < len(s.dice) else ()


def _rabbit_roll(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    i = frame[3]
    s.dice = (*s.dice[:i], values[0], *s.dice[i + 1:])
    note(s, DiceChanged(frame[2], s.dice, HEART_OF_THE_RABBIT))


def _worst_nightmare(s: State, seat: int, c: int) -> None:
    s.stack.append(("ask", seat, "give", evolution_owner(s, c), c,
                    1 << GIVE_ENERGY | 1 << LOSE_ONE))


def _one_fewer(s: State, seat: int, c: int) -> int:
    return -1


def _detachable_head(s: State, seat: int, c: int, dealer: int) -> int:
    return 1 if dealer == evolution_owner(s, c) else 0


def _scythe(s: State, seat: int, c: int) -> None:
    set_card_tokens(s, seat, c, s.tokens.get(c, 0) + 1)


def _scythe_reaps(s: State, seat: int, c: int, victim: int, lost: int, dealer: int,
                  smash: bool) -> None:
    if dealer == seat and victim != seat and lost > 0 and s.hp[victim] == 0:
        _scythe(s, seat, c)


def _scythe_smashes(s: State, seat: int, c: int, counts: list[int], stage: int,
                    smashes: int) -> int:
    return s.tokens.get(c, 0) if stage == 0 else 0


def _candy(s: State, seat: int, c: int) -> None:
    """Played from the hand: against the hit its owner is about to take, or else for 1♥."""
    for i in range(len(s.stack) - 1, -1, -1):
        f = s.stack[i]
        if f[0] == "hit" and f[1] == seat and f[5] == WOUND_ASKED:
            if f[3] >= 0 and f[3] != seat and s.alive[f[3]]:
                del s.stack[i]  # it loses no ♥ from this hit
                put_in_play(s, seat, c)
                take_card(s, f[3], c, bought=False)
                note(s, GiftGiven(seat, f[3], c))
                return
            break
    heal(s, seat, 1, card=c)


def _candy_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    return (UseCard(c),)


def _candy_react(s: State, seat: int, c: int, left: int, dealer: int) -> tuple[Action, ...]:
    return (UseCard(c),) if dealer >= 0 and dealer != seat and s.alive[dealer] else ()


def _candy_used(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    """Candy given to ``seat``: eaten before a roll for 1♥, or given on against a hit."""
    if frame[2] == "react":
        note(s, GiftGiven(seat, frame[4], c))
        move_card(s, seat, frame[4], c, bought=False)
    else:
        remove_card(s, seat, c)
        heal(s, seat, 1, card=c)


def _smashing_pumpkin(s: State, seat: int, c: int) -> None:
    rich = [t for t in seats_from(s, seat) if s.stars[t] >= 12]
    if rich:
        deal_damage(s, seat, dict.fromkeys(rich, 2))


def _panda_monium(s: State, seat: int, c: int) -> None:
    gain_energy(s, seat, 6, card=c)
    for t in others_of(s, seat):
        gain_energy(s, t, 3, card=c)


def _bear_necessities(s: State, seat: int, c: int) -> None:
    lose_stars(s, seat, 1, card=c)
    gain_energy(s, seat, 2, card=c)
    heal(s, seat, 2, card=c)



def _electric_carrot(s: State, seat: int, c: int, victim: int, lost: int, dealer: int,
                     smash: bool) -> None:
    if dealer == seat and victim != seat and lost > 0 and s.in_tokyo(seat) and s.hp[victim] > 0:
        s.stack.append(("ask", victim, "give", seat, c, 1 << GIVE_ENERGY | 1 << LOSE_ONE))


def _dusk_ritual(s: State, seat: int, c: int) -> None:
    heal(s, seat, 2, card=c)
    gain_energy(s, seat, 2, card=c)


def _boogie_dance(s: State, seat: int, c: int, counts: list[int]) -> None:
    if max(counts) >= 4:
        owner_answers(s, seat, c, GAIN_ENERGY, GAIN_HEART)


_threat = each_other_answers(GIVE_ENERGY, LOSE_TWO)


def _trick_or_threat(s: State, seat: int, c: int, counts: list[int]) -> None:
    if counts[ONE] >= 3:
        _threat(s, seat, c)


def _high_tide(s: State, seat: int, c: int) -> None:
    tally(s, MORE_HEARTS, seat, s.dice.count(HEART))


def _son_of_kong_kiko(s: State, seat: int, c: int) -> None:
    heal(s, seat, 4, card=c)
    leave_tokyo(s, seat, card=c)


def _climb_tokyo_tower(s: State, seat: int, c: int, counts: list[int]) -> None:
    if s.in_tokyo(seat) and counts[ONE]:
        gain_stars(s, seat, counts[ONE], card=c)
    if counts[ONE] >= 6:
        end_game(s, (seat,))


def _sword_paid(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    lose_energy(s, seat, 2, card=c)
    set_turn_flag(s, f"used.{c}", 1)


def _sword_smash(s: State, seat: int, c: int, counts: list[int], stage: int, smashes: int) -> int:
    return 1 if stage == 0 and turn_flag(s, f"used.{c}") and counts[SMASH] else 0


def _sword_energy(s: State, seat: int, c: int, counts: list[int], smashes: int) -> None:
    if turn_flag(s, f"used.{c}") and counts[SMASH]:
        gain_energy(s, seat, counts[SMASH], card=c)


def _jet_club(s: State, seat: int, c: int, counts: list[int], stage: int, smashes: int) -> int:
    return 1 if stage == 2 and s.in_tokyo(seat) else 0


def _pandarwinism(s: State, seat: int, c: int, counts: list[int], smashes: int) -> None:
    if counts[HEART] >= 3:
        gain_stars(s, seat, counts[HEART] - 2, card=c)


def _one_less(s: State, seat: int, c: int, bought: int) -> int:
    return -1


def _king_of_the_gizmo(s: State, seat: int, c: int, bought: int) -> None:
    gain_stars(s, seat, 1, card=c)


def _twelve_hearts(s: State, seat: int, c: int) -> int:
    return 2


def _mandibles_of_dread(s: State, seat: int, c: int, victim: int, lost: int, dealer: int,
                        smash: bool) -> None:
    if dealer == seat and victim != seat and lost > 0:
        lose_stars(s, victim, 1, card=c)


def _eighth_wonder(s: State, seat: int, c: int, counts: list[int], smashes: int) -> None:
    if max(counts) >= 4:
        gain_stars(s, seat, 1, card=c)


def _panda_express(s: State, seat: int, c: int, counts: list[int], smashes: int) -> None:
    if min(counts) >= 1:
        gain_stars(s, seat, 2, card=c)
        grant_extra_turn(s, seat, card=c)


def _stroke_of_genius(s: State, seat: int, c: int) -> None:
    gain_energy(s, seat, turn_flag(s, f"energy.{seat}"), card=c)


def _cult_worshippers(s: State, seat: int, c: int) -> None:
    gain_stars(s, seat, turn_flag(s, f"healed.{seat}"), card=c)


ISLANDER_SACRIFICE = 1113


def _islander_sacrifice(s: State, seat: int, c: int) -> None:
    s.stack.append(("rand", "islander", seat))


def _islander_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    return (FACES,) * BASE_DICE


def _islander_roll(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    seat = frame[2]
    energy, hearts = values.count(ENERGY), values.count(HEART)
    gain_energy(s, seat, energy, card=ISLANDER_SACRIFICE)
    heal(s, seat, hearts, card=ISLANDER_SACRIFICE)
    if energy + hearts < 2:
        take_back(s, seat, ISLANDER_SACRIFICE)


def _eats_shoots_and_leaves(s: State, seat: int, c: int) -> None:
    outside = [t for t in others_of(s, seat) if not s.in_tokyo(t)]
    if outside:
        deal_damage(s, seat, dict.fromkeys(outside, 2))
    gain_energy(s, seat, 1, card=c)
    leave_tokyo(s, seat, card=c)


_OPPOSITE = {ONE: THREE, THREE: ONE, TWO: HEART, HEART: TWO, SMASH: ENERGY, ENERGY: SMASH}
"""Yin & Yang: each face and the one it turns into."""


def _yin_yang_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    return () if turn_flag(s, f"used.{c}") else (UseCard(c),)


def _yin_and_yang(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    set_turn_flag(s, f"used.{c}", 1)
    s.dice = tuple(_OPPOSITE[d] for d in s.dice)
    keep_ice(s)
    note(s, DiceChanged(seat, s.dice, c))
    s.stack.append(frame)


BAMBOO_SUPPLY = 1136
_PUT, _TAKE = 0, 1


def _bamboo_supply(s: State, seat: int, c: int) -> None:
    s.stack.append(("ask", seat, "bamboo"))


def _bamboo_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    put = UseCard(BAMBOO_SUPPLY, (_PUT,))
    return (put, UseCard(BAMBOO_SUPPLY, (_TAKE,))) if s.tokens.get(BAMBOO_SUPPLY) else (put,)


def _bamboo_handle(s: State, frame: Frame, action: Action) -> None:
    assert isinstance(action, UseCard)
    seat, stored = frame_seat(frame), s.tokens.get(BAMBOO_SUPPLY, 0)
    if action.args[0] == _PUT:
        set_card_tokens(s, seat, BAMBOO_SUPPLY, stored + 1)
    else:
        set_card_tokens(s, seat, BAMBOO_SUPPLY, 0)
        gain_energy(s, seat, stored, bonus=False, card=BAMBOO_SUPPLY)


SUNKEN_TEMPLE = 1157


def _sunken_temple(s: State, seat: int, c: int) -> None:
    if not s.in_tokyo(seat):
        s.stack.append(("ask", seat, "temple"))


def _temple_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    return (UseCard(SUNKEN_TEMPLE), PASS)


def _temple_handle(s: State, frame: Frame, action: Action) -> None:
    if type(action) is UseCard:
        seat = frame_seat(frame)
        skip_turn(s)
        heal(s, seat, 3, card=SUNKEN_TEMPLE)
        gain_energy(s, seat, 3, card=SUNKEN_TEMPLE)


def _king_of_skull_island(s: State, seat: int, c: int) -> None:
    heal(s, seat, max_hp(s, seat), card=c)
    s.flags[SKIP_NEXT + str(seat)] = 1


FRAMES: Frames = Frames(
    decisions={
        "bamboo": DecisionKind(_bamboo_legal, _bamboo_handle),
        "temple": DecisionKind(_temple_legal, _temple_handle),
        "rabbit": DecisionKind(_rabbit_legal, _rabbit_handle),
        "boozle": DecisionKind(_boozle_legal, _boozle_handle),
    },
    randoms={"islander": RandomKind(_islander_bounds, _islander_roll),
             "rabbit": RandomKind(_rabbit_bounds, _rabbit_roll, purpose=CARD_ROLL)},
)
"""The questions of Bamboo Supply and Sunken Temple at the start of their owner's turn, and
Islander Sacrifice's roll."""


CARDS: tuple[Card, ...] = (
    # --- Boogie Woogie ---------------------------------------------------------------------
    evolution(1071, "Boogie Woogie", "Boo!", TEMPORARY,
              "when a wounded monster stays in Tokyo",
              "That monster must yield Tokyo. In your buy step, you may pay 1⚡ to take this card "
              "back from your discard pile.",
              windows=("stayed",), can_play=_boo_wanted, evolve=_boo, discard_buy=_boo_back_offer,
              use=_boo_back),
    evolution(1072, "Boogie Woogie", "Worst Nightmare", GIFT,
              "when you wound a monster",
              "At the start of your turn, give 1⚡ to this card's owner or lose 1♥.",
              windows=("dealt",), can_play=gift_wanted, start_turn=_worst_nightmare),
    evolution(1073, "Boogie Woogie", "I Live Under Your Bed", GIFT,
              "when you wound a monster",
              "You roll one die fewer.",
              windows=("dealt",), can_play=gift_wanted, dice_count=_one_fewer),
    evolution(1074, "Boogie Woogie", "Boogie Dance", PERMANENT,
              "any time",
              "If you roll four of the same face, gain 1⚡ or 1♥.",
              numbers=_boogie_dance),
    evolution(1075, "Boogie Woogie", "Well of Shadow", TEMPORARY,
              "any time",
              "Gain 2♥.",
              evolve=heals(2)),
    evolution(1076, "Boogie Woogie", "Worm Invaders", TEMPORARY,
              "any time",
              "Every other monster loses 2♥.",
              evolve=others_lose(2)),
    evolution(1077, "Boogie Woogie", "Nightlife!", PERMANENT,
              "any time",
              "Gain 1♥ when you enter Tokyo.",
              entered=heals(1)),
    evolution(1078, "Boogie Woogie", "Dusk Ritual", TEMPORARY,
              "right after you buy a Keep card",
              "Gain 2♥ and 2⚡.",
              windows=("bought",), evolve=_dusk_ritual),
    # --- Pumpkin Jack ----------------------------------------------------------------------
    evolution(1081, "Pumpkin Jack", "Detachable Head", GIFT,
              "when you wound a monster",
              "Each time this card's owner wounds you, you lose 1♥ more.",
              windows=("dealt",), can_play=gift_wanted, taken_bonus=_detachable_head),
    evolution(1082, "Pumpkin Jack", "Ignis Fatus", GIFT,
              "when you wound a monster",
              "You get one roll fewer each turn.",
              windows=("dealt",), can_play=gift_wanted, roll_count=_one_fewer),
    evolution(1083, "Pumpkin Jack", "Smashing Pumpkin", TEMPORARY,
              "any time",
              "Every monster with 12★ or more loses 2♥.",
              evolve=_smashing_pumpkin),
    evolution(1084, "Pumpkin Jack", "Trick or Threat", PERMANENT,
              "any time",
              "When you roll three 1s, each other monster gives you 1⚡ or loses 2♥.",
              numbers=_trick_or_threat),
    evolution(1085, "Pumpkin Jack", "Bobbing for Apples", PERMANENT,
              "any time",
              "Once per turn, you may buy a Power card for 2⚡ less. If the card that replaces it "
              "has an odd cost, discard the card you bought and get your ⚡ back.",
              buy_actions=apples_offer, use=apples_buy),
    evolution(1086, "Pumpkin Jack", "Feast of Crows", TEMPORARY,
              "any time",
              "Each other monster gives you 1♥, 1★ or 1⚡, as it chooses.",
              evolve=each_other_answers(GIVE_ENERGY, GIVE_STAR, GIVE_HEART)),
    evolution(1087, "Pumpkin Jack", "Scythe", PERMANENT,
              "any time",
              "Put 1⚡ from the bank on this card when you play it and each time you eliminate "
              "a monster. Add one ✸ to your roll for each ⚡ on it.",
              evolve=_scythe, after_hit=_scythe_reaps, add_smashes=_scythe_smashes),
    evolution(1088, "Pumpkin Jack", "Candy!", TEMPORARY,
              "any time, or when you are wounded",
              "Gain 1♥. Or, when you are wounded, lose no ♥ and give this card to the monster "
              "that wounded you.",
              windows=(*ANY_TIME, "wounded"), evolve=_candy, before_roll=_candy_offer,
              hit_window=react_window, react_actions=_candy_react, use=_candy_used),
    # --- King Kong -------------------------------------------------------------------------
    evolution(1111, "King Kong", "Son of Kong Kiko", TEMPORARY,
              "when you reach 0♥",
              "Gain 4♥, leave Tokyo, and go on playing.",
              windows=("zero",), evolve=_son_of_kong_kiko),
    evolution(1112, "King Kong", "King of Skull Island", TEMPORARY,
              "when you yield Tokyo",
              "Gain ♥ up to your maximum. Skip your next turn.",
              windows=("yielded",), evolve=_king_of_skull_island),
    evolution(1113, "King Kong", "Islander Sacrifice", TEMPORARY,
              "any time",
              "Roll 6 dice: gain 1⚡ per ⚡ and 1♥ per ♥, even in Tokyo. If fewer than 2 dice "
              "show ⚡ or ♥, take this card back.",
              evolve=_islander_sacrifice),
    evolution(1114, "King Kong", "Monkey Leap", TEMPORARY,
              "during another monster's enter-Tokyo step",
              "If Tokyo is empty, you take control of it instead of that monster.",
              windows=("enter",), can_play=_monkey_leap_ok, evolve=enter_instead),
    evolution(1115, "King Kong", "It Was Beauty Killed the Beast", PERMANENT,
              "any time",
              "Take the Beauty card. If you don't hold it at the start of your turn, that turn you "
              "cannot reroll ✸ and you can wound only the monster that holds it.",
              evolve=_beauty_taken_up, after_hit=_beauty_won, start_turn=_beast_wakes,
              lost=_beauty_gone),
    evolution(1116, "King Kong", "Jet Club", PERMANENT,
              "any time",
              "While you are in Tokyo, add one ✸ to your roll.",
              add_smashes=_jet_club),
    evolution(1117, "King Kong", "8th Wonder of the World", PERMANENT,
              "any time",
              "If you roll four of the same face, gain 1★.",
              resolve=_eighth_wonder),
    evolution(1118, "King Kong", "Climb Tokyo Tower", PERMANENT,
              "any time",
              "While you are in Tokyo, gain 1★ for each 1 you roll. If you roll six 1s, you win "
              "the game.",
              numbers=_climb_tokyo_tower),
    # --- Pandakaï --------------------------------------------------------------------------
    evolution(1131, "Pandakaï", "Panda-Monium", TEMPORARY,
              "any time",
              "Gain 6⚡. Every other monster gains 3⚡.",
              evolve=_panda_monium),
    evolution(1132, "Pandakaï", "Eats, Shoots and Leaves", TEMPORARY,
              "when you enter Tokyo",
              "Every monster outside Tokyo loses 2♥. Gain 1⚡, then leave Tokyo, and nobody "
              "takes your place.",
              windows=("entered",), evolve=_eats_shoots_and_leaves),
    evolution(1133, "Pandakaï", "Bam-Boozle", TEMPORARY,
              "when another monster buys a Power card",
              "That monster pays nothing and cannot take that card this turn. Choose another card "
              "it can afford: it must buy that one.",
              windows=("buying",), can_play=_boozle_wanted, evolve=_bam_boozle),
    evolution(1134, "Pandakaï", "Bear Necessities", TEMPORARY,
              "any time",
              "Lose 1★, gain 2⚡ and 2♥.",
              evolve=_bear_necessities),
    evolution(1135, "Pandakaï", "Panda Express", PERMANENT,
              "any time",
              "If your roll shows 1, 2, 3, ♥, ✸ and ⚡, gain 2★ and take another turn.",
              resolve=_panda_express),
    evolution(1136, "Pandakaï", "Bamboo Supply", PERMANENT,
              "any time",
              "At the start of your turn, put 1⚡ from the bank on this card, or take all the ⚡ "
              "on it.",
              start_turn=_bamboo_supply),
    evolution(1137, "Pandakaï", "Pandarwinism: Survival of the Cutest", PERMANENT,
              "any time",
              "If you roll three ♥, gain 1★, and 1★ more for each ♥ beyond three.",
              resolve=_pandarwinism),
    evolution(1138, "Pandakaï", "Yin & Yang", PERMANENT,
              "any time",
              "Before your dice resolve, you may turn each die to its opposite face: 1 and 3, "
              "2 and ♥, ✸ and ⚡ swap.",
              change_die=change_window, change_actions=_yin_yang_offer, use=_yin_and_yang),
    # --- Cyber Bunny -----------------------------------------------------------------------
    evolution(1141, "Cyber Bunny", "Stroke of Genius", TEMPORARY,
              "any time",
              "Gain 1⚡ for each ⚡ you have already gained this turn.",
              evolve=_stroke_of_genius),
    evolution(1142, "Cyber Bunny", "Emergency Battery", TEMPORARY,
              "any time",
              "Gain 3⚡.",
              evolve=gains_energy(3)),
    evolution(1143, "Cyber Bunny", "Rabbit's Foot", TEMPORARY,
              "any time",
              "You cannot lose ♥ for the rest of the turn.",
              evolve=unharmed_this_turn),
    evolution(1144, "Cyber Bunny", "Heart of the Rabbit", TEMPORARY,
              "after another monster's last roll",
              "Reroll one of its dice. When you take control of Tokyo, take this card back from "
              "your discard pile.",
              windows=("resolve",), can_play=_rabbit_wanted, evolve=_heart_of_the_rabbit),
    evolution(1145, "Cyber Bunny", "Secret Laboratory", PERMANENT,
              "any time",
              "Power cards cost you 1⚡ less.",
              cost=_one_less),
    evolution(1146, "Cyber Bunny", "King of the Gizmo", PERMANENT,
              "any time",
              "Gain 1★ for each Power card you buy.",
              on_buy=_king_of_the_gizmo),
    evolution(1147, "Cyber Bunny", "Energy Sword", PERMANENT,
              "any time",
              "Before rolling, you may pay 2⚡. If you did and you roll at least one ✸, add one "
              "✸ and gain 1⚡ for each ✸ rolled.",
              before_roll=offered_for(2), use=_sword_paid, add_smashes=_sword_smash,
              resolve=_sword_energy),
    evolution(1148, "Cyber Bunny", "Electric Carrot", PERMANENT,
              "any time",
              "While you are in Tokyo, each monster you wound loses 1♥ more unless it gives you "
              "1⚡.",
              after_hit=_electric_carrot),
    # --- Kraken ----------------------------------------------------------------------------
    evolution(1151, "Kraken", "Healing Rain", TEMPORARY,
              "any time",
              "Gain 2♥.",
              evolve=heals(2)),
    evolution(1152, "Kraken", "Destructive Wave", TEMPORARY,
              "when you enter Tokyo",
              "Every other monster loses 2♥.",
              windows=("entered",), evolve=others_lose(2)),
    evolution(1153, "Kraken", "Cult Worshippers", TEMPORARY,
              "any time",
              "Gain 1★ for each ♥ you gained this turn.",
              evolve=_cult_worshippers),
    evolution(1154, "Kraken", "High Tide", TEMPORARY,
              "any time",
              "For each ♥ you rolled, add one more ♥ to your roll.",
              windows=("own resolve",), evolve=_high_tide),
    evolution(1155, "Kraken", "Terror of the Deep", PERMANENT,
              "any time",
              "Roll one die for each ♥ you lost this turn. Each ♥ rolled cancels the loss of 1♥.",
              hit_window=react_window, use=camouflage),
    evolution(1156, "Kraken", "Eater of Souls", PERMANENT,
              "any time",
              "Gain 1♥ each time you enter Tokyo. While you own this card, your maximum is 12♥.",
              entered=heals(1), max_hp=_twelve_hearts),
    evolution(1157, "Kraken", "Sunken Temple", PERMANENT,
              "any time",
              "Before rolling, if you are outside Tokyo, you may skip your turn to gain 3♥ and "
              "3⚡.",
              start_turn=_sunken_temple),
    evolution(1158, "Kraken", "Mandibles of Dread", PERMANENT,
              "any time",
              "Each monster you wound loses 1★.",
              after_hit=_mandibles_of_dread),
)
