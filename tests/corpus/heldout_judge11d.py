"""The eleventh held-out batch, continued: an English wiki page (GitBook Markdown) that works the
context vector of "shiny" in "Hello shiny sun!" twice, a short pass with a wrong dot product and
weights that follow from nothing, and a long pass whose exponentials and products slip in the
fourth decimal. Truth computed with numpy; see tests/corpus/heldout_judge11.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, given, one
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- English wiki page: "Hello shiny sun!", two passes over one context vector ------------------

_EMB = (("0.34", "0.22", "0.54"), ("0.53", "0.34", "0.98"), ("0.29", "0.54", "0.93"))


def _scores(x: Arrays) -> np.ndarray:
    return x["e"] @ x["e"][1]


def _weights(x: Arrays) -> np.ndarray:
    return softmax(_scores(x))


def _weighted(i: int, cols: list[int]) -> Truth:
    return lambda x: (_weights(x)[i] * x["e"][i])[cols]


def _context(cols: list[int]) -> Truth:
    return lambda x: (_weights(x) @ x["e"])[cols]


def _short_pass() -> tuple[Printed, ...]:
    return (
        given(_EMB, "embeddings"),
        given(one("0.23", "1.3", "0.84"), "weights 'which might be'"),
        Printed(one("0.7842", "2.405", "1.2487"), _scores, "intermediate attention scores"),
        Printed(one("0.13074", "0.66139", "0.20887"), _weights, "torch.softmax of the scores"),
        Printed(
            one("0.4555606", "0.3664252", "0.9130109"),
            lambda x: _weights(x) @ x["e"],
            "context vector (from the printed weights)",
            follows=True,
        ),
    )


def _long_pass() -> tuple[Printed, ...]:
    def terms(x: Arrays) -> np.ndarray:
        products = x["e"] * x["e"][1]
        return np.hstack([products, products.sum(axis=1, keepdims=True)])

    return (
        given(_EMB, "embeddings (again)"),
        Printed(
            (
                ("0.1802", "0.0748", "0.5292", "0.7842"),
                ("0.2809", "0.1156", "0.9604", "1.3569"),
                ("0.1537", "0.1836", "0.9114", "1.2487"),
            ),
            terms,
            "score terms and sums",
        ),
        Printed(one("2.1902", "3.8839", "3.4858"), lambda x: np.exp(_scores(x)), "exponentials"),
        Printed(
            one("9.5599"),
            lambda x: np.exp(_scores(x)).sum(keepdims=True),
            "sum (of the printed exponentials)",
            follows=True,
        ),
        Printed(one("0.2291", "0.4064", "0.3645"), _weights, "alpha"),
        Printed(one("0.0779", "0.0504", "0.1237"), _weighted(0, [0, 1, 2]), "weighted Hello"),
        Printed(one("0.2156"), _weighted(1, [0]), "weighted shiny, first"),
        Printed(one("0.1382", "0.3983"), _weighted(1, [1, 2]), "weighted shiny (of 0.4064)", True),
        Printed(one("0.1057"), _weighted(2, [0]), "weighted sun, first"),
        Printed(one("0.1972"), _weighted(2, [1]), "weighted sun, second"),
        Printed(one("0.3390"), _weighted(2, [2]), "weighted sun, third (of 0.3645)", True),
        Printed(one("0.3992", "0.3858"), _context([0, 1]), "context vector (sums)", True),
        Printed(one("0.8610"), _context([2]), "context vector, third"),
    )


EN_WIKI_SHINY = Doc(
    file="heldout/en-md-wiki-hello-shiny-sun-two-passes-dot-product-slip.md",
    url=(
        "https://github.com/HackTricks-wiki/hacktricks/blob/"
        "653577558f129f1b4764907ed53408ffa0fc66f2/todo/llm-training-data-preparation.md"
    ),
    kind="wiki-page",
    language="en",
    inputs={
        "e": a([[0.34, 0.22, 0.54], [0.53, 0.34, 0.98], [0.29, 0.54, 0.93]]),
    },
    printed=(*_short_pass(), *_long_pass()),
    notes=(
        "An English wiki page (GitBook Markdown, LaTeX align blocks): the context vector of "
        "'shiny' in 'Hello shiny sun!' (3-d embeddings, Q = K = V, no scaling) worked twice. "
        "Mistakes as published, first pass: the dot product of 'shiny' with itself is written "
        "2.405 (1.3569; 1 wrong); the softmax is given as [0.13074, 0.66139, 0.20887], which "
        "is neither the softmax of the true scores [0.229, 0.406, 0.365] nor of the printed "
        "ones (3 wrong); the context vector [0.4555606, 0.3664252, 0.9130109] is exactly those "
        "weights times the embeddings (3 follows). Second pass: the score terms are right; "
        "e^0.7842 and e^1.3569 are written 2.1902 and 3.8839 (2.1907, 3.8841; 2 wrong) and "
        "their sum 9.5599 follows (9.5606); the weights 0.4064 and 0.3645 are 0.4063 and "
        "0.3646 (2 wrong); of the weighted embeddings 0.2156 and 0.1972 match neither the "
        "exact weights nor the printed ones (2 wrong), 0.1382, 0.3983 and 0.3390 are the "
        "printed weights' products (3 follows); the context vector's 0.3992 and 0.3858 are "
        "the sums of those printed terms (2 follows; 0.3990 and 0.3854 exactly)."
    ),
)

JUDGE_DOCS_11D: list[Doc] = [EN_WIKI_SHINY]
