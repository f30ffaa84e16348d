"""The end screen's figures come from the engine's events: damage by its dealer, ⚡ spent on
cards, sweeps and the monster's own card effects only (not ⚡ lost with a monster knocked out or
taken by another's card), cards bought, turns begun in Tokyo; and over a whole session they
match the game's own moves."""

from __future__ import annotations

from kotp2p import rules
from kotp2p.rules.registry import BY_SLUG
from kotp2p.ui.stats import MonsterStats, game_stats, session_stats
from tests.session.kit import session, table


def play(text: str, *actions: rules.Action) -> tuple[rules.State, list[tuple[rules.Event,
                                                                                rules.State]]]:
    state = rules.from_text(text)
    told: list[tuple[rules.Event, rules.State]] = []
    for action in actions:
        events: list[rules.Event] = []
        state = rules.apply(state, action, events=events)
        told += [(e, state) for e in events]
    return state, told


def by_monster(stats: list[MonsterStats]) -> dict[str, MonsterStats]:
    return {m.monster: m for m in stats}


def test_a_knockout_counts_the_blow_and_not_the_energy_the_loser_had_as_spent() -> None:
    last, told = play("The King 1/0/5 @city; Giga Zaur 10/0/0; Alienoid 10/0/0 "
                      "| active=1 phase=roll dice=ssse11 rolls=1", rules.STOP)
    stats = by_monster(game_stats(last, told))
    king, zaur = stats["The King"], stats["Giga Zaur"]
    assert not king.alive and king.damage_taken == 1 and king.energy_spent == 0
    assert zaur.damage_dealt == 1 and zaur.rank == 1
    assert stats["Alienoid"].damage_dealt == 0


def test_buying_and_sweeping_are_spent_and_a_turn_begun_in_tokyo_is_counted() -> None:
    heal = BY_SLUG["heal"]
    last, told = play("The King 10/0/12 @city; Giga Zaur 10/0/0 | active=0 phase=buy "
                      "market=heal,tank,skyscraper", rules.SWEEP)
    assert by_monster(game_stats(last, told))["The King"].energy_spent == 2
    last, told = play("The King 10/0/12 @city; Giga Zaur 10/0/0 | active=0 phase=buy "
                      "market=heal,tank,skyscraper", rules.Buy(heal))
    king = by_monster(game_stats(last, told))["The King"]
    assert king.cards_bought == 1 and king.energy_spent == rules.CARDS[heal].cost
    last, told = play("The King 10/0/0 @city; Giga Zaur 10/0/0; Alienoid 10/0/5 "
                      "| active=2 phase=buy market=heal,tank,skyscraper", rules.DONE)
    stats = by_monster(game_stats(last, told))
    assert stats["The King"].turns_in_tokyo == 1 and stats["Alienoid"].turns_in_tokyo == 0


def test_a_whole_game_s_figures_match_its_moves() -> None:
    s = session(table(3), range(3))
    s.start(0.0)
    assert s.is_over
    stats = session_stats(s)
    buys = [0, 0, 0]
    for entry in s.protocol.replica.entries:
        if entry.kind == "move" and isinstance(rules.action_from_wire(entry.action), rules.Buy):
            buys[entry.seat or 0] += 1
    assert [m.cards_bought for m in sorted(stats, key=lambda m: m.seat)] == buys
    assert sum(m.damage_taken for m in stats) >= sum(m.damage_dealt for m in stats) > 0
    final = s.state
    for m in stats:
        assert m.alive == final.alive[m.seat]
        if m.alive:
            assert m.stars == final.stars[m.seat]
        else:  # the stars it had when it fell, which the final state has set to 0
            assert 0 <= m.stars < 20 and m.damage_taken >= 10  # knocked out from 10♥ or more


