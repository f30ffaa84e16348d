"""States as fixed-order arrays of plain values, and back.

The values are ints, bools, strings and lists. The array holds every field that matters.
``pending`` is not stored. It is recomputed by running the continuation stack, which blocks at the
same frame. Decoding checks every type and range. So a hostile or corrupt array raises
:class:`InvalidState`, never another error.
"""

from __future__ import annotations

from kotp2p.rules.basics import HIDDEN, MAX_PLAYERS, MIN_PLAYERS, MONSTERS, NOBODY, PHASE_NAMES, Frame
from kotp2p.rules.dice import MAX_DICE
from kotp2p.rules.errors import InvalidState
from kotp2p.rules.machine import run
from kotp2p.rules.registry import CARDS, DECISIONS, RANDOMS, STEPS
from kotp2p.rules.state import WIRE_FIELDS, WIRE_VERSION, State, state_to_wire

__all__ = ["WIRE_FIELDS", "WIRE_VERSION", "state_from_wire", "state_to_wire"]


def _int(x: object, what: str, lo: int = -(2**31), hi: int = 2**31) -> int:
    if type(x) is not int or not lo <= x < hi:
        raise InvalidState(f"expected an integer {lo}..{hi - 1} for {what}, found {x!r}")
    return x


def _list(x: object, what: str, n: int | None = None) -> list[object]:
    if not isinstance(x, list | tuple):
        raise InvalidState(f"expected a list for {what}, found {type(x).__name__}")
    if n is not None and len(x) != n:
        raise InvalidState(f"expected {n} entries for {what}, found {len(x)}")
    return list(x)


def _ints(x: object, what: str, n: int | None = None, lo: int = 0, hi: int = 2**31) -> list[int]:
    return [_int(v, what, lo, hi) for v in _list(x, what, n)]


def _bool(x: object, what: str) -> bool:
    if type(x) is not bool:
        raise InvalidState(f"expected true/false for {what}, found {x!r}")
    return x


def _card(x: object, what: str) -> int:
    c = _int(x, what)
    if c not in CARDS:
        raise InvalidState(f"expected a card id for {what}, found {c}")
    return c


def _frame(x: object, n: int) -> Frame:
    """A stack frame.

    Its op is a name, and so is the kind of a decision or random event. Every other value is an
    integer. A decision names a seat of the game, a ``turn`` frame one of its phases."""
    items = _list(x, "a stack frame")
    if not items or len(items) > 8:
        raise InvalidState("expected a stack frame of 1 to 8 values")
    op = items[0]
    if type(op) is not str:
        raise InvalidState(f"expected a step name first in a stack frame, found {op!r}")
    names = 3 if op == "ask" else 2 if op == "rand" else 1
    out: list[str | int] = [op]
    for i, v in enumerate(items[1:], 1):
        if (op == "ask" and i == 2) or (op == "rand" and i == 1):
            if type(v) is not str:
                raise InvalidState(f"expected a decision or random event name in {items!r}")
            out.append(v)
        else:
            out.append(_int(v, f"value {i} of a {op!r} frame"))
    if len(out) < names:
        raise InvalidState(f"expected at least {names} values in a {op!r} frame, found {len(out)}")
    if op == "ask":
        if out[2] not in DECISIONS:
            raise InvalidState(f"expected a known decision in {out!r}")
        _int(out[1], "the seat of a decision", 0, n)
    elif op == "rand":
        if out[1] not in RANDOMS:
            raise InvalidState(f"expected a known random event in {out!r}")
    elif op not in STEPS:
        raise InvalidState(f"expected a known step, found {op!r}")
    elif op == "turn":
        if len(out) != 2:
            raise InvalidState(f"expected ['turn', phase], found {out!r}")
        _int(out[1], "the phase of a turn frame", 0, len(PHASE_NAMES))
    return tuple(out)


