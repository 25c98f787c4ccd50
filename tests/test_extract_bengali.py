"""What `check DOCUMENT --lang bn` and `extract DOCUMENT --lang bn` print about the document is
Bengali: the mapping of its names onto the spec and the notes on what was read or guessed.

Every document bundled in ``tests/data/documents``, the five seeds and a few small documents
written here (each reaches notes the others do not) are read in Bengali by the command line
and by ``tests.english.english_words``. The document's own names (``WQ1``, a heading used as
a name) and spec keys are code (the bn locale writes them in backticks); shapes and numbers are
data. The check's report after the mapping is read too, with the rules of
``tests.test_check_bengali`` for the maths it prints outside $...$. Two lines stay English by
design, as for every command: ``wrote PATH`` and an error (exit 2).
"""

from __future__ import annotations

import copy
import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mha_symbolic import derive
from mha_symbolic.cli import main
from mha_symbolic.extract import NO_NUMBERS, extract, extract_all
from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import Document, read_document
from mha_symbolic.extract.infer import inferred
from mha_symbolic.extract.infer.mapping import capped
from mha_symbolic.language.extract_phrases import code, phrase, voice
from mha_symbolic.language.phrases import Voice
from tests.english import english_words, every_entry_said_in_bengali
from tests.pages import QKV_PAGE
from tests.test_check_bengali import _plain_maths, _without_symbols
from tests.test_extract_cli import DATA, TWO_EXAMPLES, seed
from tests.test_extract_foreign_entries import trace_page
from tests.test_extract_given import MASKED
from tests.test_extract_other_readings import COUNTS_NOTEBOOK, ONE_HEAD, SLICED
from tests.test_extract_parts import PROJECTED
from tests.test_extract_plain_average import AVERAGE, X, running_mean_page
from tests.test_extract_written_products import SCORES_BY_HAND as WRITTEN_WRONG
from tests.test_infer_after_softmax import page as after_softmax_page
from tests.test_infer_batch import WEIGHTS, numpy_print
from tests.test_infer_batch import page as batch_page
from tests.test_infer_causal_pages import CAUSAL
from tests.test_infer_numbers_first import ROW_SUMS
from tests.test_infer_row_prints import WITH_AND_WITHOUT
from tests.test_infer_search import hostile_notebook
from tests.test_infer_softmax_parts import E as NUMERATORS
from tests.test_infer_softmax_parts import page as parts_page

DOCUMENTS = sorted((DATA / "documents").iterdir())
# the package itself (mha_symbolic.extract, as an attribute, is the function of that name)
EXTRACT_PACKAGE = importlib.import_module("mha_symbolic.extract")
SEEDS = ("000", "001", "002", "003", "004")

