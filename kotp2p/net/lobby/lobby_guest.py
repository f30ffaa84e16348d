"""The joining side of the lobby, sans-IO.

The protocol is described in :mod:`kotp2p.net.lobby.lobby`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kotp2p.net.lobby.lobby_messages import (
    Address,
    Anchors,
    Changed,
    Failed,
    GuestEvent,
    LobbyError,
    Notice,
    Outgoing,
    Started,
    decode,
    message,
    pick_for_bot,
)
from kotp2p.net.lobby.lobby_view import LobbyView, parse_view
from kotp2p.net.trust import CHAIN_LENGTH, GENESIS_DOMAIN, Genesis, parse_genesis_body
from kotp2p.net.trust import parse_genesis_frame as parse_genesis_payload
from kotp2p.net.wire import (
    LOBBY_BYE_CODES,
    LOBBY_ERROR_CODES,
    Identity,
    Refusal,
    RemoteProtocolError,
    Value,
    Why,
    peer_code,
    safe_text,
)


def _failed(why: Why, text: str, *details: str) -> Failed:
    """The lobby is over for this side, for a reason of its own."""
    return Failed(text, Refusal(why, text, details=details))


class LobbyGuest:
    """The joining side's lobby.

    Send :meth:`hello` after the handshake. Feed every frame from the host to :meth:`receive`.
    :meth:`pick`, :meth:`set_ready` and :meth:`leave` act for the user.

    ``anchors(seat)`` gives this player's chain anchors for a seat. The caller holds the secret.
    ``host_address`` is where we reached the host. With ``bot`` set, a bot plays this seat. It
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
        engine_id_for: Callable[[Value], str] | None = None,
    ) -> None:
        self.identity = identity
        self.engine_id = engine_id
        self.engine_id_for = engine_id_for or (lambda options: engine_id)
        """The engine id a genesis with these options carries: an expansion has its own."""
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
        """The join request. Send it first."""
        return [Outgoing(message("join", self.identity.name, self.bot))]

    def pick(self, monster: str) -> list[GuestEvent]:
        """Ask for ``monster``. The host answers with the lobby, or an error."""
        return [Outgoing(message("pick", monster))]

    def set_ready(self, ready: bool = True) -> list[GuestEvent]:
        """Say whether this seat is ready. Ready sends this seat's chain anchors.

        :raises LobbyError: no seat yet.
        """
        if self.seat is None:
            raise LobbyError("not seated yet", Why.NOT_SEATED)
        if not ready:
            return [Outgoing(message("unready"))]
        anchor, peek = self.anchors(self.seat)
        return [Outgoing(message("ready", anchor, peek, self.port))]

    def leave(self) -> list[GuestEvent]:
        """Leave the lobby. The phase becomes ``"left"``."""
        self.phase = "left"
        return [Outgoing(message("leave")), _failed(Why.LEFT, "you left the lobby")]

    def receive(self, payload: bytes) -> list[GuestEvent]:
        """Handle one frame payload from the host. Never raises for bad input."""
        if self.phase in ("failed", "left", "started"):
            return []
        try:
            return self._handle(decode(payload))
        except RemoteProtocolError as exc:
            self.phase = "failed"
            return [_failed(Why.HOST_BROKE_PROTOCOL,
                            f"the host broke the lobby protocol: {safe_text(exc.reason)}")]

    def _handle(self, msg: list[Value]) -> list[GuestEvent]:
        tag, args = msg[0], msg[1:]
        if tag == "welcome" and len(args) == 1 and isinstance(args[0], int) and self.seat is None:
            self.seat = args[0]
            self.phase = "seated"
            return [Notice(f"seated at seat {self.seat}")]
        if tag == "lobby":
            return self._lobby(msg)
        if tag == "error" and len(args) in (1, 2) and isinstance(args[0], str):
            self._asked = ()
            said = safe_text(args[0])
            why = peer_code(args[1], LOBBY_ERROR_CODES) if len(args) == 2 else Why.OTHER
            why = Why.HOST_SAYS if why is Why.OTHER else why  # an answer to what we asked
            text = f"the host says: {said}"
            return [Notice(text, Refusal(why, text, by_peer=True, details=(said,)))]
        if tag == "bye" and len(args) in (1, 2) and isinstance(args[0], str):
            self.phase = "failed"
            said = safe_text(args[0])
            why = peer_code(args[1], LOBBY_BYE_CODES) if len(args) == 2 else Why.OTHER
            why = Why.LOBBY_CLOSED if why is Why.OTHER else why  # a bye closes it for us
            text = f"the host closed the lobby: {said}"
            return [Failed(text, Refusal(why, text, by_peer=True, details=(said,)))]
        if tag == "genesis" and len(args) == 1 and isinstance(args[0], bytes):
            return self._sign(args[0])
        if tag == "start" and len(args) == 2 and isinstance(args[0], bytes):
            return self._start(args[0], args[1])
        raise RemoteProtocolError(f"unexpected lobby message '{safe_text(tag, 20)}'")

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
            choice = pick_for_bot(self.monsters, view.taken)
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
            return [Outgoing(message("leave")),
                    _failed(Why.WONT_SIGN, f"refusing to sign the game: {why}", why)]
        self.phase = "signing"
        self._signed = body
        sig = self.identity.sign(GENESIS_DOMAIN + body)
        return [Notice("signed the game"), Outgoing(message("sign", genesis.game_id, sig))]

    def _check(self, g: Genesis) -> str | None:
        view, seat = self.view, self.seat
        if view is None or seat is None:
            return "a genesis before the lobby"
        if g.options != view.options:
            return "the options differ from the lobby's"
        mine = self.engine_id_for(g.options)
        if g.engine_id != mine:
            return f"engine {safe_text(g.engine_id, 80)!r}, this side runs {mine!r}"
        if g.chain_length != CHAIN_LENGTH:
            return f"chains of {g.chain_length} values, {CHAIN_LENGTH} expected"
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
