"""``kotp2p host`` and ``kotp2p join``: from the lobby to the game's mesh and the session.

Theory of operation
-------------------
Both commands open the *game listener* first, on any free port. Its port goes into the lobby.
So the other seats know where to dial this process once the game starts.

The host also opens the lobby listener on ``--port``, 7447 by default. If that port is taken, it
takes a free one and says which. It announces the game with the UDP beacon. A joiner connects to
the lobby at an address, or to a game it picks among those it hears announced. The lobby,
:mod:`kotp2p.net.lobby.lobby`, ends with the genesis signed by every seat.

Then the game's files are created: log, journal, seat secrets, and the peers' addresses for a
resume. The mesh of :class:`~kotp2p.net.transport.meshlinks.MeshLinks` takes over the game
listener and dials the seats this process dials. The session of the seats this process plays runs
until the game ends. Those seats are the user's, and the host's bots.

What the user sees is reported to a :class:`~kotp2p.app.netview.NetView`. The plain line
interface prints it, and the full screen draws it.
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import partial

import trio

from kotp2p import rules
from kotp2p.app.errors import CommandError
from kotp2p.app.gametypes import LINGER, QUIT_LINGER, FullScreen, Restore
from kotp2p.app.localgame import (
    bot_decider,
    check_delay,
    check_level,
    check_playouts,
    is_interrupt,
    last_words,
    play_session,
)
from kotp2p.app.netview import NetView, PlainNet
from kotp2p.app.trace import Trace
from kotp2p.bots import bot_name
from kotp2p.net.files import (
    NET,
    LogWriter,
    PeersFile,
    SeatFile,
    SeatSecret,
    StoredGame,
    load_identity,
    write_private,
)
from kotp2p.net.lobby import (
    BROADCAST,
    DEFAULT_BEACON_PORT,
    DEFAULT_TIMEOUT,
    MAX_HANDSHAKE_FRAME,
    MAX_JOIN_CODE,
    MAX_TIMEOUT,
    MIN_TIMEOUT,
    PROTOCOL_VERSION,
    Announcement,
    BeaconBook,
    DialerHandshake,
    HandshakeFailed,
    LobbyGuest,
    LobbyHost,
    LobbyView,
    Started,
    listing,
    new_code,
    normalize_code,
)
from kotp2p.net.peer import PeerProtocol
from kotp2p.net.session import LocalSeat, Session, Timeouts
from kotp2p.net.transport import (
    DEFAULT_PORT,
    Address,
    FrameStream,
    GuestLobby,
    HostLobby,
    LobbyFailed,
    MeshLinks,
    MeshPort,
    announce,
    announce_problem,
    dial_handshake,
    dial_tcp,
    door_of,
    listen,
    listen_problem,
    run_main,
    serve_tcp,
)
from kotp2p.net.trust import PEEK_TAG, Genesis, RulesEngine, SecretChain, short_id
from kotp2p.net.wire import Identity, Refusal, RemoteProtocolError, Why, check_name

DISCOVER_SECONDS = 3.0
SELF_CHECK = 3.0
"""Seconds a resumed game takes to ask whoever holds its old port whether it plays its seat."""


def parse_address(text: str, default_port: int) -> Address:
    """``HOST[:PORT]`` as ``(host, port)``.

    An IPv6 address takes brackets before a port, as in ``[::1]:7447``. Without a port it may
    also stand bare, as in ``::1``.

    :raises CommandError: not an address.
    """
    t = text.strip()
    port = str(default_port)
    if t.startswith("["):
        host, close, rest = t[1:].partition("]")
        if not close or (rest and not rest.startswith(":")):
            host = ""
        elif rest:
            port = rest[1:]
    elif t.count(":") > 1:  # a bare IPv6 address
        host = t
    else:
        host, sep, after = t.rpartition(":")
        if not sep:
            host = t
        else:
            port = after
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise CommandError("expected HOST[:PORT] with a port from 1 to 65535, such as "
                           f"192.168.1.20:7447 or [::1]:7447, found {text!r}")
    return host, int(port)


def check_join_code(code: str | None) -> str | None:
    """A ``--join-code`` as both sides use it, or None without one.

    It refuses a code that is empty, blank or longer than :data:`MAX_JOIN_CODE`. An empty code
    would let anybody in, which the user who gave one did not mean. Case, blanks around it and
    spaces or hyphens between its words do not matter: ``7 Tiger Ocean`` is ``7-tiger-ocean``.

    :raises CommandError: not a usable code.
    """
    if code is None:
        return None
    usable = normalize_code(code)
    if not (usable and len(code) <= MAX_JOIN_CODE):
        raise CommandError(f"expected --join-code of 1 to {MAX_JOIN_CODE} characters, not "
                           f"only spaces, found {code[:MAX_JOIN_CODE]!r}")
    return usable


def check_bind(bind: str | None, port: int = 0, option: str = "--port") -> None:
    """Refuse a ``--bind`` address this machine cannot listen on, or a port it cannot use.

    ``option`` names where ``port`` came from.

    :raises CommandError: this machine cannot listen there.
    """
    if bind is not None:
        why = listen_problem(bind, 0)
        if why is not None:
            raise CommandError(f"cannot listen on {bind}: {why}; expected --bind with an "
                               "address of this machine, such as 127.0.0.1")
    if port:
        why = listen_problem(bind, port)
        if why is not None:
            raise CommandError(f"cannot listen on port {port}: {why}; expected {option} "
                               "from 1024 to 65535, or 0 for any free port")


@dataclass
class Seat:
    """A seat this process plays: its key, its chain secret and the bot playing it.

    A bot of None means the user plays it.
    """

    identity: Identity
    secret: bytes
    bot: str | None
    playouts: int | None = None
    """The ``--playouts`` of a hard bot playing it; None for the bot's own default."""
    _anchors: dict[int, tuple[bytes, bytes]] = field(default_factory=dict, repr=False)

    def anchors(self, seat: int) -> tuple[bytes, bytes]:
        """The chain anchors of this secret at ``seat``.

        Each costs two chains of hashes, so they are computed once per seat.
        """
        if seat not in self._anchors:
            self._anchors[seat] = (SecretChain(self.secret, seat).anchor(0),
                                   SecretChain(self.secret, seat, tag=PEEK_TAG).anchor(0))
        return self._anchors[seat]


