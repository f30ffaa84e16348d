"""The game screen, drawn from text-notation states: what a player needs is on it, at 80×24 and
larger, nothing cut off; the other pages; ASCII and peer text made safe."""

from __future__ import annotations

import pytest
from prompt_toolkit.utils import get_cwidth

from kotp2p import rules
from kotp2p.net.lobby.lobby_view import LobbySeat, LobbyView
from kotp2p.ui import keys as K
from kotp2p.ui.full.pages import cards_page, end_page, help_page, lobby_page, matching_cards
from kotp2p.ui.full.screen import game_screen, resolve_preview, to_text, width_of
from kotp2p.ui.model import Controller, EndInfo
from kotp2p.ui.stats import MonsterStats
from kotp2p.ui.symbols import ASCII
from tests.ui.fakes import FakeGame

SIX = ("The King 10/3/2 @city +acidattack poison=1; Giga Zaur 8/17/12 @bay +camouflage +extrahead; "
       "Alienoid 0/5/0 dead=1; Cyber Kitty 4/2/9; Meka Dragon 12/0/1 +evenbigger; Space Penguin 7/19/5 "
       "| active=1 phase=roll dice=123ehss rolls=1 market=firebreathing,healingray,energize")
FOUR = ("The King 10/0/0 @city; Giga Zaur 8/3/2; Alienoid 9/5/7; Cyber Kitty 4/2/9 "
        "| active=1 phase=buy market=firebreathing,healingray,energize")
NAMES = ("alice", "bob", "carol", "dan", "Bot 4 (greedy)", "Bot 5 (greedy)")
SIZES = [(80, 24), (100, 30), (160, 48)]


def dice_by_key(screen: str) -> dict[str, str]:
    """Each die's key (the ``keys`` line) and the face drawn right above it, by terminal cell."""
    lines = screen.splitlines()
    row = next(i for i, ln in enumerate(lines) if ln.startswith(" Dice "))
    assert lines[row + 1].startswith(" keys "), "the keys line is under the dice"

    def cells(text: str) -> dict[int, str]:
        out, col = {}, 0
        for ch in text:
            out[col] = ch
            col += get_cwidth(ch)
        return out

    faces, keys = cells(lines[row]), cells(lines[row + 1])
    return {ch: faces.get(col, "")
            + ("▲" if faces.get(col + get_cwidth(faces.get(col, " ")), "") == "▲" else "")
            for col, ch in keys.items() if ch.isdigit() and col < 40}


def controller(text: str, me: int = 1) -> Controller:
    g = FakeGame(text, me=me, names=NAMES[: text.split("|")[0].count(";") + 1])
    return Controller(g, words=("eagle", "lizard", "beaver", "falcon"))


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_six_monsters_rolling_fit_with_everything_a_player_needs(width: int, height: int) -> None:
    c = controller(SIX)
    lines = game_screen(c, width, height)
    assert len(lines) == height and all(width_of(line) == width for line in lines)
    screen = to_text(lines)
    assert "Tokyo City: The King" in screen and "Tokyo Bay: Giga Zaur" in screen
    for monster in ("The King", "Giga Zaur", "Cyber Kitty", "Meka Dragon", "Space Penguin"):
        assert monster in screen
    assert "★17" in screen and "♥ 8/" in screen and "⚡12" in screen
    assert "out of the game" in screen  # Alienoid
    assert dice_by_key(screen) == {"1": "1", "2": "2", "3": "3", "4": "⚡", "5": "♥", "6": "✸",
                                   "7": "✸"}
    assert "rolls left 1" in screen and "press a die's key to keep it" in screen
    assert "Fire Breathing" in screen and "Healing Ray" in screen and "Energize" in screen
    assert "Your move (roll)" in screen and "r re-roll" in screen
    assert "eagle lizard beaver falcon" in screen
    assert "…" not in "".join(screen.splitlines()[:1])


