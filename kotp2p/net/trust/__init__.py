"""The game's anchors: the genesis, the hash chains, the check words and the engine adapter.

The signed genesis fixes who plays. The hash chains make randomness fair. Players read the check
words aloud. The adapter puts the rules engine behind a small interface.
"""

from __future__ import annotations

from kotp2p.net.trust.chain import (
    CHAIN_LENGTH,
    PEEK_TAG,
    ChainChecker,
    SecretChain,
    SlotDeck,
    check_opening,
    draw,
    peek_seed,
    random_seed,
)
from kotp2p.net.trust.deck import Deck, check_deck, check_shuffle, check_slot
from kotp2p.net.trust.engine_interface import (
    Chance,
    DeckCall,
    GameEngine,
    NarratesEvents,
    Pending,
    Poll,
    State,
    Turn,
    engine_id_of,
)
from kotp2p.net.trust.genesis import (
    GENESIS_DOMAIN,
    GENESIS_MAGIC,
    MAX_SEATS,
    MIN_SEATS,
    Genesis,
    SeatInfo,
    is_genesis_payload,
    make_genesis,
    parse_genesis_body,
    parse_genesis_frame,
    short_id,
    sign_genesis,
)
from kotp2p.net.trust.kot_engine import (
    EXPANSIONS,
    HALLOWEEN,
    POWER_UP,
    RulesEngine,
    game_options,
    rules_options,
)
from kotp2p.net.trust.words import WORDS as CHECK_WORDS
from kotp2p.net.trust.words import check_words

__all__ = [
    "CHAIN_LENGTH",
    "CHECK_WORDS",
    "EXPANSIONS",
    "GENESIS_DOMAIN",
    "GENESIS_MAGIC",
    "HALLOWEEN",
    "MAX_SEATS",
    "MIN_SEATS",
    "PEEK_TAG",
    "POWER_UP",
    "ChainChecker",
    "Chance",
    "Deck",
    "DeckCall",
    "GameEngine",
    "Genesis",
    "NarratesEvents",
    "Pending",
    "Poll",
    "RulesEngine",
    "SeatInfo",
    "SecretChain",
    "SlotDeck",
    "State",
    "Turn",
    "check_deck",
    "check_opening",
    "check_shuffle",
    "check_slot",
    "check_words",
    "draw",
    "engine_id_of",
    "game_options",
    "is_genesis_payload",
    "make_genesis",
    "parse_genesis_body",
    "parse_genesis_frame",
    "peek_seed",
    "random_seed",
    "rules_options",
    "short_id",
    "sign_genesis",
]