def _me(name: str | None) -> Identity:
    me = load_identity()
    if name is None:
        return me
    try:
        return Identity(check_name(name), me.private_key)
    except ValueError as exc:
        raise CommandError(str(exc)) from None


async def _play(started: Started, seats: dict[int, Seat], me: int, timeout: int,
                bot_delay: float, game_port: MeshPort, my_port: int, view: NetView,
                trace_path: str | None = None, lobby: LobbyView | None = None) -> int:
    """The game after the lobby: files, mesh, session. ``lobby``, its last view, tells the
    levels of the other processes' bots."""
    g = started.genesis
    engine = RulesEngine()
    stored = StoredGame.for_game(g.game_id)
    seat_file = SeatFile(NET, int(time.time()), me, tuple(
        SeatSecret(i, None if i == me else s.identity.to_bytes(), s.secret, s.bot)
        for i, s in sorted(seats.items())), timeout)
    log, journal = stored.create(g, seat_file)
    remote = {i: a for i, a in enumerate(started.addresses) if a is not None}
    write_private(PeersFile.path_for(stored.log_path), PeersFile(my_port, remote).to_bytes())
    try:
        levels = {} if lobby is None else {
            i: s.bot for i, s in enumerate(lobby.seats) if s.bot is not None}
        return await _run_game(g, engine, stored, (log, journal), seats, me, remote, timeout,
                               bot_delay, game_port, view, trace_path, levels)
    finally:
        log.close()
        journal.close()


