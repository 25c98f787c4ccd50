"""A worked solution marks, in place, each printed number that does not hold."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace

import pytest

from mha_symbolic import AttentionSpec, check, derive
from mha_symbolic.cli import main
from mha_symbolic.solution.render import render
from mha_symbolic.solution.view import Options


def claimed(name: str) -> AttentionSpec:
    """A built-in example with its assumed numbers read as claims (as a document that does not
    say it assumes them would print them)."""
    spec = AttentionSpec.example(name)
    return replace_claims(spec, {**spec.claims, **numeric(spec.assumed)})


def numeric(assumed: object) -> dict[str, object]:
    """The assumed numbers (not split-scaled's output formula, which names an unknown W_O)."""
    return {k: v for k, v in dict(assumed).items() if "W_O" not in str(v)}  # type: ignore[call-overload]


def replace_claims(spec: AttentionSpec, claims: dict[str, object]) -> AttentionSpec:
    fields = {k: getattr(spec, k) for k in ("claims", "assumed")}
    fields["claims"], fields["assumed"] = claims, {}
    out = object.__new__(AttentionSpec)
    for name, value in vars(spec).items():
        object.__setattr__(out, name, fields.get(name, value))
    return out


def marked(name: str, fmt: str = "md") -> str:
    d = derive(claimed(name))
    return render(d, fmt, replace(Options(), marks=check(d).marks()))


def test_marks_are_plain_data_for_wrong_claims_only():
    d = derive(claimed("one-token"))
    marks = check(d).marks()
    assert sorted(marks) == ["concat", "head1.output", "head2.output"]
    (mark,) = marks["head1.output"]
    assert mark["key"] == "head1.output[1]"
    assert mark["claimed"] == "[0.5, 1.2]"
    assert mark["verdict"] == "wrong"
    assert mark["exact"].tolist() == [[4, 11]]
    assert check(derive(AttentionSpec.example("two-tokens"))).marks() == {}


def test_markdown_shows_the_exact_value_beside_the_wrong_number():
    text = marked("one-token")
    assert text.count("⚠") == 3
    assert (
        "> **⚠ The document prints a wrong number here.** It prints "
        "$\\left[0.5,\\; 1.2\\right]$ (wrong); the exact value is "
        "$\\begin{bmatrix} 4 & 11 \\end{bmatrix}$. "
        "There is only one token, so its only attention weight is exactly 1 and head 1's output "
        "is its value row, $V_{1} = \\left[4,\\; 11\\right]$."
    ) in text
    assert "⚠" not in marked("two-tokens")


def test_mark_sits_in_its_step():
    text = marked("split-scaled")
    head2 = text.index('<a id="head2.output"></a>')
    assert (
        head2
        < text.index("It prints $\\begin{bmatrix} 0.60 & 0.40")
        < text.index('<a id="concat"></a>')
    )
    assert "$\\approx \\begin{bmatrix} 0.67 & 0.33 \\\\ 0.33 & 0.67 \\end{bmatrix}$" in text


def test_bengali_and_html_marks():
    d = derive(claimed("one-token"))
    options = replace(Options(lang="bn"), marks=check(d).marks())
    assert "এখানে ডকুমেন্টে ছাপা সংখ্যাটি ভুল।" in render(d, "md", options)
    html = marked("one-token", "html")
    assert html.count('class="wrong"') == 3
    assert "<code>[0.5, 1.2]</code>" not in html  # a printed list of numbers is maths
    assert "It prints <math" in html and "<mn>0.5</mn>" in html


def test_cli_derive_marks_the_documents_mistakes(capsys):
    assert main(["derive", "--example", "split-scaled"]) == 0
    out = capsys.readouterr().out
    # The concat rows follow from the assumed head 2 output: said so, without a warning sign.
    assert out.count("⚠") == 0
    assert out.count("here: the concatenation is right given the assumed head output, wh") == 1
    assert out.count("**Assumed, not computed.**") == 1  # Z_2
    assert out.count("**Given as a formula, without numbers.**") == 1
    # the box's title and its sentence said "assumes" twice ("The document assumes this
    # value. It assumes Z_2 = ..."); in Bengali the sentence ends with the danda
    assert "**Assumed, not computed.** The document takes $Z_{2} = " in out
    assert main(["derive", "--example", "split-scaled", "--format", "text"]) == 0
    text = capsys.readouterr().out  # the note on the printed rows, then a blank line
    assert "[1/(a + 1), a/(a + 1)] ≈ [0.33, 0.67]).\n\nOutput\n------\n" in text
    assert main(["derive", "--example", "split-scaled", "--lang", "bn"]) == 0
    bengali = capsys.readouterr().out
    assert r"এখানে $Z_{2} = \begin{bmatrix} 0.60 & 0.40 \\ 0.40 & 0.60 \end{bmatrix}$।" in bengali


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext is not installed")
def test_marked_tex_compiles(tmp_path):
    (tmp_path / "s.tex").write_text(marked("split-scaled", "tex"))
    result = subprocess.run(
        ["pdflatex", "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error", "s.tex"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:]
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "s.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert text.count("The document prints a wrong number here.") == 3


def test_a_wrong_number_says_the_likely_mistake_the_checker_found() -> None:
    import math

    from tests.english import english_words

    d = derive(AttentionSpec.example("split-scaled"))
    scores = d.step("head1.scores").value
    rows = []
    for i in range(scores.rows):  # the softmax of the scores not divided by sqrt(d_k)
        powers = [math.exp(float(s)) for s in scores.row(i)]
        rows.append("[" + ", ".join(f"{p / sum(powers):.4f}" for p in powers) + "]")
    marks = check(d, claims={"head1.weights": "[" + ", ".join(rows) + "]"}).marks()
    english = render(d, "md", Options(marks=marks))
    assert "Likely mistake: the scores were not divided by $\\sqrt{d_k}$." in english
    bengali = render(d, "md", Options(marks=marks, lang="bn"))
    assert "সম্ভাব্য ভুল: স্কোরগুলোকে $\\sqrt{d_k}$ দিয়ে ভাগ করা হয়নি।" in bengali
    assert not english_words(bengali, d.spec.tokens)


def test_every_likely_mistake_the_checker_names_has_a_students_sentence() -> None:
    from mha_symbolic.language.words import Words

    for lang in ("en", "bn"):
        table = Words(lang, None).table
        mistakes = set(table["check"]["mistakes"])
        assert mistakes <= set(table["diagnoses"]), (lang, mistakes - set(table["diagnoses"]))
