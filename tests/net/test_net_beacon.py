"""The beacon datagram and the joiner's list of games, sans-IO."""

from __future__ import annotations

import pytest

from kotp2p.net.lobby import PROTOCOL_VERSION, listing
from kotp2p.net.lobby.beacon import (
    MAGIC,
    MAX_BEACON,
    SIGN_DOMAIN,
    Announcement,
    BeaconBook,
    BeaconError,
    decode_beacon,
)
from kotp2p.net.wire import Identity, codec, fingerprint

ALICE = Identity.from_seed(b"a" * 32, "Alice")
MALLORY = Identity.from_seed(b"m" * 32, "Mallory")
GAME = Announcement("Friday night", "Alice", 7447, 2, 4, PROTOCOL_VERSION, True)


def signed(body: list[object], identity: Identity = ALICE, version: int = 2) -> bytes:
    """A datagram around ``body``, signed as the host would (for bodies the host never sends)."""
    raw = codec.pack(body)  # type: ignore[arg-type]
    return MAGIC + codec.pack([version, identity.public_key,
                               identity.sign(SIGN_DOMAIN + raw), raw])


def test_a_beacon_round_trips_with_its_host_key_and_takes_the_address_from_the_datagram() -> None:
    data = GAME.encode(ALICE)
    assert len(data) <= MAX_BEACON
    got = decode_beacon(data, "192.168.1.20")
    assert got == Announcement("Friday night", "Alice", 7447, 2, 4, PROTOCOL_VERSION, True,
                               "192.168.1.20", ALICE.public_key)
    assert got.fingerprint == ALICE.fingerprint
    assert got.describe() == ("Friday night hosted by Alice at 192.168.1.20:7447: 2 of 4 seats "
                              f"free, join code needed; host key {ALICE.fingerprint}")


def test_the_longest_names_still_fit_in_a_datagram() -> None:
    wide = Announcement("\U0001f996" * 40, "\U0001f996" * 32, 65535, 6, 6, 65535, True)
    assert len(wide.encode(ALICE)) <= MAX_BEACON


def test_another_protocol_version_is_listed_but_marked() -> None:
    old = Announcement("Old", "Bob", 7447, 1, 2, PROTOCOL_VERSION + 1)
    got = decode_beacon(old.encode(ALICE), "10.0.0.2")
    assert not got.compatible and "(not ours)" in got.describe()


OLD_UNSIGNED = MAGIC + codec.pack([1, 1, "Friday night", "Alice", 7447, 2, 4, False])


def _forged() -> bytes:
    """Alice's beacon with its port changed after signing."""
    good = codec.unpack(GAME.encode(ALICE)[len(MAGIC):])
    assert isinstance(good, list) and isinstance(good[3], bytes)
    body = codec.unpack(good[3])
    assert isinstance(body, list)
    body[3] = 6666
    return MAGIC + codec.pack([2, good[1], good[2], codec.pack(body)])


def _key_swapped() -> bytes:
    """Alice's signed beacon presented under Mallory's key."""
    good = codec.unpack(GAME.encode(ALICE)[len(MAGIC):])
    assert isinstance(good, list)
    return MAGIC + codec.pack([2, MALLORY.public_key, good[2], good[3]])


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"x" * (MAX_BEACON + 1), "a datagram of 513 bytes"),
        (b"hello world", "wrong magic"),
        (MAGIC + b"\xc1", "a malformed beacon"),
        (OLD_UNSIGNED, "a beacon of version 1, expected version 2"),
        (MAGIC + codec.pack(["x", 1]), "a beacon of no version"),
        (MAGIC + codec.pack([2, b"k" * 32, b"s" * 64]), "host key, signature, body"),
        (MAGIC + codec.pack([2, b"k" * 31, b"s" * 64, b""]), "the host key is 32 bytes"),
        (MAGIC + codec.pack([2, b"k" * 32, b"s" * 63, b""]), "the signature is 64 bytes"),
        (_forged(), "the signature does not check"),
        (_key_swapped(), "the signature does not check"),
        (signed([1, "g", "h", 7447, 1, 2]), "7 fields"),
        (signed([1, "g\x1b[2J", "h", 7447, 1, 2, False]), "printable"),
        (signed([1, "g", "h", 0, 1, 2, False]), "port"),
        (signed([1, "g", "h", 7447, 5, 4, False]), "free seats"),
        (signed([1, "g", "h", 7447, 1, 9, False]), "2 to 6 seats"),
        (signed([1, "g", "h", 7447, 1, 2, 1]), "true or false"),
    ],
)
def test_garbage_unsigned_and_forged_beacons_are_refused_with_a_reason(data: bytes,
                                                                        reason: str) -> None:
    with pytest.raises(BeaconError, match=reason.replace("[", r"\[")):
        decode_beacon(data, "10.0.0.9")


