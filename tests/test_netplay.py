"""``kotp2p host`` and ``kotp2p join`` as separate processes on 127.0.0.1: a whole game."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager, contextmanager
from pathlib import Path

import pytest
import trio

from kotp2p.app.localgame import last_words
from kotp2p.app.netview import PlainNet
from kotp2p.cli import build_parser
from kotp2p.net.files import SeatFile, parse_log, read_log
from kotp2p.net.session import Session
from kotp2p.net.transport import Links, run_session
from kotp2p.net.trust import RulesEngine
from kotp2p.net.verify import Verdict, verify_logs
from tests.watchdog import kill_after

KOTP2P = [sys.executable, "-m", "kotp2p"]


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "KOTP2P_HOME": str(home), "PYTHONUNBUFFERED": "1"}


def _start(home: Path, args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen([*KOTP2P, *args], env=_env(home), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _port(host: subprocess.Popen[str], deadline: float) -> tuple[int, list[str]]:
    assert host.stdout is not None
    seen = []
    with kill_after(host, max(1.0, deadline - time.monotonic())):
        while time.monotonic() < deadline:
            line = host.stdout.readline()
            seen.append(line)
            m = re.search(r"hosting on port (\d+)", line)
            if m:
                return int(m.group(1)), seen
            if not line and host.poll() is not None:
                break
    raise AssertionError("the host never said its port:\n" + "".join(seen))


def _logs(home: Path) -> list[Path]:
    return sorted((home / "data" / "games").glob("*.kotlog"))


def _drain(host: subprocess.Popen[str]) -> tuple[threading.Thread, list[tuple[str, str]]]:
    """Read the host's output in a thread (so a long game never fills its pipe); the list gets
    ``(stdout, stderr)`` when the host ends."""
    rest: list[tuple[str, str]] = []
    drain = threading.Thread(target=lambda: rest.append(host.communicate(timeout=300)))
    drain.start()
    return drain, rest


def _host_output(host: subprocess.Popen[str], drain: threading.Thread,
                 rest: list[tuple[str, str]], seconds: float) -> tuple[str, str]:
    """The host's ``(stdout, stderr)`` once it ended, waiting up to ``seconds`` for that."""
    drain.join(timeout=seconds)
    assert rest, f"the host (pid {host.pid}) still ran {seconds:g} s later"
    return rest[0]


def _wait_for_moves(joiner: subprocess.Popen[str], turns: int = 4) -> None:
    """Read the joiner's output until ``turns`` turns began (mid-game)."""
    assert joiner.stdout is not None
    seen = 0
    with kill_after(joiner, 120):
        while seen < turns:
            line = joiner.stdout.readline()
            assert line, "the joiner ended (or hung for 120 s) before the game was under way"
            seen += line.startswith("-- turn ")


@contextmanager
def _mid_game(host_home: Path, join_home: Path, host_args: list[str]) -> Iterator[
        tuple[subprocess.Popen[str], subprocess.Popen[str], threading.Thread,
              list[tuple[str, str]]]]:
    """``kotp2p host`` (a random bot, plain, on 127.0.0.1, with ``host_args``) and a joiner (a
    random bot), under way: yields host, joiner, the host's drain thread and its output list
    once the joiner saw a few turns begin; whichever still runs at the end is killed."""
    procs: list[subprocess.Popen[str]] = []
    try:
        host = _start(host_home, ["host", "--bot", "random", *host_args, "--no-announce",
                                  "--plain", "--bind", "127.0.0.1"])
        procs.append(host)
        port, _ = _port(host, time.monotonic() + 60)
        drain, rest = _drain(host)
        joiner = _start(join_home, ["join", f"127.0.0.1:{port}", "--bot", "random", "--plain",
                                    "--bot-delay", "0.05"])
        procs.append(joiner)
        _wait_for_moves(joiner)  # mid-game: some moves applied
        yield host, joiner, drain, rest
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()


def _resume(home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*KOTP2P, "resume", "--bot", "random", "--plain", "--bind",
                           "127.0.0.1"], env=_env(home),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=240)


def verdict_of(*logs: Path) -> Verdict:
    """What ``kotp2p verify`` says of the logs, asked in this process: a verify process would
    only add its start to the test's time."""
    return verify_logs([parse_log(p.read_bytes(), p.name) for p in logs], RulesEngine(),
                       workers=1)


