"""One contract for every input path: the shortcuts and the generic machinery accept and refuse
the same inputs with the same results and reasons; decoders of states raise only InvalidState;
a random request says what it is for."""

from __future__ import annotations

import random

import pytest

from kotp2p import rules
from kotp2p.rules import basics
from tests.rules.kit import card, roll
from tests.rules.test_cards_keep_playouts import dealt_start


def outcome(state: rules.State, action: object, *, shortcuts: bool) -> object:
    """What ``apply`` makes of ``action``: the new state's wire form, pending input, legal
    actions and events; or the refusal's reason."""
    basics.SHORTCUTS = shortcuts
    try:
        events: list[rules.Event] = []
        after = rules.apply(state, action, events=events)  # type: ignore[arg-type]
    except rules.IllegalAction as exc:
        return ("refused", exc.reason)
    finally:
        basics.SHORTCUTS = True
    return (rules.state_to_wire(after), after.pending, rules.legal_actions(after), events)


def candidates(state: rules.State, rng: random.Random) -> list[object]:
    """Well- and ill-formed inputs for ``state``'s pending input."""
    p = state.pending
    out: list[object] = list(rules.legal_actions(state))
    if isinstance(p, rules.RandomRequest):
        good = tuple(rng.randrange(b) for b in p.bounds)
        out.append(rules.RandomResult(good))
        bad: list[object] = [
            good[:-1],
            (*good, 0),
            list(good),
            tuple(float(v) for v in good),
            tuple(v == 1 for v in good),  # bools
            (True, *good[1:]),
            (1.0, *good[1:]),
            (p.bounds[0], *good[1:]),
            (-1, *good[1:]),
            ("1", *good[1:]),
            (rules.HIDDEN,) * len(good),
        ]
        out.extend(rules.RandomResult(b) for b in bad)  # type: ignore[arg-type]
    n = len(state.dice)
    out += [
        rules.Reroll(tuple(range(n))),
        rules.Reroll((0,)),
        rules.Reroll(()),
        rules.Reroll((0, 0)),
        rules.Reroll((n,)),
        rules.Reroll([0]),  # type: ignore[arg-type]
        rules.Reroll((True,)),
        rules.STOP,
        rules.YIELD,
        rules.STAY,
        rules.DONE,
        rules.PASS,
        rules.SWEEP,
        rules.Buy(rng.choice([*state.market, 0, 999])),
        rules.UseCard(rng.randrange(1, 50), (rng.randrange(8),)),
        rules.RandomResult((0,) * rng.randrange(10)),
        (),
        None,
    ]
    return out


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_the_shortcuts_and_the_generic_path_agree_on_every_input(players: int) -> None:
    shortcut_taken = 0
    for seed in range(3):
        rng = random.Random(1000 * players + seed)
        s = dealt_start(players, rng) if seed else rules.new_game(rules.Setup(rules.MONSTERS[:players]))
        for _ in range(400):
            if s.is_over:
                break
            for action in candidates(s, rng):
                fast = outcome(s, action, shortcuts=True)
                slow = outcome(s, action, shortcuts=False)
                assert fast == slow, f"{action!r} at {rules.to_text(s)}"
            shortcut_taken += isinstance(s.pending, rules.RandomRequest) and s.pending.purpose in (
                rules.ROLL,
                rules.REROLL,
            )
            legal = rules.legal_actions(s)
            p = s.pending
            nxt: rules.Action = (
                rules.RandomResult(tuple(rng.randrange(b) for b in p.bounds))
                if isinstance(p, rules.RandomRequest)
                else legal[rng.randrange(len(legal))]
            )
            s = rules.apply(s, nxt)
    assert shortcut_taken > 30  # rolls and re-rolls, the inputs the shortcuts take


