"""check: printed numbers judged exactly, with their precision, and wrong ones diagnosed."""

from __future__ import annotations

import importlib
import json
from decimal import ROUND_HALF_EVEN, Decimal

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_symbolic import AttentionSpec, SpecError, check, derive
from mha_symbolic.check.claims import read_number
from mha_symbolic.check.judge import INCONSISTENT, decimal_text, judge
from mha_symbolic.cli import main

E = sp.E
SIGMOID_1 = E / (1 + E)  # 0.7310585786...

# Two heads, asymmetric integer weights: every common mistake gives different numbers.
BASE = {
    "x": [[1, 0], [1, 1]],
    "heads": 2,
    "layout": "per_head",
    "weights": {
        "w_q": [[[1, 1], [0, 1]], [[0, 1], [1, 0]]],
        "w_k": [[[1, 0], [1, 1]], [[1, 0], [0, 1]]],
        "w_v": [[[1, 2], [0, 1]], [[2, 0], [1, 1]]],
        "w_o": [[1, 0], [0, 1], [1, 0], [0, 1]],
    },
}


def spec(**changes):
    return AttentionSpec(**{**BASE, **changes})


def rounded(matrix, places=3):
    """A matrix printed as a document would: every entry rounded to ``places`` decimals."""
    unit = Decimal(1).scaleb(-places)

    def text(value):
        if value == -sp.oo:
            return r"-\infty"
        return str(Decimal(str(sp.N(value, 40))).quantize(unit, rounding=ROUND_HALF_EVEN))

    rows = [[text(v) for v in matrix.row(i)] for i in range(matrix.rows)]
    return [[t if t.startswith("-\\") else Decimal(t) for t in row] for row in rows]


# ---------------------------------------------------------------- precision semantics
@pytest.mark.parametrize(
    ("value", "text", "verdict"),
    [
        (SIGMOID_1, "0.73", "rounded"),
        (SIGMOID_1, "0.731", "rounded"),
        (SIGMOID_1, "0.7311", "rounded"),
        (SIGMOID_1, "0.7312", "wrong"),
        (SIGMOID_1, "0.74", "wrong"),
        (SIGMOID_1, "0.7", "rounded"),
        (SIGMOID_1, "0.8", "wrong"),
        (SIGMOID_1, "1", "wrong"),
        (SIGMOID_1, r"\frac{e}{1+e}", "exact"),
        (SIGMOID_1, r"\frac{1}{1+e^{-1}}", "exact"),
        (SIGMOID_1, r"\frac{e}{2+e}", "wrong"),
        (SIGMOID_1, "7.31e-1", "rounded"),
        (SIGMOID_1, "7.3E-1", "rounded"),
        (SIGMOID_1, "7.32e-1", "wrong"),
        (SIGMOID_1, r"7.31 \times 10^{-1}", "rounded"),
        (-SIGMOID_1, "-0.73", "rounded"),
        (-SIGMOID_1, "−0.73", "rounded"),
        (-SIGMOID_1, "0.73", "wrong"),
        (-SIGMOID_1, "-0.74", "wrong"),
        (sp.Rational(1, 2), "0.5", "exact"),
        (sp.Rational(1, 2), "0.50", "exact"),
        (sp.Rational(1, 2), ".5", "exact"),
        (sp.Rational(1, 2), "1/2", "exact"),
        (sp.Rational(1, 2), r"\frac{1}{2}", "exact"),
        (sp.Rational(1, 2), "0.51", "wrong"),
        (sp.Rational(63, 125), "0.5", "rounded"),  # 0.504
        (sp.Rational(63, 125), "0.50", "rounded"),
        (sp.Rational(63, 125), "0.500", "wrong"),
        (sp.Rational(63, 125), "0.51", "wrong"),
        (sp.Rational(1, 8), "0.12", "rounded"),  # 0.125: half a unit either way holds
        (sp.Rational(1, 8), "0.13", "rounded"),
        (sp.Rational(1, 8), "0.11", "wrong"),
        (sp.Integer(1), "1", "exact"),
        (sp.Rational(9999, 10000), "1", "wrong"),
        (sp.Rational(9999, 10000), "1.000", "rounded"),
        (sp.Rational(9999, 10000), "1.0000", "wrong"),
        (sp.Integer(140), "1e2", "rounded"),
        (sp.Integer(160), "1e2", "wrong"),
        (sp.sqrt(2) / 2, r"\frac{1}{\sqrt{2}}", "exact"),
        (sp.sqrt(2) / 2, "0.707", "rounded"),
        (sp.sqrt(2) / 2, "0.7072", "wrong"),
        (sp.exp(sp.sqrt(2) / 2) / (1 + sp.exp(sp.sqrt(2) / 2)), "0.67", "rounded"),
        (-sp.oo, r"-\infty", "exact"),
        (sp.Integer(0), r"-\infty", "wrong"),
    ],
)
def test_precision_table(value, text, verdict):
    assert judge(value, read_number(text)) == verdict


