"""Development documents: the thirteenth held-out batch, moved to dev whole in session 33 (its
four refused pages of five to be studied; new held-out batches replace it). Each transcribed into
tests/data/corpus/dev/ (numbers, notation and layout kept, prose rewritten), with the truth
computed independently with numpy from the numbers each page prints; registered in
tests/corpus/truth_dev.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, block, given, one, other, settled, values
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- English course notes: money bank grows, a right softmax rounded to guesses ------------------

_CX_S = block("1.0 0.25 0.1\n0.25 1.0 0.05\n0.1 0.05 1.0")
_CX_W = block("0.65 0.25 0.1\n0.2 0.7 0.1\n0.15 0.15 0.7")


def _cx_bank(x: Arrays) -> np.ndarray:
    return softmax(x["bank"])


def _cx_bank_at(*index: int, scale: float = 1.0) -> Truth:
    return lambda x: scale * _cx_bank(x)[list(index)].reshape(1, -1)


def _cx_exp(k: int) -> Truth:
    return lambda x: np.exp(x["bank"][k : k + 1]).reshape(1, 1)


def _cx_share(k: int) -> Truth:
    return lambda x: (x["exps"][k : k + 1] / x["exps"].sum()).reshape(1, 1)


def _cx_river(scale: float = 1.0) -> Truth:
    return lambda x: scale * softmax(x["river"]).reshape(1, -1)


def _cx_apple(x: Arrays) -> np.ndarray:
    return softmax(x["apple"])  # launched, new, phone, while, eating, orange, Apple


def _cx_apple_parts(x: Arrays) -> np.ndarray:
    w = _cx_apple(x)
    return 100 * np.array([[w[0] + w[2], w[4] + w[5], w[6]]])


def _cx_apple_mix(x: Arrays) -> np.ndarray:
    w = _cx_apple(x)
    return np.array([[w[6], w[0], w[2], w[4] + w[5]]])


def _cx_printed() -> tuple[Printed, ...]:
    bank = _cx_bank_at
    return (
        given(one("6", "1"), "vector 1"),
        given(one("4", "2"), "vector 2"),
        Printed(one("26"), lambda x: a([[6 * 4 + 1 * 2]]), "[6, 1] . [4, 2]"),
        given(one("6", "1"), "vector 1 again"),
        given(one("1", "5"), "vector 3"),
        Printed(one("11"), lambda x: a([[6 * 1 + 1 * 5]]), "[6, 1] . [1, 5]"),
        given(one("0.25", "1.0", "0.05"), "scores of bank (diagram)"),
        given(one("0.25", "1.0", "0.05"), "Softmax([...]) argument (diagram)"),
        Printed(one("0.2", "0.7", "0.1"), bank(0, 1, 2), "softmax of bank's scores (diagram)"),
        Printed(one("0.2", "0.7", "0.1"), bank(0, 1, 2), "weighted sum (diagram)", follows=True),
        given(one("36", "-1", "32"), "raw scores before the softmax"),
        Printed(one("0.7", "0.2", "0.1"), lambda x: softmax(a([36, -1, 32])).reshape(1, 3)),
        Printed(one("70", "20", "10"), bank(1, 0, 2, scale=100), "bank 70% itself", follows=True),
        given(one("0.25", "1.0", "0.05"), "s21, s22, s23"),
        *(
            item
            for k, (arg, value) in enumerate(
                (("0.25", "1.284"), ("1.0", "2.718"), ("0.05", "1.051"))
            )
            for item in (
                given(one(arg), "exp argument"),
                Printed(one(value), _cx_exp(k), "exp of a score"),
            )
        ),
        given(one("1.284", "2.718", "1.051"), "the exps added up"),
        Printed(one("5.053"), lambda x: a([[x["exps"].sum()]]), "sum of the printed exps"),
        *(
            item
            for k, (num, w, guess, percent) in enumerate(
                (
                    ("1.284", "0.254", "0.2", "20"),
                    ("2.718", "0.538", "0.7", "70"),
                    ("1.051", "0.208", "0.1", "10"),
                )
            )
            for item in (
                given(one(num, "5.053"), "exp / sum"),
                Printed(one(w), _cx_share(k), "exp / sum of the printed exps"),
                Printed(one(guess), bank(k), "≈ rounded weight"),
                Printed(one(percent), bank(k, scale=100), follows=True),
            )
        ),
        Printed(one("0.2", "0.7", "0.1"), bank(0, 1, 2), "final weights", follows=True),
        Printed(one("1.0"), lambda x: a([[_cx_bank(x).sum()]]), "sum of the weights"),
        Printed(one("0.2", "0.7", "0.1"), bank(0, 1, 2), "Y_bank coefficients", follows=True),
        Printed(one("70", "20", "10"), bank(1, 0, 2, scale=100), "reading", follows=True),
        given(one("0.4", "1.0", "0.3"), "river bank flows scores"),
        Printed(one("0.3", "0.6", "0.1"), _cx_river(), "expected weights, river"),
        Printed(one("30", "60", "10"), _cx_river(100), "river percents", follows=True),
        given(_CX_S, "similarity matrix S"),
        Printed(_CX_W, lambda x: softmax(x["s"]), "W after the softmax"),
        Printed(_CX_W, lambda x: softmax(x["s"]), "Y coefficients", follows=True),
        given(one("0.6", "0.3", "0.8", "0.1", "0.2", "0.3", "1.0"), "Apple's similarities"),
        other(one("0.6", "0.8", "1.4", "0.2", "0.3", "0.5", "1.4", "0.5"), "sums of scores"),
        Printed(one("40", "18", "42"), _cx_apple_parts, "Apple's weights (simplified), %"),
        Printed(one("0.42", "0.24", "0.16", "0.18"), _cx_apple_mix, "Y_Apple", follows=True),
        Printed(one("40"), lambda x: _cx_apple_parts(x)[:, :1], "40% technology", follows=True),
    )


EN_CAMPUSX = Doc(
    file="dev/en-md-course-notes-money-bank-softmax-rounded-to-guesses.md",
    url=(
        "https://github.com/Sankhyesh/AI-Learning-Roadmap-2024/blob/main/CampusX/"
        "100-days-deep-learning/73-self-attention-in-transformers-how-it-works.md"
    ),
    kind="course-notes",
    language="en",
    inputs={
        "bank": a([0.25, 1.0, 0.05]),
        "exps": a([1.284, 2.718, 1.051]),
        "river": a([0.4, 1.0, 0.3]),
        "s": a([[1.0, 0.25, 0.1], [0.25, 1.0, 0.05], [0.1, 0.05, 1.0]]),
        "apple": a([0.6, 0.3, 0.8, 0.1, 0.2, 0.3, 1.0]),
    },
    printed=_cx_printed(),
    notes=(
        "A learner's course notes in Markdown (mermaid diagrams, text blocks, a Python block), "
        "transcribed from the similarity, softmax and weighted-sum sections: two dot products "
        "(26, 11, right), the scores of bank in 'money bank grows' [0.25, 1.0, 0.05] whose "
        "exponentials, sum 5.053 (of the rounded exponentials) and shares 0.254, 0.538, 0.208 "
        "are right. The mistakes: the shares are then 'rounded' to 0.2, 0.7, 0.1 (one decimal "
        "gives 0.3, 0.5, 0.2), in the diagram and in the worked lines (6 wrong), and every "
        "later repetition, percent (20%, 70%, 10%) and coefficient of Y_bank follows from them; "
        "softmax([36, -1, 32]) is given as [0.7, 0.2, 0.1] instead of [0.982, 0.000, 0.018] "
        "(3 wrong); the river example's softmax([0.4, 1.0, 0.3]) = [0.268, 0.489, 0.243] is "
        "written [0.3, 0.6, 0.1] (0.6 and 0.1 wrong, its percents follow); the 3 x 3 weights "
        "W are not softmax(S) (8 of 9 wrong, 0.25 right; the Y lines repeat them: 8 follow); "
        "Apple's 'simplified' weights from seven given similarities are 34% technology, 22% "
        "food, 23% itself, not ~40%, ~18%, ~42% (3 wrong; the coefficients 0.42, 0.24, 0.16, "
        "0.18 and the closing 40% follow). Sums of raw scores (1.4, 0.5) are not attention. "
        "13 right, 22 wrong, 34 follow."
    ),
)

# --- English NLP kata: ASCII figures, illustrative weights, a scaled softmax that slips ---------

_KT_W = block(
    "0.15 0.10 0.10 0.10 0.15 0.40\n0.10 0.20 0.15 0.05 0.10 0.40\n"
    "0.10 0.30 0.20 0.10 0.10 0.20\n0.10 0.10 0.15 0.15 0.10 0.40\n"
    "0.10 0.10 0.10 0.10 0.20 0.40\n0.15 0.15 0.10 0.10 0.15 0.35"
)

EN_KATA = Doc(
    file="dev/en-md-kata-ascii-illustrative-weights-scaled-softmax-slip.md",
    url=(
        "https://github.com/rajeshpillai/nlp-katas/blob/main/backend/python-nlp-katas/"
        "phase-9/01-attention-weights.md"
    ),
    kind="course-lesson",
    language="en",
    inputs={"w": values(_KT_W), "raw": a([30, 50, 35]), "scaled": a([3.75, 6.25, 4.38])},
    printed=(
        given(_KT_W, "illustrative weights of The cat sat on the bank (no scores given)"),
        Printed(one("1.0"), lambda x: a([[x["w"].sum(axis=1).max()]]), "each row sums to"),
        given(one("1"), "each row sums to 1 (the steps)"),
        given(block("1 1 2 3\n2 1 2 3\n3 1 2 3"), "token indices of the score diagram"),
        given(one("64", "30", "50"), "d_k and the range of dot products"),
        given(one("30", "50", "35"), "raw scores"),
        Printed(one("0.00", "1.00", "0.00"), lambda x: softmax(x["raw"]).reshape(1, 3)),
        given(one("64"), "d_k again"),
        Printed(one("8"), lambda x: a([[np.sqrt(64.0)]]), "sqrt(64)"),
        Printed(one("3.75", "6.25", "4.38"), lambda x: (x["raw"] / 8).reshape(1, 3)),
        given(one("3.75", "6.25", "4.38"), "scaled scores again"),
        Printed(one("0.06", "0.76", "0.18"), lambda x: softmax(x["scaled"]).reshape(1, 3)),
        given(one("42", "8", "4", "1.0", "2.0", "4.0"), "seed, sizes and divisors in the code"),
        given(one("1.0"), "weights sum to (takeaways)"),
    ),
    notes=(
        "A lesson page of an NLP kata course in Markdown (ASCII figures in a text block, a "
        "Python block shortened in the transcription, no outputs): a 6 x 6 table of "
        "illustrative weights for 'The cat sat on the bank' with no scores behind it (given; "
        "each row does sum to 1.0, right), then the case for scaling: softmax([30, 50, 35]) "
        "--> [0.00, 1.00, 0.00] (right), sqrt(64) = 8 and the scaled scores 3.75, 6.25, 4.38 "
        "(right, 4.375 rounded). The mistake: softmax([3.75, 6.25, 4.38]) is "
        "[0.066, 0.809, 0.125], "
        "not [0.06, 0.76, 0.18] (3 wrong; the page's 0.18 > 0.06 ordering holds but the values "
        "do not). 8 right, 3 wrong."
    ),
)

# --- English exam notes: why scale, the variance proof and two saturated softmaxes -------------


def _ex_softmax(*z: float) -> Truth:
    return lambda x: softmax(a(list(z))).reshape(1, -1)


def _ex_slope(x: Arrays) -> np.ndarray:
    s = softmax(a([30.0, -20.0]))[0]
    return a([[s * (1 - s)]])


EN_EXAM = Doc(
    file="dev/en-md-exam-notes-why-scale-variance-saturated-softmax.md",
    url=(
        "https://github.com/jashndx/campusx-100-days-deep-learning-notes/blob/main/"
        "Lecture_074_Scaled_Dot_Product_Attention.md"
    ),
    kind="course-notes",
    language="en",
    inputs={},
    printed=(
        given(one("64", "512"), "example key sizes"),
        given(one("64", "64"), "d_k = 64"),
        Printed(one("8"), lambda x: a([[np.sqrt(64.0)]]), "sqrt(64), the scale"),
        given(one("+20", "-25"), "illustrative large scores"),
        other(one("1.0"), "variance after scaling (statistics, not attention)"),
        given(one("1.0", "0.0"), "saturation in words"),
        other(block("0 1 0 1 1 0 1 0 0 1 0 1 1 1 1 1 1 1 1 1 1 1 1.0 1.0"), "proof"),
        given(one("30", "-20"), "unscaled logits"),
        Printed(one("1.0", "0.0"), _ex_softmax(30.0, -20.0), "softmax of the unscaled logits"),
        given(one("1", "1.0", "1", "1.0"), "sigma_1 (1 - sigma_1) with sigma_1 = 1.0"),
        Printed(one("0.0"), _ex_slope, "softmax slope at the saturated logit"),
        given(one("3.0", "-2.0"), "scaled logits"),
        Printed(one("0.99", "0.01"), _ex_softmax(3.0, -2.0), "softmax of the scaled logits"),
        other(one("100", "10000", "0", "1", "0", "1", "1.0", "100.0", "1.0"), "simulation code"),
        other(one("1", "1", "1", "1", "1", "1", "1", "1.0", "0", "1", "1", "0", "0", "0", "0")),
        other(one("1.0"), "takeaway: variance"),
    ),
    notes=(
        "Exam notes in Markdown with MathJax (display formulas, a numpy block without outputs) "
        "on why attention divides by sqrt(d_k): the variance proof (statistics, not attention "
        "numbers), sqrt(64) = 8, then a two-logit softmax before and after scaling: "
        "softmax([30, -20]) ~ [1.0, 0.0] with a slope sigma_1 (1 - sigma_1) of 0.0, and "
        "softmax([3.0, -2.0]) ~ [0.99, 0.01]. All right: 6 right. Illustrative scores (+20, "
        "-25) and the simulation's expected variances are not judged."
    ),
)

# --- English numpy notebook: Virat, Cricket, England; the value of England printed as its key ----

_VC_WQ = block(
    "0.69110627 0.70992561 0.83357316\n0.47315228 0.93144181 0.03186034\n"
    "0.18583097 0.95253952 0.14057417"
)
_VC_WK = block(
    "0.68220537 0.75831566 0.33953483\n0.98549096 0.70534122 0.0875353\n"
    "0.3365128 0.02732681 0.10018593"
)
_VC_WV = block(
    "0.33448906 0.21532255 0.12927451\n0.13128863 0.53416311 0.30061347\n"
    "0.61004817 0.50375565 0.73968931"
)
_VC_HALVES = {"wq": 5e-9, "wk": 5e-9, "wv": 5e-9}


def _vc(token: str, matrix: str) -> Truth:
    return lambda x: (x[token] @ x[matrix]).reshape(1, 3)


def _vc_score(key: str) -> Truth:
    return lambda x: a([[(x["cricket"] @ x["wq"]) @ (x[key] @ x["wk"])]])


def _vc_printed(rows: str, truth: Truth, label: str) -> Printed:
    printed = one(*rows.split())
    return Printed(printed, settled(truth, _VC_HALVES, printed), label)


EN_VIRAT = Doc(
    file="dev/en-notebook-numpy-virat-cricket-query-keys-value-printed-as-key.ipynb",
    url="https://github.com/Mandy1200/FineTuningGemma/blob/main/basic_AttentionMechanism.ipynb",
    kind="notebook",
    language="en",
    inputs={
        "virat": a([2.2, 2.6, 3.1]),
        "cricket": a([1.1, 1.2, 1.3]),
        "england": a([1.6, 2.1, 0.234]),
        "wq": values(_VC_WQ),
        "wk": values(_VC_WK),
        "wv": values(_VC_WV),
    },
    printed=(
        given(one("2.2", "2.6", "3.1"), "Virat"),
        given(one("1.1", "1.2", "1.3"), "Cricket"),
        given(one("1.6", "2.1", "0.234"), "England"),
        given(_VC_WQ, "W for queries (np.random.rand, no seed)"),
        given(_VC_WK, "W for keys"),
        given(_VC_WV, "W for values"),
        _vc_printed("1.5695799 3.13694971 1.1379093", _vc("cricket", "wq"), "query of Cricket"),
        _vc_printed("5.10631799 3.58689475 1.2851448", _vc("virat", "wk"), "key of Virat"),
        _vc_printed("2.96837571 3.42417621 3.35903578", _vc("virat", "wv"), "value of Virat"),
        _vc_printed("3.2398036 2.7009161 0.75052338", _vc("england", "wk"), "key of England"),
        _vc_printed("3.2398036 2.7009161 0.75052338", _vc("england", "wv"), "value of England"),
        _vc_printed("20.72906075282525", _vc_score("virat"), "q(Cricket) . k(Virat)"),
        _vc_printed("14.411796123335792", _vc_score("england"), "q(Cricket) . k(England)"),
    ),
    notes=(
        "A Jupyter notebook (numpy, printed outputs, no prose) computing one query against two "
        "keys: embeddings of Virat, Cricket and England, three unseeded np.random.rand(3, 3) "
        "matrices printed to eight decimals (given), the query of Cricket, the key and value of "
        "Virat and England, and the two unscaled dot products (no softmax). The truth allows "
        "for the weights' rounding to eight decimals. The mistake: the last print labels the key "
        "of England 'Value for England' (print(..., key_eng)); England's value is [0.95364, "
        "1.58414, 1.01121]: 3 wrong. 14 right, 3 wrong."
    ),
)

# --- Simplified Chinese tutorial chapter: a dictionary looked up with weights ------------------

ZH_DICT = Doc(
    file="dev/zh-cn-md-tutorial-dictionary-lookup-weighted-value.md",
    url=(
        "https://github.com/datawhalechina/happy-llm/blob/main/docs/chapter2/"
        "%E7%AC%AC%E4%BA%8C%E7%AB%A0%20Transformer%E6%9E%B6%E6%9E%84.md"
    ),
    kind="tutorial-chapter",
    language="zh-cn",
    inputs={"w": a([0.6, 0.4, 0.0]), "v": a([10.0, 5.0, 2.0])},
    printed=(
        given(one("10", "5", "2"), "the dictionary's values"),
        given(one("0.6", "0.4", "0"), "weights for the query fruit (set by hand)"),
        given(one("0.6", "10", "0.4", "5", "0", "2"), "weights and values in the sum"),
        Printed(one("8"), lambda x: a([[x["w"] @ x["v"]]]), "weighted sum of the values"),
        given(one("1", "1", "0"), "mask code: diagonal=1, softmax sums to 1, 0 for -inf"),
    ),
    notes=(
        "A Simplified Chinese chapter of an open LLM tutorial in Markdown (MathJax, JSON and "
        "Python blocks), transcribed from its attention section: a dictionary {apple: 10, "
        "banana: 5, chair: 2} queried with 'fruit' through hand-set weights {0.6, 0.4, 0} "
        "(given), the result 0.6 * 10 + 0.4 * 5 + 0 * 2 = 8 (right), then the formulas "
        "softmax(qK^T)v, softmax(QK^T / sqrt(d_k))V and the causal-mask code, without "
        "numbers. 1 right."
    ),
)

DEV_SEEN_JUDGE13: list[Doc] = [EN_CAMPUSX, EN_KATA, EN_EXAM, EN_VIRAT, ZH_DICT]