def test_keep_marks_show_on_the_dice() -> None:
    c = controller(SIX)
    c.press("2")
    c.press("7")
    screen = to_text(game_screen(c, 80, 24))
    marked = dice_by_key(screen)
    assert marked["2"] == "2▲" and marked["7"] == "✸▲" and marked["1"] == "1"


def test_someone_elses_decision_says_whose_and_how_long() -> None:
    clock = [100.0]
    g = FakeGame(FOUR, me=0, names=NAMES[:4])
    c = Controller(g, clock=lambda: clock[0])
    c.waiting()
    clock[0] = 107.0
    screen = to_text(game_screen(c, 80, 24))
    assert "Waiting for Giga Zaur (bob) to buy · 7 s" in screen
    c.links_down.add(1)
    assert "Giga Zaur (bob) GONE" in to_text(game_screen(c, 80, 24))


def test_wide_screen_shows_keys_fingerprints_and_a_log_column() -> None:
    c = controller(SIX)
    c.add_log("Giga Zaur keeps ss and re-rolls 5 dice")
    c.log.append(type(c.log[0])("chat", "<bob> hi"))
    screen = to_text(game_screen(c, 160, 48))
    assert "Game log and chat" in screen and "<bob> hi" in screen
    assert "key ab1c-d1e5-f6a7-b8c9" in screen and "Extra Head" in screen
    assert "Giga Zaur keeps ss" in screen


def test_resolve_preview_says_what_stopping_would_do() -> None:
    c = controller(SIX)
    screen = to_text(game_screen(c, 80, 24))
    assert "resolve now:" in screen and "Giga Zaur" in screen
    other = to_text(game_screen(controller(SIX, me=0), 80, 24))  # someone else's dice
    assert "if Giga Zaur stops now: Giga Zaur gains 1⚡ (dice)" in other
    assert "resolve now" not in other


def test_resolve_preview_marks_only_the_amounts_stopped_at_a_limit() -> None:
    """The preview tells each event from the state before the roll resolves, as the log does."""
    s = rules.from_text("The King 6/0/0 @city; Giga Zaur 7/14/0 "
                        "| active=1 phase=roll dice=sss333 rolls=1")
    assert resolve_preview(s) == "Giga Zaur gains 3★ (dice); Giga Zaur smashes The King for 3♥"
    s = rules.from_text("The King 3/0/0 @city; Giga Zaur 7/17/0; Alienoid 10/0/0 "
                        "| active=1 phase=roll dice=sss333 rolls=1")
    assert resolve_preview(s) == ("Giga Zaur gains 3★ (dice, up to the 20★ limit); "
                                  "Giga Zaur smashes The King for 3♥ (all it had left); "
                                  "The King is eliminated; Giga Zaur enters Tokyo City; "
                                  "game over: Giga Zaur wins with 20★")


def test_ascii_fallback_has_no_unicode_symbols() -> None:
    c = controller(SIX)
    c.sym = ASCII
    screen = to_text(game_screen(c, 80, 24))
    body = screen.replace("…", "")
    assert "*17" in body and dice_by_key(body)["7"] == "S"
    assert not {"★", "♥", "✸", "▶"} & set(body)


def test_peer_text_cannot_reach_the_terminal_raw() -> None:
    c = controller(FOUR)
    c.add_log("evil \x1b[2J\x1b]0;pwned\x07 name")
    screen = to_text(game_screen(c, 80, 24))
    assert "\x1b" not in screen and "\x07" not in screen


def test_tiny_terminal_does_not_break() -> None:
    c = controller(SIX)
    lines = game_screen(c, 40, 10)
    assert len(lines) == 10 and all(width_of(line) == 40 for line in lines)


def test_help_and_card_browser() -> None:
    assert "re-roll" in to_text(help_page(80, 24))
    assert [c for c in matching_cards("poison")]
    screen = to_text(cards_page("camouflage", ASCII, 80, 24))
    assert "Camouflage" in screen and "heart" in screen
    assert len(matching_cards("")) == 64  # 66 cards, two printed twice


