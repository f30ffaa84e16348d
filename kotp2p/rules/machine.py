"""The turn machine: the run loop, the base game's steps, decisions and random events.

Theory of operation
-------------------
``apply`` copies the state, pops the blocking frame on top of its stack, hands the action to
that frame's decision (or random event) handler, then calls :func:`run`, which pops and runs
frames until one blocks: an ``ask`` frame whose decision has two or more legal actions (one
legal action is applied at once, none skips it; a seat no longer alive is never asked) or a
``rand`` frame with a non-empty list of bounds.

The copy is cheap for most inputs: a roll, a draw, a re-roll or a "done" changes no per-seat
list or dict in place, so ``apply`` shares them with the input state (:meth:`State.share`) and
:func:`run` copies them (:meth:`State.own`) only before the first step that may change them.

A turn is one ``("turn", i)`` frame that runs the phases of ``TURN_PHASES`` from phase ``i``
(start, roll, final_roll, resolve, smash, yields, buy, after_buy, end_turn, next_turn). A phase
that pushes frames (a decision, a random event, damage) suspends the turn: ``("turn", i + 1)``
goes beneath what it pushed. Smashes push a damage resolution (``hit`` frames then ``deaths``)
and the yields push one decision per smashed monster in Tokyo. Cards add frames through hooks;
this module never names a card. Where several cards open a window (``after_roll``,
``change_die``, ``revealed``, ``after_buy``), identical frames open it once: a card and its copy
share one window.

Heart dice become a ``hearts`` decision when there is a choice (Poison/Shrink tokens to remove
outside Tokyo, cards with ``heart_actions``); otherwise they heal at once. After the yield
decisions, ``after_yields`` runs what waited for them (damage a monster took only by staying,
damage to the monster taking a yielded place).

Shortcuts (``SHORTCUTS``) take the most frequent paths without the generic machinery: the
dice-rolling cycle, and smashes nobody can react to, which land without ``hit`` frames. Each
produces exactly the state the generic path would; a test plays games both ways.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter

from kotp2p.rules.actions import (
    DONE,
    STAY,
    STOP,
    SWEEP,
    YIELD,
    Action,
    Buy,
    Done,
    RandomResult,
    Reroll,
    Stay,
    Stop,
    Sweep,
    UseCard,
    Yield,
)
from kotp2p.rules.dice import (
    BASE_DICE,
    BASE_ROLLS,
    ENERGY,
    HEART,
    MAX_DICE,
    SMASH,
    count_faces,
    number_stars,
)
from kotp2p.rules.effects import (
    bit,
    card_cost,
    close_bay_if_needed,
    damage_order,
    deal_damage,
    discard_card,
    eliminate,
    end_game,
    enter_tokyo,
    gain_energy,
    gain_stars,
    heal,
    is_discard_card,
    leave_tokyo,
    remove_card,
    set_hand,
    set_turn_flag,
    turn_flag,
)
from kotp2p.rules.errors import IllegalAction
from kotp2p.rules.game import MAX_PLAYERS
from kotp2p.rules.registry import (
    CARDS,
    DECISIONS,
    HOOK_ORDER,
    RANDOMS,
    STEPS,
    TOKEN_CARDS,
    anyone_has,
    copied,
    decision,
    fire,
    has_hook,
    hook_sum,
    hooked,
    random_event,
    seats_from,
    step,
    use_hook,
)
from kotp2p.rules.state import BAY, CITY, HIDDEN, NOBODY, Decision, Frame, RandomRequest, State

MARKET_SLOTS = 3
SWEEP_COST = 2

# ---------------------------------------------------------------------------------------------
# The run loop


_DECISIONS_MADE: dict[tuple[int, str], Decision] = {}


def _decision(seat: int, kind: str) -> Decision:
    d = _DECISIONS_MADE.get((seat, kind))
    if d is None:
        d = _DECISIONS_MADE[seat, kind] = Decision(seat, kind)
    return d


_new_request = tuple.__new__  # RandomRequest without its Python-level constructor


def run(s: State, owned: bool = True) -> None:
    """Run frames until one blocks (sets ``s.pending``) or the game ends.

    ``owned=False``: ``s`` still shares its lists and dicts with another state
    (:meth:`State.share`); they are copied before the first step that may change them.
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
            if len(legal) > 1:
                s.pending = _decision(seat, frame[2])
                s.legal = legal
                return
            stack.pop()
            if legal:
                if not owned:
                    s.own()
                    owned = True
                kind.handle(s, frame, legal[0])
        elif op == "rand":
            rk = RANDOMS[frame[1]]
            bounds = rk.bounds(s, frame)
            if bounds:
                owner = -1 if rk.private is None else rk.private(s, frame)
                s.pending = _new_request(RandomRequest, (bounds, s.k + 1, owner))
                return
            stack.pop()
        else:
            if not owned:
                s.own()
                owned = True
            stack.pop()
            if op == "turn":  # the most frequent step, called without a lookup
                _turn(s, frame)
            else:
                STEPS[op](s, frame)
        if s.over:
            return
    s.pending = None


