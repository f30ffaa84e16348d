"""Power Up!'s Evolution decks of the six base monsters.

This module holds the decks of Space Penguin, Alienoid, Cyber Kitty, The King, Giga Zaur and Meka
Dragon, 8 cards each. These monsters are numbered 1 to 6 in that order. A card's id is 1000 plus
the monster's number times ten plus 1 to 8. The cards' effects are not built yet: a game cannot
play them.
"""

from __future__ import annotations

from kotp2p.rules.card import PERMANENT, POWER_UP, TEMPORARY, Card

CARDS: tuple[Card, ...] = (
    # --- Space Penguin ---------------------------------------------------------------------
    Card(id=1011, name="Freeze Ray", cost=0, kind=PERMANENT, timing="any time",
         text="When you wound a monster in Tokyo, it takes this card until the end of its next "
              "turn. At the start of that turn, name a die face: it does nothing for that monster.",
         box=POWER_UP, monster="Space Penguin"),
    Card(id=1012, name="Miraculous Catch", cost=0, kind=PERMANENT, timing="your buy step",
         text="Once per turn, shuffle the discard pile and reveal a card at random. You may buy "
              "it for 1⚡ less than its cost.",
         box=POWER_UP, monster="Space Penguin"),
    Card(id=1013, name="Deep Dive", cost=0, kind=TEMPORARY, timing="any time",
         text="Look at the top 3 cards of the Power deck. Put one in front of you for free and "
              "the other two at the bottom of the deck.",
         box=POWER_UP, monster="Space Penguin"),
    Card(id=1014, name="Cold Wave", cost=0, kind=TEMPORARY, timing="any time",
         text="Until your next turn, every other monster rolls 1 die fewer.",
         box=POWER_UP, monster="Space Penguin"),
    Card(id=1015, name="Encased in Ice", cost=0, kind=PERMANENT,
         timing="right before your dice resolution",
         text="Pay 1⚡ to freeze one of your dice. It keeps its face until your next turn "
              "starts, and nobody can reroll or change it.",
         box=POWER_UP, monster="Space Penguin"),
    Card(id=1016, name="Blizzard", cost=0, kind=TEMPORARY, timing="during your turn",
         text="Until your next turn starts, every other monster rolls only once and cannot "
              "yield Tokyo.",
         box=POWER_UP, monster="Space Penguin"),
    Card(id=1017, name="Black Diamond", cost=0, kind=PERMANENT, timing="any time",
         text="Gain 1★ more when you enter Tokyo, and when you choose to stay in Tokyo after "
              "being wounded.",
         box=POWER_UP, monster="Space Penguin"),
    Card(id=1018, name="Icy Reflection", cost=0, kind=PERMANENT,
         timing="when another Permanent Evolution is in play",
         text="This card becomes a copy of a Permanent Evolution in front of any monster, as if "
              "you had played that card.",
         box=POWER_UP, monster="Space Penguin"),
    # --- Alienoid --------------------------------------------------------------------------
    Card(id=1021, name="Alien Scourge", cost=0, kind=TEMPORARY, timing="any time",
         text="Gain 2★.",
         box=POWER_UP, monster="Alienoid"),
    Card(id=1022, name="Precision Field Support", cost=0, kind=TEMPORARY, timing="any time",
         text="Turn over Power cards from the deck until one is a Keep card that costs 4⚡ or "
              "less. Put it in front of you for free and discard the others.",
         box=POWER_UP, monster="Alienoid"),
    Card(id=1023, name="Anger Batteries", cost=0, kind=TEMPORARY, timing="any time",
         text="Gain 1⚡ for each ♥ you lost this turn.",
         box=POWER_UP, monster="Alienoid"),
    Card(id=1024, name="Adapting Technology", cost=0, kind=PERMANENT, timing="any time",
         text="This card holds 3 tokens. On your turn, remove one to sweep the 3 face-up Power "
              "cards for free; discard this card when none is left.",
         box=POWER_UP, monster="Alienoid"),
    Card(id=1025, name="Funny Looking But Dangerous", cost=0, kind=PERMANENT, timing="any time",
         text="If you resolve at least three 2s, every other monster loses 1♥.",
         box=POWER_UP, monster="Alienoid"),
    Card(id=1026, name="Exotic Arms", cost=0, kind=PERMANENT, timing="any time",
         text="Before rolling, you may put 2⚡ on this card. If you then resolve 3 or more ✸, "
              "take them back and each monster you smash loses 2♥ more; if not, lose them and 2♥.",
         box=POWER_UP, monster="Alienoid"),
    Card(id=1027, name="Mothership Support", cost=0, kind=PERMANENT, timing="during your turn",
         text="Once per turn, pay 1⚡ to gain 1♥.",
         box=POWER_UP, monster="Alienoid"),
    Card(id=1028, name="Superior Alien Technology", cost=0, kind=PERMANENT, timing="any time",
         text="You may buy Keep cards for half their cost, rounded up, and put a UFO token on "
              "each, 3 at most. At the start of your turn, roll a die for each: on ✸, discard it.",
         box=POWER_UP, monster="Alienoid"),
    # --- Cyber Kitty -----------------------------------------------------------------------
    Card(id=1031, name="Nine Lives", cost=0, kind=TEMPORARY, timing="when you reach 0♥",
         text="You are not eliminated: discard all your cards, lose all your ⚡ and ★, and leave "
              "Tokyo. Then go on playing with 9♥ and 9★.",
         box=POWER_UP, monster="Cyber Kitty"),
    Card(id=1032, name="Mega Purr", cost=0, kind=TEMPORARY, timing="any time",
         text="Each other monster gives you 1⚡ or 1★, as it chooses.",
         box=POWER_UP, monster="Cyber Kitty"),
    Card(id=1033, name="Electro-Scratch", cost=0, kind=TEMPORARY, timing="any time",
         text="Every other monster loses 1♥.",
         box=POWER_UP, monster="Cyber Kitty"),
    Card(id=1034, name="Cat Nip", cost=0, kind=TEMPORARY, timing="before your turn starts",
         text="This turn you roll only once, and every result counts double: ★ from numbers, "
              "♥, ⚡ and ✸.",
         box=POWER_UP, monster="Cyber Kitty"),
    Card(id=1035, name="Play with Your Food", cost=0, kind=PERMANENT, timing="any time",
         text="When you would make a monster in Tokyo lose 2♥ or more, you may make it lose 2♥ "
              "fewer and take 1★ and 1⚡ from it instead.",
         box=POWER_UP, monster="Cyber Kitty"),
    Card(id=1036, name="Feline Motor", cost=0, kind=PERMANENT,
         timing="during another monster's enter-Tokyo step",
         text="If a spot in Tokyo is free and you started the turn outside Tokyo, you enter "
              "Tokyo instead of the monster whose turn it is.",
         box=POWER_UP, monster="Cyber Kitty"),
    Card(id=1037, name="Mouse Hunter", cost=0, kind=PERMANENT, timing="any time",
         text="If you resolve at least one 1, gain 1★.",
         box=POWER_UP, monster="Cyber Kitty"),
    Card(id=1038, name="Meow Missile", cost=0, kind=PERMANENT, timing="any time",
         text="If you resolve at least one 1, add one ✸ to your roll.",
         box=POWER_UP, monster="Cyber Kitty"),
    # --- The King --------------------------------------------------------------------------
    Card(id=1041, name="Monkey Rush", cost=0, kind=TEMPORARY,
         timing="during another monster's enter-Tokyo step",
         text="When the monster in Tokyo leaves it or is eliminated, you take control of Tokyo "
              "instead of the monster whose turn it is.",
         box=POWER_UP, monster="The King"),
    Card(id=1042, name="Simian Scamper", cost=0, kind=TEMPORARY,
         timing="when you are wounded in Tokyo",
         text="Yield Tokyo: you lose no ♥ from this attack, and you cannot lose ♥ for the rest "
              "of the turn.",
         box=POWER_UP, monster="The King"),
    Card(id=1043, name="Jungle Frenzy", cost=0, kind=TEMPORARY,
         timing="at the end of your enter-Tokyo step",
         text="If you wounded a monster in Tokyo and did not take control of Tokyo, take another "
              "turn after this one.",
         box=POWER_UP, monster="The King"),
    Card(id=1044, name="Giant Banana", cost=0, kind=TEMPORARY, timing="any time",
         text="Gain 2♥.",
         box=POWER_UP, monster="The King"),
    Card(id=1045, name="Chest Thumping", cost=0, kind=PERMANENT, timing="any time",
         text="You may force each monster you wound to yield Tokyo.",
         box=POWER_UP, monster="The King"),
    Card(id=1046, name="Alpha Male", cost=0, kind=PERMANENT, timing="any time",
         text="Once per turn, gain 1★ when you wound at least one monster.",
         box=POWER_UP, monster="The King"),
    Card(id=1047, name="I Am the King!", cost=0, kind=PERMANENT, timing="any time",
         text="Gain 1★ more when you take control of Tokyo, and when you start your turn in "
              "Tokyo.",
         box=POWER_UP, monster="The King"),
    Card(id=1048, name="Twas Beauty Killed the Beast", cost=0, kind=PERMANENT,
         timing="while you are in Tokyo",
         text="Gain 1★ at the end of each monster's turn, yours too. If you leave Tokyo, discard "
              "this card and lose all your ★.",
         box=POWER_UP, monster="The King"),
    # --- Giga Zaur -------------------------------------------------------------------------
    Card(id=1051, name="Detachable Tail", cost=0, kind=TEMPORARY, timing="when you would lose ♥",
         text="You cannot lose ♥ for the rest of the turn.",
         box=POWER_UP, monster="Giga Zaur"),
    Card(id=1052, name="Radioactive Waste", cost=0, kind=TEMPORARY, timing="any time",
         text="Gain 2⚡ and 1♥.",
         box=POWER_UP, monster="Giga Zaur"),
    Card(id=1053, name="Primal Bellow", cost=0, kind=TEMPORARY, timing="any time",
         text="Every other monster loses 2★.",
         box=POWER_UP, monster="Giga Zaur"),
    Card(id=1054, name="Saurian Adaptability", cost=0, kind=TEMPORARY,
         timing="your change-dice step",
         text="Choose a face. Turn all your dice that show it to one other face of your choice.",
         box=POWER_UP, monster="Giga Zaur"),
    Card(id=1055, name="Defender of Tokyo", cost=0, kind=PERMANENT, timing="any time",
         text="When you start your turn in Tokyo, every other monster loses 1★.",
         box=POWER_UP, monster="Giga Zaur"),
    Card(id=1056, name="Heat Vision", cost=0, kind=PERMANENT, timing="any time",
         text="A monster whose ✸ wound you loses 1★.",
         box=POWER_UP, monster="Giga Zaur"),
    Card(id=1057, name="Gamma Breath", cost=0, kind=PERMANENT, timing="your change-dice step",
         text="Once per turn, change one of your dice to ✸.",
         box=POWER_UP, monster="Giga Zaur"),
    Card(id=1058, name="Tail Sweep", cost=0, kind=PERMANENT, timing="your change-dice step",
         text="Once per turn, change one of your dice to 1 or 2.",
         box=POWER_UP, monster="Giga Zaur"),
    # --- Meka Dragon -----------------------------------------------------------------------
    Card(id=1061, name="Mecha Blast", cost=0, kind=TEMPORARY,
         timing="during your dice resolution",
         text="This turn, each monster your ✸ wound loses 2♥ more.",
         box=POWER_UP, monster="Meka Dragon"),
    Card(id=1062, name="Destructive Analysis", cost=0, kind=TEMPORARY,
         timing="during your dice resolution",
         text="Gain 1⚡ for each ✸ you rolled this turn.",
         box=POWER_UP, monster="Meka Dragon"),
    Card(id=1063, name="Programmed to Destroy", cost=0, kind=PERMANENT, timing="any time",
         text="Each time another monster drops to 0♥, gain 3★ and 2⚡.",
         box=POWER_UP, monster="Meka Dragon"),
    Card(id=1064, name="Tune-Up", cost=0, kind=TEMPORARY,
         timing="before your turn starts, outside Tokyo",
         text="Skip your turn and gain 4♥ and 2⚡.",
         box=POWER_UP, monster="Meka Dragon"),
    Card(id=1065, name="Breath of Doom", cost=0, kind=PERMANENT, timing="any time",
         text="When you make a monster in Tokyo lose ♥, every other monster outside Tokyo "
              "loses 1♥.",
         box=POWER_UP, monster="Meka Dragon"),
    Card(id=1066, name="Lightning Armor", cost=0, kind=PERMANENT, timing="any time",
         text="When a monster makes you lose ♥, you may roll one die per ♥ lost. That monster "
              "loses 1♥ for each ✸ rolled.",
         box=POWER_UP, monster="Meka Dragon"),
    Card(id=1067, name="Claws of Steel", cost=0, kind=PERMANENT, timing="any time",
         text="On your turn, a monster you make lose 3♥ or more loses 1♥ more.",
         box=POWER_UP, monster="Meka Dragon"),
    Card(id=1068, name="Target Acquired", cost=0, kind=PERMANENT, timing="any time",
         text="When a monster wounds you, you may give it the Target token. The monster with the "
              "token loses 1♥ more each time you make it lose ♥.",
         box=POWER_UP, monster="Meka Dragon"),
)

DECKS: dict[str, tuple[int, ...]] = {
    m: tuple(c.id for c in CARDS if c.monster == m)
    for m in ("Space Penguin", "Alienoid", "Cyber Kitty", "The King", "Giga Zaur", "Meka Dragon")
}
"""Each monster's 8 Evolution card ids, in id order."""
