"""The documents' exact values, from the built-in examples."""

from __future__ import annotations

import re

import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, derive, examples
from mha_symbolic.spec.attention import example_names

E = sp.E


@pytest.fixture(scope="module")
def two_tokens():
    return derive(AttentionSpec.example("two-tokens"))


def test_examples_are_the_five_of_the_design_temperature_rope_alibi_and_causal_dropout():
    assert example_names() == [
        "alibi", "causal-dropout", "eight-tokens-split", "one-token", "pytorch-style", "rope",
        "split-scaled", "temperature", "two-tokens",
    ]  # fmt: skip
    for name, title, description in examples():
        assert title and len(description) > 100, name


def test_two_tokens_head1_weights_are_e_over_1_plus_e(two_tokens):
    assert two_tokens["head1.weights"] == sp.Matrix(
        [[E / (1 + E), 1 / (1 + E)], [1 / (1 + E), E / (1 + E)]]
    )
    assert str(two_tokens["head1.weights"][0, 0]) == "E/(1 + E)"


def test_two_tokens_head2_swaps(two_tokens):
    assert two_tokens["head2.q"] == sp.Matrix([[0, 1], [1, 0]])
    assert two_tokens["head2.weights"] == two_tokens["head1.weights"]
    assert two_tokens["head2.output"] == sp.Matrix(
        [[1 / (1 + E), E / (1 + E)], [E / (1 + E), 1 / (1 + E)]]
    )


def test_two_tokens_output_is_exactly_one_half(two_tokens):
    assert two_tokens["output"] == sp.Matrix([[sp.Rational(1, 2)] * 2] * 2)
    assert two_tokens["concat"].shape == (2, 4)


def test_two_tokens_keys_in_order(two_tokens):
    per_head = ["q", "k", "v", "scores", "scaled", "weights", "output"]
    assert list(two_tokens) == (
        ["x"] + [f"head1.{k}" for k in per_head] + [f"head2.{k}" for k in per_head]
        + ["concat", "output"]
    )  # fmt: skip


def test_split_scaled_weight_is_exp_sqrt2_over_2():
    d = derive(AttentionSpec.example("split-scaled"))
    a = sp.exp(sp.sqrt(2) / 2)
    assert d["head1.scaled"] == sp.Matrix([[sp.sqrt(2) / 2, 0], [0, sp.sqrt(2) / 2]])
    assert d["head1.weights"][0, 0] == a / (1 + a)
    assert d["head1.weights"][0, 1] == 1 / (1 + a)
    assert d["head2.output"] == d["head1.output"]
    assert list(d)[:3] == ["x", "head1.x", "head2.x"]


def test_one_token_heads_output_their_value_rows():
    d = derive(AttentionSpec.example("one-token"))
    assert d["head1.weights"] == sp.Matrix([[1]])
    assert d["head1.output"] == sp.Matrix([[4, 11]])
    assert d["head2.output"] == sp.Matrix([[6, 9]])
    assert d["output"] == sp.Matrix([[4, 11, 6, 9]])


def test_eight_tokens_split_keeps_symbols_and_shapes():
    d = derive(AttentionSpec.example("eight-tokens-split"))
    assert d["head1.x"].shape == (8, 2)
    assert d["head1.weights"].shape == (8, 8)
    assert d["concat"].shape == (8, 4)
    assert d["output"].shape == (8, 4)
    w = sp.Symbol("W_{Q1,11}")
    assert w in d["head1.q"].free_symbols
    assert d["head1.q"][0, 0] == sp.Rational(1, 5) * w + sp.Rational(1, 2) * sp.Symbol("W_{Q1,21}")
    # each softmax row sums to exactly 1 (checked at one random point of the weights)
    point = {s: sp.Rational(i % 5 - 2, 3) for i, s in enumerate(sorted(d.free_symbols, key=str))}
    row = d["head2.weights"].row(3).subs(point)
    assert abs(sp.N(sum(row), 40) - 1) < sp.Float("1e-35")


def test_pytorch_style_uses_transposed_weights_and_fused_heads():
    spec = AttentionSpec.example("pytorch-style")
    d = derive(spec)
    assert list(d)[:4] == ["x", "q", "k", "v"]
    assert d["q"] == spec.query * spec.weights["w_q"][0].T
    assert d["head2.q"] == d["q"][:, 3:6]
    assert d["head1.scaled"] == d["head1.scores"] / sp.sqrt(3)
    assert d["output"].shape == (4, 6)


@pytest.mark.parametrize("name", example_names())
def test_an_example_s_words_hold_no_raw_latex_name(name: str) -> None:
    """A description is prose a student reads in every format: W_O written with an
    underscore prints as 'W_O' in the PDF, so the words say 'the output projection'."""
    spec = AttentionSpec.example(name)
    texts = [spec.description, *(t.get("description", "") for t in spec.translations.values())]
    assert [t for t in texts if re.search(r"[A-Za-z]_[A-Za-z{]|\^T\b", t)] == []


def _causal_dropout_file() -> dict:
    """The example's own TOML, read without the spec reader (the oracles below start from it)."""
    import sys
    from importlib import resources

    tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
    text = resources.files("mha_symbolic").joinpath("examples/causal-dropout.toml").read_text()
    return tomllib.loads(text)


