"""Development documents (the sixth held-out batch, moved to dev in session 29), continued:
prose documents in Korean, Japanese, Vietnamese and German, each working a small softmax or
attention example by hand. See tests/corpus/dev_seen_judge6a.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import Truth, a, block, column, given, one, other
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- Korean blog: one head over three positions, then the next-token softmax, by hand and in Python


def _ko_scores(x: Arrays) -> np.ndarray:
    return x["K"] @ x["q"] / np.sqrt(2)


def _ko_weights(x: Arrays) -> np.ndarray:
    return softmax(_ko_scores(x))


def _ko_context(x: Arrays) -> np.ndarray:
    return _ko_weights(x) @ x["V"]


def _ko_logits(x: Arrays) -> np.ndarray:
    return x["W"] @ _ko_context(x)


def _ko_probs(x: Arrays) -> np.ndarray:
    return softmax(_ko_logits(x))


def _ko_summary(label: str) -> tuple[Printed, ...]:
    """The four results as the intro and the program's output print them."""
    return (
        Printed(one("0.707", "0.707", "1.414"), _ko_scores, f"scores ({label})"),
        Printed(one("0.248", "0.248", "0.503"), _ko_weights, f"attention ({label})"),
        Printed(one("0.752", "0.752"), _ko_context, f"context ({label})"),
        Printed(one("0.243", "0.243", "0.515"), _ko_probs, f"next-token probabilities ({label})"),
    )


_KO_ROWS = (("1", "0"), ("0", "1"), ("1", "1"))


def _ko_weight(j: int) -> Truth:
    return lambda x: _ko_weights(x)[j]


def _ko_hand() -> tuple[Printed, ...]:
    """Section 3: the dot products, the scores, the weights, the blend, the logits."""
    vectors = tuple(given(one(*row), "key") for row in _KO_ROWS)
    blend: list[Printed] = []
    for j, w in enumerate(("0.248", "0.248", "0.503")):
        blend += [Printed(one(w), _ko_weight(j), f"weight {j + 1}"), given(one(*_KO_ROWS[j]))]
    return (
        given(one("1", "1"), "q"),
        *vectors,
        other(one("2"), "d_k"),
        Printed(one("1"), lambda x: x["K"][0] @ x["q"], "q . k1"),
        other(one("2"), "sqrt 2"),
        Printed(one("0.707"), lambda x: _ko_scores(x)[0], "score 1"),
        Printed(one("0.707"), lambda x: _ko_scores(x)[1], "score 2"),
        Printed(one("2"), lambda x: x["K"][2] @ x["q"], "q . k3"),
        other(one("2"), "sqrt 2"),
        Printed(one("1.414"), lambda x: _ko_scores(x)[2], "score 3"),
        Printed(one("0.248", "0.248", "0.503"), _ko_weights, "weights"),
        *(given(one(*row), "value") for row in _KO_ROWS),
        *blend,
        Printed(one("0.752", "0.752"), _ko_context, "context"),
        *(given(one(*row), "output weights") for row in _KO_ROWS),
        Printed(one("0.752", "0.752", "1.503"), _ko_logits, "logits"),
        Printed(one("0.243", "0.243", "0.515"), _ko_probs, "probabilities"),
    )


_KO_LISTS = "[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]"

