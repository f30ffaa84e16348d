"""Actions are distinct frozen values: equal only to the same action, through the wire and
back unchanged, and refused with a clear reason where the pending input takes another kind."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from kotp2p import rules

ONE_OF_EACH: list[rules.Action] = [
    rules.RandomResult((1, 2)),
    rules.Reroll((1, 2)),
    rules.STOP,
    rules.YIELD,
    rules.STAY,
    rules.Buy(2),
    rules.SWEEP,
    rules.DONE,
    rules.UseCard(2),
    rules.PASS,
    rules.KeepEvolution(3),
    rules.PlayEvolution(3, 1021),
]


def test_there_is_one_example_of_every_action_kind() -> None:
    assert {type(a) for a in ONE_OF_EACH} == set(rules.Action.__args__)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("a", "b"), list(itertools.product(ONE_OF_EACH, repeat=2)))
def test_an_action_equals_only_the_same_action(a: rules.Action, b: rules.Action) -> None:
    assert (a == b) is (type(a) is type(b))
    assert (a != b) is (type(a) is not type(b))
    assert (a in (b,)) is (type(a) is type(b))
    assert (len({a, b}) == 1) is (type(a) is type(b))


@pytest.mark.parametrize("a", ONE_OF_EACH)
def test_every_action_survives_the_wire_and_its_repr(a: rules.Action) -> None:
    back = rules.action_from_wire(rules.action_to_wire(a))
    assert back == a and type(back) is type(a)
    assert eval(repr(a), vars(rules)) == a
    for field in dataclasses.fields(a):  # type: ignore[arg-type]
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(a, field.name, 3)


def test_wire_tags_of_different_kinds_never_decode_alike() -> None:
    wires = [rules.action_to_wire(a) for a in ONE_OF_EACH]
    assert len({w[0] for w in wires}) == len(ONE_OF_EACH)  # type: ignore[misc]
    for w, a in zip(wires, ONE_OF_EACH, strict=True):
        assert [rules.action_from_wire(x) == a for x in wires].count(True) == 1, w


def test_only_stay_is_not_yield() -> None:
    s = rules.from_text(
        "Giga Zaur 8/0/0; Cyber Kitty 10/3/0 @city; The King 10/0/0 | active=0 phase=roll dice=sss1eh rolls=1"
    )
    s = rules.apply(s, rules.STOP)
    assert s.pending == rules.Decision(1, "yield")
    assert rules.YIELD in rules.legal_actions(s) and rules.DONE not in rules.legal_actions(s)
    with pytest.raises(rules.IllegalAction, match="'yield' decision"):
        rules.apply(s, rules.DONE)


def test_the_decoder_refuses_the_wrong_kind_for_the_pending_decision() -> None:
    s = rules.from_text(
        "Giga Zaur 8/0/0; Cyber Kitty 10/3/0 @city; The King 10/0/0 | active=0 phase=roll dice=sss1eh rolls=1"
    )
    s = rules.apply(s, rules.STOP)
    with pytest.raises(rules.IllegalAction) as refused:
        rules.action_for(s, rules.action_to_wire(rules.DONE))
    assert refused.value.reason == (
        "expected one of Stay, Yield for the 'yield' decision of seat 1 (Cyber Kitty), found Done"
    )
    assert rules.action_for(s, [4]) == rules.STAY
    rolloff = rules.new_game(rules.Setup(("The King", "Giga Zaur")))
    with pytest.raises(rules.IllegalAction, match="expected a RandomResult for random event 1, found Done"):
        rules.action_for(rolloff, [7])


def test_made_in_a_lab_takes_a_pass_never_a_done() -> None:
    # The peek is pending; answer it, then the lab decision (buy the peeked card or pass).
    s = rules.from_text(
        "The King 10/0/9 +madeinalab; Giga Zaur 10/0/0 | active=0 phase=buy market=-,-,-"
    )
    lab = next(a for a in rules.legal_actions(s) if isinstance(a, rules.UseCard))
    s = rules.apply(s, lab)
    assert isinstance(s.pending, rules.RandomRequest)
    s = rules.apply(s, rules.RandomResult((0,)))
    assert s.pending == rules.Decision(0, "lab")
    with pytest.raises(rules.IllegalAction):
        rules.apply(s, rules.DONE)
    with pytest.raises(rules.IllegalAction, match="found Done"):
        rules.action_for(s, [7])
    assert rules.apply(s, rules.PASS).pending == rules.Decision(0, "buy")