def test_printed_digits_set_the_unit():
    assert [read_number(t).exponent for t in ("0.5", "0.50", "7.31e-1", "1", "1e2")] == [
        -1,
        -2,
        -3,
        None,
        2,
    ]
    assert read_number("0.50").value == sp.Rational(1, 2)


@settings(max_examples=60, deadline=None)
@given(
    st.fractions(min_value=-50, max_value=50, max_denominator=97),
    st.sampled_from([SIGMOID_1, sp.sqrt(2), sp.exp(sp.Rational(-3, 2)), sp.pi / 7]),
    st.integers(min_value=1, max_value=9),  # 0 decimals prints an integer: exact or wrong
)
def test_any_value_rounded_to_n_decimals_holds_as_rounded(ratio, irrational, places):
    value = sp.Rational(ratio.numerator, ratio.denominator) + irrational
    unit = Decimal(1).scaleb(-places)
    text = str(Decimal(str(sp.N(value, 50))).quantize(unit, rounding=ROUND_HALF_EVEN))
    assert judge(value, read_number(text)) == "rounded"
    # One unit off in the last digit is wrong: an irrational value is never half-way.
    above = str(Decimal(text) + unit)
    assert judge(value, read_number(above)) == "wrong"


@settings(max_examples=40, deadline=None)
@given(st.fractions(min_value=-10, max_value=10, max_denominator=64), st.integers(1, 6))
def test_rational_values_rounded_hold(ratio, places):
    value = sp.Rational(ratio.numerator, ratio.denominator)
    text = str(Decimal(ratio.numerator) / Decimal(ratio.denominator))
    quantized = str(Decimal(text).quantize(Decimal(1).scaleb(-places)))
    assert judge(value, read_number(quantized)) in ("exact", "rounded")


def test_decimal_text():
    assert decimal_text(SIGMOID_1, 4) == "0.7311"
    assert decimal_text(sp.Rational(1, 2), 4) == "0.5"
    assert decimal_text(sp.Rational(1, 3), 4) == "0.3333"
    assert decimal_text(sp.Integer(11), 4) == "11"
    assert decimal_text(-sp.oo, 4) == "-inf"
    assert decimal_text(sp.Symbol("w"), 4) is None
    assert decimal_text(-sp.exp(-20), 4) == "0.0000"


# ---------------------------------------------------------------- claims: chains, rows, entries
@pytest.fixture(scope="module")
def two_tokens():
    return derive(AttentionSpec.example("two-tokens"))


def test_approx_chain_checks_every_side(two_tokens):
    report = check(
        two_tokens,
        {
            "head1.weights[1,1]": r"\frac{e}{1+e} \approx 0.73",
            "head1.weights[1,2]": r"\frac{1}{1+e} \approx 0.73",
            "head1.weights[2,2]": r"A_{22} = \frac{e}{1 + e} = 0.7311",
            "head1.weights[2]": r"\operatorname{softmax}\left(0, 1\right) \approx (0.27,\;0.73)",
        },
    )
    first, second, third, fourth = report.claims
    assert first.verdict == "rounded"
    assert [e.verdict for e in first.entries] == ["exact", "rounded"]
    assert [e.claimed.text for e in first.entries] == [r"\frac{e}{1+e}", "0.73"]
    assert first.claim.display == r"\frac{e}{1+e} ≈ 0.73"
    assert second.verdict == "wrong"
    assert [e.verdict for e in second.entries] == ["exact", "wrong"]
    assert third.verdict == "rounded" and len(third.entries) == 2  # the name A_{22} is skipped
    assert fourth.verdict == "rounded" and fourth.claim.display == "[0.27, 0.73]"


