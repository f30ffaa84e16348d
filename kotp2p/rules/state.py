"""The game state: a struct of small per-seat lists plus a continuation stack.

Theory of operation
-------------------
A state is never mutated once it has been returned to a caller. ``apply`` makes one shallow copy
with :meth:`State.copy`. That copies each per-seat list and the stack, which is cheap. Then it
works in place on that private copy until the next decision or random request.

What is left of the current turn is an explicit stack of *frames*. Frames are flat tuples
``(op, arg, ...)`` of strings and integers. The top is at the end of the list. The engine pops a
frame and runs the step registered for ``op``. A step may push more frames. A frame that needs an
input stays on top of the stack and blocks: ``ask`` for a decision, ``rand`` for a random outcome.
That is what ``pending`` describes. So the stack alone says where the game is. A state rebuilt
from its fields, from the wire or from text, recomputes ``pending`` by running the stack.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from kotp2p.rules.actions import Action
from kotp2p.rules.basics import (
    BAY,
    CITY,
    HALLOWEEN_FLAG,
    HIDDEN,
    NOBODY,
    OUTSIDE,
    PHASE_INDEX,
    PHASE_NAMES,
    Frame,
)
from kotp2p.rules.cardindex import COPIERS, SLUGS, base_deck, costume_ids
from kotp2p.rules.dice import format_dice
from kotp2p.rules.events import Event


class Decision(NamedTuple):
    """A decision that one seat must make. ``kind`` names it: "roll", "yield", "buy", and so on."""

    seat: int
    kind: str


# What a random event is for, in ``RandomRequest.purpose``.
ROLL = "roll"  # The first roll of a turn.
REROLL = "reroll"  # A re-roll of some dice.
ROLLOFF = "rolloff"  # The roll-off for the first player.
DRAW = "draw"  # A card drawn from the deck, for a market refill or a peek.
CARD_ROLL = "card roll"  # A card's own roll, as for Camouflage or Psychic Probe.


class RandomRequest(NamedTuple):
    """A random event: answer with ``RandomResult`` holding one ``0 <= v < b`` per bound.

    ``index`` is ``k``, the 1-based number of this random event in the game. ``private_to`` is
    the seat that alone learns the outcome, as for a peek at the deck. It is -1 for a public event.
    The other replicas answer a private event with ``HIDDEN`` values. ``purpose`` says what the
    event is for: ``ROLL``, ``REROLL``, ``ROLLOFF``, ``DRAW`` or ``CARD_ROLL``.
    """

    bounds: tuple[int, ...]
    index: int  # type: ignore[assignment]  # the field shadows tuple.index, which it replaces
    private_to: int = -1
    purpose: str = ROLL

    def __repr__(self) -> str:
        private = f", private_to={self.private_to}" if self.private_to >= 0 else ""
        return (
            f"RandomRequest(bounds={self.bounds!r}, index={self.index!r}{private}, "
            f"purpose={self.purpose!r})"
        )


Pending = Decision | RandomRequest | None

_DECISIONS_MADE: dict[tuple[int, str], Decision] = {}


def decision_for(seat: int, kind: str) -> Decision:
    """The ``Decision(seat, kind)``, made once and shared. The run loop asks for it often."""
    d = _DECISIONS_MADE.get((seat, kind))
    if d is None:
        d = _DECISIONS_MADE[seat, kind] = Decision(seat, kind)
    return d


class State:
    """One position of a game. Treat it as immutable: the engine returns new states."""

    __slots__ = (
        "active",
        "alive",
        "bay",
        "cards",
        "city",
        "deck",
        "dice",
        "discard",
        "elim",
        "energy",
        "extra",
        "flags",
        "hp",
        "k",
        "legal",
        "market",
        "monsters",
        "n",
        "over",
        "pending",
        "poison",
        "rolls_left",
        "rotation",
        "shrink",
        "sink",
        "slots",
        "stack",
        "stars",
        "tokens",
        "turn",
        "two_player",
        "winners",
    )

    n: int
    monsters: tuple[str, ...]
    two_player: bool
    hp: list[int]
    stars: list[int]
    energy: list[int]
    alive: tuple[bool, ...]  # tuples: written rarely, shared between states
    elim: tuple[int, ...]
    cards: tuple[tuple[int, ...], ...]  # one hand per seat; replaced, never changed in place
    poison: list[int]
    shrink: list[int]
    city: int
    bay: int
    active: int
    rotation: int
    extra: tuple[int, ...]
    turn: int
    dice: tuple[int, ...]
    rolls_left: int
    market: tuple[int, ...]
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    k: int
    tokens: dict[int, int]
    slots: dict[int, int]
    flags: dict[str, int]
    stack: list[Frame]
    pending: Pending
    legal: tuple[Action, ...]  # the legal actions of a pending decision, computed once
    over: bool
    winners: tuple[int, ...]
    # Where ``apply`` records events while it builds this state. It is None when nobody asked.
    # It is always None in a state returned to a caller.
    sink: list[Event] | None

    def copy(self) -> State:
        """A private copy whose lists may be changed without touching ``self``."""
        s = self.share()
        s.own()
        return s

    def share(self) -> State:
        """A copy with its own ``stack`` that shares every per-seat list and dict with ``self``.

        It may take new scalar or tuple values. It must call :meth:`own` before changing a list or
        dict in place."""
        s = State()  # no __init__: the cheapest way to a bare instance
        s.n = self.n
        s.monsters = self.monsters
        s.two_player = self.two_player
        s.hp = self.hp
        s.stars = self.stars
        s.energy = self.energy
        s.alive = self.alive
        s.elim = self.elim
        s.cards = self.cards
        s.poison = self.poison
        s.shrink = self.shrink
        s.city = self.city
        s.bay = self.bay
        s.active = self.active
        s.rotation = self.rotation
        s.extra = self.extra
        s.turn = self.turn
        s.dice = self.dice
        s.rolls_left = self.rolls_left
        s.market = self.market
        s.deck = self.deck
        s.discard = self.discard
        s.k = self.k
        s.tokens = self.tokens
        s.slots = self.slots
        s.flags = self.flags
        s.stack = self.stack[:]
        s.pending = self.pending
        s.legal = self.legal
        s.over = self.over
        s.winners = self.winners
        s.sink = None
        return s

    def own(self) -> None:
        """Give a copy made by :meth:`share` lists and dicts of its own."""
        self.hp = self.hp[:]
        self.stars = self.stars[:]
        self.energy = self.energy[:]
        self.poison = self.poison[:]
        self.shrink = self.shrink[:]
        self.tokens = self.tokens.copy() if self.tokens else {}
        self.slots = self.slots.copy() if self.slots else {}
        self.flags = self.flags.copy() if self.flags else {}

    # --- read-only views -------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the game has ended. ``pending`` is then ``None``."""
        return self.over

    def location(self, seat: int) -> int:
        """``CITY``, ``BAY`` or ``OUTSIDE`` for this seat."""
        if seat == self.city:
            return CITY
        if seat == self.bay:
            return BAY
        return OUTSIDE

    def in_tokyo(self, seat: int) -> bool:
        """True if the seat's monster is in Tokyo City or Tokyo Bay."""
        return seat == self.city or seat == self.bay

    def alive_count(self) -> int:
        """How many monsters are still alive."""
        return sum(self.alive)

    def bay_in_use(self) -> bool:
        """Tokyo Bay is used while five or more monsters are alive."""
        return sum(self.alive) >= 5

    def digest(self) -> bytes:
        """SHA-256 of the canonical encoding. It is identical on every replica of the same position."""
        wire = state_to_wire(self, public=True)
        return hashlib.sha256(b"kotp2p-state-v1\0" + repr(wire).encode()).digest()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.digest() == other.digest()

    def __hash__(self) -> int:
        return hash(self.digest())

    def __repr__(self) -> str:
        return f"from_text({to_text(self)!r})"


# ---------------------------------------------------------------------------------------------
# The canonical encodings: the array ``digest`` hashes, and the text ``repr`` shows.

WIRE_VERSION = 1
WIRE_FIELDS = 30


def state_to_wire(s: State, *, public: bool = False) -> list[object]:
    """The state as a fixed-order array of plain msgpack-able values.

    With ``public``, hidden slots show ``HIDDEN``, whatever this replica knows of them. That view
    is the same on every replica. It is what ``State.digest`` hashes.
    """
    return [
        WIRE_VERSION,
        s.n,
        list(s.monsters),
        s.two_player,
        s.hp[:],
        s.stars[:],
        s.energy[:],
        list(s.alive),
        list(s.elim),
        [list(c) for c in s.cards],
        s.poison[:],
        s.shrink[:],
        s.city,
        s.bay,
        s.active,
        s.rotation,
        list(s.extra),
        s.turn,
        list(s.dice),
        s.rolls_left,
        list(s.market),
        list(s.deck),
        list(s.discard),
        s.k,
        sorted([k, v] for k, v in s.tokens.items()),
        sorted([k, v] for k, v in s.flags.items()),
        [list(f) for f in s.stack],
        s.over,
        list(s.winners),
        sorted([k, HIDDEN if public else v] for k, v in s.slots.items()),
    ]


