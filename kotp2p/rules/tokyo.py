"""Damage and Tokyo: smashes, hits, eliminations, the Bay closing, and yields.

This module says whom smashes hit. A hit goes through reaction windows and protection, then
the loss of health. Smashed monsters then decide whether to yield.

Smashes push a damage resolution: ``hit`` frames, then ``deaths``. Smashes nobody can react to
land at once. That shortcut gives the state the frames would. After the yield decisions,
``after_yields`` runs what waited for them. That is damage a monster took only by staying, and
damage to the monster taking a yielded place.
"""

from __future__ import annotations

from kotp2p.rules import basics
from kotp2p.rules.actions import STAY, YIELD, Action, Stay, Yield
from kotp2p.rules.basics import HALLOWEEN_FLAG, MAX_PLAYERS, NOBODY, POWER_UP_FLAG, Frame
from kotp2p.rules.dice import ENERGY, SMASH, count_faces
from kotp2p.rules.effects import (
    SMASH_BONUS,
    UNHARMED,
    close_bay_if_needed,
    damage_order,
    deal_damage,
    doubled,
    eliminate,
    end_game,
    gain_energy,
    leave_tokyo,
    only_the_beauty,
    set_turn_bit,
    set_turn_flag,
    tally,
    turn_bit,
    turn_flag,
    undying,
)
from kotp2p.rules.events import WHY_DICE, CardEffect, Damaged, StayedInTokyo, YieldedTokyo
from kotp2p.rules.powerup import (
    STRUCK,
    STRUCK_TOKYO,
    WOUND_ASKED,
    WOUNDED,
    YIELDED,
    ZERO,
    after_smashes,
    may_play,
    open_stayed,
    open_window,
    snowed_in,
)
from kotp2p.rules.registry import (
    HOOK_ORDER,
    DecisionKind,
    Frames,
    anyone_has,
    copied,
    fire,
    has_hook,
    hooked,
    seats_from,
)
from kotp2p.rules.rolling import smash_count
from kotp2p.rules.state import State


def smash_targets(s: State, seat: int) -> list[int]:
    """Whom ``seat``'s smashes hit: from Tokyo everybody outside, from outside everybody in Tokyo.

    Cards can widen this to every other monster."""
    alive = s.alive
    if s.cards[seat] and has_hook(s, seat, "smash_targets"):
        return [t for t in range(s.n) if t != seat and alive[t]]
    city, bay = s.city, s.bay
    if seat in (city, bay):
        return [t for t in range(s.n) if alive[t] and t != city and t != bay]
    return [t for t in (city, bay) if t != NOBODY and alive[t]]


def res_smash(s: State) -> None:
    """Energy faces, then the smashes. No hook of the energy faces pushes frames."""
    seat = s.active
    if not s.alive[seat]:
        return
    dice = s.dice
    twice = doubled(s, seat)
    energy = dice.count(ENERGY) * twice
    if energy:
        gain_energy(s, seat, energy, why=WHY_DICE)
    if s.cards[seat] and has_hook(s, seat, "add_smashes"):
        smashes = smash_count(s, count_faces(dice))
    else:
        smashes = dice.count(SMASH)
        if s.flags:
            smashes += turn_flag(s, "cheers")
    smashes *= twice
    if s.flags and HALLOWEEN_FLAG in s.flags:
        set_turn_flag(s, "smashes", smashes)
    if smashes <= 0:
        return
    more = turn_flag(s, f"{SMASH_BONUS}.{seat}") if POWER_UP_FLAG in s.flags else 0
    hits = dict.fromkeys(smash_targets(s, seat), smashes + more)  # ``more``: ♥ each loses more
    if POWER_UP_FLAG in s.flags:
        hits = only_the_beauty(s, seat, hits)
    extra: dict[int, int] = {}
    if s.cards[seat]:
        fire(s, seat, "smash", smashes, hits, extra)
    if (basics.SHORTCUTS and not extra and not (s.cards[seat] and has_hook(s, seat, "deal_bonus"))
            and _land_at_once(s, seat, hits)):
        return
    deal_damage(s, seat, hits, smash=True, plain=extra)


def _land_at_once(s: State, dealer: int, hits: dict[int, int]) -> bool:
    """A shortcut for smashes nobody can react to.

    It applies when no target has a card and nobody has an after-hit effect. The hits land now, as
    their ``hit`` frames would. Only a ``deaths`` frame is pushed, if somebody dropped to 0. It
    returns False if the frames must be pushed."""
    cards = s.cards
    order = damage_order(s, dealer, hits)
    for t in order:
        if cards[t] or _asked_when_wounded(s, t):
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


