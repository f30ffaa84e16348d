"""Keep cards of the damage pipeline: reactions to a hit, smash extras, tokens, after-hit effects.

Theory of operation
-------------------
Every hit is a ``hit`` frame, described in :mod:`kotp2p.rules.machine`. Before it lands, the
target's ``hit_window`` hooks run in their fixed order, set in ``hookorder``:

1. Jets: a smash from the active monster on a Jets owner in Tokyo is held back. The owner is
   recorded as smashed, so it is asked to yield. The amount waits in the turn flag
   ``jets.<seat>``. After every yield decision, in ``after_yields``, a monster that stayed takes
   it as a smash, with reaction windows and tokens. One that left takes nothing.
2. One ``react`` window for Camouflage, Wings and Rapid Healing together. It is offered only if
   the hit would still wound after protection. The choice is ``UseCard`` of a usable card, or
   ``Pass`` to take the hit. Camouflage rolls one die per pending ♥, in a ``camo`` random event.
   Each heart cancels 1. A Background Dweller owner re-rolls every 3 among them without being
   asked, since a 3 never helps. Each copy of Camouflage rolls once per hit. The ``used`` mask
   has bit 0 for the card and bit 1 for a copy. Wings costs 2⚡ and protects for the rest of
   the turn. Rapid Healing, 2⚡ for 1♥, is offered when the hit would otherwise be lethal. The
   window reopens after each use with what is left of the hit.

Protection then applies in ``apply_hit``: Wings used this turn, and Armor Plating on a hit of
exactly 1. A hit that was entirely cancelled or prevented wounds nobody. So it opens no yield
choice and gives no token. Burrowing's 1♥ to the monster taking a yielded place also waits for
``after_yields``. It comes after held-back Jets damage.
"""

from __future__ import annotations

from kotp2p.rules.actions import PASS, Action, Pass, UseCard
from kotp2p.rules.card import KEEP, Card, HookFn
from kotp2p.rules.cards_keep_dice import BACKGROUND_DWELLER
from kotp2p.rules.dice import FACES, HEART, THREE
from kotp2p.rules.effects import (
    BASE_HP,
    UNHARMED,
    add_tokens,
    bit,
    deal_damage,
    gain_energy,
    gain_stars,
    heal,
    lose_energy,
    max_hp,
    note,
    set_turn_bit,
    set_turn_flag,
    start_over,
    turn_bit,
    turn_flag,
    use_card,
)
from kotp2p.rules.events import CardEffect
from kotp2p.rules.registry import DecisionKind, Frames, RandomKind, card_pairs, copies_of, hooked
from kotp2p.rules.state import Frame, State

ALPHA_MONSTER = 3
ARMOR_PLATING = 4
BURROWING = 6
CAMOUFLAGE = 7
EATER_OF_THE_DEAD = 10
FIRE_BREATHING = 15
HEALING_RAY = 20
IT_HAS_A_CHILD = 23
JETS = 24
NOVA_BREATH = 29
POISON_SPIT = 35
RAPID_HEALING = 37
SHRINK_RAY = 40
MAKING_IT_STRONGER = 47
WINGS = 48

WINGS_COST = 2
RAPID_HEALING_COST = 2
HEALING_RAY_PRICE = 2  # energy per heart die spent on another monster
SKIP_WINDOWS = 99  # a hit frame stage past every window

def _ints(frame: Frame, first: int, n: int) -> list[int]:
    out = list(frame[first : first + n])
    assert all(isinstance(x, int) for x in out)
    return out


def protected(s: State, seat: int, amount: int, dealer: int, smash: bool) -> int:
    """What a hit of ``amount`` on ``seat`` would still take after protection. No side effect."""
    if s.flags and turn_bit(s, UNHARMED, seat):
        return 0
    for c, fn in hooked(s, seat, "protect"):
        amount = fn(s, seat, c, amount, dealer, smash)
        if amount <= 0:
            return 0
    return amount


def _armor_plating(s: State, seat: int, c: int, amount: int, dealer: int, smash: bool) -> int:
    return 0 if amount == 1 else amount


def _wings_protect(s: State, seat: int, c: int, amount: int, dealer: int, smash: bool) -> int:
    return 0 if turn_flag(s, "wings") & bit(seat) else amount


# --- the react window ---------------------------------------------------------------------------


TERROR_OF_THE_DEEP = 1155
"""Kraken's Evolution, which rolls against a hit as Camouflage does, as BGA plays it."""
_CAMO_BITS = {CAMOUFLAGE: 1, TERROR_OF_THE_DEEP: 4}


def _camo_bit(c: int) -> int:
    """The bit of the react window's ``used`` that card ``c``'s roll sets: a copy has its own."""
    return _CAMO_BITS.get(c, 2 if c < TERROR_OF_THE_DEEP else 8)


