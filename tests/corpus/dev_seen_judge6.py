"""Development documents from the sixth held-out batch, studied in session 28 and moved to dev:
a LaTeX solution with two heads whose weight chains name heads in parentheses
(``W_Q^{(1)}=W_K^{(1)}=W_V^{(1)}=``), which was judged with 84 false alarms until every name
of such a chain was read; and, from the same series (no held-out document shares a source with
a dev one), its causal-mask solution, not studied. Truth unchanged by the move.
"""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, given, one, other, tex
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- LaTeX solution: the causal mask over 'I like cats', compared with the unmasked output ------

_CATS_Q = "1&0\\\\ 0&1\\\\ 1&1"
_CATS_K = "1&1\\\\ 0&1\\\\ 1&2"
_CATS_V = "1&0\\\\ 1&1\\\\ 2&1"
_FUTURE = np.triu(np.ones((3, 3), dtype=bool), k=1)


def _cats_scaled(x: Arrays) -> np.ndarray:
    return x["Q"] @ x["K"].T / np.sqrt(2)


def _cats_masked(x: Arrays) -> np.ndarray:
    return np.where(_FUTURE, -np.inf, _cats_scaled(x))


def _cats_causal(x: Arrays) -> np.ndarray:
    return softmax(_cats_masked(x))


def _cats_open_row(x: Arrays) -> np.ndarray:
    return softmax(_cats_scaled(x))[0]


def _cats_printed() -> tuple[Printed, ...]:
    scaled = "0.7071&0&0.7071\\\\ 0.7071&0.7071&1.4142\\\\ 1.4142&0.7071&2.1213"
    masked = "0.7071&-inf&-inf\\\\ 0.7071&0.7071&-inf\\\\ 1.4142&0.7071&2.1213"
    zeroed: Truth = lambda x: _cats_open_row(x) * ~_FUTURE[0]  # noqa: E731
    return (
        given(tex(_CATS_Q), "Q"),
        given(tex(_CATS_K), "K"),
        given(tex(_CATS_V), "V"),
        Printed(tex(scaled), _cats_scaled, "S_scaled = QK^T / sqrt(2)"),
        other(one("2"), "the 2 under the root"),
        given(tex("0&-inf&-inf\\\\ 0&0&-inf\\\\ 0&0&0"), "causal mask M"),
        Printed(tex(masked), _cats_masked, "S_masked = S_scaled + M"),
        Printed(
            tex("1.0000&0&0\\\\ 0.5000&0.5000&0\\\\ 0.2840&0.1400&0.5760"),
            _cats_causal,
            "A_causal",
        ),
        other(one("1"), "each row sums to about 1"),
        Printed(
            tex("1.0000&0.0000\\\\ 1.0000&0.5000\\\\ 1.5760&0.7160"),
            lambda x: _cats_causal(x) @ x["V"],
            "O_causal",
        ),
        Printed(
            tex("1.4011&0.5989\\\\ 1.5035&0.7517\\\\ 1.5760&0.7160"),
            lambda x: softmax(_cats_scaled(x)) @ x["V"],
            "O_unmasked (exercise 01)",
        ),
        Printed(tex("0.4011&0.1978&0.4011"), _cats_open_row, "unmasked first row"),
        Printed(tex("0.4011&0&0"), zeroed, "first row zeroed after the softmax"),
        Printed(one("0.4011"), lambda x: zeroed(x).sum(), "its row sum"),
        other(one("1"), "not 1"),
        Printed(tex("1&0&0"), lambda x: _cats_causal(x)[0], "first row masked first"),
    )


