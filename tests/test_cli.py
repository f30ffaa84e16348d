"""The command line as a user runs it: exit codes and what it prints."""

from __future__ import annotations

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


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "7"], "expected 2 to 6 players"),
        (["--bots", "smart"], "expected bot kinds among random, greedy"),
        (["--games", "0"], "expected --games of at least 1"),
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
