"""Options and files a user can get wrong: each is refused in one plain line saying what was
expected, with exit code 1, and no crash log.

Addresses used: 127.0.0.1 and ::1 only, and 192.0.2.1 (a documentation address that is on no
machine) only for a listener that must fail to open; nothing is ever sent to it.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from kotp2p.app import CommandError
from kotp2p.app.netgame import parse_address
from kotp2p.cli import main
from tests.test_netplay import _stopped_net_game

KOTP2P = [sys.executable, "-m", "kotp2p"]
NOWHERE = "192.0.2.1"
"""An address of no machine: binding to it fails."""
NO_NAME = "no-such-host.invalid"
"""A name that never resolves: the .invalid domain is reserved for that."""


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KOTP2P_HOME", str(tmp_path))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    return tmp_path


def _refused(capsys: pytest.CaptureFixture[str], args: list[str], *expected: str) -> str:
    """Run ``args``: exit 1, nothing on stdout, one line on stderr that holds ``expected``."""
    code = main(args)
    out, err = capsys.readouterr()
    assert (code, out) == (1, ""), (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("kotp2p: "), err
    assert "internal error" not in err and "WARNING" not in err
    for text in expected:
        assert text in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("command", [["host", "--no-announce"], ["join", "127.0.0.1:1"],
                                     ["resume"]])
def test_bind_to_an_address_not_on_this_machine_is_refused(
        home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        command: list[str]) -> None:
    if command == ["resume"]:
        _stopped_net_game(home, monkeypatch)
        capsys.readouterr()
    _refused(capsys, [*command, "--plain", "--bind", NOWHERE],
             f"cannot listen on {NOWHERE}: not an address of this machine",
             "expected --bind with an address of this machine")


def test_bind_to_a_name_that_does_not_resolve_is_refused(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _refused(capsys, ["host", "--plain", "--no-announce", "--bind", NO_NAME],
             "not a known name or address", "expected --bind")


@pytest.mark.parametrize("port", ["70000", "-1", "65536"])
def test_a_port_out_of_range_is_refused(home: Path, capsys: pytest.CaptureFixture[str],
                                        port: str) -> None:
    _refused(capsys, ["host", "--plain", "--no-announce", "--port", port],
             f"expected --port from 1 to 65535, or 0 for any free port, found {port}")


@pytest.mark.parametrize(("value", "expected"), [
    (NO_NAME, "expected --announce with an IPv4 address"),
    ("::1", "expected --announce with an IPv4 address"),
    ("127.0.0.1:99999", "expected HOST[:PORT]"),
])
def test_a_bad_announce_address_is_refused_before_the_lobby_opens(
        home: Path, capsys: pytest.CaptureFixture[str], value: str, expected: str) -> None:
    _refused(capsys, ["host", "--plain", "--announce", value], expected)


@pytest.mark.parametrize(("value", "expected"), [
    (f"{NOWHERE}:7447", "not an address of this machine"),
    ("[::1]:7447", "expected --discover with an IPv4 address of this machine"),
    ("0.0.0.0:0x", "expected HOST[:PORT]"),
])
def test_a_bad_discover_address_is_refused(home: Path, capsys: pytest.CaptureFixture[str],
                                           value: str, expected: str) -> None:
    _refused(capsys, ["join", "--plain", "--discover", value], expected)


@pytest.mark.parametrize("code", ["", "   ", "x" * 65])
def test_an_empty_or_huge_join_code_is_refused(home: Path, capsys: pytest.CaptureFixture[str],
                                               code: str) -> None:
    _refused(capsys, ["host", "--plain", "--no-announce", "--join-code", code],
             "expected --join-code of 1 to 64 characters")
    _refused(capsys, ["join", "--plain", "--join-code", code, "127.0.0.1:1"],
             "expected --join-code of 1 to 64 characters")


@pytest.mark.parametrize(("args", "expected"), [
    (["--name", ""], "a name is 1 to 32 printable characters"),
    (["--name", "x" * 33], "a name is 1 to 32 printable characters"),
    (["--seats", "7"], "expected 2 to 6 --seats"),
    (["--seats", "3", "--bots", "3"], "expected 2 to 6 --seats and fewer --bots"),
    (["--timeout", "5"], "expected --timeout of 10 to 3600 seconds"),
])
def test_bad_host_options_are_refused(home: Path, capsys: pytest.CaptureFixture[str],
                                      args: list[str], expected: str) -> None:
    _refused(capsys, ["host", "--plain", "--no-announce", *args], expected)


@pytest.mark.parametrize(("args", "expected"), [
    (["--pause", "-1"], "expected --pause of 0 or more seconds, found -1"),
    (["--pause", "nan"], "expected --pause of 0 or more seconds"),
    (["--auto-leave", "0"], "expected --auto-leave from 1 to 9 hearts, found 0"),
    (["--auto-leave", "10"], "expected --auto-leave from 1 to 9 hearts, found 10"),
    (["--auto-stay", "13"], "expected --auto-stay from 1 to 12 hearts, found 13"),
])
def test_bad_screen_options_are_refused_even_in_the_plain_interface(
        home: Path, capsys: pytest.CaptureFixture[str], args: list[str], expected: str) -> None:
    _refused(capsys, ["play", "--plain", "--bot", "random", *args], expected)
    _refused(capsys, ["host", "--plain", "--bot", "random", "--no-announce", *args], expected)


@pytest.mark.parametrize("command", [["identity"], ["games"], ["replay"],
                                     ["play", "--plain", "--bot", "random"],
                                     ["host", "--plain", "--no-announce"]])
def test_kotp2p_home_naming_a_file_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        command: list[str]) -> None:
    home = tmp_path / "home"
    home.write_text("not a directory")
    monkeypatch.setenv("KOTP2P_HOME", str(home))
    _refused(capsys, command, "Not a directory", "expected KOTP2P_HOME to name a directory")


@pytest.mark.parametrize("command", [["identity"], ["play", "--plain", "--bot", "random"],
                                     ["host", "--plain", "--no-announce"]])
def test_a_damaged_key_file_is_refused(home: Path, capsys: pytest.CaptureFixture[str],
                                       command: list[str]) -> None:
    key = home / "config" / "identity"
    key.parent.mkdir()
    key.write_bytes(b"garbage\n")
    _refused(capsys, command, f"your key file {key} is damaged",
             "move it away and a new key is made")


def test_a_key_file_that_is_a_directory_is_refused(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = home / "config" / "identity"
    key.mkdir(parents=True)
    _refused(capsys, ["identity"], f"cannot use {key}: Is a directory",
             "expected a key file there")


@pytest.mark.parametrize("command", ["verify", "replay"])
def test_a_log_that_is_a_directory_is_refused(home: Path, capsys: pytest.CaptureFixture[str],
                                              command: str) -> None:
    folder = home / "game.kotlog"
    folder.mkdir()
    assert main([command, str(folder)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"kotp2p: cannot read {folder}: Is a directory\n"


def test_replay_of_a_stopped_game_names_the_seats_it_waits_for(
        home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    log = _stopped_net_game(home, monkeypatch)
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert re.fullmatch(r"The log stops here, waiting for .+ \(seat \d\)"
                        r"( and .+ \(seat \d\))?\.", last), last


@pytest.mark.parametrize(("text", "address"), [
    ("[::1]:7448", ("::1", 7448)), ("[::1]", ("::1", 7447)), ("::1", ("::1", 7447)),
    ("127.0.0.1:80", ("127.0.0.1", 80)), ("localhost", ("localhost", 7447)),
])
def test_addresses_with_and_without_a_port_are_understood(
        text: str, address: tuple[str, int]) -> None:
    assert parse_address(text, 7447) == address


@pytest.mark.parametrize("text", ["[::1", "[::1]x", "[::1]:", "[]:7447", "host:0", ":7447"])
def test_addresses_that_make_no_sense_are_refused(text: str) -> None:
    with pytest.raises(CommandError, match="expected HOST"):
        parse_address(text, 7447)


def test_join_dials_an_ipv6_address_in_brackets(home: Path) -> None:
    with socket.socket(socket.AF_INET6) as lobby:
        lobby.bind(("::1", 0))
        lobby.listen()
        port = lobby.getsockname()[1]

        def hang_up() -> None:  # The joiner got through: an answer that is no lobby's ends it.
            conn, _ = lobby.accept()
            with conn:
                conn.sendall(b"HTTP/1.0 400 Bad Request\r\n\r\n")

        threading.Thread(target=hang_up, daemon=True).start()
        done = subprocess.run([*KOTP2P, "join", "--plain", "--bot", "random",
                               f"[::1]:{port}"], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=60)
    assert f"joining [::1]:{port} as " in done.stdout
    assert "not known" not in done.stderr and "internal error" not in done.stderr
    assert "bad handshake frame" in done.stderr and done.returncode == 1


def test_a_taken_port_is_said_in_one_plain_line(home: Path) -> None:
    """The port is taken: the host says so in its one line, not in a logger's WARNING."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*KOTP2P, "host", "--plain", "--no-announce", "--bind", "127.0.0.1", "--port",
             str(port)], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert f"(port {port} is taken)" in done.stdout
    assert "WARNING" not in done.stdout + done.stderr and "taken" not in done.stderr


