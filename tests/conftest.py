"""What every test shares: a page 100 columns wide, whatever terminal runs the tests (the
text formats fit the terminal's width, and the goldens are written at 100), and no pager (a
test that pages sets its own), and no plain progress line into a captured stream: on a loaded
machine a command that takes 1 s of processor time runs past the 5 s after which a log gets
one, and a test comparing standard error would see it (tests of progress set their own)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _hundred_columns_and_no_pager(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("PAGER", "cat")
    monkeypatch.setenv("MHA_SYMBOLIC_PROGRESS_EVERY", "86400")
