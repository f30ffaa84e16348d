"""The ``play`` subcommand and what ``resume`` shares with it: games on this machine.

``kotp2p play`` builds a whole game in this process. The user's seat has the user's identity.
Each of the N bot seats has its own key and chain. Every seat signs the genesis. One
:class:`~kotp2p.net.session.session.Session` routes between them in memory.

Only the links differ from a networked game: there are none. The protocol, the log and the
journal are the same. So the log verifies like any other, and ``kotp2p resume`` continues a
stopped or killed game.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from kotp2p import rules
from kotp2p.app.errors import CommandError
from kotp2p.app.games import info, result
from kotp2p.app.gametypes import Connect, FullScreen, Restore
from kotp2p.bots import BOT_KINDS, bot_name, make_bot
from kotp2p.net.files import (
    LOCAL,
    GameLock,
    LogWriter,
    SeatFile,
    SeatSecret,
    StoredGame,
    StoreError,
    identity_path,
    load_identity,
)
from kotp2p.net.peer import PeerProtocol
from kotp2p.net.session import Decider, LocalSeat, Session, Timeouts
from kotp2p.net.transport import run_main, run_session
from kotp2p.net.trust import (
    CHAIN_LENGTH,
    PEEK_TAG,
    Genesis,
    RulesEngine,
    SeatInfo,
    SecretChain,
    check_words,
    engine_id_of,
    game_options,
    make_genesis,
    short_id,
    sign_genesis,
)
from kotp2p.net.wire import Identity, RemoteProtocolError, Value, fingerprint, safe_text
from kotp2p.ui import PlainView, program


def bot_decider(level: str, seed: int, playouts: int | None = None) -> Decider:
    """A bot of ``level`` deciding for a seat, actions in wire form. ``playouts`` is the
    ``--playouts`` of a searching bot."""
    bot = make_bot(level, seed, playouts)

    def decide(state: rules.State) -> Value:
        return rules.action_to_wire(bot.choose(state))

    return decide


def _derived(seed: int | None, *parts: object) -> bytes:
    if seed is None:
        return os.urandom(32)
    return hashlib.sha256(":".join(map(str, ("kotp2p play", seed, *parts))).encode()).digest()


def _plain(name: str) -> str:
    """``name`` in lower case without accents, so ``pandakai`` names Pandakaï."""
    return unicodedata.normalize("NFKD", name.strip().lower()).encode("ascii", "ignore").decode()


def _pick_monster(name: str | None) -> str:
    if name is None:
        return rules.MONSTERS[0]
    for m in rules.MONSTERS:
        if _plain(m) == _plain(name):
            return m
    raise CommandError(f"expected a monster among {', '.join(rules.MONSTERS)}, found {name!r}")


def check_delay(delay: float) -> float:
    """``delay``, the ``--bot-delay``, if it is a number of seconds >= 0.

    :raises CommandError: negative or not a number.
    """
    if not delay >= 0:  # also refuses nan
        raise CommandError(f"expected --bot-delay of 0 or more seconds, found {delay}")
    return delay


def check_level(level: str, option: str) -> str:
    """``level``, if it names a bot. ``option`` is ``--level`` or ``--bot``.

    :raises CommandError: no bot has that level. The message lists the levels.
    """
    if level not in BOT_KINDS:
        raise CommandError(f"expected {option} among {', '.join(BOT_KINDS)}, found {level!r}")
    return level


@dataclass
class LocalGame:
    """A new local game: the signed genesis and the secrets of every seat."""

    genesis: Genesis
    identities: list[Identity]
    secrets: list[bytes]
    levels: list[str | None]


def new_local_game(me: Identity, bots: int, level: str, monster: str, seed: int | None,
                   own_bot: str | None, halloween: bool = False,
                   power_up: bool = False) -> LocalGame:
    """The genesis of a game between ``me`` and ``bots`` bots, all signed. ``me`` is seat 0.

    ``halloween`` turns the Halloween expansion on, ``power_up`` Power Up!."""
    monsters = [monster, *(m for m in rules.MONSTERS if m != monster)][: bots + 1]
    identities = [me] + [Identity.from_seed(_derived(seed, "key", i), bot_name(i))
                         for i in range(1, bots + 1)]
    secrets = [_derived(seed, "chain", i) for i in range(bots + 1)]
    engine = RulesEngine()
    seats = [SeatInfo(ident.public_key, ident.name, monsters[i],
                      SecretChain(secrets[i], i).anchor(0),
                      SecretChain(secrets[i], i, tag=PEEK_TAG).anchor(0))
             for i, ident in enumerate(identities)]
    options = (game_options(halloween=halloween, power_up=power_up) if halloween or power_up
               else engine.default_options(bots + 1))
    genesis = make_genesis(engine.engine_id_for(options), options, seats,
                           _derived(seed, "nonce")[:16], CHAIN_LENGTH)
    genesis = genesis.with_signatures([sign_genesis(genesis, i) for i in identities])
    return LocalGame(genesis, identities, secrets, [own_bot] + [level] * bots)


def _decider(level: str | None, seat: int, seed: int | None,
             playouts: int | None = None) -> Decider | None:
    return None if level is None else bot_decider(level, (seed or 0) * 10 + seat, playouts)


MAX_PLAYOUTS = 10_000
"""The most games ``--playouts`` may ask a hard bot to play out for each choice."""


def check_playouts(playouts: int | None) -> int | None:
    """``playouts``, the ``--playouts``, if it is from 0 to :data:`MAX_PLAYOUTS`.

    :raises CommandError: out of that range.
    """
    if playouts is not None and not 0 <= playouts <= MAX_PLAYOUTS:
        raise CommandError(f"expected --playouts from 0 to {MAX_PLAYOUTS}, found {playouts}")
    return playouts


def _read_stdin() -> str:
    """The next line of standard input.

    It is "" at the end of input, and when there is no input to read.
    """
    try:
        return sys.stdin.readline()
    except (OSError, ValueError):
        return ""


def is_interrupt(exc: BaseException) -> bool:
    """Ctrl-C, alone or as the only content of trio's exception groups."""
    if isinstance(exc, BaseExceptionGroup):
        return all(is_interrupt(e) for e in exc.exceptions)
    return isinstance(exc, KeyboardInterrupt)