def test_rows_and_entries_are_one_based(two_tokens):
    report = check(
        two_tokens,
        {"head1.weights[2]": "[0.27, 0.73]", "head1.weights[2,1]": "0.27", "concat[1, 4]": 0.73},
    )
    row, entry, concat = report.claims
    assert [e.index for e in row.entries] == [(2, 1), (2, 2)]
    assert row.exact == sp.Matrix([[1 / (1 + E), E / (1 + E)]])
    assert entry.entries[0].index == (2, 1) and entry.exact_latex == r"\frac{1}{1 + e}"
    assert concat.entries[0].index == (1, 4) and concat.verdict == "rounded"
    assert report.ok


def test_value_forms(two_tokens):
    report = check(
        two_tokens,
        {
            "output": [[Decimal("0.50"), Decimal("0.5")], [0.5, "1/2"]],
            "head1.output": r"\begin{pmatrix} 0.73 & 0.27 \\ 0.27 & 0.73 \end{pmatrix}",
            "head2.output": "((0.27, 0.73), (0.73, 0.27))",
            "head1.scores": sp.Matrix([[1, 0], [0, 1]]),
            "head1.weights[1,1]": sp.Float("0.7310585786300049"),
        },
    )
    assert [c.verdict for c in report.claims] == ["exact", "rounded", "rounded", "exact", "wrong"]
    # A SymPy value is taken as exact: the Float is not e/(1+e), whatever its digits.
    assert report.claims[4].entries[0].claimed.exponent is None


def test_python_float_keeps_its_digits(two_tokens):
    report = check(two_tokens, {"head1.weights[1,1]": 0.7310585786300049})
    assert report.claims[0].verdict == "rounded"


def test_shape_verdict_says_both_shapes_and_the_transpose(two_tokens):
    report = check(
        two_tokens,
        {"concat": [[0.73, 0.27], [0.27, 0.73], [0.27, 0.73], [0.73, 0.27]], "x[1]": "[1]"},
    )
    concat, row = report.claims
    assert concat.verdict == "shape"
    assert concat.diagnosis == (
        "claimed shape (4, 2) but concat has shape (2, 4); its transpose fits"
    )
    assert row.diagnosis == "claimed shape (1, 1) but x[1] has shape (1, 2)"
    assert not report.ok


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize(
    ("claims", "message"),
    [
        (
            {"head1.weight": "[0.73, 0.27]"},
            "claim 'head1.weight': unknown step key 'head1.weight'; did you mean "
            "'head1.weights', 'head2.weights', 'head1.v'?",
        ),
        (
            {"head1.weights[3]": "[1, 0]"},
            "claim 'head1.weights[3]': head1.weights has 2 rows (shape (2, 2)), no row 3",
        ),
        (
            {"concat[1,5]": "1"},
            "claim 'concat[1,5]': concat has 4 columns (shape (2, 4)), no column 5",
        ),
        (
            {"head1.weights[1": "1"},
            "claim 'head1.weights[1': a key is a step key, optionally with [row] or [row,column]",
        ),
        (
            {"head1.weights": "0.7.3"},
            "claim 'head1.weights' = \"0.7.3\": two decimal points in one number (0.7.3)",
        ),
        (
            {"x": "[[1, 0], [0]]"},
            "claim 'x': row 2 of \"[[1, 0], [0]]\" has 1 entries but row 1 has 2",
        ),
        ({"x": "[1, ]"}, "claim 'x': cannot read \"[1, ]\": empty entry in the list"),
        ({"x": r"= 1"}, "claim 'x': cannot read \"= 1\": empty side in the chain"),
        ({"x": True}, "claim 'x': True is a boolean, not a number"),
        ({"x": []}, "claim 'x': the claimed list is empty"),
        ({"x": " $ $ "}, "claim 'x': the claimed value is empty"),
        ({1: "1"}, "claims: keys must be text, got 1"),
    ],
)
def test_bad_claims_are_named(two_tokens, claims, message):
    with pytest.raises(SpecError) as error:
        check(two_tokens, claims)
    assert str(error.value) == message


