"""The development corpus (tests/data/corpus/dev): the oracle is consistent, `check` reads every
document without a traceback, and the measured share does not fall below today's.

`python -m tests.corpus.score dev` prints the table these tests measure.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from tests.corpus import score
from tests.corpus.helpers import given, row
from tests.corpus.model import Doc, Printed

# With pytest -n: the dev score (the `results` fixture) runs once, on one worker: the group keeps
# the tests together, the session scope keeps the score when other modules' tests come between.
pytestmark = pytest.mark.xdist_group("test_corpus")

# Today's figures of `check` on dev (python -m tests.corpus.score dev); raise them as the tool
# improves, never lower them.
# 0.800 on 47 documents (2424 of 3029); the 48th (en-readme-sitting-dog-by-hand: a query against
# two of three keys, its results scalar chains and weighted rows) is refused, and its 16 numbers
# lower the share to 2424 of 3045 without a number checked less. Then 2473 of 3045 (81.2 %);
# the 49th (en-causal-attention-step-by-step-dropout: 311 numbers, 72 checked) makes it 2545 of
# 3356 (75.8 %); two documents moved from held-out (seen in development) make it 2584 of 3440,
# and word-labelled rows read as one matrix 2644 of 3440; rows placed by their numbers as prints
# again 2663 of 3440; tables of matrices side by side split by their column names 2679 of 3440;
# a query's labelled working ("Q1: softmax([...]) ≈ [...]") read as its row 2691 of 3440; a
# results table of rows claimed one by one judged again 2695 of 3440; weights masked after the
# softmax and renormalised, and dropout read from its printed zeros, 2855 of 3440; the masked
# weights' row sums 2859 of 3440; a bare row of them placed by its numbers 2865 of 3440. Four
# held-out documents studied in session 27 moved to dev (tests/corpus/dev_seen_heldout2.py)
# and a fifth sharing a source with one, the floor re-based on 3809 numbers; weights printed
# in x out and not square applied as printed whatever the text says; a plain average (softmax
# of zero scores under a causal mask) found by its numbers: 3129 of 3809; rows printed one per
# line read as one matrix (and that page's row sums counted as dev counts them) 3159 of 3814.
# Session 28: R prints, position-indexed tables, numbers over names and stated roots, wrong
# softmax work judged, leaving 3159 of 3814 on these documents; then ten held-out documents
# studied in that session moved to dev (tests/corpus/dev_seen_judge4.py, dev_seen_judge5*.py;
# a Korean blog of 445 numbers, 408 of them wrong as published, among them): 3505 of 4635.
# Products the page writes out (A B = C) read as those products even where the numbers miss:
# 3844 of 4635; the page's own arithmetic found wrong (check's findings) read by the scorer
# 3846; two LaTeX solutions of the sixth held-out batch moved to dev (one studied for its 84
# false alarms, now none; its sister page from the same series): 3984 of 4780. Session 29:
# pages about the softmax itself, and weights worked wrong after the scaled scores, leaving 3984
# of 4780 on those documents; the nine other documents of the sixth held-out batch, studied
# this session, moved to dev: 4124 of 5088, and with the weights after scaled scores judged
# 4142 of 5088 (two of the nine carry known false alarms, below); a printed e^z of the
# logits a printed softmax takes claimed as its numerators: 4148 of 5088.
# Session 31: the eighth held-out batch moved here at 57.0 %, and a page kept out of the tenth
# (check gave no answer on it) added: 5963 of 7410.
# Session 32: the ninth batch and two pages of the eleventh moved here: 6482 of 8417; after
# the round's last reading, 6522 of 8417.
# Session 33: the thirteenth batch and five pages of the eleventh moved here (refused pages
# mostly, to be studied): 6579 of 9042; after the round's readings, 6746 of 9042.
DEV_FLOOR = 0.755
FALSE_ALARM_CEILING = 0  # entries claimed wrong that are right, or claims on non-attention numbers
# Documents with false alarms known and not yet mended, and how many: every other document has
# none. (The book chapter came from held-out with 6; the last 4 were mended by leaving out a
# reading whose printed scores attend over other keys than its tokens give.)
KNOWN_FALSE_ALARMS: dict[str, int] = {
    # Moved from held-out in session 29. The Chinese blog states (1/sqrt(d_k)) softmax(QK^T /
    # d_k) V and then works softmax(QK^T) unscaled with made-up weights: the text's sqrt(d_k)
    # is taken, so 2 weights per copy that are right unscaled are called wrong (and the output
    # entries built from them).
    "dev/zh-blog-md-three-fruit-words-unscaled-wrong.md": 9,
    # The exercise's "e^0 = 1" in prose, claimed (exact) on the exp step, is matched by the
    # scorer to an earlier "about 1" that is not attention.
    "dev/en-md-softmax-by-hand-ten-zero-minus-five.md": 1,
    # A decoder's loss: two numbered examples ("Beispiel 1", "Beispiel 2") of a softmax over
    # class logits, each read as its own softmax example since session 30 and checked right,
    # but the page's softmax is no attention (the page was refused before).
    "dev/de-hausgebrauch-decoder-loss.ipynb": 14,
    # Moved from held-out in session 31. Weights written by hand in a comment as approximations
    # ("[[0,0.5,0.5],[0,1,0],[0,0.9,0.1]]"): each of the list's entries is read to its finest
    # decimal (0 for 0.063 is wrong to one decimal), the truth reads each entry to its own digits;
    # the outputs computed from them are called wrong as following those slips.
    "dev/zh-blog-html-illustrated-qkv-comments-rounded-softmax.html": 11,
    # The text's softmax([2, 4, 4]) = [0.0, 0.5, 0.5] (a slip) and the shares worked from it:
    # the shares are called wrong as following the slip, the truth takes them from the matrix
    # the code sets by hand; two outputs of a batch reading of the 3-d print are called wrong.
    "dev/ru-notebook-torch-self-attention-seminar-approximated-weights.ipynb": 10,
    # The scaled softmax printed [0.59, 0.17, 0.24] beside exponentials that give others: the
    # first entry is claimed wrong where the truth (to its two digits) lets it stand.
    "dev/en-md-why-scale-dot-products-softmax-collapse-slips.md": 1,
}

DOCS = score.docs("dev")
IDS = [doc.file for doc in DOCS]


@pytest.fixture(scope="session")
def results() -> list[score.Result]:
    return score.score("dev")


# ------------------------------------------------------------------ the oracle
def test_the_dev_set_is_the_documents_on_disk_of_many_kinds_and_languages() -> None:
    on_disk = {f"dev/{path.name}" for path in (score.ROOT / "dev").iterdir()}
    assert on_disk == set(IDS)
    assert len({doc.kind for doc in DOCS}) >= 8
    assert len({doc.language for doc in DOCS}) >= 4


@pytest.mark.parametrize("doc", DOCS, ids=IDS)
def test_document_names_its_source_first(doc: Doc) -> None:
    text = (score.ROOT / doc.file).read_text(encoding="utf-8")
    assert f"Source: {doc.url}" in text[:600]
    # Only the attention part of a page (a blog's chain of 8 x 8 bmatrix blocks takes 323; a
    # book chapter's HTML, held out first and moved here whole, 540).
    assert _lines(text, doc.file) < 560


def _lines(text: str, file: str) -> int:
    """Lines of the document as read: a notebook's cell sources and printed outputs."""
    if not file.endswith(".ipynb"):
        return len(text.splitlines())
    cells = json.loads(text)["cells"]
    parts = [cell["source"] for cell in cells]
    parts += [out.get("text", []) for cell in cells for out in cell.get("outputs", [])]
    return sum(len("".join(part).splitlines()) for part in parts)


