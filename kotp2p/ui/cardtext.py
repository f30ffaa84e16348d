"""What each Power card does, in plain words (the market and the card browser show it)."""

from __future__ import annotations

CARD_TEXT: dict[int, str] = {
    # Acid Attack
    1: "Every turn, your roll counts one more smash than you rolled, even if you rolled none.",
    # Alien Origin
    2: "Power cards cost you 1⚡ less.",
    # Alpha Monster
    3: "Gain 1★ if your resolved roll has at least one smash.",
    # Armor Plating
    4: "Any loss of exactly 1♥ is ignored.",
    # Background Dweller
    5: "You may reroll any die showing 3, whenever you like.",
    # Burrowing
    6: (
        "While you are in Tokyo, add one smash to your roll. When you yield Tokyo, the monster that"
        " takes your place loses 1♥."
    ),
    # Camouflage
    7: "Roll one die per ♥ you are about to lose; each heart face rolled cancels 1♥ of that loss.",
    # Complete Destruction
    8: (
        "If your final dice show 1, 2, 3, heart, energy and smash (at least one of each), gain 9★ "
        "on top of normal results."
    ),
    # Media-Friendly
    9: "Gain 1★ each time you buy a Power card.",
    # Eater of the Dead
    10: "Gain 3★ every time some monster's life drops to 0.",
    # Energy Hoarder
    11: "Gain 1★ for each full 6⚡ you hold.",
    # Even Bigger
    12: "Gain 2♥ when you get it. Your maximum life becomes 12 while you own it.",
    # Extra Head
    13: "You roll one extra die.",
    # Extra Head
    14: "You roll one extra die.",
    # Fire Breathing
    15: (
        "When your roll has at least one smash, each of your neighbours loses 1♥ extra. This "
        "applies whether or not you smashed them."
    ),
    # Freeze Time
    16: (
        "On a turn where you resolve at least three 1s, take another turn after this one with one "
        "die fewer."
    ),
    # Friend of Children
    17: "Each time you gain energy, gain 1⚡ more.",
    # Giant Brain
    18: "You get one extra reroll each turn.",
    # Gourmet
    19: "When you resolve at least three 1s, gain 2★ extra.",
    # Healing Ray
    20: (
        "Your heart dice may heal other monsters. Each healed monster pays you 2⚡ per ♥ healed (or "
        "all the ⚡ it has if short)."
    ),
    # Herbivore
    21: "Gain 1★ if you made no one lose ♥ this turn.",
    # Herd Culler
    22: "Once per turn, you may turn one of your dice into a 1.",
    # It Has a Child!
    23: (
        "Instead of dying: discard all your cards, lose all your ★, go back to 10♥, leave Tokyo, "
        "keep playing."
    ),
    # Jets
    24: "If you yield Tokyo after being smashed, you lose no ♥ from that attack.",
    # Made in a Lab
    25: "You may look at the top card of the deck and buy it, or leave it there.",
    # Metamorph
    26: "You may discard any of your Keep cards to gain their full printed cost in ⚡.",
    # Mimic
    27: (
        "Pick a Keep card any monster has in play and put the Mimic token on it. Mimic works as a "
        "second copy of that card, as if you had just bought it. At the start of your turn you may "
        "pay 1⚡ to move the token."
    ),
    # Battery Monster
    28: (
        "On buying, put 6⚡ from the bank on it. At the start of each of your turns move 2 of them "
        "to your pool; discard it once empty."
    ),
    # Nova Breath
    29: "Your smashes hit every other monster, inside and outside Tokyo.",
    # Detritivore
    30: "If your dice show at least one 1, one 2 and one 3, gain 2★ on top of normal results.",
    # Opportunist
    31: "Whenever a new Power card is turned face up, you may buy it at once.",
    # Parasitic Tentacles
    32: "You can buy other monsters' Power cards, paying the owner the cost.",
    # Plot Twist
    33: "Once, change one of your dice to any face, then discard this card.",
    # Poison Quills
    34: "If you resolve at least three 2s, add two smashes.",
    # Poison Spit
    35: (
        "Each monster you smash gets a Poison token. Poisoned monsters lose 1♥ per token at the end"
        " of their own turns. A heart die can remove a token instead of healing 1♥."
    ),
    # Psychic Probe
    36: (
        "After another monster's final roll, you may reroll one of its dice. If that reroll shows a"
        " heart, discard Psychic Probe."
    ),
    # Rapid Healing
    37: "Pay 2⚡ to gain 1♥, at any moment, including to avoid dropping to 0.",
    # Regeneration
    38: "Each time you gain ♥, gain 1♥ more.",
    # Rooting for the Underdog
    39: "If you alone have the fewest ★, gain 1★.",
    # Shrink Ray
    40: (
        "Each monster you smash gets a Shrink Ray token. At the start of their turn they roll 1 die"
        " fewer per token. A heart die can remove a token instead of healing 1♥."
    ),
    # Smoke Cloud
    41: (
        "Comes with 3 Smoke tokens. Spend one to get an extra reroll. Discard the card when none "
        "are left."
    ),
    # Solar Powered
    42: "If you have 0⚡, gain 1⚡.",
    # Spiked Tail
    43: "If your roll has at least one smash, add one more smash.",
    # Stretchy
    44: "Pay 2⚡ to change one of your dice to any face.",
    # Energy Drink
    45: "Pay 1⚡ for an extra reroll.",
    # Urbavore
    46: (
        "Gain 1★ more when you start your turn in Tokyo. While in Tokyo, if your roll has at least "
        "one smash, add one more."
    ),
    # We're Only Making It Stronger!
    47: "Whenever one hit costs you 2♥ or more, gain 1⚡.",
    # Wings
    48: "Pay 2⚡: you lose no ♥ for the rest of this turn.",
    # Apartment Building
    101: "+3★.",
    # Commuter Train
    102: "+2★.",
    # Corner Store
    103: "+1★.",
    # Death From Above
    104: "+2★, and you take control of Tokyo; everyone in Tokyo must leave.",
    # Energize
    105: "+9⚡.",
    # Evacuation Orders
    106: "Every other monster loses 5★.",
    # Evacuation Orders
    107: "Every other monster loses 5★.",
    # Flame Thrower
    108: "Every other monster loses 2♥.",
    # Frenzy
    109: "Take another turn after this one.",
    # Gas Refinery
    110: "+2★, and every other monster loses 3♥.",
    # Heal
    111: "+2♥.",
    # High Altitude Bombing
    112: "Every monster, you included, loses 3♥.",
    # Jet Fighters
    113: "+5★ and you lose 4♥.",
    # National Guard
    114: "+2★ and you lose 2♥.",
    # Nuclear Power Plant
    115: "+2★ and +3♥.",
    # Skyscraper
    116: "+4★.",
    # Tank
    117: "+4★ and you lose 3♥.",
    # Vast Storm
    118: "+2★; every other monster loses 1⚡ for each 2⚡ it has.",
}


def card_text(card: int) -> str:
    """The effect of card ``card`` in plain words ("" for an unknown id)."""
    return CARD_TEXT.get(card, "")
