"""The game log and the footer as a player reads them: each move said once, turns as headings,
hits on the player highlighted and kept in view, and the bots waiting after the player's news."""

from __future__ import annotations

import pytest

from kotp2p import rules
from kotp2p.net.session import ChatLine, MoveApplied, Narrated, Update
from kotp2p.net.session.narration import move_narration, narrated
from kotp2p.net.trust import RulesEngine
from kotp2p.ui import Comfort, Controller
from kotp2p.ui.full.screen import game_screen, to_text
from tests.ui.fakes import FakeGame

SMASH = ("The King 10/0/0 @city; Giga Zaur 10/0/0; Alienoid 10/0/0 "
         "| active=1 phase=roll dice=ssse11 rolls=1")
ENGINE = RulesEngine()


def move(state: rules.State, action: rules.Action, step: int) -> list[Update]:
    """The updates a session gives for ``action`` (what narration builds from the engine)."""
    seat = state.pending.seat if isinstance(state.pending, rules.Decision) else None
    return move_narration(ENGINE, state, rules.action_to_wire(action), step, seat)


def log_of(c: Controller) -> list[tuple[str, str]]:
    return [(ln.style, ln.text) for ln in c.log]


def test_a_hit_on_the_player_is_highlighted_kept_in_the_footer_and_holds_the_bots() -> None:
    s = rules.from_text(SMASH)
    g = FakeGame(s, me=0)
    c = Controller(g, comfort=Comfort(pause=0.8))
    assert c.bot_delay(0.0) == 0.8
    c.on_updates(move(s, rules.STOP, 1))
    log = log_of(c)
    assert not any("stops rolling" in text for _, text in log)  # its events say it
    assert ("log.hit", "· Giga Zaur smashes The King for 3♥") in log
    assert ("log.event", "· Giga Zaur gains 1⚡ (dice)") in log
    screen = to_text(game_screen(c, 80, 24)).splitlines()
    assert screen[-1].startswith(" Giga Zaur smashes The King for 3♥ ") and c.footer_error
    assert screen[-1].endswith("q quit")  # the footer keys stay beside it
    assert c.bot_delay(0.0) >= 2.0  # the next bot move waits so the player can read it
    s2 = rules.apply(s, rules.STOP)
    c.on_updates(move(s2, rules.STAY, 2))  # the player's own answer: still their news
    assert ("log.turn", "── turn 2: Alienoid ──") in log_of(c)
    assert not any(text.startswith("The King stays") for _, text in log_of(c))
    assert "Giga Zaur smashes The King for 3♥" in to_text(game_screen(c, 80, 24))


def test_the_players_own_results_stay_in_the_footer_and_a_bot_move_ends_the_hold() -> None:
    s = rules.from_text(SMASH)
    g = FakeGame(s, me=1)
    c = Controller(g, comfort=Comfort(pause=0.5))
    c.on_updates(move(s, rules.STOP, 1))
    assert c.footer.startswith("you: gains 1⚡ (dice); ")  # the player's monster goes without saying
    assert "smashes The King for 3♥" in c.footer and not c.footer_error
    assert ("log.damage", "· Giga Zaur smashes The King for 3♥") in log_of(c)  # not a hit on me
    assert c.bot_delay(0.0) >= 2.0
    s2 = rules.apply(s, rules.STOP)
    c.on_updates(move(s2, rules.STAY, 2))  # The King, a bot, answers
    assert c.bot_delay(0.0) == 0.5
    assert c.footer.startswith("you: ")  # the news stays past the next turn's heading


def test_no_pause_means_no_hold_and_a_new_turn_clears_an_old_message() -> None:
    s = rules.from_text(SMASH)
    g = FakeGame(s, me=0)
    c = Controller(g, comfort=Comfort(pause=0.0))
    c.press("x")  # not the player's decision: an error in the footer
    assert c.footer_error
    c.hold = True
    assert c.bot_delay(0.25) == 0.25  # tests and --bot-delay 0 games do not wait
    c.on_updates([narrated(2, "-- turn 2: Alienoid --")])
    assert c.footer == "" and log_of(c)[-1] == ("log.turn", "── turn 2: Alienoid ──")