def react_options(s: State, seat: int, amount: int, dealer: int, smash: int, used: int) -> list[Action]:
    """The cards ``seat`` may use against a pending hit. It is empty if nothing would help."""
    left = protected(s, seat, amount, dealer, bool(smash))
    if left <= 0:
        return []
    out: list[Action] = []
    wings = rapid = False
    energy = s.energy[seat]
    for c, k in card_pairs(s, seat):
        if k in (CAMOUFLAGE, TERROR_OF_THE_DEEP) and not used & _camo_bit(c):
            out.append(UseCard(c))
        elif k == WINGS and not wings and energy >= WINGS_COST:
            wings = True
            out.append(UseCard(c))
        elif (
            k == RAPID_HEALING
            and not rapid
            and energy >= RAPID_HEALING_COST
            and left >= s.hp[seat]
            and s.hp[seat] < max_hp(s, seat)
        ):
            rapid = True
            out.append(UseCard(c))
    for c, fn in hooked(s, seat, "react_actions"):
        out.extend(fn(s, seat, c, left, dealer))
    return out


def react_window(s: State, seat: int, c: int, nxt: Frame) -> bool:
    """The ``hit_window`` of every card that acts in the react window: open it if it helps."""
    _, _target, amount, dealer, smash, _stage = nxt
    assert isinstance(amount, int) and isinstance(dealer, int) and isinstance(smash, int)
    if not react_options(s, seat, amount, dealer, smash, 0):
        return False
    s.stack.append(("ask", seat, "react", amount, dealer, smash, 0))
    return True


def _react_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    seat, amount, dealer, smash, used = _ints(frame, 1, 1) + _ints(frame, 3, 4)
    # Never empty: with nothing left to use, the single Pass takes the hit at once.
    return (*react_options(s, seat, amount, dealer, smash, used), PASS)


def take_hit(s: State, frame: Frame, amount: int | None = None) -> None:
    """The hit of a react window lands: ``amount``, or all of it, past every window."""
    seat, whole, dealer, smash = _ints(frame, 1, 1) + _ints(frame, 3, 3)
    s.stack.append(("hit", seat, whole if amount is None else amount, dealer, smash, SKIP_WINDOWS))


def _react_handle(s: State, frame: Frame, action: Action) -> None:
    if type(action) is Pass:
        take_hit(s, frame)
    else:
        assert isinstance(action, UseCard)
        use_card(s, frame, action)


