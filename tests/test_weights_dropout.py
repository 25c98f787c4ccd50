"""Masking after the softmax (``weights_mask``: A ∘ M, then each row over its sum) and dropout on
the weights (``dropout = {p, keep}``): exact values, the heads' output made of them, gradients
and compiled code, against torch (``torch.nn.functional.dropout`` with its mask read back) and
against a causal softmax written out."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, SpecError, compile, derive

X = [[1, 0, 2], [0, 1, 1], [2, 1, 0], [1, 1, 1]]
W = {
    "w_q": [[[1, 0], [0, 1], [1, 1]], [[0, 1], [1, 0], [1, -1]]],
    "w_k": [[[1, 1], [0, 1], [1, 0]], [[1, 0], [0, 2], [0, 1]]],
    "w_v": [[[1, 0], [0, 1], [1, 1]], [[2, 0], [0, 1], [1, 0]]],
}
KEEP = [[1, 0, 1, 1], [0, 1, 0, 1], [1, 1, 0, 0], [0, 1, 1, 1]]


def floats(matrix: sp.MatrixBase) -> np.ndarray:
    return np.array(matrix.evalf(30).tolist(), dtype=float)


def spec(**more: Any) -> AttentionSpec:
    return AttentionSpec.from_dict({"x": X, "heads": 2, "weights": W, **more})


# ------------------------------------------------------------------ weights_mask, exactly
def test_the_renormalised_weights_are_the_causal_softmax_exactly() -> None:
    after = derive(spec(weights_mask="causal"))
    before = derive(spec(mask="causal"))
    for n in (1, 2):
        tril = sp.Matrix(4, 4, lambda i, j: 1 if j <= i else 0)
        assert after[f"head{n}.kept"] == after[f"head{n}.weights"].multiply_elementwise(tril)
        assert after[f"head{n}.renormalised"] == before[f"head{n}.weights"]
        assert after[f"head{n}.output"] == before[f"head{n}.output"]
    assert after["output"] == before["output"]
    assert after["head1.renormalised"][0, :] == sp.Matrix([[1, 0, 0, 0]])


def test_a_mask_after_given_weights_divides_each_row_by_its_sum() -> None:
    d = derive(
        AttentionSpec.from_dict(
            {
                "attention_weights": [
                    ["1/2", "1/4", "1/4"],
                    ["1/5", "3/5", "1/5"],
                    [0, "1/2", "1/2"],
                ],
                "v": [[1, 0], [0, 1], [1, 1]],
                "weights_mask": [[1, 0, 1], [1, 1, 0], [1, 1, 1]],
            }
        )
    )
    R = sp.Rational
    assert d["head1.kept"] == sp.Matrix(
        [[R(1, 2), 0, R(1, 4)], [R(1, 5), R(3, 5), 0], [0, R(1, 2), R(1, 2)]]
    )
    assert d["head1.renormalised"] == sp.Matrix(
        [[R(2, 3), 0, R(1, 3)], [R(1, 4), R(3, 4), 0], [0, R(1, 2), R(1, 2)]]
    )
    assert d["output"] == sp.Matrix([[1, R(1, 3)], [R(1, 4), R(3, 4)], [R(1, 2), 1]])


# ------------------------------------------------------------------ dropout, exactly
def test_dropout_at_one_half_doubles_exactly_the_kept_weights() -> None:
    d = derive(spec(dropout={"p": 0.5, "keep": KEEP}))
    for n in (1, 2):
        weights, dropped = d[f"head{n}.weights"], d[f"head{n}.dropped"]
        for i in range(4):
            for j in range(4):
                assert dropped[i, j] == (2 * weights[i, j] if KEEP[i][j] else 0)
        difference = d[f"head{n}.output"] - dropped * d[f"head{n}.v"]
        assert sp.simplify(difference) == sp.zeros(4, 2)


def test_dropout_has_a_pattern_per_head_and_follows_the_renormalisation() -> None:
    other = [[1, 1, 1, 1]] * 4
    d = derive(spec(weights_mask="causal", dropout={"p": "1/4", "keep": [KEEP, other]}))
    keys = [s.key for s in d.steps if s.head == 1]
    assert keys[-4:] == ["head1.kept", "head1.renormalised", "head1.dropped", "head1.output"]
    assert d["head2.dropped"] == d["head2.renormalised"] * sp.Rational(4, 3)
    assert d["head1.dropped"][1, 1] == d["head1.renormalised"][1, 1] * sp.Rational(4, 3)
    assert d["head1.dropped"][1, 0] == 0


BAD = [
    ({"p": 1, "keep": KEEP}, "dropout.p must be a rational number in [0, 1) (0.5, 1/10), got 1"),
    ({"p": 0.5}, "dropout.keep is missing; dropout needs p and keep (0/1, 1 = kept)"),
    ({"p": 0.5, "keep": KEEP, "seed": 1}, "unknown key 'dropout.seed'"),
    (
        {"p": 0.5, "keep": [[1, 0], [0, 1]]},
        "dropout.keep has shape (2, 2) but the weights have shape (4, 4) (queries x keys)",
    ),
    ({"p": 0.5, "keep": [[2, 0, 0, 0]] * 4}, "dropout.keep[1,1] is 2; it holds 0 or 1"),
    (
        {"p": 0.5, "keep": [KEEP] * 3},
        "dropout.keep has 3 matrices but the spec has 2 heads; give one pattern for every "
        "head or one per head",
    ),
]


@pytest.mark.parametrize(("value", "message"), BAD)
def test_a_bad_dropout_is_one_line_naming_the_key(value: Any, message: str) -> None:
    with pytest.raises(SpecError) as raised:
        spec(dropout=value)
    assert str(raised.value).startswith(f"<dict>: {message}")


def test_a_mask_row_that_keeps_nothing_is_refused() -> None:
    with pytest.raises(SpecError, match=r"^<dict>: weights_mask row 2 keeps no key"):
        spec(weights_mask=[[1, 0, 0, 0], [0, 0, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1]])


# ------------------------------------------------------------------ torch
def test_values_and_gradients_match_torch() -> None:
    torch = pytest.importorskip("torch", reason="torch is optional")
    torch.manual_seed(123)
    drawn = torch.nn.functional.dropout(torch.ones(2, 4, 4, dtype=torch.float64), 0.5)
    keep = (drawn != 0).to(torch.float64)  # torch's own draw, read back as the pattern
    pattern = keep.to(torch.int64).tolist()
    made = spec(weights_mask="causal", dropout={"p": "1/2", "keep": pattern})
    x = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    weights = {n: torch.tensor(W[n], dtype=torch.float64, requires_grad=True) for n in W}
    q, k, v = (x @ weights[n] for n in ("w_q", "w_k", "w_v"))
    a = torch.softmax(q @ k.transpose(-1, -2) / 2**0.5, dim=-1)
    a = a * torch.tril(torch.ones(4, 4, dtype=torch.float64))
    a = a / a.sum(dim=-1, keepdim=True)
    dropped = a * drawn  # the draw itself: kept weights times 2
    heads = dropped @ v
    out = torch.cat(list(heads), dim=-1)
    out.sum().backward()
    d = derive(made, gradients=True)
    for n in (1, 2):
        np.testing.assert_allclose(
            floats(d[f"head{n}.dropped"]), dropped[n - 1].detach(), atol=1e-14
        )
    np.testing.assert_allclose(floats(d["output"]), out.detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(floats(d["grad.x"]), x.grad.numpy(), atol=1e-10)
    np.testing.assert_allclose(floats(d["grad.head2.w_q"]), weights["w_q"].grad[1], atol=1e-10)
    for backend in ("numpy", "torch"):
        f = compile(made, backend=backend, gradients=True)
        got = f(np.array(X, dtype=float))
        np.testing.assert_allclose(np.asarray(got["x"]), x.grad.numpy(), atol=1e-10)
    np.testing.assert_allclose(compile(made)(np.array(X, dtype=float)), out.detach(), atol=1e-12)


def _given_weights(p: object, **more: object) -> dict[str, object]:
    """Three tokens' given weights and values, masked after the softmax (causal) and dropped
    out at rate ``p`` with one keep pattern: the spec the check tests start from."""
    return {
        "attention_weights": [["0.5", "0.25", "0.25"], ["0.2", "0.6", "0.2"], [0, "0.5", "0.5"]],
        "v": [[1, 0], [0, 1], [1, 1]],
        "weights_mask": "causal",
        "dropout": {"p": p, "keep": [[1, 1, 0], [0, 1, 1], [1, 0, 1]]},
        **more,
    }


def test_check_judges_the_new_steps_and_finds_a_slipped_digit() -> None:
    from mha_symbolic import check

    made = AttentionSpec.from_dict(_given_weights(0.5))
    report = check(
        made,
        {
            "head1.kept": "[[0.5, 0, 0], [0.2, 0.6, 0], [0, 0.5, 0.5]]",
            "head1.renormalised": "[[1, 0, 0], [0.25, 0.75, 0], [0, 0.5, 0.5]]",
            "head1.dropped": "[[2, 0, 0], [0, 1.5, 0], [0, 0, 1.0]]",
            "head1.dropped[2]": "[0, 1.6, 0]",
        },
    )
    verdicts = {v.claim.key: v.verdict for v in report.claims}
    assert verdicts == {
        "head1.kept": "exact",
        "head1.renormalised": "exact",
        "head1.dropped": "exact",
        "head1.dropped[2]": "wrong",
    }
    wrong = report.claims[-1]
    assert [(e.verdict, str(e.exact)) for e in wrong.entries] == [
        ("exact", "0"),
        ("wrong", "3/2"),
        ("exact", "0"),
    ]


def test_the_likely_mistakes_dropout_not_rescaled_and_rows_not_renormalised() -> None:
    from mha_symbolic import check

    made = AttentionSpec.from_dict(_given_weights("0.2"))
    report = check(
        made,
        {
            "head1.renormalised": "[[0.5, 0, 0], [0.2, 0.6, 0], [0, 0.5, 0.5]]",  # the kept
            "head1.dropped[3]": "[0, 0, 0.5]",  # 1/2 kept as it is, not times 5/4
        },
    )
    said = [[str(m) for m in v.mistakes] for v in report.claims]
    assert said == [
        ["rows of the masked weights not divided by their sums"],
        ["kept weights not scaled by 1/(1-p) = 5/4 after dropout"],
    ]


def test_the_solution_says_the_new_mistakes_in_a_students_words() -> None:
    """The worked solution's note beside a wrong number names the likely mistake as the
    solution's reader is told it (the locale's [diagnoses]), in English and in Bengali."""
    from dataclasses import replace

    from mha_symbolic import check, derive
    from mha_symbolic.solution.render import render
    from mha_symbolic.solution.view import Options

    made = AttentionSpec.from_dict(
        _given_weights(
            "0.2",
            claims={
                "head1.renormalised": "[[0.5, 0, 0], [0.2, 0.6, 0], [0, 0.5, 0.5]]",
                "head1.dropped[3]": "[0, 0, 0.5]",
            },
        )
    )
    d = derive(made)
    marks = check(d).marks()
    english = render(d, "md", replace(Options(), marks=marks))
    assert "the rows of the masked weights were not divided by their sums" in english
    assert "the kept weights were not multiplied by $1/(1-p)$ after dropout" in english
    bengali = render(d, "md", replace(Options(lang="bn"), marks=marks))
    assert "মাস্ক করা ওয়েটের সারিগুলো তাদের যোগফল দিয়ে ভাগ করা হয়নি" in bengali


def test_the_solution_writes_out_the_mask_and_the_draw_and_names_the_rate() -> None:
    given = [["1/2", "1/4", "1/4"], ["1/5", "3/5", "1/5"], [0, "1/2", "1/2"]]
    md = derive(
        AttentionSpec.from_dict(
            {
                "attention_weights": given,
                "v": [[1, 0], [0, 1], [1, 1]],
                "weights_mask": "causal",
                "dropout": {"p": "1/4", "keep": [[1, 0, 1], [0, 1, 1], [1, 1, 0]]},
            }
        )
    ).to_markdown()
    assert r"A_{1} \circ M \\" in md  # the formula names M, its substitution writes it out
    assert r"\circ \begin{bmatrix} 1 & 0 & 0 \\ 1 & 1 & 0 \\ 1 & 1 & 1 \end{bmatrix}" in md
    assert r"\circ \begin{bmatrix} 1 & 0 & 1 \\ 0 & 1 & 1 \\ 1 & 1 & 0 \end{bmatrix}" in md
    assert r"Dropout at $p = 0.25$ keeps" in md
    assert r"$1/(1-p) = \frac{4}{3}$" in md


def _captions(md: str, keys: list[str]) -> dict[str, str]:
    """The caption under each gradient step's heading (its first paragraph)."""
    out = {}
    for key in keys:
        after = md[md.index(f'<a id="grad.head1.{key}"></a>') :].split("\n\n")
        out[key] = next(p for p in after[1:] if not p.startswith("#"))
    return out


@pytest.mark.parametrize(
    ("more", "expected"),
    [
        (
            {"weights_mask": "causal", "dropout": {"p": 0.5, "keep": KEEP}},
            {"dropped": "The output is these", "renormalised": "Dropout multiplied",
             "kept": "Back through the division", "weights": "The mask multiplied"},
        ),
        (
            {"dropout": {"p": 0.5, "keep": KEEP}},
            {"dropped": "The output is these", "weights": "Dropout multiplied"},
        ),
        (
            {"weights_mask": "causal"},
            {"renormalised": "Weight $a_{ij}$ multiplies", "kept": "Back through the division",
             "weights": "The mask multiplied"},
        ),
    ],
)  # fmt: skip
def test_a_gradient_s_caption_says_the_step_it_goes_back_through(more, expected) -> None:
    """The gradient of a step is worked back through the step after it (the gradient of the
    renormalised weights through dropout), and its caption says that one."""
    md = derive(spec(**more), gradients=True).to_markdown()
    captions = _captions(md, list(expected))
    assert {k: c[: len(expected[k])] for k, c in captions.items()} == expected
