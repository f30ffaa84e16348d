"""Every Power card in the registry has scenario tests: one of its effect, one of an edge case.

Scenario tests name the cards they cover with ``@pytest.mark.card(id, ..., edge=...)``. This
module reads those marks from every test module of this package (so it works on its own, too)
and counts a test for a card only if it could fail for that card: its body asserts something
and its source (decorators included) names the card, by its notation slug.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pkgutil
import textwrap
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

import tests.rules
from kotp2p import rules
from kotp2p.rules.registry import SLUGS


def _test_modules() -> list[ModuleType]:
    out = []
    for info in pkgutil.iter_modules(tests.rules.__path__):
        if info.name.startswith("test_") and info.name != "test_card_coverage":
            out.append(importlib.import_module(f"tests.rules.{info.name}"))
    return out


def _asserts(fn: Callable[..., Any]) -> bool:
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    return any(
        isinstance(node, ast.Assert)
        or (isinstance(node, ast.Attribute) and node.attr == "raises")
        for node in ast.walk(tree)
    )


def _names(fn: Callable[..., Any], card: int) -> bool:
    """True if the test's source mentions the card by its slug (a copy's slug counts)."""
    source = inspect.getsource(fn).lower()
    slug = SLUGS[card]
    return slug in source or slug.rstrip("0123456789") in source


def collect_coverage() -> dict[tuple[int, bool], list[str]]:
    """``(card, edge) -> [test names]`` over every marked test that can fail for that card."""
    found: dict[tuple[int, bool], list[str]] = {}
    for module in _test_modules():
        for name, fn in vars(module).items():
            if not name.startswith("test_") or not callable(fn):
                continue
            marks = [m for m in getattr(fn, "pytestmark", []) if m.name == "card"]
            if not marks or not _asserts(fn):
                continue
            for mark in marks:
                edge = bool(mark.kwargs.get("edge", False))
                for card in mark.args:
                    if card in rules.CARDS and _names(fn, card):
                        found.setdefault((card, edge), []).append(f"{module.__name__}.{name}")
    return found


@functools.cache
def coverage() -> dict[tuple[int, bool], list[str]]:
    """:func:`collect_coverage`, read once, by the worker that runs these tests."""
    return collect_coverage()


BUILT = sorted(c for c, card in rules.CARDS.items() if card.box != "power up" or card.hooks)
"""Every card a game can play. An Evolution card joins once its effect is built."""


@pytest.mark.parametrize("card", BUILT, ids=lambda c: SLUGS[c])
def test_every_card_has_an_effect_test_and_an_edge_case_test(card: int) -> None:
    name = rules.CARDS[card].name
    assert coverage().get((card, False)), f"no scenario test of {name}'s effect"
    assert coverage().get((card, True)), f"no scenario test of an edge case of {name}"


def test_the_registry_holds_the_66_base_cards_the_12_costumes_and_96_evolutions() -> None:
    base = [c for c in rules.CARDS.values() if c.box == "base"]
    assert len(base) == 66
    keep = [c for c in base if c.kind == rules.KEEP]
    assert len(keep) == 48 and len({c.name for c in keep}) == 47
    costumes = [c for c in rules.CARDS.values() if c.kind == rules.COSTUME]
    assert len(costumes) == 12 == len({c.name for c in costumes})
    evolutions = [c for c in rules.CARDS.values() if c.box == "power up"]
    assert len(evolutions) == 96 == len({c.name for c in evolutions}) and len(rules.CARDS) == 174
    for monster in rules.MONSTERS:
        deck = rules.evolution_deck(monster)
        assert len(deck) == 8, monster
        assert {rules.CARDS[c].kind for c in deck} <= {"temporary", "permanent", "gift"}


def test_a_test_without_an_assertion_or_naming_no_card_does_not_count() -> None:
    @pytest.mark.card(1)
    def test_empty() -> None:
        pass

    @pytest.mark.card(1)
    def test_unrelated() -> None:
        assert rules.CARDS[2].cost == 3

    assert not _asserts(test_empty)
    assert _asserts(test_unrelated) and not _names(test_unrelated, 1)
