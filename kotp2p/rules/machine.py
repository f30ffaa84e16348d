"""The run loop and ``apply``: how inputs drive the stack of frames.

Theory of operation
-------------------
``apply`` copies the state and pops the blocking frame on top of its stack. It hands the action
to that frame's handler for a decision or a random event. Then it calls :func:`run`. That pops and
runs frames until one blocks. A blocking frame is an ``ask`` frame whose decision has two or more
legal actions, or a ``rand`` frame with a non-empty list of bounds. A decision with one legal
action is applied at once. One with none is skipped. A seat no longer alive is never asked.

The copy is cheap for most inputs. A roll, a draw, a re-roll or a "done" changes no per-seat list
or dict in place. So ``apply`` shares them with the input state, with :meth:`State.share`.
:func:`run` copies them with :meth:`State.own`, only before the first step that may change them.

The steps, decisions and random events live with their concept. ``turn`` is the turn interpreter,
``rolling`` the dice. ``tokyo`` holds damage, eliminations and yields, ``market`` buying. Each
module declares them in its ``FRAMES`` value, and this module installs those. Cards add frames
through hooks and their own ``FRAMES``. No engine module names a card. Several cards may open the
same window: ``after_roll``, ``change_die``, ``revealed``, ``after_buy``. Identical frames open it
once, so a card and its copy share one window.

Shortcuts take the most frequent paths without the generic machinery. ``basics.SHORTCUTS`` turns
them on. They cover the dice-rolling cycle, and smashes nobody can react to, which land without
``hit`` frames. Each produces exactly the state the generic path would. A test plays games both
ways.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import TypeGuard

from kotp2p.rules import basics, halloween, market, powerup, rolling, tokyo, turn
from kotp2p.rules.actions import ACTION_TYPES, Action, RandomResult, Reroll, action_from_wire
from kotp2p.rules.basics import HIDDEN
from kotp2p.rules.dice import MAX_DICE
from kotp2p.rules.effects import remove_card, undying
from kotp2p.rules.errors import IllegalAction
from kotp2p.rules.events import AutoDecision, Event
from kotp2p.rules.registry import DECISIONS, RANDOMS, STEPS, hooked, install_frames
from kotp2p.rules.rolling import DICE_BOUNDS, after_roll, reroll, roll_dice
from kotp2p.rules.state import REROLL, ROLL, Decision, RandomRequest, State, decision_for
from kotp2p.rules.tokyo import LAST_DEATHS
from kotp2p.rules.turn import turn_step

install_frames(
    [turn.FRAMES, rolling.FRAMES, tokyo.FRAMES, market.FRAMES, halloween.FRAMES, powerup.FRAMES,
     market.POWER_UP_FRAMES]
)

_new_request = tuple.__new__  # makes a RandomRequest without its Python-level constructor
# The values of a RandomResult, read as any object: compiled code would check the declared type
# on a plain attribute read, and raise TypeError where the engine must refuse the input.
_values_of: Callable[[RandomResult], object] = attrgetter("values")


def run(s: State, owned: bool = True) -> None:
    """Run frames until one blocks and sets ``s.pending``, or the game ends.

    With ``owned=False``, ``s`` still shares its lists and dicts with another state, as
    :meth:`State.share` made it. They are copied before the first step that may change them.
    """
    stack = s.stack
    while stack:
        frame = stack[-1]
        op = frame[0]
        if op == "ask":
            seat = frame[1]
            if not s.alive[seat]:
                stack.pop()
                continue
            kind = DECISIONS[frame[2]]
            legal = kind.legal(s, frame)
            if len(legal) > 1 or (kind.always_ask and legal):
                s.pending = decision_for(seat, frame[2])
                s.legal = legal
                return
            stack.pop()
            if legal:
                if not owned:
                    s.own()
                    owned = True
                if s.sink is not None:
                    s.sink.append(AutoDecision(seat, frame[2], legal[0]))
                kind.handle(s, frame, legal[0])
        elif op == "rand":
            rk = RANDOMS[frame[1]]
            bounds = rk.bounds(s, frame)
            if bounds:
                owner = -1 if rk.private is None else rk.private(s, frame)
                purpose = rk.purpose
                if purpose is ROLL and s.dice:
                    purpose = REROLL
                s.pending = _new_request(RandomRequest, (bounds, s.k + 1, owner, purpose))
                return
            stack.pop()
        else:
            if not owned:
                s.own()
                owned = True
            stack.pop()
            if op == "turn":  # the most frequent step, called without a lookup
                turn_step(s, frame)
            else:
                STEPS[op](s, frame)
        if s.over:
            return
    s.pending = None


def apply(state: State, action: object, events: list[Event] | None = None) -> State:
    """The state after ``action``. ``state`` is left unchanged.

    With ``events``, what happened is appended to it in order. :mod:`kotp2p.rules.events` lists
    the events. On a refusal nothing is appended.

    ``action`` may be any object: what is not an :data:`Action`, or an action holding values of
    the wrong types, is refused like an illegal action. The compiled build checks the declared
    types of what it reads, so every value from outside is read here as an ``object`` first.

    :raises IllegalAction: if ``action`` is not legal for what is pending, saying what was.
    """
    pending = state.pending
    if basics.SHORTCUTS:
        if type(action) is RandomResult and type(pending) is RandomRequest:
            frame = state.stack[-1]
            values = _values_of(action)
            if frame[1] == "roll" and _values_fit(values, pending.bounds):
                s = state.share()
                s.sink = events
                s.stack.pop()
                s.k += 1
                roll_dice(s, frame, values)
                if not after_roll(s):
                    s.pending = None
                    run(s, False)
                if events is not None:
                    s.sink = None
                return s
        elif type(action) is Reroll and type(pending) is Decision and pending.kind == "roll":
            s = state.share()
            if reroll(s, action):
                return s
    if pending is None:
        raise IllegalAction("the game is over: no action is expected")
    frame = state.stack[-1]
    if isinstance(pending, RandomRequest):
        if type(action) is not RandomResult:
            raise IllegalAction(
                f"expected a RandomResult for random event {pending.index}, "
                f"found {type(action).__name__}"
            )
        values = _values_of(action)
        bounds = pending.bounds
        if pending.private_to >= 0 and _all_hidden(values):
            if len(values) != len(bounds):
                raise IllegalAction(f"expected {len(bounds)} hidden values, found {len(values)}")
        elif not _values_fit(values, bounds):
            raise IllegalAction(
                f"expected {len(bounds)} random values, a tuple of integers 0 <= v < bound for "
                f"bounds {list(bounds)}, found {values!r}"
            )
        rk = RANDOMS[frame[1]]
        owned = not rk.light
        s = state.copy() if owned else state.share()
        s.sink = events
        s.stack.pop()
        s.k += 1
        rk.handle(s, frame, values)
    else:
        kind = DECISIONS[pending.kind]
        if not _is_action(action):
            raise IllegalAction(_why_illegal(state, pending, action))
        ok = kind.check(state, frame, action) if kind.check is not None else action in state.legal
        if not ok:
            raise IllegalAction(_why_illegal(state, pending, action))
        owned = type(action) not in kind.light
        s = state.copy() if owned else state.share()
        s.sink = events
        s.stack.pop()
        kind.handle(s, frame, action)
    s.pending = None
    run(s, owned)
    if events is not None:
        s.sink = None
    return s


# Shortcuts: the dice-rolling cycle is most of the inputs of a game. It is a roll, then the
# decision to re-roll. For it, ``apply`` sets the next pending input directly, exactly as ``run``
# would find it. Tests turn SHORTCUTS off and check that every state stays the same.
_SIX = frozenset(range(6))
_INT = frozenset((int,))


def _is_action(obj: object) -> TypeGuard[Action]:
    """True if ``obj`` is one of the actions, not a subclass nor anything else."""
    return type(obj) in ACTION_TYPES


def _values_fit(values: object, bounds: tuple[int, ...]) -> TypeGuard[tuple[int, ...]]:
    """True if ``values`` answer ``bounds``.

    ``values`` must be a tuple of ``int``, not ``bool`` nor ``float``, with ``0 <= v < bound`` each.
    Every path that takes a random result asks this one test."""
    if type(values) is not tuple:
        return False
    n = len(bounds)
    if len(values) != n:
        return False
    if n <= MAX_DICE and bounds is DICE_BOUNDS[n]:  # dice: set tests run in C
        return _SIX.issuperset(values) and _INT.issuperset(map(type, values))
    if n == 1:  # a draw
        v = values[0]
        return type(v) is int and 0 <= v < bounds[0]
    return all(type(v) is int and 0 <= v < b for v, b in zip(values, bounds, strict=True))


def _all_hidden(values: object) -> TypeGuard[tuple[int, ...]]:
    """True for a non-empty tuple of ``HIDDEN`` ints: a private event seen by another seat."""
    return (
        type(values) is tuple
        and bool(values)
        and all(type(v) is int and v == HIDDEN for v in values)
    )


def _why_illegal(state: State, pending: Decision, action: object) -> str:
    legal = DECISIONS[pending.kind].legal(state, state.stack[-1])
    names = sorted({type(a).__name__ for a in legal})
    return (
        f"{action!r} is not legal: seat {pending.seat} ({state.monsters[pending.seat]}) must "
        f"make a {pending.kind!r} decision, one of {len(legal)} actions ({', '.join(names)})"
    )


def action_for(state: State, obj: object) -> Action:
    """Decode a wire action meant for what ``state`` has pending, as :func:`action_from_wire`
    does.

    It refuses at once an action of a kind that input never takes. Examples are a ``Done`` where a
    ``Pass`` is expected, or a player's action for a random event. Legality proper is ``apply``'s
    test.

    :raises IllegalAction: for a malformed action or one of the wrong kind, saying which kinds
        were expected.
    """
    action = action_from_wire(obj)
    pending = state.pending
    if pending is None:
        raise IllegalAction("the game is over: no action is expected")
    if isinstance(pending, RandomRequest):
        if type(action) is not RandomResult:
            raise IllegalAction(
                f"expected a RandomResult for random event {pending.index}, "
                f"found {type(action).__name__}"
            )
        return action
    kinds = {type(a) for a in state.legal}
    if type(action) not in kinds:
        names = ", ".join(sorted(k.__name__ for k in kinds))
        raise IllegalAction(
            f"expected one of {names} for the {pending.kind!r} decision of seat {pending.seat} "
            f"({state.monsters[pending.seat]}), found {type(action).__name__}"
        )
    return action


def open_slot(state: State, slot: int, value: int) -> State:
    """The state once hidden ``slot`` holds ``value`` on this replica too.

    Its owner opened it. The network layer checks the opening against its commitment first.

    :raises IllegalAction: if there is no such hidden slot, ``value`` is negative, or it is a
        Halloween costume pick that does not hold the costume its seat kept.
    """
    if type(slot) is not int or state.slots.get(slot, 0) != HIDDEN:
        raise IllegalAction(f"expected the number of a hidden slot, found {slot!r}")
    if type(value) is not int or value < 0:
        raise IllegalAction(f"expected a non-negative value to open slot {slot}, found {value!r}")
    halloween.check_kept(state, slot, value)
    s = state.copy()
    s.slots[slot] = value
    if type(s.pending) is Decision:  # what the slot holds may change what is legal now
        s.legal = DECISIONS[s.pending.kind].legal(s, s.stack[-1])
    return s


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every legal action for the pending decision.

    It is empty for a random event or a finished game. A random event is answered with
    ``RandomResult``."""
    if type(state.pending) is Decision:
        return state.legal
    return ()


