"""What a replica records.

It records global entries, the points the game waits at, resolved random events, private events
and violations."""

from __future__ import annotations

from dataclasses import dataclass, field

from kotp2p.net.trust import Chance, GameEngine, Genesis, Pending, State
from kotp2p.net.wire import Envelope, Value, safe_text


@dataclass(frozen=True)
class Violation:
    """The first rule a seat broke, with the signed envelopes that prove it."""

    rule: str
    seat: int
    step: int
    detail: str
    evidence: tuple[Envelope, ...]

    def describe(self) -> str:
        """One line for people."""
        return f"seat {self.seat} at step {self.step}: {self.rule}: {self.detail}"


def violation(rule: str, env: Envelope, detail: str, *more: Envelope) -> Violation:
    """The violation of ``rule`` by ``env``'s author at its step, proven by ``more`` and ``env``."""
    return Violation(rule, env.author, env.step, detail, (*more, env))


class Point:
    """A place where the game waits: for event ``k``'s values, or for the decision ``pending``.

    The state's digest is computed when first asked for. Many points are never signed."""

    __slots__ = ("_digest", "_engine", "alive", "index", "k", "pending", "state", "step")

    def __init__(self, step: int, index: int, state: State, pending: Pending,
                 engine: GameEngine, digest: bytes | None = None) -> None:
        self.step = step
        self.index = index
        self.state = state
        self.pending = pending
        self.k: int | None = pending.index if isinstance(pending, Chance) else None
        """The random event pending here, if any."""
        self.alive: tuple[bool, ...] = engine.alive(state)
        self._engine = engine
        self._digest = digest

    @property
    def digest(self) -> bytes:
        """The engine's digest of the state here."""
        if self._digest is None:
            self._digest = self._engine.digest(self.state)
        return self._digest


@dataclass
class Entry:
    """One global entry: the genesis, a MOVE or an ejection."""

    step: int
    id: bytes
    kind: str  # "genesis", "move" or "eject"
    seat: int | None  # the mover, or the ejected seat
    action: Value = None
    envelope: Envelope | None = None
    before: State = None
    points: list[Point] = field(default_factory=list)


def describe_entry(engine: GameEngine, genesis: Genesis, entry: Entry) -> str:
    """One line for a MOVE or an ejection, as a view shows it. It is terminal-safe.

    A move reads as the engine describes it. An ejection names the monster, with its player in
    brackets: ``Giga Zaur (Alice) is ejected: the other players voted it out``."""
    if entry.kind != "eject":
        return engine.describe_move(entry.before, entry.action)
    seat = entry.seat
    if seat is None or not 0 <= seat < genesis.n:
        return "somebody is ejected: the other players voted it out"
    s = genesis.seats[seat]
    return (f"{safe_text(s.monster, 40)} ({safe_text(s.name, 40)}) is ejected: the other players "
            "voted it out")


@dataclass(frozen=True)
class Resolved:
    """Random event ``k`` was resolved to ``values`` at ``step``."""

    step: int
    k: int
    values: tuple[int, ...]


@dataclass
class Private:
    """A private random event k. Only ``owner`` learns it, until it is opened.

    It is the ``n``-th peek of ``owner``."""

    k: int
    owner: int
    n: int
    seed: bytes
    before: State
    opened: bool = False
