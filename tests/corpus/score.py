"""Scoring `check` on the corpus: how many printed attention numbers it judges as the truth does.

    python -m tests.corpus.score dev        # a row per document, then the totals
    python -m tests.corpus.score heldout

The oracle (``oracle_verdicts``) judges each printed entry against its truth: right when within
half a unit of its last printed digit. The tool is run as a user would
(``python -m mha_symbolic check FILE --format json``); its claims are matched to the printed
arrays by their printed strings (see ``_match``).
"""

from __future__ import annotations

import importlib
import json
import re
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from tests.corpus.model import Doc, Printed
from tests.forked import fork_command

ROOT = Path(__file__).resolve().parents[1] / "data" / "corpus"
TIMEOUT = 60.0  # processor seconds a document may take: a guard against hangs, not a speed target
RIGHT = frozenset({"exact", "rounded", "within", "holds", "consistent", "assumed-consistent"})
WRONG = frozenset({"wrong", "differs"})
FOLLOWS = frozenset({"follows"})
_MINUS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-"})
_INFINITY = re.compile(r"\$?([-+]?)(?:\\infty|∞|inf(?:inity)?)\$?", re.IGNORECASE)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?inf")


# ------------------------------------------------------------------ the oracle
def normal(text: str) -> str:
    """A printed entry as compared: no whitespace, an ASCII minus, infinity spelled "inf"
    (a table's ``-\\infty`` and the claim's ``-inf`` are one printed entry)."""
    text = "".join(text.translate(_MINUS).split())
    infinite = _INFINITY.fullmatch(text)
    return f"{infinite.group(1)}inf" if infinite else text


def value_and_unit(text: str) -> tuple[float, float]:
    """The number an entry prints and half a unit of its last printed digit (0 when exact)."""
    text = normal(text)
    if re.fullmatch(r"[-+]?inf(inity)?", text, re.IGNORECASE):
        return float(text.lower().replace("infinity", "inf")), 0.0
    if "/" in text:
        return float(Fraction(text)), 0.0
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    scale = 10.0 ** int(exponent) if exponent else 1.0
    return float(text), 0.5 * 10.0**-decimals * scale


def entry_right(text: str, truth: float) -> bool:
    value, half = value_and_unit(text)
    if np.isinf(value) or np.isinf(truth):
        return bool(value == truth)
    return abs(truth - value) <= half + 1e-12


def truth_grid(printed: Printed, inputs: Any) -> np.ndarray | None:
    """The truth laid out as the printed rows (a batch's rows one after another)."""
    if printed.truth is None:
        return None
    array = np.asarray(printed.truth(inputs), dtype=np.float64)
    array = np.atleast_2d(array)
    return array.reshape(-1, array.shape[-1])


def shape_of(printed: Printed) -> tuple[int, int]:
    return len(printed.rows), len(printed.rows[0]) if printed.rows else 0


def oracle_verdicts(doc: Doc) -> list[list[list[str]] | None]:
    """Per Printed: "right", "wrong" or "follows" per entry (None without truth)."""
    out: list[list[list[str]] | None] = []
    for printed in doc.printed:
        bounds = truth_bounds(printed, doc.inputs)
        if bounds is None:
            out.append(None)
            continue
        low, high = bounds
        if low.shape != shape_of(printed):
            shapes = f"truth {low.shape} != printed {shape_of(printed)}"
            raise ValueError(f"{doc.file} {printed.label!r}: {shapes}")
        out.append(
            [
                [
                    _oracle(text, float(low[i, j]), float(high[i, j]), printed.follows)
                    for j, text in enumerate(row)
                ]
                for i, row in enumerate(printed.rows)
            ]
        )
    return out


