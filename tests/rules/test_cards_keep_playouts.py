"""Random playouts that start with Keep cards already in play (random bots rarely afford the
dear ones), so every card, token and window is exercised: every step keeps the engine's
invariants, and replaying the inputs gives the same digest."""

from __future__ import annotations

import random

import pytest

from kotp2p import rules
from kotp2p.rules.registry import SLUGS
from tests.rules.test_playouts import check_invariants, random_playout

MIMIC = 27
TOKENS = {28: 6, 41: 3}  # Battery Monster's energy, Smoke Cloud's smoke


def dealt_start(n: int, rng: random.Random) -> rules.State:
    """A position at the start of a turn where each monster owns a few random Keep cards."""
    keep = [c for c in sorted(rules.CARDS) if rules.CARDS[c].kind == rules.KEEP]
    rng.shuffle(keep)
    seats, owned, tokens = [], [], {}
    for seat in range(n):
        mine = [keep.pop() for _ in range(rng.randrange(2, 7))]
        owned.extend(mine)
        stats = f"{rng.randrange(3, 11)}/{rng.randrange(0, 15)}/{rng.randrange(0, 16)}"
        place = " @city" if seat == 1 else ""
        shrink = f" shrink={rng.randrange(3)}" if rng.random() < 0.2 else ""
        poison = f" poison={rng.randrange(3)}" if rng.random() < 0.2 else ""
        cards = "".join(" +" + SLUGS[c] for c in mine)
        seats.append(f"{rules.MONSTERS[seat]} {stats}{place}{cards}{shrink}{poison}")
        for c in mine:
            if c in TOKENS:
                tokens[c] = TOKENS[c]
    market = [keep.pop(), 101 + rng.randrange(18), keep.pop()]
    market = [c for c in market if c not in owned][:3]
    fields = [f"active={rng.randrange(n)}", "phase=start", "market=" + ",".join(SLUGS[c] for c in market)]
    if MIMIC in owned:
        targets = [c for c in owned if c != MIMIC]
        fields.append(f"flags=copy.27:{rng.choice(targets)}")
        if fields[-1].endswith((":28", ":41")):
            tokens[MIMIC] = TOKENS[int(fields[-1].rsplit(":", 1)[1])]
    if tokens:
        fields.append("tokens=" + ",".join(f"{SLUGS[c]}:{v}" for c, v in sorted(tokens.items())))
    return rules.from_text("; ".join(seats) + " | " + " ".join(fields))


def check_cards(s: rules.State) -> None:
    owned = {c for cs in s.cards for c in cs}
    assert set(s.tokens) <= owned, "tokens on a card out of play"
    target = s.flags.get("copy.27")
    if target is not None:
        assert MIMIC in owned and target in owned and target != MIMIC


def playout(n: int, seed: int) -> tuple[rules.State, list[rules.Action], rules.State]:
    rng = random.Random(seed)
    start = dealt_start(n, rng)

    def each(before: rules.State, after: rules.State, step: int) -> None:
        check_invariants(after)
        check_cards(after)
        if step % 11 == 0:
            again = rules.from_text(rules.to_text(after))
            assert again.digest() == after.digest() and again.pending == after.pending

    inputs, end = random_playout(start, rng, each, limit=5000)
    return start, inputs, end


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_playouts_with_keep_cards_in_play_keep_every_invariant_and_replay(players: int) -> None:
    for seed in range(40):
        start, inputs, end = playout(players, 7000 + 100 * players + seed)
        s = rules.state_from_wire(rules.state_to_wire(start))
        for a in inputs:
            s = rules.apply(s, a)
        assert s.digest() == end.digest()
