"""Mouse reports as the terminal sends them, through a pipe into the real applications: a
malformed report is ignored (prompt_toolkit's own parser raises on it, which stopped the screen
with "Press ENTER to continue"), the keys after it still work, and a sound click still clicks."""

from __future__ import annotations

import asyncio
import traceback

import pytest
from prompt_toolkit.application import Application
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from kotp2p.ui import Controller, LobbyController
from kotp2p.ui.full.app import build_app, build_lobby_app, is_sound_mouse_report
from kotp2p.ui.full.screen import game_screen
from tests.net.test_net_lobby import host
from tests.ui.fakes import FakeGame
from tests.ui.test_ui_lobby import HostPort
from tests.ui.test_ui_mouse import ROLL

pytestmark = pytest.mark.waits

MALFORMED = ["\x1b[<64;85M", "\x1b[<1;2;3;4M", "\x1b[<;;M", "\x1b[96;14M", "\x1b[M\x7f!!",
             "\x1b[M\x10!!"]
SIZE = DummyOutput().get_size()


def run(app: Application[None], pipe: PipeInput, texts: list[str]) -> list[str]:
    """Run ``app``, typing ``texts`` one after the other; the errors the event loop saw."""
    errors: list[str] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()

        def seen(_: object, context: dict[str, object]) -> None:
            exc = context.get("exception")
            errors.append("".join(traceback.format_exception(exc)) if isinstance(
                exc, BaseException) else str(context.get("message")))
            app.exit()

        loop.set_exception_handler(seen)
        for i, text in enumerate(texts):
            loop.call_later(0.1 + 0.1 * i, pipe.send_text, text)
        await asyncio.wait_for(app.run_async(handle_sigint=False, set_exception_handler=False), 10)

    asyncio.run(main())
    return errors


def click_at(line: int, column: int) -> str:
    """An xterm SGR left click (press and release) at a 0-based position."""
    return f"\x1b[<0;{column + 1};{line + 1}M\x1b[<0;{column + 1};{line + 1}m"


@pytest.mark.parametrize("report", MALFORMED)
def test_a_malformed_mouse_report_is_ignored_by_the_game_screen(report: str) -> None:
    assert not is_sound_mouse_report(report)
    g = FakeGame(ROLL, me=0)
    c = Controller(g)
    with create_pipe_input() as pipe:
        app = build_app(c, input=pipe, output=DummyOutput(), refresh=None)
        errors = run(app, pipe, [report, "1", "q", "y"])
    assert errors == []
    assert c.exit_requested and g.quits == 1 and c.kept == {0}  # the keys after it worked


@pytest.mark.parametrize("report", MALFORMED)
def test_a_malformed_mouse_report_is_ignored_by_the_lobby(report: str) -> None:
    port = HostPort(host(seats=2))
    c = LobbyController(port, is_host=True)
    with create_pipe_input() as pipe:
        app = build_lobby_app(c, input=pipe, output=DummyOutput())
        errors = run(app, pipe, [report, "m", "q"])
    assert errors == [] and port.view.seats[0].monster is not None and port.left


def find(lines: list[list[tuple[str, ...]]], text: str) -> tuple[int, int]:
    for y, line in enumerate(lines):
        x = 0
        for frag in line:
            if frag[1].strip() == text and frag[0] == "class:footer.key":
                return y, x + frag[1].index(text)
            x += len(frag[1])
    raise AssertionError(f"no key {text!r} on screen")


def test_a_sound_click_still_clicks() -> None:
    g = FakeGame(ROLL, me=0)
    c = Controller(g)
    y, x = find(game_screen(c, SIZE.columns, SIZE.rows), "q")  # type: ignore[arg-type]
    with create_pipe_input() as pipe:
        app = build_app(c, input=pipe, output=DummyOutput(), refresh=None)
        report = click_at(y, x)
        assert is_sound_mouse_report(report[:len(report) // 2])
        errors = run(app, pipe, [report, "y"])  # the click on q asked; y answers
    assert errors == [] and c.exit_requested and g.quits == 1
