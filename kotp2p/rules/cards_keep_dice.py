"""Keep cards that work on the dice: how many, how many rolls, changing faces, reading patterns.

Theory of operation
-------------------
Extra dice and rolls are the value hooks ``dice_count`` and ``roll_count``. Energy Drink and
Smoke Cloud sell extra rolls. They are ``UseCard`` choices in the roll decision, offered once the
normal rolls are spent. Using one adds a roll, which the player then spends with an ordinary
``Reroll``. Buying a roll early would change nothing, so it is not offered. Background Dweller
offers ``UseCard(card, (die,))`` to re-roll one die showing 3. It may be used any number of times,
in the roll decision and in the change-die window.

After the final roll, Psychic Probe owners get a ``probe`` window. There is one per owner, in seat
order after the active monster. Then the active monster gets one ``change`` window. There every
change-die card offers its actions until the monster is ``Done``: Herd Culler, Plot Twist,
Stretchy and Background Dweller.

Added smashes follow the three stages of ``smash_count``. At stage 0, Poison Quills counts as
rolled. At stage 1, Spiked Tail and Urbavore need a smash so far. Acid Attack and Burrowing come
last, at stage 2. Burrowing is declared with the damage cards.

Freeze Time reads the resolved dice at the end of the turn, so buying it after rolling 111
still counts. It leaves the number of dice to drop in the ``freeze`` flag for the extra turn
it grants.
"""

from __future__ import annotations

from kotp2p.rules.actions import DONE, PASS, Action, UseCard
from kotp2p.rules.card import KEEP, Card
from kotp2p.rules.dice import FACES, HEART, ONE, THREE, TWO
from kotp2p.rules.effects import (
    card_actions,
    gain_stars,
    lose_energy,
    note,
    remove_card,
    set_card_tokens,
    set_turn_flag,
    turn_flag,
    use_card,
)
from kotp2p.rules.events import CardEffect, DiceChanged
from kotp2p.rules.powerup import frozen_die
from kotp2p.rules.registry import DecisionKind, Frames, RandomKind, copies_of, frame_seat
from kotp2p.rules.state import Frame, State

ACID_ATTACK = 1
BACKGROUND_DWELLER = 5
COMPLETE_DESTRUCTION = 8
EXTRA_HEAD = 13
EXTRA_HEAD_2 = 14
FREEZE_TIME = 16
GIANT_BRAIN = 18
GOURMET = 19
HERD_CULLER = 22
DETRITIVORE = 30
PLOT_TWIST = 33
POISON_QUILLS = 34
PSYCHIC_PROBE = 36
SMOKE_CLOUD = 41
SPIKED_TAIL = 43
STRETCHY = 44
ENERGY_DRINK = 45
URBAVORE = 46

STRETCHY_COST = 2
SMOKE_TOKENS = 3


def set_die(s: State, die: int, face: int, card: int) -> None:
    """The active monster's die ``die`` shows ``face`` now, because of ``card``."""
    if s.flags and die == frozen_die(s):
        return  # Encased in Ice holds it
    dice = list(s.dice)
    dice[die] = face
    s.dice = tuple(dice)
    note(s, DiceChanged(s.active, s.dice, card))


def _face_changes(s: State, card: int) -> tuple[Action, ...]:
    ice = frozen_die(s) if s.flags else -1
    return tuple(
        UseCard(card, (i, f)) for i, d in enumerate(s.dice) for f in range(FACES)
        if f != d and i != ice
    )


# --- more dice, more rolls ---------------------------------------------------------------


def _extra_die(s: State, seat: int, c: int) -> int:
    return 1


def _giant_brain(s: State, seat: int, c: int) -> int:
    return 1


def _energy_drink_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    if s.rolls_left == 0 and s.energy[seat] >= 1 and s.dice and c == copies_of(s, seat, ENERGY_DRINK)[0]:
        return (UseCard(c),)
    return ()