def test_the_book_ignores_unsigned_and_forged_beacons_and_counts_them() -> None:
    book = BeaconBook()
    for data in (OLD_UNSIGNED, _forged(), _key_swapped(), b"\xff" * 100):
        assert book.hear(data, "10.0.0.66", now=0) is None
    assert book.games(now=0) == [] and book.rejected == 4
    assert book.summary() == ("ignored 4 datagrams that were not beacons a game could list "
                              "(2 with a bad signature, 1 of another beacon version, 1 malformed)")


def test_the_book_keeps_one_entry_per_host_and_port_and_forgets_old_ones() -> None:
    book = BeaconBook(ttl=5)
    book.hear(GAME.encode(ALICE), "10.0.0.1", now=0)
    fuller = Announcement("Friday night", "Alice", 7447, 1, 4, PROTOCOL_VERSION, True)
    book.hear(fuller.encode(ALICE), "10.0.0.1", now=1)
    book.hear(Announcement("Other", "Bob", 7447, 3, 4).encode(MALLORY), "10.0.0.2", now=2)
    assert [(g.address, g.free_seats) for g in book.games(now=3)] == [("10.0.0.1", 1), ("10.0.0.2", 3)]
    assert [g.address for g in book.games(now=6.5)] == ["10.0.0.2"]
    assert book.games(now=100) == []


def test_a_look_alike_is_marked_and_shows_another_host_key() -> None:
    """Failure 5: a stranger announces the real game's exact name and host name, at its own port.
    Both are listed with their host keys and marked, so nobody takes the stranger for the host."""
    book = BeaconBook()
    book.hear(Announcement("Alice's game", "Alice", 7447, 1, 2).encode(ALICE), "10.0.0.5", now=0)
    look_alike = Announcement("alice's  GAME", "Alice", 7447, 1, 2).encode(MALLORY)
    book.hear(look_alike, "10.0.0.1", now=0.1)  # listed first, as on main
    book.hear(Announcement("Bob's game", "Bob", 7447, 1, 2).encode(Identity.generate()),
              "10.0.0.7", now=0.2)
    stranger, real, other = listing(book.games(now=1))
    assert (stranger.game.address, real.game.address) == ("10.0.0.1", "10.0.0.5")
    assert stranger.ambiguous and real.ambiguous and not other.ambiguous
    assert stranger.describe().startswith("!! alice's  GAME hosted by Alice at 10.0.0.1:7447")
    assert f"host key {MALLORY.fingerprint} !! another host key announces this name" in \
        stranger.describe()
    assert f"host key {ALICE.fingerprint} !!" in real.describe()
    assert MALLORY.fingerprint != ALICE.fingerprint
    assert not other.describe().startswith("!!")


def test_one_host_key_heard_from_two_addresses_is_marked() -> None:
    """A replay of the real beacon from a stranger's address carries the real key: both entries
    say where else that key is heard."""
    data = GAME.encode(ALICE)
    book = BeaconBook()
    book.hear(data, "10.0.0.5", now=0)
    book.hear(data, "10.0.0.66", now=0)
    real, replay = listing(book.games(now=0))
    assert real.also_from == ("10.0.0.66",) and replay.also_from == ("10.0.0.5",)
    assert real.ambiguous and replay.ambiguous
    assert "this host key is also announced from 10.0.0.5" in replay.describe()
    assert real.game.fingerprint == replay.game.fingerprint == fingerprint(ALICE.public_key)


