"""The seventh batch of held-out documents, continued. See tests/corpus/heldout_judge7.py."""

from __future__ import annotations

from tests.corpus.model import Doc

JUDGE_DOCS_7C: list[Doc] = []
