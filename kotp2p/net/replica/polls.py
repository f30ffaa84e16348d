"""Polls: points where several seats answer at once, such as a window where each hand may play.

Theory of operation
-------------------
A poll is the engine's ``Poll(seats)``: every seat named answers from its own view of the same
state, and no answer changes what another may answer. So each seat signs its answer as soon as it
decides, and nobody waits for the seat before it: one round of messages, not one per seat.

* An answer is an ACK at the poll's point, its ``state_hash`` that point's digest, its payload
  ``[action, *openings]`` as a MOVE's: the action in the engine's wire form, then the opening of
  each hidden-deck slot the action shows face up. At the first point of a MOVE's entry it also
  acknowledges that MOVE.
* A replica checks an answer when it reaches the point: the openings against their commitments,
  then the action in the engine's view of that seat (:meth:`GameEngine.poll_view`). A wrong one
  convicts its author with that ACK as the proof, as a MOVE would.
* Once every live seat named has answered, the answers apply in the poll's order, all together,
  and the game goes on from the point they make. Like a random event, that needs no ACK: every
  replica applies the same signed answers. At the first point after a MOVE it also waits for
  the ACKs of the seats the poll does not ask, so no seat leaves a point owing one: a vote to
  eject names a seat the point itself awaits.
* A seat's second answer at one point is its violation: each author's envelopes are read in
  order, so every replica takes the same first one. An answer to a point the game left, as after
  an ejection, is taken as it is and used for nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kotp2p.net.replica.hands import Hands
from kotp2p.net.replica.history import Point
from kotp2p.net.replica.timeline import Timeline
from kotp2p.net.trust import GameEngine, Poll, State
from kotp2p.net.wire import SLOT_ITEM, Envelope, Value, short_repr


@dataclass(frozen=True)
class Answer:
    """Seat ``seat``'s answer ``action`` to a poll, with the slots it opened and its ACK."""

    seat: int
    action: Value
    shown: dict[int, int]
    envelope: Envelope


@dataclass
class PollResolved:
    """The poll at point ``index`` of entry ``step`` took ``answers``, in order, in ``state``."""

    step: int
    index: int
    state: State
    answers: tuple[Answer, ...] = field(default_factory=tuple)

    def moves(self, engine: GameEngine) -> list[tuple[State, Answer]]:
        """Each answer with the state it applied to, in order: how a view tells the poll."""
        out = []
        state = self.state
        for answer in self.answers:
            out.append((state, answer))
            state = engine.apply_move(state, answer.action)
        return out


class Polls:
    """The answers to each poll point, their checks, and the polls resolved."""

    def __init__(self, timeline: Timeline, hands: Hands) -> None:
        self._timeline = timeline
        self._engine = timeline.engine
        self._hands = hands
        self.answers: dict[tuple[int, int], dict[int, Answer]] = {}
        """``(step, point index)`` -> seat -> its answer there."""
        self.resolved: list[PollResolved] = []
        """Every poll resolved, in order."""

    def answered(self, p: Point, seat: int) -> bool:
        """True once ``seat``'s answer at ``p`` was taken."""
        return seat in self.answers.get((p.step, p.index), {})

    def missing(self, p: Point) -> tuple[int, ...]:
        """The live seats ``p``'s poll still waits for."""
        assert isinstance(p.pending, Poll)
        got = self.answers.get((p.step, p.index), {})
        return tuple(a for a in p.pending.seats if p.alive[a] and a not in got)

    def check(self, a: int, env: Envelope, p: Point) -> Answer | tuple[str, str]:
        """Seat ``a``'s answer ``env`` at poll point ``p``, checked; or ``(rule, why)``."""
        pending = p.pending
        assert isinstance(pending, Poll)
        if a not in pending.seats:
            return "unexpected-ack", f"an answer from seat {a}, which this window does not ask"
        if self.answered(p, a):
            return "unexpected-ack", f"a second answer to the window at step {p.step}"
        action, items = env.payload[0], env.payload[1:]
        if any(not (isinstance(o, list) and o[0] == SLOT_ITEM) for o in items):
            return "bad-opening", "an answer carries only the openings of the slots it plays"
        view = self._engine.poll_view(p.state, a)
        dealt = self._hands.check_move(a, view, None, action, items)
        if isinstance(dealt, str):
            return "bad-opening", dealt
        view, _, shown = dealt
        try:
            self._engine.apply_move(view, action)
        except ValueError as exc:  # the engine refuses the answer; anything else is its bug
            return "illegal-move", (f"{short_repr(action)} is not legal here: "
                                    f"{short_repr(str(exc), 300)}")
        return Answer(a, action, shown, env)

    def take(self, answer: Answer, p: Point) -> None:
        """Record a checked answer at ``p``: the slots it opened are known from now on."""
        self.answers.setdefault((p.step, p.index), {})[answer.seat] = answer
        if answer.shown:
            self._hands.commit(answer.seat, None, answer.shown, p.step)
        timeline = self._timeline
        entry = timeline.entries[p.step]
        if p.index == 0 and entry.kind == "move":
            timeline.acked.add((answer.seat, p.step))  # it applied the MOVE before it
        timeline.use(answer.envelope, p)

    def resolve(self, p: Point) -> State:
        """The state once every answer at ``p`` applied, in the poll's order."""
        pending = p.pending
        assert isinstance(pending, Poll)
        got = self.answers[(p.step, p.index)]
        answers = tuple(got[a] for a in pending.seats if a in got)
        state = p.state
        for answer in answers:
            for slot, card in answer.shown.items():
                state = self._engine.fill_deck(state, answer.seat, slot, card)
        self.resolved.append(PollResolved(p.step, p.index, state, answers))
        return self._engine.apply_poll(state, [x.action for x in answers])