# Small documents for the notes the bundled ones never need.
ROWS_DIFFER = """# Attention

No scaling.

### Input

Token 1: “I”      → [1.0, 0.0]
Token 2: “love”   → [0.0, 1.0]

X = [[1, 1], [0, 1]]

weights = [[0.73, 0.27], [0.27, 0.73]]
"""
NOT_PRINTED = """# Attention on 2 tokens

The sequence length L = 2 and d_model = 2, one head, no scaling.

W_Q = [[1, 0], [0, 1]]

The softmax weights:

weights = [[0.5, 0.5], [0.5, 0.5]]
"""
MISPLACED = """# Multi-head attention with 2 heads

X = [[1, 0, 0, 1], [0, 1, 1, 0]]

W_Q1 = [[1, 0], [0, 1], [0, 0], [0, 0]]

W_K1 = [[1, 0], [0, 1], [0, 0], [0, 0]]

W_K2 = [[1, 0], [0, 1], [0, 0], [0, 0]]

W_V1 = [[1, 0], [0, 1], [0, 0], [0, 0]]

W_V2 = [[1, 0], [0, 1], [0, 0], [0, 0]]

Q = [[1, 0], [0, 1]]

concat = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]

K_2 = V_3 = [[1, 0], [0, 1]]

### Head 1

weights = [[0.5, 0.5], [0.5, 0.5]]

scores[5][5] = 1.0

scores[0][0] = 1.0

scores[0][0] = 2.0
"""
# What the numbers say (extract's inference): two heads concatenated, a transposed print, and a
# causal mask filled with -1e9.
HEADS = """# Two heads

X = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]

W_Q1 = [[1, 0], [0, 1], [1, 0], [0, 0]]

W_K1 = [[0, 1], [1, 0], [0, 0], [1, 0]]

W_V1 = [[1, 0], [0, 0], [0, 1], [1, 1]]

W_Q2 = [[0, 1], [1, 0], [0, 0], [1, 1]]

W_K2 = [[1, 0], [0, 0], [1, 1], [0, 1]]

W_V2 = [[0, 0], [1, 0], [0, 1], [0, 0]]

K1^T = [[0, 2, 1], [1, 0, 1]]

Z1 = [[1.0000, 0.8133], [1.0000, 0.5989], [1.0000, 0.5989]]

Concatenated = [[1.0000, 0.8133, 0.5989, 0.4011],
                [1.0000, 0.5989, 0.1518, 0.8482],
                [1.0000, 0.5989, 0.3272, 0.6728]]

Head 2 alone:

Z2 = [[0.5989, 0.4011], [0.1518, 0.8482], [0.3272, 0.6728]]

W_O = [[0.5, 0, 0, 0.5], [0, 0.5, 0, 0], [0, 0, 0.5, 0], [0.5, 0, 0, 0.5]]

Output = [[0.7006, 0.4067, 0.2994, 0.7006],
          [0.9241, 0.2994, 0.0759, 0.9241],
          [0.8364, 0.2994, 0.1636, 0.8364]]
"""
OUTPUT = """# Two heads and W_O

X = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]

W_Q1 = [[1, 0], [0, 1], [1, 0], [0, 0]]

W_K1 = [[0, 1], [1, 0], [0, 0], [1, 0]]

W_V1 = [[1, 0], [0, 0], [0, 1], [1, 1]]

W_Q2 = [[0, 1], [1, 0], [0, 0], [1, 1]]

W_K2 = [[1, 0], [0, 0], [1, 1], [0, 1]]

W_V2 = [[0, 0], [1, 0], [0, 1], [0, 0]]

K1^T = [[0, 2, 1], [1, 0, 1]]

Z1 = [[1.0000, 0.8133], [1.0000, 0.5989], [1.0000, 0.5989]]

Z2 = [[0.5989, 0.4011], [0.1518, 0.8482], [0.3272, 0.6728]]

W_O = [[0.5, 0, 0, 0.5], [0, 0.5, 0, 0], [0, 0, 0.5, 0], [0.5, 0, 0, 0.5]]

Output = [[0.7006, 0.4067, 0.2994, 0.7006],
          [0.9241, 0.2994, 0.0759, 0.9241],
          [0.8364, 0.2994, 0.1636, 0.8364]]
"""
GIVEN = """# Attention from Q, K and V, no scaling

Q = [[1, 0], [0, 1]]

K = [[1, 0], [0, 1]]

V = [[1, 2, 3], [4, 5, 6]]

weights = [[0.73, 0.27], [0.27, 0.73]]
"""
# A row printed wider than the matrix it would be a row of: said, not claimed.
NOT_ROW = """# Attention, no scaling

X = [[1, 0], [0, 1]]

weights = [[0.73, 0.27], [0.27, 0.73]]

Token 2 weights: [0.2, 0.3, 0.5]
"""
DIRECT = """# Attention of Q on K, no scaling

Q = K = [[1, 0], [0, 1]]

weights = [[0.73, 0.27], [0.27, 0.73]]
"""
RESTAGED = QKV_PAGE
BATCH = """# Attention on a batch of two sequences

X = [[1, 0], [0, 1], [1, 1], [0, 0]]

W_Q = [[1, 0], [0, 1]]

W_K = [[1, 0], [0, 1]]

W_V = [[1, 0], [0, 1]]

weights = [[0.67, 0.33], [0.33, 0.67]]
"""
# numpy's summarised print of wide rows ("..."): the columns it shows, said as such.
SUMMARISED = """# Attention weights on summarised values

scores = [[1, 0], [2, 3]]

v = [[1.0, -2.0, ..., 0.5, 3.0], [0.25, 4.0, ..., -1.0, 2.0]]

weights = [[0.7311, 0.2689], [0.2689, 0.7311]]

out = [[0.7983, -0.3864, ..., 0.0966, 2.7311], [0.4517, 2.3864, ..., -0.5966, 2.2689]]
"""
NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "source": ["# Attention, no scaling\n"]},
        {"cell_type": "code", "source": ["X = np.array([[1, 0], [0, 1]])\n"], "outputs": []},
        {
            "cell_type": "code",
            "source": ["print(weights)"],
            "outputs": [{"output_type": "stream", "text": ["[[0.73 0.27]\n", " [0.27 0.73]]\n"]}],
        },
    ]
}
# Matrices with an entry that cannot be read: each is left out whole, and said.
UNREAD = (
    "# Attention, no scaling\n\nX = [[1, 0], [0, 1]]\n\nweights = [[0.67, 0.33], [0.33, 0.67]]\n\n"
    "Y = [[1, 0], [⁻1.0, 1]]\n\nv = [0.5, 50%]\n\n[[1, 2], [3, …]]\n"
)
CRAFTED = {
    "unread.md": UNREAD,
    "rows-differ.md": ROWS_DIFFER,
    "not-printed.md": NOT_PRINTED,
    "misplaced.md": MISPLACED,
    "heads.md": HEADS,
    "masked.md": MASKED,
    "given.md": GIVEN,
    "projected.md": PROJECTED,
    "direct.md": DIRECT,
    "not-row.md": NOT_ROW,
    "restaged.md": RESTAGED,
    "batch.md": BATCH,
    "output.md": OUTPUT,
    "two-examples.md": TWO_EXAMPLES,
    "causal.md": CAUSAL,
    "summarised.md": SUMMARISED,
    "page.ipynb": json.dumps(NOTEBOOK),
    "one-head.md": ONE_HEAD,  # read another way than the first: said in a note
    "other-readings.md": SLICED,
    "left-alone.ipynb": json.dumps(COUNTS_NOTEBOOK),
    "printed-again.md": (  # the weights printed again, rounded: judged in a copy of the example
        "# Weights\n\nscores = [2, 1, 0]\n\nweights = softmax(scores) = [0.6652, 0.2447, 0.0900]"
        "\n\nRounded: [0.67, 0.24, 0.09]\n"
    ),
    "padded.md": (  # a key padded out: the mask read from where the weights print 0
        "# Attention over padded keys\n\nq = [[1, 0, 1]]\n\n"
        "K = [[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1]]\n\nV = [[1, 2], [3, 4], [5, 6], [7, 8]]"
        "\n\nweights = [[0.4223, 0.1554, 0.4223, 0.0000]]\n"
    ),
}


