"""The join code over TCP on 127.0.0.1: a guess the host cannot miss."""

from __future__ import annotations

import logging

import pytest
import trio

from kotp2p import rules
from kotp2p.net.lobby import DialerHandshake, LobbyHost
from kotp2p.net.transport import FrameStream, HostLobby
from kotp2p.net.wire import Refusal, Why, codec
from tests.net.lobby_kit import anchors_for, h, ident

LOOPBACK = "127.0.0.1"


def turned_away(records: list[logging.LogRecord]) -> list[Refusal]:
    return [r.refusal for r in records if isinstance(getattr(r, "refusal", None), Refusal)]  # type: ignore[attr-defined]


async def test_a_joiner_that_leaves_after_the_hosts_answer_is_counted_as_a_wrong_code(
        caplog: pytest.LogCaptureFixture) -> None:
    """A guesser could read the host's answer, test its one code, and close without a word to
    stay out of the host's count of wrong codes. The host counts it all the same."""
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            lobby = LobbyHost(ident("Alice"), game_name="Test", seats=2, engine_id=rules.ENGINE_ID,
                              monsters=rules.MONSTERS, port=9, nonce=h("n"),
                              local_anchors=[anchors_for("Alice")(0)])
            host = HostLobby(lobby, lambda e: None, join_code="7-tiger-ocean")
            port = await nursery.start(host.serve, 0, LOOPBACK)
            guesser = DialerHandshake(ident("Mallory"), engine_id=rules.ENGINE_ID,
                                      challenge=h("d"), join_code="7-tiger-ocelot")
            framed = FrameStream(await trio.open_tcp_stream(LOOPBACK, port), 1024)
            await framed.send(guesser.hello())
            while True:  # read up to the host's PROOF: its answer to this one guess
                frame = codec.unpack(await framed.receive())
                if isinstance(frame, list) and frame and frame[0] == "kotp2p-proof":
                    break
            await framed.aclose()
            while not turned_away(caplog.records):
                await trio.sleep(0.01)
            (refused,) = turned_away(caplog.records)
            assert refused.cause is not None and refused.cause.why is Why.WRONG_JOIN_CODE
            assert lobby.view.free_seats == 1
            nursery.cancel_scope.cancel()
