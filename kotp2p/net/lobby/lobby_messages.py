"""The lobby's messages and events, shared by the host's and the joiner's state machines.

Those machines are in ``lobby.py`` and ``lobby_guest.py``. The message layout is described
there."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kotp2p.net.lobby.lobby_view import LobbyView
from kotp2p.net.trust import Genesis
from kotp2p.net.wire import CodecError, Refusal, RemoteProtocolError, Value, Why, codec

MAX_LOBBY_FRAME = 8192
"""No lobby message is longer. A genesis of six seats is about 1.5 kB."""

Anchors = tuple[bytes, bytes]
"""A seat's dice-chain and peek-chain anchors."""

Address = tuple[str, int]


class LobbyError(Exception):
    """The local user asked for something the lobby cannot do now.

    The reason says why. The :attr:`refusal` carries its code and the facts its sentence names."""

    def __init__(self, reason: str, why: Why = Why.OTHER, details: tuple[str, ...] = ()) -> None:
        super().__init__(reason)
        self.refusal = Refusal(why, reason, details=details)


@dataclass(frozen=True)
class Reply:
    """Host: send ``frame`` on connection ``conn``."""

    conn: int
    frame: bytes


@dataclass(frozen=True)
class Drop:
    """Host: close connection ``conn`` for ``reason``, after what was queued on it."""

    conn: int
    reason: str


@dataclass(frozen=True)
class Banned:
    """Host: the host turned away ``key``, which came from ``address``.

    The transport refuses that key for the life of the lobby, and the address for a while."""

    key: bytes
    address: str


@dataclass(frozen=True)
class Outgoing:
    """Joiner: send ``frame`` to the host."""

    frame: bytes


@dataclass(frozen=True)
class Changed:
    """The lobby changed: redraw ``view``."""

    view: LobbyView


@dataclass(frozen=True)
class Notice:
    """A line for the user, already safe to print.

    ``refusal`` is set when the host refused what the user asked, with its ``error`` answer."""

    text: str
    refusal: Refusal | None = None


@dataclass(frozen=True)
class Started:
    """The genesis is signed by every seat: play.

    ``addresses[i]`` is where seat ``i`` listens. It is None for the seats of this process."""

    genesis: Genesis
    addresses: tuple[Address | None, ...]


@dataclass(frozen=True)
class Failed:
    """Joiner: the lobby is over for us.

    ``reason`` is safe to print. ``refusal`` says why, with its code."""

    reason: str
    refusal: Refusal


HostEvent = Reply | Drop | Banned | Changed | Notice | Started
GuestEvent = Outgoing | Changed | Notice | Started | Failed


def message(*parts: Value) -> bytes:
    """One framed lobby message."""
    return codec.frame(codec.pack(list(parts)))


def decode(payload: bytes) -> list[Value]:
    """A lobby message's fields.

    :raises RemoteProtocolError: not a msgpack array starting with a text tag.
    """
    try:
        value = codec.unpack(payload, max_size=MAX_LOBBY_FRAME)
    except CodecError as exc:
        raise RemoteProtocolError(f"garbage instead of a lobby message ({exc.reason})") from None
    if not isinstance(value, list) or not value or not isinstance(value[0], str):
        raise RemoteProtocolError("expected a lobby message [tag, ...]")
    return value


def pick_for_bot(monsters: Sequence[str], taken: dict[str, int]) -> str | None:
    """The monster a bot takes: the first of the list nobody took."""
    for m in monsters:
        if m not in taken:
            return m
    return None


def is_anchor(v: object) -> bool:
    """A 32-byte chain anchor."""
    return isinstance(v, bytes) and len(v) == 32
