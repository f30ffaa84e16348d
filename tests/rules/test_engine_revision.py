"""Builds that play differently must not share an engine id.

Peers compare ``rules.ENGINE_ID`` at the handshake and ``verify`` compares it with the log's
genesis. The card tables and the turn's shape are hashed into it, but a change of code (a ruling
fixed, effects taken in another order) is not: ``rules.game.RULES_REVISION`` carries those. This
test plays seeded games with every input chosen at random and pins a digest of everything they
did to each revision, so a change that alters any game fails here until the revision is bumped
and its digest recorded below (old revisions stay listed: a digest is never reused).
"""

from __future__ import annotations

import hashlib
import random

from kotp2p import rules
from kotp2p.rules.game import RULES_REVISION
from tests.rules.kit import random_input

MONSTERS = ("The King", "Giga Zaur", "Alienoid", "Cyber Kitty", "Meka Dragon", "Space Penguin")

# revision -> digest of the seeded games below
DIGESTS = {
    2: "2317447fbe7e7b447a5d1ad4",
}


def games_digest(games: int = 24) -> str:
    """A hash of the events and final states of ``games`` seeded random games of 2-6 monsters."""
    h = hashlib.sha256()
    for seed in range(games):
        rng = random.Random(seed)
        s = rules.new_game(rules.Setup(monsters=MONSTERS[: 2 + seed % 5]))
        while not s.is_over:
            a = random_input(s, rng)
            events: list[rules.Event] = []
            s = rules.apply(s, a, events=events)
            h.update(repr(events).encode())
        h.update(s.digest())
    return h.hexdigest()[:24]


def test_the_games_played_match_the_rules_revision() -> None:
    digest = games_digest()
    assert max(DIGESTS) == RULES_REVISION, "RULES_REVISION must be the newest revision listed"
    assert len(set(DIGESTS.values())) == len(DIGESTS), "a digest is never reused"
    assert digest == DIGESTS[RULES_REVISION], (
        f"the engine plays these games differently now (digest {digest}): if that is meant, "
        f"bump RULES_REVISION in kotp2p/rules/game.py to {RULES_REVISION + 1}, list "
        f"{RULES_REVISION + 1}: {digest!r} in DIGESTS here and regenerate the golden logs "
        "(scripts/make_golden_logs.py); if not, the change broke a rule"
    )


def test_the_revision_is_part_of_the_engine_id() -> None:
    import kotp2p.rules.game as game

    before = game.engine_id()
    game.RULES_REVISION += 1
    try:
        assert game.engine_id() != before
    finally:
        game.RULES_REVISION -= 1
    assert game.engine_id() == before
