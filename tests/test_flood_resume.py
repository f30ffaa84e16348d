"""A stranger floods a resuming player's game listener: the game goes on, nobody is ejected.

Real ``kotp2p host``, ``join`` and ``resume`` processes on 127.0.0.1, with the shortest hard
timeout. The joiner is killed mid-game. While it resumes, 200 silent connections, each reopened
when closed, hold its game listener. They come from 127.0.0.1, the host's own address, so no
admission rule can tell the host from the flood. The host cannot dial the joiner, so the resumed
joiner dials out.
"""

from __future__ import annotations

import json
import select
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

from kotp2p.net.files import PeersFile
from tests.test_netplay import (
    KOTP2P,
    _assert_valid,
    _env,
    _host_output,
    _logs,
    _mid_game,
    verdict_of,
)

FLOOD = 200


class Flood:
    """Holds up to ``n`` silent TCP connections to a port, and reopens those that close."""

    def __init__(self, port: int, n: int = FLOOD) -> None:
        self.port = port
        self.n = n
        self.opened = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        held: list[socket.socket] = []
        while not self.stop.is_set():
            while len(held) < self.n:
                s = socket.socket()
                s.settimeout(0.5)
                try:
                    s.connect(("127.0.0.1", self.port))
                except OSError:
                    s.close()
                    break
                held.append(s)
                self.opened += 1
            readable, _, _ = select.select(held, [], [], 0.05) if held else ([], [], [])
            for s in readable:
                try:
                    data = s.recv(4096)
                except OSError:
                    data = b""
                if not data:
                    held.remove(s)
                    s.close()
            if len(held) < self.n:
                time.sleep(0.02)
        for s in held:
            s.close()


def test_a_flood_on_a_resuming_players_listener_ejects_nobody(tmp_path: Path) -> None:
    host_home, join_home = tmp_path / "host", tmp_path / "join"
    with _mid_game(host_home, join_home, ["--seats", "2", "--timeout", "10", "--bot-delay",
                                          "0.05"]) as (host, joiner, drain, rest):
        joiner.send_signal(signal.SIGKILL)
        joiner.communicate(timeout=30)
        (join_log,) = _logs(join_home)
        port = PeersFile.from_bytes(PeersFile.path_for(join_log).read_bytes()).port
        flood = Flood(port)
        flood.thread.start()
        try:
            resumed = subprocess.run([*KOTP2P, "resume", "--bot", "random", "--plain",
                                      "--bot-delay", "0.05", "--bind", "127.0.0.1"],
                                     env=_env(join_home), stdin=subprocess.DEVNULL,
                                     capture_output=True, text=True, timeout=40)
        finally:
            flood.stop.set()
            flood.thread.join(timeout=10)
        host_out, host_err = _host_output(host, drain, rest, 60)
    assert flood.opened >= FLOOD  # the flood held the listener
    assert resumed.returncode == 0, resumed.stdout[-2000:] + resumed.stderr[-2000:]
    assert host.returncode == 0, host_err[-2000:]
    (host_log,) = _logs(host_home)
    assert "Game over." in resumed.stdout and "Game over." in host_out
    assert host_log.read_bytes() == join_log.read_bytes()
    _assert_valid(host_log, join_log)
    verdict = json.loads(verdict_of(host_log).to_json())
    assert not verdict["forfeit"] and verdict["faults"] == []
