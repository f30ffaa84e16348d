"""The style table: every screen element names a class, resolved here, in colour or monochrome.

Monochrome keeps emphasis with bold, underline and reverse video only. So nothing depends on
telling colours apart. ``NO_COLOR`` or ``--no-color`` selects it.
"""

from __future__ import annotations

from collections.abc import Mapping

from prompt_toolkit.styles import Style

COLOUR: dict[str, str] = {
    "title": "bold",
    "frame": "#888888",
    "tokyo": "bold #ff5f5f",
    "you": "bold #5fd7ff",
    "active": "reverse",
    "dead": "#666666",
    "star": "#ffd700",
    "heart": "#ff5f87",
    "energy": "#5fff87",
    "die": "bold",
    "die.kept": "bold reverse #ffd700",
    "preview": "italic #aaaaaa",
    "card": "bold #d7afff",
    "card.keep": "#d7afff",
    "card.discard": "#ffaf5f",
    "cost": "#5fff87",
    "log": "",
    "log.move": "bold",
    "log.dice": "#aaaaaa",
    "log.event": "#d0d0d0",
    "log.warn": "bold #ff5f5f",
    "log.turn": "bold #87d7ff",
    "log.hit": "bold reverse #ff5f87",
    "chat": "#87d7ff",
    "footer": "reverse",
    "footer.key": "reverse bold #ffd700",
    "footer.error": "reverse bold #ff5f5f",
    "waiting": "bold #ffaf00",
    "words": "italic",
    "hint": "#aaaaaa",
}

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
