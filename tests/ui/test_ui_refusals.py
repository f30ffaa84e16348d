"""Refusals as a player reads them: the real refusals the handshake, the lobby, the transport and
the session give (each with its code) become plain sentences saying what happened and what to
do, shown whole (wrapped, never cut) at 80×24 in the lobby and in the game's footer; a joiner
turned away keeps the lobby screen until they leave, and the command says the same sentence."""

from __future__ import annotations

import argparse
import asyncio
import logging
import socket

import pytest
import trio
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from kotp2p import rules
from kotp2p.app import CommandError, netgame
from kotp2p.app.fullscreen import NetScreen, UiOptions, _run_net
from kotp2p.app.netview import PlainNet
from kotp2p.net.lobby import HandshakeFailed, LobbyError
from kotp2p.net.lobby.lobby_guest import Failed, Notice
from kotp2p.net.session import Chat, Command, Refused, Session, Submit, VoteEject
from kotp2p.net.transport.lobby_run import GuestLobby, LobbyFailed, turned_away
from kotp2p.net.wire import Refusal, Why
from kotp2p.ui import Controller, LobbyController, logs_to
from kotp2p.ui.full.pages import lobby_page
from kotp2p.ui.full.screen import game_screen, to_text, width_of
from kotp2p.ui.refusals import is_known, plain_refusal
from tests.net.test_net_lobby import Room, guest, host
from tests.session.kit import session, table
from tests.ui.fakes import FakeGame
from tests.ui.test_ui_lobby import HostPort


def _both_pick_the_king() -> tuple[Room, int]:
    """A 3-seat room where Bob, then Carol, pick The King; returns the room and Carol's link."""
    room = Room(host(3))
    bob, carol = guest("Bob"), guest("Carol")
    b, c = room.connect(bob), room.connect(carol)
    room.on_guest(b, bob.pick("The King"))
    room.on_guest(c, carol.pick("The King"))
    room.pump()
    return room, c


def joiner_sees(room: Room, **kw: object) -> tuple[HandshakeFailed, Refusal]:
    """The host's side's failure and the joiner's refusal when the handshake refuses."""
    with pytest.raises(HandshakeFailed) as exc:
        room.connect(guest("Bob"), **kw)  # type: ignore[arg-type]
    return exc.value.host_side, exc.value.joiner.refusal  # type: ignore[attr-defined]


def lobby_failure(room: Room, conn: int) -> Refusal:
    (refusal,) = [e.refusal for e in room.seen[conn] if isinstance(e, Failed)]
    return refusal


def closed_port() -> int:
    """A loopback port nobody listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def cannot_reach() -> Refusal:
    runner = GuestLobby(guest("Bob"), lambda ev: None, handshake_timeout=5)
    with pytest.raises(LobbyFailed) as exc:
        trio.run(runner.run, ("127.0.0.1", closed_port()))
    return exc.value.refusal


def nothing_heard(monkeypatch: pytest.MonkeyPatch) -> Refusal:
    monkeypatch.setattr(netgame, "DISCOVER_SECONDS", 0.2)
    args = argparse.Namespace(discover=f"127.0.0.1:{closed_port()}")
    with open("/dev/null", "w") as out, pytest.raises(CommandError) as exc:
        trio.run(netgame._discover, args, PlainNet(out, None))
    assert exc.value.refusal is not None
    return exc.value.refusal


def real_reasons(monkeypatch: pytest.MonkeyPatch) -> dict[str, Refusal]:
    """Each kind of refusal, produced by the code that refuses."""
    out: dict[str, Refusal] = {}
    host_side, out["wrong join code"] = joiner_sees(Room(host(), join_code="tiger"), code="lion")
    out["turned away (host)"] = turned_away("127.0.0.1", host_side)
    _, out["no join code"] = joiner_sees(Room(host(), join_code="tiger"))
    host_side, out["no code at the host"] = joiner_sees(Room(host()), code="tiger")
    out["turned away, no code here (host)"] = turned_away("127.0.0.1", host_side)
    _, out["other version"] = joiner_sees(Room(host()), version=2)
    _, out["other engine"] = joiner_sees(Room(host()), engine_id="kotp2p-9.9+cards-zzz")
    full = Room(host(2))
    full.connect(guest("Carol"))
    out["full"] = lobby_failure(full, full.connect(guest("Zed")))
    closing = Room(host(3))
    conn = closing.connect(guest("Carol"))
    closing.on_host(closing.host.close())
    closing.pump()
    out["host closed"] = lobby_failure(closing, conn)
    out["unreachable"] = cannot_reach()
    out["nothing heard"] = nothing_heard(monkeypatch)
    lobby = host(3)
    with pytest.raises(LobbyError) as exc:
        lobby.set_ready()
    out["no monster"] = exc.value.refusal
    with pytest.raises(LobbyError) as exc:
        lobby.start()
    out["host not ready"] = exc.value.refusal
    lobby.pick("The King")
    lobby.set_ready()
    with pytest.raises(LobbyError) as exc:
        lobby.start()
    out["seat free"] = exc.value.refusal
    taken, c = _both_pick_the_king()
    (out["monster taken"],) = [e.refusal for e in taken.seen[c]
                               if isinstance(e, Notice) and e.refusal is not None]
    with pytest.raises(LobbyError) as exc:
        taken.host.pick("The King")
    out["monster taken (host)"] = exc.value.refusal
    out["seat not ready"] = _not_ready()
    out.update(_game_refusals())
    return out


def _not_ready() -> Refusal:
    room = Room(host(2))
    room.connect(guest("Bob"))
    room.host.pick("The King")
    room.on_host(room.host.set_ready())
    with pytest.raises(LobbyError) as exc:
        room.host.start()
    return exc.value.refusal


def _game_refusals() -> dict[str, Refusal]:
    """What the session answers to the screen's commands when it refuses the player."""
    out: dict[str, Refusal] = {}
    mine = session(table(2), [0, 1], humans=[0])
    mine.start(0.0)
    not_mine = session(table(2), [0, 1], humans=[0, 1], me=0)  # seat 1 plays first
    not_mine.start(0.0)
    commands: dict[str, tuple[Session, Command]] = {
        "illegal move": (mine, Submit(rules.action_to_wire(rules.YIELD))),
        "empty chat": (mine, Chat("   ")),
        "nobody overdue": (mine, VoteEject()),
        "not your decision": (not_mine, Submit(rules.action_to_wire(rules.STOP))),
    }
    for name, (game, command) in commands.items():
        result = game.perform(command, 1.0)
        assert isinstance(result, Refused)
        out[name] = result.refusal
    return out


