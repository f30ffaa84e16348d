"""Refusals in plain words: what happened and what to do, for the screens to show.

Theory of operation
-------------------
The layers below refuse with a :class:`~kotp2p.net.wire.refusal.Refusal`. It holds a short text
for logs and plain output, and a :class:`~kotp2p.net.wire.refusal.Why` code.
:func:`plain_refusal` picks the sentence by the code alone. It never reads the text. It says one or
two sentences: what happened, then what the player can do about it.

Who is blamed matters. A refusal this side found is told as a fact. It names what its ``details``
hold, which are facts this side knows. A refusal the other side sent has ``by_peer`` set. It is
told as that side's answer:

* Its code only picks among the answers its message may carry. The transport made any other code
  ``other``.
* The sentence names nobody but "you" and the host.
* The only words of the peer it shows are its own, quoted as its answer.

A player turned away is told to the host. A connection refused by a game's mesh is told to the
refusing side. Both come with the address the connection came from. A bare string has no code. It
gets a general sentence with a way out.
"""

from __future__ import annotations

from collections.abc import Callable

from kotp2p.net.wire import Refusal, Why, safe_text

Says = Callable[[Refusal], str]

_RELEASE = ("You and the other side run different releases of kotp2p, so you cannot play "
            "together. Install the same release on both machines (kotp2p --version shows it), "
            "then join again.")
_JOIN_CODE = "Ask the host for the code shown on their screen and join again with --join-code CODE."
_LACKS_CODE = ("This host does not know the join code you typed: it may not be the game you meant, "
               "or the code has a typo. Check the address and the code on the host's screen, then "
               "join again with --join-code CODE.")
_SAME_GAME = "Check the address and port, and that every player plays (or resumes) this same game."
_WHERE_PLAYED = "Check that every player resumed the game where they played it."


def _detail(r: Refusal, i: int, default: str = "") -> str:
    return safe_text(r.details[i], 200) if i < len(r.details) else default


def _said(r: Refusal) -> str:
    """The other side's own words as a clause. Without them, this side's text."""
    return _clause(_detail(r, 0, r.text))


# Sentences for a refusal the other side sent: its code, its words. To a joiner, that is the host.
_PEER: dict[Why, Says] = {
    Why.WRONG_JOIN_CODE: lambda r: f"The host turned you away: the join code is wrong. {_JOIN_CODE}",
    Why.NEEDS_JOIN_CODE: lambda r: f"This game needs a join code. {_JOIN_CODE}",
    Why.HOST_LACKS_JOIN_CODE: lambda r: _LACKS_CODE,
    Why.OTHER_VERSION: lambda r: _RELEASE,
    Why.OTHER_ENGINE: lambda r: _RELEASE,
    Why.GAME_FULL: lambda r: "The game is full: every seat is taken. Ask the host for a game "
    "with more seats, or pick another game.",
    Why.GAME_STARTED: lambda r: "The game has already started, so nobody can join it now. Ask "
    "the host to start a new one.",
    Why.ALREADY_SEATED: lambda r: "You already have a seat in this game (in another window?). "
    "Play from that window, or leave there first.",
    Why.LOBBY_CLOSED: lambda r: f"The host closed the lobby ({_said(r)}). Join again when they "
    "host a new game.",
    Why.MONSTER_TAKEN: lambda r: f"The host says: {_said(r)}. Press m again for another monster.",
    Why.NO_SUCH_MONSTER: lambda r: f"The host says: {_said(r)}. Press m again for another "
    "monster.",
    Why.PICK_FIRST: lambda r: "Pick a monster first with m, then press r when ready.",
    Why.STARTING: lambda r: "The game is already starting: wait a moment.",
    Why.HOST_SAYS: lambda r: f"The host says: {_said(r)}.",
    Why.OTHER_GAME: lambda r: f"The other side refused the connection: it is in another game. "
    f"{_SAME_GAME}",
    Why.NOT_A_PLAYER: lambda r: "The other side refused the connection: your key is not one of "
    "the players of its game. Play as the user who joined this game (kotp2p identity shows "
    "your key).",
    Why.WRONG_SEAT: lambda r: "The other side refused the connection: it does not play the seat "
    f"you called (another program answers at that address now). {_WHERE_PLAYED}",
    Why.SEAT_RUNNING_TWICE: lambda r: "The other side refused the connection: your seat is "
    "already connected there and answering. Is this game running twice (a copy of its data "
    "directory resumed)? Keep one copy.",
}

