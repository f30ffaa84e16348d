"""The pure King of Tokyo rules engine. It has no IO, no clock and no randomness of its own.

>>> from kotp2p import rules
>>> state = rules.new_game(rules.Setup(monsters=("The King", "Giga Zaur")))
>>> state.pending
RandomRequest(bounds=(6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6), index=1, purpose='rolloff')

Every input is a player's decision or a random outcome. For a decision, ``state.pending`` is a
:class:`Decision`: choose among :func:`legal_actions`. For a random outcome it is a
:class:`RandomRequest`: answer with a :class:`RandomResult`. :func:`apply` returns a new state and
never mutates its input.

Actions are distinct frozen values, so ``PASS != DONE``. :func:`action_for` decodes a peer's wire
action for what a state has pending. It refuses an action of the wrong kind. A random request says
what it is for in ``purpose``: ``ROLL``, ``REROLL``, ``ROLLOFF``, ``DRAW`` or ``CARD_ROLL``. Its
answer is a tuple of ints within the bounds. It is checked the same way on every path.
:func:`card_by_name` finds a card id by its printed or notation name.

Events: ``apply(state, action, events=lst)`` appends to ``lst`` what happened inside that one
call, in order. ``eject(state, seat, events=lst)`` does the same. Events are small frozen values
such as :class:`DiceRolled`, :class:`Damaged`, :class:`YieldedTokyo` and :class:`TurnBegan`. The
full list is ``EVENT_TYPES``. Each class says what its fields mean. When ``events`` is omitted,
nothing is recorded and nothing costs. :func:`describe_event` says one in plain words:

>>> lst = []
>>> after = rules.apply(state, rules.RandomResult((5,) * 6 + (0,) * 6), events=lst)
>>> [rules.describe_event(e, state) for e in lst]
['roll-off: The King ✸ ✸ ✸ ✸ ✸ ✸, Giga Zaur 1 1 1 1 1 1; The King plays first']

Plain words show dice and amounts with symbols: ``1 2 3 ⚡ ♥ ✸`` and ``2★``. A view for a terminal
without them rewrites the text in words.

How a view tells a move: ``replay`` does this, and every view should, so that nothing is said
twice. After ``apply(state, action, events=lst)``, print the lines of
``describe_events(lst, state)`` in order: from the state the action was applied to, they tell the
amounts that stopped at a limit. Skip the :func:`is_minor` ones unless the user asked for every detail.
Print ``describe_action(state, action)`` first only when no event was printed before the first
:class:`TurnBegan` of ``lst``. That happens for a re-roll decision, a pass, or a ``done`` that
ends the turn. Otherwise the events already say what the move did, in the same words: "Giga Zaur
stays in Tokyo City", "The King buys Heal for 3⚡". A random outcome is told the same way. Print
its events, or ``describe_action`` of the :class:`RandomResult` when it reported none.
"""

from kotp2p.rules.actions import (
    DONE,
    PASS,
    STAY,
    STOP,
    SWEEP,
    YIELD,
    Action,
    Buy,
    Done,
    KeepEvolution,
    Pass,
    PlayEvolution,
    RandomResult,
    Reroll,
    Stay,
    Stop,
    Sweep,
    UseCard,
    Yield,
    action_from_wire,
    action_to_wire,
)
from kotp2p.rules.actiontext import format_action, parse_action
from kotp2p.rules.card import COSTUME, DISCARD, EVOLUTION_KINDS, KEEP, PERMANENT, Card
from kotp2p.rules.cardlist import ALL_CARDS
from kotp2p.rules.describe import card_name, card_text, describe_action
from kotp2p.rules.dice import (
    ENERGY,
    FACE_CHARS,
    FACE_NAMES,
    HEART,
    ONE,
    SMASH,
    THREE,
    TWO,
    count_faces,
    format_dice,
    number_stars,
    parse_dice,
)
from kotp2p.rules.effects import card_cost, max_hp
from kotp2p.rules.errors import IllegalAction, InvalidState
from kotp2p.rules.events import (
    EVENT_TYPES,
    MINOR_EVENT_TYPES,
    AutoDecision,
    BayClosed,
    BeautyTaken,
    CardBought,
    CardDiscarded,
    CardEffect,
    CardRevealed,
    Copied,
    CostumeKept,
    CostumeTaken,
    Damaged,
    DiceChanged,
    DiceKept,
    DiceRolled,
    Eliminated,
    EnergyChanged,
    EnteredTokyo,
    Event,
    EvolutionKept,
    EvolutionPlayed,
    EvolutionsDrawn,
    EvolutionsShuffled,
    ExtraTurn,
    GameOver,
    GiftGiven,
    Healed,
    LeftTokyo,
    MarketSwept,
    RolledOff,
    StarsChanged,
    StayedInTokyo,
    TokensChanged,
    TurnBegan,
    YieldedTokyo,
    is_minor,
)
from kotp2p.rules.eventtext import describe_event, describe_events
from kotp2p.rules.evoslots import (
    evolution_deck,
    hand_of,
    is_power_up,
    known_card,
    slot_key,
    slot_seat,
)
from kotp2p.rules.game import MONSTERS, Options, Setup, engine_id, new_game
from kotp2p.rules.glyphs import SYMBOLS, Glyphs
from kotp2p.rules.halloween import is_halloween
from kotp2p.rules.invariants import broken_invariants
from kotp2p.rules.machine import action_for, apply, eject, legal_actions, open_slot, ranking
from kotp2p.rules.notation import from_text, to_text
from kotp2p.rules.powerup import deck_call, drawn_slots, played_slots, window_of, window_seats
from kotp2p.rules.registry import CARDS, card_by_name, copied
from kotp2p.rules.state import (
    BAY,
    CARD_ROLL,
    CITY,
    DRAW,
    HIDDEN,
    OUTSIDE,
    REROLL,
    ROLL,
    ROLLOFF,
    Decision,
    Pending,
    RandomRequest,
    State,
)
from kotp2p.rules.turn import star_goal
from kotp2p.rules.wire import state_from_wire, state_to_wire

