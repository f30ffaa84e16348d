"""The golden logs under ``tests/data/``: one valid game and one log per way a game can go wrong.

Everything is deterministic (seeded keys, chains and bots; first-in-first-out delivery), so
``build_golden`` writes byte-identical files every time for the same engine; a test checks the
committed files are current (``scripts/make_golden_logs.py`` rewrites them) and that ``verify``
gives each the verdict recorded in ``golden.json``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from kotp2p import rules
from kotp2p.net.files.gamelog import parse_log, split_frames
from kotp2p.net.peer import PeerProtocol
from kotp2p.net.trust import RulesEngine, State
from kotp2p.net.wire import DOMAIN, Kind, Value, codec, open_envelope, seal
from tests.net import mavericks as M
from tests.net.harness import Chooser, build_mesh, rules_chooser
from tests.rules.kit import card

SEATS = 3
SEED = 7
MAVERICK = 1
WITNESS = 0  # whose log is kept
LAB_SEED = 1


def _play(factory: Callable[..., PeerProtocol] | None, seed: int = SEED,
          maverick: int = MAVERICK, witness: int = WITNESS,
          choose: Chooser | None = None) -> tuple[bytes, list[str]]:
    engine = RulesEngine()
    _, mesh = build_mesh(engine, SEATS, choose or rules_chooser("random", seed), seed=seed,
                         slots=2, factories={maverick: factory} if factory else None)
    mesh.start()
    mesh.run()
    seen = [f"{v.rule}:{v.seat}:{v.step}" for v in mesh.violations[witness]]
    return bytes(mesh.logs[witness]), seen


def _lab_seeker(seed: int) -> Chooser:
    """Random bots, but seat 0 is after Made in a Lab: it buys the card when it can (sweeping
    the market while the card is not there), peeks whenever it may and buys every card it peeks
    at."""
    bots = rules_chooser("random", seed)
    lab = card("madeinalab")

    def wanted(a: rules.Action) -> int:
        if type(a) in (rules.Buy, rules.UseCard) and a.card == lab:  # type: ignore[union-attr]
            return 2
        return 1 if type(a) is rules.Sweep else 0

    def choose(seat: int, state: State) -> Value:
        if seat == 0:
            best = max(rules.legal_actions(state), key=wanted, default=None)
            if best is not None and wanted(best):
                return rules.action_to_wire(best)
        return bots(seat, state)

    return choose


def _frames(log: bytes) -> list[bytes]:
    payloads, _ = split_frames(log)
    return [codec.frame(p) for p in payloads]


def _find(log: bytes, kind: Kind, author: int, min_step: int) -> int:
    """Index (among the frames) of the first envelope of ``kind`` by ``author`` at a step of at
    least ``min_step``."""
    contents = parse_log(log)
    g = contents.genesis
    for i, payload in enumerate(contents.payloads, start=1):
        env = open_envelope(payload, g.game_id, g.keys)
        if env.kind is kind and env.author == author and env.step >= min_step:
            return i
    raise LookupError(f"no {kind.name} by seat {author} from step {min_step}")


def _step_of(frame: bytes, log: bytes) -> int:
    g = parse_log(log).genesis
    return open_envelope(frame[4:], g.game_id, g.keys).step


def build_golden(out: Path) -> list[dict[str, object]]:
    """Write every golden log into ``out``; return the manifest of expected verdicts."""
    from kotp2p.net.wire import Identity
    from tests.net.harness import _seed

    out.mkdir(parents=True, exist_ok=True)
    manifest: list[dict[str, object]] = []

    def write(name: str, data: bytes, verdict: str, rule: str | None, seat: int | None,
              step: int | None) -> None:
        (out / name).write_bytes(data)
        manifest.append({"file": name, "verdict": verdict, "rule": rule, "seat": seat,
                         "step": step})

    valid, _ = _play(None)
    write("valid.kotlog", valid, "VALID", None, None, None)
    frames = _frames(valid)

    i = _find(valid, Kind.MOVE, 2, 10)
    flipped = bytearray(frames[i])
    flipped[len(flipped) // 2] ^= 0x04
    step = _step_of(frames[i], valid)
    # Unsigned bytes prove nothing: seat 2's MOVE is missing, nobody is blamed.
    write("flipped-byte.kotlog", b"".join([*frames[:i], bytes(flipped), *frames[i + 1:]]),
          "INCOMPLETE", None, 2, step)

    i = _find(valid, Kind.MOVE, 2, 20)
    write("dropped-envelope.kotlog", b"".join(frames[:i] + frames[i + 1:]), "INCOMPLETE",
          None, 2, _step_of(frames[i], valid))

    i = _find(valid, Kind.ACK, 0, 15)
    body, _sig = codec.unpack(frames[i][4:])
    signer = 1  # seat 1's key signs seat 0's ACK: seat 1 is blamed, never seat 0
    intruder = Identity.from_seed(_seed("key", SEED, signer))
    forged = codec.frame(codec.pack([body, intruder.sign(DOMAIN + body)]))
    write("forged-signature.kotlog", b"".join([*frames[:i], forged, *frames[i + 1:]]),
          "INVALID", "forged-signature", signer, _step_of(frames[i], valid))

    # Cut in the middle of a MOVE well before the end: the game is then unfinished.
    i = _find(valid, Kind.MOVE, 1, 30)
    cut = sum(len(f) for f in frames[:i]) + len(frames[i]) // 2
    write("truncated.kotlog", valid[:cut], "INCOMPLETE", None, None, None)

    for cls, name in [
        (M.OutOfTurn, "out-of-turn"),
        (M.IllegalMove, "illegal-move"),
        (M.Fork, "fork"),
        (M.BadReveal, "bad-reveal"),
        (M.PrematureReveal, "premature-reveal"),
        (M.WrongStateHash, "wrong-state-hash"),
        (M.BadOpening, "bad-opening"),
        (M.MalformedEject, "malformed-eject"),
    ]:
        log, seen = _play(cls)
        rule, seat, step = seen[0].split(":")
        assert rule == cls.rule, (name, seen)
        write(f"{name}.kotlog", log, "INVALID", rule, int(seat), int(step))

    # Editing without keys: an envelope of another game appended, and the log joined to itself
    # (a second genesis frame): both set aside, the game stays VALID.
    stranger = Identity.from_seed(_seed("stranger", SEED))
    foreign = seal(stranger, game_id=b"\x5a" * 32, author=1, seq=0, prev=b"\x5a" * 32,
                   head=b"\x5a" * 32, step=0, kind=Kind.CHAT, payload=["hello"]).frame
    write("foreign-envelope.kotlog", valid + foreign + valid, "VALID", None, None, None)

    # A signed fork and unsigned damage in one log: a byte flipped in an honest seat's envelope
    # neither blames that seat nor hides the fork.
    fork_log = (out / "fork.kotlog").read_bytes()
    fork_frames = _frames(fork_log)
    i = _find(fork_log, Kind.ACK, 2, 1)
    damaged = bytearray(fork_frames[i])
    damaged[len(damaged) // 2] ^= 0x20
    fork_entry = next(e for e in manifest if e["file"] == "fork.kotlog")
    write("fork-and-damage.kotlog",
          b"".join([*fork_frames[:i], bytes(damaged), *fork_frames[i + 1:]]), "INVALID",
          "fork", 1, int(str(fork_entry["step"])))

    # A game in which seat 0 buys a card it peeked at with Made in a Lab and lies about which
    # card it was (the first seed from LAB_SEED whose game gets there); seat 1 keeps the log.
    for seed in range(LAB_SEED, LAB_SEED + 100):
        log, seen = _play(M.LyingPeeker, seed=seed, maverick=0, witness=1,
                          choose=_lab_seeker(seed))
        if seen:
            break
    else:
        raise AssertionError("in none of 100 games did seat 0 buy a card with Made in a Lab")
    rule, seat, step = seen[0].split(":")
    assert (rule, seat) == (M.LyingPeeker.rule, "0"), seen
    write("lying-peek.kotlog", log, "INVALID", rule, int(seat), int(step))

    (out / "golden.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest
