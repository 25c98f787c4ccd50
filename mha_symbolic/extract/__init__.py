"""extract: documents (Markdown, text, LaTeX, notebooks, HTML) -> draft specs with claims."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mha_symbolic.extract.draft import Draft
from mha_symbolic.extract.draft_toml import to_toml
from mha_symbolic.extract.finder import unread_notes
from mha_symbolic.extract.formats import FORMATS, read_document
from mha_symbolic.extract.reprints import reprint_drafts
from mha_symbolic.extract.run import NO_NUMBERS, drafts
from mha_symbolic.extract.single_precision import mark_float32
from mha_symbolic.language.extract_phrases import phrase
from mha_symbolic.spec.attention import AttentionSpec
from mha_symbolic.spec.input_files import parse_toml

__all__ = ["FORMATS", "NO_NUMBERS", "Extraction", "extract", "extract_all"]


@dataclass(frozen=True)
class Extraction:
    """One worked example read from a document: its spec, the TOML, the notes, the mapping
    (one line per value: the document's name -> the step key) and what its numbers say (one
    line per printed array: the relation that gives it, and how well it holds)."""

    spec: AttentionSpec
    toml: str
    notes: tuple[str, ...]
    mapping: tuple[str, ...]
    draft: Draft
    inferred: tuple[str, ...] = ()
    batch: dict[str, Any] | None = None  # a batched spec table (x of shape (B, L, E))

    @property
    def checkable(self) -> bool:
        return bool(self.spec.claims) or bool(self.batch and self.batch.get("claims"))

    @property
    def layout(self) -> str:
        """The layout the spec describes, in a few words ("fused, xWT, 4 tokens, E = 6, 2
        heads"; "3 tokens, Q, K and V given" for an example that starts past its inputs)."""
        spec = self.spec
        starts = {"qkv": "Q, K and V given", "scores": "scores given", "weights": "weights given"}
        width = f"E = {spec.query.cols}" if spec.has_inputs else starts.get(spec.stage, "no input")
        heads = f"{spec.heads} head{'s' if spec.heads > 1 else ''}"
        return f"{spec.layout}, {spec.convention}, {spec.query.rows} tokens, {width}, {heads}"


def extract_all(
    source: str | Path, kind: str | None = None, reprints: bool = False
) -> list[Extraction]:
    """Every worked example of a document (a path, or the text itself when it has a newline);
    ``reprints``: also a copy of an example claiming the numbers it prints again digit for
    digit, as ``check DOC`` judges them (``extract`` writes the examples only)."""
    document = read_document(source, kind)
    out = []
    found = drafts(document)
    for draft in [*found, *(reprint_drafts(document, found) if reprints else ())]:
        draft.notes.extend(unread_notes(document))
        mark_float32(draft, document)
        toml = to_toml(draft)
        # The spec is read back from the TOML written: what a user edits is what was checked.
        raw = parse_toml(toml, document.name)
        batch = raw if _batched(raw) else None
        spec = AttentionSpec.from_dict(_first_element(raw) if batch else raw, source=document.name)
        mapping = tuple(draft.mapping())
        notes, inferred = tuple(draft.all_notes), tuple(draft.inferred)
        out.append(Extraction(spec, toml, notes, mapping, draft, inferred, batch))
    return out


_BATCHED = ("x", "v")  # the inputs a draft gives as a batch (B, L, E)


def _batched(raw: dict[str, Any]) -> bool:
    """Whether the spec's x (or v) is a batch, (B, L, E): the checker splits it per element."""
    return any(_depth(raw.get(key)) == 3 for key in _BATCHED)


def _depth(value: Any) -> int:
    return 1 + _depth(value[0]) if isinstance(value, list) and value else 0


def _first_element(raw: dict[str, Any]) -> dict[str, Any]:
    """The spec of the first batch element, without the claims (they name their element)."""
    first = {key: raw[key][0] for key in _BATCHED if _depth(raw.get(key)) == 3}
    return {**{k: v for k, v in raw.items() if k != "claims"}, **first}


def extract(source: str | Path, kind: str | None = None) -> tuple[AttentionSpec, list[str]]:
    """The spec of a document's (first) worked example, and notes on what was read or guessed."""
    found = extract_all(source, kind)
    notes = list(found[0].notes) + list(found[0].mapping)
    if len(found) > 1:
        notes.insert(0, phrase("examples", count=len(found)))
    return found[0].spec, notes