@pytest.mark.parametrize("doc", DOCS, ids=IDS)
def test_every_printed_array_is_rectangular_and_as_wide_as_its_truth(doc: Doc) -> None:
    for printed in doc.printed:
        widths = {len(row) for row in printed.rows}
        assert len(widths) == 1, (doc.file, printed.label)
        grid = score.truth_grid(printed, doc.inputs)
        if grid is not None:
            assert grid.shape == score.shape_of(printed), (doc.file, printed.label)
            assert not np.isnan(grid).any(), (doc.file, printed.label)


@pytest.mark.parametrize("doc", DOCS, ids=IDS)
def test_every_printed_entry_is_in_the_document(doc: Doc) -> None:
    """Each printed entry occurs in the file (a transcription slip in truth_dev shows here)."""
    text = (score.ROOT / doc.file).read_text(encoding="utf-8").replace("\u2212", "-")
    text = text.replace("\\infty", "inf").replace("\u221e", "inf")  # -inf printed as maths
    text = re.sub(r"-\s*&\s*(?=\d)", "-", text)  # an aligned LaTeX row's sign: "-&0.93"
    text = text.replace("{,}", "")  # LaTeX's thousands separator: 16{,}384
    comma = re.sub(r"(?<=\d),(?=\d)", ".", text)  # a decimal comma (German prose): "2,718"
    text = re.sub(r"(?<=-)\s+(?=\d)", "", text)  # a term of a sum: "0.2 - 0.03" holds -0.03
    for printed in doc.printed:
        for entries in printed.rows:
            for entry in entries:
                pattern = r"(?<![\d.])" + re.escape(entry.replace("\u2212", "-")) + r"(?![\d])"
                found = re.search(pattern, text) or re.search(pattern, comma)
                assert found, (doc.file, printed.label, entry)