def apply(state: State, action: Action) -> State:
    """The state after ``action``; ``state`` is left unchanged.

    :raises IllegalAction: if ``action`` is not legal for what is pending, saying what was.
    """
    pending = state.pending
    if SHORTCUTS:
        if type(action) is RandomResult and type(pending) is RandomRequest:
            frame = state.stack[-1]
            values = action.values
            if frame[1] == "roll" and _values_fit(values, pending.bounds):
                s = state.share()
                s.stack.pop()
                s.k += 1
                _roll(s, frame, values)
                if not _after_roll(s):
                    s.pending = None
                    run(s, False)
                return s
        elif type(action) is Reroll and type(pending) is Decision and pending.kind == "roll":
            s = state.share()
            if _reroll(s, action):
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
        values = action.values
        bounds = pending.bounds
        if pending.private_to >= 0 and values and set(values) == {HIDDEN}:
            if len(values) != len(bounds):
                raise IllegalAction(f"expected {len(bounds)} hidden values, found {len(values)}")
        elif not _values_fit(values, bounds):
            raise IllegalAction(
                f"expected {len(bounds)} random values 0 <= v < bound for bounds "
                f"{list(bounds)}, found {list(values)!r}"
            )
        rk = RANDOMS[frame[1]]
        owned = not rk.light
        s = state.copy() if owned else state.share()
        s.stack.pop()
        s.k += 1
        rk.handle(s, frame, values)
    else:
        kind = DECISIONS[pending.kind]
        if kind.check is not None:
            ok = kind.check(state, frame, action)
        else:
            try:
                # Field-less actions are empty tuples that compare equal (Pass() == Done()):
                # the legal action must also have the same type.
                ok = action in state.legal and any(
                    type(a) is type(action) for a in state.legal if a == action
                )
            except TypeError:  # an unhashable or foreign object
                ok = False
        if not ok:
            raise IllegalAction(_why_illegal(state, pending, action))
        owned = type(action) not in kind.light
        s = state.copy() if owned else state.share()
        s.stack.pop()
        kind.handle(s, frame, action)
    s.pending = None
    run(s, owned)
    return s


# Shortcuts: the dice-rolling cycle (a roll, then the decision to re-roll) is most of the
# inputs of a game. For it, ``apply`` sets the next pending input directly, exactly as ``run``
# would find it. Tests turn SHORTCUTS off and check that every state stays the same.
SHORTCUTS = True


def _after_roll(s: State) -> bool:
    """After a roll, if the roll decision beneath has only the base choices: with rolls left,
    make it pending and return True; with none left, drop it (stopping, its one choice, does
    nothing) and return False, as for any other case the generic path handles."""
    below = s.stack[-1]
    if below[0] != "ask" or below[2] != "roll":
        return False
    seat = below[1]
    if not s.alive[seat] or (s.cards[seat] and has_hook(s, seat, "roll_actions")):
        return False
    if s.rolls_left <= 0:
        s.stack.pop()
        return False
    legal = _REROLLS_AND_STOP[len(s.dice)]
    if len(legal) < 2:
        return False
    s.pending = _decision(seat, "roll")
    s.legal = legal
    return True


def _reroll(s: State, action: Reroll) -> bool:
    """A re-roll on a shared copy: if it is legal, push the roll and make it pending; else
    return False (``s`` untouched) and let the generic path run (or explain)."""
    try:
        mask = _REROLL_MASKS[len(s.dice)].get(action.dice)
    except TypeError:  # unhashable junk inside the action
        return False
    if mask is None or s.rolls_left <= 0 or not s.alive[s.active]:
        return False
    s.rolls_left -= 1
    s.stack.append(_ROLL_FRAMES[mask])
    s.pending = _new_request(RandomRequest, (_MASK_BOUNDS[mask], s.k + 1, -1))
    return True


_SIX = frozenset(range(6))


def _values_fit(values: tuple[int, ...], bounds: tuple[int, ...]) -> bool:
    """True if ``values`` answer ``bounds``: ``0 <= v < bound`` each (ints, as decoded by
    ``action_from_wire``; a float or bool here is the caller's bug)."""
    n = len(bounds)
    if len(values) != n:
        return False
    if n <= MAX_DICE and bounds is _BOUNDS[n]:  # dice
        return _SIX.issuperset(values)
    if n == 1:  # a draw
        v = values[0]
        return type(v) is int and 0 <= v < bounds[0]
    return all(type(v) is int and 0 <= v < b for v, b in zip(values, bounds, strict=False))


