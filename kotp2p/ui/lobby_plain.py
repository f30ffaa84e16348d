"""The lobby in plain lines: what the lobby says is printed, what the user types becomes a request.

The commands are ``pick MONSTER``, ``ready``, ``unready``, ``start``, ``monsters`` and ``help``.
Case does not matter. A unique prefix of the monster is enough. Only the host can ``start``. The
host also has ``who``, which lists the joiners and the connections waiting for a seat,
``kick N``, which turns away the joiner at seat N, or with ``kick wN`` the N-th waiting one,
``halloween on`` or ``halloween off``, and ``power-up on`` or ``power-up off``.
Nothing here touches a socket. The transport runs the requests this returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from kotp2p.net.lobby import (
    EXPANSION_NAMES,
    Changed,
    Failed,
    GuestEvent,
    HostEvent,
    LobbyGuest,
    LobbyHost,
    Notice,
    Started,
)
from kotp2p.net.trust import check_words

HELP = "commands: pick MONSTER, ready, unready, monsters, quit, help{start}"
HOST_HELP = (", start (when every seat is ready), who, kick SEAT (or kick wN for a waiting one), "
             "halloween on|off, power-up on|off")


@dataclass(frozen=True)
class Request:
    """What the user asked of the lobby: ``pick``, ``ready``, ``unready``, ``start``, ``quit``,
    or for the host ``who``, ``kick``, and an expansion on or off, as ``halloween on`` or
    ``power-up off``.

    A ``pick`` comes with its ``monster``, a ``kick`` with the joiner it names in ``who``.
    """

    what: str
    monster: str = ""
    who: str = ""

    def to_host(self, lobby: LobbyHost) -> list[HostEvent]:
        """Run it on the host's lobby.

        :raises LobbyError: refused. The reason says why.
        """
        if self.what == "pick":
            return lobby.pick(self.monster)
        if self.what == "start":
            return lobby.start()
        if self.what == "quit":
            return lobby.close()
        if self.what == "who":
            return [Notice(line) for line in lobby.who()]
        if self.what == "kick":
            return lobby.turn_away(self.who)
        name, _, on = self.what.partition(" ")
        if name in EXPANSION_NAMES and on in ("on", "off"):
            return lobby.set_expansion(name, on == "on")
        return lobby.set_ready(self.what == "ready")

    def to_guest(self, lobby: LobbyGuest) -> list[GuestEvent]:
        """Run it on a joiner's lobby.

        :raises LobbyError: refused. The reason says why.
        """
        if self.what == "pick":
            return lobby.pick(self.monster)
        if self.what == "quit":
            return lobby.leave()
        return lobby.set_ready(self.what == "ready")


def find_monster(text: str, monsters: Sequence[str]) -> str:
    """The monster named by ``text``.

    Case does not matter, and a unique prefix is enough.

    :raises ValueError: no monster, or several, start that way. The message lists the monsters.
    """
    wanted = text.strip().lower()
    exact = [m for m in monsters if m.lower() == wanted]
    if exact:
        return exact[0]
    found = [m for m in monsters if m.lower().startswith(wanted)] if wanted else []
    if len(found) == 1:
        return found[0]
    raise ValueError(f"expected a monster among {', '.join(monsters)}, found {text.strip()!r}")


class PlainLobby:
    """Prints lobby events to ``out`` and turns typed lines into lobby requests."""

    def __init__(self, out: TextIO, monsters: Sequence[str], *, host: bool) -> None:
        self.out = out
        self.monsters = tuple(monsters)
        self.host = host

    def say(self, line: str) -> None:
        """Print one line now."""
        print(line, file=self.out, flush=True)

    def show(self, event: HostEvent | GuestEvent) -> None:
        """Print what the user should see of a lobby event."""
        if isinstance(event, Changed):
            for line in event.view.lines():
                self.say(line)
        elif isinstance(event, Notice):
            self.say(event.text)
        elif isinstance(event, Failed):
            self.say(f"lobby: {event.reason}")
        elif isinstance(event, Started):
            words = " ".join(check_words(event.genesis.game_id))
            self.say(f"the game starts; check words: {words} (every player must see the same)")

    def request(self, line: str) -> Request | None:
        """The lobby request a typed line asks for.

        None means there is nothing to send, because help or an error was printed.
        """
        words = line.strip().split(maxsplit=1)
        if not words:
            return None
        cmd, rest = words[0].lower(), (words[1] if len(words) > 1 else "")
        if cmd == "pick":
            try:
                monster = find_monster(rest, self.monsters)
            except ValueError as exc:
                self.say(str(exc))
                return None
            return Request("pick", monster)
        if cmd in ("ready", "unready", "quit") or (cmd in ("start", "who") and self.host):
            return Request(cmd)
        if cmd == "kick" and self.host:
            if not rest.strip():
                self.say("expected kick SEAT, or kick wN for the N-th connection waiting")
                return None
            return Request("kick", who=rest.strip())
        name = "power-up" if cmd == "powerup" else cmd
        if name in EXPANSION_NAMES and self.host:
            if rest.strip().lower() not in ("on", "off"):
                self.say(f"expected {cmd} on, or {cmd} off")
                return None
            return Request(f"{name} {rest.strip().lower()}")
        if cmd == "leave":
            return Request("quit")
        if cmd == "monsters":
            self.say(", ".join(self.monsters))
            return None
        self.say(HELP.format(start=HOST_HELP if self.host else ""))
        return None
