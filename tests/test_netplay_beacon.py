"""Beacons that cannot pass for another game, with real ``host`` and ``join`` processes on 127.x.

A relay in the test carries the real host's beacons to the joiner from the host's own address,
127.0.0.1. It also replays them from a stranger's address, 127.0.0.2, where a stranger's
``kotp2p host`` listens on the same port. A look-alike signed by another key comes from 127.0.0.3.
"""

from __future__ import annotations

import re
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from kotp2p.net.lobby import Announcement
from kotp2p.net.wire import Identity
from tests.test_netplay import KOTP2P, _env, _free_udp_port, _port, _start
from tests.watchdog import kill_after

pytestmark = pytest.mark.waits


def _relay(inbox: socket.socket, joiner: tuple[str, int], look_alike: bytes,
           stop: threading.Event) -> None:
    """Forward each beacon from ``inbox`` to ``joiner`` from 127.0.0.1 and from 127.0.0.2; send
    ``look_alike`` from 127.0.0.3 beside it."""
    senders = []
    for source in ("127.0.0.1", "127.0.0.2", "127.0.0.3"):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind((source, 0))
        senders.append(s)
    inbox.settimeout(0.2)
    try:
        while not stop.is_set():
            try:
                data = inbox.recv(600)
            except TimeoutError:
                continue
            senders[0].sendto(data, joiner)
            senders[1].sendto(data, joiner)  # the stranger's replay
            senders[2].sendto(look_alike, joiner)
    finally:
        for s in senders:
            s.close()


def _read_until(proc: subprocess.Popen[str], pattern: str, seconds: float) -> re.Match[str]:
    assert proc.stdout is not None
    seen = []
    with kill_after(proc, seconds):
        while True:
            line = proc.stdout.readline()
            seen.append(line)
            m = re.search(pattern, line)
            if m:
                return m
            assert line, f"never printed {pattern!r}:\n" + "".join(seen)


def test_a_replayed_beacon_is_marked_and_its_address_refused_for_want_of_the_host_key(
        tmp_path: Path) -> None:
    """Failure 5 with real processes: the stranger's entries carry the real game's exact name and
    host name. Every entry is marked, the look-alike shows another host key, and the joiner that
    picks the stranger's address is told it does not hold the key of the game it picked."""
    inbox = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    inbox.bind(("127.0.0.1", 0))
    joiner_port = _free_udp_port()
    stop = threading.Event()
    procs: list[subprocess.Popen[str]] = []
    relay: threading.Thread | None = None
    try:
        host = _start(tmp_path / "host", [
            "host", "--bot", "random", "--seats", "2", "--plain", "--bind", "127.0.0.1",
            "--port", "0", "--announce", f"127.0.0.1:{inbox.getsockname()[1]}"])
        procs.append(host)
        port, _ = _port(host, time.monotonic() + 30)
        key = _read_until(host, r"announcing Player's game with host key ([0-9a-f-]{19})", 10)[1]
        stranger = _start(tmp_path / "stranger", [
            "host", "--bot", "random", "--seats", "2", "--plain", "--bind", "127.0.0.2",
            "--port", str(port), "--no-announce"])
        procs.append(stranger)
        assert _port(stranger, time.monotonic() + 30)[0] == port
        other = Identity.generate("Player")
        look_alike = Announcement("Player's game", "Player", port, 1, 2).encode(other)
        relay = threading.Thread(target=_relay, args=(inbox, ("127.0.0.1", joiner_port),
                                                      look_alike, stop))
        relay.start()
        joiner = subprocess.Popen(
            [*KOTP2P, "join", "--discover", f"127.0.0.1:{joiner_port}", "--plain"],
            env=_env(tmp_path / "join"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        procs.append(joiner)
        assert joiner.stdin is not None
        joiner.stdin.write("2\n")  # the stranger's address; the input stays open, as a user's
        joiner.stdin.flush()
        joiner.wait(timeout=30)
    finally:
        stop.set()
        if relay is not None:
            relay.join()
        outputs = []
        for p in procs:
            if p.poll() is None:
                p.kill()
            outputs.append(p.communicate())
        inbox.close()
    out, err = outputs[-1]
    game = f"Player's game hosted by Player at 127.0.0.{{}}:{port}: 1 of 2 seats free"
    both = "!! another host key announces this name; this host key is also announced from"
    assert f"1. !! {game.format(1)}; host key {key} {both} 127.0.0.2" in out, out
    assert f"2. !! {game.format(2)}; host key {key} {both} 127.0.0.1" in out, out
    assert (f"3. !! {game.format(3)}; host key {other.fingerprint} !! another host key "
            "announces this name") in out, out
    assert other.fingerprint != key
    assert joiner.returncode == 1, (out, err)
    assert (f"the program at 127.0.0.2:{port} does not hold the host key {key} of the game "
            "picked from the list") in err, err
