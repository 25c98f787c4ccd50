"""The page's load check, short: three pages editing built-in examples for a few seconds get
answers equal to the ones worked out beforehand in this process, and no error (its times are
printed by `python -m mha_symbolic.bench.page_load`, never asserted)."""

from __future__ import annotations

import argparse

from tests.web_server import need_web


def test_three_pages_editing_get_right_answers_and_no_error() -> None:
    need_web()
    from mha_symbolic.bench.page_load import Tally, run

    args = argparse.Namespace(
        clients=3, seconds=5.0, workers=2, examples="two-tokens,one-token", no_wait=False
    )
    tally, before, after = run(args)
    assert isinstance(tally, Tally)
    assert tally.errors == []
    assert tally.wrong == 0
    assert len(tally.answered) >= 3  # each page had at least its first edit answered
    assert before > 0 and after > 0
