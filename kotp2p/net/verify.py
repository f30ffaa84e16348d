"""``verify``: settle a dispute offline from one or more ``.kotlog`` files.

The logs are merged by envelope id; then every check runs in game order: the genesis and every
seat's signature of it, the engine id, every envelope's signature (over the bytes as stored),
each author's seq/prev chain (two envelopes for one place is a fork), and a full replay through a
:class:`~kotp2p.net.replica.Replica`: the designated author of every MOVE, its legality, every
reveal against its chain, every R_k and every die and card, every opened slot against its
commitment, every peek opening (in an OPEN or inside the MOVE that needed it) against its peek
chain, every signed state hash against the replay, and the claimed result.

Verdicts: VALID (exit 0), INVALID (exit 1: the first bad envelope and the minimal signed evidence),
INCOMPLETE (exit 2: what is missing, by seat).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from kotp2p.net import codec
from kotp2p.net.engine_interface import GameEngine
from kotp2p.net.envelope import (
    DOMAIN,
    Envelope,
    decode_body,
    open_envelope,
    peek_author,
    split_frame,
)
from kotp2p.net.errors import RemoteProtocolError
from kotp2p.net.gamelog import LogContents
from kotp2p.net.genesis import Genesis
from kotp2p.net.history import Violation
from kotp2p.net.identity import fingerprint, verify_signature
from kotp2p.net.replica import Replica
from kotp2p.net.words import check_words

VALID = "VALID"
INVALID = "INVALID"
INCOMPLETE = "INCOMPLETE"
EXIT_CODES = {VALID: 0, INVALID: 1, INCOMPLETE: 2}

# Rules that need the replay up to the bad envelope to be re-checked from an evidence file.
_STANDALONE = {"fork", "bad-signature", "forged-signature", "malformed", "genesis-signature"}


class DifferentGames(ValueError):
    """The logs given to verify belong to different games."""


@dataclass
class Fault:
    """An INVALID verdict's first bad envelope."""

    rule: str
    seat: int | None
    step: int | None
    detail: str
    fingerprint: str | None
    frames: tuple[bytes, ...]
    """The whole frames (length included) of the offending envelope(s)."""

    def to_json(self) -> dict[str, object]:
        """Plain data for ``--json``."""
        return {"rule": self.rule, "seat": self.seat, "step": self.step, "detail": self.detail,
                "fingerprint": self.fingerprint}


@dataclass
class Verdict:
    """What ``verify`` concludes."""

    status: str
    genesis: Genesis
    fault: Fault | None = None
    missing: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    turns: int = 0
    steps: int = 0
    random_events: int = 0
    winners: tuple[int, ...] = ()
    evidence: bytes = b""
    """A ``.kotlog`` holding the genesis and the envelopes that prove an INVALID verdict."""

    @property
    def exit_code(self) -> int:
        """0 VALID, 1 INVALID, 2 INCOMPLETE."""
        return EXIT_CODES[self.status]

    def players(self) -> list[dict[str, object]]:
        """Each seat: name, monster, key fingerprint."""
        return [{"seat": i, "name": s.name, "monster": s.monster, "fingerprint": s.fingerprint}
                for i, s in enumerate(self.genesis.seats)]

    def to_json(self) -> str:
        """The verdict as one JSON object."""
        data: dict[str, object] = {
            "verdict": self.status,
            "game_id": self.genesis.game_id.hex(),
            "check_words": list(check_words(self.genesis.game_id)),
            "players": self.players(),
            "steps": self.steps,
            "turns": self.turns,
            "random_events": self.random_events,
            "winners": list(self.winners),
            "fault": self.fault.to_json() if self.fault else None,
            "missing": self.missing,
            "notes": self.notes,
        }
        return json.dumps(data, indent=2)

    def render(self) -> str:
        """The verdict as plain text for people."""
        g = self.genesis
        lines = [f"{self.status}: game {g.game_id.hex()[:16]} "
                 f"({' '.join(check_words(g.game_id))}), engine {g.engine_id}"]
        for i, s in enumerate(g.seats):
            lines.append(f"  seat {i}: {s.name} [{s.fingerprint}] playing {s.monster}")
        if self.status == VALID:
            names = ", ".join(f"seat {w} ({g.seats[w].monster})" for w in self.winners)
            lines.append(f"  {self.turns} turns, {self.steps} moves, {self.random_events} random "
                         f"events; winner: {names or 'nobody (everybody lost)'}")
        if self.fault:
            f = self.fault
            who = "" if f.seat is None else f"seat {f.seat} [{f.fingerprint}] "
            where = "" if f.step is None else f"at step {f.step} "
            lines.append(f"  first bad envelope: {who}{where}broke {f.rule}")
            lines.append(f"  {f.detail}")
        for m in self.missing:
            lines.append(f"  missing: {m}")
        for n in self.notes:
            lines.append(f"  note: {n}")
        return "\n".join(lines)