def phase_stack(name: str, active: int) -> list[Frame] | None:
    """The standard stack for a named phase of ``active``'s turn, or None if unknown."""
    if name == "start":
        return [("turn", PHASE_INDEX["start"])]
    if name == "roll":
        return [("turn", PHASE_INDEX["final_roll"]), ("ask", active, "roll")]
    if name == "resolve":
        return [("turn", PHASE_INDEX["resolve"])]
    if name == "buy":
        return [("turn", PHASE_INDEX["after_buy"]), ("ask", active, "buy")]
    if name == "end":
        return [("turn", PHASE_INDEX["end_turn"])]
    if name == "over":
        return []
    if name.startswith("yield:"):
        try:
            seats = [int(t) for t in name[6:].split(",")]
        except ValueError:
            return None
        asks: list[Frame] = [("ask", seat, "yield") for seat in reversed(seats)]
        return [("turn", PHASE_INDEX["buy"]), ("after_yields",), *asks]
    return None


_PHASES = ("start", "roll", "buy", "end")


def _yield_phase(s: State) -> str | None:
    """``yield:SEATS`` if the stack is the standard one for yield decisions, else None."""
    stack = s.stack
    if len(stack) < 3 or stack[0] != ("turn", PHASE_INDEX["buy"]) or stack[1] != ("after_yields",):
        return None
    seats = []
    for f in reversed(stack[2:]):
        if len(f) != 3 or f[0] != "ask" or f[2] != "yield":
            return None
        seats.append(f[1])
    return "yield:" + ",".join(map(str, seats))


def _copy_target(s: State, card: int) -> int:
    """The card that copier ``card`` copies, if the notation can write it at the seat. Else 0."""
    key = COPIERS.get(card)
    target = s.flags.get(key, 0) if key is not None else 0
    return target if target in SLUGS else 0


def _written_copies(s: State) -> set[str]:
    """The flags written as ``+copier>target`` at a seat instead of in ``flags=``."""
    return {COPIERS[c] for hand in s.cards for c in hand if _copy_target(s, c)}


def _fmt_hand_card(s: State, card: int) -> str:
    target = _copy_target(s, card)
    return f"{SLUGS[card]}>{SLUGS[target]}" if target else SLUGS[card]


def _fmt_cards(cards: tuple[int, ...]) -> str:
    return ",".join(SLUGS[c] if c else "-" for c in cards)


def _fmt_frame(f: Frame) -> str:
    op, *args = f
    if op == "turn" and len(args) == 1 and type(args[0]) is int and 0 <= args[0] < len(PHASE_NAMES):
        return f"turn:{PHASE_NAMES[args[0]]}"  # the phase the turn resumes at, by name
    return f"{op}:{','.join(str(a) for a in args)}" if args else str(op)


