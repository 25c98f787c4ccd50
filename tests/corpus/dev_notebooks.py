"""The development corpus, continued: notebooks (a softmax replaced by rounded stand-ins, a 3-d
print, seeded random weights, padding masks) and course-note tables with a wrong softmax."""

from __future__ import annotations

import numpy as np

from tests.corpus.helpers import array, entries, follows_row, given, grid, row, rows, softmax
from tests.corpus.model import Arrays, Doc, Printed

# ------------------------------------------------------------------ illustrated self-attention
_IL_X = array("1 0 1 0\n0 2 0 2\n1 1 1 1")
_IL_W = {
    "WK": array("0 0 1\n1 1 0\n0 1 0\n1 1 0"),
    "WQ": array("1 0 1\n1 0 0\n0 0 1\n0 1 1"),
    "WV": array("0 2 0\n0 3 0\n1 0 3\n1 1 0"),
}


def _il(a: Arrays, w: str) -> np.ndarray:
    return a["X"] @ a[w]


def _il_weights(a: Arrays) -> np.ndarray:
    return softmax(_il(a, "WQ") @ _il(a, "WK").T)


def _il_weighted(a: Arrays) -> np.ndarray:
    return _il(a, "WV")[:, None] * _il_weights(a).T[:, :, None]


def _il_each(i: int) -> Printed:
    texts = ("0.0, 0.0, 0.0", "1.0, 4.0, 0.0", "1.0, 3.0, 1.5")
    return follows_row(texts[i], lambda a: _il_weights(a)[0, i] * _il(a, "WV")[i], f"weighted {i}")


def _il_qkv(name: str, w: str, text: str) -> tuple[Printed, Printed]:
    truth = lambda a: _il(a, w)  # noqa: E731
    return Printed(rows(text), truth, name), Printed(rows(text), truth, f"{name} (comment)")


_IL_SOFTMAX_E = (
    "6.3379e-02 4.6831e-01 4.6831e-01\n6.0337e-06 9.8201e-01 1.7986e-02\n"
    "2.9539e-04 8.8054e-01 1.1917e-01"
)
_IL_OUT = "2.0000 7.0000 1.5000 / 2.0000 8.0000 0.0000 / 2.0000 7.8000 0.3000"