def _frame_fault(genesis: Genesis, payload: bytes, reason: str) -> Fault:
    """Name what we can of an envelope that failed its checks (read without trusting it)."""
    frame = codec.frame(payload)
    try:
        body, sig = split_frame(payload)
        author = peek_author(body, genesis.game_id, genesis.n)
    except RemoteProtocolError:
        return Fault("malformed", None, None, f"a frame that is not an envelope: {reason}",
                     None, (frame,))
    step: int | None = None
    with contextlib.suppress(RemoteProtocolError):
        step = decode_body(body, sig, frame).step
    fp = fingerprint(genesis.keys[author])
    if reason.startswith("bad signature"):
        for j, key in enumerate(genesis.keys):
            if j != author and verify_signature(key, sig, DOMAIN + body):
                return Fault("forged-signature", author, step,
                             f"claims to be seat {author}'s but is signed by seat {j}'s key "
                             f"[{fingerprint(key)}]", fp, (frame,))
        return Fault("bad-signature", author, step, "the signature does not match these bytes "
                     f"under seat {author}'s key: the envelope was altered or forged", fp, (frame,))
    return Fault("malformed", author, step, reason, fp, (frame,))


def _evidence(genesis: Genesis, fault: Fault, replay: Sequence[Envelope]) -> bytes:
    frames = [genesis.frame()]
    if fault.rule not in _STANDALONE:
        seen = set(fault.frames)
        frames += [e.frame for e in replay if e.frame not in seen]
    frames += list(fault.frames)
    return b"".join(frames)


def verify_logs(logs: Sequence[LogContents], engine: GameEngine) -> Verdict:
    """Merge ``logs`` and check everything.

    :raises DifferentGames: the logs are of different games.
    """
    genesis = logs[0].genesis
    for log in logs[1:]:
        if log.genesis.game_id != genesis.game_id:
            raise DifferentGames(
                f"the logs are of different games ({genesis.game_id.hex()[:16]} and "
                f"{log.genesis.game_id.hex()[:16]})"
            )
    verdict = Verdict(INCOMPLETE, genesis)
    for log in logs:
        if log.torn:
            verdict.notes.append(f"a log ends with {log.torn} bytes of a torn frame (ignored)")
    bad = genesis.bad_signatures()
    if bad:
        i = bad[0]
        verdict.status = INVALID
        verdict.fault = Fault("genesis-signature", i, 0, f"seat {i}'s signature of the genesis "
                              "is missing or wrong", fingerprint(genesis.keys[i]),
                              ())
        verdict.evidence = genesis.frame()
        return verdict
    if genesis.engine_id != engine.engine_id:
        verdict.missing.append(f"the rules this game was played with: it was made by engine "
                               f"{genesis.engine_id}, this kotp2p has {engine.engine_id}")
        return verdict
    try:
        replica = Replica(genesis, engine)
    except (ValueError, TypeError) as exc:
        verdict.status = INVALID
        verdict.fault = Fault("bad-genesis", None, 0, f"the engine refuses the genesis: {exc}",
                              None, ())
        verdict.evidence = genesis.frame()
        return verdict
    seen: set[bytes] = set()
    consumed: list[Envelope] = []
    for log in logs:
        for payload in log.payloads:
            if payload in seen:
                continue
            seen.add(payload)
            try:
                env = open_envelope(payload, genesis.game_id, genesis.keys)
            except RemoteProtocolError as exc:
                return _invalid(verdict, _frame_fault(genesis, payload, exc.reason), [])
            replica.add(env)
    replica.advance()
    for a in range(genesis.n):
        consumed += [e for q, e in sorted(replica.streams[a].items()) if q < replica.cursor[a]]
    if replica.violations:
        v = min(replica.violations, key=lambda v: (v.rule != "fork", v.step))
        return _invalid(verdict, _violation_fault(genesis, v), consumed)
    _summarise(verdict, replica, engine)
    verdict.missing += replica.gaps()
    if not replica.is_over:
        waiting = replica.waiting_for()
        p = replica.point
        owed = replica.owed_acks()
        for seat in waiting:
            what = (f"its value for random event {p.k}" if p.k is not None
                    else f"its ACK of step {replica.step}" if seat in owed
                    else f"its MOVE for step {replica.step + 1}")
            verdict.missing.append(f"seat {seat}: {what} (the game stops at step {replica.step})")
    if replica.is_over:
        for seat in range(genesis.n):
            for k in replica.owed_openings(seat):
                verdict.missing.append(f"seat {seat}: the opening of its private random event {k}")
    if not verdict.missing:
        verdict.status = VALID
    return verdict


def _violation_fault(genesis: Genesis, v: Violation) -> Fault:
    return Fault(v.rule, v.seat, v.step, v.detail, fingerprint(genesis.keys[v.seat]),
                 tuple(e.frame for e in v.evidence))


def _invalid(verdict: Verdict, fault: Fault, consumed: Sequence[Envelope]) -> Verdict:
    verdict.status = INVALID
    verdict.fault = fault
    verdict.evidence = _evidence(verdict.genesis, fault, consumed)
    return verdict


def _summarise(verdict: Verdict, replica: Replica, engine: GameEngine) -> None:
    verdict.steps = replica.step
    verdict.turns = engine.turn(replica.state)
    verdict.random_events = len(replica.resolved)
    if replica.is_over:
        verdict.winners = tuple(engine.winners(replica.state))
