"""The game as a replica has it so far.

It holds the entries, the points after each, and what the game took from each seat to get there.
That is chain values, ACKs and the envelopes it used.

Every rule of the replica reads here where the game is. Only the replica's handlers and settling
add to it. The lists and sets are appended to, never replaced, so a member may keep a reference
to one.
"""

from __future__ import annotations

from kotp2p.net.replica.history import Entry, Point
from kotp2p.net.trust import ChainChecker, Chance, GameEngine, Genesis, State
from kotp2p.net.wire import Envelope


class Timeline:
    """The entries and points of one game, and the values and ACKs taken for them."""

    def __init__(self, genesis: Genesis, engine: GameEngine) -> None:
        self.engine = engine
        self.n = genesis.n
        state = engine.start(genesis.monsters, genesis.options)
        self.entries: list[Entry] = [Entry(0, genesis.game_id, "genesis", None, before=state)]
        self.entry_ids: set[bytes] = {genesis.game_id}
        self.checkers = [
            ChainChecker(i, s.anchor, length=genesis.chain_length)
            for i, s in enumerate(genesis.seats)
        ]
        self.revealed: dict[tuple[int, int], bytes] = {}
        """``(seat, event k)`` -> the chain value the game took."""
        self.trigger: dict[int, bytes] = {}
        """Event k -> the id of the entry whose points first pend on it."""
        self.acked: set[tuple[int, int]] = set()
        """``(seat, step)`` of every ACK without a value the game took."""
        self.used: set[bytes] = set()
        """Ids of envelopes the game used, besides the entries.

        These are ACKs and values taken, and votes that made an ejection. They decide which
        envelopes of a seat that left the game are logged. :meth:`LogRules.in_block` reads them."""
        self.used_at: dict[tuple[int, int, int], bytes] = {}
        """``(author, step, point index)`` -> the id of its used ACK there."""
        self.push_point(state)

    @property
    def step(self) -> int:
        """Entries applied after the genesis."""
        return len(self.entries) - 1

    @property
    def head(self) -> bytes:
        """Id of the last entry."""
        return self.entries[-1].id

    @property
    def point(self) -> Point:
        """The point the game waits at."""
        return self.entries[-1].points[-1]

    def push_point(self, state: State, known: Point | None = None) -> Point:
        """Add the point ``state`` makes after the last entry.

        ``known`` is the same point, worked out before. Its pending decision and digest are
        reused."""
        entry = self.entries[-1]
        if known is not None:
            p = Point(entry.step, len(entry.points), state, known.pending, self.engine,
                      known.digest)
        else:
            p = Point(entry.step, len(entry.points), state, self.engine.pending(state),
                      self.engine)
        pending = p.pending
        entry.points.append(p)
        if isinstance(pending, Chance):
            self.trigger.setdefault(pending.index, entry.id)
        return p

    def first_point(self, state: State, step: int) -> Point:
        """The point a state would be, not recorded. A MOVE's state_hash must name it."""
        pending = self.engine.pending(state)
        return Point(step, 0, state, pending, self.engine)

    def owed_acks(self) -> tuple[int, ...]:
        """The live seats whose ACK of the last MOVE is still missing. The next MOVE waits."""
        entry = self.entries[-1]
        first = entry.points[0]
        if entry.kind != "move" or first.k is not None:
            return ()
        alive = entry.points[-1].alive
        return tuple(a for a in range(self.n)
                     if alive[a] and a != entry.seat and (a, entry.step) not in self.acked)

    def owes(self, seat: int) -> int | None:
        """The event whose value the current point still needs from ``seat``."""
        p = self.entries[-1].points[-1]
        k = p.k
        if k is not None and p.alive[seat] and (seat, k) not in self.revealed:
            return k
        return None

    def commit_reveals(self, a: int, env: Envelope) -> None:
        """Take the chain values ``env`` of seat ``a`` carries. They were already found sound."""
        for k, x, nxt in env.reveals:
            self.checkers[a].accept(k, x, nxt)
            self.revealed[(a, k)] = x

    def use(self, env: Envelope, p: Point) -> None:
        """Record that the game took ``env`` at point ``p``.

        ``env`` is an ACK, with or without a value."""
        self.used.add(env.id)
        self.used_at[(env.author, p.step, p.index)] = env.id
