"""Hash-chain randomness: every random event's outcome is fixed by values all seats committed to.

Theory of operation
-------------------
Each seat holds a 32-byte master secret. Chain generation ``g`` of seat ``i`` starts from
``s_g = H("secret", master, g)``. Then ``x[L] = s_g`` and ``x[j-1] = H(tag, i, x[j])``. Its anchor
``x[0]`` is public. Generation 0's anchor is in the genesis. Random event ``k = 1, 2, ...`` uses
generation ``g = (k - 1) // L`` at index ``j = k - g * L``. So a reveal is checked with one hash
against the previous one: ``H(tag, i, x[k]) == x[k-1]``. The reveal of the last index of a
generation carries the anchor of the next one. So that anchor is signed before any of its values
matter.

``R_k = H("rand", game_id, k, trigger id, (seat, x_seat[k]) for the live seats in seat order)``.
Values are drawn from SHAKE-256(R_k) by rejection sampling. For a bound ``b``, read the fewest
bytes ``w`` with ``256**w >= b``. Accept ``v < b * floor(256**w / b)`` as ``v % b``. So every value
is exactly uniform. Each value reads its own slice of the stream in order. So the values of a
request depend only on R_k and the bounds before them. A keep-set decides *how many* dice roll,
never *which faces* another die shows.

Hidden information:

* Peek, for "Made in a Lab": each seat has a second, private chain with tag ``peek``. The peeker's
  n-th peek at event k sees the value drawn from ``H("peek", R_k, seat, y[n])``. Nobody else can
  compute it until the peeker opens ``y[n]``. The opening is checked against the peek chain and
  the value re-derived.
* Slots, for Power Up evolution decks: the owner commits to each slot's content in the genesis,
  with ``H("slot", owner key, index, salt, content)``. Opening a slot reveals salt and content,
  which are checked against the commitment.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

CHAIN_LENGTH = 4096
"""Values per chain generation, called L above."""

DICE_TAG = b"dice"
PEEK_TAG = b"peek"


def _h(*parts: bytes) -> bytes:
    """SHA-256 over the parts, each prefixed with its length, so no two inputs collide."""
    data = b"".join(len(part).to_bytes(4, "big") + part for part in parts)
    return hashlib.sha256(b"kotp2p\x00" + data).digest()


@functools.lru_cache(maxsize=64)
def _link_prefix(tag: bytes, seat: int) -> bytes:
    """What :func:`_h` hashes for ``H("chain", tag, seat, x)`` before ``x``'s length."""
    parts = (b"chain", tag, seat.to_bytes(1, "big"))
    return b"kotp2p\x00" + b"".join(len(part).to_bytes(4, "big") + part for part in parts)


def link(tag: bytes, seat: int, x: bytes) -> bytes:
    """One step down a chain: ``H(tag, seat, x)``.

    It hashes the same bytes as ``_h``, but makes the part before ``x`` once. A chain of 4096
    values is built at every start."""
    return hashlib.sha256(_link_prefix(tag, seat) + len(x).to_bytes(4, "big") + x).digest()


STRIDE = 64
"""A generation keeps every ``STRIDE``-th value. It makes the others again, a block at a time."""


def _descend(prefix: bytes, x: bytes, steps: int) -> list[bytes]:
    """``x`` and the ``steps`` values below it on its chain, lowest first.

    ``prefix`` is :func:`_link_prefix` with the length part of a digest. Every value is a SHA-256
    digest, so that part is the same for all."""
    sha256 = hashlib.sha256
    values = [x]
    for _ in range(steps):
        x = sha256(prefix + x).digest()
        values.append(x)
    values.reverse()
    return values


def _walk(tag: bytes, seat: int, top: bytes, length: int) -> list[bytes]:
    """The marks of the chain whose ``x[length]`` is the digest ``top``.

    Mark ``i`` is ``x[i * STRIDE]``. The last mark is ``x[length]``. It applies :func:`link`
    ``length`` times and keeps one value in ``STRIDE``: a whole generation in memory would take
    about 300 KB."""
    sha256 = hashlib.sha256
    prefix = _link_prefix(tag, seat) + len(top).to_bytes(4, "big")
    marks = [top]
    x = top
    for j in range(length - 1, -1, -1):
        x = sha256(prefix + x).digest()
        if j % STRIDE == 0:
            marks.append(x)
    marks.reverse()  # marks[0] is the anchor x[0]
    return marks