def _why_illegal(state: State, pending: Decision, action: object) -> str:
    legal = DECISIONS[pending.kind].legal(state, state.stack[-1])
    names = sorted({type(a).__name__ for a in legal})
    return (
        f"{action!r} is not legal: seat {pending.seat} ({state.monsters[pending.seat]}) must "
        f"make a {pending.kind!r} decision, one of {len(legal)} actions ({', '.join(names)})"
    )


def open_slot(state: State, slot: int, value: int) -> State:
    """The state once hidden ``slot`` holds ``value`` on this replica too (its owner opened it;
    the network layer checks the opening against its commitment first).

    :raises IllegalAction: if there is no such hidden slot or ``value`` is negative.
    """
    if type(slot) is not int or state.slots.get(slot, 0) != HIDDEN:
        raise IllegalAction(f"expected the number of a hidden slot, found {slot!r}")
    if type(value) is not int or value < 0:
        raise IllegalAction(f"expected a non-negative value to open slot {slot}, found {value!r}")
    s = state.copy()
    s.slots[slot] = value
    return s


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every legal action for the pending decision; empty for a random event or a finished game
    (a random event is answered with ``RandomResult``)."""
    if type(state.pending) is Decision:
        return state.legal
    return ()


def eject(state: State, seat: int) -> State:
    """The state after the absent ``seat`` is eliminated by its opponents' unanimous consent.

    :raises IllegalAction: if the game is over or the seat is not a live seat.
    """
    if state.over:
        raise IllegalAction("the game is over: nobody can be ejected")
    if type(seat) is not int or not 0 <= seat < state.n or not state.alive[seat]:
        raise IllegalAction(f"expected a live seat to eject, found {seat!r}")
    s = state.copy()
    s.hp[seat] = 0
    s.stack.append(("deaths",))
    s.pending = None
    run(s)
    return s


# ---------------------------------------------------------------------------------------------
# Start of game: roll-off, then the market


@step("start")
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
    if len(tied) == 1:
        s.active = tied[0]
        s.rotation = tied[0]
    else:
        s.stack.append(("rand", "rolloff", sum(bit(t) for t in tied)))


random_event("rolloff", _rolloff_bounds, _rolloff)


@step("first_turn")
def _first_turn(s: State, frame: Frame) -> None:
    begin_turn(s, s.active)


# ---------------------------------------------------------------------------------------------
# Turns


def begin_turn(s: State, seat: int) -> None:
    """``seat``'s turn begins: per-turn flags are cleared and the turn's phases pushed."""
    s.active = seat
    s.turn += 1
    flags = s.flags
    if flags:
        for key in [k for k in flags if k[:2] == "t."]:
            del flags[key]
    s.dice = ()
    s.rolls_left = 0
    s.stack.append(_RESUME[0])


@step("turn")
def _turn(s: State, frame: Frame) -> None:
    """Run the turn's phases in order from ``frame[1]``. A phase that pushes frames (a decision,
    a random event, damage) suspends the sequence: ``("turn", next)`` goes beneath them."""
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
            gain_energy(s, seat, 1)
        else:
            gain_stars(s, seat, 2)
    if s.cards[seat]:
        fire(s, seat, "start_turn")


def dice_count(s: State, seat: int) -> int:
    """How many dice ``seat`` rolls this turn: 6 + extra dice - shrink tokens, within 0..8."""
    n = BASE_DICE - s.shrink[seat]
    if s.cards[seat]:
        n += hook_sum(s, seat, "dice_count")
    if s.flags:
        n -= turn_flag(s, "fewer_dice")
    return max(0, min(MAX_DICE, n))


def _roll_start(s: State) -> None:
    seat = s.active
    if not s.alive[seat]:
        return
    nd = dice_count(s, seat)
    s.rolls_left = BASE_ROLLS - 1
    if s.cards[seat]:
        s.rolls_left += hook_sum(s, seat, "roll_count")
    s.dice = ()  # nothing rolled yet; the first roll sets all nd dice
    s.stack.append(_ASK_ROLL[seat])
    s.stack.append(_ROLL_FRAMES[(1 << nd) - 1])


def _roll_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    if not s.alive[s.active]:
        return ()
    n: int = frame[2].bit_count()
    return _BOUNDS[n]


_BOUNDS = [(6,) * i for i in range(MAX_DICE + 1)]
_ROLL_FRAMES = [("rand", "roll", mask) for mask in range(1 << MAX_DICE)]
_MASK_BOUNDS = [_BOUNDS[mask.bit_count()] for mask in range(1 << MAX_DICE)]


def _picker(n: int, mask: int) -> Callable[[tuple[int, ...]], tuple[int, ...]]:
    """For ``n`` dice of which ``mask`` were re-rolled: picks the new dice out of
    ``old dice + new values`` (each re-rolled die takes the next new value)."""
    picks, fresh = [], n
    for i in range(n):
        if mask >> i & 1:
            picks.append(fresh)
            fresh += 1
        else:
            picks.append(i)
    return itemgetter(*picks)


# _PICKERS[n][mask], for the masks that re-roll some but not all of n >= 2 dice
_PICKERS = [[_picker(n, m) for m in range(1 << n)] if n >= 2 else [] for n in range(MAX_DICE + 1)]


def _roll(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    mask = frame[2]
    dice = s.dice
    n = len(dice)
    if not dice or mask == (1 << n) - 1:
        s.dice = values
    else:
        s.dice = _PICKERS[n][mask](dice + values)


random_event("roll", _roll_bounds, _roll, light=True)


def _subsets(n: int) -> tuple[Reroll, ...]:
    return tuple(
        Reroll(tuple(i for i in range(n) if m >> i & 1)) for m in range(1, 1 << n)
    )


_REROLLS = [_subsets(n) for n in range(MAX_DICE + 1)]
_REROLLS_AND_STOP: list[tuple[Action, ...]] = [(*r, STOP) for r in _REROLLS]
_JUST_STOP: tuple[Action, ...] = (STOP,)
# For each number of dice: the legal index tuples of a re-roll and the bitmask each stands for.
_REROLL_MASKS: list[dict[tuple[int, ...], int]] = [
    {r.dice: sum(1 << i for i in r.dice) for r in rs} for rs in _REROLLS
]


def card_actions(s: State, seat: int, hook: str) -> tuple[Action, ...]:
    """The extra actions ``seat``'s cards offer in a decision (hook ``roll_actions``...)."""
    if not s.cards[seat] or not has_hook(s, seat, hook):
        return ()
    out: list[Action] = []
    for c, fn in hooked(s, seat, hook):
        out.extend(fn(s, seat, c))
    return tuple(out)


