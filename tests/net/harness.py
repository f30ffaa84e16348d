"""Many protocol objects wired together in memory, with bots deciding and a scheduler that reorders,
delays and drops deliveries (like h11's ``ConnectionPair``, for N peers).

Links are FIFO like TCP; the scheduler picks which link delivers next at random, so deliveries
across links interleave in any order. A dropped frame is lost; when nothing is left to deliver and
the game is not over, every seat is told a soft deadline passed, which asks peers to resend what
is missing (``sync``). A seat told a hard deadline votes to eject whoever the game waits on.
"""

from __future__ import annotations

import hashlib
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from kotp2p.net.peer import Event, Logged, Misbehaviour, PeerProtocol, Rejected, Send
from kotp2p.net.replica import Violation
from kotp2p.net.trust import (
    PEEK_TAG,
    GameEngine,
    Genesis,
    SeatInfo,
    SecretChain,
    SlotDeck,
    State,
    make_genesis,
    sign_genesis,
)
from kotp2p.net.wire import Identity, Value

MONSTERS = ("The King", "Giga Zaur", "Alienoid", "Cyber Kitty", "Meka Dragon", "Space Penguin")

Chooser = Callable[[int, State], Value]
"""(seat, state) -> the action for that seat's pending decision, in wire form."""


def _seed(*parts: object) -> bytes:
    return hashlib.sha256(":".join(map(str, parts)).encode()).digest()


@dataclass
class Table:
    """The seats of one game before play: keys, chain secrets, slot decks, the signed genesis."""

    genesis: Genesis
    identities: list[Identity]
    secrets: list[bytes]
    decks: list[SlotDeck | None]


def make_table(
    engine: GameEngine, n: int, seed: int = 0, *, chain_length: int = 4096, slots: int = 0
) -> Table:
    """A signed genesis for ``n`` deterministic seats (``slots`` private slots each)."""
    identities = [Identity.from_seed(_seed("key", seed, i), f"Bot {i}") for i in range(n)]
    secrets = [_seed("chain", seed, i) for i in range(n)]
    decks: list[SlotDeck | None] = []
    seats = []
    for i, ident in enumerate(identities):
        deck = None
        if slots:
            contents = [f"evolution {seed}.{i}.{j}".encode() for j in range(slots)]
            deck = SlotDeck.build(ident.public_key, contents, _seed("slots", seed, i))
        decks.append(deck)
        seats.append(SeatInfo(
            ident.public_key, ident.name, MONSTERS[i],
            SecretChain(secrets[i], i, length=chain_length).anchor(0),
            SecretChain(secrets[i], i, tag=PEEK_TAG, length=chain_length).anchor(0),
            deck.commitments if deck else (),
        ))
    options = engine.default_options(n)
    g = make_genesis(engine.engine_id_for(options), options, seats, _seed("nonce", seed)[:16],
                     chain_length)
    g = g.with_signatures([sign_genesis(g, ident) for ident in identities])
    return Table(g, identities, secrets, decks)


BIG_FRAME = 8 * 1024
"""Bytes above which a delivered frame is noted in :attr:`Mesh.big_to`."""