# Sentences for a refusal this side found: its code, and the facts in its details.
_OURS: dict[Why, Says] = {
    Why.WRONG_JOIN_CODE: _PEER[Why.WRONG_JOIN_CODE],
    Why.NEEDS_JOIN_CODE: _PEER[Why.NEEDS_JOIN_CODE],
    Why.HOST_LACKS_JOIN_CODE: lambda r: _LACKS_CODE,
    Why.OTHER_VERSION: lambda r: _RELEASE,
    Why.OTHER_ENGINE: lambda r: _RELEASE,
    Why.UNREACHABLE: lambda r: f"Could not reach a game at {_detail(r, 0, 'that address')} "
    f"({_clause(_detail(r, 1, 'no answer'))}). Check the address and port shown on the host's "
    "screen and that the host is still running, then join again.",
    Why.NOTHING_HEARD: lambda r: "No game was heard on this network. Ask the host for the "
    "address on their screen and join with: kotp2p join HOST:PORT",
    Why.TURNED_AWAY: lambda r: _turned_away(r),
    Why.WONT_SIGN: lambda r: f"You did not sign the game the host started: "
    f"{_clause(_detail(r, 0, r.text))}. Leave with q and join a new lobby.",
    Why.HOST_BROKE_PROTOCOL: lambda r: "The host sent something this kotp2p does not accept, so "
    "you left the lobby. Check that you both run the same release, then join again.",
    Why.CONNECTION_ENDED: lambda r: f"The connection to the host was lost "
    f"({_clause(_detail(r, 0, 'closed'))}). Check that the host is still running, then join "
    "again.",
    Why.PICK_FIRST: _PEER[Why.PICK_FIRST],
    Why.STARTING: _PEER[Why.STARTING],
    Why.MONSTER_TAKEN: lambda r: f"{_detail(r, 0, 'That monster')} is taken by "
    f"{_detail(r, 1, 'another player')}: press m again for another monster.",
    Why.NO_SUCH_MONSTER: lambda r: f"There is no monster called {_detail(r, 0, 'that')}: press "
    "m to go through them.",
    Why.SEAT_FREE: lambda r: f"Seat {_detail(r, 0, '?')} is still free: wait for another player "
    "to join, then press s again.",
    Why.SEAT_NOT_READY: lambda r: _not_ready(r),
    Why.LOBBY_OVER: lambda r: "The lobby is closed: the game has started or was ended.",
    Why.NOT_SEATED: lambda r: "You are not seated in the lobby yet: wait until the seats show, "
    "then try again.",
    Why.LEFT: lambda r: "You left the lobby.",
    Why.NOT_YOUR_DECISION: lambda r: "That was not yours to decide any more: the game has moved "
    "on. The footer says what is asked now.",
    Why.ILLEGAL_MOVE: lambda r: "The game refused that move: it is not allowed at this point "
    "(the game may have moved on). The footer lists the keys that work now.",
    Why.EMPTY_CHAT: lambda r: "Type something to say before pressing Enter.",
    Why.NOBODY_OVERDUE: lambda r: "Nobody is overdue: you can vote to eject a player only after "
    "they missed the deadline.",
    Why.BOT_SEAT: lambda r: "A bot plays this seat, so your keys do not move it.",
    Why.CATCHING_UP: lambda r: "The game is catching up after the restart: it waits for the "
    "other players to say what this seat did before. Try again in a moment.",
    Why.OTHER_GAME: lambda r: f"The program at that address is in another game, so this side "
    f"broke off the connection. {_SAME_GAME}",
    Why.NOT_A_PLAYER: lambda r: "The program at that address is not one of this game's players, "
    f"so this side broke off the connection. {_SAME_GAME}",
    Why.WRONG_SEAT: lambda r: "The program at that address is not the player this game expects "
    f"there (another key answers), so this side broke off the connection. {_WHERE_PLAYED}",
    Why.SEAT_PLAYED_HERE: lambda r: f"A connection claimed seat {_detail(r, 0, '?')}, which this "
    "program plays: is this game running twice (resumed in two places)? Stop the other copy.",
    Why.SEAT_RUNNING_TWICE: lambda r: f"Seat {_detail(r, 0, '?')} is already connected and "
    "answering, so a second connection for it was refused: is this game running twice "
    "(resumed in two places)? Stop the other copy.",
    Why.LINK_REFUSED: lambda r: _link_refused(r),
    Why.NOT_THAT_HOST: lambda r: f"The program at {_detail(r, 0, 'that address')} does not "
    f"hold the host key {_detail(r, 1, 'of the game you picked')}, so it is not the host of the "
    "game you picked: a look-alike may announce that game. Compare the host key with the one on "
    "the host's screen, or join with the address the host shows: kotp2p join HOST:PORT",
}

