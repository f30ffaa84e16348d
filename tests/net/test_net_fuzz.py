"""A few seconds of the mutation fuzzer (``scripts/fuzz`` runs it for a million inputs): no
reader of peer or file bytes crashes or hangs on any input."""

from __future__ import annotations

from tests.net.fuzzing import HANG, Fuzzer


def test_a_short_fuzz_finds_no_crash_and_no_hang() -> None:
    report = Fuzzer(seed=2).run(inputs=1_000_000, seconds=4.0)
    assert report.crashes == [], report.summary()
    assert report.hangs == 0 and report.slowest[0] < HANG, report.summary()
    assert report.inputs >= 500 and len(report.per_target) == 8, report.summary()
