"""The seventh batch of held-out documents, continued: a Chinese notebook (unscaled scores, Xavier
weights, heads whose keys are not printed) and a Spanish one (five words, four decimals). See
tests/corpus/heldout_judge7.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import a, block, given, one, other, settled
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

_ROUNDED_8 = 5e-9

# --- Chinese notebook: four integer positions, Xavier weights printed, no scaling; four heads ---

_ZH_F = ((1, 0, 1), (0, 1, 1), (1, 1, 0), (0, 0, 1))
_ZH_WQ = block(
    "[[ 0.1936747   0.78729825]\n [ 0.54926615 -0.04591318]\n [ 1.62722824  0.39686957]]"
)
_ZH_WK = block(
    "[[ 0.83663886 -0.79360409]\n [-0.42752367 -0.30505612]\n [-0.68283334 -0.00779054]]"
)
_ZH_WV = block(
    "[[-0.51232982 -0.86301211]\n [ 0.74448008 -0.28517045]\n [ 0.27987747  0.29156925]]"
)
_ZH_QUERY = block(
    "[[1.82090294 1.18416782]\n [2.17649439 0.3509564 ]\n [0.74294086 0.74138508]\n"
    " [1.62722824 0.39686957]]"
)
_ZH_SCORES = block(
    """
    [[-0.66892083 -2.39231529 -0.55603902 -1.25259854]
     [ 0.05350227 -2.52648133  0.50485508 -1.48891708]
     [-0.47987362 -1.05686943 -0.5105819  -0.51308058]
     [-0.06777247 -1.93096359  0.22969898 -1.11421752]]
    """
)
_ZH_WEIGHTS = block(
    """
    [[0.35016434 0.0624901  0.39200884 0.19533672]
     [0.34964135 0.02649416 0.54908911 0.07477537]
     [0.28582211 0.16051282 0.2771784  0.27648668]
     [0.35053151 0.05439431 0.47197313 0.12310105]]
    """
)
_ZH_OUT = block(
    "[[ 0.12829098 -0.59284257]\n [ 0.09426366 -0.80828286]\n [ 0.23971192 -0.3999403 ]\n"
    " [ 0.11825924 -0.7059795 ]]"
)
_ZH_WQ_HEADS = block(
    """
    [[[ 0.2561395   0.17922212]
      [ 0.34622551 -0.72346501]
      [-0.35703322 -0.42980255]]
     [[-0.43398198 -0.1584815 ]
      [-0.83777088 -0.64821551]
      [ 0.26073526  0.07988022]]
     [[-0.00870527  0.69960601]
      [ 0.42938427 -0.06887067]
      [ 0.30984964  0.30917478]]
     [[ 0.50756209 -0.71378229]
      [ 0.11222289 -0.0797183 ]
      [ 0.02702348 -0.33147692]]]
    """
)
_ZH_HEAD_OUT = block(
    """
    [[[ 0.46834058  0.46934938]
      [ 0.31235121  0.56094363]
      [ 0.28177941  0.48250133]
      [ 0.53172276  0.48693824]]
     [[ 0.0458458  -1.08443782]
      [ 0.03578854 -1.05753493]
      [ 0.01530534 -1.06665533]
      [ 0.04823435 -1.11904312]]
     [[ 0.92165626 -0.01353054]
      [ 0.80494898  0.11203423]
      [ 0.87002499  0.02854181]
      [ 0.82970115  0.02133007]]
     [[ 0.90416997 -0.12297903]
      [ 1.06334586 -0.22649126]
      [ 0.94761556 -0.15466373]
      [ 1.08919686 -0.24193256]]]
    """
)
_ZH_HEAD_ROWS = (
    ("0.26914389", "0.29401485", "0.19324804", "0.24359321"),
    ("0.22621923", "0.28882462", "0.21266388", "0.27229227"),
    ("0.31554975", "0.14753084", "0.26249605", "0.27442336"),
    ("0.12891289", "0.2111176", "0.54042794", "0.11954157"),
)
_ZH_HALVES = {"Wq": _ROUNDED_8, "Wk": _ROUNDED_8, "Wv": _ROUNDED_8}


def _zh_weights(x: Arrays) -> np.ndarray:
    return softmax((x["F"] @ x["Wq"]) @ (x["F"] @ x["Wk"]).T)


def _zh_output(x: Arrays) -> np.ndarray:
    return _zh_weights(x) @ (x["F"] @ x["Wv"])


def _zh_matrix(rows: tuple[tuple[str, ...], ...]) -> np.ndarray:
    return a([[float(e) for e in r] for r in rows])


ZH_HEADS = Doc(
    file="heldout/zh-notebook-numpy-unscaled-four-positions-xavier-heads.ipynb",
    url="https://github.com/danny-stack/DLS/blob/main/attention/self_attention.ipynb",
    kind="notebook-numpy",
    language="zh",
    inputs={
        "F": a([list(r) for r in _ZH_F]),
        "Wq": _zh_matrix(_ZH_WQ),
        "Wk": _zh_matrix(_ZH_WK),
        "Wv": _zh_matrix(_ZH_WV),
    },
    printed=(
        given(_ZH_WQ, "W_q"),
        given(_ZH_WK, "W_k"),
        given(_ZH_WV, "W_v"),
        other(one("3", "2"), "shape of W_q"),
        other(one("4", "2"), "shape of Query"),
        Printed(
            _ZH_QUERY, settled(lambda x: x["F"] @ x["Wq"], {"Wq": _ROUNDED_8}, _ZH_QUERY), "Query"
        ),
        Printed(
            _ZH_SCORES,
            settled(lambda x: (x["F"] @ x["Wq"]) @ (x["F"] @ x["Wk"]).T, _ZH_HALVES, _ZH_SCORES),
            "Attention scores (no scaling)",
        ),
        Printed(_ZH_WEIGHTS, settled(_zh_weights, _ZH_HALVES, _ZH_WEIGHTS), "Attention weights"),
        Printed(_ZH_OUT, settled(_zh_output, _ZH_HALVES, _ZH_OUT), "Output"),
        Printed(
            _ZH_WEIGHTS[:1],
            settled(lambda x: _zh_weights(x)[:1], _ZH_HALVES, _ZH_WEIGHTS[:1]),
            "Position 1 attention weights",
        ),
        given(one("1", "0", "1"), "Position 1 original feature"),
        Printed(
            _ZH_OUT[:1],
            settled(lambda x: _zh_output(x)[:1], _ZH_HALVES, _ZH_OUT[:1]),
            "Position 1 new feature",
        ),
        given(_ZH_WQ_HEADS, "W_q of the four heads"),
        other(one("4", "3", "2"), "shape of W_q_heads"),
        given(_ZH_HEAD_OUT, "head outputs (W_k, W_v of the heads not printed)"),
        other(one("4", "4", "2"), "shape of head_outputs"),
        other(block("(4, 2), (4, 2), (4, 2), (4, 2)"), "shapes of the head outputs"),
        other(one("4", "8"), "shape of the concatenation"),
        other(one("4", "3"), "shape of the final output"),
        *(given((r,), f"head {h + 1}, weights of position 1") for h, r in enumerate(_ZH_HEAD_ROWS)),
    ),
    notes=(
        "A Chinese study notebook: four positions with integer 3-d features, Xavier-random "
        "W_q, W_k, W_v (3 x 2) printed to 8 decimals, Query printed but not Key or Value; "
        "scores Q K^T are NOT scaled, softmax by rows, output = weights @ Value, then row 1 "
        "again. A multi-head part prints only the heads' W_q, so the head outputs and the "
        "per-head weights cannot be recomputed from the page: they are given (never judged). "
        "All right."
    ),
)

JUDGE_DOCS_7B: list[Doc] = [ZH_HEADS]
