"""The LAN beacon, sans-IO: what a host announces in a UDP datagram, and the list a joiner keeps.

A datagram holds at most :data:`MAX_BEACON` bytes. Its layout::

    b"kotp2p-beacon\\x00" || msgpack [beacon version, protocol version, game name, host name,
                                      tcp port, free seats, seats, join code needed]

Anyone on the LAN can send datagrams. So decoding checks the size first, then every field.
:class:`BeaconBook` keeps a bounded number of games and forgets those not heard for a while. The
host's address is the datagram's source, never a field. So a beacon cannot point joiners anywhere
but where it came from.
"""

from __future__ import annotations

from dataclasses import dataclass

from kotp2p.net.lobby.handshake import PROTOCOL_VERSION
from kotp2p.net.lobby.lobby_view import MAX_GAME_NAME
from kotp2p.net.trust import MAX_SEATS
from kotp2p.net.wire import MAX_NAME, CodecError, RemoteProtocolError, codec, is_text

MAGIC = b"kotp2p-beacon\x00"
BEACON_VERSION = 1
MAX_BEACON = 512
DEFAULT_BEACON_PORT = 7447
BROADCAST = "255.255.255.255"


class BeaconError(RemoteProtocolError):
    """A datagram that is not a well-formed kotp2p beacon."""


@dataclass(frozen=True)
class Announcement:
    """One game as its host announces it; ``address`` is where the datagram came from."""

    game_name: str
    host_name: str
    port: int
    free_seats: int
    seats: int
    protocol_version: int = PROTOCOL_VERSION
    needs_code: bool = False
    address: str = ""

    @property
    def compatible(self) -> bool:
        """The host speaks our protocol version."""
        return self.protocol_version == PROTOCOL_VERSION

    def describe(self) -> str:
        """One line for a list of games."""
        code = ", join code needed" if self.needs_code else ""
        version = "" if self.compatible else f", protocol {self.protocol_version} (not ours)"
        return (f"{self.game_name} hosted by {self.host_name} at {self.address}:{self.port}: "
                f"{self.free_seats} of {self.seats} seats free{code}{version}")

    def encode(self) -> bytes:
        """The datagram announcing this game.

        :raises ValueError: a field out of range. That is a local bug.
        """
        data = MAGIC + codec.pack([BEACON_VERSION, self.protocol_version, self.game_name,
                                   self.host_name, self.port, self.free_seats, self.seats,
                                   self.needs_code])
        if len(data) > MAX_BEACON:
            raise ValueError(f"a beacon of {len(data)} bytes, at most {MAX_BEACON} allowed")
        return data


def decode_beacon(data: bytes, address: str) -> Announcement:
    """Decode a datagram received from ``address``.

    :raises BeaconError: too long, not a beacon, or a field out of range.
    """
    if len(data) > MAX_BEACON:
        raise BeaconError(f"a datagram of {len(data)} bytes, a beacon has at most {MAX_BEACON}")
    if not data.startswith(MAGIC):
        raise BeaconError("not a kotp2p beacon (wrong magic)")
    try:
        value = codec.unpack(data[len(MAGIC):], max_size=MAX_BEACON)
    except CodecError as exc:
        raise BeaconError(f"a malformed beacon: {exc.reason}") from None
    if not isinstance(value, list) or len(value) != 8 or value[0] != BEACON_VERSION:
        raise BeaconError(f"expected a beacon of version {BEACON_VERSION} with 8 fields")
    _, proto, game, host, port, free, seats, code = value
    if not isinstance(proto, int) or isinstance(proto, bool) or not 0 <= proto < 1 << 16:
        raise BeaconError("beacon: the protocol version is a small integer")
    if not is_text(game, MAX_GAME_NAME) or not is_text(host, MAX_NAME):
        raise BeaconError("beacon: names are short printable text")
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise BeaconError("beacon: the port is 1 to 65535")
    if not isinstance(seats, int) or isinstance(seats, bool) or not 2 <= seats <= MAX_SEATS:
        raise BeaconError(f"beacon: a game has 2 to {MAX_SEATS} seats")
    if not isinstance(free, int) or isinstance(free, bool) or not 0 <= free <= seats:
        raise BeaconError("beacon: free seats between 0 and the seat count")
    if not isinstance(code, bool):
        raise BeaconError("beacon: the join-code flag is true or false")
    return Announcement(game, host, port, free, seats, proto, code, address)


class BeaconBook:
    """The games a joiner heard of, newest news first.

    It keeps at most ``size`` of them. Each is forgotten ``ttl`` seconds after its last beacon.
    Time is passed in."""

    def __init__(self, size: int = 32, ttl: float = 10.0) -> None:
        self.size = size
        self.ttl = ttl
        self.rejected = 0
        self._games: dict[tuple[str, int], tuple[float, Announcement]] = {}

    def hear(self, data: bytes, address: str, now: float) -> Announcement | None:
        """Record a datagram from ``address``.

        If it is not a beacon, it is counted and the answer is None.
        """
        try:
            ann = decode_beacon(data, address)
        except BeaconError:
            self.rejected += 1
            return None
        key = (address, ann.port)
        self._expire(now)
        if key not in self._games and len(self._games) >= self.size:
            oldest = min(self._games, key=lambda k: self._games[k][0])
            del self._games[oldest]
        self._games[key] = (now, ann)
        return ann

    def games(self, now: float) -> list[Announcement]:
        """The games heard within ``ttl``, in a stable order: by address, then port."""
        self._expire(now)
        return [self._games[k][1] for k in sorted(self._games)]

    def _expire(self, now: float) -> None:
        for k in [k for k, (t, _) in self._games.items() if now - t > self.ttl]:
            del self._games[k]
