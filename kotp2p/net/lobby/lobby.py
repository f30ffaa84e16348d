"""The lobby before a game, sans-IO: the host's state machine and the joining side's.

Theory of operation
-------------------
Every lobby connection is opened by the handshake of :mod:`kotp2p.net.lobby.handshake`. It proves
the joiner's key and its knowledge of the join code. Lobby messages are *bound to that handshake*.
The transport tells :meth:`LobbyHost.connected` which key sits at the end of connection ``conn``.
Every later message on ``conn`` speaks for that key only, so a stranger cannot speak for a seat.
What must outlive the connection is signed: that is the genesis.

Messages are msgpack arrays. Joiner to host::

    ["join", name, bot level or nil]        take the first free seat
    ["pick", monster]                       first come; a monster taken is refused
    ["ready", anchor, peek anchor, port]    my chain anchors for my seat, where I listen

    ["unready"]   ["leave"]
    ["sign", game_id, signature]            my signature of that genesis body

Host to joiner::

    ["welcome", seat]   ["error", reason, code]   ["bye", reason, code]
    ["lobby", ...]                          the whole lobby, as :mod:`kotp2p.net.lobby.lobby_view` says
    ["genesis", body]                       please check and sign
    ["start", genesis frame payload, [[address, port], ...]]   every seat signed: play

The host plays seat 0, as a human or, with ``host_bot``, as a bot. Its ``bots`` play the next
seats. The host starts the game with :meth:`LobbyHost.start` once every seat is filled, has a
monster and is ready. When its own seat is a bot, it starts by itself as soon as that holds.
Starting builds the genesis with :func:`~kotp2p.net.trust.genesis.make_genesis`. The host signs for
its own seats and sends the body to every joiner. Before signing, a joiner checks its own seat:
key, name, monster and anchors. It also checks every seat against the lobby, and the engine id and
the options. When every signature checks, the host sends the signed genesis frame and the
addresses. Seat ``i`` listens at ``[address, port]``. An empty address means "where you reached
the host". A joiner leaving before that aborts the start.

Bot seats take the first free monster of the list at once, and are ready at once.

The host sees who is seated and who is connected without a seat yet, and may turn any joiner
away with :meth:`LobbyHost.turn_away`. That key is refused for the life of the lobby.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from kotp2p.net.lobby.lobby_guest import LobbyGuest
from kotp2p.net.lobby.lobby_messages import (
    MAX_LOBBY_FRAME,
    Address,
    Anchors,
    Banned,
    Changed,
    Drop,
    Failed,
    GuestEvent,
    HostEvent,
    LobbyError,
    Notice,
    Outgoing,
    Reply,
    Started,
    decode,
    is_anchor,
    message,
    pick_for_bot,
)
from kotp2p.net.lobby.lobby_view import (
    DEFAULT_TIMEOUT,
    EXPANSION_NAMES,
    MAX_BOT_LEVEL,
    MAX_TIMEOUT,
    MIN_TIMEOUT,
    LobbySeat,
    LobbyView,
)
from kotp2p.net.trust import GENESIS_DOMAIN, HALLOWEEN, Genesis, SeatInfo, make_genesis
from kotp2p.net.wire import (
    Identity,
    RemoteProtocolError,
    Value,
    Why,
    check_name,
    fingerprint,
    is_text,
    safe_text,
    verify_signature,
)

__all__ = [
    "MAX_LOBBY_FRAME",
    "Address",
    "Anchors",
    "Banned",
    "Changed",
    "Drop",
    "Failed",
    "GuestEvent",
    "HostEvent",
    "LobbyError",
    "LobbyGuest",
    "LobbyHost",
    "Notice",
    "Outgoing",
    "Reply",
    "Started",
    "message",
]


@dataclass
class _Guest:
    key: bytes
    address: str
    seat: int | None = None
    anchors: Anchors | None = None
    port: int = 0


def _error(conn: int, refused: LobbyError) -> Reply:
    """The host's ``error`` answer on ``conn``: the refusal's text and code."""
    return Reply(conn, message("error", str(refused), refused.refusal.why.value))


class LobbyHost:
    """The host's lobby.

    The transport calls :meth:`connected`, :meth:`receive` and :meth:`disconnected`. The host's
    user calls :meth:`pick`, :meth:`set_ready` and :meth:`start`. Each returns the events to act
    on."""

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
        halloween: bool = False,
        engine_id_for: Callable[[Value], str] | None = None,
        power_up: bool = False,
    ) -> None:
        if not 2 <= seats <= 6 or len(bots) >= seats:
            raise ValueError("a game has 2 to 6 seats, and at least one not played by the host's bots")
        if len(local_anchors) != 1 + len(bots):
            raise ValueError("one pair of anchors per seat of the host (its own, then its bots)")
        if not MIN_TIMEOUT <= timeout <= MAX_TIMEOUT:
            raise ValueError(f"a timeout is {MIN_TIMEOUT} to {MAX_TIMEOUT} seconds")
        self.identity = identity
        self.engine_id = engine_id
        self.engine_id_for = engine_id_for or (lambda options: engine_id)
        """The engine id a genesis with these options carries: an expansion has its own."""
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
        self.banned: set[bytes] = set()
        """The keys the host turned away. They get no seat in this lobby."""
        view = LobbyView(safe_text(game_name, 40) or "kotp2p", (LobbySeat(),) * seats,
                         two_player_variant, timeout, halloween, power_up)
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
        refused = self._pick(0, monster)
        if refused is not None:
            raise refused
        return self._changed()

    def set_expansion(self, name: str, on: bool) -> list[HostEvent]:
        """The host turns an expansion on or off: ``"halloween"`` or ``"power-up"``.

        Every seat a person plays must say it is ready again: nobody starts a game on terms it
        did not see.

        :raises LobbyError: the game is starting.
        :raises ValueError: no such expansion.
        """
        if name not in EXPANSION_NAMES:
            raise ValueError(f"expected one of {list(EXPANSION_NAMES)}, found {name!r}")
        if self.phase != "lobby":
            raise LobbyError("the game is already starting", Why.STARTING)
        if on == (name in self.view.expansions):
            return []
        seats = tuple(s if s.bot is not None else replace(s, ready=False) for s in self.view.seats)
        if name == HALLOWEEN:
            self.view = replace(self.view, seats=seats, halloween=on)
        else:
            self.view = replace(self.view, seats=seats, power_up=on)
        return [Notice(f"{EXPANSION_NAMES[name]} is {'on' if on else 'off'}"), *self._changed()]

    def set_ready(self, ready: bool = True) -> list[HostEvent]:
        """The host says whether its own seat is ready.

        :raises LobbyError: no monster yet, or the game is starting.
        """
        if self.phase != "lobby":
            raise LobbyError("the game is already starting", Why.STARTING)
        if ready and self.view.seats[0].monster is None:
            raise LobbyError("pick a monster first", Why.PICK_FIRST)
        self.view = self.view.with_seat(0, replace(self.view.seats[0], ready=ready))
        return self._changed()

    def start(self) -> list[HostEvent]:
        """Start: build the genesis and ask every joiner to sign it.

        :raises LobbyError: a seat is free, has no monster or is not ready. Or it already started.
        """
        if self.phase == "closed":
            raise LobbyError("the lobby is closed", Why.LOBBY_OVER)
        if self.phase != "lobby":
            raise LobbyError("the game is already starting", Why.STARTING)
        for i, s in enumerate(self.view.seats):
            if s.is_free:
                raise LobbyError(f"seat {i} is still free", Why.SEAT_FREE, (str(i),))
            if s.monster is None or not s.ready:
                raise LobbyError(f"seat {i} ({s.name}) is not ready", Why.SEAT_NOT_READY,
                                 (str(i), s.name))
        self._attempt += 1
        nonce = hashlib.sha256(self.nonce + self._attempt.to_bytes(4, "big")).digest()[:16]
        infos = [SeatInfo(s.key, s.name, s.monster or "", *self.anchors[i])
                 for i, s in enumerate(self.view.seats)]
        options = self.view.options
        genesis = make_genesis(self.engine_id_for(options), options, infos, nonce)
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
            raise LobbyError("the game already started", Why.LOBBY_OVER)
        self.phase = "closed"
        out: list[HostEvent] = []
        for conn in list(self.guests):
            out += [Reply(conn, message("bye", reason, Why.LOBBY_CLOSED.value)),
                    Drop(conn, reason)]
        return [*out, Notice(reason)]

    def waiting(self) -> list[tuple[int, str, bytes]]:
        """The connections past the handshake without a seat: ``(conn, address, key)``, oldest
        first."""
        return [(c, g.address, g.key) for c, g in sorted(self.guests.items()) if g.seat is None]

    def who(self) -> list[str]:
        """Lines for the host: each joiner's seat or place in the waiting line, and its address.

        ``N`` names the joiner at seat N, and ``wN`` the N-th connection waiting for a seat. So
        :meth:`turn_away` takes these names."""
        seated = sorted((g.seat, g) for g in self.guests.values() if g.seat is not None)
        lines = [f"  {seat}: {self.view.seats[seat].name} [{fingerprint(g.key)}] from {g.address}"
                 for seat, g in seated]
        lines += [f"  w{i}: waiting for a seat, [{fingerprint(key)}] from {address}"
                  for i, (_, address, key) in enumerate(self.waiting(), start=1)]
        return lines or ["  nobody has joined"]

    def find(self, who: str) -> int:
        """The connection that ``who`` names: a seat number, or ``wN`` for the N-th waiting one.

        :raises LobbyError: it names no joiner.
        """
        word = who.strip().lower()
        if word.startswith("w") and word[1:].isdigit():
            waiting = self.waiting()
            index = int(word[1:]) - 1
            if 0 <= index < len(waiting):
                return waiting[index][0]
            raise LobbyError(f"no waiting connection {safe_text(who, 8)}: expected w1 to "
                             f"w{len(waiting)}" if waiting else "no connection waits for a seat",
                             Why.OTHER)
        if word.isdigit():
            conn = self.conn_of(int(word))
            if conn is not None:
                return conn
        raise LobbyError(f"expected the seat of a joiner or wN for a waiting connection, found "
                         f"{safe_text(who, 8)!r}", Why.OTHER)

    def conn_of(self, seat: int) -> int | None:
        """The connection of the joiner at ``seat``; None for a free seat or the host's own."""
        return next((c for c, g in self.guests.items() if g.seat == seat), None)

    def turn_away(self, who: str) -> list[HostEvent]:
        """The host turns away the joiner ``who`` names, as :meth:`find` reads it.

        Its seat is freed, and its key gets no seat for the life of the lobby.

        :raises LobbyError: it names no joiner, or the game already started.
        """
        if self.phase in ("started", "closed"):
            raise LobbyError("the lobby is over", Why.LOBBY_OVER)
        conn = self.find(who)
        guest = self.guests[conn]
        self.banned.add(guest.key)
        seat = guest.seat
        name = f"{self.view.seats[seat].name} at seat {seat}" if seat is not None else \
            f"the connection from {guest.address}"
        reason = "the host turned you away"
        return [Reply(conn, message("bye", reason, Why.TURNED_AWAY.value)), Drop(conn, reason),
                Banned(guest.key, guest.address),
                Notice(f"turned away {name} [{fingerprint(guest.key)}]"),
                *self.disconnected(conn)]

    # -- the transport --------------------------------------------------------------------------

    def connected(self, conn: int, key: bytes, address: str) -> list[HostEvent]:
        """Connection ``conn`` passed the handshake with ``key``, from ``address``."""
        self.guests[conn] = _Guest(key, address)
        return []

    def disconnected(self, conn: int) -> list[HostEvent]:
        """Connection ``conn`` is gone: free its seat, and abort a start in progress."""
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
            raise RemoteProtocolError(f"'{safe_text(tag, 20)}' before 'join'")
        seat = guest.seat
        if tag == "leave" and not args:
            return [Drop(conn, "left the lobby"), *self.disconnected(conn)]
        if tag == "sign" and len(args) == 2 and isinstance(args[0], bytes) \
                and isinstance(args[1], bytes):
            return self._sign(conn, seat, args[0], args[1])
        if self.phase != "lobby":
            return [_error(conn, LobbyError("the game is already starting", Why.STARTING))]
        if tag == "pick" and len(args) == 1 and isinstance(args[0], str):
            refused = self._pick(seat, args[0])
            return [_error(conn, refused)] if refused is not None else self._changed()
        if tag == "ready" and len(args) == 3:
            anchor, peek, port = args
            if not (is_anchor(anchor) and is_anchor(peek) and isinstance(port, int)
                    and 0 < port < 65536):
                raise RemoteProtocolError("expected ['ready', anchor, peek anchor, port]")
            if self.view.seats[seat].monster is None:
                return [_error(conn, LobbyError("pick a monster first", Why.PICK_FIRST))]
            if anchor in [a for s, (a, _) in self.anchors.items() if s != seat]:
                raise RemoteProtocolError("an anchor another seat already uses")
            guest.anchors, guest.port = (anchor, peek), port
            self.anchors[seat] = (anchor, peek)
            self.view = self.view.with_seat(seat, replace(self.view.seats[seat], ready=True))
            return self._changed()
        if tag == "unready" and not args:
            self.view = self.view.with_seat(seat, replace(self.view.seats[seat], ready=False))
            return self._changed()
        raise RemoteProtocolError(f"unknown lobby message '{safe_text(tag, 20)}' with "
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
            return [Reply(conn, message("bye", "the game has already started",
                                        Why.GAME_STARTED.value)),
                    Drop(conn, "joined too late")]
        if guest.key in self.banned:
            return [Reply(conn, message("bye", "the host turned this key away",
                                        Why.TURNED_AWAY.value)),
                    Drop(conn, "a key the host turned away")]
        taken = self.view.seat_of(guest.key)
        if taken is not None:
            return [Reply(conn, message("bye", f"this key already sits at seat {taken}",
                                        Why.ALREADY_SEATED.value)),
                    Drop(conn, "a key already seated")]
        free = [i for i, s in enumerate(self.view.seats) if s.is_free]
        if not free:
            return [Reply(conn, message("bye", "the game is full", Why.GAME_FULL.value)),
                    Drop(conn, "the game is full")]
        seat = free[0]
        guest.seat = seat
        self.view = self.view.with_seat(seat, LobbySeat(guest.key, name, bot=bot))
        out: list[HostEvent] = [Reply(conn, message("welcome", seat)),
                                Notice(f"{name} [{self.view.seats[seat].fingerprint}] joined "
                                       f"seat {seat}")]
        return out + self._changed()

    def _pick(self, seat: int, monster: str) -> LobbyError | None:
        """Give ``monster`` to ``seat``; the refusal if it cannot be."""
        if self.phase != "lobby":
            return LobbyError("the game is already starting", Why.STARTING)
        if monster not in self.monsters:
            name = safe_text(monster, 40)
            return LobbyError(f"no monster called {name!r}: expected one of "
                              + ", ".join(self.monsters), Why.NO_SUCH_MONSTER, (name,))
        owner = self.view.taken.get(monster)
        if owner is not None and owner != seat:
            name = self.view.seats[owner].name
            return LobbyError(f"{monster} is taken by {name}", Why.MONSTER_TAKEN, (monster, name))
        self.view = self.view.with_seat(seat, replace(self.view.seats[seat], monster=monster,
                                                      ready=False))
        return None

    def _bot_takes_seat(self, seat: int) -> None:
        monster = pick_for_bot(self.monsters, self.view.taken)
        self.view = self.view.with_seat(seat, replace(self.view.seats[seat], monster=monster,
                                                      ready=monster is not None))

    def _sign(self, conn: int, seat: int, game_id: bytes, sig: bytes) -> list[HostEvent]:
        genesis = self.genesis
        if self.phase != "signing" or genesis is None or game_id != genesis.game_id:
            return []  # Late, for a start that was aborted. That is an honest race.
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
        return out + self.opened()

    def opened(self) -> list[HostEvent]:
        """What happens by itself when the lobby just opened or changed.

        The game starts when the host's own seat is a bot and every seat is filled and ready.
        That happens at once when the host's bots fill every seat."""
        if self.host_bot is not None and self.phase == "lobby" and self.view.all_ready:
            return self.start()
        return []
