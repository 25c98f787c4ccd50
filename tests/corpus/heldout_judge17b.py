"""The seventeenth batch of held-out documents, continued (tests/corpus/heldout_judge17.py): the
pages in Japanese, Chinese and German."""

from __future__ import annotations

from tests.corpus.model import Doc

JUDGE_DOCS_17B: list[Doc] = []
