"""What a game session tells its views: small frozen values, in the order things happened.

A view drains them with :meth:`kotp2p.net.session.session.Session.updates` and shows them. A
view is the plain line interface, the terminal UI or a test. No update holds a socket or a
screen. Text coming from peers, such as names and chat, is carried as received. A view makes it
safe for its output with :func:`kotp2p.net.wire.safetext.safe_text`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MoveApplied:
    """A seat's move was applied at ``step``. An ejection has ``kind == "eject"``."""

    step: int
    kind: str
    seat: int | None
    description: str
    told: bool = True
    """False when the move's own events already say what it did.

    Those events are the :class:`Narrated` that follow. A view then leaves ``description`` out,
    so that nothing is said twice."""


@dataclass(frozen=True)
class Narrated:
    """One thing the engine reports happened at ``step``, in plain words, in order.

    It may be damage, Tokyo, cards or a turn, among others."""

    step: int
    text: str
    heading: bool = False
    """True for the line that opens a turn. ``text`` is then ``turn N: Monster``."""
    event: object = None
    """The engine's own value for what happened.

    For the real rules it is a :mod:`kotp2p.rules.events` value, such as who was damaged and by
    whom. It serves a view that must tell cases apart without reading ``text``. It is None from
    an engine that gives none."""


@dataclass(frozen=True)
class DiceRolled:
    """Random event ``k`` came out as ``values``. It is dice, or a card drawn."""

    k: int
    values: tuple[int, ...]
    description: str


@dataclass(frozen=True)
class ChatLine:
    """Seat ``seat`` said ``text``. It is signed, but not part of the game state."""

    seat: int
    text: str


@dataclass(frozen=True)
class ViolationSeen:
    """Seat ``seat`` broke the protocol. ``description`` says how; the proof is in the log."""

    seat: int
    description: str


@dataclass(frozen=True)
class FrameRefused:
    """A frame from ``sender`` was refused. ``reason`` says why. A None sender is unknown."""

    sender: int | None
    reason: str


@dataclass(frozen=True)
class Waiting:
    """The soft deadline passed. The game has waited for ``seats`` since ``since``."""

    seats: tuple[int, ...]
    since: float


@dataclass(frozen=True)
class EjectAsked:
    """The hard deadline passed. Should the local human seat vote to eject ``seats``?

    Answer with :meth:`kotp2p.net.session.session.Session.vote_eject`."""

    seats: tuple[int, ...]


@dataclass(frozen=True)
class Notice:
    """Something about this process that the player should know, in plain words.

    The transport says so when it cannot listen where the other seats expect it."""

    text: str


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
    """The game ended.

    ``winners`` is empty when everybody lost. ``forfeit`` is set when the last opponents were
    ejected rather than beaten. ``summary`` says it in plain words."""

    winners: tuple[int, ...]
    forfeit: bool
    summary: str


@dataclass(frozen=True)
class Resumed:
    """The game was resumed from its log.

    ``history`` is what had happened before, told as it was in live play. It holds
    :class:`MoveApplied`, :class:`Narrated`, :class:`DiceRolled` and :class:`ChatLine`, in
    order. A view shows it as the past. A player coming back after a crash reads how the game
    got here. Everything after it in :meth:`~kotp2p.net.session.session.Session.updates` is
    new."""

    history: tuple[MoveApplied | Narrated | DiceRolled | ChatLine, ...]
    catching_up: bool = False
    """The seat first asks its peers what it signed before, and hears what it missed.

    :class:`CaughtUp` says when that is done. What comes between happened while it was away."""


@dataclass(frozen=True)
class CaughtUp:
    """A resumed seat heard from its peers what it signed before the restart, and goes on.

    ``text`` says from where. From here on, the game goes on with this seat in it."""

    text: str


Update = (MoveApplied | Narrated | DiceRolled | ChatLine | ViolationSeen | FrameRefused | Waiting
          | EjectAsked | Notice | LinkChanged | YourTurn | GameOver | Resumed | CaughtUp)
