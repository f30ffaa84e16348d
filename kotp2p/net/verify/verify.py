"""``verify``: settle a dispute offline from one or more ``.kotlog`` files.

The principle: **a verdict names a seat only with a proof signed by that seat's key.** Anyone
can edit a log file, without any key. Bytes whose signature does not check prove nothing about
anybody. So they are *damage*. They are noted with their position, and the check goes on over the
rest. Editing a log without keys can at worst make a game INCOMPLETE. It can neither convict a
seat nor hide a signed violation elsewhere in the log.

The logs are merged by envelope id. :mod:`kotp2p.net.verify.intake` sorts every frame first. It
finds envelopes, damage, frames of another game set aside, and frames that are their signer's
violation by themselves. Then every check runs in game order:

* The genesis and every seat's signature of it, and the engine id.
* Every envelope's signature over the bytes as stored, and its payload's schema.
* Each author's seq and prev chain. Two envelopes for one place are a fork.
* A full replay through a :class:`~kotp2p.net.replica.replica.Replica`. It checks the designated
  author of every MOVE and its legality. It checks every reveal against its chain, and every R_k,
  die and card. It checks every opened slot against its commitment. It checks every peek opening
  against its peek chain, whether it is in an OPEN or inside the MOVE that needed it. It checks
  every signed state hash against the replay, and the claimed result.

The verdicts:

* VALID, exit 0.
* INVALID, exit 1: a signed violation, wherever it sits in the logs. The verdict names the first
  one, and lists every one in ``faults``. It offers a minimal evidence file, re-checked first. That
  file holds the genesis, the envelopes the replay needs up to the fault, and the offending ones.
* INCOMPLETE, exit 2: what is missing, by seat, and why.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from kotp2p.net.files import LogContents, parse_log
from kotp2p.net.replica import Replica, Violation
from kotp2p.net.trust import GameEngine, Genesis, check_words, engine_id_of, short_id
from kotp2p.net.verify.intake import Intake, Position, SignedFault, read_envelopes
from kotp2p.net.wire import Envelope, fingerprint, safe_lines, safe_text

VALID = "VALID"
INVALID = "INVALID"
INCOMPLETE = "INCOMPLETE"
EXIT_CODES = {VALID: 0, INVALID: 1, INCOMPLETE: 2}


class DifferentGames(ValueError):
    """The logs given to verify belong to different games."""


@dataclass(frozen=True)
class BadEnvelope:
    """One offending envelope, named exactly: who signed it, which one and where it was found."""

    author: int
    seq: int | None
    kind: str
    step: int | None
    id: bytes
    position: Position | None
    frame: bytes

    def to_json(self) -> dict[str, object]:
        """Plain data for ``--json``."""
        return {"author": self.author, "seq": self.seq, "kind": self.kind, "step": self.step,
                "id": self.id.hex(),
                "position": self.position.to_json() if self.position else None}

    def describe(self) -> str:
        """``"MOVE #5 by seat 2, id 1a2b..., at game.kotlog frame 17 (byte 2345)"``."""
        seq = "" if self.seq is None else f" #{self.seq}"
        where = f", at {self.position.describe()}" if self.position else ""
        return f"{self.kind}{seq} by seat {self.author}, id {self.id.hex()[:16]}{where}"


@dataclass
class Fault:
    """A signed violation: the rule, the seat whose key signed the proof, the envelopes."""

    rule: str
    seat: int | None
    step: int | None
    detail: str
    fingerprint: str | None
    envelopes: tuple[BadEnvelope, ...]

    @property
    def frames(self) -> tuple[bytes, ...]:
        """The whole frames of the offending envelopes, length included."""
        return tuple(e.frame for e in self.envelopes)

    def to_json(self) -> dict[str, object]:
        """Plain data for ``--json``."""
        return {"rule": self.rule, "seat": self.seat, "step": self.step, "detail": self.detail,
                "fingerprint": self.fingerprint,
                "envelopes": [e.to_json() for e in self.envelopes]}


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
    forfeit: bool = False
    """The game ended because the last opponents were ejected: the winners won by forfeit."""
    faults: list[Fault] = field(default_factory=list)
    """Every signed violation found. The first is ``fault``."""
    damage: list[dict[str, object]] = field(default_factory=list)
    """Each damaged or set-aside frame: where, and why."""
    evidence: bytes = b""
    """A ``.kotlog`` holding the genesis and the envelopes that prove an INVALID verdict."""

    @property
    def exit_code(self) -> int:
        """0 VALID, 1 INVALID, 2 INCOMPLETE."""
        return EXIT_CODES[self.status]

    def players(self) -> list[dict[str, object]]:
        """Each seat: name, monster, key fingerprint."""
        return [{"seat": i, "name": safe_text(s.name, 40), "monster": safe_text(s.monster, 40),
                 "fingerprint": s.fingerprint}
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
            "forfeit": self.forfeit,
            "fault": self.fault.to_json() if self.fault else None,
            "faults": [f.to_json() for f in self.faults],
            "missing": self.missing,
            "damage": self.damage,
            "notes": self.notes,
        }
        return json.dumps(data, indent=2)

    def render(self) -> str:
        """The verdict as plain text for people."""
        g = self.genesis
        lines = [f"{self.status}: game {short_id(g.game_id)} "
                 f"({' '.join(check_words(g.game_id))}), engine {g.engine_id}"]
        for i, s in enumerate(g.seats):
            lines.append(f"  seat {i}: {safe_text(s.name, 40)} [{s.fingerprint}] playing "
                         f"{safe_text(s.monster, 40)}")
        if self.status == VALID:
            names = ", ".join(f"seat {w} ({safe_text(g.seats[w].monster, 40)})"
                              for w in self.winners)
            how = " by forfeit (the last opponents were ejected)" if self.forfeit else ""
            lines.append(f"  {self.turns} turns, {self.steps} moves, {self.random_events} random "
                         f"events; winner{how}: {names or 'nobody (everybody lost)'}")
        for i, f in enumerate(self.faults):
            who = "" if f.seat is None else f"seat {f.seat} [{f.fingerprint}] "
            where = "" if f.step is None else f"at step {f.step} "
            lines.append(f"  {'first bad envelope' if i == 0 else 'also'}: {who}{where}"
                         f"broke {f.rule}")
            lines.append(f"    {f.detail}")
            lines += [f"    {e.describe()}" for e in f.envelopes]
        for m in self.missing:
            lines.append(f"  missing: {m}")
        for n in self.notes:
            lines.append(f"  note: {n}")
        return safe_lines("\n".join(lines))


def verify_logs(logs: Sequence[LogContents], engine: GameEngine, *, workers: int = 0) -> Verdict:
    """Merge ``logs`` and check everything.

    ``workers`` is the number of processes for the signature checks. 0 means one per core, when the
    logs are big enough to be worth it.

    :raises DifferentGames: the logs are of different games.
    """
    return _verify(logs, engine, workers, with_evidence=True)


def _signed_genesis(logs: Sequence[LogContents]) -> tuple[Genesis, list[int]]:
    """The genesis of the logs, and the seats whose signature of it does not check.

    It prefers a copy on which every seat's signature checks. If there is none, it takes the first
    copy."""
    genesis = logs[0].genesis
    for log in logs[1:]:
        if log.genesis.game_id != genesis.game_id:
            raise DifferentGames(
                f"the logs are of different games ({short_id(genesis.game_id)} and "
                f"{short_id(log.genesis.game_id)})"
            )
    best: list[int] | None = None
    for log in logs:
        bad = log.genesis.bad_signatures()
        if not bad:
            return log.genesis, []
        if best is None:
            best = bad
    return genesis, best or []


def _verify(logs: Sequence[LogContents], engine: GameEngine, workers: int,
            with_evidence: bool) -> Verdict:
    genesis, unsigned = _signed_genesis(logs)
    verdict = Verdict(INCOMPLETE, genesis)
    for log in logs:
        if log.torn:
            verdict.notes.append(f"{log.name} ends with {log.torn} bytes of a torn frame "
                                 "(ignored)")
    # A missing genesis signature proves nothing against the seat, because the frame may have
    # been edited. The game cannot be VALID without it. But an envelope a seat signed for this
    # genesis's game id still proves what that seat said.
    verdict.missing += [f"seat {i}: its signature of this genesis (the frame was altered, or "
                        "the seat never signed it)" for i in unsigned]
    mine = engine_id_of(engine, genesis)
    if genesis.engine_id != mine:
        verdict.missing.append(f"the rules this game was played with: it was made by engine "
                               f"{genesis.engine_id}, this kotp2p has {mine}")
        return verdict
    try:
        replica = Replica(genesis, engine)
    except (ValueError, TypeError) as exc:
        if unsigned:  # An edited genesis. Nobody signed what the engine refuses.
            verdict.missing.append(f"a genesis the engine accepts: it refuses this one ({exc})")
            return verdict
        verdict.status = INVALID
        verdict.fault = Fault("bad-genesis", None, 0, f"the engine refuses the genesis every "
                              f"seat signed: {exc}", None, ())
        verdict.faults = [verdict.fault]
        verdict.evidence = genesis.frame()
        return verdict
    intake = read_envelopes(logs, genesis, workers=workers)
    verdict.notes += intake.notes()
    verdict.damage = ([{"what": "damage", "reason": why, **pos.to_json()}
                       for pos, why in intake.damage]
                      + [{"what": "set aside", "reason": why, **pos.to_json()}
                         for pos, why in intake.set_aside])
    for env in intake.envelopes:
        replica.add(env)
    replica.advance()
    _summarise(verdict, replica, engine)
    faults = [_violation_fault(genesis, v, intake) for v in replica.violations]
    faults += [_signed_fault(genesis, f) for f in intake.faults]
    if faults:
        faults.sort(key=lambda f: (f.rule != "fork", 1 << 62 if f.step is None else f.step))
        verdict.status = INVALID
        verdict.faults = faults
        verdict.fault = faults[0]
        if with_evidence:
            verdict.evidence = _evidence(genesis, faults[0], replica, engine)
        return verdict
    verdict.missing += _missing(replica)
    if not verdict.missing:
        verdict.status = VALID
    return verdict


def _missing(replica: Replica) -> list[str]:
    """What an INCOMPLETE verdict lacks, by seat."""
    out = replica.gaps()
    for a in range(replica.n):
        env = replica.streams[a].get(replica.cursor[a])
        if (a not in replica.cut and env is not None and env.head not in replica.by_id
                and env.head != replica.game_id):
            out.append(f"seat {a}: its {env.kind.name} #{env.seq} (step {env.step}) builds on "
                       f"entry {env.head.hex()[:16]}, which no log holds (it cannot be checked "
                       "without it)")
    if not replica.is_over:
        p = replica.point
        owed = replica.owed_acks()
        for seat in replica.waiting_for():
            what = (f"its value for random event {p.k}" if p.k is not None
                    else f"its ACK of step {replica.step}" if seat in owed
                    else f"its MOVE for step {replica.step + 1}")
            out.append(f"seat {seat}: {what} (the game stops at step {replica.step})")
    else:
        for seat in range(replica.n):
            for k in replica.owed_openings(seat):
                out.append(f"seat {seat}: the opening of its private random event {k}")
            slots = replica.owed_slots(seat)
            if slots:
                out.append(f"seat {seat}: the opening of its hidden deck's slots "
                           f"{', '.join(map(str, slots))}")
    return out


def _bad_envelope(env: Envelope, intake: Intake) -> BadEnvelope:
    return BadEnvelope(env.author, env.seq, env.kind.name, env.step, env.id,
                       intake.positions.get(env.id), env.frame)


def _violation_fault(genesis: Genesis, v: Violation, intake: Intake) -> Fault:
    return Fault(v.rule, v.seat, v.step, v.detail, fingerprint(genesis.keys[v.seat]),
                 tuple(_bad_envelope(e, intake) for e in v.evidence))


def _signed_fault(genesis: Genesis, f: SignedFault) -> Fault:
    bad = BadEnvelope(f.claimed_author, f.seq, "envelope", f.step, f.envelope_id, f.position,
                      f.frame)
    return Fault(f.rule, f.seat, f.step, f.detail, fingerprint(genesis.keys[f.seat]), (bad,))


def _evidence(genesis: Genesis, fault: Fault, replica: Replica, engine: GameEngine) -> bytes:
    """The smallest of these logs that proves ``fault`` by itself, re-checked.

    The first try is the offending frames alone. The second adds the envelopes the replay needs up
    to the fault's step. The third adds every envelope the replay consumed."""
    offending = list(fault.frames)
    consumed = [[e for q, e in sorted(replica.streams[a].items()) if q < replica.cursor[a]]
                for a in range(replica.n)]
    needed: list[Envelope] = []
    for a, envs in enumerate(consumed):
        for e in envs:
            if a != fault.seat and fault.step is not None and e.step > fault.step:
                break  # Each author's envelopes are read in seq order, so keep a prefix.
            needed.append(e)
    everything = [e for envs in consumed for e in envs]
    want = (fault.rule, fault.seat, fault.step)
    data = b""
    for envs in ([], needed, everything):
        ordered = sorted(envs, key=lambda e: (e.step, e.author, e.seq))
        frames = [e.frame for e in ordered if e.frame not in offending] + offending
        data = genesis.frame() + b"".join(frames)
        alone = _verify([parse_log(data, "evidence")], engine, 1, with_evidence=False)
        if alone.fault is not None and (alone.fault.rule, alone.fault.seat,
                                        alone.fault.step) == want:
            return data
    return data


def _summarise(verdict: Verdict, replica: Replica, engine: GameEngine) -> None:
    verdict.steps = replica.step
    verdict.turns = engine.turn(replica.state)
    verdict.random_events = len(replica.resolved)
    if replica.is_over:
        verdict.winners = tuple(engine.winners(replica.state))
        verdict.forfeit = replica.forfeit
    verdict.notes += _hidden_cards(replica)


def _hidden_cards(replica: Replica) -> list[str]:
    """For each seat with a hidden deck: how many of its slots became known, and how."""
    hands, out = replica.hands, []
    for seat, commitments in enumerate(hands.commitments):
        if not commitments:
            continue
        shown = hands.shown_at[seat]
        played = sorted(step for step, by_play in shown.values() if by_play)
        opened = sorted(step for step, by_play in shown.values() if not by_play)
        words = [f"seat {seat}: {len(commitments)} hidden Evolution slots committed"]
        if played:
            words.append(f"{len(played)} shown by playing them (step{'s' * (len(played) > 1)} "
                         f"{', '.join(map(str, played))})")
        if opened:
            words.append(f"{len(opened)} opened by their owner (by step {opened[-1]})")
        out.append("; ".join(words))
    return out
