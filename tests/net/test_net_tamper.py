"""Anyone with a log file and no key: whatever they edit, ``verify`` never names a seat whose own
signed envelopes are intact, and never loses a signed violation that is still in the file."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kotp2p.cli import main
from kotp2p.net.files.gamelog import parse_log, read_log, split_frames
from kotp2p.net.trust import RulesEngine, SeatInfo, make_genesis, sign_genesis
from kotp2p.net.verify.verify import Verdict, verify_logs
from kotp2p.net.wire import Identity, Kind, RemoteProtocolError, codec, open_envelope, seal
from tests.net.harness import make_table

DATA = Path(__file__).resolve().parent.parent / "data"
MANIFEST = {e["file"]: e for e in json.loads((DATA / "golden.json").read_text())}
ENGINE = RulesEngine()
STRANGER = Identity.from_seed(b"s" * 32, "Stranger")


@functools.cache
def _golden_frames(name: str) -> tuple[bytes, ...]:
    payloads, _ = split_frames((DATA / name).read_bytes())
    return tuple(codec.frame(p) for p in payloads)


def _frames(name: str) -> list[bytes]:
    return list(_golden_frames(name))


def _foreign_frame() -> bytes:
    """A well-formed, signed envelope of another game."""
    return seal(STRANGER, game_id=b"o" * 32, author=1, seq=0, prev=b"o" * 32, head=b"o" * 32,
                step=0, kind=Kind.CHAT, payload=["hello"]).frame


def _verify_bytes(data: bytes) -> Verdict | None:
    """The verdict on a file's bytes, or None when it is no longer a game log at all (which
    the command line reports as not proven, naming nobody)."""
    try:
        log = parse_log(data, "edited.kotlog")
    except RemoteProtocolError:
        return None
    return verify_logs([log], ENGINE, workers=1)


def _named(verdict: Verdict | None) -> set[int]:
    if verdict is None:
        return set()
    return {f.seat for f in verdict.faults if f.seat is not None}


@st.composite
def _edits(draw: st.DrawFn, name: str, keep: frozenset[int] = frozenset()) -> bytes:
    """1 to 4 edits of the golden log ``name`` without keys: flips, truncations, splices,
    dropped, duplicated or reordered frames, foreign envelopes, an edited genesis (``keep``:
    frames left alone)."""
    frames = _frames(name)
    cut: int | None = None
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "splice", "drop", "dup", "swap", "foreign",
                                   "genesis", "truncate"]))
        touchable = [i for i in range(1, len(frames)) if i not in keep and len(frames[i]) > 5]
        i = draw(st.sampled_from(touchable))
        if op == "flip":
            f = bytearray(frames[i])
            pos = draw(st.integers(0, len(f) - 1))
            f[pos] ^= 1 << draw(st.integers(0, 7))
            frames[i] = bytes(f)
        elif op == "splice":
            j = draw(st.sampled_from(touchable))
            a = draw(st.integers(4, len(frames[i]) - 1))
            b = draw(st.integers(4, len(frames[j]) - 1))
            frames[i] = frames[i][:a] + frames[j][b:]
        elif op == "drop":
            frames[i] = b""
        elif op == "dup":
            frames.append(frames[i])
        elif op == "swap":
            j = draw(st.sampled_from(touchable))
            frames[i], frames[j] = frames[j], frames[i]
        elif op == "foreign":
            frames.insert(draw(st.integers(1, len(frames))), _foreign_frame())
        elif op == "genesis":
            g = bytearray(frames[0])
            g[draw(st.integers(4, len(g) - 1))] ^= 1 << draw(st.integers(0, 7))
            frames[0] = bytes(g)
        else:
            cut = draw(st.integers(sum(map(len, frames[:2])), sum(map(len, frames))))
    data = b"".join(frames)
    return data if cut is None else data[:cut]


# A longer hunt: KOTP2P_TAMPER_EXAMPLES=500 pytest tests/net/test_net_tamper.py
_SETTINGS = settings(max_examples=int(os.environ.get("KOTP2P_TAMPER_EXAMPLES", "12")), deadline=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@_SETTINGS
@given(st.data())
def test_editing_an_honest_log_without_keys_never_convicts_anybody(data: st.DataObject) -> None:
    edited = data.draw(_edits("valid.kotlog"))
    verdict = _verify_bytes(edited)
    assert _named(verdict) == set(), verdict.render() if verdict else None
    assert verdict is None or verdict.status in ("VALID", "INCOMPLETE")


_CHEATS = sorted(name for name, e in MANIFEST.items()
                 if e["verdict"] == "INVALID")


@_SETTINGS
@given(st.data(), st.sampled_from(_CHEATS))
def test_a_cheat_log_edited_without_keys_names_the_cheater_or_nobody(
    data: st.DataObject, name: str
) -> None:
    cheater = MANIFEST[name]["seat"]
    edited = data.draw(_edits(name))
    verdict = _verify_bytes(edited)
    assert _named(verdict) <= {cheater}, verdict.render() if verdict else None


def _fork_frames() -> tuple[list[bytes], frozenset[int]]:
    frames = _frames("fork.kotlog")
    g = parse_log(b"".join(frames)).genesis
    envs = [open_envelope(f[4:], g.game_id, g.keys) for f in frames[1:]]
    seen: dict[tuple[int, int], int] = {}
    forked: set[int] = set()
    for i, e in enumerate(envs, start=1):
        if (e.author, e.seq) in seen:
            forked |= {seen[(e.author, e.seq)], i}
        seen[(e.author, e.seq)] = i
    assert len(forked) == 2
    return frames, frozenset(forked)


@_SETTINGS
@given(st.data())
def test_unsigned_damage_never_hides_a_signed_fork(data: st.DataObject) -> None:
    frames, forked = _fork_frames()
    # (the edits leave the two forked envelopes alone, and the genesis; truncation may cut them)
    edited = data.draw(_edits("fork.kotlog", keep=forked))
    tail = b"".join(frames[i] for i in sorted(forked))
    try:
        genesis_ok = parse_log(edited).genesis.body == parse_log(frames[0]).genesis.body
    except RemoteProtocolError:
        genesis_ok = False
    if not genesis_ok:
        return  # (another genesis body is another game: its envelopes are set aside)
    verdict = _verify_bytes(edited + tail)
    assert verdict is not None and verdict.fault is not None, verdict.render() if verdict else ""
    assert (verdict.fault.rule, verdict.fault.seat) == ("fork", 1)


def test_a_flipped_byte_in_an_honest_envelope_blames_nobody_and_hides_no_fork() -> None:
    frames, forked = _fork_frames()
    g = parse_log(frames[0]).genesis
    honest = next(i for i in range(1, len(frames)) if i not in forked
                  and open_envelope(frames[i][4:], g.game_id, g.keys).author == 2)
    f = bytearray(frames[honest])
    f[len(f) // 2] ^= 0x10
    frames[honest] = bytes(f)
    verdict = _verify_bytes(b"".join(frames))
    assert verdict is not None and verdict.fault is not None
    assert (verdict.fault.rule, verdict.fault.seat) == ("fork", 1)
    assert any(f"frame {honest} " in n and "prove nothing" in n for n in verdict.notes)


def test_a_log_cut_inside_a_game_id_cannot_swallow_the_fork_written_after_it() -> None:
    """A log cut in the middle of an envelope's game id, then written on. The torn frame's length
    takes in exactly the next envelope, so it reads as a whole envelope of another game."""
    frames, forked = _fork_frames()
    g = parse_log(frames[0]).genesis
    first, cut = min(forked), 10
    torn = len(frames[cut]) - len(frames[first])
    start = frames[cut].index(g.game_id)
    assert start < torn < start + len(g.game_id)
    tail = b"".join(frames[i] for i in sorted(forked))
    verdict = _verify_bytes(b"".join(frames[:cut]) + frames[cut][:torn] + tail)
    assert verdict is not None and verdict.fault is not None, verdict.render() if verdict else ""
    assert (verdict.fault.rule, verdict.fault.seat) == ("fork", 1)
    assert any(f"frame {cut} " in n and "another game" in n for n in verdict.notes)


def test_foreign_envelopes_and_joined_logs_leave_a_valid_game_valid() -> None:
    valid = (DATA / "valid.kotlog").read_bytes()
    other = make_table(ENGINE, 2, seed=99).genesis.frame()
    for data in (valid + _foreign_frame(), valid + valid, valid + other + _foreign_frame()):
        verdict = _verify_bytes(data)
        assert verdict is not None and verdict.status == "VALID", verdict.render() if verdict else ""
        assert verdict.notes and all("set aside" in n for n in verdict.notes)


@pytest.mark.parametrize("keep", [0, 1])
def test_an_ack_of_a_move_the_log_does_not_hold_proves_nothing_against_the_acker(keep: int) -> None:
    """Seat 1 signed two MOVEs for one step; the log keeps only one of them. The seats that
    acknowledged the other one are not convicted (there is nothing they could be wrong about)."""
    frames, forked = _fork_frames()
    drop = sorted(forked)[1 - keep]
    verdict = _verify_bytes(b"".join(f for i, f in enumerate(frames) if i != drop))
    assert verdict is not None
    assert _named(verdict) <= {1}, verdict.render()
    assert all(f.rule != "bad-head" for f in verdict.faults)


def test_json_names_the_bad_envelopes_and_where_they_are(capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "fork.kotlog"
    assert main(["verify", "--json", str(path)]) == 1
    fault = json.loads(capsys.readouterr().out)["fault"]
    raw = path.read_bytes()
    g = read_log(path).genesis
    assert fault["rule"] == "fork" and len(fault["envelopes"]) == 2
    for bad in fault["envelopes"]:
        pos = bad["position"]
        assert pos["file"] == "fork.kotlog"
        length = int.from_bytes(raw[pos["offset"]: pos["offset"] + 4], "big")
        env = open_envelope(raw[pos["offset"] + 4: pos["offset"] + 4 + length], g.game_id, g.keys)
        assert (env.author, env.seq, env.id.hex(), env.kind.name) == (
            bad["author"], bad["seq"], bad["id"], bad["kind"])
        assert split_frames(raw)[0][pos["frame"]] == raw[pos["offset"] + 4: pos["offset"] + 4 + length]


@pytest.mark.parametrize("name", ["fork.kotlog", "wrong-state-hash.kotlog", "bad-reveal.kotlog"])
def test_evidence_is_a_small_log_that_proves_the_same_fault(name: str) -> None:
    verdict = verify_logs([read_log(DATA / name)], ENGINE)
    assert verdict.fault is not None
    full = (DATA / name).read_bytes()
    assert len(verdict.evidence) < len(full) // 2
    alone = verify_logs([parse_log(verdict.evidence)], ENGINE)
    assert alone.fault is not None
    assert (alone.fault.rule, alone.fault.seat, alone.fault.step) == (
        verdict.fault.rule, verdict.fault.seat, verdict.fault.step)
    if verdict.fault.rule == "fork":
        assert len(parse_log(verdict.evidence).payloads) == 2


def test_names_with_control_characters_never_reach_the_terminal_raw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = make_table(ENGINE, 2, seed=5)
    g = table.genesis
    evil = ["\x1b[2J\x1b[HYou lost\nseat 1: Mallory", "Bob\u202eevil\x07"]
    seats = [SeatInfo(s.public_key, evil[i], s.monster, s.anchor, s.peek_anchor, s.slots)
             for i, s in enumerate(g.seats)]
    bad = make_genesis(g.engine_id, g.options, seats, g.nonce, g.chain_length)
    bad = bad.with_signatures([sign_genesis(bad, ident) for ident in table.identities])
    path = tmp_path / "evil.kotlog"
    path.write_bytes(bad.frame())
    for argv in (["verify", str(path)], ["verify", "--json", str(path)], ["replay", str(path)]):
        main(argv)
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out, argv
        assert "\nseat 1: Mallory" not in out
        assert "You lost" in out or "You lost" in json.dumps(out)