async def _drive(session: Session, view: PlainView, restore: Restore | None,
                 connect: Connect | None) -> bool:
    if connect is None:
        return await run_session(session, view=view, read_line=_read_stdin, restore=restore)
    async with connect(session) as links:
        return await run_session(session, links=links, view=view, read_line=_read_stdin,
                                 restore=restore)


def last_words(session: Session, log_path: Path, over: bool) -> str:
    """The line a game played in the full screen leaves on the terminal once the screen is gone.

    What the screen said vanishes with it. The line says where the log is. If the game ended,
    as ``over`` tells, it names the winner. If the player stopped, it says how to go on.
    """
    if not over:
        return f"Stopped; the log is {log_path} (`{program()} resume` continues)."
    if session.result is not None:
        return f"Game over. {safe_text(session.result.summary)} Log: {log_path}"
    return f"Log: {log_path}"


def play_session(session: Session, log_path: Path, *, bot_delay: float = 0.0,
                 restore: Restore | None = None, connect: Connect | None = None,
                 ui: FullScreen | None = None) -> int:
    """Play ``session`` on this terminal until the game ends or the user stops.

    It is played with the plain interface, or in the full screen when ``ui`` is given.
    ``restore`` resumes it from its files. ``connect`` opens its links, for a networked game.
    Returns the exit code. Ctrl-C stops the game so that it can be resumed.

    :raises KeyboardInterrupt: after Ctrl-C.
    """
    if ui is not None:
        session.bot_delay = bot_delay
        try:
            over = ui(session, str(log_path), restore, connect)
        except KeyboardInterrupt:
            print(last_words(session, log_path, session.is_over))
            raise
        print(last_words(session, log_path, over))
        return 0
    view = PlainView(session, sys.stdout)
    game_id = session.genesis.game_id
    view.say(f"Game {short_id(game_id)} ({' '.join(check_words(game_id))}): "
             + ", ".join(session.names()) + f". Log: {log_path}")
    session.bot_delay = bot_delay
    try:
        run_main(lambda: _drive(session, view, restore, connect))
    except BaseException as exc:
        if not is_interrupt(exc):
            raise
        session.quit()
        view.say(f"Stopped; the log is {log_path} (`{program()} resume` continues).")
        raise KeyboardInterrupt from None
    if session.is_over:
        view.say(f"Log: {log_path}")
    return 0


def _stored_already(log_path: Path) -> str:
    """Why ``play`` will not start a game it has already stored, and what to do instead."""
    game = info(log_path)
    if game.finished:
        return (f"this game was played to its end ({result(game)}): `{program()} replay "
                f"{game.game_id}` tells it; pick another --seed for a new game")
    return (f"this game is already stored ({log_path}); resume it with `{program()} resume` "
            "or pick another --seed")


def run_play_command(args: argparse.Namespace, ui: FullScreen | None = None) -> int:
    """``kotp2p play``: a game against bots in this process.

    With ``ui``, it is played in the full screen.
    """
    if not 1 <= args.bots <= 5:
        raise CommandError(f"expected --bots from 1 to 5, found {args.bots}")
    level = check_level(args.level, "--level")
    own = check_level(args.bot, "--bot") if args.bot else None
    check_delay(args.bot_delay)
    playouts = check_playouts(args.playouts)
    me = load_identity()
    game = new_local_game(me, args.bots, level, _pick_monster(args.monster), args.seed, own,
                          args.halloween, args.power_up)
    stored = StoredGame.for_game(game.genesis.game_id)
    if stored.log_path.exists():
        raise CommandError(_stored_already(stored.log_path))
    seat_file = SeatFile(LOCAL, int(time.time()), 0, tuple(
        SeatSecret(i, None if i == 0 else game.identities[i].to_bytes(), game.secrets[i],
                   game.levels[i]) for i in range(len(game.identities))))
    log, journal = stored.create(game.genesis, seat_file)
    engine = RulesEngine()
    seats = {i: LocalSeat(PeerProtocol(game.genesis, i, game.identities[i], game.secrets[i],
                                       engine), _decider(game.levels[i], i, args.seed, playouts),
                          level=game.levels[i] or "")
             for i in range(len(game.identities))}
    session = Session(game.genesis, engine, seats, me=0, log=log, journal=journal,
                      timeouts=Timeouts(None, None), think_aside=ui is not None)
    try:
        return play_session(session, stored.log_path, bot_delay=args.bot_delay, ui=ui)
    finally:
        log.close()
        journal.close()


