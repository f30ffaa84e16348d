"""A resumed game tells what happened before: the session rebuilt from its log and journal says
the game so far first (the same updates live play gave, in order, sending nothing for them),
and the plain interface prints its recent turns, marked as before the resume."""

from __future__ import annotations

import io

from kotp2p.net.files import parse_log
from kotp2p.net.files.sinks import MemorySink
from kotp2p.net.session import (
    ChatLine,
    DiceRolled,
    MoveApplied,
    Narrated,
    Resumed,
    Session,
    Timeouts,
    Update,
    YourTurn,
    recent_turns,
)
from kotp2p.ui.plain import RESUME_TURNS, PlainView
from tests.net.harness import rules_chooser
from tests.session.kit import session, table

PAST = (MoveApplied, Narrated, DiceRolled)


def turns_told(updates: list[Update]) -> int:
    return sum(1 for u in updates if isinstance(u, Narrated) and u.heading)


def played_then_stopped(turns: int, seed: int = 4, chat: bool = False
                        ) -> tuple[Session, list[Update], MemorySink, MemorySink]:
    """A game of a human (seat 0) and two bots, the human deciding until ``turns`` turns have
    begun, then quitting at their next decision; its updates, log and journal. With ``chat``
    the human says a numbered line before each of its decisions (the third with a terminal
    escape in it)."""
    t = table(3, seed=seed)
    log, journal = MemorySink(), MemorySink()
    log.append([t.genesis.frame()])
    journal.append([t.genesis.frame()])
    s = session(t, range(3), humans=[0], timeouts=Timeouts(None, None), log=log,
                journal=journal, seed=seed)
    choose = rules_chooser("greedy", seed)
    s.start(0.0)
    seen = s.updates()
    said = 0
    while turns_told(seen) < turns:
        assert s.my_turn and not s.is_over
        if chat:
            said += 1
            s.chat(f"line {said}" + (" \x1b[2J" if said == 3 else ""), 1.0)
        s.submit(choose(0, s.state), 1.0)
        seen += s.updates()
    s.quit()
    return s, seen, log, journal


def resumed(log: MemorySink, journal: MemorySink, seed: int = 4) -> Session:
    t = table(3, seed=seed)
    again = session(t, range(3), humans=[0], timeouts=Timeouts(None, None), log=log,
                    journal=journal, seed=seed)
    again.resume(2.0, list(parse_log(bytes(log.data)).payloads),
                 list(parse_log(bytes(journal.data)).payloads))
    return again


def test_a_resumed_session_first_tells_the_game_so_far_as_live_play_told_it() -> None:
    first, seen, log, journal = played_then_stopped(5)
    again = resumed(log, journal)
    ups = again.updates()
    assert isinstance(ups[0], Resumed)
    live = [u for u in seen if isinstance(u, PAST)]
    assert list(ups[0].history) == live
    assert turns_told(live) >= 5 and any(isinstance(u, MoveApplied) for u in live)
    assert not [u for u in ups[1:] if isinstance(u, PAST)]  # nothing new happened yet
    assert ups[-1] == YourTurn(0) and again.state == first.state
    assert again.outgoing() == []  # telling the past sends nothing to anybody


def test_a_game_resumed_at_its_start_has_only_its_roll_off_to_tell() -> None:
    _, seen, log, journal = played_then_stopped(0, seed=5)
    ups = resumed(log, journal, seed=5).updates()
    assert isinstance(ups[0], Resumed)
    assert list(ups[0].history) == [u for u in seen if isinstance(u, PAST)]
    assert isinstance(ups[0].history[0], DiceRolled)
    assert "roll-off" in ups[0].history[0].description