async def _run_game(g: Genesis, engine: RulesEngine, stored: StoredGame,
                    files: tuple[LogWriter, LogWriter], seats: dict[int, Seat], me: int,
                    remote: dict[int, Address], timeout: int, bot_delay: float,
                    game_port: MeshPort, view: NetView, trace_path: str | None,
                    levels: dict[int, str] | None = None) -> int:
    log, journal = files
    local = {i: LocalSeat(PeerProtocol(g, i, s.identity, s.secret, engine),
                          None if s.bot is None else bot_decider(s.bot, int.from_bytes(
                              os.urandom(4), "big"), s.playouts), level=s.bot or "")
             for i, s in seats.items()}
    session = Session(g, engine, local, me=me, log=log, journal=journal,
                      timeouts=Timeouts(hard=float(timeout)), bot_delay=bot_delay,
                      think_aside=view.thinks_aside)
    session.bot_levels.update(levels or {})
    links = MeshLinks(g, {i: s.identity for i, s in seats.items()}, remote,
                      engine_id=engine.engine_id)
    game_port.attach(links.mesh)
    trace = Trace(trace_path, g, seats) if trace_path else None
    try:
        return await _drive(session, links, stored, view, None, trace)
    finally:
        if trace is not None:
            trace.close()


async def _drive(session: Session, links: MeshLinks, stored: StoredGame, view: NetView,
                 restore: Restore | None, trace: Trace | None = None) -> int:
    """Run the session over the mesh until the game ends, then let the peers read the end.

    ``view`` shows the game. It is told where the log is, and how the game ended or stopped.
    """
    g = session.genesis
    view.notice(f"Game {short_id(g.game_id)}: " + ", ".join(session.names())
                + f". Log: {stored.log_path}")
    if trace is not None:
        links.on_send = trace.sent
        trace.started()
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(links.run)
            try:
                over = await view.play(session, links, str(stored.log_path), restore, trace)
            except BaseException as exc:
                if _is_stop(exc):
                    await _stop(session, links)
                raise
            if trace is not None:
                trace.ended(session.engine.turn(session.state))
            view.leaving(partial(links.hurry, QUIT_LINGER))
            await links.finish(LINGER)
            nursery.cancel_scope.cancel()
    except BaseException as exc:
        if not _is_stop(exc):
            raise
        session.quit()  # a second call, after _stop, does nothing
        view.game_stopped(last_words(session, stored.log_path, False))
        if is_interrupt(exc):
            raise KeyboardInterrupt from None
        raise
    view.game_ended(session, stored.log_path, over)
    return 0


async def _stop(session: Session, links: MeshLinks) -> None:
    """Ctrl-C: stop the session so that it can be resumed, and close every link in order.

    The log holds what was accepted. What the session still had to say leaves. The peers see this
    seat leave rather than a broken connection. This is shielded, and bounded by
    :data:`QUIT_LINGER`.
    """
    session.quit()
    with trio.CancelScope(shield=True) as scope:
        scope.deadline = trio.current_time() + QUIT_LINGER
        for seat, frame in session.outgoing():
            await links.send(seat, frame)
        await links.finish(QUIT_LINGER)


def _is_stop(exc: BaseException) -> bool:
    """Ctrl-C here, or the game cancelled from outside.

    Ctrl-C can land in a task beside this one, such as the listener's. That task then cancels the
    game. Either way the game stops so that it can be resumed.
    """
    if isinstance(exc, BaseExceptionGroup):
        return all(_is_stop(e) for e in exc.exceptions)
    return isinstance(exc, (KeyboardInterrupt, trio.Cancelled))


