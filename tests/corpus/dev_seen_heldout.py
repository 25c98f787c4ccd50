"""Two documents that were held out until a session worked on pages of the same sources (the
book chapter's own notebook; another copy of the course notebook): seen in development, they
would flatter the held-out share, so they count as dev from then on. Their truth is unchanged."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import a, block, column, given, one, other, settled
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

_ROUNDED_4 = 5e-5


def _tril(n: int) -> np.ndarray:
    return np.tril(np.ones((n, n))) == 1


# --- book notebook, torch prints: PyTorch Step-by-Step, chapter 9 -------------------------------

_CH9_PRODUCTS = one("0.0569", "0.4821")
_CH9_ALPHAS = one("0.3953", "0.6047")
_CH9_UNIFORM_CONTEXT = one("0.1968", "-0.2809")
_CH9_CONCAT = one("0.1968", "-0.2809", "0.3913", "-0.6853")
_CH9_SCALED = one("0.0403", "0.3409")
_CH9_SCALED_ALPHAS = one("0.4254", "0.5746")
_CH9_CONTEXT = one("0.2138", "-0.3175")
_CH9_HALVES = {"hidden": _ROUNDED_4, "query": _ROUNDED_4}


def _ch9_products(x: Arrays) -> np.ndarray:
    return x["query"] @ x["hidden"].T


def _ch9_uniform(x: Arrays) -> np.ndarray:
    return np.full((1, 2), 0.5) @ x["hidden"]


def _ch9_scaled_alphas(x: Arrays) -> np.ndarray:
    return softmax(_ch9_products(x) / np.sqrt(2))


def _ch9_truths() -> tuple[Printed, ...]:
    products, halves = _ch9_products, _CH9_HALVES
    return (
        Printed(one("0.5000", "0.5000"), lambda x: np.full((1, 2), 0.5), "alphas (uniform)"),
        Printed(_CH9_UNIFORM_CONTEXT, settled(_ch9_uniform, halves, _CH9_UNIFORM_CONTEXT)),
        Printed(
            _CH9_CONCAT,
            settled(lambda x: np.hstack([_ch9_uniform(x), x["query"]]), halves, _CH9_CONCAT),
            "concatenated",
        ),
        Printed(_CH9_PRODUCTS, settled(products, halves, _CH9_PRODUCTS), "products"),
        Printed(
            _CH9_ALPHAS, settled(lambda x: softmax(products(x)), halves, _CH9_ALPHAS), "alphas"
        ),
    )


def _ch9_drawn(x: Arrays) -> np.ndarray:
    return x["q"] @ x["k"].T


CH9 = Doc(
    file="dev/book-pytorch-step-by-step-ch9-attention.ipynb",
    url="https://github.com/dvgodoy/PyTorchStepByStep/blob/master/Chapter09.ipynb",
    kind="book-notebook",
    language="en",
    inputs={
        "hidden": a([[0.0832, -0.0356], [0.3105, -0.5263]]),
        "query": a([[0.3913, -0.6853]]),
        "q": a([[0.55, 0.95]]),
        "k": a([[0.65, 0.2], [0.85, -0.4], [-0.95, -0.75]]),
        "dummy": a([[4.0, 1.0]]),
    },
    printed=(
        given(block("[[-1, -1], [-1, 1], [1, 1], [1, -1]]"), "full_seq"),
        other(one("0.3105", "-0.5263"), "Hidden (GRU state)"),
        other(one("-0.2339", "0.4702"), "Output (decoder prediction)"),
        other(one("0.3913", "-0.6853"), "Hidden (GRU state)"),
        other(one("-0.0226", "0.4628"), "Output (decoder prediction)"),
        given(block("0.0832 -0.0356\n0.3105 -0.5263"), "values"),
        given(block("0.0832 -0.0356\n0.3105 -0.5263"), "keys"),
        given(one("0.3913", "-0.6853"), "query"),
        *_ch9_truths(),
        given(one(".55", ".95"), "q"),
        given(block(".65 .2\n.85 -.4\n-.95 -.75"), "k"),
        other(block("0.73 1.10 0.68\n0.08 1.10 0.94\n-0.93 1.10 1.21"), "cos and norms"),
        Printed(column("0.54", "0.08", "-1.23"), lambda x: _ch9_drawn(x).T, "Q . K_i"),
        Printed(one("0.5475", "0.0875", "-1.2350"), _ch9_drawn, "prod"),
        Printed(one("0.5557", "0.3508", "0.0935"), lambda x: softmax(_ch9_drawn(x)), "scores"),
        Printed(
            one("0.5557", "0.3508", "0.0935"),
            lambda x: softmax(_ch9_drawn(x)),
            "weights in the context-vector sum",
        ),
        given(block("0.65 0.20\n0.85 -0.40\n-0.95 -0.75"), "value vectors in the sum"),
        Printed(one("0.5706", "-0.0993"), lambda x: softmax(_ch9_drawn(x)) @ x["k"], "context"),
        Printed(
            _CH9_SCALED,
            settled(lambda x: _ch9_products(x) / np.sqrt(2), _CH9_HALVES, _CH9_SCALED),
            "scaled_products",
        ),
        given(one("4.0", "1.0"), "dummy_product"),
        Printed(one("0.9526", "0.0474"), lambda x: softmax(x["dummy"]), "softmax"),
        Printed(one("1.", "0."), lambda x: softmax(100 * x["dummy"]), "softmax of 100x"),
        Printed(
            _CH9_SCALED_ALPHAS,
            settled(_ch9_scaled_alphas, _CH9_HALVES, _CH9_SCALED_ALPHAS),
            "alphas",
        ),
        Printed(
            _CH9_CONTEXT,
            settled(lambda x: _ch9_scaled_alphas(x) @ x["hidden"], _CH9_HALVES, _CH9_CONTEXT),
            "context_vector",
        ),
    ),
    notes=(
        "Bahdanau-style single query (N, 1, L) printed as 3-d torch tensors; the encoder's GRU "
        "states are the keys and values, the decoder's GRU state is the query. Earlier the "
        "decoder loop prints GRU states and predictions (not attention). The LaTeX array "
        "truncates instead of rounding (a mistake): Q.K_0 = 0.5475 printed 0.54 and "
        "Q.K_1 = 0.0875 printed 0.08 (both wrong at two decimals). A softmax of a dummy "
        "[4, 1] is printed as a tuple."
    ),
)

# --- torch notebook: causal self-attention checked step by step, -1e9 in e-notation --------------

_SQ_Q = block("[ 0.7621, -0.0428],\n[ 1.1063,  0.7890],\n[ 1.1164, -2.1336]")
_SQ_K = block("[-0.1469, -0.3038],\n[ 0.1057,  0.3685],\n[-0.9914, -2.4152]")
_SQ_V = block("[ 0.6038,  0.7434],\n[-0.3502,  0.5303],\n[ 3.8695,  2.4246]")
_SQ_HALVES = {"q": _ROUNDED_4, "k": _ROUNDED_4, "v": _ROUNDED_4}
_SQ_OUT = block("[ 0.6038,  0.7434],\n[-0.0062,  0.6072],\n[ 3.4989,  2.2427]")
_SQ_SIMS = block(
    "[-0.0990,  0.0648, -0.6523],\n[-0.4022,  0.4078, -3.0024],\n[ 0.4842, -0.6683,  4.0461]"
)
_SQ_SCALED = block(
    "[-0.0700,  0.0458, -0.4612],\n[-0.2844,  0.2883, -2.1230],\n[ 0.3424, -0.4725,  2.8610]"
)
_SQ_MASKED = block(
    "[-6.9975e-02, -1.0000e+09, -1.0000e+09],\n[-2.8442e-01,  2.8833e-01, -1.0000e+09],\n"
    "[ 3.4241e-01, -4.7253e-01,  2.8610e+00]"
)
_SQ_WEIGHTS = block(
    "[1.0000, 0.0000, 0.0000],\n[0.3606, 0.6394, 0.0000],\n[0.0722, 0.0320, 0.8959]"
)


def _sq_masked(x: Arrays) -> np.ndarray:
    return np.where(_tril(3), x["q"] @ x["k"].T / np.sqrt(2), -1e9)


MASKED_STEPS = Doc(
    file="dev/notebook-torch-masked-self-attention-step-check.ipynb",
    url=(
        "https://github.com/Shrijeeth/Attention-in-Transformers-Concepts-and-Code-in-PyTorch-"
        "Notes-DeepLearningAI/blob/main/7_Coding_Masked_Self_Attention_in_Pytorch.ipynb"
    ),
    kind="notebook-torch",
    language="en",
    inputs={
        "q": a([[float(e) for e in r] for r in _SQ_Q]),
        "k": a([[float(e) for e in r] for r in _SQ_K]),
        "v": a([[float(e) for e in r] for r in _SQ_V]),
    },
    printed=(
        given(block("[1.16, 0.23]"), "token 0"),
        given(block("[0.57, 1.36]"), "token 1"),
        given(block("[4.41, -2.16]"), "token 2"),
        given(block("[1.16, 0.23],\n[0.57, 1.36],\n[4.41, -2.16]"), "encodings_matrix"),
        Printed(
            _SQ_OUT,
            settled(lambda x: softmax(_sq_masked(x)) @ x["v"], _SQ_HALVES, _SQ_OUT),
            "original_output",
        ),
        given(_SQ_Q, "q (random seeded W_q, not printed)"),
        given(_SQ_K, "k"),
        given(_SQ_V, "v"),
        Printed(_SQ_SIMS, settled(lambda x: x["q"] @ x["k"].T, _SQ_HALVES, _SQ_SIMS), "sims"),
        Printed(
            _SQ_SCALED,
            settled(lambda x: x["q"] @ x["k"].T / np.sqrt(2), _SQ_HALVES, _SQ_SCALED),
            "scaled_sims",
        ),
        Printed(_SQ_MASKED, settled(_sq_masked, _SQ_HALVES, _SQ_MASKED), "masked_scaled_sims"),
        Printed(
            _SQ_WEIGHTS,
            settled(lambda x: softmax(_sq_masked(x)), _SQ_HALVES, _SQ_WEIGHTS),
            "attention_percents",
        ),
        Printed(
            _SQ_OUT,
            settled(lambda x: softmax(_sq_masked(x)) @ x["v"], _SQ_HALVES, _SQ_OUT),
            "final_output",
        ),
    ),
    notes=(
        "Causal self-attention on three 2-d token encodings with seeded random W_q, W_k, W_v "
        "that are never printed: q, k and v are printed (4 decimals) and are the inputs. The "
        "boolean mask is printed as True/False; masked scores are filled with -1e9, printed "
        "in e-notation next to the unmasked ones; scaled by √2. The module's output is printed "
        "first and again as the hand-checked final output. All right."
    ),
)


DEV_SEEN_HELDOUT: list[Doc] = [CH9, MASKED_STEPS]
