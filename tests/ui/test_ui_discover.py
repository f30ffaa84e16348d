"""``join`` without an address in the full screen: the games heard from beacons on 127.0.0.1 are
listed on the lobby screen, picked with their number (or a click), and the join goes to the one
picked; leaving while the list is up leaves cleanly."""

from __future__ import annotations

import argparse
import asyncio
import socket
from collections.abc import Sequence
from functools import partial

import pytest
import trio
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from kotp2p.app import netgame
from kotp2p.app.fullscreen import NetScreen, UiOptions, _run_net
from kotp2p.net.lobby import Announcement
from kotp2p.net.transport import announce
from kotp2p.net.wire import Identity
from kotp2p.ui.full.pages import lobby_page
from kotp2p.ui.full.screen import to_text

pytestmark = pytest.mark.waits

GAMES = [Announcement("Alice's game", "alice", 7101, 2, 4),
         Announcement("Bob's game", "bob", 7102, 1, 3, needs_code=True)]
KEYS = [Identity.from_seed(b"a" * 32, "alice"), Identity.from_seed(b"b" * 32, "bob")]


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def run_discovery(monkeypatch: pytest.MonkeyPatch, keys: list[tuple[float, str]],
                  seen: list[str]) -> tuple[int, tuple[str, int] | None, NetScreen]:
    """Run the join command's discovery behind the lobby screen, with two games announced on
    127.0.0.1; ``keys`` are typed at the given times (s); ``seen`` gets the screen as the list
    shows up. Returns the exit code, the address picked and the screen."""
    port = free_udp_port()
    picked: list[tuple[str, int]] = []
    screen = NetScreen(UiOptions())
    original = NetScreen.choose

    async def choose(self: NetScreen, games: list[str], ambiguous: Sequence[bool] = ()) -> int:
        seen.append(to_text(lobby_page(self.lobby.port.view, me=None, join_code=None, words=(),
                                       heard=games, status=self.lobby.status, width=80,
                                       height=24,
                                       notes=tuple(self.lobby.notes))))
        return await original(self, games, ambiguous)

    async def join(ui: NetScreen) -> int:
        async with trio.open_nursery() as nursery:
            for game, key in zip(GAMES, KEYS, strict=True):
                nursery.start_soon(partial(announce, partial(game.encode, key),
                                           ("127.0.0.1", port), 0.1))
            args = argparse.Namespace(discover=f"127.0.0.1:{port}")
            game = await netgame._discover(args, ui)
            picked.append((game.address, game.port))
            nursery.cancel_scope.cancel()
        return 0

    async def main() -> int:
        with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
            loop = asyncio.get_running_loop()
            for at, text in keys:
                loop.call_later(at, pipe.send_text, text)
            return await asyncio.wait_for(_run_net(screen, join, UiOptions()), 20)

    monkeypatch.setattr(netgame, "DISCOVER_SECONDS", 0.6)
    monkeypatch.setattr(NetScreen, "choose", choose)
    code = asyncio.run(main())
    return code, picked[0] if picked else None, screen


def test_the_games_heard_are_listed_and_the_one_picked_by_number_is_joined(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    code, picked, screen = run_discovery(monkeypatch, [(1.5, "7"), (1.8, "2")], seen)
    assert code == 0 and picked == ("127.0.0.1", 7102)
    (page,) = seen
    assert "1  Alice's game hosted by alice at 127.0.0.1:7101: 2 of 4 seats free" in page
    assert "2  Bob's game hosted by bob at 127.0.0.1:7102: 1 of 3 seats free, join code" in page
    assert "    needed" in page and "…" not in page  # a long line wraps under its number
    assert page.count("Alice's game") == 1  # listed once, to pick from (not again as notes)
    assert "listening for games" in page and "pick a monster" not in page  # nothing to pick yet
    assert screen.lobby.heard == [] and screen.lobby.chosen == 1


def test_keys_before_the_list_and_a_wrong_number_pick_nothing_then_the_number_joins(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    code, picked, screen = run_discovery(monkeypatch, [(0.1, "m1"), (1.5, "9"), (1.8, "1")], seen)
    assert code == 0 and picked == ("127.0.0.1", 7101)
    assert "Nothing to choose yet: wait for the lobby to open" in seen[0]
    assert screen.lobby.status.startswith("joining Alice's game")


def test_leaving_while_the_list_is_up_leaves_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    code, picked, screen = run_discovery(monkeypatch, [(1.5, "q")], seen)
    assert code == 0 and picked is None and screen.left


def test_what_the_command_reports_shows_as_notes_but_not_the_lobby_table() -> None:
    screen = NetScreen(UiOptions())
    screen.notice("listening for games for 3 s...")
    screen.lobby_table(["Alice's game: 1/4 seats", "  seat 0: Alice"])
    assert list(screen.lobby.notes) == ["listening for games for 3 s..."]
