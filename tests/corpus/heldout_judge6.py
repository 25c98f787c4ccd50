"""The sixth batch of held-out documents (a study exercise worked by hand, a Portuguese README, a
Chinese blog's LaTeX example), their truth computed with numpy from the printed inputs. See
tests/corpus/truth_heldout.py."""

from __future__ import annotations

import numpy as np

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
    file="heldout/en-md-softmax-by-hand-ten-zero-minus-five.md",
    url=(
        "https://github.com/Roni6291/genai_learning_path/blob/main/"
        "1.3-Transformer_Attention/q2_softmax_calculation.md"
    ),
    kind="exercise",
    language="en",
    inputs={"s": a([10, 0, -5])},
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
        "divided by sqrt(4) = 2 and by sqrt(64) = 8. Mistakes as published: softmax(10) is "
        "0.99995430, printed 0.9999545 (twice); 0.0000003 is 0.00003 %, printed 0.0003 %; the "
        "unscaled softmax shown as [0.9999, 0.0000, 0.0000] truncates 0.99995 (1.0000); "
        "softmax([5, 0, -2.5]) is [0.99276, 0.00669, 0.00055], printed 0.9929 first; and "
        "softmax([1.25, 0, -0.625]) is [0.6945, 0.1990, 0.1065], printed [0.6011, 0.1711, "
        "0.2278] (the last two even swapped in size). The sum 149.492 adds the rounded "
        "exponentials (149.4952 exactly): it follows. The check 1.0000002 adds printed shares."
    ),
)

# --- Portuguese README: Q = K = I, V given, the output and the softmax printed by numpy --------

_PT_V = [[1, 2], [3, 4]]


def _pt_weights(x: Arrays) -> np.ndarray:
    return softmax(x["Q"] @ x["K"].T / np.sqrt(2))


PT_README = Doc(
    file="heldout/pt-readme-md-numpy-two-tokens-identity-keys.md",
    url="https://github.com/LPiresG/Faculdade/blob/main/README.md",
    kind="readme",
    language="pt",
    inputs={"Q": a([[1, 0], [0, 1]]), "K": a([[1, 0], [0, 1]]), "V": a(_PT_V)},
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

# --- Chinese blog (Markdown + LaTeX bmatrix): a 2 x 2 example whose every result is wrong ------


def _zh_scaled(x: Arrays) -> np.ndarray:
    return x["Q"] @ x["K"].T / np.sqrt(2)


ZH_LANGCHAIN = Doc(
    file="heldout/zh-blog-md-langchain-attention-case-2x2-wrong.md",
    url="https://github.com/Jason-Chen-2017/pycnblog/tree/master/blog/zen",
    kind="blog",
    language="zh",
    inputs={"Q": a([[1, 0], [0, 1]]), "K": a([[1, 2], [3, 4]]), "V": a([[5, 6], [7, 8]])},
    printed=(
        given(block("1 0\n0 1"), "Q"),
        given(block("1 2\n3 4"), "K"),
        given(block("5 6\n7 8"), "V"),
        other(one("2"), "sqrt(2)"),
        Printed(block("1 3\n0 4"), _zh_scaled, "QK^T / sqrt(2) as written"),
        given(block("5 6\n7 8"), "V"),
        Printed(block("0.6 0.4\n0.3 0.7"), lambda x: softmax(_zh_scaled(x)), "weights"),
        given(block("5 6\n7 8"), "V"),
        Printed(block("4 5.6\n3.3 5.6"), lambda x: softmax(_zh_scaled(x)) @ x["V"], "output"),
    ),
    notes=(
        "One article of a series of machine-written Chinese blog posts (Markdown, LaTeX "
        "bmatrix): Q = I, K = [[1, 2], [3, 4]], V = [[5, 6], [7, 8]], d_k = 2. Nearly every "
        "result is wrong: QK^T / sqrt(2) is [[0.707, 2.121], [1.414, 2.828]], not [[1, 3], "
        "[0, 4]] (the 1 passes at its printed precision, the other three are wrong); its "
        "softmax is [[0.196, 0.804], [0.196, 0.804]], not [[0.6, 0.4], [0.3, 0.7]]; and the "
        "output is [[6.609, 7.609], [6.609, 7.609]], not [[4, 5.6], [3.3, 5.6]] (not even "
        "the product of the printed weights and V). Only the attention part of the article "
        "(sections 4.1-4.3) is transcribed; the page does not name its file in the series."
    ),
)

JUDGE_DOCS_6: list[Doc] = [HAND, PT_README, ZH_LANGCHAIN]
