"""The command line as a user runs it: exit codes and what it prints."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kotp2p import __version__
from kotp2p.cli import main


def test_version_prints_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"kotp2p {__version__}"


def test_no_command_prints_help_and_usage_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "simulate" in capsys.readouterr().out


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fly"]) == 2
    assert "invalid choice" in capsys.readouterr().err


GOLDEN = Path(__file__).resolve().parent / "data" / "valid.kotlog"


def test_output_cut_by_a_closed_pipe_ends_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``kotp2p replay GAME | head``: the reader goes away; no crash, no message, exit 141."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    with open(write_end, "w", encoding="utf-8") as closed:
        monkeypatch.setattr(sys, "stdout", closed)
        assert main(["replay", str(GOLDEN)]) == 141
        monkeypatch.undo()
    assert capsys.readouterr().err == ""


def test_a_real_closed_pipe_leaves_no_crash_log(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    for args in (["replay", str(GOLDEN)], ["replay", "--verbose", str(GOLDEN)]):
        proc = subprocess.Popen(
            [sys.executable, "-m", "kotp2p", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader is gone before anything is written
        err = proc.stderr.read()
        proc.stderr.close()
        assert (proc.wait(timeout=60), err) == (141, b"")
    assert list(tmp_path.iterdir()) == []


def _simulate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["simulate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_prints_a_reproducible_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _simulate(capsys, "--games", "30", "--players", "3", "--seed", "7")
    assert code == 0
    assert "30 games, 3 players, seed 7" in out
    assert "win rate by seat" in out and "wins by points" in out and "games/s" in out
    digest = [line for line in out.splitlines() if line.startswith("digest")]
    code2, out2, _ = _simulate(capsys, "--games", "30", "--players", "3", "--seed", "7")
    assert code2 == 0
    assert digest == [line for line in out2.splitlines() if line.startswith("digest")]
    _, out3, _ = _simulate(capsys, "--games", "30", "--players", "3", "--seed", "8")
    assert digest != [line for line in out3.splitlines() if line.startswith("digest")]


def test_simulate_in_two_processes_plays_the_same_games(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    args = ("--games", "4", "--players", "3", "--bots", "hard,greedy", "--playouts", "4")
    outs = [_simulate(capsys, *args, "--jobs", jobs)[1] for jobs in ("1", "2")]
    digests = [[line for line in out.splitlines() if line.startswith("digest")] for out in outs]
    assert digests[0] == digests[1] != []


def test_simulate_json_mixes_bots_and_counts_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    code, out, _ = _simulate(capsys, "--games", "40", "--players", "4", "--bots", "greedy,random", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["bots"] == ["greedy", "random", "greedy", "random"]
    assert data["wins_by_points"] + data["wins_by_elimination"] + data["no_winner"] == 40
    assert abs(sum(data["win_rate_by_seat"]) - (1 - data["no_winner"] / 40)) < 1e-9
    # The greedy bot beats the random one by a wide margin.
    assert data["win_rate_by_bot"]["greedy"] > data["win_rate_by_bot"]["random"] + 0.2
    assert data["mean_turns"] > 5 and data["mean_random_events"] > data["mean_turns"]
    assert all(c["bought"] > 0 for c in data["cards"].values())
    assert data["mean_damage"] > 10 and data["mean_yields"] > 0  # read from the engine's events


def test_simulate_power_up_reports_monsters_and_evolutions(capsys: pytest.CaptureFixture[str],
                                                          ) -> None:
    code, out, _ = _simulate(capsys, "--games", "3", "--power-up", "--bots", "greedy")
    assert code == 0 and "Evolutions played in 3 games" in out and "monsters (games, win rate)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "7"], "expected 2 to 6 players"),
        (["--bots", "smart"], "expected bot kinds among random, greedy"),
        (["--games", "0"], "expected --games of at least 1"),
        (["--playouts", "-1"], "expected --playouts from 0 to 10000, found -1"),
        (["--jobs", "0"], "expected --jobs from 1 to 64, found 0"),
    ],
)
def test_simulate_rejects_bad_arguments(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = _simulate(capsys, *args)
    assert code == 1 and message in err and out == ""


def test_simulate_usage_error_for_non_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _simulate(capsys, "--games", "many")
    assert code == 2 and "invalid int value" in err


@pytest.mark.parametrize("timeout", ["5", "3601"])
def test_host_says_the_timeout_range_in_its_help_and_refuses_a_timeout_outside_it(
    timeout: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from kotp2p.net.lobby import MAX_TIMEOUT, MIN_TIMEOUT

    monkeypatch.setenv("KOTP2P_HOME", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "200")  # one line per option
    assert main(["host", "--help"]) == 0
    (line,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith("  --timeout")]
    assert f"{MIN_TIMEOUT} to {MAX_TIMEOUT} (default 120)" in line
    code = main(["host", "--timeout", timeout, "--no-announce", "--plain", "--bind", "127.0.0.1",
                 "--port", "0"])
    err = capsys.readouterr().err
    assert code == 1
    assert f"expected --timeout of {MIN_TIMEOUT} to {MAX_TIMEOUT} seconds, found {timeout}" in err


@pytest.mark.parametrize("args", [["resume", "--bind", "127.0.0.1"], ["host"], ["games"]])
def test_an_unknown_option_of_a_subcommand_shows_that_subcommands_usage(
        args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*args, "--colour"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: kotp2p {args[0]} ")
    assert err.rstrip().endswith(f"kotp2p {args[0]}: error: unrecognized arguments: --colour")


@pytest.mark.parametrize("command", ["play", "resume", "host", "join"])
def test_the_help_of_a_game_describes_the_full_screen_first_and_the_plain_one_under_plain(
        command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "2000")  # the description on one line
    assert main([command, "--help"]) == 0
    description = capsys.readouterr().out.splitlines()[2]
    screen, _, plain = description.partition("With --plain")
    assert "full screen" in screen and "? shows the help" in screen and "`help`" not in screen
    assert "`help` lists" in plain
    if command in ("play", "resume"):
        assert "keep 1 3 keeps dice 1 and 3" in plain and "r re-rolls the dice not kept" in plain
        assert "an empty line resolves the dice" in plain and "y yields Tokyo, s stays" in plain


def test_replay_ends_with_the_state_in_plain_words_the_notation_only_with_verbose(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GOLDEN)]) == 0
    end, _, figures = capsys.readouterr().out.split("State after step 99:\n")[1].partition("\n\n")
    assert end == ("  Turn 28. Tokyo City: empty\n"
                   "    The King: out of the game\n"
                   "    Giga Zaur: out of the game\n"
                   "    Alienoid: ★12 ♥4/10 ⚡2; Poison Spit\n"
                   "  Market: Evacuation Orders (7⚡), Gas Refinery (6⚡), Fire Breathing (4⚡)\n"
                   "Game over; winner: Bot 2 (Alienoid)")
    table = figures.splitlines()
    assert table[0] == "Figures:" and table[1].split()[:4] == ["#", "monster", "★", "♥"]
    assert table[2].split()[:4] == ["1", "Alienoid", "12", "4"]
    assert {row.split()[1] for row in table[3:5]} == {"The", "Giga"}
    assert "dealt/taken: damage" in table[-1]
    assert main(["replay", "--verbose", str(GOLDEN)]) == 0
    end = capsys.readouterr().out.split("State after step 99:\n")[1]
    assert "Alienoid: ★12 ♥4/10 ⚡2; Poison Spit\n" in end
    assert "; Alienoid 4/12/2 +poisonspit | active=1 turn=28 " in end  # the notation
    # Mid-game: whose turn it is (>) and the dice, as faces.
    assert main(["replay", "--step", "5", str(GOLDEN)]) == 0
    end = capsys.readouterr().out.split("State after step 5:\n")[1]
    assert "  > Alienoid: ★0 ♥10/10 ⚡2; no cards\n  Dice: ⚡ 1 ✸ ♥ ⚡ 1; rolls left 0\n" in end


@pytest.mark.parametrize("command", ["play", "simulate", "host", "join", "resume"])
def test_the_help_gives_the_hard_bots_default_playouts(
        command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from kotp2p.bots import PLAYOUTS

    monkeypatch.setenv("COLUMNS", "200")  # one line per option
    assert main([command, "--help"]) == 0
    (line,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith("  --playouts")]
    assert f"(default {PLAYOUTS})" in line


def test_the_simulate_help_names_every_bot_kind(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from kotp2p.bots import BOT_KINDS

    monkeypatch.setenv("COLUMNS", "200")  # one line per option
    assert main(["simulate", "--help"]) == 0
    (line,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith("  --bots")]
    assert f"({', '.join(BOT_KINDS)})" in line
