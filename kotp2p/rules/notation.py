"""A compact text notation for states, so a scenario test fits in a few lines.

Seats come first, separated by ``;``, then ``|`` and ``key=value`` fields::

    The King 10/0/0 @city +acidattack poison=1; Giga Zaur 8/3/2 | active=1 phase=roll dice=123ehs rolls=2

A seat is its monster's name and ``health/stars/energy``. Then come any of ``@city`` or ``@bay``,
``+card``, ``poison=N``, ``shrink=N`` and ``dead=N``. A ``+card`` is a card's name in lower-case
letters and digits. A second copy adds ``2``. A copier writes what it copies:
``+mimic>batterymonster``. ``dead=N`` is for a monster eliminated in the N-th elimination.

Every field is optional:

* ``active``: 0 by default. ``rotation``: ``active`` by default. ``turn``: 1 by default.
* ``k``: the random events so far, 0 by default.
* ``dice``: faces, as in ``123ehs``. ``rolls``: the rolls left, 0 by default.
* ``market``: three cards, with ``-`` for an empty slot.
* ``deck``: every card not elsewhere by default. ``discard``: the discard pile.
* ``2p``: the 2-player variant, 0 or 1. It is on by default with 2 seats.
* ``extra``: the seats with extra turns queued.
* ``tokens``: ``card:count,...``. ``flags``: ``name:value,...``.
* ``slots``: the hidden slots, as ``number:value``. A ``?`` is a content this replica does not
  know.
* ``winners`` and ``over=1``.

Then comes where the game is: a ``phase``, or a raw ``stack``.

* ``phase=start``: the turn just began.
* ``phase=roll``: the active monster decides a re-roll.
* ``phase=resolve``: the dice are final and resolve at once.
* ``phase=yield:SEATS``: the smashed monsters in Tokyo decide, in this order, whether to yield.
  Then the active monster may enter and buy.
* ``phase=buy``: the buy decision.
* ``phase=end``: end-of-turn effects come next.
* ``stack=op:arg,arg;op;...``: the frames, bottom first. The frame that resumes a turn is written
  ``turn:PHASE``, with the name of the phase it resumes at.

:func:`from_text` runs the stack to the first decision or random event.
"""

from __future__ import annotations

import re

from kotp2p.rules.basics import HIDDEN, MONSTERS, NOBODY, PHASE_INDEX, Frame
from kotp2p.rules.cardindex import BY_SLUG, COPIERS
from kotp2p.rules.dice import parse_dice
from kotp2p.rules.errors import InvalidState
from kotp2p.rules.state import State, costumes_in_deck, default_deck, phase_stack, to_text
from kotp2p.rules.wire import state_from_wire, state_to_wire

_STATS = re.compile(r"^(\d+)/(\d+)/(\d+)$")


def _parse_card(slug: str) -> int:
    cid = BY_SLUG.get(slug)
    if cid is None:
        raise InvalidState(f"expected a card name in lower-case letters and digits, found {slug!r}")
    return cid


def _parse_cards(text: str) -> tuple[int, ...]:
    if text in ("", "-"):
        return ()
    return tuple(0 if x == "-" else _parse_card(x) for x in text.split(","))


def _parse_int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InvalidState(f"expected a whole number for {what}, found {text!r}") from None


def _parse_seats(text: str, what: str) -> tuple[int, ...]:
    return tuple(_parse_int(x, what) for x in text.split(",")) if text else ()


def _parse_frame(text: str) -> Frame:
    op, _, args = text.partition(":")
    if op == "turn":
        if args not in PHASE_INDEX:
            phases = ", ".join(PHASE_INDEX)
            raise InvalidState(f"expected turn:PHASE with a phase among {phases}, found {text!r}")
        return ("turn", PHASE_INDEX[args])
    out: list[str | int] = [op]
    for a in args.split(",") if args else []:
        out.append(int(a) if re.fullmatch(r"-?\d+", a) else a)
    return tuple(out)


