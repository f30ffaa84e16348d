"""Card questions on the game screen and in the plain interface: what resolving would do, dice
named from 1 with their faces, letters without gaps, and the footer news kept fresh."""

from __future__ import annotations

from kotp2p import rules
from kotp2p.net.session import YourTurn
from kotp2p.rules.registry import BY_SLUG
from kotp2p.ui.full.screen import game_screen, to_text
from kotp2p.ui.model import Controller
from tests.ui.fakes import FakeGame

FOUR = "The King {}; Giga Zaur {}; Alienoid {}; Cyber Kitty {}"


def four(a: str = "10/0/0", b: str = "10/0/0 @city", c: str = "10/0/0", d: str = "10/0/0") -> str:
    return FOUR.format(a, b, c, d)


def screen_of(text: str, me: int = 0) -> str:
    return to_text(game_screen(Controller(FakeGame(text, me=me)), 80, 24))


def test_the_preview_sees_past_a_card_question_after_the_roll() -> None:
    # Herd Culler asks before the dice resolve: the preview still says what they will do.
    screen = screen_of(four("8/0/0 +herdculler") + " | active=0 phase=roll dice=hhesss rolls=1")
    assert "nothing happens" not in screen
    assert "The King heals 2♥" in screen and "gains 1⚡" in screen and "smashes" in screen


def test_the_preview_shows_at_the_card_question_itself() -> None:
    s = rules.apply(rules.from_text(four("8/0/0 +herdculler")
                                    + " | active=0 phase=roll dice=hhesss rolls=1"), rules.STOP)
    assert isinstance(s.pending, rules.Decision) and s.pending.kind == "change"
    screen = to_text(game_screen(Controller(FakeGame(s, me=0)), 80, 24))
    assert "resolve now: The King heals 2♥" in screen
    assert "smashes" in screen and "Giga Zaur for 3♥" in screen  # on two lines, not cut


PROBE = ("The King 8/0/0 +herdculler +backgrounddweller; Giga Zaur 10/0/0 @city +psychicprobe; "
         "Alienoid 10/0/0; Cyber Kitty 10/0/0 | active=0 phase=roll dice=h3esss rolls=0")


def test_a_card_question_names_each_die_from_1_with_its_face_and_letters_without_gaps() -> None:
    s = rules.apply(rules.from_text(PROBE), rules.STOP)  # Giga Zaur may probe a die
    g = FakeGame(s, me=1)
    c = Controller(g)
    lines = to_text(game_screen(c, 80, 24)).splitlines()
    menu = [ln for ln in lines if ln[:3] in {f" {x} " for x in "abcdefghij"}]
    assert [ln[1] for ln in menu] == list("abcdef")
    assert menu[0] == " a  re-roll die 1 (♥) of The King with Psychic Probe (a ♥ discards it)"
    assert menu[3].startswith(" d  re-roll die 4 (✸) of The King")
    assert "a-f choose above" in lines[-2]
    assert "c chat" not in lines[-1] and "q quit" in lines[-1]  # c picks a choice now
    c.press("c")
    assert g.submitted == [rules.UseCard(BY_SLUG["psychicprobe"], (2,))]  # die 3
    assert not c.chatting


def test_herd_culler_says_what_it_does_to_which_die() -> None:
    s = rules.apply(rules.apply(rules.from_text(PROBE), rules.STOP), rules.PASS)
    screen = to_text(game_screen(Controller(FakeGame(s, me=0)), 80, 24))
    assert " a  re-roll die 2 (3) with Background Dweller" in screen
    assert " b  turn die 1 (♥) into a 1 with Herd Culler" in screen
    assert " g  turn die 6 (✸) into a 1 with Herd Culler" in screen
    assert "(0)" not in screen and "(5)" not in screen


def _hit_then(headings: int, decide: bool) -> Controller:
    """The player hit on turn 1, then ``headings`` later turns begun, then maybe their decision."""
    from kotp2p.net.session import YourTurn
    from kotp2p.net.session.narration import narrated

    s = rules.from_text("Alienoid 10/0/0; Giga Zaur 10/0/0; The King 10/0/0 "
                        "| active=0 phase=roll dice=ssse11 rolls=1")
    c = Controller(FakeGame(s, me=0))
    c.on_updates([narrated(1, "Alienoid hits itself for 2♥",
                           rules.Damaged(0, 2, 0, False))])
    for turn in range(2, 2 + headings):
        c.on_updates([narrated(turn, f"-- turn {turn}: Giga Zaur --")])
    if decide:
        c.on_updates([YourTurn(0)])
    return c


def footer_of(c: Controller) -> str:
    """The screen's lines under the log: the footer."""
    return "\n".join(to_text(game_screen(c, 80, 24)).splitlines()[-3:])


def test_old_news_leaves_the_footer() -> None:
    assert "hits itself" in footer_of(_hit_then(1, False))  # still fresh
    assert "hits itself" not in footer_of(_hit_then(1, True))  # the player decides again
    assert "hits itself" not in footer_of(_hit_then(2, False))  # turns later