def documents(folder: Path) -> Iterator[Path]:
    """Every document: the bundled ones, the seeds, and those written here."""
    yield from DOCUMENTS
    yield from (seed(folder, number) for number in SEEDS)
    for name, text in CRAFTED.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        yield path


def symbols_of(path: Path) -> list[str]:
    """The free symbols of every example the document ``path`` holds."""
    return [str(s) for one in extract_all(path) for s in derive(one.spec).free_symbols]


def english(text: str, symbols: list[str]) -> list[str]:
    """The English words of a Bengali output, its maths and ``symbols`` removed."""
    return english_words(_without_symbols(_plain_maths(text), symbols))


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def read_about(path: Path, capsys: pytest.CaptureFixture[str], folder: Path) -> dict[str, str]:
    """What each command prints about ``path`` in Bengali: the mapping and notes, the report."""
    out: dict[str, str] = {}
    code, text, _ = run(["check", str(path), "--lang", "bn"], capsys)
    if code != 2:  # 2: nothing to check (an error, English like every error)
        out["check"] = text
        # JSON keeps stdout one document: the mapping and the notes go to stderr alone.
        _, _, out["check json"] = run(
            ["check", str(path), "--lang", "bn", "--format", "json"], capsys
        )
    target = folder / f"{path.stem}-spec"
    _, _, err = run(["extract", str(path), "--lang", "bn", "-o", str(target)], capsys)
    kept = [line for line in err.splitlines() if not line.startswith(("wrote ", "mha-symbolic: "))]
    out["extract"] = "\n".join(kept)
    return out


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """The keys of ``[extract]`` said in Bengali while the test runs."""
    keys: set[str] = set()
    call = Voice.__call__

    def recording(self: Voice, key: str, /, **numbers: Any) -> str:
        if self.lang == "bn" and self.section == "extract":
            keys.add(key)
        return call(self, key, **numbers)

    monkeypatch.setattr(Voice, "__call__", recording)
    return keys


