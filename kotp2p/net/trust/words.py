"""The check words: a few words derived from ``game_id`` that players read aloud to each other.

The list holds 256 short, distinct, easy-to-say English words. Each word carries one byte.
"""

from __future__ import annotations

import hashlib

_WORD_TEXT = """
    acorn actor adobe agent album alley amber anchor angel ankle apple apron arena arrow aspen
    atlas attic audio autumn avenue bacon badge bagel baker bamboo banjo barley barrel basil basket
    beacon beaver bench berry bicycle bishop blanket blossom bonnet border bottle bouquet bracket
    breeze brick bridge bronze brook bubble bucket buffalo bugle bundle butter cabin cactus camel
    candle canoe canyon carbon carpet carrot castle cedar cello chalk cherry chess cider circus
    citrus clover cobalt cocoa comet copper coral cotton cousin coyote crayon cricket crystal
    cupcake curtain cymbal dahlia daisy dancer delta denim desert diamond dinner dolphin domino
    donkey dragon drum eagle easel echo eclipse elbow ember emerald engine falcon feather fennel
    ferry fiddle fig flame flute forest fossil fountain fox galaxy garden garlic gazelle geyser
    ginger glacier globe goblet gopher granite grape gravel guitar hammer harbor harvest hazel
    helmet heron hollow honey horizon igloo indigo island ivory jacket jaguar jasmine jelly jewel
    jigsaw jungle kayak kernel kettle kitten koala ladder lagoon lantern lemon lilac linen lizard
    lobster locket lotus lumber magnet mango maple marble meadow melon meteor mint mitten monkey
    mosaic muffin museum napkin nectar needle nickel noodle nutmeg oasis ocean olive onion orbit
    orchid otter oyster paddle palace panda papaya parrot pasta peach pebble pelican pepper piano
    pickle pigeon pilot pine pirate planet plum pocket pony poppy potato prism puzzle quartz quill
    rabbit radish rainbow raven ribbon river robin rocket saddle salmon sandal satin scarf shadow
    silver sketch sparrow spider spinach sponge spruce squash starfish stone sugar summit sunset
    swan tablet teapot thistle tiger tulip
"""

WORDS: tuple[str, ...] = tuple(_WORD_TEXT.split())

assert len(WORDS) == 256 and len(set(WORDS)) == 256, "the word list must hold 256 distinct words"


def check_words(game_id: bytes, count: int = 4) -> tuple[str, ...]:
    """``count`` words derived from ``game_id``; equal words mean the same game."""
    digest = hashlib.sha256(b"kotp2p check words\x00" + game_id).digest()
    return tuple(WORDS[b] for b in digest[:count])
