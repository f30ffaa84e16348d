"""Power Up!'s Evolution decks of the six base monsters.

This module holds the decks of Space Penguin, Alienoid, Cyber Kitty, The King, Giga Zaur and Meka
Dragon, 8 cards each. These monsters are numbered 1 to 6 in that order. A card's id is 1000 plus
the monster's number times ten plus 1 to 8.
"""

from __future__ import annotations

from kotp2p.rules.actions import DONE, PASS, Action, UseCard
from kotp2p.rules.basics import NOBODY, Frame
from kotp2p.rules.card import KEEP, PERMANENT, TEMPORARY, Card, evolution
from kotp2p.rules.cardindex import CARDS as BY_ID
from kotp2p.rules.cards_keep_dice import change_window, set_die
from kotp2p.rules.dice import FACES, ONE, SMASH, TWO
from kotp2p.rules.effects import (
    DOUBLED,
    MARKED,
    SMASH_BONUS,
    deal_damage,
    discard_card,
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
    set_turn_bit,
    set_turn_flag,
    start_over,
    take_card,
    tally,
    turn_flag,
    use_card,
)
from kotp2p.rules.events import CardEffect, CardRevealed, Copied, DiceChanged, GiftGiven
from kotp2p.rules.evoeffects import (
    GIVE_ENERGY,
    GIVE_STAR,
    answer,
    answers_possible,
    each_other_answers,
    gains_stars,
    heals,
    offered_for,
    others_lose,
    unharmed_this_turn,
)
from kotp2p.rules.evomarket import (
    catch,
    catch_offer,
    deep_dive,
    dive_wanted,
    food_offer,
    ufo_buy,
    ufo_check,
    ufo_offer,
)
from kotp2p.rules.evoslots import evolution_owner
from kotp2p.rules.market import sweep_market
from kotp2p.rules.powerup import (
    BLIZZARD,
    COLD_WAVE,
    FROZEN_FACE,
    IN_TOKYO_AT_START,
    STRUCK_TOKYO,
    VACATED,
    enter_instead,
    free_place,
    freeze_die,
    keep_ice,
    skip_turn,
)
from kotp2p.rules.registry import (
    COPIERS,
    DecisionKind,
    Frames,
    RandomKind,
    frame_seat,
    others_of,
    seats_from,
)
from kotp2p.rules.state import CARD_ROLL, DRAW, State
from kotp2p.rules.tokyo import yield_tokyo


def _ice_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    if s.energy[seat] < 1 or turn_flag(s, f"used.{c}"):
        return ()
    return tuple(UseCard(c, (i,)) for i in range(len(s.dice)))


