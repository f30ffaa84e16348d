"""The dice: the roll phase, the windows after the final roll, and resolving the dice.

The roll phase holds the rolls, the re-rolls and the roll decision. Resolving takes the number
faces, then the heart faces. Smashes are in ``tokyo``.

A roll is a ``("rand", "roll", mask)`` frame. ``mask`` says which dice get new values. For the
first roll, that is all of them. The roll decision beneath it offers every non-empty subset of dice
to re-roll while rolls are left, and Stop. :func:`roll_shortcut` and :func:`reroll_shortcut` let
``apply`` take the dice-rolling cycle without the generic machinery. ``machine`` describes the
shortcuts.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter

from kotp2p.rules.actions import DONE, STOP, Action, Reroll, Stop, UseCard
from kotp2p.rules.basics import MAX_PLAYERS, POWER_UP_FLAG, Frame
from kotp2p.rules.dice import BASE_DICE, BASE_ROLLS, MAX_DICE, SMASH, count_faces, number_stars
from kotp2p.rules.effects import (
    add_tokens,
    card_actions,
    doubled,
    gain_stars,
    heal,
    hearts_rolled,
    turn_flag,
    use_card,
)
from kotp2p.rules.events import WHY_DICE, AutoDecision, DiceKept, DiceRolled
from kotp2p.rules.powerup import (
    RESOLVE,
    fewer_dice,
    first_roll,
    held_dice,
    open_window,
    snowed_in,
    thaw,
)
from kotp2p.rules.registry import (
    TOKEN_CARDS,
    DecisionKind,
    Frames,
    RandomKind,
    anyone_has,
    fire,
    has_hook,
    hook_sum,
    hooked,
    seats_from,
)
from kotp2p.rules.state import REROLL, ROLL, RandomRequest, State, decision_for

new_request = tuple.__new__  # makes a RandomRequest without its Python-level constructor
ASK_ROLL = tuple(("ask", seat, "roll") for seat in range(MAX_PLAYERS))


def dice_count(s: State, seat: int) -> int:
    """How many dice ``seat`` rolls this turn: 6 + extra dice - shrink tokens, within 0..MAX_DICE.

    MAX_DICE is 9. No base card combination rolls more."""
    n = BASE_DICE - s.shrink[seat]
    if s.cards[seat]:
        n += hook_sum(s, seat, "dice_count")
    if s.flags:
        n -= turn_flag(s, "fewer_dice")
        if POWER_UP_FLAG in s.flags:
            n -= fewer_dice(s, seat)
    return max(0, min(MAX_DICE, n))


def roll_start(s: State) -> None:
    """The roll phase begins: the number of rolls, the roll decision, and the first roll."""
    seat = s.active
    if not s.alive[seat]:
        return
    nd = dice_count(s, seat)
    s.rolls_left = BASE_ROLLS - 1
    if s.cards[seat]:
        s.rolls_left += hook_sum(s, seat, "roll_count")
    if s.flags and POWER_UP_FLAG in s.flags and (snowed_in(s, seat) or doubled(s, seat) > 1):
        s.rolls_left = 0
    s.dice = ()  # nothing rolled yet; the first roll sets all nd dice
    s.stack.append(ASK_ROLL[seat])
    if s.flags and POWER_UP_FLAG in s.flags:
        s.stack.append(ROLL_FRAMES[first_roll(s, nd)])  # but a die Encased in Ice
    else:
        s.stack.append(ROLL_FRAMES[(1 << nd) - 1])
    if s.flags and POWER_UP_FLAG in s.flags and s.cards[seat] and has_hook(s, seat, "before_roll"):
        s.stack.append(("ask", seat, "prepare"))  # a card's choice before the first roll


def _roll_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    if not s.alive[s.active]:
        return ()
    n: int = frame[2].bit_count()
    return DICE_BOUNDS[n]


DICE_BOUNDS = [(6,) * i for i in range(MAX_DICE + 1)]
ROLL_FRAMES = [("rand", "roll", mask) for mask in range(1 << MAX_DICE)]
MASK_BOUNDS = [DICE_BOUNDS[mask.bit_count()] for mask in range(1 << MAX_DICE)]


def _picker(n: int, mask: int) -> Callable[[tuple[int, ...]], tuple[int, ...]]:
    """For ``n`` dice of which ``mask`` were re-rolled: picks the new dice out of
    ``old dice + new values``.

    Each re-rolled die takes the next new value."""
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


def roll_dice(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    """A roll's outcome: the dice of ``frame``'s mask take the new values, in order."""
    mask = frame[2]
    dice = s.dice
    n = len(dice)
    if not dice or mask == (1 << n) - 1:
        s.dice = values
    else:
        s.dice = _PICKERS[n][mask](dice + values)
    if s.sink is not None:
        rolled = tuple(range(len(values))) if not dice else tuple(i for i in range(n) if mask >> i & 1)
        s.sink.append(DiceRolled(s.active, s.dice, rolled))


def _subsets(n: int) -> tuple[Reroll, ...]:
    return tuple(
        Reroll(tuple(i for i in range(n) if m >> i & 1)) for m in range(1, 1 << n)
    )


_REROLLS = [_subsets(n) for n in range(MAX_DICE + 1)]
REROLLS_AND_STOP: list[tuple[Action, ...]] = [(*r, STOP) for r in _REROLLS]
_JUST_STOP: tuple[Action, ...] = (STOP,)
# For each number of dice: the legal index tuples of a re-roll and the bitmask each stands for.
REROLL_MASKS: list[dict[tuple[int, ...], int]] = [
    {r.dice: sum(1 << i for i in r.dice) for r in rs} for rs in _REROLLS
]


def _roll_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    seat = frame[1]
    base = REROLLS_AND_STOP[len(s.dice)] if s.rolls_left > 0 else _JUST_STOP
    if s.flags and POWER_UP_FLAG in s.flags:
        held = held_dice(s)
        if held:  # the die Encased in Ice holds, or a ✸ of a monster without its Beauty
            base = tuple(a for a in base if type(a) is not Reroll or held_out(held, a.dice))
    if s.cards[seat] and has_hook(s, seat, "roll_actions"):
        extra = card_actions(s, seat, "roll_actions")
        if extra:
            return base + extra
    return base


def held_out(held: tuple[int, ...], dice: tuple[int, ...]) -> bool:
    """True when a reroll of ``dice`` leaves every die of ``held`` alone."""
    return not any(i in dice for i in held)


def _roll_check(s: State, frame: Frame, action: Action) -> bool:
    t = type(action)
    if t is Stop:
        return True
    if type(action) is Reroll:
        try:
            return (s.rolls_left > 0 and action.dice in REROLL_MASKS[len(s.dice)]
                    and not (s.flags and not held_out(held_dice(s), action.dice)))
        except TypeError:  # unhashable junk inside the action
            return False
    seat = frame[1]
    return action in card_actions(s, seat, "roll_actions")


def _roll_handle(s: State, frame: Frame, action: Action) -> None:
    if type(action) is Reroll:
        s.rolls_left -= 1
        s.stack.append(frame)
        s.stack.append(ROLL_FRAMES[REROLL_MASKS[len(s.dice)][action.dice]])
    elif isinstance(action, UseCard):
        use_card(s, frame, action)


def final_roll(s: State) -> None:
    """After the final roll: windows for other monsters, then the active monster's change-die
    window.

    The other monsters go clockwise from the active one. Cards supply both kinds of window through
    hooks."""
    active = s.active
    if s.sink is not None and s.alive[active]:
        s.sink.append(DiceKept(active, s.dice))
    if s.flags and POWER_UP_FLAG in s.flags and s.alive[active]:
        open_window(s, RESOLVE)  # beneath the windows to change dice: it comes after them
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

    Cheers from Halloween's Cheerleader count as rolled. Stage 0 adds smashes that count as
    rolled too, such as for three 2s. Stage 1 adds those that need "at least one smash" so far.
    Stage 2 adds the rest. They never enable stage 1.
    """
    seat = s.active
    smashes = counts[SMASH]
    if s.flags:
        smashes += turn_flag(s, "cheers")
    if has_hook(s, seat, "add_smashes"):
        for stage in (0, 1, 2):
            smashes += hook_sum(s, seat, "add_smashes", counts, stage, smashes)
    return smashes