# A joiner turned away, said to the host. The key is the code of ``cause``, the refusal that
# turned them away.
_TURNED_AWAY: dict[Why, str] = {
    Why.WRONG_JOIN_CODE: "they gave a wrong join code. Tell them the code on your screen.",
    Why.NEEDS_JOIN_CODE: "they gave no join code. Tell them the code on your screen.",
    Why.HOST_LACKS_JOIN_CODE: "they typed a join code, and this game has none. Tell them to join "
    "without --join-code.",
    Why.OTHER_VERSION: "they run a different release of kotp2p. Both of you need the same "
    "release (kotp2p --version shows it).",
    Why.OTHER_ENGINE: "they run a different release of kotp2p. Both of you need the same "
    "release (kotp2p --version shows it).",
    Why.OTHER_GAME: "they are in another game.",
    Why.NOT_A_PLAYER: "their key is not one of this game's players.",
    Why.WRONG_SEAT: "they asked for a seat this program does not play.",
}


def _turned_away(r: Refusal) -> str:
    return _refused(f"A player at {_detail(r, 0, 'an unknown address')} could not join", r)


def _link_refused(r: Refusal) -> str:
    """A connection to the game's mesh refused, said to the refusing side."""
    cause = r.cause
    if cause is not None and cause.why is Why.SEAT_PLAYED_HERE and not cause.by_peer:
        return _OURS[Why.SEAT_PLAYED_HERE](cause)
    where = f"A connection to this game from {_detail(r, 0, 'an unknown address')} was refused"
    return _refused(where, r)


def _refused(what: str, r: Refusal) -> str:
    """``what`` happened, and why: the peer's words as theirs, or ours."""
    cause = r.cause
    if cause is None:
        return f"{what}."
    if cause.by_peer:  # They refused us. Say their words as theirs.
        if cause.why in (Why.OTHER_VERSION, Why.OTHER_ENGINE):
            return f"{what}: {_TURNED_AWAY[cause.why]}"
        return f"{what}: their side refused ({_said(cause)})."
    told = _TURNED_AWAY.get(cause.why)
    return f"{what}: {told or _sentence(_lower(cause.text))}"


def _not_ready(r: Refusal) -> str:
    seat = _detail(r, 0, "?")
    if seat == "0":  # seat 0 is the host's own
        return "You are not ready yet: pick a monster with m and press r, then press s again."
    return (f"{_detail(r, 1, 'A player')} (seat {seat}) is not ready yet: wait until they pick "
            "a monster and press r, then press s again.")


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _clause(text: str) -> str:
    return text.strip().rstrip(".")


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def plain_refusal(refusal: Refusal | str) -> str:
    """``refusal`` as a plain sentence saying what happened and what to do.

    The refusal comes from the lobby, the handshake, the transport or the game. Its code picks the
    sentence. The sentence is terminal-safe. A bare text has no code, and gets a general sentence.
    """
    if isinstance(refusal, str):
        return _sentence(f"Refused: {_clause(safe_text(refusal, 500))}") + \
            " Try again, or press ? for help."
    says = (_PEER if refusal.by_peer else _OURS).get(refusal.why)
    if says is not None:
        return safe_text(says(refusal), 1000)
    text = _clause(safe_text(refusal.text, 500))
    if refusal.by_peer:
        return _sentence(f"The other side refused: {_said(refusal)}") + \
            " Check the address, the join code and that you both run the same kotp2p release."
    return _sentence(f"Refused: {text}") + " Try again, or press ? for help."


def is_known(refusal: Refusal) -> bool:
    """True when :func:`plain_refusal` has its own sentence for ``refusal``'s code."""
    return refusal.why in (_PEER if refusal.by_peer else _OURS)