@pytest.mark.parametrize("doc", DOCS, ids=IDS)
def test_the_oracle_agrees_with_the_document_where_it_has_no_mistake(doc: Doc) -> None:
    """Some computed entries are right (the inputs are transcribed right), unless the page
    computes nothing or its notes say every result is wrong; a document the oracle finds wrong
    says so in its notes (else the slip is in truth_dev)."""
    verdicts = [v for grid in score.oracle_verdicts(doc) if grid for row in grid for v in row]
    all_wrong = bool(verdicts) and "printed results are wrong" in doc.notes
    assert (
        "right" in verdicts
        or all_wrong
        or (not verdicts and "no attention computation" in doc.notes)
    )
    wrong = len(verdicts) - verdicts.count("right")
    assert wrong == 0 or "mistake" in doc.notes, (doc.file, wrong)


def test_a_claim_is_matched_to_the_copy_of_its_numbers_not_yet_claimed() -> None:
    doc = Doc("dev/x.md", "", "", "en", {}, (given("0.5 0.5"), given("0.5 0.5")))
    first = score._match(doc, ["0.5", "0.5"], [], set())
    assert first == [(0, 0, 0), (0, 0, 1)]
    assert score._match(doc, ["0.5", "0.5"], [], set(first)) == [(1, 0, 0), (1, 0, 1)]
    assert score._match(doc, ["0.5"], [[1, 2]], set()) == [(0, 0, 1)]
    assert score._match(doc, ["0.7"], [], set()) == []


def test_a_claim_is_matched_to_single_numbers_printed_one_after_another() -> None:
    """A notebook's cells ``exp(z[0])``, ``exp(z[1])``: one claim over one-entry prints in a
    row, never over prints that are not next to each other or not all single."""
    singles = (given("0.1"), given("0.2"), given("0.3"), given("0.2 0.3"))
    doc = Doc("dev/x.md", "", "", "en", {}, singles)
    assert score._match(doc, ["0.1", "0.2", "0.3"], [], set()) == [(0, 0, 0), (1, 0, 0), (2, 0, 0)]
    assert score._match(doc, ["0.2", "0.3"], [], set()) == [(3, 0, 0), (3, 0, 1)]
    assert score._match(doc, ["0.1", "0.3"], [], set()) == []


def test_a_claim_spelling_infinity_otherwise_is_matched_to_its_print() -> None:
    """A truth's masked entry ``-inf`` and the claim's ``-\\infty`` or ``−∞`` (as a LaTeX table
    prints it) are one printed entry; a number is never taken for infinity."""
    doc = Doc("dev/x.md", "", "", "en", {}, (given("1.2 -inf\n0.4 1.5"),))
    cells = [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)]
    for masked, found in (("-\\infty", cells), ("−∞", cells), ("-inf", cells), ("-1e9", [])):
        claimed = [score.normal(t) for t in ("1.2", masked, "0.4", "1.5")]  # as tool_claims reads
        assert score._match(doc, claimed, [], set()) == found


