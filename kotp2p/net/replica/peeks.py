"""Private random events: who learnt what, and how it becomes public.

A "Made in a Lab" peek is such an event.

Theory of operation
-------------------
Event k is resolved from the public R_k like any other. But its outcome is drawn from
``peek_seed(R_k, owner, y)``. Here ``y`` is the owner's next value on its peek chain: its n-th
peek uses ``y[n]``. The owner's replica computes the outcome. Every other replica applies it
hidden. The engine's digest does not cover hidden slots, so the states agree. The contract for
making it public follows.

* A MOVE may need the content of one of its author's hidden slots. Then it carries the opening
  in its signed payload, after the action: ``['peek', k, y]``. When ``y`` ends a chain, it is
  ``['peek', k, y, anchor]``. A replica checks each opening against the author's peek chain, in
  peek order. It derives the content, fills the slot and only then applies the action, all or
  nothing. So a MOVE forwarded by another seat is self-contained. No replica ever holds a move
  whose card it cannot know, and there is no OPEN to wait for.
* The owner opens every peek it has not opened yet, in order. A hash chain's later value gives
  the earlier ones away anyway. Its protocol knows a MOVE needs them when the action is refused
  or reaches another state. It tries the action on the engine's ``public_view`` for that.
* A separate OPEN sent just before the MOVE would also be read first, in its author's ``seq``
  order. But the MOVE would then depend on another envelope, one that is not forwarded. Carried
  inside, the decision and the card it reveals are one signed envelope. That envelope is also
  the whole evidence when the opening is wrong.
* A MOVE may need an opening it lacks. Every replica that holds the slot hidden refuses it
  through the engine, and so does ``verify``. It is ``illegal-move``, its author's fault.
* A wrong opening is ``bad-opening``. It may be off the chain, out of order, another seat's, a
  public event's, or opened twice. Or its content may give the lie to what its owner claimed
  while it was hidden: a Halloween seat keeps a costume that only its replica can check, and
  the opening at the end must hold it. In a MOVE the whole MOVE is refused. So the author's claim
  about the card never reaches the game.
* A peek whose content no move needs stays private until the game ends. That happens when the
  peeker passed. The card stays in the unordered deck, so a later draw is a fresh uniform pick.
  At the end the owner opens it with an OPEN envelope, at any step from the peek on. It is
  checked the same way. ``verify`` reports one left unopened as missing. A seat that was ejected
  or convicted is excused. It cannot open anything, and nothing public depends on it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from kotp2p.net.replica.history import Private
from kotp2p.net.trust import (
    PEEK_TAG,
    ChainChecker,
    Chance,
    GameEngine,
    Genesis,
    SecretChain,
    State,
    draw,
    peek_seed,
)
from kotp2p.net.wire import Value


class Peeks:
    """Every seat's private events as one replica knows them, and the checks of their openings.

    Nothing here convicts anyone: a check returns why an opening is wrong, and the replica turns
    that into a violation of the envelope that carried it.
    """

    def __init__(self, genesis: Genesis, engine: GameEngine, local_seat: int | None,
                 peek_chain: SecretChain | None) -> None:
        self.engine = engine
        self.local_seat = local_seat
        self.peek_chain = peek_chain
        self.private: dict[int, Private] = {}
        """Private event k -> what is known of it."""
        self.by_seat: dict[int, list[int]] = {}
        self.checkers = [
            ChainChecker(i, s.peek_anchor, tag=PEEK_TAG, length=genesis.chain_length, unit="peek")
            for i, s in enumerate(genesis.seats)
        ]
        self._opened: set[int] = set()

    def resolve(self, state: State, seed: bytes) -> State:
        """Answer the private event pending in ``state``. ``seed`` is its R_k.

        The owner's replica learns it from its peek chain. Every other replica applies it
        hidden."""
        pending = self.engine.pending(state)
        assert isinstance(pending, Chance) and pending.private_to >= 0
        k, owner = pending.index, pending.private_to
        peeks = self.by_seat.setdefault(owner, [])
        peeks.append(k)
        priv = self.private[k] = Private(k, owner, len(peeks), seed, state)
        if owner == self.local_seat and self.peek_chain is not None:
            y = self.peek_chain.value(priv.n)
            priv.opened = True  # known here, but still to be opened for the others
            return self.engine.apply_random(state, draw(peek_seed(seed, owner, y), pending.bounds))
        return self.engine.apply_hidden(state)

    def unopened(self, seat: int) -> list[int]:
        """The private events of ``seat`` whose peek it has not opened yet, in order."""
        return [k for k in self.by_seat.get(seat, []) if k not in self._opened]

    def problem(self, a: int, k: int, y: bytes, nxt: bytes | None, checker: ChainChecker,
                also_open: Sequence[int] = ()) -> str | None:
        """Why opening seat ``a``'s peek at event ``k`` with peek chain value ``y`` is wrong.

        None means it is right, and then ``checker`` has accepted ``y``. The events in
        ``also_open`` are opened alongside."""
        priv = self.private.get(k)
        if priv is None or priv.owner != a:
            return f"event {k} is not a private event of seat {a}"
        if k in self._opened or k in also_open:
            return f"the peek at event {k} was already opened"
        if priv.n != checker.expected_next():
            return (f"the peek at event {k} is seat {a}'s peek #{priv.n}; its peeks open in "
                    f"order and #{checker.expected_next()} comes next")
        problem = checker.check(priv.n, y, nxt)
        return f"its peek at event {k} is not on its peek chain: {problem}" if problem else None

    def fill(self, state: State, k: int, y: bytes) -> State:
        """``state`` with the slot of private event ``k`` filled from its checked opening ``y``.

        The state is unchanged on a replica that knew the event, or once the slot is gone.

        :raises ValueError: the content contradicts what its owner claimed in the game, such as
            a Halloween costume kept that the pick did not draw."""
        priv = self.private[k]
        if priv.opened:
            return state
        pending = self.engine.pending(priv.before)
        assert isinstance(pending, Chance)
        values = draw(peek_seed(priv.seed, priv.owner, y), pending.bounds)
        return self.engine.open_slot(state, k, self.engine.slot_content(priv.before, values))

    def check_move(
        self, a: int, state: State, openings: Sequence[Value]
    ) -> tuple[State, ChainChecker, list[int]] | str:
        """Check the openings a MOVE by seat ``a`` carries, recording nothing.

        :returns: ``state`` with those slots filled, seat ``a``'s peek checker once they are
            accepted, and the events opened. :meth:`commit` takes the last two. Or it returns
            why an opening is bad.
        """
        checker = self.checkers[a]
        if not openings:
            return state, checker, []
        checker = copy.copy(checker)
        ks: list[int] = []
        for o in openings:
            parsed = parse_opening(o)
            if parsed is None:
                return (f"a MOVE carries its openings as ['peek', k, value] or ['peek', k, value, "
                        f"anchor] after its action, found {o!r}")
            k, y, nxt = parsed
            problem = self.problem(a, k, y, nxt, checker, ks)
            if problem:
                return problem
            ks.append(k)
            try:
                state = self.fill(state, k, y)
            except ValueError as exc:
                return f"its peek at event {k} does not hold what it claimed: {exc}"
        return state, checker, ks

    def commit(self, a: int, checker: ChainChecker, ks: Sequence[int]) -> None:
        """Record openings by seat ``a`` that :meth:`check_move` accepted with ``checker``."""
        self.checkers[a] = checker
        for k in ks:
            self._opened.add(k)
            self.private[k].opened = True

    def open(self, a: int, k: int, y: bytes, nxt: bytes | None, state: State) -> State | str:
        """Check and record an OPEN of seat ``a``'s peek at ``k``.

        It returns ``state`` with the slot filled. Or it returns why the opening is bad, and
        then nothing is recorded."""
        problem = self.problem(a, k, y, nxt, self.checkers[a])
        if problem:
            return problem
        try:
            state = self.fill(state, k, y)
        except ValueError as exc:  # the content gives the lie to a claim the seat made
            return f"its peek at event {k} does not hold what it claimed: {exc}"
        self._opened.add(k)
        self.private[k].opened = True
        return state


def parse_opening(value: Value) -> tuple[int, bytes, bytes | None] | None:
    """``(k, value, next anchor or None)`` from a peek opening ``['peek', k, value(, anchor)]``.

    The opening is an OPEN's payload, or one inside a MOVE's. None means it is not one."""
    if (isinstance(value, list) and len(value) in (3, 4) and value[0] == "peek"
            and isinstance(value[1], int) and not isinstance(value[1], bool)
            and isinstance(value[2], bytes) and (len(value) == 3 or isinstance(value[3], bytes))):
        return value[1], value[2], value[3] if len(value) == 4 else None
    return None
