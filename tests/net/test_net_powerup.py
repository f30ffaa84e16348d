"""Power Up! over the network: every hand is hidden from every other replica, every deck is
proven honest before anything is drawn from it, every card played is opened against its slot,
and every slot is opened at the end.

The cheats: a forged deck, a card played that its slot does not hold, a wrong opening, and a seat
that keeps its slots closed at the end."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from kotp2p import rules
from kotp2p.app.logs import hidden_cards_lines
from kotp2p.net.files import parse_log
from kotp2p.net.peer import Event
from kotp2p.net.trust import Deck, Poll, RulesEngine, State, Turn, game_options
from kotp2p.net.verify import replay_lines, verify_logs
from kotp2p.net.wire import Envelope, Kind, Value, open_envelope
from tests.net.harness import Chooser, Mesh, build_mesh, play_to_end, rules_chooser
from tests.net.mavericks import Maverick, MaverickSigner

LIAR = 1


class PowerUpEngine(RulesEngine):
    """The real rules, with Power Up! on."""

    def default_options(self, seats: int) -> Value:
        return game_options(power_up=True)


def game_with(liar: Callable[..., Maverick], seed: int, choose: Chooser | None = None,
              seats: int = 3) -> tuple[RulesEngine, Mesh]:
    """A Power Up! game played to its end, seat ``LIAR`` made by ``liar``, the others honest
    random bots."""
    engine = PowerUpEngine()
    _, mesh = build_mesh(engine, seats, choose or rules_chooser("random", seed), seed=seed,
                         rng=random.Random(seed), factories={LIAR: liar})
    play_to_end(mesh)
    return engine, mesh


def assert_names_the_cheat(mesh: Mesh, engine: RulesEngine, rule: str, seat: int,
                           step: int | None = None) -> None:
    """``verify`` finds the first seat's log INVALID and names ``seat`` for ``rule``."""
    verdict = verify_logs([parse_log(bytes(mesh.logs[0]))], engine)
    assert verdict.status == "INVALID" and verdict.fault is not None, verdict.render()
    assert (verdict.fault.rule, verdict.fault.seat) == (rule, seat)
    assert step is None or verdict.fault.step == step


def hands_hidden(choose: Chooser, seen: list[int]) -> Chooser:
    """``choose``, checking first that the deciding seat's replica sees no other seat's hand;
    ``seen`` counts the hidden cards it checked."""

    def check(seat: int, state: State) -> Value:
        for other in range(state.n):
            if other != seat:
                cards = [card for slot, card in rules.hand_of(state, other)
                         if f"evoc.{other}.{slot}" not in state.flags]  # not played just now
                assert all(c == rules.HIDDEN for c in cards), (seat, other, cards)
                seen[0] += len(cards)
        return choose(seat, state)

    return check


def _kinds(log: bytes, engine: RulesEngine) -> list[tuple[Kind, int, Value]]:
    parsed = parse_log(log)
    envs = [open_envelope(p, parsed.genesis.game_id, parsed.genesis.keys)
            for p in parsed.payloads]
    return [(e.kind, e.author, e.payload) for e in envs]


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (4, 3)])
def test_power_up_games_hide_every_hand_and_leave_identical_valid_logs(seats: int,
                                                                      seed: int) -> None:
    engine = PowerUpEngine()
    hidden = [0]
    _, mesh = build_mesh(engine, seats, hands_hidden(rules_chooser("greedy", seed), hidden),
                         seed=seed, rng=random.Random(seed))
    play_to_end(mesh)
    logs = [bytes(log) for log in mesh.logs]
    assert len(set(logs)) == 1 and not any(mesh.violations)
    assert hidden[0] > 0, "the seats held cards the others never saw"
    verdict = verify_logs([parse_log(logs[0])], engine)
    assert verdict.status == "VALID", verdict.render()
    found = _kinds(logs[0], engine)
    # Each deck was committed by its seat's own MOVE, before anything else happened.
    moves = [(a, p) for k, a, p in found if k is Kind.MOVE]
    assert [(a, p[1][0]) for a, p in moves[:seats]] == [(a, "deck") for a in range(seats)]
    # A window's answers are ACKs, signed at once; each card played comes with its opening.
    answers = [p for k, _, p in found if k is Kind.ACK and p]
    assert answers and not any(p[0][0] == 11 for _, p in moves)
    plays = [p for p in answers if p[0][0] == 11]
    assert plays and all(any(o[0] == "evo" for o in p[1:]) for p in plays)
    for proto in mesh.protos:
        hands = proto.replica.hands
        assert all(len(hands.commitments[a]) >= 8 for a in range(seats))
        assert all(hands.unopened(a) == [] for a in range(seats))
        assert all(sorted(hands.opened[a].values()) == sorted(
            rules.evolution_deck(proto.state.monsters[a]))
            for a in range(seats) if len(hands.commitments[a]) == 8)


