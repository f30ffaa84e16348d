"""Power Up!'s Evolution decks: each monster's own 8 cards, drawn into a hand nobody else sees.

Theory of operation
-------------------
A Power Up! game has the flag ``powerup``. Each seat's deck is a row of numbered slots. The
first 8, numbered 0 to 7, hold its monster's 8 Evolution cards in an order only the owner
knows. :mod:`kotp2p.rules.evoslots` keeps where each slot is and what this replica knows of its
card: a closed slot's card only on its owner's replica, ``HIDDEN`` on every other. The state
digest covers only public fields, so all replicas agree.

A draw of 2 is three inputs. A public random event ``evopick`` picks slots among those in the
deck, uniformly, one by one. Every replica knows which slots were drawn. Then a private event
``evocards`` tells the owner what they hold: its values pick, one by one, among the cards the
owner does not see elsewhere, in id order. Only the owner's replica learns the cards. In a
networked game the owner answers that event from its committed deck. Then the owner decides
which drawn slot to keep, ``KeepEvolution(slot)``. That names a slot, never a card, so the
others learn nothing. At setup the other slot goes back into the deck, as the rulebook says; in
play it goes to the discard, closed.

Each deck is committed before anything is drawn from it: the decision ``evodeck``, which every
seat with a deck answers at setup before the first draws. Its one answer is ``Pass``; in a
networked game the MOVE that carries it also carries the deck's commitments and the proof that
they hold the monster's 8 cards. When a draw finds the deck empty, the owner answers ``evodeck``
again before the pick: the discard is shuffled back, each discarded slot becomes ``GONE`` and the
deck gets as many new slots, committed with a proof that they hold the discarded cards. So the
owner is bound to the new order before the public randomness that picks from it is known.

Playing happens in windows, such as the start and the end of every turn. A window asks every
live seat whose hand is not empty, clockwise from the active monster, whatever its hand holds:
which seats answer depends only on public facts. The question is asked even where the owner's
replica sees only ``Pass``, since another replica, which cannot see the hand, lists the plays
every card of the deck could make. An answer, ``PlayEvolution(slot, card)`` or ``Pass``, only
records the choice and opens the slot. Once every seat has answered, the cards take effect in
the same order. So no answer changes who answers after it, or what they may answer, and the
answers may be signed at once.
"""

from __future__ import annotations

from collections.abc import Collection

from kotp2p.rules.actions import PASS, Action, KeepEvolution, PlayEvolution, UseCard
from kotp2p.rules.basics import BAY, CITY, HIDDEN, NOBODY, PHASE_INDEX, POWER_UP_FLAG, Frame
from kotp2p.rules.card import GIFT, PERMANENT
from kotp2p.rules.cardindex import CARDS
from kotp2p.rules.dice import SMASH
from kotp2p.rules.effects import (
    BEAST,
    card_actions,
    enter_tokyo,
    hearts_rolled,
    note,
    set_turn_flag,
    take_card,
    turn_flag,
    use_card,
)
from kotp2p.rules.events import (
    DiceChanged,
    EvolutionKept,
    EvolutionPlayed,
    EvolutionsDrawn,
    EvolutionsShuffled,
    GiftGiven,
)
from kotp2p.rules.evoslots import (
    DECK_SIZE,
    DISCARDED,
    DRAWN,
    GONE,
    HAND,
    IN_PLAY,
    PLAYED_OUT,
    evolution_deck,
    known_card,
    put_in_play,
    set_zone,
    slot_count,
    slot_key,
    slots_in,
    zone,
)
from kotp2p.rules.registry import (
    DecisionKind,
    Frames,
    RandomKind,
    fire,
    frame_seat,
    has_hook,
    seats_from,
)
from kotp2p.rules.state import DRAW, Decision, RandomRequest, State