def test_the_resolve_preview_says_only_what_this_roll_does() -> None:
    quiet = rules.from_text("The King 10/0/0 @city; Giga Zaur 10/0/0; Alienoid 10/0/0 "
                            "| active=1 phase=roll dice=123123 rolls=1 market=energize,-,-")
    c = Controller(FakeGame(quiet, me=1))
    screen = to_text(game_screen(c, 80, 24))
    assert "resolve now: nothing happens" in screen
    assert "cannot buy" not in screen and "turn 2" not in screen  # minor, and the next turn's
    c = Controller(FakeGame(rules.from_text(SMASH), me=1))
    assert ("resolve now: Giga Zaur gains 1⚡ (dice); Giga Zaur smashes The King for 3♥"
            in to_text(game_screen(c, 80, 24)))


def test_the_bridge_sets_the_bots_delay_from_the_pause_and_the_hold() -> None:
    from types import SimpleNamespace

    from kotp2p.app.fullscreen import _BridgeView

    s = rules.from_text(SMASH)
    c = Controller(FakeGame(s, me=0), comfort=Comfort(pause=0.8))
    session = SimpleNamespace(bot_delay=0.8)
    view = _BridgeView(c, lambda: None, session, 0.0)  # type: ignore[arg-type]
    view.show(move(s, rules.STOP, 1))  # the player is smashed
    assert session.bot_delay == pytest.approx(2.4)
    c.comfort.pause = 0.2  # the player shortens the pause (options page)
    view.show(move(rules.apply(s, rules.STOP), rules.STAY, 2))
    assert session.bot_delay == 2.0
    view.show([MoveApplied(3, "move", 2, "Alienoid keeps 1 and re-rolls 5 dice")])
    assert session.bot_delay == 0.2


def test_news_and_a_new_turn_leave_the_quit_question_on_screen() -> None:
    s = rules.from_text(SMASH)
    c = Controller(FakeGame(s, me=0), comfort=Comfort(pause=0.8))
    c.press("q")
    c.on_updates([*move(s, rules.STOP, 1), narrated(2, "-- turn 2: Alienoid --")])
    assert c.footer.startswith("Quit?") and c.confirm_quit
    assert ("log.hit", "· Giga Zaur smashes The King for 3♥") in log_of(c)
    c.press("y")
    assert c.exit_requested


def test_hits_are_told_by_the_engines_events_not_by_the_words_of_the_line() -> None:
    s = rules.from_text(SMASH)
    c = Controller(FakeGame(s, me=0), comfort=Comfort(pause=0.8))
    c.on_updates([
        MoveApplied(1, "move", 1, "Giga Zaur resolves", told=False),
        # a line that reads like a hit on the player, but the engine says it hit Alienoid
        Narrated(1, "Giga Zaur smashes The King for 3♥", event=rules.Damaged(2, 3, 1, True)),
        # other words for the same kind of thing: the event decides
        Narrated(1, "Le Roi perd 2♥ (poison)", event=rules.Damaged(0, 2, -1, False)),
        Narrated(1, "The King hits itself for 1♥", event=rules.Damaged(0, 1, 0, False)),
    ])
    log = log_of(c)
    assert ("log.damage", "· Giga Zaur smashes The King for 3♥") in log
    assert ("log.hit", "· Le Roi perd 2♥ (poison)") in log
    assert ("log.hit", "· The King hits itself for 1♥") in log
    assert c.footer == "Le Roi perd 2♥ (poison); The King hits itself for 1♥" and c.footer_error
    assert c.bot_delay(0.0) >= 2.0


def test_a_line_without_an_event_is_never_taken_for_a_hit() -> None:
    c = Controller(FakeGame(rules.from_text(SMASH), me=0), comfort=Comfort(pause=0.8))
    c.on_updates([narrated(1, "Giga Zaur smashes The King for 3♥")])  # an engine with no events
    assert log_of(c) == [("log.event", "· Giga Zaur smashes The King for 3♥")]
    assert not c.footer_error and c.bot_delay(0.0) == 0.8


