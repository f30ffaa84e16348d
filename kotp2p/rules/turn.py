"""The turn interpreter: the start of the game, the ``turn`` frame, and who plays next.

The start of the game is the roll-off, then the first market. The ``turn`` frame runs a turn's
phases in order, from its start to its end.

A turn is one ``("turn", i)`` frame that runs the phases of ``TURN_PHASES`` from phase ``i``. The
phases are start, roll, final_roll, resolve, smash, yields, buy, after_buy, end_turn and
next_turn. A phase may push frames for a decision, a random event or damage. That suspends the
turn: ``("turn", i + 1)`` goes beneath what it pushed. The phases themselves live with their
concept. ``rolling`` has the dice. ``tokyo`` has smashes, damage and yields. ``market`` has
entering Tokyo and buying.
"""

from __future__ import annotations

from collections.abc import Callable

from kotp2p.rules.basics import MARKET_SLOTS, PHASE_NAMES, POWER_UP_FLAG, Frame
from kotp2p.rules.dice import BASE_DICE, SMASH
from kotp2p.rules.effects import MAX_STARS, bit, deal_damage, end_game, gain_energy, gain_stars
from kotp2p.rules.events import WHY_TOKYO, ExtraTurn, RolledOff, TurnBegan
from kotp2p.rules.halloween import END_ANY_TURN
from kotp2p.rules.market import after_buy, enter_and_buy
from kotp2p.rules.powerup import END, open_window
from kotp2p.rules.powerup import begin as powerup_begin
from kotp2p.rules.registry import Frames, RandomKind, anyone_has, fire, has_hook, hooked
from kotp2p.rules.rolling import final_roll, resolve, roll_start
from kotp2p.rules.state import ROLLOFF, State
from kotp2p.rules.tokyo import res_smash, yields

# ---------------------------------------------------------------------------------------------
# Start of game: roll-off, then the market


def _start(s: State, frame: Frame) -> None:
    push = s.stack.append
    push(("first_turn",))
    for slot in reversed(range(MARKET_SLOTS)):
        push(("rand", "draw", slot))
    push(("rand", "rolloff", (1 << s.n) - 1))


def _rolloff_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    n: int = frame[2].bit_count()
    return (6,) * (BASE_DICE * n)


