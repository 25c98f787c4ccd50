"""What every test shares: a page 100 columns wide, whatever terminal runs the tests (the
text formats fit the terminal's width, and the goldens are written at 100), and no pager (a
test that pages sets its own)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _hundred_columns_and_no_pager(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("PAGER", "cat")
