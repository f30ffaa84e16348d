"""``replay``: a game log told turn by turn in plain text, and the state at any step."""

from __future__ import annotations

from kotp2p.net.engine import GameEngine, Turn
from kotp2p.net.gamelog import LogContents
from kotp2p.net.intake import read_envelopes
from kotp2p.net.replica import Replica
from kotp2p.net.safetext import safe_text


def load_replica(log: LogContents, engine: GameEngine) -> tuple[Replica, list[str]]:
    """Replay a log as far as its valid envelopes go; also return notes on what was skipped."""
    genesis = log.genesis
    if genesis.engine_id != engine.engine_id:
        raise ValueError(f"this log was made by engine {genesis.engine_id}; this kotp2p has "
                         f"{engine.engine_id}")
    replica = Replica(genesis, engine)
    intake = read_envelopes([log], genesis)
    notes = intake.notes()
    notes += [f"skipped {f.position.describe()}: {f.detail}" for f in intake.faults]
    for env in intake.envelopes:
        replica.add(env)
    replica.advance()
    notes += [f"stopped at a violation: {v.describe()}" for v in replica.violations]
    return replica, notes


def replay_lines(log: LogContents, engine: GameEngine, step: int | None = None) -> list[str]:
    """The game as lines of text, up to entry ``step`` (all of it when None), then the state."""
    replica, notes = load_replica(log, engine)
    g = log.genesis
    names = [f"{safe_text(s.name, 40)} ({safe_text(s.monster, 40)})" for s in g.seats]
    lines = [f"Game {g.game_id.hex()[:16]}: " + ", ".join(
        f"seat {i} {n}" for i, n in enumerate(names))]
    last = replica.step if step is None else min(step, replica.step)
    turn = -1

    def header(state: object) -> None:
        nonlocal turn
        t = engine.turn(state)
        if t != turn:
            turn = t
            lines.append(f"-- turn {t} --")

    for entry in replica.entries[: last + 1]:
        if entry.kind == "move" and entry.before is not None:
            header(entry.before)
            lines.append(f"  [{entry.step}] seat {entry.seat} {names[entry.seat or 0]}: "
                         f"{engine.describe_move(entry.before, entry.action)}")
        elif entry.kind == "eject":
            lines.append(f"  [{entry.step}] seat {entry.seat} is ejected (absent)")
        for p in entry.points:
            res = next((r for r in replica.resolved if r.step == entry.step and r.k == p.k), None)
            if res is not None:
                if engine.turn(p.state) > 0:
                    header(p.state)
                who = ""
                nxt = entry.points[p.index + 1] if p.index + 1 < len(entry.points) else None
                if nxt is not None and isinstance(nxt.pending, Turn):
                    who = f" (then seat {nxt.pending.seat} decides)"
                lines.append(f"      random #{res.k}: "
                             f"{engine.describe_random(p.state, res.values)}{who}")
        if entry.points and entry.before is not None:
            changes = engine.describe_changes(entry.before, entry.points[-1].state)
            if changes:
                lines.append(f"      => {changes}")
    final = replica.entries[last].points[-1]
    lines.append(f"State after step {last}:")
    lines.append("  " + engine.describe_state(final.state))
    if step is None:
        if replica.is_over:
            w = engine.winners(replica.state)
            how = " by forfeit (the last opponents were ejected)" if replica.forfeit else ""
            lines.append(f"Game over; winner{how}: " + (", ".join(names[i] for i in w) or "nobody"))
        else:
            lines.append(f"The log stops here; waiting for seat(s) {replica.waiting_for()}")
    return [safe_text(line, 2000) for line in lines + [f"note: {n}" for n in notes]]
