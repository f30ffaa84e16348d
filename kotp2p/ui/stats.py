"""The end screen's figures per monster, read off the engine's events of the whole game.

Theory of operation
-------------------
Each :class:`~kotp2p.rules.Damaged` event counts as taken by its target and dealt by its dealer.
Poison and other damage from nobody is dealt by nobody. A monster hurting itself deals nothing.

:class:`~kotp2p.rules.CardBought` and :class:`~kotp2p.rules.MarketSwept` count the cards bought
and the ⚡ spent on them. An :class:`~kotp2p.rules.EnergyChanged` loss may be caused by a keep card
that no other monster holds. That ⚡ paid for an effect of the loser's own card, so it counts as
spent too. Such effects are Energy Drink, Stretchy, Wings, Rapid Healing, moving Mimic's token and
the like. ⚡ lost otherwise is not spent. It may go to another monster's card such as Healing Ray,
or to a discard card such as Vast Storm. It may also go with a monster knocked out.

A :class:`~kotp2p.rules.TurnBegan` counts as a turn in Tokyo when its monster is in Tokyo City or
Bay. The state the turn began in decides.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from kotp2p import rules

if TYPE_CHECKING:
    from kotp2p.net.replica import Replica
    from kotp2p.net.session import Session


@dataclass(frozen=True)
class MonsterStats:
    """One monster's line on the end screen."""

    seat: int
    monster: str
    rank: int
    stars: int
    hp: int
    alive: bool
    damage_dealt: int
    damage_taken: int
    turns_in_tokyo: int
    cards_bought: int
    energy_spent: int
    energy_gained: int = 0


def game_stats(last: rules.State, events: Sequence[tuple[rules.Event, rules.State]],
               first: rules.State | None = None) -> list[MonsterStats]:
    """Figures per monster, ranked best first.

    They come from the final state and every event of the game in order. Each event comes with
    the state its ``apply`` gave. ``first`` is the state before the first event: None means a
    game from its start, with no stars yet. A monster knocked out shows the stars it had when it
    fell.
    """
    n = last.n
    dealt, taken, spent, tokyo, bought = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
    gained = [0] * n
    stars = list(first.stars) if first is not None else [0] * n
    fell = list(last.stars)
    for event, after in events:
        if isinstance(event, rules.StarsChanged) and 0 <= event.seat < n:
            stars[event.seat] += event.delta
        elif isinstance(event, rules.Eliminated) and 0 <= event.seat < n:
            fell[event.seat] = stars[event.seat]
        elif isinstance(event, rules.Damaged) and 0 <= event.seat < n:
            taken[event.seat] += event.amount
            if 0 <= event.dealer < n and event.dealer != event.seat:
                dealt[event.dealer] += event.amount
        elif isinstance(event, rules.CardBought) and 0 <= event.seat < n:
            bought[event.seat] += 1
            spent[event.seat] += event.price
        elif isinstance(event, rules.MarketSwept) and 0 <= event.seat < n:
            spent[event.seat] += event.price
        elif isinstance(event, rules.EnergyChanged) and 0 <= event.seat < n and event.delta > 0:
            gained[event.seat] += event.delta
        elif isinstance(event, rules.EnergyChanged) and 0 <= event.seat < n \
                and event.delta < 0 and is_paid_for_own_card(event, after):
            spent[event.seat] -= event.delta
        elif isinstance(event, rules.TurnBegan) and 0 <= event.seat < n \
                and event.seat in (after.city, after.bay):
            tokyo[event.seat] += 1
    rank_of = {}
    place = 1  # Tied monsters share a rank, and the next one counts them: 1, 2, 2, 4.
    for group in rules.ranking(last):
        for seat in group:
            rank_of[seat] = place
        place += len(group)
    out = [MonsterStats(seat, last.monsters[seat], rank_of.get(seat, n), fell[seat],
                        last.hp[seat], last.alive[seat], dealt[seat], taken[seat], tokyo[seat],
                        bought[seat], spent[seat], gained[seat]) for seat in range(n)]
    return sorted(out, key=lambda m: (m.rank, m.seat))


def is_paid_for_own_card(event: rules.EnergyChanged, after: rules.State) -> bool:
    """True when ``event``, a loss of ⚡, paid for an effect of the loser's own card.

    The card must be a keep card that no other monster holds after the event's ``apply``. Only
    other monsters count: the loser may have been knocked out since, and its cards discarded.
    """
    card = rules.CARDS.get(event.card) if event.card else None
    return (card is not None and card.kind == rules.KEEP
            and not any(event.card in after.cards[t] for t in range(after.n) if t != event.seat))


def session_stats(session: Session) -> list[MonsterStats]:
    """The end screen's figures, from the engine's events of every entry the view's seat applied.

    A private outcome this seat never saw gives no events.
    """
    return replica_stats(session.protocol.replica, session.state)


def replica_stats(replica: Replica, last: rules.State) -> list[MonsterStats]:
    """The figures of the game ``replica`` holds, which stands at ``last``.

    They come from the engine's events of every entry it applied."""
    values = {(r.step, r.k): r.values for r in replica.resolved}
    told: list[tuple[rules.Event, rules.State]] = []

    def run(call: Callable[..., rules.State]) -> None:
        events: list[rules.Event] = []
        try:
            after = call(events=events)
        except (rules.IllegalAction, ValueError, KeyError, IndexError):
            return
        told.extend((e, after) for e in events)

    for entry in replica.entries:
        before = entry.before
        if entry.kind == "move" and before is not None:
            try:
                action = rules.action_from_wire(entry.action)
            except rules.IllegalAction:
                continue
            run(partial(rules.apply, before, action))
        elif entry.kind == "eject" and before is not None and entry.seat is not None:
            run(partial(rules.eject, before, entry.seat))
        for p in entry.points:
            got = values.get((entry.step, p.k)) if p.k is not None else None
            if got is not None:
                run(partial(rules.apply, p.state, rules.RandomResult(tuple(got))))
    first = next((e.before for e in replica.entries if e.before is not None), None)
    return game_stats(last, told, first)


WIDTHS = (3, 3, 6, 5, 6, 5, 5, 5)
"""The width of each column after the monster's name: ★, ♥, dealt, taken, ⚡ got, spent, cards
and Tokyo."""


def stats_rows(stats: Sequence[MonsterStats], star: str = "★", heart: str = "♥",
               energy: str = "⚡") -> list[str]:
    """The table of figures as lines of text: a heading, then a line per monster, best first.

    The symbols are the board's. A player's name does not fit a column, so it is left out."""
    name_w = max([len("monster"), *(len(m.monster) for m in stats)])
    head = ["#", "monster", star, heart, "dealt", "taken", f"{energy} got", "spent", "cards",
            "Tokyo"]

    def row(cells: Sequence[object]) -> str:
        first = f" {cells[0]!s:>2} {cells[1]!s:<{name_w}}"
        return first + "".join(f" {c!s:>{w}}" for c, w in zip(cells[2:], WIDTHS, strict=True))

    return [row(head)] + [row([m.rank, m.monster, m.stars, m.hp, m.damage_dealt, m.damage_taken,
                               m.energy_gained, m.energy_spent, m.cards_bought, m.turns_in_tokyo])
                          for m in stats]


def stats_legend(heart: str = "♥", energy: str = "⚡") -> str:
    """What the table's columns mean."""
    return ("#: the winners, then the monsters still standing by stars, then the others, the "
            f"last to fall first; dealt/taken: damage ({heart}); {energy} got: gained in the game; "
            f"spent: {energy} on cards, sweeps and card effects; Tokyo: turns begun there")
