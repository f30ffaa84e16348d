"""End to end in a real terminal (tmux): ``kotp2p play`` driven with keys to the end screen, then
its log verified VALID; resizing redraws; quitting with q keeps the game resumable; ``host`` and
``join`` on 127.0.0.1, a human in each full screen, through the lobby and a few turns; ``join``
without an address picking a game heard from a loopback beacon."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

KOTP2P = str(Path(sys.executable).with_name("kotp2p"))
LIMIT = 120.0


class Terminal:
    """A detached tmux session running one command, at a fixed size."""

    def __init__(self, command: list[str], env: dict[str, str], width: int = 80,
                 height: int = 24) -> None:
        self.name = f"kotp2p-test-{uuid.uuid4().hex[:8]}"
        exports = " ".join(f"{k}={v}" for k, v in env.items())
        line = f"env {exports} {' '.join(command)}; echo EXITED $?; sleep 60"
        subprocess.run(["tmux", "new-session", "-d", "-s", self.name, "-x", str(width),
                        "-y", str(height), line], check=True)

    def screen(self) -> str:
        return subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], check=True,
                              capture_output=True, text=True).stdout

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def wait_for(self, text: str, timeout: float = 30.0) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} did not appear; the screen:\n{self.screen()}")

    def resize(self, width: int, height: int) -> None:
        subprocess.run(["tmux", "resize-window", "-t", self.name, "-x", str(width), "-y",
                        str(height)], check=True)

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], check=False,
                       capture_output=True)


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


def _run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KOTP2P, *args], env={**os.environ, **env}, capture_output=True,
                          text=True, timeout=60)


def test_a_whole_game_played_with_keys_to_the_end_screen_then_verified(
        home: dict[str, str]) -> None:
    term = Terminal([KOTP2P, "play", "--bots", "3", "--seed", "7", "--pause", "0"], home)
    try:
        first = term.wait_for("Your move", timeout=30)
        assert "King of Tokyo" in first and "check:" in first
        end = time.monotonic() + LIMIT
        screen = first
        while "Game over" not in screen:
            assert time.monotonic() < end, f"the game did not end in time:\n{screen}"
            key = _answer(screen)
            if key is not None:
                term.keys(key)
            time.sleep(0.05)
            screen = term.screen()
        screen = term.wait_for("kotp2p verify")
        assert "won" in screen or "lost" in screen
        term.keys("q")
        term.wait_for("EXITED 0")
    finally:
        term.close()
    games = json.loads(_run(home, "games", "--json").stdout)
    assert len(games) == 1 and games[0]["state"] == "finished"
    verdict = _run(home, "verify", games[0]["log"])
    assert verdict.returncode == 0 and "VALID" in verdict.stdout


def test_q_then_y_stops_and_the_game_can_be_resumed(home: dict[str, str]) -> None:
    term = Terminal([KOTP2P, "play", "--bots", "2", "--seed", "3", "--pause", "0"], home)
    try:
        term.wait_for("Your move")
        term.resize(130, 40)
        term.wait_for("Game log")
        wide = term.wait_for("Your move")
        assert "Game log" in wide and max(len(line) for line in wide.splitlines()) > 100
        term.resize(80, 24)
        term.wait_for("(deck")
        term.keys("q")
        term.wait_for("Quit?")
        term.keys("y")
        screen = term.wait_for("EXITED 0")
        assert "kotp2p resume" in screen
    finally:
        term.close()
    games = json.loads(_run(home, "games", "--json").stdout)
    assert len(games) == 1 and games[0]["state"] == "unfinished"
    term = Terminal([KOTP2P, "resume", "--pause", "0"], home)
    try:
        term.wait_for("Your move")
        term.keys("C-c")
        term.wait_for("EXITED")
    finally:
        term.close()


def _turn(screen: str) -> int:
    head = screen.splitlines()[0] if screen else ""
    words = head.split()
    return int(words[words.index("turn") + 1]) if "turn" in words else 0


def test_host_and_join_on_loopback_each_with_a_human_in_the_full_screen(
        tmp_path: Path) -> None:
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}
    net = ["--no-announce", "--bind", "127.0.0.1", "--pause", "0"]
    host = Terminal([KOTP2P, "host", "--port", "0", "--seats", "3", "--bots", "1",
                     "--name", "alice", "--timeout", "600", *net],
                    {**env, "KOTP2P_HOME": str(tmp_path / "a")})
    join: Terminal | None = None
    try:
        lobby = host.wait_for("hosting on port")
        port = lobby.split("hosting on port ")[1].split(";")[0]
        join = Terminal([KOTP2P, "join", f"127.0.0.1:{port}", "--name", "bob", "--bind",
                         "127.0.0.1", "--pause", "0"], {**env, "KOTP2P_HOME": str(tmp_path / "b")})
        join.wait_for("seated")
        join.keys("m")
        join.wait_for("you picked")
        join.keys("r")
        host.keys("m")
        host.wait_for("you picked")
        host.keys("r")
        host.wait_for("bob")
        host.keys("s")
        both = (host, join)
        for term in both:
            term.wait_for("King of Tokyo", timeout=30)
        join.keys("c")
        join.keys("hello from bob", "Enter")
        host.wait_for("(bob)> hello from bob")
        end = time.monotonic() + 60
        while min(_turn(t.screen()) for t in both) < 4:
            assert time.monotonic() < end, "no progress:\n" + host.screen() + join.screen()
            for term in both:
                key = _answer(term.screen())
                if key is not None:
                    term.keys(key)
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
            term.wait_for("EXITED 0", timeout=30)
    finally:
        host.close()
        if join is not None:
            join.close()


def _free_udp_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_join_picks_a_game_heard_on_loopback_and_a_wrong_code_is_said_plainly(
        tmp_path: Path) -> None:
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}
    beacon = f"127.0.0.1:{_free_udp_port()}"
    host = Terminal([KOTP2P, "host", "--port", "0", "--seats", "2", "--name", "alice",
                     "--join-code", "tiger", "--announce", beacon, "--bind", "127.0.0.1"],
                    {**env, "KOTP2P_HOME": str(tmp_path / "a")})
    joins: list[Terminal] = []
    try:
        host.wait_for("hosting on port")
        for code in ("lion", "tiger"):
            join = Terminal([KOTP2P, "join", "--discover", beacon, "--join-code", code,
                             "--name", "bob", "--bind", "127.0.0.1"],
                            {**env, "KOTP2P_HOME": str(tmp_path / "b")})
            joins.append(join)
            join.wait_for("1  alice's game hosted by alice at 127.0.0.1:")
            join.keys("1")
            if code == "lion":
                screen = join.wait_for("the join code is wrong")
                assert "Ask the host for the code" in screen and "q leave" in screen
                host.wait_for("could not join: they gave a wrong join code")
                join.keys("q")
                join.wait_for("EXITED 1")
        joins[-1].wait_for("seated at seat 1")
        host.wait_for("bob")
    finally:
        host.close()
        for join in joins:
            join.close()
