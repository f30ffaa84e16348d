"""The lobby before a game, sans-IO: the host's state machine and the joining side's.

Theory of operation
-------------------
Every lobby connection is opened by the handshake (:mod:`kotp2p.net.handshake`), which proves the
joiner's key and its knowledge of the join code. Lobby messages are *bound to that handshake*:
the transport tells :meth:`LobbyHost.connected` which key sits at the end of connection ``conn``
and every later message on ``conn`` speaks for that key only, so a stranger cannot speak for a
seat. What must outlive the connection (the genesis) is signed.

Messages are msgpack arrays. Joiner to host::

    ["join", name, bot level or nil]        take the first free seat
    ["pick", monster]                       first come; a monster taken is refused
    ["ready", anchor, peek anchor, port]    my chain anchors for my seat, where I listen
    ["unready"]   ["leave"]
    ["sign", game_id, signature]            my signature of that genesis body

Host to joiner::

    ["welcome", seat]   ["error", reason]   ["bye", reason]
    ["lobby", ...]                          the whole lobby (see :mod:`kotp2p.net.lobby_view`)
    ["genesis", body]                       please check and sign
    ["start", genesis frame payload, [[address, port], ...]]   every seat signed: play

The host plays seat 0 (a human, or a bot with ``host_bot``), its ``bots`` the next seats. The
host starts the game with :meth:`LobbyHost.start` once every seat is filled, has a monster and is
ready; when its own seat is a bot it starts by itself as soon as that holds. Starting builds the
genesis (:func:`~kotp2p.net.genesis.make_genesis`), signs the host's seats, and sends the body to
every joiner, who checks its own seat (key, name, monster, anchors), every seat against the
lobby, the engine id and the options before signing. When every signature checks the host sends
the signed genesis frame and the addresses: seat ``i`` listens at ``[address, port]`` (an empty
address means "where you reached the host"). A joiner leaving before that aborts the start.

Bot seats take the first free monster of the list at once, and are ready at once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from kotp2p.net import codec
from kotp2p.net.chain import CHAIN_LENGTH
from kotp2p.net.codec import Value
from kotp2p.net.errors import CodecError, RemoteProtocolError
from kotp2p.net.genesis import GENESIS_DOMAIN, Genesis, SeatInfo, make_genesis, parse_genesis_body
from kotp2p.net.genesis import parse_genesis_frame as parse_genesis_payload
from kotp2p.net.handshake import clean_text
from kotp2p.net.identity import Identity, check_name, verify_signature
from kotp2p.net.lobby_view import (
    DEFAULT_TIMEOUT,
    MAX_BOT_LEVEL,
    MAX_TIMEOUT,
    MIN_TIMEOUT,
    LobbySeat,
    LobbyView,
    is_text,
    parse_view,
)

MAX_LOBBY_FRAME = 8192
"""No lobby message is longer (a genesis of six seats is about 1.5 kB)."""

Anchors = tuple[bytes, bytes]
"""A seat's dice-chain and peek-chain anchors."""

Address = tuple[str, int]


class LobbyError(Exception):
    """The local user asked for something the lobby cannot do now; the reason says why."""


@dataclass(frozen=True)
class Reply:
    """Host: send ``frame`` on connection ``conn``."""

    conn: int
    frame: bytes


@dataclass(frozen=True)
class Drop:
    """Host: close connection ``conn`` (after what was queued on it) for ``reason``."""

    conn: int
    reason: str


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
    """A line for the user (already safe to print)."""

    text: str


@dataclass(frozen=True)
class Started:
    """The genesis is signed by every seat: play. ``addresses[i]`` is where seat ``i`` listens
    (None for the seats of this process)."""

    genesis: Genesis
    addresses: tuple[Address | None, ...]


@dataclass(frozen=True)
class Failed:
    """Joiner: the lobby is over for us; ``reason`` is safe to print."""

    reason: str


HostEvent = Reply | Drop | Changed | Notice | Started
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


def _pick_for_bot(monsters: Sequence[str], taken: dict[str, int]) -> str | None:
    for m in monsters:
        if m not in taken:
            return m
    return None


