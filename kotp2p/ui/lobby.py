"""The lobby screen's controller: the games heard on the LAN, monster picks, ready, start, leave.

It drives a :class:`LobbyPort`. For ``host`` that is the host's lobby; for ``join``, the joiner's.
It draws with :func:`kotp2p.ui.full.pages.lobby_page`. The lobby decides what is allowed. Its refusal
is shown in the status line. A refusal is the lobby's ``LobbyError`` or a ``ValueError``.

The host also sees the connections that wait for a seat, by address, and may turn a joiner
away: k, then the seat's digit, or w for the connection that has waited longest.

Any game of the list heard on the LAN can be picked from the keyboard. Up and Down move the
highlight, and Enter joins the highlighted game. Digits type a game's number. The game is joined
at once when no longer number of the list starts with those digits. So with up to 9 games one
digit is enough. Otherwise the screen waits for Enter or the next digit. A click on a game joins
it. A game whose beacon says it needs a join code then asks for it: the keys type the code in the
status line until Enter.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Protocol

from kotp2p import rules
from kotp2p.net.lobby import MAX_JOIN_CODE, LobbyError, LobbyView
from kotp2p.net.wire import Refusal, safe_text
from kotp2p.ui.refusals import plain_refusal

PICK = "pick:"
"""A click on the game at index N of the list heard sends the key ``pick:N``."""
STARTING = "starting: every seat signs the game…"
"""The status line once the host pressed s and the lobby did not refuse."""
_LIST_KEYS = frozenset({"up", "down", "enter", "escape", "backspace", "c-h"})
_EXPANSION_KEYS = {"h": ("halloween", "Halloween"), "p": ("power-up", "Power Up!")}
"""The host's keys that turn an expansion on or off, with its name."""
EXPANSION_TEXTS = {"halloween": "costumes, and stealing them",
                   "power-up": "each monster's Evolution cards, in a hand nobody else sees"}
"""What each expansion adds, in a few words."""


def _is_digit(key: str) -> bool:
    return len(key) == 1 and "0" <= key <= "9"


class LobbyPort(Protocol):
    """What the lobby screen needs from a host's or a joiner's lobby."""

    @property
    def view(self) -> LobbyView:
        """The lobby as last broadcast."""
        ...

    def my_seat(self) -> int | None:
        """The user's seat, once seated."""
        ...

    def pick(self, monster: str) -> None:
        """Pick a monster for the user's seat."""
        ...

    def set_ready(self, ready: bool) -> None:
        """Say whether the user's seat is ready."""
        ...

    def start(self) -> None:
        """Start the game. Only the host does."""
        ...

    def leave(self) -> None:
        """Leave the lobby."""
        ...


class HostTools(Protocol):
    """What only the host's lobby screen has: the waiting connections, and turning one away."""

    def waiting(self) -> list[str]:
        """The addresses of the connections waiting for a seat, oldest first."""
        ...

    def turn_away(self, who: str) -> None:
        """Turn away the joiner at seat ``who``, or with ``wN`` the N-th waiting connection."""
        ...

    def set_expansion(self, name: str, on: bool) -> None:
        """Turn an expansion on or off: ``"halloween"`` or ``"power-up"``."""
        ...