ILLUSTRATED = Doc(
    file="dev/illustrated-self-attention-colab-torch.ipynb",
    url="https://github.com/MJMortensonWarwick/ADA/blob/main/3_1_illustrated_self_attention_.ipynb",
    kind="notebook-torch",
    language="en",
    inputs={"X": _IL_X} | _IL_W,
    printed=(
        given("1, 0, 1, 0\n0, 2, 0, 2\n1, 1, 1, 1", "x (code)"),
        given("1. 0. 1. 0.\n0. 2. 0. 2.\n1. 1. 1. 1.", "x"),
        given("0 0 1\n1 1 0\n0 1 0\n1 1 0", "w_key (code)"),
        given("1 0 1\n1 0 0\n0 0 1\n0 1 1", "w_query (code)"),
        given("0 2 0\n0 3 0\n1 0 3\n1 1 0", "w_value (code)"),
        given("0. 0. 1.\n1. 1. 0.\n0. 1. 0.\n1. 1. 0.", "w_key"),
        given("1. 0. 1.\n1. 0. 0.\n0. 0. 1.\n0. 1. 1.", "w_query"),
        given("0. 2. 0.\n0. 3. 0.\n1. 0. 3.\n1. 1. 0.", "w_value"),
        *_il_qkv("keys", "WK", "0. 1. 1.\n4. 4. 0.\n2. 3. 1."),
        *_il_qkv("querys", "WQ", "1. 0. 2.\n2. 2. 2.\n2. 1. 3."),
        *_il_qkv("values", "WV", "1. 2. 3.\n2. 8. 0.\n2. 6. 3."),
        Printed(
            entries("2. 4. 4. / 4. 16. 12. / 4. 12. 10."),
            lambda a: _il(a, "WQ") @ _il(a, "WK").T,
            "attn_scores (comment)",
        ),
        Printed(
            rows("2. 4. 4.\n4. 16. 12.\n4. 12. 10."),
            lambda a: _il(a, "WQ") @ _il(a, "WK").T,
            "attn_scores",
        ),
        Printed(row("2, 4, 4"), lambda a: (_il(a, "WQ") @ _il(a, "WK").T)[0], "scores of 1"),
        Printed(row("0.0, 0.5, 0.5"), lambda a: _il_weights(a)[0], "softmax([2, 4, 4])"),
        Printed(rows(_IL_SOFTMAX_E), _il_weights, "softmax (comment)"),
        Printed(rows("0.0, 0.5, 0.5\n0.0, 1.0, 0.0\n0.0, 0.9, 0.1"), _il_weights, "approx (code)"),
        Printed(rows(_IL_SOFTMAX_E), _il_weights, "softmax"),
        Printed(
            rows("0.0000 0.5000 0.5000\n0.0000 1.0000 0.0000\n0.0000 0.9000 0.1000"),
            _il_weights,
            "approximated softmax",
        ),
        _il_each(0),
        _il_each(1),
        _il_each(2),
        Printed(
            rows(
                "0.0000 0.0000 0.0000\n0.0000 0.0000 0.0000\n0.0000 0.0000 0.0000\n"
                "1.0000 4.0000 0.0000\n2.0000 8.0000 0.0000\n1.8000 7.2000 0.0000\n"
                "1.0000 3.0000 1.5000\n0.0000 0.0000 0.0000\n0.2000 0.6000 0.3000"
            ),
            _il_weighted,
            "weighted_values (3, 3, 3)",
            follows=True,
        ),
        _il_each(0),
        _il_each(1),
        _il_each(2),
        follows_row("2.0, 7.0, 1.5", lambda a: (_il_weights(a) @ _il(a, "WV"))[0], "Output 1"),
        follows_row("2.0, 7.0, 1.5", lambda a: (_il_weights(a) @ _il(a, "WV"))[0], "Output 1"),
        Printed(entries(_IL_OUT), lambda a: _il_weights(a) @ _il(a, "WV"), "outputs", follows=True),
        Printed(
            entries(_IL_OUT),
            lambda a: _il_weights(a) @ _il(a, "WV"),
            "outputs (comment)",
            follows=True,
        ),
    ),
    notes=(
        "Unscaled dot-product self-attention with integer weights (d_v = d_k = 3), every array "
        "printed twice (output and a code comment). The mistakes: the softmax is printed right, "
        "then replaced 'for readability' by [[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]] "
        "(printed 0.0000, 0.5000 ... with 4 decimals: wrong), and the weighted values (a "
        "(3, 3, 3) tensor printed 3-d) and the outputs use those stand-ins: they follow."
    ),
)

# ------------------------------------------------------------------ pycomplete (numpy, seed 0)
_PC_TEXT = {
    "W_q": (
        "0.5488135 0.71518937 0.60276338 0.54488318\n0.4236548 0.64589411 0.43758721 0.891773\n"
        "0.96366276 0.38344152 0.79172504 0.52889492\n0.56804456 0.92559664 0.07103606 0.0871293"
    ),
    "W_k": (
        "0.0202184 0.83261985 0.77815675 0.87001215\n0.97861834 0.79915856 0.46147936 0.78052918\n"
        "0.11827443 0.63992102 0.14335329 0.94466892\n0.52184832 0.41466194 0.26455561 0.77423369"
    ),
    "W_v": (
        "0.45615033 0.56843395 0.0187898 0.6176355\n0.61209572 0.616934 0.94374808 0.6818203\n"
        "0.3595079 0.43703195 0.6976312 0.06022547\n0.66676672 0.67063787 0.21038256 0.1289263"
    ),
}
_PC_OUT = {
    "Q": (
        "1.51247626 1.09863089 1.39448841 1.0737781\n1.98339872 3.1429815 1.01724654 1.9578046\n"
        "2.50417562 2.67012164 1.90311168 2.0526804"
    ),
    "K": (
        "0.13849282 1.47254087 0.92151004 1.81468107\n3.00093333 2.42764101 1.45206995 3.10952573\n"
        "1.63895949 2.68636137 1.64754501 3.36944393"
    ),
    "V": (
        "0.81565823 1.0054659 0.716421 0.67786097\n2.55772488 2.57514373 2.30826128 1.62149319\n"
        "2.09452067 2.29303777 1.87055164 1.48860757"
    ),
}


