"""What must hold in every state of every game, as plain checks that say what broke.

Tests run them after every input of random games, and ``kotp2p simulate --check`` does on long
runs. A finding is a bug of the engine, never of a player.
"""

from __future__ import annotations

from kotp2p.rules.basics import HIDDEN, NOBODY
from kotp2p.rules.card import BASE, COSTUME
from kotp2p.rules.cardindex import CARDS
from kotp2p.rules.effects import MAX_STARS, max_hp
from kotp2p.rules.evoslots import (
    GONE,
    IN_PLAY,
    evolution_deck,
    evolution_owner,
    is_evolution,
    is_power_up,
    known_card,
    slot_count,
    zone,
)
from kotp2p.rules.halloween import free_costumes, is_halloween
from kotp2p.rules.machine import legal_actions
from kotp2p.rules.registry import DECISIONS
from kotp2p.rules.state import Decision, Pending, RandomRequest, State, costumes_in_deck


def broken_invariants(s: State) -> list[str]:
    """Every invariant ``s`` breaks, in words. An empty list means the state is sound."""
    out: list[str] = []
    for seat in range(s.n):
        who = f"seat {seat}"
        if s.alive[seat] and not 0 <= s.hp[seat] <= max_hp(s, seat):
            out.append(f"{who} has {s.hp[seat]}♥, outside 0..{max_hp(s, seat)}")
        if s.energy[seat] < 0:
            out.append(f"{who} has {s.energy[seat]}⚡")
        if not 0 <= s.stars[seat] <= MAX_STARS:
            out.append(f"{who} has {s.stars[seat]}★, outside 0..{MAX_STARS}")
        if not s.alive[seat] and (s.hp[seat] != 0 or s.in_tokyo(seat) or s.cards[seat]):
            out.append(f"{who} is out but keeps health, a place in Tokyo or cards")
    for place, seat in (("Tokyo City", s.city), ("Tokyo Bay", s.bay)):
        if seat != NOBODY and not s.alive[seat]:
            out.append(f"{place} holds seat {seat}, which is out")
    if s.city != NOBODY and s.city == s.bay:
        out.append(f"seat {s.city} is in Tokyo City and Tokyo Bay at once")
    if s.alive_count() < 5 and s.bay != NOBODY:
        out.append(f"Tokyo Bay is in use with {s.alive_count()} monsters alive")
    p: Pending = s.pending
    if s.over and p is not None:
        out.append("the game is over, yet something is pending")
    if not s.over and not isinstance(p, Decision | RandomRequest):
        out.append(f"the game goes on, yet nothing is pending: {p!r}")
    if isinstance(p, Decision):
        if not s.alive[p.seat]:
            out.append(f"seat {p.seat} is asked to decide, but it is out")
        if len(legal_actions(s)) < (1 if DECISIONS[p.kind].always_ask else 2):
            out.append(f"seat {p.seat} is asked a {p.kind!r} question with one answer or none")
    out += _cards_in_one_place(s)
    if is_power_up(s):
        out += _evolution_decks(s)
    return out


def _evolution_decks(s: State) -> list[str]:
    """Each deck keeps 8 slots, and the cards this replica sees in them are its monster's, once."""
    out: list[str] = []
    for seat in range(s.n):
        deck = evolution_deck(s.monsters[seat])
        live = [j for j in range(slot_count(s, seat)) if zone(s, seat, j) != GONE]
        if len(live) != len(deck):
            out.append(f"seat {seat}'s Evolution deck has {len(live)} slots, not {len(deck)}")
        in_play = sorted(known_card(s, seat, j) for j in live if zone(s, seat, j) == IN_PLAY)
        in_front = [c for owned in s.cards for c in owned
                    if is_evolution(c) and evolution_owner(s, c) == seat]
        if in_play != sorted(in_front):
            out.append(f"seat {seat}'s Evolutions in play are not the cards in front of it")
        seen = [known_card(s, seat, j) for j in live if zone(s, seat, j)]
        cards = [c for c in seen if c != HIDDEN]
        if any(c not in deck for c in cards) or len(set(cards)) != len(cards):
            out.append(f"seat {seat}'s Evolution slots hold {sorted(cards)}, not cards of its deck")
    return out


def _cards_in_one_place(s: State) -> list[str]:
    cards = [c for c in (*s.market, *s.deck, *s.discard) if c]
    for owned in s.cards:
        cards.extend(c for c in owned if not is_evolution(c))
    halloween = is_halloween(s)
    if halloween and not costumes_in_deck(s.flags, s.stack):  # not picked, not in the deck yet
        cards.extend(free_costumes(s))
    in_play = [c for c, card in CARDS.items() if card.box == BASE or (halloween and card.kind == COSTUME)]
    if sorted(cards) == in_play:
        return []
    missing = sorted(set(in_play) - set(cards))
    twice = sorted({c for c in cards if cards.count(c) > 1})
    return [f"every card should be in one place: missing {missing}, twice {twice}"]
