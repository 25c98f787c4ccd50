"""Every word of a `check --lang bn` report is Bengali: no English outside maths, code and labels.

Each report is rendered in every format the command offers (the readable text, the table, the
Markdown with its reasons, JSON) and read by ``tests.english.english_words``. Two rules of
their own, both about maths the reports print outside $...$, removed before the detector runs:

- exact values in the plain-text formats, and the scale in a likely mistake's name, are
  written in SymPy's one-line notation (``e/(1 + e)``, ``sqrt(2)/2``, ``1/sqrt(d_k)``,
  ``-oo``): a SymPy function name written directly before its bracket (``sqrt(``), or cut
  short where the table clips a long value (``sqr…``), and infinity (``oo``, and ``-inf``
  among the decimals) are maths;
- the derivation's own symbols (a parameter ``tau``, a weight ``W_{Q1,11}``) are maths too,
  removed as whole words.

Nothing else is removed: step keys and the example's name are code (the bn locale writes them
in backticks), token labels are the user's own text. JSON keys are an API and stay English;
its sentences (diagnosis, explanation, mistakes, notes) are read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, Report, check, derive
from mha_symbolic.check.mistakes import MISTAKES
from mha_symbolic.cli import main
from mha_symbolic.language.check_phrases import Voice
from mha_symbolic.spec.attention import example_names
from tests.english import english_words, every_entry_said_in_bengali
from tests.test_check import CROSS  # cross-attention where every likely mistake applies

_FUNCTIONS = ("sqrt", "exp", "log", "sin", "cos", "tan", "atan", "Abs", "Max", "Min", "sign")
_FUNCTION = re.compile(r"\b(?:" + "|".join(_FUNCTIONS) + r")(?=\()")
_CLIPPED = re.compile(r"\b[A-Za-z]+(?=…)")  # a value the table cut short: "e^(sqr…"
_INFINITY = re.compile(r"(?<!\w)(?:oo|inf)\b")  # SymPy's infinity, and its decimal "-inf"


def _plain_maths(text: str) -> str:
    """``text`` without the maths a report writes in SymPy's one-line notation."""
    text = _CLIPPED.sub(
        lambda m: " " if any(f.startswith(m[0]) for f in _FUNCTIONS) else m[0], text
    )
    return _INFINITY.sub(" ", _FUNCTION.sub(" ", text))


def _symbols(spec: AttentionSpec) -> list[str]:
    return sorted(str(s) for s in derive(spec).free_symbols)


def _labels(spec: AttentionSpec) -> list[str]:
    return [*spec.tokens, *spec.key_tokens]


def _without_symbols(text: str, symbols: list[str]) -> str:
    for name in sorted(symbols, key=len, reverse=True):
        text = re.sub(rf"(?<![\w\\]){re.escape(name)}(?!\w)", " ", text)
    return text


def _sentences(data: dict[str, Any]) -> Iterator[str]:
    """The human-readable sentences of a JSON report (its keys and enums are an API)."""
    for claim in data["claims"]:
        yield from (s for s in (claim["diagnosis"], claim["explanation"]) if s)
        yield from claim["mistakes"]
    yield from (item["note"] for item in data["assumed"])


def english_in(report: Report, spec: AttentionSpec) -> dict[str, list[str]]:
    """Format -> the English words left in the Bengali report of ``spec``'s claims."""
    symbols, labels = _symbols(spec), _labels(spec)
    rendered = {
        "text": report.readable("bn"),
        "table": report.to_text("bn"),
        "md": report.to_markdown("bn"),
        "md why": report.to_markdown("bn", why=True),
        "json": "\n".join(_sentences(json.loads(report.to_json("bn")))),
    }
    out = {}
    for fmt, text in rendered.items():
        text = _without_symbols(_plain_maths(text), symbols)
        out[fmt] = english_words(text, labels)
    return {fmt: words for fmt, words in out.items() if words}


# ------------------------------------------------------------------ every built-in example
@pytest.mark.parametrize("name", example_names())
def test_every_examples_report_is_all_bengali(name: str) -> None:
    spec = AttentionSpec.example(name)
    report = check(spec)
    assert english_in(report, spec) == {}
    assert report.summary("bn").startswith(f"উদাহরণ `{name}`: ")


def test_the_english_report_is_found_english() -> None:
    """The detector is not blind to the report: the English one is full of English words."""
    report = check(AttentionSpec.example("one-token"))
    assert len(english_words(str(report))) > 30
    assert len(english_words(report.to_markdown(why=True))) > 30