def _seat_identity(stored: StoredGame, g: Genesis, s: SeatSecret) -> Identity:
    """The key of local seat ``s`` from the seats file, checked against the genesis.

    So are its chain secrets. A wrong one would sign values the others refuse.

    :raises CommandError: one line that names the file and what was expected.
    """
    where = stored.seats_path
    if not 0 <= s.seat < g.n:
        raise CommandError(f"{where}: seat {s.seat} is not a seat of game {short_id(g.game_id)}; "
                           f"expected a seat from 0 to {g.n - 1}: is it the seats file of another "
                           "game?")
    try:
        ident = Identity.from_bytes(s.key) if s.key is not None else load_identity()
    except RemoteProtocolError as exc:
        raise CommandError(f"{where}: {exc.reason}") from None
    info = g.seats[s.seat]
    if info.public_key != ident.public_key:
        holder = where if s.key is not None else identity_path()
        raise CommandError(
            f"{holder}: the key {ident.name} [{ident.fingerprint}] did not sign seat {s.seat} of "
            f"game {short_id(g.game_id)}; expected the key [{fingerprint(info.public_key)}]: "
            "is it the seats file of another game, or another user's key?")
    if (SecretChain(s.secret, s.seat, length=g.chain_length).anchor(0) != info.anchor
            or SecretChain(s.secret, s.seat, tag=PEEK_TAG,
                           length=g.chain_length).anchor(0) != info.peek_anchor):
        raise CommandError(f"{where}: the chain secret of seat {s.seat} does not match game "
                           f"{short_id(g.game_id)}; expected the secret whose chain this game's "
                           "genesis committed to: is it the seats file of another game?")
    return ident


def lock_game(stored: StoredGame) -> GameLock:
    """Take the lock of a stored game: one process per game.

    :raises CommandError: another process holds it. The message names that process.
    """
    try:
        return stored.lock()
    except StoreError as exc:
        raise CommandError(str(exc)) from None


def resume_session(stored: StoredGame, own_bot: str | None, lock: GameLock | None = None,
                   think_aside: bool = False, playouts: int | None = None
                   ) -> tuple[Session, Restore, list[LogWriter]]:
    """A session for a stored game, ready to :meth:`~Session.resume`. With ``think_aside``,
    its bots think away from the loop, as a full screen needs. ``playouts`` is the
    ``--playouts`` of its hard bots.

    It is returned with the envelope payloads to resume with, those of the log and the journal.
    The last item holds the files to close.

    ``lock`` is the game's lock, if the caller took it; the log holds it from then on.

    :raises CommandError: the files are unusable, or this user's key is not the game's. So
        they are when another process plays the game; the message names it.
    """
    lock = lock or lock_game(stored)  # first: one process per game, before anything is read
    try:
        session, restore, files = _resumed(stored, own_bot, lock, think_aside, playouts)
    except BaseException:
        lock.release()
        raise
    return session, restore, files


def _resumed(stored: StoredGame, own_bot: str | None, lock: GameLock, think_aside: bool,
             playouts: int | None) -> tuple[Session, Restore, list[LogWriter]]:
    try:
        contents, journal_payloads, seat_file = stored.open()
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    g = contents.genesis
    engine = RulesEngine()
    mine = engine_id_of(engine, g)
    if g.engine_id != mine:
        raise CommandError(f"this game was played with rules {g.engine_id}; this is {mine}")
    seats: dict[int, LocalSeat] = {}
    for s in seat_file.seats:
        ident = _seat_identity(stored, g, s)
        level = own_bot if s.seat == seat_file.me and own_bot else s.bot
        seats[s.seat] = LocalSeat(PeerProtocol(g, s.seat, ident, s.secret, engine),
                                  _decider(level, s.seat, None, playouts), level=level or "")
    if seat_file.me not in seats:
        raise CommandError(f"{stored.seats_path}: the player's seat {seat_file.me} has no "
                           f"secrets there; expected one of seats {sorted(seats)}")
    try:
        log, journal = stored.reopen(g, lock)
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    if seat_file.mode == LOCAL:
        timeouts = Timeouts(None, None)
    elif seat_file.timeout is not None:  # the lobby's --timeout
        timeouts = Timeouts(hard=float(seat_file.timeout))
    else:
        timeouts = Timeouts()
    session = Session(g, engine, seats, me=seat_file.me, log=log, journal=journal,
                      timeouts=timeouts, think_aside=think_aside)
    return session, (list(contents.payloads), journal_payloads), [log, journal]
