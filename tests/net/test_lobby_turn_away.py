"""The host sees who is seated and who waits, and turns a joiner away for the life of the lobby."""

from __future__ import annotations

import io

import pytest

from kotp2p import rules
from kotp2p.net.lobby import Banned, Failed, LobbyError, Notice
from kotp2p.ui import LobbyController, PlainLobby
from tests.net.lobby_kit import ident
from tests.net.test_net_lobby import Room, guest, host
from tests.ui.test_ui_lobby import HostPort


def test_the_host_lists_seated_and_waiting_joiners_by_address() -> None:
    room = Room(host())
    room.connect(guest("Bob"))
    room.on_host(room.host.connected(9, ident("Eve").public_key, "10.0.0.66"))
    assert room.host.who() == [
        f"  1: Bob [{ident('Bob').fingerprint}] from 127.0.0.2",
        f"  w1: waiting for a seat, [{ident('Eve').fingerprint}] from 10.0.0.66"]


def test_a_joiner_turned_away_loses_its_seat_and_its_key_never_sits_again() -> None:
    room = Room(host())
    bob = guest("Bob")
    conn = room.connect(bob)
    events = room.host.turn_away("1")
    room.on_host(events)
    room.pump()
    assert Banned(ident("Bob").public_key, "127.0.0.2") in events
    assert f"turned away Bob at seat 1 [{ident('Bob').fingerprint}]" in [
        e.text for e in events if isinstance(e, Notice)]
    assert room.host.view.seats[1].is_free
    assert [e.reason for e in room.seen[conn] if isinstance(e, Failed)] == [
        "the host closed the lobby: the host turned you away"]
    again = room.connect(guest("Bob"))
    assert [e.reason for e in room.seen[again] if isinstance(e, Failed)] == [
        "the host closed the lobby: the host turned this key away"]
    assert room.host.view.seats[1].is_free


def test_turning_away_a_waiting_connection_and_a_name_that_fits_nobody() -> None:
    room = Room(host())
    room.on_host(room.host.connected(9, ident("Eve").public_key, "10.0.0.66"))
    with pytest.raises(LobbyError, match="expected w1 to w1"):
        room.host.turn_away("w2")
    with pytest.raises(LobbyError, match="expected the seat of a joiner"):
        room.host.turn_away("0")
    assert Banned(ident("Eve").public_key, "10.0.0.66") in room.host.turn_away("w1")
    assert room.host.waiting() == []


def test_the_plain_lobby_has_who_and_kick_for_the_host_only() -> None:
    out = io.StringIO()
    plain = PlainLobby(out, rules.MONSTERS, host=True)
    kick = plain.request("kick w1")
    assert kick is not None and (kick.what, kick.who) == ("kick", "w1")
    who = plain.request("who")
    assert who is not None and who.what == "who"
    assert plain.request("kick") is None and "expected kick SEAT" in out.getvalue()
    joiner = PlainLobby(io.StringIO(), rules.MONSTERS, host=False)
    assert joiner.request("kick 1") is None
    room = Room(host())
    room.on_host(room.host.connected(9, ident("Eve").public_key, "10.0.0.66"))
    assert [e.text for e in who.to_host(room.host) if isinstance(e, Notice)] == [
        f"  w1: waiting for a seat, [{ident('Eve').fingerprint}] from 10.0.0.66"]


class Tools:
    """The host's tools of the lobby screen over a :class:`Room`'s host."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def waiting(self) -> list[str]:
        return [address for _, address, _ in self.room.host.waiting()]

    def turn_away(self, who: str) -> None:
        self.room.on_host(self.room.host.turn_away(who))


def test_the_host_screen_shows_who_waits_and_k_turns_a_joiner_away() -> None:
    room = Room(host())
    room.connect(guest("Bob"))
    for conn in (8, 9):
        room.on_host(room.host.connected(conn, ident(f"Eve{conn}").public_key, "10.0.0.66"))
    c = LobbyController(HostPort(room.host), is_host=True)
    c.host_tools = Tools(room)
    assert c.waiting_notes() == ["waiting for a seat: 10.0.0.66 (2) (k w turns the first away)"]
    c.press("k")
    assert c.status.startswith("turn away whom?")
    c.press("1")
    assert room.host.view.seats[1].is_free and c.status == "turning away seat 1"
    c.press("k")
    c.press("w")
    assert [address for _, address, _ in room.host.waiting()] == ["10.0.0.66"]
    c.press("k")
    c.press("x")
    assert c.status == "nobody turned away"
