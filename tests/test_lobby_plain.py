"""The lobby's plain lines: what a user types becomes a request, or a reason why not."""

from __future__ import annotations

import io

import pytest

from kotp2p import rules
from kotp2p.ui.lobby_plain import PlainLobby, Request, find_monster
from tests.net.test_net_lobby import host as lobby_host


@pytest.mark.parametrize(("typed", "monster"), [("the king", "The King"), ("GIGA", "Giga Zaur"),
                                                 ("  alienoid ", "Alienoid")])
def test_a_monster_is_found_by_a_unique_prefix_in_any_case(typed: str, monster: str) -> None:
    assert find_monster(typed, rules.MONSTERS) == monster


@pytest.mark.parametrize("typed", ["", "zilla", "kingkong"])
def test_an_unknown_monster_lists_the_choices(typed: str) -> None:
    with pytest.raises(ValueError, match="expected a monster among Alienoid"):
        find_monster(typed, rules.MONSTERS)


def test_lines_become_requests_and_only_the_host_may_start() -> None:
    out = io.StringIO()
    host, joiner = PlainLobby(out, rules.MONSTERS, host=True), PlainLobby(out, rules.MONSTERS, host=False)
    assert host.request("pick the king") == Request("pick", "The King")
    assert host.request("Ready") == Request("ready")
    assert host.request("start") == Request("start")
    assert joiner.request("leave") == Request("quit")
    assert joiner.request("start") is None
    assert "commands: pick MONSTER" in out.getvalue() and "start (when" not in out.getvalue()
    assert host.request("pick nobody") is None
    assert out.getvalue().rstrip().endswith("found 'nobody'")


def test_the_host_types_halloween_on_or_off_and_a_joiner_gets_the_help() -> None:
    out = io.StringIO()
    host = PlainLobby(out, rules.MONSTERS, host=True)
    assert host.request("Halloween ON") == Request("halloween on")
    assert host.request("halloween off") == Request("halloween off")
    assert host.request("halloween maybe") is None
    assert "expected halloween on, or halloween off" in out.getvalue()
    joiner = PlainLobby(out, rules.MONSTERS, host=False)
    assert joiner.request("halloween on") is None
    assert "halloween on|off" in host_help(host)


def test_the_host_types_power_up_on_or_off_and_the_lobby_turns_it_on() -> None:
    out = io.StringIO()
    host = PlainLobby(out, rules.MONSTERS, host=True)
    assert host.request("power-up on") == Request("power-up on")
    assert host.request("PowerUp off") == Request("power-up off")
    assert host.request("power-up soon") is None
    assert "expected power-up on, or power-up off" in out.getvalue()
    assert "power-up on|off" in host_help(host)
    lobby = lobby_host()
    Request("power-up on").to_host(lobby)
    assert lobby.view.power_up and lobby.view.options == [None, ["power-up"]]


def host_help(lobby: PlainLobby) -> str:
    out = io.StringIO()
    lobby.out = out
    lobby.request("help")
    return out.getvalue()
