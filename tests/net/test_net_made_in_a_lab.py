"""Made in a Lab over the network: the peek is private, the MOVE that buys the peeked card carries
its opening, and replicas agree whatever order the frames arrive in, copies of the peeker's
MOVEs forwarded by the other seats included. A peeker who lies about the card is convicted."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from kotp2p import rules
from kotp2p.net.files import parse_log
from kotp2p.net.peer import PeerProtocol, Signer
from kotp2p.net.replica import Replica
from kotp2p.net.trust import RulesEngine, State, Turn
from kotp2p.net.verify import verify_logs
from kotp2p.net.wire import Envelope, Kind, Value, open_envelope
from tests.net.harness import Chooser, Mesh, build_mesh, rules_chooser
from tests.net.mavericks import LyingPeeker, Withholder
from tests.rules.kit import card

LAB = card("madeinalab")
MIMIC = card("mimic")
PEEKER = 0
SEATS = ("The King 10/0/12 +madeinalab", "Giga Zaur 10/0/0 @city", "Alienoid 10/0/0",
         "Cyber Kitty 10/0/0")


class LabEngine(RulesEngine):
    """The real rules, starting in the buy step of a monster owning Made in a Lab."""

    def __init__(self, seats: int, text: str = "") -> None:
        self.text = text or (
            "; ".join(SEATS[:seats]) + " | active=0 phase=buy market=heal,tank,skyscraper")

    def start(self, monsters: Sequence[str], options: Value) -> State:
        return rules.from_text(self.text)


def lab_chooser(buy: str = "even", seed: int = 0) -> Chooser:
    """Random bots, but the peeker peeks whenever it may, then buys the peeked card ``"always"``,
    ``"never"``, or when the slot number is ``"even"``."""
    bots = rules_chooser("random", seed)

    def choose(seat: int, state: State) -> Value:
        legal = rules.legal_actions(state)
        peek = [a for a in legal if isinstance(a, rules.UseCard) and a.card in (LAB, MIMIC)
                and not a.args]
        if seat == PEEKER and peek:
            return rules.action_to_wire(peek[0])
        if seat == PEEKER and state.pending.kind == "lab":
            _, _, _, slot, used = state.stack[-1]  # used: Made in a Lab, or a Mimic copying it
            keep = buy == "always" or (buy == "even" and slot % 2 == 0)
            return rules.action_to_wire(rules.UseCard(used, (slot,)) if keep else rules.PASS)
        return bots(seat, state)

    return choose


def _envelopes(log: bytes) -> list[Envelope]:
    contents = parse_log(log)
    g = contents.genesis
    return [open_envelope(p, g.game_id, g.keys) for p in contents.payloads]


def _mesh(seats: int, seed: int, choose: Chooser, *, rng: random.Random | None = None,
          factories: dict[int, Callable[..., PeerProtocol]] | None = None,
          text: str = "") -> tuple[LabEngine, Mesh]:
    engine = LabEngine(seats, text)
    _, mesh = build_mesh(engine, seats, choose, seed=seed, rng=rng, factories=factories)
    return engine, mesh


def _assert_agree_and_verify(mesh: Mesh, engine: LabEngine) -> None:
    assert all(p.is_over for p in mesh.protos)
    assert not any(mesh.violations) and not any(mesh.rejected), (mesh.violations, mesh.rejected)
    assert len({p.replica.point.digest for p in mesh.protos}) == 1
    logs = [bytes(log) for log in mesh.logs]
    assert len(set(logs)) == 1, "every replica writes a byte-identical log"
    verdict = verify_logs([parse_log(logs[0])], engine)
    assert verdict.status == "VALID", verdict.render()


def _bought_with_lab(env: Envelope) -> bool:
    return env.kind is Kind.MOVE and env.author == PEEKER and len(env.payload) > 1


def test_a_forwarded_purchase_of_the_peeked_card_is_applied_before_the_peekers_own_frames() -> None:
    engine, mesh = _mesh(3, 1, lab_chooser("always"))
    mesh.held = {(PEEKER, 2)}  # seat 2 hears the peeker only through seat 1's forwarding
    mesh.start()
    seat2 = mesh.protos[2].replica

    def seat2_applied_the_purchase() -> bool:
        return any(e.envelope is not None and _bought_with_lab(e.envelope)
                   for e in seat2.entries)

    assert mesh.run_until(seat2_applied_the_purchase)
    entry = next(e for e in seat2.entries if e.envelope is not None
                 and _bought_with_lab(e.envelope))
    assert entry.envelope is not None
    assert entry.envelope.frame in mesh.links[(PEEKER, 2)]  # the peeker's own copy: still held
    _, slot, _ = entry.envelope.payload[1]
    bought = entry.before.slots[slot]
    assert bought != rules.HIDDEN  # learnt from the opening inside the forwarded MOVE
    after = entry.points[0].state
    assert bought in entry.before.deck and bought not in after.deck
    assert after.digest() == mesh.protos[PEEKER].replica.entries[entry.step].points[0].digest
    mesh.held = set()
    mesh.run()
    _assert_agree_and_verify(mesh, engine)


@pytest.mark.parametrize(("seats", "seed", "slow"),
                         [(3, 1, True), (3, 2, False), (4, 3, True), (4, 4, True)])
def test_peeks_bought_and_passed_leave_every_replica_agreeing_in_any_delivery_order(
    seats: int, seed: int, slow: bool
) -> None:
    engine, mesh = _mesh(seats, seed, lab_chooser(seed=seed), rng=random.Random(seed))
    if slow:
        mesh.slow = {PEEKER}  # the others' forwarded copies of the peeker's MOVEs come first
    mesh.start()
    mesh.run()
    _assert_agree_and_verify(mesh, engine)
    envs = _envelopes(bytes(mesh.logs[0]))
    bought = [e for e in envs if _bought_with_lab(e)]
    peeks = mesh.protos[PEEKER].replica.private
    assert 0 < len(bought) < len(peeks)  # peeks bought on the spot, and peeks passed
    for p in mesh.protos:
        assert not p.replica.unopened(PEEKER)  # each opened by a purchase or at the end


def test_a_mimic_copying_made_in_a_lab_peeks_privately_too() -> None:
    text = ("The King 10/0/12 +mimic; Giga Zaur 10/0/0 @city +madeinalab; Alienoid 10/0/0 | "
            "active=0 phase=buy market=heal,tank,skyscraper flags=copy.27:25")
    engine, mesh = _mesh(3, 2, lab_chooser(seed=2), rng=random.Random(2), text=text)
    mesh.slow = {PEEKER}
    mesh.start()
    mesh.run()
    _assert_agree_and_verify(mesh, engine)
    carrying = [e for e in _envelopes(bytes(mesh.logs[0]))
                if e.kind is Kind.MOVE and len(e.payload) > 1]
    # the Mimic's owner buys with the Mimic, Made in a Lab's owner (a random bot) with the card
    assert {(e.author, e.payload[0][1]) for e in carrying} == {(PEEKER, MIMIC), (1, LAB)}
    owners = {p.owner for p in mesh.protos[2].replica.private.values()}
    assert owners == {PEEKER, 1}


def test_until_it_is_bought_only_the_peeker_knows_the_card() -> None:
    _, mesh = _mesh(3, 5, lab_chooser("always"))
    mesh.slow = {PEEKER}  # the others resolve the peek before the peeker hears of it
    mesh.start()
    owner, other = mesh.protos[PEEKER].replica, mesh.protos[1].replica
    assert mesh.run_until(lambda: 1 in other.private)
    lab_turn = other.point
    assert lab_turn.pending == Turn(PEEKER) and lab_turn.state.slots == {1: rules.HIDDEN}
    assert 1 in owner.private
    mine = owner.entries[1].points[-1]  # the peeker's replica at the same point
    known = mine.state.slots[1]
    assert mine.pending == Turn(PEEKER) and known != rules.HIDDEN
    assert mine.digest == lab_turn.digest
    assert mesh.run_until(lambda: other.step >= 2)
    purchase = other.entries[2]
    assert purchase.seat == PEEKER and purchase.before.slots == {1: known}
    after = purchase.points[0].state
    assert known in purchase.before.deck and known not in after.deck  # bought, on every replica
    assert after.energy[PEEKER] == purchase.before.energy[PEEKER] - rules.CARDS[known].cost


def test_a_passed_peek_stays_private_until_the_game_ends_and_is_opened_then() -> None:
    engine, mesh = _mesh(3, 7, lab_chooser("never", seed=7), rng=random.Random(7))
    mesh.slow = {PEEKER}
    mesh.start()
    other = mesh.protos[1]
    assert mesh.run_until(lambda: len(other.replica.private) >= 2)
    assert other.replica.unopened(PEEKER) == sorted(other.replica.private)
    assert set(other.replica.state.slots.values()) <= {rules.HIDDEN}
    mesh.run()
    _assert_agree_and_verify(mesh, engine)
    envs = _envelopes(bytes(mesh.logs[0]))
    assert not any(_bought_with_lab(e) for e in envs)
    opened = [e.payload[1] for e in envs if e.kind is Kind.OPEN and e.author == PEEKER]
    assert opened == sorted(mesh.protos[PEEKER].replica.private)  # all of them, at the end
    assert {e.step for e in envs if e.kind is Kind.OPEN} == {mesh.protos[1].replica.step}


def test_a_peeker_ejected_after_passing_owes_no_opening_and_every_log_verifies() -> None:
    engine, mesh = _mesh(3, 1, lab_chooser("never", seed=1), rng=random.Random(1),
                         factories={PEEKER: Withholder})
    mesh.start()
    mesh.run(hard_after=2)
    honest = mesh.protos[1:]
    assert all(p.is_over for p in mesh.protos) and not any(mesh.violations)
    assert [e.seat for e in honest[0].replica.entries if e.kind == "eject"] == [PEEKER]
    assert honest[0].replica.unopened(PEEKER)  # passed peeks the ejected seat never opened
    assert len({bytes(mesh.logs[i]) for i in (1, 2)}) == 1
    for log in mesh.logs:
        verdict = verify_logs([parse_log(bytes(log))], engine)
        assert verdict.status == "VALID", verdict.render()


def test_a_peeker_gone_for_good_after_passing_leaves_complete_logs() -> None:
    engine, mesh = _mesh(3, 2, lab_chooser("never", seed=2), rng=random.Random(2))
    mesh.start()
    other = mesh.protos[1].replica
    assert mesh.run_until(lambda: bool(other.unopened(PEEKER)) and other.point.k is None)
    mesh.down = {PEEKER}
    mesh.run(hard_after=2)
    assert mesh.protos[1].is_over and mesh.protos[2].is_over
    assert other.unopened(PEEKER) and PEEKER in other.ejected
    assert bytes(mesh.logs[1]) == bytes(mesh.logs[2])
    verdict = verify_logs([parse_log(bytes(mesh.logs[1]))], engine)
    assert verdict.status == "VALID", verdict.render()


# --- a peeker who lies ------------------------------------------------------------------------


class _Cheat(PeerProtocol):
    """Honest, except for the openings its first purchase through Made in a Lab carries."""

    cheated = False

    def make_signer(self) -> Signer:
        return _CheatSigner(self)

    def lie(self, honest: list[Value]) -> list[Value]:
        raise NotImplementedError


class _CheatSigner(Signer):
    """Signs what its cheat's :meth:`_Cheat.lie` says, instead of the first openings due."""

    def __init__(self, cheat: _Cheat) -> None:
        super().__init__(cheat.identity, cheat.genesis.game_id, cheat.seat, cheat.chain,
                         cheat.peek_chain, cheat.engine)
        self.cheat = cheat

    def openings(self, replica: Replica, action: Value, digest: bytes) -> list[Value]:
        honest = super().openings(replica, action, digest)
        if not honest or self.cheat.cheated:
            return honest
        self.cheat.cheated = True
        return self.cheat.lie(honest)


