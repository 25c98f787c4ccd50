"""Development documents (the eighth held-out batch, moved to dev in session 31), Portuguese torch
notebooks: a simplified self-attention over the embeddings of "O gato sobe no tapete" (scores,
weights, per-word lines, context vectors in float32), and a fused QKV projection written by hand
with a causal mask. Truth computed with numpy from the printed inputs; see
tests/corpus/dev_seen_judge8.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import (
    Truth,
    a,
    block,
    column,
    given,
    one,
    other,
    single_precision,
)
from tests.corpus.helpers import causal, softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- Portuguese notebook: "O gato sobe no tapete", unscaled self-attention on raw embeddings ----

_WORDS = ("O", "gato", "sobe", "no", "tapete")
_EMB_FULL = (
    ("0.33669037", "0.1288094", "0.23446237"),
    ("0.23033303", "-1.1228564", "-0.18632829"),
    ("2.2082014", "-0.63799703", "0.46165723"),
    ("0.26735088", "0.53490466", "0.8093572"),
    ("1.1102903", "-1.689799", "-0.9889599"),
)
_CONTEXT_FULL = (
    ("1.0280503", "-0.4599012", "0.20330468"),
    ("1.0528603", "-1.2512183", "-0.4752503"),
    ("2.0703762", "-0.7128629", "0.33978036"),
    ("0.8430897", "-0.07536834", "0.45503342"),
    ("1.1817192", "-1.5289683", "-0.77386177"),
)
_LINES_3 = (
    ("0.182", "0.136", "0.327", "0.215", "0.140"),
    ("0.048", "0.206", "0.167", "0.027", "0.553"),
    ("0.008", "0.011", "0.894", "0.007", "0.079"),
    ("0.209", "0.074", "0.275", "0.406", "0.036"),
    ("0.005", "0.054", "0.113", "0.001", "0.827"),
)
_GATO_SCORES = block(
    """
    [[ 0.1849, -0.1108,  0.7695,  0.3487, -0.0757],
     [-0.1108,  1.3486,  1.1390, -0.6898,  2.3374],
     [ 0.7695,  1.1390,  5.4963,  0.6227,  3.0733],
     [ 0.3487, -0.6898,  0.6227,  1.0127, -1.4075],
     [-0.0757,  2.3374,  3.0733, -1.4075,  5.0662]]
    """
)
_GATO_WEIGHTS = block(
    """
    [[0.1823, 0.1356, 0.3270, 0.2147, 0.1404],
     [0.0478, 0.2057, 0.1668, 0.0268, 0.5529],
     [0.0079, 0.0115, 0.8945, 0.0068, 0.0793],
     [0.2090, 0.0740, 0.2749, 0.4060, 0.0361],
     [0.0048, 0.0540, 0.1127, 0.0013, 0.8271]]
    """
)
_GATO_CONTEXT = block(
    """
    [[ 1.0281, -0.4599,  0.2033],
     [ 1.0529, -1.2512, -0.4753],
     [ 2.0704, -0.7129,  0.3398],
     [ 0.8431, -0.0754,  0.4550],
     [ 1.1817, -1.5290, -0.7739]]
    """
)


def _gato_weights(x: Arrays) -> np.ndarray:
    return softmax(x["E"] @ x["E"].T)


def _gato_context(i: int) -> Truth:
    return lambda x: (_gato_weights(x) @ x["E"])[i : i + 1]


def _gato_line(i: int) -> Truth:
    return lambda x: _gato_weights(x)[i].reshape(-1, 1)


def _gato_words() -> tuple[Printed, ...]:
    out: list[Printed] = [
        Printed(column(*_LINES_3[i]), _gato_line(i), f"weights of '{w}', 3 decimals")
        for i, w in enumerate(_WORDS)
    ]
    out.append(Printed(_GATO_CONTEXT, lambda x: _gato_weights(x) @ x["E"], "contextual"))
    out.append(given((_EMB_FULL[1],), "embedding of 'gato' (float32)"))
    ctx = (_CONTEXT_FULL[1],)
    out.append(Printed(ctx, single_precision(_gato_context(1), ctx), "contextual 'gato'"))
    for i, w in enumerate(_WORDS):
        ctx = (_CONTEXT_FULL[i],)
        out += [
            given((_EMB_FULL[i],), f"embedding of '{w}' (float32)"),
            Printed(ctx, single_precision(_gato_context(i), ctx), f"contextual '{w}'"),
        ]
    return tuple(out)


PT_GATO = Doc(
    file="dev/pt-notebook-torch-gato-tapete-simplified-self-attention.ipynb",
    url=(
        "https://github.com/professortavares/build_llm/blob/main/notebooks/cap03/"
        "01%20-%20Simplified%20Self%20Attention.ipynb"
    ),
    kind="notebook-torch",
    language="pt",
    inputs={"E": a([[float(e) for e in row] for row in _EMB_FULL])},
    printed=(
        other(one("42"), "seed"),
        other(one("0", "1", "2", "3", "4"), "vocab ids"),
        other(one("0", "1", "2", "3", "4"), "inverse vocab ids"),
        other(block("tensor([0, 1, 2, 3, 4])"), "token ids"),
        given(tuple(tuple(f"{float(e):.4f}" for e in row) for row in _EMB_FULL), "embeddings"),
        Printed(_GATO_SCORES, lambda x: x["E"] @ x["E"].T, "attention_scores"),
        Printed(_GATO_WEIGHTS, _gato_weights, "attention_weights"),
        Printed(
            column("0.05", "0.21", "0.17", "0.03", "0.55"), _gato_line(1), "'gato', 2 decimals"
        ),
        *_gato_words(),
    ),
    notes=(
        "A Portuguese course notebook in torch: five words embedded in 3-d by an untrained "
        "nn.Embedding (seed 42), unscaled scores E E^T, softmax by rows, the row of 'gato' to "
        "2 decimals and every row word by word to 3 decimals (one value per line), the context "
        "vectors W E to 4 decimals, then word by word in float32 (numpy's print of a float32 "
        "array) beside the original embeddings. All right."
    ),
)

# --- Portuguese notebook: fused QKV projection, scores scaled by sqrt(head_dim), causal mask -----

_BLOCK = "[0.1, 0.2, 0.3, 0.4],\n[0.5, 0.6, 0.7, 0.8],\n[0.9, 1.0, 1.1, 1.2],\n[1.3, 1.4, 1.5, 1.6]"
_QKV = block(
    """
    tensor([[ 3.0000,  7.0000, 11.0000, 15.0000,  3.0000,  7.0000, 11.0000, 15.0000,
              3.0000,  7.0000, 11.0000, 15.0000],
            [ 7.0000, 17.4000, 27.8000, 38.2000,  7.0000, 17.4000, 27.8000, 38.2000,
              7.0000, 17.4000, 27.8000, 38.2000]])
    """
)
_Q = block("[[ 3.0000,  7.0000, 11.0000, 15.0000],\n[ 7.0000, 17.4000, 27.8000, 38.2000]]")
_KT = "[[ 3.0000,  7.0000],\n[ 7.0000, 17.4000],\n[11.0000, 27.8000],\n[15.0000, 38.2000]]"
_ATT = block("[[ 285.6711,  722.3803],\n[ 722.3803, 1827.0510]]")
_ATT_MASKED = block("[[[[ 285.6711,      -inf],\n[ 722.3803, 1827.0510]]]]")


def _qkv_rows() -> tuple[tuple[str, ...], ...]:
    flat = [e for row in _QKV for e in row]
    return (tuple(flat[:12]), tuple(flat[12:]))


def _proj(x: Arrays) -> np.ndarray:
    return x["x"] @ x["W"].T


def _scores(x: Arrays) -> np.ndarray:
    return _proj(x) @ _proj(x).T / np.sqrt(2)


def _weights(x: Arrays) -> np.ndarray:
    return softmax(causal(_scores(x)))


PT_FUSED = Doc(
    file="dev/pt-notebook-torch-fused-qkv-projection-declared-two-heads-causal.ipynb",
    url="https://github.com/AlbertoRodrigues/Generative-IA/blob/master/gpt/details_attetion.ipynb",
    kind="notebook-torch",
    language="pt",
    inputs={
        "x": a([[1, 2, 3, 4], [5, 6, 7, 8]]),
        "W": a([[float(e) for e in row] for row in block(_BLOCK)]),
    },
    printed=(
        other(one("2"), "T"),
        other(one("4"), "C"),
        other(one("2"), "n_heads"),
        given(block("[[1., 2., 3., 4.],\n[5., 6., 7., 8.]]"), "x"),
        given(block(_BLOCK), "the 4 x 4 block of the QKV projection"),
        Printed(_qkv_rows(), lambda x: np.hstack([_proj(x)] * 3), "qkv"),
        Printed(_Q, _proj, "q"),
        Printed(_Q, _proj, "k"),
        Printed(_Q, _proj, "v"),
        Printed(block(_KT), lambda x: _proj(x).T, "k.transpose(-2, -1)"),
        Printed(_ATT, single_precision(_scores, _ATT), "att (float32)"),
        Printed(block("[[[[1., 0.],\n[1., 1.]]]]"), lambda x: np.tril(np.ones((2, 2))), "mask"),
        Printed(
            _ATT_MASKED,
            lambda x: causal(single_precision(_scores, _ATT)(x)),
            "scores after the mask",
        ),
        Printed(block("[[[[1., 0.],\n[0., 1.]]]]"), _weights, "scores after the softmax"),
        Printed(
            block(
                "[[[[ 3.0000,  7.0000, 11.0000, 15.0000],\n[ 7.0000, 17.4000, 27.8000, 38.2000]]]]"
            ),
            lambda x: _weights(x) @ _proj(x),
            "output of the heads",
        ),
        Printed(_Q, lambda x: _weights(x) @ _proj(x), "concatenated"),
        Printed(_Q, lambda x: _weights(x) @ _proj(x), "after the identity output projection"),
    ),
    notes=(
        "A Portuguese notebook (comments and headings in Portuguese) working one attention step "
        "in torch with a hand-written fused QKV projection whose three blocks are equal, so q = "
        "k = v. It declares n_heads = 2 and scales by sqrt(head_dim = 2) but never splits q, k "
        "and v into heads: the scores are the full 4-d dot products over sqrt(2) (the page's "
        "choice, kept as the truth). A causal mask of ones and zeros, the scores with -inf, a "
        "softmax that saturates to the identity, the output (= v), its 'concatenation' and an "
        "identity output projection. All right."
    ),
)

DEV_SEEN_JUDGE8C: list[Doc] = [PT_GATO, PT_FUSED]
