"""The payload schema of every envelope kind, checked in one place before a payload touches state.

An envelope reaches :func:`payload_problem` only after its signature checked. So a payload that
breaks its kind's schema is its author's own signed statement. The replica convicts the author of
``malformed-payload``, with that envelope as the whole proof, and uses nothing of it. Past this
check every handler may rely on the shapes below. For example, a seat is an ``int`` in range, never
a ``bool`` or a list. Some things the schema cannot know: whether an action is legal, or whether
an opening matches its commitment. Those are the handlers' business.

====== =====================================================================================
kind   payload
====== =====================================================================================
MOVE   ``[action, *openings]``: the action in the engine's wire form, then at most
       :data:`MAX_OPENINGS` openings. A peek opening is ``['peek', k, 32 bytes(, 32 bytes)]``,
       a deck slot's ``['evo', slot, card, 32 bytes]``. A deck commitment
       ``['deck', [32 bytes, ...], proof: bytes]`` is one too.
ACK    ``[]``, or at a poll ``[action, *openings]`` as a MOVE's: its author's answer.
OPEN   ``['slot', index, salt: bytes, content: bytes]``, a peek opening or a deck slot's.
STALL  ``[seat]`` or ``[seat, acked]``, ``acked`` a bool.
EJECT  ``[seat]`` or ``[seat, acked]``, naming another seat than the author.
CHAT   ``[text]``, at most :data:`MAX_CHAT` characters.
BYE    ``[]`` or ``[[winner seat, ...]]``, distinct seats in increasing order.
====== =====================================================================================
"""

from __future__ import annotations

from collections.abc import Callable

from kotp2p.net.wire.codec import Value
from kotp2p.net.wire.envelope import ID_SIZE, Envelope, Kind

MAX_CHAT = 500
"""Characters in one chat line."""

MAX_OPENINGS = 64
"""Peek openings one MOVE may carry."""

MAX_SLOT_BYTES = 1024
"""Bytes of a slot opening's salt or content."""

PEEK_ITEM = "peek"
"""The first item of a peek's opening."""
SLOT_ITEM = "evo"
"""The first item of a hidden deck slot's opening."""
DECK_ITEM = "deck"
"""The first item of a deck's commitment."""

MAX_DECK = 255
"""Slots one deck commitment may hold."""

MAX_PROOF_BYTES = 1 << 16
"""Bytes of a deck's proof."""


def _is_int(v: object) -> bool:
    return type(v) is int


def _is_seat(v: object, n: int) -> bool:
    return type(v) is int and 0 <= v < n


def is_peek_opening(v: Value) -> bool:
    """``['peek', k >= 1, 32 bytes]`` or ``['peek', k >= 1, 32 bytes, 32 bytes]``."""
    return (type(v) is list and len(v) in (3, 4) and v[0] == PEEK_ITEM and _is_int(v[1])
            and 1 <= v[1] < 1 << 62 and type(v[2]) is bytes and len(v[2]) == ID_SIZE
            and (len(v) == 3 or (type(v[3]) is bytes and len(v[3]) == ID_SIZE)))


def is_slot_opening(v: Value) -> bool:
    """``['evo', slot, card, 32 bytes]``: a slot number below 2**16, a card from 1 to 65535."""
    return (type(v) is list and len(v) == 4 and v[0] == SLOT_ITEM and _is_int(v[1])
            and 0 <= v[1] < 1 << 16 and _is_int(v[2]) and 0 < v[2] < 1 << 16
            and type(v[3]) is bytes and len(v[3]) == ID_SIZE)


def is_deck_commitment(v: Value) -> bool:
    """``['deck', [32 bytes, ...], proof]``, at most :data:`MAX_DECK` commitments."""
    return (type(v) is list and len(v) == 3 and v[0] == DECK_ITEM and type(v[1]) is list
            and 0 < len(v[1]) <= MAX_DECK
            and all(type(c) is bytes and len(c) == ID_SIZE for c in v[1])
            and type(v[2]) is bytes and len(v[2]) <= MAX_PROOF_BYTES)


def _move(pl: list[Value], author: int, n: int) -> str | None:
    if not pl:
        return "a MOVE holds [action, *openings]; found an empty payload"
    if len(pl) - 1 > MAX_OPENINGS:
        return f"a MOVE carries at most {MAX_OPENINGS} openings, found {len(pl) - 1}"
    if not all(is_peek_opening(o) or is_slot_opening(o) or is_deck_commitment(o)
               for o in pl[1:]):
        return ("a MOVE's openings are ['peek', k, 32 bytes(, 32 bytes)], ['evo', slot, card, "
                "32 bytes] or ['deck', [32 bytes, ...], proof]")
    return None


def _ack(pl: list[Value], author: int, n: int) -> str | None:
    if not pl:
        return None
    problem = _move(pl, author, n)
    return None if problem is None else ("an ACK's payload is empty, or an answer to a window: "
                                         + problem.removeprefix("a MOVE"))


def _open(pl: list[Value], author: int, n: int) -> str | None:
    if is_peek_opening(pl) or is_slot_opening(pl):
        return None
    if (len(pl) == 4 and pl[0] == "slot" and _is_int(pl[1]) and 0 <= pl[1] < 1 << 32
            and type(pl[2]) is bytes and type(pl[3]) is bytes
            and len(pl[2]) <= MAX_SLOT_BYTES and len(pl[3]) <= MAX_SLOT_BYTES):
        return None
    return ("an OPEN holds ['slot', index, salt, content], ['peek', k, 32 bytes(, 32 bytes)] "
            "or ['evo', slot, card, 32 bytes]")


def _stall(pl: list[Value], author: int, n: int) -> str | None:
    if 1 <= len(pl) <= 2 and _is_seat(pl[0], n) and (len(pl) == 1 or type(pl[1]) is bool):
        return None
    return f"a STALL names one seat below {n}, then may say whether it holds every ACK"


def _eject(pl: list[Value], author: int, n: int) -> str | None:
    if (1 <= len(pl) <= 2 and _is_seat(pl[0], n) and pl[0] != author
            and (len(pl) == 1 or type(pl[1]) is bool)):
        return None
    return (f"an EJECT names one other seat below {n}, then may say whether it holds every "
            "ACK")


def _chat(pl: list[Value], author: int, n: int) -> str | None:
    if len(pl) == 1 and type(pl[0]) is str and len(pl[0]) <= MAX_CHAT:
        return None
    return f"a CHAT holds one text of at most {MAX_CHAT} characters"


def _bye(pl: list[Value], author: int, n: int) -> str | None:
    if not pl:
        return None
    if (len(pl) == 1 and type(pl[0]) is list and all(_is_seat(w, n) for w in pl[0])
            and all(a < b for a, b in zip(pl[0], pl[0][1:], strict=False))):
        return None
    return f"a BYE holds nothing or [winners]: distinct seats below {n} in increasing order"


_CHECKS: dict[Kind, Callable[[list[Value], int, int], str | None]] = {
    Kind.MOVE: _move,
    Kind.ACK: _ack,
    Kind.OPEN: _open,
    Kind.STALL: _stall,
    Kind.EJECT: _eject,
    Kind.CHAT: _chat,
    Kind.BYE: _bye,
}


def payload_problem(env: Envelope, seats: int) -> str | None:
    """Why ``env``'s payload breaks its kind's schema in a game of ``seats`` seats, or None."""
    return _CHECKS[env.kind](env.payload, env.author, seats)