def _assert_valid(*logs: Path) -> None:
    """``kotp2p verify`` finds the logs valid."""
    verdict = verdict_of(*logs)
    assert verdict.status == "VALID", verdict.render()


def _host_and_joiner(tmp_path: Path, host_args: list[str]) -> tuple[str, str, Path, Path]:
    """A host with ``host_args`` and a random-bot joiner play a game to its end.

    Returns each one's output, once both exited with 0, and each one's log."""
    host_home, join_home = tmp_path / "host", tmp_path / "join"
    host = _start(host_home, ["host", "--bot", "random", *host_args, "--no-announce", "--plain",
                              "--bind", "127.0.0.1"])
    try:
        port, first = _port(host, time.monotonic() + 60)
        drain, rest = _drain(host)
        joiner = _start(join_home, ["join", f"127.0.0.1:{port}", "--bot", "random", "--plain"])
        join_out, join_err = joiner.communicate(timeout=240)
        host_out, host_err = _host_output(host, drain, rest, 60)
    finally:
        if host.poll() is None:
            host.kill()
    assert joiner.returncode == 0, join_err
    assert host.returncode == 0, host_err
    (host_log,), (join_log,) = _logs(host_home), _logs(join_home)
    return "".join(first) + host_out, join_out, host_log, join_log


def test_a_host_and_a_joiner_in_two_processes_finish_a_game(tmp_path: Path) -> None:
    host_out, join_out, host_log, join_log = _host_and_joiner(tmp_path,
                                                              ["--seats", "3", "--bots", "1"])
    assert "Game over." in host_out and host_out.rstrip().endswith(f"Log: {host_log}")
    assert "Game over." in join_out and join_out.rstrip().endswith(f"Log: {join_log}")
    assert "check words:" in join_out
    assert host_log.read_bytes() == join_log.read_bytes()
    contents = read_log(host_log)
    assert [s.name for s in contents.genesis.seats][1].startswith("Bot 1")
    _assert_valid(host_log, join_log)


@pytest.mark.parametrize(("option", "name", "shown", "times"), [
    ("halloween", "Halloween", "dresses up: it keeps", range(2, 3)),  # each seat, once
    ("power-up", "Power Up!", "draws 2 Evolutions", range(2, 99)),  # each at the start, and more
], ids=["halloween", "power-up"])
def test_an_expansion_game_between_two_processes_leaves_identical_valid_logs(
        tmp_path: Path, option: str, name: str, shown: str, times: range) -> None:
    """With Power Up!, each hand stays hidden until played, and every slot opens at the end."""
    host_out, join_out, host_log, join_log = _host_and_joiner(tmp_path,
                                                              ["--seats", "2", f"--{option}"])
    assert f"{name}: on" in join_out  # the joiner saw it in the lobby before it readied
    for out in (host_out, join_out):
        assert out.count(shown) in times and "Game over." in out
    assert host_log.read_bytes() == join_log.read_bytes()
    assert read_log(host_log).genesis.options == [None, [option]]
    _assert_valid(host_log, join_log)


def test_a_joiner_killed_mid_game_resumes_and_the_game_finishes(tmp_path: Path) -> None:
    host_home, join_home = tmp_path / "host", tmp_path / "join"
    with _mid_game(host_home, join_home, ["--seats", "3", "--bots", "1"]) as (
            host, joiner, drain, rest):
        joiner.send_signal(signal.SIGKILL)
        joiner.communicate(timeout=30)
        games = subprocess.run([*KOTP2P, "games", "--json"], env=_env(join_home),
                               capture_output=True, text=True, timeout=60)
        (game,) = json.loads(games.stdout)
        assert game["state"] != "finished" and game["mode"] == "net"
        resumed = _resume(join_home)
        host_out, host_err = _host_output(host, drain, rest, 60)
    assert resumed.returncode == 0, resumed.stdout[-2000:] + resumed.stderr[-2000:]
    assert host.returncode == 0, host_err[-2000:]
    (host_log,), (join_log,) = _logs(host_home), _logs(join_home)
    assert "Game over." in resumed.stdout and "Game over." in host_out
    assert host_log.read_bytes() == join_log.read_bytes()
    _assert_valid(host_log, join_log)


def _free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_a_host_whose_bots_fill_every_seat_plays_the_game_at_once(tmp_path: Path) -> None:
    home = tmp_path / "host"
    host = _start(home, ["host", "--seats", "3", "--bots", "2", "--bot", "random", "--no-announce",
                         "--plain", "--bind", "127.0.0.1", "--port", "0"])
    out, err = host.communicate(timeout=240)
    assert host.returncode == 0, err[-2000:]
    assert "the game starts; check words:" in out and "Game over." in out
    (log,) = _logs(home)
    _assert_valid(log)