def _pc(a: Arrays, name: str) -> np.ndarray:
    return a["X"] @ a[f"W_{name.lower()}"]


def _pc_weights(a: Arrays) -> np.ndarray:
    return softmax(_pc(a, "Q") @ _pc(a, "K").T / 2)


PYCOMPLETE = Doc(
    file="dev/pycomplete-self-attention-random-weights.ipynb",
    url=(
        "https://github.com/MuhammadTausif/PyComplete/blob/main/attention/self-attention/"
        "self-attention.ipynb"
    ),
    kind="notebook-numpy",
    language="en",
    inputs={
        "X": array("1 0 1 0\n0 2 0 2\n1 1 1 1"),
        **{name: array(text) for name, text in _PC_TEXT.items()},
        **{f"±{name}": np.full((4, 4), 5e-9) for name in _PC_TEXT},
    },
    printed=(
        given("1.0, 0.0, 1.0, 0.0\n0.0, 2.0, 0.0, 2.0\n1.0, 1.0, 1.0, 1.0", "X (code)"),
        given("1. 0. 1. 0.\n0. 2. 0. 2.\n1. 1. 1. 1.", "X"),
        *(given(text, name) for name, text in _PC_TEXT.items()),
        *(Printed(rows(text), lambda a, n=name: _pc(a, n), name) for name, text in _PC_OUT.items()),
        Printed(
            rows(
                "2.53042292 6.28487859 5.67286222\n4.69652452 10.57351751 9.98328327\n"
                "4.87868518 11.57163735 10.66450385"
            ),
            lambda a: _pc(a, "Q") @ _pc(a, "K").T / 2,
            "scores / sqrt(dk)",
        ),
        Printed(
            rows(
                "0.01495411 0.63870437 0.34634152\n0.00180039 0.64226049 0.35593913\n"
                "0.00088234 0.71178464 0.28733302"
            ),
            _pc_weights,
            "attention_weights",
        ),
        Printed(
            rows(
                "2.37124698 2.45396559 2.13285971 1.56135821\n"
                "2.38971598 2.47190516 2.14959736 1.5724951\n"
                "2.42309392 2.49270038 2.1810883 1.58247816"
            ),
            lambda a: _pc_weights(a) @ _pc(a, "V"),
            "output",
        ),
    ),
    notes=(
        "Random uniform weights (seed 0) printed to 8 decimals, d_k = 4 written as a comment "
        "(`dk = Q.shape[1]  # 4`), scaled scores, softmax and output, numpy's default print "
        "(trailing zeros dropped: 0.891773, 1.0737781). All right."
    ),
)


# ------------------------------------------------------------------ masked softmax (padding)
def _arange_masked() -> np.ndarray:
    x = np.arange(18, dtype=np.float64).reshape(3, 6)
    x[2, 4] = -np.inf
    return x


MASKED_SOFTMAX = Doc(
    file="dev/masked-softmax-padding-numpy-torch.ipynb",
    url="https://github.com/juditacs/snippets/blob/master/deep_learning/masked_softmax.ipynb",
    kind="notebook-numpy",
    language="en",
    inputs={},
    printed=(
        Printed(
            grid(
                "0.00426978 0.01160646 0.03154963 0.08576079 0.23312201 0.63369132 "
                "0.00426978 0.01160646 0.03154963 0.08576079 0.23312201 0.63369132 "
                "0.00556774 0.01513469 0.04114036 0.11183108 0. 0.82632613",
                6,
            ),
            lambda a: softmax(_arange_masked()),
            "softmax(arange(18) with -inf), rows wrapped",
        ),
        Printed(rows("100 1 2\n3 100 5\n6 7 8\n9 10 100"), None, "X[mask] = 100", attention=False),
        Printed(
            rows("0 100 100\n100 4 100\n100 100 100\n100 100 11"),
            None,
            "X[~mask] = 100",
            attention=False,
        ),
        given("4, 1, 6, 3", "X_len"),
        Printed(
            rows(
                "0.1235 0.5007 0.2250 0.1508 0.0000 0.0000\n"
                "1.0000 0.0000 0.0000 0.0000 0.0000 0.0000\n"
                "0.0733 0.2433 0.0895 0.2972 0.1631 0.1335\n"
                "0.1286 0.6370 0.2344 0.0000 0.0000 0.0000"
            ),
            None,
            "softmax with -inf (scores never printed)",
        ),
        Printed(
            rows(
                "0.4419 0.2425 0.0730 0.2425 0.0000 0.0000\n"
                "1.0000 0.0000 0.0000 0.0000 0.0000 0.0000\n"
                "0.1671 0.3045 0.0615 0.0503 0.2493 0.1671\n"
                "0.1098 0.4451 0.4451 0.0000 0.0000 0.0000"
            ),
            None,
            "softmax with -10000 (scores never printed)",
        ),
    ),
    notes=(
        "A numpy softmax of arange(18) as 3x6 with one -inf, printed by numpy with each row "
        "wrapped over two lines; then padding masks (-inf and -10000) over random scores that "
        "are never printed, so those weights cannot be recomputed and must not be claimed "
        "wrong; the masked assignments with 100 and a %%timeit line are not attention. All right."
    ),
)