ENGINE_ID = engine_id()
HALLOWEEN_ENGINE_ID = engine_id(Options(halloween=True))
"""The engine ids of base games and of Halloween games, made once: tests may add kinds of
random events later, which :func:`engine_id` would count."""
ENGINE_IDS = {(halloween, power_up): engine_id(Options(halloween=halloween, power_up=power_up))
              for halloween in (False, True) for power_up in (False, True)}
"""The engine id of each set of expansions, by ``(halloween, power_up)``, made once."""

__all__ = [
    "ALL_CARDS",
    "BAY",
    "CARDS",
    "CARD_ROLL",
    "CITY",
    "COSTUME",
    "DISCARD",
    "DONE",
    "DRAW",
    "ENERGY",
    "ENGINE_ID",
    "ENGINE_IDS",
    "EVENT_TYPES",
    "EVOLUTION_KINDS",
    "FACE_CHARS",
    "FACE_NAMES",
    "HALLOWEEN_ENGINE_ID",
    "HEART",
    "HIDDEN",
    "KEEP",
    "MINOR_EVENT_TYPES",
    "MONSTERS",
    "ONE",
    "OUTSIDE",
    "PASS",
    "PERMANENT",
    "REROLL",
    "ROLL",
    "ROLLOFF",
    "SMASH",
    "STAY",
    "STOP",
    "SWEEP",
    "SYMBOLS",
    "THREE",
    "TWO",
    "YIELD",
    "Action",
    "AutoDecision",
    "BayClosed",
    "BeautyTaken",
    "Buy",
    "Card",
    "CardBought",
    "CardDiscarded",
    "CardEffect",
    "CardRevealed",
    "Copied",
    "CostumeKept",
    "CostumeTaken",
    "Damaged",
    "Decision",
    "DiceChanged",
    "DiceKept",
    "DiceRolled",
    "Done",
    "Eliminated",
    "EnergyChanged",
    "EnteredTokyo",
    "Event",
    "EvolutionKept",
    "EvolutionPlayed",
    "EvolutionsDrawn",
    "EvolutionsShuffled",
    "ExtraTurn",
    "GameOver",
    "GiftGiven",
    "Glyphs",
    "Healed",
    "IllegalAction",
    "InvalidState",
    "KeepEvolution",
    "LeftTokyo",
    "MarketSwept",
    "Options",
    "Pass",
    "Pending",
    "PlayEvolution",
    "RandomRequest",
    "RandomResult",
    "Reroll",
    "RolledOff",
    "Setup",
    "StarsChanged",
    "State",
    "Stay",
    "StayedInTokyo",
    "Stop",
    "Sweep",
    "TokensChanged",
    "TurnBegan",
    "UseCard",
    "Yield",
    "YieldedTokyo",
    "action_for",
    "action_from_wire",
    "action_to_wire",
    "apply",
    "broken_invariants",
    "card_by_name",
    "card_cost",
    "card_name",
    "card_text",
    "copied",
    "count_faces",
    "deck_call",
    "describe_action",
    "describe_event",
    "describe_events",
    "drawn_slots",
    "eject",
    "engine_id",
    "evolution_deck",
    "format_action",
    "format_dice",
    "from_text",
    "hand_of",
    "is_halloween",
    "is_minor",
    "is_power_up",
    "known_card",
    "legal_actions",
    "max_hp",
    "new_game",
    "number_stars",
    "open_slot",
    "parse_action",
    "parse_dice",
    "played_slots",
    "ranking",
    "slot_key",
    "slot_seat",
    "star_goal",
    "state_from_wire",
    "state_to_wire",
    "to_text",
    "window_of",
    "window_seats",
]