def resume_networked(session: Session, stored: StoredGame, restore: Restore,
                     args: argparse.Namespace, ui: FullScreen | None = None) -> int:
    """Continue a networked game from its files.

    The session is rebuilt from the log and the journal. The mesh comes from the peers file. It
    listens on the same port again, so the seats that dial this one find it. It listens on
    ``args.bind``, if given.

    :raises CommandError: the peers file is missing or damaged, or this machine cannot listen on
        ``--bind``.
    """
    check_bind(getattr(args, "bind", None))
    path = PeersFile.path_for(stored.log_path)
    try:
        peers = PeersFile.from_bytes(path.read_bytes())
    except (OSError, RemoteProtocolError) as exc:
        why = exc.reason if isinstance(exc, RemoteProtocolError) else (exc.strerror or str(exc))
        raise CommandError(f"cannot read where the other seats listen ({path}): {why}"
                               ) from None
    return _unwrapped(lambda: play_session(
        session, stored.log_path, bot_delay=args.bot_delay, restore=restore,
        connect=partial(_reconnect, peers, getattr(args, "bind", None)), ui=ui))


def _played_elsewhere(session: Session, local: int, remote: int, refusal: Refusal) -> None:
    """Seat ``remote`` refused this process's link for seat ``local``: another process plays it.

    A resumed seat that signed nothing yet stops here, so the game runs once. A seat that already
    plays on only logs it: a peer's word alone does not stop a running game.

    :raises CommandError: this process is still catching up after its restart.
    """
    g = session.genesis
    text = (f"seat {local} of game {short_id(g.game_id)} is already played by another process: "
            f"{session.names()[remote]} says \"{refusal.text}\"; expected one process per seat. "
            "This copy stops without having signed anything")
    if local in session.catching_up:
        raise CommandError(text)
    logging.getLogger(__name__).warning("%s", text)


@asynccontextmanager
async def _reconnect(peers: PeersFile, bind: str | None,
                     session: Session) -> AsyncIterator[MeshLinks]:
    """The links of a resumed game, for the time the session runs; then the peers read the end.

    They listen on ``bind``. None means every address.
    """
    local = {i: ls.protocol.identity for i, ls in session.seats.items()}
    links = MeshLinks(session.genesis, local, peers.addresses,
                      engine_id=session.engine.engine_id, resumed=True)
    links.mesh.on_twice = partial(_played_elsewhere, session)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(partial(serve_tcp, links.mesh.accept, peers.port, bind,
                                           screen=door_of(links.mesh)))
        if port != peers.port:
            if await _seat_runs_at(session, bind, peers.port):
                raise CommandError(
                    f"seat {session.me} of game {short_id(session.genesis.game_id)} is already "
                    f"played by the process listening on port {peers.port} of this machine: is "
                    "the game running twice (a copy of its data directory)? expected one process "
                    "per seat. This copy stops without having signed anything")
            session.notice(f"port {peers.port} is taken: the seats that call this one cannot "
                           f"reach it on port {port}")
        await nursery.start(links.run)
        yield links
        await links.finish(LINGER)
        nursery.cancel_scope.cancel()


async def _seat_runs_at(session: Session, bind: str | None, port: int) -> bool:
    """Whether the process listening on ``port`` of this machine plays this process's seat.

    It is asked with a greeting from that seat to itself. A process of this game that plays it
    refuses the greeting for presenting its own key. Any other answer, or none, means no."""
    me = session.protocol.identity
    g = session.genesis
    host = bind if bind and bind not in ("0.0.0.0", "::") else "127.0.0.1"
    hs = DialerHandshake(me, engine_id=session.engine.engine_id, challenge=os.urandom(32),
                         context=g.game_id, to_key=me.public_key, roster=g.keys)
    try:
        with trio.move_on_after(SELF_CHECK):
            framed = FrameStream(await dial_tcp(host, port, SELF_CHECK), MAX_HANDSHAKE_FRAME)
            try:
                await dial_handshake(framed, hs, SELF_CHECK)
            finally:
                await framed.aclose()
    except HandshakeFailed as exc:
        return exc.by_peer and exc.why is Why.BAD_HANDSHAKE
    except OSError:
        return False
    return False


