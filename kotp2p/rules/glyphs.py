"""How plain words show dice and amounts: ``1 2 3 ⚡ ♥ ✸`` and ``2★``.

The compact notation letters, ``123ehs``, belong to ``to_text`` and the action words, never to
plain words. A terminal without the symbols gets words from the screen's ASCII set, which
rewrites any text the engine wrote.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Glyphs:
    """One way of writing dice and amounts.

    ``faces`` are in die order: 1, 2, 3, energy, heart, smash. Each unit is a pair. Its first
    string follows 1, its second any other number."""

    faces: tuple[str, str, str, str, str, str]
    star: tuple[str, str]
    energy: tuple[str, str]
    heart: tuple[str, str]

    def dice(self, dice: tuple[int, ...]) -> str:
        """Dice separated by spaces: ``1 1 ✸ ⚡ 3 2``."""
        return " ".join(self.faces[d] for d in dice)

    def stars(self, n: int) -> str:
        """``n`` stars: ``2★``."""
        return f"{n}{self.star[n != 1]}"

    def energies(self, n: int) -> str:
        """``n`` energy: ``2⚡``."""
        return f"{n}{self.energy[n != 1]}"

    def hearts(self, n: int) -> str:
        """``n`` hearts of health: ``2♥``."""
        return f"{n}{self.heart[n != 1]}"


SYMBOLS = Glyphs(("1", "2", "3", "⚡", "♥", "✸"), ("★", "★"), ("⚡", "⚡"), ("♥", "♥"))
"""The default: die faces and units as symbols."""