_STRUCK, _STRUCK_TOKYO = "t." + STRUCK, "t." + STRUCK_TOKYO
"""The flags of :data:`powerup.STRUCK` and :data:`powerup.STRUCK_TOKYO`, as turn flags are
kept."""

_DEATHS = ("deaths",)
LAST_DEATHS = ("deaths", 1)
"""The deaths once the window at 0♥ is over, or without one, as for an ejected seat."""


def _hit(s: State, frame: Frame) -> None:
    """One hit on one target.

    Reaction windows come first, stage by stage. Then come protection, the loss of health and the
    after-hit effects."""
    _, target, amount, dealer, smash, stage = frame
    if not s.alive[target] or amount <= 0:
        return
    if s.cards[target] and has_hook(s, target, "hit_window"):
        windows = [(c, fn) for c, fn in hooked(s, target, "hit_window")]
        for i in range(stage, len(windows)):
            c, fn = windows[i]
            if fn(s, target, c, ("hit", target, amount, dealer, smash, i + 1)):
                return
    if stage != WOUND_ASKED and _asked_when_wounded(s, target):
        s.stack.append(("hit", target, amount, dealer, smash, WOUND_ASKED))
        open_window(s, WOUNDED, (target,))
        return
    apply_hit(s, target, amount, dealer, bool(smash))


def _asked_when_wounded(s: State, target: int) -> bool:
    """True when a hit on ``target`` first opens its window before a loss: in Power Up!, to a
    monster holding Evolutions that can lose ♥ this turn."""
    return bool(s.flags and POWER_UP_FLAG in s.flags and may_play(s, target)
                and not turn_bit(s, UNHARMED, target))


def apply_hit(s: State, target: int, amount: int, dealer: int, smash: bool) -> None:
    """Protection, then the loss itself, the record for yields, and after-hit effects."""
    if s.cards[target] and has_hook(s, target, "protect"):
        for c, fn in list(hooked(s, target, "protect")):
            left = fn(s, target, c, amount, dealer, smash)
            if left < amount and s.sink is not None:
                s.sink.append(CardEffect(target, c))
            amount = left
            if amount <= 0:
                return
    lost = _lose_health(s, target, amount, dealer, smash)
    if lost <= 0:
        return
    if anyone_has(s, "after_hit"):
        for seat in seats_from(s, s.active):
            fire(s, seat, "after_hit", target, lost, dealer, smash)
    if (s.hp[target] == 0 and s.cards[target] and has_hook(s, target, "dying")
            and not undying(s, target)):
        for c, fn in list(hooked(s, target, "dying")):
            if fn(s, target, c):
                break


def _lose_health(s: State, target: int, amount: int, dealer: int, smash: bool) -> int:
    """The loss of health itself, recorded for the yield decisions. Returns what was lost.

    A monster made unharmed for the rest of the turn loses nothing."""
    lost = min(amount, s.hp[target])
    if lost > 0 and POWER_UP_FLAG in s.flags and turn_bit(s, UNHARMED, target):
        return 0
    if lost > 0:
        s.hp[target] -= lost
        if s.sink is not None:
            s.sink.append(Damaged(target, lost, dealer, smash))
        flags = s.flags
        if dealer >= 0:
            flags["t.dealt"] = flags.get("t.dealt", 0) | 1 << dealer
        if smash and (target == s.city or target == s.bay):
            flags["t.smashed"] = flags.get("t.smashed", 0) | 1 << target
        if HALLOWEEN_FLAG in flags:
            _mark_wounds(flags, target, dealer, smash and dealer == s.active)
        if POWER_UP_FLAG in flags:
            tally(s, "lost", target, lost)  # for Anger Batteries
            if smash and dealer == s.active != target:  # for Gifts and Jungle Frenzy
                flags[_STRUCK] = flags.get(_STRUCK, 0) | 1 << target
                if target == s.city or target == s.bay:
                    flags[_STRUCK_TOKYO] = 1
    return lost


def _mark_wounds(flags: dict[str, int], target: int, dealer: int, by_smash: bool) -> None:
    """Who lost ♥ this turn, who made another lose ♥, and whom the active monster's smashes
    wounded: what Ghost, Vampire and stealing need in a Halloween game."""
    flags["t.hurt"] = flags.get("t.hurt", 0) | 1 << target
    if 0 <= dealer != target:
        flags["t.wounder"] = flags.get("t.wounder", 0) | 1 << dealer
    if by_smash:
        flags["t.smashhurt"] = flags.get("t.smashhurt", 0) | 1 << target


