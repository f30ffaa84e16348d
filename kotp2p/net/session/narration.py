"""Plain words for what happened in a game.

This is the one place that turns what the engine did into the text a view shows.

The engine narrates its own events with ``GameEngine.narrate_move``, ``narrate_random`` and
``narrate_eject``. For the real rules these use ``rules.apply(..., events=lst)`` and
``rules.describe_event``. Each entry gives its action's line, followed by one line per event.
Each random outcome gives one line per event, the dice or the card first.

Every view follows one rule. The ``rules`` package docstring states it, and ``replay`` does the
same. A move's own description is told only when its events say nothing before the next turn
opens. That happens for a re-roll decision or a pass. Otherwise the events already say it in the
same words, such as "Giga Zaur stays in Tokyo City". Then :attr:`MoveApplied.told` is False.

Minor events are left out: the engines' ``narrate_*`` run without ``verbose``. The engine may
mark a line as opening a turn, such as ``-- turn 3: The King --``. It becomes a
:class:`Narrated` with ``heading`` set and the dashes taken off. The view shows it as a heading.

An engine may hand over its event values, as the real rules do; see
:class:`~kotp2p.net.trust.engine_interface.NarratesEvents`. Then each value is put in its line's
:attr:`Narrated.event`. So a view can tell what happened to whom without reading the words.

After a resume, :func:`history_updates` tells the whole game the replica rebuilt from its log. It
uses the same updates, in the order live play told them. Its chat lines are among them. Each
comes after the entry its author had applied when saying it.

Whatever comes from peers is made safe for a terminal before a view prints it. That is names,
chat and texts built from them. :func:`kotp2p.net.wire.safetext.safe_text` does it.
"""

from __future__ import annotations

from collections.abc import Callable

from kotp2p.net.peer import Applied, Polled, Rolled
from kotp2p.net.replica import Entry, Point, PollResolved, Replica, describe_entry
from kotp2p.net.session.updates import ChatLine, DiceRolled, MoveApplied, Narrated, Update
from kotp2p.net.trust import GameEngine, NarratesEvents, State
from kotp2p.net.wire import MAX_CHAT, Envelope, Kind, Value

Told = list[tuple[str, object]]
"""An engine's lines, each with its event value. The value is None when the engine gives none."""
Past = MoveApplied | Narrated | DiceRolled | ChatLine
"""What a game's history is told with."""


def is_heading(line: str) -> bool:
    """True for an engine line that opens a turn, such as ``-- turn 3: The King --``."""
    return line.startswith("--")


def narrated(step: int, line: str, event: object = None) -> Narrated:
    """One engine line as an update, with the engine's event behind it if known.

    A turn's opening line becomes a heading without dashes."""
    if is_heading(line):
        text = line.removeprefix("--").removesuffix("--").strip()
        return Narrated(step, text or line, heading=True, event=event)
    return Narrated(step, line, event=event)


def tell_move(engine: GameEngine, state: State, action: Value) -> Told:
    """The engine's lines, with their events, for ``action`` applied to ``state``."""
    if isinstance(engine, NarratesEvents):
        return engine.narrate_move_events(state, action)
    return [(line, None) for line in engine.narrate_move(state, action)]


def tell_random(engine: GameEngine, state: State, values: tuple[int, ...]) -> Told:
    """The engine's lines, with their events, for the random outcome ``values``."""
    if isinstance(engine, NarratesEvents):
        return engine.narrate_random_events(state, values)
    return [(line, None) for line in engine.narrate_random(state, values)]


def tell_eject(engine: GameEngine, state: State, seat: int) -> Told:
    """The engine's lines, with their events, for the ejection of ``seat``."""
    if isinstance(engine, NarratesEvents):
        return engine.narrate_eject_events(state, seat)
    return [(line, None) for line in engine.narrate_eject(state, seat)]


def move_narration(engine: GameEngine, state: State, action: Value, step: int,
                   seat: int | None) -> list[Update]:
    """The updates of a MOVE applied at ``step``: its line, then its events'.

    The line is marked not to be told when its events say it."""
    told = tell_move(engine, state, action)
    out: list[Update] = [MoveApplied(step, "move", seat, engine.describe_move(state, action),
                                     not says_itself([line for line, _ in told]))]
    return out + [narrated(step, line, event) for line, event in told]


