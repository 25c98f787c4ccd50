"""The solution writes sums as the documents do (RoPE's cos before sin) and its closing
insight in the solution's own names and steps (Z_1, rotated queries), never a generic head_i
that is not what this attention computes."""

from __future__ import annotations

import re

import sympy as sp

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.solution import latex


def test_each_angle_s_cosine_comes_before_its_sine_the_first_pair_first():
    assert latex.exact(-sp.sin(2) + sp.cos(2)) == r"\cos 2 - \sin 2"
    two_pairs = sp.sin(sp.Rational(1, 50)) + sp.cos(2) - sp.sin(2) + sp.cos(sp.Rational(1, 50))
    assert latex.exact(two_pairs) == (
        r"\cos 2 - \sin 2 + \cos{\left(\frac{1}{50} \right)} + \sin{\left(\frac{1}{50} \right)}"
    )
    assert latex.exact(1 - sp.cos(1)) == r"1 - \cos 1"
    assert latex.exact(sp.Symbol("x") + 1) == "x + 1"  # no angle: as SymPy orders it


def test_rope_s_entries_read_cos_then_sin():
    md = derive(AttentionSpec.example("rope")).to_markdown()
    # the recurring angle 1/100 is named, as a teacher names it: cos(1/50) is cos 2 varphi
    assert r"- Let $\varphi = \frac{1}{100}$: the angle that recurs below" in md
    assert r"\cos \varphi - \sin \varphi" in md
    assert r"\cos 2 \varphi + \sin 2 \varphi" in md
    assert r"\frac{1}{100} \right)}" not in md.split("## Input")[1]
    assert r"- \sin \varphi + \cos" not in md
    assert not re.search(r"- \\sin 2 \+ \\cos 2(?! \\varphi)", md)
    # one form for a whole-number angle and a named one: cos 2 beside cos 2 varphi, never
    # cos(2); in an exponent, a bare cosine over a number is bracketed: (cos 1)/2, not cos 1/2
    assert r"\cos 2 - \sin 2 & \cos 2 \varphi - \sin 2 \varphi" in md
    assert r"\left(2 \right)" not in md and r"\left(1 \right)" not in md
    assert r"e^{- \cos 2 + \left(\cos 1\right)/2 - \left(\sin 1\right)/2}" in md


def test_the_whole_block_is_said_in_the_solution_s_own_names_and_steps():
    """In the summary's closed form, once: the output step said it again as a key insight."""
    eight = derive(AttentionSpec.example("eight-tokens-split")).to_markdown()
    assert (
        r"&\mathrm{Output}_{2} = \operatorname{softmax}\left(\frac{Q_{2} K_{2}^{\top}}"
        r"{\sqrt{d_{k}}}\right) V_{2} \\"
        "\n"
        r"&O = \operatorname{Concat}\left(\mathrm{Output}_{1}, \mathrm{Output}_{2}\right) W_{O}"
        "\n"
    ) in eight
    pytorch = derive(AttentionSpec.example("pytorch-style")).to_markdown()
    assert (
        r"&O = \operatorname{Concat}\left(\mathrm{head}_{1}, \mathrm{head}_{2}\right) W_{O}^{\top}"
        "\n"
    ) in pytorch
    for md in (eight, pytorch):
        output = md.split('<a id="output"></a>')[1].split("## Summary")[0]
        assert "Key insight" not in output and "What if we didn't?" in output
        assert md.count("The whole block") == 1


def test_without_an_output_projection_the_whole_block_is_said_once_in_the_summary():
    """O = C: the output step writes only that (rope's printed C's matrix again, and a key
    insight that the summary's closed form repeated); the summary's last line is the output."""
    rope = derive(AttentionSpec.example("rope")).to_markdown()
    output = rope.split('<a id="output"></a>')[1].split("## Summary")[0]
    assert "Key insight" not in output and r"\approx" not in output
    assert "O &= C\n" in output
    assert rope.count("The whole block") == 1
    assert (
        r"&\mathrm{head}_{2} = \operatorname{softmax}\left(\frac{\hat{Q}_{2} \hat{K}_{2}^{\top}}"
        r"{\sqrt{d_{k}}}\right) V_{2} \\"
        "\n"
        r"&O = \operatorname{Concat}\left(\mathrm{head}_{1}, \mathrm{head}_{2}\right)"
        "\n"
    ) in rope
    one_head = derive(AttentionSpec.example("causal-dropout")).to_markdown()
    assert "&O = \\mathrm{head}_{1}\n" in one_head  # not Concat(head_1)


