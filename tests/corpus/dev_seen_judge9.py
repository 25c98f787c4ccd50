"""Development documents (the ninth held-out batch, studied and moved to dev in session 32), their
truth computed with numpy from the printed inputs: an English torch study notebook (softmax
weights broadcast over hidden states, keys, queries, values and a product with untransposed
keys), an English torch notebook whose printed softmax was run twice (and q k^T worked by hand
with slips), an English numpy notebook (random q, k, v, variances, a causal mask) and an English
torch notebook whose context vector reads a stale loop index. More in
tests/corpus/dev_seen_judge9b.py; see tests/corpus/truth_dev.py."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from tests.corpus.dev_seen_judge9b import DEV_SEEN_JUDGE9B
from tests.corpus.heldout_help import Truth, a, block, given, one, other, settled, values
from tests.corpus.helpers import grid, softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- English torch notebook: broadcast weights, keys, queries, values ----------------------------

_EHS = block(
    "tensor([[ 2.1000e-01,  5.1000e-01,  1.2500e+00],\n"
    "        [ 4.1300e+00, -4.1300e+01,  3.1000e-01],\n"
    "        [ 3.2000e+00,  2.0000e-02,  9.4400e+00]])"
)
_V = "[[1, 0, 1, 0],\n[0, 2, 0, 2],\n[1, 1, 1, 1]]"
_WK = "[[0, 0, 1],\n[1, 1, 0],\n[0, 1, 0],\n[1, 1, 0]]"
_WQ = "[[1, 0, 1],\n[1, 0, 0],\n[0, 0, 1],\n[0, 1, 1]]"
_WV = "[[0, 2, 0],\n[0, 3, 0],\n[1, 0, 3],\n[1, 1, 0]]"


def _m(text: str) -> np.ndarray:
    return a([[float(e) for e in row] for row in block(text)])


def _weighted(x: Arrays) -> np.ndarray:
    """softmax([13, 9, 9]) times the states, broadcast along the last axis (column j times w_j)."""
    return softmax(np.array([13.0, 9.0, 9.0])) * x["ehs"]


def _keys(x: Arrays) -> np.ndarray:
    return x["v"] @ x["wk"]


def _queries(x: Arrays) -> np.ndarray:
    return x["v"] @ x["wq"]


def _values(x: Arrays) -> np.ndarray:
    return x["v"] @ x["wv"]


def _keys_by_columns(x: Arrays) -> np.ndarray:
    """v stacked as rows times W_k1, W_k2, W_k3 stacked as columns."""
    return x["v"] @ np.stack([x["wk1"], x["wk2"], x["wk3"]], axis=1)


_EN_BROADCAST_INTS = (
    given(_EHS, "encoder_hidden_states"),
    Printed(
        block(
            "tensor([[ 2.0258e-01,  9.0109e-03,  2.2086e-02],\n"
            "        [ 3.9841e+00, -7.2971e-01,  5.4772e-03],\n"
            "        [ 3.0869e+00,  3.5337e-04,  1.6679e-01]])"
        ),
        _weighted,
        "output = softmax_scores * encoder_hidden_states",
    ),
    Printed(
        one("0.2337", "3.2598", "3.2541"),
        lambda x: _weighted(x).sum(axis=-1),
        "output.sum(dim=-1)",
    ),
    given(block(_WK), "W_k (printed before the cell that defines it)"),
    given(block("[1, 0, 1, 0]\n[0, 2, 0, 2]\n[1, 1, 1, 1]"), "v_1, v_2, v_3"),
    given(block("[0, 1, 0, 1]\n[0, 1, 1, 1]\n[1, 0, 0, 0]"), "W_k1, W_k2, W_k3"),
    Printed(block("[[0, 1, 1],\n[4, 4, 0],\n[2, 3, 1]]"), _keys_by_columns, "compute_keys"),
    Printed(one("0", "1", "1"), lambda x: _keys_by_columns(x)[0], "keys[0]"),
    Printed(block("[[0, 1, 1],\n[4, 4, 0],\n[2, 3, 1]]"), _keys, "keys = v @ W_k"),
    Printed(block("[[1, 0, 2],\n[2, 2, 2],\n[2, 1, 3]]"), _queries, "queries"),
    Printed(block("[[1, 2, 3],\n[2, 8, 0],\n[2, 6, 3]]"), _values, "values"),
    Printed(
        block("[[0, 0, 4],\n[1, 0, 6],\n[1, 0, 2]]"),
        lambda x: _queries(x)[0] * _keys(x).T,
        "queries[0] * keys.t() (broadcast, entrywise)",
    ),
    Printed(block("[[1, 0, 2],\n[2, 2, 2],\n[2, 1, 3]]"), _queries, "queries again"),
    Printed(block("[[0, 4, 2],\n[1, 4, 3],\n[1, 0, 1]]"), lambda x: _keys(x).T, "keys.t()"),
    Printed(
        one("0", "0", "0"), lambda x: _queries(x)[0][1] * _keys(x)[0], "queries[0][1] * keys[0]"
    ),
    Printed(one("2", "4", "4"), lambda x: _queries(x)[0] @ _keys(x).T, "attention_score"),
    Printed(one("2", "4", "4"), lambda x: _queries(x)[0] @ _keys(x).T, "queries[0] @ keys.t()"),
    Printed(
        one("0.0634", "0.4683", "0.4683"),
        lambda x: softmax(_queries(x)[0] @ _keys(x).T),
        "F.softmax(attention_score, dim=0)",
    ),
)

EN_BROADCAST = Doc(
    file="dev/en-notebook-torch-broadcast-weights-keys-untransposed.ipynb",
    url="https://github.com/xrsrke/ai-notebooks/blob/master/ai_notebooks/transformer/01_attention.ipynb",
    kind="notebook-torch",
    language="en",
    inputs={
        "ehs": values(_EHS),
        "v": _m(_V),
        "wk": _m(_WK),
        "wq": _m(_WQ),
        "wv": _m(_WV),
        "wk1": a([0, 1, 0, 1]),
        "wk2": a([0, 1, 1, 1]),
        "wk3": a([1, 0, 0, 0]),
    },
    printed=(
        *_EN_BROADCAST_INTS,
        given(block("[[1., 0., 1., 0.],\n[0., 2., 0., 2.],\n[1., 1., 1., 1.]]"), "v (floats)"),
        given(one("1.", "0.", "1.", "0."), "v[0]"),
        Printed(block("[[1., 0., 2.],\n[2., 2., 2.],\n[2., 1., 3.]]"), _queries, "queries"),
        Printed(block("[[0., 1., 1.],\n[4., 4., 0.],\n[2., 3., 1.]]"), _keys, "keys"),
        Printed(
            block("[[ 4.,  7.,  3.],\n[12., 16.,  4.],\n[10., 15.,  5.]]"),
            lambda x: _queries(x) @ _keys(x),
            "queries @ keys (keys not transposed, as the cell computes)",
        ),
    ),
    notes=(
        "An English torch study notebook: softmax([13, 9, 9]) multiplied into a 3 x 3 matrix of "
        "hidden states by broadcasting (column j times weight j, printed in e-notation) and the "
        "row sums of that product; then the three-input example with hand-set integer weights: "
        "keys built from stacked weight columns, keys, queries and values, an entrywise "
        "broadcast product queries[0] * keys.t(), the scores of query 1 and their softmax; last "
        "queries @ keys without a transpose (what the cell computes). Unscaled throughout. All "
        "right."
    ),
)

# --- English torch notebook: a running average softmaxed twice, scores by hand with slips --------

_TWICE_FILE = (
    Path(__file__).resolve().parents[1]
    / "data/corpus/dev/en-notebook-torch-causal-average-softmax-twice-hand-scores-slips.ipynb"
)
_TWICE = block(
    """
    [[0.2797, 0.1029, 0.1029, 0.1029, 0.1029, 0.1029, 0.1029, 0.1029],
     [0.1773, 0.1773, 0.1076, 0.1076, 0.1076, 0.1076, 0.1076, 0.1076],
     [0.1519, 0.1519, 0.1519, 0.1089, 0.1089, 0.1089, 0.1089, 0.1089],
     [0.1405, 0.1405, 0.1405, 0.1405, 0.1095, 0.1095, 0.1095, 0.1095],
     [0.1341, 0.1341, 0.1341, 0.1341, 0.1341, 0.1098, 0.1098, 0.1098],
     [0.1300, 0.1300, 0.1300, 0.1300, 0.1300, 0.1300, 0.1100, 0.1100],
     [0.1271, 0.1271, 0.1271, 0.1271, 0.1271, 0.1271, 0.1271, 0.1102],
     [0.1250, 0.1250, 0.1250, 0.1250, 0.1250, 0.1250, 0.1250, 0.1250]]
    """
)
_Q = ((1, 0, 1, 0), (0, 1, 0, 1), (1, 1, 0, 0), (2, 0, 0, 1), (0, 2, 1, 0), (1, 0, 1, 1))
_K = ((1, 0, 0, 1), (0, 1, 1, 0), (1, 1, 0, 0), (2, 0, 1, 0), (0, 2, 0, 1), (1, 0, 1, 1))
_HAND = (("2", "1", "1"), ("1", "1", "1"), ("1", "1", "2"))


def _rows(rows: tuple[tuple[int, ...], ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(str(e) for e in row) for row in rows)


def _causal_mask(x: Arrays) -> np.ndarray:
    return np.where(np.tril(np.ones((8, 8))) == 1, 0.0, -np.inf)


def _scores(b: int) -> Truth:
    return lambda x: x["q"][b] @ x["k"][b].T


def _dot(r: int, c: int) -> Truth:
    return lambda x: np.array([x["q"][0][r] @ x["k"][0][c]])


def _hand_rows() -> tuple[Printed, ...]:
    out: list[Printed] = []
    for r in range(3):
        for c in range(3):
            out.append(Printed(one(_HAND[r][c]), _dot(r, c), f"row {r}, key {c} of batch 0"))
        row = Printed(one(*_HAND[r]), lambda x, r=r: _scores(0)(x)[r], f"row {r}", follows=r == 0)
        out.append(row)
    return tuple(out)


def _random_weights() -> tuple[tuple[str, ...], ...]:
    """The 4 x 8 x 8 weights of the one-head cell, as its output prints them."""
    cells = json.loads(_TWICE_FILE.read_text(encoding="utf-8"))["cells"]
    for cell in cells:
        for output in cell.get("outputs", []):
            text = "".join(output.get("data", {}).get("text/plain", []))
            if "SoftmaxBackward0" in text:
                return block(text)
    raise ValueError("no printed weights")


EN_TWICE = Doc(
    file="dev/en-notebook-torch-causal-average-softmax-twice-hand-scores-slips.ipynb",
    url="https://github.com/MariusBBerg/deep-learning-playground/blob/main/self_attention.ipynb",
    kind="notebook-torch",
    language="en",
    inputs={
        "q": np.array(_Q, dtype=float).reshape(2, 3, 4),
        "k": np.array(_K, dtype=float).reshape(2, 3, 4),
    },
    printed=(
        Printed(
            block(
                "\n".join(
                    "[" + ", ".join("0." if j <= i else "-inf" for j in range(8)) + "]"
                    for i in range(8)
                )
            ),
            _causal_mask,
            "wei.masked_fill(tril == 0, -inf)",
        ),
        Printed(_TWICE, lambda x: softmax(_causal_mask(x)), "F.softmax(wei, dim=-1)"),
        given(_random_weights(), "weights of one head over random x and layers (never printed)"),
        given(_rows(_Q), "q (2, 3, 4)"),
        given(_rows(_K), "k (2, 3, 4)"),
        Printed(
            block("[1, 0, 1],\n[0, 1, 1],\n[0, 1, 0],\n[1, 0, 0]"),
            lambda x: x["k"][0].T,
            "k[0].T (comment)",
        ),
        Printed(
            block("[1  0  1]\n[0  1  1]\n[0  1  0]\n[1  0  0]"), lambda x: x["k"][0].T, "k[0].T"
        ),
        given(_rows(_Q[:3]), "q[0] beside k[0].T"),
        Printed(
            block("[1  0  1]\n[0  1  1]\n[0  1  0]\n[1  0  0]"),
            lambda x: x["k"][0].T,
            "k[0].T beside q[0]",
        ),
        *_hand_rows(),
        Printed(block("[2, 1, 1],\n[1, 1, 1],\n[1, 1, 2]"), _scores(0), "wei[0]", follows=True),
        Printed(block("[5, 2, 3],\n[1, 4, 1],\n[4, 1, 3]"), _scores(1), "wei[1]"),
    ),
    notes=(
        "An English torch notebook: a running average through a causal mask of 0 and -inf and "
        "its softmax, one head over random inputs (its 4 x 8 x 8 weights printed, nothing they "
        "come from), then a Markdown cell that works q @ k^T by hand for two batches of three "
        "tokens with integer q and k. The mistakes as published: the softmax of the mask prints "
        "[0.2797, 0.1029, ...] where the code gives rows of 1/(t+1) and 0 (the softmax taken "
        "twice, the cell run again; only the last row, 0.125 throughout, is right: 56 entries "
        "wrong); by hand, q0 . k0 of batch 0 is written 1x1 + 0x0 + 1x0 + 0x1 = 2 where it is "
        "1, carried into row 0 and wei[0] (which follow from it); wei[1] prints [5, 2, 3] and "
        "[4, 1, 3] in rows 0 and 2 where q[1] k[1]^T gives [4, 1, 3] and [3, 1, 3] (3 entries "
        "wrong)."
    ),
)

# --- English numpy notebook: random q, k, v (k printed as "W"), variances, a causal mask ----------

_VAR_FILE = (
    Path(__file__).resolve().parents[1]
    / "data/corpus/dev/en-notebook-numpy-random-qkv-variance-causal-mask-k-printed-as-w.ipynb"
)
_HALF_8 = 5e-9


def _outputs(path: Path) -> list[str]:
    """The printed outputs of a notebook, cell by cell, in order."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    texts = []
    for cell in cells:
        for output in cell.get("outputs", []):
            texts.append("".join(output.get("text") or output["data"]["text/plain"]))
    return texts


