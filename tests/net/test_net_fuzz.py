"""Ten thousand inputs of the mutation fuzzer (``scripts/fuzz`` runs it for a million): no
reader of peer or file bytes crashes or hangs on any input."""

from __future__ import annotations

from tests.net.fuzzing import HANG, Fuzzer


def test_a_short_fuzz_finds_no_crash_and_no_hang() -> None:
    # A fixed count, not a time budget: every run tries the same inputs on any machine.
    # scripts/fuzz runs the long fuzz.
    report = Fuzzer(seed=2).run(inputs=10_000)
    assert report.crashes == [], report.summary()
    assert report.hangs == 0 and report.slowest[0] < HANG, report.summary()
    assert report.inputs == 10_000 and len(report.per_target) == 8, report.summary()
