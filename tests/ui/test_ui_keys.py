"""Keys through the real application (pipe input, dummy output): every kind of decision can be made
from the keyboard and submits the engine action a player expects; illegal keys change nothing and
say why."""

from __future__ import annotations

import asyncio
import threading
import types
from collections.abc import Callable

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from kotp2p import rules
from kotp2p.app.fullscreen import SessionPort
from kotp2p.rules.registry import BY_SLUG
from kotp2p.ui import Comfort, Controller
from kotp2p.ui import keys as K
from kotp2p.ui.full import build_app
from tests.ui.fakes import FakeGame

FOUR = "The King {}; Giga Zaur {}; Alienoid {}; Cyber Kitty {}"
CTRL_C = "\x03"


def four(a: str = "10/0/0", b: str = "10/0/0 @city", c: str = "10/0/0", d: str = "10/0/0") -> str:
    return FOUR.format(a, b, c, d)


def card(slug: str) -> int:
    return BY_SLUG[slug]


def use(slug: str, *args: int) -> rules.UseCard:
    return rules.UseCard(card(slug), args)


def draw(state: rules.State, slug: str) -> rules.State:
    return rules.apply(state, rules.RandomResult((state.deck.index(card(slug)),)))


def press(ctrl: Controller, keys: str) -> None:
    """Type ``keys`` into the full-screen application, then Ctrl-C to leave it."""

    async def main() -> None:
        with create_pipe_input() as pipe:
            app = build_app(ctrl, input=pipe, output=DummyOutput(), refresh=None)
            pipe.send_text(keys + CTRL_C)
            await asyncio.wait_for(app.run_async(), 10)

    asyncio.run(main())


def game(state: str | rules.State, me: int = 0, comfort: Comfort | None = None
         ) -> tuple[FakeGame, Controller]:
    g = FakeGame(state, me=me)
    return g, Controller(g, comfort=comfort)


def test_roll_keeps_the_marked_dice_rerolls_the_others_then_resolves_with_enter() -> None:
    g, c = game(four() + " | active=0 phase=roll dice=sss123 rolls=2")
    press(c, "123r")
    assert g.submitted == [rules.Reroll((3, 4, 5))]
    g2, c2 = game(four() + " | active=0 phase=roll dice=sss123 rolls=2")
    press(c2, "\r")
    assert g2.submitted == [rules.STOP]


def test_a_die_pressed_twice_is_not_kept() -> None:
    g, c = game(four() + " | active=0 phase=roll dice=sss123 rolls=2")
    press(c, "11r")
    assert g.submitted == [rules.Reroll((0, 1, 2, 3, 4, 5))]


def test_rerolling_with_every_die_kept_changes_nothing_and_says_why() -> None:
    g, c = game(four() + " | active=0 phase=roll dice=sss123 rolls=2")
    press(c, "123456r")
    assert g.submitted == []
    assert "every die is kept" in c.footer and c.footer_error


def test_keys_when_it_is_not_your_decision_change_nothing_and_say_whose_it_is() -> None:
    g, c = game(four() + " | active=0 phase=roll dice=sss123 rolls=2", me=2)
    press(c, "1r\r")
    assert g.submitted == []
    assert "The King's decision, not yours" in c.footer


@pytest.mark.parametrize(("key", "expected"), [("y", rules.YIELD), ("s", rules.STAY)])
def test_smashed_in_tokyo_y_yields_and_s_stays(key: str, expected: rules.Action) -> None:
    state = rules.from_text(four() + " | active=0 phase=resolve dice=11sss2")
    assert K.decision(state) == rules.Decision(1, "yield")
    g, c = game(state, me=1)
    press(c, key)
    assert g.submitted == [expected]


def test_auto_leave_yields_by_itself_at_or_under_the_threshold() -> None:
    state = rules.from_text(four("10/0/0", "6/0/0 @city") + " | active=0 phase=resolve dice=11sss2")
    g, c = game(state, me=1, comfort=Comfort(auto_leave=3))
    assert c.auto_decide() and g.submitted == [rules.YIELD]
    g2, c2 = game(state, me=1, comfort=Comfort(auto_leave=2, auto_stay=3))
    assert c2.auto_decide() and g2.submitted == [rules.STAY]
    g3, c3 = game(state, me=1, comfort=Comfort(auto_leave=2, auto_stay=4))
    assert not c3.auto_decide() and g3.submitted == []


