"""End to end in a real terminal (tmux): ``kotp2p play`` driven with keys to the end screen, then
its log verified VALID; resizing redraws; quitting with q keeps the game resumable; ``host`` and
``join`` on 127.0.0.1, a human in each full screen, through the lobby and a few turns; ``join``
without an address picking a game heard from a loopback beacon."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ui.tmux import Terminal, Terminals

pytestmark = pytest.mark.waits

KOTP2P = str(Path(sys.executable).with_name("kotp2p"))
GAME_LIMIT = 240.0
"""Seconds a whole game played with keys may take (a few seconds when the machine is idle)."""


@pytest.fixture
def terminals() -> Iterator[Terminals]:
    opened = Terminals()
    try:
        yield opened
    finally:
        opened.close_all()


@pytest.fixture
def home(tmp_path: Path) -> Iterator[dict[str, str]]:
    yield {"KOTP2P_HOME": str(tmp_path), "TERM": "xterm-256color", "LANG": "C.UTF-8"}


def _answer(screen: str) -> str | None:
    """The key a hurried player presses for what the footer asks (None: not our move)."""
    if "Your move" not in screen:
        return None
    if "(stay in Tokyo or yield)" in screen:
        return "y"
    if "Enter" in screen.splitlines()[-2]:
        return "Enter"
    return "a"


class Hurried:
    """A hurried player at ``term``: presses what the footer asks, once per screen (a key sent
    again to a screen that did not change yet would be a second, unintended, press); again
    only if the screen stayed the same for a while (the key was lost or changed nothing)."""

    def __init__(self, term: Terminal) -> None:
        self.term = term
        self._answered = ""
        self._at = 0.0

    def step(self) -> str:
        """Look at the screen, press a key if it asks one; the screen looked at."""
        screen = self.term.screen()
        key = _answer(screen)
        if key is not None and (screen != self._answered or time.monotonic() - self._at > 5):
            self.term.keys(key)
            self._answered, self._at = screen, time.monotonic()
        return screen


def _run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KOTP2P, *args], env={**os.environ, **env}, capture_output=True,
                          text=True, timeout=120)


def test_a_whole_game_played_with_keys_to_the_end_screen_then_verified(
        home: dict[str, str], terminals: Terminals) -> None:
    term = terminals([KOTP2P, "play", "--bots", "3", "--seed", "7", "--pause", "0"], home)
    first = term.wait_for("Your move")
    assert "King of Tokyo" in first and "check:" in first
    player = Hurried(term)
    end = time.monotonic() + GAME_LIMIT
    screen = first
    while "Game over" not in screen:
        assert "EXITED" not in screen, f"the program ended mid-game:\n{screen}"
        assert time.monotonic() < end, f"the game did not end in {GAME_LIMIT:.0f} s:\n{screen}"
        screen = player.step()
        time.sleep(0.05)
    screen = term.wait_for("kotp2p verify")
    assert "won" in screen or "lost" in screen
    term.keys("q")
    term.wait_for("EXITED 0")
    games = json.loads(_run(home, "games", "--json").stdout)
    assert len(games) == 1 and games[0]["state"] == "finished"
    verdict = _run(home, "verify", games[0]["log"])
    assert verdict.returncode == 0 and "VALID" in verdict.stdout


def test_q_then_y_stops_and_the_game_can_be_resumed(home: dict[str, str],
                                                    terminals: Terminals) -> None:
    term = terminals([KOTP2P, "play", "--bots", "2", "--seed", "3", "--pause", "0"], home)
    term.wait_for("Your move")
    term.resize(130, 40)
    wide = term.wait_until(lambda s: "Game log" in s and "Your move" in s
                           and max(len(line) for line in s.splitlines()) > 100,
                           "the game screen redrawn 130 wide, with its game log")
    assert "(deck" in wide
    term.resize(80, 24)
    term.wait_until(lambda s: "(deck" in s and max(len(line) for line in s.splitlines()) <= 80,
                    "the game screen redrawn 80 wide")
    term.keys("q")
    term.wait_for("Quit?")
    term.keys("y")
    screen = term.wait_for("EXITED 0")
    assert "kotp2p resume" in screen
    term.close()
    games = json.loads(_run(home, "games", "--json").stdout)
    assert len(games) == 1 and games[0]["state"] == "unfinished"
    assert games[0]["log"] in "".join(screen.splitlines())  # wrapped whole, not cut at 80
    term = terminals([KOTP2P, "resume", "--pause", "0"], home)
    term.wait_for("Your move")
    term.keys("C-c")
    term.wait_for("EXITED")


def _turn(screen: str) -> int:
    head = screen.splitlines()[0] if screen else ""
    words = head.split()
    return int(words[words.index("turn") + 1]) if "turn" in words else 0


def _seat(screen: str, seat: int) -> str:
    """The lobby's line for ``seat`` ('' when not shown)."""
    return next((line for line in screen.splitlines() if f"seat {seat}: " in line), "")


def _host_sees(host: Terminal, seat: int, ready: bool) -> None:
    """Wait until the host's lobby shows ``seat`` with a monster (and ready, if ``ready``)."""
    def shown(screen: str) -> bool:
        line = _seat(screen, seat)
        if not line or "no monster yet" in line:
            return False
        return not ready or re.search(r"(?<!not) ready\b", line) is not None

    host.wait_until(shown, f"seat {seat} shown {'ready' if ready else 'with a monster'} in "
                           "the host's lobby")


