"""Strangers on the LAN against real ``kotp2p host`` and ``join`` processes on 127.0.0.1.

The strangers dial from 127.0.0.2 and up, as other machines of the LAN would. The honest players
dial from 127.0.0.1.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from functools import partial
from pathlib import Path
from typing import IO

import trio

from kotp2p.net.lobby import DialerHandshake
from kotp2p.net.transport import Mesh, MeshPort, serve_tcp
from tests.floods import Counts, claimers, silent_flood, squatters
from tests.net.harness import Table, make_table
from tests.net.toy import ToyEngine
from tests.test_netplay import KOTP2P, _env, _port, _start


class Output:
    """Every line a process prints, read in threads so its pipes never fill."""

    def __init__(self, proc: subprocess.Popen[str], first: Sequence[str] = ()) -> None:
        self.proc = proc
        self.lines: list[str] = list(first)
        self.errors: list[str] = []
        self._threads = [threading.Thread(target=self._read, args=(pipe, out), daemon=True)
                         for pipe, out in ((proc.stdout, self.lines), (proc.stderr, self.errors))]
        for t in self._threads:
            t.start()

    @staticmethod
    def _read(pipe: IO[str] | None, out: list[str]) -> None:
        for line in pipe or ():
            out.append(line)

    def stop(self) -> None:
        """Kill the process if it still runs, and read its output to the end."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)
        for t in self._threads:
            t.join(timeout=30)
        for pipe in (self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                pipe.close()

    def wait_for(self, text: str, seconds: float) -> bool:
        """True once a line of either pipe holds ``text``; False once the process ended without
        it, or after ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            ended = self.proc.poll() is not None
            if any(text in line for line in self.lines + self.errors):
                return True
            if ended:
                for t in self._threads:
                    t.join(timeout=5)
                return any(text in line for line in self.lines + self.errors)
            time.sleep(0.05)
        return False


def _settle(done: Callable[[], bool], seconds: float = 10) -> None:
    """Wait until ``done()``, for ``seconds`` at most: a flood is under way, or as far as it got."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        time.sleep(0.05)


def _host(home: Path, *args: str) -> tuple[int, Output]:
    host = _start(home, ["host", "--bot", "random", *args, "--no-announce", "--plain",
                         "--bind", "127.0.0.1", "--port", "0"])
    port, first = _port(host, time.monotonic() + 60)
    return port, Output(host, first)


def _join(home: Path, port: int, *args: str) -> Output:
    return Output(_start(home, ["join", f"127.0.0.1:{port}", "--bot", "random", "--plain", *args]))


def _stop(*outputs: Output) -> None:
    for out in outputs:
        out.stop()


def test_a_flood_of_silent_connections_keeps_no_honest_joiner_out(tmp_path: Path) -> None:
    port, out = _host(tmp_path / "host", "--seats", "4")
    joiners: list[Output] = []
    try:
        with silent_flood(port, 500) as counts:
            _settle(lambda: counts.opened >= 500)  # all connected once
            joiners += [_join(tmp_path / f"join{i}", port) for i in range(3)]
            for said in joiners:
                assert said.wait_for("seated at seat", 60), "".join(said.lines + said.errors)
    finally:
        _stop(out, *joiners)
    warnings = [line for line in out.errors if line.startswith("WARNING")]
    assert any("turned away" in line for line in warnings)
    assert len(warnings) <= 6, f"{len(warnings)} warnings, such as {warnings[:3]}"


def test_squatters_that_pass_the_handshake_keep_no_honest_joiner_out(tmp_path: Path) -> None:
    port, out = _host(tmp_path / "host", "--seats", "2")
    joiners: list[Output] = []
    try:
        with squatters(port, 70) as counts:
            _settle(lambda: counts.opened >= 70 and counts.handshakes >= 20)
            said = _join(tmp_path / "join", port)
            joiners.append(said)
            assert said.wait_for("seated at seat", 60), "".join(said.lines + said.errors)
    finally:
        _stop(out, *joiners)
    assert not any("seat 1: Squatter" in line for line in out.lines)


def test_guessing_the_join_code_backs_off_and_the_host_sees_one_line_for_it(tmp_path: Path) -> None:
    port, out = _host(tmp_path / "host", "--seats", "2", "--join-code", "tiger")
    said: list[str] = []
    try:
        guesses = [_guess(tmp_path / f"g{i}", port, f"lion{i}") for i in range(3)]
        said += [g.communicate(timeout=60)[1] for g in guesses]
        said.append(_guess(tmp_path / "g3", port, "lion3").communicate(timeout=60)[1])
        assert out.wait_for("wrong join codes from 127.0.0.1", 5)
    finally:
        _stop(out)
    assert all("too many wrong join codes" not in s for s in said[:3]), said
    assert "too many wrong join codes" in said[3], said[3]
    told = [line for line in out.lines + out.errors if "wrong" in line]
    assert len(told) == 2, told  # the first wrong code, then the back-off; never one per guess
    assert "3 wrong join codes from 127.0.0.1" in told[1], told


def _guess(home: Path, port: int, code: str) -> subprocess.Popen[str]:
    return subprocess.Popen([*KOTP2P, "join", f"127.0.0.1:{port}", "--bot", "random", "--plain",
                             "--join-code", code], env=_env(home), stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


ENGINE = ToyEngine()


async def test_a_flood_on_a_game_listener_keeps_no_seat_of_the_game_out() -> None:
    table = make_table(ENGINE, 2)
    assert await _links_through(table, lambda port: silent_flood(port, 200))


async def test_strangers_naming_a_seats_key_on_a_game_listener_keep_that_seat_out_no_longer() -> None:
    table = make_table(ENGINE, 2)
    keys = table.genesis.keys

    def hello() -> bytes:
        return DialerHandshake(table.identities[0], engine_id=ENGINE.engine_id,
                               challenge=os.urandom(32), context=table.genesis.game_id,
                               to_key=keys[1], roster=keys).hello()

    assert await _links_through(table, lambda port: claimers(port, hello, 200))


async def test_connections_before_the_game_starts_wait_a_few_per_address() -> None:
    """Before the genesis nobody can prove a seat, so a flood cannot park sockets for a minute."""
    port = MeshPort(wait=30, per_address=2, most=16)
    closed: list[bool] = []

    async def closed_soon(stream: trio.SocketStream) -> None:
        with trio.move_on_after(5):
            closed.append(await stream.receive_some(10) == b"")

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            listening = await nursery.start(partial(serve_tcp, port.handler, 0, "127.0.0.1",
                                                    screen=port))
            streams = [await trio.open_tcp_stream("127.0.0.1", listening, local_address="127.0.0.2")
                       for _ in range(5)]
            async with trio.open_nursery() as readers:
                for stream in streams:
                    readers.start_soon(closed_soon, stream)
            for stream in streams:
                await stream.aclose()
            nursery.cancel_scope.cancel()
    assert closed == [True] * 3


async def _links_through(table: Table, flood: Callable[[int], AbstractContextManager[Counts]]
                         ) -> bool:
    """Seat 0 links to seat 1 while ``flood(port)`` floods seat 1's game listener."""
    up: list[tuple[int, int, bool]] = []
    with trio.fail_after(40):
        async with trio.open_nursery() as nursery:
            high = Mesh(table.genesis, {1: table.identities[1]}, {}, lambda *a: None,
                        engine_id=ENGINE.engine_id)
            port = await nursery.start(partial(serve_tcp, high.accept, 0, "127.0.0.1"))
            with flood(port) as counts:
                while counts.opened < 400:
                    await trio.sleep(0.05)
                low = Mesh(table.genesis, {0: table.identities[0]}, {1: ("127.0.0.1", port)},
                           lambda *a: None, engine_id=ENGINE.engine_id,
                           on_link=lambda *a: up.append(a))
                await nursery.start(low.run)
                with trio.move_on_after(20):
                    while not up:
                        await trio.sleep(0.05)
            nursery.cancel_scope.cancel()
    return up[:1] == [(0, 1, True)]
