"""Exercise banks: reproducible nice variants, sheets with blanks, answer keys that check."""

from __future__ import annotations

import json
import re
import shutil
import sys
from fractions import Fraction

import pytest

from mha_symbolic import AttentionSpec, check, derive
from mha_symbolic.cli import main
from mha_symbolic.errors import SpecError
from mha_symbolic.exercises import bank as ex
from mha_symbolic.exercises import bank_writer

needs_pdflatex = pytest.mark.skipif(
    shutil.which("pdflatex") is None,
    reason="pdflatex is absent (apt-get install texlive-latex-base texlive-latex-recommended)",
)
EXAMPLES = ("two-tokens", "one-token", "split-scaled", "pytorch-style")
TWO_TOKENS_1_1 = """\
title = "Two tokens, two heads"
tokens = ["I", "love"]
heads = 2
layout = "per_head"
convention = "xW"
scale = "none"
mask = "none"
x = [[-1, 0], [0, 1]]

[weights]
w_q = [[[1, 0], [0, 1]], [[0, 1], [2, 0]]]
w_k = [[[2, 0], [0, 2]], [[0, -1], [1, 0]]]
w_v = [[[1, 0], [0, 1]], [[0, 2], [2, 0]]]
w_o = [["1/2", 0], [0, "1/2"], ["-1/2", 0], [0, "-1/2"]]

[translations]
bn = {title = "দুটি টোকেন, দুটি হেড"}
"""
TWO_TOKENS_1_1_ANSWERS = {
    "head1.q": "[[-1, 0], [0, 1]]",  # asked beside head2.q, which the document prints
    "head1.scores": "[[2, 0], [0, 2]]",
    "head1.weights": "[[0.88, 0.12], [0.12, 0.88]]",
    "head1.output": "[[-0.88, 0.12], [-0.12, 0.88]]",
    "head2.q": "[[0, -1], [2, 0]]",
    "head2.scores": "[[-1, 0], [0, 2]]",
    "head2.weights": "[[0.27, 0.73], [0.12, 0.88]]",
    "head2.output": "[[1.46, -0.54], [1.76, -0.24]]",
    "concat": "[[-0.88, 0.12, 1.46, -0.54], [-0.12, 0.88, 1.76, -0.24]]",
    "output": "[[-1.17, 0.33], [-0.94, 0.56]]",
}


@pytest.fixture(scope="module")
def raws():
    return {name: ex.load(example=name) for name in EXAMPLES}


