"""Asking a joiner for the join code of the game it picked, in the plain interface and on the
lobby screen: the code is typed once, and the keys type it instead of driving the lobby."""

from __future__ import annotations

import io

import pytest
import trio

from kotp2p.app import CommandError
from kotp2p.app.fullscreen import _Joining
from kotp2p.app.netview import Lines, PlainNet
from kotp2p.net.wire import Why
from kotp2p.ui import LobbyController, plain_refusal


def test_the_plain_interface_asks_for_the_code_and_reads_the_line_typed() -> None:
    out = io.StringIO()
    view = PlainNet(out, Lines(io.StringIO("7 Tiger Ocean\n")))
    assert trio.run(view.ask_join_code) == "7 Tiger Ocean"
    assert "this game needs a join code: type the code" in out.getvalue()


@pytest.mark.parametrize("lines", [None, Lines(io.StringIO(""))], ids=["no input", "input ended"])
def test_when_nobody_types_the_plain_interface_says_how_to_give_the_code(lines: Lines | None
                                                                          ) -> None:
    view = PlainNet(io.StringIO(), lines)
    with pytest.raises(CommandError) as exc:
        trio.run(view.ask_join_code)
    assert exc.value.refusal is not None and exc.value.refusal.why is Why.NEEDS_JOIN_CODE
    assert "--join-code CODE" in plain_refusal(exc.value.refusal)


def test_on_the_lobby_screen_the_keys_type_the_code_until_enter() -> None:
    c = LobbyController(_Joining(), is_host=False)
    typed: list[str] = []
    c.code, c.on_code = "", typed.append
    for key in ["enter", "7", " ", "q", "m", "x", "backspace", "r", "s"]:
        c.press(key)  # q, m, r and s are letters of the code here, not lobby keys
    assert c.code == "7 qmrs" and "join code: 7 qmrs_" in c.status and not c.exit_requested
    assert typed == []  # Enter on an empty code did nothing
    c.press("enter")
    assert typed == ["7 qmrs"] and c.code is None


def test_escape_leaves_instead_of_giving_a_code() -> None:
    c = LobbyController(_Joining(), is_host=False)
    c.code = "7-ti"
    c.press("escape")
    assert c.exit_requested
