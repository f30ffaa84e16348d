"""A resumed network game that cannot listen where the other seats expect it says so to its
player, through the session, in the plain interface and on the full screen."""

from __future__ import annotations

import io
from functools import partial

import trio

from kotp2p.app.netgame import _reconnect
from kotp2p.net.files import PeersFile
from kotp2p.net.session import Notice
from kotp2p.net.transport import serve_tcp
from kotp2p.ui import Controller, PlainView
from tests.session.kit import session, table
from tests.ui.fakes import FakeGame


async def test_a_resumed_game_whose_port_is_taken_tells_the_view() -> None:
    s = session(table(2), [0])

    async def nothing(stream: trio.SocketStream) -> None:
        await stream.aclose()

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            taken = await nursery.start(partial(serve_tcp, nothing, 0, "127.0.0.1"))
            async with _reconnect(PeersFile(taken, {1: ("127.0.0.1", 9)}), "127.0.0.1", s):
                pass
            nursery.cancel_scope.cancel()
    (notice,) = [u for u in s.updates() if isinstance(u, Notice)]
    assert notice.text.startswith(f"port {taken} is taken: the seats that call this one cannot "
                                  "reach it on port ")


def test_the_plain_interface_prints_a_notice_and_the_screen_logs_it_as_a_warning() -> None:
    s = session(table(2), [0])
    out = io.StringIO()
    PlainView(s, out).show([Notice("port 7447 is taken\x1b[2J")])
    assert out.getvalue() == "port 7447 is taken\\x1b[2J\n"
    c = Controller(FakeGame("The King 10/0/0; Giga Zaur 10/0/0 | active=0 phase=roll", me=0))
    c.on_updates([Notice("port 7447 is taken")])
    assert (c.log[-1].style, c.log[-1].text) == ("log.warn", "! port 7447 is taken")
