"""Sessions over a test table, and a sans-IO switchboard between them (no event loop)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from kotp2p.net.files import parse_log
from kotp2p.net.files.sinks import MemorySink
from kotp2p.net.peer import PeerProtocol
from kotp2p.net.session import LocalSeat, Session, Timeouts, Update
from kotp2p.net.trust import RulesEngine
from kotp2p.net.verify.verify import Verdict, verify_logs
from tests.net.harness import Table, make_table, rules_chooser

ENGINE = RulesEngine()


def table(n: int, seed: int = 0) -> Table:
    """A signed genesis for ``n`` seats."""
    return make_table(ENGINE, n, seed)


def session(t: Table, seats: Iterable[int], *, humans: Iterable[int] = (), me: int | None = None,
            timeouts: Timeouts = Timeouts(), bot_delay: float = 0.0, seed: int = 0,  # noqa: B008
            log: MemorySink | None = None, journal: MemorySink | None = None,
            think_aside: bool = False) -> Session:
    """A session playing ``seats`` (random bots, except ``humans``), logging in memory."""
    choose = rules_chooser("random", seed)
    humans = set(humans)
    local = {}
    for s in seats:
        proto = PeerProtocol(t.genesis, s, t.identities[s], t.secrets[s], ENGINE)
        decide = None if s in humans else (lambda st, s=s: choose(s, st))
        local[s] = LocalSeat(proto, decide)
    if log is None:
        log = MemorySink()
        log.append([t.genesis.frame()])
    return Session(t.genesis, ENGINE, local, me=min(local) if me is None else me, log=log,
                   journal=journal if journal is not None else MemorySink(),
                   timeouts=timeouts, bot_delay=bot_delay, think_aside=think_aside)


class Switchboard:
    """Carries each session's outgoing frames to the session playing the target seat, until
    nothing moves; a seat in ``down`` neither sends nor receives."""

    def __init__(self, sessions: list[Session],
                 hold: Callable[[Session, bytes], bool] | None = None) -> None:
        self.sessions = sessions
        self.owner = {seat: s for s in sessions for seat in s.seats}
        self.down: set[int] = set()
        self.seen: list[list[Update]] = [[] for _ in sessions]
        self.hold = hold
        """Frames for which ``hold(target session, frame)`` is true wait in :attr:`held`."""
        self.held: list[tuple[Session, int, bytes]] = []
        """``(target, sender, frame)`` of each frame held back."""

    def run(self, now: float) -> None:
        moved = True
        while moved:
            moved = False
            for s in self.sessions:
                if set(s.seats) & self.down:
                    s.outgoing()
                    continue
                for to, frame in s.outgoing():
                    target = self.owner[to]
                    if to in self.down:
                        continue
                    sender = next(iter(s.seats))
                    if self.hold is not None and self.hold(target, frame):
                        self.held.append((target, sender, frame))
                        continue
                    moved = True
                    target.receive(sender, frame[4:], now)
        for i, s in enumerate(self.sessions):
            self.seen[i] += s.updates()

    def tick(self, now: float) -> None:
        for s in self.sessions:
            if not set(s.seats) & self.down:
                s.tick(now)
        self.run(now)


def verdict(log: MemorySink) -> Verdict:
    """The verdict of ``kotp2p verify`` on one in-memory log."""
    return verify_logs([parse_log(bytes(log.data))], ENGINE)
