"""The LAN beacon, sans-IO: what a host announces in a UDP datagram, and the list a joiner keeps.

Theory of operation
-------------------
A datagram holds at most :data:`MAX_BEACON` bytes. Its layout::

    b"kotp2p-beacon\\x00" || msgpack [beacon version, host key, signature, body]
    body      = msgpack [protocol version, game name, host name, tcp port, free seats, seats,
                         join code needed]
    signature = Ed25519(host key, SIGN_DOMAIN || body)

The host key is the host's long-term identity, the key its lobby handshake proves. Anyone on
the LAN can send datagrams. So decoding checks the size first, then the version, then the
signature, and only then reads the body's fields. A datagram of another beacon version is
ignored and counted.

The host's address is the datagram's source, never a field. A signed beacon can still be
replayed from another address. So a joiner that picks a game dials it asking for that game's
key: the handshake then fails at any address that does not hold the key.

Three things in a list of games deserve a warning, and :func:`listing` marks them. Two host
keys may announce the same game name: one of them is a look-alike. One host key may be heard from
two addresses: one of them replays it. Two host keys may be heard from one address and port: one
of them forges its source address. Players compare the fingerprint of the host key with the one
on the host's screen. Nothing picks a marked game on its own. Names are compared up to case,
width and spaces. Letters that only look alike differ, so the host key is what players compare.

:class:`BeaconBook` keeps a bounded number of games and forgets those not heard for a while. A
flood must not hide a real game. So one source address lists at most a few games. When the book
is full, a newcomer takes the place of a game from the address that lists the most. It takes a
game that still refreshes only when that address lists at least two more games than the
newcomer's. A game heard before the flood, from an address with one game, keeps its place. A
datagram that would find no room is turned away before its signature is checked, which is the
costly step. A flood from more source addresses than the book holds, begun before the joiner
listens, can still keep a later game out. Joining by address always works.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from kotp2p.net.lobby.handshake import PROTOCOL_VERSION
from kotp2p.net.lobby.lobby_view import MAX_GAME_NAME
from kotp2p.net.trust import MAX_SEATS
from kotp2p.net.wire import (
    MAX_NAME,
    CodecError,
    Identity,
    RemoteProtocolError,
    codec,
    fingerprint,
    is_text,
    verify_signature,
)

MAGIC = b"kotp2p-beacon\x00"
BEACON_VERSION = 2
SIGN_DOMAIN = b"kotp2p beacon v2\x00"
MAX_BEACON = 512
DEFAULT_BEACON_PORT = 7447
BROADCAST = "255.255.255.255"
KEY_SIZE = 32
SIG_SIZE = 64
MARK = "!!"
"""The marker in front of a game whose name or host key is announced twice."""


class BeaconError(RemoteProtocolError):
    """A datagram that is not a well-formed, signed kotp2p beacon.

    ``kind`` sorts the rejections for one summary line: malformed, of another beacon version, or
    with a bad signature."""

    def __init__(self, reason: str, kind: str = "malformed") -> None:
        super().__init__(reason)
        self.kind = kind


@dataclass(frozen=True)
class Announcement:
    """One game as its host announces it.

    ``address`` is where the datagram came from. ``host_key`` is the key that signed it. Both are
    set when a datagram is decoded."""

    game_name: str
    host_name: str
    port: int
    free_seats: int
    seats: int
    protocol_version: int = PROTOCOL_VERSION
    needs_code: bool = False
    address: str = ""
    host_key: bytes = b""

    @property
    def compatible(self) -> bool:
        """The host speaks our protocol version."""
        return self.protocol_version == PROTOCOL_VERSION

    @property
    def fingerprint(self) -> str:
        """The short fingerprint of the host key, or '' before it is known."""
        return fingerprint(self.host_key) if self.host_key else ""

    def describe(self) -> str:
        """One line for a list of games."""
        code = ", join code needed" if self.needs_code else ""
        version = "" if self.compatible else f", protocol {self.protocol_version} (not ours)"
        key = f"; host key {self.fingerprint}" if self.host_key else ""
        return (f"{self.game_name} hosted by {self.host_name} at {self.address}:{self.port}: "
                f"{self.free_seats} of {self.seats} seats free{code}{version}{key}")

    def encode(self, identity: Identity) -> bytes:
        """The datagram announcing this game, signed by ``identity``, the host.

        :raises ValueError: a field out of range. That is a local bug.
        """
        body = codec.pack([self.protocol_version, self.game_name, self.host_name, self.port,
                           self.free_seats, self.seats, self.needs_code])
        signature = identity.sign(SIGN_DOMAIN + body)
        data = MAGIC + codec.pack([BEACON_VERSION, identity.public_key, signature, body])
        if len(data) > MAX_BEACON:
            raise ValueError(f"a beacon of {len(data)} bytes, at most {MAX_BEACON} allowed")
        return data


def decode_beacon(data: bytes, address: str) -> Announcement:
    """Decode a datagram received from ``address``.

    The size is checked first, then the version and the signature, then the fields.

    :raises BeaconError: too long, not a beacon, another version, a signature that does not
        check, or a field out of range.
    """
    if len(data) > MAX_BEACON:
        raise BeaconError(f"a datagram of {len(data)} bytes, a beacon has at most {MAX_BEACON}")
    if not data.startswith(MAGIC):
        raise BeaconError("not a kotp2p beacon (wrong magic)")
    outer = _unpack(data[len(MAGIC):])
    if isinstance(outer, list) and outer and outer[0] != BEACON_VERSION:
        v = outer[0]
        shown = f"version {v}" if isinstance(v, int) and not isinstance(v, bool) else "no version"
        raise BeaconError(f"a beacon of {shown}, expected version {BEACON_VERSION}",
                          "of another beacon version")
    if not isinstance(outer, list) or len(outer) != 4:
        raise BeaconError(f"expected a beacon of version {BEACON_VERSION}: "
                          "[version, host key, signature, body]")
    _, key, sig, body = outer
    if not isinstance(key, bytes) or len(key) != KEY_SIZE:
        raise BeaconError(f"beacon: the host key is {KEY_SIZE} bytes")
    if not isinstance(sig, bytes) or len(sig) != SIG_SIZE or not isinstance(body, bytes):
        raise BeaconError(f"beacon: the signature is {SIG_SIZE} bytes and the body is bytes")
    if not verify_signature(key, sig, SIGN_DOMAIN + body):
        raise BeaconError("beacon: the signature does not check with the host key it carries",
                          "with a bad signature")
    value = _unpack(body)
    if not isinstance(value, list) or len(value) != 7:
        raise BeaconError("expected a beacon body of 7 fields")
    proto, game, host, port, free, seats, code = value
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
    return Announcement(game, host, port, free, seats, proto, code, address, key)


def _unpack(data: bytes) -> object:
    try:
        return codec.unpack(data, max_size=MAX_BEACON)
    except CodecError as exc:
        raise BeaconError(f"a malformed beacon: {exc.reason}") from None


def _claimed_port(data: bytes) -> int | None:
    """The port a datagram claims, read without checking anything; None if it has none."""
    try:
        outer = codec.unpack(data[len(MAGIC):], max_size=MAX_BEACON)
        if isinstance(outer, list) and len(outer) == 4 and isinstance(outer[3], bytes):
            body = codec.unpack(outer[3], max_size=MAX_BEACON)
            if isinstance(body, list) and len(body) == 7 and isinstance(body[3], int):
                return body[3]
    except CodecError:
        pass
    return None


def same_name(a: str, b: str) -> bool:
    """Whether two game names would look alike in a list: equal up to case, width and spaces."""
    return _folded(a) == _folded(b)


def _folded(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


@dataclass(frozen=True)
class Listed:
    """A game in the list a joiner sees, and what makes it doubtful.

    ``name_clash`` means another host key announces a game of the same name. ``also_from`` are
    the other addresses the same host key is heard from. ``contested`` means two host keys were
    heard from this game's address and port."""

    game: Announcement
    name_clash: bool = False
    also_from: tuple[str, ...] = ()
    contested: bool = False

    @property
    def ambiguous(self) -> bool:
        """A look-alike may stand for this game, or this one for another: never pick it alone."""
        return self.name_clash or bool(self.also_from) or self.contested

    def describe(self) -> str:
        """One line for a list of games, marked when it is ambiguous."""
        line = self.game.describe()
        if not self.ambiguous:
            return line
        why = []
        if self.name_clash:
            why.append("another host key announces this name")
        if self.also_from:
            why.append("this host key is also announced from " + ", ".join(self.also_from))
        if self.contested:
            why.append("another host key was heard from this address and port")
        return (f"{MARK} {line} {MARK} {'; '.join(why)}: compare the host key with the one on "
                "the host's screen")


