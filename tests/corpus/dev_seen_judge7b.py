"""Development documents (the seventh held-out batch, moved to dev in session 30), continued: a
Chinese notebook (unscaled scores, Xavier weights, heads whose keys are not printed) and a
Spanish one (five words, four decimals). See tests/corpus/dev_seen_judge7.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Rows, Truth, a, block, given, one, other, settled
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


def _matrix(rows: tuple[tuple[str, ...], ...]) -> np.ndarray:
    return a([[float(e) for e in r] for r in rows])


ZH_HEADS = Doc(
    file="dev/zh-notebook-numpy-unscaled-four-positions-xavier-heads.ipynb",
    url="https://github.com/danny-stack/DLS/blob/main/attention/self_attention.ipynb",
    kind="notebook-numpy",
    language="zh",
    inputs={
        "F": a([list(r) for r in _ZH_F]),
        "Wq": _matrix(_ZH_WQ),
        "Wk": _matrix(_ZH_WK),
        "Wv": _matrix(_ZH_WV),
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

# --- Spanish notebook: five words, Q, K, V printed to 4 decimals, unscaled, word by word -------

_ES_WORDS = ("me", "gusta", "estudiar", "inteligencia", "artificial")
_ES_Q = block(
    """
    [[-0.2856  0.1529  0.1914]
     [ 0.1156 -0.2958 -0.0378]
     [-0.0123 -0.0164 -0.1174]
     [ 0.2861 -0.5074 -0.1684]
     [ 0.3299 -0.2983 -0.1628]]
    """
)
_ES_K = block(
    """
    [[ 0.21    0.4861  0.0043]
     [-0.1448  0.0443 -0.0516]
     [-0.0906 -0.3696  0.0938]
     [-0.3261 -0.2561 -0.0451]
     [-0.2622 -0.1248 -0.1372]]
    """
)
_ES_V = block(
    """
    [[ 0.041  -0.0518 -0.2071]
     [ 0.004   0.0187  0.1207]
     [ 0.0223 -0.1137 -0.3795]
     [-0.006   0.0276  0.1633]
     [-0.0271 -0.0291  0.2981]]
    """
)
_ES_X = block(
    """
    [[ 0.967  -0.8742 -1.3776  1.7486]
     [ 0.1017 -0.2511 -1.2675 -0.9875]
     [-0.5221  1.2723 -1.2475  1.1701]
     [-0.5777  0.2603 -1.4435 -1.9099]
     [ 1.3917  1.2889 -1.6381 -1.8888]]
    """
)
_ES_ALPHAS = block(
    """
    [[0.1984 0.203  0.1929 0.2045 0.2012]
     [0.177  0.194  0.2195 0.2076 0.2019]
     [0.1967 0.2003 0.1981 0.2016 0.2032]
     [0.1662 0.1897 0.2319 0.2095 0.2027]
     [0.1894 0.1939 0.2182 0.1996 0.199 ]]
    """
)
_ES_OUT = block(
    """
    [[ 0.0066 -0.0286  0.0036]
     [ 0.0062 -0.0306 -0.0024]
     [ 0.0066 -0.0293  0.0018]
     [ 0.006  -0.0315 -0.0049]
     [ 0.0068 -0.0313 -0.0067]]
    """
)
_ES_HALVES = {"Q": 5e-5, "K": 5e-5, "V": 5e-5}


def _es_alphas(x: Arrays) -> np.ndarray:
    return softmax(x["Q"] @ x["K"].T)


def _es_out(x: Arrays) -> np.ndarray:
    return _es_alphas(x) @ x["V"]


def _es_row(compute: Truth, i: int, rows: Rows) -> Truth:
    return settled(lambda x: compute(x)[i : i + 1], _ES_HALVES, rows[i : i + 1])


def _es_words() -> tuple[Printed, ...]:
    out = [other(one("3"), "me_query.shape")]
    for i, word in enumerate(_ES_WORDS):
        alphas = Printed(
            _ES_ALPHAS[i : i + 1], _es_row(_es_alphas, i, _ES_ALPHAS), f"alphas de {word}"
        )
        att = Printed(_ES_OUT[i : i + 1], _es_row(_es_out, i, _ES_OUT), f"atencion de {word}")
        if i == 0:
            first = Printed(
                (_ES_ALPHAS[0][:1],),
                settled(lambda x: _es_alphas(x)[0, :1], _ES_HALVES, (_ES_ALPHAS[0][:1],)),
                "me_alphas[:,0]",
            )
            out += [alphas, first, att]
        else:
            out += [alphas, att]
    return tuple(out)


ES_WORDS = Doc(
    file="dev/es-notebook-numpy-five-words-unscaled-four-decimals.ipynb",
    url="https://github.com/JUANDIG0MEZ/Curso-Pepe-Cantoral-Phd/blob/main/90-self-attention.ipynb",
    kind="notebook-numpy",
    language="es",
    inputs={"Q": _matrix(_ES_Q), "K": _matrix(_ES_K), "V": _matrix(_ES_V)},
    printed=(
        given(one("0.667", "0.0258", "-0.7776", "0.9486"), "embedding of 'me'"),
        given(one("0.967", "-0.8742", "-1.3776", "1.7486"), "embedding of 'me' plus position"),
        *_es_words(),
        given(_ES_X, "X"),
        given(_ES_Q, "Q"),
        given(_ES_K, "K"),
        given(_ES_V, "V"),
        *(given(_ES_Q[i : i + 1], f"query of {w}") for i, w in enumerate(_ES_WORDS)),
        other(one("5", "3"), "Q.shape"),
        other(one("5", "3"), "K.shape"),
        Printed(_ES_ALPHAS, settled(_es_alphas, _ES_HALVES, _ES_ALPHAS), "alphas"),
        Printed(_ES_OUT, settled(_es_out, _ES_HALVES, _ES_OUT), "atencion scores (the output)"),
    ),
    notes=(
        "A Spanish course notebook (np.set_printoptions(precision=4)): five words with random "
        "embeddings plus positional vectors, random W_q, W_k, W_v never printed; each word's "
        "weights softmax(q K^T) WITHOUT scaling and its output printed word by word (labels "
        "'alphas de ...', 'atencion de ...'), then the same with matrices: X, Q, K, V, the 5 x 5 "
        "weights and the output, which the notebook names 'atencion scores'. The truth "
        "recomputes from the printed 4-decimal Q, K, V. All right."
    ),
)

DEV_SEEN_JUDGE7B: list[Doc] = [ZH_HEADS, ES_WORDS]