CATS = Doc(
    file="dev/en-tex-solution-causal-mask-i-like-cats.tex",
    url=(
        "https://github.com/rukenx/attention-by-hand/blob/main/"
        "02_causal_masked_self_attention/solution_by_hand.tex"
    ),
    kind="latex-solution",
    language="en",
    inputs={
        "Q": a([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
        "K": a([[1.0, 1.0], [0.0, 1.0], [1.0, 2.0]]),
        "V": a([[1.0, 0.0], [1.0, 1.0], [2.0, 1.0]]),
    },
    printed=_cats_printed(),
    notes=(
        "A LaTeX solution sheet (bmatrix, -\\infty entries) for three tokens named 'I', "
        "'like', 'cats': the scaled scores QK^T / sqrt(2), the causal mask added, the row "
        "softmax with exact zeros, the masked output and, for comparison, the unmasked output "
        "of the previous exercise; a bonus shows why zeroing after the softmax breaks the row "
        "sum (0.4011, not 1). Four decimals throughout. All right."
    ),
)

# --- LaTeX solution: two heads with their own projections, concatenated, W_O = I --------------

_X = "1&0&1&0\\\\ 0&1&1&1\\\\ 1&1&0&1"
_W1 = "1&0\\\\ 0&1\\\\ 0&0\\\\ 0&0"
_W2 = "0&0\\\\ 0&0\\\\ 1&0\\\\ 0&1"
_WK2 = "0&0\\\\ 0&0\\\\ 0&1\\\\ 1&0"


def _rows(text: str) -> np.ndarray:
    return a([[float(e) for e in row] for row in tex(text)])


def _head(x: Arrays, h: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Q, K and V of head h: the input through that head's three projections."""
    return x["X"] @ x[f"WQ{h}"], x["X"] @ x[f"WK{h}"], x["X"] @ x[f"WV{h}"]


def _scores(h: int) -> Truth:
    def truth(x: Arrays) -> np.ndarray:
        q, k, _ = _head(x, h)
        return q @ k.T / np.sqrt(2)

    return truth


def _weights(h: int) -> Truth:
    return lambda x: softmax(_scores(h)(x))


def _out(h: int) -> Truth:
    return lambda x: _weights(h)(x) @ _head(x, h)[2]


def _concat(x: Arrays) -> np.ndarray:
    return np.hstack([_out(1)(x), _out(2)(x)])


def _head_printed(
    h: int, q: str, k: str, v: str, scores: str, weights: str, out: str
) -> tuple[Printed, ...]:
    return (
        Printed(tex(q), lambda x: _head(x, h)[0], f"Q{h}"),
        Printed(tex(k), lambda x: _head(x, h)[1], f"K{h}"),
        Printed(tex(v), lambda x: _head(x, h)[2], f"V{h}"),
        Printed(tex(scores), _scores(h), f"Q{h}K{h}^T / sqrt(2)"),
        other(one("2"), "the 2 under the root"),
        Printed(tex(weights), _weights(h), f"A{h}"),
        Printed(tex(out), _out(h), f"O{h} = A{h}V{h}"),
    )


_HEAD1 = _head_printed(
    1,
    "1&0\\\\ 0&1\\\\ 1&1",
    "1&0\\\\ 0&1\\\\ 1&1",
    "1&0\\\\ 0&1\\\\ 1&1",
    "0.7071&0&0.7071\\\\ 0&0.7071&0.7071\\\\ 0.7071&0.7071&1.4142",
    "0.4011&0.1978&0.4011\\\\ 0.1978&0.4011&0.4011\\\\ 0.2483&0.2483&0.5035",
    "0.8022&0.5989\\\\ 0.5989&0.8022\\\\ 0.7517&0.7517",
)
_HEAD2 = _head_printed(
    2,
    "1&0\\\\ 1&1\\\\ 0&1",
    "0&1\\\\ 1&1\\\\ 1&0",
    "1&0\\\\ 1&1\\\\ 0&1",
    "0&0.7071&0.7071\\\\ 0.7071&1.4142&0.7071\\\\ 0.7071&0.7071&0",
    "0.1978&0.4011&0.4011\\\\ 0.2483&0.5035&0.2483\\\\ 0.4011&0.4011&0.1978",
    "0.5989&0.8022\\\\ 0.7517&0.7517\\\\ 0.8022&0.5989",
)
_CONCAT = (
    "0.8022&0.5989&0.5989&0.8022\\\\ 0.5989&0.8022&0.7517&0.7517\\\\ 0.7517&0.7517&0.8022&0.5989"
)

TWO_HEADS = Doc(
    file="dev/en-tex-solution-two-heads-identity-output-projection.tex",
    url=(
        "https://github.com/rukenx/attention-by-hand/blob/main/"
        "03_multi_head_self_attention/solution_by_hand.tex"
    ),
    kind="latex-solution",
    language="en",
    inputs={
        "X": _rows(_X),
        "WQ1": _rows(_W1),
        "WK1": _rows(_W1),
        "WV1": _rows(_W1),
        "WQ2": _rows(_W2),
        "WK2": _rows(_WK2),
        "WV2": _rows(_W2),
    },
    printed=(
        given(tex(_X), "X"),
        other(one("3"), "3 x 4"),
        other(one("4"), "3 x 4"),
        other(one("2"), "H = 2"),
        other(one("2"), "d_k = d_v = 2"),
        given(tex(_W1), "W_Q1 = W_K1 = W_V1"),
        *_HEAD1,
        given(tex(_W2), "W_Q2"),
        given(tex(_WK2), "W_K2"),
        given(tex(_W2), "W_V2"),
        *_HEAD2,
        Printed(tex(_CONCAT), _concat, "O_concat = Concat(O1, O2)"),
        other(one("3"), "3 x 4"),
        other(one("4"), "3 x 4"),
        other(one("4"), "W_O = I_4"),
    ),
    notes=(
        "A LaTeX solution sheet: a 3 x 4 input, two heads with hand-made 4 x 2 projections "
        "(head 1 keeps the first two features for Q, K and V; head 2 reads the last two, its "
        "key projection swapping them), scaled by sqrt(2); both attention matrices, both head "
        "outputs, their concatenation, and W_O = I_4 so the multi-head output is the "
        "concatenation (only the 4 of I_4 is printed). Q_h, K_h, V_h are printed as computed "
        "from X. Four decimals. All right."
    ),
)

DEV_SEEN_JUDGE6: list[Doc] = [CATS, TWO_HEADS]
