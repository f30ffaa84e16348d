"""The replica is built from member objects, not mixins: no class of the replica package
inherits from another class of kotp2p, and each member is reachable from the replica."""

from __future__ import annotations

import ast
from pathlib import Path

import kotp2p.net.replica as replica_package
from kotp2p.net.replica import Replica
from tests.net.harness import make_table
from tests.net.toy import ToyEngine

PACKAGE = Path(replica_package.__file__).parent


def _kotp2p_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("kotp2p"):
            names.update(alias.asname or alias.name for alias in node.names)
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
    return names


def test_no_class_of_the_replica_package_inherits_from_kotp2p() -> None:
    found = []
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text())
        ours = _kotp2p_names(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = [b.id for b in node.bases if isinstance(b, ast.Name) and b.id in ours]
                if bases:
                    found.append((path.name, node.name, bases))
    assert found == []


def test_the_members_share_the_containers_the_replica_shows() -> None:
    engine = ToyEngine()
    r = Replica(make_table(engine, 3, chain_length=16).genesis, engine)
    assert r.entries is r.timeline.entries
    assert r.cut is r.verdicts.cut and r.convicted is r.verdicts.convicted
    assert r.fork_base is r.forks.fork_base and r.moot is r.forks.moot
    assert r.frozen is r.ejections.frozen and r.votes is r.ejections.votes
    assert r.byes is r.kinds.byes
    r.own_move = None
    assert r.kinds.own_move is None