def test_the_plain_interface_prints_the_recent_turns_then_marks_the_resume() -> None:
    _, seen, log, journal = played_then_stopped(RESUME_TURNS + 3)
    again = resumed(log, journal)
    out = io.StringIO()
    PlainView(again, out).show(again.updates())
    text = out.getvalue()
    before, _, after = text.partition("== resumed: the game goes on from here ==")
    assert after and "Your decision" in after and "Your decision" not in before
    live = io.StringIO()
    history = [u for u in seen if isinstance(u, PAST)]
    left_out, recent = recent_turns(history, RESUME_TURNS)
    assert left_out > 0
    PlainView(again, live).show(recent)
    assert before.startswith("== the game so far (from the log) ==\n"
                             f"({left_out} earlier turns left out: `kotp2p replay` shows the "
                             "whole game)\n")
    assert before.endswith(live.getvalue())  # said as live play said it
    headings = [u.text for u in history if isinstance(u, Narrated) and u.heading]
    assert f"-- {headings[-1]} --" in before and f"-- {headings[-RESUME_TURNS]} --" in before
    assert f"-- {headings[-RESUME_TURNS - 1]} --\n" not in before


def test_the_game_screen_shows_the_game_so_far_then_the_resume_at_80x24_and_larger() -> None:
    from kotp2p.ui import Comfort, Controller
    from kotp2p.ui.full.screen import game_screen, to_text, width_of
    from tests.ui.fakes import FakeGame

    _, seen, log, journal = played_then_stopped(6)
    again = resumed(log, journal)
    c = Controller(FakeGame(again.state, me=0), comfort=Comfort(pause=0.8))
    c.on_updates(again.updates())
    history = [u for u in seen if isinstance(u, PAST)]
    last_turn = [u.text for u in history if isinstance(u, Narrated) and u.heading][-1]
    texts = [line.text for line in c.log]
    assert texts[0] == "─── the game so far (from the log) ───"
    assert texts[-1] == "─── resumed: the game goes on from here ───"
    assert f"── {last_turn} ──" in texts
    told = [u.description for u in history if isinstance(u, DiceRolled)]
    assert [t for t in texts if t.startswith("· ") and t[2:] in told] == [f"· {d}" for d in told]
    assert c.footer == "" and not c.hold and c.moves == 0  # the past is no news
    for width, height in ((80, 24), (160, 48)):
        lines = game_screen(c, width, height)
        assert len(lines) == height and all(width_of(line) == width for line in lines)
        screen = to_text(lines)
        assert "resumed: the game goes on from here" in screen
        assert last_turn in screen


def test_a_resumed_game_tells_its_chat_among_the_moves_where_live_play_told_it() -> None:
    _, seen, log, journal = played_then_stopped(4, chat=True)
    history = resumed(log, journal).updates()[0]
    assert isinstance(history, Resumed)
    live = [u for u in seen if isinstance(u, (*PAST, ChatLine))]
    assert sum(isinstance(u, ChatLine) for u in live) >= 3
    assert list(history.history) == live


def test_the_resumed_views_show_the_chat_made_safe_as_live_play_did() -> None:
    from kotp2p.ui import Comfort, Controller
    from tests.ui.fakes import FakeGame

    _, _, log, journal = played_then_stopped(4, chat=True)
    again = resumed(log, journal)
    ups = again.updates()
    out = io.StringIO()
    PlainView(again, out).show(ups)
    past = out.getvalue().partition("== resumed")[0]
    name = again.names()[0]
    assert f"<{name}> line 1\n" in past and f"<{name}> line 3 \\x1b[2J\n" in past
    assert "\x1b" not in past
    c = Controller(FakeGame(again.state, me=0), comfort=Comfort(pause=0.8))
    c.on_updates(ups)
    chat = [line.text for line in c.log if line.style == "chat"]
    assert len(chat) >= 3 and chat[0].endswith("> line 1")
    assert chat[2].endswith("> line 3 \\x1b[2J")
    texts = [line.text for line in c.log]  # among the moves (each before its author's move)
    end = texts.index("─── resumed: the game goes on from here ───")
    assert all(texts[texts.index(line) + 1] not in [*chat, texts[end]] for line in chat)
    assert texts.index(chat[0]) > texts.index("─── the game so far (from the log) ───")
