"""The game state: a struct of small per-seat lists plus a continuation stack.

Theory of operation
-------------------
A state is never mutated once it has been returned to a caller. ``apply`` makes one shallow
copy (:meth:`State.copy`: each per-seat list and the stack are copied, which is cheap) and then
works in place on that private copy until the next decision or random request.

What is left of the current turn is an explicit stack of *frames*: flat tuples
``(op, arg, ...)`` of strings and integers, top at the end of the list. The engine pops a frame
and runs the step registered for ``op``; a step may push more frames. A frame that needs an
input (``ask`` for a decision, ``rand`` for a random outcome) stays on top of the stack and
blocks: that is what ``pending`` describes. So the stack alone says where the game is, and a
state rebuilt from its fields (wire or text) recomputes ``pending`` by running the stack.
"""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple

from kotp2p.rules.actions import Action

# A frame is a flat tuple (op, arg, ...) of strings and ints; typed loosely so that the hot
# paths read its fields without casts.
Frame = tuple[Any, ...]

OUTSIDE, CITY, BAY = 0, 1, 2
NOBODY = -1
HIDDEN = -1  # the content of a hidden slot, on every replica but its owner's


class Decision(NamedTuple):
    """A decision that one seat must make; ``kind`` names it ("roll", "yield", "buy", ...)."""

    seat: int
    kind: str


class RandomRequest(NamedTuple):
    """A random event: answer with ``RandomResult`` holding one ``0 <= v < b`` per bound.

    ``index`` is ``k``, the 1-based number of this random event in the game. ``private_to`` is
    the seat that alone learns the outcome (a peek at the deck), or -1 for a public event; the
    other replicas answer a private event with ``HIDDEN`` values.
    """

    bounds: tuple[int, ...]
    index: int  # type: ignore[assignment]  # the field shadows tuple.index, which it replaces
    private_to: int = -1

    def __repr__(self) -> str:
        private = f", private_to={self.private_to}" if self.private_to >= 0 else ""
        return f"RandomRequest(bounds={self.bounds!r}, index={self.index!r}{private})"


Pending = Decision | RandomRequest | None


class State:
    """One position of a game. Treat it as immutable; the engine returns new states."""

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

    def copy(self) -> State:
        """A private copy whose lists may be changed without touching ``self``."""
        s = self.share()
        s.own()
        return s

    def share(self) -> State:
        """A copy with its own ``stack`` that shares every per-seat list and dict with ``self``:
        it may take new scalar or tuple values, but must call :meth:`own` before changing a
        list or dict in place."""
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
        """True once the game has ended (``pending`` is then ``None``)."""
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
        """SHA-256 of the canonical encoding: identical on every replica of the same position."""
        from kotp2p.rules.wire import state_to_wire

        wire = state_to_wire(self, public=True)
        return hashlib.sha256(b"kotp2p-state-v1\0" + repr(wire).encode()).digest()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.digest() == other.digest()

    def __hash__(self) -> int:
        return hash(self.digest())

    def __repr__(self) -> str:
        from kotp2p.rules.notation import to_text

        return f"from_text({to_text(self)!r})"