def _flood(book: BeaconBook, addresses: list[str], now: float) -> None:
    for i, address in enumerate(addresses):
        fake = Announcement("Alice's game", "Alice", 2000 + i, 1, 2)
        book.hear(fake.encode(FAKE_KEYS[i]), address, now)


FAKE_KEYS = [Identity.from_seed(i.to_bytes(32, "big"), "Mallory") for i in range(200)]
REAL = Announcement("Alice's game", "Alice", 7447, 1, 2)


@pytest.mark.parametrize("sources", ["one address", "200 addresses"])
def test_200_fake_games_do_not_push_out_the_real_game_heard_before_them(sources: str) -> None:
    """Failure 6: 200 fake games, each beacon sent every second like the real one's, from one
    address or from 200."""
    book = BeaconBook()
    real = REAL.encode(ALICE)
    addresses = (["10.0.0.66"] * 200 if sources == "one address"
                 else [f"10.0.1.{i}" for i in range(200)])
    for second in range(20):
        book.hear(real, "10.0.0.5", now=second)
        _flood(book, addresses, now=second + 0.5)
        games = book.games(now=second + 0.9)
        assert len(games) <= book.size
        assert ("10.0.0.5", 7447) in [(g.address, g.port) for g in games], second
    assert book.rejected >= 200
    assert max(sum(1 for g in games if g.address == a) for a in set(addresses)) <= 4


def test_a_real_game_heard_after_a_flood_from_a_few_addresses_still_gets_in() -> None:
    """The flood fills the list first, from 8 addresses. The real game's address lists nothing
    yet, so it takes the place of a game from an address that lists 4."""
    book = BeaconBook()
    _flood(book, [f"10.0.1.{i % 8}" for i in range(200)], now=0)
    assert len(book.games(now=0)) == book.size
    book.hear(REAL.encode(ALICE), "10.0.0.5", now=0.5)
    assert ("10.0.0.5", 7447) in [(g.address, g.port) for g in book.games(now=1)]


def test_a_game_no_longer_heard_makes_room_for_a_newcomer() -> None:
    book = BeaconBook(size=2, fresh=3)
    book.hear(REAL.encode(ALICE), "10.0.0.5", now=0)
    book.hear(GAME.encode(MALLORY), "10.0.0.6", now=0)
    bob = Announcement("Bob's game", "Bob", 7447, 1, 2).encode(Identity.generate())
    assert book.hear(bob, "10.0.0.7", now=1) is None  # both still refresh: no room
    book.hear(GAME.encode(MALLORY), "10.0.0.6", now=3.5)
    assert book.hear(bob, "10.0.0.7", now=4) is not None  # Alice's went quiet: Bob takes it
    assert [g.address for g in book.games(now=4)] == ["10.0.0.6", "10.0.0.7"]


def test_two_host_keys_from_one_address_and_port_mark_the_game() -> None:
    """A stranger that forges the host's source address sends its own signed beacon for the
    host's port: the game stays listed, marked until only one key was heard for the ttl."""
    book = BeaconBook(ttl=5)
    book.hear(REAL.encode(ALICE), "10.0.0.5", now=0)
    book.hear(REAL.encode(MALLORY), "10.0.0.5", now=0.5)
    book.hear(REAL.encode(ALICE), "10.0.0.5", now=1)
    (game,) = listing(book.games(now=1), book.contested(now=1))
    assert game.ambiguous and game.game.host_key == ALICE.public_key
    assert "another host key was heard from this address and port" in game.describe()
    for second in range(2, 8):  # only Alice's beacon from now on
        book.hear(REAL.encode(ALICE), "10.0.0.5", now=second)
    (later,) = listing(book.games(now=7), book.contested(now=7))
    assert not later.ambiguous