def test_spec_claim_errors_name_the_source():
    bad = spec(claims={"outptu": "1"})
    with pytest.raises(SpecError, match=r"^<arguments>: claim 'outptu': unknown step key"):
        check(bad)


# ---------------------------------------------------------------- diagnosis
def diagnose(the_spec, key, matrix):
    report = check(derive(the_spec), {key: rounded(matrix)})
    (claim,) = report.claims
    assert claim.verdict == "wrong", claim
    return claim.mistakes


def test_diagnosis_missing_scale():
    base = spec()
    unscaled = derive(base.evolve(scale="none"))
    assert diagnose(base, "head1.weights", unscaled["head1.weights"]) == (
        "scores not scaled by 1/sqrt(d_k)",
    )


def test_diagnosis_scaled_twice():
    base = spec()
    twice = derive(base.evolve(scale=sp.Rational(1, 2)))
    assert diagnose(base, "head1.output", twice["head1.output"]) == (
        "scores scaled by 1/sqrt(d_k) twice (divided by d_k)",
    )


def test_diagnosis_scaled_although_unscaled():
    base = spec(scale="none")
    scaled = derive(spec())
    assert diagnose(base, "head1.weights", scaled["head1.weights"]) == (
        "scores scaled by 1/sqrt(d_k), which this attention does not do",
    )


def test_diagnosis_weights_transposed():
    base = spec()
    read_wrongly = {
        k: [m.T for m in map(sp.Matrix, BASE["weights"][k])] for k in ("w_q", "w_k", "w_v")
    }
    transposed = derive(spec(weights={**BASE["weights"], **read_wrongly}))
    # W_O (4x2) fits only one way round, so the variant keeps it: the outputs still match.
    assert diagnose(base, "output", transposed["output"]) == (
        "weights transposed (X W^T instead of X W)",
    )


def test_diagnosis_softmax_over_columns():
    base = derive(spec())
    scaled = base["head1.scaled"]
    exps = scaled.applyfunc(sp.exp)
    columns = sp.Matrix(2, 2, lambda i, j: exps[i, j] / sum(exps[:, j]))
    assert diagnose(spec(), "head1.weights", columns) == ("softmax over columns instead of rows",)
    assert diagnose(spec(), "head1.output", columns * base["head1.v"]) == (
        "softmax over columns instead of rows",
    )


def test_diagnosis_k_used_for_v():
    base = derive(spec())
    assert diagnose(spec(), "head1.output", base["head1.weights"] * base["head1.k"]) == (
        "K used in place of V",
    )


def test_diagnosis_q_used_for_k():
    base = derive(spec())
    q = base["head1.q"]
    logits = (q * q.T) / sp.sqrt(2)
    exps = logits.applyfunc(sp.exp)
    rows = sp.Matrix(2, 2, lambda i, j: exps[i, j] / sum(exps[i, :]))
    assert diagnose(spec(), "head1.weights", rows) == ("Q used in place of K",)


def test_diagnosis_w_o_missing_through_the_shape():
    base = derive(spec())
    report = check(base, {"output": rounded(base["concat"])})
    (claim,) = report.claims
    assert claim.verdict == "shape"
    assert claim.diagnosis == (
        "claimed shape (2, 4) but output has shape (2, 2); "
        "likely mistake: W_O missing (the concat taken as the output)"
    )


def test_diagnosis_mask_ignored():
    causal = spec(mask="causal")
    unmasked = derive(spec())
    assert diagnose(causal, "head1.weights", unmasked["head1.weights"]) == ("mask ignored",)


def test_diagnosis_another_heads_values():
    base = derive(spec())
    assert diagnose(spec(), "head2.weights", base["head1.weights"]) == (
        "head 1's values (head1.weights)",
    )