def camouflage(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    """Roll one die per ♥ of the hit the react window holds: each ♥ rolled cancels one."""
    amount, dealer, smash, used = _ints(frame, 3, 4)
    s.stack.append(("rand", "camo", seat, amount, dealer, smash, used | _camo_bit(c), amount))


def _camo_bounds(s: State, frame: Frame) -> tuple[int, ...]:
    seat = frame[2]
    n = frame[7]
    assert isinstance(seat, int) and isinstance(n, int)
    return (FACES,) * n if s.alive[seat] else ()


def _camo_roll(s: State, frame: Frame, values: tuple[int, ...]) -> None:
    seat, amount, dealer, smash, used = _ints(frame, 2, 5)
    amount -= values.count(HEART)
    if amount <= 0:
        return
    threes = values.count(THREE)
    if threes and copies_of(s, seat, BACKGROUND_DWELLER):
        s.stack.append(("rand", "camo", seat, amount, dealer, smash, used, min(threes, amount)))
    else:
        s.stack.append(("ask", seat, "react", amount, dealer, smash, used))


def _wings(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    lose_energy(s, seat, WINGS_COST, card=c)
    set_turn_bit(s, "wings", seat)
    take_hit(s, frame)


def _rapid_offer(s: State, seat: int, c: int) -> tuple[Action, ...]:
    if (
        s.energy[seat] >= RAPID_HEALING_COST
        and s.hp[seat] < max_hp(s, seat)
        and c == copies_of(s, seat, RAPID_HEALING)[0]
    ):
        return (UseCard(c),)
    return ()


def _rapid_healing(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    lose_energy(s, seat, RAPID_HEALING_COST, card=c)
    heal(s, seat, 1, card=c)
    s.stack.append(frame)


# --- Jets and Burrowing: after the yield decisions --------------------------------------------


def _jets_window(s: State, seat: int, c: int, nxt: Frame) -> bool:
    _, _, amount, dealer, smash, _stage = nxt
    assert isinstance(amount, int) and isinstance(dealer, int)
    if (
        not smash
        or dealer < 0
        or dealer != s.active
        or not s.in_tokyo(seat)
        or turn_flag(s, "jets_done") & bit(seat)
        or protected(s, seat, amount, dealer, True) <= 0
    ):
        return False
    note(s, CardEffect(seat, c))
    set_turn_flag(s, f"jets.{seat}", amount)
    set_turn_bit(s, "smashed", seat)
    return True


def _jets_after(s: State, seat: int, c: int) -> Frame | None:
    amount = turn_flag(s, f"jets.{seat}")
    if not amount:
        return None
    set_turn_flag(s, f"jets.{seat}", 0)
    return ("jets", seat, amount) if s.in_tokyo(seat) else None


def _jets_stayed(s: State, frame: Frame) -> None:
    seat, amount = _ints(frame, 1, 2)
    set_turn_bit(s, "jets_done", seat)
    deal_damage(s, s.active, {seat: amount}, smash=True, then=("unsmash", seat))


def _unsmash(s: State, frame: Frame) -> None:
    seat = frame[1]
    assert isinstance(seat, int)
    set_turn_flag(s, "smashed", turn_flag(s, "smashed") & ~bit(seat))


def _burrowing_after(s: State, seat: int, c: int) -> Frame | None:
    active = s.active
    if turn_flag(s, "yielded") & bit(seat) and active != seat and not s.in_tokyo(active):
        return ("burrow", seat)
    return None


def _burrowing_smash(s: State, seat: int, c: int, counts: list[int], stage: int, smashes: int) -> int:
    return 1 if stage == 2 and s.in_tokyo(seat) else 0


def _burrow(s: State, frame: Frame) -> None:
    seat = frame[1]
    assert isinstance(seat, int)
    note(s, CardEffect(seat, BURROWING))
    deal_damage(s, seat, {s.active: 1})


# --- smash resolution ------------------------------------------------------------------------------


def _nova_breath(s: State, seat: int, c: int) -> bool:
    return True


def _alpha_monster(
    s: State, seat: int, c: int, smashes: int, hits: dict[int, int], extra: dict[int, int]
) -> None:
    gain_stars(s, seat, 1, card=c)


def neighbours(s: State, seat: int) -> list[int]:
    """The nearest live monsters on each side of ``seat``. There is one when only two are alive."""
    n = s.n
    right = next((seat + i) % n for i in range(1, n) if s.alive[(seat + i) % n])
    left = next((seat - i) % n for i in range(1, n) if s.alive[(seat - i) % n])
    return [right] if left == right else [right, left]


def _fire_breathing(
    s: State, seat: int, c: int, smashes: int, hits: dict[int, int], extra: dict[int, int]
) -> None:
    if s.alive_count() < 2:
        return
    note(s, CardEffect(seat, c))
    for t in neighbours(s, seat):
        if t in hits:
            hits[t] += 1
        else:
            extra[t] = extra.get(t, 0) + 1


def _token_giver(field: str) -> HookFn:
    def give(
        s: State, seat: int, c: int, victim: int, lost: int, dealer: int, smash: bool
    ) -> None:
        if smash and dealer == seat and victim != seat:
            add_tokens(s, victim, field, 1, card=c)

    return give


_give_poison = _token_giver("poison")
_give_shrink = _token_giver("shrink")


# --- after a hit -----------------------------------------------------------------------------------


def _eater_of_the_dead(
    s: State, seat: int, c: int, victim: int, lost: int, dealer: int, smash: bool
) -> None:
    if victim != seat and s.hp[victim] == 0:
        gain_stars(s, seat, 3, card=c)


def _making_it_stronger(
    s: State, seat: int, c: int, victim: int, lost: int, dealer: int, smash: bool
) -> None:
    if victim == seat and lost >= 2:
        gain_energy(s, seat, 1, card=c)


def _it_has_a_child(s: State, seat: int, c: int) -> bool:
    start_over(s, seat, c, BASE_HP)
    return True


# --- Healing Ray ----------------------------------------------------------------------------------


def _healing_ray_offer(s: State, seat: int, c: int, hearts: int) -> tuple[Action, ...]:
    if c != copies_of(s, seat, HEALING_RAY)[0]:
        return ()
    out: list[Action] = []
    for t in range(s.n):
        if t != seat and s.alive[t]:
            missing = max_hp(s, t) - s.hp[t]
            out.extend(UseCard(c, (t, n)) for n in range(1, min(hearts, missing) + 1))
    return tuple(out)


def _healing_ray(s: State, seat: int, c: int, frame: Frame, action: UseCard) -> None:
    target, n = action.args
    hearts = frame[3]
    assert isinstance(hearts, int)
    heal(s, target, n, card=c)
    paid = lose_energy(s, target, HEALING_RAY_PRICE * n, card=c)
    gain_energy(s, seat, paid, card=c)
    if hearts > n:
        s.stack.append(("ask", seat, "hearts", hearts - n))


FRAMES: Frames = Frames(
    steps={"jets": _jets_stayed, "unsmash": _unsmash, "burrow": _burrow},
    decisions={
        "react": DecisionKind(_react_legal, _react_handle),
    },
    randoms={
        "camo": RandomKind(_camo_bounds, _camo_roll),
    },
)


CARDS: tuple[Card, ...] = (
    Card(
        ALPHA_MONSTER, "Alpha Monster", 5, KEEP, "smash resolution",
        text="Gain 1★ if your resolved roll has at least one smash.",
        hooks={"smash": _alpha_monster},
        worth=5,
    ),
    Card(
        ARMOR_PLATING, "Armor Plating", 4, KEEP, "whenever you would lose health",
        text="Any loss of exactly 1♥ is ignored.",
        hooks={"protect": _armor_plating},
        worth=5,
    ),
    Card(
        BURROWING, "Burrowing", 5, KEEP, "your dice resolution; when you yield Tokyo",
        text=(
            "While you are in Tokyo, add one smash to your roll. When you yield Tokyo, the monster that "
            "takes your place loses 1♥."
        ),
        hooks={"after_yields": _burrowing_after, "add_smashes": _burrowing_smash},
        worth=5,
    ),
    Card(
        CAMOUFLAGE, "Camouflage", 3, KEEP, "whenever you would lose health",
        text="Roll one die per ♥ you are about to lose; each heart face rolled cancels 1♥ of that loss.",
        hooks={"use": camouflage, "hit_window": react_window},
        worth=4,
    ),
    Card(
        EATER_OF_THE_DEAD, "Eater of the Dead", 4, KEEP, "whenever a monster reaches 0 health",
        text="Gain 3★ every time some monster's life drops to 0.",
        hooks={"after_hit": _eater_of_the_dead},
        worth=5,
    ),
    Card(
        FIRE_BREATHING, "Fire Breathing", 4, KEEP, "dice resolution",
        text=(
            "When your roll has at least one smash, each of your neighbours loses 1♥ extra. This applies "
            "whether or not you smashed them."
        ),
        hooks={"smash": _fire_breathing},
        worth=5,
    ),
    Card(
        HEALING_RAY, "Healing Ray", 4, KEEP, "heart resolution",
        text=(
            "Your heart dice may heal other monsters. Each healed monster pays you 2⚡ per ♥ healed (or all "
            "the ⚡ it has if short)."
        ),
        hooks={"heart_actions": _healing_ray_offer, "use": _healing_ray},
        worth=3,
    ),
    Card(
        IT_HAS_A_CHILD, "It Has a Child!", 7, KEEP, "when you reach 0 health",
        text=(
            "Instead of dying: discard all your cards, lose all your ★, go back to 10♥, leave Tokyo, keep "
            "playing."
        ),
        hooks={"dying": _it_has_a_child},
        worth=8,
    ),
    Card(
        JETS, "Jets", 5, KEEP, "when smashed in Tokyo",
        text="If you yield Tokyo after being smashed, you lose no ♥ from that attack.",
        hooks={"hit_window": _jets_window, "after_yields": _jets_after},
        worth=5,
    ),
    Card(
        NOVA_BREATH, "Nova Breath", 7, KEEP, "smash resolution",
        text="Your smashes hit every other monster, inside and outside Tokyo.",
        hooks={"smash_targets": _nova_breath},
        worth=7,
    ),
    Card(
        POISON_SPIT, "Poison Spit", 4, KEEP, "smash resolution",
        text=(
            "Each monster you smash gets a Poison token. Poisoned monsters lose 1♥ per token at the end of "
            "their own turns. A heart die can remove a token instead of healing 1♥."
        ),
        hooks={"after_hit": _give_poison},
        worth=5,
        token="poison",
    ),
    Card(
        RAPID_HEALING, "Rapid Healing", 3, KEEP, "any time",
        text="Pay 2⚡ to gain 1♥, at any moment, including to avoid dropping to 0.",
        hooks={"use": _rapid_healing, "buy_actions": _rapid_offer, "hit_window": react_window},
        worth=4,
    ),
    Card(
        SHRINK_RAY, "Shrink Ray", 6, KEEP, "smash resolution",
        text=(
            "Each monster you smash gets a Shrink Ray token. At the start of their turn they roll 1 die "
            "fewer per token. A heart die can remove a token instead of healing 1♥."
        ),
        hooks={"after_hit": _give_shrink},
        worth=6,
        token="shrink",
    ),
    Card(
        MAKING_IT_STRONGER, "We're Only Making It Stronger!", 3, KEEP, "when you lose health",
        text="Whenever one hit costs you 2♥ or more, gain 1⚡.",
        hooks={"after_hit": _making_it_stronger},
        worth=3,
    ),
    Card(
        WINGS, "Wings", 6, KEEP, "when you would lose health",
        text="Pay 2⚡: you lose no ♥ for the rest of this turn.",
        hooks={"protect": _wings_protect, "use": _wings, "hit_window": react_window},
        worth=7,
    ),
)