class KeepsItClosed(_Cheat):
    """Buys the peeked card without opening the peek."""

    def lie(self, honest: list[Value]) -> list[Value]:
        return []


class OpensAPublicEvent(_Cheat):
    """Carries an opening of a random event that is not its private one."""

    def lie(self, honest: list[Value]) -> list[Value]:
        _, k, y = honest[-1]
        return [["peek", k + 1, y]]


class GarbledOpening(_Cheat):
    """Carries something that is not an opening at all."""

    def lie(self, honest: list[Value]) -> list[Value]:
        return [["peek", "the top card", 7]]


@pytest.mark.parametrize(("cls", "rule", "detail"), [
    (LyingPeeker, "bad-opening", "peek chain"),
    (KeepsItClosed, "illegal-move", "carries its opening"),
    (OpensAPublicEvent, "bad-opening", "not a private event of seat 0"),
    (GarbledOpening, "malformed-payload", "openings are ['peek', k, 32 bytes(, 32 bytes)]"),
], ids=lambda x: x.__name__ if isinstance(x, type) else None)
def test_a_peeker_lying_about_the_peeked_card_is_convicted_and_verify_names_the_move(
    cls: type[PeerProtocol], rule: str, detail: str
) -> None:
    engine, mesh = _mesh(3, 6, lab_chooser("always"), rng=random.Random(6),
                         factories={PEEKER: cls})
    mesh.start()
    mesh.run(hard_after=2)
    honest = [1, 2]
    for i in honest:
        assert [(v.rule, v.seat) for v in mesh.violations[i]] == [(rule, PEEKER)]
        assert mesh.protos[i].is_over  # the liar was ejected; the others played on
        assert not mesh.protos[i].engine.alive(mesh.protos[i].state)[PEEKER]
    bad = mesh.violations[1][0].evidence[-1]
    assert bad.kind is Kind.MOVE and bad.author == PEEKER
    for i in honest:
        verdict = verify_logs([parse_log(bytes(mesh.logs[i]))], engine)
        assert verdict.status == "INVALID" and verdict.fault is not None, verdict.render()
        assert (verdict.fault.rule, verdict.fault.seat, verdict.fault.step) == (
            rule, PEEKER, bad.step)
        assert detail in verdict.fault.detail
        assert verdict.fault.frames[-1] == bad.frame
        alone = verify_logs([parse_log(verdict.evidence)], engine)
        assert alone.fault is not None and (alone.fault.rule, alone.fault.seat) == (rule, PEEKER)
