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
taken off, for the view to show as a heading. An engine that hands over its event values
(:class:`~kotp2p.net.trust.engine_interface.NarratesEvents`, as the real rules do) has each one put in
its line's :attr:`Narrated.event`, so that a view can tell what happened to whom without
reading the words. After a resume, :func:`history_updates` tells the whole game the replica
rebuilt from its log in the same updates, in the order live play told them, its chat lines
among them (each after the entry its author had applied when saying it). Whatever comes from
peers (names, chat, texts built from them) is made safe for a terminal by
:func:`kotp2p.net.wire.safetext.safe_text` before a view prints it.
"""

from __future__ import annotations

from collections.abc import Callable

from kotp2p.net.peer import Applied, Rolled
from kotp2p.net.replica import Entry, Point, Replica, describe_entry
from kotp2p.net.session.updates import ChatLine, DiceRolled, MoveApplied, Narrated, Update
from kotp2p.net.trust import GameEngine, NarratesEvents, State
from kotp2p.net.wire import MAX_CHAT, Envelope, Kind, Value

Told = list[tuple[str, object]]
"""An engine's lines, each with its event value (None when the engine gives none)."""
Past = MoveApplied | Narrated | DiceRolled | ChatLine
"""What a game's history is told with."""


def is_heading(line: str) -> bool:
    """True for an engine line that opens a turn (``-- turn 3: The King --``)."""
    return line.startswith("--")


def narrated(step: int, line: str, event: object = None) -> Narrated:
    """One engine line (and the engine's event behind it, if known) as an update: a turn's
    opening line becomes a heading without dashes."""
    if is_heading(line):
        text = line.removeprefix("--").removesuffix("--").strip()
        return Narrated(step, text or line, heading=True, event=event)
    return Narrated(step, line, event=event)


def tell_move(engine: GameEngine, state: State, action: Value) -> Told:
    """The engine's lines (with their events) for ``action`` applied to ``state``."""
    if isinstance(engine, NarratesEvents):
        return engine.narrate_move_events(state, action)
    return [(line, None) for line in engine.narrate_move(state, action)]


def tell_random(engine: GameEngine, state: State, values: tuple[int, ...]) -> Told:
    """The engine's lines (with their events) for the random outcome ``values``."""
    if isinstance(engine, NarratesEvents):
        return engine.narrate_random_events(state, values)
    return [(line, None) for line in engine.narrate_random(state, values)]


def tell_eject(engine: GameEngine, state: State, seat: int) -> Told:
    """The engine's lines (with their events) for the ejection of ``seat``."""
    if isinstance(engine, NarratesEvents):
        return engine.narrate_eject_events(state, seat)
    return [(line, None) for line in engine.narrate_eject(state, seat)]


def move_narration(engine: GameEngine, state: State, action: Value, step: int,
                   seat: int | None) -> list[Update]:
    """The updates of a MOVE applied at ``step``: its line (marked not to be told when its
    events say it), then its events'."""
    told = tell_move(engine, state, action)
    out: list[Update] = [MoveApplied(step, "move", seat, engine.describe_move(state, action),
                                     not says_itself([line for line, _ in told]))]
    return out + [narrated(step, line, event) for line, event in told]


def says_itself(lines: list[str]) -> bool:
    """True when ``lines`` (a move's events) say something before the next turn opens: the
    move's own description would repeat them."""
    return bool(lines) and not is_heading(lines[0])


def move_updates(engine: GameEngine, replica: Replica, ev: Applied) -> list[Update]:
    """The updates of an applied entry (a MOVE or an ejection): its line (marked not to be told
    when its events say it), then its events'."""
    return tell_later(engine, replica, ev)()


def tell_later(engine: GameEngine, replica: Replica, ev: Applied | Rolled
               ) -> Callable[[], list[Update]]:
    """What :func:`move_updates` or :func:`random_updates` would give for ``ev`` now, to be
    worked out when called: the states it tells from are taken now (a later peek opening may
    replace a point's state), the engine is asked for the words only then. So a session sends
    its envelopes first and narrates after (the others wait on the envelopes, a view on the
    words)."""
    if isinstance(ev, Rolled):
        point = _point_of(replica, ev.k)
        if point is None:
            return lambda: [DiceRolled(ev.k, ev.values, f"random values {list(ev.values)}")]
        state, step = point.state, point.step
        return lambda: _random_at(engine, state, step, ev.k, ev.values)
    entries = replica.entries
    entry = entries[ev.step] if ev.step < len(entries) else None
    return lambda: _entry_updates(engine, entry, ev)


