"""The numbers a document assumes (a spec's ``[assumed]``): judged, and never counted wrong.

Each is compared with what the given inputs and weights give: consistent with them, different
from them (what they give instead), or not determined by them at all (a head whose
projections the document never gives: its output can be anything the assumption says).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mha_symbolic.check.verdicts import ClaimVerdict
from mha_symbolic.language.check_phrases import Voice, phrase, voice

_PROJECTIONS = {"w_q", "w_k", "w_v"}
STATUSES = ("consistent", "differs", "undetermined")


@dataclass(frozen=True)
class Assumed:
    """One assumed number judged: ``status`` is one of STATUSES, ``note`` says it in words."""

    verdict: ClaimVerdict  # the assumed value judged as if it were a claim
    status: str
    note: str

    @property
    def key(self) -> str:
        return self.verdict.key

    def to_dict(self, words: Voice | None = None) -> dict[str, Any]:
        """Plain data (the status as it is; the note in ``words``' language)."""
        return {
            "key": self.key,
            "assumed": self.verdict.claim.text,
            "given": self.verdict.exact_latex,
            "decimal": self.verdict.decimal,
            "status": self.status,
            "note": (words or voice()).sentence(self.note),
        }


def judge(verdict: ClaimVerdict, head: int | None, omitted: frozenset[str], heads: int) -> Assumed:
    """An assumed value (``verdict``: judged like a claim) at a step of head ``head``."""
    if head is not None and heads > 1 and omitted >= _PROJECTIONS:
        note = phrase("assumed_notes.undetermined", head=head)
        return Assumed(verdict, "undetermined", note)
    if verdict.holds:
        return Assumed(verdict, "consistent", phrase("assumed_notes.consistent"))
    given = verdict.decimal or verdict.exact_latex
    note = phrase("assumed_notes.differs", given=given, claimed=verdict.claim.display)
    return Assumed(verdict, "differs", note)