def test_diagnosis_names_every_match():
    # Head 2's W_Q is sqrt(2) times head 1's, so head 2 scaled is head 1 unscaled.
    root = r"\sqrt{2}"
    weights = {
        **BASE["weights"],
        "w_q": [[[1, 1], [0, 1]], [[root, root], [0, root]]],
        "w_k": [[[1, 0], [1, 1]], [[1, 0], [1, 1]]],
    }
    d = derive(spec(weights=weights))
    (claim,) = check(d, {"head1.weights": rounded(d["head2.weights"])}).claims
    assert claim.diagnosis == (
        "likely mistake, one of: scores not scaled by 1/sqrt(d_k); head 2's values (head2.weights)"
    )


def test_diagnosis_inconsistent_when_nothing_matches():
    d = derive(spec())
    (claim,) = check(d, {"head1.output": "[[1.5, 2], [1, 3]]"}).claims
    assert claim.verdict == "wrong" and claim.mistakes == ()
    assert claim.diagnosis == INCONSISTENT == "inconsistent with the given inputs and weights"


CROSS = {  # cross-attention with biases, a mask and W_O: every mistake applies
    "query": [[1, 0], [1, 1]],
    "key": [[1, 2], [0, 1]],
    "value": [[3, 1], [1, 0]],
    "heads": 1,
    "mask": [[1, 0], [1, 1]],
    "weights": {
        "w_q": [[[1, 1], [0, 1]]],
        "w_k": [[[1, 0], [1, 1]]],
        "w_v": [[[1, 2], [0, 1]]],
        "b_q": [1, 0],
        "b_k": [0, 1],
        "w_o": [[1, 0], [0, 2]],
        "b_o": [1, 1],
    },
}


@pytest.mark.parametrize("raw", [BASE, CROSS], ids=["per-head", "cross-masked"])
def test_every_mistake_is_recognised_from_its_own_values(raw):
    check_module = importlib.import_module("mha_symbolic.check.judge")
    d = derive(AttentionSpec(**raw))
    labels = []
    for rule, _ in check_module.MISTAKES:
        found = rule(d)
        if found is None:
            continue
        label, variant = found
        labels.append(label)
        values = variant()
        changed = {
            key: rounded(value, 4) for key, value in values.items() if key in d and value != d[key]
        }
        failing = [c for c in check(d, changed).claims if not c.holds]
        assert failing, label
        for claim in failing:
            assert label in claim.mistakes, (label, claim.key, claim.diagnosis)
    assert len(labels) == (8 if raw is CROSS else 7)


def test_masked_scores_print_minus_infinity():
    d = derive(spec(mask="causal"))
    report = check(d, {"head1.masked[1]": r"[\frac{\sqrt{2}}{2}, -\infty]"})
    assert report.claims[0].verdict == "exact"
    assert [e.decimal for e in report.claims[0].entries] == ["0.7071", "-∞"]


def test_variants_are_derived_at_most_once(monkeypatch):
    mistakes = importlib.import_module("mha_symbolic.check.mistakes")

    calls = []
    real = mistakes.walk

    def counting(program):
        calls.append(program)
        return real(program)

    monkeypatch.setattr(mistakes, "walk", counting)
    d = derive(spec())
    check(d, {"head1.weights": "[[1, 0], [0, 1]]", "head2.weights": "[[1, 0], [0, 1]]"})
    # Two wrong claims; six mistakes can change attention weights (not a missing W_O, and
    # there is no mask), each a rewrite of the program evaluated once.
    assert len(calls) == len({id(s) for s in calls}) == 6
    calls.clear()
    check(d, {"head1.weights": rounded(d["head1.weights"])})
    assert calls == []  # nothing is wrong: no variant is derived