class _Generation:
    """One generation of a chain: its marks, and the block of values read last.

    Values are read in order, as random events come. So each block of ``STRIDE`` values is made
    once from the mark above it, and the chain costs two walks in all."""

    __slots__ = ("_block", "_first", "_prefix", "length", "marks")

    def __init__(self, tag: bytes, seat: int, top: bytes, length: int) -> None:
        self.length = length
        self.marks = _walk(tag, seat, top, length)
        self._prefix = _link_prefix(tag, seat) + len(top).to_bytes(4, "big")
        self._first = -1
        self._block: list[bytes] = []

    def value(self, j: int) -> bytes:
        """``x[j]``, for ``0 <= j <= length``."""
        b, i = divmod(j, STRIDE)
        if i == 0:
            return self.marks[b]
        if b * STRIDE != self._first:
            upper = min((b + 1) * STRIDE, self.length)
            self._block = _descend(self._prefix, self.marks[b + 1], upper - b * STRIDE)
            self._first = b * STRIDE
        return self._block[i]


_MADE: dict[tuple[bytes, bytes, int, int, int], _Generation] = {}
"""The chain generations made last, by ``(master, tag, seat, length, generation)``.

The lobby makes each local seat's anchors. Its protocol object, or a rebuilt one, needs the same
chains again. A few are kept, so the work is done once. They hold no more than the secret they are
made from, which the caller holds anyway."""
_MADE_MAX = 16


def _generation(master: bytes, tag: bytes, seat: int, length: int, g: int) -> _Generation:
    """Generation ``g`` of the chain ``(tag, seat)`` of ``master``."""
    key = (master, tag, seat, length, g)
    made = _MADE.get(key)
    if made is None:
        made = _Generation(tag, seat, _h(b"secret", tag, master, g.to_bytes(8, "big")), length)
        if len(_MADE) >= _MADE_MAX:
            del _MADE[next(iter(_MADE))]  # the one made first
        _MADE[key] = made
    return made


def position(k: int, length: int = CHAIN_LENGTH) -> tuple[int, int]:
    """The ``(generation, index)`` that random event ``k >= 1`` uses."""
    if k < 1:
        raise ValueError(f"random events are numbered from 1, got {k}")
    g = (k - 1) // length
    return g, k - g * length


@dataclass
class SecretChain:
    """A seat's own chain of one tag: computes every value from the master secret.

    ``master`` is 32 secret bytes from the operating system, from ``os.urandom``. It is passed in
    so tests are deterministic.
    """

    master: bytes
    seat: int
    tag: bytes = DICE_TAG
    length: int = CHAIN_LENGTH
    _gens: dict[int, _Generation] = field(default_factory=dict, repr=False)

    def _generation(self, g: int) -> _Generation:
        made = self._gens.get(g)
        if made is None:
            made = _generation(self.master, self.tag, self.seat, self.length, g)
            self._gens = {g: made}  # only the current generation is kept
        return made

    def anchor(self, g: int = 0) -> bytes:
        """The public anchor ``x[0]`` of generation ``g``."""
        return self._generation(g).marks[0]

    def value(self, k: int) -> bytes:
        """The value to reveal for event ``k``."""
        g, j = position(k, self.length)
        return self._generation(g).value(j)

    def reveal(self, k: int) -> tuple[int, bytes, bytes | None]:
        """The reveal entry for event ``k``: ``(k, x[k], next anchor or None)``."""
        g, j = position(k, self.length)
        nxt = self.anchor(g + 1) if j == self.length else None
        return k, self.value(k), nxt