def resolve(s: State) -> None:
    """Dice patterns, then the number faces, then the heart faces.

    Patterns run the ``resolve`` hooks. The number faces score, then the ``numbers`` hooks run. A
    hit either kind deals lands after the heart faces, whose decision, if any, is pushed last."""
    seat = s.active
    if not s.alive[seat]:
        return
    if s.flags and POWER_UP_FLAG in s.flags:
        thaw(s)
    dice = s.dice
    cards = s.cards[seat]
    if cards and has_hook(s, seat, "resolve"):
        counts = count_faces(dice)
        fire(s, seat, "resolve", counts, smash_count(s, counts))
    ones, twos, threes = dice.count(0), dice.count(1), dice.count(2)
    if ones >= 3 or twos >= 3 or threes >= 3:
        gain_stars(s, seat, number_stars([ones, twos, threes]) * doubled(s, seat), why=WHY_DICE)
    if cards and has_hook(s, seat, "numbers"):
        fire(s, seat, "numbers", count_faces(dice))
        if s.over:  # a card's pattern won the game
            return
    _res_hearts(s)  # last: it may push the hearts decision


def _res_hearts(s: State) -> None:
    seat = s.active
    hearts = hearts_rolled(s, seat)
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
    """Heart dice: remove tokens, spend hearts through cards, or Done.

    Outside Tokyo, hearts may remove Poison or Shrink tokens. That is ``UseCard(card, (n,))``, with
    the card whose name the tokens bear. Cards may offer to spend hearts through
    ``heart_actions``. On Done, the rest heal the monster if it is outside Tokyo."""
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
            add_tokens(s, seat, "poison" if action.card == poison else "shrink", -n, card=action.card)
            if hearts > n:
                s.stack.append(("ask", seat, "hearts", hearts - n))
        else:
            use_card(s, frame, action)
    elif not s.in_tokyo(seat):
        heal(s, seat, hearts)