@pytest.fixture
def drafts_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each document's drafts searched once while the test runs (a copy for every command that
    reads it): the search does not depend on the language, and the test reads each document
    four times (check, check as JSON, extract, its symbols)."""
    found: dict[Document, list[Any]] = {}
    search = EXTRACT_PACKAGE.drafts

    def once(document: Document) -> list[Any]:
        if document not in found:
            found[document] = search(document)
        return copy.deepcopy(found[document])

    monkeypatch.setattr(EXTRACT_PACKAGE, "drafts", once)


@pytest.mark.usefixtures("drafts_once")
def test_every_document_is_read_in_bengali_and_every_string_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], said: set[str]
) -> None:
    left: dict[str, dict[str, list[str]]] = {}
    printed = 0
    for path in documents(tmp_path):
        symbols = symbols_of(path)
        for command, text in read_about(path, capsys, tmp_path).items():
            printed += len(text.splitlines())
            words = english(text, symbols)
            if words:
                left.setdefault(path.name, {})[command] = words
    assert printed > 300  # every document printed its mapping and notes
    assert left == {}
    # The API's own note (several examples) is a phrase too.
    notes = extract(TWO_EXAMPLES)[1]
    assert voice("bn").say(notes[0]) == (
        "ডকুমেন্টে 2টি উদাহরণ আছে; `extract_all` প্রতিটিকে আলাদা করে দেয়"
    )
    # A row of ones printed after a softmax: its row sums, said as such.
    sums = extract_all(ROW_SUMS)[0].inferred[1]
    assert voice("bn").say(sums) == (
        "লাইন 8 `Softmax` (1x3) = সফটম্যাক্স(লাইন 3, সারি ধরে)-এর সারিগুলোর যোগফল: হুবহু মেলে"
    )
    # A product written out (A B = C) whose result is not that product.
    written = [voice("bn").say(line) for line in extract_all(WRITTEN_WRONG)[0].inferred]
    assert "লাইন 14 `S` (3x3) = লাইন 11 × লাইন 4ᵀ: এই গুণফল হিসেবে লেখা; এর 9টি ঘরের 4টি তা নয়" in written
    # One query's row soft-maxed, and the softmax's numerators and their sums.
    row = extract_all(WITH_AND_WITHOUT)[1].inferred[-1]
    assert voice("bn").say(row) == (
        "লাইন 7 `softmax` (1x3) = সফটম্যাক্স(লাইন 4-এর সারি 1, সারি ধরে): 4 অঙ্ক পর্যন্ত মেলে"
    )
    parts = extract_all(parts_page(NUMERATORS))[0].inferred
    assert [voice("bn").say(line) for line in parts[2:4]] == [
        "লাইন 6 `Softmax by hand` (3x3) = সূচকীয়(লাইন 5): 8 অঙ্ক পর্যন্ত মেলে",
        "লাইন 7 `Softmax by hand` (3x1) = সূচকীয়(লাইন 5)-এর সারিগুলোর যোগফল, সফটম্যাক্সের হর: "
        "8 অঙ্ক পর্যন্ত মেলে",
    ]
    # A search stopped at its bound, and a claim moved to the step its numbers give (the
    # relations place these pages' claims before a name can misplace them: said here).
    page = read_document(hostile_notebook(260), kind="ipynb")
    assert voice("bn").say(capped(inferred(find_items(page)[1], {}))) == (
        "সম্পর্কের খোঁজ তার সীমায় থেমেছে (200টি অ্যারে, 60000টি সম্পর্ক): পরের অ্যারেগুলোর ব্যাখ্যা নেই"
    )
    # A print of a whole batch: the step it is, each batch element on its own.
    batch = extract_all(batch_page(numpy_print(WEIGHTS)))[0].inferred[-1]
    assert voice("bn").say(batch) == (
        "লাইন 38 (2x3x2) = `concat`, ব্যাচের প্রতিটি উপাদান আলাদাভাবে: 4 অঙ্ক পর্যন্ত মেলে"
    )
    # Weights masked after the softmax, renormalised, then dropped out.
    again, dropped = extract_all(after_softmax_page())[0].inferred[3:5]
    assert (
        voice("bn")
        .say(again)
        .startswith(
            "লাইন 15 (4x4) = সফটম্যাক্সের পরে লাইন 5, 0/1 মাস্ক (লাইন 9) দিয়ে গুণ করা, প্রতিটি সারি "
            "তার যোগফল দিয়ে ভাগ করা: 4 অঙ্ক পর্যন্ত মেলে"
        )
    )
    assert voice("bn").say(dropped) == (
        "লাইন 19 (4x4) = p = 1/2 হারে লাইন 15-এর ড্রপআউট (ছাপা শূন্যগুলো বাদ, বাকিগুলো 1/(1-p) "
        "দিয়ে গুণ): 4 অঙ্ক পর্যন্ত মেলে"
    )
    where = read_document(TWO_EXAMPLES).lines[10].where
    moved = phrase("placing.restaged", where=where, key=code("scores"), other=code("scaled"))
    assert voice("bn").say(moved) == (
        "লাইন 11: `scores` হিসেবে দাবি করা সংখ্যাগুলো `scaled`-এর: `scaled` হিসেবে যাচাই করা হয়"
    )
    # A trace of made-up entries after the example: another computation's, not claimed.
    notes = extract_all(trace_page(["0.52", "0.31", "0.89"]), "md")[0].draft.notes
    foreign = next(n for n in notes if getattr(n, "key", "") == "notes.foreign_entries")
    assert voice("bn").say(foreign) == (
        "লাইন 28 থেকে লাইন 30: একসাথে ছাপা 3টি মান, কোনোটিই এই উদাহরণের মান নয়: অন্য কোনো হিসাবের, "
        "দাবি করা হয় না"
    )
    # A running mean: attention with zero scores, said as such.
    average = extract_all(running_mean_page(AVERAGE @ X), "ipynb")[0].draft
    start = next(n for n in average.notes if getattr(n, "key", "") == "notes.zero_scores")
    assert voice("bn").say(start) == (
        "ছাপা ওজনগুলো মাস্কের রেখে দেওয়া কী-গুলোর সাধারণ গড়: উদাহরণটি শূন্য স্কোর (5x5) ও ছাপা ভ্যালু থেকে শুরু"
    )
    assert voice("bn").say(average.inferred[1]) == (
        "সেল 3, আউটপুটের লাইন 1 (5x2) = সফটম্যাক্স(শূন্য স্কোর (5x5), মাস্ক করা (কজাল), সারি ধরে) × "
        "সেল 2, আউটপুটের লাইন 1: 4 অঙ্ক পর্যন্ত মেলে"
    )
    # A part of a page that fits no one example: left unchecked, the other examples checked.
    page = DATA / "corpus/dev/tr-notebook-numpy-bank-loan-query-temperature-causal-mask.ipynb"
    unfit = next(
        n
        for one in extract_all(page)
        for n in one.draft.notes
        if getattr(n, "key", "") == "notes.part_unfit"
    )
    assert (
        voice("bn")
        .say(unfit)
        .startswith("সেল 4, লাইন 4: এই অংশটি যাচাই করা হয়নি, এর অ্যারেগুলো একটি উদাহরণে মেলে না (")
    )
    # Every entry of bn.toml's [extract] was said by one of them, and is Bengali itself.
    every_entry_said_in_bengali("extract", said)


# ------------------------------------------------------------------ the words themselves
EXERCISE = DATA / "documents" / "scaled-dot-product-exercise.md"


def test_the_exercise_in_bengali(capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's example: the mapping and the notes before the (Bengali) report."""
    code, out, _ = run(["check", str(EXERCISE), "--lang", "bn"], capsys)
    assert code == 1
    assert out.splitlines()[:6] == [
        "`Q` (লাইন 13) -> `q`",
        "`Q` (লাইন 13) -> `k`",
        "`V` (লাইন 14) -> `v`",
        "`Output` (লাইন 17) -> দাবি `output`",
        "দ্রষ্টব্য: উদাহরণটি ছাপা `q, k, v` থেকে শুরু: কোনো ইনপুট নেই, কোনো প্রজেকশন নেই",
        "`output`: ভুল",
    ]


