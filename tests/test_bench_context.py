"""`bench --only scale --full-context`: the GPT-2 layer at its full context, measured in a
forked child, written as a row of the targets table (no figure is asserted: times are
measured, never tested)."""

from __future__ import annotations

import os
import re

import pytest

from mha_symbolic.arguments import build_parser
from mha_symbolic.bench.gpt2_context import context_rows
from mha_symbolic.bench.model_scale import measured_in_child
from mha_symbolic.bench.scale_targets import _row


def test_the_flag_is_opt_in() -> None:
    assert build_parser().parse_args(["bench", "--only", "scale"]).full_context is False
    args = build_parser().parse_args(["bench", "--only", "scale", "--full-context"])
    assert args.full_context is True


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="needs Linux's /proc")
def test_a_child_reports_its_time_and_its_peak() -> None:
    measured = measured_in_child(lambda: bytearray(200 * 2**20))  # 200 MB, touched
    assert measured is not None
    wall, cpu, peak = measured
    assert wall > 0 and cpu > 0
    assert 190 < peak < 400


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="needs Linux's /proc")
def test_the_quick_row_beside_its_target() -> None:
    pytest.importorskip("torch", reason="torch is optional (pip install 'mha-symbolic[torch]')")
    (row,) = list(context_rows(True, _row))
    pattern = (
        r"  GPT-2 layer L 64 causal, 50 digits +\d+\.\d s, peak [\d,]+ MB  CPU \d+\.\d s; "
        r"its 24,960 exponentials alone \d+\.\d s CPU +< 30 s, < 4 GB +(met|NOT met)"
    )
    assert re.fullmatch(pattern, row), row
