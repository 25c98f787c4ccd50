"""The seventeenth batch of held-out documents, continued (tests/corpus/heldout_judge17.py): the
pages in Japanese, Chinese and German."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, column, given, one, other
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

JUDGE_DOCS_17B: list[Doc] = [ZENN, OBSIDIAN]