def test_a_plain_host_whose_input_is_closed_says_why_and_exits(home: Path) -> None:
    done = subprocess.run(
        [*KOTP2P, "host", "--plain", "--no-announce", "--bind", "127.0.0.1", "--port", "0"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done
    assert done.stderr == ("kotp2p: standard input closed before `start` was typed, so the "
                           "game cannot start; expected the lobby's commands on standard "
                           "input, or --bot LEVEL to let a bot play your seat\n")


def test_a_plain_joiner_whose_input_is_closed_says_why_and_exits(home: Path) -> None:
    with socket.socket() as lobby:
        lobby.bind(("127.0.0.1", 0))
        lobby.listen()
        done = subprocess.run([*KOTP2P, "join", "--plain", f"127.0.0.1:{lobby.getsockname()[1]}"],
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=60)
    assert done.returncode == 1, done
    assert "standard input closed before `ready` was typed" in done.stderr


def test_a_plain_host_whose_own_seat_is_a_bot_needs_no_input(home: Path) -> None:
    """Every seat is a bot: the game starts and ends with the input closed."""
    done = subprocess.run(
        [*KOTP2P, "host", "--plain", "--no-announce", "--bind", "127.0.0.1", "--port", "0",
         "--seats", "2", "--bots", "1", "--bot", "random"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done
    assert "Log:" in done.stdout