def from_text(text: str) -> State:
    """Parse the notation of :func:`to_text` and run the stack to the first decision or random event.

    The module docstring describes the notation.

    :raises InvalidState: for text that does not follow the notation, saying what was expected.
    """
    seats_text, bar, fields_text = text.partition("|")
    if not bar:
        raise InvalidState("expected seats, then '|', then fields")
    seat_texts = [t.strip() for t in seats_text.split(";")]
    n = len(seat_texts)
    s = State.__new__(State)
    s.n = n
    monsters: list[str] = []
    s.hp, s.stars, s.energy = [], [], []
    alive: list[bool] = []
    elim: list[int] = []
    hands: list[tuple[int, ...]] = []
    copied: dict[str, int] = {}
    s.poison, s.shrink = [], []
    s.city = s.bay = NOBODY
    for i, st in enumerate(seat_texts):
        tokens = st.split()
        at = next((j for j, t in enumerate(tokens) if _STATS.match(t)), None)
        if at is None:
            raise InvalidState(f"expected 'Monster health/stars/energy' for seat {i}, found {st!r}")
        name = " ".join(tokens[:at])
        if name not in MONSTERS:
            raise InvalidState(f"expected a monster among {', '.join(MONSTERS)}, found {name!r}")
        monsters.append(name)
        m = _STATS.match(tokens[at])
        assert m is not None
        s.hp.append(int(m[1]))
        s.stars.append(int(m[2]))
        s.energy.append(int(m[3]))
        cards: list[int] = []
        poison = shrink = dead = 0
        for t in tokens[at + 1 :]:
            if t == "@city":
                s.city = i
            elif t == "@bay":
                s.bay = i
            elif t.startswith("+"):
                slug, copies, target = t[1:].partition(">")
                c = _parse_card(slug)
                cards.append(c)
                if copies:
                    if c not in COPIERS:
                        raise InvalidState(f"expected +card>target only for a copier (Mimic), found {t!r}")
                    copied[COPIERS[c]] = _parse_card(target)
            elif t.startswith("poison="):
                poison = _parse_int(t[7:], "poison")
            elif t.startswith("shrink="):
                shrink = _parse_int(t[7:], "shrink")
            elif t.startswith("dead="):
                dead = _parse_int(t[5:], "dead")
            else:
                raise InvalidState(f"expected @city, @bay, +card, poison=, shrink= or dead=, found {t!r}")
        hands.append(tuple(cards))
        s.poison.append(poison)
        s.shrink.append(shrink)
        alive.append(dead == 0)
        elim.append(dead)
    s.monsters = tuple(monsters)
    s.alive = tuple(alive)
    s.cards = tuple(hands)
    s.elim = tuple(elim)
    fields: dict[str, str] = {}
    for t in fields_text.split():
        key, eq, value = t.partition("=")
        if not eq:
            raise InvalidState(f"expected key=value, found {t!r}")
        fields[key] = value
    known = {"active", "rotation", "turn", "k", "dice", "rolls", "market", "deck", "discard",
             "2p", "extra", "tokens", "flags", "slots", "winners", "over", "phase", "stack"}
    unknown = set(fields) - known
    if unknown:
        raise InvalidState(f"expected fields among {', '.join(sorted(known))}, found {sorted(unknown)}")
    s.active = _parse_int(fields.get("active", "0"), "active")
    s.rotation = _parse_int(fields.get("rotation", str(s.active)), "rotation")
    s.turn = _parse_int(fields.get("turn", "1"), "turn")
    s.k = _parse_int(fields.get("k", "0"), "k")
    try:
        s.dice = parse_dice(fields.get("dice", ""))
    except ValueError as exc:
        raise InvalidState(str(exc)) from None
    s.rolls_left = _parse_int(fields.get("rolls", "0"), "rolls")
    market = _parse_cards(fields.get("market", "-,-,-"))
    if len(market) != 3:
        raise InvalidState(f"expected 3 market slots, found {len(market)}")
    s.market = market
    s.discard = _parse_cards(fields.get("discard", ""))
    s.two_player = bool(_parse_int(fields["2p"], "2p")) if "2p" in fields else n == 2
    s.extra = _parse_seats(fields.get("extra", ""), "extra")
    s.tokens = {}
    for item in fields["tokens"].split(",") if fields.get("tokens") else []:
        slug, _, v = item.partition(":")
        s.tokens[_parse_card(slug)] = _parse_int(v, "tokens")
    s.flags = dict(copied)
    for item in fields["flags"].split(",") if fields.get("flags") else []:
        k, _, v = item.partition(":")
        s.flags[k] = _parse_int(v, "flags")
    s.slots = {}
    for item in fields["slots"].split(",") if fields.get("slots") else []:
        k, _, v = item.partition(":")
        s.slots[_parse_int(k, "slots")] = HIDDEN if v == "?" else _parse_int(v, "slots")
    s.over = fields.get("over") == "1"
    s.winners = _parse_seats(fields.get("winners", ""), "winners")
    if "stack" in fields:
        s.stack = [_parse_frame(f) for f in fields["stack"].split(";")] if fields["stack"] else []
    else:
        phase = fields.get("phase", "over" if s.over else "start")
        stack = phase_stack(phase, s.active)
        if stack is None:
            raise InvalidState(
                f"expected phase start, roll, resolve, yield:SEATS, buy, end or over, found {phase!r}"
            )
        s.stack = stack
    s.deck = (
        tuple(sorted(_parse_cards(fields["deck"])))
        if "deck" in fields
        else default_deck(s.market, s.cards, s.discard, costumes_in_deck(s.flags, s.stack))
    )
    s.pending = None
    s.legal = ()
    s.sink = None
    # One decoder validates everything and runs the stack.
    return state_from_wire(state_to_wire(s))


__all__ = ["from_text", "phase_stack", "to_text"]
