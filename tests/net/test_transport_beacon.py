"""The UDP beacon on loopback only: a host announces to 127.0.0.1 (floods come from 127.x), a
joiner hears it, and dials the game it picks asking for the key its beacon carries."""

from __future__ import annotations

import argparse
import io
import socket
from functools import partial

import pytest
import trio

from kotp2p import rules
from kotp2p.app import CommandError, netgame
from kotp2p.app.netview import Lines, PlainNet
from kotp2p.net.lobby import Announcement, BeaconBook, LobbyGuest, LobbyHost
from kotp2p.net.transport import GuestLobby, HostLobby, LobbyFailed, announce, listen
from kotp2p.net.wire import Identity, Why
from kotp2p.ui.refusals import plain_refusal
from tests.net.lobby_kit import anchors_for, h

pytestmark = pytest.mark.waits

ALICE = Identity.from_seed(b"a" * 32, "Alice")
BOB = Identity.from_seed(b"b" * 32, "Bob")
CY = Identity.from_seed(b"c" * 32, "Cy")
MALLORY = Identity.from_seed(b"m" * 32, "Mallory")


async def test_a_joiner_hears_the_games_announced_on_loopback() -> None:
    free = [2]
    book = BeaconBook()
    heard: list[list[Announcement]] = []

    async def joiner(task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        heard.append(await listen(book, 0, "127.0.0.1", 1.5, task_status=task_status))

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(joiner)
            await nursery.start(partial(
                announce, lambda: Announcement("Friday", "Alice", 7447, free[0], 4).encode(ALICE),
                ("127.0.0.1", port), 0.2))
            await nursery.start(partial(
                announce, lambda: b"not a beacon", ("127.0.0.1", port), 0.2))
            await trio.sleep(0.5)
            free[0] = 1  # somebody joined: later beacons say so
            while not heard:
                await trio.sleep(0.1)
            nursery.cancel_scope.cancel()
    (games,) = heard
    assert [(g.game_name, g.host_name, g.address, g.port, g.free_seats) for g in games] == [
        ("Friday", "Alice", "127.0.0.1", 7447, 1)]
    assert book.rejected > 0


def _free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def _pick(monkeypatch: pytest.MonkeyPatch, typed: str | None, games: list[Announcement],
                keys: list[Identity] | None = None) -> tuple[tuple[str, int] | Exception, str]:
    """What the plain ``kotp2p join`` (no address) does with ``games`` announced on loopback,
    signed by ``keys`` (ALICE, BOB, ... by default), and ``typed`` on its input (None: nobody
    types, as with ``join --bot``): the address it joins (or the error), and what it printed."""
    keys = keys or [ALICE, BOB, CY][:len(games)]
    monkeypatch.setattr(netgame, "DISCOVER_SECONDS", 0.6)
    listen_on = f"127.0.0.1:{_free_udp_port()}"
    out = io.StringIO()
    result: list[tuple[str, int] | Exception] = []

    async def join() -> None:
        try:
            lines = None if typed is None else Lines(io.StringIO(typed))
            game = await netgame._discover(argparse.Namespace(discover=listen_on),
                                           PlainNet(out, lines))
            result.append((game.address, game.port))
        except CommandError as exc:
            result.append(exc)

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            for g, key in zip(games, keys, strict=True):
                await nursery.start(partial(announce, partial(g.encode, key),
                                            ("127.0.0.1", int(listen_on.split(":")[1])), 0.2))
            await join()
            nursery.cancel_scope.cancel()
    return result[0], out.getvalue()


async def test_the_plain_join_lists_the_games_heard_and_joins_the_number_typed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    games = [Announcement("Friday", "Alice", 7447, 2, 4), Announcement("Late", "Bob", 7448, 1, 3,
                                                                       needs_code=True)]
    joined, printed = await _pick(monkeypatch, "2\n", games)
    assert ("  1. Friday hosted by Alice at 127.0.0.1:7447: 2 of 4 seats free; host key "
            f"{ALICE.fingerprint}") in printed
    assert ("  2. Late hosted by Bob at 127.0.0.1:7448: 1 of 3 seats free, join code needed; "
            f"host key {BOB.fingerprint}") in printed
    assert "which game? (number)" in printed
    assert joined == ("127.0.0.1", 7448)
    refused, _ = await _pick(monkeypatch, "3\n", games)
    assert isinstance(refused, CommandError) and str(refused) == "expected a number from 1 to 2"
    full = [Announcement("Full", "Cy", 7449, 0, 2)]  # no free seat: not offered
    nothing, _ = await _pick(monkeypatch, "1\n", full)
    assert isinstance(nothing, CommandError) and nothing.refusal is not None
    assert "no game announced nearby; give the host's address" in str(nothing)


async def test_join_bot_never_picks_a_game_whose_name_is_announced_twice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Failure 5, as ``join --bot`` meets it: a look-alike announces the real game's exact name
    and host name at a stranger's port. Both are marked with their host keys, and the pick made
    without the user takes neither."""
    real = Announcement("Alice's game", "Alice", 7448, 1, 2)
    look_alike = Announcement("Alice's game", "Alice", 7447, 1, 2)  # listed first
    refused, printed = await _pick(monkeypatch, None, [real, look_alike], [ALICE, MALLORY])
    assert isinstance(refused, CommandError)
    assert "every game heard has a name or host key that is announced twice" in str(refused)
    assert "kotp2p join HOST[:PORT]" in str(refused)
    assert (f"  1. !! Alice's game hosted by Alice at 127.0.0.1:7447: 1 of 2 seats free; host key "
            f"{MALLORY.fingerprint} !! another host key announces this name") in printed
    assert "  2. !! Alice's game hosted by Alice at 127.0.0.1:7448" in printed
    assert f"host key {ALICE.fingerprint} !!" in printed
    bob = Announcement("Bob's game", "Bob", 7449, 1, 2)
    joined, printed = await _pick(monkeypatch, None, [real, look_alike, bob],
                                  [ALICE, MALLORY, BOB])
    assert joined == ("127.0.0.1", 7449)
    assert "not picking games 1, 2: their names or host keys are announced twice" in printed


def _flood_from(sources: list[str], target: tuple[str, int]) -> None:
    """200 fake games, each signed by its own key, sent once from the 127.x ``sources``."""
    socks: dict[str, socket.socket] = {}
    try:
        for i in range(200):
            src = sources[i % len(sources)]
            if src not in socks:
                socks[src] = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                socks[src].bind((src, 0))
            fake = Announcement("Alice's game", "Alice", 2000 + i, 1, 2)
            socks[src].sendto(fake.encode(FAKES[i]), target)
    finally:
        for s in socks.values():
            s.close()


FAKES = [Identity.from_seed(i.to_bytes(32, "big"), "Mallory") for i in range(200)]


@pytest.mark.parametrize("sources", [["127.0.0.1"], [f"127.0.1.{i}" for i in range(1, 201)]])
async def test_200_fake_games_over_udp_do_not_push_out_the_real_game(sources: list[str]) -> None:
    """Failure 6 on loopback: the real game is announced every 0.2 s; after its first beacon,
    200 fake games arrive from one address, or from 200."""
    book = BeaconBook()
    heard: list[list[Announcement]] = []

    async def joiner(task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        heard.append(await listen(book, 0, "127.0.0.1", 1.5, task_status=task_status))

    real = Announcement("Alice's game", "Alice", 7447, 1, 2)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(joiner)
            await nursery.start(partial(announce, partial(real.encode, ALICE),
                                        ("127.0.0.1", port), 0.2))
            await trio.sleep(0.3)
            await trio.to_thread.run_sync(_flood_from, sources, ("127.0.0.1", port))
            while not heard:
                await trio.sleep(0.1)
            nursery.cancel_scope.cancel()
    (games,) = heard
    assert len(games) <= 32 and book.rejected >= 168
    assert [g for g in games if g.host_key == ALICE.public_key] != []


async def test_a_game_picked_from_the_list_is_dialled_for_its_host_key() -> None:
    """A stranger replays Alice's signed beacon from its own address, where its own kotp2p host
    listens. The joiner asks for Alice's key there: the handshake fails, and the joiner is told
    that this address does not hold the key of the game it picked."""
    stranger = LobbyHost(MALLORY, game_name="Alice's game", seats=2, engine_id=rules.ENGINE_ID,
                         monsters=rules.MONSTERS, port=7000, nonce=h("n"),
                         local_anchors=[anchors_for("Mallory")(0)])
    picked = Announcement("Alice's game", "Alice", 7447, 1, 2, address="127.0.0.1",
                          host_key=ALICE.public_key)

    def guest() -> GuestLobby:
        return GuestLobby(LobbyGuest(BOB, engine_id=rules.ENGINE_ID, monsters=rules.MONSTERS,
                                     anchors=anchors_for("Bob"), port=7001,
                                     host_address="127.0.0.1"), lambda ev: None)

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(partial(HostLobby(stranger, lambda ev: None).serve, 0,
                                               "127.0.0.1"))
            with pytest.raises(LobbyFailed) as failed:
                await guest().run(("127.0.0.1", port), ALICE.public_key)
            assert stranger.view.free_seats == 1  # the joiner never sat in the stranger's game
            # without the pin, as on main, the joiner sits down in the stranger's lobby
            unpinned = guest()
            nursery.start_soon(unpinned.run, ("127.0.0.1", port))
            while stranger.view.free_seats:
                await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
    said = netgame._not_that_host(failed.value.refusal, picked, f"127.0.0.1:{port}")
    assert said.why is Why.NOT_THAT_HOST
    text = plain_refusal(said)
    assert text.startswith(f"The program at 127.0.0.1:{port} does not hold the host key "
                           f"{ALICE.fingerprint}, so it is not the host of the game you picked")
    assert "kotp2p join HOST:PORT" in text