def _var_prints() -> dict[str, tuple[tuple[str, ...], ...]]:
    outs = _outputs(_VAR_FILE)
    q_text, rest = outs[0].split("W\n")
    k_text, v_text = rest.split("V\n")
    values_text, attention_text = outs[9].split("Values")[1].split("attention [[")
    return {
        "q": grid(q_text, 8),
        "k": grid(k_text, 8),
        "v": grid(v_text, 8),
        "raw": grid(outs[1], 4),
        "var": grid(outs[2], 3),
        "var_scaled": grid(outs[3], 3),
        "tril": grid(outs[4], 4),
        "mask": grid(outs[5], 4),
        "masked": grid(outs[6], 4),
        "attention": grid(outs[7], 4),
        "new_v": grid(outs[8], 8),
        "values": grid(values_text, 8),
        "attention_again": grid("[[" + attention_text, 4),
    }


_VP = _var_prints()
_VAR_HALVES = {"q": _HALF_8, "k": _HALF_8, "v": _HALF_8}


def _var_scaled(x: Arrays) -> np.ndarray:
    return x["q"] @ x["k"].T / np.sqrt(8)


def _var_masked(x: Arrays) -> np.ndarray:
    return _var_scaled(x) + np.triu(np.full((4, 4), -np.inf), 1)