@dataclass
class Mesh:
    """N protocol objects and the links between them."""

    protos: list[PeerProtocol]
    choose: Chooser
    rng: random.Random | None = None
    drop: float = 0.0
    logs: list[bytearray] = field(default_factory=list)
    links: dict[tuple[int, int], deque[bytes]] = field(default_factory=dict)
    violations: list[list[Violation]] = field(default_factory=list)
    rejected: list[list[str]] = field(default_factory=list)
    wire_bytes: int = 0
    down: set[int] = field(default_factory=set)
    held: set[tuple[int, int]] = field(default_factory=set)
    """Links ``(from, to)`` whose frames wait, queued in order, until taken out of this set."""
    big_to: set[int] = field(default_factory=set)
    """Seats that received a frame over :data:`BIG_FRAME` bytes (only a rogue's oversized CHAT
    is that big): a long run tells a lost trick from an ignored one."""
    early_softs: int = 40
    """How many more soft deadlines :meth:`run` may pass early; see its ``early_soft``."""
    slow: set[int] = field(default_factory=set)
    """Seats whose links deliver only when no other link has anything to deliver (so copies of
    their MOVEs forwarded by the others arrive first)."""
    _busy: set[tuple[int, int]] = field(default_factory=set, init=False, repr=False)
    """The links with a frame queued: found without looking at every link."""
    _stirred: set[int] = field(default_factory=set, init=False, repr=False)
    """Seats that handled something since :meth:`_decide` last asked whether they must move.
    Only such a seat's turn can have come."""

    def __post_init__(self) -> None:
        n = len(self.protos)
        self.logs = [bytearray() for _ in range(n)]
        self.violations = [[] for _ in range(n)]
        self.rejected = [[] for _ in range(n)]
        self._stirred = set(range(n))

    @property
    def n(self) -> int:
        return len(self.protos)

    def handle(self, seat: int, events: list[Event]) -> None:
        """Route a seat's events: frames onto links, log lines into its log."""
        self._stirred.add(seat)
        for ev in events:
            if isinstance(ev, Send):
                for to in ev.to:
                    if to != seat:
                        self.links.setdefault((seat, to), deque()).append(ev.frame)
                        self._busy.add((seat, to))
            elif isinstance(ev, Logged):
                self.logs[seat] += ev.frame
            elif isinstance(ev, Misbehaviour):
                self.violations[seat].append(ev.violation)
            elif isinstance(ev, Rejected):
                self.rejected[seat].append(ev.reason)

    def start(self) -> None:
        for i, p in enumerate(self.protos):
            if i not in self.down:
                self.handle(i, p.start())

    def _decide(self) -> bool:
        """Let every seat whose decision it is decide; say whether one did.

        A seat is asked only if it handled something since the last call, or if it acts on its
        own (a maverick's ``act``): the order of decisions is that of asking every seat."""
        acted = False
        stirred, self._stirred = self._stirred, set()
        for i, p in enumerate(self.protos):
            act = getattr(p, "act", None)
            if act is None and i not in stirred:
                continue
            if i in self.down:
                continue
            if act is not None:
                events = act(self.choose)
                if events:
                    self.handle(i, events)
                    acted = True
            if p.my_turn:
                self.handle(i, p.submit(self.choose(i, p.state)))
                acted = True
        return acted

    def deliver_one(self) -> bool:
        """Deliver one frame in flight, if any; say whether one was."""
        busy = self._busy - self.held if self.held else self._busy
        if self.slow:
            busy = {k for k in busy if k[0] not in self.slow} or busy
        if not busy:
            return False
        link = self.rng.choice(sorted(busy)) if self.rng else min(busy)
        queue = self.links[link]
        frame = queue.popleft()
        if not queue:
            self._busy.discard(link)
        src, dst = link
        if dst in self.down or (self.rng and self.drop and self.rng.random() < self.drop):
            return True
        self.wire_bytes += len(frame)
        if len(frame) > BIG_FRAME:
            self.big_to.add(dst)
        self.handle(dst, self.protos[dst].receive(frame[4:], src))
        return True

    def live(self) -> list[int]:
        return [i for i in range(self.n) if i not in self.down]

    def progress(self) -> int:
        """A number that grows whenever any replica gets further."""
        return sum(p.replica.step + len(p.replica.resolved) for p in self.protos)

    def run_until(self, done: Callable[[], bool], max_events: int = 100_000) -> bool:
        """Decide and deliver (no deadlines) until ``done()``; False if it never came true."""
        self._stirred.update(range(self.n))
        for _ in range(max_events):
            if done():
                return True
            if not self._decide() and not self.deliver_one():
                return done()
        return done()

    def close_after_grace(self, seats: list[int]) -> None:
        """What the sessions of ``seats`` do once their game is over.

        In its grace period a session asks once for what its log lacks, such as a lost BYE. Then
        it stops, and writes what a stopped session writes."""
        for i in seats:
            self.handle(i, self.protos[i].end_wait_passed())
            if not self.protos[i].log_complete:
                self.handle(i, self.protos[i].sync_requests())
        self.run_until(lambda: all(self.protos[i].log_complete for i in seats))
        for i in seats:
            self.handle(i, self.protos[i].close())

    def run(self, max_events: int = 200_000, stalls: int = 5, hard_after: int | None = None,
            early_soft: float = 0.0, early_hard: float = 0.0) -> int:
        """Play until every live seat's game is over or nothing moves; return deliveries made.

        When nothing is left to deliver, every live seat is told a soft deadline passed (which
        asks for what is missing); after ``hard_after`` such rounds with no progress, also the
        hard deadline. ``stalls`` rounds with no progress end the run.

        With ``early_soft``, after each delivery a random live seat's soft deadline passes with
        that chance, while frames are still in flight, as with a slow link. At most
        :attr:`early_softs` such deadlines pass in all, so that a game still ends. With
        ``early_hard``, such a seat's hard deadline passes too with that chance, as after a
        partition longer than the hard timeout.
        """
        self._stirred.update(range(self.n))
        events = 0
        idle = 0
        seen = self.progress()
        while events < max_events:
            if self._decide():
                continue
            if self.deliver_one():
                events += 1
                if early_soft and self.early_softs > 0 and self.rng is not None \
                        and self.rng.random() < early_soft:
                    self.early_softs -= 1
                    i = self.rng.choice(self.live())
                    self.handle(i, self.protos[i].soft_timeout())
                    if early_hard and self.rng.random() < early_hard:
                        self.handle(i, self.protos[i].hard_timeout())
                continue
            if all(self.protos[i].is_over for i in self.live()):
                return events
            now = self.progress()
            idle = 0 if now != seen else idle + 1
            seen = now
            if idle > stalls:
                return events
            for i in self.live():
                self.handle(i, self.protos[i].soft_timeout())
                if hard_after is not None and idle >= hard_after:
                    self.handle(i, self.protos[i].hard_timeout())
        return events


