"""The style table: every screen element names a class, resolved here, in colour or monochrome.

Monochrome keeps emphasis with bold, underline and reverse video only. So nothing depends on
telling colours apart. ``NO_COLOR`` or ``--no-color`` selects it.
"""

from __future__ import annotations

from collections.abc import Mapping

from prompt_toolkit.styles import Style

COLOUR: dict[str, str] = {
    "title": "bold",
    "frame": "ansibrightblack",
    "tokyo": "bold ansired",
    "you": "bold ansicyan",
    "active": "reverse",
    "dead": "ansibrightblack",
    "star": "ansiyellow",
    "heart": "ansired",
    "energy": "ansigreen",
    "die": "bold",
    "die.kept": "bold reverse ansiyellow",
    "orange": "ansibrightred",
    "preview": "italic",
    "card": "bold ansimagenta",
    "card.costume": "ansicyan",
    "card.keep": "ansimagenta",
    "card.discard": "ansiyellow",
    "cost": "ansigreen",
    "log": "",
    "log.move": "bold",
    "log.dice": "",
    "log.event": "",
    "log.damage": "ansired",
    "log.heal": "ansigreen",
    "log.warn": "bold ansired",
    "log.turn": "bold ansiblue",
    "log.hit": "bold reverse ansired",
    "chat": "ansicyan",
    "footer": "reverse",
    "footer.key": "reverse bold ansiyellow",
    "footer.error": "reverse bold ansired",
    "waiting": "bold ansiyellow",
    "words": "italic",
    "hint": "ansibrightblack",
}
"""Colours by meaning: hearts and damage red, energy and healing green, stars yellow, the player's
own row cyan, Tokyo bold red, whose turn in reverse video. Halloween's dice are orange in the
box: the nearest of the sixteen colours, bright red, draws them. Monochrome draws them as ever.

Only the terminal's own sixteen colours are named, never a fixed shade. A terminal's theme picks
them to read well on its background, light or dark. Text with no colour of its meaning keeps the
terminal's own."""

MONO: dict[str, str] = {
    "title": "bold",
    "tokyo": "bold underline",
    "you": "bold",
    "active": "reverse",
    "dead": "",
    "die": "bold",
    "die.kept": "reverse",
    "preview": "italic",
    "card": "bold",
    "footer": "reverse",
    "footer.key": "reverse bold",
    "footer.error": "reverse bold underline",
    "waiting": "bold",
    "words": "italic",
    "log.warn": "bold",
    "log.move": "bold",
    "log.turn": "bold underline",
    "log.hit": "bold reverse",
}


def make_style(colour: bool) -> Style:
    """The prompt_toolkit style of the screen, in colour or monochrome."""
    table: Mapping[str, str] = COLOUR if colour else MONO
    return Style([(name, rule) for name, rule in table.items()])


def wants_colour(environ: Mapping[str, str], no_color_flag: bool = False) -> bool:
    """Colour unless ``--no-color`` or the ``NO_COLOR`` convention says no.

    Any non-empty value of ``NO_COLOR`` says no.
    """
    return not no_color_flag and not environ.get("NO_COLOR")