def _roll_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    seat = frame[1]
    base = _REROLLS_AND_STOP[len(s.dice)] if s.rolls_left > 0 else _JUST_STOP
    if s.cards[seat] and has_hook(s, seat, "roll_actions"):
        extra = card_actions(s, seat, "roll_actions")
        if extra:
            return base + extra
    return base


def _roll_check(s: State, frame: Frame, action: Action) -> bool:
    t = type(action)
    if t is Stop:
        return True
    if type(action) is Reroll:
        try:
            return s.rolls_left > 0 and action.dice in _REROLL_MASKS[len(s.dice)]
        except TypeError:  # unhashable junk inside the action
            return False
    seat = frame[1]
    return action in card_actions(s, seat, "roll_actions")


def use_card(s: State, frame: Frame, action: UseCard) -> None:
    """Run the ``use`` hook of the card named by a ``UseCard`` action."""
    seat = frame[1]
    use_hook(s, action.card)(s, seat, action.card, frame, action)


def _roll_handle(s: State, frame: Frame, action: Action) -> None:
    if type(action) is Reroll:
        s.rolls_left -= 1
        s.stack.append(frame)
        s.stack.append(_ROLL_FRAMES[_REROLL_MASKS[len(s.dice)][action.dice]])
    elif isinstance(action, UseCard):
        use_card(s, frame, action)


decision("roll", _roll_legal, _roll_handle, _roll_check, light=(Reroll, Stop))


def _final_roll(s: State) -> None:
    """After the final roll: windows for other monsters (clockwise from the active one), then
    the active monster's change-die window. Cards supply both through hooks."""
    active = s.active
    if not s.alive[active] or not (
        (s.cards[active] and has_hook(s, active, "change_die")) or anyone_has(s, "after_roll")
    ):
        return
    frames: list[Frame] = []
    for seat in seats_from(s, (active + 1) % s.n):
        if seat == active:
            continue
        for c, fn in hooked(s, seat, "after_roll"):
            f = fn(s, seat, c)
            if f is not None and f not in frames:
                frames.append(f)
    for c, fn in hooked(s, active, "change_die"):
        f = fn(s, active, c)
        if f is not None and f not in frames:
            frames.append(f)
    s.stack.extend(reversed(frames))


# ---------------------------------------------------------------------------------------------
# Resolving the dice


