"""A spec's ``[names]``: steps written under the document's own names (seed 003's Z_1, Z_2) in
every format; a key that is no step, or a bad name, is one line naming the file and field."""

from __future__ import annotations

import pytest

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.cli import main
from mha_symbolic.errors import SpecError
from mha_symbolic.spec.step_names import latex_name

SPEC = """x = [[1, 0, 1, 0], [0, 1, 0, 1]]
heads = 2
layout = "split"
[names]
{names}
"""


def _spec(tmp_path, names: str):
    path = tmp_path / "spec.toml"
    path.write_text(SPEC.format(names=names))
    return path


@pytest.mark.parametrize(
    ("written", "latex"),
    [
        ("Z_1", "Z_{1}"),
        ("Z_{1}", "Z_{1}"),
        ("Z₁", "Z_{1}"),
        ("S'_2", "S'_{2}"),
        ("Scores_1", r"\mathrm{Scores}_{1}"),
        (r"\text{Scores}_1", r"\mathrm{Scores}_{1}"),
        ("MultiHead", r"\mathrm{MultiHead}"),
        ("W_{Q1,12}", "W_{Q1,12}"),
    ],
)
def test_a_name_is_stored_as_the_latex_its_formulas_print(written, latex):
    assert latex_name(written, "names.concat") == latex


def test_split_scaled_writes_the_head_outputs_as_seed_003_does(capsys):
    assert main(["derive", "--example", "split-scaled", "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert "    Z₁ = A₁ V₁\n" in out and "    Z₂ = A₂ V₂\n" in out
    assert "    C = Concat(Z₁, Z₂)\n" in out
    assert "The document takes Z₂ = [[0.60, 0.40], [0.40, 0.60]]." in out
    assert "The document defines O = Concat(Z₁, Z₂) W_O." in out
    assert "head₁" not in out


@pytest.mark.parametrize(
    ("fmt", "written"),
    [
        ("md", r"Z_{1} &= A_{1} V_{1} \\"),
        ("tex", r"\chainline{Z_{1} = A_{1} V_{1}}"),
        ("html", "<mi>Z</mi><mrow><mn>1</mn></mrow></msub><mo>&#x0003D;</mo><msub><mi>A</mi>"),
    ],
)
def test_every_format_writes_the_document_s_name(capsys, fmt, written):
    assert main(["derive", "--example", "split-scaled", "--format", fmt]) == 0
    assert written in capsys.readouterr().out


def test_names_reach_the_derivation_s_steps():
    spec = AttentionSpec.from_dict(
        {"x": [[1, 0], [0, 1]], "names": {"head1.output": "Z_1", "concat": "Merged"}}
    )
    d = derive(spec)
    assert d.step("head1.output").symbol.name == "Z_{1}"
    assert d.step("concat").symbol.name == r"\mathrm{Merged}"
    assert d.step("head1.weights").symbol.name == "A_{1}"


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (
            '"head3.output" = "Z_3"',
            "names.head3.output: the attention has no step 'head3.output' "
            "(did you mean 'head2.output'?)",
        ),
        ('"x" = "E"', "names.x: a given input keeps its name"),
        (
            '"head1.output" = "A_1"',
            "names.head1.output = 'A_{1}' is already the name of head1.weights; give another",
        ),
        (
            '"head1.output" = "Z_1"\n"head2.output" = "Z_1"',
            "names.head1.output = 'Z_{1}' is already the name of head2.output; give another",
        ),
        (
            '"head1.output" = "Z 1"',
            "names.head1.output = 'Z 1' is not a name: give a letter or a word, then at most two "
            "primes and a subscript (Z_1, Z_{1}, Scores_1)",
        ),
        ('"head1.output" = 1', 'names.head1.output must be text, as "Z_1"; got 1'),
        (
            '"Head 1" = "Z_1"',
            "names: 'Head 1' is not a step key (head1.output, concat, ...)",
        ),
    ],
)
def test_a_bad_name_is_one_line_naming_the_file_and_the_field(tmp_path, capsys, names, message):
    path = _spec(tmp_path, names)
    assert main(["derive", str(path), "--format", "text"]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"mha-symbolic: {path}: {message}\n"
    assert captured.out == ""


def test_names_that_are_not_a_table_are_refused():
    with pytest.raises(SpecError) as error:
        AttentionSpec.from_dict({"x": [[1]], "names": "Z"})
    assert str(error.value) == (
        '<dict>: names must be a table of step keys, as "head1.output" = "Z_1"; got \'Z\''
    )


def test_eight_tokens_split_writes_seed_002_s_names_with_brackets_around_words():
    md = derive(AttentionSpec.example("eight-tokens-split")).to_markdown()
    assert r"\mathrm{Attention}_{1} &= \operatorname{softmax}\left(\mathrm{Scores}_{1}\right)" in md
    # a thin space beside a word: MultiHead W_O, not MultiHeadW_O
    assert "\\mathrm{Output}_{1} &= \\mathrm{Attention}_{1}\\, V_{1}\n" in md
    assert "O &= \\mathrm{MultiHead}\\, W_{O}\n" in md
    assert (
        r"\mathrm{MultiHead} &= \operatorname{Concat}\left(\mathrm{Output}_{1}, "
        r"\mathrm{Output}_{2}\right) \\"
    ) in md
    # an entry of a named matrix: the word in brackets, as a lone letter is not
    assert r"\sum_{k=1}^{4} \left(\mathrm{MultiHead}\right)_{ik} \left(W_{O}\right)_{kj}" in md


def test_scores_a_document_leaves_unnamed_beside_its_named_scaled_scores_are_q_k_transposed():
    """Seed 002 writes Scores_1 = (Q_1 K_1^T) / sqrt(d_k) and no name for Q_1 K_1^T: the
    solution's own S_1 beside the document's Scores_1 read as two names for one quantity. The
    unscaled scores are written as the product (no "Q_1 K_1^T = Q_1 K_1^T"); named by the
    document, or with the scaled scores unnamed, they keep their name."""
    raw = {"x": [[1, 0], [0, 1]], "heads": 2, "layout": "split"}
    scaled = derive(AttentionSpec.from_dict({**raw, "names": {"head1.scaled": "Scores_1"}}))
    assert scaled.step("head1.scores").symbol.name == r"Q_{1} K_{1}^{\top}"
    assert scaled.step("head2.scores").symbol.name == "S_{2}"  # its scaled scores keep S'_2
    md = scaled.to_markdown()
    assert r"Q_{1} K_{1}^{\top} &= Q_{1} K_{1}^{\top}" not in md
    assert r"Q_{1} K_{1}^{\top} &= \begin{bmatrix}" in md
    assert r"\mathrm{Scores}_{1} &= \frac{Q_{1} K_{1}^{\top}}{\sqrt{d_{k}}}" in md
    both = {"head1.scaled": "Scores_1", "head1.scores": "R_1"}
    named = derive(AttentionSpec.from_dict({**raw, "names": both}))
    assert named.step("head1.scores").symbol.name == "R_{1}"
    assert derive(AttentionSpec.from_dict(raw)).step("head1.scores").symbol.name == "S_{1}"
    text = derive(AttentionSpec.example("eight-tokens-split")).to_markdown()
    assert "S_{1}" not in text and "S_{2}" not in text
