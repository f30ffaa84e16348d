"""Power Up!'s Evolution decks of the six other monsters of the Monster Box.

This module holds the decks of Boogie Woogie, Pumpkin Jack, King Kong, Pandakaï, Cyber Bunny and
Kraken, 8 cards each. Their numbers are 7, 8, 11, 13, 14 and 15 in that order. A card's id is 1000
plus the monster's number times ten plus 1 to 8. The cards' effects are not built yet: a game
cannot play them.
"""

from __future__ import annotations

from kotp2p.rules.card import GIFT, PERMANENT, POWER_UP, TEMPORARY, Card

CARDS: tuple[Card, ...] = (
    # --- Boogie Woogie ---------------------------------------------------------------------
    Card(id=1071, name="Boo!", cost=0, kind=TEMPORARY,
         timing="when a wounded monster stays in Tokyo",
         text="That monster must yield Tokyo. In your buy step, you may pay 1⚡ to take this card "
              "back from your discard pile.",
         box=POWER_UP, monster="Boogie Woogie"),
    Card(id=1072, name="Worst Nightmare", cost=0, kind=GIFT, timing="when you wound a monster",
         text="At the start of your turn, give 1⚡ to this card's owner or lose 1♥.",
         box=POWER_UP, monster="Boogie Woogie"),
    Card(id=1073, name="I Live Under Your Bed", cost=0, kind=GIFT,
         timing="when you wound a monster",
         text="You roll one die fewer.",
         box=POWER_UP, monster="Boogie Woogie"),
    Card(id=1074, name="Boogie Dance", cost=0, kind=PERMANENT, timing="any time",
         text="If you roll four of the same face, gain 1⚡ or 1♥.",
         box=POWER_UP, monster="Boogie Woogie"),
    Card(id=1075, name="Well of Shadow", cost=0, kind=TEMPORARY, timing="any time",
         text="Gain 2♥.",
         box=POWER_UP, monster="Boogie Woogie"),
    Card(id=1076, name="Worm Invaders", cost=0, kind=TEMPORARY, timing="any time",
         text="Every other monster loses 2♥.",
         box=POWER_UP, monster="Boogie Woogie"),
    Card(id=1077, name="Nightlife!", cost=0, kind=PERMANENT, timing="any time",
         text="Gain 1♥ when you enter Tokyo.",
         box=POWER_UP, monster="Boogie Woogie"),
    Card(id=1078, name="Dusk Ritual", cost=0, kind=TEMPORARY,
         timing="right after you buy a Keep card",
         text="Gain 2♥ and 2⚡.",
         box=POWER_UP, monster="Boogie Woogie"),
    # --- Pumpkin Jack ----------------------------------------------------------------------
    Card(id=1081, name="Detachable Head", cost=0, kind=GIFT, timing="when you wound a monster",
         text="Each time this card's owner wounds you, you lose 1♥ more.",
         box=POWER_UP, monster="Pumpkin Jack"),
    Card(id=1082, name="Ignis Fatus", cost=0, kind=GIFT, timing="when you wound a monster",
         text="You get one roll fewer each turn.",
         box=POWER_UP, monster="Pumpkin Jack"),
    Card(id=1083, name="Smashing Pumpkin", cost=0, kind=TEMPORARY, timing="any time",
         text="Every monster with 12★ or more loses 2♥.",
         box=POWER_UP, monster="Pumpkin Jack"),
    Card(id=1084, name="Trick or Threat", cost=0, kind=PERMANENT, timing="any time",
         text="When you roll three 1s, each other monster gives you 1⚡ or loses 2♥.",
         box=POWER_UP, monster="Pumpkin Jack"),
    Card(id=1085, name="Bobbing for Apples", cost=0, kind=PERMANENT, timing="any time",
         text="Once per turn, you may buy a Power card for 2⚡ less. If the card that replaces it "
              "has an odd cost, discard the card you bought and get your ⚡ back.",
         box=POWER_UP, monster="Pumpkin Jack"),
    Card(id=1086, name="Feast of Crows", cost=0, kind=TEMPORARY, timing="any time",
         text="Each other monster gives you 1♥, 1★ or 1⚡, as it chooses.",
         box=POWER_UP, monster="Pumpkin Jack"),
    Card(id=1087, name="Scythe", cost=0, kind=PERMANENT, timing="any time",
         text="Put 1⚡ from the bank on this card when you play it and each time you eliminate "
              "a monster. Add one ✸ to your roll for each ⚡ on it.",
         box=POWER_UP, monster="Pumpkin Jack"),
    Card(id=1088, name="Candy!", cost=0, kind=TEMPORARY, timing="any time, or when you are wounded",
         text="Gain 1♥. Or, when you are wounded, lose no ♥ and give this card to the monster "
              "that wounded you.",
         box=POWER_UP, monster="Pumpkin Jack"),
    # --- King Kong -------------------------------------------------------------------------
    Card(id=1111, name="Son of Kong Kiko", cost=0, kind=TEMPORARY, timing="when you reach 0♥",
         text="Gain 4♥, leave Tokyo, and go on playing.",
         box=POWER_UP, monster="King Kong"),
    Card(id=1112, name="King of Skull Island", cost=0, kind=TEMPORARY,
         timing="when you yield Tokyo",
         text="Gain ♥ up to your maximum. Skip your next turn.",
         box=POWER_UP, monster="King Kong"),
    Card(id=1113, name="Islander Sacrifice", cost=0, kind=TEMPORARY, timing="any time",
         text="Roll 6 dice: gain 1⚡ per ⚡ and 1♥ per ♥, even in Tokyo. If fewer than 2 dice "
              "show ⚡ or ♥, take this card back.",
         box=POWER_UP, monster="King Kong"),
    Card(id=1114, name="Monkey Leap", cost=0, kind=TEMPORARY,
         timing="during another monster's enter-Tokyo step",
         text="If Tokyo is empty, you take control of it instead of that monster.",
         box=POWER_UP, monster="King Kong"),
    Card(id=1115, name="It Was Beauty Killed the Beast", cost=0, kind=PERMANENT, timing="any time",
         text="Take the Beauty card. If you don't hold it at the start of your turn, that turn you "
              "cannot reroll ✸ and you can wound only the monster that holds it.",
         box=POWER_UP, monster="King Kong"),
    Card(id=1116, name="Jet Club", cost=0, kind=PERMANENT, timing="any time",
         text="While you are in Tokyo, add one ✸ to your roll.",
         box=POWER_UP, monster="King Kong"),
    Card(id=1117, name="8th Wonder of the World", cost=0, kind=PERMANENT, timing="any time",
         text="If you roll four of the same face, gain 1★.",
         box=POWER_UP, monster="King Kong"),
    Card(id=1118, name="Climb Tokyo Tower", cost=0, kind=PERMANENT, timing="any time",
         text="While you are in Tokyo, gain 1★ for each 1 you roll. If you roll six 1s, you win "
              "the game.",
         box=POWER_UP, monster="King Kong"),
    # --- Pandakaï --------------------------------------------------------------------------
    Card(id=1131, name="Panda-Monium", cost=0, kind=TEMPORARY, timing="any time",
         text="Gain 6⚡. Every other monster gains 3⚡.",
         box=POWER_UP, monster="Pandakaï"),
    Card(id=1132, name="Eats, Shoots and Leaves", cost=0, kind=TEMPORARY,
         timing="when you enter Tokyo",
         text="Every monster outside Tokyo loses 2♥. Gain 1⚡, then leave Tokyo, and nobody "
              "takes your place.",
         box=POWER_UP, monster="Pandakaï"),
    Card(id=1133, name="Bam-Boozle", cost=0, kind=TEMPORARY,
         timing="when another monster buys a Power card",
         text="That monster pays nothing and cannot take that card this turn. Choose another card "
              "it can afford: it must buy that one.",
         box=POWER_UP, monster="Pandakaï"),
    Card(id=1134, name="Bear Necessities", cost=0, kind=TEMPORARY, timing="any time",
         text="Lose 1★, gain 2⚡ and 2♥.",
         box=POWER_UP, monster="Pandakaï"),
    Card(id=1135, name="Panda Express", cost=0, kind=PERMANENT, timing="any time",
         text="If your roll shows 1, 2, 3, ♥, ✸ and ⚡, gain 2★ and take another turn.",
         box=POWER_UP, monster="Pandakaï"),
    Card(id=1136, name="Bamboo Supply", cost=0, kind=PERMANENT, timing="any time",
         text="At the start of your turn, put 1⚡ from the bank on this card, or take all the ⚡ "
              "on it.",
         box=POWER_UP, monster="Pandakaï"),
    Card(id=1137, name="Pandarwinism: Survival of the Cutest", cost=0, kind=PERMANENT,
         timing="any time",
         text="If you roll three ♥, gain 1★, and 1★ more for each ♥ beyond three.",
         box=POWER_UP, monster="Pandakaï"),
    Card(id=1138, name="Yin & Yang", cost=0, kind=PERMANENT, timing="any time",
         text="Before your dice resolve, you may turn each die to its opposite face: 1 and 3, "
              "2 and ♥, ✸ and ⚡ swap.",
         box=POWER_UP, monster="Pandakaï"),
    # --- Cyber Bunny -----------------------------------------------------------------------
    Card(id=1141, name="Stroke of Genius", cost=0, kind=TEMPORARY, timing="any time",
         text="Gain 1⚡ for each ⚡ you have already gained this turn.",
         box=POWER_UP, monster="Cyber Bunny"),
    Card(id=1142, name="Emergency Battery", cost=0, kind=TEMPORARY, timing="any time",
         text="Gain 3⚡.",
         box=POWER_UP, monster="Cyber Bunny"),
    Card(id=1143, name="Rabbit's Foot", cost=0, kind=TEMPORARY, timing="any time",
         text="You cannot lose ♥ for the rest of the turn.",
         box=POWER_UP, monster="Cyber Bunny"),
    Card(id=1144, name="Heart of the Rabbit", cost=0, kind=TEMPORARY,
         timing="after another monster's last roll",
         text="Reroll one of its dice. When you take control of Tokyo, take this card back from "
              "your discard pile.",
         box=POWER_UP, monster="Cyber Bunny"),
    Card(id=1145, name="Secret Laboratory", cost=0, kind=PERMANENT, timing="any time",
         text="Power cards cost you 1⚡ less.",
         box=POWER_UP, monster="Cyber Bunny"),
    Card(id=1146, name="King of the Gizmo", cost=0, kind=PERMANENT, timing="any time",
         text="Gain 1★ for each Power card you buy.",
         box=POWER_UP, monster="Cyber Bunny"),
    Card(id=1147, name="Energy Sword", cost=0, kind=PERMANENT, timing="any time",
         text="Before rolling, you may pay 2⚡. If you did and you roll at least one ✸, add one "
              "✸ and gain 1⚡ for each ✸ rolled.",
         box=POWER_UP, monster="Cyber Bunny"),
    Card(id=1148, name="Electric Carrot", cost=0, kind=PERMANENT, timing="any time",
         text="While you are in Tokyo, each monster you wound loses 1♥ more unless it gives you "
              "1⚡.",
         box=POWER_UP, monster="Cyber Bunny"),
    # --- Kraken ----------------------------------------------------------------------------
    Card(id=1151, name="Healing Rain", cost=0, kind=TEMPORARY, timing="any time",
         text="Gain 2♥.",
         box=POWER_UP, monster="Kraken"),
    Card(id=1152, name="Destructive Wave", cost=0, kind=TEMPORARY, timing="when you enter Tokyo",
         text="Every other monster loses 2♥.",
         box=POWER_UP, monster="Kraken"),
    Card(id=1153, name="Cult Worshippers", cost=0, kind=TEMPORARY, timing="any time",
         text="Gain 1★ for each ♥ you gained this turn.",
         box=POWER_UP, monster="Kraken"),
    Card(id=1154, name="High Tide", cost=0, kind=TEMPORARY, timing="any time",
         text="For each ♥ you rolled, add one more ♥ to your roll.",
         box=POWER_UP, monster="Kraken"),
    Card(id=1155, name="Terror of the Deep", cost=0, kind=PERMANENT, timing="any time",
         text="Roll one die for each ♥ you lost this turn. Each ♥ rolled cancels the loss of 1♥.",
         box=POWER_UP, monster="Kraken"),
    Card(id=1156, name="Eater of Souls", cost=0, kind=PERMANENT, timing="any time",
         text="Gain 1♥ each time you enter Tokyo. While you own this card, your maximum is 12♥.",
         box=POWER_UP, monster="Kraken"),
    Card(id=1157, name="Sunken Temple", cost=0, kind=PERMANENT, timing="any time",
         text="Before rolling, if you are outside Tokyo, you may skip your turn to gain 3♥ and "
              "3⚡.",
         box=POWER_UP, monster="Kraken"),
    Card(id=1158, name="Mandibles of Dread", cost=0, kind=PERMANENT, timing="any time",
         text="Each monster you wound loses 1★.",
         box=POWER_UP, monster="Kraken"),
)

DECKS: dict[str, tuple[int, ...]] = {
    m: tuple(c.id for c in CARDS if c.monster == m)
    for m in ("Boogie Woogie", "Pumpkin Jack", "King Kong", "Pandakaï", "Cyber Bunny", "Kraken")
}
"""Each monster's 8 Evolution card ids, in id order."""