def bank(tmp_path, name, count, seed, fmt="md", workers=1, **options):
    """Every file of a bank written into a new folder under ``tmp_path``, by relative path."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    folder = tmp_path / f"{name}-{seed}-{fmt}-{workers}"
    bank_writer.write_bank(
        folder, ex.load(example=name), count, seed, fmt, workers=workers, **options
    )
    paths = sorted(p for p in folder.rglob("*") if p.is_file())
    return {str(p.relative_to(folder)): p.read_bytes() for p in paths}


# ------------------------------------------------------------------ reproducible by seed
def test_same_seed_gives_byte_identical_files(tmp_path):
    first = bank(tmp_path / "a", "two-tokens", 3, seed=7, fmt="tex")
    again = bank(tmp_path / "b", "two-tokens", 3, seed=7, fmt="tex")
    assert first == again
    assert sorted(first) == [
        "bank.json", "bank.tex",
        "variant-001/answers.tex", "variant-001/sheet.tex", "variant-001/spec.toml",
        "variant-002/answers.tex", "variant-002/sheet.tex", "variant-002/spec.toml",
        "variant-003/answers.tex", "variant-003/sheet.tex", "variant-003/spec.toml",
    ]  # fmt: skip


def test_another_seed_gives_other_numbers(tmp_path):
    first = bank(tmp_path, "two-tokens", 3, seed=7)
    other = bank(tmp_path, "two-tokens", 3, seed=8)
    for index in (1, 2, 3):
        name = f"variant-00{index}/spec.toml"
        assert first[name] != other[name]


def test_variant_depends_only_on_seed_and_index(raws):
    alone = ex.make_variant(raws["two-tokens"], 1, 1, ex.ExerciseOptions())
    assert alone["variant-001/spec.toml"].decode() == TWO_TOKENS_1_1
    third = ex.make_variant(raws["two-tokens"], 1, 3, ex.ExerciseOptions())
    assert sorted(third) == [
        "variant-003/answers.md", "variant-003/sheet.md", "variant-003/spec.toml"
    ]  # fmt: skip


def test_workers_give_the_same_bank_as_one_process(tmp_path):
    one = bank(tmp_path, "two-tokens", 4, seed=2, workers=1)
    two = bank(tmp_path, "two-tokens", 4, seed=2, workers=2)
    assert one == two


# ------------------------------------------------------------------ structure and niceness
@pytest.mark.parametrize("name", EXAMPLES)
def test_variant_keeps_the_example_structure(raws, name):
    example = AttentionSpec.example(name)
    table, d, _ = ex.nice_variant(raws[name], 5, 1)
    spec = d.spec
    for field in ("heads", "kv_heads", "layout", "convention", "scale", "mask_kind", "tokens",
                  "key_tokens", "omitted", "symbolic", "title"):  # fmt: skip
        assert getattr(spec, field) == getattr(example, field), field
    assert sorted(spec.weights) == sorted(example.weights)
    for weight, matrices in example.weights.items():
        assert [m.shape for m in spec.weights[weight]] == [m.shape for m in matrices]
    reference = derive(example)
    assert [(s.key, s.shape) for s in d.steps] == [(s.key, s.shape) for s in reference.steps]
    assert "claims" not in table and "description" not in table
    # what the document printed of its weights speaks of the document, not of a variant
    assert "printed_shapes" not in table and "printed_transposed" not in table
    assert not spec.printed_shapes and not spec.printed_transposed


def test_zeros_stay_and_numbers_come_from_the_pools(raws):
    example = AttentionSpec.example("two-tokens")
    for index in range(1, 11):
        spec = ex.nice_variant(raws["two-tokens"], 3, index)[1].spec
        pairs = [(example.query, spec.query, ex.INTEGERS + ex.UNITS)]
        pairs += [(example.weights[w][h], spec.weights[w][h], ex.INTEGERS + ex.UNITS)
                  for w in ("w_q", "w_k", "w_v") for h in (0, 1)]  # fmt: skip
        pairs.append((example.weights["w_o"][0], spec.weights["w_o"][0], ex.HALVES))
        for before, after, pool in pairs:
            for old, new in zip(before, after):
                assert new == 0 if old == 0 else Fraction(str(new)) in pool


def test_niceness_rule_holds_for_every_variant(raws):
    limit = ex.width_limit(derive(AttentionSpec.example("two-tokens")))
    assert limit == ex.MIN_WIDTH == 8.0
    for index in range(1, 11):
        niceness = ex.niceness(ex.nice_variant(raws["two-tokens"], 1, index)[1])
        assert niceness.nice(limit)
        assert niceness.widest <= 8.0 and niceness.span <= 4 and niceness.varied


def test_niceness_measures_exact_values(raws):
    d = ex.nice_variant(raws["two-tokens"], 1, 1)[1]
    assert ex.niceness(d) == ex.Niceness(widest=7.5, span=2.0, varied=True)
    uniform = derive(AttentionSpec(x=[[1, 0], [1, 0]], heads=1, scale="none"))
    assert ex.niceness(uniform) == ex.Niceness(widest=1.0, span=0.0, varied=False)
    assert not ex.niceness(uniform).nice(8.0)
    wide = derive(AttentionSpec(x=[[3, 0], [0, 0]], heads=1, scale="none"))
    assert ex.niceness(wide) == ex.Niceness(widest=3.5, span=9.0, varied=True)
    assert not ex.niceness(wide).nice(8.0)


# ------------------------------------------------------------------ sheets and answer keys
def test_answer_key_prints_every_asked_step(raws):
    files = ex.make_variant(raws["two-tokens"], 1, 1, ex.ExerciseOptions())
    assert ex.printed_claims(files["variant-001/answers.md"].decode()) == TWO_TOKENS_1_1_ANSWERS


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_answer_key_holds_under_the_checker(tmp_path, name):
    count = 4 if name == "two-tokens" else 2
    files = bank(tmp_path, name, count, seed=11)
    index = json.loads(files["bank.json"])
    assert [v["index"] for v in index["variants"]] == list(range(1, count + 1))
    for variant in index["variants"]:
        d = derive(AttentionSpec.from_dict(variant["spec"]))  # bank.json re-derives it
        claims = ex.printed_claims(files[f"{variant['dir']}/answers.md"].decode())
        assert list(claims) == [s.key for s in ex.asked(ex.load(example=name), d)]
        report = check(d, claims)
        assert report.ok, report.to_text()


def test_tex_answer_key_prints_the_same_decimals(raws):
    md = ex.make_variant(raws["split-scaled"], 4, 2, ex.ExerciseOptions())
    tex = ex.make_variant(raws["split-scaled"], 4, 2, ex.ExerciseOptions(fmt="tex"))
    claims = ex.printed_claims(md["variant-002/answers.md"].decode())
    assert ex.printed_claims(tex["variant-002/answers.tex"].decode()) == claims
    assert claims["head1.weights"] == "[[0.94, 0.06], [0.33, 0.67]]"  # x_1 = [[2, 0], [0, 1]]


@pytest.mark.parametrize("name", EXAMPLES)
def test_sheet_has_a_blank_for_each_asked_step_and_no_answers(raws, name):
    files = ex.make_variant(raws[name], 2, 1, ex.ExerciseOptions())
    sheet = files["variant-001/sheet.md"].decode()
    d = ex.nice_variant(raws[name], 2, 1)[1]
    steps = ex.asked(raws[name], d)
    for number, step in enumerate(steps, start=1):
        rows, cols = step.shape
        blank = " \\\\ ".join([" & ".join([ex.blank_cell(step)] * cols)] * rows)
        assert f"**{number}. " in sheet and f"`{step.key}`" not in sheet  # no step keys
        assert "." not in step.key or step.key not in sheet
        assert f"{step.symbol.name} = \\begin{{bmatrix}} {blank} \\end{{bmatrix}}" in sheet
    assert sheet.count(r"\underline{\hspace{") == sum(s.shape[0] * s.shape[1] for s in steps)
    assert ex.printed_claims(sheet) == {}
    assert "\\approx" not in sheet


def test_asked_steps_without_claims_are_scores_weights_outputs(raws):
    d = derive(AttentionSpec.example("pytorch-style"))
    assert [s.key for s in ex.asked(raws["pytorch-style"], d)] == [
        "head1.scores", "head1.weights", "head1.output",
        "head2.scores", "head2.weights", "head2.output", "output",
    ]  # fmt: skip
    d = derive(AttentionSpec.example("split-scaled"))
    assert [s.key for s in ex.asked(raws["split-scaled"], d)] == [
        "head1.x",
        "head2.x",
        "head1.scores",
        "head1.scaled",
        "head1.weights",
        "head1.output",
        "head2.scores",  # every head is asked what head 1 is: even scaffolding
        "head2.scaled",
        "head2.weights",
        "head2.output",
        "concat",
        "output",
    ]  # fmt: skip  (head 2's output and the output are what the document assumes)


MASKED_CROSS = {
    "title": "Cross, masked",
    "tokens": ["a", "b"],
    "key_tokens": ["k1", "k2", "k3"],
    "heads": 1,
    "scale": "1/2",
    "mask": [[1, 1, 0], [0, 1, 1]],
    "query": [[1, 0], [0, 1]],
    "key": [[1, 1], [0, 1], [1, 0]],
    "value": [[1, 0], [0, 1], [1, 1]],
    "weights": {"w_q": [[1, 0], [0, 1]], "b_v": ["0.5", 0]},
    "claims": {"head1.masked": "[[0, 0, -inf], [-inf, 0, 0]]", "head1.weights[1]": "[0.5, 0.5, 0]"},
}


def test_masked_cross_attention_sheet_gives_the_mask_and_keys_check():
    files = ex.make_variant(MASKED_CROSS, 2, 1, ex.ExerciseOptions(verify=True))
    sheet = files["variant-001/sheet.md"].decode()
    assert "&M_{0/1} = \\begin{bmatrix} 1 & 1 & 0 \\\\ 0 & 1 & 1 \\end{bmatrix}" in sheet
    assert "- Token 3 “k3” → $\\left[1,\\; 0\\right]$" in sheet
    assert ex.printed_claims(files["variant-001/answers.md"].decode()) == {
        "head1.masked": "[[-1, 0, -inf], [-inf, 1, 0]]",
        "head1.weights": "[[0.27, 0.73, 0], [0, 0.73, 0.27]]",
    }


def test_variant_spec_toml_reads_back(tmp_path, raws):
    files = ex.make_variant(raws["two-tokens"], 1, 1, ex.ExerciseOptions())
    path = tmp_path / "spec.toml"
    path.write_bytes(files["variant-001/spec.toml"])
    assert derive(AttentionSpec.from_toml(path))["head1.scores"].tolist() == [[2, 0], [0, 2]]


def test_to_toml_writes_tables_after_the_top_level_keys():
    table = {
        "title": 'A "b"',
        "x": [[1, "1/2"]],
        "weights": {"w_q": "symbolic"},
        "parameters": {"tau": "positive"},
        "loss": {"kind": "mse", "t": {"a b": 1}},
    }
    assert ex.to_toml(table) == (
        'title = "A \\"b\\""\nx = [[1, "1/2"]]\n\n[weights]\nw_q = "symbolic"\n\n'
        '[parameters]\ntau = "positive"\n\n[loss]\nkind = "mse"\nt = {"a b" = 1}\n'
    )


def test_symbolic_parameters_stay_and_their_answers_have_no_decimals():
    files = ex.make_variant(ex.load(example="temperature"), 1, 1, ex.ExerciseOptions())
    spec = files["variant-001/spec.toml"].decode()
    assert spec.endswith('scale = "1/tau"\nx = [[-1, 0], [0, 1], [1, 1]]\n\n[parameters]\n'
                         'tau = "positive"\n\n[translations]\n'
                         'bn = {title = "তাপমাত্রা: স্কেল না করলে কী হতো?"}\n')  # fmt: skip
    answers = files["variant-001/answers.md"].decode()
    assert ex.printed_claims(answers) == {"head1.scores": "[[1, 0, -1], [0, 1, 1], [-1, 1, 2]]"}
    assert answers.count("*This answer contains symbols, so it has no decimals.*") == 3


def test_bengali_sheet_uses_the_bengali_words(raws):
    files = ex.make_variant(raws["two-tokens"], 1, 1, ex.ExerciseOptions(lang="bn"))
    sheet = files["variant-001/sheet.md"].decode()
    assert sheet.startswith("# অনুশীলনী 1: দুটি টোকেন, দুটি হেড\n")
    assert "## প্রশ্ন\n" in sheet


def test_verify_checks_the_answer_key(raws):
    options = ex.ExerciseOptions(verify=True)
    assert "variant-002/answers.md" in ex.make_variant(raws["one-token"], 1, 2, options)


# ------------------------------------------------------------------ the command
def test_command_writes_the_bank(tmp_path, capsys):
    out = tmp_path / "bank"
    argv = ["exercises", "--example", "two-tokens", "--count", "2", "--seed", "1", "-o", str(out),
            "--workers", "1"]  # fmt: skip
    assert main(argv) == 0
    assert capsys.readouterr().err == f"wrote 2 variants (7 files) to {out}\n"
    assert (out / "variant-001" / "spec.toml").read_text() == TWO_TOKENS_1_1
    index = json.loads((out / "bank.json").read_text())
    assert index["source"] == "example two-tokens"
    assert index["variants"][1]["files"] == [
        "variant-002/answers.md", "variant-002/sheet.md", "variant-002/spec.toml"
    ]  # fmt: skip
    assert main([*argv, "--quiet"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--example", "two-tokens", "--count", "2", "-o", "{tmp}/missing/b"],
         "mha-symbolic: {tmp}/missing/b: its parent folder does not exist"),
        (["--example", "three-tokens", "--count", "2", "-o", "{tmp}/b"],
         "mha-symbolic: unknown example 'three-tokens' (did you mean 'two-tokens'?); known: "
         "{known}"),
        (["--count", "2", "-o", "{tmp}/b"],
         "mha-symbolic: give a spec file or --example NAME (see `mha-symbolic examples`)"),
        (["{tmp}/none.toml", "--count", "2", "-o", "{tmp}/b"],
         "mha-symbolic: {tmp}/none.toml: no such file"),
        (["--example", "two-tokens", "--count", "2", "-o", "{tmp}/file.txt"],
         "mha-symbolic: {tmp}/file.txt: is a file, not a folder"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, argv, message):
    from mha_symbolic.spec.attention import example_names

    (tmp_path / "file.txt").write_text("")
    fill = {"tmp": str(tmp_path), "known": ", ".join(example_names())}
    assert main(["exercises", *(a.format(**fill) for a in argv)]) == 2
    captured = capsys.readouterr()
    assert captured.err == message.format(**fill) + "\n"
    assert captured.out == ""


@pytest.mark.parametrize("count", ["0", "x", "100001"])
def test_bad_count_is_a_usage_error(tmp_path, capsys, count):
    argv = ["exercises", "--example", "two-tokens", "--count", count, "-o", str(tmp_path / "b")]
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert capsys.readouterr().err == (
        "mha-symbolic exercises: argument --count: expected a whole number from 1 to 100000, "
        f"got '{count}' (see mha-symbolic exercises --help)\n"
    )
    assert not (tmp_path / "b").exists()


def test_pdf_without_pdflatex_names_the_package(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("mha_symbolic.solution.pdf.shutil.which", lambda name: None)
    argv = ["exercises", "--example", "two-tokens", "--count", "1", "-o", str(tmp_path / "b"),
            "--format", "pdf"]  # fmt: skip
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        "mha-symbolic: pdflatex is not installed: apt-get install texlive-latex-base "
        "texlive-latex-recommended\n"
    )
    assert not (tmp_path / "b" / "variant-001").exists()


@needs_pdflatex
def test_combined_pdf_compiles_with_pdflatex(tmp_path):
    files = bank(tmp_path, "two-tokens", 2, seed=1, fmt="pdf")
    assert files["bank.pdf"].startswith(b"%PDF")
    tex = files["bank.tex"].decode()
    assert tex.count("\\section*{Exercise ") == 2
    assert tex.count("\\section*{Answer key, exercise ") == 2
    assert tex.index("Exercise 2:") < tex.index("Answer key, exercise 1:")
    again = bank(tmp_path / "again", "two-tokens", 2, seed=1, fmt="pdf")
    assert again["bank.pdf"] == files["bank.pdf"]  # pdfTeX: no dates, no random trailer ID


# ---------------------------------------------------------------- what a student reads
def test_every_symbol_a_question_uses_is_given_asked_before_or_defined(raws):
    files = ex.make_variant(raws["pytorch-style"], 1, 1, ex.ExerciseOptions())
    lines = [
        line for line in files["variant-001/sheet.md"].decode().splitlines()
        if line.startswith("**") and ". " in line[:6]
    ]  # fmt: skip
    assert lines[1] == (
        "**2. Attention weights, head 1**: $A_{1} = \\operatorname{softmax}\\left(S'_{1}\\right)$, "
        "where $S'_{1} = \\frac{Q_{1} K_{1}^{\\top}}{\\sqrt{d_{k}}}$; shape $(4, 4)$"
    )
    assert lines[0].endswith(
        "where $K = X W_{K}^{\\top},\\; K_{1} = K[:,\\, 0{:}3],\\; Q = X W_{Q}^{\\top},\\; "
        "Q_{1} = Q[:,\\, 0{:}3]$; shape $(4, 4)$"
    )
    assert lines[3].endswith(
        "where $K_{2} = K[:,\\, 3{:}6],\\; Q_{2} = Q[:,\\, 3{:}6]$; shape $(4, 4)$"
    )


def test_the_answer_key_shows_maths_not_checker_syntax(raws):
    answers = ex.make_variant(raws["two-tokens"], 1, 1, ex.ExerciseOptions())[
        "variant-001/answers.md"
    ].decode()
    visible = re.sub(r"<!--.*?-->", "", answers, flags=re.DOTALL)
    assert "head1." not in visible.split("---")[0]  # no step key before the worked solution
    assert "`" not in visible.split("---")[0]
    assert ex.printed_claims(answers)["head1.scores"] == "[[2, 0], [0, 2]]"  # for the checker


def test_blanks_have_room_for_the_exact_answer(raws):
    d = ex.nice_variant(raws["two-tokens"], 1, 1)[1]
    scores, weights = d.step("head1.scores"), d.step("head1.weights")
    assert ex.blank_cell(scores) == r"\rule{0pt}{2.4em}\underline{\hspace{3em}}"  # integers
    assert ex.blank_cell(weights) == r"\rule{0pt}{2.4em}\underline{\hspace{5.7em}}"  # e²/(1+e²)


def test_an_answer_key_writes_a_wide_matrix_in_column_groups_and_fractions_full_size(raws):
    files = ex.make_variant(raws["pytorch-style"], 0, 1, ex.ExerciseOptions(fmt="tex", verify=True))
    answers = files["variant-001/answers.tex"].decode()
    assert r"\text{columns 1–2 of}\ O\text{:}\quad" in answers  # the 4 x 6 output, full size
    assert r"\dfrac{" in answers and r"{\def\arraystretch{2.1}\begin{bmatrix}" in answers
    sheet = files["variant-001/sheet.tex"].decode()  # its blanks in groups too: 3 + 3 columns
    assert r"\text{columns 1–3 of}\ O\text{:}\quad" in sheet
    assert r"\text{columns 4–6 of}\ O\text{:}\quad" in sheet
    assert r"A_{1} = \begin{bmatrix}" in sheet  # 4 columns fit, a little shrunk: one group


def test_to_toml_escapes_control_characters_and_refuses_a_lone_surrogate():
    tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
    table = {"title": 'tab\tbell\x07 "q" \\ é', "weights": {"w_q": "symbolic"}}
    text = ex.to_toml(table)
    assert text.startswith('title = "tab\\tbell\\u0007 \\"q\\" \\\\ é"\n')
    assert tomllib.loads(text) == table
    with pytest.raises(SpecError) as error:
        ex.to_toml({"title": "a\udc80"})
    assert str(error.value) == "text 'a\\\\udc80' holds a lone surrogate (U+DC80)"
