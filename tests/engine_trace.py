"""Play seeded games on one engine and print one digest of everything that happened.

The digest covers every state, in full and in the msgpack encoding peers send, every event, and
the answer to a few wrong inputs at every step: the refusal's message, or the state a legal one
gives. Run once on the pure engine and once on the compiled one, the two lines must be equal.
Usage: python tests/engine_trace.py --engine pure|compiled [--build DIR] [--games N]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from kotp2p import compiled

if TYPE_CHECKING:  # imported at run time only once the engine is chosen
    from kotp2p import rules

# (players, Halloween, Power Up!): every box and a few table sizes.
TABLES = ((2, False, False), (4, False, False), (6, False, False), (4, True, False),
          (4, False, True), (5, True, True))


def trace(games: int) -> dict[str, object]:
    """The digest of ``games`` games at each table, with the engine ids and the count of states."""
    from kotp2p import rules
    from kotp2p.net.wire import codec

    h = hashlib.sha256()
    ids = []
    states = 0
    for t, (n, halloween, power_up) in enumerate(TABLES):
        options = rules.Options(halloween=halloween, power_up=power_up)
        ids.append(rules.engine_id(options))
        for g in range(games):
            rng = random.Random(f"{t}/{g}")
            s = rules.new_game(rules.Setup(monsters=rules.MONSTERS[:n], options=options))
            events: list[rules.Event] = []
            while not s.over:
                h.update(codec.pack(rules.state_to_wire(s)))
                h.update(repr(rules.legal_actions(s)).encode())
                for wrong in _wrong_inputs(s, rng):
                    try:
                        h.update(rules.apply(s, wrong).digest())
                    except rules.IllegalAction as exc:
                        h.update(str(exc).encode())
                pending = s.pending
                if isinstance(pending, rules.RandomRequest):
                    action: rules.Action = rules.RandomResult(
                        tuple(rng.randrange(b) for b in pending.bounds))
                else:
                    action = rng.choice(rules.legal_actions(s))
                s = rules.apply(s, action, events)
                h.update(repr(events).encode())
                events.clear()
                states += 1
            h.update(codec.pack(rules.state_to_wire(s)))
    return {"ids": ids, "states": states, "digest": h.hexdigest()}


def _wrong_inputs(s: rules.State, rng: random.Random) -> list[object]:
    """Inputs a careless or hostile peer might send here: junk, bad values, wrong kinds, and a
    card that may or may not be for sale."""
    from kotp2p import rules

    wrong: list[object] = [None, rules.Reroll((0, 0)), rules.Buy(rng.choice(s.market)), rules.DONE]
    if isinstance(s.pending, rules.RandomRequest):
        k = len(s.pending.bounds)
        wrong += [rules.RandomResult([0] * k), rules.RandomResult((True,) * k),  # type: ignore[arg-type]
                  rules.RandomResult((rules.HIDDEN,) * k), rules.RandomResult((99,) * k)]
    else:
        wrong += [rules.RandomResult((1,)), rules.Reroll([0]), rules.Reroll(("x",))]  # type: ignore[arg-type]
    return wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--engine", choices=("pure", "compiled"), required=True)
    parser.add_argument("--build", type=Path, help="the compiled engine's directory")
    parser.add_argument("--games", type=int, default=3, help="games at each table (default 3)")
    args = parser.parse_args()
    engine = compiled.choose(args.engine, args.build)
    from kotp2p.rules import machine

    result = trace(args.games)
    result["engine"] = engine
    result["machine"] = machine.__file__
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