async def host_game(args: argparse.Namespace, view: NetView) -> int:
    """``kotp2p host``: run the lobby, then play, telling ``view``."""
    own = None if args.bot is None else check_level(args.bot, "--bot")
    check_delay(args.bot_delay)
    playouts = check_playouts(args.playouts)
    level = "greedy" if args.level is None else check_level(args.level, "--level")
    if not 2 <= args.seats <= 6 or not 0 <= args.bots < args.seats:
        raise CommandError(f"expected 2 to 6 --seats and fewer --bots, found {args.seats} "
                               f"seats and {args.bots} bots")
    if not MIN_TIMEOUT <= args.timeout <= MAX_TIMEOUT:
        raise CommandError(f"expected --timeout of {MIN_TIMEOUT} to {MAX_TIMEOUT} seconds, "
                               f"found {args.timeout}")
    if not 0 <= args.port < 65536:
        raise CommandError(f"expected --port from 1 to 65535, or 0 for any free port, found "
                           f"{args.port}")
    check_bind(args.bind, args.port)
    join_code = new_code() if args.join_code is True else check_join_code(args.join_code)
    target = None
    if not args.no_announce:
        target = parse_address(args.announce or BROADCAST, DEFAULT_BEACON_PORT)
        why = announce_problem(target)
        if why is not None:
            raise CommandError(f"cannot announce the game to {target[0]}: {why}; expected "
                               "--announce with an IPv4 address, such as 192.168.1.255")
    me = _me(args.name)
    seats = {0: Seat(me, os.urandom(32), own, playouts)}
    for i in range(1, args.bots + 1):
        seats[i] = Seat(Identity.generate(bot_name(i)), os.urandom(32), level, playouts)
    variant = {"on": True, "off": False, None: None}[args.two_player_variant]
    game_port = MeshPort()
    async with trio.open_nursery() as nursery:
        my_port = await nursery.start(partial(serve_tcp, game_port.handler, 0, args.bind,
                                                     screen=game_port))
        try:
            lobby = LobbyHost(
                me, game_name=f"{me.name}'s game", seats=args.seats, engine_id=rules.ENGINE_ID,
                monsters=rules.MONSTERS, local_anchors=[s.anchors(i) for i, s in seats.items()],
                port=my_port, nonce=os.urandom(16), bots=[seats[i].identity for i in seats if i],
                bot_level=level, host_bot=own, two_player_variant=variant, timeout=args.timeout,
                halloween=args.halloween, engine_id_for=RulesEngine().engine_id_for,
                power_up=args.power_up)
        except ValueError as exc:
            raise CommandError(str(exc)) from None

        runner = HostLobby(lobby, view.lobby_event, join_code=join_code)
        view.lobby_opened(runner, host=True, join_code=join_code)
        started: list[Started] = []
        over = trio.Event()

        async def serve(task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
            result = await runner.serve(args.port, args.bind, task_status=task_status)
            if result is not None:
                started.append(result)
            over.set()

        async with trio.open_nursery() as lobby_tasks:
            port = await lobby_tasks.start(serve)
            where = "" if port == args.port or args.port == 0 else f" (port {args.port} is taken)"
            view.notice(f"hosting on port {port}{where}; the game listens on port {my_port}")
            if join_code is not None:
                view.notice(f"join code: {join_code} (joiners type: kotp2p join --join-code "
                            f"{join_code})")
            view.lobby_table(lobby.view.lines())
            runner.command(LobbyHost.opened)  # a lobby full of the host's bots starts at once
            if target is not None:
                datagram = partial(_beacon, lobby, port, join_code is not None)
                lobby_tasks.start_soon(announce, datagram, target)
                view.notice(f"announcing {lobby.view.game_name} with host key {me.fingerprint}: "
                            "players see this key in their list of games")
            lobby_tasks.start_soon(view.lobby_input)
            await over.wait()
            lobby_tasks.cancel_scope.cancel()
        if not started:
            nursery.cancel_scope.cancel()
            return 0
        result = await _play(started[0], seats, 0, args.timeout, args.bot_delay, game_port,
                             my_port, view, args.trace, lobby.view)
        nursery.cancel_scope.cancel()
    return result


def _beacon(lobby: LobbyHost, port: int, needs_code: bool) -> bytes:
    v = lobby.view
    return Announcement(v.game_name, lobby.identity.name, port, v.free_seats, len(v.seats),
                        PROTOCOL_VERSION, needs_code).encode(lobby.identity)


async def _discover(args: argparse.Namespace, view: NetView) -> Announcement:
    """The game the user picks among those announced on the LAN.

    Each game shows its host key. A game whose name or host key is heard twice is marked, and no
    automatic pick takes it.

    :raises CommandError: nothing was heard, which is a refusal, or the answer picks no game.
    """
    listen_on = parse_address(args.discover, DEFAULT_BEACON_PORT)
    why = listen_problem(listen_on[0], listen_on[1], udp=True)
    if why is not None:
        raise CommandError(f"cannot listen for games on {args.discover}: {why}; expected "
                           "--discover with an IPv4 address of this machine, such as "
                           "0.0.0.0:7447")
    view.notice(f"listening for games for {DISCOVER_SECONDS:g} s...")
    book = BeaconBook()
    heard = await listen(book, listen_on[1], listen_on[0], DISCOVER_SECONDS)
    games = [g for g in listing(heard, book.contested(trio.current_time()))
             if g.game.compatible and g.game.free_seats > 0]
    if not games:
        text = "no game announced nearby; give the host's address (kotp2p join HOST[:PORT])"
        raise CommandError.refused(Refusal(Why.NOTHING_HEARD, text))
    picked = await view.choose([g.describe() for g in games], [g.ambiguous for g in games])
    return games[picked].game


def _not_that_host(refusal: Refusal, game: Announcement | None, where: str) -> Refusal:
    """The refusal to tell when the game picked from the list does not answer with its key."""
    if game is None or refusal.why is not Why.WRONG_SEAT:
        return refusal
    text = (f"the program at {where} does not hold the host key {game.fingerprint} of the game "
            "picked from the list, so it is not that game's host")
    return Refusal(Why.NOT_THAT_HOST, text, details=(where, game.fingerprint))


async def join_game(args: argparse.Namespace, view: NetView) -> int:
    """``kotp2p join``: join a lobby, then play, telling ``view``."""
    own = None if args.bot is None else check_level(args.bot, "--bot")
    check_delay(args.bot_delay)
    check_bind(args.bind)
    check_join_code(args.join_code)
    me = _me(args.name)
    seat = Seat(me, os.urandom(32), own, check_playouts(args.playouts))
    picked = None if args.address else await _discover(args, view)
    address = (parse_address(args.address, DEFAULT_PORT) if picked is None
               else (picked.address, picked.port))
    join_code = check_join_code(args.join_code)
    if picked is not None and picked.needs_code and join_code is None:  # the one typed code
        join_code = check_join_code(await view.ask_join_code())
    game_port = MeshPort()
    async with trio.open_nursery() as nursery:
        my_port = await nursery.start(partial(serve_tcp, game_port.handler, 0, args.bind,
                                                     screen=game_port))
        joined = await _join_lobby(view, seat, my_port, address, picked, join_code)
        if joined is None:
            nursery.cancel_scope.cancel()
            return 0
        lobby, started = joined
        assert lobby.seat is not None
        timeout = lobby.view.timeout if lobby.view is not None else DEFAULT_TIMEOUT
        result = await _play(started, {lobby.seat: seat}, lobby.seat, timeout, args.bot_delay,
                             game_port, my_port, view, args.trace, lobby.view)
        nursery.cancel_scope.cancel()
    return result


async def _join_lobby(view: NetView, seat: Seat, my_port: int, address: Address,
                      picked: Announcement | None, join_code: str | None
                      ) -> tuple[LobbyGuest, Started] | None:
    """Join the lobby at ``address`` as ``seat`` until the game starts. None: the user left.

    ``picked`` is the game picked from the list, if any: its host must prove its host key.

    A host that says it needs a join code, when the user gave none, gets one asked of the user.
    Then the lobby is joined again with it. So a join code is typed once, in the command or when
    asked.

    :raises CommandError: the lobby failed. The refusal says why.
    """
    me = seat.identity
    while True:
        lobby = LobbyGuest(me, engine_id=rules.ENGINE_ID, monsters=rules.MONSTERS,
                           anchors=seat.anchors, port=my_port, host_address=address[0], bot=seat.bot,
                           engine_id_for=RulesEngine().engine_id_for)
        runner = GuestLobby(lobby, view.lobby_event, join_code=join_code)
        view.lobby_opened(runner, host=False, join_code=join_code)
        host = f"[{address[0]}]" if ":" in address[0] else address[0]  # IPv6 in brackets
        view.notice(f"joining {host}:{address[1]} as {me.name} [{me.fingerprint}]")
        started: Started | None = None
        async with trio.open_nursery() as lobby_tasks:
            lobby_tasks.start_soon(view.lobby_input)
            try:
                started = await runner.run(address, b"" if picked is None else picked.host_key)
            except LobbyFailed as exc:
                if lobby.phase == "left":
                    lobby_tasks.cancel_scope.cancel()
                    return None
                if exc.refusal.why is not Why.NEEDS_JOIN_CODE or join_code is not None:
                    raise CommandError.refused(_not_that_host(exc.refusal, picked,
                                                              f"{host}:{address[1]}")) from None
            lobby_tasks.cancel_scope.cancel()
        if started is not None:
            return lobby, started
        join_code = check_join_code(await view.ask_join_code())


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for e in exc.exceptions for leaf in _leaves(e)]
    return [exc]


