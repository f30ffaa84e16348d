"""``kotp2p resume`` against lost files, wrong files and a game run twice, with real processes on
127.0.0.1: a resume never forks its seat, and a second process of one seat stops at once."""

from __future__ import annotations

import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from kotp2p.net.files import SeatFile, SeatSecret, read_log
from tests.test_netplay import (
    KOTP2P,
    _assert_valid,
    _env,
    _host_output,
    _logs,
    _mid_game,
    _resume,
    _stopped_net_game,
    verdict_of,
)
from tests.watchdog import kill_after

SLOW_HOST = ["--seats", "2", "--bot-delay", "0.2"]
"""A game that still runs when a second process starts; the test stops it then."""


def _damage_middle(path: Path) -> None:
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 200] = b"\xff" * 200
    path.write_bytes(bytes(data))


def _kill_after_its_own_move(host: subprocess.Popen[str], joiner: subprocess.Popen[str],
                             join_home: Path) -> None:
    """kill -9 the joiner just after it signed the first move of its turn, before the host
    acknowledged it: that move is in its journal, and not yet in its log. The host is paused
    meanwhile, so the step stays open."""
    assert joiner.stdout is not None
    (log,) = _logs(join_home)
    mine = read_log(log).genesis.seats[1].monster
    with kill_after(joiner, 60):
        while True:
            line = joiner.stdout.readline()
            assert line, "the joiner ended before its turn came"
            if line.startswith("-- turn ") and line.rstrip().endswith(f": {mine} --"):
                break
    host.send_signal(signal.SIGSTOP)
    try:
        time.sleep(0.5)  # its bot moves after 0.05 s; the move waits for the host's ACK
        joiner.send_signal(signal.SIGKILL)
        joiner.communicate(timeout=30)
    finally:
        host.send_signal(signal.SIGCONT)


@pytest.mark.parametrize("journal", ["deleted", "damaged in the middle"])
def test_a_joiner_killed_then_resumed_without_its_journal_plays_on_unconvicted(
        journal: str, tmp_path: Path) -> None:
    """kill -9 mid-game, the journal lost or damaged: the resumed joiner asks its peer what it
    signed before going on. Nobody is convicted or ejected, both logs are the same and VALID."""
    host_home, join_home = tmp_path / "host", tmp_path / "join"
    with _mid_game(host_home, join_home, ["--seats", "2"]) as (host, joiner, drain, rest):
        _kill_after_its_own_move(host, joiner, join_home)
        (join_log,) = _logs(join_home)
        path = join_log.with_suffix(".journal")
        if journal == "deleted":
            path.unlink()
        else:
            _damage_middle(path)
        resumed = _resume(join_home)
        host_out, host_err = _host_output(host, drain, rest, 60)
    said = resumed.stdout[-3000:] + resumed.stderr[-3000:]
    assert resumed.returncode == 0, said
    assert host.returncode == 0, host_err[-2000:]
    assert "catching up after the restart" in resumed.stdout and "caught up with the others" in resumed.stdout
    for out in (resumed.stdout, host_out):
        assert "Game over." in out and "by forfeit" not in out, out[-2000:]
        assert "broke" not in out and "ejected" not in out, out[-2000:]
    (host_log,) = _logs(host_home)
    assert host_log.read_bytes() == join_log.read_bytes()
    _assert_valid(host_log, join_log)


def _run(home: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*KOTP2P, *args], env=_env(home), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def _seats(log: Path) -> SeatFile:
    return SeatFile.from_bytes(log.with_suffix(".seats").read_bytes())


def _with_secret(seats: SeatFile, seat: int, secret: bytes) -> SeatFile:
    return SeatFile(seats.mode, seats.created, seats.me, tuple(
        SeatSecret(s.seat, s.key, secret if s.seat == seat else s.secret, s.bot)
        for s in seats.seats), seats.timeout)


@pytest.mark.parametrize("fault", ["wrong chain secret", "seats file of another game",
                                   "journal of another game"])