def _is_anchor(v: object) -> bool:
    return isinstance(v, bytes) and len(v) == 32


@dataclass
class _Guest:
    key: bytes
    address: str
    seat: int | None = None
    anchors: Anchors | None = None
    port: int = 0


class LobbyHost:
    """The host's lobby. Inputs: :meth:`connected`, :meth:`receive`, :meth:`disconnected` from
    the transport; :meth:`pick`, :meth:`set_ready`, :meth:`start` from the host's user. Each
    returns the events to act on."""

    def __init__(
        self,
        identity: Identity,
        *,
        game_name: str,
        seats: int,
        engine_id: str,
        monsters: Sequence[str],
        local_anchors: Sequence[Anchors],
        port: int,
        nonce: bytes,
        bots: Sequence[Identity] = (),
        bot_level: str = "random",
        host_bot: str | None = None,
        two_player_variant: bool | None = None,
        timeout: int = DEFAULT_TIMEOUT,
    ) -> None:
        if not 2 <= seats <= 6 or len(bots) >= seats:
            raise ValueError("a game has 2 to 6 seats, and at least one not played by the host's bots")
        if len(local_anchors) != 1 + len(bots):
            raise ValueError("one pair of anchors per seat of the host (its own, then its bots)")
        if not MIN_TIMEOUT <= timeout <= MAX_TIMEOUT:
            raise ValueError(f"a timeout is {MIN_TIMEOUT} to {MAX_TIMEOUT} seconds")
        self.identity = identity
        self.engine_id = engine_id
        self.monsters = tuple(monsters)
        self.identities = (identity, *bots)
        self.port = port
        self.nonce = nonce
        self.host_bot = host_bot
        self.anchors: dict[int, Anchors] = dict(enumerate(local_anchors))
        self.guests: dict[int, _Guest] = {}
        self.phase = "lobby"
        self.genesis: Genesis | None = None
        self._sigs: dict[int, bytes] = {}
        self._attempt = 0
        view = LobbyView(clean_text(game_name, 40) or "kotp2p", (LobbySeat(),) * seats,
                         two_player_variant, timeout)
        view = view.with_seat(0, LobbySeat(identity.public_key, identity.name, bot=host_bot))
        for i, bot in enumerate(bots, start=1):
            view = view.with_seat(i, LobbySeat(bot.public_key, bot.name, bot=bot_level,
                                               hosted_by=0))
        self.view = view
        for i in range(len(self.identities)):
            if i > 0 or host_bot is not None:
                self._bot_takes_seat(i)

    # -- the host's own user --------------------------------------------------------------------

    def pick(self, monster: str) -> list[HostEvent]:
        """The host picks a monster for its own seat.

        :raises LobbyError: unknown or taken monster, or the game is starting.
        """
        why = self._pick(0, monster)
        if why:
            raise LobbyError(why)
        return self._changed()

    def set_ready(self, ready: bool = True) -> list[HostEvent]:
        """The host says its own seat is (not) ready.

        :raises LobbyError: no monster yet, or the game is starting.
        """
        if self.phase != "lobby":
            raise LobbyError("the game is already starting")
        if ready and self.view.seats[0].monster is None:
            raise LobbyError("pick a monster first")
        self.view = self.view.with_seat(0, replace(self.view.seats[0], ready=ready))
        return self._changed()

    def start(self) -> list[HostEvent]:
        """Start: build the genesis and ask every joiner to sign it.

        :raises LobbyError: a seat is free, has no monster or is not ready; or already started.
        """
        if self.phase == "closed":
            raise LobbyError("the lobby is closed")
        if self.phase != "lobby":
            raise LobbyError("the game is already starting")
        for i, s in enumerate(self.view.seats):
            if s.is_free:
                raise LobbyError(f"seat {i} is still free")
            if s.monster is None or not s.ready:
                raise LobbyError(f"seat {i} ({s.name}) is not ready")
        self._attempt += 1
        nonce = hashlib.sha256(self.nonce + self._attempt.to_bytes(4, "big")).digest()[:16]
        infos = [SeatInfo(s.key, s.name, s.monster or "", *self.anchors[i])
                 for i, s in enumerate(self.view.seats)]
        genesis = make_genesis(self.engine_id, [self.view.two_player_variant], infos, nonce)
        self.genesis = genesis
        self.phase = "signing"
        self._sigs = {i: ident.sign(GENESIS_DOMAIN + genesis.body)
                      for i, ident in enumerate(self.identities)}
        out: list[HostEvent] = [Notice("every seat is ready: asking everyone to sign the game")]
        out += [Reply(c, message("genesis", genesis.body)) for c, g in self.guests.items()
                if g.seat is not None]
        return out + self._maybe_play()

    def close(self, reason: str = "the host quit") -> list[HostEvent]:
        """End the lobby without a game: every joiner is told ``reason`` and dropped.

        :raises LobbyError: the game already started.
        """
        if self.phase == "started":
            raise LobbyError("the game already started")
        self.phase = "closed"
        out: list[HostEvent] = []
        for conn in list(self.guests):
            out += [Reply(conn, message("bye", reason)), Drop(conn, reason)]
        return [*out, Notice(reason)]

    # -- the transport --------------------------------------------------------------------------

    def connected(self, conn: int, key: bytes, address: str) -> list[HostEvent]:
        """Connection ``conn`` passed the handshake with ``key``, from ``address``."""
        self.guests[conn] = _Guest(key, address)
        return []

    def disconnected(self, conn: int) -> list[HostEvent]:
        """Connection ``conn`` is gone: free its seat (and abort a start in progress)."""
        guest = self.guests.pop(conn, None)
        if guest is None or guest.seat is None or self.phase in ("started", "closed"):
            return []
        seat = guest.seat
        name = self.view.seats[seat].name
        self.view = self.view.with_seat(seat, LobbySeat())
        self.anchors.pop(seat, None)
        out: list[HostEvent] = [Notice(f"{name} left seat {seat}")]
        if self.phase == "signing":
            out += self._abort(f"{name} left before signing")
        return out + self._changed()

    def receive(self, conn: int, payload: bytes) -> list[HostEvent]:
        """Handle one frame payload from connection ``conn``. Never raises for bad input."""
        guest = self.guests.get(conn)
        if guest is None or self.phase == "closed":
            return []
        try:
            msg = decode(payload)
            return self._handle(conn, guest, msg)
        except RemoteProtocolError as exc:
            return [Drop(conn, exc.reason)]

    # -- internals ------------------------------------------------------------------------------

    def _handle(self, conn: int, guest: _Guest, msg: list[Value]) -> list[HostEvent]:
        tag, args = msg[0], msg[1:]
        if tag == "join":
            return self._join(conn, guest, args)
        if guest.seat is None:
            raise RemoteProtocolError(f"'{clean_text(tag, 20)}' before 'join'")
        seat = guest.seat
        if tag == "leave" and not args:
            return [Drop(conn, "left the lobby"), *self.disconnected(conn)]
        if tag == "sign" and len(args) == 2 and isinstance(args[0], bytes) \
                and isinstance(args[1], bytes):
            return self._sign(conn, seat, args[0], args[1])
        if self.phase != "lobby":
            return [Reply(conn, message("error", "the game is already starting"))]
        if tag == "pick" and len(args) == 1 and isinstance(args[0], str):
            why = self._pick(seat, args[0])
            return [Reply(conn, message("error", why))] if why else self._changed()
        if tag == "ready" and len(args) == 3:
            anchor, peek, port = args
            if not (_is_anchor(anchor) and _is_anchor(peek) and isinstance(port, int)
                    and 0 < port < 65536):
                raise RemoteProtocolError("expected ['ready', anchor, peek anchor, port]")
            if self.view.seats[seat].monster is None:
                return [Reply(conn, message("error", "pick a monster first"))]
            if anchor in [a for s, (a, _) in self.anchors.items() if s != seat]:
                raise RemoteProtocolError("an anchor another seat already uses")
            guest.anchors, guest.port = (anchor, peek), port
            self.anchors[seat] = (anchor, peek)
            self.view = self.view.with_seat(seat, replace(self.view.seats[seat], ready=True))
            return self._changed()
        if tag == "unready" and not args:
            self.view = self.view.with_seat(seat, replace(self.view.seats[seat], ready=False))
            return self._changed()
        raise RemoteProtocolError(f"unknown lobby message '{clean_text(tag, 20)}' with "
                                  f"{len(args)} fields")

    def _join(self, conn: int, guest: _Guest, args: list[Value]) -> list[HostEvent]:
        if guest.seat is not None:
            raise RemoteProtocolError("'join' twice")
        if len(args) != 2 or not isinstance(args[0], str):
            raise RemoteProtocolError("expected ['join', name, bot level or nil]")
        try:
            name = check_name(args[0])
        except ValueError as exc:
            raise RemoteProtocolError(str(exc)) from None
        bot = args[1]
        if bot is not None and not is_text(bot, MAX_BOT_LEVEL):
            raise RemoteProtocolError("a bot level is a short printable word")
        if self.phase != "lobby":
            return [Reply(conn, message("bye", "the game has already started")),
                    Drop(conn, "joined too late")]
        taken = self.view.seat_of(guest.key)
        if taken is not None:
            return [Reply(conn, message("bye", f"this key already sits at seat {taken}")),
                    Drop(conn, "a key already seated")]
        free = [i for i, s in enumerate(self.view.seats) if s.is_free]
        if not free:
            return [Reply(conn, message("bye", "the game is full")), Drop(conn, "the game is full")]
        seat = free[0]
        guest.seat = seat
        self.view = self.view.with_seat(seat, LobbySeat(guest.key, name, bot=bot))
        out: list[HostEvent] = [Reply(conn, message("welcome", seat)),
                                Notice(f"{name} [{self.view.seats[seat].fingerprint}] joined "
                                       f"seat {seat}")]
        return out + self._changed()

    def _pick(self, seat: int, monster: str) -> str | None:
        if self.phase != "lobby":
            return "the game is already starting"
        if monster not in self.monsters:
            return f"no monster called {clean_text(monster, 40)!r}: expected one of " + ", ".join(
                self.monsters)
        owner = self.view.taken.get(monster)
        if owner is not None and owner != seat:
            return f"{monster} is taken by {self.view.seats[owner].name}"
        self.view = self.view.with_seat(seat, replace(self.view.seats[seat], monster=monster,
                                                      ready=False))
        return None

    def _bot_takes_seat(self, seat: int) -> None:
        monster = _pick_for_bot(self.monsters, self.view.taken)
        self.view = self.view.with_seat(seat, replace(self.view.seats[seat], monster=monster,
                                                      ready=monster is not None))

    def _sign(self, conn: int, seat: int, game_id: bytes, sig: bytes) -> list[HostEvent]:
        genesis = self.genesis
        if self.phase != "signing" or genesis is None or game_id != genesis.game_id:
            return []  # late: for a start that was aborted (an honest race)
        key = self.view.seats[seat].key
        if not verify_signature(key, sig, GENESIS_DOMAIN + genesis.body):
            name = self.view.seats[seat].name
            return [Drop(conn, "its signature of the genesis does not check"),
                    *self.disconnected(conn), Notice(f"{name}'s signature did not check")]
        self._sigs[seat] = sig
        return self._maybe_play()

    def _maybe_play(self) -> list[HostEvent]:
        genesis = self.genesis
        if genesis is None or len(self._sigs) < genesis.n:
            return []
        signed = genesis.with_signatures([self._sigs[i] for i in range(genesis.n)])
        assert not signed.bad_signatures()
        self.genesis = signed
        self.phase = "started"
        local = len(self.identities)
        wire: list[Value] = [["", self.port]] * local
        addresses: list[Address | None] = [None] * local
        by_seat = {g.seat: g for g in self.guests.values() if g.seat is not None}
        for i in range(local, genesis.n):
            g = by_seat[i]
            wire.append([g.address, g.port])
            addresses.append((g.address, g.port))
        start = message("start", signed.frame_payload(), wire)
        out: list[HostEvent] = [Reply(c, start) for c, g in self.guests.items()
                                if g.seat is not None]
        return [*out, Started(signed, tuple(addresses))]

    def _abort(self, why: str) -> list[HostEvent]:
        self.phase = "lobby"
        self.genesis = None
        self._sigs = {}
        return [Notice(f"the game did not start: {why}")]

    def _changed(self) -> list[HostEvent]:
        frame = message(*self.view.to_wire())
        out: list[HostEvent] = [Reply(c, frame) for c, g in self.guests.items()
                                if g.seat is not None]
        out.append(Changed(self.view))
        if self.host_bot is not None and self.phase == "lobby" and self.view.all_ready:
            out += self.start()
        return out


