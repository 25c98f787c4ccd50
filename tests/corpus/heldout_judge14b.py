"""The fourteenth batch of held-out documents, continued (tests/corpus/heldout_judge14.py holds
the first part and registers these in JUDGE_DOCS_14)."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, block, given, one, settled, values
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- English WIP notebook (PyTorch): a custom attention that skips the softmax, cafe sales -----

# x is torch.manual_seed(42); torch.randn(3, 3), which the page never prints (float32 values)
_DB_X = a(
    [
        [0.33669036626815796, 0.12880940735340118, 0.23446236550807953],
        [0.23033303022384644, -1.1228563785552979, -0.18632829189300537],
        [2.2082014083862305, -0.637997031211853, 0.46165722608566284],
    ]
)
_DB_SALES = block(
    "0 50 55 68 91 107 84\n0 20 22 25 12 40 49\n0 10 15 20 10 65 39\n0 15 15 18 16 51 45\n"
    "0 21 8 20 60 56 44\n0 9 8 50 18 62 50\n0 11 4 3 7 49 55"
)
_DB_PRICE = a([5, 8, 15, 4, 9, 12, 8])


def _db_attention(x: Arrays) -> np.ndarray:
    return softmax(x["x"] @ x["x"].T / np.sqrt(3.0)) @ x["x"]


def _db_wednesday(x: Arrays) -> np.ndarray:
    return (np.eye(7)[2] @ x["sales"].T).reshape(1, 7)


def _db_soft(scale: float) -> Truth:
    return lambda x: softmax(_db_wednesday(x) / scale)


EN_CAFE = Doc(
    file="heldout/en-notebook-torch-wip-custom-attention-skips-softmax-cafe-sales-query.ipynb",
    url="https://github.com/mrdbourke/learn-transformers/blob/main/attention_mechanism.ipynb",
    kind="course-notebook",
    language="en",
    inputs={"x": _DB_X, "sales": values(_DB_SALES), "price": _DB_PRICE},
    printed=(
        given(one("-1", "-1", "42", "3", "3"), "code"),
        Printed(
            block(
                "[[ 1.7361, -0.3428,  0.4193],\n [ 2.7884, -2.2552,  0.2486],\n"
                " [12.6584, -4.6864,  2.5056]]"
            ),
            _db_attention,
            "output_custom (the custom attention)",
        ),
        Printed(
            block(
                "[[ 1.1175, -0.5276,  0.2233],\n [ 1.0066, -0.7048,  0.1397],\n"
                " [ 1.9621, -0.6285,  0.4030]]"
            ),
            _db_attention,
            "output_pytorch (F.scaled_dot_product_attention)",
        ),
        given(
            block(
                "0 0 50 55 68 91 107 84\n1 0 20 22 25 12 40 49\n2 0 10 15 20 10 65 39\n"
                "3 0 15 15 18 16 51 45\n4 0 21 8 20 60 56 44\n5 0 9 8 50 18 62 50\n"
                "6 0 11 4 3 7 49 55"
            ),
            "df: cafe sales, index and seven days",
        ),
        given(one("5", "8", "15", "4", "9", "12", "8"), "price_dict"),
        given(one("5.", "8.", "15.", "4.", "9.", "12.", "8."), "price_vector"),
        given(_DB_SALES, "sales_matrix"),
        given(one("7", "7", "7"), "torch.Size([7, 7]), torch.Size([7])"),
        given(one("0.", "1005.", "936.", "1716.", "1577.", "3674.", "3013."), "sales per day"),
        given(block("5.\n8.\n15.\n4.\n9.\n12.\n8."), "price_vector.unsqueeze(1)"),
        given(one("5.", "8.", "15.", "4.", "9.", "12.", "8."), "price_vector"),
        given(
            block(
                "0. 400. 825. 272. 819. 1284. 672.\n0. 160. 330. 100. 108. 480. 392.\n"
                "0. 80. 225. 80. 90. 780. 312.\n0. 120. 225. 72. 144. 612. 360.\n"
                "0. 168. 120. 80. 540. 672. 352.\n0. 72. 120. 200. 162. 744. 400.\n"
                "0. 88. 60. 12. 63. 588. 440."
            ),
            "price_vector * sales_matrix (broadcast along rows, marked WRONG by the page)",
        ),
        given(
            block(
                "0. 250. 275. 340. 455. 535. 420.\n0. 160. 176. 200. 96. 320. 392.\n"
                "0. 150. 225. 300. 150. 975. 585.\n0. 60. 60. 72. 64. 204. 180.\n"
                "0. 189. 72. 180. 540. 504. 396.\n0. 108. 96. 600. 216. 744. 600.\n"
                "0. 88. 32. 24. 56. 392. 440."
            ),
            "price_vector.unsqueeze(1) * sales_matrix",
        ),
        given(one("1"), "dim=1"),
        given(one("2275.", "1344.", "2385.", "640.", "1881.", "2364.", "1032."), "per week"),
        given(one("0"), "dim=0"),
        given(one("0.", "1005.", "936.", "1716.", "1577.", "3674.", "3013."), "per day"),
        given(one("7", "2", "1"), "torch.zeros(7), index 2, 1"),
        given(one("0.", "0.", "1.", "0.", "0.", "0.", "0."), "query: Wednesday"),
        Printed(
            one("55.", "22.", "15.", "15.", "8.", "8.", "4."),
            _db_wednesday,
            "query @ sales_matrix.T",
        ),
        given(one("0"), "dim=0"),
        Printed(
            one(
                "1.0000e+00",
                "4.6589e-15",
                "4.2484e-18",
                "4.2484e-18",
                "3.8740e-21",
                "3.8740e-21",
                "7.0955e-23",
            ),
            _db_soft(1.0),
            "softmax of the unscaled scores",
        ),
        given(one("7"), "torch.Size([7])"),
        given(one("0", "0"), "shape[0], dim=0"),
        Printed(
            one(
                "1.0000e+00",
                "3.8293e-06",
                "2.7170e-07",
                "2.7170e-07",
                "1.9277e-08",
                "1.9277e-08",
                "4.2507e-09",
            ),
            _db_soft(np.sqrt(7.0)),
            "softmax of the scores over sqrt(7)",
        ),
        given(one("0", "0"), "shape[0], dim=0"),
        Printed(
            one("5.0000"),
            lambda x: (_db_soft(np.sqrt(7.0))(x) @ x["price"]).reshape(1, 1),
            "weights @ price_vector",
        ),
        given(one("936."), "wednesday_sales @ price_vector (no softmax)"),
    ),
    notes=(
        "A work-in-progress course notebook in PyTorch (execute results, a pandas table, "
        "e-notation tensors). x = torch.randn(3, 3) after torch.manual_seed(42) is never "
        "printed: the truth uses its float32 values reproduced with the same call. Mistake: the "
        "custom attention(query, key, value) takes the square root twice and then multiplies "
        "the raw q k^T, not its softmax, by the values, so output_custom is (x x^T) x, all 9 "
        "entries wrong (the page's own isclose test prints tensor(False)); PyTorch's "
        "scaled_dot_product_attention on the same x is right. Then an analogy with cafe sales "
        "(the table, prices and their products are given, not attention): a one-hot Wednesday "
        "query against the sales gives the scores [55, 22, 15, 15, 8, 8, 4] (right), their "
        "softmax unscaled and divided by sqrt(7) (right, e-notation) and the weighted price "
        "5.0000 (right). The later normalising cells are left out. 31 right, 9 wrong."
    ),
)

# --- Simplified Chinese notes (TensorFlow notebook): masks, four keys, queries that align -----

_LZ_Q = a([[0, 10, 0], [0, 0, 10], [10, 10, 0]])


def _lz(*rows: int, out: bool = False) -> Truth:
    def truth(x: Arrays) -> np.ndarray:
        w = softmax(x["q"][list(rows)] @ x["k"].T / np.sqrt(3.0))
        return w @ x["v"] if out else w

    return truth


ZH_TF_NOTES = Doc(
    file="heldout/zh-cn-notebook-tensorflow-notes-masks-four-keys-query-aligns-averaged-values.ipynb",
    url=(
        "https://github.com/luozhouyang/machine-learning-notes/blob/master/transformer/"
        "transformer_keras.ipynb"
    ),
    kind="notebook",
    language="zh-cn",
    inputs={
        "q": _LZ_Q,
        "k": a([[10, 0, 0], [0, 10, 0], [0, 0, 10], [0, 0, 10]]),
        "v": a([[1, 0], [10, 0], [100, 5], [1000, 6]]),
    },
    printed=(
        given(block("7 6 0 0 1\n1 2 3 0 0\n0 0 0 4 5"), "x for the padding mask"),
        given(one("3", "1", "1", "5"), "padding_mask.shape"),
        Printed(
            block("0. 0. 1. 1. 0.\n0. 0. 0. 1. 1.\n1. 1. 1. 0. 0."),
            lambda x: (a([[7, 6, 0, 0, 1], [1, 2, 3, 0, 0], [0, 0, 0, 4, 5]]) == 0) * 1.0,
            "padding mask (1 where the token is 0)",
        ),
        given(one("3", "1", "1", "5"), "shape=(3, 1, 1, 5)"),
        given(one("1", "3"), "tf.random.uniform((1, 3))"),
        given(one("3", "3"), "temp.shape"),
        Printed(
            block("0. 1. 1.\n0. 0. 1.\n0. 0. 0."),
            lambda x: np.triu(np.ones((3, 3)), 1),
            "look-ahead mask (1 above the diagonal)",
        ),
        given(one("3", "3"), "shape=(3, 3)"),
        given(one("-1", "-1e9", "-1"), "code"),
        given(block("10 0 0\n0 10 0\n0 0 10\n0 0 10"), "temp_k"),
        given(block("1 0\n10 0\n100 5\n1000 6"), "temp_v"),
        given(one("0", "10", "0"), "temp_q"),
        given(one("0", "0", "10"), "temp_q"),
        given(one("10", "10", "0"), "temp_q"),
        given(block("0 0 10\n0 10 0\n10 10 0"), "temp_q, three rows"),
        Printed(one("0.", "1.", "0.", "0."), _lz(0), "weights, query 1"),
        given(one("1", "4"), "shape=(1, 4)"),
        Printed(one("10.", "0."), _lz(0, out=True), "output, query 1"),
        given(one("1", "2"), "shape=(1, 2)"),
        Printed(one("0.", "0.", "0.5", "0.5"), _lz(1), "weights, query 2"),
        given(one("1", "4"), "shape=(1, 4)"),
        Printed(one("550.", "5.5"), _lz(1, out=True), "output, query 2"),
        given(one("1", "2"), "shape=(1, 2)"),
        Printed(one("0.5", "0.5", "0.", "0."), _lz(2), "weights, query 3"),
        given(one("1", "4"), "shape=(1, 4)"),
        Printed(one("5.5", "0."), _lz(2, out=True), "output, query 3"),
        given(one("1", "2"), "shape=(1, 2)"),
        Printed(block("0. 0. 0.5 0.5\n0. 1. 0. 0.\n0.5 0.5 0. 0."), _lz(1, 0, 2), "weights, batch"),
        given(one("3", "4"), "shape=(3, 4)"),
        Printed(block("550. 5.5\n10. 0.\n5.5 0."), _lz(1, 0, 2, out=True), "output, batch"),
        given(one("3", "2"), "shape=(3, 2)"),
        given(one("512", "8", "1", "60", "512"), "MultiHeadAttention(512, 8), y"),
        given(one("1", "60", "512", "1", "8", "60", "60"), "out.shape, attn.shape"),
    ),
    notes=(
        "A Simplified Chinese study notebook in TensorFlow 2.0 alpha (tf.Tensor prints with "
        "shape and dtype; the Chinese notes name the two masks), transcribed from its mask and "
        "attention cells: a padding mask of a 3 x 5 batch and a 3 x 3 look-ahead mask (both "
        "checked as masks), then the well-known four-key demonstration: a query aligned with "
        "one key returns its value, one aligned with a repeated key averages 100 and 1000, one "
        "between the first two keys averages 1 and 10, and the three queries batched. All "
        "right: 60 right."
    ),
)

# --- English notebook (numpy): The cat sat on the mat, one random row, truncated in the prose ---

_UM_ROW = one("0.0129619", "0.0088241", "0.00291238", "0.89626405", "0.07590556", "0.00313201")

EN_TRUNCATED = Doc(
    file="heldout/en-notebook-numpy-the-cat-sat-random-row-weights-truncated-not-rounded.ipynb",
    url="https://github.com/Umerkhalid1999/Deep-Learning-using-Numpy/blob/main/self-attention.ipynb",
    kind="notebook",
    language="en",
    inputs={"w": values(_UM_ROW)[0]},
    printed=(
        given(one("8"), "embedding_dim"),
        given(one("1", "6", "8"), "X.shape"),
        given(one("8", "8", "8", "8", "8", "8"), "weight shapes"),
        given(one("1", "6", "8", "1", "6", "8", "1", "6", "8"), "Q, K, V shapes"),
        given(one("0", "2", "1", "1", "6", "1", "6"), "transpose axes, scores.shape"),
        given(one("1", "6", "1", "6"), "scaled_scores.shape"),
        given(one("-1", "-1"), "axis=-1"),
        given(one("1", "6", "1", "6"), "attention_weights.shape"),
        given(one("1", "6", "1", "8"), "output.shape"),
        given(one("0", "0", "1"), "attention_weights[0][0], Row 1"),
        given(_UM_ROW, "the row of The (random inputs, never printed)"),
        given(one("0", "0"), "attention_weights[0][0]"),
        Printed(
            one("0.896264053717683"),
            settled(lambda x: a([[x["w"].max()]]), {"w": 5e-9}, one("0.896264053717683")),
            "the largest weight",
        ),
        given(one("1"), "1. The first row"),
        Printed(
            one("0.0129", "0.0088", "0.0029", "0.8962", "0.0759", "0.0031"),
            lambda x: x["w"].reshape(1, 6),
            "the row again, to four decimals",
        ),
        given(one("2", "1"), "2. token 1"),
        Printed(one("89.6"), lambda x: a([[100 * x["w"].max()]]), "~89.6% to token 4"),
        given(one("4", "3", "1", "4"), "token 4, 3., token 1, token 4"),
    ),
    notes=(
        "A practice notebook in numpy (print outputs, emoji step headings, no seed): six "
        "tokens of 'The cat sat on the mat' with random 8-dimensional embeddings and random "
        "weights, none printed; np.dot on the 3-d Q and K^T gives scores of shape (1, 6, 1, 6) "
        "and outputs of shape (1, 6, 1, 8) (a slip of the code, not of the numbers: the row "
        "of 'The' is still a softmax row). Only the row of 'The' is printed (given), then its "
        "largest entry to full precision (right) and the row repeated in the closing notes to "
        "four decimals. Mistake: two entries are cut, not rounded: 0.0129619 is written "
        "0.0129 (0.0130) and 0.89626405 is written 0.8962 (0.8963); the other four and the "
        "'~89.6%' are right. 6 right, 2 wrong."
    ),
)

# --- English guide (Markdown): Apple phones and apple juice, dot products, softmax [0.0, 0.5, 0.5]


def _ap_dot(a_: str, b_: str) -> Truth:
    return lambda x: a([[x[a_] @ x[b_]]])


def _ap_scores(x: Arrays) -> np.ndarray:
    return a([x["Apple"] @ x["love"], x["Apple"] @ x["Apple"], x["Apple"] @ x["phones"]])


def _ap_weights(x: Arrays) -> np.ndarray:
    return softmax(_ap_scores(x))


EN_APPLE = Doc(
    file="heldout/en-md-guide-apple-phones-juice-dot-products-softmax-zero-half-half.md",
    url="https://github.com/siddiquiduet/transformer/blob/main/self_attention.md",
    kind="course-notes",
    language="en",
    inputs={"Apple": a([2, 2]), "phones": a([2, 2]), "love": a([-4, 3]), "juice": a([4, 0])},
    printed=(
        given(one("50", "50"), "50% Tech + 50% Fruit"),
        given(one("1", "90", "10", "2", "10", "90"), "wished-for mixes"),
        given(one("1", "0.1", "0.5", "0.4"), "step 1, Apple' weights (illustrative)"),
        given(one("10", "50", "40", "50", "50", "70", "30"), "percentages"),
        given(one("0.1", "0.5", "0.4"), "apple' weights"),
        given(one("50", "50", "30", "70"), "percentages"),
        given(one("0.8", "0.1", "0.1"), "love' weights"),
        given(one("0.1", "0.4", "0.5"), "juice' weights"),
        given(one("0.1", "0.5", "0.4", "0.4", "0.5", "0.1"), "the weights named"),
        given(one("2", "2"), "Apple"),
        given(one("2", "2"), "phones"),
        given(one("2", "2", "2", "2", "4", "4"), "(2 x 2) + (2 x 2) = 4 + 4"),
        Printed(one("8"), _ap_dot("Apple", "phones"), "Similarity(Apple, phones)"),
        given(one("2", "2"), "Apple"),
        given(one("-4", "3"), "love"),
        given(one("2", "-4", "2", "3", "-8", "6"), "(2 x -4) + (2 x 3) = -8 + 6"),
        Printed(one("-2"), _ap_dot("Apple", "love"), "Similarity(Apple, love)"),
        given(one("2", "2"), "Apple"),
        given(one("4", "0"), "juice"),
        given(one("2", "4", "2", "0", "8", "0"), "(2 x 4) + (2 x 0) = 8 + 0"),
        Printed(one("8"), _ap_dot("Apple", "juice"), "Similarity(Apple, juice)"),
        given(one("2", "2", "2", "2", "4", "4"), "(2 x 2) + (2 x 2) = 4 + 4"),
        Printed(one("8"), _ap_dot("Apple", "Apple"), "Similarity(Apple, Apple)"),
        given(one("-2", "8", "8"), "scores"),
        Printed(one("-2", "8", "8"), lambda x: _ap_scores(x).reshape(1, 3), "softmax input"),
        Printed(one("0.0", "0.5", "0.5"), lambda x: _ap_weights(x).reshape(1, 3), "softmax"),
        Printed(one("1.0"), lambda x: a([[_ap_weights(x).sum()]]), "sum"),
        Printed(one("-2"), _ap_dot("Apple", "love"), "sim(Apple, love)"),
        Printed(one("8"), _ap_dot("Apple", "Apple"), "sim(Apple, Apple)"),
        Printed(one("8"), _ap_dot("Apple", "phones"), "sim(Apple, phones)"),
        given(one("-2", "8", "8"), "scores again"),
        Printed(one("0.0", "0.5", "0.5"), lambda x: _ap_weights(x).reshape(1, 3), "x1, x2, x3"),
        Printed(
            one("0.0", "0.5", "0.5"),
            lambda x: _ap_weights(x).reshape(1, 3),
            "coefficients of Apple'",
        ),
        given(one("512", "64"), "W_Q size"),
        given(block("1 2\n3 1\n2 3"), "exercise vectors"),
    ),
    notes=(
        "A long self-attention guide in Markdown (code blocks, tables, figures left out), "
        "transcribed from its worked sections: illustrative mixing weights (0.1, 0.5, 0.4 "
        "and others, with percentages of Tech and Fruit; given), then the dot products of "
        "Apple = (2, 2) with phones (2, 2), love (-4, 3), juice (4, 0) and itself (8, -2, 8, "
        "8), softmax([-2, 8, 8]) = [0.0, 0.5, 0.5] (right to one decimal: 0.00002, 0.49999, "
        "0.49999) with its sum 1.0, and the same numbers again in the recipe and as the "
        "coefficients of Apple'. An exercise with three 2-d vectors has no answer. All right: "
        "20 right."
    ),
)

JUDGE_DOCS_14B: list[Doc] = [EN_CAFE, ZH_TF_NOTES, EN_TRUNCATED, EN_APPLE]