def test_resume_with_mismatched_files_says_which_file_and_exits_1(
        fault: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    log = _stopped_net_game(tmp_path / "a", monkeypatch)
    other = _stopped_net_game(tmp_path / "b", monkeypatch)
    seats_path, journal_path = log.with_suffix(".seats"), log.with_suffix(".journal")
    if fault == "wrong chain secret":
        seats_path.write_bytes(_with_secret(_seats(log), 1, b"\x07" * 32).to_bytes())
        named, expected = seats_path, "chain secret of seat 1"
    elif fault == "seats file of another game":
        shutil.copyfile(other.with_suffix(".seats"), seats_path)
        named, expected = seats_path, "is it the seats file of another game?"
    else:
        shutil.copyfile(other.with_suffix(".journal"), journal_path)
        named, expected = journal_path, "expected game"
    done = _run(tmp_path / "a", "resume", "--plain", "--bind", "127.0.0.1", str(log))
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1, done.stderr[-3000:]
    assert len(lines) == 1 and str(named) in lines[0] and expected in lines[0], lines
    assert "crash" not in done.stderr and "Traceback" not in done.stderr


def _stop(host: subprocess.Popen[str], joiner: subprocess.Popen[str],
          drain: threading.Thread, rest: list[tuple[str, str]]) -> tuple[str, str]:
    """Ctrl-C both players, as a user stops a game to resume it later; their outputs."""
    for p in (joiner, host):
        if p.poll() is None:
            p.send_signal(signal.SIGINT)
    join_out, join_err = joiner.communicate(timeout=30)
    host_out, host_err = _host_output(host, drain, rest, 30)
    return host_out + host_err, join_out + join_err


def _honest(home: Path, out: str) -> None:
    """Nobody broke a rule or was ejected, as ``out`` tells and as the log verifies."""
    assert "broke" not in out and "ejected" not in out and "violation" not in out, out[-3000:]
    (log,) = _logs(home)
    verdict = verdict_of(log)
    assert verdict.status in ("VALID", "INCOMPLETE"), verdict.render()[-2000:]


def test_a_second_process_on_one_data_directory_is_refused_at_once_naming_the_first(
        tmp_path: Path) -> None:
    host_home, join_home = tmp_path / "host", tmp_path / "join"
    with _mid_game(host_home, join_home, SLOW_HOST) as (host, joiner, drain, rest):
        (log,) = _logs(join_home)
        started = time.monotonic()
        second = _run(join_home, "resume", "--bot", "random", "--plain", "--bind", "127.0.0.1",
                      str(log), timeout=30)
        took = time.monotonic() - started
        _stop(host, joiner, drain, rest)
    assert second.returncode == 1, second.stderr[-2000:]
    assert f"process {joiner.pid} (kotp2p join)" in second.stderr, second.stderr
    assert took < 10


@pytest.mark.parametrize("seat", ["host", "joiner"])
def test_a_copy_of_a_running_seats_data_directory_is_told_and_stops_and_nothing_forks(
        seat: str, tmp_path: Path) -> None:
    """A seat's data directory copied mid-game and resumed while the seat plays. The host's
    copy runs elsewhere (another address): it dials seat 1, which refuses it because its link
    to the host still answers. The joiner's copy runs on the same machine: its port is taken
    by the joiner, which plays the same seat. Either copy says so and exits 1 without signing
    anything, and the game plays on with nobody convicted."""
    host_home, join_home, copy_home = tmp_path / "host", tmp_path / "join", tmp_path / "copy"
    with _mid_game(host_home, join_home, SLOW_HOST) as (host, joiner, drain, rest):
        shutil.copytree(host_home if seat == "host" else join_home, copy_home)
        for lock in copy_home.rglob("*.lock"):
            lock.unlink()  # as if copied to another machine: this lock cannot see the first
        bind = "127.0.0.2" if seat == "host" else "127.0.0.1"
        copy = _run(copy_home, "resume", "--bot", "random", "--plain", "--bind", bind,
                    timeout=30)
        (join_log,) = _logs(join_home)
        moves = len(read_log(join_log).payloads)
        time.sleep(1.0)  # the game goes on
        went_on = len(read_log(join_log).payloads) > moves or host.poll() is not None
        host_out, join_out = _stop(host, joiner, drain, rest)
    said = copy.stdout[-2000:] + copy.stderr[-2000:]
    assert copy.returncode == 1, said
    assert "is the game running twice" in copy.stderr and "without having signed" in said, said
    if seat == "host":
        assert "already connected to seat 1 and answering" in copy.stderr, said
    assert went_on
    _honest(host_home, host_out)
    _honest(join_home, join_out)
