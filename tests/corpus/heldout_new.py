"""The held-out documents' truth, continued: documents whose sources share nothing with the dev
part (see tests/corpus/truth_heldout.py and tests/test_corpus_heldout.py)."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import a, block, given, one, other, settled
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- Portuguese course notebook: cross-attention, two target words over three source words --------


def _cross_weights(x: Arrays) -> np.ndarray:
    return softmax(x["Q"] @ x["K"].T)


PT_CROSS = Doc(
    file="heldout/pt-postech-cross-attention.ipynb",
    url="https://github.com/carlosvblessa/ia-generativa-postech/blob/main/Aula1.3-Cross_Attention.ipynb",
    kind="notebook-numpy",
    language="pt",
    inputs={"Q": a([[1, 0, 0], [0, 1, 0]]), "K": a([[1, 0, 1], [0, 2, 0], [1, 1, 1]])},
    printed=(
        given(block("[[1 0 0]\n [0 1 0]]"), "Q (destino)"),
        given(block("[[1 0 1]\n [0 2 0]\n [1 1 1]]"), "K e V (origem)"),
        Printed(
            block("[[0.4223188  0.1553624  0.4223188 ]\n [0.09003057 0.66524096 0.24472847]]"),
            _cross_weights,
            "Pesos de Atenção",
        ),
        Printed(
            block("[[0.8446376  0.73304361 0.8446376 ]\n [0.33475904 1.57521038 0.33475904]]"),
            lambda x: _cross_weights(x) @ x["K"],
            "Saída com Cross-Attention",
        ),
    ),
    notes=(
        "Cross-attention: 2 queries (target) against 3 keys (source), V = K, no scaling "
        "(d = 3 but scores are Q K^T as written in the code). All right."
    ),
)

# --- Portuguese course notebook: self-attention on one-hot vectors, then hand-made embeddings ----

_ONE_HOT_W = block(
    """
    [[0.40460968 0.14884758 0.14884758 0.14884758 0.14884758]
     [0.14884758 0.40460968 0.14884758 0.14884758 0.14884758]
     [0.14884758 0.14884758 0.40460968 0.14884758 0.14884758]
     [0.14884758 0.14884758 0.14884758 0.40460968 0.14884758]
     [0.14884758 0.14884758 0.14884758 0.14884758 0.40460968]]
    """
)
_EMB = [[1.0, 0, 0], [0.8, 0.1, 0.1], [0.2, 0.8, 0.2], [0.1, 0.1, 0.8], [0.8, 0.1, 0.2]]


def _self(x: Arrays, name: str) -> np.ndarray:
    return softmax(x[name] @ x[name].T)


PT_SELF = Doc(
    file="heldout/pt-postech-self-attention-embeddings.ipynb",
    url="https://github.com/carlosvblessa/ia-generativa-postech/blob/main/Aula1.2-Self_attention.ipynb",
    kind="notebook-numpy",
    language="pt",
    inputs={"I": np.eye(5), "E": a(_EMB)},
    printed=(
        given(
            block(
                "[[1. 0. 0. 0. 0.]\n [0. 1. 0. 0. 0.]\n [0. 0. 1. 0. 0.]\n"
                " [0. 0. 0. 1. 0.]\n [0. 0. 0. 0. 1.]]"
            ),
            "X one-hot",
        ),
        Printed(_ONE_HOT_W, lambda x: _self(x, "I"), "Pesos de Atenção (one-hot)"),
        Printed(_ONE_HOT_W, lambda x: _self(x, "I") @ x["I"], "Saída (one-hot)"),
        given(
            block(
                "[1., 0., 0.]\n[0.8, 0.1, 0.1]\n[0.2, 0.8, 0.2]\n[0.1, 0.1, 0.8]\n[0.8, 0.1, 0.2]"
            ),
            "embeddings",
        ),
        Printed(
            block(
                """
                [[0.28625735 0.23436769 0.12862372 0.11638355 0.23436769]
                 [0.25887999 0.22505945 0.15086186 0.13787736 0.22732134]
                 [0.16980847 0.18030884 0.28562254 0.18030884 0.18395132]
                 [0.16237652 0.17415015 0.19055061 0.28426811 0.1886546 ]
                 [0.25345973 0.22256183 0.15068702 0.14623354 0.22705788]]
                """
            ),
            lambda x: _self(x, "E"),
            "Pesos de Atenção (embeddings)",
        ),
        Printed(
            block(
                """
                [[0.69860875 0.16141087 0.18914189]
                 [0.66474473 0.1797153  0.20844447]
                 [0.53637198 0.28295493 0.25619273]
                 [0.51915726 0.21714778 0.32067055]
                 [0.65791626 0.18013494 0.214792  ]]
                """
            ),
            lambda x: _self(x, "E") @ x["E"],
            "Saída (embeddings)",
        ),
    ),
    notes=(
        "Q = K = V = X, unscaled softmax(X X^T) X, twice: one-hot rows (the output equals the "
        "weights, V = I) and hand-made 3-d embeddings; the prose quotes rounded weights "
        "(≈0.23, ≈0.26, ≈0.29, ≈0.28) that are not claims of their own. All right."
    ),
)

# --- Japanese Zenn lecture: a Rust program whose printed output it cannot have produced ----------

_ZENN_X = [[1.0, 0.5, 0.2, 0.1], [0.3, 1.0, 0.4, 0.2], [0.2, 0.3, 1.0, 0.5]]


def _zenn_weights(x: Arrays) -> np.ndarray:
    return softmax(x["X"] @ x["X"].T / 2)


def _zenn_row(i: int) -> Printed:
    texts = (("0.348", "0.325", "0.327"), ("0.32", "0.36", "0.32"), ("0.309", "0.314", "0.377"))
    return Printed((texts[i],), lambda x: _zenn_weights(x)[i : i + 1], f"Word {i + 1}")


JA_ZENN = Doc(
    file="heldout/ja-zenn-rust-self-attention-quickstart.md",
    url="https://github.com/fumishiki/zenn/blob/main/articles/ml-lecture-14-part1.md",
    kind="blog",
    language="ja",
    inputs={"X": a(_ZENN_X)},
    printed=(
        given(block("[1.0, 0.5, 0.2, 0.1]\n[0.3, 1.0, 0.4, 0.2]\n[0.2, 0.3, 1.0, 0.5]"), "x"),
        _zenn_row(0),
        _zenn_row(1),
        _zenn_row(2),
        Printed(
            block(
                " 0.5     0.6     0.533   0.267\n 0.5     0.6     0.533   0.267\n"
                " 0.497   0.597   0.537   0.271"
            ),
            lambda x: _zenn_weights(x) @ x["X"],
            "Output 3×4 Matrix{Float64}",
        ),
    ),
    notes=(
        "Mistakes: the printed output cannot come from the listed Rust program (Q = K = V = x, "
        "scores x x^T / 2, softmax by rows). The true weights are [0.396, 0.324, 0.279], "
        "[0.313, 0.380, 0.307], [0.277, 0.315, 0.408]; every printed weight is wrong. The output "
        "is printed Julia-style (`3×4 Matrix{Float64}:`) though the code asks {:.4}; rows 1 and 2 "
        "are identical; it does not follow from the printed weights either. Entries printed with "
        "one decimal (0.5, 0.6) are right at that precision, the others wrong."
    ),
)

# --- Spanish course notebook (torch): one query, masked_fill(-1e9), a (1, 1, 3) batch -------------

_ES_SCORES = one("-0.6446", "-0.3494", "1.9690")
_ES_SCALED = one("-0.3223", "-0.1747", "0.9845")
_ES_MASKED = one("-3.2232e-01", "-1.7471e-01", "-1.0000e+09")
_ES_WEIGHTS = one("0.4632", "0.5368", "0.0000")
_ES_HALVES = {"s": 5e-5}


def _es_masked(x: Arrays) -> np.ndarray:
    return np.where([[True, True, False]], x["s"] / 2, -1e9)


ES_MASK = Doc(
    file="heldout/es-notebook-torch-masked-single-query.ipynb",
    url=(
        "https://github.com/AdrianYArmas/IaBigData/blob/main/7RO/"
        "1%20Introducci%C3%B3n%20a%20la%20programaci%C3%B3n%20de%20Inteligencia%20Artificial/"
        "1.13%20TRANSFORMERS%20CON%20PYTORCH/7RO_Tarea_12-Transformers_con_PyTorch.ipynb"
    ),
    kind="notebook-torch",
    language="es",
    inputs={"s": a([[-0.6446, -0.3494, 1.9690]])},
    printed=(
        other(one("1", "1", "4"), "query.shape"),
        other(one("1", "3", "4"), "keys.shape"),
        other(one("1", "3", "4"), "values.shape"),
        other(one("1", "1", "3"), "scores.shape"),
        given(_ES_SCORES, "Scores (Q @ K^T)"),
        other(one("1", "1", "3"), "scaled_scores.shape"),
        Printed(_ES_SCALED, settled(lambda x: x["s"] / 2, _ES_HALVES, _ES_SCALED), "Scaled"),
        Printed(_ES_MASKED, settled(_es_masked, _ES_HALVES, _ES_MASKED), "masked_fill(-1e9)"),
        other(one("1", "1", "3"), "attention_weights.shape"),
        Printed(
            _ES_WEIGHTS,
            settled(lambda x: softmax(_es_masked(x)), _ES_HALVES, _ES_WEIGHTS),
            "Attention Weights",
        ),
        other(one("1", "1", "4"), "output.shape"),
        given(one("-0.6992", "-0.0519", "0.6605", "1.1972"), "Output (values never printed)"),
    ),
    notes=(
        "Random q, k, v that are never printed: the scores are the inputs. A (1, 1, 3) batch of "
        "one query, scaled by sqrt(4), the last key masked with masked_fill(mask == 0, -1e9) and "
        "printed -1.0000e+09 in e-notation among -3.2232e-01 entries; softmax over the last "
        "dimension. The output needs V, which is not printed. Shapes are not attention. All right."
    ),
)

# --- exercise repository: statement, reference code and test cases with expected outputs ---------


def _dml(x_rows: list[list[float]], w_qk: np.ndarray, w_v: np.ndarray) -> np.ndarray:
    x = a(x_rows)
    q = k = x @ w_qk
    return softmax(q @ k.T / np.sqrt(q.shape[1])) @ (x @ w_v)


_I2 = np.eye(2)
_WV2 = a([[1, 2], [3, 4]])
_W3 = a([[1, 1, 0], [0, 1, 1], [1, 0, 1]])
_WV3 = a([[1, 2, 3], [4, 5, 6], [7, 8, 9]])

DEEP_ML = Doc(
    file="heldout/exercise-md-deep-ml-self-attention.md",
    url=(
        "https://github.com/Open-Deep-ML/DML-OpenProblem/tree/main/questions/"
        "53_implement-self-attention-mechanism"
    ),
    kind="exercise",
    language="en",
    inputs={},
    printed=(
        given(block("[[1, 0], [0, 1]]"), "X"),
        given(block("[[1, 0], [0, 1]]"), "W_q"),
        given(block("[[1, 0], [0, 1]]"), "W_k"),
        given(block("[[1, 2], [3, 4]]"), "W_v"),
        Printed(
            (("1.660477", "2.660477"), ("2.339523", "3.339523")),
            lambda x: _dml([[1, 0], [0, 1]], _I2, _WV2),
            "example output",
        ),
        Printed(
            block("[[1.660477, 2.660477], [2.339523, 3.339523]]"),
            lambda x: _dml([[1, 0], [0, 1]], _I2, _WV2),
            "test 1 expected",
        ),
        given(block("[[1, 1], [1, 0]]"), "test 2 X"),
        Printed(
            block("[[3.00928465, 4.6790462], [2.5, 4.0]]"),
            lambda x: _dml([[1, 1], [1, 0]], _I2, _WV2),
            "test 2 expected",
        ),
        given(block("[[1, 0, 1], [0, 1, 1], [1, 1, 0]]"), "test 3 X"),
        given(block("[[1, 1, 0], [0, 1, 1], [1, 0, 1]]"), "test 3 W_q = W_k"),
        given(block("[[1, 2, 3], [4, 5, 6], [7, 8, 9]]"), "test 3 W_v"),
        Printed(
            block(
                "[[8.0, 10.0, 12.0], [8.61987385, 10.61987385, 12.61987385], "
                "[7.38012615, 9.38012615, 11.38012615]]"
            ),
            lambda x: _dml([[1, 0, 1], [0, 1, 1], [1, 1, 0]], _W3, _WV3),
            "test 3 expected",
        ),
    ),
    notes=(
        "Q, K, V from weights, scaled by sqrt(d_k), three test cases with different shapes "
        "(2x2 and 3x3) in one page, printed as Python lists and as a commented numpy print. "
        "All right."
    ),
)

NEW: list[Doc] = [PT_CROSS, PT_SELF, JA_ZENN, ES_MASK, DEEP_ML]