def test_causal_dropout_is_exact_in_e():
    d = derive(AttentionSpec.example("causal-dropout"))
    R = sp.Rational
    assert d["head1.scores"] == sp.Matrix([[1, 0, 1], [0, 1, 1], [1, 1, 2]])
    assert d["head1.kept"].row(1) == sp.Matrix([[1 / (1 + 2 * E), E / (1 + 2 * E), 0]])
    assert d["head1.renormalised"] == sp.Matrix(
        [[1, 0, 0], [1 / (1 + E), E / (1 + E), 0], [1 / (2 + E), 1 / (2 + E), E / (2 + E)]]
    )
    assert str(d["head1.renormalised"][1, 1]) == "E/(1 + E)"
    assert d["head1.dropped"] == sp.Matrix(
        [[2, 0, 0], [0, 2 * E / (1 + E), 0], [2 / (2 + E), 0, 2 * E / (2 + E)]]
    )
    assert sp.simplify(d["output"] - d["head1.dropped"] * d["head1.v"]) == sp.zeros(3, 2)
    assert sp.simplify(d["output"][2, 0] - 2 * (1 + E) / (2 + E)) == 0
    assert list(d)[7:11] == ["head1.kept", "head1.renormalised", "head1.dropped", "head1.output"]
    assert AttentionSpec.example("causal-dropout").dropout.p == R(1, 2)


def test_causal_dropout_matches_numpy_and_torch():
    """From the file's x, p and keep: the softmax masked after it and renormalised is torch's
    softmax of the scores masked with -inf before it; dropout is the weights times keep / (1-p),
    as numpy computes it (torch's own dropout is random: its draw is not this one)."""
    np = pytest.importorskip("numpy")
    raw = _causal_dropout_file()
    x = np.array(raw["x"], dtype=float)
    p = float(raw["dropout"]["p"])
    keep = np.array(raw["dropout"]["keep"], dtype=float)
    scores = x @ x.T  # identity projections, no scaling
    full = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    tril = np.tril(np.ones((3, 3)))
    kept = full * tril
    renormalised = kept / kept.sum(axis=1, keepdims=True)
    dropped = renormalised * keep / (1 - p)
    d = derive(AttentionSpec.example("causal-dropout"))
    exact = {k: np.array(d[k].evalf(30).tolist(), dtype=float) for k in d}
    assert np.allclose(exact["head1.weights"], full, rtol=0, atol=1e-15)
    assert np.allclose(exact["head1.kept"], kept, rtol=0, atol=1e-15)
    assert np.allclose(exact["head1.renormalised"], renormalised, rtol=0, atol=1e-15)
    assert np.allclose(exact["head1.dropped"], dropped, rtol=0, atol=1e-15)
    assert np.allclose(exact["output"], dropped @ x, rtol=0, atol=1e-15)
    torch = pytest.importorskip("torch", reason="torch is optional")
    s = torch.tensor(scores, dtype=torch.float64)
    causal = torch.ones(3, 3, dtype=torch.bool).tril()
    before = torch.softmax(s.masked_fill(~causal, float("-inf")), dim=-1)
    assert torch.allclose(torch.tensor(exact["head1.renormalised"]), before, rtol=0, atol=1e-15)
    t = torch.tensor(x)[None]  # queries, keys and values: X itself
    attended = torch.nn.functional.scaled_dot_product_attention(t, t, t, is_causal=True, scale=1.0)
    assert torch.allclose(torch.tensor(renormalised @ x), attended[0], rtol=0, atol=1e-15)


@pytest.mark.parametrize("name", example_names())
def test_the_whole_block_is_said_once_one_line_a_head_and_one_for_the_output(name: str) -> None:
    """In the summary's closed form only (the output step's key insight said it again, and
    causal-dropout's, one head, spoke of "every other head"): a line per head, then O."""
    spec = AttentionSpec.example(name)
    md = derive(spec).to_markdown()
    assert md.count("The whole block") == 1 and "every other head" not in md
    closed = md.split("The whole block in one line:")[1].split("\\end{aligned}")[0]
    lines = [line for line in closed.splitlines() if line.startswith("&")]
    assert len(lines) == spec.heads + 1 and lines[-1].startswith("&O = ")


def test_the_summary_lists_the_steps_after_the_softmax() -> None:
    """causal-dropout's table of shapes has a row for the weights masked and renormalised and
    one for the dropout (it jumped from the attention to the concatenation)."""
    md = derive(AttentionSpec.example("causal-dropout")).to_markdown()
    table = md[md.index("complete pipeline") :]
    rows = [line for line in table.splitlines() if line.startswith("| ")]
    operations = [row.split("|")[2].strip() for row in rows[1:]]
    attention = operations.index("Scaled dot-product attention")
    assert operations[attention + 1 : attention + 3] == [
        "Weights masked after the softmax, rows renormalised",
        "Dropout on the weights (the output is made of them)",
    ]
    two = derive(AttentionSpec.example("two-tokens")).to_markdown()
    assert "renormalised" not in two[two.index("complete pipeline") :]