def smash_count(s: State, counts: list[int]) -> int:
    """Smashes of the active monster's resolved roll: dice, then cards that add smashes.

    Stage 0 adds smashes that count as rolled (three 2s...), stage 1 those that need "at least
    one smash" so far, stage 2 the rest (they never enable stage 1).
    """
    seat = s.active
    smashes = counts[SMASH]
    if has_hook(s, seat, "add_smashes"):
        for stage in (0, 1, 2):
            smashes += hook_sum(s, seat, "add_smashes", counts, stage, smashes)
    return smashes


def _resolve(s: State) -> None:
    """Dice patterns (``resolve`` hooks), then the number faces (``numbers`` hooks after them;
    neither kind of hook pushes frames), then the heart faces."""
    seat = s.active
    if not s.alive[seat]:
        return
    dice = s.dice
    cards = s.cards[seat]
    if cards and has_hook(s, seat, "resolve"):
        counts = count_faces(dice)
        fire(s, seat, "resolve", counts, smash_count(s, counts))
    ones, twos, threes = dice.count(0), dice.count(1), dice.count(2)
    if ones >= 3 or twos >= 3 or threes >= 3:
        gain_stars(s, seat, number_stars([ones, twos, threes]))
    if cards and has_hook(s, seat, "numbers"):
        fire(s, seat, "numbers", count_faces(dice))
    _res_hearts(s)  # last: it may push the hearts decision


def _res_hearts(s: State) -> None:
    seat = s.active
    hearts = s.dice.count(HEART)
    if not hearts or not s.alive[seat]:
        return
    outside = seat != s.city and seat != s.bay
    if (outside and (s.poison[seat] or s.shrink[seat])) or (
        s.cards[seat] and has_hook(s, seat, "heart_actions")
    ):
        s.stack.append(("ask", seat, "hearts", hearts))
    elif outside:
        heal(s, seat, hearts)


def _token_actions(s: State, seat: int, hearts: int) -> list[Action]:
    out: list[Action] = []
    if s.in_tokyo(seat):
        return out
    for kind, have in (("poison", s.poison[seat]), ("shrink", s.shrink[seat])):
        card = TOKEN_CARDS.get(kind)
        if card is not None:
            out.extend(UseCard(card, (n,)) for n in range(1, min(hearts, have) + 1))
    return out


def _hearts_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    """Heart dice: remove Poison/Shrink tokens (outside Tokyo; ``UseCard(card, (n,))`` with the
    card whose name the tokens bear), spend them through cards (``heart_actions``), or Done: the
    rest heal the monster (outside Tokyo)."""
    _, seat, _, hearts = frame
    out = _token_actions(s, seat, hearts)
    for c, fn in hooked(s, seat, "heart_actions"):
        out.extend(fn(s, seat, c, hearts))
    out.append(DONE)
    return tuple(out)


def _hearts_handle(s: State, frame: Frame, action: Action) -> None:
    _, seat, _, hearts = frame
    if isinstance(action, UseCard):
        poison, shrink = TOKEN_CARDS.get("poison"), TOKEN_CARDS.get("shrink")
        if action.card == poison or action.card == shrink:
            n = action.args[0]
            if action.card == poison:
                s.poison[seat] -= n
            else:
                s.shrink[seat] -= n
            if hearts > n:
                s.stack.append(("ask", seat, "hearts", hearts - n))
        else:
            use_card(s, frame, action)
    elif not s.in_tokyo(seat):
        heal(s, seat, hearts)


decision("hearts", _hearts_legal, _hearts_handle)


def smash_targets(s: State, seat: int) -> list[int]:
    """Whom ``seat``'s smashes hit: from Tokyo everybody outside, from outside everybody in
    Tokyo (cards can widen this to every other monster)."""
    alive = s.alive
    if s.cards[seat] and has_hook(s, seat, "smash_targets"):
        return [t for t in range(s.n) if t != seat and alive[t]]
    city, bay = s.city, s.bay
    if seat in (city, bay):
        return [t for t in range(s.n) if alive[t] and t != city and t != bay]
    return [t for t in (city, bay) if t != NOBODY and alive[t]]


def _res_smash(s: State) -> None:
    """Energy faces (no hook of theirs pushes frames), then the smashes."""
    seat = s.active
    if not s.alive[seat]:
        return
    dice = s.dice
    energy = dice.count(ENERGY)
    if energy:
        gain_energy(s, seat, energy)
    if s.cards[seat] and has_hook(s, seat, "add_smashes"):
        smashes = smash_count(s, count_faces(dice))
    else:
        smashes = dice.count(SMASH)
    if smashes <= 0:
        return
    hits = dict.fromkeys(smash_targets(s, seat), smashes)
    extra: dict[int, int] = {}
    if s.cards[seat]:
        fire(s, seat, "smash", smashes, hits, extra)
    if SHORTCUTS and not extra and _land_at_once(s, seat, hits):
        return
    deal_damage(s, seat, hits, smash=True, plain=extra)


