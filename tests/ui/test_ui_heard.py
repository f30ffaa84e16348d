"""A long list of games heard on the LAN: every game can be picked from the keyboard (Up/Down
and Enter, or its number typed then Enter), keys typed into the real lobby application through a
pipe; the list fits 80×24 around the highlighted game and the footer says which keys pick."""

from __future__ import annotations

import asyncio

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from kotp2p.app.fullscreen import _Joining
from kotp2p.ui import LobbyController
from kotp2p.ui.full import build_lobby_app
from kotp2p.ui.full.pages import lobby_page
from kotp2p.ui.full.screen import to_text, width_of

DOWN, UP, ENTER = "\x1b[B", "\x1b[A", "\r"
GAMES = [f"Game {i} hosted by player{i} at 127.0.0.1:{7100 + i}: 1 of 4 seats free"
         for i in range(1, 26)]


def pick_with_keys(keys: str, games: list[str] = GAMES) -> LobbyController:
    """Type ``keys`` into the lobby application showing ``games``; it stops at the pick."""
    c = LobbyController(_Joining(), is_host=False, heard=games)

    async def main() -> None:
        with create_pipe_input() as pipe:
            app = build_lobby_app(c, input=pipe, output=DummyOutput())
            loop = asyncio.get_running_loop()

            def watch() -> None:  # the command reads ``chosen`` and moves on: stop there
                if c.chosen is not None:
                    app.exit()
                else:
                    loop.call_later(0.02, watch)

            loop.call_later(0.05, pipe.send_text, keys)
            loop.call_later(0.02, watch)
            await asyncio.wait_for(app.run_async(), 10)

    asyncio.run(main())
    return c


def page(c: LobbyController, width: int = 80, height: int = 24) -> str:
    lines = lobby_page(c.port.view, me=None, join_code=None, words=(), heard=c.heard,
                       status=c.status, width=width, height=height, notes=tuple(c.notes),
                       selected=c.selected)
    assert len(lines) == height and all(width_of(line) == width for line in lines)
    return to_text(lines)


@pytest.mark.parametrize(("keys", "game"), [
    (DOWN * 11 + ENTER, 12),  # arrows past the screen's first page
    (UP + ENTER, 25),  # up from the first wraps to the last
    ("2" + ENTER, 2),  # 2 could start 20..25: Enter says it is 2
    ("21" + ENTER, 21),
    ("12", 12),  # no longer number starts with 12: joins at once
    ("3", 3),  # nor with 3
    ("27" + "9", 9),  # 27 is refused; then 9 joins at once
])
def test_any_game_of_a_long_list_is_picked_from_the_keyboard(keys: str, game: int) -> None:
    c = pick_with_keys(keys)
    assert c.chosen == game - 1
    assert c.status == f"joining {GAMES[game - 1]}…"


def test_a_wrong_number_is_refused_and_picks_nothing() -> None:
    c = LobbyController(_Joining(), is_host=False, heard=GAMES)
    c.press("2")
    c.press("7")
    assert c.chosen is None and c.status_error
    assert c.status == "There is no game 27 in the list: press a number from 1 to 25."
    c.press("0")
    assert c.chosen is None and "There is no game 0" in c.status
    c.press("1")
    assert c.chosen is None and "game 1: Enter joins it" in c.status
    c.press("enter")
    assert c.chosen == 0


def test_the_long_list_fits_around_the_highlighted_game_with_the_keys_in_the_footer() -> None:
    c = LobbyController(_Joining(), is_host=False, heard=GAMES)
    first = page(c)
    assert "> 1  Game 1 hosted" in first and "more below" in first and "Game 25" not in first
    footer = first.splitlines()[-1]
    assert "↑↓ choose" in footer and "Enter join" in footer and "0-9 its number" in footer
    assert "q leave" in footer
    for _ in range(23):
        c.press("down")
    last = page(c)
    assert ">24  Game 24 hosted" in last and "Game 25" in last and "more above" in last
    assert "> 1 " not in last and "more below" not in last
    assert "Game 1 hosted" in page(c, 160, 48) and "more above" not in page(c, 160, 48)


def test_a_short_list_still_joins_with_one_digit() -> None:
    c = pick_with_keys("2", GAMES[:3])
    assert c.chosen == 1