def test_the_card_browser_lists_costumes_only_in_a_halloween_game() -> None:
    base = rules.from_text("The King 10/0/0; Giga Zaur 10/0/0 | active=0 phase=start")
    spooky = rules.from_text(
        "The King 10/0/0 +robot; Giga Zaur 10/0/0 | active=0 phase=start flags=halloween:1")
    assert "Robot" not in to_text(cards_page("robot", ASCII, 80, 24, state=base))
    screen = to_text(cards_page("robot", ASCII, 80, 24, state=spooky))
    assert "Robot" in screen and "costume" in screen and "The King has it" in screen
    assert len(matching_cards("", spooky)) == 64 + 12


def test_end_screen_ranks_and_says_how_to_verify() -> None:
    c = controller(FOUR)
    c.end = EndInfo("Giga Zaur (bob) won.", "/tmp/x.kotlog", [
        MonsterStats(1, "Giga Zaur", 1, 20, 5, True, 12, 4, 3, 2, 9),
        MonsterStats(0, "The King", 2, 7, 0, False, 3, 10, 5, 0, 0)])
    screen = to_text(end_page(c, 80, 24))
    assert "Giga Zaur (bob) won." in screen
    assert "kotp2p verify /tmp/x.kotlog" in screen
    first = next(line for line in screen.splitlines() if "Giga Zaur" in line and " 1 " in line)
    assert "12" in first and "20" in first


def test_the_end_screen_never_cuts_the_legend_the_log_path_or_the_verify_command() -> None:
    c = controller(SIX)
    path = "/home/someone-with-a-long-name/.local/share/kotp2p/games/c98b68e0b17fd5d8.kotlog"
    c.end = EndInfo("Giga Zaur (bob) won.", path, [
        MonsterStats(i, m, i + 1, 20 - i, 5, True, 12, 4, 3, 2, 9)
        for i, m in enumerate(("The King", "Giga Zaur", "Alienoid", "Cyber Kitty",
                               "Meka Dragon", "Space Penguin"))])
    lines = end_page(c, 80, 24)
    assert len(lines) == 24 and all(width_of(line) == 80 for line in lines)
    screen = to_text(lines)
    assert "…" not in screen
    flat = "".join(ln.strip() for ln in screen.splitlines())
    assert f"kotp2pverify{path}" in flat.replace(" ", "")
    words = " ".join(ln.strip() for ln in screen.splitlines())
    assert "spent: ⚡ on cards, sweeps and card effects" in words and "Space Penguin" in screen


def test_lobby_screen_shows_seats_keys_picks_and_ready_flags() -> None:
    view = LobbyView("alice's game", (
        LobbySeat(b"k" * 32, "alice", "The King", True),
        LobbySeat(b"j" * 32, "bob\x1b[31m", None, False),
        LobbySeat()))
    screen = to_text(lobby_page(view, me=0, join_code="tiger-7", words=("a", "b"), heard=(),
                                status="waiting for bob", width=80, height=24))
    assert "alice" in screen and "The King" in screen and "ready" in screen
    assert "not ready" in screen and "free" in screen and "tiger-7" in screen
    assert view.seats[0].fingerprint in screen and "\x1b" not in screen


@pytest.mark.parametrize("text", [
    FOUR.replace("active=1", "active=0").replace("The King 10/0/0", "The King 10/0/9"),
    SIX, SIX.replace("phase=roll", "phase=resolve")])
def test_the_keys_of_the_footer_are_never_cut_at_80_columns(text: str) -> None:
    for me in range(4):
        c = controller(text, me=me)
        status = to_text(game_screen(c, 80, 24)).splitlines()[-2]
        assert "…" not in status, status


def test_no_color_gives_the_monochrome_style() -> None:
    from kotp2p.ui.full.styles import COLOUR, MONO, make_style, wants_colour

    assert wants_colour({}) and not wants_colour({"NO_COLOR": "1"})
    assert not wants_colour({}, no_color_flag=True) and wants_colour({"NO_COLOR": ""})
    mono = make_style(False).get_attrs_for_style_str("class:die.kept class:heart")
    assert mono.reverse and mono.color in (None, "")
    colour = make_style(True).get_attrs_for_style_str("class:heart")
    assert colour.color == COLOUR["heart"].lstrip("#")
    assert not any("#" in rule for rule in MONO.values())