def after_roll(s: State) -> bool:
    """After a roll, settle the roll decision beneath if it has only the base choices.

    With rolls left, make it pending and return True. With none left, drop it and return False.
    Its one choice is then to stop, which does nothing. False is also returned for any other case,
    which the generic path handles."""
    below = s.stack[-1]
    if below[0] != "ask" or below[2] != "roll":
        return False
    seat = below[1]
    if not s.alive[seat] or (s.cards[seat] and has_hook(s, seat, "roll_actions")):
        return False
    if s.flags and held_dice(s):
        return False
    if s.rolls_left <= 0:
        s.stack.pop()
        if s.sink is not None:
            s.sink.append(AutoDecision(seat, "roll", STOP))
        return False
    legal = REROLLS_AND_STOP[len(s.dice)]
    if len(legal) < 2:
        return False
    s.pending = decision_for(seat, "roll")
    s.legal = legal
    return True


def reroll(s: State, action: Reroll) -> bool:
    """A re-roll on a shared copy.

    If it is legal, push the roll and make it pending. Else return False with ``s`` untouched. The
    generic path then runs, or explains why the re-roll is refused."""
    try:
        mask = REROLL_MASKS[len(s.dice)].get(action.dice)
    except TypeError:  # unhashable junk inside the action
        return False
    if mask is None or s.rolls_left <= 0 or not s.alive[s.active]:
        return False
    if s.flags and held_dice(s):
        return False
    s.rolls_left -= 1
    s.stack.append(ROLL_FRAMES[mask])
    s.pending = new_request(RandomRequest, (MASK_BOUNDS[mask], s.k + 1, -1, REROLL))
    return True


FRAMES: Frames = Frames(
    decisions={
        "roll": DecisionKind(_roll_legal, _roll_handle, _roll_check, light=(Reroll, Stop)),
        "hearts": DecisionKind(_hearts_legal, _hearts_handle),
    },
    randoms={
        "roll": RandomKind(_roll_bounds, roll_dice, light=True, purpose=ROLL),
    },
)
