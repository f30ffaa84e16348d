"""The full mesh of one game: a link between each local seat and each remote seat.

Theory of operation
-------------------
After the genesis every seat is connected to every other once. Seats played by this process talk
to each other in memory; that is the session's business. Between a local seat ``a`` and a remote
seat ``b`` there is one link. Each side keeps a task per pair. It waits while the pair's link is
open. Once the link is down it connects, runs the handshake, with context ``game_id``, the genesis
keys as roster, and the wanted key, and runs the link. When the link drops, it backs off and
dials again. :meth:`Mesh.accept` runs for each incoming connection. It finds which of its seats
the dialer asked for, and registers the link for that pair.

Both sides dial, so that a seat whose listener is blocked, for example by a flood of
connections from a stranger, still reaches its peers by dialing out. The lower seat of a pair is
its *first dialer*: it dials as soon as the link is down. The higher seat dials once the link has
been down for ``MeshConfig.grace`` seconds, or at once after a resume. A resumed process dials
every peer at once, because those peers back off while it was away.

Two links for one pair can open at the same time, one dialed by each side. Both ends keep the
one the first dialer dialed, so they never flap. It replaces a link the other side dialed at once.
A link the other side dialed is closed right after the handshake while the first dialer's is
open, and its dialer backs off. It is closed without a refusal, so that nobody takes it for a
second copy of a seat. A link the first dialer keeps open after the peer lost it closes once it is
silent for ``dead_after`` seconds.

A new link dialed from the same side as the pair's open link replaces it, because the peer noticed
the drop first. Unless the older link still answers. Then a second process plays that seat: a
copy of its data directory, resumed while the seat runs. It must not silently take the seat over.
So before such a link replaces one that is open, the old one is pinged. If it answers within
``answer_within`` seconds, the newcomer is refused with
:attr:`~kotp2p.net.wire.refusal.Why.SEAT_RUNNING_TWICE`, and the working link stays. A dead old
link, after a crash, does not answer and is replaced. A process refused so, with no open link of
its own for that pair, calls ``on_twice``. The app decides what to do: a resumed process that has
not signed anything yet stops and says why. A copy of a first dialer's seat can replace a link the
other side dialed without that check. Then the real seat's next link is the one refused, so the
game is still told that it runs twice.

This is why a flood on one listener ejects nobody. A vote to eject counts only when every other
live seat signed one, and an honest seat signs one only after ``hard`` seconds in which the game
waited on that seat and it heard nothing from it. A seat that can dial out reaches every peer
whose listener works, and the envelopes it sends reach the others through them too.

The back-off starts again from its first delay after a link that closed for no fault of the peer.
A peer cut off for garbage, a flood or silence is dialed less and less often, up to
``max_retry``. Its incoming connections are turned away for as long, right after the handshake.
So a hostile peer that passes the handshake cannot make its victims run and log a new link many
times a second. A dialer can be turned away like that: its link closes before anything came on
it. It keeps growing its back-off too. So an honest peer does not see its link come and go twice
a second while it waits.

The mesh hands every frame to ``on_frame(local, remote, payload)``. It calls ``on_link(local,
remote, up)`` when a pair's link comes up or goes down. It knows nothing of the game.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import random
import weakref
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

import trio

from kotp2p.net.lobby import (
    MAX_HANDSHAKE_FRAME,
    AcceptorHandshake,
    Admission,
    ChallengeCache,
    DialerHandshake,
    HandshakeFailed,
    Tally,
    Ticket,
    net_of,
    refusal,
)
from kotp2p.net.transport.connect import (
    HANDSHAKE_TIMEOUT,
    Door,
    dial_handshake,
    dial_tcp,
    peer_address,
)
from kotp2p.net.transport.framed import FrameStream, PeerClosed
from kotp2p.net.transport.link import Link, LinkConfig
from kotp2p.net.transport.pacing import Backoff
from kotp2p.net.trust import Genesis
from kotp2p.net.wire import Identity, Refusal, Why, fingerprint

log = logging.getLogger(__name__)

Address = tuple[str, int]
Connector = Callable[[Address], Awaitable[trio.abc.Stream]]
FrameHandler = Callable[[int, int, bytes], None]
LinkHandler = Callable[[int, int, bool], None]


async def tcp_connector(address: Address) -> trio.abc.Stream:
    """Connect over TCP. This is the default :data:`Connector`."""
    return await dial_tcp(*address)


def dialer_of(a: int, b: int) -> int:
    """Which of two seats dials the other first: the lower one.

    The other seat dials too once their link has been down for a while. A link the first dialer
    dialed wins over one the other seat dialed."""
    return min(a, b)


@dataclass(frozen=True)
class MeshConfig:
    """Timings of the mesh, in seconds."""

    first_retry: float = 0.5
    max_retry: float = 10.0
    answer_within: float = 3.0
    """Seconds an open link has to answer a ping before a new connection for its pair replaces
    it."""
    grace: float = 2.0
    """Seconds a pair's link is down before the seat that is not its first dialer dials too."""
    handshake_timeout: float = HANDSHAKE_TIMEOUT
    link: LinkConfig = field(default_factory=LinkConfig)


