"""Development documents: the fifteenth held-out batch, continued (see
tests/corpus/dev_seen_judge15.py): an interactive demo page whose stored HTML shows its computed
fields before any script filled them, and a course blog post whose printed softmax weights are not
the softmax of its scores."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import a, given, one, other
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- English demo page: query "Apple" against three keys, every computed card still 0.00 -------


def _sd_scores(x: Arrays) -> np.ndarray:
    return x["keys"] @ x["q"]


def _sd_weights(x: Arrays) -> np.ndarray:
    return softmax(_sd_scores(x))


def _sd_card(k: int) -> Printed:
    return Printed(one("0.00"), lambda x: _sd_scores(x)[k : k + 1].reshape(1, 1), f"Score {k + 1}")


def _sd_weight(k: int) -> Printed:
    return Printed(
        one("0.00"), lambda x: _sd_weights(x)[k : k + 1].reshape(1, 1), f"Weight {k + 1}"
    )


DEMO_PAGE = Doc(
    file="dev/en-html-demo-page-softmax-attention-unrendered-zero-fields.html",
    url="https://studyai.pages.dev/misc/softmax-attention-demo.html",
    kind="interactive-page",
    language="en",
    inputs={
        "q": a([1.0, 0.2]),
        "keys": a([[0.9, 0.1], [0.1, 0.9], [-0.5, 0.2]]),
        "values": np.eye(3),
    },
    printed=(
        given(one("1"), "section 1"),
        given(one("1.0", "0.2"), "Query (Q), Apple"),
        given(one("1"), "Key 1"),
        given(one("0.9", "0.1"), "K1, Fruit"),
        given(one("2"), "Key 2"),
        given(one("0.1", "0.9"), "K2, Tech"),
        given(one("3"), "Key 3"),
        given(one("-0.5", "0.2"), "K3, River"),
        given(one("2"), "section 2"),
        *(item for k in range(3) for item in (given(one(str(k + 1)), "card"), _sd_card(k))),
        *(item for k in range(3) for item in (given(one(str(k + 1)), "card"), _sd_weight(k))),
        given(one("3"), "section 3"),
        given(one("1"), "Value 1"),
        given(one("1", "0", "0"), "V1, red"),
        given(one("2"), "Value 2"),
        given(one("0", "1", "0"), "V2, green"),
        given(one("3"), "Value 3"),
        given(one("0", "0", "1"), "V3, blue"),
        Printed(
            one("0.0", "0.0", "0.0"),
            lambda x: (_sd_weights(x) @ x["values"]).reshape(1, 3),
            "Output (Context), from the printed weights",
            follows=True,
        ),
        given(one("1", "1", "1", "2"), "add up to 1; Key 1, Value 1; Key 2"),
    ),
    notes=(
        "The static HTML of an interactive demo page (transcribed as the stored copy shows it, "
        "before any script runs): a query 'Apple' [1.0, 0.2], three keys [0.9, 0.1], "
        "[0.1, 0.9], [-0.5, 0.2] and one-hot values, with cards for the three raw scores, the "
        "three softmax weights and the output. The mistakes: every computed card reads 0.00 — the "
        "scores are Q . K = 0.92, 0.28, -0.46 (3 wrong), the weights softmax of those scores "
        "= [0.562, 0.296, 0.141] (3 wrong; softmax of the printed zeros would be 1/3 each, so "
        "they do not follow either); the output [0.0, 0.0, 0.0] is the weighted sum of the "
        "printed zero weights, so it follows from them (true [0.562, 0.296, 0.141]; 3 follow). "
        "The printed results are wrong: 0 right, 6 wrong, 3 follow."
    ),
)

# --- English course blog post: softmax with temperature, weights that are not the softmax -------

_LX_SCORES = a([2.0, 1.0, 0.1, -1.0])


def _lx_weights(t: float) -> Printed:
    rows = {
        0.1: ("0.999", "0.001", "0.000", "0.000"),
        0.5: ("0.924", "0.071", "0.005", "0.000"),
        1.0: ("0.651", "0.239", "0.088", "0.022"),
        2.0: ("0.469", "0.285", "0.177", "0.069"),
        10.0: ("0.279", "0.263", "0.244", "0.214"),
    }[t]
    return Printed(
        one(*rows), lambda x: softmax(x["s"] / t).reshape(1, 4), f"softmax(scores / {t}).round(3)"
    )


TEMPERATURE_POST = Doc(
    file="dev/en-md-course-blog-softmax-temperature-attention-printed-weights-off.md",
    url="https://learnixo.io/blog/ta-softmax-temp",
    kind="blog",
    language="en",
    inputs={"s": _LX_SCORES},
    printed=(
        other(one("16", "2026", "3"), "date, minutes to read"),
        given(one("2.0", "1.0", "0.1", "-1.0"), "scores"),
        Printed(
            one("0.65", "0.24", "0.09", "0.02"),
            lambda x: softmax(x["s"]).reshape(1, 4),
            "weights = softmax(scores)",
        ),
        Printed(one("1.0"), lambda x: a([[softmax(x["s"]).sum()]]), "sum of the weights"),
        given(one("0"), "no weight is exactly 0"),
        given(one("1.0", "1.0", "1.0"), "T = 1.0, T < 1.0, T > 1.0"),
        given(one("2.0", "1.0", "0.1", "-1.0"), "scores in the code"),
        given(one("0.1", "0.5", "1.0", "2.0", "10.0"), "temperatures"),
        given(one("0", "3"), "dim=0, round(3)"),
        *(
            item
            for t in (0.1, 0.5, 1.0, 2.0, 10.0)
            for item in (given(one(str(t))), _lx_weights(t))
        ),
        given(one("1", "1"), "T = 1 in training; T = sqrt(d_k)"),
    ),
    notes=(
        "A course blog post (transcribed to Markdown with its Python block; the stored copy ends "
        "at the section on the sqrt(d_k) scale) on softmax temperature in attention, with the "
        "scores [2.0, 1.0, 0.1, -1.0] throughout. The mistakes: the weights are printed as [0.65, "
        "0.24, 0.09, 0.02], but softmax of the scores is [0.638, 0.235, 0.095, 0.032] (4 wrong; "
        "their sum 1.0 is right), and the code's printed outputs for T = 0.1, 0.5, 1, 2, 10 "
        "are not softmax(scores / T) rounded to three decimals: T=0.1 gives [1.000, 0.000, "
        "0.000, 0.000] (0.999 and 0.001 wrong, the two zeros right), T=0.5 [0.862, 0.117, "
        "0.019, 0.002], T=1 [0.638, 0.235, 0.095, 0.032], T=2 [0.451, 0.274, 0.175, 0.101], "
        "T=10 [0.288, 0.261, 0.238, 0.213] (all 16 wrong). 3 right, 22 wrong."
    ),
)

DEV_SEEN_JUDGE15B: list[Doc] = [DEMO_PAGE, TEMPERATURE_POST]
