"""The lobby screen's keys over the real sans-IO host lobby: pick, ready, start refused with the
lobby's reason, leave; and the games heard on the LAN picked by number."""

from __future__ import annotations

from kotp2p import rules
from kotp2p.net.lobby import LobbyHost, LobbyView
from kotp2p.ui import LobbyController
from kotp2p.ui.full.pages import lobby_page
from kotp2p.ui.full.screen import to_text
from tests.net.test_net_lobby import Room, guest, host


class HostPort:
    """The lobby screen's port over a :class:`LobbyHost` (events are the transport's business)."""

    def __init__(self, lobby: LobbyHost) -> None:
        self.lobby = lobby
        self.left = False

    @property
    def view(self) -> LobbyView:
        return self.lobby.view

    def my_seat(self) -> int | None:
        return 0

    def pick(self, monster: str) -> None:
        self.lobby.pick(monster)

    def set_ready(self, ready: bool) -> None:
        self.lobby.set_ready(ready)

    def start(self) -> None:
        self.lobby.start()

    def leave(self) -> None:
        self.left = True

    def waiting(self) -> list[str]:
        return []

    def turn_away(self, who: str) -> None:
        self.lobby.turn_away(who)

    def set_expansion(self, name: str, on: bool) -> None:
        self.lobby.set_expansion(name, on)


def screen(c: LobbyController) -> str:
    return to_text(lobby_page(c.port.view, me=0, join_code=c.join_code, words=c.words,
                              heard=c.heard, status=c.status, width=80, height=24,
                              monsters=c.monsters_in_turn()))


def test_pick_ready_and_a_refused_start_say_what_happened() -> None:
    port = HostPort(host(seats=2))
    c = LobbyController(port, is_host=True, join_code="tiger")
    c.press("r")
    assert c.status == "Pick a monster first with m, then press r when ready." and c.status_error
    c.press("m")
    first = port.view.seats[0].monster
    assert first is not None and first in screen(c)
    c.press("m")
    assert port.view.seats[0].monster not in (None, first)
    c.press("r")
    assert port.view.seats[0].ready and "ready" in screen(c)
    c.press("s")
    assert c.status == ("Seat 1 is still free: wait for another player to join, then press s "
                        "again.")
    assert "tiger" in screen(c) and "free" in screen(c)
    c.press("q")
    assert port.left and c.exit_requested


def test_a_joiner_cannot_start_and_picks_a_heard_game_by_number() -> None:
    port = HostPort(host(seats=2))
    c = LobbyController(port, is_host=False, heard=["Alice's game at 127.0.0.1:7447 (1 free)"])
    c.press("s")
    assert c.status.startswith("Only the host starts the game: press r when you are ready")
    c.press("7")
    assert c.chosen is None and c.status == ("There is no game 7 in the list: press a number "
                                             "from 1 to 1.")
    c.press("1")
    assert c.chosen == 0 and "Alice's game" in screen(c)


def test_the_lobby_application_takes_keys_and_leaves_on_q() -> None:
    import asyncio

    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from kotp2p.ui.full import build_lobby_app

    port = HostPort(host(seats=2))
    c = LobbyController(port, is_host=True)

    async def main() -> None:
        with create_pipe_input() as pipe:
            app = build_lobby_app(c, input=pipe, output=DummyOutput())
            pipe.send_text("mrq")
            await asyncio.wait_for(app.run_async(), 10)

    asyncio.run(main())
    assert port.view.seats[0].ready and port.left


class RoomHostPort(HostPort):
    """The host's lobby screen in a :class:`Room`: what it does reaches the joiners."""

    def __init__(self, room: Room) -> None:
        super().__init__(room.host)
        self.room = room

    def pick(self, monster: str) -> None:
        self.room.on_host(self.lobby.pick(monster))
        self.room.pump()

    def set_ready(self, ready: bool) -> None:
        self.room.on_host(self.lobby.set_ready(ready))
        self.room.pump()


class GuestPort:
    """A joiner's lobby screen over a :class:`LobbyGuest` in a :class:`Room`."""

    def __init__(self, room: Room, conn: int) -> None:
        self.room, self.conn = room, conn
        self.guest = room.guests[conn]

    @property
    def view(self) -> LobbyView:
        assert self.guest.view is not None
        return self.guest.view

    def my_seat(self) -> int | None:
        return self.guest.seat

    def pick(self, monster: str) -> None:
        self.room.on_guest(self.conn, self.guest.pick(monster))
        self.room.pump()

    def set_ready(self, ready: bool) -> None:
        self.room.on_guest(self.conn, self.guest.set_ready(ready))
        self.room.pump()

    def start(self) -> None:
        raise AssertionError("a joiner does not start")

    def leave(self) -> None:
        pass