class LobbyController:
    """The lobby screen's state and keys."""

    def __init__(self, port: LobbyPort, *, is_host: bool, join_code: str | None = None,
                 words: Sequence[str] = (), heard: Sequence[str] = ()) -> None:
        self.port = port
        self.is_host = is_host
        self.join_code = join_code
        self.words = tuple(words)
        self.heard = list(heard)
        self.chosen: int | None = None
        """The game picked from :attr:`heard`, for ``join`` without an address."""
        self.on_chosen: Callable[[int], None] = lambda index: None
        """Called with the index of the game picked from :attr:`heard`."""
        self.selected = 0
        """The game of :attr:`heard` highlighted. Up and Down move it, Enter joins it."""
        self.typed = ""
        """The digits of a game's number typed so far. Enter joins that game."""
        self.code: str | None = None
        """The join code typed so far, while the game picked asks for one; None otherwise."""
        self.on_code: Callable[[str], None] = lambda code: None
        """Called with the join code typed, once Enter is pressed."""
        self._status = "pick a monster with m, then press r when ready"
        self._asked: str | None = None
        """The monster last asked for with m, until the status line says something else."""
        self._error = False
        self._said_for: LobbyView | None = None
        """The lobby as it was when the status line was last set.

        A refusal goes once the lobby changes, because it answered the lobby as it was.
        """
        self.failed = False
        """The lobby failed for good: only leaving is left.

        The user was turned away, or the host is gone.
        """
        self.exit_requested = False
        self.interrupted = False
        """Ctrl-C was pressed: the command ends with the code of an interrupt."""
        self.notes: deque[str] = deque(maxlen=5)
        """The latest things the lobby said: who joined, the port, the start."""
        self._cursor = -1
        self.on_click: Callable[[], None] = lambda: None
        """Called after a click did what a key does. The application follows: it may leave."""
        self.host_tools: HostTools | None = None
        """The host's own tools; None on a joiner's screen."""
        self._turning_away = False
        """k was pressed: the next key names whom to turn away."""

    @property
    def status(self) -> str:
        """The status line.

        A pick asked for reads "asking the host" until the lobby's view shows the monster on the
        user's seat. So a pick the host refuses is never shown as made. The host refuses it when
        another player was first. A refusal stays until the lobby changes. Once every seat is
        ready, the line says so. The host's line says to press s to start.
        """
        if self.failed:
            return self._status
        if self.code is not None:
            return f"join code: {safe_text(self.code)}_   (Enter joins, Esc leaves)"
        view = self.port.view
        me = self.port.my_seat()
        asked = self._asked
        if asked is not None and (me is None or view.taken.get(asked) != me):
            return f"asking the host for {asked}…"
        if self._error and view == self._said_for:
            return self._status
        if self._starting():
            return self._status
        if me is not None and view.seats and view.all_ready:
            return ("Everyone is ready: press s to start" if self.is_host
                    else "Everyone is ready: waiting for the host to start the game")
        if asked is not None:
            return f"you picked {asked} (m again for another)"
        if self._error:  # The lobby changed since. The refusal answered what it was.
            return self._seat_status()
        return self._status

    @status.setter
    def status(self, text: str) -> None:
        self._status = text
        self._asked = None
        self._error = False
        self._said_for = self.port.view

    @property
    def status_error(self) -> bool:
        """The status says something went wrong: a refusal, until the lobby changes."""
        return self._error and self._asked is None and (self.failed
                                                        or self.port.view == self._said_for)

    @status_error.setter
    def status_error(self, error: bool) -> None:
        self._error = error

    def _starting(self) -> bool:
        return self._status == STARTING

    def _seat_status(self) -> str:
        """What the user's seat has left to do, pick or ready, or that it waits."""
        me = self.port.my_seat()
        seats = self.port.view.seats
        if me is None or not 0 <= me < len(seats):
            return ""
        if seats[me].monster is None:
            return "pick a monster with m, then press r when ready"
        return "ready: waiting for the others" if seats[me].ready else "press r when ready"

    def free_monsters(self) -> list[str]:
        """The monsters nobody else picked."""
        view = self.port.view
        me = self.port.my_seat()
        taken = {m for m, seat in view.taken.items() if seat != me}
        return [m for m in rules.MONSTERS if m not in taken]

    def monsters_in_turn(self) -> list[str]:
        """The :meth:`free_monsters` in the order m gives them, the next one first."""
        free = self.free_monsters()
        if not free:
            return []
        i = (self._cursor + 1) % len(free)
        return free[i:] + free[:i]

    def say(self, text: str, error: bool = False) -> None:
        """Show ``text`` in the status line."""
        self.status = safe_text(text, 500)
        self._error = error

    def refused(self, reason: Refusal | str) -> None:
        """The lobby refused what the user did: say it in plain words.

        A refusal may still be in the status line, if none of the user's keys came since. It then
        moves to the notes rather than vanish. The host's answers come late. The first one often
        says why the next came. For example, another player took a monster first, and then comes
        "pick a monster first".
        """
        text = plain_refusal(reason)
        if self.status_error and self.status != text:
            self.notes.append(self.status)
        self.say(text, error=True)

    def fail(self, reason: Refusal | str) -> None:
        """The lobby is over for this user: say why and what to do.

        The user may have been turned away, or the lobby may be unreachable. Only leaving is left,
        with q, Esc or Ctrl-C. So keys pressed in a hurry do not hide the reason.
        """
        self.failed = True
        self.heard = []
        self.say(plain_refusal(reason), error=True)

    def press(self, key: str) -> None:
        """Handle one key."""
        if self.failed and key not in ("q", "c-c", "escape"):
            return
        if self.failed:
            self.exit_requested = True
            return
        self._error = False
        if self.code is not None and key != "c-c":
            self._code_key(key)
            return
        try:
            self._press(key)
        except LobbyError as exc:
            self.refused(exc.refusal)
        except ValueError as exc:
            self.refused(str(exc))

    def _code_key(self, key: str) -> None:
        """A key for the join code asked for: a character, Backspace, Enter or Escape."""
        code = self.code or ""
        if key == "enter":
            if code.strip():
                self.code = None
                self.on_code(code)
        elif key == "escape":
            self.port.leave()
            self.exit_requested = True
        elif key in ("backspace", "c-h"):
            self.code = code[:-1]
        elif len(key) == 1 and key.isprintable() and len(code) < MAX_JOIN_CODE:
            self.code = code + key

    def click(self, key: str) -> None:
        """A click on something standing for ``key``, such as a game heard or a footer key."""
        self.press(key)
        self.on_click()

    def _join(self, index: int) -> None:
        self.chosen = index
        self.selected = index
        self.typed = ""
        self.status = f"joining {safe_text(self.heard[index])}…"
        self.on_chosen(index)

    def _list_key(self, key: str) -> None:
        """A key for the list of games heard: move, type a number, join."""
        count = len(self.heard)
        if key.startswith(PICK):  # a click on a game
            index = int(key[len(PICK):]) if key[len(PICK):].isdigit() else -1
            if 0 <= index < count:
                self._join(index)
            return
        if key in ("up", "down"):
            self.typed = ""
            self.selected = (self.selected + (1 if key == "down" else -1)) % count
            self.status = (f"game {self.selected + 1} of {count}: Enter joins it")
        elif key in ("escape", "backspace", "c-h"):
            self.typed = ""
            self.status = f"Up/Down or a number from 1 to {count} picks a game, Enter joins it"
        elif key == "enter":
            index = int(self.typed) - 1 if self.typed else self.selected
            self._join(min(max(index, 0), count - 1))
        else:
            shown = self.typed + key
            typed = shown.lstrip("0")
            if not typed or int(typed) > count:
                self.typed = ""
                self.say(f"There is no game {int(shown)} in the list: press a number from 1 to "
                         f"{count}.", error=True)
                return
            if int(typed) * 10 > count:  # no longer number of the list starts with it
                self._join(int(typed) - 1)
                return
            self.typed = typed
            self.selected = int(typed) - 1
            self.status = (f"game {typed}: Enter joins it (or type the next digit of a "
                           f"number up to {count})")

    def waiting_notes(self) -> list[str]:
        """A line on the host's screen that says who waits for a seat, by address."""
        tools = self.host_tools
        waiting = tools.waiting() if tools is not None else []
        if not waiting:
            return []
        counts: dict[str, int] = {}
        for address in waiting:
            counts[address] = counts.get(address, 0) + 1
        told = [a if n == 1 else f"{a} ({n})" for a, n in counts.items()]
        more = f" and {len(told) - 4} more" if len(told) > 4 else ""
        return ["waiting for a seat: " + ", ".join(told[:4]) + more + " (k w turns the first away)"]

    def _turn_away(self, key: str) -> None:
        self._turning_away = False
        tools = self.host_tools
        if tools is None:
            return
        if _is_digit(key) or key == "w":
            who = "w1" if key == "w" else key
            tools.turn_away(who)
            whom = "the first waiting connection" if key == "w" else f"seat {key}"
            self.status = f"turning away {whom}"
        else:
            self.status = "nobody turned away"

    def _press(self, key: str) -> None:
        if key in ("q", "c-c"):
            self.interrupted = key == "c-c"
            self.port.leave()
            self.exit_requested = True
        elif self._turning_away:
            self._turn_away(key)
        elif key in _EXPANSION_KEYS:
            name, what = _EXPANSION_KEYS[key]
            if not self.is_host or self.host_tools is None:
                self.say(f"Only the host turns {what} on or off.", error=True)
                return
            on = name not in self.port.view.expansions
            self.host_tools.set_expansion(name, on)
            self.status = (f"{what} on: {EXPANSION_TEXTS[name]}; everyone says ready again"
                           if on else f"{what} off: everyone says ready again")
        elif key == "k" and self.is_host and self.host_tools is not None:
            self._turning_away = True
            self.status = ("turn away whom? press the seat's digit, or w for the connection that "
                           "waited longest (any other key: nobody)")
        elif not self.heard and not self.port.view.seats:
            self.say("Nothing to choose yet: wait for the lobby to open (q leaves).")
        elif self.heard and (_is_digit(key) or key in _LIST_KEYS or key.startswith(PICK)):
            self._list_key(key)
        elif key == "m":
            free = self.free_monsters()
            if not free:
                self.status = "every monster is taken"
                return
            self._cursor = (self._cursor + 1) % len(free)
            self.port.pick(free[self._cursor])
            self._asked = free[self._cursor]
        elif key == "r":
            me = self.port.my_seat()
            seat = None if me is None else self.port.view.seats[me]
            ready = not (seat is not None and seat.ready)
            self.port.set_ready(ready)
            self.status = "ready: waiting for the others" if ready else "not ready"
        elif key == "s":
            if not self.is_host:
                self.say("Only the host starts the game: press r when you are ready, then wait "
                         "for them.", error=True)
                return
            self.port.start()
            self.status = STARTING
        else:
            self.status = "keys: m pick a monster, r ready, " + (
                "s start, k turn away, h Halloween, p Power Up!, " if self.is_host else "") + "q leave"
