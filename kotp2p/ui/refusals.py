"""Refusals in plain words: what happened and what to do, for the screens to show.

Theory of operation
-------------------
The layers below refuse with short reasons written for logs ("refused by the peer: wrong join
code", "rules engine 'x' offered, this side runs 'y'...", "seat 1 is still free", "illegal action
...: not enough energy"); they reach the screen only as text (the text of an exception, a lobby
notice, a warning). :func:`plain_refusal` matches each reason the lobby, the handshake, the
transport and the session can give against a table of patterns, most specific first, and says
it as one or two sentences: what happened, then what the player can do about it. A reason no
pattern knows is still said as a sentence with a general way out. The tests produce the real
refusals from the lobby, handshake and session code and check that each gets its own sentence, so
a reason reworded down there fails a test instead of falling through unnoticed.

Who is blamed matters: a refusal the host's side sent ("refused by the peer: ...") is told as the
host's answer, one from this side as ours, and nothing here names a player the reason does not.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kotp2p.net.safetext import safe_text

Says = Callable[[re.Match[str]], str]

_RULES: list[tuple[str, Says]] = [
    # the host's side of a joiner turned away
    (r"refused a lobby connection from (\S+): (.*)", lambda m: f"A player at {m[1]} could not "
     f"join: {_lower(_host_side(m[2]))}"),
    # joining: the handshake and the host's lobby
    (r"wrong join code", lambda m: "The host turned you away: the join code is wrong. Ask the "
     "host for the code shown on their screen and join again with --join-code CODE."),
    (r"this game needs a join code", lambda m: "This game needs a join code. Ask the host for "
     "the code shown on their screen and join again with --join-code CODE."),
    (r"(protocol version|rules engine) .* offered", lambda m: "You and the other side run "
     "different releases of kotp2p, so you cannot play together. Install the same release on "
     "both machines (kotp2p --version shows it), then join again."),
    (r"the game is full", lambda m: "The game is full: every seat is taken. Ask the host for a "
     "game with more seats, or pick another game."),
    (r"(joined too late|game has already started|game already started)", lambda m: "The game has "
     "already started, so nobody can join it now. Ask the host to start a new one."),
    (r"(a key already seated|this key already sits at seat)", lambda m: "You already have a seat "
     "in this game (in another window?). Play from that window, or leave there first."),
    (r"cannot reach ([^\s:]+:\d+): (.*)", lambda m: f"Could not reach a game at {m[1]} "
     f"({m[2].rstrip('.')}). Check the address and port shown on the host's screen and that the "
     "host is still running, then join again."),
    (r"no game announced nearby", lambda m: "No game was heard on this network. Ask the host "
     "for the address on their screen and join with: kotp2p join HOST:PORT"),
    (r"refusing to sign the game: (.*)", lambda m: f"You did not sign the game the host started: "
     f"{m[1].rstrip('.')}. Leave with q and join a new lobby."),
    (r"the host broke the lobby protocol", lambda m: "The host sent something this kotp2p does "
     "not accept, so you left the lobby. Check that you both run the same release, then join "
     "again."),
    (r"the host closed the lobby: (.*)", lambda m: f"The host closed the lobby "
     f"({m[1].rstrip('.')}). Join again when they host a new game."),
    (r"the lobby connection ended: (.*)", lambda m: f"The connection to the host was lost "
     f"({m[1].rstrip('.')}). Check that the host is still running, then join again."),
    # the lobby's own answers
    (r"pick a monster first", lambda m: "Pick a monster first with m, then press r when ready."),
    (r"seat (\d+) is still free", lambda m: f"Seat {m[1]} is still free: wait for another "
     "player to join, then press s again."),
    (r"seat 0 \((.*)\) is not ready", lambda m: "You are not ready yet: pick a monster with m "
     "and press r, then press s again."),  # seat 0 is the host's own
    (r"seat (\d+) \((.*)\) is not ready", lambda m: f"{m[2]} (seat {m[1]}) is not ready yet: "
     "wait until they pick a monster and press r, then press s again."),
    (r"(.+) is taken by (.+)", lambda m: f"{m[1]} is taken by {m[2]}: press m again for another "
     "monster."),
    (r"the game is already starting", lambda m: "The game is already starting: wait a moment."),
    (r"the lobby is closed", lambda m: "The lobby is closed: the game has started or was ended."),
    (r"(the lobby is not open yet|not seated yet)", lambda m: "You are not seated in the lobby "
     "yet: wait until the seats show, then try again."),
    # the game
    (r"seat \d+ has no decision pending", lambda m: "That was not yours to decide any more: the "
     "game has moved on. The footer says what is asked now."),
    (r"illegal action", lambda m: "The game refused that move: it is not allowed at this point "
     "(the game may have moved on). The footer lists the keys that work now."),
    (r"expected some text to say", lambda m: "Type something to say before pressing Enter."),
    (r"a bot plays this seat", lambda m: "A bot plays this seat, so your keys do not move it."),
    (r"nobody is overdue", lambda m: "Nobody is overdue: you can vote to eject a player only "
     "after they missed the deadline."),
]
_COMPILED = [(re.compile(pattern, re.IGNORECASE | re.DOTALL), says) for pattern, says in _RULES]

_HOST_SIDE = {
    "wrong join code": "they gave a wrong join code. Tell them the code on your screen.",
    "this game needs a join code": "they gave no join code. Tell them the code on your screen.",
}


def _host_side(reason: str) -> str:
    """A joiner turned away, said to the host."""
    for key, text in _HOST_SIDE.items():
        if key in reason:
            return text
    return plain_refusal(reason)


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def plain_refusal(reason: str) -> str:
    """``reason`` (a refusal from the lobby, the handshake, the transport or the session) as a
    plain sentence saying what happened and what to do; terminal-safe."""
    text = safe_text(reason, 500).strip()
    for prefix in ("kotp2p: ", "warning: ", "error: ", "refused: ", "the host says: "):
        if text.lower().startswith(prefix):
            text = text[len(prefix):]
    for pattern, says in _COMPILED:
        match = pattern.search(text)
        if match is not None:
            return says(match)
    if text.lower().startswith("refused by the peer: "):
        return _sentence(f"The other side refused: {text[len('refused by the peer: '):]}") + \
            " Check the address, the join code and that you both run the same kotp2p release."
    return _sentence(f"Refused: {text}") + " Try again, or press ? for help."


def is_known(reason: str) -> bool:
    """True when :func:`plain_refusal` has its own sentence for ``reason``."""
    text = plain_refusal(reason)
    return not text.startswith(("Refused: ", "The other side refused: "))
