"""Mimic, a copier card.

:mod:`kotp2p.rules.registry` says how copiers work.

The Mimic token is the flag ``copy.27`` naming the copied card. Tokens that the copied card would
carry sit on Mimic itself, such as Battery Monster's energy or Smoke Cloud's smoke. Choosing a
target runs the target's ``gained`` effect for the Mimic owner, "as if just bought". When the
target leaves play, the token is lost in ``effects.forget_card``. A card leaves play when it is
discarded or sold, or its owner is eliminated. When the target changes hands through Parasitic
Tentacles, the token follows it. The owner chooses a target for free when buying Mimic. It may pay
1⚡ to move the token at the start of each of its turns, before rolling.
"""

from __future__ import annotations

from kotp2p.rules.actions import PASS, Action, UseCard
from kotp2p.rules.card import KEEP, Card
from kotp2p.rules.cardindex import CARDS as BY_ID
from kotp2p.rules.effects import clamp_health, lose_energy, note
from kotp2p.rules.events import Copied, TokensChanged
from kotp2p.rules.registry import COPIERS, DecisionKind, Frames, copied
from kotp2p.rules.state import Frame, State

MIMIC = 27
MOVE_COST = 1

def mimic_targets(s: State) -> list[int]:
    """The Keep cards Mimic may copy now: any in play but Mimic and its current target."""
    current = copied(s, MIMIC)
    return sorted(
        c
        for t in range(s.n)
        if s.alive[t]
        for c in s.cards[t]
        if c != MIMIC and c != current and BY_ID[c].kind == KEEP
    )


def set_mimic_target(s: State, seat: int, target: int) -> None:
    """Put the Mimic token on ``target``: Mimic now counts as a copy of it, just bought."""
    note(s, Copied(seat, MIMIC, target))
    dropped = s.tokens.pop(MIMIC, 0)
    if dropped:
        note(s, TokensChanged(seat, "card", -dropped, MIMIC))
    s.flags[COPIERS[MIMIC]] = target
    gained = BY_ID[target].hooks.get("gained")
    if gained is not None:
        gained(s, seat, MIMIC)
    clamp_health(s)


def _mimic_bought(s: State, seat: int, c: int) -> None:
    if not copied(s, MIMIC):
        s.stack.append(("ask", seat, "mimic", 0))


def _mimic_move(s: State, seat: int, c: int) -> None:
    if s.energy[seat] >= MOVE_COST:
        s.stack.append(("ask", seat, "mimic", 1))


def _mimic_legal(s: State, frame: Frame) -> tuple[Action, ...]:
    _, seat, _, paid = frame
    assert isinstance(seat, int)
    if MIMIC not in s.cards[seat] or (paid and s.energy[seat] < MOVE_COST):
        return ()
    options = tuple(UseCard(MIMIC, (t,)) for t in mimic_targets(s))
    return (*options, PASS) if paid and options else options


def _mimic_handle(s: State, frame: Frame, action: Action) -> None:
    if type(action) is UseCard:
        assert isinstance(action, UseCard)
        _, seat, _, paid = frame
        assert isinstance(seat, int)
        if paid:
            lose_energy(s, seat, MOVE_COST, card=MIMIC)
        set_mimic_target(s, seat, action.args[0])


FRAMES: Frames = Frames(
    decisions={
        "mimic": DecisionKind(_mimic_legal, _mimic_handle),
    },
)


CARDS: tuple[Card, ...] = (
    Card(
        MIMIC, "Mimic", 8, KEEP, "when bought; start of your turn",
        text=(
            "Pick a Keep card any monster has in play and put the Mimic token on it. Mimic works as a "
            "second copy of that card, as if you had just bought it. At the start of your turn you may pay "
            "1⚡ to move the token."
        ),
        hooks={"bought": _mimic_bought, "start_turn": _mimic_move},
        worth=8,
        copier=True,
    ),
)