def test_clicking_a_die_and_a_market_card_acts_like_its_key() -> None:
    from prompt_toolkit.data_structures import Point
    from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType

    c = controller(SIX)
    up = MouseEvent(Point(0, 0), MouseEventType.MOUSE_UP, MouseButton.LEFT, frozenset())
    dice = next(line for line in game_screen(c, 80, 24) if to_text([line]).startswith(" Dice "))
    die = [f for f in dice if len(f) == 3][2]
    assert die[1].strip() == "3"
    die[2](up)  # type: ignore[misc]
    assert c.kept_dice() == {2}
    keys = next(line for line in game_screen(c, 80, 24) if to_text([line]).startswith(" keys "))
    key = next(f for f in keys if f[1].strip() == "5")
    key[2](up)  # type: ignore[misc]
    assert c.kept_dice() == {2, 4}
    g = FakeGame(FOUR.replace("active=1", "active=0").replace("The King 10/0/0", "The King 10/0/9"),
                 me=0, names=NAMES[:4])
    b = Controller(g)
    slot = next(f for line in game_screen(b, 80, 24) for f in line
                if len(f) == 3 and "Healing Ray" in f[1])
    slot[2](up)  # type: ignore[misc]
    assert [type(a).__name__ for a in g.submitted] == ["Buy"]


def test_a_wide_screen_shows_every_market_effect_in_full() -> None:
    from kotp2p.rules.registry import BY_SLUG

    c = controller("The King 10/0/0 @city; Giga Zaur 8/3/2 | active=1 phase=buy "
                   "market=shrinkray,metamorph,energize")
    screen = to_text(game_screen(c, 160, 48))
    market = screen.split("Market")[1].split("Rolling:")[0]
    assert "…" not in market
    flat = " ".join(part.strip(" │") for part in market.split())
    assert rules.card_text(BY_SLUG["shrinkray"]).split()[-1] in flat


def _drawn_lines(c: Controller, width: int, height: int) -> list[str]:
    from kotp2p.ui.full.app import draw

    return "".join(f[1] for f in draw(c, width, height)).split("\n")


def test_ascii_everything_drawn_is_ascii_and_the_log_writes_amounts_as_the_board() -> None:
    from kotp2p.net.session.narration import narrated

    c = Controller(FakeGame(SIX, me=1, names=NAMES), symbols=ASCII, words=("a", "b", "c", "d"))
    c.on_updates([narrated(1, "Giga Zaur gains 1⚡ (dice); Giga Zaur smashes The King for 3♥"),
                  narrated(1, "Giga Zaur rolls 1 ⚡ ✸ ♥ · …")])
    c.say("Skyscraper costs 6⚡ and you have 3⚡")
    for screen in ("game", "help", "cards", "options", "end"):
        c.screen = screen
        c.end = EndInfo("Giga Zaur won", "/tmp/x.kotlog", [])
        lines = _drawn_lines(c, 80, 24)
        text = "\n".join(lines)
        assert text.isascii(), f"{screen}: {sorted({ch for ch in text if not ch.isascii()})}"
        rows = 23 if screen == "cards" else 24  # the search line is under the card browser
        assert len(lines) == rows and all(get_cwidth(ln) == 80 for ln in lines), screen
    c.screen = "game"
    text = "\n".join(_drawn_lines(c, 80, 24))
    assert "gains 1E (dice); Giga Zaur smashes The King for 3H" in text
    assert "rolls 1 E S H" in text
    assert "Skyscraper costs 6E and you have 3E" in text
    table = next(ln for ln in text.splitlines() if "Giga Zaur" in ln and "/" in ln)
    assert "H 8/" in table and "E12" in table  # the board writes them with the same letters


def test_the_whole_help_fits_at_80x24() -> None:
    screen = to_text(help_page(80, 24))
    assert "Esc or ? closes this help" in screen and "keys in the footer work too" in screen