def test_a_claim_on_one_of_tables_side_by_side_is_matched_to_its_columns() -> None:
    """A truth may keep "S | A" printed side by side as one wide array: a claim on the right
    block (every row, or one row) is those columns, and only where no whole array is it."""
    doc = Doc("dev/x.md", "", "", "en", {}, (given("1 2 0.5 0.5\n3 4 0.2 0.8"),))
    assert score._match(doc, ["0.5", "0.5", "0.2", "0.8"], [], set()) == [
        (0, 0, 2),
        (0, 0, 3),
        (0, 1, 2),
        (0, 1, 3),
    ]
    assert score._match(doc, ["0.2", "0.8"], [], set()) == [(0, 1, 2), (0, 1, 3)]
    assert score._match(doc, ["2", "0.5", "0.2"], [], set()) == []


def test_the_reports_of_a_document_are_read_whether_one_or_several() -> None:
    one = '{"claims": [{"entries": [{"claimed": "−0.5", "index": [1, 1], "verdict": "wrong"}]}]}'
    claims = score.tool_claims(one + "\n" + one.replace("wrong", "rounded"))
    assert claims == [(["-0.5"], [[1, 1]], ["wrong"]), (["-0.5"], [[1, 1]], ["rounded"])]
    assert score.tool_claims("[" + one + "]") == claims[:1]
    assert score.tool_claims("not json") == []


def test_a_follows_entry_accepts_follows_or_wrong_and_a_right_one_only_right() -> None:
    assert score._agrees("follows", "follows") and score._agrees("follows", "wrong")
    assert not score._agrees("follows", "right")
    assert score._agrees("right", "right") and not score._agrees("right", "other")
    assert not score._agrees("wrong", None)


def test_an_input_printed_rounded_widens_the_truth_by_its_margin() -> None:
    printed = Printed(row("0.26734006"), lambda a: a["S"] * 1.0)
    exact = {"S": np.array([0.2673400656])}
    assert score.oracle_verdicts(Doc("dev/x.md", "", "", "en", exact, (printed,))) == [[["wrong"]]]
    rounded = {**exact, "±S": np.array([5e-9])}
    assert score.oracle_verdicts(Doc("dev/x.md", "", "", "en", rounded, (printed,))) == [
        [["right"]]
    ]


def test_the_oracle_judges_an_entry_by_its_last_printed_digit() -> None:
    assert score.entry_right("0.422", 0.42232)
    assert not score.entry_right("0.211", 0.211942)
    assert score.entry_right("-1.0000e+09", -1e9)
    assert score.entry_right("2/3", 2 / 3)
    assert score.entry_right("−inf", -np.inf)
    assert not score.entry_right("0", -np.inf)
    assert score.value_and_unit("1.") == (1.0, 0.5)


# ------------------------------------------------------------------ the tool
@pytest.mark.parametrize("doc", DOCS, ids=IDS)
def test_check_reads_every_document_without_a_traceback(
    doc: Doc, results: list[score.Result]
) -> None:
    """Exit 0, 1 or 2 within the scorer's timeout (None: timed out), never a traceback."""
    result = next(r for r in results if r.file == doc.file)
    assert result.code in (0, 1, 2), (doc.file, result.code)
    assert not result.traceback, doc.file


def test_the_share_checked_right_on_dev_is_at_least_the_floor(
    results: list[score.Result], capsys: pytest.CaptureFixture[str]
) -> None:
    totals = score.totals(results)
    with capsys.disabled():
        print("\n" + score.table(results))
    assert totals["share"] >= DEV_FLOOR


def test_false_alarms_on_dev_stay_under_the_ceiling(results: list[score.Result]) -> None:
    totals = score.totals(results)
    print(f"false alarms on dev: {totals['false_alarms']}")
    for result in results:
        allowed = KNOWN_FALSE_ALARMS.get(result.file, FALSE_ALARM_CEILING)
        assert result.false_alarms <= allowed, (result.file, result.false_alarms)
