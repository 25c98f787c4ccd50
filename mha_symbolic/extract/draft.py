"""A draft spec as it is assembled: every value with where it came from and what else it could
have been, the placeholders for what the document does not give, and the notes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from mha_symbolic.language.extract_phrases import Phrase, code, named, phrase


@dataclass
class Value:
    """One value of the spec: its key, the value, where it came from, and a guess's alternatives."""

    key: str  # "heads", "x", "weights.w_q", or a step key in claims / assumed
    value: Any
    source: str  # "line 28: X = \\begin{bmatrix}...", or why it was chosen
    guess: str | None = None  # what else was possible, when this is a guess
    name: str = ""  # the name the document prints it under ("W_Q1", "softmax(...)")
    where: tuple[str, ...] = ()  # where each name was read ("line 12"), when it was


@dataclass
class Draft:
    """What one worked example of a document says, ready to become a spec."""

    document: str
    title: str
    values: list[Value] = field(default_factory=list)
    claims: list[Value] = field(default_factory=list)
    assumed: list[Value] = field(default_factory=list)
    placeholders: list[str] = field(default_factory=list)  # commented-out TOML lines
    notes: list[str] = field(default_factory=list)
    placing: list[str] = field(default_factory=list)  # notes of the last placing of claims
    shapes: list[str] = field(default_factory=list)  # shapes the document states, checked
    inferred: list[Phrase] = field(default_factory=list)  # what the numbers say, one per array
    # a claimed step printed again with the same digits: where its claim was read, the reprint
    repeats: list[tuple[str, Value]] = field(default_factory=list)
    # claims whose step depends on weights the page never gives: left out once chosen
    undecidable: list[str] = field(default_factory=list)

    def set(
        self,
        key: str,
        value: Any,
        source: str,
        guess: str | None = None,
        name: str = "",
        where: tuple[str, ...] = (),
    ) -> None:
        self.values = [v for v in self.values if v.key != key]
        self.values.append(Value(key, value, source, guess, name, where))

    def get(self, key: str, default: Any = None) -> Any:
        return next((v.value for v in self.values if v.key == key), default)

    def table(self, with_claims: bool = True) -> dict[str, Any]:
        """The spec as a dict for ``AttentionSpec.from_dict``."""
        out: dict[str, Any] = {"title": self.title}
        weights: dict[str, Any] = {}
        for value in self.values:
            if value.key.startswith("weights."):
                weights[value.key.split(".", 1)[1]] = value.value
            else:
                out[value.key] = value.value
        if weights:
            out["weights"] = weights
        if with_claims and self.claims:
            out["claims"] = {c.key: c.value for c in self.claims}
        if with_claims and self.assumed:
            out["assumed"] = {c.key: c.value for c in self.assumed}
        return out

    def mapping(self) -> list[str]:
        """One line per value: the document's name for it (where it was read) -> where it went."""
        lines: list[str] = []
        for group, values in (
            ("value", self.values),
            ("claim", self.claims),
            ("assumed", self.assumed),
        ):
            for value in values:
                if value.name:
                    lines.extend(_mapped(value, phrase(f"group.{group}")))
        return lines

    @property
    def all_notes(self) -> list[str]:
        return [*self.notes, *self.placing]


def _mapped(value: Value, group: Phrase) -> list[Phrase]:
    """``name (where) -> key``; a name per head (``WQ1, WQ2``) a line each."""
    names = [value.name] if isinstance(value.name, Phrase) else value.name.split(", ")
    sources = value.source.split("; ")
    wheres = value.where if len(value.where) == len(sources) else ()
    if len(names) > 1 and len(names) == len(sources):
        return [
            phrase(
                "map_head",
                name=code(n),
                where=wheres[i - 1] if wheres else s.split(":", 1)[0],
                group=group,
                key=code(value.key),
                head=i,
            )
            for i, (n, s) in enumerate(zip(names, sources), start=1)
        ]
    origin = value.where[0] if value.where else value.source.split(":", 1)[0]
    return [phrase("map", name=named(value.name), where=origin, group=group, key=code(value.key))]


def rows_text(rows: tuple[tuple[str, ...], ...]) -> str:
    """Printed entries as the checker reads them, digits kept: "[0.73, 0.27]" or "[[...], ...]"."""
    lines = ["[" + ", ".join(row) + "]" for row in rows]
    return lines[0] if len(lines) == 1 else "[" + ", ".join(lines) + "]"


_MINUS_INFINITY = re.compile(r"^[-−](?:inf(?:inity)?|∞|\\infty)$", re.I)


def minus_infinity(entry: str) -> bool:
    """Whether a printed entry is -inf (``-inf``, ``-Infinity``, ``−∞``, ``-\\infty``)."""
    return bool(_MINUS_INFINITY.match(entry.strip()))