def eject(state: State, seat: int, events: list[Event] | None = None) -> State:
    """The state after the absent ``seat`` is eliminated by its opponents' unanimous consent.

    With ``events``, what happened is appended to it, as for :func:`apply`.

    :raises IllegalAction: if the game is over or the seat is not a live seat.
    """
    if state.over:
        raise IllegalAction("the game is over: nobody can be ejected")
    if type(seat) is not int or not 0 <= seat < state.n or not state.alive[seat]:
        raise IllegalAction(f"expected a live seat to eject, found {seat!r}")
    s = state.copy()
    s.sink = events
    s.hp[seat] = 0
    s.stack.append(LAST_DEATHS)  # an absent seat gets no window at 0♥
    if undying(s, seat):  # a Zombie is ejected too: it loses what keeps it in at 0♥
        for c in [c for c, _ in hooked(s, seat, "undying")]:
            remove_card(s, seat, c)
    s.pending = None
    run(s)
    s.sink = None
    return s


# ---------------------------------------------------------------------------------------------
# Results


def ranking(state: State) -> tuple[tuple[int, ...], ...]:
    """Seats grouped by final rank, best first.

    Winners come first, then survivors by stars, then the eliminated. Later eliminations rank
    higher. Monsters eliminated in one resolution share a rank."""
    winners = set(state.winners)
    groups: list[tuple[int, ...]] = []
    if winners:
        groups.append(tuple(sorted(winners)))
    survivors = [t for t in range(state.n) if state.alive[t] and t not in winners]
    for stars in sorted({state.stars[t] for t in survivors}, reverse=True):
        groups.append(tuple(t for t in survivors if state.stars[t] == stars))
    dead = [t for t in range(state.n) if not state.alive[t] and t not in winners]
    for batch in sorted({state.elim[t] for t in dead}, reverse=True):
        groups.append(tuple(t for t in dead if state.elim[t] == batch))
    return tuple(groups)
