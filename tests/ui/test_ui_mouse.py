"""Clicks on the footer's keys: each does exactly what pressing the key does, in the game (every
kind of decision, the general keys, the quit question), on the other pages and in the lobby."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from prompt_toolkit.data_structures import Point
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType
from prompt_toolkit.output import DummyOutput

from kotp2p import rules
from kotp2p.ui import LobbyController
from kotp2p.ui import keys as K
from kotp2p.ui.full.app import build_app, build_lobby_app, draw
from kotp2p.ui.full.pages import lobby_page
from kotp2p.ui.full.screen import Line, game_screen, to_text
from kotp2p.ui.model import Controller, EndInfo
from tests.net.test_net_lobby import host
from tests.ui.fakes import FakeGame
from tests.ui.test_ui_keys import DECISIONS, four
from tests.ui.test_ui_lobby import HostPort

UP = MouseEvent(Point(0, 0), MouseEventType.MOUSE_UP, MouseButton.LEFT, frozenset())
KEYS_BY_NAME = {"Enter": "enter", "Esc": "escape"}
ROLL = four() + " | active=0 phase=roll dice=sss123 rolls=2"
BUY = four("10/0/9") + " | active=0 phase=buy market=heal,tank,skyscraper"
YIELD = four() + " | active=0 phase=resolve dice=11sss2"
STATES = [("roll", ROLL, 0), ("buy", BUY, 0), ("yield", YIELD, 1),
          *((kind, rules.to_text(state), seat) for kind, state, seat in DECISIONS)]


def footer_keys(lines: list[Line], rows: int) -> dict[str, Callable[[MouseEvent], object]]:
    """The clickable keys in the last ``rows`` lines: what the key fragment says -> handler."""
    out = {}
    for line in lines[-rows:]:
        for frag in line:
            if frag[0] == "class:footer.key" and len(frag) == 3 and frag[1].strip():
                out[frag[1].strip()] = frag[2]  # type: ignore[misc]
    return out


def snapshot(g: FakeGame, c: Controller) -> tuple[object, ...]:
    return (list(g.submitted), g.quits, c.screen, c.chatting, c.confirm_quit, c.exit_requested,
            c.footer, c.footer_error, sorted(c.kept), c.skip_buy_turn)


def make(text: str, me: int) -> tuple[FakeGame, Controller]:
    g = FakeGame(text, me=me)
    return g, Controller(g)


@pytest.mark.parametrize(("kind", "text", "seat"), STATES, ids=[s[0] for s in STATES])
def test_every_footer_key_clicked_does_what_the_key_does(kind: str, text: str, seat: int) -> None:
    _, shown = make(text, seat)
    keys = footer_keys(game_screen(shown, 80, 24), 2)
    assert {"?", "k", "o", "q"} <= set(keys)  # the general keys, under the move's keys
    taken = {c.key for c in K.menu_choices(shown.state)}
    assert ("c" in keys) == ("c" not in taken)  # a question's letter c hides chat
    decision_keys = [name for name in keys if "-" not in name]
    assert decision_keys, f"{kind}: no key to click in the footer"
    for name in decision_keys:
        g1, clicked = make(text, seat)
        footer_keys(game_screen(clicked, 80, 24), 2)[name](UP)
        g2, pressed = make(text, seat)
        pressed.press(KEYS_BY_NAME.get(name, name))
        assert snapshot(g1, clicked) == snapshot(g2, pressed), f"{kind}: {name}"
    for name in (n for n in keys if "-" in n):  # 1-6, a-c: say how to use them, do nothing
        g, c = make(text, seat)
        footer_keys(game_screen(c, 80, 24), 2)[name](UP)
        assert g.submitted == [] and ("key" in c.footer or "letter" in c.footer)


@pytest.mark.parametrize("name", ["?", "k", "c", "o", "q"])
def test_the_general_keys_clicked_act_like_pressed(name: str) -> None:
    waiting = four() + " | active=2 phase=roll dice=sss123 rolls=2"
    g1, clicked = make(waiting, 0)
    keys = footer_keys(game_screen(clicked, 80, 24), 1)
    assert set(keys) == {"?", "k", "c", "o", "q"}
    keys[name](UP)
    g2, pressed = make(waiting, 0)
    pressed.press(name)
    assert snapshot(g1, clicked) == snapshot(g2, pressed)


def test_the_quit_question_answers_by_click() -> None:
    g, c = make(ROLL, 0)
    c.press("q")
    keys = footer_keys(game_screen(c, 80, 24), 1)
    assert set(keys) == {"y", "Esc"}
    keys["Esc"](UP)
    assert not c.confirm_quit and g.quits == 0 and c.footer == "not quitting"
    c.press("q")
    footer_keys(game_screen(c, 80, 24), 1)["y"](UP)
    assert g.quits == 1 and c.exit_requested


def test_page_footers_are_clickable() -> None:
    _, c = make(ROLL, 0)
    c.press("?")
    keys = footer_keys(_lines(c), 1)
    keys["k"](UP)
    assert c.screen == "cards"
    footer_keys(_lines(c), 1)["Esc"](UP)
    assert c.screen == "game"
    c.press("o")
    footer_keys(_lines(c), 1)["Esc"](UP)
    assert c.screen == "game"
    c.end = EndInfo("The King wins", "")
    c.screen = "end"
    footer_keys(_lines(c), 1)["q"](UP)
    assert c.exit_requested


def _lines(c: Controller) -> list[Line]:
    """The page on screen, as lines of fragments."""
    frags = draw(c, 80, 24)
    lines: list[Line] = [[]]
    for f in frags:
        if f[1] == "\n":
            lines.append([])
        else:
            lines[-1].append(f)
    return lines


def test_a_click_on_chat_in_the_application_moves_the_focus_to_the_chat_line() -> None:
    _, c = make(ROLL, 0)
    with create_pipe_input() as pipe:
        app = build_app(c, input=pipe, output=DummyOutput(), refresh=None)
        footer_keys(game_screen(c, 80, 24), 1)["c"](UP)
        assert c.chatting and app.layout.current_buffer is not None


def test_lobby_footer_keys_and_heard_games_are_clickable() -> None:
    port = HostPort(host(seats=2))
    c = LobbyController(port, is_host=True, heard=["Alice's game at 127.0.0.1:7447 (1 free)"])
    c.host_tools = port
    with create_pipe_input() as pipe:
        build_lobby_app(c, input=pipe, output=DummyOutput())

        def lines() -> list[Line]:
            return lobby_page(port.view, me=0, join_code=None, words=(), heard=c.heard,
                              status=c.status, width=80, height=24, press=c.click)

        keys = footer_keys(lines(), 1)
        assert set(keys) == {"m", "r", "s", "h", "p", "q"}
        keys["p"](UP)
        assert port.view.power_up
        keys["m"](UP)
        assert port.view.seats[0].monster is not None
        footer_keys(lines(), 1)["r"](UP)
        assert port.view.seats[0].ready
        game = next(f for line in lines() for f in line if "Alice's game" in f[1])
        game[2](UP)  # type: ignore[misc]
        assert c.chosen == 0
        footer_keys(lines(), 1)["q"](UP)
        assert port.left and c.exit_requested
    joiner = LobbyController(HostPort(host(seats=2)), is_host=False)
    page = to_text(lobby_page(joiner.port.view, me=0, join_code=None, words=(), heard=(),
                              status="", width=80, height=24, is_host=False))
    assert " s start" not in page  # only the host starts
