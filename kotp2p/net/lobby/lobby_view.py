"""What the lobby shows, and its wire form.

The view holds seats, names, key fingerprints, monsters, ready flags, bots and the options. The
host broadcasts it after every change. The wire form is a msgpack array in fixed order::

    ["lobby", game name, [seat, ...], two_player_variant: nil|true|false, timeout seconds
     (, expansions)]
    seat = [key or empty, name, monster or nil, ready, bot level or nil, host seat or nil]

The last element names the expansions on, such as ``["halloween", "power-up"]``, and is there
only when one is on: a base lobby's view is the same bytes as before expansions came.

A free seat's key is empty. ``host seat`` names the seat of the human whose process runs a bot
seat. Everything decoded from a peer is checked: types, lengths and printable names. So a view is
safe to print as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from kotp2p.net.trust import EXPANSIONS, HALLOWEEN, MAX_SEATS, MIN_SEATS, POWER_UP, game_options
from kotp2p.net.wire import MAX_NAME, RemoteProtocolError, Value, fingerprint, is_text

LOBBY = "lobby"
MAX_BOT_LEVEL = 16
MIN_TIMEOUT = 10
MAX_TIMEOUT = 3600
DEFAULT_TIMEOUT = 120
EXPANSION_NAMES = {HALLOWEEN: "Halloween", POWER_UP: "Power Up!"}
"""How each expansion is named to a person."""
MAX_GAME_NAME = 40


@dataclass(frozen=True)
class LobbySeat:
    """One seat of the lobby; ``key`` is empty while the seat is free."""

    key: bytes = b""
    name: str = ""
    monster: str | None = None
    ready: bool = False
    bot: str | None = None
    hosted_by: int | None = None

    @property
    def is_free(self) -> bool:
        """Nobody sits here yet."""
        return not self.key

    @property
    def fingerprint(self) -> str:
        """The short fingerprint of the seat's key, or '' when the seat is free."""
        return fingerprint(self.key) if self.key else ""

    def describe(self, seats: Sequence[LobbySeat]) -> str:
        """One line: ``Bob [a1b2-...] The King, ready`` or ``bot (random) of Alice ...``."""
        if self.is_free:
            return "(free)"
        who = f"{self.name} [{self.fingerprint}]"
        if self.bot is not None:
            host = self.hosted_by
            of = f" hosted by {seats[host].name}" if host is not None and host < len(seats) else ""
            who += f", bot {self.bot}{of}"
        state = "ready" if self.ready else "not ready"
        return f"{who}: {self.monster or 'no monster yet'}, {state}"

    def to_wire(self) -> list[Value]:
        """Positional wire form."""
        return [self.key, self.name, self.monster, self.ready, self.bot, self.hosted_by]


@dataclass(frozen=True)
class LobbyView:
    """The whole lobby as every participant sees it."""

    game_name: str
    seats: tuple[LobbySeat, ...]
    two_player_variant: bool | None = None
    timeout: int = DEFAULT_TIMEOUT
    halloween: bool = False
    power_up: bool = False

    @property
    def expansions(self) -> list[str]:
        """The names of the expansions on, in the order options list them."""
        on = {HALLOWEEN: self.halloween, POWER_UP: self.power_up}
        return [name for name in EXPANSIONS if on[name]]

    @property
    def options(self) -> Value:
        """The game's options as the genesis carries them."""
        return game_options(self.two_player_variant, halloween=self.halloween,
                            power_up=self.power_up)

    @property
    def free_seats(self) -> int:
        """How many seats nobody took yet."""
        return sum(1 for s in self.seats if s.is_free)

    @property
    def taken(self) -> dict[str, int]:
        """Monster -> the seat that picked it."""
        return {s.monster: i for i, s in enumerate(self.seats) if s.monster is not None}

    @property
    def all_ready(self) -> bool:
        """Every seat is taken, has a monster and is ready."""
        return all(not s.is_free and s.monster is not None and s.ready for s in self.seats)

    def seat_of(self, key: bytes) -> int | None:
        """The seat of ``key``, if it sits here."""
        for i, s in enumerate(self.seats):
            if s.key == key:
                return i
        return None

    def with_seat(self, index: int, seat: LobbySeat) -> LobbyView:
        """The same view with seat ``index`` replaced."""
        seats = list(self.seats)
        seats[index] = seat
        return replace(self, seats=tuple(seats))

    def lines(self) -> list[str]:
        """The lobby in plain words, one line per seat, then the options."""
        out = [f"{self.game_name}: {len(self.seats) - self.free_seats}/{len(self.seats)} seats"]
        out += [f"  seat {i}: {s.describe(self.seats)}" for i, s in enumerate(self.seats)]
        variant = {None: "by seat count", True: "on", False: "off"}[self.two_player_variant]
        on = "".join(f"; {EXPANSION_NAMES[name]}: on" for name in self.expansions)
        out.append(f"  2-player variant: {variant}; timeout {self.timeout} s{on}")
        return out

    def to_wire(self) -> list[Value]:
        """The broadcast message."""
        out: list[Value] = [LOBBY, self.game_name, [s.to_wire() for s in self.seats],
                            self.two_player_variant, self.timeout]
        expansions: list[Value] = list(self.expansions)
        return [*out, expansions] if expansions else out