def _var_attention(x: Arrays) -> np.ndarray:
    return softmax(_var_masked(x))


def _settled_print(key: str, compute: Truth, label: str) -> Printed:
    """A print judged against `compute`, allowing for the inputs' rounding (-inf entries stay)."""
    inner = settled(compute, _VAR_HALVES, _VP[key])

    def truth(x: Arrays) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            return inner(x)

    return Printed(_VP[key], truth, label)


EN_VARIANCE = Doc(
    file="dev/en-notebook-numpy-random-qkv-variance-causal-mask-k-printed-as-w.ipynb",
    url="https://github.com/Idk507/attention/blob/main/self_attention.ipynb",
    kind="notebook-numpy",
    language="en",
    inputs={name: values(_VP[name]) for name in ("q", "k", "v")},
    printed=(
        given(_VP["q"], "Q"),
        given(_VP["k"], "k, printed under the label W"),
        given(_VP["v"], "V"),
        _settled_print("raw", lambda x: x["q"] @ x["k"].T, "np.matmul(q, k.T)"),
        other(_VP["var"], "q.var(), k.var(), (q k^T).var()"),
        other(_VP["var_scaled"], "q.var(), k.var(), scaled.var()"),
        other(_VP["tril"], "np.tril(np.ones((L, L)))"),
        Printed(
            _VP["mask"], lambda x: np.triu(np.full((4, 4), -np.inf), 1) + 0.0, "mask (0 and -inf)"
        ),
        _settled_print("masked", _var_masked, "scaled + mask"),
        _settled_print("attention", _var_attention, "attention"),
        _settled_print("new_v", lambda x: _var_attention(x) @ x["v"], "new_v"),
        _settled_print("values", lambda x: _var_attention(x) @ x["v"], "Values (the function)"),
        _settled_print("attention_again", _var_attention, "attention (the function)"),
    ),
    notes=(
        "An English numpy notebook: unseeded random q, k, v (4 x 8, rows wrapped over two lines, "
        "k printed under the label W), the raw scores q k^T, the variances of q, k and the scores "
        "before and after dividing by sqrt(8) (not attention), np.tril and the 0/-inf mask built "
        "from it, scaled + mask, the softmax and new_v; then the same through a function, values "
        "and weights printed again. All right."
    ),
)

