"""The bench's timing: medians with their spread, a note when the spread is too wide, one
BLAS thread while contenders run (no figure is asserted: times are measured, never tested)."""

from __future__ import annotations

import pytest

from mha_symbolic.bench.timing import Timing, machine, one_thread, timed_interleaved, too_wide


def test_a_timing_has_its_spread() -> None:
    assert Timing(2.0, 1.5, 2.5).spread == pytest.approx(0.5)
    assert Timing(0.0, 0.0, 0.0).spread == 0.0


def test_a_row_says_when_its_spread_is_too_wide_to_trust() -> None:
    steady = {"a": Timing(1.0, 0.9, 1.1), "b": Timing(2.0, 1.8, 2.2)}
    assert too_wide(steady) == ""
    noisy = {**steady, "c": Timing(1.0, 0.5, 1.7)}
    assert too_wide(noisy) == "  <- c spread 120%: too wide to trust, run again"


def test_every_contender_runs_once_per_repeat_in_turn() -> None:
    order: list[str] = []
    timings = timed_interleaved({"a": lambda: order.append("a"), "b": lambda: order.append("b")}, 3)
    assert order == ["a", "b"] * 3
    assert set(timings) == {"a", "b"}
    assert all(t.low <= t.median <= t.high for t in timings.values())


def test_blas_runs_on_one_thread_while_timed() -> None:
    np = pytest.importorskip("numpy")
    from threadpoolctl import threadpool_info

    np.ones((2, 2)) @ np.ones((2, 2))
    with one_thread():
        assert all(pool["num_threads"] == 1 for pool in threadpool_info())


def test_the_machine_line_says_cores_and_load() -> None:
    line = machine("at the start")
    assert line.startswith("machine: ") and "cores; load average " in line
    assert line.endswith(" at the start")


def test_whole_commands_are_timed_in_turn_with_their_cpu_and_wall() -> None:
    import sys

    from mha_symbolic.bench.commands import _timed

    commands = {"a": [sys.executable, "-c", "pass"], "b": [sys.executable, "-c", "pass"]}
    timings = _timed(commands, 2)
    assert set(timings) == {"a", "b"}
    for cpu, wall in timings.values():
        assert 0 <= cpu.low <= cpu.median <= cpu.high and 0 < wall.low <= wall.median <= wall.high


def test_a_median_comes_with_its_95_percent_interval() -> None:
    from mha_symbolic.bench.timing import median_interval

    # 31 values: the median's interval is the 10th to the 22nd smallest (k = 10, 0-based),
    # however far the few largest fell (a preempted sample)
    values = [float(v) for v in range(1, 29)] + [500.0, 900.0, 1000.0]
    assert median_interval(values) == Timing(16.0, 11.0, 21.0)
    assert median_interval([3.0, 1.0, 2.0]) == Timing(2.0, 1.0, 3.0)  # few: their range


def test_a_baseline_wider_than_its_column_still_leaves_the_target_apart() -> None:
    from mha_symbolic.bench.scale_targets import _row

    wide = "hand 21 us; before 1234.5 us; CPU -10.3 us, 1.01x; and more words"
    row = _row("compiled numpy (1, 2, 2, 2) float64", "1.0 us over raw", wide, "< 5 us", True)
    assert row.endswith(f"{wide}  < 5 us{' ' * 10} met")


def test_the_compiled_function_row_is_judged_on_cpu_time() -> None:
    pytest.importorskip("numpy")
    from mha_symbolic.bench.scale_targets import _overhead_rows

    (row,) = _overhead_rows(quick=True)
    assert row.startswith("  compiled numpy (1, 2, 2, 2) float64 ")
    figures, _, verdict = row.partition("  < 5 us, <= 1.2x  ")
    assert " us over raw, " in figures and "; CPU " in figures
    assert verdict.split("  <- ")[0] in ("met", "NOT met")
    note = verdict.partition("  <- ")[2]  # a spread named is a CPU median's, never the 'before'
    assert note == "" or (note.split()[1:3] == ["CPU", "median"] and "general" not in note)
