#!/usr/bin/env python3
"""Trust-core figures: envelopes signed and verified per second, `verify` time for a recorded
6-player game against the bare signature checks of its envelopes (one core, in one process), and
bytes on the wire per turn for 4 and 6 seats (every frame every peer sends, forwarded envelopes
included). `verify` is timed checking signatures on every core, then on one."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kotp2p.net.files import parse_log  # noqa: E402
from kotp2p.net.trust import RulesEngine  # noqa: E402
from kotp2p.net.verify import verify_logs  # noqa: E402
from kotp2p.net.wire import (  # noqa: E402  # noqa: E402
    DOMAIN,
    Identity,
    Kind,
    open_envelope,
    peek_author,
    seal,
    split_frame,
    verify_signature,
)
from tests.net.harness import build_mesh, rules_chooser  # noqa: E402


def _rate(fn: object, seconds: float = 1.0) -> float:
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            fn()  # type: ignore[operator]
        count += 100
    return count / elapsed


def sign_verify() -> None:
    ident = Identity.from_seed(b"b" * 32)
    game = b"g" * 32
    kw = dict(game_id=game, author=0, seq=41, prev=b"p" * 32, head=b"h" * 32, step=120,
              kind=Kind.MOVE, payload=[[1, 0, 1, 1, 0, 1, 0]],
              reveals=[(150, b"x" * 32, None)], state_hash=b"s" * 32)
    env = seal(ident, **kw)  # type: ignore[arg-type]
    signed = _rate(lambda: seal(ident, **kw))  # type: ignore[arg-type]
    keys = (ident.public_key, b"k" * 32)
    verified = _rate(lambda: open_envelope(env.frame[4:], game, keys))
    print(f"envelopes signed:   {signed:9.0f} /s   ({len(env.frame)} bytes each)")
    print(f"envelopes verified: {verified:9.0f} /s   (signature checked, body decoded)")


def recorded_game(seats: int, seed: int) -> tuple[bytes, int, int]:
    engine = RulesEngine()
    _, mesh = build_mesh(engine, seats, rules_chooser("random", seed), seed=seed,
                         rng=random.Random(seed))
    mesh.start()
    mesh.run()
    turns = engine.turn(mesh.protos[0].state)
    return bytes(mesh.logs[0]), mesh.wire_bytes, turns


def verify_time(seats: int = 6, workers: int = 0) -> None:
    engine = RulesEngine()
    log, _, turns = recorded_game(seats, 4)
    contents = parse_log(log)
    g = contents.genesis
    keys, game_id = g.keys, g.game_id  # (game_id hashes the genesis: not part of a check)

    def bare() -> None:
        for payload in contents.payloads:
            body, sig = split_frame(payload)
            assert verify_signature(keys[peek_author(body, game_id, len(keys))], sig,
                                    DOMAIN + body)

    def full() -> None:
        assert verify_logs([parse_log(log)], engine, workers=workers).status == "VALID"

    bare_times, full_times = [], []
    for _ in range(15):  # interleaved, best of 15: the figures of a quiet machine
        bare_times.append(_timed(bare))
        full_times.append(_timed(full))
    best_bare, best_full = min(bare_times), min(full_times)
    n = len(contents.payloads)
    cores = "one core" if workers == 1 else "every core"
    print(f"verify, {seats}-player game ({turns} turns, {n} envelopes, {len(log)} bytes), "
          f"signatures on {cores}: {best_full * 1000:.1f} ms")
    print(f"  bare signature checks of the same envelopes: {best_bare * 1000:.1f} ms; "
          f"verify / bare = {best_full / best_bare:.2f} "
          f"(replay adds {100 * (best_full / best_bare - 1):.0f}%)")


def _timed(fn: object) -> float:
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - start


def wire() -> None:
    for seats in (4, 6):
        totals = [recorded_game(seats, seed) for seed in (1, 2, 3)]
        per_turn = sum(w for _, w, _ in totals) / sum(t for _, _, t in totals)
        print(f"bytes on the wire per turn, {seats} seats: {per_turn:9.0f} "
              f"(all links together, forwarded envelopes included; mean of 3 games)")


if __name__ == "__main__":
    sign_verify()
    verify_time(6, workers=0)
    verify_time(6, workers=1)
    wire()