class LobbyGuest:
    """The joining side's lobby. Send :meth:`hello` after the handshake, feed every frame from
    the host to :meth:`receive`; :meth:`pick`, :meth:`set_ready`, :meth:`leave` for the user.

    ``anchors(seat)`` gives this player's chain anchors for a seat (the caller holds the secret);
    ``host_address`` is where we reached the host. With ``bot`` set, a bot plays this seat: it
    takes the first free monster of the list and is ready at once.
    """

    def __init__(
        self,
        identity: Identity,
        *,
        engine_id: str,
        monsters: Sequence[str],
        anchors: Callable[[int], Anchors],
        port: int,
        host_address: str,
        bot: str | None = None,
    ) -> None:
        self.identity = identity
        self.engine_id = engine_id
        self.monsters = tuple(monsters)
        self.anchors = anchors
        self.port = port
        self.host_address = host_address
        self.bot = bot
        self.seat: int | None = None
        self.view: LobbyView | None = None
        self.phase = "joining"
        self._signed: bytes | None = None
        self._asked: tuple[str, ...] = ()

    def hello(self) -> list[GuestEvent]:
        """The join request (send it first)."""
        return [Outgoing(message("join", self.identity.name, self.bot))]

    def pick(self, monster: str) -> list[GuestEvent]:
        """Ask for ``monster`` (the host answers with the lobby, or an error)."""
        return [Outgoing(message("pick", monster))]

    def set_ready(self, ready: bool = True) -> list[GuestEvent]:
        """Say this seat is (not) ready; ready sends this seat's chain anchors.

        :raises LobbyError: no seat yet.
        """
        if self.seat is None:
            raise LobbyError("not seated yet")
        if not ready:
            return [Outgoing(message("unready"))]
        anchor, peek = self.anchors(self.seat)
        return [Outgoing(message("ready", anchor, peek, self.port))]

    def leave(self) -> list[GuestEvent]:
        """Leave the lobby (the phase becomes ``"left"``)."""
        self.phase = "left"
        return [Outgoing(message("leave")), Failed("you left the lobby")]

    def receive(self, payload: bytes) -> list[GuestEvent]:
        """Handle one frame payload from the host. Never raises for bad input."""
        if self.phase in ("failed", "left", "started"):
            return []
        try:
            return self._handle(decode(payload))
        except RemoteProtocolError as exc:
            self.phase = "failed"
            return [Failed(f"the host broke the lobby protocol: {clean_text(exc.reason)}")]

    def _handle(self, msg: list[Value]) -> list[GuestEvent]:
        tag, args = msg[0], msg[1:]
        if tag == "welcome" and len(args) == 1 and isinstance(args[0], int) and self.seat is None:
            self.seat = args[0]
            self.phase = "seated"
            return [Notice(f"seated at seat {self.seat}")]
        if tag == "lobby":
            return self._lobby(msg)
        if tag == "error" and len(args) == 1 and isinstance(args[0], str):
            self._asked = ()
            return [Notice(f"the host says: {clean_text(args[0])}")]
        if tag == "bye" and len(args) == 1 and isinstance(args[0], str):
            self.phase = "failed"
            return [Failed(f"the host closed the lobby: {clean_text(args[0])}")]
        if tag == "genesis" and len(args) == 1 and isinstance(args[0], bytes):
            return self._sign(args[0])
        if tag == "start" and len(args) == 2 and isinstance(args[0], bytes):
            return self._start(args[0], args[1])
        raise RemoteProtocolError(f"unexpected lobby message '{clean_text(tag, 20)}'")

    def _lobby(self, msg: list[Value]) -> list[GuestEvent]:
        view = parse_view(msg, self.monsters)
        if self.seat is None or self.seat >= len(view.seats):
            raise RemoteProtocolError("a lobby before our seat was given")
        if view.seats[self.seat].key != self.identity.public_key:
            raise RemoteProtocolError(f"the lobby shows someone else at our seat {self.seat}")
        self.view = view
        out: list[GuestEvent] = [Changed(view)]
        if self.phase == "signing":  # the start was aborted
            self.phase = "seated"
        if self.bot is not None:
            out += self._auto(view)
        return out

    def _auto(self, view: LobbyView) -> list[GuestEvent]:
        """A bot's moves in the lobby: take a monster, then be ready."""
        assert self.seat is not None
        mine = view.seats[self.seat]
        if mine.monster is None:
            choice = _pick_for_bot(self.monsters, view.taken)
            if choice is None or self._asked == ("pick", choice):
                return []
            self._asked = ("pick", choice)
            return self.pick(choice)
        if not mine.ready and self._asked != ("ready", mine.monster):
            self._asked = ("ready", mine.monster)
            return self.set_ready(True)
        return []

    def _sign(self, body: bytes) -> list[GuestEvent]:
        genesis = parse_genesis_body(body, ())
        why = self._check(genesis)
        if why:
            self.phase = "failed"
            return [Outgoing(message("leave")), Failed(f"refusing to sign the game: {why}")]
        self.phase = "signing"
        self._signed = body
        sig = self.identity.sign(GENESIS_DOMAIN + body)
        return [Notice("signed the game"), Outgoing(message("sign", genesis.game_id, sig))]

    def _check(self, g: Genesis) -> str | None:
        view, seat = self.view, self.seat
        if view is None or seat is None:
            return "a genesis before the lobby"
        if g.engine_id != self.engine_id:
            return f"engine {clean_text(g.engine_id, 80)!r}, this side runs {self.engine_id!r}"
        if g.chain_length != CHAIN_LENGTH:
            return f"chains of {g.chain_length} values, {CHAIN_LENGTH} expected"
        if g.options != [view.two_player_variant]:
            return "the options differ from the lobby's"
        if g.n != len(view.seats):
            return f"{g.n} seats, the lobby has {len(view.seats)}"
        for i, (info, s) in enumerate(zip(g.seats, view.seats, strict=True)):
            if (info.public_key, info.name, info.monster) != (s.key, s.name, s.monster):
                return f"seat {i} differs from the lobby"
        if (g.seats[seat].anchor, g.seats[seat].peek_anchor) != self.anchors(seat):
            return "our chain anchors were changed"
        return None

    def _start(self, payload: bytes, wire: Value) -> list[GuestEvent]:
        genesis = parse_genesis_payload(payload)
        if self._signed is None or genesis.body != self._signed:
            raise RemoteProtocolError("a start for a genesis we did not sign")
        bad = genesis.bad_signatures()
        if bad:
            raise RemoteProtocolError(f"the genesis signatures of seats {bad} do not check")
        if not isinstance(wire, list) or len(wire) != genesis.n:
            raise RemoteProtocolError("expected one [address, port] per seat")
        addresses: list[Address | None] = []
        for i, a in enumerate(wire):
            if (not isinstance(a, list) or len(a) != 2 or not isinstance(a[0], str)
                    or len(a[0]) > 255 or not isinstance(a[1], int) or not 0 < a[1] < 65536):
                raise RemoteProtocolError(f"seat {i}: expected [address, port]")
            addresses.append(None if i == self.seat else (a[0] or self.host_address, a[1]))
        self.phase = "started"
        return [Started(genesis, tuple(addresses))]
