"""Plain words for what happened in a game: the one place that turns what the engine did into
the text a view shows.

The engine narrates its own events (``GameEngine.narrate_move`` / ``narrate_random`` /
``narrate_eject``: for the real rules, ``rules.apply(..., events=lst)`` and
``rules.describe_event``): each entry gives its action's line followed by one line per event,
each random outcome one line per event (the dice or the card first).

The rule every view follows (the ``rules`` package docstring; ``replay`` does the same): a
move's own description is told only when its events say nothing before the next turn opens (a
re-roll decision, a pass); otherwise the events already say it in the same words ("Giga Zaur
stays in Tokyo City"), and :attr:`MoveApplied.told` is False. Minor events are left out (the
engines' ``narrate_*`` without ``verbose``). A line the engine marks as opening a turn
(``-- turn 3: The King --``) becomes a :class:`Narrated` with ``heading`` set and the dashes
taken off, for the view to show as a heading. Whatever comes from peers
(names, chat, texts built from them) is made safe for a terminal by
:func:`kotp2p.net.safetext.safe_text` before a view prints it.
"""

from __future__ import annotations

from kotp2p.net.engine_interface import GameEngine
from kotp2p.net.history import Point
from kotp2p.net.protocol import Applied, Rolled
from kotp2p.net.replica import Replica
from kotp2p.net.updates import DiceRolled, MoveApplied, Narrated, Update


def is_heading(line: str) -> bool:
    """True for an engine line that opens a turn (``-- turn 3: The King --``)."""
    return line.startswith("--")


def narrated(step: int, line: str) -> Narrated:
    """One engine line as an update: a turn's opening line becomes a heading without dashes."""
    if is_heading(line):
        text = line.removeprefix("--").removesuffix("--").strip()
        return Narrated(step, text or line, heading=True)
    return Narrated(step, line)


def says_itself(lines: list[str]) -> bool:
    """True when ``lines`` (a move's events) say something before the next turn opens: the
    move's own description would repeat them."""
    return bool(lines) and not is_heading(lines[0])


def move_updates(engine: GameEngine, replica: Replica, ev: Applied) -> list[Update]:
    """The updates of an applied entry (a MOVE or an ejection): its line (marked not to be told
    when its events say it), then its events'."""
    entries = replica.entries
    lines: list[str] = []
    if ev.step < len(entries):
        entry = entries[ev.step]
        if ev.kind == "move":
            lines = engine.narrate_move(entry.before, entry.action)
        elif ev.kind == "eject" and entry.seat is not None:
            lines = engine.narrate_eject(entry.before, entry.seat)
    told = ev.kind == "eject" or not says_itself(lines)
    out: list[Update] = [MoveApplied(ev.step, ev.kind, ev.seat, ev.description, told)]
    return out + [narrated(ev.step, line) for line in lines]


def _point_of(replica: Replica, k: int) -> Point | None:
    for entry in reversed(replica.entries):
        for p in entry.points:
            if p.k == k:
                return p
    return None


def random_updates(engine: GameEngine, replica: Replica, ev: Rolled) -> list[Update]:
    """The updates of a resolved random event: the dice or card, then what followed."""
    point = _point_of(replica, ev.k)
    lines = engine.narrate_random(point.state, ev.values) if point is not None else []
    if not lines:  # a value this replica cannot see (another seat's peek)
        lines = [engine.describe_random(point.state, ev.values) if point is not None
                 else f"random values {list(ev.values)}"]
    step = point.step if point is not None else replica.step
    return [DiceRolled(ev.k, ev.values, lines[0]), *(narrated(step, x) for x in lines[1:])]
