"""The lobby, sans-IO: a host and joiners wired together in memory, each connection opened by the
real handshake."""

from __future__ import annotations

from collections import deque
from dataclasses import replace

import pytest

from kotp2p import rules
from kotp2p.net.lobby import AcceptorHandshake, DialerHandshake, HandshakeFailed, refusal
from kotp2p.net.lobby.lobby import (
    Changed,
    Drop,
    Failed,
    GuestEvent,
    HostEvent,
    LobbyError,
    LobbyGuest,
    LobbyHost,
    Notice,
    Outgoing,
    Reply,
    Started,
    message,
)
from kotp2p.net.lobby.lobby_view import parse_view
from kotp2p.net.peer import PeerProtocol
from kotp2p.net.trust import RulesEngine, check_words
from kotp2p.net.wire import RemoteProtocolError, codec
from tests.net.lobby_kit import anchors_for, h, ident

ENGINE = rules.ENGINE_ID


def payload(frame: bytes) -> bytes:
    (p,) = codec.FrameDecoder().feed(frame)
    return p


class Room:
    """A host and its joiners; frames are delivered in order when :meth:`pump` runs."""

    def __init__(self, host: LobbyHost, join_code: str | None = None) -> None:
        self.host = host
        self.join_code = join_code
        self.guests: dict[int, LobbyGuest] = {}
        self.seen: dict[int, list[GuestEvent]] = {}
        self.host_seen: list[HostEvent] = []
        self.to_host: deque[tuple[int, bytes]] = deque()
        self.to_guest: dict[int, deque[bytes]] = {}
        self.open: set[int] = set()

    def connect(self, guest: LobbyGuest, *, code: str | None = None,
                engine_id: str = ENGINE, version: int = 1) -> int:
        """Run the handshake, then the join; return the connection number."""
        conn = len(self.guests) + 1
        d = DialerHandshake(guest.identity, engine_id=engine_id, challenge=h("d", conn),
                            join_code=code, version=version)
        a = AcceptorHandshake([self.host.identity], engine_id=ENGINE, challenge=h("a", conn),
                              join_code=self.join_code)
        to_host = codec.FrameDecoder().feed(d.hello())
        while not (a.done and d.done):
            back = []
            for p in to_host:
                try:
                    back += a.receive(p)
                except HandshakeFailed as exc:
                    with pytest.raises(HandshakeFailed) as seen:
                        d.receive(payload(refusal(exc.reason, exc.why)))
                    both = HandshakeFailed(f"{exc.reason} / joiner sees: {seen.value.reason}",
                                           by_peer=False)
                    both.host_side, both.joiner = exc, seen.value  # type: ignore[attr-defined]
                    raise both from None
            to_host = []
            for p in (p for b in back for p in codec.FrameDecoder().feed(b)):
                try:
                    to_host += [q for f in d.receive(p) for q in codec.FrameDecoder().feed(f)]
                except HandshakeFailed as exc:  # the joiner refuses the host
                    with pytest.raises(HandshakeFailed) as seen:
                        a.receive(payload(refusal(exc.reason, exc.why)))
                    both = HandshakeFailed(f"{seen.value.reason} / joiner sees: {exc.reason}",
                                           by_peer=False)
                    both.host_side, both.joiner = seen.value, exc  # type: ignore[attr-defined]
                    raise both from None
        assert a.peer is not None
        self.guests[conn] = guest
        self.seen[conn] = []
        self.to_guest[conn] = deque()
        self.open.add(conn)
        self.on_host(self.host.connected(conn, a.peer.key, f"127.0.0.{conn + 1}"))
        self.on_guest(conn, guest.hello())
        self.pump()
        return conn

    def on_host(self, events: list[HostEvent]) -> None:
        for ev in events:
            self.host_seen.append(ev)
            if isinstance(ev, Reply) and ev.conn in self.open:
                self.to_guest[ev.conn].append(payload(ev.frame))
            elif isinstance(ev, Drop) and ev.conn in self.open:
                self.open.discard(ev.conn)
                self.on_host(self.host.disconnected(ev.conn))

    def on_guest(self, conn: int, events: list[GuestEvent]) -> None:
        self.seen[conn] += events
        for ev in events:
            if isinstance(ev, Outgoing) and conn in self.open:
                self.to_host.append((conn, payload(ev.frame)))

    def pump(self) -> None:
        while self.to_host or any(self.to_guest.values()):
            while self.to_host:
                conn, p = self.to_host.popleft()
                if conn in self.open:
                    self.on_host(self.host.receive(conn, p))
            for conn, q in self.to_guest.items():
                while q:
                    self.on_guest(conn, self.guests[conn].receive(q.popleft()))

    def notices(self, conn: int) -> list[str]:
        return [e.text for e in self.seen[conn] if isinstance(e, Notice)]

    def started(self) -> list[Started]:
        out = [e for e in self.host_seen if isinstance(e, Started)]
        return out + [e for evs in self.seen.values() for e in evs if isinstance(e, Started)]


