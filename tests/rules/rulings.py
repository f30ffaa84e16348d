"""The index of the card rulings the engine follows, one id per point, for ``@pytest.mark.ruling``.

Ids ``S.N`` number the points of the rulings reference (``cards/rulings.md`` in the design
documents) section by section: in section 1 the numbered steps of a turn (``1.2.1`` is the first
sub-step of step 2), elsewhere the top-level bullets in the order they are written (section 7:
its numbered list of extra-turn sources). Ids ``D.name`` are the decisions of the card reference
where sources disagree. Each summary is our own one-line reading of the point.

``NOT_EXPRESSIBLE`` lists the points no scenario test can express, with the reason: all of them
are about expansion content (Power Up!, Halloween, King Kong, Anubis, Cthulhu, Wickedness,
Mindbug) that the engine does not implement. The coverage test (``test_ruling_coverage``) demands
a test for every other point, and none for these.
"""

from __future__ import annotations

RULINGS: dict[str, str] = {
    # 1. The turn sequence
    "1.1": "before the start of a turn, per-turn records are reset (Wings immunity, used cards, the lab peek)",
    "1.2.1": "start of turn: Battery Monster pays 2 energy first",
    "1.2.2": "start of turn: Princess",
    "1.2.3": "start of turn: Nanobots",
    "1.2.4": "start of turn: Wickedness tiles",
    "1.2.5": "start of turn: Tokyo Tower bonuses",
    "1.2.6": "start of turn: Berserk",
    "1.2.7": "start of turn: Cold Wave expires",
    "1.2.8": "start of turn in Tokyo: +2 stars (2-player: +1 energy), then Urbavore +1 star",
    "1.2.9": "start of turn: Anubis curses",
    "1.2.10": "start of turn: the previous turn's dice are gone",
    "1.3": "after the start-of-turn effects: the paid Mimic re-target, then the first roll; "
    "the number of dice is fixed then (Shrink Ray, Freeze Time)",
    "1.4": "roll phase: re-roll any subset, kept dice included; Energy Drink and Smoke Cloud add a "
    "roll after the limit; Background Dweller re-rolls a 3 without limit",
    "1.5": "after the final roll, others who may alter the dice (Psychic Probe) are asked one at a "
    "time in seat order after the active monster",
    "1.6": "then the active monster's change-die step (Herd Culler, Plot Twist, Stretchy)",
    "1.7": "resolution in a fixed order: dice patterns, numbers, hearts, energy, smashes",
    "1.8": "smash damage, then the yield decisions, then held-back Jets damage, then Burrowing",
    "1.9": "then the active monster enters Tokyo",
    "1.10": "costume stealing and gift evolutions, then the Mutant form flip",
    "1.11": "buying with Opportunist windows, then selling (Metamorph)",
    "1.12": "the before-end-of-turn window (Anger Batteries, Cold Wave)",
    "1.13": "Metamorph sales come before the end-of-turn effects: they count for Energy Hoarder "
    "and against Solar Powered",
    "1.13.1": "end of turn: Freeze Ray returns",
    "1.13.2": "end of turn: Rooting for the Underdog",
    "1.13.3": "end of turn: Energy Hoarder (after Rooting for the Underdog)",
    "1.13.4": "end of turn: Herbivore",
    "1.13.5": "end of turn: Solar Powered",
    "1.13.6": "end of turn: Natural Selection",
    "1.13.7": "end of turn: poison damage, after every end-of-turn card",
    "1.14": "next player: extra turns are granted, the game-end check runs",
    # 2. Tokyo
    "2.1": "only a monster that smash damage actually wounded may yield; card damage never opens it",
    "2.2": "damage comes before the yield decision (a yielding monster keeps its wounds), except Jets",
    "2.3": "a monster at 0 in Tokyo is eliminated, never asked, and the attacker enters; "
    "It Has a Child! moves it out without a yield",
    "2.4": "every smashed monster in Tokyo (City and Bay) decides, one at a time clockwise from the active one",
    "2.5": "entering is compulsory into an empty place, City before Bay, with +1 star; "
    "when both places empty only the active monster enters, the City",
    "2.6": "Burrowing fires only on a voluntary yield, on the monster taking the place, before it enters",
    "2.7": "Death From Above puts out everyone else in Tokyo and its buyer ends in the City",
    "2.8": "Tokyo Bay: used with 5+ alive, closes at 4 (occupant to an empty City, no star); "
    "the Bay never moves up on a City yield; City and Bay never hit each other",
    # 3. Winning, elimination, scoring
    "3.1": "the end is checked only when a turn ends; the turn finishes, poison included",
    "3.2": "you must survive to win: 20 stars and 0 health in one turn is a loss",
    "3.3": "everyone eliminated at once: no winner",
    "3.4": "ranking: score capped at 20, then elimination order, one resolution shares a rank; "
    "survivors at 20 tie",
    "3.5": "eliminations of one resolution go in seat order from the active monster (the Bay then closes)",
    "3.6": "an eliminated monster's cards are discarded and Mimic tokens on them are lost",
    "3.7": "an active monster dying on its own turn skips the rest of it (enter, buy)",
    "3.8": "limits: stars 0..20, energy >= 0, health 0..max (10, 12 with Even Bigger, never more)",
    # 4. Damage
    "4.1": "damage resolves target by target in seat order after the dealer, dealer last; "
    "a target with a usable reaction is asked, others take it at once",
    "4.2": "protection before anything is subtracted: Wings, Armor Plating against exactly 1",
    "4.3": "damage increases (Devil, Target Acquired, ... Claws of Steel) in a fixed order",
    "4.4": "Camouflage: a die per pending damage, a heart cancels 1; each copy tries once more",
    "4.5": "extra damage (Fire Breathing) merges into a smash on a smashed target; otherwise a separate hit",
    "4.6": "after-damage effects: Eater of the Dead (revived victims too), We're Only Making It "
    "Stronger, resurrection, then eliminations",
    "4.7": "the per-turn damage record counts damage you dealt to yourself (Herbivore)",
    # 5. Dice count, smashes, tokens
    "5.1": "added smashes: Poison Quills before the at-least-one-smash check of Spiked Tail and "
    "Urbavore, Acid Attack and Burrowing after; real dice for patterns",
    "5.2": "Poison and Shrink tokens: to monsters actually damaged, one per copy, they outlive the "
    "card, poison hits at the end of its victim's own turn, removed by hearts outside Tokyo only",
    "5.3": "Healing Ray works from Tokyo on others, who cannot refuse and pay min(energy, 2 per heart)",
    "5.4": "Freeze Time: each extra turn one die fewer, cumulative; bought after 111 it still counts",
    # 6. Buying and cards
    "6.1": "purchase order: pay, Media-Friendly, the card is placed, the refill, its own effect, "
    "the Mimic choice, the Opportunist window",
    "6.2": "buy and sweep as often as affordable; a sweep opens windows for all three new cards; "
    "the discard pile refills the deck",
    "6.3": "Opportunists are asked clockwise from the active monster; Frenzy bought so plays right "
    "after this turn and play resumes after the original monster",
    "6.4": "the buy step is skipped when nothing is affordable",
    "6.5": "Metamorph sells at the printed cost in a step after buying",
    "6.6": "Mimic: any Keep card, own included; re-target for 1 energy; a copied Battery Monster "
    "is discarded when empty, a copied Smoke Cloud is not",
    "6.7": "Psychic Probe: once per turn per owner even with a Mimic copy; a heart discards both",
    "6.8": "Parasitic Tentacles: Keep cards only, the owner gets what was paid, Alien Origin applies",
    # 7. Extra turns, by priority, at most one per turn end
    "7.1": "Mindbug FRENZY consumable",
    "7.2": "Builders' Uprising",
    "7.3": "Freeze Time comes before Frenzy",
    "7.4": "Final Push",
    "7.5": "Frenzy",
    "7.6": "Panda Express",
    "7.7": "Jungle Frenzy",
    # 8. Two players
    "8.1": "2-player variant: energy instead of Tokyo stars, card stars unchanged, keyed on the "
    "starting player count",
    "8.2": "Fire Breathing has a single neighbour when only 2 monsters are alive",
    # Decisions where sources disagree (cards/README.md)
    "D.frenzy": "Frenzy's extra turn comes after the current turn finishes, end-of-turn effects included",
    "D.fire-breathing": "Fire Breathing needs a smash in the resolved roll (card smashes count); "
    "neighbours are the nearest live monsters left and right",
    "D.friend-of-children": "Friend of Children applies to Metamorph sales, not to Battery Monster",
    "D.regeneration": "with Healing Ray the healed monster's Regeneration applies, the healer's does not",
    "D.underdog": "Rooting for the Underdog only at the end of its owner's own turn",
    "D.it-has-a-child": "It Has a Child! leaves Tokyo, which is no yield: no Burrowing, no Jets",
    "D.at-least-one-smash": "Spiked Tail and Urbavore count real smashes and Poison Quills, not "
    "Acid Attack or Burrowing",
    "D.limits": "stars capped at 20, health at the maximum, energy unbounded, nothing below 0",
    "D.first-player": "the first player is found by the roll-off",
    "D.game-end": "the game ends with one monster alive at once, or at the end of a turn with a "
    "live monster at 20; several share the win; all eliminated together: nobody",
    "D.ranking": "winners, then survivors by stars, then later eliminations rank higher",
}

