"""verify and replay on the golden logs, from Python and from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kotp2p.cli import main
from kotp2p.net.gamelog import parse_log, read_log
from kotp2p.net.kot_engine import RulesEngine
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
    assert "-- turn 1: " in out and "dice" in out and "Game over; winner:" in out
    # What happened is told in order, in plain words, from the engine's events.
    assert "        Giga Zaur enters Tokyo City\n        Giga Zaur gains 1★ (entering Tokyo)" in out
    assert main(["replay", str(DATA / "valid.kotlog"), "--step", "5"]) == 0
    out = capsys.readouterr().out
    assert "State after step 5:" in out and "[6]" not in out


def test_a_genesis_not_signed_by_every_seat_is_invalid(tmp_path: Path) -> None:
    log = read_log(DATA / "valid.kotlog")
    sigs = list(log.genesis.signatures)
    sigs[2] = sigs[1]
    bad = log.genesis.with_signatures(sigs)
    path = tmp_path / "g.kotlog"
    path.write_bytes(bad.frame() + (DATA / "valid.kotlog").read_bytes()[len(log.genesis.frame()):])
    verdict = verify_logs([read_log(path)], ENGINE)
    assert verdict.status == "INVALID" and verdict.fault is not None
    assert (verdict.fault.rule, verdict.fault.seat) == ("genesis-signature", 2)
    assert verify_logs([parse_log(verdict.evidence)], ENGINE).status == "INVALID"