def host(seats: int = 3, *, bots: int = 0, host_bot: str | None = None,
         timeout: int = 120) -> LobbyHost:
    alice = ident("Alice")
    bot_ids = [ident(f"Bot {i}") for i in range(bots)]
    return LobbyHost(
        alice, game_name="Alice's game", seats=seats, engine_id=ENGINE, monsters=rules.MONSTERS,
        local_anchors=[anchors_for(i.name)(s) for s, i in enumerate([alice, *bot_ids])],
        port=7447, nonce=h("nonce"), bots=bot_ids, host_bot=host_bot, timeout=timeout)


def guest(name: str, bot: str | None = None) -> LobbyGuest:
    return LobbyGuest(ident(name), engine_id=ENGINE, monsters=rules.MONSTERS,
                      anchors=anchors_for(name), port=9000 + len(name), host_address="10.0.0.1",
                      bot=bot)


def test_a_joiner_gets_the_first_free_seat_and_everyone_sees_name_and_fingerprint() -> None:
    room = Room(host())
    bob = guest("Bob")
    conn = room.connect(bob)
    assert bob.seat == 1
    assert bob.view is not None and bob.view == room.host.view
    lines = "\n".join(bob.view.lines())
    assert f"seat 1: Bob [{ident('Bob').fingerprint}]: no monster yet, not ready" in lines
    assert "seat 2: (free)" in lines
    assert f"Bob [{ident('Bob').fingerprint}] joined seat 1" in [
        e.text for e in room.host_seen if isinstance(e, Notice)]
    assert room.notices(conn) == ["seated at seat 1"]


def test_the_host_turns_halloween_on_everyone_readies_again_and_the_genesis_carries_it() -> None:
    engine = RulesEngine()
    lobby = host(2)
    lobby.engine_id_for = engine.engine_id_for
    room = Room(lobby)
    bob = guest("Bob")
    bob.engine_id_for = engine.engine_id_for
    b = room.connect(bob)
    room.host.pick("The King")
    room.on_host(room.host.set_ready())
    room.on_guest(b, bob.pick("Alienoid"))
    room.pump()
    room.on_guest(b, bob.set_ready())
    room.pump()
    assert room.host.view.all_ready
    room.on_host(room.host.set_expansion("halloween", True))
    room.pump()
    assert bob.view is not None and bob.view.halloween and not bob.view.all_ready
    assert "Halloween: on" in "\n".join(bob.view.lines())
    with pytest.raises(LobbyError, match="not ready"):
        room.host.start()
    room.on_host(room.host.set_ready())
    room.on_guest(b, bob.set_ready())
    room.pump()
    room.on_host(room.host.start())
    room.pump()
    started = room.started()
    assert len(started) == 2
    genesis = started[0].genesis
    assert genesis.options == [None, ["halloween"]]
    assert genesis.engine_id == rules.HALLOWEEN_ENGINE_ID
    assert rules.is_halloween(engine.start(genesis.monsters, genesis.options))


