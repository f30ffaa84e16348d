"""``kotp2p play``, ``resume`` and ``games`` as a user runs them (in-process, and one real
process killed with SIGKILL)."""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from kotp2p import rules
from kotp2p.cli import build_parser, main
from tests.test_netplay import verdict_of
from tests.watchdog import kill_after


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KOTP2P_HOME", str(tmp_path))
    return tmp_path


def _logs(home: Path) -> list[Path]:
    return sorted((home / "data" / "games").glob("*.kotlog"))


def _run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str],
         typed: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_play_with_bots_everywhere_finishes_and_its_log_verifies(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = _run(capsys, monkeypatch, ["play", "--bots", "3", "--bot", "random", "--seed", "1", "--plain"])
    assert code == 0
    (log,) = _logs(home)
    assert "Game over." in out and out.rstrip().endswith(f"Log: {log}")
    assert oct(log.stat().st_mode & 0o777) == "0o600"
    assert oct(log.with_suffix(".seats").stat().st_mode & 0o777) == "0o600"
    assert main(["verify", str(log)]) == 0
    assert "VALID" in capsys.readouterr().out
    code, out, _ = _run(capsys, monkeypatch, ["games", "--json"])
    (game,) = json.loads(out)
    assert game["state"] == "finished" and len(game["players"]) == 4 and game["winners"]
    assert game["log"] == str(log) and game["mode"] == "local"
    # The same seed again is the same game, played to its end: refused, with what can be done.
    code, _, err = _run(capsys, monkeypatch, ["play", "--bots", "3", "--bot", "random", "--seed", "1"])
    assert code == 1 and "played to its end (won by" in err and "resume" not in err
    told = err.split("`")[1].split()
    assert told[:2] == ["kotp2p", "replay"] and main(told[1:]) == 0
    assert "Game over" in capsys.readouterr().out
    code, _, err = _run(capsys, monkeypatch, ["resume", log.name[:16]])
    assert code == 1 and "is over" in err


def test_play_halloween_deals_each_monster_a_costume_and_its_log_verifies(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = _run(capsys, monkeypatch, ["play", "--bots", "2", "--bot", "greedy",
                                             "--seed", "3", "--plain", "--halloween"])
    assert code == 0 and "Game over." in out
    assert out.count("dresses up: it keeps") == 3
    (log,) = _logs(home)
    assert main(["verify", str(log)]) == 0
    verdict = capsys.readouterr().out
    assert "VALID" in verdict and rules.HALLOWEEN_ENGINE_ID in verdict
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out.count("dresses up: it keeps") == 3
    # The same seed without Halloween is another game, and a base one.
    code, out, _ = _run(capsys, monkeypatch, ["play", "--bots", "2", "--bot", "greedy",
                                             "--seed", "3", "--plain"])
    assert code == 0 and "dresses up" not in out and len(_logs(home)) == 2


def test_play_power_up_plays_evolutions_from_hidden_hands_and_its_log_verifies(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = _run(capsys, monkeypatch, ["play", "--bots", "3", "--bot", "greedy",
                                             "--seed", "3", "--plain", "--power-up"])
    assert code == 0 and "Game over." in out
    assert out.count("draws 2 Evolutions") >= 4 and " plays " in out
    played = set(re.findall(r"\w+(?: \w+)? plays ([A-Z][^\n]+)", out))
    assert played & {rules.card_name(c) for m in rules.MONSTERS for c in rules.evolution_deck(m)}
    (log,) = _logs(home)
    assert main(["verify", str(log)]) == 0
    verdict = capsys.readouterr().out
    assert "VALID" in verdict and rules.ENGINE_IDS[False, True] in verdict


def test_a_power_up_player_reads_its_hand_and_is_not_asked_without_a_playable_card(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = _run(capsys, monkeypatch, ["play", "--bots", "1", "--seed", "3", "--plain",
                                             "--power-up"], "1\nask sometimes\nask always\n")
    assert code == 0
    kept = re.search(r"Your decision \(evolve\):\n  1\. evolve \d+: Alienoid keeps (.+)\n", out)
    assert kept is not None, out
    assert re.search(rf"Alienoid \(you\): .*; in hand: {re.escape(kept[1])}\n", out), out
    # Until the player asks to be asked always, a window asks only with a card playable now.
    before = out[:out.index("Evolutions: asked at every window")]
    for block in before.split("Your decision (evolution):")[1:]:
        assert " chooses to play " in block.split("> ")[0], block
    assert "refused: expected ask always, ask playable" in out


def test_the_plain_word_hint_tells_what_the_hard_bot_would_keep(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = _run(capsys, monkeypatch, ["play", "--bots", "1", "--seed", "4", "--plain"],
                        "hint\nquit\n")
    assert code == 0
    assert re.search(r"the hard bot would (keep .+ and re-roll \d|stop: )", out), out


def test_a_human_plays_by_number_and_words_chats_quits_and_resumes(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    typed = "help\nsay hi\x1b[2J there\nfly\n99\nkeep 1,2\n2\nstate\nquit\n"
    code, out, _ = _run(capsys, monkeypatch, ["play", "--bots", "2", "--level", "greedy", "--seed", "4",
                                             "--monster", "giga zaur"], typed)
    assert code == 0
    assert "Giga Zaur (you)" in out and "Your decision (roll):" in out and "Market:" in out
    assert "<Player (Giga Zaur)> hi\\x1b[2J there" in out  # chat shown, made terminal-safe
    assert "refused: 'fly' is not a choice; type a number from 1 to" in out
    assert "refused: expected a number from 1 to" in out and "random V,W" not in out
    assert "Dice: 1:" in out and "keep 1 3 (or keep 1,3) keeps dice 1 and 3" in out
    assert "re-rolls" in out and "Stopped." in out
    assert re.search(r"\nDice: 1:\S+▲ 2:\S+▲ 3:\S+ 4:\S+ 5:\S+ 6:\S+; rolls left 1\n", out)
    (log,) = _logs(home)
    code, out, _ = _run(capsys, monkeypatch, ["games"])
    assert "unfinished" in out and str(log) in out
    stopped_at = log.stat().st_size
    with log.open("ab") as f:
        f.write(b"\x00\x00\x01\x00half a frame")  # as if the process died mid-write
    code, out, _ = _run(capsys, monkeypatch, ["resume", "--bot", "greedy", "--plain"])
    assert code == 0 and "Game over." in out, _
    past, _, after = out.partition("== resumed: the game goes on from here ==")
    assert "== the game so far (from the log) ==" in past and "-- turn 1: " in past
    assert "Giga Zaur re-rolls" in past and "Game over." in after  # the re-roll before quitting
    assert main(["verify", str(log)]) == 0
    verdict = capsys.readouterr().out
    assert verdict.startswith("VALID") and "torn" not in verdict
    with log.open("rb") as f:
        assert b"half a frame" not in f.read()[stopped_at - 100:]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--bots", "6"], "expected --bots from 1 to 5"),
        (["play", "--level", "genius"], "expected --level among random, greedy"),
        (["play", "--monster", "Godzilla"], "expected a monster among"),
        (["play", "--bot-delay", "-1"], "expected --bot-delay of 0 or more seconds"),
        (["resume", "--bot-delay", "nan"], "expected --bot-delay of 0 or more seconds"),
        (["host", "--bot-delay", "-1", "--no-announce", "--bind", "127.0.0.1"],
         "expected --bot-delay of 0 or more seconds"),
        (["join", "127.0.0.1:9", "--bot-delay", "nan"], "expected --bot-delay of 0 or more seconds"),
        (["play", "--playouts", "-1"], "expected --playouts from 0 to 10000, found -1"),
        (["resume", "--playouts", "10001"], "expected --playouts from 0 to 10000, found 10001"),
        (["host", "--playouts", "-1", "--no-announce", "--bind", "127.0.0.1"],
         "expected --playouts from 0 to 10000, found -1"),
        (["join", "127.0.0.1:9", "--playouts", "-5"], "expected --playouts from 0 to 10000"),
        (["resume"], "no unfinished game to resume"),
        (["resume", "ffff"], "no game on disk has an id starting with 'ffff'"),
    ],
)
def test_bad_requests_say_what_was_expected(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        args: list[str], message: str) -> None:
    code, _, err = _run(capsys, monkeypatch, args)
    assert code == 1 and message in err


def _commands() -> list[str]:
    """Every subcommand of ``kotp2p``, as the parser knows them."""
    (sub,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return list(sub.choices)


def _exit_codes(help_text: str) -> dict[int, str]:
    """The "exit codes:" section of a help text: each code and what it says."""
    _, found, section = help_text.partition("\nexit codes:\n")
    assert found, help_text
    rows = [re.fullmatch(r"  (\d+) +(\S.*)", line) for line in section.splitlines()]
    return {int(m[1]): m[2] for m in rows if m}


def test_the_commands_are_the_ones_the_help_tests_know() -> None:
    assert set(_commands()) == {"play", "host", "join", "resume", "games", "simulate",
                                "identity", "verify", "replay"}


@pytest.mark.parametrize("command", [[], *([c] for c in _commands())])
def test_every_help_documents_the_exit_codes_in_order(
        command: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert main([*command, "--help"]) == 0
    out = capsys.readouterr().out
    codes = _exit_codes(out)
    assert list(codes) == sorted(codes) and {0, 2, 3, 130, 141} <= set(codes)
    assert "internal error" in codes[3] and "Ctrl-C" in codes[130]
    assert all(len(line) <= 80 for line in out.splitlines())  # the descriptions still wrap
    if command in (["play"], ["resume"], ["host"], ["join"]):
        assert "kotp2p resume" in codes[130]
    if command == ["verify"]:
        assert codes[0] == "VALID" and codes[1].startswith("INVALID")
        assert codes[2].startswith("INCOMPLETE")


DATA = Path(__file__).resolve().parent / "data"


@pytest.mark.parametrize(("args", "code", "meaning"), [
    (["verify", str(DATA / "golden.json")], 2, "not a readable game log"),
    (["replay", str(DATA / "golden.json")], 2, "not a game log"),
    (["verify", str(DATA / "valid.kotlog")], 0, "VALID"),
    (["verify", str(DATA / "illegal-move.kotlog")], 1, "INVALID"),
])
def test_a_command_returns_what_its_help_says(
        args: list[str], code: int, meaning: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == code
    capsys.readouterr()
    assert main([args[0], "--help"]) == 0
    assert meaning in _exit_codes(capsys.readouterr().out)[code]


class _ReaderGone(io.StringIO):
    """Standard output whose reader goes away after ``lines`` lines (``kotp2p play | head``)."""

    def __init__(self, lines: int) -> None:
        super().__init__()
        self.left = lines

    def write(self, s: str) -> int:
        if self.left <= 0:
            raise BrokenPipeError(32, "Broken pipe")
        self.left -= s.count("\n")
        return super().write(s)


def test_a_game_whose_output_reader_went_away_stops_quietly_with_141_and_resumes(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    crashes = home / "tmp"
    crashes.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(crashes))  # where a crash log would go
    terminal = sys.stdout
    monkeypatch.setattr(sys, "stdout", _ReaderGone(lines=8))  # cut inside the game's event loop
    code, _, err = _run(capsys, monkeypatch, ["play", "--bots", "2", "--bot", "random",
                                              "--seed", "5", "--bot-delay", "0.01", "--plain"])
    monkeypatch.setattr(sys, "stdout", terminal)
    assert (code, err, list(crashes.iterdir())) == (141, "", [])
    code, out, err = _run(capsys, monkeypatch, ["resume", "--bot", "random", "--plain"])
    assert code == 0 and "Game over." in out, err


@pytest.mark.parametrize(("extra", "size"), [([], 20_000), (["--power-up"], 90_000)],
                         ids=["base", "power-up"])
def test_a_game_killed_mid_play_resumes_from_its_log(home: Path, extra: list[str],
                                                    size: int) -> None:
    """With Power Up!, killed past the decks' commitments, each seat makes its hidden decks
    again from its secret, and opens every slot at the end."""
    env = {**os.environ, "KOTP2P_HOME": str(home)}
    cmd = [sys.executable, "-m", "kotp2p"]
    proc = subprocess.Popen([*cmd, "play", "--bots", "3", "--bot", "random", "--seed", "9",
                             "--bot-delay", "0.005", *extra], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not _logs(home) or _logs(home)[0].stat().st_size < size:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    (log,) = _logs(home)
    killed_at = log.stat().st_size
    done = subprocess.run([*cmd, "resume", "--bot", "random", "--plain"], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Game over." in done.stdout and str(log) in done.stdout
    assert log.stat().st_size > killed_at
    verdict = verdict_of(log)
    assert verdict.status == "VALID", verdict.render()
    assert ("power-up" in str(verdict.genesis.options)) == bool(extra)


def test_ctrl_c_stops_a_game_with_code_130_and_it_can_be_resumed(home: Path) -> None:
    env = {**os.environ, "KOTP2P_HOME": str(home)}
    cmd = [sys.executable, "-m", "kotp2p"]
    proc = subprocess.Popen([*cmd, "play", "--bots", "1", "--seed", "3"], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    with kill_after(proc, 120):
        for line in proc.stdout:  # the game waits for the human's first decision
            if line.startswith("Your decision"):
                break
        else:
            raise AssertionError("the game ended (or hung for 120 s) before asking anything")
    # A second process may not play the same game meanwhile.
    twice = subprocess.run([*cmd, "resume", "--bot", "random"], env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=60)
    assert twice.returncode == 1 and "open in another kotp2p process" in twice.stderr, twice.stderr
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "interrupted" in err, (out[-500:], err[-2000:])
    (log,) = _logs(home)
    assert "kotp2p resume" in out
    done = subprocess.run([*cmd, "resume", "--bot", "random"], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Game over." in done.stdout, done.stderr
    verdict = verdict_of(log)
    assert verdict.status == "VALID", verdict.render()


def test_replay_and_verify_take_a_game_id_as_games_lists_it_and_replay_the_latest_by_default(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = _run(capsys, monkeypatch, ["replay"])
    assert code == 2 and "no game in" in err
    for seed in ("1", "2"):
        code, _, _ = _run(capsys, monkeypatch, ["play", "--bots", "1", "--bot", "random",
                                                "--seed", seed, "--plain"])
        assert code == 0
    _, out, _ = _run(capsys, monkeypatch, ["games", "--json"])
    games = json.loads(out)
    for game in games:
        code, by_path, _ = _run(capsys, monkeypatch, ["replay", game["log"]])
        assert code == 0 and "Game over" in by_path
        assert _run(capsys, monkeypatch, ["replay", game["id"][:6]]) == (0, by_path, "")
        code, out, _ = _run(capsys, monkeypatch, ["verify", game["id"][:6]])
        assert code == 0 and out.startswith("VALID")
    last = max(games, key=lambda game: Path(game["log"]).stat().st_mtime)  # played last
    assert _run(capsys, monkeypatch, ["replay"]) == _run(capsys, monkeypatch,
                                                         ["replay", last["log"]])
    code, out, err = _run(capsys, monkeypatch, ["replay", "zzzz"])
    assert code == 2 and out == ""
    assert "no file 'zzzz', and no game on disk has an id starting with 'zzzz'" in err
    code, _, err = _run(capsys, monkeypatch, ["verify", games[0]["id"], str(home / "x.kotlog")])
    assert code == 2 and f"cannot read {home / 'x.kotlog'}: no such file" in err


def test_a_game_id_prefix_shared_by_two_games_asks_for_more_of_it(tmp_path: Path) -> None:
    from kotp2p.net.files import StoreError, find_log

    for name in ("ab01cd", "ab02ef"):
        (tmp_path / f"{name}.kotlog").write_bytes(b"")
    assert find_log("AB01", tmp_path) == tmp_path / "ab01cd.kotlog"
    with pytest.raises(StoreError, match=r"2 games on disk have an id starting with 'ab' "
                                         r"\(ab01cd, ab02ef\): give more of it"):
        find_log("ab", tmp_path)


def test_ascii_in_the_plain_interface_prints_only_ascii(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = _run(capsys, monkeypatch, ["play", "--plain", "--ascii", "--bots", "2", "--bot", "random",
                                             "--seed", "2"])
    assert code == 0 and "Game over." in out
    assert out.isascii(), sorted({c for c in out if not c.isascii()})
    assert "E (dice)" in out and " S " in out  # amounts and faces as the screen's ASCII set writes them


def test_the_monster_box_monsters_play_and_one_is_named_without_its_accent(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = _run(capsys, monkeypatch, ["play", "--plain", "--ascii", "--bots", "1", "--bot",
                                             "random", "--seed", "3", "--monster", "pandakai"])
    assert code == 0 and "Game over." in out and out.isascii()
    assert "Pandakai" in out
    code, out, _ = _run(capsys, monkeypatch, ["play", "--plain", "--bots", "1", "--bot", "random",
                                             "--seed", "4", "--monster", "Kraken"])
    assert code == 0 and "Kraken" in out and "Game over." in out


def test_resume_with_no_game_named_goes_on_with_the_game_played_last(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from kotp2p.net.files import latest_game
    from kotp2p.net.trust import RulesEngine

    for seed in ("1", "2"):  # two games, each stopped at the player's first decision
        code, _, _ = _run(capsys, monkeypatch, ["play", "--bots", "1", "--seed", seed, "--plain"],
                          typed="quit\n")
        assert code == 0
    _, out, _ = _run(capsys, monkeypatch, ["games", "--json"])
    games = json.loads(out)

    def played(game: dict[str, str], when: float) -> None:
        for path in (Path(game["log"]), Path(game["log"]).with_suffix(".journal")):
            os.utime(path, (when, when))

    now = Path(games[0]["log"]).stat().st_mtime
    for last in games:  # whichever was played last is resumed, whenever it was created
        for other in games:
            played(other, now)
        now += 60
        played(last, now)
        assert latest_game(RulesEngine(), unfinished=True).game_id == last["id"]


def test_a_human_keeps_a_costume_quits_and_a_resumed_halloween_game_ends_valid(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = _run(capsys, monkeypatch, ["play", "--bots", "1", "--seed", "8", "--plain",
                                             "--halloween"], "2\nquit\n")
    assert code == 0 and "Your decision (keep a costume):" in out and "Stopped." in out
    kept = re.search(r"Alienoid dresses up: it keeps (.+) of the two", out)
    assert kept is not None
    code, out, _ = _run(capsys, monkeypatch, ["resume", "--bot", "greedy", "--plain"])
    assert code == 0 and "Game over." in out
    (log,) = _logs(home)
    assert main(["verify", str(log)]) == 0
    assert capsys.readouterr().out.startswith("VALID")
