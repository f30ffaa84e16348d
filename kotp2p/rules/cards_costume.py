"""Halloween's twelve Costume cards.

A costume sits in front of its owner like a Keep card, but it is not one: Mimic cannot copy it,
Metamorph cannot sell it. So a costume's effects never run for a copy, and they name their own
card. :mod:`kotp2p.rules.halloween` deals them at the start and lets a monster take them from
the monsters it smashed. Here is what each one does.

Theory of operation
-------------------
Most costumes act through hook points the base cards use too. Four need a turn flag that only a
Halloween game writes, in ``tokyo._lose_health``: ``t.hurt`` has a bit for each monster that
lost ♥ this turn (Ghost), ``t.wounder`` one for each monster that made another lose ♥
(Vampire). Cheerleader adds to ``t.cheers``, which counts as smashes in the roll. Witch and
Cheerleader are windows after the active monster's final roll, asked clockwise like Psychic
Probe. Robot joins the react window of Camouflage and Wings. Zombie keeps its owner alive at 0♥
through the ``undying`` hook; losing the card there eliminates the owner at once.

Rulings, where the sources differ, follow the rulebook; ``docs/halloween.md`` says why:

* Astronaut wins at the end of a turn with 17★ or more, as 20★ does, not at once.
* Devil adds 1♥ to a hit on another monster, before reactions and protection, as BGA counts it.
* Witch is offered when the roll's smashes would hit its owner and some ♥ would get past the
  owner's protection, once per turn.
* Zombie at 0♥ loses nothing when hit, so it is not wounded: no yield, no steal from it.
"""

from __future__ import annotations

from kotp2p.rules.actions import PASS, Action, UseCard
from kotp2p.rules.card import COSTUME, HALLOWEEN, Card, HookFn
from kotp2p.rules.cards_keep_damage import protected, react_window, take_hit
from kotp2p.rules.cards_keep_dice import change_window, set_die
from kotp2p.rules.dice import ENERGY, FACES, HEART, ONE, THREE, TWO, count_faces
from kotp2p.rules.effects import (
    bit,
    gain_energy,
    gain_stars,
    heal,
    lose_energy,
    note,
    set_turn_flag,
    turn_flag,
    undying,
)
from kotp2p.rules.events import CardEffect
from kotp2p.rules.registry import DecisionKind, Frames, RandomKind, frame_seat
from kotp2p.rules.rolling import smash_count
from kotp2p.rules.state import Frame, State
from kotp2p.rules.tokyo import smash_targets

ASTRONAUT = 201
GHOST = 202
VAMPIRE = 203
WITCH = 204
DEVIL = 205
PIRATE = 206
PRINCESS = 207
ZOMBIE = 208
CHEERLEADER = 209
ROBOT = 210
STATUE_OF_LIBERTY = 211
CLOWN = 212

ASTRONAUT_STARS = 17


def _astronaut(s: State, seat: int, c: int) -> int:
    return ASTRONAUT_STARS


def _ghost(s: State, seat: int, c: int) -> None:
    if turn_flag(s, "hurt") & bit(seat):
        heal(s, seat, 1, card=c)


def _vampire(s: State, seat: int, c: int) -> None:
    if turn_flag(s, "wounder") & bit(seat):
        heal(s, seat, 1, card=c)


def _devil(s: State, seat: int, c: int, target: int, amount: int) -> int:
    return 1


def _pirate(s: State, seat: int, c: int, victim: int, lost: int, dealer: int, smash: bool) -> None:
    if dealer == seat and victim != seat and s.energy[victim] > 0 and s.alive[seat]:
        lose_energy(s, victim, 1, card=c)
        gain_energy(s, seat, 1, bonus=False, card=c)


def _princess(s: State, seat: int, c: int) -> None:
    gain_stars(s, seat, 1, card=c)


def _statue(s: State, seat: int, c: int) -> int:
    return 1


# --- Zombie ---------------------------------------------------------------------------------


def _zombie_protect(s: State, seat: int, c: int, amount: int, dealer: int, smash: bool) -> int:
    return 0 if s.hp[seat] <= 0 else amount


def _zombie_undying(s: State, seat: int, c: int) -> bool:
    return True


def _zombie_lost(s: State, seat: int, c: int) -> None:
    if s.alive[seat] and s.hp[seat] <= 0 and not undying(s, seat):
        s.stack.append(("deaths",))


# --- Robot ----------------------------------------------------------------------------------


def _robot_offer(s: State, seat: int, c: int, left: int, dealer: int) -> tuple[Action, ...]:
    return tuple(UseCard(c, (n,)) for n in range(1, min(s.energy[seat], left) + 1))


