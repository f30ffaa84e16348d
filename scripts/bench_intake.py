#!/usr/bin/env python3
"""CPU per received envelope in one peer, with no network and no other process: a recorded
6-seat game's envelopes of the other seats, in log order, fed to a fresh ``PeerProtocol`` of
seat 1 (which re-creates its own envelopes byte for byte: the keys and chains are
deterministic). Printed: the time per received envelope, and how much of it is the Ed25519
check and the decoding of the body (``open_envelope``); the rest is the protocol and the
replica. Times are this process's CPU time (``time.process_time``: a busy machine slows them
less than the wall clock), best of 5. ``--profile`` adds the functions that take the most of it
(cProfile, one process, nothing else running in it: wall time is CPU time here)."""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kotp2p.net.files import parse_log  # noqa: E402
from kotp2p.net.peer import Finished, PeerProtocol  # noqa: E402
from kotp2p.net.trust import RulesEngine  # noqa: E402
from kotp2p.net.wire import (  # noqa: E402
    DOMAIN,
    Kind,
    open_envelope,
    peek_author,
    split_frame,
    verify_signature,
)
from tests.net.harness import build_mesh, make_table, rules_chooser  # noqa: E402

SEATS = 6
SEAT = 1


def _game(seed: int) -> tuple[list[tuple[int, bytes]], int]:
    """The frames of a recorded game (author, payload), in log order, and the game's seed."""
    engine = RulesEngine()
    _, mesh = build_mesh(engine, SEATS, rules_chooser("random", seed), seed=seed,
                         rng=random.Random(seed))
    mesh.start()
    mesh.run()
    contents = parse_log(bytes(mesh.logs[0]))
    g = contents.genesis
    out = []
    for payload in contents.payloads:
        body, _ = split_frame(payload)
        out.append((peek_author(body, g.game_id, len(g.keys)), payload))
    return out, seed


def _replay(frames: list[tuple[int, bytes]], seed: int,
            profile: cProfile.Profile | None = None) -> float:
    """Seconds to feed the other seats' ``frames`` to a fresh seat (its construction and its
    own decisions, taken from its MOVEs in the recording, not counted)."""
    engine = RulesEngine()
    table = make_table(engine, SEATS, seed)
    proto = PeerProtocol(table.genesis, SEAT, table.identities[SEAT], table.secrets[SEAT],
                         engine, slots=table.decks[SEAT])
    proto.start()
    elapsed = 0.0
    finished = False
    keys = table.genesis.keys
    for author, payload in frames:
        if author == SEAT:
            env = open_envelope(payload, table.genesis.game_id, keys)
            if env.kind is Kind.MOVE:
                proto.submit(env.payload[0])
            continue  # (its other envelopes it makes itself, on receiving the others')
        if profile is not None:
            profile.enable()
        start = time.process_time()
        events = proto.receive(payload, author)
        elapsed += time.process_time() - start
        if profile is not None:
            profile.disable()
        finished = finished or any(isinstance(e, Finished) for e in events)
    if not finished:
        raise SystemExit("the replayed game did not finish: the recording is not what seat "
                         f"{SEAT} would have received")
    return elapsed


def _opened(frames: list[tuple[int, bytes]], seed: int) -> tuple[float, float]:
    """Seconds for the bare signature checks of ``frames``, and for ``open_envelope``."""
    table = make_table(RulesEngine(), SEATS, seed)
    g = table.genesis
    keys = g.keys
    start = time.process_time()
    frames = [f for f in frames if f[0] != SEAT]
    for _, payload in frames:
        body, sig = split_frame(payload)
        verify_signature(keys[peek_author(body, g.game_id, len(keys))], sig, DOMAIN + body)
    bare = time.process_time() - start
    start = time.process_time()
    for _, payload in frames:
        open_envelope(payload, g.game_id, keys)
    return bare, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--profile", action="store_true", help="print where the time goes")
    args, _ = parser.parse_known_args()
    frames, seed = _game(3)
    best = min(_replay(frames, seed) for _ in range(5))  # best of 5: a quiet machine's figure
    bare, opened = (min(x) for x in zip(*(_opened(frames, seed) for _ in range(5)), strict=True))
    n = sum(1 for author, _ in frames if author != SEAT)
    print(f"intake, seat {SEAT} of a {SEATS}-seat game, {n} envelopes received: "
          f"{best / n * 1e6:6.1f} us per envelope (signature {bare / n * 1e6:5.1f} us, "
          f"decoding {(opened - bare) / n * 1e6:5.1f} us, protocol and replica "
          f"{(best - opened) / n * 1e6:5.1f} us)")
    if args.profile:
        profile = cProfile.Profile()
        _replay(frames, seed, profile)
        stats = pstats.Stats(profile)
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumtime").print_stats(40)


if __name__ == "__main__":
    main()