def test_replay_tells_when_each_hidden_card_became_known() -> None:
    engine = PowerUpEngine()
    _, mesh = build_mesh(engine, 3, rules_chooser("random", 5), seed=5, rng=random.Random(5))
    play_to_end(mesh)
    lines = replay_lines(parse_log(bytes(mesh.logs[0])), engine, end_lines=hidden_cards_lines)
    at = lines.index("Evolutions, as each hidden card became known:")
    told = lines[at + 1:at + 4]
    monsters = mesh.protos[0].state.monsters
    assert [line.split(":")[0].strip() for line in told] == list(monsters)
    by_monster = {line.split(":")[0].strip(): line for line in told}
    played = [line.strip().split(" plays ") for line in lines[:at]
              if " plays " in line and "roll-off" not in line]
    assert played
    for monster, card in played:
        assert f"{card} (played at step" in by_monster[monster], (monster, card)
    assert all(line.count("slot ") == 8 for line in told)  # every slot, opened at the end too
    assert sum(line.count("opened at step") for line in told) > 0
    notes = verify_logs([parse_log(bytes(mesh.logs[0]))], engine).notes
    assert [n.split(":")[0] for n in notes if "hidden Evolution slots" in n] == [
        "seat 0", "seat 1", "seat 2"]
    assert all("8 hidden Evolution slots committed" in n for n in notes if "hidden" in n)


class ForgedDeckSigner(MaverickSigner):
    """Commits a deck holding its monster's strongest card twice, with an honest-looking proof."""

    def openings(self, replica: object, action: Value, digest: bytes) -> list[Value]:
        pending = replica.point.pending  # type: ignore[attr-defined]
        if isinstance(pending, Turn) and pending.deck is not None:
            cards = list(pending.deck.cards)
            cards[0] = cards[1]
            deck = Deck.deal(cards, b"forger" * 6, generation=pending.deck.first)
            context = replica.hands.context(self.seat, pending.deck.first)  # type: ignore[attr-defined]
            return [["deck", list(deck.commitments), deck.prove(context)]]
        return super().openings(replica, action, digest)  # type: ignore[arg-type]


class DeckForger(Maverick):
    rule = "bad-opening"
    signer_type = ForgedDeckSigner


def test_a_forged_deck_is_refused_before_anything_is_drawn_and_verify_names_it() -> None:
    engine, mesh = game_with(DeckForger, 5)
    for i in (0, 2):
        [v] = mesh.violations[i]
        assert (v.rule, v.seat, v.step) == ("bad-opening", LIAR, 2)
        assert "deck commitment" in v.detail
        assert mesh.protos[i].replica.hands.commitments[LIAR] == []
        assert mesh.protos[i].is_over  # the others ejected the forger and played on
    assert_names_the_cheat(mesh, engine, "bad-opening", LIAR, step=2)


class BlindHand(PowerUpEngine):
    """Power Up!, but its replica never learns its own cards: so it may claim any card."""

    def fill_deck(self, state: State, seat: int, slot: int, card: int) -> State:
        return state


def liar_chooser(seed: int, liar: list[Maverick]) -> Chooser:
    """Random bots; the liar plays, as soon as it may, a card its slot does not hold."""
    bots = rules_chooser("random", seed)

    def choose(seat: int, state: State) -> Value:
        if seat == LIAR and state.pending.kind == "evolution" and not liar[0].done:
            hands = liar[0].replica.hands
            for a in rules.legal_actions(state):
                if isinstance(a, rules.PlayEvolution) and a.card != hands.own_opening(a.slot)[2]:
                    liar[0].done = True
                    return rules.action_to_wire(a)
        return bots(seat, state)

    return choose


class CardLiar(Maverick):
    """Plays a card its slot does not hold, with the slot's true opening."""

    rule = "illegal-move"


class OpeningLiarSigner(MaverickSigner):
    """Opens the slot it plays as holding the card it claims."""

    def answer_openings(self, replica: object, action: Value) -> list[Value]:
        items = super().answer_openings(replica, action)  # type: ignore[arg-type]
        claimed = rules.action_from_wire(action)
        if not isinstance(claimed, rules.PlayEvolution):
            return items
        return [[o[0], o[1], claimed.card, o[3]] if o[0] == "evo" else o  # type: ignore[index]
                for o in items]


class OpeningLiar(Maverick):
    rule = "bad-opening"
    signer_type = OpeningLiarSigner


@pytest.mark.parametrize("maverick", [CardLiar, OpeningLiar])
def test_a_card_played_that_its_slot_does_not_hold_convicts_its_player(
        maverick: type[Maverick]) -> None:
    engine = PowerUpEngine()
    made: list[Maverick] = []

    def make(*args: object, **kwargs: object) -> Maverick:
        made.append(maverick(*args[:4], BlindHand(), **kwargs))  # type: ignore[arg-type]
        return made[0]

    _, mesh = build_mesh(engine, 3, liar_chooser(7, made), seed=7, rng=random.Random(7),
                         factories={LIAR: make})
    play_to_end(mesh)
    assert made[0].done, "the liar found a card to lie about"
    for i in (0, 2):
        [v] = mesh.violations[i]
        assert (v.rule, v.seat) == (maverick.rule, LIAR), v
        [env] = v.evidence
        assert env.payload[0][0] == 11  # the PlayEvolution is the proof
    assert_names_the_cheat(mesh, engine, maverick.rule, LIAR)


