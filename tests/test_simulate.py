"""simulate's statistics come from the engine's events: they count what happened."""

from __future__ import annotations

import random

from kotp2p import rules
from kotp2p.app.simulate import _seed, format_summary, play_game, simulate
from kotp2p.bots import make_bot


def test_a_game_record_counts_purchases_damage_and_the_way_it_ended() -> None:
    kinds = ("greedy", "random", "greedy")
    for game in range(6):
        rec = play_game(kinds, 3, game)
        # The same game again, counted by hand from the inputs and the states they make.
        state = rules.new_game(rules.Setup(monsters=rules.MONSTERS[:3]))
        rng = random.Random(_seed(3, game))
        bots = [make_bot(k, _seed(3, game, seat)) for seat, k in enumerate(kinds)]
        bought: list[tuple[int, int]] = []
        while not state.over:
            p = state.pending
            if isinstance(p, rules.RandomRequest):
                state = rules.apply(state, rules.RandomResult(tuple(rng.randrange(b) for b in p.bounds)))
                continue
            assert isinstance(p, rules.Decision)
            action = bots[p.seat].choose(state)
            if isinstance(action, rules.Buy):
                bought.append((p.seat, action.card))
            state = rules.apply(state, action)
        assert rec.digest == state.digest()
        assert [x for x in rec.purchases if x in bought] == bought  # every Buy, in order
        assert rec.damage > 0
        survivors = [t for t in range(3) if state.alive[t]]
        if rec.by_points:
            assert all(state.stars[w] >= 20 for w in rec.winners)
        else:
            assert len(survivors) <= 1 and tuple(survivors) == rec.winners


def test_simulate_halloween_counts_costumes_and_steals_and_checks_every_state() -> None:
    summary = simulate(12, 4, 5, ("greedy",), halloween=True, check=True)
    told = summary.to_json()
    assert told["invariants"] == {"states": summary.states_checked, "broken": [],
                                  "broken_count": 0}
    assert summary.states_checked == round(summary.mean_applies * 12)
    costumes = told["costumes"]
    assert isinstance(costumes, dict) and sum(c["held_by"] for c in costumes.values()) >= 12 * 4
    assert set(costumes) <= {c.name for c in rules.CARDS.values() if c.kind == rules.COSTUME}
    stolen = sum(c["stolen"] for c in costumes.values())
    assert stolen == sum(summary.steals.values()) > 0
    text = format_summary(summary)
    assert f"Halloween: {stolen} costumes stolen in 12 games" in text
    assert "costumes" not in simulate(2, 2, 5, ("random",)).to_json()
