"""Die faces and the scoring of number faces.

A die is a random value in ``0..5``. The order of faces is part of the randomness contract in
DESIGN.md: ``1, 2, 3, energy, heart, smash``.
"""

from __future__ import annotations

ONE, TWO, THREE, ENERGY, HEART, SMASH = range(6)
FACES = 6
FACE_CHARS = "123ehs"
FACE_NAMES = ("1", "2", "3", "energy", "heart", "smash")
BASE_DICE = 6
# 6 black dice and up to 3 more from cards: two Extra Heads and a Mimic copying one of them.
MAX_DICE = 9
BASE_ROLLS = 3


def count_faces(dice: tuple[int, ...]) -> list[int]:
    """How many dice show each face, indexed by face."""
    counts = [0, 0, 0, 0, 0, 0]
    for d in dice:
        counts[d] += 1
    return counts


def number_stars(counts: list[int]) -> int:
    """Stars from number faces: three of a kind scores its number, each extra die +1."""
    stars = 0
    for face in (ONE, TWO, THREE):
        c = counts[face]
        if c >= 3:
            stars += face + 1 + (c - 3)
    return stars


def format_dice(dice: tuple[int, ...]) -> str:
    """Dice as compact text, one character per die: ``'123ehs'``."""
    return "".join(FACE_CHARS[d] for d in dice)


def parse_dice(text: str) -> tuple[int, ...]:
    """Inverse of :func:`format_dice`.

    :raises ValueError: for a character that is not a face.
    """
    out = []
    for ch in text:
        i = FACE_CHARS.find(ch)
        if i < 0:
            raise ValueError(f"expected die faces among {FACE_CHARS!r}, found {ch!r}")
        out.append(i)
    return tuple(out)