def _encase(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    set_turn_flag(s, f"used.{c}", 1)
    lose_energy(s, seat, 1, card=c)
    freeze_die(s, seat, action.args[0])
    s.stack.append(frame)


FREEZE_RAY = 1011


def _freeze_ray_passes(s: State, seat: int, c: int, victim: int, lost: int, dealer: int,
                       smash: bool) -> None:
    """Its owner wounded a monster in Tokyo: the card goes in front of that monster."""
    if (dealer == seat and victim != seat and lost > 0 and s.alive[victim] and s.in_tokyo(victim)
            and evolution_owner(s, c) == seat and c in s.cards[seat]):
        note(s, GiftGiven(seat, victim, c))
        move_card(s, seat, victim, c, bought=False)


def _freeze_ray_names(s: State, seat: int, c: int) -> None:
    owner = evolution_owner(s, c)
    if owner != seat and s.alive[owner]:
        s.stack.append(("ask", owner, "freeze", c))


def _freeze_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    return tuple(UseCard(frame[3], (face,)) for face in range(FACES))


def _freeze_handle(s: State, frame: Frame, action: Action) -> None:
    assert isinstance(action, UseCard)
    set_turn_flag(s, FROZEN_FACE, action.args[0] + 1)
    note(s, CardEffect(frame_seat(frame), action.card))


def _freeze_ray_returns(s: State, seat: int, c: int) -> None:
    owner = evolution_owner(s, c)
    if owner != seat and s.alive[owner]:
        note(s, GiftGiven(seat, owner, c))
        move_card(s, seat, owner, c, bought=False)


ICY_REFLECTION = 1018


def _icy_targets(s: State) -> list[int]:
    """The Permanent Evolutions in front of any monster that Icy Reflection may copy."""
    return sorted(c for t in range(s.n) if s.alive[t] for c in s.cards[t]
                  if BY_ID[c].kind == PERMANENT and c != ICY_REFLECTION)


def _icy_wanted(s: State, seat: int, c: int) -> bool:
    return bool(_icy_targets(s))


def _icy_reflection(s: State, seat: int, c: int) -> None:
    targets = _icy_targets(s)
    if len(targets) == 1:
        _reflect(s, seat, targets[0])
    elif targets:
        s.stack.append(("ask", seat, "icy"))


def _icy_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    return tuple(UseCard(ICY_REFLECTION, (c,)) for c in _icy_targets(s))


def _icy_handle(s: State, frame: Frame, action: Action) -> None:
    assert isinstance(action, UseCard)
    _reflect(s, frame_seat(frame), action.args[0])


def _reflect(s: State, seat: int, target: int) -> None:
    """Icy Reflection becomes a copy of ``target``, as if its owner had just played that card."""
    note(s, Copied(seat, ICY_REFLECTION, target))
    s.flags[COPIERS[ICY_REFLECTION]] = target
    for hook in ("gained", "evolve"):
        effect = BY_ID[target].hooks.get(hook)
        if effect is not None:
            effect(s, seat, ICY_REFLECTION)


FELINE_MOTOR = 1036


def _feline_ok(s: State, seat: int, c: int) -> bool:
    return (free_place(s) != NOBODY and not s.in_tokyo(seat)
            and not turn_flag(s, IN_TOKYO_AT_START) >> seat & 1)


def _feline_offer(s: State, seat: int, c: int) -> None:
    if _feline_ok(s, seat, c):
        s.stack.append(("ask", seat, "feline"))


def _feline_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    return (UseCard(FELINE_MOTOR), PASS) if _feline_ok(s, frame_seat(frame), FELINE_MOTOR) else ()


def _feline_handle(s: State, frame: Frame, action: Action) -> None:
    if isinstance(action, UseCard):
        enter_instead(s, frame_seat(frame), FELINE_MOTOR)


def _monkey_rush_ok(s: State, seat: int, c: int) -> bool:
    return free_place(s) != NOBODY and not s.in_tokyo(seat) and bool(turn_flag(s, VACATED))


CHEST_THUMPING = 1045


def _chest_thumping(s: State, seat: int, c: int, smashed: int) -> None:
    s.stack.append(("ask", seat, "thump", smashed))


def _thump_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    smashed = frame[3]
    forced = tuple(UseCard(CHEST_THUMPING, (t,)) for t in seats_from(s, s.active)
                   if smashed >> t & 1 and s.in_tokyo(t) and s.alive[t])
    return (*forced, DONE) if forced else ()


def _thump_handle(s: State, frame: Frame, action: Action) -> None:
    if isinstance(action, UseCard):
        s.stack.append(frame)
        note(s, CardEffect(frame_seat(frame), CHEST_THUMPING))
        yield_tokyo(s, action.args[0])


SAURIAN_ADAPTABILITY = 1054


def _saurian_adaptability(s: State, seat: int, c: int) -> None:
    s.stack.append(("ask", seat, "saurian"))


def _saurian_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    shown = sorted(set(s.dice))
    return tuple(UseCard(SAURIAN_ADAPTABILITY, (f, t)) for f in shown for t in range(FACES)
                 if t != f)


def _saurian_handle(s: State, frame: Frame, action: Action) -> None:
    assert isinstance(action, UseCard)
    old, new = action.args
    s.dice = tuple(new if d == old else d for d in s.dice)
    keep_ice(s)
    note(s, DiceChanged(frame_seat(frame), s.dice, SAURIAN_ADAPTABILITY))


def _jungle_frenzy_wanted(s: State, seat: int, c: int) -> bool:
    return bool(turn_flag(s, STRUCK_TOKYO)) and not s.in_tokyo(seat)


def _jungle_frenzy(s: State, seat: int, c: int) -> None:
    grant_extra_turn(s, seat, card=c)


def _radioactive_waste(s: State, seat: int, c: int) -> None:
    gain_energy(s, seat, 2, card=c)
    heal(s, seat, 1, card=c)


def _primal_bellow(s: State, seat: int, c: int) -> None:
    for t in others_of(s, seat):
        lose_stars(s, t, 2, card=c)



def _mouse_hunter(s: State, seat: int, c: int, counts: list[int]) -> None:
    if counts[ONE]:
        gain_stars(s, seat, 1, card=c)


def _meow_missile(s: State, seat: int, c: int, counts: list[int], stage: int,
                  smashes: int) -> int:
    return 1 if stage == 2 and counts[ONE] else 0


def _heat_vision(s: State, seat: int, c: int, victim: int, lost: int, dealer: int,
                 smash: bool) -> None:
    if victim == seat and smash and lost > 0 and dealer not in (seat, NOBODY):
        lose_stars(s, dealer, 1, card=c)


def _alpha_male(s: State, seat: int, c: int, victim: int, lost: int, dealer: int,
                smash: bool) -> None:
    if dealer == seat and victim != seat and smash and lost > 0 and not turn_flag(s, f"used.{c}"):
        set_turn_flag(s, f"used.{c}", 1)
        gain_stars(s, seat, 1, card=c)


def _cat_nip(s: State, seat: int, c: int) -> None:
    set_turn_bit(s, DOUBLED, seat)


def _nine_lives(s: State, seat: int, c: int) -> None:
    start_over(s, seat, c, 9)
    lose_energy(s, seat, s.energy[seat], card=c)
    gain_stars(s, seat, 9, card=c)


def _breath_of_doom(s: State, seat: int, c: int, victim: int, lost: int, dealer: int,
                    smash: bool) -> None:
    if dealer == seat and victim != seat and lost > 0 and s.in_tokyo(victim):
        outside = [t for t in others_of(s, seat) if not s.in_tokyo(t) and s.hp[t] > 0]
        if outside:
            deal_damage(s, seat, dict.fromkeys(outside, 1))


def _simian_scamper(s: State, seat: int, c: int) -> None:
    unharmed_this_turn(s, seat, c)
    leave_tokyo(s, seat, card=c)
    set_turn_bit(s, "yielded", seat)


def _arms_loaded(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    lose_energy(s, seat, 2, card=c)
    set_turn_flag(s, f"used.{c}", 1)


def _arms_fire(s: State, seat: int, c: int, counts: list[int], smashes: int) -> None:
    if not turn_flag(s, f"used.{c}"):
        return
    if smashes >= 3:
        gain_energy(s, seat, 2, card=c)
        tally(s, SMASH_BONUS, seat, 2)
    else:
        deal_damage(s, NOBODY, {seat: 2})


def _lightning_armor(s: State, seat: int, c: int, victim: int, lost: int, dealer: int,
                     smash: bool) -> None:
    # Rolling costs nothing and can only hurt the attacker, so the owner always rolls.
    if victim == seat and lost > 0 and dealer not in (seat, NOBODY) and s.alive[dealer]:
        s.stack.append(("rand", "lightning", seat, dealer, lost))


def _lightning_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    return (6,) * min(frame[4], 8) if s.alive[frame[3]] else ()


def _lightning_strikes(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    hits = values.count(SMASH)
    if hits:
        deal_damage(s, frame[2], {frame[3]: hits})


def _target_offer(s: State, seat: int, c: int, victim: int, lost: int, dealer: int,
                  smash: bool) -> None:
    if (victim == seat and lost > 0 and dealer not in (seat, NOBODY) and s.alive[dealer]
            and s.flags.get(MARKED + str(seat), 0) != dealer + 1):
        s.stack.append(("ask", seat, "target", dealer))


def _target_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    return (PASS, UseCard(TARGET_ACQUIRED, (frame[3],)))


def _target_handle(s: State, frame: Frame, action: Action) -> None:
    if isinstance(action, UseCard):
        use_card(s, frame, action)


def _target_given(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    s.flags[MARKED + str(seat)] = action.args[0] + 1


def _target_dropped(s: State, seat: int, c: int) -> None:
    s.flags.pop(MARKED + str(seat), None)


ADAPTING_TOKENS = 3


def _adapting_loaded(s: State, seat: int, c: int) -> None:
    set_card_tokens(s, seat, c, ADAPTING_TOKENS)


def _adapting_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    return (UseCard(c),) if s.tokens.get(c, 0) > 0 else ()


def _adapting_sweep(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    left = s.tokens.get(c, 0) - 1
    set_card_tokens(s, seat, c, left)
    s.stack.append(frame)  # the buy step goes on
    sweep_market(s, seat, 0)
    if left <= 0:
        remove_card(s, seat, c)


def _mecha_blast(s: State, seat: int, c: int) -> None:
    tally(s, SMASH_BONUS, seat, 2)


def _claws_of_steel(s: State, seat: int, c: int, target: int, amount: int) -> int:
    return 1 if amount >= 3 else 0


def _funny_looking(s: State, seat: int, c: int, counts: list[int]) -> None:
    if counts[TWO] >= 3:
        deal_damage(s, seat, dict.fromkeys(others_of(s, seat), 1))


def _star_at_home(s: State, seat: int, c: int) -> None:
    if s.in_tokyo(seat):
        gain_stars(s, seat, 1, card=c)


def _defender_of_tokyo(s: State, seat: int, c: int) -> None:
    if s.in_tokyo(seat):
        for t in others_of(s, seat):
            lose_stars(s, t, 1, card=c)


def _once_a_turn(s: State, c: int) -> bool:
    return not turn_flag(s, f"used.{c}")


def _gamma_breath_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    if not _once_a_turn(s, c):
        return ()
    return tuple(UseCard(c, (i, SMASH)) for i, d in enumerate(s.dice) if d != SMASH)


def _tail_sweep_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    if not _once_a_turn(s, c):
        return ()
    return tuple(UseCard(c, (i, f)) for i, d in enumerate(s.dice) for f in (ONE, TWO) if d != f)


def _change_once(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    set_turn_flag(s, f"used.{c}", 1)
    set_die(s, action.args[0], action.args[1], c)
    s.stack.append(frame)


def _programmed_to_destroy(s: State, seat: int, c: int, victim: int, lost: int, dealer: int,
                           smash: bool) -> None:
    if victim != seat and lost > 0 and s.hp[victim] == 0:
        gain_stars(s, seat, 3, card=c)
        gain_energy(s, seat, 2, card=c)


def _anger_batteries(s: State, seat: int, c: int) -> None:
    gain_energy(s, seat, turn_flag(s, f"lost.{seat}"), card=c)


MEGA_PURR = 1032
TARGET_ACQUIRED = 1068


def _give_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    return tuple(UseCard(frame[4], (x,)) for x in answers_possible(s, frame_seat(frame), frame[5]))


def _give_handle(s: State, frame: Frame, action: Action) -> None:
    assert isinstance(action, UseCard)
    answer(s, frame_seat(frame), frame[3], action.args[0], frame[4])


def _destructive_analysis(s: State, seat: int, c: int) -> None:
    gain_energy(s, seat, s.dice.count(SMASH), card=c)


def _mothership_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    if s.energy[seat] and s.hp[seat] < max_hp(s, seat) and _once_a_turn(s, c):
        return (UseCard(c),)
    return ()


def _mothership_support(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    set_turn_flag(s, f"used.{c}", 1)
    lose_energy(s, seat, 1, card=c)
    heal(s, seat, 1, card=c)
    s.stack.append(frame)


def _cold_wave(s: State, seat: int, c: int) -> None:
    s.flags[COLD_WAVE + str(seat)] = 1


def _blizzard(s: State, seat: int, c: int) -> None:
    s.flags[BLIZZARD + str(seat)] = 1


def _outside_tokyo(s: State, seat: int, c: int) -> bool:
    return not s.in_tokyo(seat)


def _tune_up(s: State, seat: int, c: int) -> None:
    skip_turn(s)
    heal(s, seat, 4, card=c)
    gain_energy(s, seat, 2, card=c)


PRECISION_FIELD_SUPPORT = 1022
_PRECISION_MAX_COST = 4


def _precision_field_support(s: State, seat: int, c: int) -> None:
    s.stack.append(("rand", "precision", seat))


def _precision_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    return (len(s.deck),) if s.deck else ()


def _precision_turn(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    """One card turned over: kept if it is a cheap Keep card, else discarded and the next one."""
    seat, i = frame[2], values[0]
    card = s.deck[i]
    s.deck = s.deck[:i] + s.deck[i + 1:]
    note(s, CardRevealed(card, -1))
    if BY_ID[card].kind == KEEP and BY_ID[card].cost <= _PRECISION_MAX_COST:
        take_card(s, seat, card, bought=False)
    else:
        discard_card(s, card)
        s.stack.append(frame)


def _in_tokyo(s: State, seat: int, c: int) -> bool:
    return s.in_tokyo(seat)


def _beauty_star(s: State, seat: int, c: int) -> None:
    gain_stars(s, seat, 1, card=c)


def _beauty_lost(s: State, seat: int, c: int) -> None:
    remove_card(s, seat, c)
    lose_stars(s, seat, s.stars[seat], card=c)


FRAMES: Frames = Frames(
    decisions={"give": DecisionKind(_give_legal, _give_handle),
               "saurian": DecisionKind(_saurian_legal, _saurian_handle),
               "thump": DecisionKind(_thump_legal, _thump_handle),
               "feline": DecisionKind(_feline_legal, _feline_handle),
               "icy": DecisionKind(_icy_legal, _icy_handle),
               "freeze": DecisionKind(_freeze_legal, _freeze_handle),
               "target": DecisionKind(_target_legal, _target_handle)},
    randoms={"precision": RandomKind(_precision_bounds, _precision_turn, purpose=DRAW),
             "lightning": RandomKind(_lightning_bounds, _lightning_strikes, purpose=CARD_ROLL)},
)
"""The question of Mega Purr and Feast of Crows to each other monster, Precision Field
Support's cards turned over, Lightning Armor's roll."""


CARDS: tuple[Card, ...] = (
    # --- Space Penguin ---------------------------------------------------------------------
    evolution(1011, "Space Penguin", "Freeze Ray", PERMANENT,
              "any time",
              "When you wound a monster in Tokyo, it takes this card until the end of its next "
              "turn. At the start of that turn, name a die face: it does nothing for that monster.",
              after_hit=_freeze_ray_passes, start_turn=_freeze_ray_names,
              end_turn=_freeze_ray_returns),
    evolution(1012, "Space Penguin", "Miraculous Catch", PERMANENT,
              "your buy step",
              "Once per turn, shuffle the discard pile and reveal a card at random. You may buy "
              "it for 1⚡ less than its cost.",
              buy_actions=catch_offer, use=catch),
    evolution(1013, "Space Penguin", "Deep Dive", TEMPORARY,
              "any time",
              "Look at the top 3 cards of the Power deck. Put one in front of you for free and "
              "the other two at the bottom of the deck.",
              can_play=dive_wanted, evolve=deep_dive),
    evolution(1014, "Space Penguin", "Cold Wave", TEMPORARY,
              "any time",
              "Until your next turn, every other monster rolls 1 die fewer.",
              evolve=_cold_wave),
    evolution(1015, "Space Penguin", "Encased in Ice", PERMANENT,
              "right before your dice resolution",
              "Pay 1⚡ to freeze one of your dice. It keeps its face until your next turn "
              "starts, and nobody can reroll or change it.",
              change_die=change_window, change_actions=_ice_offer, use=_encase),
    evolution(1016, "Space Penguin", "Blizzard", TEMPORARY,
              "during your turn",
              "Until your next turn starts, every other monster rolls only once and cannot "
              "yield Tokyo.",
              windows=("own start", "own end"), evolve=_blizzard),
    evolution(1017, "Space Penguin", "Black Diamond", PERMANENT,
              "any time",
              "Gain 1★ more when you enter Tokyo, and when you choose to stay in Tokyo after "
              "being wounded.",
              entered=gains_stars(1), stayed=gains_stars(1)),
    evolution(1018, "Space Penguin", "Icy Reflection", PERMANENT,
              "when another Permanent Evolution is in play",
              "This card becomes a copy of a Permanent Evolution in front of any monster, as if "
              "you had played that card.",
              can_play=_icy_wanted, evolve=_icy_reflection, copier=True),
    # --- Alienoid --------------------------------------------------------------------------
    evolution(1021, "Alienoid", "Alien Scourge", TEMPORARY,
              "any time",
              "Gain 2★.",
              evolve=gains_stars(2)),
    evolution(1022, "Alienoid", "Precision Field Support", TEMPORARY,
              "any time",
              "Turn over Power cards from the deck until one is a Keep card that costs 4⚡ or "
              "less. Put it in front of you for free and discard the others.",
              evolve=_precision_field_support),
    evolution(1023, "Alienoid", "Anger Batteries", TEMPORARY,
              "any time",
              "Gain 1⚡ for each ♥ you lost this turn.",
              evolve=_anger_batteries),
    evolution(1024, "Alienoid", "Adapting Technology", PERMANENT,
              "any time",
              "This card holds 3 tokens. On your turn, remove one to sweep the 3 face-up Power "
              "cards for free; discard this card when none is left.",
              gained=_adapting_loaded, buy_actions=_adapting_offer, use=_adapting_sweep),
    evolution(1025, "Alienoid", "Funny Looking But Dangerous", PERMANENT,
              "any time",
              "If you resolve at least three 2s, every other monster loses 1♥.",
              numbers=_funny_looking),
    evolution(1026, "Alienoid", "Exotic Arms", PERMANENT,
              "any time",
              "Before rolling, you may put 2⚡ on this card. If you then resolve 3 or more ✸, "
              "take them back and each monster you smash loses 2♥ more; if not, lose them and 2♥.",
              before_roll=offered_for(2), use=_arms_loaded, resolve=_arms_fire),
    evolution(1027, "Alienoid", "Mothership Support", PERMANENT,
              "during your turn",
              "Once per turn, pay 1⚡ to gain 1♥.",
              buy_actions=_mothership_offer, use=_mothership_support),
    evolution(1028, "Alienoid", "Superior Alien Technology", PERMANENT,
              "any time",
              "You may buy Keep cards for half their cost, rounded up, and put a UFO token on "
              "each, 3 at most. At the start of your turn, roll a die for each: on ✸, discard it.",
              buy_actions=ufo_offer, use=ufo_buy, start_turn=ufo_check),
    # --- Cyber Kitty -----------------------------------------------------------------------
    evolution(1031, "Cyber Kitty", "Nine Lives", TEMPORARY,
              "when you reach 0♥",
              "You are not eliminated: discard all your cards, lose all your ⚡ and ★, and leave "
              "Tokyo. Then go on playing with 9♥ and 9★.",
              windows=("zero",), evolve=_nine_lives),
    evolution(1032, "Cyber Kitty", "Mega Purr", TEMPORARY,
              "any time",
              "Each other monster gives you 1⚡ or 1★, as it chooses.",
              evolve=each_other_answers(GIVE_ENERGY, GIVE_STAR)),
    evolution(1033, "Cyber Kitty", "Electro-Scratch", TEMPORARY,
              "any time",
              "Every other monster loses 1♥.",
              evolve=others_lose(1)),
    evolution(1034, "Cyber Kitty", "Cat Nip", TEMPORARY,
              "before your turn starts",
              "This turn you roll only once, and every result counts double: ★ from numbers, "
              "♥, ⚡ and ✸.",
              windows=("own start",), evolve=_cat_nip),
    evolution(1035, "Cyber Kitty", "Play with Your Food", PERMANENT,
              "any time",
              "When you would make a monster in Tokyo lose 2♥ or more, you may make it lose 2♥ "
              "fewer and take 1★ and 1⚡ from it instead.",
              smash=food_offer),
    evolution(1036, "Cyber Kitty", "Feline Motor", PERMANENT,
              "during another monster's enter-Tokyo step",
              "If a spot in Tokyo is free and you started the turn outside Tokyo, you enter "
              "Tokyo instead of the monster whose turn it is.",
              windows=("enter",), can_play=_feline_ok, evolve=enter_instead,
              before_enter=_feline_offer),
    evolution(1037, "Cyber Kitty", "Mouse Hunter", PERMANENT,
              "any time",
              "If you resolve at least one 1, gain 1★.",
              numbers=_mouse_hunter),
    evolution(1038, "Cyber Kitty", "Meow Missile", PERMANENT,
              "any time",
              "If you resolve at least one 1, add one ✸ to your roll.",
              add_smashes=_meow_missile),
    # --- The King --------------------------------------------------------------------------
    evolution(1041, "The King", "Monkey Rush", TEMPORARY,
              "during another monster's enter-Tokyo step",
              "When the monster in Tokyo leaves it or is eliminated, you take control of Tokyo "
              "instead of the monster whose turn it is.",
              windows=("enter",), can_play=_monkey_rush_ok, evolve=enter_instead),
    evolution(1042, "The King", "Simian Scamper", TEMPORARY,
              "when you are wounded in Tokyo",
              "Yield Tokyo: you lose no ♥ from this attack, and you cannot lose ♥ for the rest "
              "of the turn.",
              windows=("wounded",), can_play=_in_tokyo, evolve=_simian_scamper),
    evolution(1043, "The King", "Jungle Frenzy", TEMPORARY,
              "at the end of your enter-Tokyo step",
              "If you wounded a monster in Tokyo and did not take control of Tokyo, take another "
              "turn after this one.",
              windows=("dealt",), can_play=_jungle_frenzy_wanted, evolve=_jungle_frenzy),
    evolution(1044, "The King", "Giant Banana", TEMPORARY,
              "any time",
              "Gain 2♥.",
              evolve=heals(2)),
    evolution(1045, "The King", "Chest Thumping", PERMANENT,
              "any time",
              "You may force each monster you wound to yield Tokyo.",
              before_yields=_chest_thumping),
    evolution(1046, "The King", "Alpha Male", PERMANENT,
              "any time",
              "Once per turn, gain 1★ when you wound at least one monster.",
              after_hit=_alpha_male),
    evolution(1047, "The King", "I Am the King!", PERMANENT,
              "any time",
              "Gain 1★ more when you take control of Tokyo, and when you start your turn in "
              "Tokyo.",
              entered=gains_stars(1), start_turn=_star_at_home),
    evolution(1048, "The King", "Twas Beauty Killed the Beast", PERMANENT,
              "while you are in Tokyo",
              "Gain 1★ at the end of each monster's turn, yours too. If you leave Tokyo, discard "
              "this card and lose all your ★.",
              can_play=_in_tokyo, end_any_turn=_beauty_star, left_tokyo=_beauty_lost),
    # --- Giga Zaur -------------------------------------------------------------------------
    evolution(1051, "Giga Zaur", "Detachable Tail", TEMPORARY,
              "when you would lose ♥",
              "You cannot lose ♥ for the rest of the turn.",
              windows=("wounded",), evolve=unharmed_this_turn),
    evolution(1052, "Giga Zaur", "Radioactive Waste", TEMPORARY,
              "any time",
              "Gain 2⚡ and 1♥.",
              evolve=_radioactive_waste),
    evolution(1053, "Giga Zaur", "Primal Bellow", TEMPORARY,
              "any time",
              "Every other monster loses 2★.",
              evolve=_primal_bellow),
    evolution(1054, "Giga Zaur", "Saurian Adaptability", TEMPORARY,
              "your change-dice step",
              "Choose a face. Turn all your dice that show it to one other face of your choice.",
              windows=("own resolve",), evolve=_saurian_adaptability),
    evolution(1055, "Giga Zaur", "Defender of Tokyo", PERMANENT,
              "any time",
              "When you start your turn in Tokyo, every other monster loses 1★.",
              start_turn=_defender_of_tokyo),
    evolution(1056, "Giga Zaur", "Heat Vision", PERMANENT,
              "any time",
              "A monster whose ✸ wound you loses 1★.",
              after_hit=_heat_vision),
    evolution(1057, "Giga Zaur", "Gamma Breath", PERMANENT,
              "your change-dice step",
              "Once per turn, change one of your dice to ✸.",
              change_die=change_window, change_actions=_gamma_breath_offer, use=_change_once),
    evolution(1058, "Giga Zaur", "Tail Sweep", PERMANENT,
              "your change-dice step",
              "Once per turn, change one of your dice to 1 or 2.",
              change_die=change_window, change_actions=_tail_sweep_offer, use=_change_once),
    # --- Meka Dragon -----------------------------------------------------------------------
    evolution(1061, "Meka Dragon", "Mecha Blast", TEMPORARY,
              "during your dice resolution",
              "This turn, each monster your ✸ wound loses 2♥ more.",
              windows=("own resolve",), evolve=_mecha_blast),
    evolution(1062, "Meka Dragon", "Destructive Analysis", TEMPORARY,
              "during your dice resolution",
              "Gain 1⚡ for each ✸ you rolled this turn.",
              windows=("own resolve",), evolve=_destructive_analysis),
    evolution(1063, "Meka Dragon", "Programmed to Destroy", PERMANENT,
              "any time",
              "Each time another monster drops to 0♥, gain 3★ and 2⚡.",
              after_hit=_programmed_to_destroy),
    evolution(1064, "Meka Dragon", "Tune-Up", TEMPORARY,
              "before your turn starts, outside Tokyo",
              "Skip your turn and gain 4♥ and 2⚡.",
              windows=("own start",), can_play=_outside_tokyo, evolve=_tune_up),
    evolution(1065, "Meka Dragon", "Breath of Doom", PERMANENT,
              "any time",
              "When you make a monster in Tokyo lose ♥, every other monster outside Tokyo "
              "loses 1♥.",
              after_hit=_breath_of_doom),
    evolution(1066, "Meka Dragon", "Lightning Armor", PERMANENT,
              "any time",
              "When a monster makes you lose ♥, you may roll one die per ♥ lost. That monster "
              "loses 1♥ for each ✸ rolled.",
              after_hit=_lightning_armor),
    evolution(1067, "Meka Dragon", "Claws of Steel", PERMANENT,
              "any time",
              "On your turn, a monster you make lose 3♥ or more loses 1♥ more.",
              deal_bonus=_claws_of_steel),
    evolution(1068, "Meka Dragon", "Target Acquired", PERMANENT,
              "any time",
              "When a monster wounds you, you may give it the Target token. The monster with the "
              "token loses 1♥ more each time you make it lose ♥.",
              after_hit=_target_offer, use=_target_given, lost=_target_dropped),
)