@pytest.fixture(scope="module")
def reasons() -> dict[str, Refusal]:
    with pytest.MonkeyPatch.context() as mp:
        return real_reasons(mp)


EXPECTED = {
    "wrong join code": "This host does not know the join code you typed: it may not be the game "
    "you meant, or the code has a typo.",
    "no code at the host": "This host does not know the join code you typed",
    "turned away, no code here (host)": "A player at 127.0.0.1 could not join: they typed a join "
    "code, and this game has none.",
    "turned away (host)": "A player at 127.0.0.1 could not join: they gave a wrong join code",
    "no join code": "This game needs a join code. Ask the host",
    "other version": "different releases of kotp2p",
    "other engine": "different releases of kotp2p",
    "full": "The game is full: every seat is taken.",
    "host closed": "The host closed the lobby (the host quit). Join again",
    "unreachable": "Could not reach a game at 127.0.0.1:",
    "nothing heard": "No game was heard on this network.",
    "no monster": "Pick a monster first with m",
    "seat free": "Seat 1 is still free: wait for another player to join",
    "host not ready": "You are not ready yet: pick a monster with m",
    "monster taken": "The host says: The King is taken by Bob. Press m again",
    "monster taken (host)": "The King is taken by Bob: press m again",
    "seat not ready": "Bob (seat 1) is not ready yet",
    "illegal move": "The game refused that move",
    "not your decision": "That was not yours to decide any more",
    "empty chat": "Type something to say",
    "nobody overdue": "Nobody is overdue",
}


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_each_real_refusal_has_its_own_plain_sentence(kind: str,
                                                      reasons: dict[str, Refusal]) -> None:
    reason = reasons[kind]
    text = plain_refusal(reason)
    assert is_known(reason), f"{kind}: no sentence for {reason!r}"
    assert EXPECTED[kind] in text, f"{kind}: {reason!r} -> {text!r}"
    assert text.endswith((".", "CODE", "HOST:PORT")) and text[0].isupper()
    for jargon in ("peer", "offered", "protocol", "[", "seat 0", "Reroll"):
        assert jargon not in text, f"{kind}: {text!r}"


def test_an_unknown_reason_is_still_a_sentence_with_a_way_out() -> None:
    cheese = Refusal(Why.OTHER, "refused by the peer: the moon is made of cheese", by_peer=True,
                     details=("the moon is made of cheese",))
    text = plain_refusal(cheese)
    assert text.startswith("The other side refused: the moon is made of cheese.")
    assert "same kotp2p release" in text and not is_known(cheese)
    assert plain_refusal("the moon is made of cheese").startswith("Refused: the moon is made")
    assert "\x1b" not in plain_refusal("\x1b[31mred")
    assert "\x1b" not in plain_refusal(Refusal(Why.MONSTER_TAKEN, "x", details=("\x1b[2J", "y")))