def _land_at_once(s: State, dealer: int, hits: dict[int, int]) -> bool:
    """A shortcut for smashes nobody can react to (no target has a card, nobody has an after-hit
    effect): the hits land now, as their ``hit`` frames would, and only a ``deaths`` frame is
    pushed, if somebody dropped to 0. False if the frames must be pushed."""
    cards = s.cards
    order = damage_order(s, dealer, hits)
    for t in order:
        if cards[t]:
            return False
    if anyone_has(s, "after_hit"):
        return False
    for t in order:
        _lose_health(s, t, hits[t], dealer, True)  # what apply_hit does without cards
    hp = s.hp
    for t in order:
        if hp[t] <= 0:
            s.stack.append(_DEATHS)
            break
    return True


_DEATHS = ("deaths",)


@step("hit")
def _hit(s: State, frame: Frame) -> None:
    """One hit on one target: reaction windows first (stage by stage), then protection, then
    the loss of health and the after-hit effects."""
    _, target, amount, dealer, smash, stage = frame
    if not s.alive[target] or amount <= 0:
        return
    if s.cards[target] and has_hook(s, target, "hit_window"):
        windows = [(c, fn) for c, fn in hooked(s, target, "hit_window")]
        for i in range(stage, len(windows)):
            c, fn = windows[i]
            if fn(s, target, c, ("hit", target, amount, dealer, smash, i + 1)):
                return
    apply_hit(s, target, amount, dealer, bool(smash))


def apply_hit(s: State, target: int, amount: int, dealer: int, smash: bool) -> None:
    """Protection, then the loss itself, the record for yields, and after-hit effects."""
    if s.cards[target] and has_hook(s, target, "protect"):
        for c, fn in list(hooked(s, target, "protect")):
            amount = fn(s, target, c, amount, dealer, smash)
            if amount <= 0:
                return
    lost = _lose_health(s, target, amount, dealer, smash)
    if lost <= 0:
        return
    if anyone_has(s, "after_hit"):
        for seat in seats_from(s, s.active):
            fire(s, seat, "after_hit", target, lost, dealer, smash)
    if s.hp[target] == 0 and s.cards[target] and has_hook(s, target, "dying"):
        for c, fn in list(hooked(s, target, "dying")):
            if fn(s, target, c):
                break


def _lose_health(s: State, target: int, amount: int, dealer: int, smash: bool) -> int:
    """The loss of health itself, recorded for the yield decisions; returns what was lost."""
    lost = min(amount, s.hp[target])
    if lost > 0:
        s.hp[target] -= lost
        flags = s.flags
        if dealer >= 0:
            flags["t.dealt"] = flags.get("t.dealt", 0) | 1 << dealer
        if smash and (target == s.city or target == s.bay):
            flags["t.smashed"] = flags.get("t.smashed", 0) | 1 << target
    return lost


@step("deaths")
def _deaths(s: State, frame: Frame) -> None:
    """Eliminate every live monster at 0♥ (one shared rank), close the Bay, end a game with one
    monster or none left."""
    dying = [seat for seat in seats_from(s, s.active) if s.hp[seat] <= 0]
    if not dying:
        return
    batch = max(s.elim) + 1
    for seat in dying:
        eliminate(s, seat, batch)
    close_bay_if_needed(s)
    if s.alive_count() <= 1:
        end_game(s, tuple(seat for seat in range(s.n) if s.alive[seat]))


def _yields(s: State) -> None:
    smashed = s.flags.pop("t.smashed", 0)
    if not smashed:
        return
    if anyone_has(s, "after_yields"):
        s.stack.append(("after_yields",))
    city, bay = s.city, s.bay
    asks = [
        _ASK_YIELD[seat]
        for seat in seats_from(s, s.active)
        if smashed >> seat & 1 and seat in (city, bay)
    ]
    s.stack.extend(reversed(asks))


_ASK_YIELD = tuple(("ask", seat, "yield") for seat in range(MAX_PLAYERS))
_ASK_BUY = tuple(("ask", seat, "buy") for seat in range(MAX_PLAYERS))
_ASK_ROLL = tuple(("ask", seat, "roll") for seat in range(MAX_PLAYERS))


_YIELD_CHOICES = (YIELD, STAY)