# ------------------------------------------------------------------ notes: a table, a scaling demo
_NOTES = (
    "https://github.com/yangshiteng/Data-Science-Learning-Path/blob/"
    "364e5eec98baff1ee1f8b67183326a47f41d23c1/deep_learning/transformer/"
)
_TABLE_SCORES = np.array([[2.0], [4.0], [6.0]])

SCORES_TABLE = Doc(
    file="dev/en-notes-attention-scores-table.md",
    url=_NOTES + "attention_score_calculation.md",
    kind="course-notes",
    language="en",
    inputs={"s": _TABLE_SCORES},
    printed=(
        given("2.0\n4.0\n6.0", "Dot Product Score"),
        Printed(rows("1.0\n2.0\n3.0"), lambda a: a["s"] / 2, "After Scaling"),
        Printed(
            rows("0.10\n0.30\n0.60"),
            lambda a: softmax(a["s"] / 2, axis=0),
            "Attention Weight",
        ),
    ),
    notes=(
        "A Markdown table whose columns are the steps (scores, scaled by 2 = sqrt(4), weights) "
        "for one query over three words. The mistake: the weights are not the softmax of the "
        "scaled scores [1, 2, 3], which is [0.090, 0.245, 0.665] (printed 0.10, 0.30, 0.60)."
    ),
)

_SCALE_IN = np.array([10.0, 20.0, 30.0])

WHY_SCALE = Doc(
    file="dev/en-notes-why-scale-matters.md",
    url=_NOTES + "why_scale_matters.md",
    kind="course-notes",
    language="en",
    inputs={},
    printed=(
        given("10, 20, 30", "scores"),
        Printed(row("~0.0, ~0.0, ~1.0"), lambda a: softmax(_SCALE_IN), "softmax unscaled"),
        Printed(row("2.5, 5.0, 7.5"), lambda a: _SCALE_IN / 4, "scores / 4"),
        Printed(row("0.02, 0.12, 0.86"), lambda a: softmax(_SCALE_IN / 4), "softmax scaled"),
        given("10, 20, 30", "Input Scores (table)"),
        Printed(row("0.000, 0.000, 1.000"), lambda a: softmax(_SCALE_IN), "table: too sharp"),
        Printed(row("2.5, 5.0, 7.5"), lambda a: _SCALE_IN / 4, "table: scaled scores"),
        Printed(row("0.02, 0.12, 0.86"), lambda a: softmax(_SCALE_IN / 4), "table: balanced"),
    ),
    notes=(
        "Softmax of [10, 20, 30] before and after dividing by sqrt(16) = 4, inline and in two "
        "Markdown tables. The mistake: softmax([2.5, 5.0, 7.5]) is [0.0062, 0.0754, 0.9184], "
        "printed [0.02, 0.12, 0.86] twice; the unscaled one (~0.0, ~0.0, ~1.0 and 0.000, 0.000, "
        "1.000) is right."
    ),
)

DEV_NOTEBOOKS: list[Doc] = [ILLUSTRATED, PYCOMPLETE, MASKED_SOFTMAX, SCORES_TABLE, WHY_SCALE]