def words(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_every_refusal_shows_whole_in_the_lobby_at_80x24(kind: str,
                                                         reasons: dict[str, Refusal]) -> None:
    port = HostPort(host(seats=6))
    c = LobbyController(port, is_host=True, join_code="tiger")
    c.notes.extend([f"a note about something that happened, number {i}" for i in range(5)])
    c.refused(reasons[kind])
    lines = lobby_page(port.view, me=0, join_code="tiger", words=("a", "b", "c", "d"),
                       heard=(), status=c.status, notes=tuple(c.notes), width=80, height=24,
                       status_error=c.status_error)
    assert len(lines) == 24 and all(width_of(line) == 80 for line in lines)
    screen = to_text(lines)
    assert words(plain_refusal(reasons[kind])) == words(
        " ".join(ln.strip() for ln in screen.splitlines()[-4:-1]))[-len(
            words(plain_refusal(reasons[kind]))):]
    assert "…" not in screen.split("Join code")[1]


@pytest.mark.parametrize("kind", ["illegal move", "not your decision", "empty chat",
                                  "nobody overdue", "unreachable"])
def test_a_refusal_in_the_game_shows_whole_in_the_footer_at_80x24(
        kind: str, reasons: dict[str, Refusal]) -> None:
    six = ("The King 10/3/2 @city; Giga Zaur 8/17/12 @bay; Alienoid 0/5/0 dead=1; "
           "Cyber Kitty 4/2/9; Meka Dragon 12/0/1; Space Penguin 7/19/5 "
           "| active=1 phase=roll dice=123ehs rolls=1 market=firebreathing,healingray,energize")
    c = Controller(FakeGame(six, me=1))
    c.refused(reasons[kind])
    lines = game_screen(c, 80, 24)
    assert len(lines) == 24 and all(width_of(line) == 80 for line in lines)
    screen = to_text(lines).splitlines()
    status = max(i for i, ln in enumerate(screen) if "Your move" in ln)
    footer = " ".join(ln.strip() for ln in screen[status + 1:])
    assert " ".join(words(plain_refusal(reasons[kind]))) in footer
    assert screen[-1].endswith("q quit")  # the general keys stay, under the message
    assert status >= len(screen) - 5 and "Space Penguin" in "\n".join(screen)


def test_a_joiner_turned_away_reads_why_on_the_lobby_screen_until_leaving() -> None:
    screen = NetScreen(UiOptions())

    refused = Refusal(Why.WRONG_JOIN_CODE, "refused by the peer: wrong join code",
                      by_peer=True, details=("wrong join code",))

    async def join(ui: NetScreen) -> int:
        raise CommandError.refused(refused)

    async def main() -> None:
        with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
            pipe.send_text("x\r")  # keys pressed in a hurry do not close it

            async def leave_once_failed() -> None:
                while not screen.lobby.failed:  # a loaded machine may take its time
                    await asyncio.sleep(0.05)
                await asyncio.sleep(0.2)  # the screen stays up after the failure
                pipe.send_text("q")

            leaving = asyncio.create_task(leave_once_failed())
            await asyncio.wait_for(_run_net(screen, join, UiOptions()), 10)
            await asyncio.wait_for(leaving, 5)

    with pytest.raises(CommandError) as exc:
        asyncio.run(main())
    expected = plain_refusal(refused)
    assert expected.startswith("The host turned you away: the join code is wrong.")
    assert str(exc.value) == expected and screen.lobby.failed
    page = to_text(lobby_page(screen.lobby.port.view, me=None, join_code=None, words=(),
                              heard=(), status=screen.lobby.status, width=80, height=24,
                              failed=True, status_error=True))
    assert words(expected) == words(" ".join(page.splitlines()[-3:-1]))
    assert page.splitlines()[-1].strip() == "q leave"


def test_the_lobby_screen_says_what_the_lobby_events_and_logs_carry_by_their_code() -> None:
    room, c = _both_pick_the_king()
    screen = NetScreen(UiOptions())
    for event in room.seen[c]:
        screen.lobby_event(event)
    assert screen.lobby.status == ("The host says: The King is taken by Bob. Press m again for "
                                   "another monster.") and screen.lobby.status_error
    assert "seated at seat 2" in screen.lobby.notes
    closing = Room(host(3))
    conn = closing.connect(guest("Dan"))
    closing.on_host(closing.host.close())
    closing.pump()
    for event in closing.seen[conn]:
        screen.lobby_event(event)
    assert screen.lobby.notes[-1] == ("The host closed the lobby (the host quit). Join again "
                                      "when they host a new game.")
    host_side, _ = joiner_sees(Room(host(), join_code="tiger"), code="lion")
    shown: list[str] = []
    with logs_to(lambda text, refusal: shown.append(
            text if refusal is None else plain_refusal(refusal))):
        logging.getLogger("kotp2p.net.transport.lobby_run").warning(
            "%s", "refused a lobby connection from 127.0.0.7: wrong join code",
            extra={"refusal": turned_away("127.0.0.7", host_side)})
        logging.getLogger("kotp2p").warning("wrong join code")  # a bare text: said as it is
    assert shown == ["A player at 127.0.0.7 could not join: they gave a wrong join code. Tell "
                     "them the code on your screen.", "warning: wrong join code"]
    with pytest.raises(LobbyError) as exc:
        NetScreen(UiOptions()).lobby.port.pick("The King")
    assert plain_refusal(exc.value.refusal).startswith("You are not seated in the lobby yet")