def _energy_drink(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    lose_energy(s, seat, 1, card=c)
    s.rolls_left += 1
    s.stack.append(frame)


def _smoke_cloud_tokens(s: State, seat: int, c: int) -> None:
    set_card_tokens(s, seat, c, SMOKE_TOKENS)


def _smoke_cloud_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    if s.rolls_left == 0 and s.tokens.get(c, 0) > 0 and s.dice:
        return (UseCard(c),)
    return ()


def _smoke_cloud(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    left = s.tokens.get(c, 0) - 1
    set_card_tokens(s, seat, c, left)
    s.rolls_left += 1
    s.stack.append(frame)
    if left <= 0 and c == SMOKE_CLOUD:
        remove_card(s, seat, c)  # a copy keeps its card, now empty


# --- Background Dweller --------------------------------------------------------------------


def _dweller_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    if c != copies_of(s, seat, BACKGROUND_DWELLER)[0]:
        return ()
    return tuple(UseCard(c, (i,)) for i, d in enumerate(s.dice) if d == THREE)


def _dweller(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    s.stack.append(frame)
    s.stack.append(("rand", "roll", 1 << action.args[0]))


# --- the change-die window -----------------------------------------------------------------


def change_window(s: State, seat: int, c: int) -> Frame | None:
    """The ``change_die`` hook of every card that changes the active monster's dice."""
    return ("ask", seat, "change")


def _change_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    return (*card_actions(s, frame_seat(frame), "change_actions"), DONE)


def _change_handle(s: State, frame: Frame, action: Action) -> None:
    if type(action) is UseCard:
        assert isinstance(action, UseCard)
        use_card(s, frame, action)


def _herd_culler_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    if turn_flag(s, f"used.{c}"):
        return ()
    return tuple(UseCard(c, (i,)) for i, d in enumerate(s.dice) if d != ONE)


def _herd_culler(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    set_turn_flag(s, f"used.{c}", 1)
    set_die(s, action.args[0], ONE, c)
    s.stack.append(frame)


def _plot_twist_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    return _face_changes(s, c)


def _plot_twist(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    set_die(s, action.args[0], action.args[1], c)
    remove_card(s, seat, c)
    s.stack.append(frame)


def _stretchy_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    if s.energy[seat] < STRETCHY_COST or c != copies_of(s, seat, STRETCHY)[0]:
        return ()
    return _face_changes(s, c)


def _stretchy(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    lose_energy(s, seat, STRETCHY_COST, card=c)
    set_die(s, action.args[0], action.args[1], c)
    s.stack.append(frame)


# --- Psychic Probe ---------------------------------------------------------------------------


def _probe_window(s: State, seat: int, c: int) -> Frame | None:
    return ("ask", seat, "probe") if s.dice else None


def _probe_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    seat = frame_seat(frame)
    mine = copies_of(s, seat, PSYCHIC_PROBE)
    if not mine:
        return ()
    return (*(UseCard(mine[0], (i,)) for i in range(len(s.dice))), PASS)


def _probe_handle(s: State, frame: Frame, action: Action) -> None:
    if type(action) is UseCard:
        assert isinstance(action, UseCard)
        note(s, CardEffect(frame_seat(frame), action.card))
        s.stack.append(("rand", "probe", frame_seat(frame), action.args[0]))


def _probe_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    return (FACES,) if s.alive[s.active] else ()


def _probe_roll(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    _, _, seat, die = frame
    assert isinstance(seat, int) and isinstance(die, int)
    set_die(s, die, values[0], PSYCHIC_PROBE)
    if values[0] == HEART:
        for c in copies_of(s, seat, PSYCHIC_PROBE):
            remove_card(s, seat, c)


# --- added smashes ----------------------------------------------------------------------------


def _poison_quills(s: State, seat: int, c: int, counts: list[int], stage: int, smashes: int) -> int:
    return 2 if stage == 0 and counts[TWO] >= 3 else 0


def _spiked_tail(s: State, seat: int, c: int, counts: list[int], stage: int, smashes: int) -> int:
    return 1 if stage == 1 and smashes > 0 else 0


def _urbavore_smash(s: State, seat: int, c: int, counts: list[int], stage: int, smashes: int) -> int:
    return 1 if stage == 1 and smashes > 0 and s.in_tokyo(seat) else 0


def _urbavore_star(s: State, seat: int, c: int) -> None:
    if s.in_tokyo(seat):
        gain_stars(s, seat, 1, card=c)


def _acid_attack(s: State, seat: int, c: int, counts: list[int], stage: int, smashes: int) -> int:
    return 1 if stage == 2 else 0


# --- dice patterns and numbers ------------------------------------------------------------------


def _detritivore(s: State, seat: int, c: int, counts: list[int], smashes: int) -> None:
    if counts[ONE] and counts[TWO] and counts[THREE]:
        gain_stars(s, seat, 2, card=c)


def _complete_destruction(s: State, seat: int, c: int, counts: list[int], smashes: int) -> None:
    if all(counts[f] for f in range(HEART + 1)) and smashes > 0:
        gain_stars(s, seat, 9, card=c)


def _gourmet(s: State, seat: int, c: int, counts: list[int]) -> None:
    if counts[ONE] >= 3:
        gain_stars(s, seat, 2, card=c)


def _freeze_time(s: State, seat: int, c: int) -> bool:
    if s.dice.count(ONE) < 3:
        return False
    s.flags["freeze"] = turn_flag(s, "fewer_dice") + 1
    return True


def _freeze_time_dice(s: State, seat: int, c: int) -> None:
    fewer = s.flags.pop("freeze", 0)
    if fewer:
        set_turn_flag(s, "fewer_dice", fewer)


FRAMES: Frames = Frames(
    decisions={
        "change": DecisionKind(_change_legal, _change_handle),
        "probe": DecisionKind(_probe_legal, _probe_handle),
    },
    randoms={
        "probe": RandomKind(_probe_bounds, _probe_roll),
    },
)


CARDS: tuple[Card, ...] = (
    Card(
        ACID_ATTACK, "Acid Attack", 6, KEEP, "your dice resolution",
        text="Every turn, your roll counts one more smash than you rolled, even if you rolled none.",
        hooks={"add_smashes": _acid_attack},
        worth=7,
    ),
    Card(
        BACKGROUND_DWELLER, "Background Dweller", 4, KEEP, "roll phase",
        text="You may reroll any die showing 3, whenever you like.",
        hooks={
            "roll_actions": _dweller_offer,
            "change_die": change_window,
            "change_actions": _dweller_offer,
            "use": _dweller,
        },
        worth=3,
    ),
    Card(
        COMPLETE_DESTRUCTION, "Complete Destruction", 3, KEEP, "start of dice resolution",
        text=(
            "If your final dice show 1, 2, 3, heart, energy and smash (at least one of each), gain 9★ on "
            "top of normal results."
        ),
        hooks={"resolve": _complete_destruction},
        worth=2,
    ),
    Card(
        EXTRA_HEAD, "Extra Head", 7, KEEP, "roll phase",
        text="You roll one extra die.",
        hooks={"dice_count": _extra_die},
        worth=9,
    ),
    Card(
        EXTRA_HEAD_2, "Extra Head", 7, KEEP, "roll phase",
        text="You roll one extra die.",
        hooks={"dice_count": _extra_die},
        worth=9,
    ),
    Card(
        FREEZE_TIME, "Freeze Time", 5, KEEP, "number resolution",
        text=(
            "On a turn where you resolve at least three 1s, take another turn after this one with one die "
            "fewer."
        ),
        hooks={"extra_turn": _freeze_time, "start_turn": _freeze_time_dice},
        worth=5,
    ),
    Card(
        GIANT_BRAIN, "Giant Brain", 5, KEEP, "roll phase",
        text="You get one extra reroll each turn.",
        hooks={"roll_count": _giant_brain},
        worth=7,
    ),
    Card(
        GOURMET, "Gourmet", 4, KEEP, "number resolution",
        text="When you resolve at least three 1s, gain 2★ extra.",
        hooks={"numbers": _gourmet},
        worth=3,
    ),
    Card(
        HERD_CULLER, "Herd Culler", 3, KEEP, "before resolving dice",
        text="Once per turn, you may turn one of your dice into a 1.",
        hooks={"change_actions": _herd_culler_offer, "use": _herd_culler, "change_die": change_window},
        worth=4,
    ),
    Card(
        DETRITIVORE, "Detritivore", 4, KEEP, "start of dice resolution",
        text="If your dice show at least one 1, one 2 and one 3, gain 2★ on top of normal results.",
        hooks={"resolve": _detritivore},
        worth=4,
    ),
    Card(
        PLOT_TWIST, "Plot Twist", 3, KEEP, "before resolving dice",
        text="Once, change one of your dice to any face, then discard this card.",
        hooks={"change_actions": _plot_twist_offer, "use": _plot_twist, "change_die": change_window},
        worth=3,
    ),
    Card(
        POISON_QUILLS, "Poison Quills", 3, KEEP, "dice resolution",
        text="If you resolve at least three 2s, add two smashes.",
        hooks={"add_smashes": _poison_quills},
        worth=3,
    ),
    Card(
        PSYCHIC_PROBE, "Psychic Probe", 3, KEEP, "after another monster's final roll",
        text=(
            "After another monster's final roll, you may reroll one of its dice. If that reroll shows a "
            "heart, discard Psychic Probe."
        ),
        hooks={"after_roll": _probe_window},
        worth=3,
    ),
    Card(
        SMOKE_CLOUD, "Smoke Cloud", 4, KEEP, "roll phase",
        text=(
            "Comes with 3 Smoke tokens. Spend one to get an extra reroll. Discard the card when none are "
            "left."
        ),
        hooks={"gained": _smoke_cloud_tokens, "roll_actions": _smoke_cloud_offer, "use": _smoke_cloud},
        worth=5,
    ),
    Card(
        SPIKED_TAIL, "Spiked Tail", 5, KEEP, "dice resolution",
        text="If your roll has at least one smash, add one more smash.",
        hooks={"add_smashes": _spiked_tail},
        worth=6,
    ),
    Card(
        STRETCHY, "Stretchy", 3, KEEP, "before resolving dice",
        text="Pay 2⚡ to change one of your dice to any face.",
        hooks={"change_actions": _stretchy_offer, "use": _stretchy, "change_die": change_window},
        worth=4,
    ),
    Card(
        ENERGY_DRINK, "Energy Drink", 4, KEEP, "roll phase",
        text="Pay 1⚡ for an extra reroll.",
        hooks={"roll_actions": _energy_drink_offer, "use": _energy_drink},
        worth=4,
    ),
    Card(
        URBAVORE, "Urbavore", 4, KEEP, "start of your turn in Tokyo; dice resolution",
        text=(
            "Gain 1★ more when you start your turn in Tokyo. While in Tokyo, if your roll has at least one "
            "smash, add one more."
        ),
        hooks={"add_smashes": _urbavore_smash, "start_turn": _urbavore_star},
        worth=4,
    ),
)
