"""A mutation fuzzer for everything that reads bytes from a peer or a file.

Theory of operation
-------------------
The seeds are real: the frames of a recorded 3-seat game (the codec's values, envelope frames,
the genesis frame, sync requests, actions and states in wire form) and a peer in the middle of
that game. Each input is one seed put through one to three random mutations (bit flips, byte
runs set to msgpack header bytes, insertions, deletions, splices with another seed, cuts), and
goes to one target:

=============  ===============================================  ==============================
target         what is called                                   what it may raise
=============  ===============================================  ==============================
codec          ``codec.unpack``                                 ``CodecError``
decoder        ``FrameDecoder.feed``, then ``unpack`` per frame  ``CodecError``
envelope       ``open_envelope``                                ``RemoteProtocolError``
genesis        ``parse_genesis_frame``                          ``RemoteProtocolError``
wire           ``rules.action_from_wire`` / ``state_from_wire``  ``ValueError`` (the engine's)
receive        ``PeerProtocol.receive`` of a mutated frame       nothing
signed         ``receive`` of a mutated body *re-signed* by its  nothing
               author's key (so it passes the signature check
               and reaches the schema and the replica)
verify         ``parse_log`` + ``verify_logs`` of the game's     ``NotAKotlog`` (not a log)
               first frames with mutated and re-signed ones
=============  ===============================================  ==============================

Anything else raised is a crash, recorded with its input. The slowest input of all is kept, and
every input slower than :data:`HANG` seconds counts as a hang. The peer in the middle of the game
is restored from a snapshot every few hundred inputs, so inputs that it accepted do not pile up.

Run the long fuzz with ``scripts/fuzz`` (``--help``); a bounded run is part of the tests.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import random
import resource
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kotp2p import rules
from kotp2p.net.files.gamelog import parse_log, split_frames
from kotp2p.net.peer import PeerProtocol
from kotp2p.net.trust import RulesEngine, parse_genesis_frame
from kotp2p.net.verify import verify_logs
from kotp2p.net.wire import DOMAIN, CodecError, FrameDecoder, RemoteProtocolError, codec, open_envelope
from tests.net.harness import Table, build_mesh, rules_chooser

_AUTHOR_AT = 36  # the author's byte in an envelope body (after the array, version, game id)

HANG = 1.0
"""Seconds: an input slower than this is a hang."""

SEATS = 3
_SNAPSHOT_EVERY = 300
_VERIFY_FRAMES = 80
_HEADERS = bytes([0x90, 0x91, 0x9F, 0x80, 0x8F, 0xC0, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7, 0xC1,
                  0xCA, 0xCB, 0xCC, 0xCF, 0xD0, 0xD3, 0xD4, 0xD9, 0xDA, 0xDB, 0xDC, 0xDD, 0xDE,
                  0xDF, 0xFF, 0x00, 0x7F, 0xA0, 0xBF])
_HOSTILE_VALUES: list[object] = [
    None, True, False, 0, -1, 1, 2, 255, 1 << 31, 1 << 63, -(1 << 63), "", "peek", "slot",
    "x" * 600, b"", b"\x00" * 32, b"\xff" * 64, [], [[]], [0], [99], [[0]], ["peek", 1, b"y" * 32],
    ["slot", 0, b"", b""], [1, [2, [3, [4]]]], {"k": 1}, [None] * 5,
]


@dataclass
class Report:
    """What a fuzz run found."""

    inputs: int = 0
    per_target: Counter[str] = field(default_factory=Counter)
    crashes: list[tuple[str, bytes, str]] = field(default_factory=list)
    hangs: int = 0
    slowest: tuple[float, str, bytes] = (0.0, "", b"")
    seconds: float = 0.0

    @property
    def peak_rss_mb(self) -> float:
        """Peak resident memory of this process so far, in MiB."""
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return kb / 1024 if sys.platform != "darwin" else kb / (1024 * 1024)

    def summary(self) -> str:
        """The figures, a few lines."""
        t, target, data = self.slowest
        lines = [f"inputs: {self.inputs} in {self.seconds:.0f} s "
                 f"({self.inputs / max(self.seconds, 1e-9):.0f}/s)",
                 "  by target: " + ", ".join(f"{k} {v}" for k, v in sorted(self.per_target.items())),
                 f"crashes: {len(self.crashes)}",
                 f"hangs (over {HANG:.0f} s): {self.hangs}",
                 f"slowest input: {t * 1000:.1f} ms ({target}, {len(data)} bytes)",
                 f"peak RSS: {self.peak_rss_mb:.0f} MiB"]
        for target, data, tb in self.crashes[:5]:
            lines.append(f"--- crash in {target} on {data[:200].hex()}\n{tb}")
        return "\n".join(lines)


class Fuzzer:
    """Seeds from a recorded game, mutations, targets (see the module comment)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.engine = RulesEngine()
        table, mesh = build_mesh(self.engine, SEATS, rules_chooser("random", seed), seed=seed,
                                 slots=2, chain_length=64)
        self.table: Table = table
        mesh.start()
        mesh.run_until(lambda: mesh.protos[0].replica.step >= 12)
        self.snapshot = copy.deepcopy(mesh.protos[0])
        self.peer: PeerProtocol = copy.deepcopy(self.snapshot)
        mesh.run()
        log = bytes(mesh.logs[1])
        payloads, _ = split_frames(log)
        self.genesis_payload = payloads[0]
        self.frames = payloads[1:]
        self.log_head = b"".join(codec.frame(p) for p in payloads[:_VERIFY_FRAMES])
        self.bodies = [codec.unpack(p)[0] for p in self.frames]
        self.values = [codec.pack(v) for v in self._wire_values(log)]
        g = table.genesis
        self.game_id, self.keys = g.game_id, g.keys
        self.syncs = [codec.pack(["sync", a, q]) for a in range(SEATS) for q in (0, 5, 1 << 40)]
        self.seeds = [*self.frames, self.genesis_payload, *self.values, *self.syncs]
        self.since_snapshot = 0
        self.targets: list[tuple[str, int, Callable[[], tuple[bytes, Callable[[], object]]]]] = [
            ("codec", 20, self._codec), ("decoder", 8, self._decoder),
            ("envelope", 16, self._envelope), ("genesis", 4, self._genesis),
            ("wire", 8, self._wire), ("receive", 16, self._receive), ("signed", 24, self._signed),
            ("verify", 1, self._verify),
        ]

    def _wire_values(self, log: bytes) -> list[object]:
        contents = parse_log(log)
        g = contents.genesis
        out: list[object] = []
        for p in contents.payloads[:200]:
            env = open_envelope(p, g.game_id, g.keys)
            out.append([env.kind.value, env.payload])
            if env.payload:
                out.append(env.payload[0])
        out.append(rules.state_to_wire(self.snapshot.replica.state))
        return out

    # -- mutations --------------------------------------------------------------------------------

    def mutate(self, data: bytes) -> bytes:
        """One to three random mutations of ``data``."""
        rng = self.rng
        b = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            op = rng.randrange(7)
            at = rng.randrange(len(b) + 1)
            if op == 0 and b:
                i = min(at, len(b) - 1)
                b[i] ^= 1 << rng.randrange(8)
            elif op == 1 and b:
                i = min(at, len(b) - 1)
                b[i] = rng.choice(_HEADERS)
            elif op == 2:
                b[at:at] = bytes(rng.choice(_HEADERS) for _ in range(rng.randint(1, 8)))
            elif op == 3 and b:
                del b[at : at + rng.randint(1, 16)]
            elif op == 4:
                other = rng.choice(self.seeds)
                j = rng.randrange(len(other) + 1)
                b[at:] = other[j:]
            elif op == 5:
                del b[at:]
            else:
                b[at:at] = bytes([rng.choice(_HEADERS)]) * rng.randint(1, 2000)
        return bytes(b)

    def _mutated_value(self) -> object:
        """A body decoded, one field (or a part of the payload) replaced by a hostile value."""
        rng = self.rng
        body = codec.unpack(rng.choice(self.bodies))
        i = 8 if rng.random() < 0.5 else rng.randrange(len(body))
        if i == 8 and body[8] and rng.random() < 0.7:
            body[8][rng.randrange(len(body[8]))] = rng.choice(_HOSTILE_VALUES)
        elif i not in (0, 1, 2):
            body[i] = rng.choice(_HOSTILE_VALUES)
        else:
            body[7] = rng.choice([*_HOSTILE_VALUES, 1, 2, 3, 4, 5, 6, 7, 8])
        return body

    def _signed_frame(self) -> bytes:
        """A mutated body signed by the seat it names (so it passes the signature check)."""
        rng = self.rng
        if rng.random() < 0.5:
            try:
                body = codec.pack(self._mutated_value())
            except TypeError:
                body = rng.choice(self.bodies)
        else:
            body = self.mutate(rng.choice(self.bodies))
        author = rng.randrange(1, SEATS)  # (the peer under test is seat 0)
        if len(body) > _AUTHOR_AT and body[_AUTHOR_AT] < SEATS:
            body = body[:_AUTHOR_AT] + bytes([author]) + body[_AUTHOR_AT + 1 :]
        sig = self.table.identities[author].sign(DOMAIN + body)
        return codec.pack([body, sig])

    # -- targets ----------------------------------------------------------------------------------

    def _codec(self) -> tuple[bytes, Callable[[], object]]:
        data = self.mutate(self.rng.choice(self.seeds))

        def run() -> object:
            try:
                return codec.unpack(data)
            except CodecError:
                return None
        return data, run

    def _decoder(self) -> tuple[bytes, Callable[[], object]]:
        stream = b"".join(codec.frame(self.rng.choice(self.seeds)) for _ in range(3))
        data = self.mutate(stream)
        chunk = self.rng.randint(1, 300)

        def run() -> object:
            dec = FrameDecoder()
            try:
                for i in range(0, len(data), chunk):
                    for f in dec.feed(data[i : i + chunk]):
                        with contextlib.suppress(CodecError):
                            codec.unpack(f)
            except CodecError:
                pass
            return None
        return data, run

    def _envelope(self) -> tuple[bytes, Callable[[], object]]:
        data = self.mutate(self.rng.choice(self.frames))

        def run() -> object:
            try:
                return open_envelope(data, self.game_id, self.keys)
            except RemoteProtocolError:
                return None
        return data, run

    def _genesis(self) -> tuple[bytes, Callable[[], object]]:
        data = self.mutate(self.genesis_payload)

        def run() -> object:
            try:
                return parse_genesis_frame(data)
            except RemoteProtocolError:
                return None
        return data, run

    def _wire(self) -> tuple[bytes, Callable[[], object]]:
        data = self.mutate(self.rng.choice(self.values))

        def run() -> object:
            try:
                value = codec.unpack(data)
            except CodecError:
                return None
            for decode in (rules.action_from_wire, rules.state_from_wire):
                with contextlib.suppress(ValueError):
                    decode(value)
            return None
        return data, run

    def _peer(self) -> PeerProtocol:
        self.since_snapshot += 1
        if self.since_snapshot >= _SNAPSHOT_EVERY:
            self.since_snapshot = 0
            self.peer = copy.deepcopy(self.snapshot)
        return self.peer

    def _receive(self) -> tuple[bytes, Callable[[], object]]:
        data = self.mutate(self.rng.choice(self.frames + self.syncs))
        peer = self._peer()
        sender = self.rng.randrange(1, SEATS)
        return data, lambda: peer.receive(data, sender)

    def _signed(self) -> tuple[bytes, Callable[[], object]]:
        data = self._signed_frame()
        peer = self._peer()
        sender = self.rng.randrange(1, SEATS)
        return data, lambda: peer.receive(data, sender)

    def _verify(self) -> tuple[bytes, Callable[[], object]]:
        rng = self.rng
        frames = [codec.frame(p) for p in split_frames(self.log_head)[0]]
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(1, len(frames))
            frames[i] = codec.frame(self._signed_frame() if rng.random() < 0.6
                                    else self.mutate(frames[i][4:]))
        data = b"".join(frames)
        if rng.random() < 0.2:
            data = self.mutate(data)

        def run() -> object:
            try:
                log = parse_log(data)
            except RemoteProtocolError:
                return None
            return verify_logs([log], self.engine, workers=1)
        return data, run

    # -- the loop ---------------------------------------------------------------------------------

    def run(self, inputs: int, seconds: float | None = None,
            progress: Callable[[Report], None] | None = None) -> Report:
        """Fuzz ``inputs`` inputs (or until ``seconds`` passed)."""
        report = Report()
        names = [name for name, _, _ in self.targets]
        weights = [w for _, w, _ in self.targets]
        makers = {name: make for name, _, make in self.targets}
        start = time.perf_counter()
        for n in range(inputs):
            name = self.rng.choices(names, weights)[0]
            data, call = makers[name]()
            t0 = time.perf_counter()
            try:
                call()
            except Exception:  # a crash: recorded with its input
                report.crashes.append((name, data, traceback.format_exc(limit=6)))
            took = time.perf_counter() - t0
            report.inputs += 1
            report.per_target[name] += 1
            if took > report.slowest[0]:
                report.slowest = (took, name, data)
            if took > HANG:
                report.hangs += 1
            if progress is not None and n % 50_000 == 0 and n:
                report.seconds = time.perf_counter() - start
                progress(report)
            if seconds is not None and time.perf_counter() - start > seconds:
                break
        report.seconds = time.perf_counter() - start
        return report


def main(argv: list[str] | None = None) -> int:
    """``scripts/fuzz``: run the fuzzer, print its figures; exit 1 on any crash or hang."""
    parser = argparse.ArgumentParser(prog="scripts/fuzz", description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--crashes", type=Path, default=None,
                        help="a directory to write each crashing input to")
    args = parser.parse_args(argv)
    fuzzer = Fuzzer(args.seed)

    def progress(r: Report) -> None:
        print(f"  {r.inputs} inputs, {len(r.crashes)} crashes, {r.hangs} hangs, "
              f"{r.inputs / r.seconds:.0f}/s", flush=True)

    report = fuzzer.run(args.inputs, args.seconds, progress)
    print(report.summary())
    if args.crashes is not None:
        args.crashes.mkdir(parents=True, exist_ok=True)
        for i, (name, data, _) in enumerate(report.crashes):
            (args.crashes / f"{i:04d}-{name}.bin").write_bytes(data)
    return 1 if report.crashes or report.hangs else 0


if __name__ == "__main__":
    raise SystemExit(main())
