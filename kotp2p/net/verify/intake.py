"""Reading the envelopes of one game out of ``.kotlog`` files, without trusting a byte of them.

Theory of operation
-------------------
Anyone may have edited a log file; it needs no key. So each frame after the genesis is sorted
into exactly one of these kinds. Only the first kind goes on to the replay.

* An **envelope** is signed by the seat it names, and its body is well formed.
* **Damage** is bytes that are not an envelope signed by the seat they name. It may be a flipped
  byte, a splice or a stranger's frame. It proves nothing about anybody. It gets a note with its
  position.
* **Set aside** is an envelope of another game, or a copy of a genesis. Logs joined with ``cat``
  give such copies. It gets a note, nothing else. But a torn frame, written on after the tear,
  can read as another game's envelope, its game id ending in the bytes that follow. So the bytes
  of another game's envelope are searched for frames, as damage is.
* A **signed fault** is bytes that do carry a seat's signature and are themselves its violation.
  One case is a body that names another seat as its author but is signed by this seat's key.
  That is ``forged-signature``. The signer is the one blamed, never the seat it pretends to be.
  The other case is a body its author signed that breaks the envelope layout. That is
  ``malformed-envelope``.

Identical frames are read once. Every frame keeps its :class:`Position`, so a verdict can point at
it. A position is a file, a frame number and a byte offset.

Signatures are checked in one batch by :func:`check_signatures`, before any body is decoded. When
there are many, it uses several processes; :mod:`kotp2p.net.wire.sigcheck` explains how.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kotp2p.net.files import LogContents, frames_inside
from kotp2p.net.trust import GENESIS_MAGIC, Genesis, parse_genesis_frame, short_id
from kotp2p.net.wire import (
    DOMAIN,
    Envelope,
    ForeignEnvelope,
    RemoteProtocolError,
    SignedMalformed,
    check_signatures,
    codec,
    decode_body,
    envelope_id,
    peek_author,
    signer_of,
    split_frame,
)

_GENESIS_PREFIX = b"\x93" + codec.pack(GENESIS_MAGIC)  # ["kotp2p-genesis", body, sigs]


@dataclass(frozen=True)
class Position:
    """Where a frame sits: which file, which frame and which byte. The genesis is frame 0."""

    file: str
    frame: int
    """The frame's number in its file. The genesis is 0. Bytes between frames have -1."""
    offset: int

    def describe(self) -> str:
        """``"game.kotlog frame 17 (byte 2345)"``.

        Bytes between frames, with ``frame`` -1, are named by their byte alone.
        """
        if self.frame < 0:
            return f"{self.file} byte {self.offset}"
        return f"{self.file} frame {self.frame} (byte {self.offset})"

    def to_json(self) -> dict[str, object]:
        """Plain data for ``--json``."""
        return {"file": self.file, "frame": self.frame, "offset": self.offset}


@dataclass(frozen=True)
class SignedFault:
    """A frame that is its signer's violation by itself, as the module comment explains."""

    rule: str
    seat: int
    step: int | None
    detail: str
    frame: bytes
    position: Position
    claimed_author: int
    seq: int | None
    envelope_id: bytes


@dataclass
class Intake:
    """What the logs hold, sorted."""

    envelopes: list[Envelope] = field(default_factory=list)
    positions: dict[bytes, Position] = field(default_factory=dict)
    """Envelope id -> where it was first found."""
    faults: list[SignedFault] = field(default_factory=list)
    damage: list[tuple[Position, str]] = field(default_factory=list)
    set_aside: list[tuple[Position, str]] = field(default_factory=list)

    def notes(self) -> list[str]:
        """One line per damaged or set-aside frame."""
        out = [f"damaged bytes at {p.describe()} ignored (they prove nothing about anybody): "
               f"{why}" for p, why in self.damage]
        out += [f"set aside {p.describe()}: {why}" for p, why in self.set_aside]
        return out


def _position(log: LogContents, i: int) -> Position:
    offset = log.offsets[i] if i < len(log.offsets) else -1
    return Position(log.name, i + 1, offset)