def test_bots_of_a_local_game_are_named_short_and_the_table_shows_them_whole_at_80x24() -> None:
    from kotp2p.app.localgame import new_local_game
    from kotp2p.net.wire import Identity

    game = new_local_game(Identity.from_seed(b"p" * 32, "Player"), 3, "greedy", "Alienoid", 7,
                          None)
    names = tuple(i.name for i in game.identities)
    assert names == ("Player", "Bot 1", "Bot 2", "Bot 3")
    c = Controller(FakeGame(FOUR, me=0, names=names))
    screen = to_text(game_screen(c, 80, 24))
    rows = screen.splitlines()[1:5]
    for monster, name in zip(("The King", "Giga Zaur", "Alienoid", "Cyber Kitty"), names,
                             strict=True):
        assert any(monster in row and f" {name} " in row for row in rows), screen
    assert "…" not in "".join(rows)


@pytest.mark.parametrize(("width", "height", "shown"), [
    (80, 24, ["Bot 4", "Bot 5"]), (160, 48, ["Bot 4 (greedy)", "Bot 5 (greedy)"])])
def test_a_long_bot_name_of_an_older_game_loses_its_note_before_it_is_cut(
        width: int, height: int, shown: list[str]) -> None:
    c = controller(SIX)
    rows = to_text(game_screen(c, width, height)).splitlines()
    table = [row for row in rows if "Meka Dragon" in row or "Space Penguin" in row][:2]
    assert all(f" {name} " in row for name, row in zip(shown, table, strict=True)), table
    assert not any("…" in row for row in table)


def test_the_help_tells_the_rules_of_this_game_for_tokyo() -> None:
    def help_for(n: int, variant: bool | None = None) -> str:
        setup = rules.Setup(monsters=rules.MONSTERS[:n], options=rules.Options(variant))
        return " ".join(to_text(help_page(80, 24, state=rules.new_game(setup))).split())

    two = help_for(2)
    assert "enters it (+1 energy: 2-player variant)" in two
    assert "Starting a turn in Tokyo gives 1 energy (2-player variant)" in two
    assert "star)" not in two and "gives 2 stars" not in two and "Bay" not in two
    for game in (help_for(2, False), help_for(4)):
        assert "enters it (+1 star)" in game and "Starting a turn in Tokyo gives 2 stars" in game
        assert "Bay" not in game and "2-player" not in game
    assert "else (with 5 or more monsters alive) Tokyo Bay if empty (+1 star)" in help_for(6)
    for game in (two, help_for(6), help_for(6, True)):
        assert "Esc or ? closes this help" in game and "keys in the footer work too" in game


def test_the_options_thresholds_go_off_then_1_to_9_hearts_then_off_again() -> None:
    from kotp2p.ui.full.pages import options_page

    c = controller(FOUR)
    c.press("o")

    def leave() -> str:
        lines = to_text(options_page(c, 80, 24)).splitlines()
        return next(ln for ln in lines if "Auto-leave" in ln).split(":")[1].split("(")[0].strip()

    assert leave() == "off"
    seen = []
    for _ in range(10):
        c.press("2")
        seen.append(leave())
    assert seen == [f"at or under {n}♥" for n in range(1, 10)] + ["off"]
    c.press("1")
    assert leave() == "at or under 9♥" and c.comfort.auto_leave == 9
    for _ in range(9):
        c.press("1")
    assert leave() == "off" and c.comfort.auto_leave is None
    c.press("4")
    assert c.comfort.auto_stay == 1
    c.press("3")
    c.press("3")
    assert c.comfort.auto_stay == 12