def test_the_one_token_report_in_bengali() -> None:
    report = check(AttentionSpec.example("one-token"))
    text = report.readable("bn")
    assert text.splitlines()[0] == "`head1.output[1]`: ধরে নেওয়া (আলাদা)"
    assert "  কারণ        ডকুমেন্টের ধরে নেওয়া `head1.output`, `head2.output` থেকে" in text
    assert text.endswith(
        "উদাহরণ `one-token`: 1টি দাবি: 0টি মেলে (0টি হুবহু, 0টি আসন্ন মানে), "
        "1টি ডকুমেন্টের ধরে নেওয়া মান অনুযায়ী\n"
    )
    assert "`concat[1]`: ধরে নেওয়া মান অনুযায়ী\n" in text
    data = json.loads(report.to_json("bn"))
    assert data["claims"][0]["verdict"] == "follows"  # keys and verdicts: an API, as in English
    assert data["assumed"][0]["status"] == "differs"
    assert data["assumed"][0]["note"] == (
        "ডকুমেন্ট এটি ধরে নেয়; দেওয়া ইনপুট আর ওয়েট দেয় [4, 11], [0.5, 1.2] নয়।"
    )
    # The English report is what it always was.
    assert report.readable() == str(report) == report.readable("en")
    assert report.to_json() == report.to_json("en")


# ------------------------------------------------------------------ every string of [check]
TWO = AttentionSpec.example("two-tokens")
SPLIT = AttentionSpec.example("split-scaled")
BASE = {  # two heads, asymmetric weights: each common mistake gives numbers of its own
    "x": [[1, 0], [1, 1]],
    "heads": 2,
    "weights": {
        "w_q": [[[1, 1], [0, 1]], [[0, 1], [1, 0]]],
        "w_k": [[[1, 0], [1, 1]], [[1, 0], [0, 1]]],
        "w_v": [[[1, 2], [0, 1]], [[2, 0], [1, 1]]],
        "w_o": [[1, 0], [0, 1], [1, 0], [0, 1]],
    },
}
AFTER_SOFTMAX = AttentionSpec(  # masked after the softmax, renormalised, dropped out
    **BASE, weights_mask="causal", dropout={"p": "1/2", "keep": [[1, 0], [0, 1]]}
)
TORCH_WEIGHTS = {**BASE["weights"], "w_o": [[1, 0, 1, 0], [0, 1, 0, 1]]}  # (out, in)
SYMBOLIC = AttentionSpec(x=[[1, 0], [0, 1]], heads=1, weights={"w_q": "symbolic"}, scale="none")


def _printed(matrix: sp.MatrixBase) -> str:
    """A matrix as a document prints it, four decimals."""
    rows = [", ".join(f"{float(v):.4f}" for v in matrix.row(i)) for i in range(matrix.rows)]
    return "[" + ", ".join(f"[{row}]" for row in rows) + "]"


def _mistaken(spec: AttentionSpec) -> Iterator[dict[str, str]]:
    """Each common mistake's values, printed, as claims: every likely mistake is named."""
    d = derive(spec)
    for rule, _ in MISTAKES:
        found = rule(d)
        if found is not None:
            values = found[1]()
            yield {
                key: _printed(value)
                for key, value in values.items()
                if key in d and value != d[key] and not value.has(sp.oo, -sp.oo)
            }


def _wrong_everywhere(spec: AttentionSpec) -> dict[str, str]:
    """A wrong first entry at every step: each kind of step's entries said by name."""
    d = derive(spec)
    claims = {f"{step.key}[1,1]": "100.5" for step in d.steps}
    return {**claims, "head1.exp[1,1]": "100.5"}


