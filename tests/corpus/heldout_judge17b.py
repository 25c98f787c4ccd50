"""The seventeenth batch of held-out documents, continued (tests/corpus/heldout_judge17.py): the
pages in Japanese, Chinese, German and Portuguese."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, block, column, given, one, other
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- Japanese article: softmax of [2.0, 1.0, 0.1] in aligned LaTeX steps, the sum checked ------


def _zn_exp(x: Arrays) -> np.ndarray:
    return np.exp(x["x"]).reshape(-1, 1)


def _zn_total(x: Arrays) -> np.ndarray:
    return x["e"].sum().reshape(1, 1)  # the sum of the three terms as printed


def _zn_fraction(i: int) -> Truth:
    return lambda x: np.array([[np.exp(x["x"][i]), x["e"].sum()]])


ZENN = Doc(
    file="heldout/ja-md-zenn-softmax-two-one-tenth-latex-aligned-steps-sum-check.md",
    url="https://zenn.dev/outside_the_box/articles/aea4f7ee9cdafc",
    kind="blog",
    language="ja",
    inputs={"x": a([2.0, 1.0, 0.1]), "e": a([7.389, 2.718, 1.105])},
    printed=(
        given(one("0", "1", "1"), "values between 0 and 1, outputs summing to 1"),
        given(column("2.0", "1.0", "0.1"), "x"),
        given(one("2.0", "1.0", "0.1"), "the exponents e^{2.0}, e^{1.0}, e^{0.1}"),
        Printed(column("7.389", "2.718", "1.105"), _zn_exp, "2-1 the numerators"),
        given(one("2.0", "1.0", "0.1"), "the sum's exponents"),
        Printed(one("7.389", "2.718", "1.105"), lambda x: _zn_exp(x).T, "7.389 + 2.718 + 1.105"),
        Printed(one("11.212"), _zn_total, "2-2 the denominator"),
        other(column("0.5", "0.5", "0.5", "0.5", "0.5", "0.5"), "the \\\\[0.5em] row spacing"),
        Printed(one("7.389", "11.212"), _zn_fraction(0), "7.389 / 11.212"),
        Printed(one("2.718", "11.212"), _zn_fraction(1), "2.718 / 11.212"),
        Printed(one("1.105", "11.212"), _zn_fraction(2), "1.105 / 11.212"),
        Printed(
            column("0.659", "0.242", "0.099"),
            lambda x: softmax(x["x"]).reshape(-1, 1),
            "2-3 softmax(x)",
        ),
        Printed(
            one("0.659", "0.242", "0.099", "1"),
            lambda x: np.append(softmax(x["x"]), softmax(x["x"]).sum()).reshape(1, 4),
            "2-4 0.659 + 0.242 + 0.099 = 1",
        ),
    ),
    notes=(
        "A Japanese article on a developer blog platform (Markdown with KaTeX: aligned "
        "environments, a bmatrix of fractions separated by \\\\[0.5em]): the softmax of x = "
        "[2.0, 1.0, 0.1] worked by hand, the exponentials to three decimals, their sum 11.212 "
        "(the sum of the three printed terms, taken as right though the exact sum 11.2125 "
        "would round to 11.213), "
        "the three quotients and the probabilities [0.659, 0.242, 0.099], whose sum is checked "
        "to be 1. Softmax only (the attention weights' step). The row spacing 0.5em is not a "
        "number of the computation. All right: 20 right."
    ),
)

# --- Chinese note page: a mermaid flowchart of softmax with a worked example --------------------

OBSIDIAN = Doc(
    file="heldout/zh-cn-md-obsidian-note-softmax-mermaid-exp-sum-probabilities.md",
    url=(
        "https://liu-gong-zi.com/2+%E7%AC%AC%E4%BA%8C%E5%A4%A7%E8%84%91/1+%E6%A6%82%E5%BF%B5/"
        "4+%E4%BF%A1%E6%81%AF%E4%B8%8E%E6%A8%A1%E5%BC%8F/CS/"
        "%E4%BA%BA%E5%B7%A5%E6%99%BA%E8%83%BD/%E6%B7%B1%E5%BA%A6%E5%AD%A6%E4%B9%A0/"
        "%E5%9F%BA%E7%A1%80%E6%A6%82%E5%BF%B5/%E5%BD%92%E4%B8%80%E5%8C%96+Norm/softmax"
    ),
    kind="notes",
    language="zh-cn",
    inputs={"x": a([2.0, 1.0, 0.1])},
    printed=(
        given(one("2.0", "1.0", "0.1"), "the input vector"),
        Printed(one("7.4", "2.7", "1.1"), lambda x: np.exp(x["x"]).reshape(1, 3), "exponentials"),
        Printed(one("11.2"), lambda x: np.exp(x["x"]).sum().reshape(1, 1), "sum"),
        Printed(
            one("0.66", "0.24", "0.10"), lambda x: softmax(x["x"]).reshape(1, 3), "probabilities"
        ),
        given(one("1", "0", "1"), "sums to 1, each in [0,1]"),
    ),
    notes=(
        "A personal knowledge-base page (an Obsidian vault published as a site; Markdown with a "
        "mermaid flowchart whose nodes carry the numbers): softmax of [2.0, 1.0, 0.1] as "
        "exponentials [7.4, 2.7, 1.1], sum = 11.2 and probabilities [0.66, 0.24, 0.10], all to "
        "one or two decimals inside quoted node labels. Softmax only. All right: 7 right."
    ),
)

# --- Chinese notes page: relevance scores and an illustrative "softmax" that is not one ---------

_PK_SCORES = a([10.0, 85.0, 5.0, 30.0])

PKM = Doc(
    file="heldout/zh-cn-md-notes-attention-score-softmax-percent-illustration-not-softmax.md",
    url=(
        "https://www.pkm365.com/%F0%9F%AA%84AI%E6%BC%AB%E8%B0%88/"
        "Transformer-%E4%B8%AD%E7%9A%84%E6%B3%A8%E6%84%8F%E5%8A%9B%E5%88%86%E6%95%B0"
        "%E6%98%AF%E5%A6%82%E4%BD%95%E8%AE%A1%E7%AE%97%E7%9A%84%EF%BC%9F"
    ),
    kind="notes",
    language="zh-cn",
    inputs={"s": _PK_SCORES},
    printed=(
        given(one("10", "85", "5", "30"), "relevance scores of four books"),
        Printed(
            one("0.1", "90", "0.05", "9.85"),
            lambda x: 100.0 * softmax(x["s"]).reshape(1, 4),
            "Softmax as percents",
        ),
        given(one("85"), "the book that scored 85"),
        Printed(one("90"), lambda x: 100.0 * softmax(x["s"])[1:2].reshape(1, 1), "now 90%"),
    ),
    notes=(
        "A Chinese notes site explaining the attention formula in prose with a library "
        "analogy: four relevance scores [10, 85, 5, 30] and the distribution Softmax is said "
        "to turn them into, [0.1%, 90%, 0.05%, 9.85%], repeated as 'the book that scored 85 "
        "(now 90%)'. The mistake: that is not the softmax of the scores, which puts all but "
        "about 1e-22 of the mass on 85 (100%, with 30 getting about 1.3e-22 %); the four "
        "percents and the repeated 90% are wrong (the percents add up to 100, so the slip is "
        "the page's own illustration, not a rounding). 5 wrong."
    ),
)

# --- German wiki page: an illustrative attention matrix for "Die Katze schläft" -----------------

YAUIS = Doc(
    file="heldout/de-md-mkdocs-wiki-die-katze-schlaeft-illustrative-attention-matrix.md",
    url="https://wiki.yauis.de/architektur/attention",
    kind="wiki",
    language="de",
    inputs={},
    printed=(
        given(one("1"), "softmax sums to 1"),
        given(
            block("[0.7    0.2    0.1  ]\n[0.1    0.6    0.3  ]\n[0.1    0.5    0.4  ]"),
            "attention matrix after the softmax (illustrative, no scores)",
        ),
        given(one("0.5"), "schläft attends to Katze (0.5)"),
    ),
    notes=(
        "A German MkDocs wiki page on attention (Markdown with a table, a code block of "
        "projections, a MathJax formula and a mermaid graph): the only numbers are an "
        "illustrative 3 x 3 attention matrix for 'Die Katze schläft' (rows summing to 1) and "
        "the 0.5 the prose repeats; nothing is computed from inputs the page prints, so "
        "nothing is to be judged (any claim that one is wrong is a false alarm)."
    ),
)

# --- Portuguese lecture notebook (nbconvert HTML): seeded random embeddings, the query matrix ---


def _dm_draws() -> dict[str, np.ndarray]:
    """The page's own draws: np.random.seed(1234), four rand(3) embeddings, then W_Q."""
    rng = np.random.RandomState(1234)
    embeddings = np.array([rng.rand(3) for _ in range(4)])
    return {"emb": embeddings, "wq": rng.random_sample(embeddings.shape)}