class ClosedHand(Maverick):
    """Never opens its slots at the end."""

    def publish(self, env: Envelope) -> Sequence[Event]:  # type: ignore[override]
        if env.kind is Kind.OPEN and env.payload[0] == "evo":
            return []
        return super().publish(env)


def test_a_seat_that_keeps_its_slots_closed_at_the_end_leaves_the_log_incomplete() -> None:
    engine, mesh = game_with(ClosedHand, 2, seats=2)
    assert not any(mesh.violations)
    verdict = verify_logs([parse_log(bytes(mesh.logs[0]))], engine)
    assert verdict.status == "INCOMPLETE", verdict.render()
    closed = mesh.protos[0].replica.hands.unopened(LIAR)
    assert len(closed) >= 6  # some were played, and opened as they were
    assert f"seat {LIAR}: the opening of its hidden deck's slots " + ", ".join(
        map(str, closed)) in verdict.missing
    assert not any(m.startswith("seat 0") for m in verdict.missing)


class TwiceAnswering(Maverick):
    """Answers a window, then answers it again, playing its card this time if it can."""

    rule = "unexpected-ack"

    def submit(self, action: Value) -> list[Event]:
        out = super().submit(action)
        r = self.replica
        p = r.point
        if (not self.done and isinstance(p.pending, Poll) and self.seat in p.pending.seats
                and rules.action_from_wire(action) == rules.PASS):
            self.done = True
            out += self.publish(self.signer.answer(r, action))
        return out


class LateTwiceAnswering(Maverick):
    """Answers a window again once the game has gone past it."""

    rule = "unexpected-ack"
    _answered: tuple[int, int, bytes, bytes, Value] | None = None

    def submit(self, action: Value) -> list[Event]:
        p = self.replica.point
        if isinstance(p.pending, Poll) and self._answered is None:
            self._answered = (p.step, p.index, p.digest, self.replica.entries[p.step].id, action)
        return super().submit(action)

    def act(self, choose: Chooser) -> list[Event]:
        p = self.replica.point
        if self.done or self._answered is None or (p.step, p.index) == self._answered[:2]:
            return []
        self.done = True
        step, _, digest, head, action = self._answered
        return self.publish(self.signer.seal(Kind.ACK, step, head, [action], [], digest))


class Silent(Maverick):
    """Never answers a window, and so holds the game up there."""

    @property
    def my_turn(self) -> bool:
        p = self.replica.point.pending
        return not isinstance(p, Poll) and super().my_turn


@pytest.mark.parametrize("maverick", [TwiceAnswering, LateTwiceAnswering])
def test_a_second_answer_to_one_window_convicts_its_author(maverick: type[Maverick]) -> None:
    engine, mesh = game_with(maverick, 6)
    for i in (0, 2):
        [v] = mesh.violations[i]
        assert (v.rule, v.seat) == ("unexpected-ack", LIAR) and "second answer" in v.detail
        assert mesh.protos[i].is_over
    assert_names_the_cheat(mesh, engine, "unexpected-ack", LIAR)


def test_a_seat_that_does_not_answer_a_window_is_voted_out_and_the_game_goes_on() -> None:
    engine, mesh = game_with(Silent, 8)
    for i in (0, 2):
        assert LIAR in mesh.protos[i].replica.ejected and mesh.protos[i].is_over
    logs = {bytes(mesh.logs[i]) for i in (0, 2)}
    assert len(logs) == 1
    verdict = verify_logs([parse_log(logs.pop())], engine)
    assert verdict.status == "VALID", verdict.render()


class NoAckSigner(MaverickSigner):
    """Stops acknowledging MOVEs with plain ACKs once armed; it still answers windows."""

    def duties(self, replica: object, points: list[object]) -> list[Envelope]:
        out = super().duties(replica, points)  # type: ignore[arg-type]
        if self.maverick.armed():
            kept = [e for e in out if e.kind is not Kind.ACK or e.payload or e.reveals]
            if len(kept) < len(out):
                self.maverick.done = True
            return kept
        return out


class NoAck(Maverick):
    signer_type = NoAckSigner


def test_a_seat_that_does_not_acknowledge_a_move_before_a_window_is_voted_out_and_nobody_blamed(
) -> None:
    engine, mesh = game_with(NoAck, 2, rules_chooser("greedy", 2))
    honest = [i for i in range(3) if i != LIAR]
    for i in honest:
        assert not mesh.violations[i], mesh.violations[i]
        assert mesh.protos[i].is_over and LIAR in mesh.protos[i].replica.ejected
    logs = {bytes(mesh.logs[i]) for i in honest}
    assert len(logs) == 1
    assert verify_logs([parse_log(logs.pop())], engine).status == "VALID"