EXPANSION = "expansion content the engine does not implement"

NOT_EXPRESSIBLE: dict[str, str] = {
    "1.2.2": f"Princess is a Power Up! Evolution: {EXPANSION}",
    "1.2.3": f"Nanobots is a Power Up! Evolution: {EXPANSION}",
    "1.2.4": f"Wickedness tiles (Dark Edition): {EXPANSION}",
    "1.2.5": f"Tokyo Tower (King Kong): {EXPANSION}",
    "1.2.6": f"Berserk (Cthulhu): {EXPANSION}",
    "1.2.9": f"Anubis curses: {EXPANSION}",
    "1.10": f"costumes (Halloween) and gift/Mutant evolutions (Power Up!): {EXPANSION}",
    "1.12": f"the window only holds Power Up! Evolutions: {EXPANSION}",
    "1.13.1": f"Freeze Ray is a Power Up! Evolution: {EXPANSION}",
    "1.13.6": f"Natural Selection is a Power Up! Evolution: {EXPANSION}",
    "4.3": f"every damage increase listed is an expansion card or Evolution: {EXPANSION}",
    "7.1": f"Mindbug: {EXPANSION}",
    "7.2": f"Builders' Uprising (Anubis): {EXPANSION}",
    "7.4": f"Final Push (Wickedness tiles): {EXPANSION}",
    "7.6": f"Panda Express is a Power Up! Evolution: {EXPANSION}",
    "7.7": f"Jungle Frenzy is a Power Up! Evolution: {EXPANSION}",
}