def state_from_wire(obj: object) -> State:
    """Rebuild a state from :func:`state_to_wire` output.

    :raises InvalidState: if ``obj`` is not a well-formed, consistent state.
    """
    f = _list(obj, "a state", WIRE_FIELDS)
    if f[0] != WIRE_VERSION:
        raise InvalidState(f"expected state encoding version {WIRE_VERSION}, found {f[0]!r}")
    n = _int(f[1], "the number of seats", MIN_PLAYERS, MAX_PLAYERS + 1)
    s = State.__new__(State)
    s.n = n
    monsters = _list(f[2], "the monsters", n)
    for m in monsters:
        if m not in MONSTERS:
            raise InvalidState(f"expected a monster name, found {m!r}")
    s.monsters = tuple(str(m) for m in monsters)
    s.two_player = _bool(f[3], "the 2-player variant")
    s.hp = _ints(f[4], "health", n, 0, 13)
    s.stars = _ints(f[5], "stars", n, 0, 21)
    s.energy = _ints(f[6], "energy", n)
    s.alive = tuple(_bool(v, "alive") for v in _list(f[7], "alive", n))
    s.elim = tuple(_ints(f[8], "elimination order", n, 0, 64))
    hands = _list(f[9], "cards", n)
    s.cards = tuple(tuple(_card(c, "an owned card") for c in _list(cs, "cards")) for cs in hands)
    s.poison = _ints(f[10], "poison tokens", n, 0, 64)
    s.shrink = _ints(f[11], "shrink tokens", n, 0, 64)
    s.city = _int(f[12], "Tokyo City", NOBODY, n)
    s.bay = _int(f[13], "Tokyo Bay", NOBODY, n)
    s.active = _int(f[14], "the active seat", 0, n)
    s.rotation = _int(f[15], "the rotation seat", 0, n)
    s.extra = tuple(_ints(f[16], "extra turns", None, 0, n))
    s.turn = _int(f[17], "the turn number", 0)
    s.dice = tuple(_ints(f[18], "dice", None, 0, 6))
    if len(s.dice) > MAX_DICE:
        raise InvalidState(f"expected at most {MAX_DICE} dice, found {len(s.dice)}")
    s.rolls_left = _int(f[19], "rolls left", 0, 64)
    s.market = tuple(0 if c == 0 else _card(c, "a market card") for c in _list(f[20], "market", 3))
    s.deck = tuple(_card(c, "a deck card") for c in _list(f[21], "deck"))
    s.discard = tuple(_card(c, "a discarded card") for c in _list(f[22], "discard"))
    s.k = _int(f[23], "the random event count", 0)
    s.tokens = {}
    for pair in _list(f[24], "card tokens"):
        k, v = _list(pair, "a card token entry", 2)
        s.tokens[_card(k, "a token card")] = _int(v, "a token count")
    s.flags = {}
    for pair in _list(f[25], "flags"):
        k, v = _list(pair, "a flag entry", 2)
        if type(k) is not str or len(k) > 40:
            raise InvalidState(f"expected a short flag name, found {k!r}")
        s.flags[k] = _int(v, "a flag value")
    stack = _list(f[26], "the stack")
    if len(stack) > 512:
        raise InvalidState("expected at most 512 stack frames")
    s.stack = [_frame(x, n) for x in stack]
    s.over = _bool(f[27], "game over")
    s.winners = tuple(_ints(f[28], "winners", None, 0, n))
    s.slots = {}
    for pair in _list(f[29], "hidden slots"):
        k, v = _list(pair, "a hidden slot entry", 2)
        s.slots[_int(k, "a slot number")] = _int(v, "a slot value", HIDDEN)
    s.pending = None
    s.legal = ()
    s.sink = None
    _check_cards(s)
    if s.over and s.stack:
        raise InvalidState("expected no stack for a finished game")
    try:
        run(s)
    except Exception as exc:  # any failure of a decoded state to run makes it invalid
        raise InvalidState(f"the state does not run: {exc!r}") from None
    return s


def _check_cards(s: State) -> None:
    seen: set[int] = set()
    places = [*s.market, *s.deck, *s.discard]
    for cs in s.cards:
        places.extend(cs)
    for c in places:
        if c == 0:
            continue
        if c in seen:
            raise InvalidState(f"expected each card in one place, found {CARDS[c].name} twice")
        seen.add(c)
