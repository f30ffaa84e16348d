"""The symbols the screen draws with: Unicode, or plain ASCII for terminals that lack the glyphs.

``--ascii`` picks the ASCII set. Every symbol is one terminal cell wide, so the layout is the same
in both sets.

The ASCII set writes hearts, energy and smashes with the letters the dice show: ``H``, ``E`` and
``S``, and stars with ``*``. The board and the log use the same ones, so ``3H`` in the log is the
``H`` of the monster's line and of a die. Words would not fit the board's columns. ``+`` and
``$`` read as "or more" and as money.

Text written elsewhere comes with Unicode symbols. That text is the engine's narration, card
effects and messages. :meth:`Symbols.text` writes it in ASCII when the set is ASCII:

* Amounts and die faces take the set's symbols: ``2★`` becomes ``2*``, ``3♥`` becomes ``3H``.
* Punctuation becomes its nearest ASCII.
* Anything else becomes ``?``.

The screens pass free text through it before laying it out. A few symbols sit in fixed text. So
the application also passes every drawn fragment through :func:`ascii_cells`. That swaps one
character for one, so the layout holds.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TextIO

_CHARS = {"…": "...", "·": "-", "─": "-", "—": "-", "–": "-", "│": "|", "▲": "^", "▶": ">",
          "✝": "x", "█": "#", "░": ".", "’": "'", "‘": "'", "“": '"', "”": '"', "×": "x",
          "→": "->", "é": "e", "ï": "i"}


_SYMBOLS = {"★": "*", "♥": "H", "⚡": "E", "✸": "S"}
"""The ASCII set's star, heart, energy and smash, on the board and in the log alike."""
_CELLS = {**_SYMBOLS, "…": "~"}


def ascii_cells(text: str) -> str:
    """``text`` in ASCII, one character for each, so laid-out text keeps its columns."""
    if text.isascii():
        return text
    return "".join(c if c.isascii() else _CELLS.get(c) or _CHARS.get(c, "?")[0] for c in text)


def ascii_text(text: str) -> str:
    """``text`` in ASCII: symbols as the board writes them, punctuation as its nearest ASCII."""
    if text.isascii():
        return text
    return "".join(c if c.isascii() else _SYMBOLS.get(c) or _CHARS.get(c, "?") for c in text)


@dataclass(frozen=True)
class Symbols:
    """One set of symbols.

    ``faces`` are the six die faces in the engine's order: 1, 2, 3, energy, heart, smash.
    """

    star: str
    heart: str
    energy: str
    faces: tuple[str, str, str, str, str, str]
    kept: str
    active: str
    dead: str
    bar_full: str
    bar_empty: str
    rule: str
    ascii: bool = False

    def text(self, text: str) -> str:
        """Free text in this set: as it is for Unicode, with the ASCII symbols for the ASCII set.

        Free text is narration, card effects and messages.
        """
        return ascii_text(text) if self.ascii else text


UNICODE = Symbols(
    star="★", heart="♥", energy="⚡", faces=("1", "2", "3", "⚡", "♥", "✸"),
    kept="▲", active="▶", dead="✝", bar_full="█", bar_empty="░", rule="─",
)
ASCII = Symbols(
    star="*", heart="H", energy="E", faces=("1", "2", "3", "E", "H", "S"),
    kept="^", active=">", dead="x", bar_full="#", bar_empty=".", rule="-", ascii=True,
)


class AsciiWriter(io.TextIOBase):
    """A text stream that writes to ``out`` in ASCII, as :func:`ascii_text` does.

    The plain interface prints through it with ``--ascii``, so every line it prints is ASCII."""

    def __init__(self, out: TextIO) -> None:
        super().__init__()
        self._out = out

    def writable(self) -> bool:
        """Always: this stream only writes."""
        return True

    def write(self, text: str) -> int:
        """Write ``text`` in ASCII; the count is of the characters given."""
        self._out.write(ascii_text(text))
        return len(text)

    def flush(self) -> None:
        """Flush the stream written to."""
        self._out.flush()


def symbols(ascii_only: bool) -> Symbols:
    """The ASCII set when ``ascii_only``, else the Unicode set."""
    return ASCII if ascii_only else UNICODE
