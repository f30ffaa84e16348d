"""``replay``: a game log told turn by turn in plain text, and the state at any step."""

from __future__ import annotations

from collections.abc import Callable

from kotp2p.net.files import LogContents
from kotp2p.net.replica import Replica
from kotp2p.net.trust import GameEngine, State, Turn, engine_id_of, short_id
from kotp2p.net.verify.intake import read_envelopes
from kotp2p.net.wire import safe_text


def load_replica(log: LogContents, engine: GameEngine) -> tuple[Replica, list[str]]:
    """Replay a log as far as its valid envelopes go.

    Also return notes on what was skipped.
    """
    genesis = log.genesis
    mine = engine_id_of(engine, genesis)
    if genesis.engine_id != mine:
        raise ValueError(f"this log was made by engine {genesis.engine_id}; this kotp2p has "
                         f"{mine}")
    replica = Replica(genesis, engine)
    intake = read_envelopes([log], genesis)
    notes = intake.notes()
    notes += [f"skipped {f.position.describe()}: {f.detail}" for f in intake.faults]
    for env in intake.envelopes:
        replica.add(env)
    replica.advance()
    notes += [f"stopped at a violation: {v.describe()}" for v in replica.violations]
    return replica, notes


def _own_lines(told: list[str]) -> int:
    """How many of the told lines come before a new turn opens.

    Those lines tell what the move itself did.
    """
    return next((i for i, t in enumerate(told) if t.startswith("--")), len(told))


def replay_lines(
    log: LogContents, engine: GameEngine, step: int | None = None, verbose: bool = False,
    state_lines: Callable[[State], list[str]] | None = None,
    end_lines: Callable[[Replica], list[str]] | None = None,
) -> list[str]:
    """The game as lines of text up to entry ``step``, then the state.

    A ``step`` of None means the whole game. The state is told in the words of ``state_lines`` if
    given. With ``verbose``, the engine's notation follows them. Without ``state_lines``, the state
    is told as the engine describes it.

    Each move and each random outcome is told by what the engine says happened. Its events come in
    order, in plain words. A move's own description comes first only when its events say nothing
    before the next turn opens. A re-roll or a pass is such a move. So nothing is said twice.
    ``[N]`` marks the move of step N. ``--`` lines open the turns. ``verbose`` adds every detail:
    the author of each move with its description, each random value, the minor events.
    ``end_lines`` gives what follows a whole game that is over, such as its figures.
    """
    replica, notes = load_replica(log, engine)
    g = log.genesis
    names = [s.label for s in g.seats]
    lines = [f"Game {short_id(g.game_id)}: " + ", ".join(
        f"seat {i} {n}" for i, n in enumerate(names))]
    last = replica.step if step is None else min(step, replica.step)
    indent = " " * 7

    def tell(narration: list[str], mark: str = "") -> None:
        for t in narration:
            if t.startswith("--"):
                lines.append(t)
            else:
                lines.append(f"{mark:>6} {t}" if mark else indent + t)
                mark = ""

    polls = {(x.step, x.index): x for x in replica.polls.resolved}
    for entry in replica.entries[: last + 1]:
        mark = f"[{entry.step}]"
        if entry.kind == "move" and entry.before is not None:
            told = engine.narrate_move(entry.before, entry.action, verbose)
            said = engine.describe_move(entry.before, entry.action)
            if verbose:
                lines.append(f"{mark:>6} seat {entry.seat} {names[entry.seat or 0]}: {said}")
                tell(told)
            else:
                tell(told if _own_lines(told) else [said, *told], mark)
        elif entry.kind == "eject" and entry.before is not None and entry.seat is not None:
            lines.append(f"{mark:>6} seat {entry.seat} {names[entry.seat]} is ejected: the other "
                         "players voted it out")
            tell(engine.narrate_eject(entry.before, entry.seat, verbose))
        for p in entry.points:
            poll = polls.get((p.step, p.index))
            for state, answer in poll.moves(engine) if poll is not None else ():  # a window
                told = engine.narrate_move(state, answer.action, verbose)
                said = engine.describe_move(state, answer.action)
                tell(told if _own_lines(told) else [said, *told], "")
            res = next((r for r in replica.resolved if r.step == entry.step and r.k == p.k), None)
            if res is None:
                continue
            told = engine.narrate_random(p.state, res.values, verbose)
            if verbose or not _own_lines(told):
                who = ""
                nxt = entry.points[p.index + 1] if p.index + 1 < len(entry.points) else None
                if nxt is not None and isinstance(nxt.pending, Turn):
                    who = f" (then seat {nxt.pending.seat} decides)"
                lines.append(f"{indent}random #{res.k}: "
                             f"{engine.describe_random(p.state, res.values)}{who}")
            tell(told)
    final = replica.entries[last].points[-1]
    lines.append(f"State after step {last}:")
    if state_lines is not None:
        lines += ["  " + line for line in state_lines(final.state)]
    if state_lines is None or verbose:
        lines.append("  " + engine.describe_state(final.state))
    if step is None:
        if replica.is_over:
            w = engine.winners(replica.state)
            how = " by forfeit (the last opponents were ejected)" if replica.forfeit else ""
            lines.append(f"Game over; winner{how}: " + (", ".join(names[i] for i in w) or "nobody"))
            if end_lines is not None:
                lines += end_lines(replica)
        else:
            waiting = [f"{names[i]} (seat {i})" for i in replica.waiting_for()]
            lines.append("The log stops here" + (
                f", waiting for {_and(waiting)}." if waiting else "."))
    return [safe_text(line, 2000) for line in lines + [f"note: {n}" for n in notes]]


def _and(items: list[str]) -> str:
    """``items`` joined as in a sentence: ``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
