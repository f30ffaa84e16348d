"""The host's late answers in the lobby screen: when two players race for one monster, the one
who lost reads why, even after the host also refused their ready."""

from __future__ import annotations

from kotp2p.app.fullscreen import NetScreen, UiOptions
from kotp2p.net.lobby import LobbyView
from kotp2p.net.lobby.lobby_messages import Notice
from kotp2p.ui import LobbyController
from kotp2p.ui.full.pages import lobby_page
from kotp2p.ui.full.screen import to_text
from tests.net.test_net_lobby import Room, guest, host


def test_a_lost_pick_stays_explained_when_the_ready_that_followed_is_refused_too() -> None:
    room = Room(host(3))
    bob, carol = guest("Bob"), guest("Carol")
    b, c = room.connect(bob), room.connect(carol)
    room.on_guest(b, bob.pick("The King"))
    room.on_guest(c, carol.pick("The King"))  # Carol pressed m, then r, before any answer
    room.on_guest(c, carol.set_ready(True))
    room.pump()
    screen = NetScreen(UiOptions())
    for event in room.seen[c]:
        screen.lobby_event(event)
    lobby = screen.lobby
    page = " ".join(to_text(lobby_page(room.host.view, me=2, join_code=None, words=(),
                                       heard=(), status=lobby.status, width=80, height=24,
                                       notes=tuple(lobby.notes),
                                       status_error=lobby.status_error)).split())
    assert lobby.status == "Pick a monster first with m, then press r when ready."
    assert ("The host says: The King is taken by Bob. Press m again for another monster."
            in page)
    assert "Pick a monster first with m, then press r when ready." in page
    lobby.press("x")  # a key came since: the refusal on screen was read, it is not kept
    lobby.refused("the lobby is not open yet")
    assert "Pick a monster first with m, then press r when ready." not in lobby.notes


class GuestPort:
    """The lobby screen's port over a joiner in a :class:`Room`: picks go out when pumped."""

    def __init__(self, room: Room, conn: int) -> None:
        self.room, self.conn = room, conn

    @property
    def view(self) -> LobbyView:
        view = self.room.guests[self.conn].view
        assert view is not None
        return view

    def my_seat(self) -> int | None:
        return self.room.guests[self.conn].seat

    def pick(self, monster: str) -> None:
        self.room.on_guest(self.conn, self.room.guests[self.conn].pick(monster))

    def set_ready(self, ready: bool) -> None:
        self.room.on_guest(self.conn, self.room.guests[self.conn].set_ready(ready))

    def start(self) -> None:
        raise AssertionError("a joiner does not start")

    def leave(self) -> None:
        pass


def shown(c: LobbyController) -> str:
    return " ".join(to_text(lobby_page(c.port.view, me=c.port.my_seat(), join_code=None,
                                       words=(), heard=(), status=c.status, width=80,
                                       height=24)).split())


def test_a_pick_reads_as_asked_until_the_host_seats_it_and_a_lost_race_never_reads_picked(
) -> None:
    room = Room(host(3))
    bob, carol = guest("Bob"), guest("Carol")
    b, c = room.connect(bob), room.connect(carol)
    lobby = LobbyController(GuestPort(room, c), is_host=False)
    first = lobby.free_monsters()[0]
    room.on_guest(b, bob.pick(first))  # Bob asks first; the host has not answered yet
    lobby.press("m")  # Carol asks for the same monster before she hears of Bob's
    assert f"asking the host for {first}…" in shown(lobby)
    assert "you picked" not in shown(lobby)
    room.pump()  # the host gives it to Bob and refuses Carol
    assert "you picked" not in shown(lobby)
    for event in room.seen[c]:
        if isinstance(event, Notice) and event.refusal is not None:
            lobby.refused(event.refusal)
    assert "is taken by Bob" in shown(lobby) and "you picked" not in shown(lobby)
    free = lobby.free_monsters()
    lobby.press("m")
    second = free[1]  # m moves on to the next monster still free
    assert second != first and f"asking the host for {second}…" in shown(lobby)
    room.pump()
    assert f"you picked {second} (m again for another)" in shown(lobby)
