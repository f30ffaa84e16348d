"""Halloween over the network: each seat's first costume is drawn in private and kept in public,
replicas agree whatever order the frames arrive in, and a seat that keeps a costume it did not
draw is convicted once the game ends and its pick is opened."""

from __future__ import annotations

import random

import pytest

from kotp2p import rules
from kotp2p.net.files import parse_log
from kotp2p.net.trust import Chance, RulesEngine, State, game_options
from kotp2p.net.verify import verify_logs
from kotp2p.net.wire import Value
from tests.net.harness import Chooser, build_mesh, play_to_end, rules_chooser
from tests.net.mavericks import Maverick

LIAR = 1


class HalloweenEngine(RulesEngine):
    """The real rules, with Halloween on."""

    def default_options(self, seats: int) -> Value:
        return game_options(halloween=True)


class BlindPicker(HalloweenEngine):
    """Halloween, but its replica looks away from its own costume pick, as if it were another
    seat's: so it may keep any costume. It still opens the pick at the end, as every seat does."""

    def apply_random(self, state: State, values: tuple[int, ...]) -> State:
        p = self.pending(state)
        if isinstance(p, Chance) and p.private_to >= 0 and state.pending.purpose == rules.DRAW \
                and state.stack[-1][:2] == ("rand", "costume"):
            return self.apply_hidden(state)
        return super().apply_random(state, values)


class CostumeLiar(Maverick):
    """Keeps the last free costume at its pick, whatever it drew."""

    rule = "bad-opening"


def liar_chooser(seed: int) -> Chooser:
    bots = rules_chooser("random", seed)

    def choose(seat: int, state: State) -> Value:
        if seat == LIAR and state.pending.kind == "costume":
            return rules.action_to_wire(rules.legal_actions(state)[-1])
        return bots(seat, state)

    return choose


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (5, 3)])
def test_halloween_games_under_random_delivery_orders_leave_identical_valid_logs(
        seats: int, seed: int) -> None:
    engine = HalloweenEngine()
    _, mesh = build_mesh(engine, seats, rules_chooser("random", seed), seed=seed,
                         rng=random.Random(seed))
    play_to_end(mesh)
    logs = [bytes(log) for log in mesh.logs]
    assert len(set(logs)) == 1 and not any(mesh.violations)
    state = mesh.protos[0].state
    assert state.is_over and rules.is_halloween(state)
    verdict = verify_logs([parse_log(logs[0])], engine)
    assert verdict.status == "VALID", verdict.render()
    # Every pick was opened at the end, and each kept costume was among the two drawn.
    assert all(v != rules.HIDDEN for p in mesh.protos for v in p.state.slots.values())


def test_a_seat_that_keeps_a_costume_it_did_not_draw_is_convicted_when_its_pick_opens() -> None:
    engine = HalloweenEngine()
    _, mesh = build_mesh(engine, 3, liar_chooser(4), seed=4, rng=random.Random(4),
                         factories={LIAR: lambda *a, **k: CostumeLiar(*a[:4], BlindPicker(),
                                                                       **k)})
    play_to_end(mesh)
    honest = [0, 2]
    for i in honest:
        assert [(v.rule, v.seat) for v in mesh.violations[i]] == [("bad-opening", LIAR)]
        assert "kept" in mesh.violations[i][0].detail and "but it drew" in \
            mesh.violations[i][0].detail
    verdict = verify_logs([parse_log(bytes(mesh.logs[0]))], engine)
    assert verdict.status == "INVALID" and verdict.fault is not None, verdict.render()
    assert (verdict.fault.rule, verdict.fault.seat) == ("bad-opening", LIAR)


def test_options_have_one_wire_form_and_a_base_game_keeps_the_old_one() -> None:
    engine = RulesEngine()
    assert game_options() == [None] == engine.default_options(4)
    assert game_options(True, halloween=True) == [True, ["halloween"]]
    assert engine.engine_id_for([None]) == rules.ENGINE_ID == engine.engine_id
    assert engine.engine_id_for([False, ["halloween"]]) == rules.HALLOWEEN_ENGINE_ID
    for bad in ([None, []], [None, ["halloween", "halloween"]], [None, False], [None, ["x"]],
                [None, ["halloween"], 1], "halloween"):
        with pytest.raises(ValueError, match="expected"):
            engine.engine_id_for(bad)