@dataclass
class ChainChecker:
    """Checks a seat's reveals one after another against its published anchors."""

    seat: int
    anchor: bytes
    tag: bytes = DICE_TAG
    length: int = CHAIN_LENGTH
    last_k: int = 0
    last: bytes = b""
    next_anchor: bytes | None = None
    unit: str = "event"
    """What the chain's values are numbered by, in messages: random events, or a seat's peeks."""

    def __post_init__(self) -> None:
        self.last = self.anchor

    def expected_next(self) -> int:
        """The event number whose value must come next."""
        return self.last_k + 1

    def problem(self, k: int, x: bytes, next_anchor: bytes | None) -> str | None:
        """Why the reveal for event ``k`` breaks the chain, or None. Nothing changes."""
        if k != self.last_k + 1:
            return f"reveal for {self.unit} {k}, {self.unit} {self.last_k + 1} expected"
        j = k - (k - 1) // self.length * self.length  # position's index; k >= 1 here
        if link(self.tag, self.seat, x) != self.last:
            return (f"value for {self.unit} {k} does not hash to the seat's previous chain "
                    "value")
        if j == self.length and next_anchor is None:
            return f"{self.unit} {k} ends a chain: the next chain's anchor must come with it"
        if j != self.length and next_anchor is not None:
            return f"an anchor with {self.unit} {k}, which does not end a chain"
        return None

    def accept(self, k: int, x: bytes, next_anchor: bytes | None) -> None:
        """Record a reveal that :meth:`problem` already found sound."""
        self.last_k = k
        self.last = x if next_anchor is None else next_anchor

    def check(self, k: int, x: bytes, next_anchor: bytes | None) -> str | None:
        """Accept the reveal for event ``k``, or return why it breaks the chain.

        When it breaks the chain, nothing changes.
        """
        why = self.problem(k, x, next_anchor)
        if why is None:
            self.last_k = k
            self.last = x if next_anchor is None else next_anchor
        return why


def random_seed(
    game_id: bytes, k: int, trigger: bytes, values: Sequence[tuple[int, bytes]]
) -> bytes:
    """``R_k`` from the trigger's id and the ``(seat, x[k])`` of every live seat in seat order."""
    parts = [b"rand", game_id, k.to_bytes(8, "big"), trigger]
    for seat, x in values:
        parts += [seat.to_bytes(1, "big"), x]
    return _h(*parts)


def draw(seed: bytes, bounds: Sequence[int]) -> tuple[int, ...]:
    """One exactly uniform integer ``0 <= v < b`` per bound, from SHAKE-256(seed)."""
    stream = b""  # the SHAKE-256 output of seed read so far, doubled whenever more is needed
    pos = 0
    out = []
    for b in bounds:
        if b < 1:
            raise ValueError(f"bound {b}: at least 1 expected")
        width = max(1, (b - 1).bit_length() + 7 >> 3)
        space = 1 << (8 * width)
        limit = space - space % b
        while True:
            while pos + width > len(stream):
                stream = hashlib.shake_256(seed).digest(max(64, 2 * len(stream)))
            v = stream[pos] if width == 1 else int.from_bytes(stream[pos : pos + width], "big")
            pos += width
            if v < limit:
                out.append(v % b)
                break
    return tuple(out)


def peek_seed(r_k: bytes, seat: int, y: bytes) -> bytes:
    """The private seed of a peek at the event of seed ``r_k`` by ``seat`` with peek value ``y``."""
    return _h(b"peek", r_k, seat.to_bytes(1, "big"), y)


def slot_commitment(owner_key: bytes, index: int, salt: bytes, content: bytes) -> bytes:
    """The commitment to slot ``index`` of a private deck: binds the content, hides it."""
    return _h(b"slot", owner_key, index.to_bytes(4, "big"), salt, content)


@dataclass(frozen=True)
class SlotDeck:
    """An owner's private deck: contents, salts, and the commitments published in the genesis."""

    owner_key: bytes
    contents: tuple[bytes, ...]
    salts: tuple[bytes, ...]

    @classmethod
    def build(cls, owner_key: bytes, contents: Sequence[bytes], secret: bytes) -> SlotDeck:
        """Salt every slot from ``secret``, 32 bytes from ``os.urandom``."""
        salts = tuple(_h(b"salt", secret, i.to_bytes(4, "big")) for i in range(len(contents)))
        return cls(owner_key, tuple(contents), salts)

    @property
    def commitments(self) -> tuple[bytes, ...]:
        """One commitment per slot, in slot order."""
        return tuple(
            slot_commitment(self.owner_key, i, s, c)
            for i, (s, c) in enumerate(zip(self.salts, self.contents, strict=True))
        )

    def opening(self, index: int) -> tuple[int, bytes, bytes]:
        """``(index, salt, content)``: what an OPEN envelope publishes for a slot."""
        return index, self.salts[index], self.contents[index]


def check_opening(
    owner_key: bytes, commitments: Sequence[bytes], index: int, salt: bytes, content: bytes
) -> str | None:
    """None when the opening matches its commitment, else the reason it does not."""
    if not 0 <= index < len(commitments):
        return f"slot {index}: the seat committed to {len(commitments)} slots"
    if slot_commitment(owner_key, index, salt, content) != commitments[index]:
        return f"slot {index}: salt and content do not match the commitment in the genesis"
    return None