def test_a_roll_of_bools_or_floats_is_refused_on_the_fast_path_too() -> None:
    s = rules.from_text("The King 10/0/0; Giga Zaur 10/0/0 | active=0 phase=start")
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.purpose == rules.ROLL
    for values in [(1.0, True, 2, 3, 4, 5), (True,) * 6, [0, 1, 2, 3, 4, 5]]:
        with pytest.raises(rules.IllegalAction, match="a tuple of integers"):
            rules.apply(s, rules.RandomResult(values))  # type: ignore[arg-type]
    rolled = rules.apply(s, rules.RandomResult((0, 1, 2, 3, 4, 5)))
    assert rules.from_text(rules.to_text(rolled)) == rolled


def test_a_random_request_says_what_it_is_for() -> None:
    s = rules.new_game(rules.Setup(("The King", "Giga Zaur", "Alienoid")))
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.purpose == rules.ROLLOFF
    s = rules.apply(s, rules.RandomResult((5,) * 6 + (0,) * 12))
    assert isinstance(s.pending, rules.RandomRequest) and s.pending.purpose == rules.DRAW
    for _ in range(3):
        s = rules.apply(s, rules.RandomResult((0,)))
    assert isinstance(s.pending, rules.RandomRequest)
    assert (s.pending.purpose, len(s.pending.bounds)) == (rules.ROLL, 6)
    s = roll(s, "111222")
    s = rules.apply(s, rules.Reroll((0, 1)))
    assert isinstance(s.pending, rules.RandomRequest)
    assert (s.pending.purpose, len(s.pending.bounds)) == (rules.REROLL, 2)
    camo = rules.from_text(
        "The King 10/0/0 @city +camouflage; Giga Zaur 10/0/0 | active=1 phase=roll dice=ssssss rolls=1"
    )
    camo = rules.apply(camo, rules.STOP)
    assert camo.pending == rules.Decision(0, "react")
    camo = rules.apply(camo, rules.UseCard(card("camouflage")))
    assert isinstance(camo.pending, rules.RandomRequest) and camo.pending.purpose == rules.CARD_ROLL


def _mutations(rng: random.Random) -> list[object]:
    return [None, -1, 0, 1, 2**40, -(2**40), 1.5, True, False, "", "x" * 50, "ask", [], [[]], {}, b"\x00"]


def _mutate(obj: object, rng: random.Random) -> object:
    """``obj`` with one nested value replaced by junk (or a list cut or grown)."""
    if isinstance(obj, list) and obj and rng.random() < 0.8:
        i = rng.randrange(len(obj))
        out = list(obj)
        out[i] = _mutate(obj[i], rng)
        return out
    if isinstance(obj, list) and rng.random() < 0.5:
        return obj[:-1] if obj and rng.random() < 0.5 else [*obj, rng.choice(_mutations(rng))]
    return rng.choice(_mutations(rng))


def test_state_from_wire_raises_only_invalid_state() -> None:
    rng = random.Random(7)
    accepted = 0
    for seed in range(12):
        s = dealt_start(2 + seed % 5, random.Random(seed))
        wire = rules.state_to_wire(s)
        for _ in range(150):
            bad = _mutate(wire, rng)
            try:
                back = rules.state_from_wire(bad)
            except rules.InvalidState:
                continue
            accepted += 1
            back.digest()
            rules.to_text(back)
    assert accepted > 0  # some mutations keep a valid state, and those must work fully


def test_from_text_raises_only_invalid_state() -> None:
    rng = random.Random(11)
    junk = [" ", "|", ";", "=", ":", ",", "+", "@", "-", "/", "9", "99999999999", "x", "stack=", "phase="]
    for seed in range(12):
        text = rules.to_text(dealt_start(2 + seed % 5, random.Random(seed)))
        for _ in range(150):
            chars = list(text)
            for _ in range(rng.randrange(1, 4)):
                i = rng.randrange(len(chars))
                if rng.random() < 0.5:
                    del chars[i]
                else:
                    chars.insert(i, rng.choice(junk))
            try:
                s = rules.from_text("".join(chars))
            except rules.InvalidState:
                continue
            assert rules.from_text(rules.to_text(s)) == s