def _yield_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    seat = frame[1]
    return _YIELD_CHOICES if s.in_tokyo(seat) else ()


def _yield_check(s: State, frame: Frame, action: Action) -> bool:
    t = type(action)
    return t is Yield or t is Stay


def _yield_handle(s: State, frame: Frame, action: Action) -> None:
    seat = frame[1]
    if type(action) is Yield:
        leave_tokyo(s, seat)
        set_turn_flag(s, "yielded", turn_flag(s, "yielded") | bit(seat))
        fire(s, seat, "yielded")


decision("yield", _yield_legal, _yield_handle, _yield_check, light=(Stay,))


@step("after_yields")
def _after_yields(s: State, frame: Frame) -> None:
    """Effects that wait for every yield decision (damage held back until a monster stayed,
    damage to the monster about to take a yielded place): each live seat's ``after_yields``
    frames, clockwise from the active monster, grouped by the hook's fixed order."""
    order = HOOK_ORDER.get("after_yields", {})
    found: list[tuple[int, int, Frame]] = []
    for i, seat in enumerate(seats_from(s, s.active)):
        for c, fn in hooked(s, seat, "after_yields"):
            f = fn(s, seat, c)
            if f is not None:
                found.append((order.get(copied(s, c) or c, 1000), i, f))
    found.sort(key=lambda x: (x[0], x[1]))
    s.stack.extend(f for *_, f in reversed(found))


# ---------------------------------------------------------------------------------------------
# Buying


_BUY = {c: Buy(c) for c in CARDS}
_PRINTED_COST = {c: card.cost for c, card in CARDS.items()}


def _enter_and_buy(s: State) -> None:
    """Entering Tokyo (``entered`` hooks push no frames), then the buy decision."""
    seat = s.active
    if not s.alive[seat]:
        return
    if seat != s.city and seat != s.bay:
        if s.city == NOBODY:
            enter_tokyo(s, seat, CITY)
        elif s.bay == NOBODY and s.bay_in_use():
            enter_tokyo(s, seat, BAY)
    s.stack.append(_ASK_BUY[seat])


def _buy_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    seat = frame[1]
    energy = s.energy[seat]
    if s.cards[seat] and has_hook(s, seat, "cost"):
        out: list[Action] = [_BUY[c] for c in s.market if c and card_cost(s, seat, c) <= energy]
    else:
        out = []
        for c in s.market:
            if c and _PRINTED_COST[c] <= energy:
                out.append(_BUY[c])
    if energy >= SWEEP_COST:
        out.append(SWEEP)
    if s.cards[seat]:
        out.extend(card_actions(s, seat, "buy_actions"))
    out.append(DONE)
    return tuple(out)


def buy_card(s: State, seat: int, card: int, price: int) -> None:
    """``seat`` pays ``price`` and takes ``card`` out of the market; the slot is refilled, then
    the card's own effect runs, then others may react to the revealed card. The frames that
    follow the purchase are pushed above whatever is on the stack now."""
    s.energy[seat] -= price
    slot = s.market.index(card) if card in s.market else -1
    take_card(s, seat, card)
    push = s.stack.append
    if slot >= 0:
        market = list(s.market)
        market[slot] = 0
        s.market = tuple(market)
        push(("reveal_windows", 1 << slot))
    push(("bought", seat, card))
    if slot >= 0:
        push(("rand", "draw", slot))


def take_card(s: State, seat: int, card: int) -> None:
    """``card`` comes into ``seat``'s hands: buying bonuses, then the card is placed in front
    of its buyer (a Discard card only until its effect has run)."""
    fire(s, seat, "on_buy", card)
    set_hand(s, seat, (*s.cards[seat], card))
    gained = CARDS[card].hooks.get("gained")
    if gained is not None:
        gained(s, seat, card)


@step("bought")
def _bought(s: State, frame: Frame) -> None:
    _, seat, card = frame
    effect = CARDS[card].hooks.get("bought")
    if effect is not None:
        effect(s, seat, card)
    if is_discard_card(card) and card in s.cards[seat]:
        # Its effect is done (damage it queued resolves next): off to the discard pile.
        remove_card(s, seat, card)


def _buy_handle(s: State, frame: Frame, action: Action) -> None:
    seat = frame[1]
    t = type(action)
    if type(action) is Buy:
        s.stack.append(frame)
        buy_card(s, seat, action.card, card_cost(s, seat, action.card))
    elif t is Sweep:
        s.stack.append(frame)
        s.energy[seat] -= SWEEP_COST
        for c in s.market:
            if c:
                discard_card(s, c)
        s.market = (0,) * MARKET_SLOTS
        s.stack.append(("reveal_windows", (1 << MARKET_SLOTS) - 1))
        for slot in reversed(range(MARKET_SLOTS)):
            s.stack.append(("rand", "draw", slot))
    elif isinstance(action, UseCard):
        use_card(s, frame, action)