def test_the_ascii_set_writes_the_engines_dice_and_amounts_as_the_dice_show_them() -> None:
    s = rules.from_text("The King 10/0/0; Giga Zaur 10/0/0 | active=0 phase=roll dice=123ehs rolls=2")
    assert ASCII.text(rules.describe_action(s, rules.Reroll((0, 1)))) == (
        "The King keeps 3 E H S and re-rolls 2 dice"
    )
    events: list[rules.Event] = []
    s = rules.from_text(
        "Giga Zaur 8/0/0; Cyber Kitty 10/3/0 @city; The King 10/0/0 | active=0 phase=roll dice=sss1eh rolls=1"
    )
    rules.apply(s, rules.STOP, events=events)
    assert [ASCII.text(rules.describe_event(e, s)) for e in events] == [
        "Giga Zaur resolves S S S 1 E H",
        "Giga Zaur heals 1H",
        "Giga Zaur gains 1E (dice)",
        "Giga Zaur smashes Cyber Kitty for 3H",
    ]


def test_keep_marks_go_once_the_dice_are_resolved() -> None:
    c = controller("The King 10/0/9 @city; Giga Zaur 8/3/2 | active=1 phase=roll dice=123ehs rolls=1")
    c.press("1")
    assert "▲" in next(ln for ln in to_text(game_screen(c, 80, 24)).splitlines()
                       if ln.startswith(" Dice "))
    c.press("enter")  # resolve: The King, smashed in Tokyo, decides next
    assert K.decision(c.state).kind == "yield"  # type: ignore[union-attr]
    dice = next(ln for ln in to_text(game_screen(c, 80, 24)).splitlines()
                if ln.startswith(" Dice "))
    assert "▲" not in dice, dice


def test_a_halloween_game_rolls_orange_dice_and_its_help_explains_costumes() -> None:
    base = FOUR.replace("| ", "| dice=123ehs ")
    spooky = base.replace("| ", "| flags=halloween:1 ")
    for text, orange in ((base, False), (spooky, True)):
        lines = game_screen(controller(text), 100, 30)
        dice = [f for line in lines for f in line if "class:die" in f[0]]
        assert dice and all(("class:orange" in f[0]) == orange for f in dice)
    state = rules.from_text(spooky.replace(" dice=123ehs", ""))
    told = " ".join(to_text(help_page(100, 60, state=state)).split())
    assert "Halloween is on" in told and "take costumes" in told
    assert "Halloween" not in to_text(help_page(100, 60, state=rules.from_text(FOUR)))


def test_while_the_first_costumes_are_picked_the_board_says_the_game_starts_after() -> None:
    game = FakeGame(rules.to_text(rules.apply(rules.new_game(rules.Setup(
        rules.MONSTERS[:2], rules.Options(halloween=True))), rules.RandomResult((0, 1)))), me=0)
    screen = to_text(game_screen(Controller(game), 100, 30))
    assert "the game starts once every monster has its costume" in screen
    assert "keep Astronaut" in screen and "has not rolled yet" not in screen


def test_key_7_on_the_options_page_says_when_evolutions_are_asked_and_the_session_follows() -> None:
    from kotp2p.ui.full.pages import options_page

    c = controller(FOUR)
    c.press("o")

    def ask() -> str:
        lines = to_text(options_page(c, 80, 24)).splitlines()
        return next(ln for ln in lines if "Ask about Evolutions" in ln).split("!):")[1].split(
            "(7")[0].strip()

    assert ask() == "only with a card playable now" and c.evolutions.ask == "playable"
    c.press("7")
    assert ask() == "never: the game passes for you" and c.evolutions.ask == "never"
    c.press("7")
    assert ask() == "at every window" and c.comfort.ask_evolutions == "always"
    c.press("7")
    assert c.evolutions.ask == "playable"


@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40)])
def test_a_bots_level_shows_on_its_row(width: int, height: int) -> None:
    names = ("Player", "Bot 1", "Bot 2", "Bot 3")
    c = Controller(FakeGame(FOUR, me=0, names=names, levels=("", "greedy", "random", "greedy")))
    rows = to_text(game_screen(c, width, height)).splitlines()
    for name, level in (("Bot 1", "greedy"), ("Bot 2", "random"), ("Bot 3", "greedy")):
        row = next(r for r in rows if f" {name} " in r)
        assert f"{level} bot" in row, row
    mine = next(r for r in rows if " Player " in r)
    assert " bot" not in mine