def _deaths(s: State, frame: Frame) -> None:
    """Eliminate every live monster at 0♥, close the Bay, and end a game with one monster or none
    left.

    The monsters eliminated together share one rank."""
    dying = [seat for seat in seats_from(s, s.active) if s.hp[seat] <= 0 and not undying(s, seat)]
    if not dying:
        return
    if len(frame) == 1 and s.flags and POWER_UP_FLAG in s.flags:
        holding = [t for t in dying if may_play(s, t)]
        if holding:  # first the window at 0♥ of those holding Evolutions, then the deaths
            s.stack.append(LAST_DEATHS)
            open_window(s, ZERO, holding)
            return
    batch = max(s.elim) + 1
    for seat in dying:
        eliminate(s, seat, batch)
    close_bay_if_needed(s)
    if s.alive_count() <= 1:
        end_game(s, tuple(seat for seat in range(s.n) if s.alive[seat]))


def yields(s: State) -> None:
    """The yields phase: each smashed monster still in Tokyo decides whether to yield.

    They decide clockwise from the active monster. What waits for the decisions,
    ``after_yields``, runs after them. In Power Up!, the active monster's draw of Evolutions
    comes first."""
    smashed = s.flags.pop("t.smashed", 0)
    if smashed:
        if anyone_has(s, "after_yields"):
            s.stack.append(("after_yields",))
        city, bay = s.city, s.bay
        asks = [
            _ASK_YIELD[seat]
            for seat in seats_from(s, s.active)
            if smashed >> seat & 1 and seat in (city, bay)
        ]
        s.stack.extend(reversed(asks))
        active = s.active
        if asks and s.cards[active] and has_hook(s, active, "before_yields"):
            fire(s, active, "before_yields", smashed)
    if s.flags and POWER_UP_FLAG in s.flags:
        after_smashes(s)  # on top: the draw comes before the yield decisions


_ASK_YIELD = tuple(("ask", seat, "yield") for seat in range(MAX_PLAYERS))


_YIELD_CHOICES = (YIELD, STAY)


def _yield_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    seat = frame[1]
    if not s.in_tokyo(seat):
        return ()
    if s.flags and POWER_UP_FLAG in s.flags and snowed_in(s, seat):
        return (STAY,)  # another monster's Blizzard: no yielding
    return _YIELD_CHOICES


def _yield_check(s: State, frame: Frame, action: Action) -> bool:
    t = type(action)
    return t is Yield or t is Stay


def yield_tokyo(s: State, seat: int) -> None:
    """``seat`` yields its place in Tokyo, by its choice or because a card makes it."""
    if s.sink is not None:
        s.sink.append(YieldedTokyo(seat, s.location(seat)))
    leave_tokyo(s, seat)
    set_turn_bit(s, "yielded", seat)
    fire(s, seat, "yielded")
    if POWER_UP_FLAG in s.flags:
        open_window(s, YIELDED, (seat,))


def _yield_handle(s: State, frame: Frame, action: Action) -> None:
    seat = frame[1]
    if type(action) is Yield:
        yield_tokyo(s, seat)
        return
    if s.sink is not None:
        s.sink.append(StayedInTokyo(seat, s.location(seat)))
    if s.flags and POWER_UP_FLAG in s.flags:
        s.own()
        open_stayed(s, seat)  # its cards' effects of staying come first
    if s.cards[seat] and has_hook(s, seat, "stayed"):
        s.own()  # a stay shares the state's lists; a card's effect changes them
        fire(s, seat, "stayed")


def _after_yields(s: State, frame: Frame) -> None:
    """Effects that wait for every yield decision.

    They are damage held back until a monster stayed, and damage to the monster about to take a
    yielded place. Each live seat's ``after_yields`` frames are pushed, clockwise from the active
    monster. They are grouped by the hook's fixed order."""
    order = HOOK_ORDER.get("after_yields", {})
    found: list[tuple[int, int, Frame]] = []
    for i, seat in enumerate(seats_from(s, s.active)):
        for c, fn in hooked(s, seat, "after_yields"):
            f = fn(s, seat, c)
            if f is not None:
                found.append((order.get(copied(s, c) or c, 1000), i, f))
    found.sort(key=lambda x: (x[0], x[1]))
    s.stack.extend(f for *_, f in reversed(found))


FRAMES: Frames = Frames(
    steps={"hit": _hit, "deaths": _deaths, "after_yields": _after_yields},
    decisions={
        "yield": DecisionKind(_yield_legal, _yield_handle, _yield_check, light=(Stay,)),
    },
)
