"""Why something was refused, as a code carried next to the words.

Theory of operation
-------------------
The handshake, the lobby and the transport refuse with a short text for logs and plain output.
Examples are "refused by the peer: wrong join code" and "seat 1 is still free". Next to the text
goes a :class:`Why` code. A screen picks its sentence by the code, never by reading the words.

A :class:`Refusal` holds the code and the text. ``by_peer`` says the other side said it; then its
code and words are only its claim. ``details`` holds the facts its sentence may name. For a
refusal of our own side, these are facts this side knows, such as a seat number, a name or an
address. For a refusal a peer sent, they are only the peer's own words, as received and made
terminal-safe.

On the wire a refusal is sent as its text and its code's value, a short word. The receiver reads
a code with :func:`peer_code`. It takes only the codes that message may carry. Anything else
becomes :attr:`Why.OTHER`: an unknown code, a code of another kind, or not a word. So a peer that
chooses its code can only pick among the answers its message may give. Each is said as that
peer's answer. It can never make this side state one of its own facts. Such facts are a player
not ready, a seat free, or a player turned away at an address.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kotp2p.net.wire.safetext import is_text


class Why(StrEnum):
    """What a refusal is about. The value is what goes on the wire."""

    OTHER = "other"
    # the handshake
    WRONG_JOIN_CODE = "wrong-join-code"
    NEEDS_JOIN_CODE = "needs-join-code"
    HOST_LACKS_JOIN_CODE = "host-lacks-join-code"
    OTHER_VERSION = "other-version"
    OTHER_ENGINE = "other-engine"
    BAD_HANDSHAKE = "bad-handshake"
    # the handshake between the seats of a game, in the mesh
    OTHER_GAME = "other-game"
    NOT_A_PLAYER = "not-a-player"
    WRONG_SEAT = "wrong-seat"
    # the host's answers in the lobby
    GAME_FULL = "game-full"
    GAME_STARTED = "game-started"
    ALREADY_SEATED = "already-seated"
    LOBBY_CLOSED = "lobby-closed"
    MONSTER_TAKEN = "monster-taken"
    NO_SUCH_MONSTER = "no-such-monster"
    PICK_FIRST = "pick-first"
    STARTING = "starting"
    HOST_SAYS = "host-says"
    # this side's own findings, never taken from a peer
    UNREACHABLE = "unreachable"
    NOTHING_HEARD = "nothing-heard"
    TURNED_AWAY = "turned-away"
    WONT_SIGN = "wont-sign"
    HOST_BROKE_PROTOCOL = "host-broke-protocol"
    CONNECTION_ENDED = "connection-ended"
    SEAT_FREE = "seat-free"
    SEAT_NOT_READY = "seat-not-ready"
    NOT_SEATED = "not-seated"
    LOBBY_OVER = "lobby-over"
    LEFT = "left"
    LINK_REFUSED = "link-refused"
    SEAT_PLAYED_HERE = "seat-played-here"
    NOT_THAT_HOST = "not-that-host"
    SEAT_RUNNING_TWICE = "seat-running-twice"
    # the game
    NOT_YOUR_DECISION = "not-your-decision"
    ILLEGAL_MOVE = "illegal-move"
    EMPTY_CHAT = "empty-chat"
    NOBODY_OVERDUE = "nobody-overdue"
    BOT_SEAT = "bot-seat"
    CATCHING_UP = "catching-up"


HANDSHAKE_CODES = frozenset({Why.WRONG_JOIN_CODE, Why.NEEDS_JOIN_CODE, Why.HOST_LACKS_JOIN_CODE,
                             Why.OTHER_VERSION, Why.OTHER_ENGINE, Why.BAD_HANDSHAKE, Why.OTHER_GAME,
                             Why.NOT_A_PLAYER, Why.WRONG_SEAT})
"""The codes a handshake refusal may carry."""
LOBBY_ERROR_CODES = frozenset({Why.MONSTER_TAKEN, Why.NO_SUCH_MONSTER, Why.PICK_FIRST,
                               Why.STARTING, Why.HOST_SAYS})
"""The codes of the host's ``error`` answer in the lobby."""
LOBBY_BYE_CODES = frozenset({Why.GAME_FULL, Why.GAME_STARTED, Why.ALREADY_SEATED,
                             Why.LOBBY_CLOSED})
"""The codes of the host's ``bye``, after which the joiner is dropped."""
MAX_CODE = 32


def peer_code(value: object, allowed: frozenset[Why]) -> Why:
    """The code a peer sent, if it is one of ``allowed``; otherwise :attr:`Why.OTHER`.

    ``value`` is the code as decoded. :attr:`Why.OTHER` stands for an unknown code, one that
    message cannot carry, or anything that is not a short word."""
    if not isinstance(value, str) or not is_text(value, MAX_CODE):
        return Why.OTHER
    try:
        why = Why(value)
    except ValueError:
        return Why.OTHER
    return why if why in allowed else Why.OTHER


@dataclass(frozen=True)
class Refusal:
    """A refusal: its code and its text for logs and plain output.

    ``by_peer`` says whether the other side said it. ``details`` are the facts its sentence may
    name; the module comment explains them. ``cause`` is set for a player turned away, with
    :attr:`Why.TURNED_AWAY`, and for a refused connection to the game's mesh, with
    :attr:`Why.LINK_REFUSED`. It is the refusal that turned them away."""

    why: Why
    text: str
    by_peer: bool = False
    details: tuple[str, ...] = ()
    cause: Refusal | None = None

    def __str__(self) -> str:
        return self.text
