"""Every node kind: its exact LaTeX and its exact NumPy code, as tables (latexify's style)."""

from __future__ import annotations

import pytest
import sympy as sp

from mha_symbolic import AttentionSpec
from mha_symbolic.model.nodes import (
    BatchSum,
    EntrySum,
    HalfSquaredNorm,
    HeadOf,
    MergeHeads,
    OnesLike,
    PadColumns,
    SplitHeads,
    StackHeads,
)
from mha_symbolic.model.program import HEAD_STEPS, SOURCE, build
from mha_symbolic.numeric.codegen import ArrayPrinter
from mha_symbolic.operations.rope import Rope
from mha_symbolic.operations.softmax import RowSoftmax, SoftmaxBackward
from mha_symbolic.solution.latex import formula
from mha_symbolic.spec.attention import example_names

A, G = sp.MatrixSymbol("A", 3, 3), sp.MatrixSymbol("G", 3, 3)
X, W = sp.MatrixSymbol("X", 3, 4), sp.MatrixSymbol("W", 4, 4)
NAMES = {A: "a", G: "g", X: "x", W: "w"}

MATRIX_NODES = [
    (RowSoftmax(A), r"\operatorname{softmax}\left(A\right)", "softmax(a.copy())"),
    (
        RowSoftmax(sp.MatAdd(A, G, evaluate=False)),
        r"\operatorname{softmax}\left(A + G\right)",
        "softmax(a.copy(), g)",
    ),
    (
        sp.MatMul(RowSoftmax(A), X, evaluate=False),
        r"\operatorname{softmax}\left(A\right) X",
        "softmax(a.copy(), right=x)",
    ),
    (SplitHeads(X, 2), r"\operatorname{split}_{2}\left(X\right)", "split_heads(x, 2)"),
    (MergeHeads(X, 2), r"\operatorname{concat}\left(X\right)", "merge_heads(x)"),
    (StackHeads(W, W), r"\operatorname{stack}\left(W, W\right)", "stack_heads(w, w)"),
    (
        SoftmaxBackward(A, G),
        r"A \circ \left(G - \left(A \circ G\right) \mathbf{1}\mathbf{1}^{\top}\right)",
        "softmax_backward(a, g)",
    ),
    (HeadOf(X, 1), r"\left[X\right]_{2}", "x[..., 1, :, :]"),
    (BatchSum(W), r"\sum_{b} W", "batch_sum(w)"),
    (PadColumns(X, 1, 2), r"\left[0 \mid X \mid 0\right]", "pad_columns(x, 1, 2)"),
    (OnesLike(X), r"\mathbf{1}", "ones_like(x)"),
    (EntrySum(X), r"\mathbf{1}^{\top} X \mathbf{1}", "entry_sum(x)"),
    (HalfSquaredNorm(X), r"\frac{1}{2} \left\lVert X \right\rVert^{2}", "half_squared_norm(x)"),
    (
        Rope(X, 10000, "halves"),
        r"\operatorname{RoPE}\left(X\right)",
        "rope(x, 10000.0, 'halves', 1)",
    ),
    (
        Rope(X, 100, "interleaved", -1),
        r"\operatorname{RoPE}^{\top}\left(X\right)",
        "rope(x, 100.0, 'interleaved', -1)",
    ),
]


@pytest.mark.parametrize(("node", "latex", "code"), MATRIX_NODES)
def test_matrix_node_prints_latex_and_code(node: sp.Basic, latex: str, code: str) -> None:
    assert sp.latex(node) == latex
    assert ArrayPrinter(NAMES).doprint(node) == code