def _no_link_news(local: int, remote: int, up: bool) -> None:
    return None


def _told_twice(local: int, remote: int, refusal: Refusal) -> None:
    log.warning("seat %d could not link to seat %d: %s", local, remote, refusal.text,
                extra={"refusal": refusal})


class Mesh:
    """The links of this process's seats in one game. See the module comment."""

    def __init__(
        self,
        genesis: Genesis,
        local: Mapping[int, Identity],
        addresses: Mapping[int, Address],
        on_frame: FrameHandler,
        *,
        engine_id: str,
        on_link: LinkHandler = _no_link_news,
        connect: Connector = tcp_connector,
        challenge: Callable[[], bytes] = lambda: os.urandom(32),
        config: MeshConfig | None = None,
        resumed: bool = False,
    ) -> None:
        for seat, ident in local.items():
            if not 0 <= seat < genesis.n or genesis.keys[seat] != ident.public_key:
                raise ValueError(f"seat {seat} of this genesis is not {ident!r}")
        self.genesis = genesis
        self.local = dict(local)
        self.addresses = dict(addresses)
        self.on_frame = on_frame
        self.on_link = self._link_news
        self._tell_link = on_link
        self.resumed = resumed
        """This process restarts a game under way: it dials every peer at once."""
        self.engine_id = engine_id
        self.connect = connect
        self.challenge = challenge
        self.config = config or MeshConfig()
        self.links: dict[tuple[int, int], Link] = {}
        self._seen = ChallengeCache()
        self._finishing = False
        self._finish_scope: trio.CancelScope | None = None
        self._hurry = math.inf
        """The most :meth:`finish` may wait, once the user left before it began."""
        self._cut_off: dict[int, tuple[float, Backoff]] = {}
        """Remote seat -> until when its incoming connections are turned away, and the back-off.

        A seat is turned away after a link closed for its fault. The back-off gives the next such
        wait."""
        self._refused: set[str] = set()
        """The texts of the refusals of incoming connections already told.

        A refused peer dials again and again, but the screen is told once."""
        self.on_twice: Callable[[int, int, Refusal], None] = _told_twice
        """Called as ``(local, remote, refusal)`` when ``remote`` refused this process's link
        because another process plays ``local`` and answers there."""
        self._dialed_by: dict[tuple[int, int], int] = {}
        """Pair -> the seat that dialed its registered link."""
        self._down_since: dict[tuple[int, int], float] = {}
        """Pair -> when its link went down. A pair never up counts from when :meth:`run` began."""
        self._news: dict[tuple[int, int], trio.Event] = {}
        """Pair -> set when its link comes up or goes down. A new event replaces a set one."""

    # -- what the session uses ------------------------------------------------------------------

    def pairs(self) -> list[tuple[int, int]]:
        """Every ``(local seat, remote seat)`` pair that needs a link."""
        return [(a, b) for a in sorted(self.local) for b in range(self.genesis.n)
                if b not in self.local]

    def is_up(self, local: int, remote: int) -> bool:
        """The link between these seats is open."""
        link = self.links.get((local, remote))
        return link is not None and not link.closed

    def send(self, local: int, remote: int, frame: bytes) -> bool:
        """Queue ``frame`` from ``local`` to ``remote``; False when that link is down."""
        link = self.links.get((local, remote))
        return link is not None and link.send(frame)

    def strike(self, local: int, remote: int, reason: str) -> None:
        """A frame from ``remote`` was refused; too many close the link."""
        link = self.links.get((local, remote))
        if link is not None:
            link.strike(reason)

    async def finish(self, timeout: float) -> None:
        """The game is over here: stop dialing and accepting, and send what is queued.

        Wait up to ``timeout`` seconds for every peer to have read it all. A peer shows that by
        closing its end."""
        self._finishing = True
        for link in list(self.links.values()):
            link.close_soon("the game is over", linger=True)
        with trio.move_on_after(min(timeout, self._hurry)) as self._finish_scope:
            while any(not link.closed for link in self.links.values()):
                await trio.sleep(0.05)

    def hurry(self, seconds: float) -> None:
        """The user left the end of the game: :meth:`finish` waits at most ``seconds`` more."""
        scope = self._finish_scope
        if scope is None:
            self._hurry = min(self._hurry, seconds)
        else:
            scope.deadline = min(scope.deadline, trio.current_time() + seconds)

    # -- tasks ----------------------------------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Dial each pair whose link is down, forever. Cancel to stop."""
        now = trio.current_time()
        async with trio.open_nursery() as nursery:
            for pair in self.pairs():
                self._down_since.setdefault(pair, now)
                nursery.start_soon(self._dial_loop, *pair)
            task_status.started()

    async def accept(self, stream: trio.abc.Stream) -> None:
        """Handle one incoming connection until its link closes. Run it in its own task.

        The connection goes through this mesh's :class:`~kotp2p.net.transport.connect.Door`
        first. Every genesis key has room there that strangers cannot fill. A refused connection
        is logged with its :class:`~kotp2p.net.wire.refusal.Refusal`, so a screen can say it in
        plain words. Its code is :attr:`~kotp2p.net.wire.refusal.Why.LINK_REFUSED`, and its
        cause's code says why. The peer is sent the cause's code too."""
        door = door_of(self)
        ticket = await door.enter(stream)
        if ticket is None:
            return
        try:
            await self._admitted(stream, door, ticket)
        finally:
            door.closed(ticket)
            await trio.aclose_forcefully(stream)

    async def _admitted(self, stream: trio.abc.Stream, door: Door, ticket: Ticket) -> None:
        framed = FrameStream(stream, MAX_HANDSHAKE_FRAME)
        seats = sorted(self.local)
        hs = AcceptorHandshake([self.local[s] for s in seats], engine_id=self.engine_id,
                               challenge=self.challenge(), context=self.genesis.game_id,
                               roster=self.genesis.keys, seen=self._seen)
        try:
            peer = await door.handshake(framed, hs, ticket, self.config.handshake_timeout)
        except HandshakeFailed as exc:
            self._tell_refused(stream, exc.refusal)
            await framed.aclose()
            return
        remote = self.genesis.keys.index(peer.key)
        local = self.genesis.keys.index(peer.local_key)
        if self._finishing:
            await framed.aclose()
            return
        if remote in self.local:
            text = f"a connection claims seat {remote}, which this process plays"
            self._tell_refused(stream, Refusal(Why.SEAT_PLAYED_HERE, text, details=(str(remote),)))
            await framed.aclose()
            return
        until = self._cut_off.get(remote, (-math.inf, None))[0]
        if trio.current_time() < until:
            log.info("turned seat %d away: its last link closed for its fault; it may connect "
                     "again in %.1f s", remote, until - trio.current_time())
            await framed.aclose()
            return
        if self._keeps_open_link(local, remote, dialer=remote):
            log.info("closed a second link from seat %d: the one seat %d dialed stays", remote,
                     local)
            await framed.aclose()
            return
        await self._run_link(local, remote, framed, dialer=remote)

    def _keeps_open_link(self, local: int, remote: int, *, dialer: int) -> bool:
        """The pair's open link wins over a new one ``dialer`` dialed. See the module comment.

        Both ends of a pair answer alike, so they keep the same link."""
        if not self.is_up(local, remote):
            return False
        first = dialer_of(local, remote)
        return dialer != first and self._dialed_by.get((local, remote)) == first

    def _link_news(self, local: int, remote: int, up: bool) -> None:
        """A pair's link came up or went down: wake its dialer, and tell ``on_link``."""
        pair = (local, remote)
        if not up:
            self._down_since[pair] = trio.current_time()
        news = self._news.pop(pair, None)
        if news is not None:
            news.set()
        self._tell_link(local, remote, up)

    async def _until_down(self, local: int, remote: int, grace: float) -> None:
        """Wait until the pair's link has been down for ``grace`` seconds."""
        pair = (local, remote)
        while True:
            news = self._news.setdefault(pair, trio.Event())
            if self.is_up(local, remote):
                await news.wait()
                continue
            at = self._down_since.get(pair, -math.inf) + grace
            if trio.current_time() >= at:
                return
            with trio.move_on_after(at - trio.current_time()):
                await news.wait()

    def _tell_refused(self, stream: trio.abc.Stream, cause: Refusal) -> None:
        """Log the refusal of an incoming connection.

        The first time its text is seen, it is a warning, which the screen shows. After that it
        is information."""
        where = peer_address(stream)
        text = f"refused an incoming connection{f' from {where}' if where else ''}: {cause.text}"
        refusal = Refusal(Why.LINK_REFUSED, text, details=(where,) if where else (), cause=cause)
        if len(self._refused) >= 1024:
            self._refused.clear()  # So a flood of distinct texts costs bounded memory.
        news = cause.text not in self._refused
        self._refused.add(cause.text)
        log.log(logging.WARNING if news else logging.INFO, "%s", text,
                extra={"refusal": refusal})

    async def _dial_loop(self, local: int, remote: int) -> None:
        """Dial ``remote`` whenever the pair's link is down, as the module comment says."""
        backoff = Backoff(self.config.first_retry, self.config.max_retry)
        keys = self.genesis.keys
        told: tuple[Why, str] | None = None  # The last refusal the screen was told of.
        first = dialer_of(local, remote) == local
        grace = 0.0 if first or self.resumed else self.config.grace
        while not self._finishing:
            await self._until_down(local, remote, grace)
            grace = 0.0 if first else self.config.grace
            if self._finishing:
                return
            address = self.addresses.get(remote)
            framed: FrameStream | None = None
            try:
                if address is None:
                    raise OSError(f"no address known for seat {remote}")
                framed = FrameStream(await self.connect(address), MAX_HANDSHAKE_FRAME)
                hs = DialerHandshake(self.local[local], engine_id=self.engine_id,
                                     challenge=self.challenge(), context=self.genesis.game_id,
                                     to_key=keys[remote], roster=keys)
                await dial_handshake(framed, hs, self.config.handshake_timeout)
            except (OSError, HandshakeFailed) as exc:
                reason = exc.reason if isinstance(exc, HandshakeFailed) else str(exc)
                refusal = exc.refusal if isinstance(exc, HandshakeFailed) else None
                if refusal is not None and refusal.why is not Why.OTHER and \
                        told != (refusal.why, refusal.text):
                    # A refusal with a code is news for the screen. Tell it once, because the
                    # dialer retries.
                    told = (refusal.why, refusal.text)
                    log.warning("seat %d could not link to seat %d: %s", local, remote, reason,
                                extra={"refusal": refusal})
                else:
                    log.info("seat %d could not reach seat %d: %s", local, remote, reason)
                if framed is not None:
                    await framed.aclose()
                await trio.sleep(backoff.next_delay())
                continue
            told = None
            if self._finishing:
                await framed.aclose()
                return
            if self._keeps_open_link(local, remote, dialer=local):
                await framed.aclose()  # The peer dialed too; its link stays, and this one goes.
                continue
            if not await self._run_link(local, remote, framed, dialer=local):
                backoff.reset()  # A peer cut off for garbage or a flood waits longer each time.
            await trio.sleep(backoff.next_delay())

    async def _run_link(self, local: int, remote: int, framed: FrameStream, *,
                        dialer: int) -> bool:
        """Run a link between these seats, which ``dialer`` dialed, until it closes.

        The answer is True when it closed for something the peer did. It is also True when it
        closed before the peer said anything, because the peer turned us away."""
        label = f"seat {remote} [{fingerprint(self.genesis.keys[remote])}] from seat {local}"
        pair = (local, remote)
        old = self.links.get(pair)
        if old is not None and not old.closed and self._dialed_by.get(pair) == dialer and \
                await old.answering(self.config.answer_within):
            await self._refuse_twice(local, remote, framed)
            return True  # not dialed again at once: the working link stays
        if self._keeps_open_link(local, remote, dialer=dialer):
            await framed.aclose()  # The first dialer's link came during the ping, and stays.
            return True

        def deliver(payload: bytes) -> None:
            self.on_frame(local, remote, payload)

        link = Link(framed, label, deliver, self.config.link)
        old = self.links.get((local, remote))  # read again: the ping above took time
        self.links[(local, remote)] = link
        self._dialed_by[pair] = dialer
        if old is not None:
            old.close("replaced by a newer connection", fault=False)
        else:
            self.on_link(local, remote, True)
        try:
            await link.run()
        finally:
            if self.links.get((local, remote)) is link:
                del self.links[(local, remote)]
                self.on_link(local, remote, False)
            self._judge(remote, link.fault)
        if (link.refusal is not None and link.refusal.why is Why.SEAT_RUNNING_TWICE
                and not self.is_up(local, remote)):
            self.on_twice(local, remote, link.refusal)
        return link.fault or not link.heard

    async def _refuse_twice(self, local: int, remote: int, framed: FrameStream) -> None:
        """Turn away a new connection for a pair whose open link still answers.

        Another process plays seat ``remote``, such as a resumed copy of its data directory."""
        text = (f"seat {remote} is already connected to seat {local} and answering: is the game "
                "running twice?")
        cause = Refusal(Why.SEAT_RUNNING_TWICE, text, details=(str(remote),))
        if len(self._refused) >= 1024:
            self._refused.clear()
        news = text not in self._refused
        self._refused.add(text)
        log.log(logging.WARNING if news else logging.INFO, "refused a second connection: %s",
                text, extra={"refusal": Refusal(Why.LINK_REFUSED, text, cause=cause)})
        with trio.move_on_after(1), contextlib.suppress(
                PeerClosed, trio.BrokenResourceError, trio.ClosedResourceError):
            await framed.send(refusal(text, Why.SEAT_RUNNING_TWICE))
        await framed.aclose()

    def _judge(self, remote: int, fault: bool) -> None:
        """A link with ``remote`` closed.

        If it was the peer's ``fault``, turn its connections away for a while. The wait grows
        each time in a row, up to ``max_retry``. Otherwise forget its past faults."""
        _, backoff = self._cut_off.get(remote, (-math.inf, None))
        if not fault:
            self._cut_off.pop(remote, None)
            return
        if backoff is None:
            backoff = Backoff(self.config.first_retry, self.config.max_retry)
        self._cut_off[remote] = (trio.current_time() + backoff.next_delay(), backoff)