def _run(command: Callable[[], Awaitable[int]]) -> int:
    """Run a command's event loop.

    An error the user can fix, or Ctrl-C, comes out as itself. It is not wrapped in trio's
    exception groups.
    """
    return _unwrapped(lambda: run_main(command))


def _unwrapped(call: Callable[[], int]) -> int:
    """``call()``, with an error the user can fix or Ctrl-C taken out of trio's exception groups.

    It stands apart from :func:`_run` because the full screen runs the event loop itself.
    """
    try:
        return call()
    except BaseExceptionGroup as group:
        leaves = _leaves(group)
        for kind in (KeyboardInterrupt, CommandError):
            if all(isinstance(e, kind) for e in leaves):
                raise leaves[0] from None
        raise


NetScreenRun = Callable[[Callable[[NetView], Awaitable[int]]], int]
"""Runs a networked command's trio code behind the full screen, and returns its exit code.

The command reports to that screen.
"""


def _behind_screen(screen: NetScreenRun,
                   game: Callable[[argparse.Namespace, NetView], Awaitable[int]],
                   args: argparse.Namespace) -> int:
    """Run ``game`` behind the full screen. It is :func:`host_game` or :func:`join_game`."""
    return _unwrapped(lambda: screen(partial(game, args)))


def run_host_command(args: argparse.Namespace, screen: NetScreenRun | None = None) -> int:
    """Entry of ``kotp2p host``. With ``screen``, it runs behind the full screen."""
    if screen is not None:
        return _behind_screen(screen, host_game, args)
    return _run(partial(host_game, args, PlainNet.on_terminal(host=True,
                                                              typing=args.bot is None)))


def run_join_command(args: argparse.Namespace, screen: NetScreenRun | None = None) -> int:
    """Entry of ``kotp2p join``. With ``screen``, it runs behind the full screen."""
    if screen is not None:
        return _behind_screen(screen, join_game, args)
    return _run(partial(join_game, args, PlainNet.on_terminal(host=False,
                                                              typing=args.bot is None)))
