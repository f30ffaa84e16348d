"""The full screen shows host keys: in the list of games heard, with look-alikes marked, and on
the lobby screen, where the host reads the key its beacon carries."""

from __future__ import annotations

from kotp2p.net.lobby import Announcement, BeaconBook, LobbyView, listing
from kotp2p.net.wire import Identity
from kotp2p.ui.full.pages import lobby_page
from kotp2p.ui.full.screen import to_text
from tests.net.lobby_kit import ident
from tests.net.test_net_lobby import Room, guest, host

ALICE = ident("Alice")
MALLORY = Identity.from_seed(b"m" * 32, "Mallory")


def test_the_host_and_a_joiner_see_the_host_key_on_the_lobby_screen() -> None:
    room = Room(host(seats=2))
    bob = guest("Bob")
    room.connect(bob)
    assert bob.view is not None
    for view, me in ((room.host.view, 0), (bob.view, 1)):
        page = to_text(lobby_page(view, me=me, join_code=None, words=(), heard=(), status="",
                                  width=80, height=24))
        assert f"host key {ALICE.fingerprint}: the list of games shows it too" in page


def test_a_look_alike_in_the_list_of_games_is_marked_and_shows_its_own_host_key() -> None:
    book = BeaconBook()
    book.hear(Announcement("Alice's game", "Alice", 7447, 1, 2).encode(ALICE), "10.0.0.5", 0)
    book.hear(Announcement("Alice's game", "Alice", 7447, 1, 2).encode(MALLORY), "10.0.0.1", 0)
    book.hear(Announcement("Bob's game", "Bob", 7447, 1, 2).encode(ident("Bob")), "10.0.0.7", 0)
    heard = [g.describe() for g in listing(book.games(0))]
    lines = lobby_page(LobbyView("", ()), me=None, join_code=None, words=(), heard=heard,
                       status="", width=80, height=30, selected=2)
    page = " ".join(to_text(lines).split())  # a long line wraps under its number
    assert ("1 !! Alice's game hosted by Alice at 10.0.0.1:7447: 1 of 2 seats free; host key "
            f"{MALLORY.fingerprint} !! another host key announces this name") in page
    assert ("2 !! Alice's game hosted by Alice at 10.0.0.5:7447: 1 of 2 seats free; host key "
            f"{ALICE.fingerprint} !!") in page
    assert "3 Bob's game hosted by Bob" in page
    styles = {text.strip()[:12]: style for line in lines for style, text, *_ in line}
    assert styles["!! Alice's g"] == "class:log.warn" and styles["Bob's game h"] == "class:you"
