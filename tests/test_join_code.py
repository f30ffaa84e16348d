"""``kotp2p host --join-code`` and ``kotp2p join --join-code`` as separate processes on 127.0.0.1."""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.test_netplay import KOTP2P, _env, _start
from tests.watchdog import kill_after


def _read_until(proc: subprocess.Popen[str], pattern: str, seconds: float) -> re.Match[str]:
    """The first line of ``proc``'s output that matches ``pattern``."""
    assert proc.stdout is not None
    seen = []
    deadline = time.monotonic() + seconds
    with kill_after(proc, seconds):
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            seen.append(line)
            m = re.search(pattern, line)
            if m:
                return m
            if not line:
                break
    raise AssertionError(f"never printed {pattern!r}:\n" + "".join(seen))


@contextmanager
def _lobby(home: Path, *code: str, said: list[str] | None = None
           ) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """A host with a random bot on 127.0.0.1, 3 seats (so it waits in its lobby), and ``code``
    after ``--join-code`` if given; yields it and its lobby's port. ``said`` gets what it
    printed on standard error, once it is stopped."""
    host = _start(home, ["host", "--bot", "random", "--seats", "3", "--no-announce", "--plain",
                         "--bind", "127.0.0.1", "--port", "0", *code])
    try:
        port = int(_read_until(host, r"hosting on port (\d+)", 30).group(1))
        yield host, port
    finally:
        host.kill()
        _, err = host.communicate()
        if said is not None:
            said.append(err)


def _join(home: Path, port: int, code: str) -> subprocess.Popen[str]:
    return _start(home, ["join", f"127.0.0.1:{port}", "--join-code", code, "--bot", "random",
                         "--plain"])


def test_a_generated_code_is_shown_and_lets_in_whoever_types_it(tmp_path: Path) -> None:
    said: list[str] = []
    with _lobby(tmp_path / "host", "--join-code", said=said) as (host, port):
        code = _read_until(host, r"join code: (\d+-[a-z]+-[a-z]+) ", 5).group(1)
        wrong = _join(tmp_path / "wrong", port, "1-fox-fox")
        out, err = wrong.communicate(timeout=20)
        assert wrong.returncode == 1, out + err
        assert "does not know the join code you typed" in err
        spoken = "  " + code.upper().replace("-", " ") + " "  # as read aloud and typed
        joiner = _join(tmp_path / "join", port, spoken)
        try:
            _read_until(joiner, r"seated at seat 1", 20)
        finally:
            joiner.kill()
            joiner.communicate()
    assert "refused a lobby connection from 127.0.0.1: wrong join code" in said[0]


def test_a_joiner_with_a_code_is_told_when_the_host_does_not_know_it(tmp_path: Path) -> None:
    """A stranger's lobby asks no code: a joiner who came with one is not seated there."""
    with _lobby(tmp_path / "stranger") as (_, port):
        joiner = _join(tmp_path / "join", port, "7-tiger-ocean")
        try:
            out, err = joiner.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            joiner.kill()
            out, err = joiner.communicate()
            raise AssertionError("the joiner stayed in the stranger's lobby:\n" + out) from None
        assert joiner.returncode == 1, out + err
        assert "this host does not know the join code you typed" in out + err


def test_a_joiner_without_the_code_is_asked_for_it_once_and_gets_a_seat(tmp_path: Path) -> None:
    """``join HOST:PORT`` without --join-code, at a game with a code: the joiner types the code
    when asked, as it would have typed it on the command line."""
    with _lobby(tmp_path / "host", "--join-code", "Tiger Lily") as (_, port):
        joiner = subprocess.Popen([*KOTP2P, "join", f"127.0.0.1:{port}", "--plain"],
                                  env=_env(tmp_path / "join"), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            _read_until(joiner, r"this game needs a join code: type the code", 20)
            assert joiner.stdin is not None
            joiner.stdin.write("tiger-lily\n")
            joiner.stdin.flush()
            _read_until(joiner, r"seated at seat 1", 20)
        finally:
            joiner.kill()
            joiner.communicate()


def test_help_tells_that_join_code_alone_makes_a_code() -> None:
    shown = subprocess.run([*KOTP2P, "host", "--help"], env=_env(Path("/nonexistent")),
                           capture_output=True, text=True, timeout=60).stdout
    assert "7-tiger-ocean" in " ".join(shown.split())
