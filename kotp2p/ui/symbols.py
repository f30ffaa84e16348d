"""The symbols the screen draws with: Unicode, or plain ASCII for terminals that lack the glyphs
(``--ascii``). Every symbol is one terminal cell wide, so the layout is the same in both sets."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Symbols:
    """One set of symbols; ``faces`` are the six die faces in the engine's order
    (1, 2, 3, energy, heart, smash)."""

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


UNICODE = Symbols(
    star="★", heart="♥", energy="⚡", faces=("1", "2", "3", "⚡", "♥", "✸"),
    kept="▲", active="▶", dead="✝", bar_full="█", bar_empty="░", rule="─",
)
ASCII = Symbols(
    star="*", heart="+", energy="$", faces=("1", "2", "3", "E", "H", "S"),
    kept="^", active=">", dead="x", bar_full="#", bar_empty=".", rule="-",
)


def symbols(ascii_only: bool) -> Symbols:
    """The ASCII set when ``ascii_only``, else the Unicode set."""
    return ASCII if ascii_only else UNICODE
