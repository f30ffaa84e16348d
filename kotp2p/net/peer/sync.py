"""Catch-up between peers: ``sync`` requests and their answers.

They are link level and never logged.

Theory of operation
-------------------
``["sync", author, seq]`` asks a peer for an author's envelopes from ``seq`` on. A seat asks
every other seat, for each other author, from where it stopped reading that author; see
:meth:`SyncAnswers.requests`. It asks after a restart, when a link comes back, and at each soft
deadline; see :meth:`~kotp2p.net.peer.protocol.PeerProtocol.soft_timeout`. So every hole is
filled by whichever peer holds the envelopes.

A request is the one frame unpacked before any signature check. :meth:`PeerProtocol.receive`
tells it by its first bytes, :data:`SYNC_PREFIX`, and hands it here. Here it is unpacked within
:data:`MAX_SYNC_SIZE` bytes and its shape is checked. A bad one is a
:class:`~kotp2p.net.peer.peer_events.Rejected` event. The same bytes from two seats are two
requests. So the transport never drops one as a copy; see :func:`is_sync_request`.

An answer is the envelopes of that author held from ``seq`` on, in order. Each is sent as it was
received. A seat that asks for its *own* envelopes is catching up after a restart; see
:mod:`kotp2p.net.peer.catchup`. Its answer ends with ``["held", author, top, seat]``: the answering
seat holds none of that author's envelopes at ``top`` or above. So an answer with no envelope is
told from a lost one. The marker names the seat that answers. A process playing several seats
sends all their frames on whichever of its links is open, so the link does not tell which.

The envelopes are signed frames, and the asker checks them as any other. An answer is bounded.
It holds at most :data:`MAX_SYNC_BATCH` envelopes and :data:`MAX_SYNC_ANSWER` bytes per request,
but at least one envelope. A peer gets at most :data:`SYNC_BUDGET` bytes between two soft
deadlines. So a flood of tiny requests costs the answerer a bounded, paced amount.
"""

from __future__ import annotations

from kotp2p.net.peer.peer_events import Event, Rejected, Send
from kotp2p.net.replica import Replica
from kotp2p.net.wire import RemoteProtocolError, codec

SYNC = "sync"
SYNC_PREFIX = b"\x93\xa4sync"
"""The first bytes of every ``sync`` request: a msgpack array of three, then ``'sync'``."""
MAX_SYNC_SIZE = 32
"""Bytes of a sync request: ``['sync', seat, seq]`` needs at most 15."""
MAX_SYNC_BATCH = 256
"""Envelopes in one answer to a sync request."""
MAX_SYNC_ANSWER = 64 * 1024
"""Bytes in one answer to a sync request. At least one envelope is always sent."""
HELD = "held"
HELD_PREFIX = b"\x94\xa4held"
"""The first bytes of every ``held`` marker, the end of an answer about the asker's own stream."""
MAX_HELD_SIZE = 32
"""Bytes of a ``held`` marker: ``['held', author, top, seat]`` needs at most 17."""
SYNC_BUDGET = 256 * 1024
"""Bytes this seat sends one peer in answers to its sync requests between two soft deadlines.

:meth:`PeerProtocol.soft_timeout` refills it. So a flood of tiny requests costs the answerer a
bounded, paced amount, whatever its size."""


def is_sync_request(payload: bytes) -> bool:
    """``payload`` is a ``sync`` request, not an envelope.

    A request is link level: the same bytes from two seats are two requests."""
    return payload.startswith(SYNC_PREFIX)


def held_marker(author: int, top: int, seat: int) -> bytes:
    """The framed ``held`` marker: ``seat`` holds none of ``author``'s envelopes from ``top`` on."""
    return codec.frame(codec.pack([HELD, author, top, seat]))


def read_held(payload: bytes) -> tuple[int, int, int] | None:
    """The ``(author, top, seat)`` of a ``held`` marker payload, or None if it is malformed."""
    try:
        value = codec.unpack(payload, max_size=MAX_HELD_SIZE)
    except RemoteProtocolError:
        return None
    if (not isinstance(value, list) or len(value) != 4 or value[0] != HELD
            or any(type(v) is not int or v < 0 for v in value[1:])):
        return None
    return value[1], value[2], value[3]


class SyncAnswers:
    """This seat's ``sync`` requests and its bounded answers to others' requests."""

    def __init__(self, seat: int, n: int, others: tuple[int, ...]) -> None:
        self.seat = seat
        self.n = n
        self.others = others
        self._sent: dict[int, int] = {}
        """Bytes sent to each peer in sync answers since the last soft deadline."""

    def refill(self) -> None:
        """A soft deadline passed: every peer's budget is whole again."""
        self._sent.clear()

    def requests(self, replica: Replica) -> list[Event]:
        """Ask every other seat to resend each author's envelopes this seat has not read yet."""
        return [Send(codec.frame(codec.pack([SYNC, author, replica.cursor[author]])),
                     self.others)
                for author in range(self.n) if author != self.seat]

    def answer(self, replica: Replica, payload: bytes, sender: int | None) -> list[Event]:
        """Answer the ``sync`` request ``payload`` from ``sender``, within the bounds.

        ``payload`` starts with :data:`SYNC_PREFIX`."""
        try:
            value = codec.unpack(payload, max_size=MAX_SYNC_SIZE)
        except RemoteProtocolError as exc:
            return [Rejected(sender, f"sync: {exc.reason}")]
        if not isinstance(value, list) or len(value) != 3:
            return [Rejected(sender, "sync: expected ['sync', author, seq] from a known seat")]
        _, author, seq = value
        if sender is None or type(author) is not int or type(seq) is not int:
            return [Rejected(sender, "sync: expected ['sync', author, seq] from a known seat")]
        if not 0 <= author < self.n:
            return [Rejected(sender, f"sync: no seat {author}")]
        stream = replica.streams[author]
        spent = self._sent.get(sender, 0)
        out: list[Event] = []
        size = 0
        for q in sorted(q for q in stream if q >= seq)[:MAX_SYNC_BATCH]:
            frame = stream[q].frame
            if out and size + len(frame) > MAX_SYNC_ANSWER:
                break
            if spent + size + len(frame) > SYNC_BUDGET:
                break
            size += len(frame)
            out.append(Send(frame, (sender,)))
        if author == sender and spent + size < SYNC_BUDGET:
            # The asker restarted and asks what it signed before. The marker tells it where our
            # copy of its stream ends, even when we hold none of it.
            marker = held_marker(author, max(stream) + 1 if stream else 0, self.seat)
            size += len(marker)
            out.append(Send(marker, (sender,)))
        self._sent[sender] = spent + size
        return out