# --- English torch notebook: one query over six inputs, a context vector from a stale index -------

_SIX = "[[0.42, 0.13, 0.81],\n[0.55, 0.87, 0.66],\n[0.22, 0.58, 0.33],\n" + (
    "[0.54, 0.85, 0.64],\n[0.77, 0.25, 0.10],\n[0.05, 0.80, 0.55]]"
)


def _six_scores(x: Arrays) -> np.ndarray:
    return x["x"] @ x["x"][1]


EN_STALE = Doc(
    file="dev/en-notebook-torch-context-vector-stale-loop-index.ipynb",
    url="https://github.com/11PRIMUS/attention-mechanism/blob/main/simple_attention.ipynb",
    kind="notebook-torch",
    language="en",
    inputs={"x": values(block(_SIX))},
    printed=(
        given(block(_SIX), "inputs (code)"),
        Printed(
            one("0.8787", "1.4950", "0.8434", "1.4589", "0.7070", "1.0865"),
            _six_scores,
            "attn_score2",
        ),
        Printed(
            one("0.1303", "0.2412", "0.1257", "0.2327", "0.1097", "0.1603"),
            lambda x: softmax(_six_scores(x)),
            "attention weights",
        ),
        Printed(one("1."), lambda x: softmax(_six_scores(x)).sum(keepdims=True), "sum"),
        Printed(
            one("0.4089", "0.5580", "0.4955"),
            lambda x: softmax(_six_scores(x)) @ x["x"],
            "context_vec2",
        ),
    ),
    notes=(
        "An English torch notebook: six 3-d inputs (a variant of a well-known example, two rows "
        "changed), the scores of the second input against all six, their softmax and its sum, "
        "then the context vector. One mistake as published: the context loop reads "
        "attn_weights2[i] with i left at 5 by the earlier loop, so every input is weighted by "
        "0.1603 and the printed context [0.4089, 0.5580, 0.4955] is 0.1603 times the column "
        "sums; the weighted sum of the inputs is [0.4332, 0.6532, 0.5543] (3 entries wrong)."
    ),
)

DEV_SEEN_JUDGE9: list[Doc] = [EN_BROADCAST, EN_TWICE, EN_VARIANCE, EN_STALE, *DEV_SEEN_JUDGE9B]
