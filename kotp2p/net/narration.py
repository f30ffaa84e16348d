"""Plain words for what happened in a game: the one place that turns what the engine did into
the text a view shows.

An engine that reports its events (the real rules: ``rules.apply(..., events=lst)`` and
``rules.describe_event``) is a :class:`Narrator`: each MOVE gives its action's line followed by
one line per event, each random outcome one line per event (the dice or the card first). For an
engine that does not, each step gives one line of what it changed (``describe_changes``).
Whatever comes from peers (names, chat, texts built from them) is made safe for a terminal by
:func:`printable` before a view prints it.
"""

from __future__ import annotations

import logging
import unicodedata
from typing import Protocol, runtime_checkable

from kotp2p.net.codec import Value
from kotp2p.net.engine import GameEngine, State
from kotp2p.net.history import Point
from kotp2p.net.protocol import Applied, Rolled
from kotp2p.net.replica import Replica
from kotp2p.net.updates import DiceRolled, MoveApplied, Narrated, StateChanged, Update

log = logging.getLogger(__name__)


@runtime_checkable
class Narrator(Protocol):
    """An engine that can say, in plain words, each thing a move or a random outcome does."""

    def narrate_move(self, state: State, action: Value) -> list[str]:
        """One line per engine event of applying ``action`` (wire form) to ``state``."""
        ...

    def narrate_random(self, state: State, values: tuple[int, ...]) -> list[str]:
        """One line per engine event of answering the random event pending in ``state``."""
        ...


def printable(text: str) -> str:
    """Peer text made safe for a terminal: control and format characters (escape sequences,
    bidirectional overrides, newlines) become ``?``."""
    return "".join("?" if unicodedata.category(c)[0] == "C" else c for c in text)


def move_updates(narrator: Narrator | None, replica: Replica, ev: Applied) -> list[Update]:
    """The updates of an applied entry: its line, then its events' lines."""
    out: list[Update] = [MoveApplied(ev.step, ev.kind, ev.seat, ev.description)]
    entries = replica.entries
    if narrator is None or ev.kind != "move" or ev.step >= len(entries):
        return out
    entry = entries[ev.step]
    try:
        lines = narrator.narrate_move(entry.before, entry.action)
    except ValueError as exc:  # an engine that cannot say it: the action's line is enough
        log.debug("no narration for step %d: %s", ev.step, exc)
        return out
    return out + [Narrated(ev.step, line) for line in lines]


def _point_of(replica: Replica, k: int) -> Point | None:
    for entry in reversed(replica.entries):
        for p in entry.points:
            if p.k == k:
                return p
    return None


def random_updates(engine: GameEngine, narrator: Narrator | None, replica: Replica,
                   ev: Rolled) -> list[Update]:
    """The updates of a resolved random event: the dice or card, then what followed."""
    point = _point_of(replica, ev.k)
    lines: list[str] = []
    if narrator is not None and point is not None:
        try:
            lines = narrator.narrate_random(point.state, ev.values)
        except ValueError as exc:
            log.debug("no narration for random event %d: %s", ev.k, exc)
    if not lines:
        lines = [engine.describe_random(point.state, ev.values) if point is not None
                 else f"random values {list(ev.values)}"]
    step = point.step if point is not None else replica.step
    return [DiceRolled(ev.k, ev.values, lines[0]), *(Narrated(step, x) for x in lines[1:])]


def changes(engine: GameEngine, replica: Replica, step: int) -> list[Update]:
    """What entry ``step`` and its random events changed, once it is complete (for engines
    that do not narrate)."""
    entries = replica.entries
    if not 0 < step < len(entries):
        return []
    entry = entries[step]
    text = engine.describe_changes(entry.before, entry.points[-1].state)
    return [StateChanged(step, text)] if text else []