_DM_Q = block(
    "[[0.73634365, 0.42647927, 0.85683087, 0.32620017],\n"
    " [1.19358144, 0.83688612, 1.39485002, 0.64264091],\n"
    " [1.11520082, 0.57175117, 1.27103597, 0.58396596],\n"
    " [1.03917841, 0.67847982, 1.17557442, 0.75079734]]"
)

DENMARTINS = Doc(
    file="heldout/pt-html-nbconvert-lecture-notebook-seeded-embeddings-query-matrix.html",
    url=(
        "https://denmartins.github.io/files/lectures/2025/TopicosCD/code/"
        "03-TCD-Attention-Mechanisms.html"
    ),
    kind="course-notebook-html",
    language="pt",
    inputs=_dm_draws(),
    printed=(
        given(one("1234", "3", "0"), "SEED, rand(3), axis=0 in the code"),
        Printed(_DM_Q, lambda x: x["emb"] @ x["wq"].T, "Q = embeddings . W_Q^T"),
    ),
    notes=(
        "A course's lecture notebook exported to HTML (nbconvert, Portuguese prose, MathJax): "
        "four 3-d embeddings drawn with np.random.seed(1234) and rand(3), W_Q drawn as a 4 x 3 "
        "random matrix, and Q = embeddings . W_Q^T printed as a numpy array (4 x 4, eight "
        "decimals). Neither the embeddings nor W_Q are printed: the truth redraws them with "
        "numpy's seeded RandomState, as the page's code does. The stored copy breaks off inside "
        "the output of the next cell (K), so the transcription stops before it. All right: "
        "16 right."
    ),
)

JUDGE_DOCS_17B: list[Doc] = [ZENN, OBSIDIAN, PKM, YAUIS, DENMARTINS]
