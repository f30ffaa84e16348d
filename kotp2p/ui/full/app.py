"""The prompt_toolkit application: one full-screen window, a chat line and a card search line.

:mod:`kotp2p.ui.full.screen` and :mod:`kotp2p.ui.full.pages` draw the window. Every key goes to the
controller.
"""

from __future__ import annotations

import re

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings
from prompt_toolkit.key_binding.bindings.mouse import load_mouse_bindings, typical_mouse_events
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import ConditionalContainer, HSplit, Layout, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.output import Output

from kotp2p.ui.full.pages import (
    cards_page,
    cards_scroll_limit,
    end_body,
    end_page,
    help_body,
    help_page,
    lobby_page,
    options_page,
    scroll_limit,
)
from kotp2p.ui.full.screen import game_screen, min_size, to_fragments, too_small
from kotp2p.ui.full.styles import make_style
from kotp2p.ui.lobby import LobbyController
from kotp2p.ui.model import Controller
from kotp2p.ui.symbols import ascii_cells

_NAMES = {Keys.ControlM: "enter", Keys.ControlJ: "enter", Keys.Escape: "escape",
          Keys.ControlC: "c-c", Keys.PageUp: "pageup", Keys.PageDown: "pagedown"}


_MOUSE = re.compile(r"\x1b\[(?:<\d{1,6};\d{1,6};\d{1,6}[mM]|\d{1,6};\d{1,6};\d{1,6}M|M...)\Z",
                    re.DOTALL)
"""The mouse reports prompt_toolkit can parse: xterm SGR, urxvt and the classic three bytes."""
ESC_WAIT = 0.05
"""Seconds a lone Esc byte waits for the rest of a terminal's escape sequence.

This is prompt_toolkit's ``ttimeoutlen``. Its default of 0.5 s made Esc feel slow. A terminal
sends a sequence in one write, so this is plenty. The Esc bindings are also eager, so no longer key
binding makes them wait.
"""


def quick_escape(app: Application[None]) -> Application[None]:
    """``app`` with Esc acting at once.

    Esc waits only :data:`ESC_WAIT`, and it does not wait for Alt+key bindings.
    """
    app.ttimeoutlen = ESC_WAIT
    app.timeoutlen = ESC_WAIT
    return app


def is_sound_mouse_report(data: str) -> bool:
    """True when ``data`` is a mouse report prompt_toolkit can read. It raises on others."""
    if not _MOUSE.match(data):
        return False
    return data[2] != "M" or ord(data[3]) in typical_mouse_events


def mouse_guard() -> KeyBindings:
    """Mouse reports from the terminal, with a malformed one ignored.

    prompt_toolkit's own handler raises on a malformed report. The application would then stop to
    show "Press ENTER to continue".
    """
    (handle,) = [b.handler for b in load_mouse_bindings().get_bindings_for_keys(
        (Keys.Vt100MouseEvent,))]
    kb = KeyBindings()

    @kb.add(Keys.Vt100MouseEvent)
    def _mouse(event: KeyPressEvent) -> object:
        if not is_sound_mouse_report(event.data):
            return NotImplemented
        return handle(event)

    return kb


def key_of(event: KeyPressEvent) -> str:
    """The controller's name for the key pressed."""
    key = event.key_sequence[0].key
    if isinstance(key, Keys):
        return _NAMES.get(key, key.value)
    return key


def draw(ctrl: Controller, width: int, height: int, search: str = "") -> StyleAndTextTuples:
    """The fragments of whichever screen the controller is on, at ``width`` × ``height``.

    A window smaller than :func:`min_size` says so instead.
    """
    need_w, need_h = min_size(ctrl.state)
    if width < need_w or height < need_h:
        lines = too_small(ctrl, width, height)
    elif ctrl.screen == "help":
        ctrl.page_scroll = min(ctrl.page_scroll,
                               scroll_limit(help_body(width, ctrl.state), height))
        lines = help_page(width, height, ctrl.click, ctrl.state, ctrl.page_scroll)
    elif ctrl.screen == "cards":
        ctrl.card_scroll = min(ctrl.card_scroll,
                               cards_scroll_limit(search, ctrl.sym, width, height, ctrl.state))
        lines = cards_page(search, ctrl.sym, width, height, ctrl.click, ctrl.card_scroll,
                           ctrl.state)
    elif ctrl.screen == "options":
        lines = options_page(ctrl, width, height)
    elif ctrl.screen == "end" and ctrl.end is not None:
        ctrl.page_scroll = min(ctrl.page_scroll, scroll_limit(end_body(ctrl, width), height))
        lines = end_page(ctrl, width, height, ctrl.page_scroll)
    else:
        lines = game_screen(ctrl, width, height - (1 if ctrl.chatting else 0))
    return ascii_fragments(to_fragments(lines)) if ctrl.sym.ascii else to_fragments(lines)


def ascii_fragments(frags: StyleAndTextTuples) -> StyleAndTextTuples:
    """The fragments with their text in ASCII for ``--ascii``. Their handlers are kept."""
    return [(f[0], ascii_cells(f[1]), *f[2:]) for f in frags]