DRAW_COUNT = 2
"""The cards a monster draws each time, of which it keeps one."""
EVOLVE_HEARTS = 3
"""The hearts a resolved roll needs for its monster to draw Evolutions."""
START = 0
"""The window at the start of every turn, before the active monster's start-of-turn effects."""
END = 1
"""The window at the end of every turn, once its own end-of-turn effects are done."""
ENTERED = 2
"""The active monster's window when it has just entered Tokyo, before it buys."""
RESOLVE = 3
"""The window of every monster once the active monster's dice are final, before they resolve."""
YIELDED = 4
"""The window of a monster that has just yielded Tokyo, its own alone."""
ZERO = 5
"""The window of the monsters at 0♥, before they are eliminated: theirs alone."""
BOUGHT = 6
"""The window of a monster that has just bought a Keep card, its own alone."""
WOUNDED = 7
"""The window of a monster about to lose ♥ to a hit, its own alone, before the loss."""
WOUND_ASKED = 100
"""The stage of a hit whose target was asked, at the window before a loss, what it plays."""
DEALT = 8
"""The active monster's window after its enter-Tokyo step, when its smashes wounded another
monster this turn: for Gifts and Jungle Frenzy."""
BEFORE_ENTER = 10
"""The window of every other monster when the active monster is about to enter Tokyo."""
BUYING = 11
"""The window of every other monster when a monster is about to buy a card from the market."""
WINDOW_NAMES = ("start", "end", "entered", "resolve", "yielded", "zero", "bought", "wounded",
                "dealt", "stayed", "enter", "buying")
FORBIDDEN = "forbidden"
"""The turn flag of the card, plus one, that Bam-Boozle forbids the active monster this turn."""
BOOZLED = "boozled"
"""The turn flag set when Bam-Boozle took the place of the purchase under way."""
"""A window's number in frames -> the name cards give it in ``Card.windows``."""
NEXT_TURN = PHASE_INDEX["next_turn"]
_SEEN = (DRAWN, HAND, DISCARDED, PLAYED_OUT, IN_PLAY)
_IN_DISCARD = (DISCARDED, PLAYED_OUT)


def setup(s: State) -> None:
    """Give every seat its deck and push the first draws: each seat draws 2 and keeps 1, in
    seat order, before the roll-off."""
    s.flags[POWER_UP_FLAG] = 1
    for seat in range(s.n):
        if evolution_deck(s.monsters[seat]):
            s.flags[f"evo.n.{seat}"] = DECK_SIZE
    s.stack.extend(("evolve", seat, 1) for seat in reversed(range(s.n)))
    s.stack.extend(("ask", seat, "evodeck", 0) for seat in reversed(range(s.n))
                   if slot_count(s, seat))


def after_smashes(s: State) -> None:
    """Push the active monster's draw if its resolved dice show at least 3 hearts.

    It is a bonus: the hearts healed already, and the draw happens in Tokyo too."""
    if hearts_rolled(s, s.active) >= EVOLVE_HEARTS:
        s.stack.append(("evolve", s.active, 0))


def _evolve(s: State, frame: Frame) -> None:
    """Start a draw of 2: pick slots, learn their cards, keep one."""
    seat, back = frame[1], frame[2]
    if not s.alive[seat] or not slot_count(s, seat):
        return
    s.stack.append(("ask", seat, "evolve", back))
    s.stack.append(("rand", "evocards", seat))
    s.stack.append(("rand", "evopick", seat, DRAW_COUNT))
    if not slots_in(s, seat, 0) and _discard(s, seat):
        s.stack.append(("ask", seat, "evodeck", 1))


def _discard(s: State, seat: int) -> list[int]:
    """The slots in ``seat``'s discard, closed or open."""
    return [j for j in range(slot_count(s, seat)) if zone(s, seat, j) in _IN_DISCARD]


def _reshuffle(s: State, seat: int) -> None:
    """Shuffle ``seat``'s discard back into its deck, under new slot numbers."""
    discard = _discard(s, seat)
    if not discard:
        return
    for j in discard:
        set_zone(s, seat, j, GONE)
    first = slot_count(s, seat)
    s.flags[f"evo.n.{seat}"] = first + len(discard)
    if s.sink is not None:
        s.sink.append(EvolutionsShuffled(seat, tuple(discard), first))


def _pick_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    left = len(slots_in(s, frame[2], 0))
    return tuple(left - i for i in range(min(frame[3], left)))