def test_energy_paid_for_a_monsters_own_card_effects_is_spent() -> None:
    rapid, drink = BY_SLUG["rapidhealing"], BY_SLUG["energydrink"]
    last, told = play("The King 7/0/5 +rapidhealing; Giga Zaur 10/0/6 | active=0 phase=buy "
                      "market=heal,tank,skyscraper", rules.UseCard(rapid), rules.UseCard(rapid))
    king = by_monster(game_stats(last, told))["The King"]
    assert last.hp[0] == 9 and king.energy_spent == 4 and king.cards_bought == 0
    last, told = play("The King 7/0/5 +energydrink; Giga Zaur 10/0/6 | active=0 phase=roll "
                      "dice=123ehs rolls=0", rules.UseCard(drink))
    assert by_monster(game_stats(last, told))["The King"].energy_spent == 1


def test_energy_taken_by_another_monsters_card_is_not_spent() -> None:
    storm, ray = BY_SLUG["vaststorm"], BY_SLUG["healingray"]
    last, told = play("The King 7/0/12; Giga Zaur 10/0/6 | active=0 phase=buy "
                      "market=heal,tank,vaststorm", rules.Buy(storm), rules.RandomResult((0,)))
    stats = by_monster(game_stats(last, told))
    assert last.energy[1] == 3 and stats["Giga Zaur"].energy_spent == 0
    assert stats["The King"].energy_spent == rules.CARDS[storm].cost
    last, told = play("The King 10/0/0 +healingray; Giga Zaur 5/0/6 | active=0 phase=roll "
                      "dice=hh1123 rolls=1", rules.STOP, rules.UseCard(ray, (1, 2)))
    stats = by_monster(game_stats(last, told))
    assert last.energy[1] == 2 and stats["Giga Zaur"].energy_spent == 0


def test_a_monster_knocked_out_shows_the_stars_it_had_when_it_fell() -> None:
    from kotp2p.ui.full.pages import end_page
    from kotp2p.ui.full.screen import to_text
    from kotp2p.ui.model import Controller, EndInfo
    from tests.ui.fakes import FakeGame

    start = "The King 1/7/5 @city; Giga Zaur 10/2/0; Alienoid 10/3/0 | active=1 phase=roll dice=ssse11 rolls=1"
    last, told = play(start, rules.STOP)
    stats = game_stats(last, told, rules.from_text(start))
    assert by_monster(stats)["The King"].stars == 7 and not by_monster(stats)["The King"].alive
    c = Controller(FakeGame(last))
    c.end = EndInfo("Giga Zaur won.", "/tmp/x.kotlog", stats)
    c.screen = "end"
    page = to_text(end_page(c, 80, 24))
    row = next(ln for ln in page.splitlines() if "The King" in ln)
    assert row.split()[3] == "7", row
    # Ranked below a survivor with fewer stars: the page says why.
    assert " ".join(page.split()).count("then the others, the last to fall first") == 1


def test_energy_gained_counts_the_dice_and_cards_that_give_it() -> None:
    last, told = play("The King 10/0/1 @city; Giga Zaur 10/0/0 "
                      "| active=0 phase=roll dice=eee123 rolls=1", rules.STOP)
    king = by_monster(game_stats(last, told))["The King"]
    assert last.energy[0] == 4 and king.energy_gained == 3 and king.energy_spent == 0


def test_the_plain_interface_ends_with_each_monster_s_figures() -> None:
    import io

    from kotp2p.ui.plain import PlainView

    s = session(table(3), range(3))
    out = io.StringIO()
    view = PlainView(s, out=out)
    s.start(0.0)
    view.show(s.updates())
    text = out.getvalue()
    table_lines = text[text.index("Game over."):].splitlines()[1:]
    assert table_lines[0].split()[:6] == ["#", "monster", "★", "♥", "dealt", "taken"]
    ranked = [int(line.split()[0]) for line in table_lines[1:4]]
    assert ranked == sorted(ranked) and ranked[0] == 1
    assert "⚡ got: gained in the game" in text


def test_tied_monsters_share_a_rank_and_the_next_one_counts_them() -> None:
    last = rules.from_text("The King 10/20/0; Giga Zaur 5/11/0; Alienoid 5/11/0; "
                           "Cyber Kitty 3/4/0 | phase=over")
    ranks = sorted(m.rank for m in game_stats(last, []))
    assert ranks == [1, 2, 2, 4]