def says_itself(lines: list[str]) -> bool:
    """True when a move's events ``lines`` say something before the next turn opens.

    Then the move's own description would repeat them."""
    return bool(lines) and not is_heading(lines[0])


def move_updates(engine: GameEngine, replica: Replica, ev: Applied) -> list[Update]:
    """The updates of an applied MOVE or ejection: its line, then its events'.

    The line is marked not to be told when its events say it."""
    return tell_later(engine, replica, ev)()


def tell_later(engine: GameEngine, replica: Replica, ev: Applied | Rolled | Polled
               ) -> Callable[[], list[Update]]:
    """The updates of ``ev``: a move as :func:`move_updates` tells it, or a random event's dice
    or card, then what followed.

    It is worked out when called. The states it tells from are taken now, since a later peek
    opening may replace a point's state. The engine is asked for the words only then. So a
    session sends its envelopes first and narrates after. The others wait on the envelopes, a
    view on the words."""
    if isinstance(ev, Polled):
        found = [x for x in replica.polls.resolved if (x.step, x.index) == (ev.step, ev.index)]
        return lambda: poll_updates(engine, found[-1]) if found else []
    if isinstance(ev, Rolled):
        point = _point_of(replica, ev.k)
        if point is None:
            return lambda: [DiceRolled(ev.k, ev.values, f"random values {list(ev.values)}")]
        state, step = point.state, point.step
        return lambda: _random_at(engine, state, step, ev.k, ev.values)
    entries = replica.entries
    entry = entries[ev.step] if ev.step < len(entries) else None
    return lambda: _entry_updates(engine, entry, ev)


def poll_updates(engine: GameEngine, poll: PollResolved) -> list[Update]:
    """The updates of a resolved poll: each seat's answer, in order, as a MOVE is told."""
    return [u for state, answer in poll.moves(engine)
            for u in move_narration(engine, state, answer.action, poll.step, answer.seat)]


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
    """Everything ``replica`` applied, told as live play told it, in the order it happened.

    Each MOVE or ejection is told as :func:`move_updates` tells it. Each random event resolved
    at one of its points is told by its dice or card, then what followed. Each chat line the replica read
    comes from :func:`chat_lines`. It comes after the entry its author had applied when saying
    it, since live play shows a line once that entry is in. At one step the lines go by author,
    each author's in order.

    Nothing is sent or changed. The engine is only asked for the words. A view shows them after
    a resume."""
    values = {x.k: x.values for x in replica.resolved}
    polls = {(x.step, x.index): x for x in replica.polls.resolved}
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
            poll = polls.get((point.step, point.index))
            if poll is not None:
                out += _past(poll_updates(engine, poll))
        out += chats.pop(entry.step, [])
    return out + [line for step in sorted(chats) for line in chats[step]]


def chat_line(env: Envelope) -> ChatLine | None:
    """The line a CHAT envelope says, or None.

    The line is cut at :data:`~kotp2p.net.wire.schema.MAX_CHAT` characters, as live play cuts
    it. None comes for any other envelope, or for a payload that is not one text."""
    if env.kind is Kind.CHAT and len(env.payload) == 1 and isinstance(env.payload[0], str):
        return ChatLine(env.author, env.payload[0][:MAX_CHAT])
    return None


def chat_lines(replica: Replica) -> dict[int, list[ChatLine]]:
    """The chat lines ``replica`` has read, by the step their envelopes name.

    That step is the entry the author had applied. Each step's lines go by author, and each
    author's in order."""
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
    """The last ``turns`` turns of ``history``, and how many turns were left out before them.

    They start from the heading opening the first of them."""
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


def _random_at(engine: GameEngine, state: State, step: int, k: int, values: tuple[int, ...]
               ) -> list[Update]:
    """The updates of random event ``k`` resolved to ``values`` in ``state`` at ``step``."""
    lines = tell_random(engine, state, values)
    if not lines:  # a value this replica cannot see, such as another seat's peek
        lines = [(engine.describe_random(state, values), None)]
    return [DiceRolled(k, values, lines[0][0]),
            *(narrated(step, line, event) for line, event in lines[1:])]