def play_to_end(mesh: Mesh) -> None:
    """Start ``mesh`` and run it, deadlines passing when nothing moves, until every seat's game
    is over; then let the live seats close their logs."""
    mesh.start()
    for _ in range(20):
        mesh.run(stalls=4, hard_after=3)
        if all(p.is_over for p in mesh.protos):
            break
    mesh.close_after_grace(mesh.live())


def build_mesh(
    engine: GameEngine,
    n: int,
    choose: Chooser,
    *,
    seed: int = 0,
    rng: random.Random | None = None,
    drop: float = 0.0,
    chain_length: int = 4096,
    slots: int = 0,
    factory: Callable[..., PeerProtocol] = PeerProtocol,
    factories: dict[int, Callable[..., PeerProtocol]] | None = None,
) -> tuple[Table, Mesh]:
    """A table and a mesh of protocol objects for it (``factories`` swaps in mavericks)."""
    table = make_table(engine, n, seed, chain_length=chain_length, slots=slots)
    protos = []
    for i in range(n):
        make = (factories or {}).get(i, factory)
        protos.append(make(table.genesis, i, table.identities[i], table.secrets[i], engine,
                           slots=table.decks[i]))
    return table, Mesh(protos, choose, rng=rng, drop=drop)


def rules_chooser(kind: str = "random", seed: int = 0) -> Chooser:
    """Bots from ``kotp2p.bots`` deciding for every seat, actions in wire form."""
    from kotp2p import rules
    from kotp2p.bots import make_bot

    bots: dict[int, object] = {}

    def choose(seat: int, state: State) -> Value:
        bot = bots.setdefault(seat, make_bot(kind, seed * 10 + seat))
        return rules.action_to_wire(bot.choose(state))  # type: ignore[attr-defined]

    return choose


class Recorder:
    """A view for ``run_session`` that keeps every update shown, takes every line and lets the
    end of input pass."""

    def __init__(self) -> None:
        self.seen: list[object] = []

    def show(self, updates: list[object]) -> None:
        self.seen.extend(updates)

    def on_line(self, line: str, now: float) -> bool:
        return True

    def on_end_of_input(self, now: float) -> bool:
        return True