def _pick(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    seat, want = frame[2], frame[3]
    deck = list(slots_in(s, seat, 0))
    picked = [deck.pop(v) for v in values]
    for j in picked:
        set_zone(s, seat, j, DRAWN)
    if s.sink is not None:
        s.sink.append(EvolutionsDrawn(seat, tuple(sorted(picked))))
    rest = want - len(picked)
    if rest and _discard(s, seat):
        # The owner learns the last cards of the deck before the discard joins them.
        s.stack.append(("rand", "evopick", seat, rest))
        s.stack.append(("ask", seat, "evodeck", 1))
        s.stack.append(("rand", "evocards", seat))


def _deck_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    return (PASS,)


def _deck_handle(s: State, frame: Frame, action: Action) -> None:
    """The owner committed its deck: a new one, or its discard shuffled back in."""
    if frame[3]:
        _reshuffle(s, frame_seat(frame))


def deck_call(s: State) -> tuple[int, int, tuple[int, ...], tuple[int, ...]] | None:
    """What the pending decision commits, if it is ``evodeck``: ``(seat, first, cards, slots)``.

    The new slots are numbered from ``first``. A new deck holds ``cards``, its monster's list;
    a reshuffle holds the cards of the seat's discarded ``slots``, in a new order."""
    p = s.pending
    if p is None or type(p) is not Decision or p.kind != "evodeck":
        return None
    frame = s.stack[-1]
    seat = frame_seat(frame)
    if frame[3]:
        return seat, slot_count(s, seat), (), tuple(_discard(s, seat))
    return seat, 0, evolution_deck(s.monsters[seat]), ()


def drawn_slots(s: State) -> tuple[int, ...]:
    """The slots whose cards the pending ``evocards`` event tells their owner; else ()."""
    p = s.pending
    if p is None or type(p) is not RandomRequest or s.stack[-1][1] != "evocards":
        return ()
    return tuple(_new_draws(s, s.stack[-1][2]))


def window_seats(s: State) -> tuple[int, ...]:
    """The seats the window open now asks, in order, the one deciding first; else ().

    Each answer only records its choice, so every seat may answer at once."""
    p = s.pending
    if p is None or type(p) is not Decision or p.kind != "evolution":
        return ()
    seats: list[int] = []
    for frame in reversed(s.stack):
        if frame[0] != "ask" or frame[2] != "evolution":
            break
        if s.alive[frame[1]]:
            seats.append(frame[1])
    return tuple(seats)


def window_of(s: State) -> str:
    """The name of the window asking now, such as ``"wounded"``; "" when none is."""
    p = s.pending
    if p is None or type(p) is not Decision or p.kind != "evolution":
        return ""
    return WINDOW_NAMES[s.stack[-1][3]]


def played_slots(s: State, action: Action) -> tuple[int, ...]:
    """The slots of the deciding seat's deck that ``action`` shows face up."""
    return (action.slot,) if type(action) is PlayEvolution else ()


def _pool(s: State, seat: int) -> list[int] | None:
    """The cards in ``seat``'s deck and in the slots it just drew whose cards it does not know
    yet, in id order; None if this replica does not know a card it should.

    Only the last batch of slots is ever in the deck: a reshuffle waits for the deck to be empty,
    and the owner learns the cards drawn before it first. So these are the cards of the deck."""
    pool = list(evolution_deck(s.monsters[seat]))
    for j in range(slot_count(s, seat)):
        if zone(s, seat, j) in _SEEN and not _unread(s, seat, j):
            card = known_card(s, seat, j)
            if card == HIDDEN or card not in pool:
                return None
            pool.remove(card)
    return pool


def _unread(s: State, seat: int, slot: int) -> bool:
    """True for a slot just drawn whose card its owner has not learnt yet."""
    return zone(s, seat, slot) == DRAWN and slot_key(seat, slot) not in s.slots


def _new_draws(s: State, seat: int) -> list[int]:
    return [j for j in slots_in(s, seat, DRAWN) if _unread(s, seat, j)]


def _cards_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    seat = frame[2]
    drawn = len(_new_draws(s, seat))
    left = len(slots_in(s, seat, 0)) + drawn
    return tuple(left - i for i in range(drawn))


def _cards(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    seat = frame[2]
    drawn = _new_draws(s, seat)
    pool = None if values[0] == HIDDEN else _pool(s, seat)
    for j, v in zip(drawn, values, strict=True):
        s.slots[slot_key(seat, j)] = HIDDEN if pool is None else pool.pop(v)


def _keep_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    return tuple(KeepEvolution(j) for j in slots_in(s, frame_seat(frame), DRAWN))


def _keep(s: State, frame: Frame, action: Action) -> None:
    assert isinstance(action, KeepEvolution)
    seat, back = frame_seat(frame), frame[3]
    for j in slots_in(s, seat, DRAWN):
        if j == action.slot:
            set_zone(s, seat, j, HAND)
        elif back:
            set_zone(s, seat, j, 0)
            s.slots.pop(slot_key(seat, j), None)  # back in the deck: its card is unknown again
        else:
            set_zone(s, seat, j, DISCARDED)
    if s.sink is not None:
        s.sink.append(EvolutionKept(seat, action.slot, bool(back)))


def open_window(s: State, window: int, only: Collection[int] = ()) -> None:
    """Ask every live seat holding Evolutions what it plays in ``window``, if any seat holds one.

    With ``only``, some seats, the window is theirs alone: no card of another may be played in
    it."""
    seats = [t for t in seats_from(s, s.active) if (not only or t in only) and may_play(s, t)]
    if not seats:
        return
    s.stack.append(("evoapply", window, *seats))
    s.stack.extend(("ask", t, "evolution", window) for t in reversed(seats))


def _candidates(s: State, seat: int, slot: int, unseen: tuple[int, ...]) -> tuple[int, ...]:
    """The cards ``slot`` of ``seat``'s hand may hold, as this replica knows: its card, or else
    any of ``unseen``, the cards of the deck it sees nowhere."""
    card = known_card(s, seat, slot)
    return unseen if card == HIDDEN else (card,)


def _unseen(s: State, seat: int) -> tuple[int, ...]:
    """The cards of ``seat``'s deck that this replica sees in none of its slots."""
    seen = {known_card(s, seat, j) for j in range(slot_count(s, seat)) if zone(s, seat, j) in _SEEN}
    return tuple(c for c in evolution_deck(s.monsters[seat]) if c not in seen)


def _plays(s: State, seat: int, window: int) -> tuple[Action, ...]:
    """The plays ``seat`` may answer in ``window``. A card names the windows it is played in;
    ``own start`` and ``own end`` are those of its owner's own turn. Its ``can_play`` hook, on
    public facts only, may refuse it there."""
    name = WINDOW_NAMES[window]
    own = f"own {name}" if seat == s.active else ""
    plays: list[Action] = []
    unseen = _unseen(s, seat)
    for j in slots_in(s, seat, HAND):
        for c in _candidates(s, seat, j, unseen):
            card = CARDS[c]
            if not card.hooks or (name not in card.windows and own not in card.windows):
                continue  # its effect is not built, or it is not played now
            can_play = card.hooks.get("can_play")
            if can_play is None or can_play(s, seat, c):
                plays.append(PlayEvolution(j, c))
    return tuple(plays)


def _play_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    seat = frame_seat(frame)
    if not slots_in(s, seat, HAND):
        return ()
    return (PASS, *_plays(s, seat, frame[3]))


def _play_handle(s: State, frame: Frame, action: Action) -> None:
    if type(action) is not PlayEvolution:
        return
    assert isinstance(action, PlayEvolution)
    seat = frame_seat(frame)
    s.flags[f"evoc.{seat}.{action.slot}"] = action.card
    s.slots[slot_key(seat, action.slot)] = action.card
    s.flags[f"evw.{seat}"] = action.slot + 1


def may_play(s: State, seat: int) -> bool:
    """True when a window would ask ``seat``: it holds Evolutions, and no card it chose in an
    earlier window still waits to take effect. A window may open while another's plays take
    effect, as when one of them wounds a monster: its own card stays chosen, and it is not asked
    again until that card took effect."""
    return bool(slots_in(s, seat, HAND)) and f"evw.{seat}" not in s.flags


def _apply_plays(s: State, frame: Frame) -> None:
    """The cards chosen in a window take effect, clockwise from the active monster. Each stays
    chosen until it takes effect."""
    asked = frame[2:] or range(s.n)
    plays: list[Frame] = []
    for seat in seats_from(s, s.active):
        slot = s.flags.get(f"evw.{seat}", 0) - 1
        if slot >= 0 and seat in asked:
            plays.append(("evoplay", seat, slot))
    s.stack.extend(reversed(plays))


def _play_step(s: State, frame: Frame) -> None:
    """One card chosen in a window takes effect. A Temporary acts and goes to the discard, open.
    A Permanent goes in front of its owner, among its cards, so its hooks act as a Keep card's."""
    seat, slot = frame[1], frame[2]
    s.flags.pop(f"evw.{seat}", None)
    card = known_card(s, seat, slot)
    kind = CARDS[card].kind
    # A Gift goes in play once the monster that takes it is known.
    set_zone(s, seat, slot, IN_PLAY if kind == PERMANENT and s.alive[seat] else PLAYED_OUT)
    if s.sink is not None:
        s.sink.append(EvolutionPlayed(seat, slot, card))
    if not s.alive[seat]:
        return
    if kind == PERMANENT:
        take_card(s, seat, card, bought=False)
    elif kind == GIFT:
        _give(s, seat, card)
    effect = CARDS[card].hooks.get("evolve")
    if effect is not None:
        effect(s, seat, card)


FROZEN_FACE = "frozen"
"""The turn flag of the face that does nothing for the active monster this turn, plus one: Freeze
Ray's."""


def thaw(s: State) -> None:
    """The dice about to resolve lose the face Freeze Ray names: those dice do nothing."""
    face = turn_flag(s, FROZEN_FACE) - 1
    if face >= 0 and face in s.dice:
        s.dice = tuple(d for d in s.dice if d != face)
        note(s, DiceChanged(s.active, s.dice, FREEZE_RAY))


FREEZE_RAY = 1011
ICE_OWNER, ICE_DIE, ICE_FACE = "evo.ice", "evo.icedie", "evo.iceface"
"""Encased in Ice: its owner plus one, the die it froze, and that die's face. They hold until the
owner's next turn begins."""


def frozen_die(s: State) -> int:
    """The index of the die Encased in Ice holds, if the dice rolled now have it; else -1."""
    flags = s.flags
    if not flags or ICE_OWNER not in flags:
        return -1
    i = flags[ICE_DIE]
    return i if i < len(s.dice) else -1


def freeze_die(s: State, seat: int, die: int) -> None:
    """``seat``'s die ``die`` keeps its face until ``seat``'s next turn begins."""
    s.flags[ICE_OWNER] = seat + 1
    s.flags[ICE_DIE] = die
    s.flags[ICE_FACE] = s.dice[die]


def keep_ice(s: State) -> None:
    """Put back the face of the die Encased in Ice holds, after a card changed the dice."""
    i = frozen_die(s)
    if i >= 0 and s.dice[i] != s.flags[ICE_FACE]:
        s.dice = (*s.dice[:i], s.flags[ICE_FACE], *s.dice[i + 1:])


def first_roll(s: State, n: int) -> int:
    """Before the first roll of ``n`` dice: the mask of the dice to roll. A die Encased in Ice
    holds is set already, and is not rolled."""
    flags = s.flags
    if flags and ICE_OWNER in flags and flags[ICE_DIE] < n:
        i = flags[ICE_DIE]
        s.dice = tuple(flags[ICE_FACE] if j == i else 0 for j in range(n))
        return ((1 << n) - 1) & ~(1 << i)
    return (1 << n) - 1


BEAUTY = "evo.beauty"
"""The monster holding It Was Beauty Killed the Beast's Beauty card, plus one."""


def held_dice(s: State) -> tuple[int, ...]:
    """The dice nobody may reroll now: the one Encased in Ice holds, and the ✸ of a monster whose
    Beauty was taken."""
    ice = frozen_die(s)
    held = [ice] if ice >= 0 else []
    if turn_flag(s, BEAST):
        held += [i for i, d in enumerate(s.dice) if d == SMASH and i != ice]
    return tuple(held)


IN_TOKYO_AT_START = "intokyo"
"""The turn flag of the monsters in Tokyo when the turn began, one bit each."""
VACATED = "vacated"
"""The turn flag set once a monster left Tokyo this turn, by yielding, a card or elimination."""
USURPED = "usurped"
"""The turn flag set once another monster entered Tokyo in the active monster's place."""


def free_place(s: State) -> int:
    """The place in Tokyo a monster entering now takes: CITY, BAY, or NOBODY if none is free."""
    if s.city == NOBODY:
        return CITY
    return BAY if s.bay == NOBODY and s.bay_in_use() else NOBODY


def before_entering(s: State) -> bool:
    """The active monster is about to enter Tokyo: the other monsters may play or use a card to
    enter in its place. True if a question or a window was pushed."""
    active, depth = s.active, len(s.stack)
    others = [t for t in seats_from(s, active) if t != active and s.alive[t]]
    for t in reversed(others):
        if s.cards[t] and has_hook(s, t, "before_enter"):
            fire(s, t, "before_enter")
    open_window(s, BEFORE_ENTER, others)
    return len(s.stack) != depth


def enter_instead(s: State, seat: int, card: int) -> None:
    """``seat``'s ``card`` puts it in Tokyo, in the active monster's place, if a place is free."""
    place = free_place(s)
    if place == NOBODY or s.in_tokyo(seat) or not s.alive[seat]:
        return
    enter_tokyo(s, seat, place, card=card)
    set_turn_flag(s, USURPED, 1)


def discard_actions(s: State, seat: int) -> tuple[Action, ...]:
    """The choices the cards face up in ``seat``'s Evolution discard offer in its buy step, as
    Boo! does."""
    out: list[Action] = []
    for j in slots_in(s, seat, PLAYED_OUT):
        card = known_card(s, seat, j)
        offer = CARDS[card].hooks.get("discard_buy")
        if offer is not None:
            out.extend(offer(s, seat, card))
    return tuple(out)


STAYED = 9
"""The window of every other monster when a monster smashed in Tokyo chose to stay."""
STAYER = "stayer"
"""The turn flag of the monster that just stayed in Tokyo, plus one."""


def open_stayed(s: State, seat: int) -> None:
    """``seat`` chose to stay in Tokyo after a smash: the window of every other monster."""
    s.flags["t." + STAYER] = seat + 1
    open_window(s, STAYED, [t for t in range(s.n) if t != seat])


STRUCK = "struck"
"""The turn flag of the monsters the active monster's smashes wounded this turn, one bit each."""
STRUCK_TOKYO = "struckt"
"""The turn flag of those of them that were in Tokyo when wounded."""


def struck(s: State, seat: int) -> tuple[int, ...]:
    """The live monsters other than ``seat`` that the active monster's smashes wounded this
    turn."""
    bits = turn_flag(s, STRUCK)
    return tuple(t for t in range(s.n) if bits >> t & 1 and s.alive[t] and t != seat)


def dealt_window(s: State) -> None:
    """Open the window after the enter-Tokyo step, if the active monster's smashes wounded
    another monster this turn."""
    if turn_flag(s, STRUCK):
        s.stack.append(_DEALT_STEP)


_DEALT_STEP = ("evodealt",)


def _dealt(s: State, frame: Frame) -> None:
    if s.alive[s.active]:
        open_window(s, DEALT, (s.active,))


def gift_wanted(s: State, seat: int, c: int) -> bool:
    """A Gift may be played: a monster its owner wounded is there to take it."""
    return bool(struck(s, seat))


def _give(s: State, seat: int, card: int) -> None:
    """``seat`` played the Gift ``card``: it goes in front of a monster it wounded, its choice."""
    targets = struck(s, seat)
    if len(targets) == 1:
        place_gift(s, seat, targets[0], card)
    elif targets:
        s.stack.append(("ask", seat, "gift", card))


def place_gift(s: State, seat: int, target: int, card: int) -> None:
    """``seat``'s Gift ``card`` goes in front of ``target``, where its hooks act on ``target``."""
    note(s, GiftGiven(seat, target, card))
    put_in_play(s, seat, card)
    take_card(s, target, card, bought=False)


def _gift_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    return tuple(UseCard(frame[3], (t,)) for t in struck(s, frame_seat(frame)))


def _gift_handle(s: State, frame: Frame, action: Action) -> None:
    assert isinstance(action, UseCard)
    place_gift(s, frame_seat(frame), action.args[0], frame[3])


COLD_WAVE = "evo.cold."
"""``evo.cold.<seat>``: seat's Cold Wave holds until its next turn starts."""
BLIZZARD = "evo.blizzard."
"""``evo.blizzard.<seat>``: seat's Blizzard holds until its next turn starts."""
SKIP_NEXT = "evo.skip."
"""``evo.skip.<seat>``: seat's next turn is skipped, as King of Skull Island says."""


def begin(s: State, seat: int) -> None:
    """``seat``'s turn has begun: the effects it made last until then end, then its turn is
    skipped if a card said so, or else the window at the start of a turn opens."""
    flags = s.flags
    tokyo = sum(1 << t for t in (s.city, s.bay) if t != NOBODY)
    if tokyo:
        flags["t." + IN_TOKYO_AT_START] = tokyo
    flags.pop(COLD_WAVE + str(seat), None)
    flags.pop(BLIZZARD + str(seat), None)
    owner = flags.get(ICE_OWNER, 0) - 1
    if owner == seat or (owner >= 0 and not s.alive[owner]):
        for key in (ICE_OWNER, ICE_DIE, ICE_FACE):
            del flags[key]
    if flags.pop(SKIP_NEXT + str(seat), None):
        skip_turn(s)
    else:
        open_window(s, START)


def _held_against(s: State, seat: int, prefix: str) -> int:
    """How many other monsters hold an effect of ``prefix`` against ``seat``."""
    return sum(1 for t in range(s.n) if t != seat and f"{prefix}{t}" in s.flags)


def fewer_dice(s: State, seat: int) -> int:
    """The dice ``seat`` rolls fewer because of the others' Cold Waves."""
    return _held_against(s, seat, COLD_WAVE)


def snowed_in(s: State, seat: int) -> bool:
    """True while another monster's Blizzard holds: one roll, and no yielding Tokyo."""
    return _held_against(s, seat, BLIZZARD) > 0


def skip_turn(s: State) -> None:
    """The active monster's turn, under way, goes straight to who plays next.

    Its roll, its buy and its end-of-turn effects do not happen."""
    stack = s.stack
    last = ("turn", NEXT_TURN)
    for i in range(len(stack) - 1, -1, -1):
        f = stack[i]
        if f[0] == "turn" and isinstance(f[1], int) and f[1] < NEXT_TURN:
            stack[i] = last
            return


def _prepare_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    return (PASS, *card_actions(s, frame_seat(frame), "before_roll"))


def _prepare_handle(s: State, frame: Frame, action: Action) -> None:
    if isinstance(action, UseCard):
        use_card(s, frame, action)


def _owner(s: State, frame: Frame) -> int:
    seat: int = frame[2]
    return seat


FRAMES: Frames = Frames(
    steps={
        "evolve": _evolve,
        "evoapply": _apply_plays,
        "evoplay": _play_step,
        "evodealt": _dealt,
    },
    decisions={
        "evodeck": DecisionKind(_deck_legal, _deck_handle, always_ask=True),
        "prepare": DecisionKind(_prepare_legal, _prepare_handle),
        "evolve": DecisionKind(_keep_legal, _keep),
        "evolution": DecisionKind(_play_legal, _play_handle, always_ask=True),
        "gift": DecisionKind(_gift_legal, _gift_handle),
    },
    randoms={
        "evopick": RandomKind(_pick_bounds, _pick, purpose=DRAW),
        "evocards": RandomKind(_cards_bounds, _cards, private=_owner, purpose=DRAW),
    },
)