def test_buy_a_card_by_its_slot_then_done_with_enter() -> None:
    g, c = game(four("10/0/9") + " | active=0 phase=buy market=heal,tank,skyscraper")
    press(c, "2")
    assert g.submitted == [rules.Buy(card("tank"))]


def test_a_card_too_dear_is_refused_with_its_price() -> None:
    g, c = game(four("10/0/3") + " | active=0 phase=buy market=heal,tank,skyscraper")
    press(c, "3")
    assert g.submitted == []
    assert "Skyscraper costs 6⚡ and you have 3⚡" in c.footer


def test_sweep_with_w_and_skip_buying_with_n() -> None:
    g, c = game(four("10/0/3") + " | active=0 phase=buy market=heal,tank,skyscraper")
    press(c, "w")
    assert g.submitted == [rules.SWEEP]
    g2, c2 = game(four("10/0/3") + " | active=0 phase=buy market=heal,tank,skyscraper")
    press(c2, "n")
    assert g2.submitted == [rules.DONE]


def _decisions() -> list[tuple[str, rules.State, int]]:
    """A state for every kind of card question, and the seat asked."""
    out = []
    s = rules.from_text(four("10/0/0", "10/0/0 @city +camouflage") + " | active=0 phase=resolve dice=11sssh")
    out.append(("react", s, 1))
    s = rules.from_text(four("8/0/1 poison=2") + " | active=0 phase=resolve dice=11hhe2")
    out.append(("hearts", s, 0))
    s = rules.from_text(four("10/0/0 +herdculler") + " | active=0 phase=roll dice=11sshe rolls=1")
    out.append(("change", rules.apply(s, rules.STOP), 0))
    s = rules.from_text(four("10/0/0", "10/0/0 @city +psychicprobe") + " | active=0 phase=roll dice=sssss1 rolls=1")
    out.append(("probe", rules.apply(s, rules.STOP), 1))
    s = rules.from_text(four("10/0/3", "10/0/0 @city", "10/0/3 +opportunist") + " | active=0 phase=buy market=heal,tank,skyscraper")
    out.append(("opportunist", draw(rules.apply(s, rules.Buy(card("heal"))), "cornerstore"), 2))
    s = rules.from_text(four("10/0/5 +madeinalab") + " | active=0 phase=buy market=heal,tank,skyscraper")
    s = rules.apply(s, use("madeinalab"))
    s = rules.apply(s, rules.RandomResult((s.deck.index(card("giantbrain")),)))
    out.append(("lab", s, 0))
    s = rules.from_text(four("10/0/2 +metamorph +extrahead") + " | active=0 phase=buy market=heal,tank,skyscraper")
    out.append(("sell", rules.apply(s, rules.DONE), 0))
    s = rules.from_text(four("10/0/1 +extrahead +mimic", "10/0/0 @city +giantbrain") + " | active=0 phase=start flags=copy.27:13")
    out.append(("mimic", s, 0))
    return out


DECISIONS = _decisions()


@pytest.mark.parametrize(("kind", "state", "seat"), DECISIONS, ids=[d[0] for d in DECISIONS])
def test_every_legal_answer_to_a_card_question_has_a_key_that_submits_it(
        kind: str, state: rules.State, seat: int) -> None:
    d = K.decision(state)
    assert d == rules.Decision(seat, kind)
    legal = [a for a in rules.legal_actions(state) if not isinstance(a, rules.Reroll)]
    assert legal
    by_action = {c.action: c.key for c in K.choices(state)}
    assert set(by_action) == set(legal)
    for action, key in by_action.items():
        g, c = game(state, me=seat)
        press(c, "\r" if key == "enter" else key)
        assert g.submitted == [action], f"{kind}: key {key}"


def test_card_questions_are_listed_on_screen_with_their_letters() -> None:
    from kotp2p.ui.full.screen import game_screen, to_text

    _, state, seat = DECISIONS[-1]  # Mimic
    _, c = game(state, me=seat)
    screen = to_text(game_screen(c, 80, 24))
    assert " a   Alienoid uses Mimic" in screen or " a " in screen
    for choice in K.menu_choices(state):
        assert choice.label[:40] in screen


