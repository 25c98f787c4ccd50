"""The twelfth batch of held-out documents, continued (see tests/corpus/heldout_judge12.py): a
German blog post in Markdown (unscaled self-attention on hand-made embeddings, then two random
heads whose weights are never printed), and the modules it imports."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, block, given, one, other, values
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- German blog post: "May the force be with you", Q = K = V = the embeddings -------------------

_DE_X = block(
    "[0.1000, 0.2000, 0.3000, 0.4000, 0.5000, 0.6000, 0.7000, 0.8000, 0.9000, 1.0000]\n"
    "[1.0000, 0.9000, 0.8000, 0.7000, 0.6000, 0.5000, 0.4000, 0.3000, 0.2000, 0.1000]\n"
    "[0.5000, 0.6000, 0.7000, 0.8000, 0.9000, 1.0000, 0.1000, 0.2000, 0.3000, 0.4000]\n"
    "[0.2000, 0.4000, 0.6000, 0.8000, 1.0000, 0.1000, 0.3000, 0.5000, 0.7000, 0.9000]\n"
    "[0.9000, 0.7000, 0.5000, 0.3000, 0.1000, 1.0000, 0.8000, 0.6000, 0.4000, 0.2000]\n"
    "[0.3000, 0.1000, 0.9000, 0.7000, 0.5000, 0.2000, 1.0000, 0.8000, 0.6000, 0.4000]"
)
_DE_CONTEXT = block(
    "[0.3463, 0.3632, 0.5661, 0.5830, 0.5999, 0.5073, 0.6081, 0.6251, 0.6420, 0.6589]\n"
    "[0.6567, 0.6127, 0.6820, 0.6381, 0.5941, 0.6257, 0.4886, 0.4447, 0.4007, 0.3567]\n"
    "[0.5510, 0.5572, 0.6599, 0.6661, 0.6723, 0.6456, 0.4277, 0.4339, 0.4401, 0.4463]\n"
    "[0.3734, 0.4150, 0.6252, 0.6668, 0.7084, 0.4462, 0.5038, 0.5454, 0.5870, 0.6286]\n"
    "[0.6475, 0.5713, 0.6231, 0.5470, 0.4709, 0.6910, 0.6014, 0.5253, 0.4492, 0.3731]\n"
    "[0.4178, 0.3792, 0.6643, 0.6257, 0.5872, 0.4614, 0.6490, 0.6104, 0.5718, 0.5333]"
)
_DE_WEIGHTS = block(
    "[0.3388, 0.0651, 0.1020, 0.1955, 0.1128, 0.1859]\n"
    "[0.0622, 0.3237, 0.2064, 0.1077, 0.1867, 0.1133]\n"
    "[0.0966, 0.2044, 0.3206, 0.1515, 0.1304, 0.0966]\n"
    "[0.1863, 0.1075, 0.1526, 0.3230, 0.0620, 0.1686]\n"
    "[0.1157, 0.2006, 0.1414, 0.0668, 0.3477, 0.1279]\n"
    "[0.1776, 0.1133, 0.0975, 0.1690, 0.1191, 0.3236]"
)
_DE_MHA = block(
    "-6.3872  1.9858  2.1712  2.7969 -2.1122 -5.8285 -3.3943 -1.7054 -2.6450  3.8029\n"
    "-6.0595  2.2669  2.7205  3.5506 -2.4773 -6.7691 -3.6894 -2.3192 -2.7402  5.1961\n"
    "-4.6440  1.6299  3.9077  5.0117 -1.8828 -6.0060 -3.2956 -3.3168 -2.5437  4.9490\n"
    "-5.7771  2.0586  2.5875  3.0803 -1.6768 -5.7386 -3.5614 -2.2284 -2.6754  4.2769\n"
    "-6.4755  2.3926  2.5579  3.2462 -2.8572 -6.9736 -3.5434 -1.9716 -2.7969  5.1418\n"
    "-6.8217  3.0510  3.1547  2.3845 -1.8317 -6.1681 -2.8469 -1.6187 -2.7340  4.0441"
)
_DE_HEAD1 = block(
    "0.068118  0.181340  0.071635  0.027055  0.456570  0.195282\n"
    "0.015012  0.246116  0.019410  0.006160  0.599809  0.113493\n"
    "0.007348  0.470308  0.094195  0.009372  0.368718  0.050059\n"
    "0.054408  0.292597  0.065859  0.040474  0.393329  0.153334\n"
    "0.018118  0.147041  0.020352  0.003969  0.671181  0.139338\n"
    "0.106796  0.130137  0.028468  0.034135  0.407147  0.293316"
)
_DE_HEAD2 = block(
    "0.339670  0.036311  0.029780  0.072609  0.169863  0.351766\n"
    "0.549202  0.000667  0.000758  0.028736  0.012748  0.407889\n"
    "0.651215  0.000264  0.000342  0.038280  0.004499  0.305399\n"
    "0.405897  0.003060  0.001443  0.031975  0.038848  0.518777\n"
    "0.521837  0.008986  0.017760  0.074093  0.063290  0.314033\n"
    "0.522649  0.000785  0.000491  0.012670  0.032367  0.431039"
)
_DE_LOGITS = block(
    "6747 262 2700 307 351 345 13\n-64.0309 -64.0530 -64.3531\n"
    "-46.4960 -47.9148 -48.4800\n-61.6658 -61.7417 -61.7950"
)


def _de_weights(x: Arrays) -> np.ndarray:
    return softmax(x["x"] @ x["x"].T)


def _de_context(x: Arrays) -> np.ndarray:
    return _de_weights(x) @ x["x"]


def _de_entries(*cells: tuple[int, int]) -> Truth:
    def truth(x: Arrays) -> np.ndarray:
        w = _de_weights(x)
        return np.array([[w[i, j] for i, j in cells]])

    return truth


def _de_head1(*cells: tuple[int, int]) -> Truth:
    def truth(x: Arrays) -> np.ndarray:
        return np.array([[x["head1"][i, j] for i, j in cells]])

    return truth


def _de_printed() -> tuple[Printed, ...]:
    w = _de_entries
    h1 = _de_head1
    return (
        other(_DE_LOGITS, "token ids and DistilGPT-2 next-token logits (not attention)"),
        given(_DE_X, "input embeddings (Q = K = V)"),
        Printed(_DE_CONTEXT, _de_context, "context vectors softmax(X X^T) X"),
        Printed(_DE_WEIGHTS, _de_weights, "attention weights softmax(X X^T), unscaled"),
        Printed(one("0.3388"), w((0, 0)), "May on itself (prose)"),
        Printed(one("0.0651"), w((0, 1)), "May on the (prose)"),
        Printed(one("0.1955"), w((0, 3)), "May on be (prose)"),
        Printed(one("0.1859"), w((0, 5)), "May on you (prose)"),
        Printed(one("0.3206"), w((2, 2)), "force on itself (prose)"),
        Printed(one("0.2044"), w((2, 1)), "force on the (prose)"),
        Printed(one("0.1515"), w((2, 3)), "force on be (prose)"),
        Printed(
            one("0.3463", "0.6589"),
            lambda x: _de_context(x)[0, [0, 9]].reshape(1, 2),
            "context of May, first and last (prose)",
        ),
        other(one("0.9387", "0.9561", "0.9919", "0.9491", "0.9933"), "cosine, May (not attention)"),
        Printed(
            one("0.0651", "0.1020", "0.1955", "0.1128", "0.1859"),
            w((0, 1), (0, 2), (0, 3), (0, 4), (0, 5)),
            "weights of May in the comparison table",
        ),
        other(one("0.9387", "0.9944", "0.9542", "0.9913", "0.9596"), "cosine, the (not attention)"),
        Printed(
            one("0.0622", "0.2064", "0.1077", "0.1867", "0.1133"),
            w((1, 0), (1, 2), (1, 3), (1, 4), (1, 5)),
            "weights of the in the comparison table",
        ),
        given(_DE_MHA, "two-head output (random W_Q, W_K, W_V, W_O never printed)"),
        given(_DE_HEAD1, "head 1 weights (random projections, taken as given)"),
        Printed(one("0.671"), h1((4, 4)), "head 1: with on itself (prose)"),
        Printed(one("0.470"), h1((2, 1)), "head 1: force on the (prose)"),
        Printed(one("0.292"), h1((3, 1)), "head 1: be on the (prose)"),
        Printed(one("0.068"), h1((0, 0)), "head 1: May on itself (prose)"),
        Printed(one("0.009"), h1((2, 2)), "head 1: force on itself (prose)"),
        Printed(one("0.407"), h1((5, 4)), "head 1: you on with (prose)"),
        given(_DE_HEAD2, "head 2 weights (random projections, taken as given)"),
    )


DE_BLOG = Doc(
    file="heldout/de-md-blog-may-the-force-unscaled-self-attention-two-heads.md",
    url=(
        "https://github.com/gvtsch/gvtsch.github.io-content/blob/main/de/blog/"
        "Transformer_Teil_1_de.md"
    ),
    kind="blog-post",
    language="de",
    inputs={"x": values(_DE_X), "head1": values(_DE_HEAD1)},
    printed=_de_printed(),
    notes=(
        "A German blog post in Markdown (torch code and its printed outputs in code blocks): "
        "DistilGPT-2 token ids and next-token logits (not attention), then six hand-made "
        "10-dimensional embeddings of 'May the force be with you' used as Q = K = V, "
        "softmax(Q K^T) without the 1/sqrt(d_k) the prose mentions as optional, the 6 x 10 "
        "context vectors and the 6 x 6 weights to four decimals, weights quoted in the prose and "
        "in two comparison tables beside cosine similarities (not attention). A two-head "
        "version with torch.manual_seed(42) random projections prints its output and both "
        "heads' weight tables (six decimals); the weights are never printed, so these are taken "
        "as given, and the prose quoting head 1 is judged against that table. Two mistakes in "
        "that prose: be's weight on the is 0.292597, written 0.292 (cut, not rounded: 0.293), "
        "and force's weight on itself is written 0.009 while the table's diagonal says "
        "0.094195 (0.009372 is force's weight on be): 2 wrong, nothing follows."
    ),
)

# --- Simplified Chinese Jekyll blog: Thinking/Machines scores, sqrt(d_k) for d_k = 256 ---------


ZH_CN_BLOG = Doc(
    file="heldout/zh-cn-md-jekyll-blog-thinking-machines-score-scale-sqrt-slip.md",
    url="https://github.com/xuyangcao/blog/blob/master/cv/cv_learn_transformer_1.md",
    kind="blog-post",
    language="zh-cn",
    inputs={"d_k": np.array([256.0])},
    printed=(
        given(one("112"), "q1 . k1 (from the figure)"),
        given(one("96"), "q1 . k2 (from the figure)"),
        given(one("256"), "d_k as the prose states it"),
        Printed(one("8"), lambda x: np.sqrt(x["d_k"]).reshape(1, 1), "sqrt(d_k)"),
    ),
    notes=(
        "A Simplified Chinese Jekyll blog post in Markdown (MathJax, figures as HTML img tags) "
        "on self-attention and multi-head attention for Vision Transformers, the numbers of the "
        "worked example living mostly in the figures: only q1 . k1 = 112 and q1 . k2 = 96 are "
        "written in the text (taken as given), then the scale: the prose says d_k is 256 and "
        "therefore sqrt(d_k) is 8. Mistake: sqrt(256) = 16 (8 is sqrt(64), the figure's d_k): "
        "1 wrong. Complexity formulas (4WHC^2 + 2(WH)^2C) are symbolic, not printed numbers."
    ),
)

# --- Spanish project log: el/perro/come with identity projections, one query by hand ------------

_ES_X = block("1 0\n0 1\n1 1")


def _es_weights(x: Arrays) -> np.ndarray:
    return softmax(x["x"] @ x["x"][2])


ES_LOG = Doc(
    file="heldout/es-md-project-log-el-perro-come-query-weights-causal-heads.md",
    url=(
        "https://github.com/albertonava-16/MiniAI/blob/main/documentation/code%20docs/"
        "02_Memoria_Tecnica.md"
    ),
    kind="project-log",
    language="es",
    inputs={"x": values(_ES_X)},
    printed=(
        given(_ES_X, "embeddings el, perro, come (Q = K = V, identity projections)"),
        Printed(one("1", "1", "2"), lambda x: x["x"] @ x["x"][2], "scores of the query come"),
        Printed(one("0.2119", "0.2119", "0.5761"), _es_weights, "softmax of the scores"),
        Printed(one("0.7881", "0.7881"), lambda x: _es_weights(x) @ x["x"], "weighted sum"),
        given(
            block("0.5621 0.4379 0.0000\n0.4425 0.5575 0.0000"),
            "row of perro in two random heads (weights never printed)",
        ),
    ),
    notes=(
        "A Spanish project log in Markdown (tables, text blocks) of a from-scratch LLM course, "
        "transcribed from its attention phase: hand-set 2-d embeddings el [1, 0], perro [0, 1], "
        "come [1, 1] with identity W_Q, W_K, W_V, the query of come giving scores [1, 1, 2], "
        "unscaled softmax [0.2119, 0.2119, 0.5761] and the weighted sum [0.7881, 0.7881]; a "
        "boolean causal-mask table; then two heads with random unseeded projections whose row "
        "for perro (0.5621 0.4379 0.0000 / 0.4425 0.5575 0.0000) can only be taken as given. "
        "Shapes ([3, 2], [3, 4], 4 // 2 = 2) are not attention values. All right."
    ),
)

# --- Polish translation of the same lesson as the Japanese one: same table, same slipped row ----

_PL_SCORES = block(
    "2.1 0.3 0.1 0.8 0.2\n0.4 1.9 0.7 0.1 0.3\n0.2 0.6 2.3 0.5 0.1\n"
    "0.9 0.1 0.4 1.7 0.6\n0.1 0.3 0.2 0.5 2.0"
)
_PL_WEIGHTS = one("0.52", "0.09", "0.07", "0.14", "0.08")


def _pl_row(x: Arrays) -> np.ndarray:
    return softmax(x["scores"][0])


PL_LESSON = Doc(
    file="heldout/pl-md-lesson-translation-self-attention-softmax-row-slips.md",
    url=(
        "https://github.com/tarze07/LLM_Traning/blob/main/phases/07-transformers-deep-dive/"
        "02-self-attention-from-scratch/docs/pl.md"
    ),
    kind="course-notes",
    language="pl",
    inputs={"scores": values(_PL_SCORES)},
    printed=(
        given(_PL_SCORES, "scores Q K^T (5 x 5 ASCII table)"),
        given(one("2.1", "0.3", "0.1", "0.8", "0.2"), "raw scores of q1"),
        Printed(_PL_WEIGHTS, _pl_row, "softmax of q1's raw scores"),
        Printed(_PL_WEIGHTS, _pl_row, "output_1 coefficients", follows=True),
        given(one("2.0", "1.0", "0.1"), "logits in the softmax code (no output printed)"),
    ),
    notes=(
        "A Polish translation (Markdown, ASCII figures left in English) of the same "
        "self-attention lesson the Japanese document heldout/ja-md-lesson-translation-self-"
        "attention-softmax-row-slips.md translates, from another repository: the same 5 x 5 "
        "raw-score table, the same first row through softmax and the same output_1 line, so "
        "the pair checks that the verdict does not depend on the prose language. Mistake as "
        "published: softmax([2.1, 0.3, 0.1, 0.8, 0.2]) is [0.581, 0.096, 0.079, 0.158, 0.087], "
        "not [0.52, 0.09, 0.07, 0.14, 0.08] (which sums to 0.90): 5 entries wrong; the same "
        "five numbers as the coefficients of output_1 follow from them (5 follows)."
    ),
)

# --- Simplified Chinese programming-contest problem: softmax replaced by a row weight -----------

_OJ_Q = block("1 2\n3 4\n5 6")
_OJ_K = block("10 10\n-20 -20\n30 30")
_OJ_V = block("6 5\n4 3\n2 1")
_OJ_W = one("4", "0", "-5")


def _oj_out(x: Arrays) -> np.ndarray:
    return (x["w"][:, None] * (x["q"] @ x["k"].T)) @ x["v"]


OJ_PROBLEM = Doc(
    file="heldout/zh-cn-html-oj-problem-csp-simplified-attention-sample-io.html",
    url="https://www.smqyoj.com/p/CSP202305B",
    kind="problem-statement",
    language="zh-cn",
    inputs={
        "q": values(_OJ_Q),
        "k": values(_OJ_K),
        "v": values(_OJ_V),
        "w": values(_OJ_W)[0],
    },
    printed=(
        given(one("3", "2"), "n and d in the sample input"),
        given(_OJ_Q, "Q (sample input)"),
        given(_OJ_K, "K (sample input)"),
        given(_OJ_V, "V (sample input)"),
        given(_OJ_W, "W (sample input)"),
        Printed(block("480 240\n0 0\n-2200 -1100"), _oj_out, "(W . Q K^T) V (sample output)"),
    ),
    notes=(
        "A programming-contest problem statement (CSP 2023-05, problem 2) on an online judge, "
        "an HTML page with MathJax: the attention formula softmax(Q K^T / sqrt(d)) V is "
        "simplified by replacing the softmax with a row-wise product by a vector W, so the "
        "page's own computation is (W . Q K^T) V with integer matrices; the sample input "
        "(n = 3, d = 2, Q, K, V, W = [4, 0, -5]) and the sample output [[480, 240], [0, 0], "
        "[-2200, -1100]] are plain-text blocks. The truth follows the page's simplified "
        "formula (no softmax, no scaling). All right."
    ),
)

JUDGE_DOCS_12B: list[Doc] = [DE_BLOG, ZH_CN_BLOG, ES_LOG, PL_LESSON, OJ_PROBLEM]
