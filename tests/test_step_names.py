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
    assert "\\mathrm{Output}_{1} &= \\mathrm{Attention}_{1} V_{1}\n" in md
    assert (
        r"\mathrm{MultiHead} &= \operatorname{Concat}\left(\mathrm{Output}_{1}, "
        r"\mathrm{Output}_{2}\right) \\"
    ) in md
    # an entry of a named matrix: the word in brackets, as a lone letter is not
    assert r"\sum_{k=1}^{4} \left(\mathrm{MultiHead}\right)_{ik} \left(W_{O}\right)_{kj}" in md
