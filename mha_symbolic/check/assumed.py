"""The numbers a document assumes (a spec's ``[assumed]``): judged, and never counted wrong.

Each is compared with what the given inputs and weights give: consistent with them, different
from them (what they give instead), or not determined by them at all (a head whose
projections the document never gives: its output can be anything the assumption says).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mha_symbolic.check.verdicts import ClaimVerdict

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

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "assumed": self.verdict.claim.text,
            "given": self.verdict.exact_latex,
            "decimal": self.verdict.decimal,
            "status": self.status,
            "note": self.note,
        }


def judge(verdict: ClaimVerdict, head: int | None, omitted: frozenset[str], heads: int) -> Assumed:
    """An assumed value (``verdict``: judged like a claim) at a step of head ``head``."""
    if head is not None and heads > 1 and omitted >= _PROJECTIONS:
        note = (
            f"Assumed by the document; not determined by the given inputs: the document gives "
            f"no projections for head {head} (the setup line is what Q = K = V = X_{head} would "
            f"give), so it is not judged."
        )
        return Assumed(verdict, "undetermined", note)
    if verdict.holds:
        note = "Assumed by the document; consistent with the given inputs and weights."
        return Assumed(verdict, "consistent", note)
    given = verdict.decimal or verdict.exact_latex
    note = (
        f"Assumed by the document; the given inputs and weights give {given}, "
        f"not {verdict.claim.display}."
    )
    return Assumed(verdict, "differs", note)
