"""Who may open a connection to a listener, sans-IO: caps, deadlines, bans and one log line.

Theory of operation
-------------------
A listener on a LAN is open to strangers. Opening a TCP connection costs a stranger almost
nothing, so the listener must be cheap to flood and must keep room for the players it knows.
The transport asks an :class:`Admission` at each step of a connection and does what it says.
Time comes in as ``now``, and randomness as ``rng``. So tests decide both.

A connection goes through these stages::

    arrive ──> pending ──HELLO names a known key──> claim ──proof──> known
                  │                                                   ▲
                  └──proof──> unseated (lobby) ──join──> seated       │
                                                         (mesh: every roster key is known)

*Pending* connections have not proved anything. They are the cheap ones, so they are capped
three ways, as OpenSSH's ``MaxStartups`` does:

- at most ``per_address`` pending connections from one address (one IPv6 /64 counts as one);
- from ``start`` pending connections on, a new one is dropped with probability ``rate``, rising
  linearly to 1 at ``full``. An address with no pending handshake is spared until ``full``: the
  flood comes from the addresses that hold many, and a newcomer's address holds none;
- each must send its HELLO within ``hello_within`` seconds, and finish within the transport's
  handshake timeout.

A HELLO that names a known key moves its connection out of the pending pool into a *claim* of
that key. Known keys are the seated keys in the lobby, or the genesis keys in a game. Strangers
cannot fill that room. But anyone may *name* a known key without holding it. So each key has at
most ``per_key`` claims, and one per address: a second claim from one address replaces the first.
A claim beyond the cap replaces the claim of the address that made the most claims, the oldest of
those first. A stranger's claim never completes, so it must claim again and again to hold the
room, while the real holder claims once and completes within a round trip. So the stranger's
claims are the ones replaced.

In the lobby, a connection that passed the handshake with an unknown key holds no seat yet. Such
*unseated* connections are capped in all and per address: a newcomer
replaces the oldest of its address, or of the address that waits most. They must join within
``join_within`` seconds, which the transport enforces.

A wrong join code counts against its address. After ``free_wrong_codes`` of them, the address is
refused before any handshake for a time that doubles with each further wrong code. The host is
told of the first wrong code from an address, so it sees a friend mistype, and then once per step
of that back-off, not once per guess. The host may also turn a key away for
the life of the listener, and its address for ``kick_ban`` seconds.

Everything turned away is counted. :meth:`Admission.report` gives one summary line per
``report_every`` seconds at most, never a line per connection.
"""

from __future__ import annotations

import ipaddress
import itertools
import math
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from kotp2p.net.lobby.handshake import HELLO, KEY_SIZE, MAX_HANDSHAKE_FRAME
from kotp2p.net.wire import CodecError, Why, codec, fingerprint

PENDING, CLAIM, KNOWN, UNSEATED, SEATED, CLOSED = (
    "pending", "claim", "known", "unseated", "seated", "closed")


@dataclass(frozen=True)
class AdmissionConfig:
    """The limits of one listener. Times are in seconds."""

    start: int = 16
    """Pending handshakes from which a new connection may be dropped at random."""
    rate: float = 0.3
    """The chance to drop a new connection when ``start`` handshakes are pending."""
    full: int = 64
    """Pending handshakes from which every new connection is dropped."""
    per_address: int = 4
    """Pending handshakes from one address."""
    per_key: int = 3
    """Handshakes in progress that name one known key."""
    hello_within: float = 3.0
    """A new connection's first frame, its HELLO, comes within this time."""
    unseated: int = 16
    """Lobby connections past the handshake that hold no seat."""
    unseated_per_address: int = 3
    """Unseated lobby connections from one address."""
    join_within: float = 5.0
    """An unseated lobby connection takes a seat within this time, or is dropped."""
    free_wrong_codes: int = 3
    """Wrong join codes from one address before it must wait."""
    first_wait: float = 10.0
    """The first wait after too many wrong codes. It doubles with each further one."""
    max_wait: float = 600.0
    """The longest wait after wrong codes."""
    kick_ban: float = 600.0
    """How long the address of a connection the host turned away is refused."""
    report_every: float = 10.0
    """The summary of what was turned away comes at most this often."""
    told_each: int = 3
    """Failed handshakes told by themselves per ``report_every`` at most; see
    :meth:`Admission.failed`."""

    def __post_init__(self) -> None:
        if not 0 < self.start <= self.full or not 0 <= self.rate <= 1:
            raise ValueError("expected 0 < start <= full and a rate from 0 to 1")