def test_a_joiner_finds_the_game_by_its_beacon_on_loopback(tmp_path: Path) -> None:
    beacon = f"127.0.0.1:{_free_udp_port()}"
    host_home, join_home = tmp_path / "host", tmp_path / "join"
    host = _start(host_home, ["host", "--bot", "random", "--seats", "2", "--announce", beacon,
                              "--plain", "--bind", "127.0.0.1", "--port", "0",
                              "--join-code", "tiger"])
    try:
        port, _ = _port(host, time.monotonic() + 60)
        drain, rest = _drain(host)
        joiner = _start(join_home, ["join", "--discover", beacon, "--bot", "random", "--plain",
                                    "--join-code", "tiger"])
        join_out, join_err = joiner.communicate(timeout=240)
        drain.join(timeout=60)
    finally:
        for p in (host, joiner):
            if p.poll() is None:
                p.kill()
    assert joiner.returncode == 0, join_err[-2000:]
    assert f"1. Player's game hosted by Player at 127.0.0.1:{port}: 1 of 2 seats free, join code needed" in join_out
    assert "Game over." in join_out and "Game over." in rest[0][0]


def test_ctrl_c_stops_a_joiner_resumably_and_its_resume_keeps_the_lobby_timeout(
        tmp_path: Path) -> None:
    """Ctrl-C in ``join`` mid-game: the session stops (log flushed, links closed in order), exit
    130; the host waits; ``resume`` finishes the game with the lobby's --timeout kept."""
    host_home, join_home = tmp_path / "host", tmp_path / "join"
    with _mid_game(host_home, join_home, ["--seats", "2", "--timeout", "45"]) as (
            host, joiner, drain, rest):
        joiner.send_signal(signal.SIGINT)
        out, err = joiner.communicate(timeout=30)
        assert joiner.returncode == 130 and "interrupted" in err, (out[-1000:], err[-2000:])
        assert "Stopped; the log is" in out and "kotp2p resume" in out, (out[-800:], err[-3000:])
        (join_log,) = _logs(join_home)
        seats = SeatFile.from_bytes(join_log.with_suffix(".seats").read_bytes())
        assert seats.timeout == 45
        resumed = _resume(join_home)
        host_out, host_err = _host_output(host, drain, rest, 60)
    assert resumed.returncode == 0, resumed.stdout[-2000:] + resumed.stderr[-2000:]
    assert host.returncode == 0, host_err[-2000:]
    assert "Game over." in resumed.stdout and "Game over." in host_out
    (host_log,) = _logs(host_home)
    assert host_log.read_bytes() == join_log.read_bytes()
    _assert_valid(host_log, join_log)


class _Screen(PlainNet):
    """Stands for the full screen of ``host``: what the command reports goes to it (and is
    gone with it); its game is played by the bot in the user's seat to the end, or stopped at
    once as a player pressing q then y would. The lines for the terminal are printed once it
    is gone, as the full screen's are."""

    def __init__(self, stop: bool) -> None:
        super().__init__(io.StringIO(), None, host=True)
        self.stop = stop
        self.writer = self.out
        self.printed_meanwhile = ""
        self.after: list[str] = []

    async def play(self, session: Session, links: Links, log_path: str,
                   restore: tuple[list[bytes], list[bytes]] | None = None,
                   trace: object = None) -> bool:
        if self.stop:
            await trio.sleep(0.2)
            session.quit()
        return await run_session(session, links=links, restore=restore)

    def game_stopped(self, text: str) -> None:
        self.after.append(text)

    def game_ended(self, session: Session, log_path: Path, over: bool) -> None:
        self.after.append(last_words(session, log_path, over))

    def __call__(self, main: Callable[[_Screen], Awaitable[int]]) -> int:
        try:
            return trio.run(main, self)
        finally:
            self.printed_meanwhile = sys.stdout.getvalue()  # type: ignore[attr-defined]
            for line in self.after:
                print(line)


