"""Development documents: the sixth held-out batch, studied in session 29 and moved to dev
(truth unchanged by the move; it was computed with numpy from the printed inputs when the batch
was held out): a study exercise worked by hand, a Portuguese README and a Chinese blog's LaTeX
example here; a softmax notebook in dev_seen_judge6b.py (its two LaTeX solutions had moved to
dev_seen_judge6.py in session 28); Korean, Japanese, Vietnamese and German prose in
dev_seen_judge6c.py; a Polish blog post in dev_seen_judge6d.py. See tests/corpus/truth_dev.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.dev_seen_judge6b import DEV_SEEN_JUDGE6B
from tests.corpus.dev_seen_judge6c import DEV_SEEN_JUDGE6C
from tests.corpus.dev_seen_judge6d import DEV_SEEN_JUDGE6D
from tests.corpus.heldout_help import Truth, a, block, given, one, other
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- study exercise (Markdown): softmax([10, 0, -5]) by hand, then scaled by 2 and by 8 ---------


def _exp(j: int, scale: float = 1.0) -> Truth:
    return lambda x: np.exp(x["s"][j] / scale)


def _share(j: int, times: float = 1.0, scale: float = 1.0) -> Truth:
    return lambda x: times * softmax(x["s"] / scale)[j]


def _exp_sum(x: Arrays) -> np.ndarray:
    return np.exp(x["s"]).sum()


def _hand_steps() -> tuple[Printed, ...]:
    """Step 1 to the result: the exponentials, their sum, each share as a fraction and in %."""
    exps = [Printed(one(t), _exp(j), f"e^score {j + 1}") for j, t in enumerate(_EXPS)]
    total = Printed(one("22027.4725"), _exp_sum, "sum of the exponentials")
    shares = (("0.9999545", "99.995"), ("0.0000454", "0.005"), ("0.0000003", "0.0003"))
    fractions: list[Printed] = []
    for j, (share, percent) in enumerate(shares):
        fractions += [
            Printed(one(_EXPS[j]), _exp(j), f"numerator {j + 1}"),
            total,
            Printed(one(share), _share(j), f"softmax, entry {j + 1}"),
            Printed(one(percent), _share(j, 100.0), f"softmax, entry {j + 1}, in %"),
        ]
    result = Printed(one(*(s for s, _ in shares)), lambda x: softmax(x["s"]), "result")
    return (*exps, *exps, total, *fractions, result)


_EXPS = ("22026.4658", "1.0000", "0.0067")

HAND = Doc(
    file="dev/en-md-softmax-by-hand-ten-zero-minus-five.md",
    url=(
        "https://github.com/Roni6291/genai_learning_path/blob/main/"
        "1.3-Transformer_Attention/q2_softmax_calculation.md"
    ),
    kind="exercise",
    language="en",
    inputs={"s": a([10.0, 0.0, -5.0])},
    printed=(
        given(one("10", "0", "-5"), "scores"),
        *_hand_steps(),
        other(one("0.9999545", "0.0000454", "0.0000003"), "check: the shares added"),
        other(one("1.0000002"), "their sum"),
        other(one("1"), "about 1"),
        Printed(one("99.995"), _share(0, 100.0), "share of the first score, in %"),
        other(one("1"), "e^0 = 1"),
        other(one("3.3"), "3.3 million times"),
        Printed(one("0.0067"), _exp(2), "e^-5"),
        other(one("64"), "d_k"),
        other(one("-8", "8"), "range of the dot products"),
        given(one("10", "0", "-5"), "large scores again"),
        Printed(one("0.9999", "0.0000", "0.0000"), lambda x: softmax(x["s"]), "unscaled softmax"),
        given(one("10", "0", "-5"), "scores before scaling"),
        other(one("4"), "d_k"),
        other(one("4"), "sqrt(4)"),
        other(one("2"), "= 2"),
        given(one("10", "0", "-5"), "scores divided by 2"),
        other(one("2"), "the divisor"),
        Printed(one("5", "0", "-2.5"), lambda x: x["s"] / 2, "scaled scores"),
        Printed(one("148.41"), _exp(0, 2.0), "e^5"),
        Printed(one("1.00"), _exp(1, 2.0), "e^0"),
        Printed(one("0.082"), _exp(2, 2.0), "e^-2.5"),
        Printed(
            one("149.492"),
            lambda x: np.exp(x["s"] / 2).sum(),
            "sum of the rounded exponentials",
            follows=True,
        ),
        Printed(
            one("0.9929", "0.0067", "0.0005"), lambda x: softmax(x["s"] / 2), "softmax, d_k = 4"
        ),
        other(one("64"), "d_k"),
        other(one("64"), "sqrt(64)"),
        other(one("8"), "= 8"),
        Printed(one("1.25", "0", "-0.625"), lambda x: x["s"] / 8, "scores / 8"),
        Printed(
            one("0.6011", "0.1711", "0.2278"), lambda x: softmax(x["s"] / 8), "softmax, d_k = 64"
        ),
        other(one("-3", "3"), "a stable range"),
        other(one("1"), "variance 1"),
    ),
    notes=(
        "A study exercise (Markdown with display math): softmax([10, 0, -5]) by hand, each "
        "exponential, the sum, each share as a fraction and in percent, then the same scores "
        "divided by sqrt(4) = 2 and by sqrt(64) = 8. Its mistakes as published: softmax(10) is "
        "0.99995430, printed 0.9999545 (twice); 0.0000003 is 0.00003 %, printed 0.0003 %; the "
        "unscaled softmax shown as [0.9999, 0.0000, 0.0000] truncates 0.99995 (1.0000); "
        "softmax([5, 0, -2.5]) is [0.99276, 0.00669, 0.00055], printed 0.9929 first; and "
        "softmax([1.25, 0, -0.625]) is [0.6945, 0.1990, 0.1065], printed [0.6011, 0.1711, "
        "0.2278] (the last two even swapped in size). The sum 149.492 adds the rounded "
        "exponentials (149.4952 exactly): it follows. The check 1.0000002 adds printed shares."
    ),
)

# --- Portuguese README: Q = K = I, V given, the output and the softmax printed by numpy --------

_PT_V: list[list[float]] = [[1, 2], [3, 4]]


def _pt_weights(x: Arrays) -> np.ndarray:
    return softmax(x["Q"] @ x["K"].T / np.sqrt(2))


PT_README = Doc(
    file="dev/pt-readme-md-numpy-two-tokens-identity-keys.md",
    url="https://github.com/LPiresG/Faculdade/blob/main/README.md",
    kind="readme",
    language="pt",
    inputs={"Q": a([[1.0, 0.0], [0.0, 1.0]]), "K": a([[1.0, 0.0], [0.0, 1.0]]), "V": a(_PT_V)},
    printed=(
        given(block("[[1, 0], [0, 1]]"), "Q"),
        given(block("[[1, 0], [0, 1]]"), "K"),
        given(block("[[1, 2], [3, 4]]"), "V"),
        Printed(
            block("[[1.6604769  2.6604769 ]\n [2.3395231  3.3395231 ]]"),
            lambda x: _pt_weights(x) @ x["V"],
            "Saída",
        ),
        Printed(
            block("[[0.66976155 0.33023845]\n [0.33023845 0.66976155]]"),
            _pt_weights,
            "Resultado do softmax",
        ),
    ),
    notes=(
        "A course assignment's README in Portuguese: Q = K = the 2 x 2 identity, V = [[1, 2], "
        "[3, 4]], scaled by sqrt(2); the output and the weights as numpy prints them (8 decimals, "
        "padded columns), the output first. The code calls print('Softmax:') but the README "
        "labels the block 'Resultado do softmax'. All right."
    ),
)

# --- Chinese blog (Markdown + LaTeX bmatrix): three fruit words, unscaled, every step wrong -------

_FRUIT_Q_ROWS: list[list[float]] = [[1, 0, 1], [0, 1, 0], [1, 1, 0]]
_FRUIT_K_ROWS: list[list[float]] = [[1, 1, 1], [0, 1, 0], [1, 0, 1]]
_FRUIT_V_ROWS: list[list[float]] = [[1, 0, 1], [0, 1, 0], [1, 0, 1]]
_FRUIT_Q = "1 0 1\n0 1 0\n1 1 0"
_FRUIT_K = "1 1 1\n0 1 0\n1 0 1"
_FRUIT_V = "1 0 1\n0 1 0\n1 0 1"
_FRUIT_W = "0.5 0.2 0.3\n0.2 0.5 0.3\n0.3 0.2 0.5"


def _fruit_weights(x: Arrays) -> np.ndarray:
    return softmax(x["Q"] @ x["K"].T)


ZH_FRUIT = Doc(
    file="dev/zh-blog-md-three-fruit-words-unscaled-wrong.md",
    url=(
        "https://github.com/AIGeniusInstitute/pycnblog/blob/main/agi/558/"
        "%E8%AE%BE%E8%AE%A1%E5%90%88%E4%BD%9C%E8%80%85%EF%BC%9ALLM%20"
        "%E6%BF%80%E5%8F%91%E8%A7%86%E8%A7%89%E5%88%9B%E6%96%B0.md"
    ),
    kind="blog",
    language="zh",
    inputs={"Q": a(_FRUIT_Q_ROWS), "K": a(_FRUIT_K_ROWS), "V": a(_FRUIT_V_ROWS)},
    printed=(
        other(one("1"), "1 / sqrt(d_k) in the stated formula"),
        other(one("3"), "three words"),
        given(block(_FRUIT_Q), "Q"),
        given(block(_FRUIT_K), "K"),
        given(block(_FRUIT_V), "V"),
        given(block(_FRUIT_Q), "Q in the product"),
        given(block(_FRUIT_K), "K in the product (printed untransposed)"),
        Printed(block("2 1 2\n1 1 1\n2 1 2"), lambda x: x["Q"] @ x["K"].T, "score = QK^T"),
        Printed(block(_FRUIT_W), _fruit_weights, "softmax(score)"),
        Printed(block(_FRUIT_W), _fruit_weights, "weight = softmax(score)"),
        Printed(block(_FRUIT_W), _fruit_weights, "weight, in the product"),
        given(block(_FRUIT_V), "V in the product"),
        Printed(
            block("0.8 0.2 0.8\n0.2 0.5 0.2\n0.8 0.2 0.8"),
            lambda x: _fruit_weights(x) @ x["V"],
            "output = weight V",
            follows=True,
        ),
    ),
    notes=(
        "A machine-written Chinese blog post (Markdown with LaTeX bmatrix), section 4 only: "
        "three words named apple, banana, orange with 3 x 3 integer Q, K, V, worked in four "
        "steps that do not scale (score = QK^T, weight = softmax(score), output = weight V; "
        "the formula above them, (1/sqrt(d_k)) softmax(QK^T / d_k) V, is not what the steps "
        "do, and the steps are the truth). QK^T is [[2, 0, 2], [1, 1, 0], [2, 1, 1]]: three of "
        "the nine printed scores are wrong. The weights, printed three times, are made up: "
        "softmax of the true scores is [[0.468, 0.063, 0.468], [0.422, 0.422, 0.155], [0.576, "
        "0.212, 0.212]], so only 0.5 (row 1) and 0.2 (row 3) pass at one decimal, 7 of 9 are "
        "wrong in each copy. The true output is [[0.937, 0.063, 0.937], [0.578, 0.422, 0.578], "
        "[0.788, 0.212, 0.788]]; the printed one follows the printed weights in rows 1 and 3 "
        "([0.8, 0.2, 0.8]) but not in row 2 (they give [0.5, 0.5, 0.5], printed [0.2, 0.5, "
        "0.2]); it is marked as following (row 3 is also right at one decimal). These are the "
        "document's mistakes as published."
    ),
)

DEV_SEEN_JUDGE6A: list[Doc] = [
    HAND,
    PT_README,
    ZH_FRUIT,
    *DEV_SEEN_JUDGE6B,
    *DEV_SEEN_JUDGE6C,
    *DEV_SEEN_JUDGE6D,
]