@dataclass
class Ticket:
    """One connection's place in the admission. The transport keeps it and hands it back."""

    id: int
    address: str
    net: str
    since: float
    stage: str = PENDING
    key: bytes = b""
    claimed_at: float = 0.0


@dataclass(frozen=True)
class Turned:
    """A connection is refused.

    ``text`` is sent to the dialer as a refusal before closing. None means close at once and
    say nothing, which costs least in a flood."""

    text: str | None = None
    why: Why = Why.OTHER


@dataclass(frozen=True)
class Told:
    """What the host is told of one failed handshake.

    ``each`` says to tell it by itself, with its reason. ``line`` says that its address must
    now wait after wrong join codes."""

    each: bool = False
    line: str | None = None


@dataclass
class Tally:
    """Counts connections turned away, and says so in one line per interval at most.

    The first line after a quiet interval comes at once. The later ones come once per
    ``every`` seconds, with what was counted since."""

    every: float = 10.0
    reasons: Counter[str] = field(default_factory=Counter)
    addresses: set[str] = field(default_factory=set)
    total: int = 0
    _next: float = -math.inf
    _since: float | None = None

    def add(self, address: str, reason: str, now: float) -> None:
        """Count one connection from ``address`` turned away for ``reason``."""
        self.total += 1
        self.reasons[reason] += 1
        if len(self.addresses) < 4096:  # So a flood from many addresses costs bounded memory.
            self.addresses.add(address)
        if self._since is None:
            self._since = now

    def report(self, now: float) -> str | None:
        """The summary line, if one is due; it starts counting again."""
        if self.total == 0 or now < self._next:
            return None
        since = self._since if self._since is not None else now
        span = max(1, math.ceil(now - min(since, now)))
        n, m = self.total, len(self.addresses)
        why = ", ".join(f"{count} {reason}" for reason, count in self.reasons.most_common())
        line = (f"turned away {n} connection{'s' * (n != 1)} from {m} address{'es' * (m != 1)} "
                f"in the last {span} s ({why})")
        self.reasons.clear()
        self.addresses.clear()
        self.total = 0
        self._since = None
        self._next = now + self.every
        return line


def net_of(address: str) -> str:
    """The unit that per-address caps count: the address, or its /64 for IPv6.

    One machine can take many IPv6 addresses of its /64, but rarely more than one IPv4 address.

    >>> net_of("192.168.1.7"), net_of("fe80::1:2:3:4"), net_of("::ffff:10.0.0.1")
    ('192.168.1.7', 'fe80::/64', '10.0.0.1')
    """
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def claimed_key(payload: bytes) -> bytes | None:
    """The key a dialer's HELLO names as its own, or None if the payload is no HELLO.

    Nothing is proved yet: this only tells which room the connection waits in."""
    try:
        value = codec.unpack(payload, max_size=MAX_HANDSHAKE_FRAME)
    except CodecError:
        return None
    if not isinstance(value, list) or len(value) < 5 or value[0] != HELLO:
        return None
    key = value[4]
    return key if isinstance(key, bytes) and len(key) == KEY_SIZE else None


