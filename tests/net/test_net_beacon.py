"""The beacon datagram and the joiner's list of games, sans-IO."""

from __future__ import annotations

import pytest

from kotp2p.net.lobby import PROTOCOL_VERSION
from kotp2p.net.lobby.beacon import (
    MAGIC,
    MAX_BEACON,
    Announcement,
    BeaconBook,
    BeaconError,
    decode_beacon,
)
from kotp2p.net.wire import codec

GAME = Announcement("Friday night", "Alice", 7447, 2, 4, PROTOCOL_VERSION, True)


def test_a_beacon_round_trips_and_takes_the_address_from_the_datagram() -> None:
    got = decode_beacon(GAME.encode(), "192.168.1.20")
    assert got == Announcement("Friday night", "Alice", 7447, 2, 4, PROTOCOL_VERSION, True,
                               "192.168.1.20")
    assert got.describe() == ("Friday night hosted by Alice at 192.168.1.20:7447: 2 of 4 seats "
                              "free, join code needed")


def test_another_protocol_version_is_listed_but_marked() -> None:
    old = Announcement("Old", "Bob", 7447, 1, 2, PROTOCOL_VERSION + 1)
    got = decode_beacon(old.encode(), "10.0.0.2")
    assert not got.compatible and "(not ours)" in got.describe()


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"x" * (MAX_BEACON + 1), "a datagram of 513 bytes"),
        (b"hello world", "wrong magic"),
        (MAGIC + b"\xc1", "a malformed beacon"),
        (MAGIC + codec.pack([1, 1, "g", "h", 7447, 1, 2]), "8 fields"),
        (MAGIC + codec.pack([1, 1, "g\x1b[2J", "h", 7447, 1, 2, False]), "printable"),
        (MAGIC + codec.pack([1, 1, "g", "h", 0, 1, 2, False]), "port"),
        (MAGIC + codec.pack([1, 1, "g", "h", 7447, 5, 4, False]), "free seats"),
        (MAGIC + codec.pack([1, 1, "g", "h", 7447, 1, 9, False]), "2 to 6 seats"),
        (MAGIC + codec.pack([1, 1, "g", "h", 7447, 1, 2, 1]), "true or false"),
    ],
)
def test_garbage_is_refused_with_a_reason(data: bytes, reason: str) -> None:
    with pytest.raises(BeaconError, match=reason.replace("[", r"\[")):
        decode_beacon(data, "10.0.0.9")


def test_the_book_keeps_one_entry_per_host_and_port_and_forgets_old_ones() -> None:
    book = BeaconBook(ttl=5)
    book.hear(GAME.encode(), "10.0.0.1", now=0)
    fuller = Announcement("Friday night", "Alice", 7447, 1, 4, PROTOCOL_VERSION, True)
    book.hear(fuller.encode(), "10.0.0.1", now=1)
    book.hear(Announcement("Other", "Bob", 7447, 3, 4).encode(), "10.0.0.2", now=2)
    assert [(g.address, g.free_seats) for g in book.games(now=3)] == [("10.0.0.1", 1), ("10.0.0.2", 3)]
    assert [g.address for g in book.games(now=6.5)] == ["10.0.0.2"]
    assert book.games(now=100) == []


def test_a_flood_of_beacons_and_garbage_stays_bounded() -> None:
    book = BeaconBook(size=8)
    for i in range(1000):
        book.hear(Announcement("Spam", "Mallory", 1000 + i, 1, 2).encode(), "10.0.0.66", now=i)
        book.hear(b"\xff" * 100, "10.0.0.66", now=i)
    games = book.games(now=1000)
    assert len(games) == 8 and book.rejected == 1000
    assert sorted(g.port for g in games) == list(range(1992, 2000))