def test_an_output_with_w_o_unknown_defines_the_whole_block_once_in_its_box():
    """one-token's output step said the whole block as a key insight, its box again ("It
    defines O = Concat(head_1, head_2) W_O") and the summary a third time: the box and the
    summary say it."""
    for name in ("one-token", "split-scaled"):
        md = derive(AttentionSpec.example(name)).to_markdown()
        output = md.split('<a id="output"></a>')[1].split("## Summary")[0]
        assert "Key insight" not in output and "The document defines $O = " in output
        assert "The whole block in one line" in md and "The whole block:" not in md


def test_a_head_s_slice_of_the_projected_queries_has_no_what_if_of_projections():
    """pytorch-style's "Queries, head 1" only cuts Q: its "what if we didn't? Without
    projections ..." repeated the query projection's, said just before."""
    md = derive(AttentionSpec.example("pytorch-style")).to_markdown()
    assert "Without projections every head" not in md
    assert "**What if we didn't?** Without a projection the raw embeddings" in md
    two = derive(AttentionSpec.example("two-tokens")).to_markdown()
    queries = two.split('<a id="head2.q"></a>')[1].split("<a id=")[0]  # head 1's is X itself
    assert "**What if we didn't?** Without projections every head" in queries


def test_a_head_s_columns_are_counted_as_a_reader_counts_them():
    """'columns 0 to 1, counting from 0' read as a program's index: a head's columns are
    counted from 1, and the slice below them is said to count from 0."""
    split = derive(AttentionSpec.example("split-scaled")).to_markdown()
    assert (
        "Head 2 takes its own 2 columns of $X$, columns 3 to 4 (the slice below counts from 0, "
        "as Python does)." in split
    )
    assert r"X_{2} &= X[:,\, 2{:}4]" in split
    pytorch = derive(AttentionSpec.example("pytorch-style")).to_markdown()
    assert "Head 2's slice of $K$: columns 4 to 6." in pytorch


def test_a_masked_head_s_output_is_not_a_blend_of_all_value_rows():
    """causal-dropout's and alibi's first token sees only its own value row: "a blend of all
    value rows" was not true there."""
    for name in ("causal-dropout", "alibi"):
        md = derive(AttentionSpec.example(name)).to_markdown()
        assert "blend of all value rows" not in md
        assert "a blend of only the value rows its mask lets it see" in md
    assert "blend of all value rows" in derive(AttentionSpec.example("rope")).to_markdown()


def test_the_what_if_of_projections_is_said_where_a_projection_does_something():
    """Not at an identity weight (temperature's, split-scaled's: X itself), and with one head
    not of "every head" (there is no other); two-tokens says it at head 2's swap."""
    for name in ("temperature", "split-scaled", "causal-dropout"):
        assert "Without projection" not in derive(AttentionSpec.example(name)).to_markdown()
    two = derive(AttentionSpec.example("two-tokens")).to_markdown()
    queries = two.split('<a id="head2.q"></a>')[1].split("<a id=")[0]
    assert "Without projections every head would see the same vectors" in queries
    one_head = AttentionSpec.from_dict(
        {"heads": 1, "x": [[1, 0], [0, 1]], "weights": {"w_q": [[[1, 1], [0, 1]]]}}
    )
    md = derive(one_head).to_markdown()
    assert "**What if we didn't?** Without a projection the raw embeddings" in md
    assert "every head" not in md


def test_the_weights_are_learned_is_said_at_the_first_projection_not_at_the_input():
    """At the Input step, "the weight matrices are learned during training" came before any
    weight; it is said at the first queries a head projects (pytorch-style's projection says
    its own)."""
    two = derive(AttentionSpec.example("two-tokens")).to_markdown()
    assert two.count("learned during training") == 1
    queries = two.split('<a id="head1.q"></a>')[1].split("<a id=")[0]
    assert "**Key insight:** The weight matrices are learned during training" in queries
    pytorch = derive(AttentionSpec.example("pytorch-style")).to_markdown()
    assert "learned during training" not in pytorch
    assert "Picture it:** A query is the question a token asks" in pytorch


def test_split_heads_see_their_own_columns_and_their_weights_are_noted_once():
    """eight-tokens-split's heads each see their own columns of X, so "without projections
    every head would see the same vectors" was false there; and head 2's weights repeated
    head 1's two notes (their printed shape, their symbols) word for word."""
    md = derive(AttentionSpec.example("eight-tokens-split")).to_markdown()
    assert "every head would see the same vectors" not in md
    assert "**What if we didn't?** Without a projection the raw embeddings" in md
    assert md.count("are symbolic: $W_{Qh,ij}$ is entry $(i, j)$ of head $h$") == 1
    assert md.count("the shape $(4, 2)$, but the products it then computes") == 1