def _entry_updates(engine: GameEngine, entry: Entry | None, ev: Applied) -> list[Update]:
    lines: Told = []
    if entry is not None:
        if ev.kind == "move":
            lines = tell_move(engine, entry.before, entry.action)
        elif ev.kind == "eject" and entry.seat is not None:
            lines = tell_eject(engine, entry.before, entry.seat)
    told = ev.kind == "eject" or not says_itself([line for line, _ in lines])
    out: list[Update] = [MoveApplied(ev.step, ev.kind, ev.seat, ev.description, told)]
    return out + [narrated(ev.step, line, event) for line, event in lines]


def history_updates(engine: GameEngine, replica: Replica) -> list[Past]:
    """Everything ``replica`` applied, told as live play told it: each entry (a MOVE or an
    ejection) as :func:`move_updates` tells it, each random event resolved at one of its points
    as :func:`random_updates` does, in the order they happened, and each chat line the replica
    read (:func:`chat_lines`) after the entry its author had applied when saying it (live play
    shows a line once that entry is in; at one step, by author, each author's in order).
    Nothing is sent or changed: the engine is only asked for the words (what a view shows after
    a resume)."""
    values = {x.k: x.values for x in replica.resolved}
    chats = chat_lines(replica)
    out: list[Past] = []
    for entry in replica.entries:
        if entry.step > 0:
            desc = describe_entry(engine, replica.genesis, entry)
            out += _past(move_updates(engine, replica, Applied(entry.step, entry.kind,
                                                                entry.seat, desc)))
        for point in entry.points:
            if point.k is not None and point.k in values:
                out += _past(_random_at(engine, point.state, point.step, point.k,
                                        values[point.k]))
        out += chats.pop(entry.step, [])
    return out + [line for step in sorted(chats) for line in chats[step]]


def chat_line(env: Envelope) -> ChatLine | None:
    """The line a CHAT envelope says (cut at :data:`~kotp2p.net.wire.schema.MAX_CHAT` characters,
    as live play cuts it), None for any other envelope or a payload that is not one text."""
    if env.kind is Kind.CHAT and len(env.payload) == 1 and isinstance(env.payload[0], str):
        return ChatLine(env.author, env.payload[0][:MAX_CHAT])
    return None


def chat_lines(replica: Replica) -> dict[int, list[ChatLine]]:
    """The chat lines ``replica`` has read, by the step their envelopes name (the entry the
    author had applied), each step's by author and each author's in order."""
    out: dict[int, list[ChatLine]] = {}
    for author, stream in enumerate(replica.streams):
        for seq in range(replica.cursor[author]):
            env = stream.get(seq)
            if env is None:
                continue
            line = chat_line(env)
            if line is not None:
                out.setdefault(env.step, []).append(line)
    return out


def recent_turns(history: list[Past], turns: int) -> tuple[int, list[Past]]:
    """The last ``turns`` turns of ``history`` (from the heading opening the first of them),
    and how many turns were left out before them."""
    starts = [i for i, u in enumerate(history) if isinstance(u, Narrated) and u.heading]
    if len(starts) <= turns:
        return 0, history
    return len(starts) - turns, history[starts[-turns]:] if turns > 0 else []


def _past(updates: list[Update]) -> list[Past]:
    return [u for u in updates if isinstance(u, (MoveApplied, Narrated, DiceRolled, ChatLine))]


def _point_of(replica: Replica, k: int) -> Point | None:
    for entry in reversed(replica.entries):
        for p in entry.points:
            if p.k == k:
                return p
    return None


def random_updates(engine: GameEngine, replica: Replica, ev: Rolled) -> list[Update]:
    """The updates of a resolved random event: the dice or card, then what followed."""
    return tell_later(engine, replica, ev)()


def _random_at(engine: GameEngine, state: State, step: int, k: int, values: tuple[int, ...]
               ) -> list[Update]:
    """The updates of random event ``k`` resolved to ``values`` in ``state`` (at ``step``)."""
    lines = tell_random(engine, state, values)
    if not lines:  # a value this replica cannot see (another seat's peek)
        lines = [(engine.describe_random(state, values), None)]
    return [DiceRolled(k, values, lines[0][0]),
            *(narrated(step, line, event) for line, event in lines[1:])]