def test_the_players_news_fits_beside_the_footer_keys() -> None:
    from tests.ui.test_ui_log import move

    s = rules.from_text("The King 10/0/0 @city; Giga Zaur 7/0/0 +acidattack +detritivore; "
                        "Alienoid 10/0/0 | active=1 phase=roll dice=123hhe rolls=1")
    c = Controller(FakeGame(s, me=1))
    c.on_updates(move(s, rules.STOP, 1))
    foot = to_text(game_screen(c, 80, 24)).splitlines()[-2:]
    assert foot[0] == " you: gains 2★ (Detritivore); heals 2♥; gains 1⚡ (dice); smashes The King for"
    assert foot[1].startswith(" 1♥ ") and foot[1].endswith("q quit") and "…" not in foot[1]


STRETCHY = ("The King 8/0/9 +stretchy +plottwist +extrahead; Giga Zaur 10/0/0 @city; "
            "Alienoid 10/0/0; Cyber Kitty 10/0/0 | active=0 phase=roll dice=h3esss1 rolls=0")


def test_every_face_of_every_die_can_be_picked_when_the_letters_would_run_out() -> None:
    # Stretchy and Plot Twist on 7 dice: 70 ways to change a die, more than the letters.
    s = rules.from_text(STRETCHY)
    assert isinstance(s.pending, rules.Decision) and s.pending.kind == "change"
    legal = [a for a in rules.legal_actions(s) if isinstance(a, rules.UseCard)]
    assert len(legal) > 40
    g = FakeGame(s, me=0)
    c = Controller(g)
    screen = to_text(game_screen(c, 80, 40))
    assert "change die 7 (1) with Plot Twist (then discard it): pick the face next" in screen
    lines = screen.splitlines()
    row = next(ln for ln in lines if "change die 7 (1) with Stretchy" in ln)
    c.press(row.split()[0])  # that choice's letter opens its faces
    faces = to_text(game_screen(c, 80, 40))
    assert "change die 7 (1) to ✸ with Stretchy (pay 2⚡)" in faces
    assert "Esc choose again" in faces and "Plot Twist" not in faces
    c.press("escape")
    assert "Plot Twist" in to_text(game_screen(c, 80, 40))
    c.press(row.split()[0])
    pick = next(ln for ln in to_text(game_screen(c, 80, 40)).splitlines()
                if "to ✸ with Stretchy" in ln)
    c.press(pick.split()[0])
    assert g.submitted == [rules.UseCard(BY_SLUG["stretchy"], (6, 5))]


def test_after_a_face_is_picked_the_next_question_lists_the_dice_again() -> None:
    g = FakeGame(rules.from_text(STRETCHY), me=0)
    c = Controller(g)
    row = next(ln for ln in to_text(game_screen(c, 80, 40)).splitlines()
               if "change die 7 (1) with Stretchy" in ln)
    c.press(row.split()[0])
    pick = next(ln for ln in to_text(game_screen(c, 80, 40)).splitlines()
                if "to ✸ with Stretchy" in ln)
    c.press(pick.split()[0])
    assert g.submitted == [rules.UseCard(BY_SLUG["stretchy"], (6, 5))]
    assert "The King changes die 7 (1) to ✸ (Stretchy)" in c.footer
    # Stretchy may change another die: the question starts again from the dice, and a letter
    # never pays for a die the player did not pick this time.
    screen = to_text(game_screen(c, 80, 40))
    assert "change die 7 (✸) with Stretchy (pay 2⚡): pick the face next" in screen
    assert "change die 7 (✸) to" not in screen and "Esc choose again" not in screen


def test_a_card_used_without_a_target_says_what_it_does() -> None:
    from kotp2p.ui import keys as K

    s = rules.from_text(four("8/0/4 +rapidhealing") + " | active=0 phase=buy market=heal,-,-")
    rapid = BY_SLUG["rapidhealing"]
    label = K.menu_label(s, rules.UseCard(rapid, ()), "The King uses Rapid Healing")
    assert label.startswith("use Rapid Healing: ") and rules.card_text(rapid) in label


def test_an_enter_meant_for_the_roll_does_not_end_the_buying_that_follows() -> None:
    clock = [100.0]
    s = rules.from_text(four("8/0/9") + " | active=0 phase=buy market=heal,tank,skyscraper")
    g = FakeGame(s, me=0)
    c = Controller(g, clock=lambda: clock[0])
    c.on_updates([YourTurn(0)])  # the dice resolved on their own: now the buying
    clock[0] += 0.4
    c.press("enter")  # pressed for the roll, a moment late
    assert g.submitted == [] and "Enter ignored" in c.footer
    clock[0] += 0.2
    c.press("enter")  # pressed again: meant
    assert g.submitted == [rules.DONE]


