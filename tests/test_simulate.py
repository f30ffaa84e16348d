"""simulate's statistics come from the engine's events: they count what happened."""

from __future__ import annotations

import random

import pytest

from kotp2p import rules
from kotp2p.app.simulate import _seed, format_summary, play_game, simulate, wilson
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


def test_simulate_power_up_deals_monsters_among_twelve_counts_evolutions_and_checks_states() -> None:
    summary = simulate(16, 4, 7, ("greedy", "random"), power_up=True, check=True)
    told = summary.to_json()
    assert told["invariants"] == {"states": summary.states_checked, "broken": [],
                                  "broken_count": 0}
    monsters = told["monsters"]
    assert isinstance(monsters, dict) and sum(m["games"] for m in monsters.values()) == 16 * 4
    assert len(monsters) > 6  # more than the first six of the list
    evolutions = told["evolutions"]
    assert isinstance(evolutions, dict) and evolutions
    assert set(evolutions) <= {c.name for c in rules.CARDS.values() if c.box == "power up"}
    played = sum(e["played"] for e in evolutions.values())
    assert f"Power Up!: {played} Evolutions played in 16 games" in format_summary(summary)
    again = simulate(16, 4, 7, ("greedy", "random"), power_up=True)
    assert again.digest == summary.digest  # the same seed deals the same monsters
    assert "evolutions" not in simulate(2, 2, 5, ("random",)).to_json()


def test_the_greedy_bot_keeps_a_permanent_card_and_plays_a_card_at_once() -> None:
    s = rules.new_game(rules.Setup(monsters=("Kraken", "Cyber Bunny"),
                                   options=rules.Options(power_up=True)))
    s = rules.apply(rules.apply(s, rules.PASS), rules.PASS)  # both decks committed
    s = rules.apply(s, rules.RandomResult((0, 0)))  # Kraken draws slots 0 and 1
    deck = rules.evolution_deck("Kraken")
    terror, healing_rain = deck.index(rules.card_by_name("Terror of the Deep")), 0
    s = rules.apply(s, rules.RandomResult((terror, healing_rain)))  # Permanent, then Temporary
    bot = make_bot("greedy", 1)
    assert bot.choose(s) == rules.KeepEvolution(0)
    s = rules.from_text(
        "Kraken 5/0/0; Cyber Bunny 10/0/0 | active=0 turn=3 phase=end "
        "market=heal,energize,jetfighters flags=powerup:1,evo.n.0:8,evo.n.1:8,evo.0.0:2 "
        f"slots=-1:{rules.card_by_name('Healing Rain')}")
    assert bot.choose(s) == rules.PlayEvolution(0, rules.card_by_name("Healing Rain"))


def test_the_greedy_bot_pays_for_energy_sword_before_rolling_but_not_for_exotic_arms() -> None:
    from tests.rules.test_powerup_cards import table

    bot = make_bot("greedy", 1)
    s = table("Cyber Bunny 10/0/5 +energysword", "Kraken 10/0/0 @city", phase="start")
    assert bot.choose(s) == rules.UseCard(rules.card_by_name("Energy Sword"))
    s = table("Alienoid 10/0/5 +exoticarms", "Kraken 10/0/0 @city", phase="start")
    assert s.pending == rules.Decision(0, "prepare") and bot.choose(s) == rules.PASS


def test_a_bot_in_one_seat_of_every_game_gets_its_win_rate_with_a_95_percent_interval() -> None:
    assert wilson(0.5, 100) == (pytest.approx(0.4038, abs=1e-4), pytest.approx(0.5962, abs=1e-4))
    summary = simulate(12, 3, 2, ("random", "greedy", "greedy"))
    low, high = summary.intervals()["random"]
    rate = summary.bot_wins["random"] / 12
    assert low <= rate <= high and "greedy" not in summary.intervals()  # greedy sits twice
    assert f"random in one seat of each game: {rate:.1%}, 95% interval {low:.1%} to {high:.1%}" \
        in format_summary(summary)
    assert summary.to_json()["win_rate_95_interval"] == {"random": [low, high]}