def _room_with_bob() -> tuple[Room, GuestPort]:
    """A two-seat lobby that Bob joined, and Bob's port to it."""
    room = Room(host(seats=2))
    return room, GuestPort(room, room.connect(guest("Bob")))


def test_the_host_is_told_when_everyone_is_ready_and_an_old_refusal_goes() -> None:
    room, bob = _room_with_bob()
    alice = LobbyController(RoomHostPort(room), is_host=True)
    joiner = LobbyController(bob, is_host=False)
    for key in "mrs":
        alice.press(key)
    assert alice.status.startswith("Bob (seat 1) is not ready yet") and alice.status_error
    joiner.press("m")  # the lobby changed: the refusal answered what it was
    assert bob.view.seats[1].monster is not None
    assert alice.status == "ready: waiting for the others" and not alice.status_error
    assert "not ready yet" not in screen(alice)
    joiner.press("r")
    assert alice.status == "Everyone is ready: press s to start" and not alice.status_error
    assert "Everyone is ready: press s to start" in screen(alice)
    assert joiner.status == "Everyone is ready: waiting for the host to start the game"
    alice.press("s")
    assert alice.status == "starting: every seat signs the game…"


def test_the_host_readying_last_is_told_everyone_is_ready() -> None:
    room, bob = _room_with_bob()
    joiner = LobbyController(bob, is_host=False)
    joiner.press("m")
    joiner.press("r")
    assert joiner.status == "ready: waiting for the others"
    alice = LobbyController(RoomHostPort(room), is_host=True)
    alice.press("m")
    alice.press("r")
    assert alice.status == "Everyone is ready: press s to start"
    alice.press("r")  # not ready after all
    assert alice.status == "not ready"
    assert joiner.status == "ready: waiting for the others"


def test_the_lobby_shows_which_monster_m_picks_next() -> None:
    room, bob = _room_with_bob()
    joiner = LobbyController(bob, is_host=False)
    joiner.press("m")
    bobs = bob.view.seats[1].monster
    alice = LobbyController(RoomHostPort(room), is_host=True)

    def in_turn() -> list[str]:
        lines = [ln.strip() for ln in screen(alice).splitlines()]
        first = next(i for i, ln in enumerate(lines) if ln.startswith("m picks, in turn: "))
        listed = " ".join(lines[first:lines.index("", first)])
        return listed.removeprefix("m picks, in turn: ").split(", ")

    shown = in_turn()
    assert bobs not in shown and len(shown) == len(rules.MONSTERS) - 1
    for _ in range(3):
        alice.press("m")
        assert room.host.view.seats[0].monster == shown[0]
        assert f"you picked {shown[0]}" in screen(alice)
        shown = in_turn()


def test_h_turns_halloween_on_and_off_for_the_host_only() -> None:
    port = HostPort(host(seats=2))
    c = LobbyController(port, is_host=True)
    c.host_tools = port
    c.press("m")
    c.press("r")
    assert port.view.seats[0].ready
    c.press("h")
    assert port.view.halloween and not port.view.seats[0].ready
    assert "Halloween: on: costumes, and stealing them" in screen(c)
    assert "everyone says ready again" in c.status
    c.press("h")
    assert not port.view.halloween and "Halloween: off" in screen(c)
    joiner = LobbyController(HostPort(host(seats=2)), is_host=False)
    joiner.press("h")
    assert joiner.status == "Only the host turns Halloween on or off." and joiner.status_error


def test_p_turns_power_up_on_and_off_for_the_host_only() -> None:
    port = HostPort(host(seats=2))
    c = LobbyController(port, is_host=True)
    c.host_tools = port
    assert "Power Up!: off" in screen(c) and "p Power Up!" in screen(c)
    c.press("m")
    c.press("r")
    c.press("p")
    assert port.view.power_up and not port.view.halloween and not port.view.seats[0].ready
    assert "Power Up!: on: each monster's Evolution cards, in a hand nobody else sees" in screen(c)
    c.press("h")
    assert port.view.options == [None, ["halloween", "power-up"]]
    c.press("p")
    assert not port.view.power_up and "Power Up!: off" in screen(c)
    joiner = LobbyController(HostPort(host(seats=2)), is_host=False)
    joiner.press("p")
    assert joiner.status == "Only the host turns Power Up! on or off." and joiner.status_error