# ---------------------------------------------------------------- symbolic weights
def test_symbolic_entries_are_exact_or_wrong():
    symbolic = AttentionSpec(x=[[1, 0], [0, 1]], heads=1, weights={"w_q": "symbolic"}, scale="none")
    d = derive(symbolic)
    report = check(
        d,
        {
            "head1.q": r"\begin{bmatrix} W_{Q1,11} & W_{Q1,12} \\ "
            r"W_{Q1,21} & W_{Q1,22} \end{bmatrix}",
            "head1.q[1,1]": r"W_{Q1,11} + 1",
            "head1.scores[1,1]": "0.5",
            "head1.q[2,1]": r"W_{Q1,21}",
            "head1.q[2,2]": r"W_{Q,22}",
        },
    )
    verdicts = [c.verdict for c in report.claims]
    assert verdicts == ["exact", "wrong", "wrong", "exact", "wrong"]
    assert report.claims[4].diagnosis == (
        "W_{Q,22} does not occur in the derivation (its symbols are W_{Q1,11}, W_{Q1,12}, "
        "W_{Q1,21}, W_{Q1,22})"
    )
    assert report.claims[2].entries[0].decimal is None
    assert report.claims[2].diagnosis == (
        "inconsistent with the given inputs and weights; "
        "the exact value depends on symbolic weights; no number holds for all of them"
    )
    data = json.loads(report.to_json())["claims"][2]
    assert data["decimal"] is None and data["entries"][0]["decimal"] is None


# ---------------------------------------------------------------- the documents
def test_two_tokens_holds_throughout(two_tokens):
    report = check(two_tokens)
    assert report.ok
    assert {c.key: c.verdict for c in report.claims} == {
        "head1.scores[1]": "exact",
        "head1.weights[1]": "rounded",
        "head1.weights[2]": "rounded",
        "head1.output": "rounded",
        "head2.q": "exact",
        "head2.scores[1]": "exact",
        "head2.weights[1]": "rounded",
        "head2.output": "rounded",
        "concat": "rounded",
        "output": "exact",
    }


def numeric(assumed: dict[str, object]) -> dict[str, object]:
    """The assumed numbers (not split-scaled's output formula, which names an unknown W_O)."""
    return {k: v for k, v in assumed.items() if "W_O" not in str(v)}


def test_one_token_head_outputs_are_wrong():
    spec = AttentionSpec.example("one-token")  # its assumed outputs, read as claims
    report = check(spec, {**spec.claims, **numeric(spec.assumed)})
    assert not report.ok
    by_key = {c.key: c for c in report.claims}
    assert by_key["head1.output[1]"].exact == sp.Matrix([[4, 11]])
    assert by_key["head2.output[1]"].exact == sp.Matrix([[6, 9]])
    assert by_key["concat[1]"].exact == sp.Matrix([[4, 11, 6, 9]])
    assert all(c.verdict == "wrong" and c.diagnosis == INCONSISTENT for c in report.claims)
    assert by_key["concat[1]"].claim.display == "[0.5, 1.2, -0.4, 2.3]"  # the document's "−"


def test_split_scaled_head2_is_head1():
    spec = AttentionSpec.example("split-scaled")  # its assumed head 2, read as a claim
    report = check(spec, {**spec.claims, **numeric(spec.assumed)})
    verdicts = {c.key: c.verdict for c in report.claims}
    assert verdicts == {
        "head1.x": "exact",
        "head2.x": "exact",
        "head1.scores": "exact",
        "head1.scaled": "rounded",
        "head1.weights[1]": "rounded",
        "head1.weights[2]": "rounded",
        "head1.weights": "rounded",
        "head1.output[1]": "rounded",
        "head1.output[2]": "rounded",
        "head2.output": "wrong",
        "concat[1]": "wrong",
        "concat[2]": "wrong",
    }
    for row in report.by_step()["concat"]:  # head 1's half holds, head 2's does not
        assert [e.verdict for e in row.entries] == ["rounded"] * 2 + ["wrong"] * 2
        assert row.diagnosis == INCONSISTENT


def test_eight_tokens_input_holds():
    report = check(AttentionSpec.example("eight-tokens-split"))
    assert report.ok and [c.verdict for c in report.claims] == ["exact"]


