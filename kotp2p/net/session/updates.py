"""What a game session tells its views: small frozen values, in the order things happened.

A view (the plain line interface, the terminal UI, a test) drains them with
:meth:`kotp2p.net.session.session.Session.updates` and shows them; none of them holds a socket or a
screen. Text coming from peers (names, chat) is carried as received: a view makes it safe for
its output (:func:`kotp2p.net.wire.safetext.safe_text`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MoveApplied:
    """A seat's move (or an ejection, ``kind == "eject"``) was applied at ``step``."""

    step: int
    kind: str
    seat: int | None
    description: str
    told: bool = True
    """False when the move's own events (the :class:`Narrated` that follow) already say what it
    did: a view then leaves ``description`` out, so that nothing is said twice."""


@dataclass(frozen=True)
class Narrated:
    """One thing the engine reports happened at ``step`` (damage, Tokyo, cards, a turn...),
    in plain words, in order."""

    step: int
    text: str
    heading: bool = False
    """True for the line that opens a turn (``text`` is then ``turn N: Monster``)."""
    event: object = None
    """The engine's own value for what happened (for the real rules a
    :mod:`kotp2p.rules.events` value: who was damaged, by whom...), for a view that must tell
    cases apart without reading ``text``; None from an engine that gives none."""


@dataclass(frozen=True)
class DiceRolled:
    """Random event ``k`` (dice, or a card drawn) came out as ``values``."""

    k: int
    values: tuple[int, ...]
    description: str


@dataclass(frozen=True)
class ChatLine:
    """Seat ``seat`` said ``text`` (signed; not part of the game state)."""

    seat: int
    text: str


@dataclass(frozen=True)
class ViolationSeen:
    """Seat ``seat`` broke the protocol; ``description`` says how (the proof is in the log)."""

    seat: int
    description: str


@dataclass(frozen=True)
class FrameRefused:
    """A frame from ``sender`` (None: unknown) was refused; ``reason`` says why."""

    sender: int | None
    reason: str


@dataclass(frozen=True)
class Waiting:
    """The soft deadline passed: the game has waited for ``seats`` since ``since``."""

    seats: tuple[int, ...]
    since: float


@dataclass(frozen=True)
class EjectAsked:
    """The hard deadline passed: should the local human seat vote to eject ``seats``?
    (Answer with :meth:`kotp2p.net.session.session.Session.vote_eject`.)"""

    seats: tuple[int, ...]


@dataclass(frozen=True)
class LinkChanged:
    """The link to remote seat ``seat`` came up or went down."""

    seat: int
    up: bool


@dataclass(frozen=True)
class YourTurn:
    """The view's seat must decide now."""

    seat: int


@dataclass(frozen=True)
class GameOver:
    """The game ended: ``winners`` (empty when everybody lost); ``forfeit`` when the last
    opponents were ejected rather than beaten; ``summary`` in plain words."""

    winners: tuple[int, ...]
    forfeit: bool
    summary: str


@dataclass(frozen=True)
class Resumed:
    """The game was resumed from its log: ``history`` is what had happened before, told as it
    was in live play (:class:`MoveApplied`, :class:`Narrated`, :class:`DiceRolled`,
    :class:`ChatLine`, in order), for a view to show as the past (a player coming back after a
    crash reads how the game got here). Everything after it in
    :meth:`~kotp2p.net.session.session.Session.updates` is new."""

    history: tuple[MoveApplied | Narrated | DiceRolled | ChatLine, ...]


Update = (MoveApplied | Narrated | DiceRolled | ChatLine | ViolationSeen
          | FrameRefused | Waiting | EjectAsked | LinkChanged | YourTurn | GameOver | Resumed)