def _rolloff(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    mask = frame[2]
    contenders = [seat for seat in range(s.n) if mask >> seat & 1]
    smashes = [
        values[i * BASE_DICE : (i + 1) * BASE_DICE].count(SMASH) for i in range(len(contenders))
    ]
    best = max(smashes)
    tied = [seat for seat, c in zip(contenders, smashes, strict=True) if c == best]
    if s.sink is not None:
        dice = tuple(values[i * BASE_DICE : (i + 1) * BASE_DICE] for i in range(len(contenders)))
        s.sink.append(RolledOff(tuple(contenders), dice, tied[0] if len(tied) == 1 else -1))
    if len(tied) == 1:
        s.active = tied[0]
        s.rotation = tied[0]
    else:
        s.stack.append(("rand", "rolloff", sum(bit(t) for t in tied)))


def _first_turn(s: State, frame: Frame) -> None:
    begin_turn(s, s.active)


# ---------------------------------------------------------------------------------------------
# Turns


def begin_turn(s: State, seat: int, *, extra: bool = False) -> None:
    """``seat``'s turn begins: per-turn flags are cleared and the turn's phases pushed.

    ``extra`` marks a turn out of the rotation."""
    s.active = seat
    s.turn += 1
    if s.sink is not None:
        s.sink.append(TurnBegan(seat, s.turn, extra))
    flags = s.flags
    if flags:
        for key in [k for k in flags if k[:2] == "t."]:
            del flags[key]
    s.dice = ()
    s.rolls_left = 0
    s.stack.append(_RESUME[0])
    if flags and POWER_UP_FLAG in flags:
        powerup_begin(s, seat)


def turn_step(s: State, frame: Frame) -> None:
    """Run the turn's phases in order from ``frame[1]``.

    A phase may push frames for a decision, a random event or damage. That suspends the sequence:
    ``("turn", next)`` goes beneath them."""
    i = frame[1]
    stack = s.stack
    phases = _PHASE_FNS
    n = len(phases)
    while i < n:
        depth = len(stack)
        phases[i](s)
        i += 1
        if s.over:
            return
        if len(stack) != depth:
            if i < n:
                stack.insert(depth, _RESUME[i])
            elif stack[-1] is _RESUME[0]:  # the next turn began: run it on
                stack.pop()
                i = 0
                continue
            return


def _start_effects(s: State) -> None:
    seat = s.active
    if seat == s.city or seat == s.bay:
        if s.two_player:
            gain_energy(s, seat, 1, why=WHY_TOKYO)
        else:
            gain_stars(s, seat, 2, why=WHY_TOKYO)
    if s.cards[seat]:
        fire(s, seat, "start_turn")


# ---------------------------------------------------------------------------------------------
# End of turn


def _end_turn(s: State) -> None:
    seat = s.active
    if anyone_has(s, "end_any_turn"):
        s.stack.append(END_ANY_TURN)  # beneath the poison's hit: it counts for Ghost
    if s.flags and POWER_UP_FLAG in s.flags:
        open_window(s, END)  # after the turn's own end, beneath what it pushes
    if not s.alive[seat]:
        return
    if s.cards[seat]:
        fire(s, seat, "end_turn")
    poison = s.poison[seat]
    if poison > 0 and s.alive[seat]:
        deal_damage(s, -1, {seat: poison})


def _next_turn(s: State) -> None:
    alive = s.alive
    if max(s.stars) >= MAX_STARS or anyone_has(s, "win_stars"):
        champions = tuple(t for t in range(s.n) if alive[t] and s.stars[t] >= star_goal(s, t))
        if champions:
            end_game(s, champions, by_stars=True, goal=min(star_goal(s, t) for t in champions))
            return
    active = s.active
    if alive[active] and s.cards[active] and has_hook(s, active, "extra_turn"):
        for c, fn in list(hooked(s, active, "extra_turn")):
            if fn(s, active, c):
                if s.sink is not None:
                    s.sink.append(ExtraTurn(active, c))
                begin_turn(s, active, extra=True)
                return
    while s.extra:
        extra, s.extra = s.extra[0], s.extra[1:]
        if alive[extra]:
            begin_turn(s, extra, extra=True)
            return
    nxt = (s.rotation + 1) % s.n
    while not alive[nxt]:
        nxt = (nxt + 1) % s.n
    s.rotation = nxt
    begin_turn(s, nxt)


def star_goal(s: State, seat: int) -> int:
    """The stars that win ``seat`` the game at the end of a turn: 20, or fewer by a card."""
    if s.cards[seat] and has_hook(s, seat, "win_stars"):
        goals: list[int] = [fn(s, seat, c) for c, fn in hooked(s, seat, "win_stars")]
        return min(MAX_STARS, *goals)
    return MAX_STARS


# ---------------------------------------------------------------------------------------------
# The phases of a turn, in order. The ``turn`` frame runs them in ``turn_step``.

TURN_PHASES: tuple[tuple[str, Callable[[State], None]], ...] = (
    ("start", _start_effects),
    ("roll", roll_start),
    ("final_roll", final_roll),
    ("resolve", resolve),
    ("smash", res_smash),
    ("yields", yields),
    ("buy", enter_and_buy),
    ("after_buy", after_buy),
    ("end_turn", _end_turn),
    ("next_turn", _next_turn),
)
if tuple(name for name, _ in TURN_PHASES) != PHASE_NAMES:
    raise AssertionError("TURN_PHASES must follow basics.PHASE_NAMES")
_PHASE_FNS = tuple(fn for _, fn in TURN_PHASES)
_RESUME = tuple(("turn", i) for i in range(len(TURN_PHASES)))


FRAMES: Frames = Frames(
    steps={"start": _start, "first_turn": _first_turn, "turn": turn_step},
    randoms={
        "rolloff": RandomKind(_rolloff_bounds, _rolloff, purpose=ROLLOFF),
    },
)