class Admission:
    """The admission of one listener. See the module comment.

    ``known(key)`` says whether a key has reserved room. ``seats`` is True for the lobby, whose
    unknown keys must take a seat; in a game's mesh every key that passes the handshake is known.
    ``rng()`` gives a float in [0, 1) for random early drop. The transport passes
    ``random.random``. The default drops nothing at random, only at the caps. ``count_failures``
    False leaves
    failed handshakes out of the summary, for a listener that tells them otherwise."""

    def __init__(self, config: AdmissionConfig | None = None, *,
                 known: Callable[[bytes], bool] = lambda key: False, seats: bool = False,
                 rng: Callable[[], float] = lambda: 1.0, count_failures: bool = True) -> None:
        self.config = config or AdmissionConfig()
        self.known = known
        self.seats = seats
        self.count_failures = count_failures
        self.rng = rng
        self.tally = Tally(self.config.report_every)
        self.tickets: dict[int, Ticket] = {}
        self._ids = itertools.count(1)
        self._pending_from: Counter[str] = Counter()
        self._unseated_from: Counter[str] = Counter()
        self._wrong: Counter[str] = Counter()
        self._told_kinds: set[tuple[str, Why]] = set()
        self._told_at: deque[float] = deque()
        self._claims_made: Counter[str] = Counter()
        """How many claims of known keys each address made. The busiest claimers go first."""
        self._banned: dict[str, float] = {}
        self.banned_keys: set[bytes] = set()

    # -- counts ---------------------------------------------------------------------------------

    def count(self, stage: str) -> int:
        """How many connections are at ``stage`` now."""
        return sum(1 for t in self.tickets.values() if t.stage == stage)

    @property
    def pending(self) -> int:
        """Connections that have proved nothing yet."""
        return sum(self._pending_from.values())

    def waiting(self) -> list[Ticket]:
        """The lobby connections past the handshake that hold no seat, oldest first."""
        return [t for t in self.tickets.values() if t.stage == UNSEATED]

    # -- the stages -----------------------------------------------------------------------------

    def arrive(self, address: str, now: float) -> Ticket | Turned:
        """A TCP connection from ``address`` was accepted: admit it, or turn it away."""
        net = net_of(address)
        until = self._banned.get(net)
        if until is not None:
            if now < until:
                self.tally.add(net, "refused for a while", now)
                wait = math.ceil(until - now)
                if self._wrong[net] >= self.config.free_wrong_codes:
                    return Turned(f"too many wrong join codes from {address}: wait {wait} s",
                                  Why.WRONG_JOIN_CODE)
                return Turned(None)
            del self._banned[net]
        cfg = self.config
        if self._pending_from[net] >= cfg.per_address:
            self.tally.add(net, "over the limit per address", now)
            return Turned(None)
        pending = self.pending
        if pending >= cfg.full or (pending >= cfg.start and self._pending_from[net] > 0):
            drop = 1.0 if pending >= cfg.full else \
                cfg.rate + (1 - cfg.rate) * (pending - cfg.start) / max(1, cfg.full - cfg.start)
            if self.rng() < drop:
                self.tally.add(net, "too many handshakes at once", now)
                return Turned(None)
        ticket = Ticket(next(self._ids), address, net, now)
        self.tickets[ticket.id] = ticket
        self._pending_from[net] += 1
        return ticket

    def hello(self, ticket: Ticket, key: bytes, now: float) -> list[Ticket]:
        """The connection's HELLO names ``key``. The answer is the connections to drop.

        If ``key`` is known, the connection moves to that key's claims. Then the older claims it
        replaces are dropped. If ``key`` was turned away by the host, the connection itself is
        in the answer."""
        if ticket.stage != PENDING:
            return []
        ticket.key = key
        if key in self.banned_keys:
            self.tally.add(ticket.net, "turned away by the host", now)
            return [ticket]
        if not self.known(key):
            return []
        self._leave(ticket)
        ticket.stage, ticket.claimed_at = CLAIM, now
        claims = sorted((t for t in self.tickets.values() if t.stage == CLAIM and t.key == key
                         and t is not ticket), key=lambda t: t.claimed_at)
        if len(self._claims_made) >= 4096:
            self._claims_made.clear()  # So claims from many addresses cost bounded memory.
        self._claims_made[ticket.net] += 1
        out = [t for t in claims if t.net == ticket.net]
        rest = [t for t in claims if t.net != ticket.net]
        while len(rest) + 1 > self.config.per_key:
            busiest = max(rest, key=lambda t: self._claims_made[t.net])  # the oldest of ties
            rest.remove(busiest)
            out.append(busiest)
        for t in out:
            self.tally.add(t.net, "claims of a known key", now)
            t.stage = CLOSED
        return out

    def authenticated(self, ticket: Ticket, key: bytes, now: float) -> list[Ticket]:
        """The connection proved it holds ``key``. The answer is the connections to drop.

        A known key always has room. In the lobby, another key waits unseated. If the waiting
        room is full, the oldest waiting connection of this address makes room. Else the oldest
        of the address that waits most does. So a flood of squatters from one address replaces
        itself, and a newcomer always gets a few seconds to join. The answer holds the
        connection itself when the host turned its key away."""
        self._leave(ticket)
        ticket.key = key
        if key in self.banned_keys:
            self.tally.add(ticket.net, "turned away by the host", now)
            ticket.stage = CLOSED
            return [ticket]
        if not self.seats or self.known(key):
            ticket.stage = KNOWN
            return []
        cfg = self.config
        waiting = sorted(self.waiting(), key=lambda t: t.since)
        out: list[Ticket] = []
        if self._unseated_from[ticket.net] >= cfg.unseated_per_address:
            out = [next(t for t in waiting if t.net == ticket.net)]
        elif len(waiting) >= cfg.unseated:
            most = max(self._unseated_from, key=lambda net: self._unseated_from[net])
            out = [next(t for t in waiting if t.net == most)]
        for t in out:
            self.tally.add(t.net, "replaced while waiting for a seat", now)
            self._leave(t)
            t.stage = CLOSED
        ticket.stage, ticket.since = UNSEATED, now
        self._unseated_from[ticket.net] += 1
        return out

    def seated(self, ticket: Ticket) -> None:
        """The lobby connection took a seat."""
        self._leave(ticket)
        ticket.stage = SEATED

    def not_joined(self, ticket: Ticket, now: float) -> None:
        """The lobby connection held no seat after ``join_within`` seconds and is dropped."""
        self.tally.add(ticket.net, f"not joined within {self.config.join_within:g} s", now)

    def failed(self, ticket: Ticket, why: Why, silent: bool, now: float) -> Told:
        """The handshake failed with code ``why``; ``silent`` if no HELLO came in time.

        The answer says whether to tell the host of this failure by itself, and gives a line
        when the address must now wait after wrong join codes. The first failure of each kind
        from an address is told by itself, a few per interval at most, so the host sees an
        honest mistake such as a mistyped code. The others are counted in the summary, except
        wrong join codes: the lines of their back-off tell those."""
        if silent:
            self.tally.add(ticket.net, f"silent for {self.config.hello_within:g} s", now)
            return Told()
        each = self._tell_each(ticket.net, why, now)
        if why is not Why.WRONG_JOIN_CODE:
            if not each and self.count_failures:
                self.tally.add(ticket.net, f"handshake failed ({why.value})", now)
            return Told(each)
        cfg = self.config
        if len(self._wrong) >= 4096:
            self._wrong.clear()  # So guesses from many addresses cost bounded memory.
        self._wrong[ticket.net] += 1
        n = self._wrong[ticket.net]
        if n < cfg.free_wrong_codes:
            return Told(each)
        wait = min(cfg.max_wait, cfg.first_wait * 2 ** (n - cfg.free_wrong_codes))
        self._ban_net(ticket.net, now + wait, now)
        return Told(each, f"{n} wrong join codes from {ticket.address}: it must wait {wait:g} s "
                          "before its next try")

    def _tell_each(self, net: str, why: Why, now: float) -> bool:
        """Whether a failure of kind ``why`` from ``net`` is told by itself. See :meth:`failed`."""
        if (net, why) in self._told_kinds:
            return False
        while self._told_at and self._told_at[0] <= now - self.config.report_every:
            self._told_at.popleft()
        if len(self._told_at) >= self.config.told_each:
            return False
        if len(self._told_kinds) >= 4096:
            self._told_kinds.clear()  # So failures from many addresses cost bounded memory.
        self._told_kinds.add((net, why))
        self._told_at.append(now)
        return True

    def closed(self, ticket: Ticket) -> None:
        """The connection is gone, whatever its stage."""
        self._leave(ticket)
        ticket.stage = CLOSED
        self.tickets.pop(ticket.id, None)

    # -- the host's decisions -------------------------------------------------------------------

    def ban(self, key: bytes | None, address: str | None, now: float) -> None:
        """The host turned away ``key`` for the life of this listener, and ``address`` for
        ``kick_ban`` seconds."""
        if key:
            self.banned_keys.add(key)
        if address:
            self._ban_net(net_of(address), now + self.config.kick_ban, now)

    def _ban_net(self, net: str, until: float, now: float) -> None:
        """Refuse ``net`` until ``until``; expired bans go when there are many."""
        if len(self._banned) >= 4096:
            self._banned = {n: u for n, u in self._banned.items() if u > now}
        self._banned[net] = max(self._banned.get(net, now), until)

    def report(self, now: float) -> str | None:
        """One summary line of what was turned away, when one is due."""
        return self.tally.report(now)

    def describe(self, ticket: Ticket) -> str:
        """A waiting connection in a few words: its address and its key's fingerprint."""
        return f"{ticket.address} [{fingerprint(ticket.key)}]" if ticket.key else ticket.address

    def _leave(self, ticket: Ticket) -> None:
        """Take ``ticket`` out of the counts of its stage."""
        counter = {PENDING: self._pending_from, UNSEATED: self._unseated_from}.get(ticket.stage)
        if counter is not None:
            counter[ticket.net] -= 1
            if counter[ticket.net] <= 0:
                del counter[ticket.net]