def truth_bounds(printed: Printed, inputs: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """The least and greatest truth of each entry.

    An input NAME the document prints rounded (its exact value unknown) comes with an array
    "±NAME" of half its last digit: the truth is then taken over NAME moved within that
    margin (the corners of a few random sign patterns), so that a number the page rounds
    right is not called wrong for the rounding of its inputs."""
    grid = truth_grid(printed, inputs)
    if grid is None:
        return None
    margins = {name[1:]: m for name, m in inputs.items() if name.startswith("±")}
    if not margins:
        return grid, grid
    low, high = grid.copy(), grid.copy()
    rng = np.random.default_rng(0)
    for _ in range(_CORNERS):
        moved = dict(inputs)
        for name, margin in margins.items():
            moved[name] = inputs[name] + margin * rng.choice([-1.0, 1.0], inputs[name].shape)
        other = truth_grid(printed, moved)
        assert other is not None
        low, high = np.fmin(low, other), np.fmax(high, other)
    return low, high


_CORNERS = 24  # random corners of the inputs' rounding box


def _oracle(text: str, low: float, high: float, follows: bool) -> str:
    if entry_right(text, low) or entry_right(text, high) or _between(text, low, high):
        return "right"
    return "follows" if follows else "wrong"


def _between(text: str, low: float, high: float) -> bool:
    value, _ = value_and_unit(text)
    return bool(low <= value <= high)


# ------------------------------------------------------------------ the tool
@dataclass(frozen=True)
class Run:
    code: int | None  # None: timed out
    stdout: str
    stderr: str
    seconds: float

    @property
    def traceback(self) -> bool:
        return "Traceback (most recent call last)" in self.stderr


def run_check(path: Path, timeout: float = TIMEOUT) -> Run:
    """``mha-symbolic check PATH --format json`` in a forked child of this process (the package
    imported once for every document), stopped after ``timeout`` processor seconds."""
    with tempfile.TemporaryDirectory() as folder:
        cwd = Path(folder) / "run"
        cwd.mkdir()
        done = fork_command(["check", str(path), "--format", "json"], cwd, timeout=timeout)
    if done.code is None:
        return Run(None, done.stdout.decode("utf-8", "replace"), "timed out", done.seconds)
    return Run(done.code, done.stdout.decode("utf-8", "replace"), done.stderr, done.seconds)


def tool_claims(stdout: str) -> list[tuple[list[str], list[list[int]], list[str]]]:
    """(claimed strings, indices, verdicts) per claim of every report in the JSON output, and
    per finding of a page's own arithmetic (its printed value, wrong)."""
    out = []
    for report in _reports(_values(stdout)):
        for claim in report.get("claims", ()):
            entries = claim.get("entries") or []
            texts = [normal(str(e.get("claimed", ""))) for e in entries]
            indices = [list(e.get("index") or []) for e in entries]
            out.append((texts, indices, [str(e.get("verdict", "")) for e in entries]))
        for item in report.get("assumed", ()):
            texts = [
                normal(t) for t in _NUMBER.findall(str(item.get("assumed", "")).translate(_MINUS))
            ]
            out.append((texts, [], [str(item.get("status", ""))] * len(texts)))
        for finding in report.get("findings", ()):  # a page's own arithmetic, found wrong
            if "claimed" in finding:
                out.append(([normal(str(finding["claimed"]))], [], ["wrong"]))
    return out


def _values(stdout: str) -> list[Any]:
    """The JSON values of the output: one, or several printed one after another."""
    decoder, values, at = json.JSONDecoder(), [], 0
    while True:
        while at < len(stdout) and stdout[at].isspace():
            at += 1
        if at >= len(stdout):
            return values
        try:
            value, at = decoder.raw_decode(stdout, at)
        except json.JSONDecodeError:
            return values
        values.append(value)


def _reports(data: Any) -> Iterator[dict[str, Any]]:
    """Every report in the output: one object, a list, or reports nested under any key."""
    if isinstance(data, dict):
        if "claims" in data:
            yield data
            return
        for value in data.values():
            yield from _reports(value)
    elif isinstance(data, list):
        for value in data:
            yield from _reports(value)


def category(verdict: str) -> str:
    if verdict in RIGHT:
        return "right"
    if verdict in WRONG:
        return "wrong"
    return "follows" if verdict in FOLLOWS else "other"


# ------------------------------------------------------------------ matching and scoring
Cell = tuple[int, int, int]  # (printed index, row, column)


def _match(doc: Doc, texts: list[str], indices: list[list[int]], taken: set[Cell]) -> list[Cell]:
    """The printed cells a claim is about: a whole array, one row, or one indexed entry.

    An array (in the document's order) whose printed strings equal the claim's, the first one
    not claimed yet when a page prints the same numbers twice. Where the strings alone cannot
    tell (a page prints Q with the same digits as W^Q), an attention result with a truth is
    taken before an input: the claim is about a computed step, never about a given array."""
    found = [cells for cells in _candidates(doc, texts, indices) if cells]
    found = found or [cells for cells in _blocks(doc, texts) if cells]
    found = found or [cells for cells in _singles(doc, texts) if cells]
    fresh = [cells for cells in found if not taken.issuperset(cells)]

    def given(cells: list[Cell]) -> bool:
        printed = doc.printed[cells[0][0]]
        return printed.truth is None or not printed.attention

    return sorted(fresh or found or [[]], key=lambda cells: bool(cells) and given(cells))[0]


def _candidates(doc: Doc, texts: list[str], indices: list[list[int]]) -> Iterator[list[Cell]]:
    if not texts:
        return
    for p, printed in enumerate(doc.printed):
        rows = [[normal(t) for t in row] for row in printed.rows]
        if [t for row in rows for t in row] == texts:
            yield [(p, i, j) for i, row in enumerate(rows) for j in range(len(row))]
        for i, row in enumerate(rows):
            if row == texts:
                yield [(p, i, j) for j in range(len(row))]
    if len(texts) == 1 and indices and len(indices[0]) == 2:
        i, j = indices[0][0] - 1, indices[0][1] - 1  # the report counts from 1
        for p, printed in enumerate(doc.printed):
            rows = printed.rows
            if i < len(rows) and j < len(rows[i]) and normal(rows[i][j]) == texts[0]:
                yield [(p, i, j)]


def _blocks(doc: Doc, texts: list[str]) -> Iterator[list[Cell]]:
    """Tables printed side by side, which a truth may keep as one wide array (``S | A``): a
    claim whose strings are a block of columns of every row (or of one row), where no whole
    array or row is the claim's."""
    for p, printed in enumerate(doc.printed):
        rows = [[normal(t) for t in row] for row in printed.rows]
        if not rows or len({len(row) for row in rows}) != 1:
            continue
        width = len(rows[0])
        for rows_at in [list(range(len(rows)))] + [[i] for i in range(len(rows))]:
            columns, extra = divmod(len(texts), len(rows_at))
            if extra or not 0 < columns < width:
                continue
            for first in range(width - columns + 1):
                block = [t for i in rows_at for t in rows[i][first : first + columns]]
                if block == texts:
                    yield [(p, i, j) for i in rows_at for j in range(first, first + columns)]


def _singles(doc: Doc, texts: list[str]) -> Iterator[list[Cell]]:
    """Single numbers printed one after another (a notebook's cells ``exp(z[0])``,
    ``exp(z[1])``, ...), which a claim reads as one vector: consecutive one-entry arrays whose
    strings are the claim's, where no array, row or block is the claim's."""
    ones = [len(p.rows) == 1 and len(p.rows[0]) == 1 for p in doc.printed]
    for first in range(len(doc.printed) - len(texts) + 1):
        span = range(first, first + len(texts))
        singles = len(texts) > 1 and all(ones[p] for p in span)
        if singles and [normal(doc.printed[p].rows[0][0]) for p in span] == texts:
            yield [(p, 0, 0) for p in span]


@dataclass(frozen=True)
class Result:
    file: str
    counted: int  # printed attention entries with a truth
    right: int  # of those, matched to a claim whose verdict agrees with the oracle
    false_alarms: int
    refused: bool  # exit 2 on a document that prints attention results
    seconds: float
    code: int | None
    traceback: bool
    wrong_in_doc: int  # entries the oracle calls wrong (the document's mistakes)
    wrong_found: int  # of those, reported wrong (or follows, where accepted)


def judged(doc: Doc, run: Run) -> Result:
    oracle = oracle_verdicts(doc)
    seen: dict[Cell, str] = {}
    alarms: set[Cell] = set()  # an entry claimed wrong twice is one false alarm
    for texts, indices, verdicts in tool_claims(run.stdout):
        cells = _match(doc, texts, indices, set(seen))
        if len(verdicts) != len(cells):
            verdicts = verdicts[:1] * len(cells)
        for cell, verdict in zip(cells, verdicts):
            if _false_alarm(doc, oracle, cell, category(verdict)):
                alarms.add(cell)
            seen.setdefault(cell, category(verdict))
    counted = right = wrong_in_doc = wrong_found = 0
    for p, grid in enumerate(oracle):
        if grid is None or not doc.printed[p].attention:
            continue
        for i, row in enumerate(grid):
            for j, expected in enumerate(row):
                got = seen.get((p, i, j))
                ok = _agrees(expected, got)
                counted += 1
                right += ok
                wrong_in_doc += expected != "right"
                wrong_found += expected != "right" and ok
    refused = run.code == 2 and counted > 0
    return Result(
        doc.file,
        counted,
        right,
        len(alarms),
        refused,
        run.seconds,
        run.code,
        run.traceback,
        wrong_in_doc,
        wrong_found,
    )


def _agrees(expected: str, got: str | None) -> bool:
    if got is None:
        return False
    if expected == "follows":
        return got in ("follows", "wrong")
    if expected == "right":
        return got == "right"
    return got == "wrong"


def _false_alarm(doc: Doc, oracle: Sequence[list[list[str]] | None], cell: Cell, got: str) -> bool:
    """A claim on a number that is not attention, a claim that an input is not right, or
    "wrong" on a right number."""
    p, i, j = cell
    printed, grid = doc.printed[p], oracle[p]
    if not printed.attention:
        return True
    if grid is None:
        return got != "right"
    return got == "wrong" and grid[i][j] == "right"


# ------------------------------------------------------------------ the corpus
def docs(folder: str) -> list[Doc]:
    module = importlib.import_module(f"tests.corpus.truth_{folder}")
    return list(module.DOCS)


def score(folder: str) -> list[Result]:
    """Run `check` on every document of ``folder`` ("dev" or "heldout") and judge it."""
    return [judged(doc, run_check(ROOT / doc.file)) for doc in docs(folder)]


def totals(results: Sequence[Result]) -> dict[str, float]:
    counted = sum(r.counted for r in results)
    right = sum(r.right for r in results)
    return {
        "documents": len(results),
        "counted": counted,
        "right": right,
        "share": right / counted if counted else 0.0,
        "false_alarms": sum(r.false_alarms for r in results),
        "refused": sum(r.refused for r in results),
        "tracebacks": sum(r.traceback for r in results),
        "wrong_in_docs": sum(r.wrong_in_doc for r in results),
        "wrong_found": sum(r.wrong_found for r in results),
        "seconds": sum(r.seconds for r in results),
    }


_WIDTHS = (7, 6, 9, 7, 4, 6)


def table(results: Sequence[Result]) -> str:
    names = ("counted", "right", "wrong", "f.alarm", "exit", "secs")
    head = f"{'document':48} " + " ".join(f"{n:>{w}}" for n, w in zip(names, _WIDTHS))
    lines = [head, "-" * len(head)]
    for r in results:
        flags = " REFUSED" if r.refused else ""
        flags += " TRACEBACK" if r.traceback else ""
        found = f"{r.wrong_found}/{r.wrong_in_doc}"
        lines.append(
            f"{r.file:48} {r.counted:>7} {r.right:>6} {found:>9} {r.false_alarms:>7} "
            f"{r.code if r.code is not None else 'T/O':>4} {r.seconds:>6.1f}{flags}"
        )
    t = totals(results)
    lines += [
        "-" * len(head),
        f"{int(t['documents'])} documents: {int(t['right'])} of {int(t['counted'])} printed "
        f"attention numbers checked right ({100 * t['share']:.1f} %); "
        f"{int(t['false_alarms'])} false alarms; "
        f"{int(t['refused'])} refused; {int(t['wrong_found'])} of {int(t['wrong_in_docs'])} "
        f"wrong numbers found; {int(t['tracebacks'])} tracebacks; {t['seconds']:.0f} s",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    folder = argv[0] if argv else "dev"
    print(table(score(folder)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