def test_a_lobby_view_without_halloween_keeps_its_old_wire_form() -> None:
    base = host(2).view
    assert len(base.to_wire()) == 5
    spooky = replace(base, halloween=True)
    assert spooky.to_wire()[-1] == ["halloween"]
    assert parse_view(spooky.to_wire(), rules.MONSTERS) == spooky
    assert parse_view(base.to_wire(), rules.MONSTERS) == base
    both = replace(spooky, power_up=True)
    assert both.to_wire()[-1] == ["halloween", "power-up"]
    assert both.options == [None, ["halloween", "power-up"]]
    assert parse_view(both.to_wire(), rules.MONSTERS) == both
    assert "Halloween: on; Power Up!: on" in "\n".join(both.lines())
    for bad in ([], ["power-up", "halloween"], ["halloween", "halloween"], ["x"], "halloween"):
        with pytest.raises(RemoteProtocolError, match="lobby expansions: expected some of"):
            parse_view([*base.to_wire(), bad], rules.MONSTERS)


def test_the_host_turns_power_up_on_and_the_options_carry_it() -> None:
    lobby = host(2)
    lobby.pick("The King")
    lobby.set_ready()
    events = lobby.set_expansion("power-up", True)
    assert any(isinstance(e, Notice) and e.text == "Power Up! is on" for e in events)
    assert lobby.view.power_up and not lobby.view.seats[0].ready
    assert lobby.set_expansion("power-up", True) == []
    with pytest.raises(ValueError, match="expected one of"):
        lobby.set_expansion("spooky", True)
    assert lobby.view.options == [None, ["power-up"]]
    assert RulesEngine().engine_id_for(lobby.view.options) == rules.ENGINE_IDS[False, True]


def test_monster_picks_are_first_come_and_a_duplicate_is_refused() -> None:
    room = Room(host())
    bob, carol = guest("Bob"), guest("Carol")
    b, c = room.connect(bob), room.connect(carol)
    room.on_guest(b, bob.pick("The King"))
    room.pump()
    assert carol.view is not None and carol.view.taken == {"The King": 1}
    room.on_guest(c, carol.pick("The King"))
    room.pump()
    assert room.notices(c)[-1] == "the host says: The King is taken by Bob"
    assert room.host.view.seats[2].monster is None
    with pytest.raises(LobbyError, match="The King is taken by Bob"):
        room.host.pick("The King")
    room.on_guest(c, carol.pick("Godzilla"))
    room.pump()
    assert room.notices(c)[-1].startswith("the host says: no monster called 'Godzilla': expected one of")


def test_a_wrong_join_code_keeps_the_joiner_out() -> None:
    room = Room(host(), join_code="tiger")
    with pytest.raises(HandshakeFailed, match=r"wrong join code: .* / joiner sees: this host does "
                       "not know the join code"):
        room.connect(guest("Mallory"), code="lion")
    assert room.host.view.free_seats == 2
    room.connect(guest("Bob"), code="tiger")
    assert room.host.view.free_seats == 1


@pytest.mark.parametrize(
    ("kw", "reason"),
    [({"version": 2}, "protocol version 2 offered"), ({"engine_id": "kotp2p-9.9"}, "rules engine 'kotp2p-9.9' offered")],
)
def test_another_version_or_engine_is_refused_on_both_sides(kw: dict[str, object], reason: str) -> None:
    room = Room(host())
    with pytest.raises(HandshakeFailed) as exc:
        room.connect(guest("Bob"), **kw)  # type: ignore[arg-type]
    assert reason in exc.value.reason
    assert f"joiner sees: refused by the peer: {reason}" in exc.value.reason
    assert room.host.view.free_seats == 2


def test_a_bot_seat_shows_which_human_hosts_it_and_is_ready() -> None:
    room = Room(host(3, bots=1))
    bob = room.guests[room.connect(guest("Bob"))]
    assert bob.view is not None
    seat = bob.view.seats[1]
    assert (seat.name, seat.bot, seat.hosted_by, seat.ready) == ("Bot 0", "random", 0, True)
    assert seat.monster == rules.MONSTERS[0]
    assert "seat 1: Bot 0 [" in "\n".join(bob.view.lines())
    assert "bot random hosted by Alice" in "\n".join(bob.view.lines())