def listing(games: Sequence[Announcement],
            contested: Collection[tuple[str, int]] = ()) -> list[Listed]:
    """``games`` in the same order, each marked when its name or its host key is heard twice.

    ``contested`` are the addresses and ports heard with two host keys, as
    :meth:`BeaconBook.contested` gives them."""
    out = []
    for g in games:
        clash = any(o.host_key != g.host_key and same_name(o.game_name, g.game_name)
                    for o in games)
        elsewhere = sorted({o.address for o in games
                            if o.host_key == g.host_key and o.address != g.address})
        out.append(Listed(g, clash, tuple(elsewhere), (g.address, g.port) in contested))
    return out


@dataclass
class _Entry:
    heard: float
    game: Announcement
    data: bytes


class BeaconBook:
    """The games a joiner heard of, bounded against floods.

    It keeps at most ``size`` of them, and at most ``per_address`` from one source address. Each
    is forgotten ``ttl`` seconds after its last beacon. A game heard within ``fresh`` seconds
    still refreshes. The module comment says which game a newcomer may replace. ``rejected``
    counts the datagrams ignored, and ``reasons`` sorts them. Time is passed in."""

    def __init__(self, size: int = 32, ttl: float = 10.0, per_address: int = 4,
                 fresh: float = 3.0) -> None:
        self.size = size
        self.ttl = ttl
        self.per_address = per_address
        self.fresh = fresh
        self.rejected = 0
        self.reasons: Counter[str] = Counter()
        self._games: dict[tuple[str, int], _Entry] = {}
        self._contested: dict[tuple[str, int], float] = {}

    def hear(self, data: bytes, address: str, now: float) -> Announcement | None:
        """Record a datagram from ``address``.

        If it is not a signed beacon, or there is no room for it, it is counted and the answer
        is None.
        """
        self._expire(now)
        for entry in self._games.values():  # a game's own beacon again: no need to check it
            if entry.data == data and entry.game.address == address:
                entry.heard = now
                return entry.game
        claimed = _claimed_port(data)  # unchecked: it may only turn its own datagram away
        if claimed is not None and (address, claimed) not in self._games:
            no_room = self._no_room(address, now)
            if no_room:
                self._reject(no_room)  # before the costly signature check
                return None
        try:
            ann = decode_beacon(data, address)
        except BeaconError as exc:
            self._reject(exc.kind)
            return None
        key = (address, ann.port)
        if key in self._games and self._games[key].game.host_key != ann.host_key:
            self._contested[key] = now  # a spoofed source address, or a host with a new key
        if key not in self._games:
            no_room = self._no_room(address, now)
            if no_room:
                self._reject(no_room)
                return None
            if len(self._games) >= self.size:
                self._drop_for(address, now)
        self._games[key] = _Entry(now, ann, data)
        return ann

    def games(self, now: float) -> list[Announcement]:
        """The games heard within ``ttl``, in a stable order: by address, then port."""
        self._expire(now)
        return [self._games[k].game for k in sorted(self._games)]

    def contested(self, now: float) -> frozenset[tuple[str, int]]:
        """The addresses and ports of listed games heard with two host keys within ``ttl``."""
        self._expire(now)
        return frozenset(k for k, t in self._contested.items() if now - t <= self.ttl)

    def summary(self) -> str:
        """The datagrams ignored, in one line; '' when none were."""
        if not self.rejected:
            return ""
        parts = ", ".join(f"{n} {why}" for why, n in self.reasons.most_common())
        return f"ignored {self.rejected} datagrams that were not beacons a game could list ({parts})"

    def _reject(self, why: str) -> None:
        self.rejected += 1
        self.reasons[why] += 1

    def _count(self, address: str) -> int:
        return sum(1 for a, _ in self._games if a == address)

    def _no_room(self, newcomer: str, now: float) -> str:
        """Why a new game from ``newcomer`` cannot be listed now; '' if it can."""
        if self._count(newcomer) >= self.per_address:
            return f"over {self.per_address} games from one address"
        if len(self._games) >= self.size and self._victim(newcomer, now) is None:
            return "the list was full"
        return ""

    def _drop_for(self, newcomer: str, now: float) -> None:
        """Drop the game a newcomer from ``newcomer`` takes the place of."""
        victim = self._victim(newcomer, now)
        if victim is not None:
            del self._games[victim]

    def _victim(self, newcomer: str, now: float) -> tuple[str, int] | None:
        """The game a newcomer from ``newcomer`` may replace, if any.

        It is the oldest game of the address that lists the most, and that may lose one: its
        oldest game went quiet, or it lists at least two more games than ``newcomer``."""
        groups: dict[str, list[tuple[float, tuple[str, int]]]] = {}
        for k, e in self._games.items():
            groups.setdefault(k[0], []).append((e.heard, k))
        mine = len(groups.get(newcomer, ()))
        for address in sorted(groups, key=lambda a: -len(groups[a])):
            heard, key = min(groups[address])
            if now - heard > self.fresh or len(groups[address]) >= mine + 2:
                return key
        return None

    def _expire(self, now: float) -> None:
        for k in [k for k, e in self._games.items() if now - e.heard > self.ttl]:
            del self._games[k]
        for k in [k for k, t in self._contested.items()
                  if now - t > self.ttl or k not in self._games]:
            del self._contested[k]