# The model's program of one masked head with RoPE, a query bias and W_O: each node's key,
# kind, paper formula (as the worked solution prints it) and computation (as code prints it).
MODEL_NODES = [
    ("x", "input", "X", "x"),
    ("head1.q", "project", r"X W_{Q}^{1} + \mathbf{1} b_{Q}^{1}", "x @ w_q + b_q"),
    ("head1.k", "project", r"X W_{K}^{1}", "x @ w_k"),
    ("head1.v", "project", r"X W_{V}^{1}", "x @ w_v"),
    (
        "head1.q_rot",
        "rope",
        r"\operatorname{RoPE}\left(Q_{1}\right)",
        "rope(q, 10000.0, 'halves', 1)",
    ),
    (
        "head1.k_rot",
        "rope",
        r"\operatorname{RoPE}\left(K_{1}\right)",
        "rope(k, 10000.0, 'halves', 1)",
    ),
    ("head1.scores", "scores", r"\hat{Q}_{1} \hat{K}_{1}^{\top}", "q_rot @ k_rot.swapaxes(-1, -2)"),
    (
        "head1.scaled",
        "scale",
        r"\frac{\hat{Q}_{1} \hat{K}_{1}^{\top}}{\sqrt{d_{k}}}",
        "((1/math.sqrt(param_d_k)) * scores)",
    ),
    ("head1.masked", "mask", "M + S'_{1}", "scaled + mask"),
    (
        "head1.weights",
        "softmax",
        r"\operatorname{softmax}\left(\tilde{S}_{1}\right)",
        "softmax(masked.copy())",
    ),
    ("head1.output", "attend", "A_{1} V_{1}", "weights @ v"),
    (
        "concat",
        "concat",
        r"\operatorname{Concat}\left(\mathrm{head}_{1}\right)",
        "concat_columns(output)",
    ),
    ("output", "output", "C W_{O}", "concat @ w_o"),
]


def test_model_nodes_of_one_head_with_every_kind() -> None:
    spec = AttentionSpec(
        x=[[1, 0], [0, 1]],
        mask="causal",
        rope=True,
        weights={"w_o": [[1, 0], [0, 1]], "b_q": [1, 0]},
    )
    program = build(spec)
    names = {leaf.symbol: leaf.role for leaf in program.leaves}
    names.update({n.symbol: n.key.replace("head1.", "").replace(".", "_") for n in program})
    printer = ArrayPrinter(names)
    got = [(n.key, n.kind, formula(n.formula), printer.doprint(n.expr)) for n in program]
    assert got == MODEL_NODES


HEAD_SPECS = [
    *(AttentionSpec.example(name) for name in example_names()),
    AttentionSpec(x=[[1, 0], [0, 1]], mask="causal", rope=True, weights={"b_q": [1, 0]}),
    AttentionSpec(q=[[1, 0]], k=[[1, 0]], v=[[2]], rope=True),
    AttentionSpec(scores=[[1, 2], [3, 4]], v=[[1, 0], [0, 1]], mask="causal"),
    AttentionSpec(attention_weights=[[1, 0], [0, 1]], v=[[4, 0], [0, 8]]),
    AttentionSpec(
        x=[[1, 0], [0, 1]], weights_mask="causal", dropout={"p": "1/2", "keep": [[1, 0], [1, 1]]}
    ),
]


@pytest.mark.parametrize("spec", HEAD_SPECS, ids=lambda s: s.title or "untitled")
def test_every_head_step_is_made_in_the_order_head_steps_writes(spec: AttentionSpec) -> None:
    program = build(spec)
    slices = {"x", *SOURCE.values()}  # the split layout's input slices come before any head
    for head in program.heads():
        made = [n.key.split(".", 1)[1] for n in program if n.head == head]
        made = [stage for stage in made if stage not in slices]
        assert made == [stage for stage in HEAD_STEPS if stage in made]
        assert made[-1] == "output"


def test_head_steps_backwards_are_the_order_of_the_gradients() -> None:
    from mha_symbolic.exact import backward

    keys = sorted((f"grad.head1.{stage}" for stage in HEAD_STEPS), key=backward.order)
    assert [key.removeprefix("grad.head1.") for key in keys] == [
        *(
            "output",
            "v",
            "dropped",
            "renormalised",
            "kept",
            "weights",
            "masked",
            "bias",
            "scaled",
            "scores",
            "q_rot",
            "k_rot",
            "q",
            "k",
        )
    ]