def parse_view(value: Value, monsters: Sequence[str]) -> LobbyView:
    """Decode a ``lobby`` message from the host.

    :raises RemoteProtocolError: any field malformed. The reason says which.
    """
    if not isinstance(value, list) or len(value) not in (5, 6) or value[0] != LOBBY:
        raise RemoteProtocolError("expected ['lobby', name, seats, variant, timeout] and the "
                                  "expansions on, if any")
    _, name, seats, variant, timeout = value[:5]
    on = value[5] if len(value) == 6 else []
    if len(value) == 6 and (not isinstance(on, list) or not on
                            or on != [x for x in EXPANSIONS if x in on]):
        raise RemoteProtocolError(f"lobby expansions: expected some of {list(EXPANSIONS)}, in "
                                  "that order")
    if not is_text(name, MAX_GAME_NAME):
        raise RemoteProtocolError(f"lobby name: expected 1 to {MAX_GAME_NAME} printable characters")
    if not isinstance(seats, list) or not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise RemoteProtocolError(f"lobby: expected {MIN_SEATS} to {MAX_SEATS} seats")
    if variant not in (None, True, False):
        raise RemoteProtocolError("lobby: the 2-player variant is nil, true or false")
    if not isinstance(timeout, int) or not MIN_TIMEOUT <= timeout <= MAX_TIMEOUT:
        raise RemoteProtocolError(f"lobby timeout: expected {MIN_TIMEOUT} to {MAX_TIMEOUT} s")
    parsed = tuple(_parse_seat(i, s, len(seats), monsters) for i, s in enumerate(seats))
    picked = [s.monster for s in parsed if s.monster is not None]
    if len(picked) != len(set(picked)):
        raise RemoteProtocolError("lobby: one monster picked by two seats")
    keys = [s.key for s in parsed if s.key]
    if len(keys) != len(set(keys)):
        raise RemoteProtocolError("lobby: one key in two seats")
    return LobbyView(name, parsed, variant, timeout, halloween=HALLOWEEN in on,
                     power_up=POWER_UP in on)


def _parse_seat(i: int, s: Value, n: int, monsters: Sequence[str]) -> LobbySeat:
    what = f"lobby seat {i}: expected [key, name, monster, ready, bot, host seat]"
    if not isinstance(s, list) or len(s) != 6:
        raise RemoteProtocolError(what)
    key, name, monster, ready, bot, host = s
    if not isinstance(key, bytes) or len(key) not in (0, 32) or not isinstance(ready, bool):
        raise RemoteProtocolError(what)
    if not key:
        if name != "" or monster is not None or ready or bot is not None or host is not None:
            raise RemoteProtocolError(f"lobby seat {i}: a free seat carries nothing")
        return LobbySeat()
    if not is_text(name, MAX_NAME):
        raise RemoteProtocolError(f"lobby seat {i}: a name is 1 to {MAX_NAME} printable characters")
    if monster is not None and monster not in monsters:
        raise RemoteProtocolError(f"lobby seat {i}: unknown monster {str(monster)[:40]!r}")
    if bot is not None and not is_text(bot, MAX_BOT_LEVEL):
        raise RemoteProtocolError(f"lobby seat {i}: a bot level is a short word")
    if host is not None and (not isinstance(host, int) or isinstance(host, bool)
                             or not 0 <= host < n):
        raise RemoteProtocolError(f"lobby seat {i}: the host seat is a seat number")
    return LobbySeat(key, name, monster, ready, bot, host)