def test_names_per_head_and_values_not_placed_in_bengali(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "misplaced.md"
    path.write_text(MISPLACED, encoding="utf-8")
    _, _, err = run(["check", str(path), "--lang", "bn", "--format", "json"], capsys)
    # What the numbers say comes first (one line per array); then the names' mapping.
    inferred = len(extract_all(path)[0].inferred)
    assert err.splitlines()[inferred:] == [
        "`X` (লাইন 3) -> `x`",
        "`W_K1` (লাইন 7) -> `weights.w_k`, হেড 1",
        "`W_K2` (লাইন 9) -> `weights.w_k`, হেড 2",
        "`W_V1` (লাইন 11) -> `weights.w_v`, হেড 1",
        "`W_V2` (লাইন 13) -> `weights.w_v`, হেড 2",
        "`K_2` (লাইন 19) -> দাবি `head2.k`",
        "দ্রষ্টব্য: `w_q` ছাপা আছে হেড `[1]`-এর জন্য, কিন্তু লেয়ারে হেড 2টি; প্রতীকী",
        "দ্রষ্টব্য: লাইন 15: `Q` (2, 2) যাচাই করা হয়নি (কোন হেডের?)",
        "দ্রষ্টব্য: লাইন 17: `concat`-এর আকার (3, 3), কিন্তু `concat`-এর আকার (2, 4)",
        "দ্রষ্টব্য: লাইন 19: `V_3` (2, 2) যাচাই করা হয়নি (হেড 3-এর কোনো ধাপ নেই?)",
        "দ্রষ্টব্য: লাইন 25: `scores`[6, 6] `head1.scores` (2, 2)-এর বাইরে",
        "দ্রষ্টব্য: লাইন 29: `head1.scores[1,1]` আবার ছাপা হয়েছে 2.0 হিসেবে (প্রথমবার 1.0, "
        "লাইন 27); প্রথমটিই যাচাই করা হয়",
        # head 1's weights and scores depend on W_Q, symbolic (printed for one head of two)
        "দ্রষ্টব্য: লাইন 23: `head1.weights` এমন ওজনের উপর নির্ভর করে যা পাতায় দেওয়া নেই: "
        "যাচাই করা হয়নি (ওজনের প্রতিটি মানের জন্য কোনো সংখ্যাই ঠিক বা ভুল নয়)",
        "দ্রষ্টব্য: লাইন 27: `head1.scores[1,1]` এমন ওজনের উপর নির্ভর করে যা পাতায় দেওয়া নেই: "
        "যাচাই করা হয়নি (ওজনের প্রতিটি মানের জন্য কোনো সংখ্যাই ঠিক বা ভুল নয়)",
    ]
    # The same in English, as it always was.
    _, _, err = run(["check", str(path), "--format", "json"], capsys)
    assert err.splitlines()[1] == "W_K1 (line 7) -> weights.w_k head 1"
    assert (
        "note: line 29: head1.scores[1,1] is printed again as 2.0 (first 1.0, line 27); "
        "the first is checked"
    ) in err.splitlines()
    assert err.splitlines()[-1] == (
        "note: line 27: head1.scores[1,1] depends on weights the page does not give: not "
        "checked (no number is right or wrong for every value of them)"
    )


def test_where_in_a_notebook_and_a_placeholder_in_bengali(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "page.ipynb"
    page.write_text(json.dumps(NOTEBOOK), encoding="utf-8")
    (found,) = extract_all(page)
    assert [voice("bn").say(line) for line in found.mapping] == [
        "`X` (সেল 2, লাইন 1) -> `x`",
        "`weights` (সেল 3, আউটপুটের লাইন 1) -> দাবি `head1.weights`",
    ]
    assert found.mapping[1] == "weights (cell 3, output line 1) -> claim head1.weights"
    (found,) = extract_all(NOT_PRINTED)
    assert voice("bn").say(found.mapping[0]) == "`X` (ছাপা নেই) (প্লেসহোল্ডার) -> `x`"
    assert found.mapping[0] == "X (not printed) (PLACEHOLDER) -> x"


def test_extract_says_its_notes_in_bengali(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = seed(tmp_path, "004")
    code, out, err = run(["extract", str(document), "--lang", "bn"], capsys)
    assert code == 0  # nothing to check is said, and the spec written is usable
    assert out == run(["extract", str(document)], capsys)[1]  # the TOML is code: English
    notes, error = err.splitlines()[:-1], err.splitlines()[-1]
    assert notes and all(line.startswith(f"`{document}`: ") for line in notes)
    assert english_words("\n".join(notes)) == []
    assert error.startswith(f"mha-symbolic: {document}: nothing to check")


@pytest.mark.usefixtures("drafts_once")
def test_english_is_the_default_and_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    default = run(["check", str(EXERCISE)], capsys)
    assert run(["check", str(EXERCISE), "--lang", "en"], capsys) == default
    assert default[1].splitlines()[:5] == [
        "Q (line 13) -> q",
        "Q (line 13) -> k",
        "V (line 14) -> v",
        "Output (line 17) -> claim output",
        "note: the example starts at q, k, v, as printed: no input, no projections",
    ]
    document = seed(tmp_path, "000")
    english = run(["extract", str(document)], capsys)
    assert run(["extract", str(document), "--lang", "en"], capsys) == english
    inferred = len(extract_all(document)[0].inferred)  # what the numbers say comes first
    assert english[2].splitlines()[inferred] == (
        f"{document}: W^O (line 147) is printed 2x4 but concat has 4 columns; "
        "its transpose 4x2 is used"
    )
    # The notes are still plain English strings to the API (a Phrase is a str).
    assert phrase("notes.no_numbers") == NO_NUMBERS
    assert isinstance(extract(document)[1][0], str)


def test_the_english_notes_are_found_english(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The detector is not blind to the mapping and notes: in English they are English."""
    path = tmp_path / "misplaced.md"
    path.write_text(MISPLACED, encoding="utf-8")
    _, _, err = run(["check", str(path), "--format", "json"], capsys)
    assert len(english_words(err)) > 40