def read_envelopes(logs: Sequence[LogContents], genesis: Genesis, *, workers: int = 0) -> Intake:
    """Sort every frame of ``logs`` as the module says.

    All of ``logs`` are of the game of ``genesis``. The bytes of a damaged frame, and of another
    game's envelope, are searched for frames that start inside them. Its length prefix may be what
    was damaged, so it may have swallowed the start of the next frame. Any frames found are read
    too. So damage in one frame cannot hide the next one.

    ``workers`` is the number of processes for the signature checks. 0 means as many as there are
    cores, when the batch is big enough to be worth it.
    """
    intake = Intake()
    seen: set[bytes] = set()
    batch: list[tuple[LogContents, int, Position, bytes]] = []
    for log in logs:
        for offset, size in log.damaged:
            intake.damage.append((Position(log.name, -1, offset), f"{size} bytes that hold no "
                                  "frame"))
        batch += [(log, log.offsets[i] if i < len(log.offsets) else -1, _position(log, i), p)
                  for i, p in enumerate(log.payloads)]
    while batch:
        damaged = _sort(intake, genesis, batch, seen, workers)
        batch = [(log, off, Position(log.name, -1, off), p)
                 for log, where in damaged for off, p in frames_inside(log, where)]
    return intake


def _sort(intake: Intake, genesis: Genesis, batch: list[tuple[LogContents, int, Position, bytes]],
          seen: set[bytes], workers: int) -> list[tuple[LogContents, int]]:
    """Sort one batch of frames into ``intake``.

    Return the frames to search, the damaged ones and other games' envelopes, as ``(log, offset)``.
    """
    damaged: list[tuple[LogContents, int]] = []
    pending: list[tuple[bytes, bytes, int, Position, bytes, LogContents, int]] = []
    game_id, seats = genesis.game_id, genesis.n  # game_id hashes the genesis once, not per frame
    for log, offset, pos, payload in batch:
        if payload in seen:
            continue
        seen.add(payload)
        if payload.startswith(_GENESIS_PREFIX):
            if not _genesis_copy(intake, genesis, payload, pos):
                damaged.append((log, offset))
            continue
        try:
            body, sig = split_frame(payload)
            author = peek_author(body, game_id, seats)
        except ForeignEnvelope as exc:
            intake.set_aside.append((pos, exc.reason))
            damaged.append((log, offset))
            continue
        except RemoteProtocolError as exc:
            intake.damage.append((pos, exc.reason))
            damaged.append((log, offset))
            continue
        pending.append((body, sig, author, pos, payload, log, offset))
    keys = genesis.keys
    ok = check_signatures([(keys[a], sig, DOMAIN + body) for body, sig, a, *_ in pending],
                          workers=workers)
    for (body, sig, author, pos, payload, log, offset), good in zip(pending, ok, strict=True):
        raw = codec.frame(payload)
        if not good:
            if not _unsigned(intake, genesis, body, sig, author, pos, raw):
                damaged.append((log, offset))
            continue
        try:
            env = decode_body(body, sig, raw)
        except RemoteProtocolError as exc:
            err = SignedMalformed(f"seat {author} signed a malformed envelope: {exc.reason}",
                                  author, raw)
            intake.faults.append(SignedFault("malformed-envelope", author, None, err.reason, raw,
                                             pos, author, None, envelope_id(body)))
            continue
        intake.positions.setdefault(env.id, pos)
        intake.envelopes.append(env)
    return damaged


def _genesis_copy(intake: Intake, genesis: Genesis, payload: bytes, pos: Position) -> bool:
    """Note a genesis frame after the first; False when it is damaged."""
    try:
        other = parse_genesis_frame(payload)
    except RemoteProtocolError as exc:
        intake.damage.append((pos, f"a damaged genesis frame ({exc.reason})"))
        return False
    if other.body == genesis.body:
        intake.set_aside.append((pos, "another copy of this game's genesis (logs joined?)"))
    else:
        intake.set_aside.append((pos, f"the genesis of another game "
                                      f"({short_id(other.game_id)})"))
    return True


def _unsigned(intake: Intake, genesis: Genesis, body: bytes, sig: bytes, author: int,
              pos: Position, raw: bytes) -> bool:
    """A frame its named author did not sign.

    It is damage, and the answer is False. If another seat's key signed it, it is a signed fault,
    and the answer is True."""
    others = [k if j != author else b"" for j, k in enumerate(genesis.keys)]
    signer = signer_of(body, sig, others)
    if signer is None:
        intake.damage.append((pos, f"not signed by seat {author}'s key (altered bytes, or "
                                   "not a player's)"))
        return False
    step: int | None = None
    seq: int | None = None
    try:
        env = decode_body(body, sig, raw)
        step, seq = env.step, env.seq
    except RemoteProtocolError:
        pass
    intake.faults.append(SignedFault(
        "forged-signature", signer, step,
        f"seat {signer} signed an envelope that claims to be seat {author}'s", raw, pos, author,
        seq, envelope_id(body)))
    return True


__all__ = ["Intake", "Position", "SignedFault", "read_envelopes"]
