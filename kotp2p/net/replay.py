"""``replay``: a game log told turn by turn in plain text, and the state at any step."""

from __future__ import annotations

from kotp2p.net.engine_interface import GameEngine, Turn
from kotp2p.net.envelope import open_envelope
from kotp2p.net.errors import RemoteProtocolError
from kotp2p.net.gamelog import LogContents
from kotp2p.net.replica import Replica


def load_replica(log: LogContents, engine: GameEngine) -> tuple[Replica, list[str]]:
    """Replay a log as far as its valid envelopes go; also return notes on what was skipped."""
    genesis = log.genesis
    if genesis.engine_id != engine.engine_id:
        raise ValueError(f"this log was made by engine {genesis.engine_id}; this kotp2p has "
                         f"{engine.engine_id}")
    replica = Replica(genesis, engine)
    notes = []
    for payload in log.payloads:
        try:
            replica.add(open_envelope(payload, genesis.game_id, genesis.keys))
        except RemoteProtocolError as exc:
            notes.append(f"skipped an envelope: {exc.reason}")
    replica.advance()
    notes += [f"stopped at a violation: {v.describe()}" for v in replica.violations]
    return replica, notes


def replay_lines(log: LogContents, engine: GameEngine, step: int | None = None) -> list[str]:
    """The game as lines of text, up to entry ``step`` (all of it when None), then the state.

    Each MOVE and each random outcome is followed by what the engine says happened, in order
    (its events in plain words); ``--`` lines open the turns.
    """
    replica, notes = load_replica(log, engine)
    g = log.genesis
    names = [f"{s.name} ({s.monster})" for s in g.seats]
    lines = [f"Game {g.game_id.hex()[:16]}: " + ", ".join(
        f"seat {i} {n}" for i, n in enumerate(names))]
    last = replica.step if step is None else min(step, replica.step)

    def tell(narration: list[str]) -> None:
        lines.extend(t if t.startswith("--") else f"        {t}" for t in narration)

    for entry in replica.entries[: last + 1]:
        if entry.kind == "move" and entry.before is not None:
            lines.append(f"  [{entry.step}] seat {entry.seat} {names[entry.seat or 0]}: "
                         f"{engine.describe_move(entry.before, entry.action)}")
            tell(engine.narrate_move(entry.before, entry.action))
        elif entry.kind == "eject" and entry.before is not None and entry.seat is not None:
            lines.append(f"  [{entry.step}] seat {entry.seat} is ejected (absent)")
            tell(engine.narrate_eject(entry.before, entry.seat))
        for p in entry.points:
            res = next((r for r in replica.resolved if r.step == entry.step and r.k == p.k), None)
            if res is not None:
                who = ""
                nxt = entry.points[p.index + 1] if p.index + 1 < len(entry.points) else None
                if nxt is not None and isinstance(nxt.pending, Turn):
                    who = f" (then seat {nxt.pending.seat} decides)"
                lines.append(f"      random #{res.k}: "
                             f"{engine.describe_random(p.state, res.values)}{who}")
                tell(engine.narrate_random(p.state, res.values))
    final = replica.entries[last].points[-1]
    lines.append(f"State after step {last}:")
    lines.append("  " + engine.describe_state(final.state))
    if step is None:
        if replica.is_over:
            w = engine.winners(replica.state)
            lines.append("Game over; winner: " + (", ".join(names[i] for i in w) or "nobody"))
        else:
            lines.append(f"The log stops here; waiting for seat(s) {replica.waiting_for()}")
    return lines + [f"note: {n}" for n in notes]
