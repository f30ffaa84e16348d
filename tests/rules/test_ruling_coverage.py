"""Every ruling point of the index (``tests/rules/rulings.py``) has a scenario test.

Scenario tests name the points they check with ``@pytest.mark.ruling("5.3", ...)``. This module
reads those marks from every test module of this package and counts a test for a point only if
its body asserts something. A point the engine cannot express (``NOT_EXPRESSIBLE``) must have
no test, so the list of exceptions stays true; a mark naming a point that is not in the index
is a typo and fails too.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import textwrap
from collections.abc import Callable
from typing import Any

import pytest

import tests.rules
from tests.rules.rulings import NOT_EXPRESSIBLE, RULINGS


def _asserts(fn: Callable[..., Any]) -> bool:
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    return any(
        isinstance(node, ast.Assert) or (isinstance(node, ast.Attribute) and node.attr == "raises")
        for node in ast.walk(tree)
    )


def collect_rulings() -> dict[str, list[str]]:
    """``point -> [test names]`` over every test marked ``ruling`` whose body asserts."""
    found: dict[str, list[str]] = {}
    for info in pkgutil.iter_modules(tests.rules.__path__):
        if not info.name.startswith("test_") or info.name == "test_ruling_coverage":
            continue
        module = importlib.import_module(f"tests.rules.{info.name}")
        for name, fn in vars(module).items():
            if not name.startswith("test_") or not callable(fn):
                continue
            marks = [m for m in getattr(fn, "pytestmark", []) if m.name == "ruling"]
            if marks and _asserts(fn):
                for mark in marks:
                    for point in mark.args:
                        found.setdefault(point, []).append(f"{module.__name__}.{name}")
    return found


COVERED = collect_rulings()


@pytest.mark.parametrize("point", sorted(set(RULINGS) - set(NOT_EXPRESSIBLE)))
def test_every_ruling_point_has_a_scenario_test(point: str) -> None:
    assert COVERED.get(point), f"no scenario test marked ruling({point!r}): {RULINGS[point]}"


def test_points_that_cannot_be_expressed_have_a_reason_and_no_test() -> None:
    assert set(NOT_EXPRESSIBLE) <= set(RULINGS)
    assert all(NOT_EXPRESSIBLE.values())
    tested = sorted(p for p in NOT_EXPRESSIBLE if p in COVERED)
    assert not tested, f"tested now, so drop them from NOT_EXPRESSIBLE: {tested}"


def test_every_ruling_mark_names_a_point_of_the_index() -> None:
    unknown = sorted(set(COVERED) - set(RULINGS))
    assert not unknown, f"ruling marks name points not in tests/rules/rulings.py: {unknown}"


def test_a_marked_test_without_an_assertion_does_not_count() -> None:
    @pytest.mark.ruling("1.1")
    def test_empty() -> None:
        pass

    @pytest.mark.ruling("1.1")
    def test_checks() -> None:
        assert RULINGS["1.1"]

    assert not _asserts(test_empty) and _asserts(test_checks)