def to_text(s: State) -> str:
    """The state in the compact notation. ``from_text(to_text(s))`` rebuilds it."""
    seats = []
    for i in range(s.n):
        parts = [s.monsters[i], f"{s.hp[i]}/{s.stars[i]}/{s.energy[i]}"]
        if s.city == i:
            parts.append("@city")
        elif s.bay == i:
            parts.append("@bay")
        parts.extend("+" + _fmt_hand_card(s, c) for c in s.cards[i])
        if s.poison[i]:
            parts.append(f"poison={s.poison[i]}")
        if s.shrink[i]:
            parts.append(f"shrink={s.shrink[i]}")
        if not s.alive[i]:
            parts.append(f"dead={s.elim[i]}")
        seats.append(" ".join(parts))
    fields = [f"active={s.active}"]
    if s.rotation != s.active:
        fields.append(f"rotation={s.rotation}")
    fields.append(f"turn={s.turn}")
    if s.k:
        fields.append(f"k={s.k}")
    if s.dice:
        fields.append(f"dice={format_dice(s.dice)}")
    if s.rolls_left:
        fields.append(f"rolls={s.rolls_left}")
    fields.append(f"market={_fmt_cards(s.market)}")
    usual_deck = default_deck(s.market, s.cards, s.discard, costumes_in_deck(s.flags, s.stack))
    if s.deck != usual_deck:
        fields.append(f"deck={_fmt_cards(s.deck) or '-'}")
    if s.discard:
        fields.append(f"discard={_fmt_cards(s.discard)}")
    if s.two_player != (s.n == 2):
        fields.append(f"2p={int(s.two_player)}")
    if s.extra:
        fields.append("extra=" + ",".join(map(str, s.extra)))
    if s.tokens:
        fields.append("tokens=" + ",".join(f"{SLUGS[c]}:{v}" for c, v in sorted(s.tokens.items())))
    flags = {k: v for k, v in s.flags.items() if k not in _written_copies(s)}
    if flags:
        fields.append("flags=" + ",".join(f"{k}:{v}" for k, v in sorted(flags.items())))
    if s.slots:
        fields.append(
            "slots=" + ",".join(f"{k}:{'?' if v == HIDDEN else v}" for k, v in sorted(s.slots.items()))
        )
    if s.over:
        fields.append("over=1")
        if s.winners:
            fields.append("winners=" + ",".join(map(str, s.winners)))
    else:
        for name in _PHASES:
            if s.stack == phase_stack(name, s.active):
                fields.append(f"phase={name}")
                break
        else:
            yielding = _yield_phase(s)
            if yielding is not None:
                fields.append(f"phase={yielding}")
            else:
                fields.append("stack=" + ";".join(_fmt_frame(f) for f in s.stack))
    return "; ".join(seats) + " | " + " ".join(fields)


def default_deck(
    market: tuple[int, ...],
    cards: tuple[tuple[int, ...], ...],
    discard: tuple[int, ...],
    costumes: bool = False,
) -> tuple[int, ...]:
    """The deck a state has when its text gives none: every base card not elsewhere.

    With ``costumes``, every Halloween costume not elsewhere too."""
    used = set(market) | set(discard)
    for cs in cards:
        used.update(cs)
    pool = base_deck() + (costume_ids() if costumes else ())
    return tuple(c for c in pool if c not in used)


def costumes_in_deck(flags: dict[str, int], stack: list[Frame]) -> bool:
    """True for a Halloween game whose costumes have gone into the deck, once every seat picked."""
    return HALLOWEEN_FLAG in flags and ("costumes_in",) not in stack


__all__ = [
    "BAY",
    "CARD_ROLL",
    "CITY",
    "DRAW",
    "HIDDEN",
    "NOBODY",
    "OUTSIDE",
    "REROLL",
    "ROLL",
    "ROLLOFF",
    "WIRE_FIELDS",
    "WIRE_VERSION",
    "Decision",
    "Frame",
    "Pending",
    "RandomRequest",
    "State",
    "costumes_in_deck",
    "decision_for",
    "default_deck",
    "phase_stack",
    "state_to_wire",
    "to_text",
]
