"""The host's late answers in the lobby screen: when two players race for one monster, the one
who lost reads why, even after the host also refused their ready."""

from __future__ import annotations

from kotp2p.ui.bridge import NetScreen, UiOptions
from kotp2p.ui.pages import lobby_page
from kotp2p.ui.screen import to_text
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