def test_host_and_join_on_loopback_each_with_a_human_in_the_full_screen(
        tmp_path: Path, terminals: Terminals) -> None:
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}
    net = ["--no-announce", "--bind", "127.0.0.1", "--pause", "0"]
    host = terminals([KOTP2P, "host", "--port", "0", "--seats", "3", "--bots", "1",
                      "--name", "alice", "--timeout", "600", *net],
                     {**env, "KOTP2P_HOME": str(tmp_path / "a")})
    lobby = host.wait_for("hosting on port")
    port = lobby.split("hosting on port ")[1].split(";")[0]
    join = terminals([KOTP2P, "join", f"127.0.0.1:{port}", "--name", "bob", "--bind",
                      "127.0.0.1", "--pause", "0"], {**env, "KOTP2P_HOME": str(tmp_path / "b")})
    seated = join.wait_until(lambda s: re.search(r"seated at seat \d", s) is not None,
                             "bob seated")
    bob = int(seated.split("seated at seat ")[1][0])
    # Each step waits for the host to have heard the last: a pick the host has not heard yet
    # may be taken by the host's own pick, and a start before bob's ready is refused.
    join.keys("m")
    _host_sees(host, bob, ready=False)
    join.keys("r")
    _host_sees(host, bob, ready=True)
    host.keys("m")
    _host_sees(host, 0, ready=False)
    host.keys("r")
    _host_sees(host, 0, ready=True)
    host.keys("s")
    both = (host, join)
    for term in both:
        term.wait_for("King of Tokyo")
    join.keys("c")
    join.wait_for(" say:")
    join.keys("-l", "hello from bob")
    join.keys("Enter")
    host.wait_for("(bob)> hello from bob")
    players = [Hurried(term) for term in both]
    end = time.monotonic() + GAME_LIMIT
    while min(_turn(p.step()) for p in players) < 4:
        assert time.monotonic() < end, "no progress:\n" + host.last + join.last
        time.sleep(0.1)
    for term in both:
        screen = term.screen()
        assert "alice" in screen and "bob" in screen and "check:" in screen
    words = [t.screen().split("check: ")[1].split()[:4] for t in both]
    assert words[0] == words[1]
    for term in both:
        term.keys("q")
        term.wait_for("Quit?")
        term.keys("y")
    for term in both:
        term.wait_for("EXITED 0")


def _free_udp_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_join_picks_a_game_heard_on_loopback_and_a_wrong_code_is_said_plainly(
        tmp_path: Path, terminals: Terminals) -> None:
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}
    beacon = f"127.0.0.1:{_free_udp_port()}"
    host = terminals([KOTP2P, "host", "--port", "0", "--seats", "2", "--name", "alice",
                      "--join-code", "tiger", "--announce", beacon, "--bind", "127.0.0.1"],
                     {**env, "KOTP2P_HOME": str(tmp_path / "a")})
    host.wait_for("hosting on port")
    for code in ("lion", None):  # the right code is typed when the screen asks for it
        given = ["--join-code", code] if code else []
        join = terminals([KOTP2P, "join", "--discover", beacon, *given,
                          "--name", "bob", "--bind", "127.0.0.1"],
                         {**env, "KOTP2P_HOME": str(tmp_path / "b")})
        join.wait_for("1  alice's game hosted by alice at 127.0.0.1:")
        join.keys("1")
        if code is None:
            join.wait_for("needs a join code")
            join.keys("Tiger", "Enter")
        if code == "lion":
            screen = join.wait_for("does not know the join")
            assert "typo" in screen and "q leave" in screen
            host.wait_for("could not join: they gave a wrong join code")
            join.keys("q")
            join.wait_for("EXITED 1")
    join.wait_for("seated at seat 1")
    seen = host.wait_until(lambda s: "bob" in _seat(s, 1),
                                        "bob at seat 1 in the host's lobby")
    assert "alice" in _seat(seen, 0)


def test_ctrl_c_while_typing_a_chat_line_exits_130_and_the_game_can_be_resumed(
        home: dict[str, str], terminals: Terminals) -> None:
    term = terminals([KOTP2P, "play", "--bots", "1", "--seed", "5", "--pause", "0"], home)
    term.wait_for("Your move")
    term.keys("c")
    term.keys("hello")
    term.wait_for("hello")
    term.keys("C-c")
    screen = term.wait_for("EXITED")
    assert "EXITED 130" in screen and "kotp2p: interrupted" in screen, screen
    assert "kotp2p resume" in screen
    games = json.loads(_run(home, "games", "--json").stdout)
    assert len(games) == 1 and games[0]["state"] == "unfinished"


def test_ctrl_c_in_the_lobby_exits_130(home: dict[str, str], terminals: Terminals) -> None:
    term = terminals([KOTP2P, "host", "--port", "0", "--seats", "2", "--no-announce", "--bind",
                      "127.0.0.1"], home)
    term.wait_for("hosting on port")
    term.keys("C-c")
    screen = term.wait_for("EXITED")
    assert "EXITED 130" in screen and "kotp2p: interrupted" in screen, screen