def _buy_check(s: State, frame: Frame, action: Action) -> bool:
    seat = frame[1]
    if isinstance(action, Buy):
        c = action.card
        return type(c) is int and c != 0 and c in s.market and card_cost(s, seat, c) <= s.energy[seat]
    t = type(action)
    if t is Done:
        return True
    if t is Sweep:
        return s.energy[seat] >= SWEEP_COST
    return action in card_actions(s, seat, "buy_actions")


decision("buy", _buy_legal, _buy_handle, _buy_check, light=(Done,))


def _draw_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    if not s.deck and s.discard:
        s.deck = tuple(sorted(s.discard))
        s.discard = ()
    return (len(s.deck),) if s.deck else ()


def _draw(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    slot = frame[2]
    deck = s.deck
    i = values[0]
    card = deck[i]
    s.deck = deck[:i] + deck[i + 1 :]
    market = list(s.market)
    market[slot] = card
    s.market = tuple(market)


random_event("draw", _draw_bounds, _draw, light=True)


@step("reveal_windows")
def _reveal_windows(s: State, frame: Frame) -> None:
    """Windows for the cards just revealed in the market (slots in a bitmask), for each seat
    clockwise from the active monster."""
    if not anyone_has(s, "revealed"):
        return
    mask = frame[1]
    frames: list[Frame] = []
    for slot in range(MARKET_SLOTS):
        card = s.market[slot]
        if not (mask >> slot & 1) or not card:
            continue
        for seat in seats_from(s, s.active):
            for c, fn in hooked(s, seat, "revealed"):
                f = fn(s, seat, c, card)
                if f is not None and f not in frames:
                    frames.append(f)
    s.stack.extend(reversed(frames))


def _after_buy(s: State) -> None:
    seat = s.active
    if not s.alive[seat] or not s.cards[seat] or not has_hook(s, seat, "after_buy"):
        return
    frames: list[Frame] = []
    for c, fn in hooked(s, seat, "after_buy"):
        f = fn(s, seat, c)
        if f is not None and f not in frames:
            frames.append(f)
    s.stack.extend(reversed(frames))


# ---------------------------------------------------------------------------------------------
# End of turn


def _end_turn(s: State) -> None:
    seat = s.active
    if not s.alive[seat]:
        return
    if s.cards[seat]:
        fire(s, seat, "end_turn")
    poison = s.poison[seat]
    if poison > 0 and s.alive[seat]:
        deal_damage(s, -1, {seat: poison})


def _next_turn(s: State) -> None:
    alive = s.alive
    if max(s.stars) >= 20:
        champions = tuple(t for t in range(s.n) if alive[t] and s.stars[t] >= 20)
        if champions:
            end_game(s, champions)
            return
    active = s.active
    if alive[active] and s.cards[active] and has_hook(s, active, "extra_turn"):
        for c, fn in list(hooked(s, active, "extra_turn")):
            if fn(s, active, c):
                begin_turn(s, active)
                return
    while s.extra:
        extra, s.extra = s.extra[0], s.extra[1:]
        if alive[extra]:
            begin_turn(s, extra)
            return
    nxt = (s.rotation + 1) % s.n
    while not alive[nxt]:
        nxt = (nxt + 1) % s.n
    s.rotation = nxt
    begin_turn(s, nxt)


# ---------------------------------------------------------------------------------------------
# The phases of a turn, in order (the ``turn`` frame runs them; see ``_turn``)

TURN_PHASES: tuple[tuple[str, Callable[[State], None]], ...] = (
    ("start", _start_effects),
    ("roll", _roll_start),
    ("final_roll", _final_roll),
    ("resolve", _resolve),
    ("smash", _res_smash),
    ("yields", _yields),
    ("buy", _enter_and_buy),
    ("after_buy", _after_buy),
    ("end_turn", _end_turn),
    ("next_turn", _next_turn),
)
_PHASE_FNS = tuple(fn for _, fn in TURN_PHASES)
_RESUME = tuple(("turn", i) for i in range(len(TURN_PHASES)))
PHASE_INDEX = {name: i for i, (name, _) in enumerate(TURN_PHASES)}


# ---------------------------------------------------------------------------------------------
# Results


def ranking(state: State) -> tuple[tuple[int, ...], ...]:
    """Seats grouped by final rank, best first: winners, then survivors by stars, then the
    eliminated, later eliminations ranking higher (one resolution shares a rank)."""
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