def test_the_session_narration_carries_the_engines_events() -> None:
    s = rules.from_text(SMASH)
    updates = move(s, rules.STOP, 1)
    hits = [u for u in updates if isinstance(u, Narrated) and isinstance(u.event, rules.Damaged)]
    assert [(h.text, h.event) for h in hits] == [
        ("Giga Zaur smashes The King for 3♥", rules.Damaged(0, 3, 1, True))]
    assert isinstance(updates[1], Narrated) and isinstance(updates[1].event, rules.DiceKept)


def test_the_players_old_news_goes_when_their_next_turn_begins_but_a_hit_stays() -> None:
    s = rules.from_text(SMASH)
    c = Controller(FakeGame(s, me=1), comfort=Comfort(pause=0.5))
    c.on_updates(move(s, rules.STOP, 1))
    assert c.footer.startswith("you: ")
    c.on_updates([narrated(2, "-- turn 2: Alienoid --", rules.TurnBegan(2, 2))])
    assert c.footer.startswith("you: ")  # still there while the others play
    c.on_updates([narrated(3, "-- turn 3: Giga Zaur --", rules.TurnBegan(1, 3))])
    assert c.footer == ""  # the player's own turn: last turn's results are old
    hit = Controller(FakeGame(s, me=0), comfort=Comfort(pause=0.5))
    hit.on_updates(move(s, rules.STOP, 1))
    hit.on_updates([narrated(3, "-- turn 3: The King --", rules.TurnBegan(0, 3))])
    assert hit.footer == "Giga Zaur smashes The King for 3♥" and hit.footer_error


def test_a_chat_line_stays_where_it_was_said_as_the_game_goes_on() -> None:
    s = rules.from_text(SMASH)
    c = Controller(FakeGame(s, me=2), comfort=Comfort(pause=0.0))
    c.on_updates([ChatLine(2, "hello bots")])
    c.on_updates(move(s, rules.STOP, 1))
    s2 = rules.apply(s, rules.STOP)
    c.on_updates(move(s2, rules.STAY, 2))
    said = "<Alienoid (player2)> hello bots"
    texts = [text for _, text in log_of(c)]
    assert texts.index(said) < texts.index("· Giga Zaur smashes The King for 3♥")
    assert ("chat", said) in log_of(c)
    for width, height in ((80, 24), (160, 48)):
        screen = [ln.strip() for ln in to_text(game_screen(c, width, height)).splitlines()]
        log = [ln for ln in screen if said in ln or "── turn 2: Alienoid ──" in ln]
        assert len(log) == 2 and said in log[0]  # above the turn that began after it, once


def test_the_resumed_line_goes_where_the_seat_plays_again_after_catching_up() -> None:
    from kotp2p.net.session import CaughtUp, Resumed

    state = rules.from_text(SMASH)
    c = Controller(FakeGame(state, me=0))
    missed = move(state, rules.STOP, 7)  # a move made while this seat was away
    c.on_updates([Resumed((), catching_up=True), *missed,
                  CaughtUp("Alice caught up with the others")])
    text = [line.text for line in c.log]
    away = next(i for i, t in enumerate(text) if "while you were away" in t)
    goes_on = next(i for i, t in enumerate(text) if "the game goes on from here" in t)
    assert away < goes_on and any("Giga Zaur" in t for t in text[away + 1:goes_on])
    assert "Alice caught up with the others" in text[goes_on]


def test_colour_carries_meaning_in_the_terminal_s_own_colours() -> None:
    from kotp2p.ui.full.styles import COLOUR

    # A fixed shade such as a pale grey vanishes on a light background: only the theme's colours.
    assert not [rule for rule in COLOUR.values() if "#" in rule]
    state = rules.from_text("The King 6/0/0 @city; Giga Zaur 5/0/0; Alienoid 10/0/0 "
                            "| active=1 phase=roll dice=sshh11 rolls=1")
    c = Controller(FakeGame(state, me=2))
    c.on_updates(move(state, rules.STOP, 3))
    styles = {line.style for line in c.log if line.text.startswith("·")}
    assert {"log.damage", "log.heal"} <= styles
    assert COLOUR["log.damage"] != COLOUR["log.heal"] and COLOUR["log.heal"] == COLOUR["energy"]