def build_app(ctrl: Controller, *, colour: bool = True, input: Input | None = None,
              output: Output | None = None, refresh: float | None = 1.0) -> Application[None]:
    """The full-screen application over ``ctrl``. Tests pass ``input`` and ``output``."""
    chat = Buffer(multiline=False)
    search = Buffer(multiline=False)
    chatting = Condition(lambda: ctrl.chatting)
    searching = Condition(lambda: ctrl.screen == "cards")

    def fragments() -> StyleAndTextTuples:
        size = app.output.get_size()
        return draw(ctrl, size.columns, size.rows, search.text)

    main = Window(FormattedTextControl(fragments, focusable=True, show_cursor=False),
                  wrap_lines=False)
    chat_window = Window(BufferControl(chat), height=1, get_line_prefix=lambda *_: [
        ("class:footer.key", " say: ")])
    search_window = Window(BufferControl(search), height=1, get_line_prefix=lambda *_: [
        ("class:footer.key", " search: ")])
    root = HSplit([main, ConditionalContainer(chat_window, chatting),
                   ConditionalContainer(search_window, searching)])
    kb = KeyBindings()

    def follow() -> None:
        """The application follows the controller: leave, or focus the line in use."""
        if ctrl.exit_requested:
            if app.is_running and app.future is not None and not app.future.done():
                app.exit()
            return
        if ctrl.chatting:
            app.layout.focus(chat_window)
        elif ctrl.screen == "cards":
            if not app.layout.has_focus(search_window):  # opened again: a new search
                search.reset()
            app.layout.focus(search_window)
        else:
            app.layout.focus(main)

    def after(event: KeyPressEvent) -> None:
        follow()

    @kb.add(Keys.Any, filter=~chatting & ~searching)
    @kb.add(Keys.ControlM, filter=~chatting & ~searching)
    @kb.add(Keys.Escape, filter=~chatting & ~searching, eager=True)
    @kb.add(Keys.PageUp, filter=~chatting & ~searching)
    @kb.add(Keys.PageDown, filter=~chatting & ~searching)
    def _key(event: KeyPressEvent) -> None:
        ctrl.press(key_of(event))
        after(event)

    @kb.add(Keys.ControlC)
    def _interrupt(event: KeyPressEvent) -> None:
        ctrl.press("c-c")
        after(event)

    @kb.add(Keys.ControlM, filter=chatting)
    def _send(event: KeyPressEvent) -> None:
        text, chat.text = chat.text, ""
        ctrl.send_chat(text)
        after(event)

    @kb.add(Keys.Escape, filter=chatting, eager=True)
    def _cancel_chat(event: KeyPressEvent) -> None:
        chat.text = ""
        ctrl.chatting = False
        after(event)

    @kb.add(Keys.Escape, filter=searching, eager=True)
    @kb.add(Keys.ControlM, filter=searching)
    @kb.add(Keys.PageUp, filter=searching)
    @kb.add(Keys.PageDown, filter=searching)
    @kb.add(Keys.Up, filter=searching)
    @kb.add(Keys.Down, filter=searching)
    def _search_key(event: KeyPressEvent) -> None:
        ctrl.press("escape" if key_of(event) == "enter" else key_of(event))
        after(event)

    search.on_text_changed += lambda _: setattr(ctrl, "card_scroll", 0)

    app: Application[None] = Application(
        layout=Layout(root, focused_element=main),
        key_bindings=merge_key_bindings([kb, mouse_guard()]), full_screen=True,
        mouse_support=True, style=make_style(colour), refresh_interval=refresh,
        input=input, output=output)
    ctrl.on_click = follow
    return quick_escape(app)


def build_lobby_app(ctrl: LobbyController, *, colour: bool = True, ascii_only: bool = False,
                    input: Input | None = None, output: Output | None = None
                    ) -> Application[None]:
    """The full-screen lobby over ``ctrl``.

    It leaves when the user does, which sets ``ctrl.exit_requested``. The caller also exits it
    when the game starts.
    """

    def fragments() -> StyleAndTextTuples:
        size = app.output.get_size()
        draw = ascii_fragments if ascii_only else (lambda frags: frags)
        return draw(to_fragments(lobby_page(ctrl.port.view, me=ctrl.port.my_seat(),
                                       join_code=ctrl.join_code, words=ctrl.words,
                                       heard=ctrl.heard, status=ctrl.status,
                                       notes=(*ctrl.notes, *ctrl.waiting_notes()),
                                       width=size.columns, height=size.rows,
                                       press=ctrl.click, is_host=ctrl.is_host,
                                       status_error=ctrl.status_error, failed=ctrl.failed,
                                       selected=ctrl.selected,
                                       monsters=ctrl.monsters_in_turn())))

    kb = KeyBindings()

    def follow() -> None:
        if ctrl.exit_requested and app.is_running and app.future is not None \
                and not app.future.done():
            app.exit()

    @kb.add(Keys.Any)
    @kb.add(Keys.ControlC)
    def _key(event: KeyPressEvent) -> None:
        ctrl.press(key_of(event))
        follow()

    app: Application[None] = Application(
        layout=Layout(Window(FormattedTextControl(fragments, focusable=True,
                                                  show_cursor=False))),
        key_bindings=merge_key_bindings([kb, mouse_guard()]), full_screen=True,
        mouse_support=True, style=make_style(colour), refresh_interval=1.0, input=input,
        output=output)
    ctrl.on_click = follow
    return quick_escape(app)