# ---------------------------------------------------------------- report formats
def test_json_schema(two_tokens):
    data = json.loads(check(two_tokens, {"head1.weights[1]": "[0.73, 0.28]"}).to_json())
    assert data == {
        "ok": False,
        "claims": [
            {
                "key": "head1.weights[1]",
                "claimed": "[0.73, 0.28]",
                "verdict": "wrong",
                "exact": r"\begin{bmatrix}\frac{e}{1 + e} & \frac{1}{1 + e}\end{bmatrix}",
                "decimal": "[0.7311, 0.2689]",
                "diagnosis": INCONSISTENT,
                "explanation": (
                    "Entry (1, 2): the attention weight is 0.2689, the document has 0.28."
                ),
                "mistakes": [],
                "entries": [
                    {
                        "index": [1, 1],
                        "claimed": "0.73",
                        "exact": r"\frac{e}{1 + e}",
                        "decimal": "0.7311",
                        "verdict": "rounded",
                    },
                    {
                        "index": [1, 2],
                        "claimed": "0.28",
                        "exact": r"\frac{1}{1 + e}",
                        "decimal": "0.2689",
                        "verdict": "wrong",
                    },
                ],
            }
        ],
        "assumed": [],
    }


def test_text_and_markdown_tables(two_tokens):
    report = check(two_tokens, {"head1.weights[1]": "[0.73, 0.28]", "output[1,1]": "0.50"})
    text = report.to_text().splitlines()
    assert text[0].split() == ["key", "claimed", "exact", "decimal", "verdict", "diagnosis"]
    assert text[1].split()[:2] == ["head1.weights[1]", "[0.73,"]
    assert text[1].endswith("wrong    " + INCONSISTENT)
    assert text[2].split() == ["output[1,1]", "0.50", "1/2", "0.5", "exact"]
    assert text[3] == "  head1.weights[1] [1,2]: claimed 0.28, exact 1/(1 + e) = 0.2689: wrong"
    assert text[4] == ("example two-tokens: 2 claims: 1 holds (1 exact, 0 rounded), 1 wrong")
    markdown = report.to_markdown().splitlines()
    assert markdown[0] == "| key | claimed | exact | decimal | verdict | diagnosis |"
    assert markdown[3] == "| `output[1,1]` | `0.50` | $\\frac{1}{2}$ | 0.5 | exact |  |"


def test_by_step_groups_claims_for_renderers(two_tokens):
    report = check(two_tokens)
    steps = report.by_step()
    assert [c.key for c in steps["head1.weights"]] == ["head1.weights[1]", "head1.weights[2]"]
    assert "head1.q" not in steps


# ---------------------------------------------------------------- command line
def test_cli_exit_codes(capsys, tmp_path):
    assert main(["check", "--example", "two-tokens"]) == 0
    # one-token's concat row is not the exact value, but it is what the head outputs the
    # document assumes give: consistent with its own assumption, so not a failure.
    assert main(["check", "--example", "one-token"]) == 0
    wrong = ["--claim", "concat[1]=[0.5, 1.2, 6, 9]"]
    assert main(["check", "--example", "one-token", *wrong]) == 1
    assert main(["check", "--example", "pytorch-style"]) == 0
    out = capsys.readouterr().out
    assert "example pytorch-style: no claims to check" in out
    bad = tmp_path / "bad.toml"
    bad.write_text('x = [[1, 0], [0, 1]]\n[claims]\n"head1.weight" = "1"\n')
    assert main(["check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"mha-symbolic: {bad}: claim 'head1.weight': unknown step key 'head1.weight'; "
        "did you mean 'head1.weights', 'head1.v', 'head1.q'?\n"
    )


def test_cli_json(capsys):
    assert main(["check", "--example", "split-scaled", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True  # its two concat rows follow from its assumed head 2 output
    assert [c["verdict"] for c in data["claims"]][-2:] == ["follows", "follows"]
    assert set(data["claims"][0]) == {
        "key", "claimed", "verdict", "exact", "decimal", "diagnosis", "explanation",
        "mistakes", "entries",
    }  # fmt: skip
    wrong = data["claims"][-1]
    shown = " ".join(str(check(AttentionSpec.example("split-scaled"))).split())
    assert wrong["explanation"] and " ".join(wrong["explanation"].split()) in shown


def test_cli_markdown(capsys):
    assert main(["check", "--example", "one-token", "--format", "md"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # The head outputs are [assumed] in the example; the concatenation it prints is a claim.
    assert lines[2].startswith("| `concat[1]` | `[0.5, 1.2, −0.4, 2.3]` | $\\begin{bmatrix}4 & 11")
