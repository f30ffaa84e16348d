"""No outcome depends on the order a monster gained its cards.

Property: a random position (2-6 monsters, random Keep cards, Mimic targets, tokens, Tokyo,
health, stars, energy and phase) is played on twice by the same seeded random driver, once with
every hand as drawn and once with every hand shuffled. Both games must stay identical at every
step: the same legal actions in the same order, the same random requests, the same state in
everything but the order the hands are written in. The rulings that do fix an order among one
monster's cards are applied the same way in both games (``kotp2p.rules.hookorder``), so they
need no exception here.
"""

from __future__ import annotations

import random

import pytest

from kotp2p import rules
from kotp2p.rules.hookorder import RULED_ORDER
from kotp2p.rules.state import state_to_wire

KEEPS = sorted(c for c, d in rules.CARDS.items() if d.kind == rules.KEEP)
EVOLUTIONS = {c for c, d in rules.CARDS.items() if d.box == "power up"}
"""Evolutions are never in the market."""
MIMIC = 27
CARRY_TOKENS = {28: 6, 41: 3}  # Battery Monster's energy, Smoke Cloud's smoke
HANDS_FIELD = 9  # the position of the hands in ``state_to_wire``
STEPS = 250


def _slug(card: int) -> str:
    return rules.CARDS[card].slug


def random_position(rng: random.Random) -> tuple[str, str]:
    """A random position in the text notation, twice: hands as drawn, then every hand shuffled."""
    n = rng.randint(2, 6)
    monsters = rng.sample(rules.MONSTERS, n)
    pool = KEEPS[:]
    rng.shuffle(pool)
    hands: list[list[int]] = []
    for _ in range(n):
        k = rng.choice((0, 1, 2, 3, 3, 4, 5, 6))
        hands.append([pool.pop() for _ in range(k)])
    held = [c for h in hands for c in h]
    tokens: dict[int, int] = {c: rng.randint(1, v) for c, v in CARRY_TOKENS.items() if c in held}
    flags: dict[str, int] = {}
    if MIMIC in held and len(held) > 1 and rng.random() < 0.8:
        target = rng.choice([c for c in held if c != MIMIC])
        flags["copy.27"] = target
        if target in CARRY_TOKENS:
            tokens[MIMIC] = rng.randint(1, CARRY_TOKENS[target])
    places = rng.sample(range(n), 2)
    city = places[0] if rng.random() < 0.8 else -1
    bay = places[1] if n >= 5 and city >= 0 and rng.random() < 0.7 else -1
    active = rng.randrange(n)

    def seat(i: int, hand: list[int]) -> str:
        parts = [monsters[i], f"{rng.randint(1, 10)}/{rng.randint(0, 19)}/{rng.randint(0, 14)}"]
        if i == city:
            parts.append("@city")
        elif i == bay:
            parts.append("@bay")
        parts += ["+" + _slug(c) for c in hand]
        parts += [f"poison={rng.randint(0, 2)}", f"shrink={rng.randint(0, 2)}"]
        return " ".join(parts)

    seats = [seat(i, h) for i, h in enumerate(hands)]
    market = ",".join(_slug(c) for c in rng.sample([c for c in rules.CARDS
                                                  if c not in held and c not in EVOLUTIONS], 3))
    phase = rng.choice(("start", "start", "roll", "resolve", "buy", "end"))
    fields = [f"active={active}", f"market={market}", f"phase={phase}"]
    if phase in ("roll", "resolve"):
        fields.append("dice=" + "".join(rng.choice("123ehs") for _ in range(6)))
        fields.append(f"rolls={rng.randint(0, 2) if phase == 'roll' else 0}")
    if tokens:
        fields.append("tokens=" + ",".join(f"{_slug(c)}:{v}" for c, v in sorted(tokens.items())))
    if flags:
        fields.append("flags=" + ",".join(f"{k}:{v}" for k, v in flags.items()))
    shuffled = []
    for text, hand in zip(seats, hands, strict=True):
        plus = [p for p in text.split() if p.startswith("+")]
        rest = [p for p in text.split() if not p.startswith("+")]
        rng.shuffle(plus)
        shuffled.append(" ".join(rest[:-2] + plus + rest[-2:]) if hand else text)
    tail = " | " + " ".join(fields)
    return "; ".join(seats) + tail, "; ".join(shuffled) + tail


def normal(s: rules.State) -> list[object]:
    """The state as plain values, with each hand in card id order."""
    wire = state_to_wire(s)
    wire[HANDS_FIELD] = [sorted(h) for h in s.cards]
    return wire


def play_both(seed: int) -> int:
    """Play one random position both ways; return how many inputs were compared."""
    rng = random.Random(seed)
    as_drawn, shuffled = random_position(rng)
    a, b = rules.from_text(as_drawn), rules.from_text(shuffled)
    driver = random.Random(seed * 7919 + 1)
    for step in range(STEPS):
        where = f"seed {seed}, step {step}: {rules.to_text(a)}"
        assert normal(a) == normal(b), where
        assert a.pending == b.pending, where
        if a.is_over:
            return step
        legal = rules.legal_actions(a)
        assert legal == rules.legal_actions(b), where
        p = a.pending
        if isinstance(p, rules.RandomRequest):
            action: rules.Action = rules.RandomResult(tuple(driver.randrange(x) for x in p.bounds))
        else:
            action = legal[driver.randrange(len(legal))]
        a, b = rules.apply(a, action), rules.apply(b, action)
    return STEPS


@pytest.mark.parametrize("block", range(8))
def test_shuffled_hands_play_exactly_like_hands_in_the_order_gained(block: int) -> None:
    compared = sum(play_both(seed) for seed in range(block * 40, block * 40 + 40))
    assert compared > 40 * 20  # the games went somewhere


def test_the_positions_differ_in_hand_order_only() -> None:
    as_drawn, shuffled = random_position(random.Random(3))
    a, b = rules.from_text(as_drawn), rules.from_text(shuffled)
    assert normal(a) == normal(b)
    differs = [random_position(random.Random(seed)) for seed in range(20)]
    assert any(x != y for x, y in differs)


def test_the_ruled_orders_name_cards_that_have_that_hook_point() -> None:
    for hook, (cards, ruling) in RULED_ORDER.items():
        assert ruling
        for c in cards:
            assert hook in rules.CARDS[c].hooks, f"{rules.CARDS[c].name} has no {hook!r} effect"
