"""The view model of a worked solution: typed, frozen blocks with the exact text they print."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from mha_symbolic.check.judge import check
from mha_symbolic.exact.evaluate import derive
from mha_symbolic.solution.blocks import build
from mha_symbolic.solution.view import (
    Assumption,
    Given,
    Heading,
    Mark,
    Options,
    StepBlock,
    SummaryRow,
)
from mha_symbolic.spec.attention import AttentionSpec


@pytest.fixture(scope="module")
def two():
    return build(derive(AttentionSpec.example("two-tokens")), Options())


def test_blocks_come_in_the_order_a_template_prints_them(two):
    kinds = [(type(b).__name__, getattr(b, "key", None)) for b in two.blocks[:5]]
    assert kinds == [
        ("StepBlock", "x"),
        ("Heading", None),
        ("Given", None),
        ("StepBlock", "head1.q"),
        ("StepBlock", "head1.k"),
    ]
    assert two.blocks[1] == Heading("Head 1")
    assert two.blocks[2] == Given(
        "Weights of head 1",
        (
            r"W_{Q}^{1} = \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}",
            r"W_{K}^{1} = \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}",
            r"W_{V}^{1} = \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}",
        ),
    )


def test_a_step_block_holds_its_formula_substitution_exact_value_and_decimals(two):
    block = two.steps()["head1.weights"]
    assert (block.type, block.kind, block.head, block.title) == (
        "step",
        "softmax",
        1,
        "Attention weights, head 1",
    )
    assert block.formula == r"\operatorname{softmax}\left(S'_{1}\right)"
    assert block.substituted == (
        r"\operatorname{softmax}\left(\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}\right)"
    )
    assert block.exact == (
        r"\begin{bmatrix} \frac{e}{1 + e} & \frac{1}{1 + e} \\ "
        r"\frac{1}{1 + e} & \frac{e}{1 + e} \end{bmatrix}"
    )
    assert block.approx == r"\begin{bmatrix} 0.73 & 0.27 \\ 0.27 & 0.73 \end{bmatrix}"
    assert block.lines == (block.formula, block.substituted, block.exact)
    assert (block.shape, block.entry, block.marks) == ("(2, 2)", None, ())
    assert block.notes[0].startswith("What if the scores were scaled by the standard")


def test_an_input_has_no_formula_and_lists_its_tokens(two):
    block = two.steps()["x"]
    assert (block.formula, block.substituted) == (None, None)
    assert block.lines == (block.exact,)
    assert [(t.index, t.label, t.row) for t in block.tokens] == [
        (1, "I", r"\left[1,\; 0\right]"),
        (2, "love", r"\left[0,\; 1\right]"),
    ]


def test_marks_sit_at_their_step_with_their_reason_in_plain_words():
    # one-token's concat row is its two assumed head outputs side by side: it holds under the
    # document's assumption, and the box says so rather than calling it wrong.
    d = derive(AttentionSpec.example("one-token"))
    solution = build(d, Options(marks=check(d).marks()))
    assert solution.steps()["concat"].marks == (
        Mark(
            key="concat[1]",
            kind="follows",
            title="This number follows the document's own assumption.",
            claimed="[0.5, 1.2, -0.4, 2.3]",
            verdict="as assumed",
            exact_is="from the given inputs and weights it is",
            exact=r"\begin{bmatrix} 4 & 11 & 6 & 9 \end{bmatrix}",
            approx=None,
            diagnosis=None,
            claimed_math=r"\left[0.5,\; 1.2,\; -0.4,\; 2.3\right]",
            sentence=r"The document prints $\left[0.5,\; 1.2,\; -0.4,\; 2.3\right]$ here: the "
            "concatenation is right given the assumed head outputs, which the given weights do not "
            r"produce ($\left[4,\; 11\right]$ and $\left[6,\; 9\right]$).",
        ),
    )


def test_a_concat_row_wrong_in_a_head_nobody_assumed_is_called_wrong():
    d = derive(AttentionSpec.example("two-tokens"))
    marks = check(d, {"concat[1]": "[0.73, 0.27, 0.5, 0.5]"}).marks()
    (mark,) = build(d, Options(marks=marks)).steps()["concat"].marks
    assert (mark.kind, mark.title, mark.verdict, mark.exact_is) == (
        "wrong",
        "The document prints a wrong number here.",
        "wrong",
        "the exact value is",
    )
    assert mark.diagnosis == (
        "The concatenation only places the head outputs side by side; the printed row differs "
        "in the columns of head 2, so it carries a head output other than the one computed above."
    )


def test_assumed_numbers_are_said_at_their_step_with_what_the_weights_give():
    d = derive(AttentionSpec.example("one-token"))
    (assumption,) = build(d, Options()).steps()["head1.output"].assumptions
    assert assumption == Assumption(
        key="head1.output[1]",
        symbol=r"\mathrm{head}_{1}[1]",
        assumed=r"\begin{bmatrix} 0.5 & 1.2 \end{bmatrix}",
        lines=(
            "The given inputs and weights determine it: they give "
            r"$\mathrm{head}_{1}[1] = \begin{bmatrix} 4 & 11 \end{bmatrix}$.",
            "There is only one token, so its only attention weight is exactly 1 and head 1's "
            r"output is its value row, $V_{1} = \left[4,\; 11\right]$.",
        ),
    )


def test_an_assumption_without_weights_says_what_it_would_take():
    d = derive(AttentionSpec.example("split-scaled"))
    (assumption,) = build(d, Options()).steps()["head2.output"].assumptions
    assert assumption.lines[0].startswith("It does not give head 2's projections")
    assert r"$\Delta = \ln\left(\tfrac{3}{2}\right) \approx 0.405$" in assumption.lines[1]


def test_summary_and_setup_are_typed(two):
    assert two.summary.rows[0] == SummaryRow(0, "Input", "(L, E)", "(2, 2)")
    assert two.setup[:2] == (
        "Sequence length $L = 2$ (tokens).",
        r"Model dimension $d_{\text{model}} = 2$.",
    )
    assert two.limit is None


def test_blocks_are_frozen(two):
    block = two.steps()["x"]
    assert isinstance(block, StepBlock)
    with pytest.raises(dataclasses.FrozenInstanceError):
        block.caption = "changed"  # type: ignore[misc]


def test_the_view_model_does_not_import_jinja2():
    code = (
        "import sys, mha_symbolic.solution.blocks, mha_symbolic.solution.view; "
        "print('jinja2' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout == "False\n"