def test_the_host_starts_when_every_seat_is_ready_and_everyone_signs() -> None:
    room = Room(host(3))
    bob, carol = guest("Bob"), guest("Carol")
    b, c = room.connect(bob), room.connect(carol)
    room.host.pick("The King")
    room.on_host(room.host.set_ready())
    with pytest.raises(LobbyError, match=r"seat 1 \(Bob\) is not ready"):
        room.host.start()
    room.on_guest(b, bob.pick("Alienoid"))
    room.on_guest(c, carol.pick("Cyber Kitty"))
    room.pump()
    room.on_guest(b, bob.set_ready())
    room.on_guest(c, carol.set_ready())
    room.pump()
    assert room.host.view.all_ready and room.started() == []
    room.on_host(room.host.start())
    room.pump()
    started = room.started()
    assert len(started) == 3
    genesis = started[0].genesis
    assert all(s.genesis == genesis for s in started) and genesis.bad_signatures() == []
    assert genesis.monsters == ("The King", "Alienoid", "Cyber Kitty")
    assert [s.name for s in genesis.seats] == ["Alice", "Bob", "Carol"]
    assert len({check_words(s.genesis.game_id) for s in started}) == 1
    # where each seat listens, as each side sees it
    assert started[0].addresses == (None, ("127.0.0.2", 9003), ("127.0.0.3", 9005))
    assert started[1].addresses == (("10.0.0.1", 7447), None, ("127.0.0.3", 9005))
    # every seat's chain secret opens a protocol on that genesis: the anchors are the right ones
    for seat, name in enumerate(["Alice", "Bob", "Carol"]):
        PeerProtocol(genesis, seat, ident(name), h("chain", name), RulesEngine())


def test_a_bot_playing_the_hosts_seat_starts_the_game_by_itself() -> None:
    room = Room(host(3, bots=1, host_bot="greedy"))
    assert room.host.view.seats[0].ready
    room.connect(guest("Bob", bot="random"))
    assert len(room.started()) == 2
    genesis = room.started()[0].genesis
    assert len(set(genesis.monsters)) == 3


def test_a_lobby_full_of_the_hosts_bots_starts_as_soon_as_it_opens() -> None:
    lobby = host(2, bots=1, host_bot="random")
    assert lobby.view.all_ready and lobby.phase == "lobby"
    (started,) = [e for e in lobby.opened() if isinstance(e, Started)]
    assert started.genesis.n == 2 and lobby.phase != "lobby"
    assert host(3, bots=1, host_bot="random").opened() == []  # a seat is still free
    assert host(2, bots=1).opened() == []  # the host is a person: it starts the game itself


def test_a_joiner_leaving_while_the_others_sign_aborts_the_start() -> None:
    room = Room(host(3))
    bob, carol = guest("Bob", bot="random"), guest("Carol", bot="random")
    b, c = room.connect(bob), room.connect(carol)
    room.host.pick("The King")
    room.on_host(room.host.set_ready())
    room.on_host(room.host.start())
    # Carol leaves before her signature reaches the host
    room.to_host.clear()
    room.open.discard(c)
    room.on_host(room.host.disconnected(c))
    room.pump()
    assert room.started() == []
    assert room.host.phase == "lobby" and room.host.view.seats[2].is_free
    assert "the game did not start: Carol left before signing" in [
        e.text for e in room.host_seen if isinstance(e, Notice)]
    room.connect(guest("Dave", bot="random"))
    room.on_host(room.host.start())
    room.pump()
    assert [s.name for s in room.started()[0].genesis.seats] == ["Alice", "Bob", "Dave"]
    assert b in room.open


