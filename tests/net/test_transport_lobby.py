"""The lobby over TCP on 127.0.0.1, then the game's mesh built from what it decided."""

from __future__ import annotations

from functools import partial

import pytest
import trio

from kotp2p import rules
from kotp2p.net.lobby import Changed, LobbyGuest, LobbyHost, Notice, Started
from kotp2p.net.transport import (
    GuestLobby,
    HostLobby,
    LobbyFailed,
    Mesh,
    MeshPort,
    serve_tcp,
)
from kotp2p.net.trust import check_words
from kotp2p.net.wire import Why, codec
from tests.net.lobby_kit import anchors_for, h, ident

ENGINE = rules.ENGINE_ID
LOOPBACK = "127.0.0.1"


async def test_a_host_with_a_bot_and_a_joining_bot_start_and_link_up_over_tcp() -> None:
    """``host --bot random --seats 3 --bots 1`` and ``join --bot random``, without the session:
    the lobby runs over TCP, every seat signs, and the mesh the lobby describes comes up."""
    alice, helper, bob = ident("Alice"), ident("Helper"), ident("Bob")
    host_events: list[object] = []
    guest_events: list[object] = []
    got: dict[str, list[tuple[int, int, bytes]]] = {"host": [], "guest": []}
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            host_port, guest_port = MeshPort(), MeshPort()
            host_mesh_port = await nursery.start(partial(serve_tcp, host_port.handler, 0, LOOPBACK))
            guest_mesh_port = await nursery.start(partial(serve_tcp, guest_port.handler, 0,
                                                          LOOPBACK))
            lobby = LobbyHost(alice, game_name="Test", seats=3, engine_id=ENGINE,
                              monsters=rules.MONSTERS, port=host_mesh_port, nonce=h("n"),
                              local_anchors=[anchors_for("Alice")(0), anchors_for("Helper")(1)],
                              bots=[helper], host_bot="random")
            host = HostLobby(lobby, host_events.append, join_code="tiger")
            results: dict[str, Started] = {}

            async def run_host(task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
                results["host"] = await host.serve(0, LOOPBACK, task_status=task_status)

            lobby_port = await nursery.start(run_host)
            guest = GuestLobby(
                LobbyGuest(bob, engine_id=ENGINE, monsters=rules.MONSTERS,
                           anchors=anchors_for("Bob"), port=guest_mesh_port,
                           host_address=LOOPBACK, bot="random"),
                guest_events.append, join_code="tiger")
            results["guest"] = await guest.run((LOOPBACK, lobby_port))
            while "host" not in results:
                await trio.sleep(0.01)
            g = results["host"].genesis
            assert results["guest"].genesis == g and not g.bad_signatures()
            assert results["guest"].addresses == ((LOOPBACK, host_mesh_port),
                                                  (LOOPBACK, host_mesh_port), None)
            assert results["host"].addresses[:2] == (None, None)
            # the game's mesh, from what the lobby decided
            meshes = {
                "host": Mesh(g, {0: alice, 1: helper}, {2: results["host"].addresses[2]},  # type: ignore[dict-item]
                             lambda *a: got["host"].append(a), engine_id=ENGINE),
                "guest": Mesh(g, {2: bob}, {0: (LOOPBACK, host_mesh_port),
                                            1: (LOOPBACK, host_mesh_port)},
                              lambda *a: got["guest"].append(a), engine_id=ENGINE),
            }
            host_port.attach(meshes["host"])
            guest_port.attach(meshes["guest"])
            for m in meshes.values():
                await nursery.start(m.run)
            # each side registers a link when its own end of the handshake is done: wait for both
            while not (meshes["host"].is_up(0, 2) and meshes["host"].is_up(1, 2)
                       and meshes["guest"].is_up(2, 0) and meshes["guest"].is_up(2, 1)):
                await trio.sleep(0.01)
            frame = codec.pack(["hello", "seat 2"])
            assert meshes["host"].send(1, 2, codec.frame(frame))
            assert meshes["guest"].send(2, 0, codec.frame(frame))
            while len(got["host"]) + len(got["guest"]) < 2:
                await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
    assert got == {"host": [(0, 2, frame)], "guest": [(2, 1, frame)]}
    assert [s.name for s in g.seats] == ["Alice", "Helper", "Bob"]
    assert len(set(g.monsters)) == 3
    changed = [e.view for e in guest_events if isinstance(e, Changed)]
    assert changed and "bot random hosted by Alice" in "\n".join(changed[0].lines())
    assert any(isinstance(e, Notice) and "Bob" in e.text for e in host_events)
    assert check_words(g.game_id)


async def test_a_wrong_join_code_is_refused_over_tcp(caplog: pytest.LogCaptureFixture) -> None:
    """The joiner cannot tell a wrong code from a host with another code; the host knows it is
    the joiner's code that is wrong, and says so."""
    alice = ident("Alice")
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            lobby = LobbyHost(alice, game_name="Test", seats=2, engine_id=ENGINE,
                              monsters=rules.MONSTERS, port=9, nonce=h("n"),
                              local_anchors=[anchors_for("Alice")(0)])
            host = HostLobby(lobby, lambda e: None, join_code="tiger")
            port = await nursery.start(host.serve, 0, LOOPBACK)
            guest = GuestLobby(
                LobbyGuest(ident("Mallory"), engine_id=ENGINE, monsters=rules.MONSTERS,
                           anchors=anchors_for("Mallory"), port=9, host_address=LOOPBACK),
                lambda e: None, join_code="lion")
            with pytest.raises(LobbyFailed, match="does not know the join code") as failed:
                await guest.run((LOOPBACK, port))
            assert failed.value.refusal.why is Why.HOST_LACKS_JOIN_CODE
            assert lobby.view.free_seats == 1
            while not any(getattr(r, "refusal", None) is not None for r in caplog.records):
                await trio.sleep(0.01)
            (turned,) = [r.refusal for r in caplog.records  # type: ignore[attr-defined]
                         if getattr(r, "refusal", None) is not None]
            assert turned.why is Why.TURNED_AWAY and turned.cause.why is Why.WRONG_JOIN_CODE
            nursery.cancel_scope.cancel()


async def test_five_joiners_from_one_address_at_once_all_get_a_seat() -> None:
    """Five ``join`` commands started together on one machine. The host takes at most 4 pending
    handshakes from one address and turns the fifth away without a word; that joiner dials
    again a little later and is seated too, and the game starts with all six."""
    names = ["Host", "Ann", "Ben", "Cat", "Dan", "Eve"]
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            lobby = LobbyHost(ident("Host"), game_name="Test", seats=6, engine_id=ENGINE,
                              monsters=rules.MONSTERS, port=9, nonce=h("n"),
                              local_anchors=[anchors_for("Host")(0)], host_bot="random")
            host = HostLobby(lobby, lambda e: None)
            port = await nursery.start(host.serve, 0, LOOPBACK)
            started: dict[str, Started] = {}

            async def join(name: str) -> None:
                guest = GuestLobby(
                    LobbyGuest(ident(name), engine_id=ENGINE, monsters=rules.MONSTERS,
                               anchors=anchors_for(name), port=9, host_address=LOOPBACK,
                               bot="random"),
                    lambda e: None)
                started[name] = await guest.run((LOOPBACK, port))

            async with trio.open_nursery() as joiners:
                for name in names[1:]:
                    joiners.start_soon(join, name)
            assert sorted(started) == sorted(names[1:])
            genesis = started["Ann"].genesis
            assert all(s.genesis == genesis for s in started.values())
            assert sorted(seat.name for seat in genesis.seats) == sorted(names)
            nursery.cancel_scope.cancel()
