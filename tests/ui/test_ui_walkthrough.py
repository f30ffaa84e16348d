"""What a new player noticed in the full screen, each checked as they would see it: Esc acts at
once, being knocked out is said, the end says whether you won, status lines go when their
decision is over, the footer keys stay, the dice row says "rolls left" only while rolling."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from prompt_toolkit.application import Application
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from kotp2p import rules
from kotp2p.net.session import GameOver, MoveApplied
from kotp2p.ui.full import build_app
from kotp2p.ui.full.pages import end_page
from kotp2p.ui.full.screen import game_screen, to_text
from kotp2p.ui.model import Controller, result_for
from tests.ui.fakes import FakeGame

FOUR = "The King {}; Giga Zaur {}; Alienoid {}; Cyber Kitty {}"
ROLL = FOUR.format("10/0/0", "10/0/0 @city", "10/0/0", "10/0/0") + \
    " | active=0 phase=roll dice=sss123 rolls=2"
CTRL_C = "\x03"


Script = Callable[[PipeInput, Application[None]], Awaitable[None]]


async def until(done: Callable[[], bool], seconds: float = 3.0) -> float:
    """Wait until ``done()`` is true; the seconds it took."""
    start = time.monotonic()
    while not done():
        assert time.monotonic() - start < seconds, "it did not happen"
        await asyncio.sleep(0.005)
    return time.monotonic() - start


def run(ctrl: Controller, script: Script) -> None:
    """Run the application over ``ctrl`` while ``script(pipe, app)`` types into it."""

    async def main() -> None:
        with create_pipe_input() as pipe:
            app = build_app(ctrl, input=pipe, output=DummyOutput(), refresh=None)
            task = asyncio.ensure_future(app.run_async())
            await asyncio.sleep(0.05)
            await script(pipe, app)
            pipe.send_text(CTRL_C)
            await asyncio.wait_for(task, 10)

    asyncio.run(main())


def test_esc_closes_the_card_browser_at_once_and_the_next_key_is_a_key_of_its_own() -> None:
    g = FakeGame(ROLL, me=0)
    c = Controller(g)

    async def script(pipe: PipeInput, app: Application[None]) -> None:
        pipe.send_text("ktan")
        await until(lambda: c.screen == "cards")
        # Esc acts at once: the wait for the rest of an escape sequence is short, and no
        # Alt+key binding holds it. prompt_toolkit waits 0.5 s and 1 s by default. The
        # settings are checked, not the wall clock, which a busy machine stretches.
        assert app.ttimeoutlen is not None and app.ttimeoutlen <= 0.05
        assert app.timeoutlen <= 0.05
        pipe.send_text("\x1b")
        await until(lambda: c.screen == "game")
        pipe.send_text("\x1bc")  # Esc then c typed quickly: c opens the chat, not Alt+c
        await until(lambda: c.chatting)
        pipe.send_text("hi\r")
        await until(lambda: g.chats == ["hi"])

    run(c, script)


def test_esc_typed_right_after_a_search_and_then_c_opens_the_chat() -> None:
    g = FakeGame(ROLL, me=0)
    c = Controller(g)

    async def script(pipe: PipeInput, app: Application[None]) -> None:
        pipe.send_text("ktan\x1bchi\r")
        await until(lambda: g.chats == ["hi"])
        assert c.screen == "game"

    run(c, script)


def test_the_card_browser_opens_again_with_an_empty_search() -> None:
    c = Controller(FakeGame(ROLL, me=0))
    seen: list[str] = []

    async def script(pipe: PipeInput, app: Application[None]) -> None:
        pipe.send_text("ktan")
        await until(lambda: app.current_buffer.text == "tan")
        pipe.send_text("\x1b")
        await until(lambda: c.screen == "game")
        pipe.send_text("k")
        await until(lambda: c.screen == "cards")
        await asyncio.sleep(0.05)
        seen.append(app.current_buffer.text)
        pipe.send_text("\x1b")
        await until(lambda: c.screen == "game")

    run(c, script)
    assert seen == [""]


SIX = ("The King 10/3/2 @city; Giga Zaur 8/17/12 @bay; Alienoid 0/5/0 dead=1; Cyber Kitty 4/2/9; "
       "Meka Dragon 12/0/1; Space Penguin 7/19/5 "
       "| active=1 phase=roll dice=123ehss rolls=1 market=firebreathing,healingray,energize")


def screen(ctrl: Controller, width: int = 80, height: int = 24) -> str:
    return to_text(game_screen(ctrl, width, height))


def test_a_player_knocked_out_is_told_so_and_their_row_stays_marked_as_theirs() -> None:
    c = Controller(FakeGame(SIX, me=2))
    text = screen(c)
    row = next(ln for ln in text.splitlines() if "Alienoid" in ln and "out of the game" in ln)
    assert "(you)" in row
    assert "You are out of the game: watch the rest, or press q to leave (your log is kept)" \
        in text
    c.press("q")
    assert "Leave? You are out of the game; your log is kept." in screen(c)
    c.press("y")
    assert c.exit_requested


def test_a_player_still_in_sees_whose_turn_it_is_not_that_they_are_out() -> None:
    text = screen(Controller(FakeGame(SIX, me=3)))
    assert "out of the game: watch" not in text and "Waiting for Giga Zaur" in text
    row = next(ln for ln in text.splitlines() if "Alienoid" in ln)
    assert "(you)" not in row


def end_text(me: int, over: GameOver) -> str:
    c = Controller(FakeGame(SIX, me=me))
    c.on_updates([over])
    assert c.screen == "end"
    return to_text(end_page(c, 80, 24))


def test_the_end_screen_says_you_won_to_the_winner_and_who_won_to_the_others() -> None:
    over = GameOver((1,), False, "player1 (Giga Zaur) won.")
    assert "You won!" in end_text(1, over)
    lost = end_text(0, over)
    assert "You lost: player1 (Giga Zaur) won." in lost and "You won" not in lost


def test_a_win_by_forfeit_and_a_game_everybody_lost_keep_their_wording() -> None:
    forfeit = GameOver((1,), True, "player1 (Giga Zaur) won by forfeit.")
    assert "You won by forfeit: the last opponents were ejected." in end_text(1, forfeit)
    assert "You lost: player1 (Giga Zaur) won by forfeit." in end_text(3, forfeit)
    assert "Everybody lost." in end_text(1, GameOver((), False, "Everybody lost."))


def test_a_shared_win_names_the_other_winners() -> None:
    both = GameOver((0, 1), False, "player0 (The King) and player1 (Giga Zaur) won.")
    assert result_for(both, 1, lambda seat: f"seat {seat}") == "You won, together with seat 0!"
    assert result_for(both, 2, str).startswith("You lost: player0 (The King) and")


BUY = FOUR.format("10/0/9", "10/0/0 @city", "10/0/0", "10/0/0") + \
    " | active=0 phase=buy market=heal,tank,skyscraper"


def test_a_refusal_goes_once_the_decision_it_was_about_is_over() -> None:
    g = FakeGame(ROLL, me=1)
    c = Controller(g)
    c.press("enter")
    assert "it is The King's decision, not yours" in screen(c)
    g.submit(rules.STOP)
    c.on_updates([MoveApplied(1, "move", 0, "The King resolves")])
    assert "not yours" not in screen(c)


def test_the_players_own_status_stays_until_news_replaces_it() -> None:
    g = FakeGame(BUY, me=0)
    c = Controller(g)
    c.press("n")
    assert "skipped buying this turn" in screen(c)
    c.on_updates([MoveApplied(1, "move", 0, "The King is done")])
    assert "skipped buying this turn" in screen(c)


def test_keeping_dice_shows_on_the_status_line_and_the_footer_keys_stay() -> None:
    c = Controller(FakeGame(ROLL, me=0))
    for key in "124":
        c.press(key)
    lines = screen(c).splitlines()
    assert "Your move (roll)" in lines[-2] and lines[-2].rstrip().endswith("keeping 1 2 4")
    assert lines[-1] == " ? help  h hint  k cards  c chat  o options  q quit"
    c.press("6")
    c.press("3")
    c.press("5")
    assert screen(c).splitlines()[-2].rstrip().endswith("keeping 1 2 3 4 5 6")


def test_the_footer_keys_stay_under_a_yield_question_and_its_news() -> None:
    state = rules.from_text(FOUR.format("10/0/0", "10/0/0 @city", "10/0/0", "10/0/0")
                            + " | active=0 phase=resolve dice=11sss2")
    c = Controller(FakeGame(state, me=1))
    c.news("The King smashes Giga Zaur for 3♥", hit=True)
    lines = screen(c).splitlines()
    assert "Your move (stay in Tokyo or yield)" in lines[-3]
    assert lines[-2].strip() == "The King smashes Giga Zaur for 3♥"
    assert lines[-1] == " ? help  h hint  k cards  c chat  o options  q quit"


def test_a_key_that_does_nothing_while_rolling_lists_the_dice_keys_too() -> None:
    c = Controller(FakeGame(ROLL, me=0))
    c.press("x")
    assert "x does nothing here; the keys now: 1-6 (keep a die), Enter, r" in c.footer


def dice_row(ctrl: Controller) -> str:
    return next(ln for ln in screen(ctrl).splitlines() if ln.startswith(" Dice "))


def test_rolls_left_shows_while_rolling_only() -> None:
    assert "rolls left 2" in dice_row(Controller(FakeGame(ROLL, me=0)))
    assert "rolls left 2" in dice_row(Controller(FakeGame(ROLL, me=2)))  # watching a roll
    buying = FOUR.format("10/0/9", "10/0/0 @city", "10/0/0", "10/0/0") + \
        " | active=0 phase=buy dice=sss123 rolls=1 market=heal,tank,skyscraper"
    c = Controller(FakeGame(buying, me=0))
    assert "Your move (buy)" in screen(c)
    assert "rolls left" not in dice_row(c) and "✸   ✸   ✸   1   2   3" in dice_row(c)


def test_the_footer_offers_the_hint_at_the_players_decision_and_chat_only_with_people() -> None:
    bots = Controller(FakeGame(ROLL, me=0, levels=("", "greedy", "greedy", "hard")))
    assert screen(bots).splitlines()[-1] == " ? help  h hint  k cards  o options  q quit"
    wide = " ".join(to_text(game_screen(bots, 120, 40)).split())
    assert "? help h hint i read a card k card browser o options q" in wide
    assert "c chat" not in wide
    waiting = Controller(FakeGame(ROLL, me=1))
    keys = screen(waiting).splitlines()[-1]
    assert " h hint " not in keys and " c chat " in keys


def test_the_turn_in_which_a_monster_reached_20_stars_is_called_the_last() -> None:
    at = FOUR.format("8/20/5", "10/3/0 @city", "10/0/0", "10/0/0") + " | active=0 phase=buy"
    lines = screen(Controller(FakeGame(at, me=0))).splitlines()
    assert lines[0].startswith(" King of Tokyo · turn 1, the last · Tokyo City: Giga Zaur")
    below = FOUR.format("8/19/5", "10/3/0 @city", "10/0/0", "10/0/0") + " | active=0 phase=buy"
    assert "the last" not in screen(Controller(FakeGame(below, me=0)))


def test_the_buy_step_offers_one_key_to_end_it() -> None:
    at = FOUR.format("8/3/5", "10/3/0 @city", "10/0/0", "10/0/0") + " | active=0 phase=buy"
    status = next(ln for ln in screen(Controller(FakeGame(at, me=0))).splitlines()
                  if "Your move (buy)" in ln)
    assert "Enter done" in status and " n " not in status and "skip" not in status


def test_the_arrow_keys_scroll_the_card_browser_a_line_at_a_time() -> None:
    c = Controller(FakeGame(ROLL, me=0))
    seen: list[int] = []

    async def script(pipe: PipeInput, app: Application[None]) -> None:
        pipe.send_text("k")
        await until(lambda: c.screen == "cards")
        pipe.send_text("\x1b[B\x1b[B")  # Down twice
        await until(lambda: c.card_scroll == 2)
        pipe.send_text("\x1b[A")  # Up
        await until(lambda: c.card_scroll == 1)
        seen.append(c.card_scroll)
        pipe.send_text("\x1b")
        await until(lambda: c.screen == "game")

    run(c, script)
    assert seen == [1]
    # The Astronaut costume wins with 17★: its turn at 17 is the last too.
    astronaut = FOUR.format("8/17/5 +astronaut", "10/3/0 @city", "10/0/0", "10/0/0") + \
        " | active=0 phase=buy"
    assert "turn 1, the last" in screen(Controller(FakeGame(astronaut, me=0)))