KO_NEXT = Doc(
    file="dev/ko-blog-md-next-token-one-head-hand-and-python.md",
    url=(
        "https://github.com/dhshin96/dhshin96.github.io/blob/"
        "020ac36144b5b739c72b4337d26c5183b21d3f53/_posts/"
        "2026-10-08-generative-ai-transformer-inference.md"
    ),
    kind="blog",
    language="ko",
    inputs={
        "q": a([1.0, 1.0]),
        "K": a([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
        "V": a([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
        "W": a([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
    },
    printed=(
        *_ko_summary("intro"),
        other(one("1"), "weights sum to 1"),
        other(one("1"), "x_{1:n}"),
        *_ko_hand(),
        given(one("1.0", "1.0"), "query (code)"),
        given(block(_KO_LISTS), "keys (code)"),
        given(block(_KO_LISTS), "values (code)"),
        other(one("2"), "range(2)"),
        given(block(_KO_LISTS), "output_weights (code)"),
        *(other(one("3"), "round(x, 3)") for _ in range(4)),
        *_ko_summary("program output"),
        other(one("1"), "both sum to 1"),
        given(one("1.0", "0.0"), "query to try"),
        given(one("2.0", "0.0"), "third value to try"),
    ),
    notes=(
        "A Korean blog post (Markdown, inline math, a pure-Python program and its output): one "
        "query (1, 1) against keys (1, 0), (0, 1), (1, 1), scaled by sqrt(2), the weights "
        "blend the same three vectors as values; then output weights map the context vector "
        "to logits for three Korean tokens and a second softmax gives the next-token "
        "probabilities. Scores, weights, context, logits and probabilities are printed three "
        "times (summary, hand calculation, program output), at three decimals. All right."
    ),
)

# --- Japanese tutorial: two tokens, Q = K = I, V = diag(10, 20), with and without a causal mask


def _ja_scores(x: Arrays) -> np.ndarray:
    return x["Q"] @ x["K"].T / np.sqrt(2)


def _ja_weights(x: Arrays) -> np.ndarray:
    return softmax(_ja_scores(x))


def _ja_causal(x: Arrays) -> np.ndarray:
    return softmax(np.where(np.triu(np.ones((2, 2)), 1) > 0, -np.inf, _ja_scores(x)))


_JA_QKV = "[[[1.0, 0.0], [0.0, 1.0]]]"
_JA_V = "[[[10.0, 0.0], [0.0, 20.0]]]"


def _ja_tensors() -> tuple[Printed, ...]:
    return (
        given(block(_JA_QKV), "q (code)"),
        given(block(_JA_QKV), "k (code)"),
        given(block(_JA_V), "v (code)"),
    )


JA_TINY = Doc(
    file="dev/ja-md-tutorial-tiny-gpt-two-tokens-value-mix.md",
    url=(
        "https://github.com/shibayu36/learn-llm/blob/"
        "07fa0f6abcfec6fdab5415b4c79e6ec0d871e8a9/docs/part1.md"
    ),
    kind="course-notes",
    language="ja",
    inputs={
        "Q": a([[1.0, 0.0], [0.0, 1.0]]),
        "K": a([[1.0, 0.0], [0.0, 1.0]]),
        "V": a([[10.0, 0.0], [0.0, 20.0]]),
    },
    printed=(
        other(one("1"), "1-head"),
        other(one("1"), "each row sums to 1"),
        given(block("1 0 1 0 10 0\n0 1 0 1 0 20"), "Q, K, V printed side by side"),
        other(one("2"), "sqrt 2"),
        Printed(block("[[0.707, 0.000],\n[0.000, 0.707]]"), _ja_scores, "QK^T / sqrt 2"),
        Printed(block("[[0.670, 0.330],\n[0.330, 0.670]]"), _ja_weights, "weights"),
        other(one("1"), "row 1"),
        Printed(one("0.670"), lambda x: _ja_weights(x)[0, 0], "weight (1, 1)"),
        given(one("10", "0"), "V row 1"),
        Printed(one("0.330"), lambda x: _ja_weights(x)[0, 1], "weight (1, 2)"),
        given(one("0", "20"), "V row 2"),
        Printed(one("6.70", "6.60"), lambda x: (_ja_weights(x) @ x["V"])[0], "output row 1"),
        *_ja_tensors(),
        other(one("2"), "Value doubled"),
        other(one("0", "1", "2", "3"), "referenced positions"),
        other(column("0", "1", "2", "3"), "referencing positions"),
        given(one("-inf"), "the masked score"),
        other(one("0"), "weight after the softmax"),
        other(one("0"), "putting 0 is not enough"),
        other(one("0", "1"), "exp(0) = 1"),
        *_ja_tensors(),
        other(one("1"), "row 1"),
        Printed(one("1", "0"), lambda x: _ja_causal(x)[0], "causal weights, row 1"),
        other(one("2"), "row 2"),
        Printed(one("0.330", "0.670"), lambda x: _ja_causal(x)[1], "causal weights, row 2"),
    ),
    notes=(
        "Two sections of a Japanese course (Markdown, text code blocks): Q = K = the 2 x 2 "
        "identity and V = [[10, 0], [0, 20]], printed side by side in one block; the scaled "
        "scores 0.707, the weights 0.670 / 0.330, the first output row written as "
        "0.670 x [10, 0] + 0.330 x [0, 20] = [6.70, 6.60]; then a causal mask turns the first "
        "row into [1, 0] while the second stays [0.330, 0.670]. The 4 x 4 visibility table "
        "prints positions, not scores. All right."
    ),
)

# --- Vietnamese notes: softmax by hand, a made-up distribution, and a temperature table ------


def _vi_exp(name: str, j: int, t: float = 1.0) -> Truth:
    return lambda x: np.exp(x[name][j] / t)


def _vi_ratio(j: int, t: float) -> Truth:
    return lambda x: np.exp((x["t"][j] - x["t"][0]) / t)


def _vi_share(j: int) -> Truth:
    return lambda x: softmax(x["z"])[j : j + 1]


def _vi_scaled(j: int, t: float) -> Truth:
    return lambda x: x["t"][j : j + 1] / t


def _vi_softmax(t: float) -> Truth:
    return lambda x: softmax(x["t"] / t)


def _vi_curve() -> tuple[Printed, ...]:
    """Section 2.1: e^2, e^3, e^8 and how far apart they are."""
    return (
        other(one("2.71828182845904523536"), "Euler's number"),
        given(one("2", "3", "8"), "x"),
        Printed(one("7.39", "20.09", "2980.96"), lambda x: np.exp(x["t"]), "e^x"),
        other(one("3", "1.5", "2"), "3 is 1.5 x 2"),
        Printed(one("20.09"), _vi_exp("t", 1), "e^3"),
        Printed(one("2.7"), _vi_ratio(1, 1.0), "e^3 / e^2"),
        Printed(one("7.39"), _vi_exp("t", 0), "e^2"),
        other(one("8", "4", "2"), "8 is 4 x 2"),
        Printed(one("2980.96"), _vi_exp("t", 2), "e^8"),
        Printed(one("403"), _vi_ratio(2, 1.0), "e^8 / e^2"),
        Printed(one("7.39"), _vi_exp("t", 0), "e^2"),
    )


def _vi_by_hand() -> tuple[Printed, ...]:
    """Section 2.2.2: softmax([2.0, 1.0, 0.1]) step by step."""
    exps = [Printed(one(t), _vi_exp("z", j), f"e^z{j + 1}") for j, t in enumerate(_VI_EXPS)]
    total = Printed(
        one("11.22"), lambda x: np.exp(x["z"]).sum(), "sum of the rounded terms", follows=True
    )
    shares = [
        Printed(one(t), _vi_share(j), "share") for j, t in enumerate(("0.659", "0.242", "0.099"))
    ]
    fractions = [p for j in range(3) for p in (exps[j], total)]
    return (
        given(one("2.0", "1.0", "0.1"), "z"),
        given(one("2.0", "1.0", "0.1"), "the exponents"),
        Printed(one(*_VI_EXPS), lambda x: np.exp(x["z"]), "exp(z)"),
        *exps,
        total,
        *fractions,
        Printed(one("0.659", "0.242", "0.099"), lambda x: softmax(x["z"]), "softmax(z)"),
        *shares,
        other(one("1.000"), "their sum"),
    )


_VI_EXPS = ("7.39", "2.72", "1.11")


def _vi_temperature(
    t: float, exps: tuple[str, str, str], ratios: tuple[str, str]
) -> tuple[Printed, ...]:
    """One block of section 3.2.1: e^(z / T) for each logit, then their ratios."""
    out: list[Printed] = [other(one(str(int(t))), "T")]
    for j, e in enumerate(exps):
        if t != 1.0:
            out.append(other(one(_VI_LOGITS[j], str(int(t))), "z / T as a fraction"))
            out.append(Printed(one(_VI_SCALED[t][j]), _vi_scaled(j, t), "z / T"))
        out.append(Printed(one(e), _vi_exp("t", j, t), "e^(z / T)"))
    ratio: Truth = lambda x: np.exp((x["t"] - x["t"][0]) / t)  # noqa: E731
    out.append(Printed(one("1", *ratios), ratio, "ratio"))
    return tuple(out)


_VI_LOGITS = ("2", "3", "8")
_VI_SCALED = {2.0: ("1", "1.5", "4"), 4.0: ("0.5", "0.75", "2")}
_VI_TABLE = {
    0.5: ("0.0000", "0.0000", "1.0000"),
    1.0: ("0.0024", "0.0066", "0.9910"),
    2.0: ("0.0427", "0.0704", "0.8869"),
    5.0: ("0.2006", "0.2437", "0.5557"),
    10.0: ("0.2689", "0.2969", "0.4342"),
}
_VI_ENTROPY = {0.5: "0.00", 1.0: "0.08", 2.0: "0.57", 5.0: "1.05", 10.0: "1.10"}


def _vi_table() -> tuple[Printed, ...]:
    out: list[Printed] = [
        given(one("2.0", "3.0", "8.0"), "logits (code)"),
        other(one("0.5", "1.0", "2.0", "5.0", "10.0"), "temperatures (code)"),
    ]
    for t, probs in _VI_TABLE.items():
        out += [
            other(one(str(t)), "T"),
            Printed(one(*probs), _vi_softmax(t), f"softmax(z / {t})"),
            other(one(_VI_ENTROPY[t]), "entropy"),
        ]
    return tuple(out)


VI_TEMPERATURE = Doc(
    file="dev/vi-md-softmax-temperature-by-hand-table-wrong.md",
    url=(
        "https://github.com/aerovfx/Aero-HowtoLLMs/blob/main/docs/04_buildgpt/"
        "aero_llm_05_softmax_temperature_academic_analysis.md"
    ),
    kind="course-notes",
    language="vi",
    inputs={"t": a([2.0, 3.0, 8.0]), "z": a([2.0, 1.0, 0.1]), "u": a([-5.0, 3.0, 0.0, 10.0, -2.0])},
    printed=(
        *_vi_curve(),
        *_vi_by_hand(),
        given(one("-5", "3", "0", "10", "-2"), "arbitrary logits"),
        Printed(
            one("0.0001", "0.0336", "0.0017", "0.9645", "0.0002"),
            lambda x: softmax(x["u"]),
            "their softmax",
        ),
        other(one("0", "1"), "values in [0, 1]"),
        other(one("1.0000"), "sum"),
        other(one("1"), "default T = 1"),
        other(one("1"), "T > 1"),
        other(one("1"), "T < 1"),
        given(one("2", "3", "8"), "original logits"),
        *_vi_temperature(1.0, ("7.39", "20.09", "2980.96"), ("2.7", "403")),
        *_vi_temperature(2.0, ("2.72", "4.48", "54.60"), ("1.6", "20")),
        *_vi_temperature(4.0, ("1.65", "2.12", "7.39"), ("1.3", "4.5")),
        *_vi_table(),
    ),
    notes=(
        "Vietnamese course notes on softmax and temperature (Markdown with display math, "
        "text blocks and a table): e^2, e^3, e^8 and their ratios; softmax([2.0, 1.0, 0.1]) "
        "by hand (right: [0.659, 0.242, 0.099]); the exponentials of [2, 3, 8] at T = 1, 2, 4 "
        "and their ratios (right). Its mistakes: softmax([-5, 3, 0, 10, -2]) is [3e-7, 0.0009, "
        "0.00005, 0.9990, 0.000006], printed [0.0001, 0.0336, 0.0017, 0.9645, 0.0002]; and the "
        "temperature table for [2, 3, 8] is off from T = 1 on (T = 1 gives [0.0025, 0.0067, "
        "0.9909], T = 2 [0.0440, 0.0725, 0.8835], T = 5 [0.1805, 0.2204, 0.5991], T = 10 "
        "[0.2546, 0.2814, 0.4640]) and even T = 0.5 prints 1.0000 for 0.99995 (0.9999). The sum "
        "11.22 adds the rounded exponentials (11.2125 exactly): it follows. The entropy column "
        "is not attention."
    ),
)

# --- German notes page (HTML): softmax of three scores, in prose and as a torch print ----------

DE_SOFTMAX = Doc(
    file="dev/de-html-notes-softmax-three-scores.html",
    url="https://github.com/DerWolk/ReiseEinesSatzesDurchEinLLM/blob/main/softmax.html",
    kind="html-notes",
    language="de",
    inputs={"s": a([2.0, 1.0, 0.1])},
    printed=(
        given(one("2.0", "1.0", "0.1"), "scores"),
        Printed(one("0.66", "0.24", "0.10"), lambda x: softmax(x["s"]), "about"),
        other(one("1"), "the sum is always 1"),
        other(one("2.718"), "Euler's number, printed with a decimal comma (2,718...)"),
        given(one("2.0", "1.0", "0.1"), "scores (code)"),
        other(one("-1"), "dim=-1"),
        Printed(one("0.6590", "0.2424", "0.0986"), lambda x: softmax(x["s"]), "torch print"),
    ),
    notes=(
        "A German notes page (HTML, one of a small site on LLM basics): softmax of the scores "
        "[2.0, 1.0, 0.1], in prose to two decimals ([0.66, 0.24, 0.10]) and as a torch print "
        "in a code comment ([0.6590, 0.2424, 0.0986]); Euler's number written 2,718 with a "
        "decimal comma. All right."
    ),
)

DEV_SEEN_JUDGE6C: list[Doc] = [KO_NEXT, JA_TINY, VI_TEMPERATURE, DE_SOFTMAX]
