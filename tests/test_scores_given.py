"""Specs that give each head's scores directly (a document printing Q K^T but not Q and K)."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, SpecError, check, compile, derive
from mha_symbolic.cli import main
from tests.mp_value import mp_value

# A tutorial's printed scores for three tokens (its first row computed from its own vectors).
SCORES = [["2.405", "1.3569", "0"], ["1", "0", "0"], ["0", "0", "1"]]
X = [[1, 0], [0, 1], [1, 1]]


def _softmax_rows(rows: list[list[str]]) -> list[list[mpmath.mpf]]:
    with mpmath.workdps(50):
        out = []
        for row in rows:
            exps = [mpmath.exp(mpmath.mpf(v)) for v in row]
            total = mpmath.fsum(exps)
            out.append([e / total for e in exps])
        return out


def test_weights_are_the_softmax_of_the_given_scores() -> None:
    d = derive(AttentionSpec(x=X, heads=1, scores=SCORES))
    assert [s.key for s in d.steps] == [
        "x", "head1.v", "head1.scores", "head1.scaled", "head1.weights", "head1.output",
        "concat", "output",
    ]  # fmt: skip
    assert d["head1.scores"][0, 0] == sp.Rational(481, 200)
    oracle = _softmax_rows(SCORES)
    with mpmath.workdps(50):
        for i in range(3):
            for j in range(3):
                value = mp_value(d["head1.weights"][i, j])
                assert abs(value - oracle[i][j]) < mpmath.mpf(10) ** -45


def test_a_causal_mask_blocks_symbolic_scores() -> None:
    """A blocked symbolic score is -oo, not ``s - oo`` (which SymPy leaves open, since s could
    be infinite): its weight is exactly 0 and the allowed ones share the row."""
    scores = [[0, "s_{1,2}", "s_{1,3}"], [0, 0, "s_{2,3}"], [0, 0, 0]]
    spec = {"title": "t", "scores": scores, "mask": "causal", "v": [[1, 2], [3, 4], [5, 6]]}
    d = derive(AttentionSpec.from_dict(spec))
    half, third = sp.Rational(1, 2), sp.Rational(1, 3)
    assert d["head1.masked"] == sp.Matrix([[0, -sp.oo, -sp.oo], [0, 0, -sp.oo], [0, 0, 0]])
    assert d["head1.weights"] == sp.Matrix([[1, 0, 0], [half, half, 0], [third] * 3])
    assert d["output"] == sp.Matrix([[1, 2], [2, 3], [3, 4]])


def test_two_heads_with_values_and_w_o_match_numpy() -> None:
    s1 = [[1, 2, 0], [0, 1, 0], [1, 1, 1]]
    s2 = [[0, 0, 1], [1, 0, 0], [0, 1, 0]]
    w_v = [[[1, 0], [0, 1]], [[0, 1], [1, 0]]]
    w_o = [[1, 0], [0, 1], [1, 0], [0, 1]]
    spec = AttentionSpec(x=X, heads=2, scores=[s1, s2], weights={"w_v": w_v, "w_o": w_o})
    exact = np.array(derive(spec)["output"].evalf(30), dtype=float)

    def softmax(s: np.ndarray) -> np.ndarray:
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    x = np.array(X, dtype=float)
    heads = [softmax(np.array(s, float)) @ (x @ np.array(w, float)) for s, w in zip([s1, s2], w_v)]
    np.testing.assert_allclose(exact, np.hstack(heads) @ np.array(w_o, float), rtol=1e-12)


def test_claims_about_weights_and_outputs(tmp_path, capsys) -> None:
    spec = AttentionSpec(
        x=X,
        heads=1,
        scores=SCORES,
        claims={"head1.weights[1]": "[0.6940, 0.2433, 0.0626]", "output[1]": "[0.75, 0.29]"},
    )
    report = check(spec)
    assert [(c.key, c.verdict) for c in report.claims] == [
        ("head1.weights[1]", "rounded"),
        ("output[1]", "wrong"),
    ]
    assert report.claims[1].explanation == (
        "Entry (1, 1): the output is 0.7567, the document has 0.75."
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            {"scores": [[1, 2], [3, 4]]},
            "scores[1] has shape (2, 2) but the attention has 3 queries and 3 keys: (3, 3)",
        ),
        (
            {"scale": "sqrt_dk"},
            "scores are given without Q and K, so d_k is not known: give "
            'scale = "none" (the scores are the logits) or the factor, e.g. scale = "1/sqrt(64)"',
        ),
        (
            {"weights": {"w_q": [[1, 0], [0, 1]]}},
            "scores are given, so w_q (for Q and K) is not used; remove it",
        ),
        ({"heads": 2}, "scores must be a list of 2 matrices (one per head), each 3x3"),
        ({"rope": {}}, "scores are given, so rope (a rotation of Q and K) cannot apply"),
    ],
)
def test_bad_scores_are_one_line(extra: dict, message: str) -> None:
    with pytest.raises(SpecError) as error:
        AttentionSpec.from_dict({"x": X, "heads": 1, "scores": SCORES, **extra}, source="s.toml")
    assert str(error.value) == f"s.toml: {message}"


def test_every_format_renders_and_compiles_with_the_scores_as_an_argument(tmp_path, capsys) -> None:
    path = tmp_path / "scores.toml"
    path.write_text(f"heads = 1\nx = {X}\nscores = {SCORES}\n".replace("'", '"'))
    for fmt in ("md", "text", "tex", "html", "json"):
        assert main(["derive", str(path), "--format", fmt]) == 0
    text = capsys.readouterr().out
    assert "are given as printed (Q and K are not), so dₖ is not needed." in text
    spec = AttentionSpec.from_toml(path)
    f = compile(spec)  # the given scores are an argument, the spec's by default
    assert f.signature == "f(query, key=None, value=None, *, mask=None, w_v=..., scores=...)"
    exact = [[float(e) for e in row] for row in derive(spec)["output"].tolist()]
    x = np.array([[float(e) for e in row] for row in spec.query.tolist()])
    np.testing.assert_allclose(f(x), exact, rtol=1e-13)