def test_the_status_line_keeps_every_key_whole_at_80_columns() -> None:
    s = rules.from_text(PROBE.replace("dice=h3esss rolls=0", "dice=h3e3ss rolls=2"))
    c = Controller(FakeGame(s, me=0))
    lines = to_text(game_screen(c, 80, 24)).splitlines()
    status = next(ln for ln in lines if ln.startswith(" Your move"))
    assert "…" not in status and "Enter" in status and "1-6 keep" in status, status


def test_with_no_re_roll_left_a_card_question_offers_no_keep_or_re_roll_keys() -> None:
    # Background Dweller may re-roll a 3 after the last roll: the dice keys mean nothing then.
    text = four("8/0/0 +backgrounddweller") + " | active=0 phase=roll dice=h3esss rolls=0"
    s = rules.from_text(text)
    assert isinstance(s.pending, rules.Decision) and s.pending.kind == "roll"
    screen = screen_of(text)
    status = next(ln for ln in screen.splitlines() if "Your move" in ln)
    assert "re-roll die 2 (3) with Background Dweller" in screen
    assert "a choose" in status and "Enter" in status
    assert "Your move (use a card on your dice)" in status  # as after the last roll
    assert "keep" not in status and "re-roll" not in status and " r " not in status
    assert "press a die's key to keep it" not in screen
    # Once the dice are final, the question is about cards on the dice, not one change.
    after = to_text(game_screen(Controller(FakeGame(rules.apply(s, rules.STOP), me=0)), 80, 24))
    assert "Your move (use a card on your dice)" in after
    # A die's key says why it keeps nothing, and marks nothing behind the player's back.
    g = FakeGame(text, me=0)
    c = Controller(g)
    c.press("2")
    assert "no re-roll left" in c.footer and c.kept_dice() == frozenset()
    c.press("x")
    assert "1-6 (keep a die)" not in c.footer and " r," not in c.footer


def test_news_too_long_for_the_footer_keeps_whole_events_and_counts_the_rest() -> None:
    c = Controller(FakeGame(four("8/0/0") + " | active=0 phase=buy market=heal,tank,skyscraper"))
    events = ["buys Gas Refinery for 6⚡", "Alienoid's Gas Refinery takes effect",
              "gains 2★ (Gas Refinery)", "discards Gas Refinery", "hits Cyber Kitty for 3♥",
              "hits Giga Zaur for 3♥ (all it had left)", "hits Meka Dragon for 3♥",
              "Giga Zaur is eliminated", "Giga Zaur's cards are discarded"]
    c.news("you: " + "; ".join(events))
    lines = to_text(game_screen(c, 80, 24)).splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(" you: "))
    told = " ".join(ln.strip() for ln in lines[start:start + 3])
    assert "…" not in told and told.startswith("you: buys Gas Refinery for 6⚡;")
    shown = [e for e in events if e in told]
    assert shown == events[:len(shown)] and len(shown) >= 5
    assert f"; {len(events) - len(shown)} more in the log" in told


def test_the_preview_sees_past_hearts_that_could_remove_shrink_tokens() -> None:
    # Hearts rolled with Shrink Ray's tokens ask whether to spend them on the tokens: the preview
    # answers no and goes on to the heal and Acid Attack's smash.
    text = ("The King 9/11/15 +acidattack shrink=2; Giga Zaur 2/16/0 @city +shrinkray "
            "| active=0 phase=roll dice=33hh rolls=2")
    s = rules.apply(rules.from_text(text), rules.STOP)
    assert isinstance(s.pending, rules.Decision) and s.pending.kind == "hearts"
    screen = " ".join(screen_of(text).split())
    assert "nothing happens" not in screen
    assert "resolve now: The King heals 1♥" in screen and "smashes Giga Zaur for 1♥" in screen
    # The question itself speaks to the player, in hearts and tokens counted as on the screen.
    g = FakeGame(s, me=0)
    c = Controller(g)
    asked = to_text(game_screen(c, 80, 24))
    assert "Your move (use hearts)" in asked
    assert "spend 1♥ to remove 1 Shrink Ray token" in asked
    assert "spend 2♥ to remove 2 Shrink Ray tokens" in asked and "(s)" not in asked
    c.press("enter")
    assert g.submitted == [rules.DONE] and c.footer == "The King spends no ♥ on tokens"


def test_the_players_news_says_your_for_their_own_cards_and_dice() -> None:
    from tests.ui.test_ui_log import move

    s = rules.from_text(STRETCHY)
    c = Controller(FakeGame(s, me=0))
    c.on_updates(move(s, rules.UseCard(BY_SLUG["stretchy"], (6, 5)), 1))
    assert c.footer.startswith("you: your Stretchy takes effect; loses 2⚡ (Stretchy); "
                               "your dice become"), c.footer
    assert "The King" not in c.footer


def test_a_deciding_monsters_row_parts_its_state_from_its_cards() -> None:
    row = next(ln for ln in screen_of(STRETCHY).splitlines() if ln.startswith("▶ The King"))
    assert "(you) deciding · Stretchy" in row