def test_an_unknown_key_changes_nothing_and_lists_the_keys() -> None:
    g, c = game(four("10/0/9") + " | active=0 phase=buy market=heal,tank,skyscraper")
    press(c, "Z")
    assert g.submitted == []
    assert "Z does nothing here" in c.footer and "Enter" in c.footer


def test_chat_line_is_sent_with_enter() -> None:
    g, c = game(four() + " | active=0 phase=roll dice=sss123 rolls=2")
    press(c, "chello there\r")
    assert g.chats == ["hello there"] and g.submitted == []


def test_q_asks_before_quitting_and_y_quits_keeping_the_game_resumable() -> None:
    g, c = game(four() + " | active=0 phase=roll dice=sss123 rolls=2")
    c.press("q")
    assert "Quit?" in c.footer
    c.press("n")
    assert g.quits == 0 and c.footer == "not quitting" and not c.exit_requested

    async def main() -> None:
        with create_pipe_input() as pipe:
            app = build_app(c, input=pipe, output=DummyOutput(), refresh=None)
            pipe.send_text("qy")
            await asyncio.wait_for(app.run_async(), 10)

    asyncio.run(main())
    assert g.quits == 1 and c.exit_requested


def test_help_and_card_browser_open_and_close() -> None:
    _, c = game(four() + " | active=0 phase=roll dice=sss123 rolls=2")
    press(c, "?")
    assert c.screen == "help"
    _, c = game(four() + " | active=0 phase=roll dice=sss123 rolls=2")
    press(c, "?k")
    assert c.screen == "cards"


def test_eject_needs_an_overdue_player() -> None:
    g, c = game(four() + " | active=0 phase=roll dice=sss123 rolls=2", me=1)
    press(c, "e")
    assert g.ejects == 0 and "nobody is overdue" in c.footer
    c.eject_asked = (0,)
    press(c, "e")
    assert g.ejects == 1


def test_kept_dice_stay_kept_after_a_reroll_and_a_new_turn_clears_them() -> None:
    g, c = game(four() + " | active=0 phase=roll dice=sss123 rolls=2")
    c.press("1")
    c.press("2")
    c.press("r")
    assert g.submitted == [rules.Reroll((2, 3, 4, 5))]
    g._state = rules.apply(g.state, rules.RandomResult((0, 0, 4, 5)))  # the re-rolled four
    assert g.state.dice[:2] == (5, 5) and c.kept_dice() == {0, 1}
    c.press("r")  # the same two stay, the others roll again
    assert g.submitted[-1] == rules.Reroll((2, 3, 4, 5))
    g._state = rules.from_text(four() + " | active=1 turn=2 phase=roll dice=sss123 rolls=2")
    assert c.kept_dice() == frozenset()


def test_the_card_browser_scrolls_with_pgdn_and_pgup_to_every_card() -> None:
    from kotp2p.ui.full.app import draw
    from kotp2p.ui.full.pages import cards_scroll_limit
    from kotp2p.ui.symbols import UNICODE

    _, c = game(four() + " | active=0 phase=roll dice=sss123 rolls=2")
    press(c, "k\x1b[6~\x1b[6~")  # PgDn twice in the application, the search line focused
    assert c.screen == "cards" and c.card_scroll == 20

    def text() -> str:
        return "".join(f[1] for f in draw(c, 80, 24))

    assert "Acid Attack" not in text() and "PgUp back" in text()
    for _ in range(30):
        c.press("pagedown")
    assert c.card_scroll >= cards_scroll_limit("", UNICODE, 80, 24)
    assert "We're Only Making It Stronger!" in text() and "PgDn more" not in text()
    assert c.card_scroll == cards_scroll_limit("", UNICODE, 80, 24)  # kept in range
    for _ in range(30):
        c.press("pageup")
    assert c.card_scroll == 0 and "Acid Attack" in text()