def door_of(mesh: Mesh) -> Door:
    """The door of ``mesh``'s listener, made the first time it is asked for.

    Every genesis key of another process has reserved room in its admission."""
    door = _doors.get(mesh)
    if door is None:
        others = frozenset(k for i, k in enumerate(mesh.genesis.keys) if i not in mesh.local)
        # Refused handshakes are told by Mesh._tell_refused, once per reason.
        door = Door(Admission(known=others.__contains__, rng=random.random,
                          count_failures=False), "game listener")
        _doors[mesh] = door
    return door


_doors: weakref.WeakKeyDictionary[Mesh, Door] = weakref.WeakKeyDictionary()
"""The door of each mesh's listener."""


class MeshPort:
    """The handler of a listener opened before the genesis exists.

    The listener's port goes into the lobby. A connection waits up to ``wait`` seconds for
    :meth:`attach` to give it the mesh. Until then nobody can prove a seat, so at most
    ``per_address`` connections from one address, and ``most`` in all, may wait. More are
    closed at once and counted in one log line per interval."""

    def __init__(self, wait: float = 60.0, *, per_address: int = 4, most: int = 16) -> None:
        self.wait = wait
        self.per_address = per_address
        self.most = most
        self.mesh: Mesh | None = None
        self._ready = trio.Event()
        self._early: Counter[str] = Counter()
        self._tally = Tally()

    def attach(self, mesh: Mesh) -> None:
        """The game's mesh: hand it every connection from now on."""
        self.mesh = mesh
        self._ready.set()

    def screen(self, stream: trio.SocketStream) -> bool:
        """Judge a connection as the listener accepts it: the mesh's door does, once there is
        a mesh. Pass this port as :func:`~kotp2p.net.transport.connect.serve_tcp`'s ``screen``."""
        return self.mesh is None or door_of(self.mesh).screen(stream)

    def forget(self, stream: trio.abc.Stream) -> None:
        """A connection judged here was closed before :meth:`handler` saw it."""
        if self.mesh is not None:
            door_of(self.mesh).forget(stream)

    async def handler(self, stream: trio.abc.Stream) -> None:
        """Pass ``stream`` to the mesh once there is one.

        If none comes in time, or too many connections wait already, the stream is closed.
        """
        if self.mesh is None:
            net = net_of(peer_address(stream))
            now = trio.current_time()
            if self._early[net] >= self.per_address or sum(self._early.values()) >= self.most:
                self._tally.add(net, "came before the game started", now)
                line = self._tally.report(now)
                if line is not None:
                    log.warning("game listener: %s", line)
                await trio.aclose_forcefully(stream)
                return
            self._early[net] += 1
            try:
                with trio.move_on_after(self.wait):
                    await self._ready.wait()
            finally:
                self._early[net] -= 1
                if self._early[net] <= 0:
                    del self._early[net]
                if self.mesh is None:
                    await trio.aclose_forcefully(stream)
        if self.mesh is None:
            log.info("closed a game connection that came before any game started")
            return
        await self.mesh.accept(stream)