def test_a_joiner_refuses_to_sign_a_genesis_with_its_anchors_changed() -> None:
    room = Room(host(2))
    bob = guest("Bob", bot="random")
    b = room.connect(bob)
    room.host.pick("The King")
    room.on_host(room.host.set_ready())
    room.host.anchors[1] = (h("forged"), h("forged peek"))  # a host that lies
    room.on_host(room.host.start())
    room.pump()
    assert room.started() == []
    assert [e.reason for e in room.seen[b] if isinstance(e, Failed)] == [
        "refusing to sign the game: our chain anchors were changed"]


@pytest.mark.parametrize(
    ("frame", "reason"),
    [(b"\x00\x00\x00\x01\xc1", "garbage instead of a lobby message"),
     (message("pick"), "unknown lobby message 'pick' with 0 fields"),
     (message("ready", b"short", b"x", 1), "expected ['ready', anchor, peek anchor, port]"),
     (message("sign", b"x" * 64), "unknown lobby message 'sign' with 1 fields")],
)
def test_a_malformed_message_drops_that_joiner_only(frame: bytes, reason: str) -> None:
    room = Room(host(3))
    bob, carol = guest("Bob"), guest("Carol")
    b, c = room.connect(bob), room.connect(carol)
    room.on_host(room.host.receive(c, payload(frame)))
    drops = [(e.conn, e.reason) for e in room.host_seen if isinstance(e, Drop)]
    assert len(drops) == 1 and drops[0][0] == c and drops[0][1].startswith(reason)
    assert room.host.view.seats[2].is_free and not room.host.view.seats[1].is_free
    room.pump()
    assert bob.view is not None and bob.view.seats[2].is_free
    assert b in room.open


def test_a_joiner_speaks_only_for_its_own_seat() -> None:
    room = Room(host(3))
    bob, carol = guest("Bob"), guest("Carol")
    b, _ = room.connect(bob), room.connect(carol)
    room.on_guest(b, bob.pick("Meka Dragon"))
    room.pump()
    assert [s.monster for s in room.host.view.seats] == [None, "Meka Dragon", None]
    assert any(isinstance(e, Changed) for e in room.seen[b])


def test_a_full_game_turns_a_late_joiner_away() -> None:
    room = Room(host(2))
    room.connect(guest("Bob"))
    late = guest("Zed")
    z = room.connect(late)
    assert [e.reason for e in room.seen[z] if isinstance(e, Failed)] == [
        "the host closed the lobby: the game is full"]


def test_a_forged_genesis_signature_drops_its_sender_and_aborts_the_start() -> None:
    room = Room(host(3))
    bob, carol = guest("Bob", bot="random"), guest("Carol", bot="random")
    room.connect(bob)
    c = room.connect(carol)
    room.host.pick("The King")
    room.on_host(room.host.set_ready())
    room.on_host(room.host.start())
    genesis = room.host.genesis
    assert genesis is not None
    room.on_host(room.host.receive(c, payload(message("sign", genesis.game_id, b"x" * 64))))
    room.pump()
    assert room.started() == []
    assert ("its signature of the genesis does not check" in
            [e.reason for e in room.host_seen if isinstance(e, Drop) and e.conn == c])
    assert room.host.phase == "lobby" and room.host.view.seats[2].is_free


def test_the_host_closing_the_lobby_sends_every_joiner_away_with_the_reason() -> None:
    room = Room(host(3))
    b = room.connect(guest("Bob"))
    room.on_host(room.host.close())
    room.pump()
    assert [e.reason for e in room.seen[b] if isinstance(e, Failed)] == [
        "the host closed the lobby: the host quit"]
    assert b not in room.open
    with pytest.raises(LobbyError, match="the lobby is closed"):
        room.host.start()


def test_a_joiner_leaving_frees_its_seat_and_its_monster() -> None:
    room = Room(host(3))
    bob = guest("Bob")
    b = room.connect(bob)
    room.on_guest(b, bob.pick("Alienoid"))
    room.pump()
    room.on_guest(b, bob.leave())
    room.pump()
    assert bob.phase == "left"
    assert room.host.view.seats[1].is_free and "Alienoid" not in room.host.view.taken