def test_halloween_questions_name_the_die_from_one_the_price_and_the_costume() -> None:
    h = "flags=halloween:1"
    witch = rules.from_text("The King 10/0/5; Giga Zaur 10/0/0 @city +witch; Alienoid 10/0/0 "
                            f"| active=0 phase=roll dice=sss123 rolls=0 {h}")
    labels = [c.label for c in K.menu_choices(witch)]
    assert labels[0] == "re-roll die 1 (✸) of The King with Witch" and K.asked("witch") == "Witch"
    robot = rules.from_text("The King 10/0/0; Giga Zaur 10/0/5 @city +robot; Alienoid 10/0/0 "
                            f"| active=0 phase=resolve dice=sss123 {h}")
    assert "pay 2⚡ instead of 2♥ with Robot" in [c.label for c in K.menu_choices(robot)]
    pick = rules.apply(rules.new_game(rules.Setup(rules.MONSTERS[:2], rules.Options(
        halloween=True))), rules.RandomResult((0, 0)))
    assert K.menu_choices(pick)[0].label.startswith("keep Astronaut: You win")
    cheer = rules.from_text("The King 10/0/5; Giga Zaur 10/0/0 @city; Alienoid 10/0/0 "
                            f"+cheerleader | active=0 phase=roll dice=ss1123 rolls=0 {h}")
    assert K.menu_choices(cheer)[0].label == "cheer for The King: its roll gets 1 more ✸"


def test_the_steal_question_says_whom_from_at_what_price_and_the_energy_there_is() -> None:
    s = rules.from_text("The King 10/0/9; Giga Zaur 7/0/0 @city +ghost +princess; Alienoid "
                        "10/0/0 | active=0 stack=turn:after_buy;ask:0,buy;ask:0,steal "
                        "flags=halloween:1,t.smashes:3,t.smashhurt:2")
    labels = [c.label for c in K.menu_choices(s)]
    assert labels[:2] == ["take Ghost from Giga Zaur for 4⚡ (you have 9⚡)",
                          "take Princess from Giga Zaur for 5⚡ (you have 9⚡)"]
    assert K.asked("steal") == "take costumes from the monsters you wounded"


class _SlowHint(FakeGame):
    """A port whose work aside finishes only when the test says so."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.waiting: list[tuple[Callable[[], str], Callable[[str], None]]] = []

    def aside(self, work: Callable[[], str], done: Callable[[str], None]) -> None:
        self.waiting.append((work, done))

    def finish(self) -> None:
        work, done = self.waiting.pop()
        done(work())


def test_h_says_the_bot_is_thinking_and_the_hint_comes_only_while_the_game_is_still_there(
        ) -> None:
    g = _SlowHint(four() + " | active=0 phase=roll dice=sss11h rolls=2")
    c = Controller(g)
    c.press("h")
    assert c.footer == "the hard bot is thinking…" and len(g.waiting) == 1
    g.finish()
    assert c.footer.startswith("the hard bot would keep ")
    c.press("h")
    g.submit(rules.STOP)  # the game moves on before the hint comes
    g.finish()
    assert c.footer == ""


def test_the_sessions_port_works_aside_on_another_thread_and_answers_on_the_loop() -> None:
    port = SessionPort(types.SimpleNamespace(me=0), lambda command: None)  # type: ignore[arg-type]
    redraws: list[int] = []
    port.redraw = lambda: redraws.append(1)
    threads: dict[str, int] = {}

    def work() -> str:
        threads["work"] = threading.get_ident()
        return "told"

    async def main() -> str:
        threads["loop"] = threading.get_ident()
        told: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        def done(text: str) -> None:
            threads["done"] = threading.get_ident()
            told.set_result(text)

        port.aside(work, done)
        return await asyncio.wait_for(told, 10)

    assert asyncio.run(main()) == "told"
    assert threads["work"] != threads["loop"] == threads["done"] and redraws == [1]


def test_h_tells_what_the_hard_bot_would_keep_and_changes_nothing() -> None:
    g, c = game(four() + " | active=0 phase=roll dice=sss11h rolls=2")
    press(c, "h")
    assert c.footer.startswith("the hard bot would keep ") and "better than stopping" in c.footer
    assert g.submitted == []
    g, c = game(four() + " | active=0 phase=roll dice=sss11h rolls=2", me=1)
    c.press("h")
    assert c.footer == "no decision of yours is pending"