def _reports() -> Iterator[tuple[AttentionSpec, Report]]:
    """Reports that say every sentence [check] has, between them."""
    two = derive(TWO)
    for claims in (
        {
            "head1.weights[1]": "[0.73, 0.28]",  # wrong in one entry
            "head1.weights[2,2]": "0.9",  # a claimed entry
            "output[1,1]": "0.50",
            "x[1]": "[1]",  # shape
            "concat": [[0.73, 0.27], [0.27, 0.73], [0.27, 0.73], [0.73, 0.27]],  # transposed
            "head1.q[1,1]": "w + 1",  # a symbol this derivation does not have
        },
        {"head1.scores[1]": "[2.405, 0]", "head1.output[1]": "[0.9172, 0.0828]"},  # a slip
        {"head1.weights": "[[0.73, 0.27], [0.27, 0.73]]", "head1.output[1]": "[0.7300, 0.2700]"},
        {"head1.scores[1]": "[1, 0]", "x[1,1]": "2"},  # one holds
    ):
        yield TWO, check(two, claims)
    for claims in (
        {"head1.weights[1,1]": "0.7310589", "head1.weights[2]": "[0.27, 0.74]"},
        {"head1.weights[1,1]": "0.7310589", "head1.weights[2,2]": "0.7310589"},
    ):
        yield TWO, check(two, claims, inputs="printed", dtype="float32")
    yield SPLIT, check(SPLIT)  # follows from an assumed number
    undecided = r"W_{Q1,11} + (W_{Q1,11} - \frac{1}{2})(W_{Q1,11} - \frac{3}{5})"
    yield (
        SYMBOLIC,
        check(
            SYMBOLIC,
            {
                "head1.q[1,1]": undecided,  # zero at both points tried, yet not zero
                "head1.scores[1,1]": "0.5",  # no number holds for every weight
                "head1.q[2,1]": r"W_{Q,22}",  # one symbol the derivation does not have
                "head1.q[2,2]": r"W_{Q,22} + W_{Q,33}",  # two
            },
        ),
    )
    x = [[1, 0, 2], [0, 1, 1], [1, 1, 0]]
    big = AttentionSpec(x=x, heads=1, weights={"w_q": "symbolic", "w_k": "symbolic"})
    yield big, check(big, {"head1.output[1,1]": "0.5"})  # too long to print
    consistent = {"head1.weights[1]": "[0.73, 0.27]", "head1.weights[2,2]": "0.8"}
    assumes = AttentionSpec(x=[[1, 0], [0, 1]], heads=1, scale="none", assumed=consistent)
    yield assumes, check(assumes)
    for raw in (
        BASE,
        CROSS,
        {**BASE, "scale": "none"},
        {**BASE, "scale": "1/2", "convention": "xWT", "weights": TORCH_WEIGHTS},
    ):
        spec = AttentionSpec(**raw)
        for claims in _mistaken(spec):
            yield spec, check(spec, claims)
    base = AttentionSpec(**BASE)
    other = _printed(derive(base)["head2.weights"])
    yield base, check(base, {"head1.weights": other})  # another head's values
    for spec in (
        AttentionSpec(**CROSS),
        AttentionSpec.example("pytorch-style"),
        AttentionSpec.example("rope"),
        AttentionSpec.example("temperature"),
        AttentionSpec.example("alibi"),
        AFTER_SOFTMAX,
    ):
        yield spec, check(spec, _wrong_everywhere(spec))
    # Masking after the softmax and dropout, each with its likely mistake.
    weights = derive(AFTER_SOFTMAX)
    kept = _printed(weights["head1.kept"])
    unscaled = _printed(weights["head1.renormalised"].multiply_elementwise(sp.eye(2)))
    yield (
        AFTER_SOFTMAX,
        check(AFTER_SOFTMAX, {"head1.renormalised": kept, "head1.dropped": unscaled}),
    )


def test_every_string_of_the_check_is_bengali_and_said(monkeypatch: pytest.MonkeyPatch) -> None:
    said: set[str] = set()
    call = Voice.__call__

    def recording(self: Voice, key: str, /, **numbers: Any) -> str:
        if self.lang == "bn":
            said.add(key)
        return call(self, key, **numbers)

    monkeypatch.setattr(Voice, "__call__", recording)
    for spec, report in _reports():
        assert english_in(report, spec) == {}, report.summary()
    # Every entry of bn.toml's [check] was rendered by one of these reports (and is Bengali).
    every_entry_said_in_bengali("check", said, _plain_maths)


# ------------------------------------------------------------------ the command line
def test_cli_check_in_bengali(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--example", "one-token", "--lang", "bn"]) == 0
    out = capsys.readouterr().out
    spec = AttentionSpec.example("one-token")
    assert out == check(spec).readable("bn")
    assert english_words(out, _labels(spec)) == []
    for fmt in ("table", "md", "json"):
        assert main(["check", "--example", "split-scaled", "--lang", "bn", "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert "উদাহরণ" in out or "ডকুমেন্ট" in out
    assert main(["check", "--example", "two-tokens", "--lang", "bn"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "উদাহরণ `two-tokens`: 10টি দাবি: 10টি মেলে (4টি হুবহু, 6টি আসন্ন মানে)"
    )


def test_cli_check_of_a_document_reports_in_bengali(capsys: pytest.CaptureFixture[str]) -> None:
    """``check DOC --lang bn``: the report is Bengali (and so is the mapping read before it:
    tests/test_extract_bengali.py)."""
    document = "tests/data/documents/scaled-dot-product-exercise.md"
    assert main(["check", document, "--lang", "bn"]) == 1
    lines = capsys.readouterr().out.splitlines()
    report = "\n".join(lines[next(i for i, line in enumerate(lines) if line.startswith("`")) :])
    assert english_words(_plain_maths(report)) == []
    assert lines[-1] == f"`{document}`: 1টি দাবি: 0টি মেলে (0টি হুবহু, 0টি আসন্ন মানে), 1টি ভুল"


def test_cli_check_english_is_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--example", "one-token"]) == 0
    default = capsys.readouterr().out
    assert main(["check", "--example", "one-token", "--lang", "en"]) == 0
    assert capsys.readouterr().out == default == str(check(AttentionSpec.example("one-token")))


def test_an_unknown_language_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_code:  # argparse's own exit, as for any bad option
        main(["check", "--example", "one-token", "--lang", "fr"])
    assert exit_code.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "mha-symbolic check: argument --lang: invalid choice: 'fr' (choose from 'en', 'bn') "
        "(see mha-symbolic check --help)\n"
    )
    report = check(AttentionSpec.example("one-token"))
    with pytest.raises(Exception, match="unknown language 'fr'; choose one of en, bn"):
        report.readable("fr")