@pytest.mark.parametrize("stop", [False, True])
def test_host_in_the_full_screen_leaves_the_log_and_the_outcome_on_the_terminal(
        stop: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Once the full screen closes, the terminal says where the log is, with the winner (the
    game ended) or the way to go on (the player left mid-game), as ``play`` does."""
    from kotp2p.app.netgame import run_host_command

    monkeypatch.setenv("KOTP2P_HOME", str(tmp_path))
    args = build_parser().parse_args(["host", "--seats", "2", "--bots", "1", "--bot", "random",
                                      "--no-announce", "--bind", "127.0.0.1", "--port", "0"])
    screen = _Screen(stop)
    assert run_host_command(args, screen) == 0
    out = capsys.readouterr().out
    (log,) = _logs(tmp_path)
    assert screen.printed_meanwhile == ""  # nothing drawn over the screen while it was up
    assert "hosting on port" in screen.writer.getvalue()
    if stop:
        assert out == f"Stopped; the log is {log} (`kotp2p resume` continues).\n"
    else:
        assert re.fullmatch(rf"Game over\. .*(won|lost).* Log: {re.escape(str(log))}\n", out), out


def test_leaving_a_network_game_in_the_full_screen_says_how_to_resume_it(tmp_path: Path) -> None:
    """A real terminal: ``host`` in the full screen, the game started, q then y: once the
    screen is gone, the terminal shows the log and the ``kotp2p resume`` hint."""
    from tests.ui.tmux import Terminal

    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "KOTP2P_HOME": str(tmp_path)}
    term = Terminal([str(Path(sys.executable).with_name("kotp2p")), "host", "--port", "0",
                     "--seats", "2", "--bots", "1", "--no-announce", "--bind", "127.0.0.1",
                     "--pause", "0"], env, width=200)
    try:
        term.wait_for("hosting on port")
        term.keys("m")
        term.wait_until(lambda s: "no monster yet" not in s, "a monster picked")
        term.keys("r")
        term.wait_until(lambda s: "ready (you)" in s and "not ready (you)" not in s, "ready")
        term.keys("s")
        term.wait_for("King of Tokyo")
        term.keys("q")
        term.wait_for("Quit?")
        term.keys("y")
        screen = term.wait_for("EXITED 0")
    finally:
        term.close()
    (log,) = _logs(tmp_path)
    # Started by the venv's path, with no kotp2p on the PATH: the hint names that path.
    said = screen.split(f"Stopped; the log is {log} (`", 1)[1].split("` continues).", 1)[0]
    assert said.endswith("bin/kotp2p resume"), said


def _stopped_net_game(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A networked game stopped at once in ``home`` (a host and its bot, the user's seat
    played by a bot): its log."""
    from kotp2p.app.netgame import run_host_command

    monkeypatch.setenv("KOTP2P_HOME", str(home))
    args = build_parser().parse_args(["host", "--seats", "2", "--bots", "1", "--bot", "random",
                                      "--no-announce", "--bind", "127.0.0.1", "--port", "0"])
    assert run_host_command(args, _Screen(stop=True)) == 0
    (log,) = _logs(home)
    return log


def _reachable(address: str, port: int) -> bool:
    async def dial() -> bool:
        try:
            stream = await trio.open_tcp_stream(address, port)
        except OSError:
            return False
        await stream.aclose()
        return True

    return trio.run(dial)


def test_resume_bind_listens_on_that_address_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``kotp2p resume --bind 127.0.0.1``: the resumed game listens on 127.0.0.1, not on ::1
    (without --bind it listens on every address), and plays on to the end."""
    from kotp2p.app.resume import run_resume_command
    from kotp2p.net.files import PeersFile

    log = _stopped_net_game(tmp_path, monkeypatch)
    port = PeersFile.from_bytes(PeersFile.path_for(log).read_bytes()).port
    capsys.readouterr()
    heard: dict[str, bool] = {}

    def ui(session: Session, log_path: str,
           restore: tuple[list[bytes], list[bytes]] | None,
           connect: Callable[[Session], AbstractAsyncContextManager[Links]] | None) -> bool:
        assert connect is not None

        async def run() -> bool:
            async with connect(session) as links:
                for address in ("127.0.0.1", "::1"):
                    heard[address] = await trio.to_thread.run_sync(_reachable, address, port)
                return await run_session(session, links=links, restore=restore)

        return trio.run(run)

    args = build_parser().parse_args(["resume", "--bind", "127.0.0.1", log.name[:8]])
    assert run_resume_command(args, ui) == 0
    assert heard == {"127.0.0.1": True, "::1": False}
    assert capsys.readouterr().out.startswith("Game over.")