def _robot(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    paid = action.args[0]
    amount = frame[3]
    assert isinstance(amount, int)
    lose_energy(s, seat, paid, card=c)
    if amount > paid:
        take_hit(s, frame, amount - paid)


# --- windows after the final roll: Witch and Cheerleader --------------------------------------


def roll_smashes(s: State) -> int:
    """The smashes the active monster's dice make now, with cards and cheers."""
    return smash_count(s, count_faces(s.dice))


def _would_wound(s: State, seat: int) -> bool:
    smashes = roll_smashes(s)
    active = s.active
    if smashes <= 0 or seat not in smash_targets(s, active):
        return False
    return protected(s, seat, smashes, active, True) > 0


def _witch_window(s: State, seat: int, c: int) -> Frame | None:
    if not s.dice or turn_flag(s, f"used.{c}") or not _would_wound(s, seat):
        return None
    return ("ask", seat, "witch")


def _witch_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    if WITCH not in s.cards[frame_seat(frame)] or turn_flag(s, f"used.{WITCH}"):
        return ()
    return (*(UseCard(WITCH, (i,)) for i in range(len(s.dice))), PASS)


def _witch_handle(s: State, frame: Frame, action: Action) -> None:
    if type(action) is UseCard:
        assert isinstance(action, UseCard)
        seat = frame_seat(frame)
        note(s, CardEffect(seat, action.card))
        set_turn_flag(s, f"used.{action.card}", 1)
        s.stack.append(("rand", "witch", seat, action.args[0]))


def _witch_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    return (FACES,) if s.alive[s.active] and s.dice else ()


def _witch_roll(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    die = frame[3]
    assert isinstance(die, int)
    set_die(s, die, values[0], WITCH)


def _cheer_window(s: State, seat: int, c: int) -> Frame | None:
    return ("ask", seat, "cheer") if s.dice else None


def _cheer_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    return (UseCard(CHEERLEADER), PASS) if CHEERLEADER in s.cards[frame_seat(frame)] else ()


def _cheer_handle(s: State, frame: Frame, action: Action) -> None:
    if type(action) is UseCard:
        assert isinstance(action, UseCard)
        note(s, CardEffect(frame_seat(frame), action.card))
        set_turn_flag(s, "cheers", turn_flag(s, "cheers") + 1)


# --- Clown ----------------------------------------------------------------------------------


def _clown_ready(s: State, seat: int, c: int) -> bool:
    if turn_flag(s, f"used.{c}"):
        return True  # once the pattern showed, every die may change, pattern or not
    counts = count_faces(s.dice)
    return all(counts[f] for f in (ONE, TWO, THREE, HEART, ENERGY)) and smash_count(s, counts) > 0


def _clown_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    if not _clown_ready(s, seat, c):
        return ()
    return tuple(
        UseCard(c, (i, f)) for i, d in enumerate(s.dice) for f in range(FACES) if f != d
    )


def _clown(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    set_turn_flag(s, f"used.{c}", 1)
    set_die(s, action.args[0], action.args[1], c)
    s.stack.append(frame)


FRAMES: Frames = Frames(
    decisions={
        "witch": DecisionKind(_witch_legal, _witch_handle),
        "cheer": DecisionKind(_cheer_legal, _cheer_handle),
    },
    randoms={
        "witch": RandomKind(_witch_bounds, _witch_roll),
    },
)


def _costume(id_: int, name: str, cost: int, timing: str, text: str, **hooks: HookFn) -> Card:
    return Card(id_, name, cost, COSTUME, timing, text, hooks=hooks, box=HALLOWEEN)


CARDS: tuple[Card, ...] = (
    _costume(ASTRONAUT, "Astronaut", 4, "at the end of a turn",
             "You win the game with 17★, as with 20★.", win_stars=_astronaut),
    _costume(GHOST, "Ghost", 4, "at the end of every monster's turn",
             "If you lost ♥ during the turn, gain 1♥.", end_any_turn=_ghost),
    _costume(VAMPIRE, "Vampire", 3, "at the end of every monster's turn",
             "If you made another monster lose ♥ during the turn, gain 1♥.",
             end_any_turn=_vampire),
    _costume(WITCH, "Witch", 4, "after another monster's final roll",
             "Once per turn, when a monster's roll would wound you, you may reroll one of its "
             "dice.", after_roll=_witch_window),
    _costume(DEVIL, "Devil", 3, "during your turn",
             "Each monster you make lose ♥ on your turn loses 1♥ more.", deal_bonus=_devil),
    _costume(PIRATE, "Pirate", 4, "when you wound a monster",
             "Take 1⚡ from each monster you make lose ♥.", after_hit=_pirate),
    _costume(PRINCESS, "Princess", 5, "at the start of your turn", "Gain 1★.",
             start_turn=_princess),
    _costume(ZOMBIE, "Zombie", 4, "when you reach 0♥",
             "You are not eliminated at 0♥, and you lose no ♥ while at 0♥. If you lose this "
             "card at 0♥, you are eliminated at once.",
             protect=_zombie_protect, undying=_zombie_undying, lost=_zombie_lost),
    _costume(CHEERLEADER, "Cheerleader", 3, "after another monster's final roll",
             "You may cheer for the monster: its roll gets 1 more ✸.", after_roll=_cheer_window),
    _costume(ROBOT, "Robot", 4, "whenever you would lose health",
             "You may lose ⚡ instead of ♥, 1⚡ for each 1♥.",
             hit_window=react_window, react_actions=_robot_offer, use=_robot),
    _costume(STATUE_OF_LIBERTY, "Statue of Liberty", 4, "roll phase",
             "You get 1 extra roll each turn.", roll_count=_statue),
    _costume(CLOWN, "Clown", 3, "after your final roll",
             "If your dice show 1, 2, 3, ♥, ⚡ and ✸, a card's ✸ counting, you may change each "
             "die to any face.",
             change_die=change_window, change_actions=_clown_offer, use=_clown),
)
