"""verify and replay on the golden logs, from Python and from the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kotp2p.cli import main
from kotp2p.net.files import parse_log, read_log
from kotp2p.net.trust import RulesEngine
from kotp2p.net.verify import DifferentGames, verify_logs
from tests.net.golden import build_golden

DATA = Path(__file__).resolve().parent.parent / "data"
MANIFEST = json.loads((DATA / "golden.json").read_text())
ENGINE = RulesEngine()


def test_the_golden_logs_are_current(tmp_path: Path) -> None:
    fresh = build_golden(tmp_path)
    assert fresh == MANIFEST, "run scripts/make_golden_logs.py"
    for entry in fresh:
        name = entry["file"]
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), (
            f"tests/data/{name} is stale: run scripts/make_golden_logs.py"
        )


@pytest.mark.parametrize("entry", MANIFEST, ids=lambda e: e["file"])
def test_each_golden_log_gets_its_own_verdict(entry: dict[str, object]) -> None:
    verdict = verify_logs([read_log(DATA / str(entry["file"]))], ENGINE)
    assert verdict.status == entry["verdict"], verdict.render()
    if verdict.status == "INVALID":
        assert verdict.fault is not None
        got = (verdict.fault.rule, verdict.fault.seat, verdict.fault.step)
        assert got == (entry["rule"], entry["seat"], entry["step"])
        alone = verify_logs([parse_log(verdict.evidence)], ENGINE)
        assert alone.status == "INVALID" and alone.fault is not None
        assert (alone.fault.rule, alone.fault.seat, alone.fault.step) == got
    elif verdict.status == "INCOMPLETE" and entry["seat"] is not None:
        assert any(m.startswith(f"seat {entry['seat']}:") for m in verdict.missing)
        assert any(f"step {entry['step']}" in m for m in verdict.missing), verdict.missing


def test_a_truncated_log_says_so() -> None:
    verdict = verify_logs([read_log(DATA / "truncated.kotlog")], ENGINE)
    assert verdict.status == "INCOMPLETE"
    assert any("torn frame" in n for n in verdict.notes)


def test_merging_fills_what_one_log_misses() -> None:
    logs = [read_log(DATA / "dropped-envelope.kotlog"), read_log(DATA / "truncated.kotlog")]
    verdict = verify_logs(logs, ENGINE)
    assert verdict.status == "VALID", verdict.render()


def test_logs_of_different_games_are_refused(tmp_path: Path) -> None:
    from tests.net.harness import make_table

    other = tmp_path / "other.kotlog"
    other.write_bytes(make_table(ENGINE, 2, seed=99).genesis.frame())
    with pytest.raises(DifferentGames):
        verify_logs([read_log(DATA / "valid.kotlog"), read_log(other)], ENGINE)


def test_a_log_of_another_engine_cannot_be_checked(tmp_path: Path) -> None:
    from tests.net.harness import make_table
    from tests.net.toy import ToyEngine

    log = tmp_path / "toy.kotlog"
    log.write_bytes(make_table(ToyEngine(), 2).genesis.frame())
    verdict = verify_logs([read_log(log)], ENGINE)
    assert verdict.status == "INCOMPLETE" and "engine toy-1" in verdict.missing[0]


def test_cli_valid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(DATA / "valid.kotlog")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("VALID")
    assert "winner: seat" in out and "The King" in out and "turns" in out


def test_cli_invalid_writes_evidence_that_verifies_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evidence = tmp_path / "proof.kotlog"
    assert main(["verify", str(DATA / "fork.kotlog"), "--evidence", str(evidence)]) == 1
    out = capsys.readouterr().out
    assert "INVALID" in out and "seat 1" in out and "fork" in out
    assert main(["verify", str(evidence)]) == 1
    assert "fork" in capsys.readouterr().out


def test_cli_names_the_peeker_who_lied_about_a_card_bought_with_made_in_a_lab(
    capsys: pytest.CaptureFixture[str],
) -> None:
    step = next(e["step"] for e in MANIFEST if e["file"] == "lying-peek.kotlog")
    assert main(["verify", "--json", str(DATA / "lying-peek.kotlog")]) == 1
    fault = json.loads(capsys.readouterr().out)["fault"]
    assert (fault["rule"], fault["seat"], fault["step"]) == ("bad-opening", 0, step)
    assert "is not on its peek chain" in fault["detail"]
    assert main(["replay", str(DATA / "lying-peek.kotlog")]) == 0
    assert f"stopped at a violation: seat 0 at step {step}: bad-opening" in capsys.readouterr().out


def test_cli_incomplete_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--json", str(DATA / "dropped-envelope.kotlog")]) == 2
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "INCOMPLETE" and data["missing"]
    assert [p["seat"] for p in data["players"]] == [0, 1, 2]


def test_cli_explains_a_file_that_is_not_a_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("not a game")
    assert main(["verify", str(junk)]) == 2
    assert "notes.txt is not a kotp2p game log" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.kotlog")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_cli_replay_tells_the_game_and_the_state_at_a_step(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", str(DATA / "valid.kotlog")]) == 0
    out = capsys.readouterr().out
    assert "-- turn 1: " in out and "Game over; winner:" in out
    # What happened is told in order, in plain words, from the engine's events, dice as faces:
    # the first turn's roll, the kept dice with the re-roll, the result, then what it gave.
    face, six = "[123⚡♥✸]", "[123⚡♥✸]( [123⚡♥✸]){5}"
    turn = re.search(r"-- turn 1: (?P<m>[A-Z][A-Za-z ]+) --\n(?P<body>.*?)-- turn 2: ", out, re.S)
    assert turn is not None
    m, body = turn["m"], turn["body"]
    assert re.match(rf"       {m} rolls {six}\n   \[1\] {m} keeps ({face} )*and re-rolls \d dic?e\n"
                    rf"       {m} re-rolls \d dic?e: {face}", body), body
    assert re.search(rf"\n       {m} resolves {six}\n", body), body
    # A move whose events say what it did is told once, by its events.
    assert re.search(r"\] [A-Z][A-Za-z ]+ (stays in|yields) Tokyo (City|Bay)\n", out)
    assert "stays in Tokyo\n" not in out and "yields Tokyo\n" not in out
    story = re.sub(r"\[\d+\]", "", out.split("State after step")[0])
    assert not re.search(r"\b[123ehs]{3,}\b", story), "no notation letters in plain words"
    # Decisions the engine took alone and the raw random values show only with --verbose.
    assert "has no re-roll left" not in out and "random #" not in out
    assert main(["replay", "--verbose", str(DATA / "valid.kotlog")]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"re-rolls \d dic?e: ({face} ?)+\n       [A-Z][A-Za-z ]+ has no re-roll left\n", out)
    assert re.search(rf"   \[1\] seat \d Bot \d \({m}\): {m} keeps ", out)
    assert re.search(rf"       random #\d+: dice ({face} ?)+ \(then seat \d decides\)\n", out)
    assert main(["replay", str(DATA / "valid.kotlog"), "--step", "5"]) == 0
    out = capsys.readouterr().out
    assert "State after step 5:" in out and "[6]" not in out


def test_a_genesis_not_signed_by_every_seat_proves_nothing_against_anybody(tmp_path: Path) -> None:
    log = read_log(DATA / "valid.kotlog")
    sigs = list(log.genesis.signatures)
    sigs[2] = sigs[1]
    bad = log.genesis.with_signatures(sigs)
    path = tmp_path / "g.kotlog"
    path.write_bytes(bad.frame() + (DATA / "valid.kotlog").read_bytes()[len(log.genesis.frame()):])
    verdict = verify_logs([read_log(path)], ENGINE)
    assert verdict.status == "INCOMPLETE" and verdict.fault is None
    assert verdict.missing[0].startswith("seat 2: its signature of this genesis")
    # With an intact copy of the same genesis beside it, the game checks out.
    both = verify_logs([read_log(path), read_log(DATA / "valid.kotlog")], ENGINE)
    assert both.status == "VALID", both.render()
